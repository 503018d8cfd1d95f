#!/usr/bin/env bash
# Runs every fuzz target for SECONDS (default 60) with libFuzzer, starting
# from the committed seed corpus (fuzz/corpus/<target>, read only) and a
# scratch corpus in a temporary folder. A crash stops its target and leaves
# its input in fuzz/artifacts/<target>/: copy it to fuzz/regressions/<target>/
# (replayed by `cargo test -p stockman-fuzz`) once fixed.
#
# cargo-fuzz needs nightly features; RUSTC_BOOTSTRAP=1 lets the stable
# toolchain provide them. Needs `cargo install cargo-fuzz`.
set -euo pipefail
cd "$(dirname "$0")"
secs=${1:-60}
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
export RUSTC_BOOTSTRAP=1
status=0
for target in tree_file random_spec game_position positions_file grid_file checkers_position; do
  mkdir -p "$scratch/$target"
  echo "== $target ($secs s)"
  if ! cargo fuzz run "$target" "$scratch/$target" "corpus/$target" -- \
      -max_total_time="$secs" -print_final_stats=1 2>"$scratch/$target.log"; then
    status=1
    echo "FAILED: $target found a crash; see fuzz/artifacts/$target/" >&2
  fi
  grep -E "^(Done|stat::number_of_executed_units|#[0-9]+ +DONE)" "$scratch/$target.log" || true
  tail -3 "$scratch/$target.log"
done
exit $status
