"""Whole-process cost of `pdks covenant check` beside the interpreter's own floor, in one run.

    python bench/bench_check.py [--runs 30] [--python VENV_PYTHON] [--live CONFIG] [--instructions]

Each row is its own process, spawned the way a host hook spawns `pdks`, and the rows take turns
(A B C … A B C …, after warm-up rounds) so that a drift of the machine's speed reaches them
alike; every ratio is the median of the per-round ratios (paired), not a ratio of medians.

  python -c pass                 the bare interpreter of the same environment
  python -c "import msgspec"     the floor of the mandated stack (spec README decision 14)
  scaffold, Edit                 the `pdks init` config
  live, Edit                     the 54-discipline live config, an Edit of
                                 packages/core/src/index.ts
  live, Bash mentioning a path   `cat .claude/settings.json | head -5`: routes shell-mod, which
                                 proves it read-only (the shell analyzer runs)
  live + 1,000 unrouted, Edit    1,000 more disciplines scoped to paths the Edit never touches
  live, Edit, stale plan         plan.bin removed before each run: compile + judge + plan write
  pdks compile (live)            the compile alone
  scaffold, Edit, python -c      the check started by `python -c` instead of the console script
                                 (it judges in its own process, as the console script does),
  ... judged in a forked child   ... and told that its process outlives the judgment, as an
                                 adapter calling run_check is: the paired difference is what
                                 judging in a forked child costs (cli/deadline.py)

The project is installed into a new virtual environment as a user's `pip install` does (not
editable: no editable finder at start-up, bytecode compiled at install), unless `--python`
names the interpreter of an existing one. PYTHONDONTWRITEBYTECODE is removed from the commands'
environment, as on a user's machine. Peak RSS is read in separate runs (VmHWM at exit, see
PROBE). `--instructions` adds one run of each row under valgrind's callgrind: instructions do
not depend on the machine's load, where wall times on a shared machine do.

Targets (issue 13): live Edit <= 1.25x msgspec, peak RSS <= 20 MiB; live Bash <= 1.35x;
compile <= 300 ms; stale-plan call <= 400 ms. Not a test: read the ratios.
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
from pathlib import Path

from callgrind import instructions as count_instructions  # bench/ is the script's path

REPO = Path(__file__).resolve().parent.parent
LIVE_NAMES = [REPO.parent / "shared" / "bench" / "live.polydeukes.config.yaml",
              REPO.parent.parent / "shared" / "bench" / "live.polydeukes.config.yaml"]
ROSTER = {"mutating": ["Edit", "Write"], "shell": ["Bash"], "commandArgs": ["command"]}
EDIT = {
    "toolCalls": [{
        "name": "Edit",
        "args": {"file_path": "packages/core/src/index.ts"},
        "fileChange": {"kind": "modify", "path": "packages/core/src/index.ts",
                       "pre": "export const a = 1;\n", "post": "export const a = 2;\n"},
    }],
    "subagentSpawns": [], "userMessages": [], "tools": ROSTER,
}
BASH = {"toolCalls": [{"name": "Bash", "args": {"command": "cat .claude/settings.json | head -5"}}],
        "subagentSpawns": [], "userMessages": [], "tools": ROSTER}
# The check through `python -c`, judged in its own process as the console script is, or (with
# the console script's declaration undone) in a forked child, as under a caller that keeps its
# process.
BY_PYTHON_C = "import os, sys; {fork}from polydeukes.cli import main; main()"
IN_A_CHILD = "from polydeukes.cli import deadline; deadline.judge_in_this_process = lambda: None; "
EXAMPLES = REPO / "tests" / "cases" / "declare" / "forms" / "worked_examples.yaml"

# Peak RSS, read as VmHWM at exit: the kernel's ru_maxrss for a spawned child also counts the
# memory of the (forked) benchmark process before exec. A judgment in a forked child
# (cli/deadline.py) has its own peak, the RUSAGE_CHILDREN figure once reaped (the probe waits
# for any child still running): the larger is reported. A check ends with os._exit
# (cli.end_process), where no atexit handler runs, so the probe wraps that too.
PROBE = (
    "import atexit, os, sys\n"
    "_first_pid, _exit = os.getpid(), os._exit\n"
    "def _hwm():\n"
    "    import resource\n"
    "    while True:\n"
    "        try:\n"
    "            os.waitpid(-1, 0)\n"
    "        except ChildProcessError:\n"
    "            break\n"
    "    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss\n"
    "    for line in open('/proc/self/status'):\n"
    "        if line.startswith('VmHWM:'):\n"
    "            peak = max(peak, int(line.split()[1]))\n"
    "    os.write(int(os.environ['PDKS_BENCH_FD']), str(peak).encode())\n"
    "def _hwm_then_exit(code):\n"
    "    if os.getpid() == _first_pid:\n"
    "        atexit.unregister(_hwm)\n"
    "        _hwm()\n"
    "    _exit(code)\n"
    "os._exit = _hwm_then_exit\n"
    "atexit.register(_hwm)\n"
    "if sys.argv[1:2] == ['msgspec']:\n"
    "    import msgspec\n"
    "elif len(sys.argv) > 1:\n"
    "    import runpy\n"
    "    sys.argv = ['pdks'] + sys.argv[1:]\n"
    "    runpy.run_module('polydeukes.cli', run_name='__main__')\n"
)


def disciplines(count: int, *, routing: bool) -> str:
    """`count` entries taken round-robin from the spec's `disciplines` worked examples; with
    `routing=False` each is scoped to a path the benchmark's calls never touch."""
    import yaml

    entries = []
    for case in yaml.safe_load(EXAMPLES.read_text(encoding="utf-8")):
        entries.extend(yaml.safe_load(case["config"]).get("disciplines", []))
    chosen = []
    for i in range(count):
        entry = json.loads(json.dumps(entries[i % len(entries)]))
        entry["id"] = f"{entry['id']}-{'r' if routing else 'n'}{i}"
        if not routing:
            entry["declare"]["scope"] = {"source": "target.path", "include": [f"^never/{i}/"]}
        chosen.append(entry)
    return yaml.safe_dump(chosen, sort_keys=False)


