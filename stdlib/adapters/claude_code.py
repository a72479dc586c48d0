"""Claude Code: the PreToolUse payload as a CovenantInput IR (spec 07 §2), and its installer.

Console script `pdks-claude-code` (`init`, `hook`). The IR carries the tool call with its
computed file-change evidence, a spawn for Task/Agent, the actor, the roster and the session
evidence (transcript and sidecar channel) that the witness valve and history declarations read.
"""

from __future__ import annotations

import msgspec

from polydeukes.stdlib.adapters import evidence, paths
from polydeukes.stdlib.adapters.runner import Host, PreSpawnFailure, envelope

SESSION_UNREADABLE = "the session evidence could not be gathered ({reason})"
SPAWN_WITHOUT_KIND = (
    "the payload's {tool} call carries no string subagent_type: a spawn whose kind is unknown "
    "cannot be judged"
)

# Task is the spawn tool's old name; the host renamed it Agent (both carry subagent_type).
SPAWN_TOOLS = ("Task", "Agent")

RULES = ".claude/rules/polydeukes.md"
SKILL = ".claude/skills/discipline-draft/SKILL.md"


class ClaudeCode(Host):
    name = "claude-code"
    module = "claude_code"
    title = "Claude Code"
    folder = ".claude"
    root_variable = "CLAUDE_PROJECT_DIR"
    registration = ".claude/settings.json"
    # settings.local.json: a project file Claude Code reads hooks settings from as well, where
    # `"disableAllHooks": true` would switch the judge off.
    gate = (".claude/hooks", ".claude/settings.json", ".claude/settings.local.json")
    detect = (".claude",)
    plugin = True
    roster = {"mutating": ["Edit", "Write", "MultiEdit", "NotebookEdit"], "shell": ["Bash"],
              "commandArgs": ["command"]}

    def translate(self, raw: bytes, root: str) -> dict:
        payload, name, args = envelope(raw)
        calls: list[dict] = []
        spawns: list[dict] = []
        if name in SPAWN_TOOLS:
            # Never demoted to a plain tool call: losing the spawn's evidence would be a bypass.
            kind = args.get("subagent_type")
            if not isinstance(kind, str):
                raise PreSpawnFailure(SPAWN_WITHOUT_KIND.format(tool=name))
            spawns.append({"kind": kind})
        else:
            call = {"name": name, "args": args}
            change = file_change(name, args, root)
            if change is not None:
                call["fileChange"] = change
            if name in self.roster["shell"]:
                # (Bash keeps its working directory between calls: `cwd` is where it is now)
                evidence.in_directory(call, payload.get("cwd"))
            calls.append(call)
        agent_type = payload.get("agent_type")  # top level only: tool_input is never read for it
        actor = {"agentType": agent_type} if isinstance(agent_type, str) and agent_type else {}
        ir = {"toolCalls": calls, "subagentSpawns": spawns, "userMessages": [], "actor": actor,
              "tools": self.roster}
        transcript_path = payload.get("transcript_path")
        if isinstance(transcript_path, str):
            ir["session"] = session_evidence(transcript_path)
        return ir

    def preflight(self, root: str) -> object:
        from polydeukes.stdlib.adapters import install

        return install.read_claude_settings(root, self.registration)

    def register(self, root: str, state: object, command: str) -> list[str]:
        from polydeukes.stdlib.adapters import install

        matcher = "|".join(self.roster["mutating"] + self.roster["shell"])
        lines = [install.merge_claude_settings(root, self.registration, state, matcher, command)]
        # Written last: their absence costs only discoverability.
        lines.append(install.write_new(root, RULES, install.claude_rules()))
        lines.append(install.write_new(root, SKILL, install.claude_skill()))
        return lines

    def notes(self) -> list[str]:
        return ["next: start a new Claude Code session (or open /hooks) so the PreToolUse hook "
                "is loaded; `pdks docs claude-code` explains what is judged"]


# Each edit tool's effect on its `file_path` (adapters/evidence.py computes the post-state).
EFFECTS = {"Write": evidence.WRITE, "Edit": evidence.EDIT, "MultiEdit": evidence.MULTI_EDIT}


def file_change(name: str, args: dict, root: str) -> dict | None:
    """The evidence one call proves, or None (spec 07 §2.3): computed, never read back."""
    if name == "NotebookEdit":
        return notebook_change(args, root)
    effect = EFFECTS.get(name)
    return None if effect is None else evidence.tool_change(effect, args, root)


def notebook_change(args: dict, root: str) -> dict | None:
    """NotebookEdit: cell-level evidence. `pre`/`post` are the target cell's source, not the
    notebook's JSON; `path` is the notebook."""
    path, new_source = args.get("notebook_path"), args.get("new_source")
    if not isinstance(path, str) or not path or not isinstance(new_source, str):
        return None
    text = evidence.pre_state(path)
    if text is None:
        return None
    try:
        notebook = msgspec.json.decode(text)
    except msgspec.DecodeError:
        return None
    cells = notebook.get("cells") if isinstance(notebook, dict) else None
    if not isinstance(cells, list):
        return None
    mode = args.get("edit_mode", "replace")
    if mode == "insert":
        if not isinstance(args.get("cell_type"), str):
            return None
        return {"kind": "modify", "path": paths.judged_spelling(path, root), "pre": "",
                "post": new_source}
    cell_id = args.get("cell_id")
    if mode not in ("replace", "delete") or not isinstance(cell_id, str):
        return None
    cell = next((c for c in cells if isinstance(c, dict) and c.get("id") == cell_id), None)
    source = cell.get("source") if cell is not None else None
    if isinstance(source, list) and all(isinstance(s, str) for s in source):
        source = "".join(source)  # each line already carries its newline
    if not isinstance(source, str):
        return None
    return {"kind": "modify", "path": paths.judged_spelling(path, root), "pre": source,
            "post": new_source if mode == "replace" else ""}


def session_evidence(transcript_path: str) -> dict:
    """`session` from the transcript path: the path itself is kept even when unreadable (the
    judge then still protects it through transcript-mod), with an empty history."""
    from polydeukes.stdlib.adapters import transcript as T

    session: dict = {"evidencePath": transcript_path, "userMessages": [], "toolCalls": []}
    found = T.read_transcript(transcript_path)
    if found is not None:
        session["userMessages"] = found.human_messages()
        session["toolCalls"] = found.tool_calls()
    try:
        sidecar = T.read_sidecar(transcript_path)
    except T.SidecarUnreadable as exc:
        raise PreSpawnFailure(SESSION_UNREADABLE.format(reason=exc)) from None
    if sidecar is not None:
        session["channels"] = {"sidecar": sidecar}
    return session


HOST = ClaudeCode()
hook, main = HOST.entry_points()
