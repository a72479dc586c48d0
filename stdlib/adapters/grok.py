"""Grok: the PreToolUse payload as a CovenantInput IR (spec 07 §3), and its installer.

Console script `pdks-grok` (`init`, `hook`). Grok's session log is not a transcript with
positively identified human messages, so the IR carries no `session`: no transcript-mod, no
witness valve; a blocked intentional edit is made from the user's own terminal.
"""

from __future__ import annotations

from polydeukes.stdlib.adapters import evidence
from polydeukes.stdlib.adapters.runner import Host, envelope, first_present

HOOK_FILE = ".grok/hooks/covenant-pretooluse.json"
# The host's default timeout is 5 s and a timed-out Grok hook fails open.
TIMEOUT_SECONDS = 60


class Grok(Host):
    name = "grok"
    module = "grok"
    title = "Grok"
    folder = ".grok"
    root_variable = "GROK_WORKSPACE_ROOT"
    registration = HOOK_FILE
    gate = (".grok/hooks",)
    detect = (".grok",)
    roster = {"mutating": ["write", "search_replace"], "shell": ["run_terminal_command"],
              "commandArgs": ["command"]}

    def translate(self, raw: bytes, root: str) -> dict:
        # The envelope's spelling is unconfirmed: Claude-compatible snake_case first, then the
        # camelCase some Grok builds use.
        payload, name, args = envelope(raw, ("tool_name", "toolName"), ("tool_input", "toolInput"))
        call = {"name": name, "args": args}
        change = file_change(name, args, root)
        if change is not None:
            call["fileChange"] = change
        if name in self.roster["shell"]:
            evidence.in_directory(call, payload.get("cwd"))  # (where its shell's last `cd` left it)
        ir = {"toolCalls": [call], "subagentSpawns": [], "userMessages": [], "tools": self.roster}
        # Only a host that names the acting agent gets an actor; absent is "unknown", which a
        # claim of "main session" ({}) would not be.
        agent_type = first_present(payload, "agent_type", "agentType")
        if isinstance(agent_type, str) and agent_type:
            ir["actor"] = {"agentType": agent_type}
        return ir

    def register(self, root: str, state: object, command: str) -> list[str]:
        from polydeukes.stdlib.adapters import install

        matcher = "|".join(self.roster["mutating"] + self.roster["shell"])
        document = {"hooks": {"PreToolUse": [{"matcher": matcher, "hooks": [
            {"type": "command", "command": command, "timeout": TIMEOUT_SECONDS}]}]}}
        return [install.write_new(root, HOOK_FILE, install.json_text(document))]

    def notes(self) -> list[str]:
        return ["next: trust the project's hooks in Grok (/hooks-trust), then reload the Hooks tab "
                "or start a new session; `pdks docs grok` explains what is judged"]


# Each edit tool's effect on its `file_path` (search_replace follows Claude Code's Edit rules).
EFFECTS = {"write": evidence.WRITE, "search_replace": evidence.EDIT}


def file_change(name: str, args: dict, root: str) -> dict | None:
    effect = EFFECTS.get(name)
    return None if effect is None else evidence.tool_change(effect, args, root)


HOST = Grok()
hook, main = HOST.entry_points()
