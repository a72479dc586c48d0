"""A hard deadline on every judgment (spec README decision 13; docs/security.md).

No input, pattern or file may make a check run past its deadline: at the deadline the call is
blocked with `covenant check failed closed: judging took longer than N s` and one
`blocked covenant-check -` row. Two ways, by whether the process ends with the judgment:

* **The console scripts** (`pdks covenant check`, `pdks-<host> hook`) call
  `judge_in_this_process()` and judge in their own process: at the deadline a `SIGALRM`
  handler writes the block and ends the process with exit 2 (CPython runs it between
  bytecodes, inside a regular-expression match and inside an interrupted read); a judgment
  stuck in C code that never checks for signals is ended by `SIGPROF` one processor-second
  later (the installed delegators and git read that death as a block). A fork would cost
  ~10 ms a call (docs/performance.md).
* **A caller that keeps its process** (an adapter or service calling `run_check` or
  `run_with_deadline`) cannot be ended at the deadline, so where `fork` exists the judgment
  runs in a forked child: the child arms its own `SIGALRM` timer with the default action,
  which ends it wherever it is and also ends an orphan whose parent the host has already
  killed; the parent relays what the child writes to stderr and stdout (so a caller's
  redirected `sys.stderr` sees it), learns the telemetry path and the configured deadline as
  they are settled, and reads the child's exit code from the same pipe. A child that ends
  without one, by the timer or by any other death, is a fail-closed block written by the
  parent. Where `fork` is missing (Windows) or fails, on the main thread a `SIGALRM` handler
  raises `DeadlineExceeded` into the judgment; elsewhere a worker thread is abandoned at the
  deadline, which bounds the answer but cannot stop a match holding the GIL.

Rows written before the deadline stay in the log (it is append-only); the deadline's
`blocked covenant-check -` row follows them.

The deadline is `POLYDEUKES_DEADLINE_SECONDS` ?? the config's `deadlineSeconds` ?? 10 s. The
config's value is known only once the config has loaded; until then the environment's value or
the default bounds the load itself.

Standard library only, nothing imported that the check does not already load: this is the hot
path's front.
"""

from __future__ import annotations

import math
import os
import sys
import time
from typing import Callable

DEFAULT_SECONDS = 10.0
BACKSTOP_GRACE_SECONDS = 1.0  # processor time past the deadline before SIGPROF ends the process
MAX_SECONDS = 3600.0
ENV_DEADLINE = "POLYDEUKES_DEADLINE_SECONDS"
TOOK_TOO_LONG = "judging took longer than {seconds} s"
BAD_SECONDS = "{name} must be a number of seconds greater than 0 and at most 3600, not {value!r}"

COMPILING_HINT = (" \u2014 it was {phase}: run `pdks compile` once (it judges nothing and has no "
                  "deadline), and checks read the compiled plan")

# Records from the child to the parent: a kind byte, a 4-byte length, the payload.
_STDERR, _STDOUT, _LOG_PATH, _SECONDS, _EXIT, _FAILURE, _PHASE = (
    b"E", b"O", b"T", b"D", b"X", b"F", b"P")
# The header is packed by hand (no `struct`: its C module costs every check ~0.9 M instructions).
_HEAD_SIZE = 5


def _head(kind: bytes, length: int) -> bytes:
    return kind + length.to_bytes(4, "big")


class DeadlineExceeded(BaseException):
    """Raised into the judgment by the in-process fallback's timer. A BaseException, so the
    judges' own `except Exception` (which turns a failure into "unjudgeable") lets it pass."""


def seconds_text(seconds: float) -> str:
    return format(seconds, "g")


def valid_seconds(value: object) -> bool:
    return (isinstance(value, (int, float)) and not isinstance(value, bool)
            and math.isfinite(value) and 0 < value <= MAX_SECONDS)


def environment_seconds() -> float | None:
    """The environment's deadline; None when unset (or empty). Raises ValueError (with the
    message to print) for a value that is not a valid number of seconds."""
    text = os.environ.get(ENV_DEADLINE)
    if not text:
        return None
    try:
        seconds = float(text)
    except ValueError:
        seconds = math.nan
    if not valid_seconds(seconds):
        raise ValueError(BAD_SECONDS.format(name=ENV_DEADLINE, value=text))
    return seconds


