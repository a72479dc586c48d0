"""Benchmarks of the shell analysis (not a test): prints figures and the targets beside them.

    python bench/bench_shell.py [--baseline REV] [--size BYTES] [--skip-process]

1. In process, CPU time (best of several runs, so other load on a shared machine counts less):
   tokenize, the shell-mod judge, the evidence derivation and the transcript judge on a
   1,000-line script and on one typical line. Targets (issue 11): the 1,000-line script <= 10 ms,
   one typical line <= 0.05 ms (judge_shell_mod). With `--baseline REV` the shell modules of that
   revision (the allowlist analyzer before the effect model, e.g. 05048a7) are loaded beside the
   current ones and timed in the same run, alternately, so the ratio holds when the machine's
   speed drifts. Every timed call starts with the shell modules' caches empty, on both sides
   (see "Same work on both sides" below).
2. Whole process, `pdks covenant check --enforce block` on one Bash call whose command is 10 MB
   (default) of short lines, of single words, or of quoted words, with a session (so the
   transcript judge and the baseline run too). Target (issue 15): each <= 2 s. Wall time and
   the child's CPU time are printed; on a shared machine quote the CPU time. A fourth shape,
   lines of a writing command (`rm -f build/N.o`), is printed for information: every line is
   then a command the model must judge, and it costs the per-command figure times the count.
3. With `--instructions` (and `--baseline REV`), instead of 1. and 2.: the instructions one
   judge_shell_mod call executes, counted by valgrind's callgrind, which load does not move. A
   child process runs the call once (first-call costs: lazy imports, compiled regexes), then N
   times; the same child with N = 0 is subtracted, and the difference divided by N. The targets
   in instructions are the baseline's count scaled by its quiet-machine times (05048a7: 9.4 ms
   for the script, 0.027 ms for the line): script <= baseline x 10 / 9.4, line <= baseline x
   0.05 / 0.027. The figures measured, with what they leave out, are in docs/shell-axis.md
   ("Cost").

Same work on both sides: a process keeps results keyed by input text (functools caches: the
current analyzer's tokens of its last few command strings, `analysis.scanned`, and of glob
segments; both analyzers' command basenames; and the effect model's memo of each command's
effects, `effects.effects_of`, which offers the same `cache_clear`). A real check judges one command string once, so
those caches never answer its first reading; repeated calls on one string here would let them
answer, and tokenizing (which the baseline redoes every call) would drop out of our figure. So
every repetition, timed or counted, first clears every functools cache of the analyzer's
modules (`_clear_caches`: everything with a `cache_clear`), ours and the baseline's alike. What stays warm is what a process
pays once whatever the input: imports and compiled regular expressions.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import resource
import subprocess
import sys
import tempfile
import time

from polydeukes.stdlib.shell.evidence import shell_writes
from polydeukes.stdlib.shell.judgment import judge_shell_mod
from polydeukes.stdlib.shell.tokenizer import tokenize
from polydeukes.stdlib.shell.transcript import TranscriptTarget, judge_transcript_line

PROTECTED = ["packages/core/dist", ".claude/settings.json", "src/core", "polydeukes.config.yaml"]
ROOT = "/home/u/proj"
HOME = "/home/u"
# transcript-mod judges every Bash call too (meta covenant), against the live session file.
TRANSCRIPT = TranscriptTarget("/home/u/.claude/projects/-home-u-proj/session.jsonl", root=ROOT, home=HOME)

# A representative mix: plain commands, quoting, pipes, redirects, a heredoc, substitutions.
_BLOCK = [
    "cd build && make -j4 all",
    "echo \"building $TARGET\" >> build.log",
    "grep -rn 'TODO' src/ | sort | uniq -c > todo.txt",
    "cat packages/core/dist/index.js | wc -l",
    "python3 -m pytest tests/ -q --maxfail=1 2>&1 | tee test.log",
    "for f in src/*.py; do ruff check \"$f\"; done",
    "cat > notes/out.md <<'EOF'",
    "# heading with $HOME inside a quoted heredoc",
    "EOF",
    "git status packages/core/dist && git diff --stat",
]
SCRIPT = "\n".join(_BLOCK[k % len(_BLOCK)] for k in range(1000))
ONE_LINE = "grep -rn 'needle' packages/core/dist/index.js | head -n 20 > /tmp/hits.txt"

SCRIPT_TARGET_MS = 10.0
LINE_TARGET_MS = 0.05
# The pre-package analyzer (05048a7) on a quiet machine: the scale for the instruction targets.
BASELINE_QUIET_MS = {"script": 9.4, "line": 0.027}
TARGET_MS = {"script": SCRIPT_TARGET_MS, "line": LINE_TARGET_MS}
CALLS = {"script": 5, "line": 500}  # calls counted per child (valgrind runs ~50x slower)
PROCESS_TARGET_S = 2.0


def _cache_clearers(module_prefixes: tuple[str, ...]) -> list:
    """The functools caches (anything with `cache_clear`) at the top level of the loaded modules
    whose names start with one of `module_prefixes`."""
    clearers = []
    for name, module in list(sys.modules.items()):
        if module is None or not name.startswith(module_prefixes):
            continue
        for value in list(vars(module).values()):
            clear = getattr(value, "cache_clear", None)
            if callable(clear) and getattr(value, "__module__", None) == name:
                clearers.append(clear)
    return clearers


CURRENT_MODULES = ("polydeukes.stdlib.shell",)
BASELINE_MODULES = ("base_shell",)


def _clear_caches(module_prefixes: tuple[str, ...]) -> None:
    """Empty the analyzer's input-keyed caches, as in a process that has not judged this text
    yet (see the module docstring)."""
    for clear in _cache_clearers(module_prefixes):
        clear()


def cpu_best(fn, repeat: int, modules: tuple[str, ...] = CURRENT_MODULES) -> float:
    best = float("inf")
    for _ in range(repeat):
        _clear_caches(modules)  # untimed
        start = time.process_time()
        fn()
        best = min(best, time.process_time() - start)
    return best


def _load_baseline(revision: str):
    """The shell modules of `revision` (single-module layout), imported from a scratch dir."""
    here = os.path.dirname(os.path.abspath(__file__))
    repo = os.path.dirname(here)
    scratch = tempfile.mkdtemp(prefix="bench-shell-baseline-")
    names = {"shell.py": "base_shell", "shell_tokenizer.py": "base_shell_tokenizer",
             "shell_paths.py": "base_shell_paths"}
    for path, module in names.items():
        text = subprocess.run(["git", "-C", repo, "show", f"{revision}:stdlib/{path}"],
                              capture_output=True, text=True, check=True).stdout
        for other_path, other in names.items():
            text = text.replace(f"polydeukes.stdlib.{other_path[:-3]}", other)
        with open(os.path.join(scratch, module + ".py"), "w", encoding="utf-8") as handle:
            handle.write(text)
    sys.path.insert(0, scratch)
    spec = importlib.util.find_spec("base_shell")
    module = importlib.util.module_from_spec(spec)
    sys.modules["base_shell"] = module  # so that _cache_clearers finds it
    spec.loader.exec_module(module)
    return module


def in_process(baseline) -> None:
    cases = [
        ("tokenize", "1,000-line script", lambda: tokenize(SCRIPT), None, 20),
        ("judge_shell_mod", "1,000-line script",
         lambda: judge_shell_mod(SCRIPT, PROTECTED, root=ROOT, home=HOME), SCRIPT_TARGET_MS, 20),
        ("shell_writes", "1,000-line script",
         lambda: shell_writes(SCRIPT, root=ROOT, home=HOME, read_file=None), None, 20),
        ("judge_transcript_line", "1,000-line script", lambda: judge_transcript_line(SCRIPT, TRANSCRIPT), None, 20),
        ("judge_shell_mod", "one line",
         lambda: judge_shell_mod(ONE_LINE, PROTECTED, root=ROOT, home=HOME), LINE_TARGET_MS, 2000),
        ("shell_writes", "one line",
         lambda: shell_writes(ONE_LINE, root=ROOT, home=HOME, read_file=None), None, 2000),
        ("judge_transcript_line", "one line", lambda: judge_transcript_line(ONE_LINE, TRANSCRIPT), None, 2000),
    ]
    old = {}
    if baseline is not None:
        old = {
            ("tokenize", "1,000-line script"): lambda: baseline.tokenize(SCRIPT),
            ("judge_shell_mod", "1,000-line script"): lambda: baseline.judge_shell_mod(SCRIPT, PROTECTED, root=ROOT, home=HOME),
            ("shell_writes", "1,000-line script"): lambda: baseline.shell_writes(SCRIPT, root=ROOT, home=HOME, read_file=None),
            ("judge_shell_mod", "one line"): lambda: baseline.judge_shell_mod(ONE_LINE, PROTECTED, root=ROOT, home=HOME),
            ("shell_writes", "one line"): lambda: baseline.shell_writes(ONE_LINE, root=ROOT, home=HOME, read_file=None),
        }
    print(f"in process, CPU time, best of N ({len(SCRIPT.splitlines())} lines, {len(SCRIPT)} chars)")
    for name, what, fn, target, repeat in cases:
        baseline_fn = old.get((name, what))
        ours = base = float("inf")
        for _ in range(3):  # alternate, so both see the same machine
            ours = min(ours, cpu_best(fn, max(1, repeat // 3)))
            if baseline_fn is not None:
                base = min(base, cpu_best(baseline_fn, max(1, repeat // 3), BASELINE_MODULES))
        line = f"  {name:22s} {what:18s} {ours * 1e3:9.3f} ms"
        if target is not None:
            line += f"   target <= {target:g} ms {'met' if ours * 1e3 <= target else 'MISSED'}"
        if baseline_fn is not None:
            line += f"   baseline {base * 1e3:8.3f} ms  ratio {ours / base:5.2f}"
        print(line)


SHAPES = {
    # One plain command a line, each line different.
    "short lines": lambda size: "".join(f"cat src/file{k}.txt\n" if k % 3 == 0 else
                                        f"echo line {k}\n" if k % 3 == 1 else f"ls -la d{k}\n"
                                        for k in range(size // 12))[:size],
    "single words": lambda size: ("a " * (size // 2))[:size],
    "quoted words": lambda size: ("'a' " * (size // 4))[:size],
}
INFO_SHAPES = {
    "writer lines (info)": lambda size: "".join(f"rm -f build/{k}.o\n" for k in range(size // 16))[:size],
}


def whole_process(size: int, info_size: int) -> None:
    scratch = tempfile.mkdtemp(prefix="bench-shell-")
    with open(os.path.join(scratch, "polydeukes.config.yaml"), "w", encoding="utf-8") as handle:
        handle.write("protectedPaths: ['.claude/hooks', 'ci/gate.sh']\n")
    command = [sys.executable, "-m", "polydeukes.cli", "covenant", "check", "--enforce", "block"]
    print(f"whole process, pdks covenant check on one Bash call (target <= {PROCESS_TARGET_S:g} s)")
    subprocess.run(command, input=b'{"toolCalls":[],"subagentSpawns":[],"userMessages":[]}',
                   cwd=scratch, capture_output=True)  # compile the plan once
    for shapes, bytes_ in ((SHAPES, size), (INFO_SHAPES, info_size)):
        for name, make in shapes.items():
            text = make(bytes_)
            payload = {
                "toolCalls": [{"name": "Bash", "args": {"command": text}}],
                "subagentSpawns": [], "userMessages": [],
                "tools": {"mutating": ["Edit", "Write"], "shell": ["Bash"], "commandArgs": ["command"]},
                "session": {"userMessages": [], "toolCalls": []},
            }
            data = json.dumps(payload).encode()
            best_wall = best_cpu = float("inf")
            code = None
            for _ in range(3):
                before = resource.getrusage(resource.RUSAGE_CHILDREN)
                start = time.perf_counter()
                done = subprocess.run(command, input=data, cwd=scratch, capture_output=True)
                wall = time.perf_counter() - start
                after = resource.getrusage(resource.RUSAGE_CHILDREN)
                cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
                best_wall, best_cpu = min(best_wall, wall), min(best_cpu, cpu)
                code = done.returncode
            verdict = ""
            if shapes is SHAPES:
                verdict = f"   {'met' if best_cpu <= PROCESS_TARGET_S else 'MISSED'} (CPU)"
            print(f"  {name:20s} {len(text) / 1e6:6.1f} MB   wall {best_wall:6.2f} s   cpu {best_cpu:6.2f} s"
                  f"   exit {code}{verdict}")


def _drive(revision: str, what: str, calls: int) -> None:
    """The child that callgrind counts: judge_shell_mod once, then `calls` times; prints the
    last result, which the parent compares with the same call run natively."""
    if revision == "current":
        # Valgrind runs some 50x slower: the wall-clock bound on reading the disk (half a second
        # per analysis) would refuse the walk's later reads and cut it short, so the count would
        # be of another, failed-closed judgment. Instructions are what is counted here.
        from polydeukes.stdlib.shell import disk

        disk.Disk.__init__.__kwdefaults__["seconds"] = 1e6
    judge = judge_shell_mod if revision == "current" else _load_baseline(revision).judge_shell_mod
    text = SCRIPT if what == "script" else ONE_LINE
    result = judge(text, PROTECTED, root=ROOT, home=HOME)
    # Listed after the first call, which imports every module the judge loads lazily.
    clearers = _cache_clearers(CURRENT_MODULES if revision == "current" else BASELINE_MODULES)
    for _ in range(calls):
        for clear in clearers:
            clear()
        result = judge(text, PROTECTED, root=ROOT, home=HOME)
    print(repr(result))


def _instructions(revision: str, what: str, calls: int) -> int:
    with tempfile.TemporaryDirectory() as out:
        done = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}/count",
                               sys.executable, os.path.abspath(__file__), "--drive", revision, what, str(calls)],
                              env=dict(os.environ, PYTHONHASHSEED="0"), capture_output=True, text=True, check=True)
        if revision == "current":
            native = repr(judge_shell_mod(SCRIPT if what == "script" else ONE_LINE, PROTECTED, root=ROOT, home=HOME))
            if done.stdout.strip() != native:
                raise RuntimeError(f"the counted call judged otherwise than the native one: "
                                   f"{done.stdout.strip()} != {native}")
        with open(os.path.join(out, "count"), encoding="utf-8", errors="replace") as handle:
            for line in handle:
                if line.startswith("summary:"):
                    return int(line.split()[1])
    raise RuntimeError("callgrind wrote no summary")


def instructions(baseline: str | None) -> None:
    print("instructions per judge_shell_mod call (callgrind)")
    for what in ("script", "line"):
        calls = CALLS[what]
        ours = (_instructions("current", what, calls) - _instructions("current", what, 0)) / calls
        line = f"  {what:6s} {ours:14,.0f}"
        if baseline is not None:
            base = (_instructions(baseline, what, calls) - _instructions(baseline, what, 0)) / calls
            target = base * TARGET_MS[what] / BASELINE_QUIET_MS[what]
            line += (f"   baseline {base:14,.0f}  ratio {ours / base:5.2f}   target <= {target:14,.0f}"
                     f" {'met' if ours <= target else 'MISSED'}")
        print(line)


def main() -> None:
    if sys.argv[1:2] == ["--drive"]:
        _drive(sys.argv[2], sys.argv[3], int(sys.argv[4]))
        return
    parser = argparse.ArgumentParser()
    parser.add_argument("--baseline", help="a revision whose stdlib/shell.py to time beside")
    parser.add_argument("--size", type=int, default=10_000_000)
    parser.add_argument("--info-size", type=int, default=1_000_000)
    parser.add_argument("--skip-process", action="store_true")
    parser.add_argument("--instructions", action="store_true",
                        help="count instructions under callgrind instead of timing")
    args = parser.parse_args()
    if args.instructions:
        instructions(args.baseline)
        return
    baseline = _load_baseline(args.baseline) if args.baseline else None
    in_process(baseline)
    if not args.skip_process:
        whole_process(args.size, args.info_size)


if __name__ == "__main__":
    main()
