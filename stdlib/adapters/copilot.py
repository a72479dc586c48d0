"""GitHub Copilot CLI: the preToolUse payload as a CovenantInput IR, and its installer.

Console script `pdks-copilot` (`init`, `hook`). Copilot CLI loads every `.github/hooks/*.json`
and runs each `preToolUse` command with `{sessionId, timestamp, cwd, toolName, toolArgs}` on
stdin, `toolArgs` being the tool's arguments as a JSON string. A hook that exits non-zero or
times out is skipped ("hook failures never block agent execution"): the only way to block is
exit 0 with `{"permissionDecision": "deny", "permissionDecisionReason": …}` on stdout, which is
what every path of this hook does, failures included. There is no matcher: every tool call
arrives, and tools outside the roster are handed to the judge as they came.

The argument names of `create` and `edit` are not documented: every plausible spelling is read,
and a call whose change cannot be proven is blocked with the reason. The IR carries no session.
"""

from __future__ import annotations

import msgspec

from polydeukes.stdlib.adapters import evidence
from polydeukes.stdlib.adapters.runner import Host, PreSpawnFailure, envelope, first_present

EVENT = "preToolUse"
TIMEOUT_SECONDS = 60  # the host's default is 30 s, and a timed-out hook lets the call through
PATCH_TOOL = "apply_patch"
ARGS_NOT_AN_OBJECT = "the payload's toolArgs is not a JSON object ({detail})"
NO_PATCH = "the apply_patch call carries no patch text (read from {keys})"
PATCH_KEYS = ("input", "patch", "patchText", "command")

PATHS = ("path", "file_path", "filePath")
FILE_TOOLS = {
    "create": evidence.FileTool(evidence.WRITE, path=PATHS,
                                content=("file_text", "content", "fileText")),
    "edit": evidence.FileTool(evidence.EDIT, path=PATHS,
                              old=("old_str", "old_string", "oldString"),
                              new=("new_str", "new_string", "newString"),
                              replace_all=("replace_all", "replaceAll")),
}


class Copilot(Host):
    name = "copilot"
    module = "copilot"
    title = "GitHub Copilot CLI"
    folder = ".github"
    root_variable = ""  # Copilot names no project root: the command walks up from its cwd
    registration = ".github/hooks/polydeukes.json"
    roster = {"mutating": ["create", "edit", PATCH_TOOL], "shell": ["bash", "powershell"],
              "commandArgs": ["command"]}
    gate = (".github/hooks",)
    detect = (".github/hooks", ".github/copilot-instructions.md")
    deny_status = 0  # any other exit is a failed hook, which Copilot skips

    def deny_document(self, reason: str) -> dict | None:
        return {"permissionDecision": "deny", "permissionDecisionReason": reason}

    def translate(self, raw: bytes, root: str) -> dict:
        # camelCase is what a `preToolUse` registration receives; the VS Code-compatible
        # snake_case of a `PreToolUse` registration is read as well. toolArgs is a JSON string.
        payload, name, args = envelope(raw, ("toolName", "tool_name"), ("toolArgs", "tool_input"),
                                       (str, dict))
        cwd = payload.get("cwd") if isinstance(payload.get("cwd"), str) else None
        if name == PATCH_TOOL:
            calls = [{"name": PATCH_TOOL, "fileChange": change}
                     for change in evidence.patch_changes(_patch_text(args), cwd or root, root)]
        else:
            calls = [evidence.tool_call(name, _arguments(args), cwd, root, FILE_TOOLS)]
            if name in self.roster["shell"]:
                evidence.in_directory(calls[0], cwd)  # (a shell's `cd` may persist: its `shellId`)
        return {"toolCalls": calls, "subagentSpawns": [], "userMessages": [],
                "tools": self.roster}

    def preflight(self, root: str) -> object:
        from polydeukes.stdlib.adapters import install

        own = {"type": "command", "bash": install.registered_command(self),
               "timeoutSec": TIMEOUT_SECONDS}
        return install.plan_hook_file(
            root, self.registration, (EVENT,),
            lambda document: install.merge_flat(document, EVENT, own, "bash"), version=1)

    def register(self, root: str, state: object, command: str) -> list[str]:
        return [state.write(root)]

    def notes(self) -> list[str]:
        return ["next: Copilot CLI loads .github/hooks/*.json when a session starts: start a "
                "new session in this repository; `pdks docs copilot` explains what is judged"]


def _arguments(args: object) -> dict:
    """toolArgs as an object: documented as a JSON string, also accepted already parsed."""
    if isinstance(args, str):
        try:
            args = msgspec.json.decode(args)
        except msgspec.DecodeError as exc:
            raise PreSpawnFailure(ARGS_NOT_AN_OBJECT.format(detail=exc)) from None
    if not isinstance(args, dict):
        raise PreSpawnFailure(ARGS_NOT_AN_OBJECT.format(detail=f"a {type(args).__name__}"))
    return args


def _patch_text(args: object) -> str:
    """The V4A text of an apply_patch call: a freeform tool's raw input, or under a key."""
    if isinstance(args, str) and args.lstrip().startswith("*** Begin Patch"):
        return args
    arguments = _arguments(args)
    text = first_present(arguments, *PATCH_KEYS)
    if not isinstance(text, str):
        raise PreSpawnFailure(NO_PATCH.format(keys=", ".join(PATCH_KEYS)))
    return text


HOST = Copilot()
hook, main = HOST.entry_points()
