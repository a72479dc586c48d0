"""The in-process API and `pdks test`, beside the hook process they stand in for, in one run.

    python bench/bench_judge.py [--calls 3000] [--runs 15] [--config PATH] [--instructions]

1. `Judge.check` per call, after load, on the live config (../shared/bench/) with its typical
   call: an Edit of packages/core/src/index.ts under the Claude Code roster. Median, min and
   max over --calls calls, telemetry off and telemetry on (rows appended to a file). Target
   (issue 12): median <= 0.5 ms.
2. The same call as a process, `pdks covenant check --enforce block` with a fresh plan.bin
   (what a hook spawns), median over --runs: the ratio says what the API saves per call.
3. `pdks test` on 200 cases against the live config (edits, writes, shell commands, protected
   paths, deletions, diffs; each expecting its actual exit code), as a whole process, median
   over --runs; then per case.

`--instructions` adds counts load does not move (valgrind's callgrind): the instructions of one
`Judge.check` (a child doing 50 + 200 calls, minus one doing 50) beside those of every process
of one `pdks covenant check` run.

Each figure is given twice: wall-clock time, and the CPU time the work itself consumed (the
calling thread's for Judge.check, the child processes' user + system time for a process). On a
shared machine the wall figures grow with everyone else's load; the CPU figures much less.

Not a test: quote the medians and ratios of one run (the machine is shared and noisy).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

# The live config sits in shared/bench/ beside the checkout (../shared from the repository
# root), or one level further up from a worktree under a folder of worktrees.
_REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LIVE = next((path for path in (
    os.path.join(_REPO, "..", "shared", "bench", "live.polydeukes.config.yaml"),
    os.path.join(_REPO, "..", "..", "shared", "bench", "live.polydeukes.config.yaml"))
    if os.path.exists(path)), os.path.join(_REPO, "..", "shared", "bench", "live.polydeukes.config.yaml"))
ROSTER = {"mutating": ["Edit", "Write"], "shell": ["Bash"], "commandArgs": ["command"]}
TARGET = "packages/core/src/index.ts"
BEFORE = "export function judge(input: string): number {\n  return input.length;\n}\n"
AFTER = "export function judge(input: string): number {\n  return input.trim().length;\n}\n"
EDIT = {
    "toolCalls": [{
        "name": "Edit",
        "args": {"file_path": TARGET, "old_string": "input.length", "new_string": "input.trim().length"},
        "fileChange": {"kind": "modify", "path": TARGET, "pre": BEFORE, "post": AFTER},
    }],
    "subagentSpawns": [], "userMessages": [], "tools": ROSTER,
}
PDKS = [sys.executable, "-m", "polydeukes.cli"]


def project(base: str, config: str) -> str:
    root = os.path.join(base, "project")
    os.makedirs(os.path.join(root, "packages", "core", "src"))
    shutil.copy(config, os.path.join(root, "polydeukes.config.yaml"))
    with open(os.path.join(root, TARGET), "w", encoding="utf-8") as handle:
        handle.write(BEFORE)
    subprocess.run([*PDKS, "compile"], cwd=root, check=True, capture_output=True)
    return root


class Timed:
    """Wall-clock and CPU seconds of repeated runs of one thing."""

    def __init__(self) -> None:
        self.wall: list[float] = []
        self.cpu: list[float] = []


def per_call(root: str, calls: int, telemetry) -> Timed:
    from polydeukes import Judge

    judge = Judge(root, telemetry=telemetry)
    raw = json.dumps(EDIT).encode()
    for _ in range(200):  # warm: plan loaded, regexes compiled, programs bound
        judge.check(raw)
    timed = Timed()
    for _ in range(calls):
        start, cpu = time.perf_counter(), time.thread_time()
        judge.check(raw)
        timed.cpu.append(time.thread_time() - cpu)
        timed.wall.append(time.perf_counter() - start)
    return timed


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def process(argv: list[str], cwd: str, runs: int, stdin: bytes = b"") -> tuple[Timed, int]:
    timed, code = Timed(), 0
    for index in range(runs + 1):
        start, cpu = time.perf_counter(), _children_cpu()
        done = subprocess.run(argv, cwd=cwd, input=stdin, capture_output=True)
        if index:  # the first is a warm-up
            timed.wall.append(time.perf_counter() - start)
            timed.cpu.append(_children_cpu() - cpu)
        code = done.returncode
    return timed, code


CASE_KINDS = [
    ("edit", {"path": TARGET, "before": BEFORE, "after": AFTER}),
    ("edit", {"path": "packages/core/src/guard.ts", "before": "export const a = 1;\n",
              "after": "// the guard decides\nexport const a = 1;\n"}),
    ("write", {"path": "docs/notes.md", "content": "# Notes\n\nA page.\n"}),
    ("write", {"path": "packages/polydeukes/dist/index.js", "content": "x\n"}),
    ("bash", "pnpm --filter core test"),
    ("bash", "echo ok > .claude/hooks/covenant-pretooluse.mjs"),
    ("delete", {"path": "biome.json", "before": "{}\n"}),
    ("diff", "diff --git a/README.md b/README.md\n--- a/README.md\n+++ b/README.md\n"
             "@@ -1 +1 @@\n-# polydeukes\n+# polydeukes, the covenant\n"),
]


def write_cases(root: str, count: int) -> str:
    """`count` cases cycling over CASE_KINDS, each expecting the exit code it gets."""
    import msgspec

    from polydeukes.casefile import Case
    from polydeukes.testing import Suite

    cases = []
    for index in range(count):
        form, call = CASE_KINDS[index % len(CASE_KINDS)]
        cases.append({"name": f"case {index}: {form}", form: call})
    suite = Suite(root)
    try:
        for case in cases:
            verdict, _ = suite.judge(msgspec.convert(case, Case))
            case["exit"] = verdict.exit_code
    finally:
        suite.close()
    path = os.path.join(root, "polydeukes.tests.yaml")
    with open(path, "w", encoding="utf-8") as handle:
        json.dump({"cases": cases}, handle, indent=1)  # JSON is YAML
    return path


CHILD = (
    "import sys\n"
    "from polydeukes import Judge\n"
    "judge = Judge(sys.argv[1], telemetry=False)\n"
    "raw = sys.stdin.buffer.read()\n"
    "for _ in range(50 + int(sys.argv[2])):\n"
    "    judge.check(raw)\n"
)


def instructions(argv: list[str], cwd: str, stdin: bytes) -> int:
    """Instructions executed by every process of `argv`, as callgrind counts them."""
    done = subprocess.run(["valgrind", "--tool=callgrind", "--trace-children=yes",
                           "--callgrind-out-file=/dev/null", *argv], cwd=cwd, input=stdin,
                          capture_output=True, text=False)
    counts = [int(line.split(b":")[-1].replace(b",", b"").strip())
              for line in done.stderr.splitlines() if b"Collected :" in line]
    return sum(counts)


def stats(label: str, timed: Timed, unit: float = 1000.0,
          suffix: str = "ms") -> tuple[float, float]:
    """Prints and returns the (wall, CPU) medians."""
    print(label)
    medians = []
    for kind, seconds in (("wall", timed.wall), ("cpu", timed.cpu)):
        median = statistics.median(seconds)
        print(f"  {kind:4s} median {median * unit:9.3f} {suffix}  "
              f"(min {min(seconds) * unit:.3f}, max {max(seconds) * unit:.3f})")
        medians.append(median)
    return medians[0], medians[1]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--calls", type=int, default=3000)
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--cases", type=int, default=200)
    parser.add_argument("--config", default=LIVE)
    parser.add_argument("--instructions", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as base:
        root = project(base, args.config)
        quiet = stats("Judge.check, telemetry off", per_call(root, args.calls, False))
        logged = stats("Judge.check, telemetry to a file",
                       per_call(root, args.calls, os.path.join(base, "roi.log")))
        hook = stats("pdks covenant check --enforce block (a process)",
                     process([*PDKS, "covenant", "check", "--enforce", "block",
                              "--telemetry-path", os.path.join(base, "p.log")], root, args.runs,
                             json.dumps(EDIT).encode())[0])
        floor = stats("python -c 'import msgspec' (a process)",
                      process([sys.executable, "-c", "import msgspec"], root, args.runs)[0])
        for index, kind in enumerate(("wall", "cpu")):
            print(f"  {kind}: a hook process costs {hook[index] / quiet[index]:.0f} in-process "
                  f"calls ({hook[index] / logged[index]:.0f} with telemetry); the interpreter "
                  f"floor alone {floor[index] / quiet[index]:.0f}")
        if args.instructions:
            raw = json.dumps(EDIT).encode()
            child = [sys.executable, "-c", CHILD, root]
            each = (instructions(child + ["200"], root, raw)
                        - instructions(child + ["0"], root, raw)) / 200
            whole = instructions([*PDKS, "covenant", "check", "--enforce", "block",
                                  "--telemetry-path", os.path.join(base, "i.log")], root, raw)
            print(f"instructions: Judge.check {each / 1e6:.2f} M per call; one hook process "
                  f"{whole / 1e6:.1f} M = {whole / each:.0f} calls")
        write_cases(root, args.cases)
        times, code = process([*PDKS, "test"], root, args.runs)
        whole = stats(f"pdks test, {args.cases} cases (a process, exit {code})", times,
                      unit=1.0, suffix="s")
        for index, kind in enumerate(("wall", "cpu")):
            print(f"  {kind}: per case {whole[index] / args.cases * 1000:.2f} ms; the whole run = "
                  f"{whole[index] / hook[index]:.1f} hook processes")


if __name__ == "__main__":
    main()
