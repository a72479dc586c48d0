"""File-change evidence computed before a tool runs (spec 07 §2.3, §3).

Evidence is computed, never read back after the tool ran: the pre-state comes from disk, the
post-state is what the host's tool would write. A call whose result cannot be proven (the tool
would reject the same edit) gets no evidence; the judge then falls back to its conservative
args-mention check. Every host whose edit tool speaks `old_string` / `new_string` (Claude Code's
Edit and MultiEdit, Grok's search_replace) shares these rules, so they live here once.

Hot path: standard library and vm.safeio only.
"""

from __future__ import annotations

import posixpath

from polydeukes.stdlib.adapters.paths import judged_spelling, rebase
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
    if isinstance(exc, IsADirectoryError) and exc.filename:
        return f"'{exc.filename}' is a directory"  # as the refusals of vm/safeio name a FIFO
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

    `replace_all`, when present, must be a boolean; the rest is `replaced`.
    """
    old, new = edit.get("old_string"), edit.get("new_string")
    if not isinstance(old, str) or not isinstance(new, str):
        return None
    replace_all = edit.get("replace_all", False)
    if not isinstance(replace_all, bool):
        return None
    return replaced(text, old, new, replace_all)[0]


# Why the Edit rules prove nothing (the tool would reject the edit, or apply a guess).
EMPTY_OLD = "its old text is empty"
SAME_TEXT = "its old and new text are the same"
NOT_FOUND = "its old text does not occur in the file"
AMBIGUOUS = "its old text occurs {count} times and the call does not replace them all"


def replaced(text: str, old: str, new: str, replace_all: bool) -> tuple[str | None, str]:
    """The Edit rules on one replacement: (post, "") or (None, why it proves nothing).

    `old` must be non-empty and differ from `new`, and occur exactly once unless `replace_all`.
    The replacement is literal (no `$&`-style patterns): str.replace, like the hosts' split/join.
    """
    if old == "":
        return None, EMPTY_OLD
    if old == new:
        return None, SAME_TEXT
    count = text.count(old)
    if count == 0:
        return None, NOT_FOUND
    if count > 1 and not replace_all:
        return None, AMBIGUOUS.format(count=count)
    return (text.replace(old, new) if replace_all else text.replace(old, new, 1)), ""


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


# -- hosts that block what they cannot prove ---------------------------------------------------
#
# Claude Code and Grok reject an edit whose old text does not match exactly, so an edit without
# evidence is one the tool will refuse, and the judge's mention check is enough (spec 07 §2.3).
# Gemini CLI and OpenCode do not: when the exact text is not found they apply an approximate
# match (whitespace-insensitive, fuzzy), whose result nothing can compute beforehand; and the
# tool arguments of Copilot CLI and Cursor are not documented. For these hosts a file tool's
# call either proves its change or is blocked with the reason: blocking an edit the tool would
# have refused costs nothing, letting through an edit nobody judged would be a bypass.

DELETE = "delete"

NAMES_NO = "the {tool} call names no {what} (read from {keys})"
NOT_TEXT = "the {tool} call's {key} is not text"
UNPROVABLE = ("the {tool} call on {path} cannot be judged: {why} \u2014 pdks blocks an edit whose "
              "result it cannot compute; retry with text copied exactly from the file")
NO_FILE = "the file does not exist"
FILE_EXISTS = "the file already exists"
NOT_BOOLEAN = "its {key} is neither true nor false"
NO_EDITS = "it carries no edits"


class FileTool:
    """One host tool that changes one file: its effect and the argument names it is read from
    (first present name wins; several when the host's spelling is unconfirmed)."""

    __slots__ = ("effect", "path", "content", "old", "new", "replace_all", "edits", "empty_old")

    def __init__(self, effect: str, *, path=("file_path",), content=("content",),
                 old=("old_string",), new=("new_string",), replace_all=("replace_all",),
                 edits=("edits",), empty_old: str | None = None) -> None:
        self.effect = effect
        self.path, self.content, self.edits = path, content, edits
        self.old, self.new, self.replace_all = old, new, replace_all
        # An edit with empty old text: None (the tool refuses it), "create" (it creates a file
        # that does not exist yet: Gemini's replace) or "write" (it writes the new text as the
        # whole file, existing or not: OpenCode's edit).
        self.empty_old = empty_old


def in_directory(call: dict, cwd: object, workdir: object = None) -> dict:
    """`call` with the directory the host runs it in (the IR's `cwd`), for a shell call: the
    call's own working-directory argument (`workdir`, `dir_path`) resolved against the payload's
    `cwd` (or the root, which the judge takes for a relative one), else that `cwd`. Without
    either the judge reads the command from the project root. A shell that keeps its directory
    between calls (`cd ci` in one, `rm gate.sh` in the next) is judged where it is."""
    base = cwd if isinstance(cwd, str) and cwd else None
    if isinstance(workdir, str) and workdir:
        call["cwd"] = workdir if base is None else posixpath.join(base, workdir)
    elif base is not None:
        call["cwd"] = base
    return call


def tool_call(name: str, args: dict, cwd: str | None, root: str,
              file_tools: dict[str, FileTool]) -> dict:
    """`{name, args, fileChange}` for one of the host's file tools (proven, or PreSpawnFailure);
    any other tool is handed on as it came (the judge's roster says what it is)."""
    call: dict = {"name": name, "args": args}
    spec = file_tools.get(name)
    if spec is not None:
        call["fileChange"] = proven_change(name, spec, args, cwd, root)
    return call


def proven_change(tool: str, spec: FileTool, args: dict, cwd: str | None, root: str) -> dict:
    """The change one call of a FileTool makes, computed before it runs; PreSpawnFailure when it
    cannot be proven. A relative path is the host's, relative to `cwd` (the call's directory,
    default the root); the change is judged under its root-relative spelling."""
    key, path = _argument(args, spec.path)
    if not isinstance(path, str) or not path:
        raise PreSpawnFailure(NAMES_NO.format(tool=tool, what="file", keys=", ".join(spec.path)))
    read_at, judged = located(path, cwd, root)

    def unprovable(why: str) -> PreSpawnFailure:
        return PreSpawnFailure(UNPROVABLE.format(tool=tool, path=path, why=why))

    if spec.effect == WRITE:
        content = _text(tool, args, spec.content, "text to write")
        return file_change(judged, pre_state(read_at), content)
    pre = pre_state(read_at)
    if spec.effect == DELETE:
        if pre is None:
            raise unprovable(NO_FILE)
        return {"kind": "delete", "path": judged, "pre": pre}
    edits = [args] if spec.effect == EDIT else _argument(args, spec.edits)[1]
    if not isinstance(edits, list) or not edits or not all(isinstance(e, dict) for e in edits):
        raise unprovable(NO_EDITS)
    text = pre
    for number, edit in enumerate(edits, 1):
        prefix = "" if spec.effect == EDIT else f"edit {number}: "
        old = _text(tool, edit, spec.old, "old text")
        new = _text(tool, edit, spec.new, "new text")
        flag_key, replace_all = _argument(edit, spec.replace_all)
        if replace_all is None:
            replace_all = False
        if not isinstance(replace_all, bool):
            raise unprovable(prefix + NOT_BOOLEAN.format(key=flag_key))
        if old == "" and spec.empty_old == "write" and number == 1:
            text = new
            continue
        if old == "" and spec.empty_old == "create" and number == 1:
            if text is not None:
                raise unprovable(prefix + FILE_EXISTS)
            text = new
            continue
        if text is None:
            raise unprovable(NO_FILE)
        text, why = replaced(text, old, new, replace_all)
        if text is None:
            raise unprovable(prefix + why)
    return file_change(judged, pre, text)


def _argument(args: dict, keys: tuple[str, ...]) -> tuple[str | None, object]:
    for key in keys:
        if key in args:
            return key, args[key]
    return None, None


def _text(tool: str, args: dict, keys: tuple[str, ...], what: str) -> str:
    key, value = _argument(args, keys)
    if key is None:
        raise PreSpawnFailure(NAMES_NO.format(tool=tool, what=what, keys=", ".join(keys)))
    if not isinstance(value, str):
        raise PreSpawnFailure(NOT_TEXT.format(tool=tool, key=key))
    return value


def located(path: str, cwd: str | None, root: str) -> tuple[str, str]:
    """(where to read the pre-state, the spelling the judge sees) for a path a host resolves
    against `cwd`: an absolute path as `judged_spelling` gives it; a relative one joined to
    `cwd`, then root-relative when inside the project (absolute, out of every scope, when not).
    Without a `cwd`, or at the root, a relative path is the root's already."""
    if posixpath.isabs(path):
        return path, judged_spelling(path, root)
    if not cwd or posixpath.normpath(cwd) == root:
        return path, path
    absolute = posixpath.join(cwd, path)
    relative = rebase(path, cwd, root)
    return absolute, absolute if relative is None else relative


# -- V4A patches (Codex, Copilot CLI, OpenCode) -------------------------------------------------

PATCH_UNREADABLE = "the patch text is not one this adapter can read: {reason}"
PATCH_TARGET_UNREADABLE = "the pre-state of a patch target could not be read ({reason})"
PATCH_OUTSIDE = "the patch targets '{path}', which is outside the project"


def patch_changes(patch: str, cwd: str, root: str) -> list[dict]:
    """The patch's file changes with root-relative paths (spec 07 §4.4, §4.5); a path outside
    the project refuses the whole call (an element outside the root would land in no scope:
    judged over nothing, and passed)."""
    from polydeukes.stdlib.adapters import v4a

    def read(path: str) -> str | None:
        # Pre-states are read where the tool will read them: relative to the call's cwd.
        try:
            return read_text(posixpath.join(cwd, path))
        except Unreadable as exc:
            raise PreSpawnFailure(PATCH_TARGET_UNREADABLE.format(reason=exc)) from None

    try:
        changes = v4a.parse_patch(patch, read)
    except v4a.PatchRefused as exc:
        raise PreSpawnFailure(PATCH_UNREADABLE.format(reason=exc)) from None
    for change in changes:
        relative = rebase(change["path"], cwd, root)
        if relative is None:
            raise PreSpawnFailure(PATCH_OUTSIDE.format(path=change["path"]))
        change["path"] = relative
    return changes
