"""Whole-process cost of `pdks covenant check` beside the bare interpreter, in one run.

    python bench/bench_check.py [--runs 40]

Prints the median wall time and peak RSS of each command and their ratios: `python -c pass`,
then `pdks covenant check` on a typical Edit with a fresh plan.bin for (a) the scaffold, (b) a
20-discipline config, (c) the same plus 1,000 disciplines that do not route the Edit. Each check
is its own process, the way a host hook spawns it. Targets (issue 4): (b) median <= 2x the bare
interpreter, peak RSS <= 30 MiB, (c) - (b) <= 5 ms. Not a test: compare the ratios.
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
EXAMPLES = os.path.join(os.path.dirname(__file__), "..", "tests", "cases", "declare", "forms",
                        "worked_examples.yaml")


def disciplines(count: int, *, routing: bool) -> str:
    """`count` entries taken round-robin from the spec's `disciplines` worked examples; with
    `routing=False` each is scoped to a path the benchmark's Edit never touches."""
    import yaml

    entries = []
    with open(EXAMPLES, encoding="utf-8") as handle:
        for case in yaml.safe_load(handle):
            entries.extend(yaml.safe_load(case["config"]).get("disciplines", []))
    chosen = []
    for i in range(count):
        entry = json.loads(json.dumps(entries[i % len(entries)]))
        entry["id"] = f"{entry['id']}-{'r' if routing else 'n'}{i}"
        if not routing:
            entry["declare"]["scope"] = {"source": "target.path", "include": [f"^never/{i}/"]}
        chosen.append(entry)
    return yaml.safe_dump(chosen, sort_keys=False)


# Peak RSS is read as VmHWM at exit: the kernel's ru_maxrss for a child also counts the
# memory of the (forked) benchmark process before exec, which would swamp the figure.
PROBE = (
    "import atexit, os, sys\n"
    "def _hwm():\n"
    "    for line in open('/proc/self/status'):\n"
    "        if line.startswith('VmHWM:'):\n"
    "            os.write(int(os.environ['PDKS_BENCH_FD']), line.split()[1].encode())\n"
    "atexit.register(_hwm)\n"
    "if len(sys.argv) > 1:\n"
    "    import runpy\n"
    "    sys.argv = ['pdks'] + sys.argv[1:]\n"
    "    runpy.run_module('polydeukes.cli', run_name='__main__')\n"
)


def measure(args: list[str], stdin: bytes, cwd: str, runs: int) -> tuple[float, float, int]:
    """(median seconds, max peak RSS MiB, last exit code) over `runs` spawns."""
    walls, peaks, code = [], [], 0
    for _ in range(runs):
        read_end, write_end = os.pipe()
        start = time.perf_counter()
        proc = subprocess.Popen([sys.executable, "-c", PROBE, *args], cwd=cwd,
                                stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL, pass_fds=(write_end,),
                                env=dict(os.environ, PDKS_BENCH_FD=str(write_end)))
        os.close(write_end)
        proc.communicate(stdin)
        walls.append(time.perf_counter() - start)
        with os.fdopen(read_end, "rb") as report:
            peaks.append(int(report.read() or 0) / 1024)
        code = proc.returncode
    return statistics.median(walls), max(peaks), code


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=40)
    args = parser.parse_args()
    pdks = [sys.executable, "-m", "polydeukes.cli"]
    check = ["covenant", "check"]
    edit = json.dumps(EDIT).encode()
    twenty = disciplines(20, routing=True)
    thousand = disciplines(1000, routing=False)
    rows = []
    with tempfile.TemporaryDirectory() as base:
        projects = {}
        for name, extra in (("scaffold", ""), ("20", twenty), ("20+1000", twenty + thousand)):
            root = os.path.join(base, name)
            os.mkdir(root)
            subprocess.run([*pdks, "init"], cwd=root, check=True, capture_output=True)
            if extra:
                path = os.path.join(root, "polydeukes.config.yaml")
                with open(path, "a", encoding="utf-8") as handle:
                    handle.write("\ndisciplines:\n" + extra)
            subprocess.run([*pdks, "compile"], cwd=root, check=True, capture_output=True)
            projects[name] = root
        rows = [
            ("python -c pass", [], b"", projects["scaffold"]),
            ("check: scaffold, Edit", check, edit, projects["scaffold"]),
            ("check: 20 disciplines, Edit", check, edit, projects["20"]),
            ("check: 20 + 1,000 unrouted, Edit", check, edit, projects["20+1000"]),
        ]
        results = {}
        for label, argv, stdin, root in rows:
            results[label] = measure(argv, stdin, root, args.runs)
        base_wall, base_rss, _ = results["python -c pass"]
        for label, (wall, rss, code) in results.items():
            print(f"{label:34s} median {wall * 1000:7.1f} ms ({wall / base_wall:4.2f}x)  "
                  f"peak RSS {rss:6.1f} MiB  exit {code}")
        extra_ms = (results[rows[3][0]][0] - results[rows[2][0]][0]) * 1000
        print(f"1,000 unrouted disciplines add {extra_ms:.1f} ms")


if __name__ == "__main__":
    main()