class _Watch:
    """What the run under a deadline has settled so far (both sides of the fork keep one)."""

    def __init__(self, seconds: float, from_environment: bool, log_path: str | None) -> None:
        self.start = time.monotonic()
        self.seconds = seconds
        self.from_environment = from_environment
        self.log_path = log_path
        self.pipe: int | None = None  # the child's end of the pipe to the parent
        self.timer = False  # True while an ITIMER_REAL timer enforces the deadline
        self.phase: str | None = None  # a step worth naming when the deadline meets it
        self.backstop = False  # True when a processor-time timer backs the deadline up

    def remaining(self) -> float:
        return self.start + self.seconds - time.monotonic()

    def send(self, kind: bytes, payload: bytes) -> None:
        if self.pipe is not None:
            _write_all(self.pipe, _head(kind, len(payload)) + payload)


_active: _Watch | None = None  # set inside a judgment that already runs under a deadline


def settle_log_path(path: str | None) -> None:
    """Tell the deadline where this run's rows go, so a deadline row lands beside them."""
    if _active is not None:
        _active.log_path = path
        _active.send(_LOG_PATH, _encode(path or ""))


def settle_phase(phase: str | None) -> None:
    """Name the step the judgment is in (None: none worth naming), for the deadline message."""
    if _active is not None:
        _active.phase = phase
        _active.send(_PHASE, _encode(phase or ""))


def took_too_long(watch: _Watch) -> str:
    """The deadline's message: `judging took longer than N s`, and the step it met, if named."""
    text = TOOK_TOO_LONG.format(seconds=seconds_text(watch.seconds))
    return text + COMPILING_HINT.format(phase=watch.phase) if watch.phase else text


def settle_configured_seconds(seconds: float | None) -> None:
    """Apply the config's `deadlineSeconds` (the environment's value, when set, wins)."""
    if _active is None or seconds is None or _active.from_environment:
        return
    _active.seconds = seconds
    _active.send(_SECONDS, repr(seconds).encode())
    if _active.timer:  # re-armed for the rest of the new deadline (setitimer(0) would disarm)
        _arm_alarm(max(_active.remaining(), 0.001))


_process_ends_with_judgment = False


def judge_in_this_process() -> None:
    """Declare that this process ends with its judgment: the `pdks covenant check` and
    `pdks-<host> hook` console scripts. Their judgment then runs in this process under a timer
    that ends the process at the deadline, instead of in a forked child (which costs ~10 ms a
    call: the child re-faults the interpreter's pages and copies the ones it writes)."""
    global _process_ends_with_judgment
    _process_ends_with_judgment = True


def run_with_deadline(fn: Callable[[], int], *, log_path: str | None = None,
                      fail_closed: Callable[[str, str | None], int]) -> int:
    """Run `fn()` (a judgment returning its exit code) under the hard deadline.

    `log_path` is where a deadline row goes until the judgment settles it
    (`settle_log_path`); `fail_closed(message, log_path)` writes the failed-closed line and
    row and returns 2. Returns `fn()`'s exit code, or 2 at the deadline or if the judgment
    dies. A call made while a judgment already runs under a deadline (an adapter that puts its
    payload translation and `run_check` under one) just calls `fn`.
    """
    if _active is not None:
        return fn()
    try:
        from_environment = environment_seconds()
    except ValueError as exc:
        return fail_closed(str(exc), log_path)
    watch = _Watch(from_environment or DEFAULT_SECONDS, from_environment is not None, log_path)
    if _process_ends_with_judgment:
        try:
            return _ending_in_process(fn, watch, fail_closed)
        except _NoTimer:
            pass  # not the main thread, or no SIGALRM: a child can still be stopped
    if hasattr(os, "fork") and hasattr(os, "waitpid"):
        try:
            return _forked(fn, watch, fail_closed)
        except _ForkFailed:
            pass  # no process to spare: judge in this process
    return _in_process(fn, watch, fail_closed)


# -- the forked child ---------------------------------------------------------------------------


class _ForkFailed(Exception):
    pass


def _forked(fn: Callable[[], int], watch: _Watch, fail_closed) -> int:
    for stream in (sys.stdout, sys.stderr):  # nothing buffered may be written twice
        try:
            if stream is not None:
                stream.flush()
        except (OSError, ValueError):
            pass
    try:
        read_end, write_end = os.pipe()
    except OSError:  # no descriptor to spare
        raise _ForkFailed from None
    try:
        pid = os.fork()
    except OSError:
        os.close(read_end)
        os.close(write_end)
        raise _ForkFailed from None
    if pid == 0:  # the child: never returns
        os.close(read_end)
        watch.pipe = write_end
        _child(fn, watch)
    os.close(write_end)
    return _parent(pid, read_end, watch, fail_closed)


