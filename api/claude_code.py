"""Claude Code as the rule-author tools need it — the Claude Code adapter's own code.

`pdks test` expands its shorthands into what Claude Code's hook sends (polydeukes.shorthand),
and `pdks replay` rebuilds recorded calls from Claude Code transcripts (polydeukes.replay);
both reach the host only through this module, which re-exports the adapter
(stdlib/adapters/claude_code.py, evidence.py, transcript.py, paths.py): one payload
translation, one set of post-state rules, one transcript reader.
"""

from __future__ import annotations

from polydeukes.stdlib.adapters.claude_code import HOST, notebook_change, session_evidence
from polydeukes.stdlib.adapters.evidence import (
    Unreadable,
    edit_post,
    file_change,
    multi_edit_post,
    read_text,
)
from polydeukes.stdlib.adapters.paths import judged_spelling
from polydeukes.stdlib.adapters.runner import PreSpawnFailure
from polydeukes.stdlib.adapters.transcript import (
    SidecarUnreadable,
    Transcript,
    parse_transcript,
    read_sidecar,
    timestamp_ms,
)

ROSTER = HOST.roster
ADAPTER = HOST.adapter  # the name a pre-spawn failure line starts with
translate = HOST.translate  # (payload bytes, project root) -> the IR the hook sends

__all__ = [
    "ADAPTER", "ROSTER", "PreSpawnFailure", "SidecarUnreadable", "Transcript", "Unreadable", "edit_post",
    "file_change", "read_text",
    "judged_spelling", "multi_edit_post", "notebook_change", "parse_transcript", "post_state", "read_sidecar",
    "session_evidence", "timestamp_ms", "translate",
]


def post_state(name: str, args: dict, pre: str | None) -> str | None:
    """What Write, Edit or MultiEdit would leave in a file whose text is `pre` (None: the file
    does not exist), under the adapter's rules; None where the tool would refuse the call."""
    if name == "Write":
        content = args.get("content")
        return content if isinstance(content, str) else None
    if name == "Edit":
        return edit_post(pre, args)
    if name == "MultiEdit":
        return multi_edit_post(pre, args)
    return None
