#!/usr/bin/env bash
# A one-node Slurm cluster on this machine, from Debian's slurm-wlm and
# munge, to run the job-array scripts as a cluster would: submit.sh sends
# an array of shards and a merge that waits for it to end (afterany), and `check`
# compares the merged result with one unsharded run.
#
#   cluster/slurm/local-cluster.sh start   # as root: install, configure, start the daemons
#   cluster/slurm/local-cluster.sh check   # submit a batch and a grid, wait, compare (exit 1 if they differ)
#   cluster/slurm/local-cluster.sh stop    # stop the daemons
#
# STOCKMAN: the binary to use (default target/release/stockman, else
# target/debug/stockman). The cluster's files live in /etc/slurm,
# /var/spool/slurm* and /var/log/slurm; `stop` leaves them for the next start.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
node=$(hostname -s)

start() {
  [ "$(id -u)" -eq 0 ] || { echo "start needs root (it installs packages and starts daemons)" >&2; exit 2; }
  if ! command -v slurmctld >/dev/null || ! command -v munged >/dev/null; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq slurm-wlm munge >/dev/null
  fi
  mkdir -p /etc/munge /var/lib/munge /var/log/munge /run/munge /etc/slurm /var/spool/slurmctld /var/spool/slurmd /var/log/slurm
  if [ ! -s /etc/munge/munge.key ]; then
    dd if=/dev/urandom of=/etc/munge/munge.key bs=1024 count=1 status=none
  fi
  chown -R munge:munge /etc/munge /var/lib/munge /var/log/munge /run/munge 2>/dev/null || true
  chmod 0700 /etc/munge
  chmod 0400 /etc/munge/munge.key
  pgrep -x munged >/dev/null || su -s /bin/sh munge -c "munged" 2>/dev/null || munged --force
  local cpus mem
  cpus=$(nproc)
  mem=$(($(awk '/MemTotal/ {print $2}' /proc/meminfo) / 1024 - 512))
  cat >/etc/slurm/slurm.conf <<EOF
# Written by stockman's cluster/slurm/local-cluster.sh: one node, this machine.
ClusterName=stockman-local
SlurmctldHost=$node
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
StateSaveLocation=/var/spool/slurmctld
SlurmdSpoolDir=/var/spool/slurmd
SlurmctldPidFile=/run/slurmctld.pid
SlurmdPidFile=/run/slurmd.pid
SlurmctldLogFile=/var/log/slurm/slurmctld.log
SlurmdLogFile=/var/log/slurm/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
MpiDefault=none
SwitchType=switch/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
ReturnToService=2
NodeName=$node CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=local Nodes=$node Default=YES MaxTime=INFINITE State=UP
EOF
  pgrep -x slurmctld >/dev/null || slurmctld
  pgrep -x slurmd >/dev/null || slurmd
  for _ in $(seq 60); do
    if sinfo -h -N -o '%t' 2>/dev/null | grep -qE '^(idle|mix|alloc)'; then
      sinfo
      return 0
    fi
    scontrol update NodeName="$node" State=RESUME >/dev/null 2>&1 || true
    sleep 1
  done
  echo "the node did not come up; the logs:" >&2
  tail -n 20 /var/log/slurm/slurmctld.log /var/log/slurm/slurmd.log >&2 || true
  exit 1
}

stop() {
  pkill -x slurmd || true
  pkill -x slurmctld || true
  pkill -x munged || true
}

# wait_for JOB SECONDS: until the job has left the queue.
wait_for() {
  local job=$1 limit=$2
  for _ in $(seq "$limit"); do
    if [ -z "$(squeue -h -j "$job" 2>/dev/null)" ]; then
      return 0
    fi
    sleep 1
  done
  echo "job $job still queued or running after $limit s:" >&2
  squeue >&2
  exit 1
}

# submitted STOCKMAN SUBMIT-ARGS...: submits with submit.sh and waits for
# the array and then the merge to leave the queue.
submitted() {
  local stockman=$1 ids
  shift
  ids=$(STOCKMAN=$stockman "$root/cluster/slurm/submit.sh" "$@")
  echo "$ids"
  wait_for "$(head -n 1 <<<"$ids" | sed -E 's/^array ([0-9]+).*/\1/')" 600
  wait_for "$(head -n 1 <<<"$ids" | sed -E 's/.*merge ([0-9]+);.*/\1/')" 120
}

check() {
  local stockman=${STOCKMAN:-}
  if [ -z "$stockman" ]; then
    for b in "$root/target/release/stockman" "$root/target/debug/stockman"; do
      [ -x "$b" ] && { stockman=$b; break; }
    done
  fi
  [ -x "$stockman" ] || { echo "no stockman binary: cargo build --release -p stockman-cli, or set STOCKMAN" >&2; exit 2; }
  local work
  work=$(mktemp -d /tmp/stockman-slurm.XXXXXX)
  # Connect Four end-game positions with their exact values (Pons's test
  # set in the repository's test data), solved to the end.
  head -n 12 "$root/crates/stockman/tests/data/connect4/Test_L3_R1" >"$work/positions.txt"
  echo "== a positions batch: 4 shards and a merge"
  submitted "$stockman" positions 4 connect4 "$work/positions.txt" alphabeta,mtdf "$work/batch" --tt-mb 16
  [ -s "$work/batch/merged.jsonl" ] || { echo "the merge wrote no merged.jsonl" >&2; ls -la "$work/batch" >&2; exit 1; }
  "$stockman" solve --game connect4 --positions "$work/positions.txt" --algo alphabeta,mtdf --tt-mb 16 \
    --format json >"$work/whole.jsonl"
  python3 - "$work/batch/merged.jsonl" "$work/whole.jsonl" <<'EOF'
import json, sys
TIMES = ("mean_time_us", "median_time_us", "p99_time_us", "positions_per_s")
def lines(path):
    out = []
    for line in open(path):
        v = json.loads(line)
        t = v.get("summary", v)
        t["stats"]["time_us"] = 0
        for k in TIMES:
            t.pop(k, None)
        out.append(v)
    return out
merged, whole = lines(sys.argv[1]), lines(sys.argv[2])
if merged != whole:
    print("FAIL: the merged shards differ from the unsharded run", file=sys.stderr)
    sys.exit(1)
print(f"PASS: {len(merged)} lines, the rows and summaries of the unsharded run")
EOF
  cat "$work/batch/merged.txt"
  echo "== an experiment grid: 3 shards and a merge"
  submitted "$stockman" grid 3 "$work/grid" --preset quick --seeds 2 --algo alphabeta,sss,mt-sss
  "$stockman" experiment --preset quick --seeds 2 --algo alphabeta,sss,mt-sss --threads 1 \
    --out "$work/grid-whole" >/dev/null
  python3 - "$work/grid/merged/results.csv" "$work/grid-whole/results.csv" <<'EOF'
import csv, sys
def rows(path):
    with open(path) as f:
        r = list(csv.DictReader(f))
    for row in r:
        for k in list(row):
            if "time" in k:
                row.pop(k)
    return r
merged, whole = rows(sys.argv[1]), rows(sys.argv[2])
if merged != whole:
    print("FAIL: the merged grid differs from the unsharded grid", file=sys.stderr)
    sys.exit(1)
print(f"PASS: {len(merged)} rows, those of the unsharded grid")
EOF
  echo "== the jobs, as Slurm ran them"
  ls "$work/batch" "$work/grid"
  rm -rf "$work"
}

case "${1:-}" in
  start) start ;;
  check) check ;;
  stop) stop ;;
  *) sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2 ;;
esac
