"""`pdks covenant check`'s own edges (cli/check.py), judged in-process through `run_check`.

What the judge tables cannot reach: the input size bound on both ways in (stdin, and the bytes
an adapter hands over), every kind of failure inside judging ending in exit 2 with its own
line and a `blocked` row, a working directory that cannot be read, and where the rows of a
run go when no flag or variable says so.
"""

from __future__ import annotations

import io
import json
import os
import sys

import pytest

from conftest import rows_of
from polydeukes.cli import check
from polydeukes.cli.check import run_check, run_with_deadline

EDIT = {"toolCalls": [{"name": "Edit", "fileChange": {"kind": "modify", "path": "src/a.ts",
                                                      "pre": "a", "post": "b"}}],
        "subagentSpawns": [], "userMessages": []}
EDIT_BYTES = json.dumps(EDIT).encode("utf-8")
BLOCKED_ROW = ["blocked", "covenant-check", "-"]


@pytest.fixture
def here(tmp_path, monkeypatch):
    """A loading config in the working directory, no telemetry variable."""
    (tmp_path / "polydeukes.config.yaml").write_text("languages: {}\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("POLYDEUKES_TELEMETRY_PATH", raising=False)
    return tmp_path


def _stdin(monkeypatch, data: bytes) -> None:
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"))


@pytest.mark.parametrize("way", ["stdin", "argument"])
def test_input_up_to_the_limit_is_judged_and_one_byte_more_blocks(here, monkeypatch, capsys,
                                                                   way):
    padded = EDIT_BYTES + b" " * 100
    monkeypatch.setattr(check, "INPUT_LIMIT", len(padded))

    def judge(data: bytes) -> int:
        if way == "stdin":
            _stdin(monkeypatch, data)
            return run_check([])
        return run_check([], stdin=data)

    assert judge(padded) == 0 and capsys.readouterr().err == ""
    assert judge(padded + b" ") == 2
    assert capsys.readouterr().err == (
        f"covenant check failed closed: the input is larger than {len(padded)} bytes\n")
    assert rows_of(here / ".polydeukes" / "roi.log")[-1] == BLOCKED_ROW


def test_stdin_is_read_to_its_end_across_many_reads(here, monkeypatch, capsys):
    # Far more than one read's worth (64 KiB): a truncated read would not be a JSON object.
    _stdin(monkeypatch, EDIT_BYTES[:-1] + b" " * 300_000 + b"}")
    assert run_check(["--enforce", "block"]) == 0
    assert capsys.readouterr().err == ""


def test_without_a_stdin_the_input_is_empty_and_refused(here, monkeypatch, capsys):
    monkeypatch.setattr("sys.stdin", None)
    assert run_check([]) == 2
    assert capsys.readouterr().err == "covenant check failed closed: input is not a JSON object\n"


@pytest.mark.parametrize("raised, line", [
    (RuntimeError("boom"), "internal error: RuntimeError: boom"),
    (KeyboardInterrupt(), "interrupted"),
    (MemoryError(), "out of memory while judging"),
])
def test_every_failure_inside_judging_blocks_with_its_own_line(here, monkeypatch, capsys,
                                                               raised, line):
    def fail(*args, **kwargs):
        raise raised

    monkeypatch.setattr("polydeukes.vm.machine.dispatch", fail)
    assert run_check(["--enforce", "block"], stdin=EDIT_BYTES) == 2
    assert capsys.readouterr().err == f"covenant check failed closed: {line}\n"
    assert rows_of(here / ".polydeukes" / "roi.log") == [BLOCKED_ROW]


def test_a_working_directory_that_cannot_be_read_blocks(here, monkeypatch, capsys, tmp_path):
    def gone():
        raise FileNotFoundError(2, "No such file or directory")

    log = tmp_path / "env.log"
    monkeypatch.setenv("POLYDEUKES_TELEMETRY_PATH", str(log))
    monkeypatch.setattr(check.os, "getcwd", gone)
    assert run_check([], stdin=EDIT_BYTES) == 2
    assert capsys.readouterr().err == (
        "covenant check failed closed: the working directory cannot be read: "
        "No such file or directory\n")
    assert rows_of(log) == [BLOCKED_ROW]


def test_an_empty_telemetry_variable_is_unset(here, monkeypatch):
    monkeypatch.setenv("POLYDEUKES_TELEMETRY_PATH", "")
    assert run_check([], stdin=b"[]") == 2
    assert rows_of(here / ".polydeukes" / "roi.log") == [BLOCKED_ROW]


def test_the_settled_path_is_flag_then_variable_then_config_then_default(monkeypatch):
    flags = check.CheckFlags()
    monkeypatch.delenv("POLYDEUKES_TELEMETRY_PATH", raising=False)
    assert check.settle_telemetry_path(flags, "/r", None) == "/r/.polydeukes/roi.log"
    assert check.settle_telemetry_path(flags, "/r", "logs/x.log") == "/r/logs/x.log"
    assert check.settle_telemetry_path(flags, None, "logs/x.log") is None
    monkeypatch.setenv("POLYDEUKES_TELEMETRY_PATH", "/env.log")
    assert check.settle_telemetry_path(flags, "/r", "logs/x.log") == "/env.log"
    flags.telemetry_path = "flag.log"
    assert check.settle_telemetry_path(flags, None, "logs/x.log") == "flag.log"


@pytest.fixture(params=["fork", "no fork"])
def fork_or_not(request, monkeypatch):
    """Both ways a judgment runs: in a forked child, and in this process (no fork: Windows)."""
    if request.param == "no fork":
        monkeypatch.delattr(os, "fork")


def test_a_function_that_fails_under_run_with_deadline_blocks_with_a_row_where_asked(
        here, capsys, tmp_path, fork_or_not):
    def fail() -> int:
        raise ValueError("bad payload")

    log = tmp_path / "adapter.log"
    assert run_with_deadline(fail, log_path=str(log)) == 2
    assert capsys.readouterr().err == (
        "covenant check failed closed: internal error: ValueError: bad payload\n")
    assert rows_of(log) == [BLOCKED_ROW]
    # Without a log path the row goes to the default log under the working directory.
    assert run_with_deadline(fail) == 2
    assert rows_of(here / ".polydeukes" / "roi.log") == [BLOCKED_ROW]
    assert os.getcwd() == str(here)


def test_a_function_that_exits_under_run_with_deadline_keeps_its_exit_code(here, fork_or_not):
    def leave(code):
        def fn() -> int:
            sys.exit(code)
        return fn

    assert run_with_deadline(leave(3)) == 3
    assert run_with_deadline(leave("not a number")) == 2
    assert run_with_deadline(lambda: "not a number") == 2
    assert rows_of(here / ".polydeukes" / "roi.log") == []


# -- the config repair (spec 05 §3.8) -------------------------------------------------------------
BROKEN = b"languages: {}\nprotectedPath: []\n"
FIXED = "languages: {}\nprotectedPaths: []\ntelemetry: {logPath: logs/fixed.log}\n"
BROKEN_LINE = ("polydeukes.config.yaml does not load (invalid config in polydeukes.config.yaml: "
               "unknown key 'protectedPath' in config (at polydeukes.config.yaml:2:1))")
ADVISED = (f"covenant check: {BROKEN_LINE} \u2014 this call rewrites it into one that does; "
           "advised, not judged\n")
STILL_BLOCKED = ("covenant check failed closed: invalid config in polydeukes.config.yaml: "
                 "unknown key 'protectedPath' in config (at polydeukes.config.yaml:2:1) \u2014 fix "
                 "polydeukes.config.yaml in one Edit or Write whose result loads; every other call "
                 "stays blocked until it does")
LAYER = "disciplines:\n  - {id: d, why: prose, draft: true}\n"


def _repairing(path: str, pre: str, post: str) -> bytes:
    call = {"name": "Edit", "args": {"file_path": path},
            "fileChange": {"kind": "modify", "path": path, "pre": pre, "post": post}}
    return json.dumps({"toolCalls": [call], "subagentSpawns": [], "userMessages": []}).encode()


@pytest.mark.parametrize("case", [
    # The config named by absolute path is the same file.
    dict(path="{root}/polydeukes.config.yaml", post=FIXED, want=(0, ADVISED)),
    dict(path="./polydeukes.config.yaml", post=FIXED, want=(0, ADVISED)),
    dict(path="{root}/other/polydeukes.config.yaml", post=FIXED, want=(2, STILL_BLOCKED + "\n")),
    # A repair that loads with the layer too is advised.
    dict(path="polydeukes.config.yaml", post=FIXED, layer="disciplines: []\n",
         want=(0, ADVISED)),
    # A result that does not load even alone says nothing of the layer.
    dict(path="polydeukes.config.yaml", post="languages: 1\n", layer=LAYER,
         want=(2, STILL_BLOCKED + "\n")),
    # A result that loads alone but not with the layer says so.
    dict(path="polydeukes.config.yaml", post=FIXED + LAYER, layer=LAYER,
         want=(2, STILL_BLOCKED + " (this call's result does not load with layer "
               "{root}/layer.yaml: invalid config in polydeukes.config.yaml with layer "
               "{root}/layer.yaml: disciplines[1] ('d') duplicates the id of an earlier entry "
               "(at {root}/layer.yaml:2:10))\n")),
], ids=lambda case: f"{case['path']} {case['want'][0]} layer={'layer' in case}")
def test_one_edit_that_repairs_the_config(here, capsys, case):
    root = str(here)
    (here / "polydeukes.config.yaml").write_bytes(BROKEN)
    flags = []
    if "layer" in case:
        (here / "layer.yaml").write_text(case["layer"], encoding="utf-8")
        flags = ["--config-layer", "layer.yaml"]
    stdin = _repairing(case["path"].format(root=root), BROKEN.decode(), case["post"])
    code = run_check(["--enforce", "block", *flags], stdin=stdin)
    want_code, want_stderr = case["want"]
    assert (code, capsys.readouterr().err) == (want_code, want_stderr.format(root=root))
    if want_code == 0:
        assert rows_of(here / "logs" / "fixed.log") == [
            ["advised", "covenant-check", "polydeukes.config.yaml"]]
        assert not (here / ".polydeukes" / "roi.log").exists()
    else:
        assert rows_of(here / ".polydeukes" / "roi.log") == [BLOCKED_ROW]


def test_a_config_that_is_not_utf8_is_repaired_from_the_text_the_host_shows(here, capsys):
    # Hosts show a file's undecodable bytes as U+FFFD; the repair's `pre` is compared with that.
    broken = b"# caf\xe9\n" + BROKEN
    (here / "polydeukes.config.yaml").write_bytes(broken)
    shown = broken.decode("utf-8", errors="replace")
    assert "\ufffd" in shown
    code = run_check([], stdin=_repairing("polydeukes.config.yaml", shown, FIXED))
    assert code == 0
    assert capsys.readouterr().err.endswith("advised, not judged\n")


def test_a_layer_beside_a_config_that_fails_only_with_it_is_not_repairable(here, capsys):
    # The config loads alone; only the pair fails, so no single edit of the config is the fix.
    (here / "polydeukes.config.yaml").write_text("languages: {}\n" + LAYER, encoding="utf-8")
    (here / "layer.yaml").write_text(LAYER, encoding="utf-8")
    stdin = _repairing("polydeukes.config.yaml", "languages: {}\n" + LAYER, FIXED)
    assert run_check(["--config-layer", "layer.yaml"], stdin=stdin) == 2
    assert capsys.readouterr().err == (
        f"covenant check failed closed: invalid config in polydeukes.config.yaml with layer "
        f"{here}/layer.yaml: disciplines[1] ('d') duplicates the id of an earlier entry "
        f"(at {here}/layer.yaml:2:10)\n")


def test_without_a_working_directory_an_adapter_row_goes_to_the_variable(monkeypatch, capsys,
                                                                         tmp_path):
    def gone():
        raise FileNotFoundError(2, "No such file or directory")

    def fail() -> int:
        raise ValueError("bad payload")

    log = tmp_path / "env.log"
    monkeypatch.setenv("POLYDEUKES_TELEMETRY_PATH", str(log))
    monkeypatch.setattr(check.os, "getcwd", gone)
    assert run_with_deadline(fail) == 2
    assert rows_of(log) == [BLOCKED_ROW]


# -- flags, stdin, the environment ----------------------------------------------------------------
USAGE = "usage: pdks covenant check [--diff] [--enforce advise|block] [--unattended]"


@pytest.mark.parametrize("flags, accepted", [
    (["--enforce", "advise"], True),
    (["--enforce", "block"], True),
    (["--enforce", "ADVISE"], False),
    (["--telemetry-path", "", "--diff"], False),  # an empty value is a missing one
    (["--telemetry-path", "--diff"], False),
    (["--config-layer", ""], False),
    (["--unattended", "--unattended"], False),
])
def test_the_check_flags(here, capsys, flags, accepted):
    code = run_check(flags, stdin=EDIT_BYTES)
    err = capsys.readouterr().err
    if accepted:
        assert (code, err) == (0, "")
    else:
        assert code == 2 and err.startswith(USAGE) and err.count("\n") == 1
        assert not (here / ".polydeukes" / "roi.log").exists()  # a usage error has no row


class _EndlessStdin:
    """A stdin that never ends: only bounded reads may be asked of it."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.buffer = self

    def read(self, size=-1):
        assert size is not None and size > 0, "an unbounded read of stdin"
        return (self.data * (size // len(self.data) + 1))[:size]


def test_a_stdin_that_never_ends_is_refused_at_the_limit(here, monkeypatch, capsys):
    monkeypatch.setattr(check, "INPUT_LIMIT", 200_000)  # three reads and a bit
    monkeypatch.setattr("sys.stdin", _EndlessStdin(b" "))
    assert run_check([]) == 2
    assert capsys.readouterr().err == (
        "covenant check failed closed: the input is larger than 200000 bytes\n")


def test_an_unreadable_deadline_variable_blocks_with_a_row_in_the_default_log(here, monkeypatch,
                                                                              capsys):
    monkeypatch.setenv("POLYDEUKES_DEADLINE_SECONDS", "soon")
    assert run_check([], stdin=EDIT_BYTES) == 2
    err = capsys.readouterr().err
    assert err.startswith("covenant check failed closed: POLYDEUKES_DEADLINE_SECONDS")
    assert "soon" in err and err.count("\n") == 1
    assert rows_of(here / ".polydeukes" / "roi.log") == [BLOCKED_ROW]


@pytest.mark.parametrize("command, reason, shell_mod_row", [
    # A write through `~` into the project is a known write target: shell-mod blocks it with
    # no unjudgeable row (the computable-write layer resolved it too).
    ("echo x > ~/proj/.claude/hooks/a", "redirect-write targets protected path .claude/hooks",
     ["blocked", "shell-mod", ".claude/hooks"]),
    # The home directory holds the project: removing it removes the protected path.
    ("rm -rf ~", "rm removes or moves a directory that contains protected path .claude/hooks",
     ["blocked", "shell-mod", ".claude/hooks"]),
])
def test_a_shell_command_through_home_is_judged_with_the_user_s_home(
        tmp_path, monkeypatch, capsys, command, reason, shell_mod_row):
    project = tmp_path / "u" / "proj"
    project.mkdir(parents=True)
    (project / "polydeukes.config.yaml").write_text("protectedPaths: ['.claude/hooks']\n")
    monkeypatch.chdir(project)
    monkeypatch.delenv("POLYDEUKES_TELEMETRY_PATH", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path / "u"))
    call = {"name": "Bash", "args": {"command": command}}
    stdin = json.dumps({"toolCalls": [call], "subagentSpawns": [], "userMessages": [],
                        "tools": {"mutating": ["Edit"], "shell": ["Bash"],
                                  "commandArgs": ["command"]}}).encode()
    assert run_check(["--enforce", "block"], stdin=stdin) == 2
    assert capsys.readouterr().err == reason + "\n"
    rows = rows_of(project / ".polydeukes" / "roi.log")
    assert shell_mod_row in rows
    assert [row for row in rows if row[0] == "skipped"] == []


# -- the baseline comparison around a session call (spec 06 §8) ----------------------------------
def _session_call(*calls: dict) -> bytes:
    return json.dumps({"toolCalls": list(calls), "subagentSpawns": [], "userMessages": [],
                       "tools": {"mutating": ["Edit", "Write"], "shell": [],
                                 "commandArgs": []},
                       "session": {"userMessages": [], "toolCalls": []}}).encode()


def test_a_session_call_compares_then_re_establishes_the_baseline(here, capsys):
    (here / "polydeukes.config.yaml").write_text("protectedPaths: ['.claude/hooks']\n")
    hook = here / ".claude" / "hooks" / "pre.sh"
    hook.parent.mkdir(parents=True)
    hook.write_text("echo 1\n")
    log = here / ".polydeukes" / "roi.log"
    baseline_file = str(here / ".polydeukes" / "baseline.json")

    assert run_check([], stdin=_session_call()) == 0  # no baseline yet: one row names it
    assert rows_of(log) == [["unattributed", "baseline", baseline_file]]
    assert run_check([], stdin=_session_call()) == 0  # nothing changed since
    assert len(rows_of(log)) == 1

    hook.write_text("echo 2\n")  # changed behind the guard's back
    assert run_check([], stdin=_session_call()) == 0
    assert rows_of(log)[1:] == [["unattributed", "baseline", ".claude/hooks"]]
    assert run_check([], stdin=_session_call()) == 0  # reported once, then the new baseline
    assert len(rows_of(log)) == 2

    # A change this run's own verdict let through (advised) is not reported by the next call.
    edit = {"name": "Edit", "args": {"file_path": ".claude/hooks/pre.sh"},
            "fileChange": {"kind": "modify", "path": ".claude/hooks/pre.sh",
                           "pre": "echo 2\n", "post": "echo 3\n"}}
    assert run_check([], stdin=_session_call(edit)) == 0
    assert rows_of(log)[2:] == [["advised", "self-mod", ".claude/hooks"]]
    hook.write_text("echo 3\n")  # the host applies the edit it was advised about
    assert run_check([], stdin=_session_call()) == 0
    assert len(rows_of(log)) == 3
    capsys.readouterr()


# A one-judgment process ends with `end_process`: its streams flushed, the verdict's exit code
# kept even when the host has stopped reading, and no interpreter finalization (~10 ms of a
# live-config check spent tearing down what nothing needs any more).
ENDING = r"""
import atexit, sys
from polydeukes.cli import end_process
atexit.register(lambda: sys.stderr.write("finalized\n"))
sys.stdout.write("verdict on stdout")  # buffered: no newline, no flush
sys.stderr.write("reason on stderr\n")
end_process(2)
"""


def _buffered_env() -> dict:
    """The environment without PYTHONUNBUFFERED, so stdout is block-buffered as a host has it."""
    return {name: value for name, value in os.environ.items() if name != "PYTHONUNBUFFERED"}


def test_a_check_process_ends_flushed_with_its_code_and_without_finalizing():
    import subprocess

    done = subprocess.run([sys.executable, "-c", ENDING], capture_output=True, timeout=60,
                          env=_buffered_env())
    assert (done.returncode, done.stdout, done.stderr) == (
        2, b"verdict on stdout", b"reason on stderr\n")


def test_a_check_process_keeps_its_code_when_the_host_stopped_reading():
    import subprocess

    read_end, write_end = os.pipe()
    os.close(read_end)  # writing to stdout now fails with EPIPE (Python's own exit: 120)
    done = subprocess.run([sys.executable, "-c", ENDING], stdout=write_end,
                          stderr=subprocess.PIPE, timeout=60, env=_buffered_env())
    os.close(write_end)
    assert (done.returncode, done.stderr) == (2, b"reason on stderr\n")
