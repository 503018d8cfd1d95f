#!/usr/bin/env bash
# Submits a stockman batch or grid to Slurm as an array of N shards and a
# merge that waits for all of them (afterok), and prints the two job ids.
#
#   cluster/slurm/submit.sh positions N GAME POSITIONS ALGO OUT [SOLVE FLAGS...]
#   cluster/slurm/submit.sh grid      N OUT GRID FLAGS...
#
# Examples:
#   cluster/slurm/submit.sh positions 16 othello data/ffo.obf mtdf runs/ffo --tt-mb 512
#   cluster/slurm/submit.sh grid 64 runs/wide --preset wide --seeds 100
#
# STOCKMAN (default: target/release/stockman, made absolute) must be on a
# path every node sees, as must the positions file and OUT. If a shard
# fails, Slurm cancels the merge (--kill-on-invalid-dep): rerun that shard
# (sbatch --array=K ...) and submit the merge again. SBATCH_FLAGS
# (e.g. "--partition=short --time=02:00:00") are passed to both sbatch
# calls. Nothing here is stockman-specific beyond the flags: read the two
# .sbatch files before running on a shared cluster.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
usage() { sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
[ $# -ge 3 ] || usage
kind=$1 n=$2
shift 2
[[ "$n" =~ ^[1-9][0-9]*$ ]] || { echo "N must be a positive number of shards, not '$n'" >&2; exit 2; }
STOCKMAN=$(realpath "${STOCKMAN:-target/release/stockman}")
[ -x "$STOCKMAN" ] || { echo "$STOCKMAN is not an executable (cargo build --release -p stockman-cli)" >&2; exit 2; }
command -v sbatch >/dev/null || { echo "sbatch not found: is this a Slurm login node?" >&2; exit 2; }
# shellcheck disable=SC2086 # SBATCH_FLAGS is a list of flags
case "$kind" in
  positions)
    [ $# -ge 4 ] || usage
    game=$1 positions=$(realpath "$2") algo=$3 out=$4
    shift 4
    mkdir -p "$out"
    out=$(realpath "$out")
    array=$(cd "$out" && STOCKMAN=$STOCKMAN GAME=$game POSITIONS=$positions ALGO=$algo OUT=$out EXTRA="$*" \
      sbatch --parsable --export=ALL --array="1-$n" ${SBATCH_FLAGS:-} "$here/positions.sbatch")
    ;;
  grid)
    [ $# -ge 2 ] || usage
    out=$1
    shift
    mkdir -p "$out"
    out=$(realpath "$out")
    array=$(cd "$out" && STOCKMAN=$STOCKMAN GRID="$*" OUT=$out \
      sbatch --parsable --export=ALL --array="1-$n" ${SBATCH_FLAGS:-} "$here/grid.sbatch")
    ;;
  *) usage ;;
esac
array=${array%%;*}
merge=$(cd "$out" && STOCKMAN=$STOCKMAN KIND=$kind OUT=$out \
  sbatch --parsable --export=ALL --dependency="afterok:$array" --kill-on-invalid-dep=yes ${SBATCH_FLAGS:-} \
  "$here/merge.sbatch")
merge=${merge%%;*}
echo "array $array ($n shards), merge $merge; results in $out"
