"""The dispatcher's edges the judge tables cannot reach (vm/machine.py), in-process.

The tables judge through the real clock, so a witness message can only be "a minute old" or
"an hour old"; here the TTL valve gets a fixed clock and is held to its exact bounds. A valve
that raises, and a declaration's own witness that raises, keep the call blocked.
"""

from __future__ import annotations

import json

import pytest

from conftest import rows_of
from polydeukes.cli.check import run_check
from polydeukes.vm import machine
from polydeukes.vm.ir import UNSET, SessionMessage

NOW = 1_800_000_000_000
MINUTE = 60_000


def _opens(messages: list, *, token: str = "pdks witness", ttl_minutes: float = 1) -> bool:
    return machine.ttl_witness(token, ttl_minutes, messages, lambda: NOW)()


@pytest.mark.parametrize("text, age_ms, opens", [
    ("pdks witness", 0, True),  # this very millisecond
    ("pdks witness", MINUTE, True),  # exactly the TTL old
    ("pdks witness", MINUTE + 1, False),  # a millisecond past it
    ("pdks witness", -1, False),  # from the future
    ("  pdks witness \t", 1000, True),  # trimmed as JavaScript trims
    ("pdks witness\nand more", 1000, True),  # the first line alone counts
    ("pdks witness\nsecond\nthird", 1000, True),
    ("first\npdks witness", 1000, False),
    ("pdks witness, please", 1000, False),
])
def test_the_ttl_valve_opens_on_a_fresh_token_alone_on_the_first_line(text, age_ms, opens):
    assert _opens([SessionMessage(text=text, timestampMs=NOW - age_ms)]) is opens


def test_a_message_without_a_timestamp_is_passed_over_not_the_end():
    fresh = SessionMessage(text="pdks witness", timestampMs=NOW - 1000)
    unstamped = SessionMessage(text="pdks witness")
    assert unstamped.timestampMs is UNSET
    assert _opens([unstamped]) is False
    assert _opens([unstamped, fresh]) is True


def test_the_ttl_is_in_minutes_and_may_be_fractional():
    message = [SessionMessage(text="pdks witness", timestampMs=NOW - 30_001)]
    assert _opens(message, ttl_minutes=0.5) is False
    assert _opens(message, ttl_minutes=30_001 / MINUTE) is True


def test_the_clock_is_read_at_each_consultation():
    now = [NOW]
    opens = machine.ttl_witness("t", 1, [SessionMessage(text="t", timestampMs=NOW)],
                                lambda: now[0])
    assert opens() is True
    now[0] += MINUTE + 1
    assert opens() is False


@pytest.mark.parametrize("token, message", [
    ("", "ttlWitness: token must not be empty"),
    (" \t", "ttlWitness: token must not be empty"),
    ("pdks\nwitness", "ttlWitness: token must not contain line breaks"),
    ("pdks\rwitness", "ttlWitness: token must not contain line breaks"),
])
def test_a_token_that_cannot_be_typed_alone_on_a_line_fails_the_run(token, message):
    with pytest.raises(machine.RunFailed) as raised:
        machine.ttl_witness(token, 1, [], lambda: NOW)
    assert str(raised.value) == message


# -- valves that raise ---------------------------------------------------------------------------
VALVE_CONFIG = """\
protectedPaths: ['.claude/settings.json']
witness: { token: 'pdks witness', ttlMinutes: 10 }
"""


def _settings_edit(now_ms: int) -> bytes:
    return json.dumps({
        "toolCalls": [{"name": "Edit", "args": {"file_path": ".claude/settings.json"},
                       "fileChange": {"kind": "modify", "path": ".claude/settings.json",
                                      "pre": "{}\n", "post": "{\"hooks\": {}}\n"}}],
        "subagentSpawns": [], "userMessages": [],
        "tools": {"mutating": ["Edit"], "shell": [], "commandArgs": []},
        "session": {"userMessages": [{"text": "pdks witness", "timestampMs": now_ms - 1000}],
                    "toolCalls": []},
    }).encode()


def test_a_valve_that_raises_stays_shut(tmp_path, monkeypatch, capsys):
    (tmp_path / "polydeukes.config.yaml").write_text(VALVE_CONFIG)
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("POLYDEUKES_TELEMETRY_PATH", raising=False)
    stdin = _settings_edit(machine.now_ms())
    assert run_check(["--enforce", "block"], stdin=stdin) == 0  # the control: it opens
    assert ["witnessed", "self-mod", ".claude/settings.json"] in rows_of(
        tmp_path / ".polydeukes" / "roi.log")

    def broken_valve(*args, **kwargs):
        def opens() -> bool:
            raise RuntimeError("clock unreadable")
        return opens

    monkeypatch.setattr(machine, "ttl_witness", broken_valve)
    (tmp_path / ".polydeukes" / "roi.log").unlink()
    assert run_check(["--enforce", "block"], stdin=stdin) == 2
    assert capsys.readouterr().err.endswith(
        "Edit would modify protected path .claude/settings.json\n")
    assert ["blocked", "self-mod", ".claude/settings.json"] in rows_of(
        tmp_path / ".polydeukes" / "roi.log")


