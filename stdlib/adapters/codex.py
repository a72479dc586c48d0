"""Codex: the PreToolUse payload as a CovenantInput IR (spec 07 §4, the 0.8.0 behaviour), and
its installer.

Console script `pdks-codex` (`init`, `hook`). Codex normalizes every file edit into the one
tool `apply_patch` whose patch text sits in `tool_input.command`; each file the patch changes
becomes its own tool call (one judgment, one set of rows per file; any block blocks the call).
Patch paths are relative to the call's `cwd`; the judge reads them relative to the project root,
so they are rebased, and a path outside the project refuses the whole call. The IR carries no
`session` and no `actor` (the host documents its transcript format as unstable): no witness
valve; a blocked intentional edit is made from the user's own terminal.

A shell call's own `workdir` is not in the payload (openai/codex#40348). It is read from the
session's rollout, where Codex records the call before it runs the hook; when the rollout does
not show the call, the command is allowed only pinned to the directory it was judged in: the
hook hands Codex the command behind a check that refuses to run it anywhere else (`updatedInput`,
which Codex applies since May 2026; an older release ignores it and runs the call unchanged).
"""

from __future__ import annotations

import os
import stat

import msgspec

from polydeukes.stdlib.adapters import evidence
from polydeukes.stdlib.adapters.runner import Host, PreSpawnFailure, decode_payload

# Every key Codex sends, even those no judgment reads: a payload missing one is not the shape
# this adapter was written against.
REQUIRED_KEYS = ("cwd", "hook_event_name", "model", "permission_mode", "session_id",
                 "tool_input", "tool_name", "tool_use_id", "transcript_path", "turn_id")
PATCH_TOOL = "apply_patch"
TIMEOUT_SECONDS = 60

NOT_AN_OBJECT = "the payload is not a JSON object"
MISSING_KEY = "the payload is missing the required key '{key}'"
WRONG_EVENT = "the payload's hook_event_name is {value}, not 'PreToolUse'"
NOT_A_STRING = "the payload's {key} is not a string"
UNKNOWN_TOOL = ("this adapter does not translate tool '{name}'; the roster is {roster} — see the "
                "package README, What this surface does not observe")
INPUT_NOT_OBJECT = "the payload's tool_input is not an object"
COMMAND_NOT_STRING = "the payload's tool_input.command is not a string"

# The call was recorded just before the hook ran, so it is among the rollout's last lines; a
# call whose line does not fit in this tail (a command of megabytes) is not found, and pinned.
ROLLOUT_TAIL_BYTES = 1 << 20
# What the pinned command prints where it refuses to run (one line, no single quote: it is
# spelled inside single quotes).
PIN_REFUSAL = ("pdks: not run: Codex runs this call in another directory than the one pdks judged "
               "it in (a workdir the hook is not shown). Run it without workdir, with the cd in the "
               "command: cd DIR && ...")


class Codex(Host):
    name = "codex"
    module = "codex"
    title = "Codex"
    folder = ".codex"
    root_variable = ""  # Codex names no project root: the command finds it from the call's cwd
    registration = ".codex/hooks.json"
    # config.toml: a project layer of Codex's configuration, where `[features] hooks = false`
    # switches every hook off at the next start (as settings.local.json can for Claude Code)
    gate = (".codex/hooks", ".codex/hooks.json", ".codex/config.toml")
    detect = (".codex",)
    roster = {"mutating": [PATCH_TOOL], "shell": ["Bash"], "commandArgs": ["command"]}

    # (the payload, the command to run instead) of the last call translated whose directory is
    # not known: `allow_text` answers for that payload only
    _pinned: tuple[bytes, str] | None = None

    def translate(self, raw: bytes, root: str) -> dict:
        self._pinned = None
        payload = _validated(decode_payload(raw), self.roster)
        name, command = payload["tool_name"], payload["tool_input"]["command"]
        if name == PATCH_TOOL:
            calls = [{"name": PATCH_TOOL, "fileChange": change}
                     for change in evidence.patch_changes(command, payload["cwd"], root)]
        else:
            # `cwd` is the turn's directory; the call's own `workdir` is the payload's, should a
            # release send it, else the rollout's; where neither shows the call it is pinned
            workdir, known = _call_workdir(payload)
            calls = [evidence.in_directory({"name": name, "args": {"command": command}}, payload["cwd"],
                                           workdir)]
            if not known:
                self._pinned = (raw, pinned_command(command, os.path.realpath(payload["cwd"])))
        return {"toolCalls": calls, "subagentSpawns": [], "userMessages": [],
                "tools": self.roster}

    def allow_text(self, raw: bytes) -> str:
        """Nothing, or for a shell call whose directory neither the payload nor the rollout
        shows, the decision that hands Codex the command pinned to the directory it was judged
        in (`permissionDecision` must be "allow" for Codex to apply `updatedInput`; it grants
        nothing else: Codex's approvals and sandbox still apply)."""
        if self._pinned is None or self._pinned[0] != raw:
            return ""
        document = {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow",
                                           "updatedInput": {"command": self._pinned[1]}}}
        return msgspec.json.encode(document).decode("utf-8") + "\n"

    def preflight(self, root: str) -> object:
        from polydeukes.stdlib.adapters import install

        # Codex trusts a hook by the hash of its definition: the file is written only when the
        # registration changes, so a second `init` needs no new approval in /hooks.
        matcher = "|".join(self.roster["shell"] + self.roster["mutating"])
        own = {"type": "command", "command": install.registered_command(self),
               "timeout": TIMEOUT_SECONDS}
        return install.plan_hook_file(
            root, self.registration, ("PreToolUse",),
            lambda document: install.merge_matched(document, "PreToolUse", matcher, own))

    def register(self, root: str, state: object, command: str) -> list[str]:
        return [state.write(root)]

    def notes(self) -> list[str]:
        return ["next: Codex runs a project hook only after you approve it: open /hooks in Codex "
                "and trust the PreToolUse hook of .codex/hooks.json (until then nothing is "
                "judged); `pdks docs codex` explains what is judged"]


