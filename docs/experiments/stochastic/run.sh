#!/bin/bash
# Reproduces every figure of docs/experiments/stochastic.md (about 20 minutes
# on one core of the 2-core machine of 2026-11-28). Writes JSON rows here.
# Usage: docs/experiments/stochastic/run.sh [path/to/stockman]
set -euo pipefail
cd "$(dirname "$0")"
S=${1:-../../../target/release/stockman}
# Kaufmann and Koolen 2017's random-tree experiment: full 10-ary trees of
# depth 3, means uniform in [0, 1] (thousandths here), delta 0.1, epsilon 0.01.
for rate in proven heuristic; do
  $S solve --random width=10,depth=3,seed=1,model=bernoulli --algo lucb-mcts,ugape-mcts \
    --delta 0.1 --epsilon 0.01 --rate $rate --runs 100 --format json > kk-random-$rate.json
done
$S solve --random width=10,depth=3,seed=1,model=bernoulli --algo uniform,bns-murphy \
  --delta 0.1 --epsilon 0.01 --rate heuristic --runs 20 --format json > kk-random-uniform-bns.json
# Murphy's test on 1,000 random sets of three arms against 0.5, each sampling rule.
for rule in murphy thompson lcb uniform; do
  $S solve --random width=3,depth=1,seed=0,model=bernoulli,root=min --threshold 0.5 --epsilon 0.05 \
    --sampling $rule --runs 1000 --format json > murphy-$rule.json
done
# Our depth-two and depth-three trees (the papers' means could not be read), epsilon 0.
for rate in proven heuristic; do
  $S solve --tree depth2.tree --algo lucb-mcts,ugape-mcts,uniform,bns-murphy --delta 0.1 \
    --rate $rate --runs 1000 --format json > depth2-$rate.json
  $S solve --tree depth3.tree --algo lucb-mcts,ugape-mcts --delta 0.1 \
    --rate $rate --runs 100 --format json > depth3-$rate.json
done
# BNS at epsilon 0 on the depth-three tree (it ends since issue 63's caps on its tests).
for rate in proven heuristic; do
  $S solve --tree depth3.tree --algo bns-murphy --delta 0.1 --rate $rate --runs 10 --format json \
    > depth3-bns-$rate.json
done
# Uniform sampling on the depth-three tree needs epsilon > 0 to end in reasonable time.
$S solve --tree depth3.tree --algo bns-murphy,uniform --delta 0.1 --epsilon 0.01 --rate heuristic \
  --runs 10 --format json > depth3-bns-uniform.json
