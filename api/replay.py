"""`pdks replay`: judge recorded sessions against a candidate config, writing nothing.

Two kinds of recording, told apart by their first JSON line:

* an IR JSON-lines file (one CovenantInput per line, as a hook piped it): each line is judged
  as it is;
* a Claude Code transcript (spec 07 §2.4): every Edit, Write, MultiEdit, NotebookEdit and Bash
  call is rebuilt as the hook would have sent it at that point of the session — the session
  evidence recorded before it, the clock at its own timestamp (so the witness valve and ages
  read as they did), and the file's pre-state as far as it can be known.

Pre-states: the file on disk now is the state after the session's last applied change; each
applied Edit or MultiEdit is rolled back by inverting it (its new text back to its old text,
checked by re-applying the edit), and a Write's content is known forward. A call whose pre-state
cannot be known that way (the file was changed outside the session, an edit cannot be inverted
uniquely) is named `pre-state unknown`: a Write is judged as a creation — its `pre` absent, so
each declaration's supply policy decides, as for any absent source — and an edit, whose result
is unknown too, is judged without evidence, as the hook judges an edit it cannot prove.

Every judgment is the command's (polydeukes.judge.judge_in_process) at `--enforce block`, the
hooks' posture; nothing is written (no telemetry, no baseline, no plan).
"""

from __future__ import annotations

import json
import os
from typing import Any, Callable

import msgspec

from polydeukes import claude_code as CC
from polydeukes.judge import Row, judge_in_process

REPLAYED = ("Edit", "Write", "MultiEdit", "NotebookEdit", "Bash")
FILE_TOOLS = ("Edit", "Write", "MultiEdit")
RECORDING_LIMIT = 256 << 20  # a recording (an IR or a session transcript) read whole: 256 MiB
UNKNOWN = object()  # a pre-state that cannot be known (None is "the file did not exist")
COLUMNS = ("routed", "passed", "advised", "blocked", "witnessed", "skipped", "unjudgeable")


class ReplayError(Exception):
    """A recording that cannot be read; ``str(e)`` is the message."""


class Call:
    """One replayed call: where it was recorded, the input rebuilt for it, its clock."""

    def __init__(self, source: str, line: int, tool: str, path: str | None, raw: bytes,
                 clock_ms: int | None, unknown: str | None = None) -> None:
        self.source = source
        self.line = line
        self.tool = tool
        self.path = path
        self.raw = raw
        self.clock_ms = clock_ms
        self.unknown = unknown  # why the pre-state is unknown, or None
        self.rows: tuple[Row, ...] = ()
        self.exit_code = 0

    @property
    def where(self) -> str:
        return f"{self.source}:{self.line}"


# -- reading recordings ----------------------------------------------------------------------


def read_calls(path: str, root: str) -> list[Call]:
    from polydeukes.vm.safeio import read_regular, refusal_text

    try:  # a FIFO or a device named as a recording must not hang the replay
        data = read_regular(path, limit=RECORDING_LIMIT)
    except OSError as exc:
        raise ReplayError(f"cannot read {path}: {refusal_text(exc)}") from None
    lines = data.split(b"\n")
    first = next((line for line in lines if line.strip()), b"")
    try:
        head = msgspec.json.decode(first) if first else None
    except msgspec.DecodeError:
        head = None
    if isinstance(head, dict) and "toolCalls" in head:
        return [Call(path, number, "IR", None, line, None)
                for number, line in enumerate(lines, 1) if line.strip()]
    if isinstance(head, dict) and "type" in head:
        return transcript_calls(path, data, root)
    raise ReplayError(f"{path} is neither a Claude Code transcript nor IR JSON lines")


class _Stamp(msgspec.Struct):
    timestamp: Any = None


_STAMP = msgspec.json.Decoder(_Stamp)


def transcript_calls(path: str, data: bytes, root: str) -> list[Call]:
    """The replayed calls of one transcript, each with the session evidence before it."""
    lines = data.split(b"\n")
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line) + 1)
    # Which line each call of the transcript's observation order sits on (the reader counts
    # per line what it counts for the whole), and each call's proven outcome.
    located: list[tuple[int, int | None]] = []
    for number, line in enumerate(lines):
        count = len(CC.parse_transcript(line).tool_calls()) if b"tool_use" in line else 0
        if count:
            try:
                stamp = CC.timestamp_ms(_STAMP.decode(line).timestamp)
            except (msgspec.DecodeError, msgspec.ValidationError):
                stamp = None
            located.extend([(number, stamp)] * count)
    recorded = CC.parse_transcript(data).tool_calls()
    pre_states = _pre_states(recorded, root)
    transcript_path = os.path.abspath(path)
    try:
        sidecar = CC.read_sidecar(transcript_path)
    except CC.SidecarUnreadable as exc:
        raise ReplayError(f"cannot read the sidecar channel of {path}: {exc}") from None
    before: dict[int, CC.Transcript] = {}
    calls = []
    for index, ((number, stamp), call) in enumerate(zip(located, recorded)):
        if call["name"] not in REPLAYED:
            continue
        if number not in before:
            before[number] = CC.parse_transcript(data[:offsets[number]])
        history = before[number]
        session: dict[str, Any] = {"evidencePath": transcript_path,
                                   "userMessages": history.human_messages(),
                                   "toolCalls": history.tool_calls()}
        if sidecar is not None:
            session["channels"] = {"sidecar": sidecar}
        entry, unknown = _tool_call(call, pre_states.get(index, UNKNOWN), root)
        ir = {"toolCalls": [entry], "subagentSpawns": [], "userMessages": [], "actor": {},
              "tools": CC.ROSTER, "session": session}
        target = call["args"].get("file_path", call["args"].get("notebook_path"))
        calls.append(Call(path, number + 1, call["name"], _shown(target, root),
                          msgspec.json.encode(ir), stamp, unknown))
    return calls


