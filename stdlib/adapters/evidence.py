"""File-change evidence computed before a tool runs (spec 07 §2.3, §3).

Evidence is computed, never read back after the tool ran: the pre-state comes from disk, the
post-state is what the host's tool would write. A call whose result cannot be proven (the tool
would reject the same edit) gets no evidence; the judge then falls back to its conservative
args-mention check. Every host whose edit tool speaks `old_string` / `new_string` (Claude Code's
Edit and MultiEdit, Grok's search_replace) shares these rules, so they live here once.

Hot path: standard library and vm.safeio only.
"""

from __future__ import annotations

from polydeukes.stdlib.adapters.paths import judged_spelling
from polydeukes.stdlib.adapters.runner import PreSpawnFailure
from polydeukes.vm.safeio import MiB, read_regular

# A pre-state the judge holds in memory twice (pre and post) and once more in the IR: larger
# files are refused by name (the call blocks with a reason) rather than read.
PRE_STATE_LIMIT = 32 * MiB
PRE_STATE_UNREADABLE = "the pre-state of the target could not be read ({reason})"


class Unreadable(Exception):
    """A file exists but cannot be read as a pre-state; ``str(e)`` is the reason."""


def read_text(path: str, *, limit: int = PRE_STATE_LIMIT) -> str | None:
    """The file's text, or None when it does not exist (the creation discriminant).

    Only absence is None: any other failure (permission, a directory, a FIFO or device the agent
    planted, a file over `limit`) raises Unreadable, because a poisoned None on an existing file
    would let a path-immutability discipline uphold an overwrite. Invalid UTF-8 is replaced, as
    the hosts' own readers do.
    """
    try:
        data = read_regular(path, limit=limit)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise Unreadable(_reason(exc)) from None
    return data.decode("utf-8", errors="replace")


def _reason(exc: OSError) -> str:
    if exc.strerror and exc.filename:
        return f"{exc.strerror}: '{exc.filename}'"
    return exc.strerror or str(exc)


def file_change(path: str, pre: str | None, post: str) -> dict:
    """A creation when there was no pre-state, else a modification."""
    if pre is None:
        return {"kind": "create", "path": path, "post": post}
    return {"kind": "modify", "path": path, "pre": pre, "post": post}


def apply_edit(text: str, edit: dict) -> str | None:
    """One `old_string` -> `new_string` replacement under the Edit rules, or None.

    `old_string` must be non-empty and differ from `new_string`; `replace_all`, when present,
    must be a boolean; the old text must occur exactly once unless `replace_all` is true. The
    replacement is literal (no `$&`-style patterns): str.replace, like the hosts' split/join.
    """
    old, new = edit.get("old_string"), edit.get("new_string")
    if not isinstance(old, str) or not isinstance(new, str) or old == "" or old == new:
        return None
    replace_all = edit.get("replace_all", False)
    if not isinstance(replace_all, bool):
        return None
    count = text.count(old)
    if count == 0 or (count > 1 and not replace_all):
        return None
    return text.replace(old, new) if replace_all else text.replace(old, new, 1)


def edit_post(pre: str | None, args: dict) -> str | None:
    """Edit (and Grok's search_replace): an existing file and one valid replacement."""
    return None if pre is None else apply_edit(pre, args)


def multi_edit_post(pre: str | None, args: dict) -> str | None:
    """MultiEdit: every edit in order, each seeing the previous result; all or nothing.

    With no pre-state the first edit must have an empty `old_string` and a string
    `new_string`, which seeds the new file's content; an empty `old_string` anywhere else fails.
    """
    edits = args.get("edits")
    if not isinstance(edits, list) or not edits or not all(isinstance(e, dict) for e in edits):
        return None
    text = pre
    rest = edits
    if text is None:
        first = edits[0]
        if first.get("old_string") != "" or not isinstance(first.get("new_string"), str):
            return None
        text, rest = first["new_string"], edits[1:]
    for edit in rest:
        text = apply_edit(text, edit)
        if text is None:
            return None
    return text


def pre_state(path: str) -> str | None:
    """`read_text` for the judged target: an unreadable pre-state fails the call before the
    judgment (relative paths are relative to the working directory, the project root)."""
    try:
        return read_text(path)
    except Unreadable as exc:
        raise PreSpawnFailure(PRE_STATE_UNREADABLE.format(reason=exc)) from None


# What a host's edit tool does, by effect; each host maps its own tool names onto these.
WRITE, EDIT, MULTI_EDIT = "write", "edit", "multi_edit"


def tool_change(effect: str, args: dict, root: str) -> dict | None:
    """The evidence of a `file_path` tool with this effect, or None when it proves nothing.

    `write` posts `content`; `edit` is one old_string/new_string replacement; `multi_edit` is
    MultiEdit's `edits` list. The path is kept as given, but in the root's own spelling when it
    reaches the project only through a symlink (adapters/paths.py).
    """
    path = args.get("file_path")
    if not isinstance(path, str) or not path:
        return None
    if effect == WRITE and not isinstance(args.get("content"), str):
        return None  # checked before reading: a call that proves nothing reads nothing
    pre = pre_state(path)
    if effect == WRITE:
        post = args["content"]
    elif effect == EDIT:
        post = edit_post(pre, args)
    else:
        post = multi_edit_post(pre, args)
    return None if post is None else file_change(judged_spelling(path, root), pre, post)
