"""`polydeukes.Judge`: `pdks covenant check` in-process, for Python agent frameworks (stable API).

    from polydeukes import Judge

    judge = Judge("/path/to/project")             # finds polydeukes.config.yaml there
    verdict = judge.check(ir)                      # ir: a CovenantInput dict, or its JSON bytes
    if verdict.blocked:
        refuse(verdict.reason)

A check is the very function the command runs (cli/check.py `check`), with the process's
stderr and telemetry log replaced by sinks: the exit code, the rows and the stderr text are
what `pdks covenant check --enforce block` prints for the same input in the same project. What a
Judge keeps between calls is the compiled plan, reloaded when the config file changes.
"""

from __future__ import annotations

import os
import time
from typing import Any, Callable, NamedTuple

from polydeukes.cli.check import CheckFlags, FailClosed, check
from polydeukes.cli.planning import PlanUnavailable, obtain_plan, plan_from_file
from polydeukes.vm.ir import NOT_AN_OBJECT
from polydeukes.vm.project import ProjectError, discover_config
from polydeukes.vm.telemetry import TelemetryWriter, format_record

__all__ = ["Judge", "Row", "Verdict", "judge_in_process"]

_RACY_NS = 2_000_000_000  # how recent a directory mtime is too recent to trust (2 s)
# The events whose row a body's reason line explains (written just before the row).
_EXPLAINED = frozenset({"advised", "blocked", "witnessed"})


class Row(NamedTuple):
    """One telemetry row of a check, without its timestamp (spec 06 §2)."""

    event: str  # passed | advised | blocked | witnessed | skipped | unattributed
    label: str  # a discipline id, a meta-covenant, covenant-check, shell-unjudgeable, baseline
    subject: str  # the judged path, or '-'
    detail: str | None = None  # a skipped row's reason token, or a break's witnesses JSON
    message: str | None = None  # the stderr line that explains an advised/blocked/witnessed row

    @property
    def line(self) -> str:
        """The row as the log holds it after the timestamp: tab-separated fields."""
        fields = [self.event, self.label, self.subject]
        return "\t".join(fields if self.detail is None else fields + [self.detail])


class Verdict(NamedTuple):
    exit_code: int  # 0 lets the call happen, 2 blocks it
    rows: tuple[Row, ...]
    stderr: str  # every line the command would print on stderr, each ending in a newline

    @property
    def blocked(self) -> bool:
        return self.exit_code == 2

    @property
    def reason(self) -> str | None:
        """Why the call is blocked: the first blocked row's line, else the first stderr line."""
        if not self.blocked:
            return None
        for row in self.rows:
            if row.event == "blocked" and row.message:
                return row.message
        return self.stderr.split("\n", 1)[0] or None

    def of(self, label: str) -> list[Row]:
        """The rows one registration (a discipline id or a meta label) wrote."""
        return [row for row in self.rows if row.label == label]


class Judge:
    """Judges calls against one project's config without a process per call.

    project_root  the directory `pdks` would run in (the config is discovered there, file
                  sources and protected paths are read there).
    config        None: the project's own config, discovered as the command does; or a path
                  (relative to project_root) to judge with another config file.
                  A config that is missing or does not load never raises: every check then
                  fails closed (exit 2, `covenant check failed closed: …`), as the command does.
    telemetry     True: append rows where the command would (POLYDEUKES_TELEMETRY_PATH, the
                  config's telemetry.logPath, .polydeukes/roi.log), and keep the baseline
                  comparison; False: write nothing (no rows, no baseline); a path: append there.
    """

    def __init__(self, project_root: str | os.PathLike, config: str | os.PathLike | None = None,
                 telemetry: bool | str | os.PathLike = True) -> None:
        self.root = os.path.abspath(os.fspath(project_root))
        self.config = None if config is None else os.fspath(config)
        if telemetry is True or telemetry is False:
            self.telemetry: bool | str = telemetry
        else:
            self.telemetry = os.fspath(telemetry)
        self._stamp: tuple | None = None
        self._discovered: tuple[int, str] | None = None  # (root mtime, config name)
        self._plan = None
        self._memo = None  # machine.Memo of self._plan: regexes and bound programs
        try:
            self.load()  # early, so the first check pays nothing
        except Exception:  # noqa: BLE001 - each check answers an unusable config, failing closed
            pass

    # -- the plan ---------------------------------------------------------------------------
    def load(self):
        """The plan for the config as it is now; compiled (or read from plan.bin) only when
        the file changed since the last call. Raises PlanUnavailable like the command."""
        stamp = self._config_stamp()
        if stamp is not None and stamp == self._stamp:
            return self._plan
        self._plan = None
        self._stamp = None
        if self.config is None:
            plan = obtain_plan(self.root)
        else:
            plan = plan_from_file(self.root, self.config)
        self._plan, self._stamp, self._memo = plan, stamp, None
        return plan

    def _memo_for(self, plan):
        from polydeukes.vm.machine import Memo

        if plan is not self._plan:
            return Memo()
        if self._memo is None:
            self._memo = Memo()
        return self._memo

    def _config_stamp(self) -> tuple | None:
        """What identifies the config cheaply: which file it is and that file's inode, size and
        times; None when it cannot be told. Discovery (which of the three names exist) is
        redone only when the root directory's own mtime moved — the mark of an entry created,
        removed or renamed there."""
        try:
            if self.config is not None:
                name = self.config
            else:
                listed = os.stat(self.root).st_mtime_ns
                # A directory changed within the file system's timestamp granularity of the
                # last look could change again unseen: recent mtimes are never trusted.
                if (self._discovered is None or self._discovered[0] != listed
                        or time.time_ns() - listed < _RACY_NS):
                    self._discovered = (listed, discover_config(self.root))
                name = self._discovered[1]
            info = os.stat(os.path.join(self.root, name))
        except (OSError, ProjectError):
            self._discovered = None
            return None
        return (name, info.st_ino, info.st_size, info.st_mtime_ns, info.st_ctime_ns)

    def _plan_source(self, root: str, layer: str | None):
        try:
            return self.load()
        except PlanUnavailable:
            raise
        except Exception as exc:  # noqa: BLE001 - becomes the command's fail-closed line
            raise PlanUnavailable(f"the covenant judges could not be loaded: {exc}") from None

    # -- judging ----------------------------------------------------------------------------
    def check(self, ir: dict | bytes | str, enforce: str = "block", *,
              unattended: bool = False) -> Verdict:
        """Judge one CovenantInput on the session surface, as
        `pdks covenant check --enforce <enforce> [--unattended]` does. Never raises on any
        `ir`: what the command would refuse is the command's block."""
        return self._run(lambda: _stdin_bytes(ir), enforce, diff=False, unattended=unattended)

    def check_diff(self, diff: str | bytes, enforce: str = "block") -> Verdict:
        """Judge a unified diff on the change-set surface (`pdks covenant check --diff`)."""
        return self._run(lambda: _stdin_bytes(diff), enforce, diff=True, unattended=False)

    def _run(self, read: Callable[[], bytes], enforce: str, *, diff: bool,
             unattended: bool) -> Verdict:
        return judge_in_process(
            self.root, read, plan_source=self._plan_source, enforce=enforce, diff=diff,
            unattended=unattended, writes=self.telemetry is not False,
            telemetry_path=self.telemetry if isinstance(self.telemetry, str) else None,
            memo=self._memo_for)


