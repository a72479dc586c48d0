"""Claude Code's transcript reader and sidecar channel (spec 07 §2.4; the original's
transcript.test.ts): only positively identified human messages, tool calls with their outcomes,
"no transcript" distinct from an empty one."""

from __future__ import annotations

import json
import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from adapter_support import CASES, transcript_text

from polydeukes.stdlib.adapters import claude_code
from polydeukes.stdlib.adapters import transcript as T


def test_a_real_shaped_session(tmp_path):
    """tests/cases/adapters/session-shut.jsonl: summaries, snapshots, tool results, a task
    notification, an origin-less wrapper, a broken line, a non-object line."""
    data = transcript_text(CASES / "session-shut.jsonl", {"root": "/work/project"}).encode()
    found = T.parse_transcript(data)
    human = found.human_messages()
    assert [m["text"] for m in human] == [
        "pdks witness",                              # stale, but human
        "please tidy the config\npdks witness",      # token on a later line
        "`pdks witness`",                            # backticked
        "pdks witness",                              # no timestamp
    ]
    assert ["timestampMs" in m for m in human] == [True, True, True, False]
    assert found.tool_calls() == [
        {"name": "Bash", "args": {"command": "npm view yaml version",
                                  "description": "Look up the latest yaml release"},
         "succeeded": True},                         # the first result wins over a later error
        {"name": "Read", "args": {"file_path": "/work/project/NOTES.md"}, "succeeded": True},
        {"name": "Task", "args": {"description": "Review the diff",
                                  "prompt": "Review the staged diff", "subagent_type": "reviewer"},
         "succeeded": False},                        # no result: not proven
        {"name": "Bash", "args": {"command": "npm view left-pad version"}, "succeeded": False},
    ]
    assert [c["name"] for c in found.tool_calls("Bash")] == ["Bash", "Bash"]
    assert found.subagent_invocations() == [{"kind": "reviewer"}]


def line(**entry) -> str:
    return json.dumps(entry)


@pytest.mark.parametrize("entry, counted", [
    (line(type="user", origin={"kind": "human"}, message={"content": "hi"}), True),
    (line(type="user", origin={"kind": "task-notification"}, message={"content": "hi"}), False),
    (line(type="user", message={"content": "hi"}), False),                    # origin-less
    (line(type="user", origin={"kind": "human"},
          message={"content": [{"type": "text", "text": "hi"}]}), False),     # array content
    (line(type="user", origin="human", message={"content": "hi"}), False),
    (line(type="assistant", origin={"kind": "human"}, message={"content": "hi"}), False),
])
def test_only_positive_identification_counts(entry, counted):
    assert bool(T.parse_transcript(entry.encode()).human_messages()) is counted


@pytest.mark.parametrize("stamp, millis", [
    ("2025-10-09T08:53:20.123Z", 1760000000123),
    ("2025-10-09T10:53:20.123+02:00", 1760000000123),
    ("2025-10-09T08:53:20.1239Z", 1760000000123),   # truncated to the millisecond
    ("2025-10-09T08:53:20", None),                  # a local time names no instant
    ("yesterday", None),
    (1760000000123, None),
])
def test_timestamps(stamp, millis):
    entry = line(type="user", origin={"kind": "human"}, message={"content": "x"}, timestamp=stamp)
    [message] = T.parse_transcript(entry.encode()).human_messages()
    assert message.get("timestampMs") == millis


def test_tool_call_shapes():
    data = "\n".join([
        line(type="assistant", message={"content": [
            {"type": "tool_use", "id": "a", "name": "Bash", "input": "not an object"},
            {"type": "tool_use", "id": "b", "name": 7, "input": {}},
            {"type": "tool_use", "name": "Edit", "input": {"file_path": "x"}},
            {"type": "text", "text": "not a call"},
        ]}),
        line(type="user", message={"content": [
            {"type": "tool_result", "tool_use_id": "a", "is_error": "false"},  # not exactly false
        ]}),
    ]).encode()
    assert T.parse_transcript(data).tool_calls() == [
        {"name": "Bash", "args": {}, "succeeded": False},
        {"name": "Edit", "args": {"file_path": "x"}, "succeeded": False},  # no id: unprovable
    ]


