"""`pdks covenant check`: the hot path (spec 05 §3).

Imports only the standard library, msgspec and the hot-path modules; the compiler (yaml, lark)
is imported only when the config has to be compiled. Every judgment runs under the hard
deadline of cli/deadline.py.

`run_check` is the command: argv, stdin, the process's stderr and the telemetry log, under the
deadline. Everything after the flags is `check`, the one judging core, which takes its stderr
and telemetry sinks, its plan source and its clock as arguments: the in-process API
(`polydeukes.Judge`), `pdks test` and `pdks replay` call the same function, so they answer what
the command answers.
"""

from __future__ import annotations

import os
import sys
from typing import Callable

from polydeukes.cli import deadline, usage_error, write_stderr
from polydeukes.vm.safeio import MiB, size_text
from polydeukes.vm.telemetry import TelemetryWriter
from polydeukes.vm.verdict import BLOCKED

ENV_TELEMETRY_PATH = "POLYDEUKES_TELEMETRY_PATH"
DEFAULT_LOG_PATH = os.path.join(".polydeukes", "roi.log")
CHECK_LABEL = "covenant-check"
# (Python design) stdin is read to EOF, but not past this: a larger input is refused (never
# truncated), and an endless one cannot exhaust memory before the deadline ends it.
INPUT_LIMIT = 64 * MiB
INPUT_TOO_LARGE = "the input is larger than {limit}"

Stderr = Callable[[str], None]  # one line, without its newline


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


def settle_telemetry_path(flags: CheckFlags, root: str | None,
                          config_log_path: str | None) -> str | None:
    """Flag ?? environment ?? config ?? default (spec 06 §1); the config term only once loaded.
    None when nothing can be settled (no flag, no variable and no working directory)."""
    if flags.telemetry_path is not None:
        return flags.telemetry_path
    from_env = os.environ.get(ENV_TELEMETRY_PATH)
    if from_env:  # an empty variable is treated as unset
        return from_env
    if root is None:
        return None
    return os.path.join(root, config_log_path or DEFAULT_LOG_PATH)


def read_stdin() -> bytes:
    stream = getattr(sys.stdin, "buffer", None)
    if stream is None:
        return b""
    chunks = []
    total = 0
    while True:  # to EOF: large diffs must not be truncated
        chunk = stream.read(1 << 16)
        if not chunk:
            return b"".join(chunks)
        total += len(chunk)
        if total > INPUT_LIMIT:
            raise FailClosed(INPUT_TOO_LARGE.format(limit=size_text(INPUT_LIMIT)))
        chunks.append(chunk)


def run_check(args: list[str], stdin: bytes | None = None) -> int:
    """`pdks covenant check`; `stdin` replaces standard input (the git hook's own diff, or an
    adapter judging in its own process).

    The judgment runs under the hard deadline (cli/deadline.py): in this process when the
    console script has said the process ends with it, else in a forked child where the platform
    has fork, so an in-process caller sees the same exit code, stderr (written through its own
    `sys.stderr`) and rows as a `pdks` process.
    """
    flags = parse_flags(args)
    if flags is None:
        return usage_error()  # stdin is left unread
    try:
        root = os.getcwd()
    except OSError as exc:  # the working directory was deleted under the host
        return fail_closed(f"the working directory cannot be read: {exc.strerror or exc}",
                           settle_telemetry_path(flags, None, None))
    return deadline.run_with_deadline(
        lambda: _judge_observation(flags, root, stdin),
        log_path=settle_telemetry_path(flags, root, None), fail_closed=fail_closed)


def run_with_deadline(fn: Callable[[], int], *, log_path: str | None = None) -> int:
    """Run `fn()` under the same hard deadline as `pdks covenant check`; returns its exit code.

    For an adapter that judges in its own process: put the host-payload translation and the
    `run_check([...], stdin=ir_bytes)` call in `fn`, and both are bounded together (the
    `run_check` inside then runs directly, without a second deadline). At the deadline, or
    if `fn` dies, the call is blocked: `covenant check failed closed: judging took longer than
    N s` (or the failure) on stderr, one `blocked covenant-check -` row, exit 2. The row goes
    where `run_check` settled this run's telemetry path, else to `log_path`, else to
    `$POLYDEUKES_TELEMETRY_PATH` or `.polydeukes/roi.log` under the working directory.

    The deadline is `POLYDEUKES_DEADLINE_SECONDS` ?? the config's `deadlineSeconds` ?? 10 s.
    Unless a console script declared that the process ends with this judgment
    (`deadline.judge_in_this_process`), where `fork` exists `fn` runs in a forked child: its
    writes to `sys.stdout` and `sys.stderr` are relayed to this process's streams, but any
    other state it changes stays in the child, so `fn` should return (or print) everything the
    caller needs.
    """
    if log_path is None:
        try:
            log_path = settle_telemetry_path(CheckFlags(), os.getcwd(), None)
        except OSError:
            log_path = settle_telemetry_path(CheckFlags(), None, None)
    return deadline.run_with_deadline(fn, log_path=log_path, fail_closed=fail_closed)