def _child(fn: Callable[[], int], watch: _Watch) -> None:
    global _active
    code = 2
    try:
        import _signal

        _signal.signal(_signal.SIGALRM, _signal.SIG_DFL)  # whatever the caller had installed
        watch.timer = True
        _arm_alarm(max(watch.remaining(), 0.001))
        _active = watch
        sys.stdout = _Relay(watch, _STDOUT)
        sys.stderr = _Relay(watch, _STDERR)
        result = fn()
        code = result if isinstance(result, int) else 2
        watch.send(_EXIT, str(code).encode())
    except SystemExit as exc:  # an adapter's own fn may end with sys.exit(code)
        code = exc.code if isinstance(exc.code, int) else 2
        watch.send(_EXIT, str(code).encode())
    except BaseException as exc:  # noqa: BLE001 - the parent fails closed with this text
        try:
            watch.send(_FAILURE, _encode(f"internal error: {type(exc).__name__}: {exc}"))
        except BaseException:  # noqa: BLE001
            pass
    finally:
        os._exit(code)  # no atexit handlers, no second flush of the caller's buffers


def _arm_alarm(seconds: float) -> None:
    import _signal

    _signal.setitimer(_signal.ITIMER_REAL, seconds)
    if _active is not None and _active.backstop:
        # Processor time never outruns wall time in this one-threaded process, so this fires
        # only when the deadline's handler could not run: stuck in C code that never checks
        # for signals. SIGPROF's default action ends the process (no core file).
        _signal.setitimer(_signal.ITIMER_PROF, seconds + BACKSTOP_GRACE_SECONDS)


class _Relay:
    """The child's sys.stdout / sys.stderr: every write goes to the parent as one record."""

    encoding = "utf-8"
    errors = "surrogatepass"

    def __init__(self, watch: _Watch, kind: bytes) -> None:
        self._watch = watch
        self._kind = kind

    def write(self, text: str) -> int:
        self._watch.send(self._kind, _encode(text))
        return len(text)

    def flush(self) -> None:
        pass

    def isatty(self) -> bool:
        return False

    def writable(self) -> bool:
        return True


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def _encode(text: str) -> bytes:
    return text.encode("utf-8", "surrogatepass")


def _decode(data: bytes) -> str:
    return data.decode("utf-8", "surrogatepass")


# -- the parent ---------------------------------------------------------------------------------


def _parent(pid: int, read_end: int, watch: _Watch, fail_closed) -> int:
    code: int | None = None
    failure: str | None = None
    pending = b""
    try:
        while True:
            chunk = os.read(read_end, 1 << 16)
            if not chunk:
                break  # the child has ended: its end of the pipe closed with it
            pending += chunk
            while len(pending) >= _HEAD_SIZE:
                kind, length = pending[:1], int.from_bytes(pending[1:_HEAD_SIZE], "big")
                end = _HEAD_SIZE + length
                if len(pending) < end:
                    break
                payload, pending = pending[_HEAD_SIZE:end], pending[end:]
                if kind == _STDERR:
                    _write_text(sys.stderr, _decode(payload))
                elif kind == _STDOUT:
                    _write_text(sys.stdout, _decode(payload))
                elif kind == _LOG_PATH:
                    watch.log_path = _decode(payload) or None
                elif kind == _SECONDS:
                    watch.seconds = float(payload)
                elif kind == _EXIT:
                    code = int(payload)
                elif kind == _FAILURE:
                    failure = _decode(payload)
                elif kind == _PHASE:
                    watch.phase = _decode(payload) or None
    except KeyboardInterrupt:
        _kill(pid)
        os.close(read_end)
        return fail_closed("interrupted", watch.log_path)
    os.close(read_end)
    status = _reap(pid)
    if code is not None:
        return code
    if failure is not None:
        return fail_closed(failure, watch.log_path)
    import _signal

    if status is not None and os.WIFSIGNALED(status):
        signal_number = os.WTERMSIG(status)
        if signal_number == _signal.SIGALRM:
            return fail_closed(took_too_long(watch), watch.log_path)
        return fail_closed(f"judging ended abnormally (killed by signal {signal_number})",
                           watch.log_path)
    exit_status = os.WEXITSTATUS(status) if status is not None else "unknown"
    return fail_closed(f"judging ended abnormally (exit status {exit_status})", watch.log_path)


def _write_text(stream, text: str) -> None:
    try:
        stream.write(text)
        stream.flush()
    except (OSError, ValueError, AttributeError):  # closed or broken: the verdict stands
        pass


def _reap(pid: int) -> int | None:
    try:
        return os.waitpid(pid, 0)[1]
    except ChildProcessError:
        return None


def _kill(pid: int) -> None:
    import _signal

    try:
        os.kill(pid, _signal.SIGKILL)
    except ProcessLookupError:
        pass
    _reap(pid)


# -- a process that ends with its judgment ------------------------------------------------------


class _NoTimer(Exception):
    pass


