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
    "pdks init | pdks demo | pdks docs [topic | search <query> | show <document-id>] | "
    "pdks memory <subcommand> [args…]"
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


def open_standard_descriptors() -> None:
    """Give a closed stdin, stdout or stderr (`2>&-`) a /dev/null descriptor.

    Otherwise the next file the judge opens takes the free number: the log opened as fd 2
    would receive stderr text, and a config opened as fd 0 would be read as the input. Python
    already set the matching `sys` stream to None; it stays so (writes to it are no-ops)."""
    for fd in (0, 1, 2):
        try:
            os.fstat(fd)
        except OSError:
            try:
                opened = os.open(os.devnull, os.O_RDWR)
            except OSError:
                return
            if opened != fd:  # a lower number was free too: it is filled in its own turn
                os.dup2(opened, fd)
                os.close(opened)


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else list(argv)
    if args[:2] == ["covenant", "check"]:
        open_standard_descriptors()
        import gc

        # A check is one short-lived process that builds a plan's worth of objects and exits:
        # cyclic garbage collection would only re-walk them (measured: a third of plan decoding).
        gc.disable()
        from polydeukes.cli.check import run_check

        code = run_check(args[2:])
    else:
        from polydeukes.cli.commands import run_click

        code = run_click(args)
    if argv is None:
        sys.exit(code)
    return code
