"""Python's `time_us` against the CLI's on the same search (issue 26): the
155-position MTD(f) search of Connect Four after 4453 at depth 4. Both
report the search's own time: the table is allocated (and committed) once,
outside every clock, and reused by later calls.

    pip install ./crates/stockman-py && cargo build --release -p stockman-cli
    python crates/stockman-py/bench/time_us.py [path/to/stockman] [ROUNDS]
"""

import json
import statistics
import subprocess
import sys
import time

import stockman

cli = sys.argv[1] if len(sys.argv) > 1 else "target/release/stockman"
rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 20
args = ["solve", "--game", "connect4", "--position", "4453", "--algo", "mtdf", "--depth", "4", "--format", "json"]

cli_us = []
for _ in range(rounds):
    row = json.loads(subprocess.run([cli, *args], capture_output=True, text=True, check=True).stdout)[0]
    assert row["stats"]["nodes"] == 155, row
    cli_us.append(row["stats"]["time_us"])

py_us, wall_us = [], []
for _ in range(rounds):
    t = time.perf_counter()
    row = stockman.solve(stockman.Connect4("4453"), "mtdf", depth=4)[0]
    wall_us.append((time.perf_counter() - t) * 1e6)
    assert row["stats"]["nodes"] == 155, row
    py_us.append(row["stats"]["time_us"])

print(f"CLI    time_us: median {statistics.median(cli_us):.0f} (min {min(cli_us)}, max {max(cli_us)})")
print(f"Python time_us: median {statistics.median(py_us):.0f} (min {min(py_us)}, max {max(py_us)}); first call {py_us[0]}")
print(f"Python wall per call: first {wall_us[0]:.0f} us (allocates the 64 MiB table), then median {statistics.median(wall_us[1:]):.0f} us")
