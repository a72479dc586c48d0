"""Claude Code as the rule-author tools need it: payload -> IR, post-states, the transcript.

`pdks test` expands its shorthands into what Claude Code's hook sends (polydeukes.shorthand),
and `pdks replay` rebuilds recorded calls from Claude Code transcripts (polydeukes.replay);
both go through this module only. It implements spec 07 §2.2–§2.4 with the names and shapes of
the Claude Code adapter (stdlib/adapters/claude_code.py, evidence.py, transcript.py) so that,
once that adapter is on main, this module becomes a list of re-exports of it.
"""

from __future__ import annotations

import os
from datetime import datetime, timedelta, timezone
from typing import Any

import msgspec

ROSTER = {"mutating": ["Edit", "Write", "MultiEdit", "NotebookEdit"], "shell": ["Bash"],
          "commandArgs": ["command"]}


class PreSpawnFailure(Exception):
    """The hook could not build an IR; ``str(e)`` is the reason it would report."""


# -- post-states (spec 07 §2.3) --------------------------------------------------------------


def file_change(path: str, pre: str | None, post: str) -> dict:
    """A creation when there was no pre-state, else a modification."""
    if pre is None:
        return {"kind": "create", "path": path, "post": post}
    return {"kind": "modify", "path": path, "pre": pre, "post": post}


def apply_edit(text: str, edit: dict) -> str | None:
    """One `old_string` -> `new_string` under the Edit rules (literal, unique unless
    `replace_all`), or None where the tool would refuse the edit."""
    old, new = edit.get("old_string"), edit.get("new_string")
    if not isinstance(old, str) or not isinstance(new, str) or old == "" or old == new:
        return None
    replace_all = edit.get("replace_all", False)
    if not isinstance(replace_all, bool):
        return None
    count = text.count(old)
    if count == 0 or (count > 1 and not replace_all):
        return None
    return text.replace(old, new) if replace_all else text.replace(old, new, 1)


def edit_post(pre: str | None, args: dict) -> str | None:
    return None if pre is None else apply_edit(pre, args)


def multi_edit_post(pre: str | None, args: dict) -> str | None:
    """Every edit in order, each on the previous result; with no pre-state the first edit's
    empty `old_string` seeds the new file with its `new_string`. All or nothing."""
    edits = args.get("edits")
    if not isinstance(edits, list) or not edits or not all(isinstance(e, dict) for e in edits):
        return None
    text, rest = pre, edits
    if text is None:
        first = edits[0]
        if first.get("old_string") != "" or not isinstance(first.get("new_string"), str):
            return None
        text, rest = first["new_string"], edits[1:]
    for edit in rest:
        text = apply_edit(text, edit)
        if text is None:
            return None
    return text


def post_state(name: str, args: dict, pre: str | None) -> str | None:
    """What Write, Edit or MultiEdit would leave in a file whose text is `pre` (None: absent)."""
    if name == "Write":
        content = args.get("content")
        return content if isinstance(content, str) else None
    if name == "Edit":
        return edit_post(pre, args)
    if name == "MultiEdit":
        return multi_edit_post(pre, args)
    return None


def notebook_change(args: dict, notebook_text: str | None) -> dict | None:
    """NotebookEdit: the target cell's source before and after (not the notebook's JSON)."""
    path, new_source = args.get("notebook_path"), args.get("new_source")
    if not isinstance(path, str) or not path or not isinstance(new_source, str):
        return None
    try:
        notebook = msgspec.json.decode(notebook_text) if notebook_text is not None else None
    except msgspec.DecodeError:
        return None
    cells = notebook.get("cells") if isinstance(notebook, dict) else None
    if not isinstance(cells, list):
        return None
    mode = args.get("edit_mode", "replace")
    if mode == "insert":
        if not isinstance(args.get("cell_type"), str):
            return None
        return {"kind": "modify", "path": path, "pre": "", "post": new_source}
    cell_id = args.get("cell_id")
    if mode not in ("replace", "delete") or not isinstance(cell_id, str):
        return None
    cell = next((c for c in cells if isinstance(c, dict) and c.get("id") == cell_id), None)
    source = cell.get("source") if cell is not None else None
    if isinstance(source, list) and all(isinstance(s, str) for s in source):
        source = "".join(source)
    if not isinstance(source, str):
        return None
    return {"kind": "modify", "path": path, "pre": source,
            "post": new_source if mode == "replace" else ""}


# -- the PreToolUse payload (spec 07 §2.2) ---------------------------------------------------


def _read_pre_state(path: str) -> str | None:
    try:
        with open(path, "rb") as handle:
            return handle.read().decode("utf-8", errors="replace")
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise PreSpawnFailure("the pre-state of the target could not be read "
                              f"({exc.strerror or exc})") from None


