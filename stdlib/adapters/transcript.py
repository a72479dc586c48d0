"""Claude Code's session evidence: the JSONL transcript and the sidecar channel (spec 07 §2.4).

The transcript is what the witness valve and every history declaration read, so who said what
must be proven, not guessed: a message counts as human only by positive identification
(`type: "user"`, `origin.kind: "human"`, string content). Tool results, task notifications and
origin-less wrappers never reach `userMessages`, whatever text they carry.

Hot path: msgspec and the standard library; every file goes through vm.safeio.read_regular, so
a FIFO or device planted where the transcript should be reads as "no transcript" instead of
hanging the hook.
"""

from __future__ import annotations

import os
from typing import Any

import msgspec

from polydeukes.vm.safeio import MiB, read_regular

# Long sessions write tens of MiB; a transcript past this bound reads as "no transcript" (the
# valve stays shut and history declarations see no session: the closed side).
TRANSCRIPT_LIMIT = 256 * MiB
SIDECAR_RECORD_LIMIT = 4 * MiB


class _Entry(msgspec.Struct):
    """The four fields the reader looks at; msgspec skips every other field without building it."""

    type: Any = None
    origin: Any = None
    message: Any = None
    timestamp: Any = None


_ENTRY = msgspec.json.Decoder(_Entry)
_JSON = msgspec.json.Decoder()


class Transcript:
    """One pass over a transcript: an immutable snapshot; every query returns a fresh copy."""

    def __init__(self, human: list[dict], calls: list[dict], subagents: list[str]) -> None:
        self._human = human
        self._calls = calls
        self._subagents = subagents

    def human_messages(self) -> list[dict]:
        """`{text, timestampMs?}` per human-typed message, in order."""
        return [dict(m) for m in self._human]

    def tool_calls(self, name: str | None = None) -> list[dict]:
        """`{name, args, succeeded}` per tool call, in observation order (optionally one name)."""
        return [{"name": c["name"], "args": dict(c["args"]), "succeeded": c["succeeded"]}
                for c in self._calls if name is None or c["name"] == name]

    def subagent_invocations(self) -> list[dict]:
        """`{kind}` per spawn, keyed on `input.subagent_type` (the host renamed Task to Agent)."""
        return [{"kind": kind} for kind in self._subagents]


def read_transcript(path: str) -> Transcript | None:
    """The transcript at `path`, or None for "no transcript" (missing, unreadable, a directory,
    not a regular file, too large): distinct from an empty file, which is an empty transcript."""
    try:
        data = read_regular(path, limit=TRANSCRIPT_LIMIT)
    except OSError:
        return None
    return parse_transcript(data)


def parse_transcript(data: bytes) -> Transcript:
    human: list[dict] = []
    calls: list[dict] = []
    subagents: list[str] = []
    outcomes: dict[str, bool] = {}
    for line in data.split(b"\n"):
        if not line.strip():
            continue
        try:
            entry = _ENTRY.decode(line)
        except (msgspec.DecodeError, msgspec.ValidationError):
            continue  # a broken or non-object line never aborts the scan
        message = entry.message
        content = message.get("content") if isinstance(message, dict) else None
        if entry.type == "user":
            origin = entry.origin
            typed = isinstance(origin, dict) and origin.get("kind") == "human"
            if isinstance(content, str) and typed:
                stamp = timestamp_ms(entry.timestamp)
                human.append({"text": content} if stamp is None
                             else {"text": content, "timestampMs": stamp})
            elif isinstance(content, list):
                _collect_outcomes(content, outcomes)
        elif entry.type == "assistant" and isinstance(content, list):
            for block in content:
                if (isinstance(block, dict) and block.get("type") == "tool_use"
                        and isinstance(block.get("name"), str)):
                    args = block.get("input")
                    args = args if isinstance(args, dict) else {}
                    calls.append({"name": block["name"], "args": args, "id": block.get("id")})
                    if isinstance(args.get("subagent_type"), str):
                        subagents.append(args["subagent_type"])
    for call in calls:
        # Proven only by a result: no result found is `false`, never absent.
        call_id = call.pop("id")
        call["succeeded"] = isinstance(call_id, str) and outcomes.get(call_id, False)
    return Transcript(human, calls, subagents)


def _collect_outcomes(content: list, outcomes: dict[str, bool]) -> None:
    for block in content:
        if (isinstance(block, dict) and block.get("type") == "tool_result"
                and isinstance(block.get("tool_use_id"), str)):
            # The first result for an id wins; success iff is_error is absent or exactly false.
            outcomes.setdefault(block["tool_use_id"], block.get("is_error", False) is False)


def timestamp_ms(value: object) -> int | None:
    """Epoch milliseconds of an ISO-8601 timestamp with an explicit offset (`Z` or `±hh:mm`).

    Anything else is None: a message whose freshness cannot be proven never opens the valve.
    """
    if not isinstance(value, str) or not value:
        return None
    from datetime import datetime, timedelta, timezone  # only a human message pays for it

    try:
        parsed = datetime.fromisoformat(value)
    except ValueError:
        return None
    if parsed.tzinfo is None:
        return None  # a local time names no instant
    # Whole milliseconds, truncated like Date.parse; exact (no float rounding).
    return (parsed - datetime(1970, 1, 1, tzinfo=timezone.utc)) // timedelta(milliseconds=1)


class SidecarUnreadable(Exception):
    """The sidecar directory exists but cannot be listed or a record cannot be read."""


def read_sidecar(transcript_path: str) -> str | None:
    """The spawn-record channel of an absolute transcript `<dir>/<session>.jsonl`: the parsed
    `<dir>/<session>/subagents/agent-*.meta.json` records, sorted by name, as one JSON array
    text. None when the channel is absent (relative path, no such directory); `"[]"` when the
    directory exists and is empty (observed: no spawn). A record that fails to parse or
    vanished is skipped; any other failure raises SidecarUnreadable (fail closed)."""
    if not os.path.isabs(transcript_path):
        return None
    base = transcript_path.removesuffix(".jsonl")
    directory = os.path.join(base, "subagents")
    try:
        with os.scandir(directory) as listing:
            names = sorted(entry.name for entry in listing
                           if entry.name.startswith("agent-") and entry.name.endswith(".meta.json")
                           and entry.is_file())
    except (FileNotFoundError, NotADirectoryError):
        return None
    except OSError as exc:
        raise SidecarUnreadable(exc.strerror or str(exc)) from None
    records = []
    for name in names:
        try:
            data = read_regular(os.path.join(directory, name), limit=SIDECAR_RECORD_LIMIT)
        except FileNotFoundError:
            continue  # vanished between listing and reading
        except PermissionError as exc:
            raise SidecarUnreadable(f"{exc.strerror}: '{exc.filename}'") from None
        except OSError:
            continue  # no longer a regular file, or oversized: not a record
        try:
            records.append(_JSON.decode(data))
        except msgspec.DecodeError:
            continue
    return msgspec.json.encode(records).decode("utf-8")