def _ending_in_process(fn: Callable[[], int], watch: _Watch, fail_closed) -> int:
    """Judge in this process, which ends at the deadline with the deadline's block.

    At the deadline the `SIGALRM` handler writes the failed-closed line and row and ends the
    process with exit 2 (cli.end_process), whatever the judgment was doing: CPython runs a
    handler between two bytecodes, inside a regular-expression match (its engine checks for
    signals) and inside a blocking read (interrupted, PEP 475). Nothing can catch it and turn
    it into another answer. A judgment stuck in C code that never checks for signals is ended
    by the `SIGPROF` backstop one processor-second later, a death by signal that the installed
    delegators and git read as a block.
    """
    global _active
    import _signal

    try:
        previous = _signal.signal(_signal.SIGALRM,
                                  lambda signum, frame: _end_at_deadline(watch, fail_closed))
    except (AttributeError, ValueError):  # no SIGALRM, or not the main thread
        raise _NoTimer from None
    previous_backstop = _signal.signal(_signal.SIGPROF, _signal.SIG_DFL)
    _active = watch
    watch.timer = watch.backstop = True
    try:
        _arm_alarm(watch.seconds)
        code = fn()
    except SystemExit as exc:  # an adapter's own fn may end with sys.exit(code)
        code = exc.code if isinstance(exc.code, int) else 2
    except KeyboardInterrupt:
        code = fail_closed("interrupted", watch.log_path)
    except BaseException as exc:  # noqa: BLE001 - blocked, never a traceback
        code = fail_closed(f"internal error: {type(exc).__name__}: {exc}", watch.log_path)
    finally:
        _signal.setitimer(_signal.ITIMER_REAL, 0)
        _signal.setitimer(_signal.ITIMER_PROF, 0)
        _signal.signal(_signal.SIGALRM, previous)
        _signal.signal(_signal.SIGPROF, previous_backstop)
        _active = None
    return code if isinstance(code, int) else 2


def _end_at_deadline(watch: _Watch, fail_closed) -> None:
    from polydeukes.cli import end_process

    try:
        try:
            sys.stderr.flush()  # what the judgment wrote comes first
        except BaseException:  # noqa: BLE001 - the handler may run inside a write to it
            pass
        # Written around sys.stderr, whose buffer the interrupted code may hold: a second
        # write into it from here would raise "reentrant call".
        sys.stderr = _UnbufferedStderr()
        fail_closed(took_too_long(watch), watch.log_path)
    finally:
        end_process(2)


class _UnbufferedStderr:
    encoding = "utf-8"
    errors = "surrogatepass"

    def write(self, text: str) -> int:
        _write_all(2, _encode(text))
        return len(text)

    def flush(self) -> None:
        pass


# -- in-process fallback ------------------------------------------------------------------------


def _in_process(fn: Callable[[], int], watch: _Watch, fail_closed) -> int:
    global _active
    _active = watch
    try:
        try:
            import _signal

            previous = _signal.signal(_signal.SIGALRM, _expire)
        except (ImportError, AttributeError, ValueError):  # no SIGALRM, or not the main thread
            return _in_thread(fn, watch, fail_closed)
        watch.timer = True
        try:
            _arm_alarm(watch.seconds)
            code = fn()
        except DeadlineExceeded:
            return fail_closed(took_too_long(watch), watch.log_path)
        except SystemExit as exc:  # an adapter's own fn may end with sys.exit(code)
            return exc.code if isinstance(exc.code, int) else 2
        except BaseException as exc:  # noqa: BLE001 - blocked, as a forked child's failure is
            return fail_closed(f"internal error: {type(exc).__name__}: {exc}", watch.log_path)
        finally:
            _signal.setitimer(_signal.ITIMER_REAL, 0)
            _signal.signal(_signal.SIGALRM, previous)
        return code if isinstance(code, int) else 2
    finally:
        _active = None


def _expire(signum, frame) -> None:
    raise DeadlineExceeded


def _in_thread(fn: Callable[[], int], watch: _Watch, fail_closed) -> int:
    import threading

    outcome: dict[str, object] = {}

    def work() -> None:
        try:
            outcome["code"] = fn()
        except BaseException as exc:  # noqa: BLE001 - reported by the waiting thread
            outcome["failure"] = f"internal error: {type(exc).__name__}: {exc}"

    worker = threading.Thread(target=work, name="pdks-judgment", daemon=True)
    worker.start()
    while worker.is_alive():
        remaining = watch.remaining()  # re-read: the config may have moved the deadline
        if remaining <= 0:
            return fail_closed(took_too_long(watch), watch.log_path)
        worker.join(remaining)
    if "failure" in outcome:
        return fail_closed(str(outcome["failure"]), watch.log_path)
    code = outcome.get("code")
    return code if isinstance(code, int) else 2
