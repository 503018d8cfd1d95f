#!/usr/bin/env bash
# Reproduces docs/experiments/parallel.md: the simulated machines (exact,
# the same on every run) and the real-thread benchmark on this machine
# (interleaved runs; times vary with the machine and its load).
# Usage: docs/experiments/parallel/run.sh [simulate|bench|all]
set -euo pipefail
cd "$(dirname "$0")/../../.."
cargo build --release -q -p stockman-cli
B=target/release/stockman
OUT=docs/experiments/parallel
what=${1:-all}

if [[ $what == simulate || $what == all ]]; then
  $B simulate --random width=8,depth=8,seed=1 --algo all --processors powers --format json > $OUT/sim-random.json
  $B simulate --random width=8,depth=8,seed=1,model=incremental --algo all --processors powers --format json > $OUT/sim-random-incremental.json
  $B simulate --game connect4 --position 4453 --depth 12 --algo sss,dual,alphabeta,mtdf --processors powers --format json > $OUT/sim-connect4.json
  $B simulate --game othello --depth 7 --algo sss,dual,alphabeta,mtdf --processors powers --format json > $OUT/sim-othello.json
  $B simulate --game chess --depth 4 --algo sss,alphabeta,mtdf --processors powers --format json > $OUT/sim-chess.json
fi

if [[ $what == bench || $what == all ]]; then
  # The heaviest positions of Test_L1_R3's first 40 (by one-thread time),
  # exact solves with MTD(bi); 1 and 2 threads interleaved, twice.
  echo "position threads parallel value nodes seconds" > $OUT/bench-connect4.txt
  for rep in 1 2; do
    for pos in 64 5776 17277 527376 13712; do
      for cfg in "1 abdada" "2 abdada" "2 lazy-smp"; do
        set -- $cfg
        s=$( { /usr/bin/time -f "%e" $B solve --game connect4 --position $pos --algo mtd-bi \
               --threads $1 --parallel $2 --format json > /tmp/stockman-bench.json; } 2>&1 )
        python3 - "$pos" "$1" "$2" "$s" >> $OUT/bench-connect4.txt <<'PY'
import json, sys
r = json.load(open("/tmp/stockman-bench.json"))
r = r[0] if isinstance(r, list) else r
print(sys.argv[1], sys.argv[2], sys.argv[3], r["value"], r["stats"]["nodes"], sys.argv[4])
PY
      done
    done
  done
  # The empty board, once each way.
  for t in 1 2; do
    s=$( { /usr/bin/time -f "%e" $B solve --game connect4 --algo mtd-bi --threads $t --format json > /tmp/stockman-bench.json; } 2>&1 )
    python3 - "empty" "$t" "abdada" "$s" >> $OUT/bench-connect4.txt <<'PY'
import json, sys
r = json.load(open("/tmp/stockman-bench.json"))
r = r[0] if isinstance(r, list) else r
print(sys.argv[1], sys.argv[2], sys.argv[3], r["value"], r["stats"]["nodes"], sys.argv[4])
PY
  done
fi
