"""`pdks replay` (api/replay.py): recorded sessions judged against a candidate config.

A Claude Code transcript is written here in the shape spec 07 §2.4 describes; the replay must
rebuild each call as the hook would have sent it at that point (session evidence so far, the
clock at the call, the file's pre-state rolled back from disk), judge it at --enforce block,
and write nothing.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from conftest import RUNGS

from polydeukes.claude_code import edit_post, multi_edit_post
from polydeukes.replay import UNKNOWN, _invert, _timeline



class Session:
    """A Claude Code transcript being written: human turns, tool uses and their results."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.entries: list[dict] = []
        self.count = 0

    def says(self, text: str, at: str) -> None:
        self.entries.append({"type": "user", "origin": {"kind": "human"},
                             "message": {"role": "user", "content": text},
                             "timestamp": f"2026-11-20T{at}.000Z"})

    def uses(self, name: str, at: str, ok: bool | None = True, **args) -> None:
        self.count += 1
        for key in ("file_path", "notebook_path"):
            if key in args:
                args[key] = str(self.root / args[key])
        self.entries.append({"type": "assistant", "timestamp": f"2026-11-20T{at}.000Z",
                             "message": {"role": "assistant", "content": [
                                 {"type": "tool_use", "id": f"t{self.count}", "name": name,
                                  "input": args}]}})
        if ok is not None:
            self.entries.append({"type": "user", "timestamp": f"2026-11-20T{at}.500Z",
                                 "message": {"role": "user", "content": [
                                     {"type": "tool_result", "tool_use_id": f"t{self.count}",
                                      "is_error": not ok, "content": ""}]}})

    def save(self, name: str = "session.jsonl") -> str:
        (self.root / name).write_text("".join(json.dumps(e) + "\n" for e in self.entries))
        return name


@pytest.fixture
def recorded(project):
    project.config(RUNGS)
    session = Session(project.root)
    session.says("please focus the adds test", "10:00:00")
    session.uses("Edit", "10:00:05", file_path="src/app.test.ts",
                 old_string="it('adds'", new_string="it.only('adds'")
    session.uses("Write", "10:01:00", ok=False, file_path="src/debug.ts", content="debugger;\n")
    session.uses("Bash", "10:02:00", command="npm test")
    session.says("pdks witness", "10:03:00")
    session.uses("Write", "10:04:00", file_path="src/debug.ts", content="debugger;\n")
    session.uses("Edit", "10:14:00", file_path="src/util.ts", old_string="1", new_string="2")
    session.uses("Read", "10:15:00", file_path="src/util.ts")
    session.save()
    # The tree as the session left it, except util.ts, which changed afterwards.
    project.write("src/app.test.ts", "it.only('adds', () => {});\n")
    project.write("src/debug.ts", "debugger;\n")
    project.write("src/util.ts", "export const x = 3;\n")
    return project


def test_a_transcript_replays_call_by_call(recorded):
    before = sorted(p.relative_to(recorded.root) for p in recorded.root.rglob("*"))
    result = recorded.run("replay", "session.jsonl")
    assert (result.code, result.stderr) == (0, "")
    lines = result.stdout.split("\n")
    assert lines[0] == ("pdks replay — 5 call(s) from 1 recording(s), judged against "
                        "polydeukes.config.yaml at --enforce block")
    table = {line.split()[0]: [int(n) for n in line.split()[1:]] for line in lines[3:6]}
    #                         routed passed advised blocked witnessed skipped unjudgeable
    assert table == {"no-focused-tests": [3, 2, 1, 0, 0, 0, 0],
                     "no-debugger-statements": [3, 1, 0, 1, 1, 0, 0],
                     # Bash `npm test`, and the util.ts edit judged without evidence
                     "covenant-check": [2, 2, 0, 0, 0, 0, 0]}
    assert lines[6] == ""
    assert "would block (1):" in lines
    blocked = lines[lines.index("would block (1):") + 1]
    assert blocked.startswith("  session.jsonl:4  Write src/debug.ts  no-debugger-statements: "
                              "discipline 'no-debugger-statements' broken on src/debug.ts")
    assert lines[-5:] == [
        "pre-state unknown (3):",
        "  session.jsonl:4  Write src/debug.ts — the file's text before this call is not known",
        "  session.jsonl:9  Write src/debug.ts — the file's text before this call is not known",
        "  session.jsonl:11  Edit src/util.ts — the file's text before this call is not known",
        "",
    ]
    assert sorted(p.relative_to(recorded.root) for p in recorded.root.rglob("*")) == before


