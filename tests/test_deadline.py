"""The hard deadline as an API (cli/deadline.py, `polydeukes.cli.check.run_with_deadline`).

What an adapter that judges in its own process relies on: the exit code and stderr of `fn`
come back through the fork, a `run_check` inside `fn` is bounded by the same deadline (and its
telemetry path and configured deadline reach the parent), a child that dies any way is a
block, and the in-process fallbacks (no fork; not the main thread) bound the call too. The
whole-process attacks are in tests/test_hostile.py.
"""

from __future__ import annotations

import contextlib
import os
import re
import threading
import time
from pathlib import Path

import pytest
from conftest import rows_of

from polydeukes.cli import deadline
from polydeukes.cli.check import run_check, run_with_deadline
from polydeukes.cli.planning import compile_to_disk

EDIT = (b'{"toolCalls": [{"name": "Edit", "args": {"file_path": ".claude/hooks/a.sh"}}], '
        b'"subagentSpawns": [], "userMessages": [], '
        b'"tools": {"mutating": ["Edit"], "shell": [], "commandArgs": []}}')
TOO_LONG = "covenant check failed closed: judging took longer than {} s\n"


@pytest.fixture
def project(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("POLYDEUKES_TELEMETRY_PATH", raising=False)
    monkeypatch.delenv("POLYDEUKES_DEADLINE_SECONDS", raising=False)
    (tmp_path / "polydeukes.config.yaml").write_text("protectedPaths: ['.claude/hooks']\n")
    return tmp_path


def _sleep_past(seconds: float) -> int:
    time.sleep(seconds)
    return 0


def test_the_exit_code_and_the_stderr_of_fn_come_back(project, capsys):
    def fn() -> int:
        import sys

        sys.stderr.write("from the child\n")
        print("to stdout")
        return 7

    assert run_with_deadline(fn) == 7
    captured = capsys.readouterr()
    assert (captured.err, captured.out) == ("from the child\n", "to stdout\n")
    assert not (project / ".polydeukes" / "roi.log").exists()


def test_fn_runs_in_a_child_and_a_nested_deadline_runs_inline(project):
    pids = []

    def fn() -> int:
        pids.append(os.getpid())
        return run_with_deadline(lambda: os.getpid() == pids[0] and 3 or 4)

    assert run_with_deadline(fn) == 3  # the inner call did not fork again
    assert pids == []  # what fn changed stayed in the child


def test_a_judgment_inside_an_adapter_fn_is_bounded_with_it(project, capsys, monkeypatch):
    """The adapter shape: its own translation, then run_check, under one deadline. The row
    lands where run_check settled the path (the config's logPath), not the provisional one."""
    monkeypatch.setenv("POLYDEUKES_DEADLINE_SECONDS", "2")  # room for the compile on a busy host
    (project / "polydeukes.config.yaml").write_text(
        "protectedPaths: ['.claude/hooks']\ntelemetry: {logPath: logs/rows.log}\n")

    def adapter() -> int:
        code = run_check(["--enforce", "block"], stdin=EDIT)
        time.sleep(60)  # a translation of the answer that never ends
        return code

    assert run_with_deadline(adapter) == 2  # long before the minute the adapter sleeps
    assert capsys.readouterr().err == (
        "Edit would modify protected path .claude/hooks\n" + TOO_LONG.format("2"))
    assert rows_of(project / "logs" / "rows.log") == [
        ["blocked", "self-mod", ".claude/hooks"], ["blocked", "covenant-check", "-"]]
    assert not (project / ".polydeukes" / "roi.log").exists()


@pytest.mark.parametrize("configured, expected", [(0.3, 2), (30, 0)])
def test_the_configured_deadline_replaces_the_default_once_loaded(
        configured, expected, project, monkeypatch, capsys):
    monkeypatch.setattr(deadline, "DEFAULT_SECONDS", 1.5)
    (project / "polydeukes.config.yaml").write_text(f"deadlineSeconds: {configured}\n")
    compile_to_disk(str(project))  # a fresh plan: the config's value arrives at once

    def adapter() -> int:
        code = run_check([], stdin=b'{"toolCalls": [], "subagentSpawns": [], "userMessages": []}')
        time.sleep(2)  # past the default, and past the configured 0.3 s
        return code

    assert run_with_deadline(adapter) == expected
    if expected == 2:
        assert capsys.readouterr().err == TOO_LONG.format("0.3")


def test_a_child_killed_by_a_signal_is_a_block(project, capsys):
    assert run_with_deadline(lambda: os.kill(os.getpid(), 9) or 0) == 2
    assert capsys.readouterr().err == (
        "covenant check failed closed: judging ended abnormally (killed by signal 9)\n")
    assert rows_of(project / ".polydeukes" / "roi.log") == [["blocked", "covenant-check", "-"]]


def test_a_child_that_raises_is_a_block_with_the_error(project, capsys):
    def fn() -> int:
        raise ValueError("boom")

    assert run_with_deadline(fn) == 2
    assert capsys.readouterr().err == (
        "covenant check failed closed: internal error: ValueError: boom\n")


def test_a_child_that_exits_keeps_its_code(project):
    def fn() -> int:
        raise SystemExit(5)

    assert run_with_deadline(fn) == 5


def test_run_check_in_process_is_the_same_check(project, capsys):
    assert run_check(["--enforce", "block"], stdin=EDIT) == 2
    assert capsys.readouterr().err == "Edit would modify protected path .claude/hooks\n"
    assert rows_of(project / ".polydeukes" / "roi.log") == [["blocked", "self-mod", ".claude/hooks"]]


# -- where fork is missing ----------------------------------------------------------------------


@pytest.fixture
def no_fork(monkeypatch):
    monkeypatch.delattr(os, "fork")


def test_without_fork_a_regex_match_is_interrupted_by_the_timer(project, no_fork, monkeypatch,
                                                                 capsys):
    """CPython's regex engine checks for signals: the in-process timer stops even a match."""
    monkeypatch.setenv("POLYDEUKES_DEADLINE_SECONDS", "0.3")
    assert run_with_deadline(lambda: bool(re.match(r"(a*)*b", "a" * 40))) == 2  # 2**40 steps
    assert capsys.readouterr().err == TOO_LONG.format("0.3")


def test_without_fork_a_judgment_keeps_its_answer_and_disarms_the_timer(project, no_fork, capsys):
    assert run_check(["--enforce", "block"], stdin=EDIT) == 2
    assert capsys.readouterr().err == "Edit would modify protected path .claude/hooks\n"
    import _signal

    assert _signal.getitimer(_signal.ITIMER_REAL) == (0.0, 0.0)


def test_a_fork_that_fails_falls_back_in_process(project, monkeypatch, capsys):
    def refuse():
        raise OSError(11, "Resource temporarily unavailable")

    monkeypatch.setattr(os, "fork", refuse)
    monkeypatch.setenv("POLYDEUKES_DEADLINE_SECONDS", "0.3")
    assert run_with_deadline(lambda: _sleep_past(60)) == 2
    assert capsys.readouterr().err == TOO_LONG.format("0.3")


def test_off_the_main_thread_without_fork_the_answer_is_still_bounded(project, no_fork,
                                                                      monkeypatch):
    monkeypatch.setenv("POLYDEUKES_DEADLINE_SECONDS", "0.3")
    answers = []
    caller = threading.Thread(target=lambda: answers.append(
        run_with_deadline(lambda: _sleep_past(60))))
    caller.start()
    caller.join(30)  # the worker sleeps a minute: an answer now is the deadline's
    assert answers == [2]
    assert rows_of(Path(project) / ".polydeukes" / "roi.log") == [
        ["blocked", "covenant-check", "-"]]


def test_the_judging_child_is_reaped_before_the_answer(project):
    # Answering first and leaving the child to end on its own would save its teardown (~2 ms)
    # but make it an orphan, whose zombie only PID 1 can reap: under a PID 1 that does not
    # (a devcontainer's `sleep infinity`), every tool call would leave one behind.
    def fn() -> int:
        (project / "child.pid").write_text(str(os.getpid()))
        return 0

    assert run_with_deadline(fn) == 0
    child = int((project / "child.pid").read_text())
    assert child != os.getpid()
    with pytest.raises(ChildProcessError):
        os.waitpid(child, os.WNOHANG)  # already reaped: no zombie left behind


# -- a console script: the process ends with its judgment ----------------------------------------
# `pdks covenant check` and `pdks-<host> hook` judge in their own process (no fork, ~10 ms a call
# less); the deadline's SIGALRM handler ends the process with the block. Whole-process attacks
# (a quadratic rule, a stdin that never ends, 10 MB of shell) are in tests/test_hostile.py.

@contextlib.contextmanager
def _console(script: str, project, seconds: str, **kwargs):
    """`python -c script` in `project` under a deadline of `seconds`; killed if left running."""
    import subprocess
    import sys

    env = {**os.environ, "POLYDEUKES_DEADLINE_SECONDS": seconds}
    env.pop("PYTHONUNBUFFERED", None)  # buffered streams, as a host starts us
    with subprocess.Popen([sys.executable, "-c", script], cwd=project, env=env, **kwargs) as proc:
        try:
            yield proc
        finally:
            proc.kill()


NO_FORK_PROBE = r"""
import os, sys
real_fork = os.fork
def recorded_fork():
    os.write(2, b"forked\n")
    return real_fork()
os.fork = recorded_fork
sys.argv = ["pdks", "covenant", "check", "--enforce", "block"]
from polydeukes.cli import main
main()
"""


def test_the_console_script_judges_without_forking(project):
    import subprocess

    with _console(NO_FORK_PROBE, project, "10", stdin=subprocess.PIPE,
                  stderr=subprocess.PIPE) as proc:
        _, stderr = proc.communicate(EDIT, timeout=60)
    assert (proc.returncode, stderr) == (2, b"Edit would modify protected path .claude/hooks\n")


# The judgment blocks in a write to stderr (a host that has not read the pipe yet) when the
# deadline comes: the handler runs inside that write, where sys.stderr's buffer is held.
WRITING_WHEN_THE_DEADLINE_COMES = r"""
import sys
from polydeukes.cli import check, deadline, end_process
deadline.judge_in_this_process()
def fn():
    sys.stderr.write("x" * 1_000_000)  # 64 KiB fill the pipe; the rest waits for the reader
    sys.stderr.flush()
    return 0
end_process(check.run_with_deadline(fn))
"""


def test_at_the_deadline_inside_a_write_to_stderr_the_block_is_still_written(project):
    import subprocess

    with _console(WRITING_WHEN_THE_DEADLINE_COMES, project, "0.3",
                  stderr=subprocess.PIPE) as proc:
        time.sleep(1.0)  # past the deadline, then read
        _, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 2
    assert stderr.endswith(b"x" + TOO_LONG.format("0.3").encode()), stderr[-200:]
    assert rows_of(project / ".polydeukes" / "roi.log") == [["blocked", "covenant-check", "-"]]


STUCK_IN_C = r"""
from polydeukes.cli import check, deadline, end_process
deadline.judge_in_this_process()
end_process(check.run_with_deadline(lambda: sum(range(10**15))))  # C code, no signal checks
"""


def test_judgment_stuck_in_c_code_is_ended_by_the_processor_time_backstop(project):
    import signal

    with _console(STUCK_IN_C, project, "0.2") as proc:
        assert proc.wait(timeout=60) == -signal.SIGPROF  # about 0.2 + 1 s of processor time