def _shown(target: Any, root: str) -> str | None:
    """A call's target as the report names it: relative to the project when inside it."""
    if not isinstance(target, str):
        return None
    relative = os.path.relpath(os.path.join(root, target), root)
    return target if relative.startswith(os.pardir) else relative


def _tool_call(call: dict, pre: Any, root: str) -> tuple[dict, str | None]:
    """The IR call as the hook would have built it, and why its pre-state is unknown."""
    name, args = call["name"], call["args"]
    entry: dict[str, Any] = {"name": name, "args": args}
    if name == "Bash":
        return entry, None
    if name == "NotebookEdit":
        if pre is UNKNOWN:
            return entry, "the notebook changed later in the session"
        # Known only where no later call of the session touched it: it is the disk's, which
        # the adapter reads itself.
        change = CC.notebook_change(args, root)
    else:
        path = args.get("file_path")
        if not isinstance(path, str) or not path:
            return entry, None
        path = CC.judged_spelling(path, root)
        if pre is UNKNOWN:
            if name == "Write" and isinstance(args.get("content"), str):
                # Known result, unknown past: a world without `pre` (supply policies decide).
                entry["fileChange"] = {"kind": "create", "path": path, "post": args["content"]}
            return entry, "the file's text before this call is not known"
        post = CC.post_state(name, args, pre)
        change = None if post is None else CC.file_change(path, pre, post)
    if change is not None:
        entry["fileChange"] = change
    return entry, None


# -- pre-states ------------------------------------------------------------------------------


def _pre_states(calls: list[dict], root: str) -> dict[int, Any]:
    """Call index -> the target's text before the call (None: absent; UNKNOWN)."""
    by_file: dict[str, list[int]] = {}
    for index, call in enumerate(calls):
        key = call["args"].get("notebook_path") if call["name"] == "NotebookEdit" \
            else call["args"].get("file_path")
        if call["name"] in FILE_TOOLS + ("NotebookEdit",) and isinstance(key, str) and key:
            by_file.setdefault(os.path.normpath(os.path.join(root, key)), []).append(index)
    states: dict[int, Any] = {}
    for path, indices in by_file.items():
        states.update(_timeline(path, [(i, calls[i]) for i in indices]))
    return states


def _read(path: str) -> Any:
    """The file's text now, as the hook reads a pre-state (None: absent; UNKNOWN: unreadable)."""
    try:
        return CC.read_text(path)
    except CC.Unreadable:
        return UNKNOWN


def _timeline(path: str, calls: list[tuple[int, dict]]) -> dict[int, Any]:
    """One file's states between its calls: forward from what the session itself wrote,
    backward from the disk through the session's own applied edits."""
    applied = [(i, call) for i, call in calls if call["succeeded"]]
    # Backward: the state after each applied call, from the disk now.
    after: dict[int, Any] = {}
    state = _read(path)
    for i, call in reversed(applied):
        after[i] = state
        state = _invert(call, state)
    first_known = state  # the state before the first applied call
    # Forward: a Write fixes the state; every later applied call moves it on.
    forward: dict[int, Any] = {}
    state = UNKNOWN
    for i, call in applied:
        if call["name"] == "Write" and isinstance(call["args"].get("content"), str):
            state = call["args"]["content"]
        elif state is not UNKNOWN:
            moved = CC.post_state(call["name"], call["args"], state) \
                if call["name"] != "NotebookEdit" else UNKNOWN
            state = UNKNOWN if moved is None else moved
        forward[i] = state
    states: dict[int, Any] = {}
    current_back = first_known
    current_forward: Any = UNKNOWN
    for i, call in calls:
        states[i] = current_forward if current_forward is not UNKNOWN else current_back
        if call["succeeded"]:
            current_back = after[i]
            current_forward = forward[i]
    return states