def _validated(payload: object, roster: dict) -> dict:
    """Strict, snake_case only, in the spec's order; each failure names its reason."""
    if not isinstance(payload, dict):
        raise PreSpawnFailure(NOT_AN_OBJECT)
    for key in REQUIRED_KEYS:
        if key not in payload:
            raise PreSpawnFailure(MISSING_KEY.format(key=key))
    event = payload["hook_event_name"]
    if event != "PreToolUse":
        shown = msgspec.json.encode(event).decode("utf-8")
        raise PreSpawnFailure(WRONG_EVENT.format(value=shown))
    for key in ("cwd", "tool_name"):
        if not isinstance(payload[key], str):
            raise PreSpawnFailure(NOT_A_STRING.format(key=key))
    names = roster["mutating"] + roster["shell"]
    if payload["tool_name"] not in names:
        raise PreSpawnFailure(UNKNOWN_TOOL.format(name=payload["tool_name"],
                                                  roster=", ".join(names)))
    if not isinstance(payload["tool_input"], dict):
        raise PreSpawnFailure(INPUT_NOT_OBJECT)
    if not isinstance(payload["tool_input"].get("command"), str):
        raise PreSpawnFailure(COMMAND_NOT_STRING)
    return payload


def pinned_command(command: str, directory: str) -> str:
    """`command` behind a first line that refuses to run it unless the shell starts in
    `directory` (physical, as `pwd -P` prints it). POSIX sh, bash and zsh read the line alike;
    another shell fails on it, and the command does not run either."""
    return (f'[ "$(pwd -P)" = {_single_quoted(directory)} ] || '
            f"{{ printf '%s\\n' {_single_quoted(PIN_REFUSAL)} >&2; exit 1; }}\n{command}")


def _single_quoted(text: str) -> str:
    return "'" + text.replace("'", "'\\''") + "'"


def _call_workdir(payload: dict) -> tuple[str | None, bool]:
    """The call's own workdir (None: it sets none), and whether that is known: from the payload
    should a release send it, else from the call as the session's rollout recorded it."""
    workdir = payload["tool_input"].get("workdir")
    if isinstance(workdir, str):
        return workdir or None, True
    arguments = _recorded_arguments(payload["transcript_path"], payload["tool_use_id"])
    if arguments is None:
        return None, False
    # exec_command, shell_command and shell name it `workdir`; local_shell's action,
    # `working_directory`
    workdir = arguments.get("workdir", arguments.get("working_directory"))
    if workdir is None or workdir == "":
        return None, True
    return (workdir, True) if isinstance(workdir, str) else (None, False)


def _recorded_arguments(path: object, call_id: object) -> dict | None:
    """The arguments of the tool call `call_id` as the rollout at `path` records it (its line
    `{"type": "response_item", "payload": {"type": "function_call", "call_id": …, "arguments":
    "<JSON>"}}`, or a local_shell_call's `action`), read from the file's last
    ROLLOUT_TAIL_BYTES; None when the file, the call or its arguments cannot be read."""
    if not isinstance(path, str) or not path or not isinstance(call_id, str) or not call_id:
        return None
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except OSError:
        return None
    try:
        status = os.fstat(fd)
        if not stat.S_ISREG(status.st_mode):
            return None  # (a FIFO planted there would hang a read)
        start = max(0, status.st_size - ROLLOUT_TAIL_BYTES)
        tail = os.pread(fd, ROLLOUT_TAIL_BYTES, start)
    except OSError:
        return None
    finally:
        os.close(fd)
    needle = msgspec.json.encode(call_id)
    at = len(tail)
    while (at := tail.rfind(needle, 0, at)) >= 0:  # (the last lines first, each found directly)
        end = tail.find(b"\n", at)
        at = tail.rfind(b"\n", 0, at) + 1  # (the line's start: the next search looks before it)
        line = tail[at : end if end >= 0 else len(tail)]
        try:
            entry = msgspec.json.decode(line)
        except msgspec.DecodeError:
            continue  # (the first line of the tail may be cut)
        item = entry.get("payload") if isinstance(entry, dict) else None
        if not isinstance(item, dict) or item.get("call_id") != call_id:
            continue
        arguments = item.get("action") if item.get("type") == "local_shell_call" else item.get("arguments")
        if isinstance(arguments, str):
            try:
                arguments = msgspec.json.decode(arguments)
            except msgspec.DecodeError:
                return None
        return arguments if isinstance(arguments, dict) else None
    return None


HOST = Codex()
hook, main = HOST.entry_points()
