"""A test case's call -> the exact input `pdks covenant check` would receive from its host.

Session forms (`edit`, `write`, `bash`) are turned into what Claude Code's hook sends: the case's
files (and the file's `before`) are written into the case's own scratch working tree, its
session evidence into a real JSONL transcript and sidecar beside it, and the PreToolUse payload
goes through the Claude Code translation (`translate`), which reads the pre-state and the
transcript from disk as the hook does. So a case is judged on the IR the host would produce,
absolute paths and session included. `delete` and `diff` are the change-set surface: a diff text,
translated by `pdks covenant check --diff` itself. `ir` is passed through as written.

`translate` below is the one place that knows Claude Code; it follows spec 07 §2.2–§2.4 until
the Claude Code adapter (stdlib/adapters/claude_code.py) is on main, and is then that adapter's.
"""

from __future__ import annotations

import json
import os
import time

from polydeukes.casefile import Case, Said, age_ms

SESSION_ID = "covenant-test"  # the transcript is <root>/.session/<id>.jsonl


class Expanded:
    """What one case hands the judge: stdin bytes, the surface, and its working tree."""

    def __init__(self, raw: bytes, diff: bool, root: str) -> None:
        self.raw = raw
        self.diff = diff
        self.root = root


def expand(case: Case, root: str, now_ms: int | None = None) -> Expanded:
    """Materialize the case under `root` (an empty scratch directory) and build its input."""
    now_ms = time.time_ns() // 1_000_000 if now_ms is None else now_ms
    for path, text in case.files.items():
        _write(root, path, text)
    form = case.form()
    if form == "diff":
        return Expanded(case.diff.encode("utf-8"), True, root)
    if form == "delete":
        return Expanded(deletion_diff(case.delete.path, case.delete.before).encode("utf-8"),
                        True, root)
    if form == "ir":
        return Expanded(json.dumps(case.ir, ensure_ascii=False).encode("utf-8"), False, root)
    payload = {"hook_event_name": "PreToolUse", "session_id": SESSION_ID, "cwd": root,
               "transcript_path": write_session(case, root, now_ms)}
    if case.actor is not None:
        payload["agent_type"] = case.actor
    if form == "bash":
        payload.update(tool_name="Bash", tool_input={"command": case.bash})
    elif form == "write":
        call = case.write
        if call.before is not None:
            _write(root, call.path, call.before)
        payload.update(tool_name="Write", tool_input={
            "file_path": os.path.join(root, call.path), "content": call.content})
    else:
        call = case.edit
        if call.before is not None:
            _write(root, call.path, call.before)
        payload.update(tool_name="Edit", tool_input=_edit_input(call, root))
    ir = translate(json.dumps(payload).encode("utf-8"), root)
    return Expanded(json.dumps(ir, ensure_ascii=False).encode("utf-8"), False, root)


def _edit_input(call, root: str) -> dict:
    args = {"file_path": os.path.join(root, call.path)}
    if call.after is not None:
        args["old_string"], args["new_string"] = replacement(call.before or "", call.after)
    else:
        args["old_string"], args["new_string"] = call.old or "", call.new or ""
        if call.replace_all is not None:
            args["replace_all"] = call.replace_all
    return args


def replacement(before: str, after: str) -> tuple[str, str]:
    """The Edit that turns `before` into `after`: the differing middle, widened until its old
    side is non-empty and occurs exactly once in `before` (as Claude Code's Edit requires)."""
    start = 0
    limit = min(len(before), len(after))
    while start < limit and before[start] == after[start]:
        start += 1
    end = 0
    while end < limit - start and before[-1 - end] == after[-1 - end]:
        end += 1
    old_end, new_end = len(before) - end, len(after) - end
    while True:
        old = before[start:old_end]
        # The host counts non-overlapping occurrences and replaces the first: the one at
        # `start` must be the only one it sees.
        if old and before.count(old) == 1 and before.find(old) == start:
            return old, after[start:new_end]
        if start > 0:
            start -= 1
        elif old_end < len(before):
            old_end += 1
            new_end += 1
        else:
            return old, after[start:new_end]  # before is empty: no Edit can make after


def deletion_diff(path: str, before: str) -> str:
    """The staged diff of deleting `path` whose text was `before` (git's own shape)."""
    lines = before.split("\n")
    complete = before.endswith("\n")
    if complete:
        lines.pop()
    body = "".join(f"-{line}\n" for line in lines)
    if lines and not complete:
        body += "\\ No newline at end of file\n"
    hunk = f"@@ -1,{len(lines)} +0,0 @@\n" if lines else ""
    return (f"diff --git a/{path} b/{path}\ndeleted file mode 100644\n--- a/{path}\n"
            f"+++ /dev/null\n{hunk}{body}")