def translate(raw: bytes, root: str) -> dict:
    """A PreToolUse payload -> the IR Claude Code's hook sends (pre-states read from disk)."""
    try:
        payload = msgspec.json.decode(raw)
    except msgspec.DecodeError as exc:
        raise PreSpawnFailure(f"the payload is not JSON ({exc})") from None
    name = payload.get("tool_name") if isinstance(payload, dict) else None
    args = payload.get("tool_input") if isinstance(payload, dict) else None
    if not isinstance(name, str) or not isinstance(args, dict):
        raise PreSpawnFailure("the payload is not a PreToolUse envelope this adapter translates")
    call: dict[str, Any] = {"name": name, "args": args}
    change = None
    if name == "NotebookEdit":
        path = args.get("notebook_path")
        if isinstance(path, str) and path:
            change = notebook_change(args, _read_pre_state(path))
    elif name in ("Write", "Edit", "MultiEdit"):
        path = args.get("file_path")
        if isinstance(path, str) and path:
            pre = _read_pre_state(path)
            post = post_state(name, args, pre)
            change = None if post is None else file_change(path, pre, post)
    if change is not None:
        call["fileChange"] = change
    agent_type = payload.get("agent_type")
    ir: dict[str, Any] = {
        "toolCalls": [call], "subagentSpawns": [], "userMessages": [],
        "actor": {"agentType": agent_type} if isinstance(agent_type, str) and agent_type else {},
        "tools": ROSTER,
    }
    transcript_path = payload.get("transcript_path")
    if isinstance(transcript_path, str):
        ir["session"] = session_evidence(transcript_path)
    return ir


def session_evidence(transcript_path: str) -> dict:
    session: dict[str, Any] = {"evidencePath": transcript_path, "userMessages": [],
                               "toolCalls": []}
    try:
        with open(transcript_path, "rb") as handle:
            found = parse_transcript(handle.read())
    except OSError:
        found = None
    if found is not None:
        session["userMessages"] = found.human_messages()
        session["toolCalls"] = found.tool_calls()
    sidecar = read_sidecar(transcript_path)
    if sidecar is not None:
        session["channels"] = {"sidecar": sidecar}
    return session


# -- the transcript (spec 07 §2.4) -----------------------------------------------------------


class _Entry(msgspec.Struct):
    type: Any = None
    origin: Any = None
    message: Any = None
    timestamp: Any = None


_ENTRY = msgspec.json.Decoder(_Entry)


class Transcript:
    def __init__(self, human: list[dict], calls: list[dict]) -> None:
        self._human = human
        self._calls = calls

    def human_messages(self) -> list[dict]:
        return [dict(m) for m in self._human]

    def tool_calls(self, name: str | None = None) -> list[dict]:
        return [{"name": c["name"], "args": dict(c["args"]), "succeeded": c["succeeded"]}
                for c in self._calls if name is None or c["name"] == name]


def parse_transcript(data: bytes) -> Transcript:
    """Human messages by positive identification; tool calls with their proven outcomes."""
    human: list[dict] = []
    calls: list[dict] = []
    outcomes: dict[str, bool] = {}
    for line in data.split(b"\n"):
        if not line.strip():
            continue
        try:
            entry = _ENTRY.decode(line)
        except (msgspec.DecodeError, msgspec.ValidationError):
            continue
        content = entry.message.get("content") if isinstance(entry.message, dict) else None
        if entry.type == "user":
            origin = entry.origin
            if isinstance(content, str) and isinstance(origin, dict) and origin.get("kind") == "human":
                stamp = timestamp_ms(entry.timestamp)
                human.append({"text": content} if stamp is None
                             else {"text": content, "timestampMs": stamp})
            elif isinstance(content, list):
                for block in content:
                    if (isinstance(block, dict) and block.get("type") == "tool_result"
                            and isinstance(block.get("tool_use_id"), str)):
                        outcomes.setdefault(block["tool_use_id"],
                                            block.get("is_error", False) is False)
        elif entry.type == "assistant" and isinstance(content, list):
            for block in content:
                if (isinstance(block, dict) and block.get("type") == "tool_use"
                        and isinstance(block.get("name"), str)):
                    args = block.get("input")
                    calls.append({"name": block["name"],
                                  "args": args if isinstance(args, dict) else {},
                                  "id": block.get("id")})
    for call in calls:
        call_id = call.pop("id")
        call["succeeded"] = isinstance(call_id, str) and outcomes.get(call_id, False)
    return Transcript(human, calls)


def timestamp_ms(value: object) -> int | None:
    """Epoch milliseconds of an ISO-8601 instant with an explicit offset; else None."""
    if not isinstance(value, str) or not value:
        return None
    try:
        parsed = datetime.fromisoformat(value)
    except ValueError:
        return None
    if parsed.tzinfo is None:
        return None
    return (parsed - datetime(1970, 1, 1, tzinfo=timezone.utc)) // timedelta(milliseconds=1)


def read_sidecar(transcript_path: str) -> str | None:
    """`<dir>/<session>/subagents/agent-*.meta.json`, parsed and sorted, as one JSON array
    text; None when the directory is absent (or the path relative)."""
    if not os.path.isabs(transcript_path):
        return None
    base = transcript_path[:-len(".jsonl")] if transcript_path.endswith(".jsonl") else transcript_path
    directory = os.path.join(base, "subagents")
    try:
        names = sorted(name for name in os.listdir(directory)
                       if name.startswith("agent-") and name.endswith(".meta.json"))
    except (FileNotFoundError, NotADirectoryError):
        return None
    except OSError as exc:
        raise PreSpawnFailure("the session evidence could not be gathered "
                              f"({exc.strerror or exc})") from None
    records = []
    for name in names:
        try:
            with open(os.path.join(directory, name), "rb") as handle:
                records.append(msgspec.json.decode(handle.read()))
        except (OSError, msgspec.DecodeError):
            continue
    return msgspec.json.encode(records).decode("utf-8")
