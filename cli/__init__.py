"""The front door: argv, stdin, stdout, stderr, exit codes.

`covenant check` is routed straight to the hot path without importing click; every other
command goes through the click group in cli/commands.py.
"""

from __future__ import annotations

import os
import sys

USAGE = (
    "usage: pdks covenant check [--diff] [--enforce advise|block] [--unattended] "
    "[--config-layer <path>] [--telemetry-path <path>] | pdks compile | pdks explain | "
    "pdks init | pdks demo | pdks stats [--log <file>…] [--since <when>] [--until <when>] "
    "[--label <label>…] [--event <event>…] [--json] [--html <file>] | "
    "pdks log export [--format jsonl|csv] [the same selection flags] | "
    "pdks test [PATH…] | pdks replay <recording>… | pdks schema [config|tests|input] | "
    "pdks docs [topic | search <query> | show <document-id>] | pdks memory <subcommand> [args…]"
)


def usage_error() -> int:
    """Print the usage line and return exit code 2 (spec 05 §1; no telemetry row)."""
    write_stderr(USAGE + "\n")
    return 2


def write_stderr(text: str) -> None:
    try:
        sys.stderr.write(text)
        sys.stderr.flush()
    except (OSError, ValueError, AttributeError):
        pass  # a closed or broken stderr must not turn a verdict into a traceback


def end_process(code: int) -> None:
    """End a one-judgment process now: flush stdout and stderr, then leave without the
    interpreter's finalization.

    Finalizing tears down every module and every object the plan and the judgment built, which
    nothing needs once the verdict is written: about 13 ms of a live-config check (strace,
    docs/performance.md), and the host waits for it. Everything the check writes besides the
    two streams (rows, plan.bin, the baseline) is written and closed before this point, and no
    atexit handler runs on this path. A stream that cannot be flushed (a host that stopped
    reading, a write the deadline interrupted) keeps the verdict's exit code instead of
    Python's 120.
    """
    for stream in (sys.stdout, sys.stderr):
        try:
            if stream is not None:
                stream.flush()
        except Exception:  # noqa: BLE001 - closed, broken, or held by code the deadline stopped
            pass
    os._exit(code)


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else list(argv)
    if args[:2] == ["covenant", "check"]:
        import gc

        # A check is one short-lived process that builds a plan's worth of objects and exits:
        # cyclic garbage collection would only re-walk them (measured: a third of plan decoding).
        gc.disable()
        from polydeukes.cli.check import run_check

        if argv is None:  # the console script: the process ends with this judgment
            from polydeukes.cli import deadline

            deadline.judge_in_this_process()
        code = run_check(args[2:])
        if argv is None:
            end_process(code)
    else:
        from polydeukes.cli.commands import run_click

        code = run_click(args)
        if argv is None and args[:1] == ["compile"]:
            # A stale plan's check already ends this way; `pdks compile` loaded the compiler
            # (lark, yaml) besides, whose teardown is ~54 M instructions (5 % of a compile).
            end_process(code)
    if argv is None:
        sys.exit(code)
    return code