def installed_python(base: Path) -> Path:
    """A new virtual environment with this repository installed the way a user installs it."""
    venv = base / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    python = venv / "bin" / "python"
    subprocess.run([str(python), "-m", "pip", "install", "-q", str(REPO)], check=True,
                   env={k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"})
    return python


def with_disciplines(config: str, extra: str) -> str:
    """`config` with `extra` appended to its `disciplines` list (a top-level block)."""
    lines = config.splitlines()
    start = lines.index("disciplines:")
    end = next((i for i in range(start + 1, len(lines))
                if lines[i] and not lines[i].startswith((" ", "-", "#"))), len(lines))
    added = ["  " + line if line else line for line in extra.splitlines()]
    return "\n".join(lines[:end] + added + lines[end:]) + "\n"


class Row:
    def __init__(self, label: str, argv: list[str], cwd: Path, stdin: bytes = b"",
                 before=None) -> None:
        self.label, self.argv, self.cwd, self.stdin, self.before = label, argv, cwd, stdin, before
        self.walls: list[float] = []
        self.codes: set[int] = set()
        self.peak = 0.0
        self.instructions = 0


def timed(row: Row, env: dict) -> float:
    if row.before:
        row.before()
    start = time.perf_counter()
    done = subprocess.run(row.argv, cwd=row.cwd, input=row.stdin, env=env,
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    row.codes.add(done.returncode)
    return wall


def peak_mib(row: Row, python: Path, probe_args: list[str], env: dict) -> float:
    if row.before:
        row.before()
    read_end, write_end = os.pipe()
    proc = subprocess.Popen([str(python), "-c", PROBE, *probe_args], cwd=row.cwd,
                            stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, pass_fds=(write_end,),
                            env=dict(env, PDKS_BENCH_FD=str(write_end)))
    os.close(write_end)
    proc.communicate(row.stdin)
    with os.fdopen(read_end, "rb") as report:
        return int(report.read() or 0) / 1024


def instructions(row: Row, env: dict) -> int:
    if row.before:
        row.before()
    return count_instructions(row.argv, row.cwd, row.stdin, env)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--warmup", type=int, default=2)
    parser.add_argument("--python", help="the interpreter of an environment with polydeukes "
                        "installed (default: a new one, installed from this repository)")
    parser.add_argument("--live", help="the live config (default: shared/bench/ beside the repo)")
    parser.add_argument("--instructions", action="store_true",
                        help="also count instructions under valgrind's callgrind")
    args = parser.parse_args()
    live = Path(args.live) if args.live else next((p for p in LIVE_NAMES if p.exists()), None)
    if live is None or not live.exists():
        sys.exit("the live config was not found: pass --live PATH")
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONDONTWRITEBYTECODE", "POLYDEUKES_TELEMETRY_PATH",
                        "POLYDEUKES_DEADLINE_SECONDS")}
    with tempfile.TemporaryDirectory() as base_name:
        base = Path(base_name)
        python = Path(args.python) if args.python else installed_python(base)
        pdks = [str(python.parent / "pdks")]
        projects = {}
        live_text = live.read_text(encoding="utf-8")
        for name, config in (("scaffold", None), ("live", live_text),
                             ("live+1000", with_disciplines(live_text,
                                                            disciplines(1000, routing=False))),
                             ("stale", live_text)):
            root = base / name
            root.mkdir()
            subprocess.run([*pdks, "init"], cwd=root, check=True, capture_output=True, env=env)
            if config is not None:
                (root / "polydeukes.config.yaml").write_text(config, encoding="utf-8")
            (root / "packages" / "core" / "src").mkdir(parents=True)
            (root / "packages" / "core" / "src" / "index.ts").write_text("export const a = 1;\n")
            subprocess.run([*pdks, "compile"], cwd=root, check=True, capture_output=True, env=env)
            projects[name] = root
        stale_plan = projects["stale"] / ".polydeukes" / "plan.bin"
        check = [*pdks, "covenant", "check", "--enforce", "block"]
        edit, bash = json.dumps(EDIT).encode(), json.dumps(BASH).encode()
        rows = [
            Row("python -c pass", [str(python), "-c", "pass"], projects["scaffold"]),
            Row("python -c 'import msgspec'", [str(python), "-c", "import msgspec"],
                projects["scaffold"]),
            Row("scaffold, Edit", check, projects["scaffold"], edit),
            Row("live, Edit", check, projects["live"], edit),
            Row("live, Bash mentioning a protected path", check, projects["live"], bash),
            Row("live + 1,000 unrouted, Edit", check, projects["live+1000"], edit),
            Row("live, Edit, stale plan", check, projects["stale"], edit,
                before=lambda: stale_plan.unlink(missing_ok=True)),
            Row("pdks compile (live)", [*pdks, "compile"], projects["live"]),
            Row("scaffold, Edit, python -c", [str(python), "-c", BY_PYTHON_C.format(fork=""),
                                              *check[1:]], projects["scaffold"], edit),
            Row("scaffold, Edit, judged in a forked child",
                [str(python), "-c", BY_PYTHON_C.format(fork=IN_A_CHILD), *check[1:]],
                projects["scaffold"], edit),
        ]
        for round_ in range(args.warmup + args.runs):  # in turns; warm-up rounds fill caches
            for row in rows:
                wall = timed(row, env)
                if round_ >= args.warmup:
                    row.walls.append(wall)
        probe_args = {"python -c pass": [], "python -c 'import msgspec'": ["msgspec"]}
        for row in rows:
            args_after = row.argv[3:] if row.argv[1] == "-c" else row.argv[1:]
            row.peak = max(peak_mib(row, python, probe_args.get(row.label, args_after), env)
                           for _ in range(3))
            if args.instructions:
                row.instructions = instructions(row, env)

        bare, floor = rows[0], rows[1]
        print(f"{python} · {args.runs} rounds · medians; ratios are medians of per-round ratios")
        for row in rows:
            over_bare = statistics.median(a / b for a, b in zip(row.walls, bare.walls))
            over_floor = statistics.median(a / b for a, b in zip(row.walls, floor.walls))
            line = (f"{row.label:40s} {statistics.median(row.walls) * 1000:7.1f} ms  "
                    f"{over_bare:5.2f}x pass  {over_floor:5.2f}x msgspec  "
                    f"peak RSS {row.peak:5.1f} MiB  exit {sorted(row.codes)}")
            if args.instructions:
                line += (f"  instructions {row.instructions / 1e6:7.1f} M "
                         f"({row.instructions / floor.instructions:4.2f}x msgspec)")
            print(line)
        live_edit, unrouted = rows[3], rows[5]
        added = statistics.median(a - b for a, b in zip(unrouted.walls, live_edit.walls))
        print(f"1,000 unrouted disciplines add {added * 1000:.1f} ms "
              "(median of paired differences)")
        in_process, forked = rows[8], rows[9]
        fork = statistics.median(a - b for a, b in zip(forked.walls, in_process.walls))
        print(f"judging in a forked child costs {fork * 1000:.1f} ms (scaffold, median of "
              "paired differences)")


if __name__ == "__main__":
    main()
