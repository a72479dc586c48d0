"""The guard under attack from inside the project (issue 15; docs/security.md).

Every attack of the issue, reproduced through the real `pdks` process the way a hook spawns it:
the agent runs as the same user and may leave anything in the working tree, so each test first
plants the hostile state (as an unjudged channel could), then shows the check still answers,
in time, with a block where one is due. The attacks that go through a judged tool (writing
`.polydeukes/plan.bin`, `mkfifo .polydeukes/roi.log`, ...) are table cases in
tests/cases/judge/guard-state.yaml.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import EMPTY_INPUT, rows_of

from polydeukes.compiler import compile_config
from polydeukes.vm import planfile

ROSTER = {"mutating": ["Edit", "Write"], "shell": ["Bash"], "commandArgs": ["command"]}
CONFIG = "protectedPaths: ['.claude/hooks']\n"
NAME = "polydeukes.config.yaml"
BLOCK = ["--enforce", "block"]
# A call every test below expects to be blocked: an Edit of a protected hook.
HOOK_EDIT = {
    "toolCalls": [{"name": "Edit", "args": {"file_path": ".claude/hooks/pre.sh"},
                   "fileChange": {"kind": "modify", "path": ".claude/hooks/pre.sh",
                                  "pre": "exit 2\n", "post": "exit 0\n"}}],
    "subagentSpawns": [], "userMessages": [], "tools": ROSTER,
}
HOOK_EDIT_ROWS = [["blocked", "self-mod", ".claude/hooks"], ["passed", "shell-mod", ".claude/hooks"]]
HOOK_EDIT_LINE = "Edit would modify protected path .claude/hooks/pre.sh"


def _blocked_hook_edit(result) -> None:
    assert (result.code, result.stderr.splitlines()) == (2, [HOOK_EDIT_LINE])
    assert result.rows == HOOK_EDIT_ROWS


def _permissive_plan(root: Path, real_config: bytes) -> bytes:
    """A plan that protects nothing but the config, keyed for `real_config`: what an agent
    that can compute the key (it hashes the config) would write as plan.bin."""
    plan = compile_config(str(root), NAME, b"protectedPaths: []\n").plan
    return planfile.encode_plan(plan, planfile.plan_key(NAME, real_config))


# -- 1. the plan cache ---------------------------------------------------------------------------


def test_a_forged_plan_is_what_an_unjudged_write_would_need(project):
    """The forgery works when planted from outside the judged tools (out of scope: see
    docs/security.md); through a judged tool it is blocked (tests/cases/judge/guard-state.yaml).
    This pins the premise, so the table cases test a real attack."""
    project.config(CONFIG)
    forged = _permissive_plan(project.root, CONFIG.encode())
    assert planfile.decode_plan(forged, planfile.plan_key(NAME, CONFIG.encode())) is not None


@pytest.mark.parametrize("plant", ["/dev/zero", "/dev/urandom", "fifo", "directory", "huge"])
def test_a_plan_that_is_not_a_regular_file_is_rebuilt_in_memory(plant, project):
    project.config(CONFIG)
    state = project.root / ".polydeukes"
    state.mkdir()
    plan = state / "plan.bin"
    if plant == "fifo":
        os.mkfifo(plan)
    elif plant == "directory":
        plan.mkdir()
    elif plant == "huge":  # sparse: past the size bound without filling the disk
        with plan.open("wb") as handle:
            handle.truncate(planfile.PLAN_LIMIT + 1)
    else:
        plan.symlink_to(plant)
    result = project.check(HOOK_EDIT, *BLOCK)  # within the harness's timeout: no hang
    _blocked_hook_edit(result)
    if plant != "directory":  # replaced by the rebuilt plan (a directory cannot be replaced)
        assert plan.is_file() and not plan.is_symlink()


def test_a_flipped_bit_in_a_small_plan_is_caught_by_the_crc(project):
    """`.claude/hooks` -> `.chaude/hooks`: one bit, a plan that still decodes, and without the
    CRC the protected path would move away from the file the agent edits."""
    project.config(CONFIG)
    assert project.run("compile").code == 0
    path = project.root / ".polydeukes" / "plan.bin"
    data = bytearray(path.read_bytes())
    at = data.rindex(b".claude/hooks") + 2
    data[at] ^= 0x04  # 'l' (0x6c) -> 'h' (0x68)
    assert bytes(data[at - 2:at + 11]) == b".chaude/hooks"
    key = planfile.plan_key(NAME, CONFIG.encode())
    assert len(data) < planfile.LAZY_FROM  # the small-plan path, which once skipped the CRC
    path.write_bytes(bytes(data))
    assert planfile.read_plan(str(project.root), key) is None
    _blocked_hook_edit(project.check(HOOK_EDIT, *BLOCK))


# -- 2. hanging the guard ------------------------------------------------------------------------


def test_a_fifo_as_the_log_neither_hangs_nor_changes_the_verdict(project):
    project.config(CONFIG)
    (project.root / ".polydeukes").mkdir()
    log = project.root / ".polydeukes" / "roi.log"
    os.mkfifo(log)
    # (The harness reads rows after each run: point it at a file, never at the FIFO.)
    result = project.check(HOOK_EDIT, *BLOCK, log=project.root / "unused.log")
    assert result.code == 2
    assert result.stderr.splitlines() == [
        HOOK_EDIT_LINE,
        f"pdks: telemetry could not be written to {log}: it is a FIFO, not a regular file "
        "— verdicts are unaffected",
    ]


def test_a_fifo_named_by_the_environment_neither_hangs_nor_changes_the_verdict(project, tmp_path):
    project.config(CONFIG)
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    result = project.check(HOOK_EDIT, *BLOCK, env={"POLYDEUKES_TELEMETRY_PATH": str(fifo)},
                           log=project.root / "unused.log")
    assert result.code == 2
    assert result.stderr.splitlines()[1].startswith(f"pdks: telemetry could not be written to {fifo}")


def test_a_symlinked_log_under_the_state_directory_is_not_followed(project, tmp_path):
    """A link from roi.log to a file the agent reads later would leak or redirect the rows."""
    project.config(CONFIG)
    (project.root / ".polydeukes").mkdir()
    elsewhere = tmp_path / "elsewhere.log"
    (project.root / ".polydeukes" / "roi.log").symlink_to(elsewhere)
    result = project.check(HOOK_EDIT, *BLOCK)
    assert result.code == 2
    assert "it is a symbolic link, which the guard does not follow here" in result.stderr
    assert not elsewhere.exists()


@pytest.mark.parametrize("plant", ["fifo", "/dev/zero", "huge"])
def test_a_config_that_is_not_a_plain_file_fails_closed_at_once(plant, project):
    config = project.root / NAME
    if plant == "fifo":
        os.mkfifo(config)
        reason = "it is a FIFO, not a regular file"
    elif plant == "huge":
        with config.open("wb") as handle:
            handle.truncate(50 << 20)
        reason = "it is larger than 4 MiB"
    else:
        config.symlink_to(plant)  # a user's symlinked config is followed, to a device here
        reason = "it is a character device, not a regular file"
    result = project.check(HOOK_EDIT, *BLOCK)
    assert (result.code, result.rows) == (2, [["blocked", "covenant-check", "-"]])
    assert result.stderr == f"covenant check failed closed: cannot read {NAME}: {reason}\n"


def test_a_file_source_that_is_a_fifo_fails_closed_not_a_hang(project):
    project.config(
        "disciplines:\n"
        "  - id: parity\n"
        "    declare:\n"
        "      mechanism: pairing\n"
        "      sources: {ko: {file: locales/ko.json}, en: {file: locales/en.json}}\n"
        "      scope: {source: target.path, include: ['^locales/']}\n"
        "      extract:\n"
        "        koKeys: [{op: source, of: ko}, {op: json}, {op: flattenKeys}]\n"
        "        enKeys: [{op: source, of: en}, {op: json}, {op: flattenKeys}]\n"
        "      relate:\n"
        "        - {id: same-keys, relation: {op: equal, of: [koKeys, enKeys]}, message: m}\n"
    )
    (project.root / "locales").mkdir()
    os.mkfifo(project.root / "locales" / "ko.json")  # read from disk: the Edit changes en.json
    edit = {"toolCalls": [{"name": "Edit", "args": {"file_path": "locales/en.json"},
                           "fileChange": {"kind": "modify", "path": "locales/en.json",
                                          "pre": "{}", "post": '{"a": 1}'}}],
            "subagentSpawns": [], "userMessages": [], "tools": ROSTER}
    result = project.check(edit, *BLOCK)
    assert (result.code, result.stderr) == (
        2, "covenant check failed closed: cannot read locales/ko.json: it is a FIFO, not a "
           "regular file\n")
    assert result.rows == [["blocked", "covenant-check", "-"]]


def test_a_stdin_that_never_ends_meets_the_deadline(project):
    project.config(CONFIG)
    assert project.run("compile").code == 0  # the half second is for the stdin, not compiling
    command = [*_pdks(), "covenant", "check", *BLOCK]
    env = {**os.environ, "POLYDEUKES_DEADLINE_SECONDS": "0.5"}
    env.pop("POLYDEUKES_TELEMETRY_PATH", None)
    proc = subprocess.Popen(command, cwd=project.root, env=env, stdin=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    try:
        proc.stdin.write(b'{"toolCalls": [')  # and never another byte, never EOF
        proc.stdin.flush()
        code = proc.wait(timeout=30)
        stderr = proc.stderr.read().decode()
    finally:
        proc.kill()
        proc.wait()
        proc.stdin.close()
        proc.stderr.close()
    assert (code, stderr) == (2, "covenant check failed closed: judging took longer than 0.5 s\n")
    assert rows_of(project.log) == [["blocked", "covenant-check", "-"]]


# -- 3. slowing the guard down: the deadline fires ------------------------------------------------


def test_a_quadratic_rule_on_a_long_line_meets_the_deadline(project):
    """The live config's `git reset` rule is quadratic on a line of `git reset ` repeated
    (docs/security.md); the compiler accepts it, the deadline bounds it."""
    project.config((Path(__file__).parent / "cases" / "hostile" / "git-reset-rule.config.yaml")
                   .read_text(encoding="utf-8"))
    command = "git reset " * 40_000
    payload = {"toolCalls": [{"name": "Bash", "args": {"command": command}}],
               "subagentSpawns": [], "userMessages": [], "tools": ROSTER}
    result = project.check(payload, *BLOCK)
    assert result.code == 2
    assert result.stderr.splitlines()[-1] == (
        "covenant check failed closed: judging took longer than 0.5 s")
    assert result.rows[-1] == ["blocked", "covenant-check", "-"]


def test_a_slow_shell_input_meets_the_deadline(project):
    """10 MB of short lines through the shell analyzer, with a deadline far below its cost."""
    project.config(CONFIG)
    assert project.run("compile").code == 0  # 0.05 s is about judging, not compiling
    payload = {"toolCalls": [{"name": "Bash", "args": {"command": "echo a\n" * 1_500_000}}],
               "subagentSpawns": [], "userMessages": [], "tools": ROSTER}
    result = project.check(payload, *BLOCK, env={"POLYDEUKES_DEADLINE_SECONDS": "0.05"})
    assert (result.code, result.stderr) == (
        2, "covenant check failed closed: judging took longer than 0.05 s\n")
    assert result.rows == [["blocked", "covenant-check", "-"]]


def test_a_compile_that_outlasts_the_deadline_says_how_to_get_past_it(project):
    """The plan is written only once compiled: a config whose compile alone outlasts the
    deadline would block every check. The message names the way out, and it works."""
    entry = ("  - id: no-todo-{n}\n    declare:\n      mechanism: added-only\n"
             "      scope: {{source: target.path, include: ['^src/{n}/']}}\n"
             "      extract: {{added: [{{op: source, of: post}}, {{op: lines}}, "
             "{{op: matches, re: TODO}}]}}\n"
             "      relate: [{{id: none, relation: {{op: empty, of: added}}, message: m}}]\n")
    # About 4 s of compiling on a quiet machine: the deadline must fall inside the compile
    # even when a busy host takes most of a second just to start the process, and on a quiet
    # fast one (1,000 disciplines, some 1.5 s, let a quiet machine finish the compile and
    # meet the deadline while judging).
    project.config(CONFIG + "disciplines:\n" + "".join(entry.format(n=n) for n in range(2500)))
    env = {"POLYDEUKES_DEADLINE_SECONDS": "1"}
    result = project.check(HOOK_EDIT, *BLOCK, env=env)
    assert (result.code, result.rows) == (2, [["blocked", "covenant-check", "-"]])
    assert result.stderr == (
        "covenant check failed closed: judging took longer than 1 s \u2014 it was compiling "
        "polydeukes.config.yaml: run `pdks compile` once (it judges nothing and has no "
        "deadline), and checks read the compiled plan\n")
    assert project.run("compile").code == 0
    result = project.check(HOOK_EDIT, *BLOCK, env={"POLYDEUKES_DEADLINE_SECONDS": "5"})
    assert (result.code, result.stderr.splitlines()) == (2, [HOOK_EDIT_LINE])


def test_the_environment_deadline_wins_over_the_config(project):
    project.config("deadlineSeconds: 3600\n" + CONFIG)
    assert project.run("compile").code == 0  # 0.05 s is about judging, not compiling
    payload = {"toolCalls": [{"name": "Bash", "args": {"command": "echo a\n" * 1_500_000}}],
               "subagentSpawns": [], "userMessages": [], "tools": ROSTER}
    result = project.check(payload, *BLOCK, env={"POLYDEUKES_DEADLINE_SECONDS": "0.05"})
    assert result.stderr == "covenant check failed closed: judging took longer than 0.05 s\n"


@pytest.mark.parametrize("value", ["0", "-1", "abc", "nan", "inf", "3601"])
def test_a_bad_deadline_in_the_environment_fails_closed(value, project):
    project.config(CONFIG)
    result = project.check(EMPTY_INPUT, *BLOCK, env={"POLYDEUKES_DEADLINE_SECONDS": value})
    assert (result.code, result.rows) == (2, [["blocked", "covenant-check", "-"]])
    assert result.stderr == (
        "covenant check failed closed: POLYDEUKES_DEADLINE_SECONDS must be a number of seconds "
        f"greater than 0 and at most 3600, not {value!r}\n")


# -- 5. hiding tampering -------------------------------------------------------------------------


SESSION = {"userMessages": [], "toolCalls": []}


def _session_read(path: str) -> dict:
    return {"toolCalls": [{"name": "Read", "args": {"file_path": path}}],
            "subagentSpawns": [], "userMessages": [], "tools": ROSTER, "session": SESSION}


def test_a_forged_witnessed_row_does_not_hide_a_change(project):
    project.config(CONFIG)
    project.write(".claude/hooks/pre.sh", "exit 2\n")
    project.check(_session_read("README.md"), *BLOCK)  # the baseline is cut
    project.write(".claude/hooks/pre.sh", "exit 0\n")  # an unjudged write
    with project.log.open("a") as log:  # ... and the row that would have explained it
        log.write("2999-01-01T00:00:00.000Z\twitnessed\tself-mod\t.claude/hooks\n")
    before = len(rows_of(project.log))
    rows = project.check(_session_read("README.md"), *BLOCK).rows[before:]
    assert rows == [["unattributed", "baseline", ".claude/hooks"],
                    ["passed", "covenant-check", "README.md"]]


def test_a_change_a_witnessed_edit_let_through_is_not_reported(project):
    """The admitting run records the admission itself, so the change that follows it (after
    that run's own cut) is explained, which the log-row rule never managed."""
    project.config(CONFIG + "witness: {token: 'pdks witness', ttlMinutes: 10}\n")
    project.write(".claude/hooks/pre.sh", "exit 2\n")
    project.check(_session_read("README.md"), *BLOCK)
    now = int(time.time() * 1000)
    witnessed = dict(HOOK_EDIT, session={
        "userMessages": [{"text": "pdks witness", "timestampMs": now}], "toolCalls": []})
    result = project.check(witnessed, *BLOCK)
    assert result.code == 0 and ["witnessed", "self-mod", ".claude/hooks"] in result.rows
    project.write(".claude/hooks/pre.sh", "exit 0\n")  # the host applies the witnessed Edit
    before = len(rows_of(project.log))
    rows = project.check(_session_read("README.md"), *BLOCK).rows[before:]
    assert rows == [["passed", "covenant-check", "README.md"]]


# -- exits a host reads as "go ahead" -------------------------------------------------------------


def _pdks() -> list[str]:
    return [sys.executable, "-m", "polydeukes.cli"]


def _sh(project, script: str, stdin: bytes, env: dict | None = None) -> subprocess.CompletedProcess:
    full_env = {k: v for k, v in os.environ.items() if k != "POLYDEUKES_TELEMETRY_PATH"}
    full_env.update(env or {})
    return subprocess.run(["sh", "-c", script, *_pdks()], input=stdin, cwd=project.root,
                          env=full_env, capture_output=True, timeout=60)


def test_a_closed_stderr_still_blocks_with_exit_2_and_a_row(project):
    project.config(CONFIG)
    done = _sh(project, '"$0" "$@" covenant check --enforce block 2>&-',
               json.dumps(HOOK_EDIT).encode())
    assert done.returncode == 2
    assert rows_of(project.log) == HOOK_EDIT_ROWS


def test_a_broken_stderr_pipe_still_blocks_with_exit_2(project):
    project.config(CONFIG)
    read_end, write_end = os.pipe()
    os.close(read_end)  # every write to stderr now fails with EPIPE
    try:
        done = subprocess.run([*_pdks(), "covenant", "check", *BLOCK],
                              input=json.dumps(HOOK_EDIT).encode(), cwd=project.root,
                              stderr=write_end, timeout=60)
    finally:
        os.close(write_end)
    assert done.returncode == 2
    assert rows_of(project.log) == HOOK_EDIT_ROWS


def test_a_closed_stdin_is_an_empty_input(project):
    project.config(CONFIG)
    done = _sh(project, '"$0" "$@" covenant check --enforce block <&-', b"")
    assert done.returncode == 2
    assert done.stderr.decode() == (
        "covenant check failed closed: input is not a JSON object\n")


def test_a_deleted_working_directory_fails_closed(project, tmp_path):
    gone = tmp_path / "gone"
    gone.mkdir()
    log = tmp_path / "rows.log"
    done = _sh(project, f'cd {gone} && rmdir {gone} && exec "$0" "$@" covenant check --enforce block',
               json.dumps(HOOK_EDIT).encode(), env={"POLYDEUKES_TELEMETRY_PATH": str(log)})
    assert done.returncode == 2
    assert done.stderr.decode() == ("covenant check failed closed: the working directory cannot "
                                    "be read: No such file or directory\n")
    assert rows_of(log) == [["blocked", "covenant-check", "-"]]


def test_an_input_nested_too_deep_is_refused_by_name(project):
    project.config(CONFIG)
    deep = "[" * 100_000 + "]" * 100_000
    payload = ('{"toolCalls": [{"name": "Edit", "args": {"x": ' + deep + '}}], '
               '"subagentSpawns": [], "userMessages": []}')
    result = project.check(payload, *BLOCK)
    assert (result.code, result.stderr) == (
        2, "covenant check failed closed: the input nests deeper than 256 levels\n")


def test_an_input_past_the_size_bound_is_refused_not_truncated(project):
    project.config(CONFIG)
    from polydeukes.cli.check import INPUT_LIMIT

    result = project.check(b" " * (INPUT_LIMIT + 1), *BLOCK)
    assert (result.code, result.stderr) == (
        2, "covenant check failed closed: the input is larger than 64 MiB\n")


# -- case-insensitive file systems ----------------------------------------------------------------


def _fold_case(project) -> None:
    """What the check observes on macOS or Windows: the config file under its case-swapped
    name is the same file. A hard link shows exactly that on a case-sensitive file system."""
    os.link(project.root / NAME, project.root / NAME.swapcase())


@pytest.mark.parametrize("spelling", [".Claude/hooks/pre.sh", ".CLAUDE/HOOKS/PRE.SH",
                                      "./.claude/Hooks"])
def test_a_case_folding_file_system_protects_every_spelling(spelling, project):
    project.config(CONFIG)
    _fold_case(project)
    edit = {"toolCalls": [{"name": "Write", "args": {"file_path": spelling},
                           "fileChange": {"kind": "create", "path": spelling, "post": ""}}],
            "subagentSpawns": [], "userMessages": [], "tools": ROSTER}
    result = project.check(edit, *BLOCK)
    assert result.code == 2
    assert result.rows[0] == ["blocked", "self-mod", ".claude/hooks"]
    shell = {"toolCalls": [{"name": "Bash", "args": {"command": f"echo 0 > {spelling}"}}],
             "subagentSpawns": [], "userMessages": [], "tools": ROSTER}
    result = project.check(shell, *BLOCK)
    assert result.code == 2
    assert ["blocked", "shell-mod", ".claude/hooks"] in result.rows


def test_a_case_sensitive_file_system_keeps_spellings_apart(project):
    project.config(CONFIG)
    edit = {"toolCalls": [{"name": "Write", "args": {"file_path": ".Claude/hooks/pre.sh"},
                           "fileChange": {"kind": "create", "path": ".Claude/hooks/pre.sh",
                                          "post": ""}}],
            "subagentSpawns": [], "userMessages": [], "tools": ROSTER}
    result = project.check(edit, *BLOCK)
    assert (result.code, result.rows) == (0, [["passed", "covenant-check", ".Claude/hooks/pre.sh"]])


# -- any bytes as plan.bin ------------------------------------------------------------------------

PROPERTY_CONFIG = CONFIG + (
    "disciplines:\n"
    "  - id: no-todo\n"
    "    enforce: block\n"
    "    declare:\n"
    "      mechanism: added-only\n"
    "      scope: {source: target.path, include: ['^src/']}\n"
    "      extract:\n"
    "        added: [{op: source, of: post}, {op: lines}, {op: matches, re: 'TODO'}]\n"
    "      relate: [{id: none, relation: {op: empty, of: added}, message: 'new TODO: {value}'}]\n"
)
PROPERTY_INPUT = json.dumps({
    "toolCalls": [
        HOOK_EDIT["toolCalls"][0],
        {"name": "Write", "args": {"file_path": "src/a.py"},
         "fileChange": {"kind": "create", "path": "src/a.py", "post": "x = 1  # TODO\n"}},
        {"name": "Write", "args": {"file_path": "README.md"},
         "fileChange": {"kind": "create", "path": "README.md", "post": "hello\n"}},
    ],
    "subagentSpawns": [], "userMessages": [], "tools": ROSTER,
}).encode()


def _judge_in_process(root: Path, plan_bytes: bytes | None) -> tuple[int, str, list]:
    import contextlib
    import io

    from polydeukes.cli.check import run_check

    plan = root / ".polydeukes" / "plan.bin"
    plan.parent.mkdir(exist_ok=True)
    if plan_bytes is None:
        plan.unlink(missing_ok=True)
    else:
        plan.write_bytes(plan_bytes)
    log = root / "rows.log"
    log.unlink(missing_ok=True)
    err = io.StringIO()
    saved = os.getcwd()
    os.chdir(root)
    try:
        with contextlib.redirect_stderr(err):
            code = run_check([*BLOCK, "--telemetry-path", str(log)], stdin=PROPERTY_INPUT)
    finally:
        os.chdir(saved)
    return code, err.getvalue(), rows_of(log)


def _plan_bytes():
    from hypothesis import strategies as st

    def valid(root: Path) -> bytes:
        plan = compile_config(str(root), NAME, PROPERTY_CONFIG.encode()).plan
        return planfile.encode_plan(plan, planfile.plan_key(NAME, PROPERTY_CONFIG.encode()))

    def damaged(data: bytes, flips: list[int], cut: int, tail: bytes) -> bytes:
        out = bytearray(data)
        for bit in flips:
            out[(bit // 8) % len(out)] ^= 1 << (bit % 8)
        return bytes(out[:len(out) - cut]) + tail

    return st.one_of(
        st.binary(max_size=256),
        st.binary(max_size=64).map(lambda tail: planfile.MAGIC + tail),
        st.builds(lambda flips, cut, tail: ("damaged", flips, cut, tail),
                  st.lists(st.integers(0, 1 << 16), min_size=1, max_size=4),
                  st.integers(0, 8), st.binary(max_size=8)),
        st.just(("valid",)),
    ), valid, damaged


def test_any_bytes_as_the_plan_judge_like_a_fresh_compile(tmp_path):
    """Random, truncated and bit-flipped plan files (and the valid one) change nothing: every
    run answers exactly what a run without plan.bin answers. (A deliberate forgery with the
    right key and CRC is a write through an unjudged channel, outside the threat model;
    through a judged tool it is blocked: tests/cases/judge/guard-state.yaml.)"""
    from hypothesis import HealthCheck, given, settings

    # Loaded here once, so that each forked judgment inherits them instead of importing them.
    import polydeukes.stdlib.meta  # noqa: F401
    import polydeukes.stdlib.shell  # noqa: F401

    (tmp_path / NAME).write_text(PROPERTY_CONFIG)
    fresh = _judge_in_process(tmp_path, None)
    assert fresh[0] == 2 and fresh[2] == [
        ["blocked", "self-mod", ".claude/hooks"], ["passed", "shell-mod", ".claude/hooks"],
        ["blocked", "no-todo", "src/a.py", '[{"id":"none","witnesses":[{"key":"1","value":"x = 1  # TODO"}],"total":1}]'],
        ["passed", "covenant-check", "README.md"]]
    strategy, valid, damaged = _plan_bytes()
    valid_bytes = valid(tmp_path)

    @settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
    @given(strategy)
    def prop(choice) -> None:
        if isinstance(choice, tuple) and choice[0] == "valid":
            data = valid_bytes
        elif isinstance(choice, tuple):
            data = damaged(valid_bytes, *choice[1:])
        else:
            data = choice
        assert _judge_in_process(tmp_path, data) == fresh

    prop()
