"""Gemini CLI: the BeforeTool payload as a CovenantInput IR, and its installer.

Console script `pdks-gemini` (`init`, `hook`). Gemini CLI runs the hooks of
`.gemini/settings.json` with the payload `{session_id, transcript_path, cwd, hook_event_name,
timestamp, tool_name, tool_input}` on stdin; exit 2 blocks the call with stderr as the reason
sent to the model, any other non-zero exit lets it through with a warning, and stdout must hold
nothing but JSON. Its `replace` tool falls back to approximate matching when the exact text is
not found, so an edit whose result cannot be computed is blocked (adapters/evidence.py).
The IR carries no session: Gemini's transcript is not the JSONL this project reads.
"""

from __future__ import annotations

from polydeukes.stdlib.adapters import evidence
from polydeukes.stdlib.adapters.runner import Host, PreSpawnFailure, envelope

EVENT = "BeforeTool"
WRONG_EVENT = "the payload's hook_event_name is {value!r}, not 'BeforeTool'"
TIMEOUT_MILLISECONDS = 60000  # Gemini's default; a hook that times out lets the call through

# Gemini's `replace` creates a missing file when `old_string` is empty; `allow_multiple` is its
# `replace_all`.
FILE_TOOLS = {
    "write_file": evidence.FileTool(evidence.WRITE),
    "replace": evidence.FileTool(evidence.EDIT, replace_all=("allow_multiple",),
                                 empty_old="create"),
}


class Gemini(Host):
    name = "gemini"
    module = "gemini"
    title = "Gemini CLI"
    folder = ".gemini"
    root_variable = "GEMINI_PROJECT_DIR"
    registration = ".gemini/settings.json"
    roster = {"mutating": ["write_file", "replace"], "shell": ["run_shell_command"],
              "commandArgs": ["command"]}
    gate = (".gemini/hooks", ".gemini/settings.json")
    detect = (".gemini",)

    def translate(self, raw: bytes, root: str) -> dict:
        payload, name, args = envelope(raw)
        event = payload.get("hook_event_name", EVENT)
        if event != EVENT:
            raise PreSpawnFailure(WRONG_EVENT.format(value=event))
        cwd = payload.get("cwd") if isinstance(payload.get("cwd"), str) else None
        call = evidence.tool_call(name, args, cwd, root, FILE_TOOLS)
        if name in self.roster["shell"]:
            # run_shell_command's own directory (`dir_path`; `directory` in older releases),
            # absolute or relative to the project root, which is the payload's `cwd`
            workdir = args.get("dir_path", args.get("directory"))
            evidence.in_directory(call, cwd, workdir)
        return {"toolCalls": [call],
                "subagentSpawns": [], "userMessages": [], "tools": self.roster}

    def preflight(self, root: str) -> object:
        from polydeukes.stdlib.adapters import install

        matcher = "|".join(self.roster["mutating"] + self.roster["shell"])
        own = {"name": "pdks", "type": "command", "command": install.registered_command(self),
               "timeout": TIMEOUT_MILLISECONDS}
        # Gemini reads settings.json with comments stripped; a commented file that lacks the
        # registration is refused with the entry to add rather than rewritten without them.
        return install.plan_hook_file(
            root, self.registration, (EVENT,),
            lambda document: install.merge_matched(document, EVENT, matcher, own),
            comments=True)

    def register(self, root: str, state: object, command: str) -> list[str]:
        return [state.write(root)]

    def notes(self) -> list[str]:
        return ["next: Gemini CLI runs project hooks only in a trusted folder; restart Gemini "
                "CLI (or run /hooks) so the BeforeTool hook is loaded; `pdks docs gemini` "
                "explains what is judged"]


HOST = Gemini()
hook, main = HOST.entry_points()