def test_queries_return_copies():
    found = T.parse_transcript(line(type="assistant", message={"content": [
        {"type": "tool_use", "id": "a", "name": "Bash", "input": {"command": "ls"}}]}).encode())
    found.tool_calls()[0]["args"]["command"] = "rm -rf /"
    assert found.tool_calls()[0]["args"] == {"command": "ls"}


def test_no_transcript_is_not_an_empty_one(tmp_path):
    assert T.read_transcript(str(tmp_path / "missing.jsonl")) is None
    (tmp_path / "dir.jsonl").mkdir()
    assert T.read_transcript(str(tmp_path / "dir.jsonl")) is None
    os.mkfifo(tmp_path / "fifo.jsonl")
    assert T.read_transcript(str(tmp_path / "fifo.jsonl")) is None  # and it does not hang
    (tmp_path / "empty.jsonl").write_bytes(b"")
    empty = T.read_transcript(str(tmp_path / "empty.jsonl"))
    assert empty is not None and empty.human_messages() == [] and empty.tool_calls() == []


def test_session_keeps_the_path_of_an_unreadable_transcript(tmp_path):
    path = str(tmp_path / "gone.jsonl")
    assert claude_code.session_evidence(path) == {"evidencePath": path, "userMessages": [],
                                                  "toolCalls": []}


@settings(max_examples=150)
@given(st.lists(st.one_of(
    st.binary(max_size=40),
    st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=6),
                 lambda inner: st.lists(inner, max_size=3)
                 | st.dictionaries(st.sampled_from(["type", "origin", "message", "content",
                                                    "kind", "timestamp", "name", "input", "id",
                                                    "tool_use_id", "is_error"]), inner,
                                   max_size=4),
                 max_leaves=12).map(lambda v: json.dumps(v).encode()),
), max_size=8))
def test_any_bytes_parse_without_raising(lines):
    found = T.parse_transcript(b"\n".join(lines))
    for message in found.human_messages():
        assert isinstance(message["text"], str)
    for call in found.tool_calls():
        assert isinstance(call["name"], str) and isinstance(call["args"], dict)
        assert isinstance(call["succeeded"], bool)


# -- the sidecar channel ------------------------------------------------------------------------

def test_sidecar_records(tmp_path):
    transcript = tmp_path / "s1.jsonl"
    assert T.read_sidecar(str(transcript)) is None                     # no directory: absent
    assert T.read_sidecar("relative/s1.jsonl") is None                 # not absolute: absent
    records = tmp_path / "s1" / "subagents"
    records.mkdir(parents=True)
    assert T.read_sidecar(str(transcript)) == "[]"                     # observed: no spawn
    (records / "agent-b.meta.json").write_text('{"agentType": "b", "n": 1.5}')
    (records / "agent-a.meta.json").write_text('{"agentType": "a"}')
    (records / "agent-c.meta.json").write_text("{broken")
    (records / "agent-d.meta.json").mkdir()
    os.mkfifo(records / "agent-e.meta.json")
    (records / "other.json").write_text('{"agentType": "x"}')
    assert T.read_sidecar(str(transcript)) == '[{"agentType":"a"},{"agentType":"b","n":1.5}]'


def test_a_sidecar_that_cannot_be_listed_fails_closed(tmp_path, monkeypatch):
    (tmp_path / "s1" / "subagents").mkdir(parents=True)

    def denied(path):
        raise PermissionError(13, "Permission denied", path)

    monkeypatch.setattr(T.os, "scandir", denied)
    with pytest.raises(T.SidecarUnreadable):
        T.read_sidecar(str(tmp_path / "s1.jsonl"))
    from polydeukes.stdlib.adapters.runner import PreSpawnFailure

    with pytest.raises(PreSpawnFailure, match="^the session evidence could not be gathered "
                                              r"\(Permission denied\)$"):
        claude_code.session_evidence(str(tmp_path / "s1.jsonl"))