def _invert(call: dict, post: Any) -> Any:
    """The text before an applied call whose result was `post`; UNKNOWN unless exactly one
    text re-applies to `post`."""
    name, args = call["name"], call["args"]
    if post is UNKNOWN or post is None or name in ("Write", "NotebookEdit"):
        return UNKNOWN
    if name == "Edit":
        edits = [args]
    else:
        edits = args.get("edits") if isinstance(args.get("edits"), list) else []
    text = post
    created = False
    for position in range(len(edits) - 1, -1, -1):
        edit = edits[position]
        old, new = edit.get("old_string"), edit.get("new_string")
        if not isinstance(old, str) or not isinstance(new, str):
            return UNKNOWN
        if name == "MultiEdit" and position == 0 and old == "":
            created = text == new  # the first edit seeded a new file with its new_string
            if not created:
                return UNKNOWN
            break
        # Only a `new` that occurs once, overlaps counted, is surely the one the edit wrote
        # (with replace_all, it then also replaced exactly one `old`).
        at = text.find(new) if new else -1
        if at < 0 or at != text.rfind(new):
            return UNKNOWN
        text = text[:at] + old + text[at + len(new):]
    candidate = None if created else text
    return candidate if CC.post_state(name, args, candidate) == post else UNKNOWN


# -- judging and the report -------------------------------------------------------------------


def replay(paths: list[str], root: str, plan_source: Callable) -> list[Call]:
    calls = [call for path in paths for call in read_calls(path, root)]
    for call in calls:
        clock = (lambda stamp=call.clock_ms: stamp) if call.clock_ms is not None else None
        verdict = judge_in_process(root, call.raw, plan_source=plan_source, enforce="block",
                                   clock=clock)
        call.rows, call.exit_code = verdict.rows, verdict.exit_code
    return calls


def outcome(row: Row) -> str:
    """The table column a row counts in."""
    if row.event == "blocked" and (row.message is None or " cannot judge " in row.message
                                   or row.label == "covenant-check"):
        return "unjudgeable"
    return row.event


def tally(calls: list[Call], only: str | None = None) -> dict[str, dict[str, int]]:
    table: dict[str, dict[str, int]] = {}
    for call in calls:
        for row in call.rows:
            if row.event == "unattributed" or (only is not None and row.label != only):
                continue
            counts = table.setdefault(row.label, dict.fromkeys(COLUMNS, 0))
            counts["routed"] += 1
            counts[outcome(row)] += 1
    return table


def findings(calls: list[Call], kinds: tuple[str, ...], only: str | None) -> list[dict]:
    found = []
    for call in calls:
        for row in call.rows:
            if outcome(row) in kinds and (only is None or row.label == only):
                found.append({"source": call.source, "line": call.line, "tool": call.tool,
                              "path": call.path, "label": row.label, "event": outcome(row),
                              "subject": row.subject, "message": row.message})
    return found


def report(calls: list[Call], *, config: str, only: str | None) -> dict:
    kinds = ("blocked", "advised") if only is not None else ("blocked",)
    return {
        "config": config, "enforce": "block", "calls": len(calls),
        "sources": sorted({call.source for call in calls}),
        "disciplines": tally(calls, only),
        "findings": findings(calls, kinds, only),
        "unknown": [{"source": call.source, "line": call.line, "tool": call.tool,
                     "path": call.path, "reason": call.unknown}
                    for call in calls if call.unknown is not None],
    }


def render(summary: dict) -> str:
    lines = [f"pdks replay — {summary['calls']} call(s) from {len(summary['sources'])} "
             f"recording(s), judged against {summary['config']} at --enforce block", ""]
    table = summary["disciplines"]
    width = max([len("discipline")] + [len(label) for label in table])
    lines.append("discipline".ljust(width) + "".join(f"{c:>12}" for c in COLUMNS))
    for label, counts in table.items():
        lines.append(label.ljust(width) + "".join(f"{counts[c]:>12}" for c in COLUMNS))
    for event, title in (("blocked", "would block"), ("advised", "would advise")):
        found = [f for f in summary["findings"] if f["event"] == event]
        if found:
            lines += ["", f"{title} ({len(found)}):"]
            lines += [f"  {f['source']}:{f['line']}  {f['tool']} {f['subject']}  {f['label']}: "
                      f"{f['message'] or '(no reason given)'}" for f in found]
    if summary["unknown"]:
        lines += ["", f"pre-state unknown ({len(summary['unknown'])}):"]
        lines += [f"  {u['source']}:{u['line']}  {u['tool']} {u['path']} — {u['reason']}"
                  for u in summary["unknown"]]
    return "\n".join(lines)


def main(root: str, paths: list[str], *, config: str | None, only: str | None, as_json: bool,
         out: Callable[[str], None], err: Callable[[str], None]) -> int:
    """0 when the recordings were judged (whatever the verdicts); 2 when they or the config
    cannot be used."""
    from polydeukes.testing import ConfigUnusable, Suite

    suite = Suite(root, config)
    try:
        plan = suite.plan(None)
    except ConfigUnusable as exc:
        err(f"pdks replay: {exc}")
        return 2
    finally:
        suite.close()
    for line in suite.faults:
        err(f"pdks replay: {line}")
    try:
        calls = replay(paths, root, lambda _root, _layer: plan)
    except ReplayError as exc:
        err(f"pdks replay: {exc}")
        return 2
    summary = report(calls, config=config or plan.config_name, only=only)
    out(json.dumps(summary, ensure_ascii=False, indent=2) if as_json else render(summary))
    return 0
