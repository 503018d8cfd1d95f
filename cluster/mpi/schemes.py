#!/usr/bin/env python3
"""The two distributed schemes side by side: TDSAB and the root split
(`solve --distributed --scheme tdsab|root-split`), against one process, on
the same positions and rank counts, with repeats.

For each position, every configuration (one process, then each scheme at
each rank count) runs once per round, in an order rotated from round to
round, so that a slow spell of the machine falls on all of them alike. Per
configuration: the median search time of the rounds with a 95% bootstrap
interval, the median of the per-round ratios to one process with its
interval, and the counts (positions searched, messages (and per
position searched), bytes, idle time per rank), which do not depend on the round
except through timing.

    python3 cluster/mpi/schemes.py [BIN] [--ranks 2,4] [--rounds 5] [--quick]

BIN: a stockman built with `--features mpi` (default target/release/stockman).
--quick: FFO #40 and #41 only. Prints Markdown.
"""

import json
import os
import random
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DATA = os.path.join(ROOT, "crates", "stockman", "tests", "data")


def run(args, np=None):
    cmd = ([] if np is None else ["mpirun", "--oversubscribe", "-np", str(np)]) + args
    env = dict(os.environ)
    if os.geteuid() == 0:  # OpenMPI refuses root unless told
        env.update(OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    p = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=3600)
    if p.returncode != 0:
        sys.exit(f"FAILED ({p.returncode}): {' '.join(cmd)}\n{p.stderr}")
    return [json.loads(line) for line in p.stdout.splitlines() if line.strip()][0]


def interval(xs, stat=statistics.median, n=2000):
    """A 95% bootstrap interval of `stat` over `xs`."""
    rng = random.Random(1)
    boots = sorted(stat([rng.choice(xs) for _ in xs]) for _ in range(n))
    return boots[int(0.025 * n)], boots[int(0.975 * n) - 1]


def main():
    flags_with_values = ("--ranks", "--rounds")
    args = [a for i, a in enumerate(sys.argv[1:]) if not a.startswith("--") and sys.argv[i] not in flags_with_values]
    binary = args[0] if args else os.path.join(ROOT, "target", "release", "stockman")
    ranks = [2, 4]
    if "--ranks" in sys.argv:
        ranks = [int(x) for x in sys.argv[sys.argv.index("--ranks") + 1].split(",")]
    rounds = int(sys.argv[sys.argv.index("--rounds") + 1]) if "--rounds" in sys.argv else 5
    quick = "--quick" in sys.argv
    tmp = tempfile.mkdtemp()
    ffo = open(os.path.join(DATA, "othello", "fforum-40-59.obf")).read().splitlines()[: 2 if quick else 5]
    positions = []
    for i, line in enumerate(ffo):
        path = os.path.join(tmp, f"ffo{40 + i}.obf")
        open(path, "w").write(line + "\n")
        positions.append((f"FFO #{40 + i}", ["--game", "othello", "--positions", path]))
    configs = [("one process", None, None)] + [(f"{s} x{n}", s, n) for s in ("tdsab", "root-split") for n in ranks]

    print(f"{rounds} rounds per configuration, order rotated each round; times are rank 0's search time.\n")
    print("| position | run | positions | messages (per position) | bytes | idle per rank ms | time ms (median, 95% CI) | vs one process (median, 95% CI) |")
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    for label, source in positions:
        times = {c[0]: [] for c in configs}
        rows = {}
        for r in range(rounds):
            order = configs[r % len(configs):] + configs[: r % len(configs)]
            for name, scheme, n in order:
                if scheme is None:
                    row = run([binary, "solve", *source, "--algo", "mtdf", "--format", "json"])
                else:
                    row = run([binary, "solve", *source, "--distributed", "--scheme", scheme, "--format", "json"], np=n)
                times[name].append(row["stats"]["time_us"] / 1000)
                rows[name] = row
        base = times["one process"]
        for name, scheme, n in configs:
            row, ts = rows[name], times[name]
            nodes = row["stats"]["nodes"]
            d = row.get("distributed")
            lo, hi = interval(ts)
            ratios = [t / b for t, b in zip(ts, base)]
            rlo, rhi = interval(ratios)
            per = f"{d['messages']:,} ({d['messages'] / nodes:.5f})" if d else ""
            sent = f"{d['bytes']:,}" if d else ""
            idle = f"{d['idle_us'] / 1000 / d['ranks']:.0f}" if d else ""
            vs = "" if scheme is None else f"{statistics.median(ratios):.2f} ({rlo:.2f}-{rhi:.2f})"
            print(
                f"| {label} | {name} | {nodes:,} | {per} | {sent} | {idle} "
                f"| {statistics.median(ts):.0f} ({lo:.0f}-{hi:.0f}) | {vs} |",
                flush=True,
            )


if __name__ == "__main__":
    main()
