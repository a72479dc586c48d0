"""A test case's call -> the exact input `pdks covenant check` would receive from its host.

Session forms (`edit`, `write`, `bash`) are turned into what Claude Code's hook sends: the case's
files (and the file's `before`) are written into the case's own scratch working tree, its
session evidence into a real JSONL transcript and sidecar beside it, and the PreToolUse payload
goes through the Claude Code translation (`translate`), which reads the pre-state and the
transcript from disk as the hook does. So a case is judged on the IR the host would produce,
absolute paths and session included. `delete` and `diff` are the change-set surface: a diff text,
translated by `pdks covenant check --diff` itself. `ir` is passed through as written.

Claude Code's own rules (the payload, the post-states, the transcript) come from
polydeukes.claude_code, the one place the author tools know that host.
"""

from __future__ import annotations

import json
import os
import time

from polydeukes.casefile import Case, age_ms
from polydeukes.claude_code import ADAPTER, PreSpawnFailure, translate



class Expanded:
    """What one case hands the judge: stdin bytes, the surface, and its working tree."""

    def __init__(self, raw: bytes, diff: bool, root: str) -> None:
        self.raw = raw
        self.diff = diff
        self.root = root


def expand(case: Case, root: str, now_ms: int | None = None, *, sessions: str,
           session_id: str = "covenant-test") -> Expanded:
    """Materialize the case under `root` (an empty scratch directory) and build its input; its
    transcript is `<sessions>/<session_id>.jsonl`, outside the project as Claude Code keeps it."""
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
    payload = {"hook_event_name": "PreToolUse", "session_id": session_id, "cwd": root,
               "transcript_path": write_session(case, sessions, session_id, now_ms)}
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
    try:
        ir = translate(json.dumps(payload).encode("utf-8"), root)
    except PreSpawnFailure as exc:
        # What the hook pipes instead of an IR (stdlib/adapters/runner.py): the judge fails
        # closed on it.
        return Expanded(f"{ADAPTER} failed before spawn: {exc}\n".encode("utf-8"), False, root)
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


def write_session(case: Case, directory: str, session_id: str, now_ms: int) -> str:
    """The case's session as Claude Code records it; returns the transcript's absolute path."""
    os.makedirs(directory, exist_ok=True)
    transcript = os.path.join(directory, session_id + ".jsonl")
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
        agents = os.path.join(directory, session_id, "subagents")
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
