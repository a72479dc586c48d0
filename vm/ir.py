"""The CovenantInput IR (spec 01 §2) and its decoder with the spec's refusals (§4, §5).

Every object is a closed msgspec Struct mirroring the published schema, so an input the schema
rejects is refused here too (spec 01 §4.4, a deliberate fail-closed tightening). Absent keys stay
absent (`UNSET`), distinct from empty values, and JSON `null` is never read as "absent".
"""

# No `from __future__ import annotations`: msgspec builds the input decoder on every check, and
# string annotations would make it evaluate each field's type by name (~0.4 ms of start-up).

import sys
from typing import Any, Union

import msgspec
from msgspec import UNSET, UnsetType

# -- the IR -------------------------------------------------------------------------------------


class _Closed(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True, frozen=True):
    pass


class Create(_Closed, tag_field="kind", tag="create"):
    path: str
    post: str


class Modify(_Closed, tag_field="kind", tag="modify"):
    path: str
    pre: str
    post: str


class Delete(_Closed, tag_field="kind", tag="delete"):
    path: str
    # Absent when the removed baseline was binary: a deletion needs no content to be judged.
    pre: str | UnsetType = UNSET


# A closed arm per kind makes the impossible states (a creation with a `pre`, a deletion with a
# `post`, an unknown kind) schema-invalid rather than something to check later.
FileChange = Union[Create, Modify, Delete]


class ToolCall(_Closed):
    name: str
    args: dict[str, Any] | UnsetType = UNSET
    fileChange: FileChange | UnsetType = UNSET
    # (Python design, beyond spec 01) The directory the host runs the call in, absolute, where
    # it says so: a shell whose `cd` persists between calls runs the next command there, so the
    # shell axis reads its relative paths from it. Absent: the project root.
    cwd: str | UnsetType = UNSET


class SubagentSpawn(_Closed):
    kind: str


class UserMessage(_Closed):
    text: str


class Actor(_Closed):
    agentType: str | UnsetType = UNSET


class Channels(_Closed):
    sidecar: str | UnsetType = UNSET


class World(_Closed):
    files: dict[str, str] | UnsetType = UNSET
    changes: list[str] | UnsetType = UNSET
    channels: Channels | UnsetType = UNSET


class ToolRoster(_Closed):
    mutating: list[str]
    shell: list[str]
    commandArgs: list[str]


class SessionMessage(_Closed):
    text: str
    timestampMs: int | float | UnsetType = UNSET


class SessionToolCall(_Closed):
    name: str
    args: dict[str, Any] | UnsetType = UNSET
    # Three-valued: absent means the host cannot observe outcomes; only True is precedent.
    succeeded: bool | UnsetType = UNSET


class Session(_Closed):
    userMessages: list[SessionMessage]
    toolCalls: list[SessionToolCall]
    evidencePath: str | UnsetType = UNSET
    channels: Channels | UnsetType = UNSET


class CovenantInput(_Closed):
    toolCalls: list[ToolCall]
    subagentSpawns: list[SubagentSpawn]
    userMessages: list[UserMessage]
    actor: Actor | UnsetType = UNSET
    world: World | UnsetType = UNSET
    tools: ToolRoster | UnsetType = UNSET
    session: Session | UnsetType = UNSET


def all_file_changes(value: CovenantInput) -> list[FileChange]:
    """Every call's fileChange in call order; a call without evidence contributes nothing."""
    return [call.fileChange for call in value.toolCalls if call.fileChange is not UNSET]


# -- decoding -----------------------------------------------------------------------------------

_DECODER = msgspec.json.Decoder(CovenantInput)
_GENERIC = msgspec.json.Decoder()

NOT_AN_OBJECT = "input is not a JSON object"
WORLD_KEY = "input carries a world key: the world axis is the runner\u2019s"
NO_LIST = "input carries no {key} array"
BAD_ACTOR = "input carries an actor that is not an object with at most a string agentType"
TOOLS_NOT_OBJECT = "input carries a tools key that is not an object"
NO_TOOLS_LIST = "input carries no tools.{key} array"
NON_STRING_TOOL = "input carries a non-string name in tools.{key}"
SHELL_WITHOUT_ARGS = "input carries tools.shell without a tools.commandArgs key to read"
SESSION_NOT_OBJECT = "input carries a session key that is not an object"
NO_SESSION_LIST = "input carries no session.{key} array"
EVIDENCE_PATH = "input carries a session.evidencePath that is not a string"
SESSION_CHANNELS = "input carries a session.channels that is not an object"
SESSION_SIDECAR = "input carries a session.channels.sidecar that is not text"
SCHEMA_MISMATCH = "input does not match the CovenantInput schema: {detail}"
# (Python design) The decoder recurses once per level of nesting; the bound is explicit, so the
# refusal names a true limit whatever the caller's own stack depth, and everything downstream
# that walks a value recursively has room to do so.
INPUT_DEPTH = 256
TOO_DEEP = "the input nests deeper than {depth} levels"