def fail_closed(message: str, log_path: str | None) -> int:
    """Spec 05 §3.7: one stderr line, one `blocked covenant-check -` row, exit 2."""
    return _fail_closed(message, TelemetryWriter(log_path), _stderr_line)


def _judge_observation(flags: CheckFlags, root: str, stdin: bytes | None) -> int:
    reader = read_stdin if stdin is None else (lambda: stdin)
    telemetry = TelemetryWriter(settle_telemetry_path(flags, root, None))
    return check(flags, root, reader, stderr=_stderr_line, telemetry=telemetry)


def _stderr_line(line: str) -> None:
    write_stderr(line + "\n")


def check(flags: CheckFlags, root: str, reader: Callable[[], bytes], *, stderr: Stderr,
          telemetry: TelemetryWriter, plan_source: Callable | None = None,
          clock: Callable[[], int] | None = None, baseline: bool = True,
          memo: Callable | None = None) -> int:
    """Judge one observation (spec 05 §3.4) and return the exit code; never raises.

    `reader()` returns the input (refused past INPUT_LIMIT); `telemetry.path` is settled here
    once the config names its log; `plan_source(root, layer)` returns the plan or raises
    PlanUnavailable (default: the plan cache, spec 05 §8.2); `clock` is the wall clock in
    milliseconds the witness valve and the transcript snapshot read; `baseline=False` skips
    the protected-state comparison (an observation, never a verdict); `memo(plan)` returns the
    machine.Memo a long-lived caller keeps for that plan. The deadline is the caller's: the
    command runs this under cli/deadline.py.
    """
    run = _Context(stderr, plan_source, clock, baseline, memo)
    try:
        return _check(flags, root, telemetry, lambda: _bounded_input(reader()), run)
    except FailClosed as exc:
        return _fail_closed(str(exc), telemetry, stderr)
    except KeyboardInterrupt:
        return _fail_closed("interrupted", telemetry, stderr)
    except MemoryError:
        return _fail_closed("out of memory while judging", telemetry, stderr)
    except Exception as exc:  # noqa: BLE001 - no traceback ever escapes a judging command
        return _fail_closed(f"internal error: {type(exc).__name__}: {exc}", telemetry, stderr)


class _Context:
    """What a caller of `check` injects, handed down the pipeline as one value."""

    __slots__ = ("stderr", "plan_source", "clock", "baseline", "memo")

    def __init__(self, stderr: Stderr, plan_source: Callable | None,
                 clock: Callable[[], int] | None, baseline: bool, memo: Callable | None) -> None:
        self.stderr = stderr
        self.plan_source = plan_source
        self.clock = clock
        self.baseline = baseline
        self.memo = memo


def _bounded_input(data: bytes) -> bytes:
    if len(data) > INPUT_LIMIT:
        raise FailClosed(INPUT_TOO_LARGE.format(limit=size_text(INPUT_LIMIT)))
    return data


def _fail_closed(message: str, telemetry: TelemetryWriter, stderr: Stderr) -> int:
    stderr(f"covenant check failed closed: {message}")
    telemetry.record(BLOCKED, CHECK_LABEL, "-")
    return 2


def _settle(telemetry: TelemetryWriter, path: str | None) -> None:
    """This run's rows go to `path` from now on; a deadline row too (cli/deadline.py). The
    path is read back from the writer, which may refuse it (a Judge without telemetry)."""
    telemetry.path = path
    deadline.settle_log_path(telemetry.path)


def _check(flags: CheckFlags, root: str, telemetry: TelemetryWriter,
           reader: Callable[[], bytes], run: _Context) -> int:
    from polydeukes.cli.planning import PlanUnavailable, obtain_plan

    try:
        plan = (run.plan_source or obtain_plan)(root, flags.config_layer)
    except PlanUnavailable as exc:
        if flags.diff or exc.config_name is None:
            raise FailClosed(str(exc)) from None
        return _config_repair(flags, root, telemetry, exc, reader, run)
    _settle(telemetry, settle_telemetry_path(flags, root, plan.telemetry_log_path))
    deadline.settle_configured_seconds(plan.deadline_seconds)

    value = _read_input(flags, reader())
    if flags.diff:
        return _judge(flags, root, telemetry, plan, value, run, home=None)
    from polydeukes.vm.ir import UNSET

    with_session = value.session is not UNSET and run.baseline
    if with_session:  # the post-hoc state comparison; fail-open (spec 06 §8)
        # Imported only here: its hashlib and json cost ~4 ms that a call without a session
        # never needs.
        from polydeukes.stdlib import baseline
        from polydeukes.stdlib.protected import watched_by_baseline

        watched = watched_by_baseline(plan.protected, plan.telemetry_log_path)
        baseline.compare(root, watched, telemetry)
    try:
        if not value.toolCalls:
            return 0  # an explicit pass: nothing to judge, no rows
        from polydeukes.stdlib.assembly import default_home

        return _judge(flags, root, telemetry, plan, value, run, home=default_home())
    finally:
        if with_session:
            baseline.update(root, watched, baseline.admitted_by(telemetry.verdicts, watched))


