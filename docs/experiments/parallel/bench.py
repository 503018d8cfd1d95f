#!/usr/bin/env python3
"""The real-thread benchmark of docs/experiments/parallel.md (issue 47 item 5).

Positions fixed in advance: three heavy Connect Four positions of
Test_L1_R3's first 40 (8-12 s on one thread; exact, MTD(bi)), FFO #40-#44
(exact, MTD(f)) and two chess positions to a fixed depth (MTD(f), iterative
deepening). Each is
solved by every configuration once per round, the configurations in an
order rotated from round to round (so that a slow spell of the machine
falls on all of them alike):

    1 fixed      one thread, the one-thread table (3 entries a bucket)
    1 shared     one thread through the shared table (--shared-table)
    2 abdada     two threads, ABDADA
    2 lazy-smp   two threads, Lazy SMP

Per position and configuration: the median of the rounds' search time with a
95% bootstrap interval, CPU time (user + system of the process), positions
searched (node overhead against one thread through the same table),
positions per second per thread, and the median of the per-round ratios of
time to each one-thread baseline, with its interval. A claim "at most X" holds
only where the interval's upper end is at most X: the verdict of the goal
(ABDADA on 2 threads at most 0.70x one thread) is printed for each position.

    python3 docs/experiments/parallel/bench.py [BIN] [--rounds 5] [--only c4|ffo|chess]

BIN: a release stockman (default target/release/stockman). Prints Markdown.
Every answer is checked: the same value in every configuration and round.
"""

import json
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
DATA = os.path.join(ROOT, "crates", "stockman", "tests", "data")
GOAL = 0.70

CONFIGS = [
    ("1 fixed", ["--threads", "1"]),
    ("1 shared", ["--threads", "1", "--shared-table"]),
    ("2 abdada", ["--threads", "2", "--parallel", "abdada"]),
    ("2 lazy-smp", ["--threads", "2", "--parallel", "lazy-smp"]),
]


# The bench's positions, fixed in advance (validate.py simulates the same ones).
C4_HEAVY = ["17277", "527376", "13712"]
KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
CHESS = [("chess start d8", "startpos", 8), ("Kiwipete d5", KIWIPETE, 5)]


def ffo_lines():
    """FFO #40-#44: (number, OBF line)."""
    lines = open(os.path.join(DATA, "othello", "fforum-40-59.obf")).read().splitlines()[:5]
    return [(40 + i, line) for i, line in enumerate(lines)]


def positions(tmp, only):
    out = []
    if only in (None, "c4"):
        for p in C4_HEAVY:
            out.append((f"C4 {p}", ["--game", "connect4", "--position", p, "--algo", "mtd-bi"]))
    if only in (None, "ffo"):
        for n, line in ffo_lines():
            path = os.path.join(tmp, f"ffo{n}.obf")
            open(path, "w").write(line + "\n")
            out.append((f"FFO #{n}", ["--game", "othello", "--positions", path, "--algo", "mtdf"]))
    if only in (None, "chess"):
        for label, fen, depth in CHESS:
            out.append((label, ["--game", "chess", "--position", fen, "--depth", str(depth), "--iterative", "--algo", "mtdf"]))
    return out


def run(args):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    p = subprocess.run(args, capture_output=True, text=True, timeout=3600)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if p.returncode != 0:
        sys.exit(f"FAILED ({p.returncode}): {' '.join(args)}\n{p.stderr}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    try:
        rows = json.loads(p.stdout)
        rows = rows if isinstance(rows, list) else [rows]
    except json.JSONDecodeError:  # a positions file: a JSON line per search, then summaries
        rows = [json.loads(line) for line in p.stdout.splitlines() if line.strip()]
    return next(r for r in rows if "value" in r), wall, cpu


def interval(xs, stat=statistics.median, n=2000):
    """A 95% bootstrap interval of `stat` over `xs`."""
    rng = random.Random(1)
    boots = sorted(stat([rng.choice(xs) for _ in xs]) for _ in range(n))
    return boots[int(0.025 * n)], boots[int(0.975 * n) - 1]


def main():
    argv = sys.argv[1:]
    rounds = int(argv[argv.index("--rounds") + 1]) if "--rounds" in argv else 5
    only = argv[argv.index("--only") + 1] if "--only" in argv else None
    skip = {i + 1 for i, a in enumerate(argv) if a in ("--rounds", "--only")}
    rest = [a for i, a in enumerate(argv) if not a.startswith("--") and i not in skip]
    binary = rest[0] if rest else os.path.join(ROOT, "target", "release", "stockman")
    tmp = tempfile.mkdtemp()
    print(f"{rounds} rounds, configurations in an order rotated each round; {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}.")
    print("Time: the search's own (`stats.time_us`); CPU: the process's user + system time.\n")
    print("| position | run | value | positions (vs 1 shared) | time ms (median, 95% CI) | CPU s | positions/s/thread | vs 1 fixed | vs 1 shared |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
    verdicts = []
    for label, source in positions(tmp, only):
        times = {c[0]: [] for c in CONFIGS}
        cpus = {c[0]: [] for c in CONFIGS}
        nodes = {c[0]: [] for c in CONFIGS}
        values = set()
        for r in range(rounds):
            order = CONFIGS[r % len(CONFIGS):] + CONFIGS[: r % len(CONFIGS)]
            for name, flags in order:
                row, _wall, cpu = run([binary, "solve", *source, *flags, "--format", "json"])
                values.add(row["value"])
                times[name].append(row["stats"]["time_us"] / 1000)
                cpus[name].append(cpu)
                nodes[name].append(row["stats"]["nodes"])
        if len(values) != 1:
            sys.exit(f"{label}: the configurations disagree on the value: {sorted(values)}")
        value = values.pop()
        shared_nodes = statistics.median(nodes["1 shared"])
        for name, flags in CONFIGS:
            threads = int(flags[1])
            ts = times[name]
            lo, hi = interval(ts)
            n = statistics.median(nodes[name])
            rate = n / (statistics.median(ts) / 1000) / threads
            cells = []
            for base in ("1 fixed", "1 shared"):
                if name.startswith("1 "):
                    cells.append("")
                    continue
                ratios = [t / b for t, b in zip(ts, times[base])]
                rlo, rhi = interval(ratios)
                cells.append(f"{statistics.median(ratios):.2f} ({rlo:.2f}-{rhi:.2f})")
                if name == "2 abdada":
                    verdicts.append((label, base, statistics.median(ratios), rhi))
            print(
                f"| {label} | {name} | {value} | {n:,.0f} ({n / shared_nodes:.2f}) "
                f"| {statistics.median(ts):.0f} ({lo:.0f}-{hi:.0f}) | {statistics.median(cpus[name]):.2f} "
                f"| {rate:,.0f} | {cells[0]} | {cells[1]} |",
                flush=True,
            )
    print(f"\nGoal: ABDADA on 2 threads at most {GOAL:.2f}x one thread's time, held where the 95% interval's upper end is at most {GOAL:.2f}.\n")
    print("| position | against | median ratio | upper end | verdict |")
    print("|---|---|---:|---:|---|")
    for label, base, med, hi in verdicts:
        print(f"| {label} | {base} | {med:.2f} | {hi:.2f} | {'holds' if hi <= GOAL else 'not shown'} |")


if __name__ == "__main__":
    main()
