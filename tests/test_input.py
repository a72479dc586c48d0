"""The IR protocol through the real command: refusals (spec 01 §4–§5) and accepted inputs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

import golden

from polydeukes.vm.ir import CovenantInput, Delete, all_file_changes, parse_input

CASES = yaml.safe_load((Path(__file__).parent / "cases/input/refusals.yaml").read_text("utf-8"))
CONFIG = "protectedPaths: ['.claude/hooks']\n"


def _stdin(case: dict) -> bytes:
    if "stdin_hex" in case:
        return bytes.fromhex(case["stdin_hex"])
    if "stdin" in case:
        return case["stdin"].encode("utf-8")
    return json.dumps(case["input"]).encode("utf-8")


@pytest.mark.parametrize("case", CASES, ids=[c["note"] for c in CASES])
def test_refusal_through_the_real_command(project, case):
    project.config(CONFIG)
    result = project.check(_stdin(case))
    assert result.code == 2
    assert result.stderr == f"covenant check failed closed: {case['want']}\n"
    assert result.stdout == ""
    assert result.rows == [["blocked", "covenant-check", "-"]]


def test_empty_tool_calls_is_an_explicit_pass_with_no_rows(project):
    project.config(CONFIG)
    result = project.check({"toolCalls": [], "subagentSpawns": [], "userMessages": []})
    assert (result.code, result.stderr, result.stdout, result.rows) == (0, "", "", [])


def test_a_schema_valid_input_with_every_key_is_accepted():
    payload = {
        "toolCalls": [
            {"name": "Write", "args": {"file_path": "a", "n": [1, {"x": None}]},
             "fileChange": {"kind": "create", "path": "a", "post": "x"}},
            {"name": "Bash", "args": {"command": "ls"}},
            {"name": "Delete", "fileChange": {"kind": "delete", "path": "b"}},
        ],
        "subagentSpawns": [{"kind": "explorer"}],
        "userMessages": [{"text": "hi"}],
        "actor": {},
        "tools": {"mutating": ["Write"], "shell": ["Bash"], "commandArgs": ["command"]},
        "session": {
            "userMessages": [{"text": "pdks witness", "timestampMs": 1700000000000}],
            "toolCalls": [{"name": "Bash", "args": {"command": "make"}, "succeeded": True}],
            "evidencePath": "/tmp/t.jsonl",
            "channels": {"sidecar": "[]"},
        },
    }
    value = parse_input(json.dumps(payload).encode())
    assert isinstance(value, CovenantInput)
    assert [fc.path for fc in all_file_changes(value)] == ["a", "b"]
    # Absent stays absent: the binary deletion has no pre, the empty actor is a statement.
    deletion = value.toolCalls[2].fileChange
    assert isinstance(deletion, Delete) and "pre" not in json.loads(_encode(deletion))
    assert value.actor is not None and json.loads(_encode(value.actor)) == {}


def test_duplicate_keys_keep_the_last_value_like_json_parse():
    value = parse_input(b'{"toolCalls": 1, "toolCalls": [], "subagentSpawns": [], "userMessages": []}')
    assert value.toolCalls == []


def _encode(value) -> str:
    import msgspec

    return msgspec.json.encode(value).decode()


def test_shipped_input_schema_matches_the_decoder():
    """The published schema is generated from the same Structs the decoder uses, so they agree."""
    import msgspec

    shipped = Path(__file__).parent.parent / "stdlib" / "schemas" / "covenant-input.schema.json"
    generated = {"$schema": "https://json-schema.org/draft/2020-12/schema",
                 "title": "CovenantInput", **msgspec.json.schema(CovenantInput)}
    golden.check(shipped, json.dumps(generated, indent=2, ensure_ascii=False) + "\n")
