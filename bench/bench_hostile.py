"""Hostile inputs through the whole `pdks covenant check` process, against time bounds.

    python bench/bench_hostile.py [--runs 3] [--only NAME ...]

Each row is an input an agent controls (issue 15): big inputs for the linear readers, planted
files that once hung the check, and inputs the deadline must end. A row prints the median wall
time over `--runs` processes, its bound, and whether the median is within it. Not a test (the
suite never times anything): run it beside a change that touches a reader.

Bounds are for a machine where `python -c pass` takes REFERENCE_PASS (30 ms); on a slower or
busier one (a shared host) each bound is scaled by the measured `python -c pass` median over
that, and the scale is printed. The bounds:
  * the IR reader and the diff parser: 10 MB of short lines, of words or one long line,
    judged in <= 2 s;
  * planted state (a FIFO log, /dev/zero as plan.bin or as the config, a 50 MB config): no
    slower than an ordinary check plus a compile, <= 2 s;
  * a quadratic rule on a 400 KB line ends at the deadline (here 0.5 s), <= 2 s;
  * the shell analyzer's 10 MB inputs are the shell package's own bound (<= 2 s); they are
    listed for the record and bounded here by the deadline only.
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

ROSTER = {"mutating": ["Edit", "Write"], "shell": ["Bash"], "commandArgs": ["command"]}
REFERENCE_PASS = 0.030  # seconds of `python -c pass` the bounds are written for
MB = 10 * 1000 * 1000
PDKS = [sys.executable, "-m", "polydeukes.cli", "covenant", "check", "--enforce", "block"]
# The live config's quadratic git rule, with a 0.5 s deadline.
GIT_RULE = open(os.path.join(os.path.dirname(__file__), "..", "tests", "cases", "hostile",
                             "git-reset-rule.config.yaml"), encoding="utf-8").read()


def _ir(call: dict) -> bytes:
    return json.dumps({"toolCalls": [call], "subagentSpawns": [], "userMessages": [],
                       "tools": ROSTER}).encode()


def _write(text: str) -> bytes:
    return _ir({"name": "Write", "args": {"file_path": "notes/big.txt"},
                "fileChange": {"kind": "create", "path": "notes/big.txt", "post": text}})


def _bash(command: str) -> bytes:
    return _ir({"name": "Bash", "args": {"command": command}})


def _diff(lines: int) -> bytes:
    body = "+a\n" * lines
    return (f"diff --git a/notes/big.txt b/notes/big.txt\nnew file mode 100644\n"
            f"--- /dev/null\n+++ b/notes/big.txt\n@@ -0,0 +1,{lines} @@\n{body}").encode()


def _plant(kind: str):
    def plant(root: str) -> None:
        state = os.path.join(root, ".polydeukes")
        os.makedirs(state, exist_ok=True)
        if kind == "fifo-log":
            os.mkfifo(os.path.join(state, "roi.log"))
        elif kind == "zero-plan":
            plan = os.path.join(state, "plan.bin")
            if os.path.lexists(plan):
                os.remove(plan)
            os.symlink("/dev/zero", plan)
        elif kind == "zero-config":
            os.remove(os.path.join(root, "polydeukes.config.yaml"))
            os.symlink("/dev/zero", os.path.join(root, "polydeukes.config.yaml"))
        elif kind == "huge-config":
            with open(os.path.join(root, "polydeukes.config.yaml"), "ab") as handle:
                handle.write(b"#" * (50 << 20))
    return plant


# name, stdin, extra flags, config, plant, bound (s), what the exit code must be
ROWS = [
    ("python -c pass", None, [], None, None, None, 0),
    ("IR: 10 MB of short lines in one Write", _write("a\n" * (MB // 2)), [], "", None, 2.0, 0),
    ("IR: 10 MB of words in one Write", _write("a " * (MB // 2)), [], "", None, 2.0, 0),
    ("IR: one 10 MB line in one Write", _write("a" * MB), [], "", None, 2.0, 0),
    ("IR: 100,000 calls", json.dumps({"toolCalls": [{"name": "Read"}] * 100_000,
                                       "subagentSpawns": [], "userMessages": []}).encode(),
     [], "", None, None, 0),
    ("IR: nested 100,000 deep", b'{"toolCalls": [{"name": "x", "args": {"a": '
     + b"[" * 100_000 + b"]" * 100_000 + b"}}], \"subagentSpawns\": [], \"userMessages\": []}",
     [], "", None, 2.0, 2),
    ("diff: 10 MB of short lines", _diff(MB // 3), ["--diff"], "", None, 2.0, 0),
    ("diff: a 10 MB header of quoted halves",
     ('diff --git a "a ' + '"a ' * (MB // 3) + '"\n').encode(), ["--diff"], "", None, 2.0, 0),
    ("planted: a FIFO as roi.log", _bash("ls"), [], "", _plant("fifo-log"), 2.0, 0),
    ("planted: /dev/zero as plan.bin", _bash("ls"), [], "", _plant("zero-plan"), 2.0, 0),
    ("planted: /dev/zero as the config", _bash("ls"), [], "", _plant("zero-config"), 2.0, 2),
    ("planted: a 50 MB config", _bash("ls"), [], "", _plant("huge-config"), 2.0, 2),
    ("deadline: git reset rule, 400 KB line", _bash("git reset " * 40_000), [], GIT_RULE, None,
     2.0, 2),
    ("shell: 10 MB of short lines", _bash("echo a\n" * (MB // 7)), [], "", None, None, None),
    ("shell: 10 MB of words", _bash("a " * (MB // 2)), [], "", None, None, None),
    ("shell: 10 MB of quoted words", _bash("'a' " * (MB // 4)), [], "", None, None, None),
]


def _project(base: str, name: str, config: str, plant) -> str:
    root = os.path.join(base, name.replace(" ", "_").replace("/", "_").replace(":", ""))
    os.makedirs(root)
    with open(os.path.join(root, "polydeukes.config.yaml"), "w", encoding="utf-8") as handle:
        handle.write("protectedPaths: ['.claude/hooks']\n" + config)
    subprocess.run([sys.executable, "-m", "polydeukes.cli", "compile"], cwd=root,
                   capture_output=True)
    if plant is not None:
        plant(root)
    return root


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--only", nargs="*", default=None, help="row names starting with these")
    args = parser.parse_args()
    # .pyc files must be used, as for a user's hook: the variable would make every run compile.
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONDONTWRITEBYTECODE", "POLYDEUKES_TELEMETRY_PATH",
                        "POLYDEUKES_DEADLINE_SECONDS")}
    failures = 0
    with tempfile.TemporaryDirectory() as base:
        baseline = None
        for name, stdin, flags, config, plant, bound, want in ROWS:
            if args.only and name != "python -c pass" and not any(
                    name.startswith(prefix) for prefix in args.only):
                continue
            walls, code = [], None
            for run in range(args.runs + 1):  # the first run warms caches and is not counted
                if stdin is None:
                    command, root = [sys.executable, "-c", "pass"], base
                else:
                    command = [*PDKS, *flags]
                    root = _project(base, f"{name}-{run}", config, plant)
                started = time.perf_counter()
                done = subprocess.run(command, input=stdin or b"", cwd=root, env=env,
                                      capture_output=True, timeout=120)
                if run:
                    walls.append(time.perf_counter() - started)
                code = done.returncode
            median = statistics.median(walls)
            if baseline is None:
                baseline = median
                scale = max(1.0, baseline / REFERENCE_PASS)
                print(f"bounds scaled by {scale:.2f} (python -c pass: {baseline * 1000:.0f} ms)")
            verdict = ""
            if bound is not None:
                ok = median <= bound * scale and (want is None or code == want)
                failures += not ok
                verdict = f"bound {bound:.1f} s x {scale:.2f} {'ok' if ok else 'EXCEEDED'}"
            print(f"{name:40s} median {median:7.3f} s ({median / baseline:6.1f}x)  exit {code}  "
                  f"{verdict}", flush=True)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
