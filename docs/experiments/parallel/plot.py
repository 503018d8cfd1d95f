"""Draws the speedup and search-overhead curves of docs/experiments/parallel.md
from the sim-*.json files written by run.sh (needs matplotlib)."""
import json
from pathlib import Path

import matplotlib

matplotlib.use("svg")
matplotlib.rcParams["svg.fonttype"] = "none"
matplotlib.rcParams["svg.hashsalt"] = "stockman"  # the same SVG on every run
import matplotlib.pyplot as plt  # noqa: E402

HERE = Path(__file__).parent
SOURCES = {
    "sim-random": "random tree, width 8, depth 8, iid",
    "sim-random-incremental": "random tree, width 8, depth 8, incremental",
    "sim-connect4": "Connect Four 4453, depth 12",
    "sim-othello": "Othello start, depth 7",
    "sim-chess": "chess start, depth 4",
    "sim-random-incremental-d9": "random tree, width 8, depth 9, incremental",
    "sim-connect4-d16": "Connect Four 4453, depth 16",
    "sim-othello-d10": "Othello start, depth 10",
    "sim-othello-d12": "Othello start, depth 12",
    "sim-chess-d6": "chess start, depth 6",
    "sim-chess-d7": "chess start, depth 7",
    "sim-ffo43": "FFO #43 to the end (ABDADA)",
    "sim-othello-d12-latency1": "Othello start, depth 12, a remote access 1 round",
    "sim-othello-d12-latency4": "Othello start, depth 12, a remote access 4 rounds",
}

for name, title in SOURCES.items():
    rows = json.loads((HERE / f"{name}.json").read_text())
    algos = list(dict.fromkeys(r["algorithm"] for r in rows))
    fig, (a, b) = plt.subplots(1, 2, figsize=(10, 4))
    for algo in algos:
        rs = [r for r in rows if r["algorithm"] == algo]
        p = [r["processors"] for r in rs]
        style = "-" if algo in ("sss", "dual") else "--"
        a.plot(p, [r["speedup"] for r in rs], style, marker="o", label=algo)
        b.plot(p, [r["overhead"] for r in rs], style, marker="o", label=algo)
    for ax, label in ((a, "speedup (rounds at 1 / rounds at P)"), (b, "search overhead (work at P / work at 1)")):
        ax.set_xscale("log", base=2)
        ax.set_xlabel("simulated processors P")
        ax.set_ylabel(label)
        ax.grid(True, alpha=0.3)
    a.plot([1, 64], [1, 64], ":", color="grey", label="linear")
    a.set_yscale("log", base=2)
    a.legend(fontsize=8)
    fig.suptitle(f"{title}: parallel SSS*/Dual* (solid) vs ABDADA (dashed)")
    fig.tight_layout()
    fig.savefig(HERE / f"{name}.svg", metadata={"Date": None})
    plt.close(fig)
