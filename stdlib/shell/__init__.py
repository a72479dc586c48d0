"""The shell axis: judging a shell command string against protected paths (spec 04 §7.2, §8).

Pure and hot-path safe: standard library and msgspec only. Nothing is executed or written; the
working tree is only looked at, within bounds, where an effect depends on it (`disk.py`).

The stages, one module each, in the order a command string goes through them:

    tokenizer   text -> simple commands, words, redirects, heredocs, unread spans
    expansion   braces, globs, variables the line assigned -> argv words and patterns
    effects     the command table: what each command does to each operand (data)
    analysis    the walk: wrappers, directories, nested scripts, line state -> views
    disk        read-only, bounded looks at the working tree (symlinks, archives, patches)
    judgment    shell-mod: the §8.5 ladder over the views and their effects
    transcript  transcript-mod: the same ladder for one exact file
    evidence    the §8.6 derivation: the file writes a command makes, for declarations
    paths       path matching by segment (§8.4)

The public names below are imported from their stage on first use, so importing one stage (the
router only needs the tokenizer and path matching) never loads the others.
"""

from __future__ import annotations

from typing import Any

_EXPORTS = {
    "tokenize": "tokenizer",
    "Script": "tokenizer",
    "executed_text": "tokenizer",
    "path_matches": "paths",
    "judge_shell_mod": "judgment",
    "ShellModResult": "judgment",
    "BREAK_CODE_MENTION": "judgment",
    "BREAK_CONTAINS_PROTECTED": "judgment",
    "BREAK_EFFECT": "judgment",
    "BREAK_OPAQUE_MENTION": "judgment",
    "BREAK_OPAQUE_WRITE_TARGET": "judgment",
    "BREAK_PATTERN": "judgment",
    "BREAK_PRECISE_WRITE": "judgment",
    "BREAK_REDEFINED": "judgment",
    "BREAK_UNPROVEN_MENTION": "judgment",
    "BREAK_UNREADABLE": "judgment",
    "BREAK_UNTOKENIZABLE_MENTION": "judgment",
    "shell_writes": "evidence",
    "ShellWrites": "evidence",
    "ComputedWrite": "evidence",
    "UncomputableWrite": "evidence",
    "ShellFileChange": "evidence",
    "TranscriptTarget": "transcript",
    "judge_transcript_line": "transcript",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    # `__import__` rather than importlib: the router imports this package on every check.
    value = getattr(__import__(f"{__name__}.{module}", fromlist=[name]), name)
    globals()[name] = value
    return value
