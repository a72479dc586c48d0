"""Whole-process cost of a host hook call beside `pdks covenant check` on the same IR, paired.

    python bench/bench_hook.py [--runs 30] [--instructions]

For each scenario, in a project installed by the real installer:
  A  the command the installer registered, through `/bin/sh -c`, with the host's payload on
     stdin (the registered command, the delegator, the in-process translation and judgment);
  B  `pdks covenant check --enforce block` with that payload's IR on stdin (the IR computed once,
     beforehand, by the adapter itself);
  B' the same as B behind `/bin/sh -c`, the way a host would spawn it.
Runs alternate A, B, B', A, B, B', … after warm-up runs, so a drift in the machine's speed hits
every command alike; the ratio quoted is the median of the per-round ratios A/B (and A/B').
Bytecode caching stays on (PYTHONDONTWRITEBYTECODE is removed from the environment), as on a
user's machine. Target (issue 9): A/B <= 1.15. Not a test: read the ratios.

On a shared, noisy machine wall times drift; `--instructions` adds one run of each command under
`valgrind --tool=callgrind --trace-children=yes` and compares the instructions executed by every
process of the call (the shells included), a count that load does not change.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from callgrind import instructions  # bench/ is the script's path

BIN = Path(sys.executable).parent
HOST_FILES = {"claude-code": ".claude/settings.json", "codex": ".codex/hooks.json",
              "gemini": ".gemini/settings.json", "copilot": ".github/hooks/polydeukes.json",
              "cursor": ".cursor/hooks.json"}
ROOT_VARIABLES = {"claude-code": "CLAUDE_PROJECT_DIR", "gemini": "GEMINI_PROJECT_DIR"}

TRANSCRIPT_ROUNDS = 100  # 300 JSONL entries: a short working session


def _transcript(path: Path) -> None:
    lines = []
    for i in range(TRANSCRIPT_ROUNDS):
        lines.append({"type": "user", "origin": {"kind": "human"}, "timestamp": "2026-12-01T10:00:00Z",
                      "message": {"role": "user", "content": f"please look at step {i}"}})
        lines.append({"type": "assistant", "message": {"role": "assistant", "content": [
            {"type": "text", "text": "Looking."},
            {"type": "tool_use", "id": f"toolu_{i}", "name": "Bash", "input": {"command": f"ls {i}"}}]}})
        lines.append({"type": "user", "message": {"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": f"toolu_{i}", "content": "x" * 400}]}})
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")


def scenarios(base: Path) -> list[tuple[str, str, Path, Path, bytes]]:
    """(label, host, project root, cwd, payload)."""
    root = base / "project"
    root.mkdir()
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    for host in HOST_FILES:
        subprocess.run([str(BIN / f"pdks-{host}"), "init"], cwd=root, check=True,
                       capture_output=True)
    subprocess.run([str(BIN / "pdks"), "compile"], cwd=root, check=True, capture_output=True)
    (root / "src").mkdir()
    (root / "src" / "app.py").write_text("def total(xs):\n    return sum(xs)\n")
    transcript = base / "session.jsonl"
    _transcript(transcript)
    edit = {"session_id": "s", "transcript_path": str(transcript), "cwd": str(root),
            "permission_mode": "default", "hook_event_name": "PreToolUse", "tool_name": "Edit",
            "tool_input": {"file_path": str(root / "src" / "app.py"),
                           "old_string": "return sum(xs)", "new_string": "return sum(xs, 0)"},
            "tool_use_id": "toolu_bench"}
    bash = {"session_id": "s", "cwd": str(root), "hook_event_name": "PreToolUse",
            "tool_name": "Bash", "tool_input": {"command": "ls -la src"}, "tool_use_id": "t"}
    patch = {"cwd": str(root / "src"), "hook_event_name": "PreToolUse", "model": "gpt-5-codex",
             "permission_mode": "default", "session_id": "s", "tool_name": "apply_patch",
             "tool_input": {"command": "*** Begin Patch\n*** Update File: app.py\n@@\n"
                                       "-    return sum(xs)\n+    return sum(xs, 0)\n*** End Patch\n"},
             "tool_use_id": "c", "transcript_path": None, "turn_id": "t"}
    replace = {"session_id": "s", "cwd": str(root / "src"), "hook_event_name": "BeforeTool",
               "timestamp": "2026-12-01T10:00:00Z", "tool_name": "replace",
               "tool_input": {"file_path": "app.py", "old_string": "return sum(xs)",
                              "new_string": "return sum(xs, 0)"}}
    create = {"sessionId": "s", "timestamp": 1, "cwd": str(root), "toolName": "edit",
              "toolArgs": json.dumps({"path": "src/app.py", "old_str": "return sum(xs)",
                                      "new_str": "return sum(xs, 0)"})}
    denied = {"sessionId": "s", "timestamp": 1, "cwd": str(root), "toolName": "bash",
              "toolArgs": json.dumps({"command": "rm -rf .github/hooks"})}
    shell = {"hook_event_name": "preToolUse", "conversation_id": "c", "workspace_roots": [str(root)],
             "cwd": str(root), "tool_name": "Shell", "tool_input": {"command": "ls -la src"}}
    return [
        ("Claude Code Edit, 300-entry transcript", "claude-code", root, root, json.dumps(edit).encode()),
        ("Claude Code Bash, no transcript", "claude-code", root, root, json.dumps(bash).encode()),
        ("Codex apply_patch from src/", "codex", root, root / "src", json.dumps(patch).encode()),
        ("Gemini CLI replace from src/", "gemini", root, root / "src", json.dumps(replace).encode()),
        ("Copilot CLI edit (toolArgs a JSON string)", "copilot", root, root,
         json.dumps(create).encode()),
        ("Copilot CLI bash, denied on stdout", "copilot", root, root, json.dumps(denied).encode()),
        ("Cursor Shell, answered {} on stdout", "cursor", root, root / ".cursor",
         json.dumps(shell).encode()),
    ]


def registered_command(host: str, root: Path) -> str:
    """The command the installer registered, read back from the host's own file."""
    hooks = json.loads((root / HOST_FILES[host]).read_text(encoding="utf-8"))["hooks"]
    if host in ("copilot", "cursor"):  # flat lists of handlers
        key = "bash" if host == "copilot" else "command"
        return next(h[key] for h in hooks["preToolUse"] if "covenant-pretooluse" in h[key])
    event = "BeforeTool" if host == "gemini" else "PreToolUse"
    return next(handler["command"] for entry in hooks[event]
                for handler in entry["hooks"] if "covenant-pretooluse" in handler["command"])


