"""`pdks covenant check`: the hot path (spec 05 §3).

Imports only the standard library, msgspec and the hot-path modules; the compiler (yaml, lark)
is imported only when the config has to be compiled.
"""

from __future__ import annotations

import os
import sys

from polydeukes.cli import usage_error, write_stderr
from polydeukes.vm.telemetry import TelemetryWriter
from polydeukes.vm.verdict import BLOCKED

ENV_TELEMETRY_PATH = "POLYDEUKES_TELEMETRY_PATH"
DEFAULT_LOG_PATH = os.path.join(".polydeukes", "roi.log")
CHECK_LABEL = "covenant-check"


class CheckFlags:
    __slots__ = ("diff", "enforce", "unattended", "config_layer", "telemetry_path")

    def __init__(self) -> None:
        self.diff = False
        self.enforce = "advise"  # the CLI's default posture; adapters and SDKs pass block
        self.unattended = False
        self.config_layer: str | None = None
        self.telemetry_path: str | None = None


class FailClosed(Exception):
    """Ends the run: one stderr line, one `blocked covenant-check -` row, exit 2 (spec 05 §3.7)."""


def parse_flags(args: list[str]) -> CheckFlags | None:
    """Whole-token matching of spec 05 §3.1; None means a usage error."""
    flags = CheckFlags()
    seen: set[str] = set()
    i = 0
    while i < len(args):
        token = args[i]
        if token in seen:
            return None
        seen.add(token)
        if token == "--diff":
            flags.diff = True
        elif token == "--unattended":
            flags.unattended = True
        elif token == "--enforce":
            if i + 1 >= len(args) or args[i + 1] not in ("advise", "block"):
                return None
            flags.enforce = args[i + 1]
            i += 1
        elif token in ("--config-layer", "--telemetry-path"):
            # A value starting with `--` is a missing value followed by a flag.
            if i + 1 >= len(args) or args[i + 1] == "" or args[i + 1].startswith("--"):
                return None
            if token == "--config-layer":
                flags.config_layer = args[i + 1]
            else:
                flags.telemetry_path = args[i + 1]
            i += 1
        else:
            return None
        i += 1
    return flags


def settle_telemetry_path(flags: CheckFlags, root: str, config_log_path: str | None) -> str:
    """Flag ?? environment ?? config ?? default (spec 06 §1); the config term only once loaded."""
    if flags.telemetry_path is not None:
        return flags.telemetry_path
    from_env = os.environ.get(ENV_TELEMETRY_PATH)
    if from_env:  # an empty variable is treated as unset
        return from_env
    return os.path.join(root, config_log_path or DEFAULT_LOG_PATH)


def read_stdin() -> bytes:
    stream = getattr(sys.stdin, "buffer", None)
    if stream is None:
        return b""
    chunks = []
    while True:  # to EOF: large diffs must not be truncated
        chunk = stream.read(1 << 16)
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)


def run_check(args: list[str]) -> int:
    flags = parse_flags(args)
    if flags is None:
        return usage_error()  # stdin is left unread
    root = os.getcwd()
    telemetry = TelemetryWriter(settle_telemetry_path(flags, root, None))
    try:
        return _check(flags, root, telemetry)
    except FailClosed as exc:
        return _fail_closed(str(exc), telemetry)
    except KeyboardInterrupt:
        return _fail_closed("interrupted", telemetry)
    except Exception as exc:  # noqa: BLE001 - no traceback ever escapes a judging command
        return _fail_closed(f"internal error: {type(exc).__name__}: {exc}", telemetry)


def _fail_closed(message: str, telemetry: TelemetryWriter) -> int:
    write_stderr(f"covenant check failed closed: {message}\n")
    telemetry.record(BLOCKED, CHECK_LABEL, "-")
    return 2


def _check(flags: CheckFlags, root: str, telemetry: TelemetryWriter) -> int:
    from polydeukes.cli.planning import PlanUnavailable, obtain_plan

    try:
        plan = obtain_plan(root, flags.config_layer)
    except PlanUnavailable as exc:
        raise FailClosed(str(exc)) from None
    telemetry.path = settle_telemetry_path(flags, root, plan.telemetry_log_path)

    raw = read_stdin()
    value = _read_input(flags, raw)
    if not value.toolCalls:
        return 0  # an explicit pass: nothing to judge, no rows
    # Judging a valid input belongs to the VM, which this build does not carry yet; refusing
    # is the only honest answer (fail closed), never a pretend pass.
    raise FailClosed(
        "the covenant judges could not be loaded: this build of pdks has no judging VM yet"
    )


def _read_input(flags: CheckFlags, raw: bytes):
    if flags.diff:
        import msgspec

        from polydeukes.stdlib.diff import DiffError, diff_to_input
        from polydeukes.vm.ir import CovenantInput

        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise FailClosed("unified diff: the input is not UTF-8 text") from None
        try:
            return msgspec.convert(diff_to_input(text), CovenantInput)
        except DiffError as exc:
            raise FailClosed(str(exc)) from None
    from polydeukes.vm.ir import InputRefused, parse_input

    try:
        return parse_input(raw)
    except InputRefused as exc:
        raise FailClosed(str(exc)) from None