def judge_in_process(root: str, raw: bytes | Callable[[], bytes], *, plan_source: Callable,
                     enforce: str = "block", diff: bool = False, unattended: bool = False,
                     writes: bool = False, telemetry_path: str | None = None,
                     clock: Callable[[], int] | None = None,
                     memo: Callable | None = None) -> Verdict:
    """One `pdks covenant check` run on `raw` (the stdin bytes, or a function returning them,
    which may raise FailClosed) in `root`, its stderr and rows captured.

    `writes=False` writes nothing (no rows to a log, no baseline); `telemetry_path` is
    `--telemetry-path`; `clock` replaces the wall clock (pdks test, pdks replay).
    """
    if enforce not in ("advise", "block"):
        raise ValueError(f"enforce must be 'advise' or 'block', not {enforce!r}")
    flags = CheckFlags()
    flags.diff, flags.enforce, flags.unattended = diff, enforce, unattended
    flags.telemetry_path = telemetry_path
    sink = _Sink(writes)
    if writes:
        from polydeukes.cli.check import settle_telemetry_path

        sink.telemetry.path = settle_telemetry_path(flags, root, None)
    reader = raw if callable(raw) else (lambda: raw)
    code = check(flags, root, reader, stderr=sink.stderr, telemetry=sink.telemetry,
                 plan_source=plan_source, clock=clock, baseline=writes, memo=memo)
    return sink.verdict(code)


class _Sink:
    """One check's stderr lines and rows, in the order the command emits them."""

    def __init__(self, writes: bool) -> None:
        self.lines: list[str] = []
        self.telemetry = _RowLog(self, writes)
        self.messages: list[str | None] = []
        self._since_last_row: str | None = None

    def stderr(self, line: str) -> None:
        self.lines.append(line)
        self._since_last_row = line

    def row_written(self, event: str) -> None:
        # A body writes its reason line just before its row (vm/machine.py), a fail-closed run
        # its line just before its one blocked row; rows of other events explain nothing.
        self.messages.append(self._since_last_row if event in _EXPLAINED else None)
        self._since_last_row = None

    def verdict(self, code: int) -> Verdict:
        rows = []
        for line, message in zip(self.telemetry.kept, self.messages):
            fields = line.rstrip("\n").split("\t")
            rows.append(Row(fields[1], fields[2], fields[3],
                            fields[4] if len(fields) > 4 else None, message))
        return Verdict(code, tuple(rows), "".join(line + "\n" for line in self.lines))


class _RowLog(TelemetryWriter):
    """Keeps every row; writes them to the settled log only when the Judge writes telemetry
    (the check core settles `path` once the config names its log)."""

    def __init__(self, sink: _Sink, writes: bool) -> None:
        self._sink = sink
        self._writes = writes
        self._path: str | None = None
        super().__init__(None, keep=True, report=sink.stderr)

    @property
    def path(self) -> str | None:
        return self._path

    @path.setter
    def path(self, value: str | None) -> None:
        self._path = value if self._writes else None

    def record(self, event: str, label: str, subject: str, **extra: Any) -> None:
        if self._writes:
            super().record(event, label, subject, **extra)
        else:  # the same line, but no file will hold it: its timestamp is never read
            self.kept.append(format_record("", event, label, subject, **extra))
            self.verdicts.append((event, subject))
        self._sink.row_written(event)


def _stdin_bytes(value: Any) -> bytes:
    """The bytes the command would read on stdin for `value`. A string that is not valid
    Unicode becomes bytes that are not UTF-8, which the core refuses as the command does; a
    value that no JSON text can carry is refused as a stdin that is not JSON is."""
    if isinstance(value, (bytes, bytearray, memoryview)):
        return bytes(value)
    if isinstance(value, str):
        return value.encode("utf-8", errors="surrogatepass")
    import msgspec

    try:
        return msgspec.json.encode(value)
    except Exception:  # noqa: BLE001 - unsupported types, lone surrogates, cycles
        raise FailClosed(NOT_AN_OBJECT) from None
