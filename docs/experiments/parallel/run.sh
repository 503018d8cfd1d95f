#!/usr/bin/env bash
# Reproduces docs/experiments/parallel.md: the simulated machines (exact,
# the same on every run) and the real-thread benchmark on this machine
# (interleaved runs; times vary with the machine and its load).
# Usage: docs/experiments/parallel/run.sh [simulate|validate|bench|rounds|all]
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
  # Instances of at least 100,000 units at P = 1 (issue 47 item 6).
  $B simulate --random width=8,depth=9,seed=1,model=incremental --algo all --processors powers --format json > $OUT/sim-random-incremental-d9.json
  $B simulate --game connect4 --position 4453 --depth 16 --algo sss,dual,alphabeta,mtdf --processors powers --format json > $OUT/sim-connect4-d16.json
  $B simulate --game othello --depth 10 --algo sss,dual,alphabeta,mtdf --processors powers --format json > $OUT/sim-othello-d10.json
  $B simulate --game othello --depth 12 --algo sss,alphabeta,mtdf --processors powers --format json > $OUT/sim-othello-d12.json
  $B simulate --game chess --depth 6 --algo sss,alphabeta,mtdf --processors powers --format json > $OUT/sim-chess-d6.json
  $B simulate --game chess --depth 7 --algo sss,alphabeta,mtdf --processors powers --format json > $OUT/sim-chess-d7.json
  # FFO #43 to the end under ABDADA (the bench's position; SSS* without a
  # table does not finish there in minutes). About 2 minutes.
  ffo43=$(sed -n 4p crates/stockman/tests/data/othello/fforum-40-59.obf | cut -d';' -f1)
  $B simulate --game othello --position "$ffo43" --algo alphabeta,mtdf --processors powers --format json > $OUT/sim-ffo43.json
  # A cluster's memory: every remote access costs K rounds.
  for k in 1 4 16; do
    $B simulate --game othello --depth 12 --algo sss,alphabeta,mtdf --processors powers --table-latency $k --format json > $OUT/sim-othello-d12-latency$k.json
  done
fi

if [[ $what == validate || $what == all ]]; then
  # The simulator's P = 2 node overhead against two real threads' (FFO
  # #40-#44, chess to a depth), 5 interleaved rounds.
  python3 $OUT/validate.py $B --rounds 5 > $OUT/validate.md
fi

if [[ $what == bench || $what == all ]]; then
  # Heavy Connect Four, FFO #40-#44 and chess to a depth; one thread through
  # the fixed and the shared table, ABDADA and Lazy SMP on two; 5 interleaved
  # rounds; medians with 95% bootstrap intervals and the 0.70x goal's verdict.
  python3 $OUT/bench.py $B --rounds 5 > $OUT/bench.md
fi

if [[ $what == rounds || $what == all ]]; then
  # Parallel SSS* in rounds against the sequential SSS*, free and 20 us leaves.
  python3 $OUT/rounds.py $B --rounds 7 > $OUT/rounds.md
fi