def test_the_clock_is_the_calls_own(recorded):
    """The token at 10:03 opens the Write at 10:04 (ttl 10 minutes), whatever time it is now;
    and the advised edit's pre-state was rolled back from the disk."""
    result = recorded.run("replay", "session.jsonl", "--discipline", "no-debugger-statements",
                          "--json")
    summary = json.loads(result.stdout)
    assert summary["disciplines"] == {"no-debugger-statements": {
        "routed": 3, "passed": 1, "advised": 0, "blocked": 1, "witnessed": 1, "skipped": 0,
        "unjudgeable": 0}}
    assert [(f["line"], f["event"]) for f in summary["findings"]] == [(4, "blocked")]
    focused = json.loads(recorded.run("replay", "session.jsonl", "--discipline",
                                      "no-focused-tests", "--json").stdout)
    (advised,) = focused["findings"]
    assert (advised["line"], advised["event"], advised["path"]) == (2, "advised",
                                                                      "src/app.test.ts")
    assert advised["message"].startswith("discipline 'no-focused-tests' broken on "
                                         "src/app.test.ts: adds .only(: it.only('adds'")


def test_ir_json_lines_are_judged_as_they_are(project):
    project.config(RUNGS)
    lines = [
        {"toolCalls": [{"name": "Write", "args": {"file_path": "src/a.ts"},
                        "fileChange": {"kind": "create", "path": "src/a.ts",
                                       "post": "debugger;\n"}}],
         "subagentSpawns": [], "userMessages": []},
        {"toolCalls": [{"name": "Edit", "args": {"file_path": ".claude/hooks/x"}}],
         "subagentSpawns": [], "userMessages": [],
         "tools": {"mutating": ["Edit"], "shell": [], "commandArgs": []}},
    ]
    project.write("calls.jsonl", "\n".join(json.dumps(line) for line in lines) + "\n{nope\n")
    summary = json.loads(project.run("replay", "calls.jsonl", "--json").stdout)
    assert summary["calls"] == 3
    assert summary["disciplines"]["no-debugger-statements"]["blocked"] == 1
    assert summary["disciplines"]["self-mod"]["blocked"] == 1
    assert summary["disciplines"]["covenant-check"] == {
        "routed": 1, "passed": 0, "advised": 0, "blocked": 0, "witnessed": 0, "skipped": 0,
        "unjudgeable": 1}  # the line that is no IR fails closed, as a hook's would


@pytest.mark.parametrize("argv,message", [
    (["replay", "missing.jsonl"], "pdks replay: cannot read missing.jsonl: No such file or "
                                  "directory\n"),
    (["replay", "notes.txt"], "pdks replay: notes.txt is neither a Claude Code transcript nor "
                              "IR JSON lines\n"),
    (["replay", "x.jsonl", "--config", "nope.yaml"], "pdks replay: cannot read nope.yaml: "
                                                     "No such file or directory\n"),
])
def test_unusable_recordings_and_configs_exit_2(project, argv, message):
    project.config(RUNGS)
    project.write("notes.txt", "hello\n")
    project.write("x.jsonl", "{}\n")
    result = project.run(*argv)
    assert (result.code, result.stdout, result.stderr) == (2, "", message)


def test_a_fifo_as_the_recording_is_refused_not_waited_on(project):
    project.config(RUNGS)
    os.mkfifo(project.root / "pipe.jsonl")  # no writer: a plain open() would hang
    result = project.run("replay", "pipe.jsonl")  # (run() gives up after 60 s)
    assert (result.code, result.stdout, result.stderr) == (
        2, "", "pdks replay: cannot read pipe.jsonl: it is a FIFO, not a regular file\n")


def test_replay_usage(project):
    assert project.run("replay").code == 2


# -- pre-states --------------------------------------------------------------------------------


def _call(name: str, ok: bool = True, **args) -> dict:
    return {"name": name, "args": args, "succeeded": ok}


