#!/usr/bin/env python3
"""The simulator against real threads (issue 47 item 6).

On the bench's positions small enough to simulate (FFO #40-#44 to the end,
MTD(f); the chess start to depth 8 and Kiwipete to depth 5, MTD(f) under
iterative deepening; optionally heavy Connect Four), the node overhead of
ABDADA at P = 2 as `stockman simulate` predicts it (synchronous rounds, an
exact table) against the one measured on two real threads:

    matched   the simulated search: the table's move first, no enhanced
              transposition cutoffs, a 256 MiB table; one thread through the
              shared table against two under ABDADA
    engine    the bench's configuration (the game's defaults: ETC on)

Real overheads vary from run to run (the threads' timing decides which
nodes the helper visits), so each is run --rounds times, interleaved, and
given as the median with its 95% bootstrap interval. The simulation is
exact: one run. The verdict: the simulated overhead within +-20% of the
measured median (the issue's tolerance, on the overhead factor).

    python3 docs/experiments/parallel/validate.py [BIN] [--rounds 5] [--c4] [--only TEXT]

--only keeps the positions whose label contains TEXT (`--c4 --only 13712`).

Prints Markdown.
"""

import json
import os
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench import C4_HEAVY, CHESS, ROOT, ffo_lines, interval  # noqa: E402

TOLERANCE = 0.20
MATCHED = ["--no-etc", "--tt-mb", "256"]  # the table's move first is a game's default


def positions(c4):
    out = []
    for n, line in ffo_lines():
        out.append((f"FFO #{n}", ["--game", "othello", "--position", line.split(";")[0].strip()], []))
    for label, fen, depth in CHESS:
        out.append((label, ["--game", "chess", "--position", fen, "--depth", str(depth)], ["--iterative"]))
    if c4:
        for p in C4_HEAVY:
            out.append((f"C4 {p}", ["--game", "connect4", "--position", p], []))
    return out


def command(binary, args):
    p = subprocess.run([binary, *args], capture_output=True, text=True, timeout=7200)
    if p.returncode != 0:
        sys.exit(f"FAILED ({p.returncode}): {binary} {' '.join(args)}\n{p.stderr}")
    return json.loads(p.stdout)


def main():
    argv = sys.argv[1:]
    rounds = int(argv[argv.index("--rounds") + 1]) if "--rounds" in argv else 5
    only = argv[argv.index("--only") + 1] if "--only" in argv else ""
    skip = {i + 1 for i, a in enumerate(argv) if a in ("--rounds", "--only")}
    rest = [a for i, a in enumerate(argv) if not a.startswith("--") and i not in skip]
    binary = rest[0] if rest else os.path.join(ROOT, "target", "release", "stockman")
    print(f"{rounds} interleaved rounds of real threads; {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}.\n")
    print("| position | simulated: work P=1 | overhead P=2 | matched: positions 1 thread | overhead 2 threads (median, 95% CI) | simulated / measured | within 20% | engine: overhead (median, 95% CI) | simulated / engine |")
    print("|---|---:|---:|---:|---:|---:|---|---:|---:|")
    for label, source, deepen in positions("--c4" in argv):
        if only not in label:
            continue
        # The heavy Connect Four positions take more than the default work limit.
        limit = ["--max-work", "2000000000"]
        sim = command(binary, ["simulate", *source, *deepen, "--algo", "mtdf", "--processors", "1,2", *limit, "--format", "json"])
        one, two = sim[0], sim[1]
        base = ["solve", *source, *deepen, "--algo", "mtdf", "--format", "json"]
        runs = {
            "m1": [*base, *MATCHED, "--threads", "1", "--shared-table"],
            "m2": [*base, *MATCHED, "--threads", "2", "--parallel", "abdada"],
            "e1": [*base, "--threads", "1", "--shared-table"],
            "e2": [*base, "--threads", "2", "--parallel", "abdada"],
        }
        nodes = {k: [] for k in runs}
        values = {one["value"]}
        names = list(runs)
        for r in range(rounds):
            for k in names[r % 4:] + names[: r % 4]:
                row = command(binary, runs[k])
                row = row[0] if isinstance(row, list) else row
                values.add(row["value"])
                nodes[k].append(row["stats"]["nodes"])
        if len(values) != 1:
            sys.exit(f"{label}: the runs disagree on the value: {sorted(values)}")
        cells = []
        for a, b in (("m2", "m1"), ("e2", "e1")):
            ratios = [x / y for x, y in zip(nodes[a], nodes[b])]
            lo, hi = interval(ratios)
            cells.append((statistics.median(ratios), lo, hi))
        (mm, mlo, mhi), (em, elo, ehi) = cells
        sim_over = two["overhead"]
        verdict = "yes" if abs(sim_over / mm - 1) <= TOLERANCE else "no"
        print(
            f"| {label} | {one['work']:,} | {sim_over:.3f} | {statistics.median(nodes['m1']):,.0f} "
            f"| {mm:.3f} ({mlo:.3f}-{mhi:.3f}) | {sim_over / mm:.2f} | {verdict} "
            f"| {em:.3f} ({elo:.3f}-{ehi:.3f}) | {sim_over / em:.2f} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
