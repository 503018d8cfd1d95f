#!/usr/bin/env bash
# Runs every fuzz target for SECONDS (default 60) with libFuzzer, starting
# from the committed seed corpus (fuzz/corpus/<target>, read only) and a
# scratch corpus in a temporary folder. A crash stops its target and leaves
# its input in fuzz/artifacts/<target>/: copy it to fuzz/regressions/<target>/
# (replayed by `cargo test -p stockman-fuzz`) once fixed.
#
# cargo-fuzz needs nightly features; RUSTC_BOOTSTRAP=1 lets the stable
# toolchain provide them. Needs `cargo install cargo-fuzz`.
#
# FUZZ_BUILD holds extra build flags for cargo fuzz. CI passes
# "--dev -s none": a debug build with overflow checks and without
# AddressSanitizer compiles in a third of the time (55 s against 2 min 54 s
# on 2 cores) and runs about 40% as many inputs per second; the targets
# are parsers in safe Rust, where a panic is the bug to find.
set -euo pipefail
cd "$(dirname "$0")"
secs=${1:-60}
read -r -a build <<<"${FUZZ_BUILD:-}"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
export RUSTC_BOOTSTRAP=1
# Every target at once, its errors shown (a run's output goes to its log).
cargo fuzz build "${build[@]}"
status=0
for target in tree_file random_spec game_position positions_file grid_file checkers_position; do
  mkdir -p "$scratch/$target"
  echo "== $target ($secs s)"
  if ! cargo fuzz run "${build[@]}" "$target" "$scratch/$target" "corpus/$target" -- \
      -max_total_time="$secs" -print_final_stats=1 2>"$scratch/$target.log"; then
    status=1
    echo "FAILED: $target found a crash; see fuzz/artifacts/$target/" >&2
  fi
  grep -E "^(Done|stat::number_of_executed_units|#[0-9]+ +DONE)" "$scratch/$target.log" || true
  tail -3 "$scratch/$target.log"
done
exit $status