def test_a_files_states_are_rolled_back_through_the_sessions_edits(tmp_path):
    path = tmp_path / "a.txt"
    path.write_text("one\nTWO\nthree!\n")
    calls = [(0, _call("Edit", old_string="two", new_string="TWO")),
             (1, _call("Edit", ok=False, old_string="x", new_string="y")),
             (2, _call("MultiEdit", edits=[{"old_string": "three", "new_string": "three!"}]))]
    assert _timeline(str(path), calls) == {0: "one\ntwo\nthree\n", 1: "one\nTWO\nthree\n",
                                           2: "one\nTWO\nthree\n"}


def test_a_write_is_known_forward_and_unknown_backward(tmp_path):
    path = tmp_path / "a.txt"
    path.write_text("changed later\n")
    calls = [(0, _call("Write", content="a\n")), (1, _call("Edit", old_string="a", new_string="b")),
             (2, _call("Edit", old_string="b", new_string="c"))]
    assert _timeline(str(path), calls) == {0: UNKNOWN, 1: "a\n", 2: "b\n"}


def test_an_edit_whose_result_is_ambiguous_is_unknown(tmp_path):
    path = tmp_path / "a.txt"
    path.write_text("b b\n")  # which b did `a` -> `b` make?
    assert _timeline(str(path), [(0, _call("Edit", old_string="a", new_string="b"))]) == {
        0: UNKNOWN}


_text = st.text(alphabet="ab\n", max_size=10)  # few letters: repeats, the hard case
_words = st.text(alphabet="abcdefgh \n", min_size=1, max_size=14)  # what edits usually meet


@st.composite
def _applicable_edit(draw, text: str) -> dict:
    """An edit shaped like a real one: its old text is drawn from the text it edits (and so
    usually applies), now and then from anywhere (and so usually does not)."""
    if text and draw(st.integers(0, 4)):
        start = draw(st.integers(0, len(text) - 1))
        end = draw(st.integers(start + 1, len(text)))
        while text.count(text[start:end]) > 1 and (start > 0 or end < len(text)):
            start, end = (start, end + 1) if end < len(text) else (start - 1, end)  # widen
        old = text[start:end]
    else:
        old = draw(_text)
    new = draw(_text)
    if new == old:
        new += "x"
    return {"old_string": old, "new_string": new, "replace_all": draw(st.booleans())}


@st.composite
def _edits(draw) -> tuple:
    pre = draw(_words | _text)
    return pre, draw(_applicable_edit(pre))


@settings(max_examples=400, deadline=None)
@given(_edits())
def test_an_inverted_edit_is_the_true_pre_state_or_unknown(drawn):
    """Never a wrong pre-state: rolling back an applied edit yields its real input, or
    admits it does not know."""
    pre, args = drawn
    post = edit_post(pre, args)
    if post is None:
        event("refused by the tool")
        return  # nothing was applied
    found = _invert({"name": "Edit", "args": args}, post)
    event("unknown" if found is UNKNOWN else "rolled back")
    assert found is UNKNOWN or found == pre


@st.composite
def _multi_edits(draw) -> tuple:
    """A pre-state (or none: a creation seeded by the first edit) and 1-3 edits, each drawn
    from the text the previous ones left."""
    pre = draw(st.one_of(st.none(), _words, _text))
    edits, text = [], pre
    if pre is None:
        text = draw(_words)
        edits.append({"old_string": "", "new_string": text})
    for _ in range(draw(st.integers(1 if pre is not None else 0, 3))):
        edit = draw(_applicable_edit(text or ""))
        edit.pop("replace_all")
        edits.append(edit)
        text = edit_post(text, edit) or text
    return pre, {"edits": edits}


@settings(max_examples=300, deadline=None)
@given(_multi_edits())
def test_an_inverted_multi_edit_is_the_true_pre_state_or_unknown(drawn):
    pre, args = drawn
    post = multi_edit_post(pre, args)
    if post is None:
        event("refused by the tool")
        return
    found = _invert({"name": "MultiEdit", "args": args}, post)
    event("unknown" if found is UNKNOWN else "rolled back")
    assert found is UNKNOWN or found == pre
