"""Cursor: the preToolUse and beforeShellExecution payloads as a CovenantInput IR, and the
installer.

Console script `pdks-cursor` (`init`, `hook`). Cursor runs the hooks of `.cursor/hooks.json`
(possibly from inside `.cursor/`) with `{hook_event_name, conversation_id, workspace_roots, cwd,
tool_name, tool_input, …}` on stdin, or `{command, cwd, …}` for `beforeShellExecution`. It reads
the decision `{"permission": "deny", "user_message": …, "agent_message": …}` on stdout; exit 2
blocks as well, and `failClosed: true` makes any other failure block. Both are used: a blocked
call answers with the document and exit 2; an allowed one answers `{}` (no opinion, so Cursor's
own approvals still apply: "allow" would skip them).

Tool names and argument names of the file tools are not documented: every plausible spelling
is read, and a call whose change cannot be proven is blocked with the reason. No session.
"""

from __future__ import annotations

from polydeukes.stdlib.adapters import evidence
from polydeukes.stdlib.adapters.runner import (
    NOT_AN_ENVELOPE, Host, PreSpawnFailure, decode_payload)

TOOL_EVENT = "preToolUse"
SHELL_EVENT = "beforeShellExecution"
SHELL_TOOL = "Shell"
WRONG_EVENT = "the payload's hook_event_name is {value!r}, not 'preToolUse' or " \
              "'beforeShellExecution'"
NO_COMMAND = "the beforeShellExecution payload carries no command string"
TIMEOUT_SECONDS = 60

PATHS = ("file_path", "path", "target_file", "filePath")
_EDIT = {"old": ("old_string", "old_str", "oldString"), "new": ("new_string", "new_str", "newString"),
         "replace_all": ("replace_all", "replaceAll")}
FILE_TOOLS = {
    "Write": evidence.FileTool(evidence.WRITE, path=PATHS,
                               content=("content", "contents", "file_text", "text")),
    "Edit": evidence.FileTool(evidence.EDIT, path=PATHS, **_EDIT),
    "StrReplace": evidence.FileTool(evidence.EDIT, path=PATHS, **_EDIT),
    "Delete": evidence.FileTool(evidence.DELETE, path=PATHS),
}


class Cursor(Host):
    name = "cursor"
    module = "cursor"
    title = "Cursor"
    folder = ".cursor"
    root_variable = ""  # project hooks may run from .cursor/: the command walks up from its cwd
    registration = ".cursor/hooks.json"
    roster = {"mutating": ["Write", "StrReplace", "Edit", "Delete"], "shell": [SHELL_TOOL],
              "commandArgs": ["command"]}
    gate = (".cursor/hooks", ".cursor/hooks.json")
    detect = (".cursor",)
    allow_output = "{}\n"

    def deny_document(self, reason: str) -> dict | None:
        return {"permission": "deny", "user_message": reason, "agent_message": reason}

    def translate(self, raw: bytes, root: str) -> dict:
        payload = decode_payload(raw)
        if not isinstance(payload, dict):
            raise PreSpawnFailure(NOT_AN_ENVELOPE)
        event = payload.get("hook_event_name")
        if event is None:  # unnamed: told apart by shape
            event = TOOL_EVENT if "tool_name" in payload else SHELL_EVENT
        if event == SHELL_EVENT:
            command = payload.get("command")
            if not isinstance(command, str):
                raise PreSpawnFailure(NO_COMMAND)
            call = evidence.in_directory({"name": SHELL_TOOL, "args": {"command": command}}, _cwd(payload))
        elif event == TOOL_EVENT:
            name, args = payload.get("tool_name"), payload.get("tool_input")
            if not isinstance(name, str) or not isinstance(args, dict):
                raise PreSpawnFailure(NOT_AN_ENVELOPE)
            call = evidence.tool_call(name, args, _cwd(payload), root, FILE_TOOLS)
            if name in self.roster["shell"]:
                evidence.in_directory(call, _cwd(payload), args.get("working_directory"))
        else:
            raise PreSpawnFailure(WRONG_EVENT.format(value=event))
        return {"toolCalls": [call], "subagentSpawns": [], "userMessages": [],
                "tools": self.roster}

    def preflight(self, root: str) -> object:
        from polydeukes.stdlib.adapters import install

        command = install.registered_command(self)
        matcher = "|".join(self.roster["shell"] + self.roster["mutating"])
        # failClosed: a hook that crashes or times out blocks instead of letting the call run.
        tool = {"command": command, "matcher": matcher, "timeout": TIMEOUT_SECONDS,
                "failClosed": True}
        shell = {"command": command, "timeout": TIMEOUT_SECONDS, "failClosed": True}

        def merge(document: dict) -> list:
            return (install.merge_flat(document, TOOL_EVENT, tool, "command")
                    + install.merge_flat(document, SHELL_EVENT, shell, "command"))

        return install.plan_hook_file(root, self.registration, (TOOL_EVENT, SHELL_EVENT), merge,
                                      comments=True, version=1)

    def register(self, root: str, state: object, command: str) -> list[str]:
        return [state.write(root)]

    def notes(self) -> list[str]:
        return ["next: Cursor reads .cursor/hooks.json at start: restart Cursor (Settings, "
                "Hooks shows the hooks it loaded); `pdks docs cursor` explains what is judged"]


def _cwd(payload: dict) -> str | None:
    """The directory a relative tool path is resolved against: `cwd`, else the first root."""
    cwd = payload.get("cwd")
    if isinstance(cwd, str) and cwd:
        return cwd
    roots = payload.get("workspace_roots")
    if isinstance(roots, list) and roots and isinstance(roots[0], str):
        return roots[0]
    return None


HOST = Cursor()
hook, main = HOST.entry_points()