def write_session(case: Case, root: str, now_ms: int) -> str:
    """The case's session as Claude Code records it; returns the transcript's absolute path."""
    directory = os.path.join(root, ".session")
    os.makedirs(directory, exist_ok=True)
    transcript = os.path.join(directory, SESSION_ID + ".jsonl")
    entries = []
    for said in case.user_says:
        text, ago = (said, 0) if isinstance(said, str) else (said.text, age_ms(said.ago))
        entries.append({"type": "user", "origin": {"kind": "human"},
                        "message": {"role": "user", "content": text},
                        "timestamp": _iso(now_ms - ago)})
    stamp = _iso(now_ms)
    for index, call in enumerate(case.prior_calls):
        use_id = f"toolu_{index:04d}"
        entries.append({"type": "assistant", "timestamp": stamp, "message": {
            "role": "assistant",
            "content": [{"type": "tool_use", "id": use_id, "name": call.name, "input": call.args}],
        }})
        if call.succeeded is not None:
            entries.append({"type": "user", "timestamp": stamp, "message": {
                "role": "user",
                "content": [{"type": "tool_result", "tool_use_id": use_id,
                             "is_error": not call.succeeded, "content": ""}],
            }})
    with open(transcript, "w", encoding="utf-8") as handle:
        handle.write("".join(json.dumps(entry, ensure_ascii=False) + "\n" for entry in entries))
    if case.spawns:
        agents = os.path.join(directory, SESSION_ID, "subagents")
        os.makedirs(agents, exist_ok=True)
        for index, spawn in enumerate(case.spawns):
            record = {"agentType": spawn} if isinstance(spawn, str) else spawn
            with open(os.path.join(agents, f"agent-{index:04d}.meta.json"), "w",
                      encoding="utf-8") as handle:
                json.dump(record, handle, ensure_ascii=False)
    return transcript


def _iso(ms: int) -> str:
    from polydeukes.vm.telemetry import timestamp

    return timestamp(ms)


def _write(root: str, path: str, text: str) -> None:
    full = os.path.join(root, path)
    os.makedirs(os.path.dirname(full) or root, exist_ok=True)
    with open(full, "w", encoding="utf-8", newline="") as handle:
        handle.write(text)


# -- Claude Code (spec 07 §2.2–§2.4), until stdlib/adapters/claude_code.py is on main -----------

ROSTER = {"mutating": ["Edit", "Write", "MultiEdit", "NotebookEdit"], "shell": ["Bash"],
          "commandArgs": ["command"]}


def translate(raw: bytes, root: str) -> dict:
    """A PreToolUse payload -> the IR Claude Code's hook sends (the shapes this module writes:
    Edit, Write, Bash; a transcript of human messages, tool uses and results; the sidecar)."""
    payload = json.loads(raw)
    name, args = payload["tool_name"], payload["tool_input"]
    call = {"name": name, "args": args}
    change = _file_change(name, args)
    if change is not None:
        call["fileChange"] = change
    agent_type = payload.get("agent_type")
    ir = {"toolCalls": [call], "subagentSpawns": [], "userMessages": [],
          "actor": {"agentType": agent_type} if isinstance(agent_type, str) and agent_type else {},
          "tools": ROSTER}
    if isinstance(payload.get("transcript_path"), str):
        ir["session"] = _session(payload["transcript_path"])
    return ir


def _file_change(name: str, args: dict) -> dict | None:
    if name not in ("Edit", "Write"):
        return None
    path = args["file_path"]
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            pre = handle.read()
    except FileNotFoundError:
        pre = None
    if name == "Write":
        post = args["content"]
    else:
        post = edit_post(pre, args)
        if post is None:
            return None  # the tool would reject the edit: no evidence
    if pre is None:
        return {"kind": "create", "path": path, "post": post}
    return {"kind": "modify", "path": path, "pre": pre, "post": post}


def edit_post(pre: str | None, args: dict) -> str | None:
    old, new = args.get("old_string"), args.get("new_string")
    replace_all = args.get("replace_all", False)
    if pre is None or not isinstance(old, str) or not isinstance(new, str) or not old:
        return None
    if old == new or not isinstance(replace_all, bool):
        return None
    count = pre.count(old)
    if count == 0 or (count > 1 and not replace_all):
        return None
    return pre.replace(old, new) if replace_all else pre.replace(old, new, 1)


def _session(transcript_path: str) -> dict:
    session: dict = {"evidencePath": transcript_path, "userMessages": [], "toolCalls": []}
    outcomes: dict[str, bool] = {}
    calls = []
    with open(transcript_path, encoding="utf-8") as handle:
        for line in handle:
            entry = json.loads(line)
            content = entry["message"]["content"]
            if entry["type"] == "user" and isinstance(content, str):
                message = {"text": content}
                stamp = _epoch_ms(entry.get("timestamp"))
                if stamp is not None:
                    message["timestampMs"] = stamp
                session["userMessages"].append(message)
            elif entry["type"] == "user":
                for block in content:
                    outcomes.setdefault(block["tool_use_id"], block.get("is_error", False) is False)
            else:
                for block in content:
                    calls.append((block["id"], {"name": block["name"], "args": block["input"]}))
    for use_id, call in calls:
        call["succeeded"] = outcomes.get(use_id, False)
        session["toolCalls"].append(call)
    sidecar = os.path.join(transcript_path[:-len(".jsonl")], "subagents")
    if os.path.isdir(sidecar):
        records = []
        for name in sorted(os.listdir(sidecar)):
            with open(os.path.join(sidecar, name), encoding="utf-8") as handle:
                records.append(json.load(handle))
        session["channels"] = {"sidecar": json.dumps(records, separators=(",", ":"),
                                                     ensure_ascii=False)}
    return session


def _epoch_ms(value: str | None) -> int | None:
    from datetime import datetime, timedelta, timezone

    if not isinstance(value, str):
        return None
    parsed = datetime.fromisoformat(value)
    return (parsed - datetime(1970, 1, 1, tzinfo=timezone.utc)) // timedelta(milliseconds=1)
