#!/usr/bin/env python3
"""Calibrates the distributed simulator (`stockman simulate --distributed`)
by this machine's measurements, then forecasts both schemes on many ranks.

Calibration: for each FFO position of a `schemes.py` report (its Markdown,
REPORT), the cost of a position in the simulator is one process's measured
time over the simulated one-process work; the latency is the one of
--latencies (microseconds) whose simulated ratios to one process, on the
rank counts REPORT measured without oversubscription (--fit-ranks), are
nearest the measured medians (least squares of the logarithms). Forecast:
both schemes on --ranks at each of --forecast-latencies, at that cost per
position, printed as speed-up over one process.

    python3 cluster/mpi/forecast.py REPORT [BIN] [--latencies 2,10,50,200]
        [--fit-ranks 1,2] [--ranks 1,4,16,64,256] [--forecast-latencies 2,50]
        [--overhead-ns 1000] [--tt-mb 16] [--quick]

BIN: a stockman binary (default target/release/stockman). --quick: FFO #40
and #41 only. Prints Markdown.
"""

import json
import math
import os
import re
import statistics
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DATA = os.path.join(ROOT, "crates", "stockman", "tests", "data")


def flag(name, default):
    return sys.argv[sys.argv.index(name) + 1] if name in sys.argv else default


def numbers(text, kind=float):
    return [kind(x) for x in text.split(",")]


def measured(report):
    """{position: {run: (positions, median ms, median ratio or None, messages, idle ms per rank)}}
    from a schemes.py report."""
    out = {}
    for line in open(report):
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 8 or not cells[0].startswith("FFO #"):
            continue
        positions = int(cells[2].replace(",", ""))
        messages = int(cells[3].split()[0].replace(",", "")) if cells[3] else 0
        idle = float(cells[5]) if cells[5] else 0.0
        ratio = float(cells[7].split()[0]) if cells[7] else None
        out.setdefault(cells[0], {})[cells[1]] = (positions, int(cells[6].split()[0]), ratio, messages, idle)
    return out


def simulate(binary, position, schemes, ranks, latency_us, node_ns, overhead_ns, tt_mb):
    cmd = [
        binary, "simulate", "--distributed", "--game", "othello", "--position", position,
        "--schemes", ",".join(schemes), "--ranks", ",".join(map(str, ranks)),
        "--latency-us", str(latency_us), "--node-ns", str(node_ns), "--overhead-ns", str(overhead_ns),
        "--tt-mb", str(tt_mb), "--format", "json",
    ]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=7200)
    if p.returncode != 0:
        sys.exit(f"FAILED ({p.returncode}): {' '.join(cmd)}\n{p.stderr}")
    return json.loads(p.stdout)


def main():
    args = [a for i, a in enumerate(sys.argv[1:]) if not a.startswith("--") and not sys.argv[i].startswith("--")]
    if not args:
        sys.exit(__doc__)
    report = measured(args[0])
    binary = args[1] if len(args) > 1 else os.path.join(ROOT, "target", "release", "stockman")
    latencies = numbers(flag("--latencies", "2,10,50,200"))
    fit_ranks = numbers(flag("--fit-ranks", "1,2"), int)
    ranks = numbers(flag("--ranks", "1,4,16,64,256"), int)
    forecast_latencies = numbers(flag("--forecast-latencies", "2,50"))
    overhead_ns = int(flag("--overhead-ns", "1000"))
    tt_mb = int(flag("--tt-mb", "16"))
    lines = open(os.path.join(DATA, "othello", "fforum-40-59.obf")).read().splitlines()
    positions = {f"FFO #{40 + i}": line.split(";")[0].strip() for i, line in enumerate(lines[:5])}
    if "--quick" in sys.argv:
        positions = dict(list(positions.items())[:2])
    schemes = ["tdsab", "root-split"]

    # The cost of a position: measured time over simulated work (one process).
    node_ns = {}
    for label, pos in positions.items():
        one = simulate(binary, pos, ["root-split"], [1], 1, 1, overhead_ns, tt_mb)[0]
        node_ns[label] = max(1, round(report[label]["one process"][1] * 1e6 / one["work"]))
    print("## Calibration\n")
    print("Cost per position (measured one-process time over simulated one-process work):",
          ", ".join(f"{k} {v} ns" for k, v in node_ns.items()) + f"; overhead per message {overhead_ns} ns.\n")
    print("| position | run | measured vs one process | " + " | ".join(f"simulated, {l:g} us" for l in latencies) + " |")
    print("|---|---|---:|" + "---:|" * len(latencies))
    errors = {l: [] for l in latencies}
    sims_of = {}
    for label, pos in positions.items():
        sims = {l: simulate(binary, pos, schemes, fit_ranks, l, node_ns[label], overhead_ns, tt_mb) for l in latencies}
        sims_of[label] = sims
        for scheme in schemes:
            for n in fit_ranks:
                run = f"{scheme} x{n}"
                want = report[label].get(run, (None, None, None))[2]
                got = {}
                for l in latencies:
                    row = next(r for r in sims[l] if r["scheme"] == scheme and r["ranks"] == n)
                    got[l] = 1 / row["speedup"]
                    if want:
                        errors[l].append(math.log(got[l] / want) ** 2)
                print(f"| {label} | {run} | {want if want else ''} | " + " | ".join(f"{got[l]:.2f}" for l in latencies) + " |", flush=True)
    best = min(latencies, key=lambda l: sum(errors[l]))
    print()
    print("Messages and idle time at the fitted rank counts above 1, measured against simulated at each latency"
          " (messages of all ranks; idle: ms per rank):\n")
    print("| position | run | measured | " + " | ".join(f"simulated, {l:g} us" for l in latencies) + " |")
    print("|---|---|---:|" + "---:|" * len(latencies))
    for label, pos in positions.items():
        for scheme in schemes:
            for n in [n for n in fit_ranks if n > 1]:
                run = f"{scheme} x{n}"
                m = report[label].get(run)
                if not m:
                    continue
                cells = []
                for l in latencies:
                    row = next(r for r in sims_of[label][l] if r["scheme"] == scheme and r["ranks"] == n)
                    cells.append(f"{row['messages']:,} msgs, {row['idle'] * row['time_us'] / 1000:.0f} ms idle")
                print(f"| {label} | {run} | {m[3]:,} msgs, {m[4]:.0f} ms idle | " + " | ".join(cells) + " |")
    print()
    for l in latencies:
        rms = math.exp(math.sqrt(statistics.mean(errors[l]))) if errors[l] else float("nan")
        print(f"- latency {l:g} us: the simulated ratios are within a factor {rms:.2f} of the measured ones (root mean square){' <- the best fit' if l == best else ''}")

    print("\n## Forecast\n")
    print("Speed-up over one process (its time at the same cost per position); work: positions of all ranks over one process's.\n")
    print("| position | latency us | scheme | " + " | ".join(f"{n} ranks" for n in ranks) + " |")
    print("|---|---:|---|" + "---:|" * len(ranks))
    for lat in forecast_latencies:
        for label, pos in positions.items():
            rows = simulate(binary, pos, schemes, ranks, lat, node_ns[label], overhead_ns, tt_mb)
            for scheme in schemes:
                cells = []
                for n in ranks:
                    row = next(r for r in rows if r["scheme"] == scheme and r["ranks"] == n)
                    cells.append(f"{row['speedup']:.2f} (work {row['overhead']:.2f}, idle {row['idle']:.2f})")
                print(f"| {label} | {lat:g} | {scheme} | " + " | ".join(cells) + " |", flush=True)


if __name__ == "__main__":
    main()
