"""Whole-process cost of `pdks covenant check` beside the bare interpreter, in one run.

    python bench/bench_check.py [--runs 40]

Prints the median wall time and peak RSS of each command and their ratios: `python -c pass`,
`python -c "import msgspec"` (the floor of the mandated stack), then `pdks covenant check` on a
typical Edit with a fresh plan.bin for (a) the scaffold, (b) a 20-discipline config, (c) the
same plus 1,000 disciplines that do not route the Edit, and (d) the scaffold judged in the same
process instead of a forked child (the deadline's in-process fallback): (a) - (d), paired run
by run, is what the hard deadline's fork costs. Each check is its own process, the way a host
hook spawns it, and the commands take turns (A B C … A B C …) so that a drift of the machine's
speed reaches them alike. Targets (issue 4): (b) median <= 2x the bare interpreter, peak RSS
<= 30 MiB, (c) - (b) <= 5 ms. Not a test: compare the ratios. Run it without
PYTHONDONTWRITEBYTECODE (the script drops it for the commands it runs), as a user's hook would.
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
# memory of the (forked) benchmark process before exec, which would swamp the figure. The
# check itself judges in a child it forks (cli/deadline.py): that child's ru_maxrss is the
# judging process's own peak (it starts as a copy of the check), so the larger is reported.
# PDKS_BENCH_IN_PROCESS removes os.fork first, so the same check judges in process.
PROBE = (
    "import atexit, os, sys\n"
    "def _hwm():\n"
    "    import resource\n"
    "    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss\n"
    "    for line in open('/proc/self/status'):\n"
    "        if line.startswith('VmHWM:'):\n"
    "            peak = max(peak, int(line.split()[1]))\n"
    "    os.write(int(os.environ['PDKS_BENCH_FD']), str(peak).encode())\n"
    "atexit.register(_hwm)\n"
    "if os.environ.get('PDKS_BENCH_IN_PROCESS'):\n"
    "    del os.fork\n"
    "if sys.argv[1:2] == ['msgspec']:\n"
    "    import msgspec\n"
    "elif len(sys.argv) > 1:\n"
    "    import runpy\n"
    "    sys.argv = ['pdks'] + sys.argv[1:]\n"
    "    runpy.run_module('polydeukes.cli', run_name='__main__')\n"
)


def measure_once(args: list[str], stdin: bytes, cwd: str, env: dict) -> tuple[float, float, int]:
    """(seconds, peak RSS MiB, exit code) of one spawn."""
    read_end, write_end = os.pipe()
    start = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-c", PROBE, *args], cwd=cwd,
                            stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, pass_fds=(write_end,),
                            env=dict(env, PDKS_BENCH_FD=str(write_end)))
    os.close(write_end)
    proc.communicate(stdin)
    wall = time.perf_counter() - start
    with os.fdopen(read_end, "rb") as report:
        peak = int(report.read() or 0) / 1024
    return wall, peak, proc.returncode


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
        env = {k: v for k, v in os.environ.items()
               if k not in ("PYTHONDONTWRITEBYTECODE", "POLYDEUKES_TELEMETRY_PATH",
                            "POLYDEUKES_DEADLINE_SECONDS")}
        rows = [
            ("python -c pass", [], b"", projects["scaffold"], env),
            ("python -c 'import msgspec'", ["msgspec"], b"", projects["scaffold"], env),
            ("check: scaffold, Edit", check, edit, projects["scaffold"], env),
            ("check: 20 disciplines, Edit", check, edit, projects["20"], env),
            ("check: 20 + 1,000 unrouted, Edit", check, edit, projects["20+1000"], env),
            ("check: scaffold, Edit, in process", check, edit, projects["scaffold"],
             dict(env, PDKS_BENCH_IN_PROCESS="1")),
        ]
        samples: dict[str, list[tuple[float, float, int]]] = {row[0]: [] for row in rows}
        for run in range(args.runs + 1):  # in turns; the first round warms caches (.pyc)
            for label, argv, stdin, root, run_env in rows:
                sample = measure_once(argv, stdin, root, run_env)
                if run:
                    samples[label].append(sample)
        base_wall = statistics.median(s[0] for s in samples["python -c pass"])
        floor = statistics.median(s[0] for s in samples["python -c 'import msgspec'"])
        for label, got in samples.items():
            wall = statistics.median(s[0] for s in got)
            print(f"{label:36s} median {wall * 1000:7.1f} ms ({wall / base_wall:4.2f}x pass, "
                  f"{wall / floor:4.2f}x msgspec)  peak RSS {max(s[1] for s in got):6.1f} MiB  "
                  f"exit {got[-1][2]}")

        def paired(a: str, b: str) -> float:
            return statistics.median(x[0] - y[0] for x, y in zip(samples[a], samples[b])) * 1000

        print(f"1,000 unrouted disciplines add {paired(rows[4][0], rows[3][0]):.1f} ms "
              "(median of paired differences)")
        print(f"judging in a forked child costs {paired(rows[2][0], rows[5][0]):.1f} ms "
              "(scaffold, median of paired differences)")


if __name__ == "__main__":
    main()
