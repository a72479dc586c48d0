"""The hard deadline as an API (cli/deadline.py, `polydeukes.cli.check.run_with_deadline`).

What an adapter that judges in its own process relies on: the exit code and stderr of `fn`
come back through the fork, a `run_check` inside `fn` is bounded by the same deadline (and its
telemetry path and configured deadline reach the parent), a child that dies any way is a
block, and the in-process fallbacks (no fork; not the main thread) bound the call too. The
whole-process attacks are in tests/test_hostile.py.
"""

from __future__ import annotations

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