def timed(argv: list[str], cwd: Path, stdin: bytes, env: dict) -> tuple[float, int]:
    start = time.perf_counter()
    done = subprocess.run(argv, cwd=cwd, input=stdin, env=env, stdout=subprocess.DEVNULL,
                          stderr=subprocess.DEVNULL)
    return time.perf_counter() - start, done.returncode


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--warmup", type=int, default=3)
    parser.add_argument("--instructions", action="store_true",
                        help="also count instructions under valgrind's callgrind")
    args = parser.parse_args()
    from polydeukes.stdlib.adapters.install import host_named
    from polydeukes.stdlib.adapters.runner import judge_input

    hosts = {name: host_named(name) for name in HOST_FILES}
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    pdks = [str(BIN / "pdks"), "covenant", "check", "--enforce", "block"]
    with tempfile.TemporaryDirectory() as base:
        for label, host, root, cwd, payload in scenarios(Path(base)):
            os.chdir(root)
            ir = judge_input(hosts[host], payload, str(root))
            variable = ROOT_VARIABLES.get(host)
            hook_env = dict(env, **{variable: str(root)}) if variable else env
            commands = {
                "A hook": (["/bin/sh", "-c", registered_command(host, root)], cwd, payload, hook_env),
                "B pdks": (pdks, root, ir, env),
                "B' sh+pdks": (["/bin/sh", "-c", shlex.join(pdks)], root, ir, env),
            }
            times: dict[str, list[float]] = {name: [] for name in commands}
            codes: dict[str, set[int]] = {name: set() for name in commands}
            for round_ in range(args.warmup + args.runs):
                for name, (argv, where, stdin, variables) in commands.items():
                    elapsed, code = timed(argv, where, stdin, variables)
                    codes[name].add(code)
                    if round_ >= args.warmup:
                        times[name].append(elapsed)
            print(f"{label}:")
            for name, values in times.items():
                print(f"  {name:12s} median {statistics.median(values) * 1000:6.1f} ms  "
                      f"exit {sorted(codes[name])}")
            for other in ("B pdks", "B' sh+pdks"):
                ratios = [a / b for a, b in zip(times["A hook"], times[other])]
                print(f"  A / {other:10s} median of paired ratios {statistics.median(ratios):.3f}")
            if args.instructions:
                counted = {name: instructions(*command) for name, command in commands.items()}
                print(f"  instructions: A {counted['A hook']:,}  B {counted['B pdks']:,}  "
                      f"A/B {counted['A hook'] / counted['B pdks']:.3f}")


if __name__ == "__main__":
    main()