class InputRefused(Exception):
    """A refusal of spec 01 §4/§5; ``str(e)`` is the message after `failed closed: `."""


def parse_input(raw: bytes) -> CovenantInput:
    """Decode stdin bytes into the IR the runner judges, or raise InputRefused.

    The typed decode is tried first (one pass for every valid input); only a failure pays for
    the generic decode that finds which of the spec's ordered refusals applies.
    """
    try:
        value = _bounded(_DECODER.decode, raw)
    except (msgspec.DecodeError, ValueError):
        value = _decode_slowly(raw)
    # Checks the typed decode cannot express, in the spec's order.
    if value.world is not UNSET:
        raise InputRefused(WORLD_KEY)
    if value.tools is not UNSET and value.tools.shell and not value.tools.commandArgs:
        raise InputRefused(SHELL_WITHOUT_ARGS)
    return value


def _bounded(decode, raw: bytes):
    """`decode(raw)` allowed exactly INPUT_DEPTH levels of nesting beyond this frame.

    Python's recursion limit is what bounds msgspec's recursion; setting it relative to the
    current depth makes the bound the same for a CLI run and an in-process caller."""
    depth, frame = 0, sys._getframe()
    while frame is not None:
        depth += 1
        frame = frame.f_back
    previous = sys.getrecursionlimit()
    sys.setrecursionlimit(depth + INPUT_DEPTH + 1)  # + 1: the decoder's own call
    try:
        return decode(raw)
    except RecursionError:
        raise InputRefused(TOO_DEEP.format(depth=INPUT_DEPTH)) from None
    finally:
        sys.setrecursionlimit(previous)


def _decode_slowly(raw: bytes) -> CovenantInput:
    try:
        data = _bounded(_GENERIC.decode, raw)
    except (msgspec.DecodeError, ValueError):
        raise InputRefused(NOT_AN_OBJECT) from None
    refusal = _named_refusal(data)
    if refusal is not None:
        raise InputRefused(refusal)
    try:
        # A duplicate key keeps its last value (as JSON.parse does), which the streaming typed
        # decode cannot promise; converting the generic value settles such inputs.
        return msgspec.convert(data, CovenantInput)
    except msgspec.ValidationError as exc:
        # The grey zone (spec 01 §4.4): schema-invalid, not covered by a named refusal.
        raise InputRefused(SCHEMA_MISMATCH.format(detail=str(exc))) from None


def _named_refusal(data: object) -> str | None:
    """The first of spec 01 §4.2 / §5's refusals that applies, in their order."""
    if not isinstance(data, dict):
        return NOT_AN_OBJECT
    for key in ("toolCalls", "subagentSpawns", "userMessages"):
        if not isinstance(data.get(key), list):
            return NO_LIST.format(key=key)
    if "world" in data:
        return WORLD_KEY
    if "actor" in data:
        actor = data["actor"]
        if not isinstance(actor, dict) or any(k != "agentType" for k in actor):
            return BAD_ACTOR
        if "agentType" in actor and not isinstance(actor["agentType"], str):
            return BAD_ACTOR
    if "tools" in data:
        tools = data["tools"]
        if not isinstance(tools, dict):
            return TOOLS_NOT_OBJECT
        for key in ("mutating", "shell", "commandArgs"):
            if not isinstance(tools.get(key), list):
                return NO_TOOLS_LIST.format(key=key)
            if any(not isinstance(name, str) for name in tools[key]):
                return NON_STRING_TOOL.format(key=key)
        if tools["shell"] and not tools["commandArgs"]:
            return SHELL_WITHOUT_ARGS
    if "session" in data:
        session = data["session"]
        if not isinstance(session, dict):
            return SESSION_NOT_OBJECT
        for key in ("userMessages", "toolCalls"):
            if not isinstance(session.get(key), list):
                return NO_SESSION_LIST.format(key=key)
        if "evidencePath" in session and not isinstance(session["evidencePath"], str):
            return EVIDENCE_PATH
        if "channels" in session:
            channels = session["channels"]
            if not isinstance(channels, dict):
                return SESSION_CHANNELS
            if "sidecar" in channels and not isinstance(channels["sidecar"], str):
                return SESSION_SIDECAR
    return None
