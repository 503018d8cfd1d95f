#!/usr/bin/env python3
"""Parallel SSS* in rounds against the sequential SSS* (issue 47 item 4).

Goals: with a 20 us leaf, 2 threads at most 0.75x one thread's time; with
free leaves, at most 1.5x. One thread is the sequential SSS* (`--algo sss`,
the array OPEN); two threads run either rounds of two states always
(`--threads 2 --parallel rounds --round-states 2`: the simulation's rounds,
the same leaves on every run) or the rounds left to the search (`--threads
2 --parallel rounds`, the default: rounds while a state's work is worth a
meeting of the threads, SSS*'s own steps while it is not). The runs of a
case run once per round, in an order that rotates; per case the median
time of the rounds with a 95% bootstrap interval and the median per-round
ratio with its interval. A goal "at most X" holds only where the ratio's
interval ends at or below X.

    python3 docs/experiments/parallel/rounds.py [BIN] [--rounds 7]

Prints Markdown. Values are checked equal.
"""

import json
import os
import statistics
import subprocess
import sys
import time

from bench import interval  # the same 95% bootstrap interval as the bench

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

CASES = [
    ("free leaves, width 8 depth 7", ["--random", "width=8,depth=7,seed=1"], 1.5),
    ("free leaves, width 8 depth 8", ["--random", "width=8,depth=8,seed=1"], 1.5),
    ("20 us leaf, width 8 depth 6", ["--random", "width=8,depth=6,seed=1", "--eval-cost-ns", "20000"], 0.75),
    ("20 us leaf, width 8 depth 7", ["--random", "width=8,depth=7,seed=1", "--eval-cost-ns", "20000"], 0.75),
]
RUNS = [
    ("1 thread, SSS*", []),
    ("2 threads, rounds of 2", ["--threads", "2", "--parallel", "rounds", "--round-states", "2"]),
    ("2 threads, rounds left to the search", ["--threads", "2", "--parallel", "rounds"]),
]


def run(args):
    p = subprocess.run(args, capture_output=True, text=True, timeout=3600)
    if p.returncode != 0:
        sys.exit(f"FAILED ({p.returncode}): {' '.join(args)}\n{p.stderr}")
    rows = json.loads(p.stdout)
    return rows[0] if isinstance(rows, list) else rows


def main():
    argv = sys.argv[1:]
    rounds = int(argv[argv.index("--rounds") + 1]) if "--rounds" in argv else 7
    rest = [a for i, a in enumerate(argv) if not a.startswith("--") and (i == 0 or argv[i - 1] != "--rounds")]
    binary = rest[0] if rest else os.path.join(ROOT, "target", "release", "stockman")
    print(f"{rounds} rounds, the runs of a case in rotating order; {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}.\n")
    print("| case | run | leaves | OPEN peak | time ms (median, 95% CI) | ratio (median, 95% CI) | goal | verdict |")
    print("|---|---|---:|---:|---:|---:|---:|---|")
    for label, source, goal in CASES:
        times = {r[0]: [] for r in RUNS}
        rows = {}
        for k in range(rounds):
            for name, flags in RUNS[k % len(RUNS) :] + RUNS[: k % len(RUNS)]:
                row = run([binary, "solve", *source, "--algo", "sss", *flags, "--format", "json"])
                times[name].append(row["stats"]["time_us"] / 1000)
                rows[name] = row
        if len({r["value"] for r in rows.values()}) != 1:
            sys.exit(f"{label}: the values differ")
        one = times[RUNS[0][0]]
        for name, _ in RUNS:
            ts = times[name]
            lo, hi = interval(ts)
            s = rows[name]["stats"]
            cell = verdict = g = ""
            if name != RUNS[0][0]:
                ratios = [t / b for t, b in zip(ts, one)]
                rlo, rhi = interval(ratios)
                cell = f"{statistics.median(ratios):.2f} ({rlo:.2f}-{rhi:.2f})"
                g = f"{goal:.2f}"
                verdict = "holds" if rhi <= goal else "not shown"
            print(
                f"| {label} | {name} | {s['leaf_evals']:,} | {s['max_open']:,} | {statistics.median(ts):.1f} ({lo:.1f}-{hi:.1f}) | {cell} | {g} | {verdict} |",
                flush=True,
            )


if __name__ == "__main__":
    main()
