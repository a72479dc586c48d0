"""Codex: the PreToolUse payload as a CovenantInput IR (spec 07 §4, the 0.8.0 behaviour), and
its installer.

Console script `pdks-codex` (`init`, `hook`). Codex normalizes every file edit into the one
tool `apply_patch` whose patch text sits in `tool_input.command`; each file the patch changes
becomes its own tool call (one judgment, one set of rows per file; any block blocks the call).
Patch paths are relative to the call's `cwd`; the judge reads them relative to the project root,
so they are rebased, and a path outside the project refuses the whole call. The IR carries no
`session` and no `actor` (the host documents its transcript format as unstable): no witness
valve; a blocked intentional edit is made from the user's own terminal.
"""

from __future__ import annotations

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

    def translate(self, raw: bytes, root: str) -> dict:
        payload = _validated(decode_payload(raw), self.roster)
        name, command = payload["tool_name"], payload["tool_input"]["command"]
        if name == PATCH_TOOL:
            calls = [{"name": PATCH_TOOL, "fileChange": change}
                     for change in evidence.patch_changes(command, payload["cwd"], root)]
        else:
            # `cwd` is the turn's directory; the call's own `workdir` is not in the payload
            # (docs/codex.md, "What is not judged"), and is read should a release send it
            calls = [evidence.in_directory({"name": name, "args": {"command": command}}, payload["cwd"],
                                           payload["tool_input"].get("workdir"))]
        return {"toolCalls": calls, "subagentSpawns": [], "userMessages": [],
                "tools": self.roster}

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


HOST = Codex()
hook, main = HOST.entry_points()