# -- paths outside the project --------------------------------------------------------------------
UNSCOPED = """\
disciplines:
  - id: 'no-todo'
    declare:
      mechanism: 'added-only'
      supply: { pre: 'empty', post: 'empty' }
      extract:
        hits: [{ op: 'source', of: 'post' }, { op: 'lines' }, { op: 'matches', re: 'TODO' }]
      relate:
        - { id: 'h', relation: { op: 'empty', of: 'hits' }, message: '{value}' }
"""


@pytest.mark.parametrize("path, judged_as", [
    ("src/a.ts", "src/a.ts"),
    ("./src/../a.ts", "a.ts"),
    ("{root}/src/a.ts", "src/a.ts"),
    (".", None),  # the root itself is no file of the project
    ("..", None),
    ("../a.ts", None),
    ("{root}", None),
    ("{root}/../a.ts", None),
])
def test_a_file_change_is_judged_only_at_a_path_inside_the_project(tmp_path, monkeypatch, capsys,
                                                                    path, judged_as):
    (tmp_path / "polydeukes.config.yaml").write_text(UNSCOPED)
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("POLYDEUKES_TELEMETRY_PATH", raising=False)
    path = path.format(root=tmp_path)
    call = {"name": "Write", "args": {"file_path": path},
            "fileChange": {"kind": "create", "path": path, "post": "TODO\n"}}
    stdin = json.dumps({"toolCalls": [call], "subagentSpawns": [], "userMessages": []}).encode()
    assert run_check([], stdin=stdin) == 0
    rows = rows_of(tmp_path / ".polydeukes" / "roi.log")
    if judged_as is None:
        assert rows == [["passed", "covenant-check", path]]
        assert capsys.readouterr().err == ""
    else:
        assert [row[:3] for row in rows] == [["advised", "no-todo", judged_as]]


# -- one world, with the programs bound once or bound on the spot ----------------------------------
WITNESSED = UNSCOPED + """\
      witness:
        relate:
          - { id: 'w', relation: { op: 'nonEmpty', of: 'hits' }, message: 'w' }
"""


def test_a_world_and_its_witness_judge_the_same_with_or_without_a_bound_program():
    from polydeukes.compiler import compile_config
    from polydeukes.vm.jsregex import JsRegex
    from polydeukes.vm.ops import bind

    def regex(index: int) -> JsRegex:
        pattern = plan.patterns[index]
        return JsRegex(pattern.source, pattern.flags, pattern.needs_utf16)

    witnessed = compile_config("/p", "polydeukes.config.yaml", WITNESSED.encode()).plan
    unwitnessed = compile_config("/p", "polydeukes.config.yaml", UNSCOPED.encode()).plan
    world = {"changes": ["a.ts"], "target.path": "a.ts", "post": "ok\nTODO\n"}
    for plan, opens in ((witnessed, True), (unwitnessed, False)):
        (entry,) = plan.entries
        on_the_spot = machine.evaluate_world(plan, entry, world, regex)
        bound = machine.evaluate_world(plan, entry, world, regex, bind(entry.body.code))
        assert on_the_spot.status == bound.status == machine.BROKEN
        assert on_the_spot.breaks == bound.breaks == [("h", "TODO", bound.breaks[0][2])]
        assert machine.evaluate_witness(entry, on_the_spot.frame) is opens
        program = bind(entry.witness.code) if entry.witness is not None else None
        assert machine.evaluate_witness(entry, bound.frame, program) is opens


# -- routing that fails ---------------------------------------------------------------------------
def test_a_route_that_raises_blocks_even_under_advise(tmp_path, monkeypatch, capsys):
    # Spec 04 §10.1: failed routing always blocks; the lenient posture does not soften it
    # (a Route whose `failed` were falsy would be recorded `advised` and let through).
    (tmp_path / "polydeukes.config.yaml").write_text(UNSCOPED)
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("POLYDEUKES_TELEMETRY_PATH", raising=False)
    stdin = json.dumps({
        "toolCalls": [{"name": "Edit", "args": {"file_path": "src/a.ts"},
                       "fileChange": {"kind": "modify", "path": "src/a.ts",
                                      "pre": "", "post": "TODO\n"}}],
        "subagentSpawns": [], "userMessages": []}).encode()
    log = tmp_path / ".polydeukes" / "roi.log"
    assert run_check(["--enforce", "advise"], stdin=stdin) == 0  # the control: advised
    assert [row[:3] for row in rows_of(log)] == [["advised", "no-todo", "src/a.ts"]]
    log.unlink()

    def unreadable(self, index, call):
        raise RuntimeError("routing predicate failed")

    monkeypatch.setattr(machine.DeclareRegistration, "route", unreadable)
    capsys.readouterr()
    assert run_check(["--enforce", "advise"], stdin=stdin) == 2
    assert [row[:3] for row in rows_of(log)] == [["blocked", "no-todo", "-"]]
