#!/usr/bin/env bash
# Submits a stockman batch or grid to Slurm as an array of N shards and a
# merge that waits for all of them to end (afterany), and prints the two job
# ids and the lines that run one shard again.
#
#   cluster/slurm/submit.sh positions N GAME POSITIONS ALGO OUT [SOLVE FLAGS...]
#   cluster/slurm/submit.sh grid      N OUT GRID FLAGS...
#
# Examples:
#   cluster/slurm/submit.sh positions 16 othello data/ffo.obf mtdf runs/ffo --tt-mb 512
#   cluster/slurm/submit.sh grid 64 runs/wide --preset wide --seeds 100
#
# STOCKMAN (default: target/release/stockman, made absolute) must be on a
# path every node sees, as must the positions file and OUT. The merge runs
# however the shards ended and checks for itself that every shard is there
# and whole; if one failed or is missing it names it and writes nothing:
# run that shard again alone with the rerun line printed here (also in
# OUT/rerun.txt), then the merge line. SBATCH_FLAGS
# (e.g. "--partition=short --time=02:00:00") are passed to every sbatch
# call. Nothing here is stockman-specific beyond the flags: read the
# .sbatch files before running on a shared cluster.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
usage() { sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
[ $# -ge 3 ] || usage
kind=$1 n=$2
shift 2
[[ "$n" =~ ^[1-9][0-9]*$ ]] || { echo "N must be a positive number of shards, not '$n'" >&2; exit 2; }
STOCKMAN=$(realpath "${STOCKMAN:-target/release/stockman}")
[ -x "$STOCKMAN" ] || { echo "$STOCKMAN is not an executable (cargo build --release -p stockman-cli)" >&2; exit 2; }
command -v sbatch >/dev/null || { echo "sbatch not found: is this a Slurm login node?" >&2; exit 2; }
# shellcheck disable=SC2206 # SBATCH_FLAGS is a list of words
flags=(${SBATCH_FLAGS:-})
# The words of one command, quoted for a shell.
quoted() { printf '%q ' "$@"; }
case "$kind" in
  positions)
    [ $# -ge 4 ] || usage
    game=$1 positions=$(realpath "$2") algo=$3 out=$4
    shift 4
    mkdir -p "$out"
    out=$(realpath "$out")
    script=("$here/positions.sbatch" "$n" "$game" "$positions" "$algo" "$out" "$@")
    ;;
  grid)
    [ $# -ge 2 ] || usage
    out=$1
    shift
    mkdir -p "$out"
    out=$(realpath "$out")
    script=("$here/grid.sbatch" "$n" "$out" "$@")
    ;;
  *) usage ;;
esac
export STOCKMAN
array=$(cd "$out" && sbatch --parsable --export=ALL --array="1-$n" "${flags[@]}" "${script[@]}")
array=${array%%;*}
merge_script=("$here/merge.sbatch" "$kind" "$n" "$out")
merge=$(cd "$out" && sbatch --parsable --export=ALL --dependency="afterany:$array" "${flags[@]}" \
  "${merge_script[@]}")
merge=${merge%%;*}
echo "array $array ($n shards), merge $merge; results in $out"
{
  echo "# If the merge names a shard K that failed or is missing: run it again alone, then the merge."
  echo "cd $(quoted "$out") && STOCKMAN=$(quoted "$STOCKMAN")sbatch --export=ALL --array=K $(quoted "${flags[@]}" "${script[@]}")"
  echo "cd $(quoted "$out") && STOCKMAN=$(quoted "$STOCKMAN")sbatch --export=ALL $(quoted "${flags[@]}" "${merge_script[@]}")"
} | tee "$out/rerun.txt"