def _judge(flags: CheckFlags, root: str, telemetry: TelemetryWriter, plan, value, run: _Context,
           *, home: str | None) -> int:
    if not value.toolCalls:
        return 0
    from polydeukes.stdlib.assembly import RosterShellFacts, assemble, disk_reader
    import polydeukes.vm.machine as M  # not `from polydeukes.vm import`: no _handle_fromlist
    from polydeukes.vm.ir import UNSET

    session = value.session
    tools = value.tools
    shell = None
    if tools is not UNSET and tools.shell:
        reader = disk_reader(root) if session is not UNSET else None
        shell = RosterShellFacts(tools.shell, tools.commandArgs, root=root, home=home,
                                 read_file=reader)
    clock = run.clock or M.now_ms
    try:
        witness_open = None
        if plan.witness_token is not None and session is not UNSET and not flags.unattended:
            witness_open = M.ttl_witness(plan.witness_token, plan.witness_ttl_minutes,
                                         session.userMessages, clock)
        machine = M.Run(
            plan, value, root=root,
            surface=M.CHANGE_SET if flags.diff else M.SESSION,
            posture=flags.enforce, unattended=flags.unattended, telemetry=telemetry,
            stderr=run.stderr, shell=shell,
            witness_open=witness_open, snapshot=M.transcript_snapshot(value, clock()),
            memo=run.memo(plan) if run.memo is not None else None,
        )
        surface = plan.change_set if flags.diff else plan.session
        return M.dispatch(machine, assemble(machine, surface, home=home))
    except M.RunFailed as exc:
        raise FailClosed(str(exc)) from None


REPAIR_SUFFIX = (
    " \u2014 fix {config} in one Edit or Write whose result loads; every other call stays "
    "blocked until it does"
)


def _config_repair(flags: CheckFlags, root: str, telemetry: TelemetryWriter, failure,
                   reader: Callable[[], bytes], run: _Context) -> int:
    """A session call that rewrites a config that does not load into one that does (spec 05 §3.8)."""
    from polydeukes.cli.planning import load_error
    from polydeukes.compiler.config import read_layer
    from polydeukes.compiler.diagnostics import ConfigError

    name, current = failure.config_name, failure.config_bytes
    message = str(failure)
    if flags.config_layer is not None:
        # Only a config that fails on its own, beside a layer that loads on its own, is
        # repairable; anything else fails closed without the repair hint.
        try:
            read_layer(root, flags.config_layer)
        except ConfigError:
            raise FailClosed(message) from None
        alone = load_error(root, name, current)
        if alone is None:
            raise FailClosed(message) from None
        message = alone
    value = _read_input(flags, reader())
    suffix = REPAIR_SUFFIX.format(config=name)
    calls = value.toolCalls
    change = calls[0].fileChange if len(calls) == 1 else None
    from polydeukes.vm.ir import Modify

    if isinstance(change, Modify) and _relative(root, change.path) == name:
        text = current.decode("utf-8", errors="replace")
        repaired = change.post.encode("utf-8")
        if change.pre == text:
            with_layer = load_error(root, name, repaired, flags.config_layer)
            if with_layer is None:
                from polydeukes.compiler.config import load_config

                config = load_config(root, name, repaired, flags.config_layer)
                _settle(telemetry, settle_telemetry_path(flags, root, config.telemetry_log_path))
                telemetry.record("advised", CHECK_LABEL, name)
                run.stderr(f"covenant check: {name} does not load ({message}) \u2014 this "
                           "call rewrites it into one that does; advised, not judged")
                return 0
            if flags.config_layer is not None and load_error(root, name, repaired) is None:
                layer_path = os.path.normpath(os.path.join(root, flags.config_layer))
                suffix += (f" (this call's result does not load with layer {layer_path}: "
                           f"{with_layer})")
    raise FailClosed(message + suffix)


def _relative(root: str, path: str) -> str:
    import posixpath

    if path.startswith("/"):
        return posixpath.relpath(posixpath.normpath(path), root)
    return posixpath.normpath(path)


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
