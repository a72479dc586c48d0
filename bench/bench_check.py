"""Whole-process cost of `pdks covenant check` beside the bare interpreter, in one run.

    python bench/bench_check.py [--runs 40]

Prints the median wall time and peak RSS of each command and their ratios. The check runs in a
scratch project made by `pdks init`, on an Edit-shaped input, the way a host hook spawns it.
Not a test: figures depend on the machine; compare the ratios.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

EDIT = {
    "toolCalls": [{
        "name": "Edit",
        "args": {"file_path": "src/app.py"},
        "fileChange": {"kind": "modify", "path": "src/app.py",
                       "pre": "def f():\n    return 1\n", "post": "def f():\n    return 2\n"},
    }],
    "subagentSpawns": [],
    "userMessages": [],
    "tools": {"mutating": ["Edit", "Write"], "shell": ["Bash"], "commandArgs": ["command"]},
}
EMPTY = {"toolCalls": [], "subagentSpawns": [], "userMessages": []}


def measure(argv: list[str], stdin: bytes, cwd: str, runs: int) -> tuple[float, float, int]:
    """(median seconds, max RSS MiB, last exit code) over `runs` spawns, each measured alone."""
    walls, peaks, code = [], [], 0
    for _ in range(runs):
        start = time.perf_counter()
        proc = subprocess.Popen(argv, cwd=cwd, stdin=subprocess.PIPE,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        proc.stdin.write(stdin)
        proc.stdin.close()
        _, status, usage = os.wait4(proc.pid, 0)
        walls.append(time.perf_counter() - start)
        peaks.append(usage.ru_maxrss / 1024)  # KiB on Linux
        code = os.waitstatus_to_exitcode(status)
        proc.returncode = code
    return statistics.median(walls), max(peaks), code


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=40)
    args = parser.parse_args()
    pdks = [sys.executable, "-m", "polydeukes.cli"]
    with tempfile.TemporaryDirectory() as root:
        subprocess.run([*pdks, "init"], cwd=root, check=True, capture_output=True)
        rows = [
            ("python -c pass", [sys.executable, "-c", "pass"], b""),
            ("pdks covenant check (empty IR)", [*pdks, "covenant", "check"],
             json.dumps(EMPTY).encode()),
            ("pdks covenant check (Edit)", [*pdks, "covenant", "check"],
             json.dumps(EDIT).encode()),
        ]
        base_wall = base_rss = None
        for label, argv, stdin in rows:
            wall, rss, code = measure(argv, stdin, root, args.runs)
            if base_wall is None:
                base_wall, base_rss = wall, rss
            print(f"{label:34s} median {wall * 1000:7.1f} ms ({wall / base_wall:4.2f}x)  "
                  f"peak RSS {rss:6.1f} MiB ({rss / base_rss:4.2f}x)  exit {code}")


if __name__ == "__main__":
    main()
