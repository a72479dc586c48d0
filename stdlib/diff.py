"""Unified diff -> covenant input IR: the change-set surface of `pdks covenant check --diff`.

Spec: 05-cli.md §3.6 (grammar, translation table, error messages) and 04-covenants.md §12.
Two pure functions over text, no disk and no git:

* `parse_unified_diff(text)` reads the finite grammar into `FileBlock`s and raises `DiffError`
  (whose `str()` is the spec's message verbatim) for anything outside it, so a malformed or
  colored diff fails the run closed instead of translating to a smaller observation.
* `diff_to_input(text)` turns those blocks into plain JSON-shaped IR data:
  `{"toolCalls": [...], "subagentSpawns": [], "userMessages": []}` — no `actor`, `tools`,
  `session` or `world` key, because a diff proves none of them.

A modification carries only its hunks' `-`/`+` lines (never the whole file); a creation or a
deletion carries the whole text because every line of the file is in its hunk.

Choices where the spec is silent (also in docs/change-set.md):

* Copies (`copy from` / `copy to`, produced by `-C` or `diff.renames=copies`) are read the way
  the spec reads every unlisted line, as nothing special: the block is a `modify` of the
  destination whose `pre`/`post` are the lines git shows against the *source* — the same
  meaning a rename's `modify` arm has. Git never prints a copy's full text, so calling it a
  `create` would present hunk lines as the whole file. The source is not touched, so it gets
  no call. `FileBlock.is_copy` records the copy.
* A renamed binary file (`rename from/to` plus `Binary files … differ`) keeps the rename's
  `delete` of the old path, but the new path's call carries no `fileChange`: its content is
  binary, and an empty `modify` would claim that no line changed.
* Quoted paths also decode git's `\\a \\b \\f \\v` escapes (git writes them for those control
  bytes); an unknown escape keeps the escaped character; invalid UTF-8 decodes with U+FFFD.
  A quoted path with no closing quote is read as an unquoted one.
* `diff --git` headers with one quoted and one bare path (git quotes each side on its own)
  are split at the quote.
* An empty path (`--- ` with nothing after it) names no file, like a missing one.
* A `+++` line needs a `---` line of its own: a second `+++` after one pair is an error, not
  a silent rename of the block.
* `--- /dev/null` with no `+++` partner reports `/dev/null` as `<oldPath>`.
* An extended header line (`rename …`, `copy …`, `new/deleted file mode`, `Binary files …`,
  `GIT binary patch`) seen after the current block has read its `---` line or a hunk, or a
  second binary marker in one block, does not rewrite that block: it opens a header-less block
  of its own, which must then name a path. Plain `diff -ru` prints `Binary files a/x and b/x
  differ` lines between and after its text blocks, and marking the previous text file binary
  would silently drop its evidence. The two paths of such a line are read like a `diff --git`
  header's, split at ` and ` instead of a space.
* A `---` line opens a new header-less block only when the current block already had a `---`
  line, as the original reads "already has one" (issue 14). After a `diff --git` header, a
  binary marker or a hunk without one, the `---`/`+++` pair belongs to the same block and its
  paths replace the header's (the block stays binary when a marker said so). The one
  exception is a block opened by a header-less `Binary files … differ` line (plain `diff -r`
  output): it names its own file, so a `---` line after it opens the next block, and no file
  disappears from path judgments.
* A line starting `@@ -` that is not a well-formed hunk header is an ordinary line, ignored.
* `GIT binary patch` and the `… and /dev/null differ` suffix are recognised with or without a
  trailing `\\r`, so a CRLF copy of a binary diff is not misread as an empty text change.
"""

from __future__ import annotations

import re
from operator import itemgetter

STAGED_WRITE = "staged-write"
STAGED_DELETE = "staged-delete"

# Messages: 05-cli.md §3.6, verbatim.
COMBINED_DIFF = "unified diff: combined diffs are not translatable: {line}"
PLUS_WITHOUT_MINUS = "unified diff: '+++' line with no '---' partner: {line}"
HUNK_WITHOUT_HEADER = "unified diff: hunk with no file header: {line}"
MINUS_WITHOUT_PLUS = "unified diff: '---' line with no '+++' partner: {old_path}"
NO_PATH = "unified diff: a file block names no path"
UNKNOWN_HUNK_LINE = "unified diff: unknown hunk line: {line}"
NO_BLOCK = "unified diff: no file block recognized in the input"

DEV_NULL = "/dev/null"

# git's C-quoting (quote.c) for the named escapes; octal escapes are handled apart.
_NAMED_ESCAPES = {
    "t": 0x09, "n": 0x0A, "r": 0x0D, '"': 0x22, "\\": 0x5C,
    "a": 0x07, "b": 0x08, "f": 0x0C, "v": 0x0B,
}


class DiffError(Exception):
    """The diff is outside the accepted grammar; `str(error)` is the spec's message."""


class FileBlock:
    """One file block of the diff, as read.

    `old_path` / `new_path`: the file before / after, with one `a/` / `b/` prefix stripped;
    `None` when that side does not exist (`/dev/null`, a creation's old side, a deletion's new
    side). `path` is the path the block is judged under (the old path of a deletion, the new
    path otherwise). `added` / `removed` are the hunks' `+` / `-` lines without their prefix,
    in order; context lines and `\\ No newline at end of file` markers are not kept.
    `is_rename` needs both `rename from` and `rename to`; `is_copy` both `copy from` and
    `copy to`. `is_deletion` wins over `is_creation` when a block claims both.
    """

    __slots__ = (
        "old_path", "new_path", "is_binary", "is_rename", "is_copy",
        "is_deletion", "is_creation", "added", "removed",
    )

    def __init__(
        self, *, old_path: str | None, new_path: str | None, is_binary: bool, is_rename: bool,
        is_copy: bool, is_deletion: bool, is_creation: bool, added: list[str],
        removed: list[str],
    ) -> None:
        self.old_path = old_path
        self.new_path = new_path
        self.is_binary = is_binary
        self.is_rename = is_rename
        self.is_copy = is_copy
        self.is_deletion = is_deletion
        self.is_creation = is_creation
        self.added = added
        self.removed = removed

    @property
    def path(self) -> str:
        # One side is always present: a block naming neither is refused while parsing.
        return self.old_path if self.is_deletion else self.new_path  # type: ignore[return-value]

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.__slots__)
        return f"FileBlock({fields})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, FileBlock):
            return NotImplemented
        return all(getattr(self, n) == getattr(other, n) for n in self.__slots__)


class _Draft:
    """A block while it is being read: every raw fact, resolved by `finish()`."""

    __slots__ = (
        "git_header", "header_old", "header_new", "saw_minus", "minus_path", "saw_plus",
        "plus_path",
        "rename_from", "rename_to", "copy_from", "copy_to", "binary_old", "binary_new",
        "binary", "deleted", "created", "hunks", "added", "removed",
    )

    def __init__(self, git_header: bool = False) -> None:
        self.git_header = git_header  # opened by `diff --git`
        self.header_old: str | None = None
        self.header_new: str | None = None
        self.saw_minus = False
        self.minus_path: str | None = None  # None after `--- /dev/null`
        self.saw_plus = False
        self.plus_path: str | None = None
        self.rename_from: str | None = None
        self.rename_to: str | None = None
        self.copy_from: str | None = None
        self.copy_to: str | None = None
        self.binary_old: str | None = None
        self.binary_new: str | None = None
        self.binary = False
        # The only sign of an empty file's deletion / creation (git prints no hunk for it).
        self.deleted = False  # `deleted file mode`, or `Binary files … and /dev/null differ`
        self.created = False  # `new file mode`
        self.hunks = 0
        self.added: list[str] = []
        self.removed: list[str] = []

    def in_body(self) -> bool:
        """True once the block is past its extended header lines."""
        return self.saw_minus or self.hunks > 0

    def finish(self) -> FileBlock:
        if self.saw_minus and not self.saw_plus:
            old = self.minus_path if self.minus_path is not None else DEV_NULL
            raise DiffError(MINUS_WITHOUT_PLUS.format(old_path=old))
        is_deletion = (self.saw_plus and self.plus_path is None) or self.deleted
        is_creation = not is_deletion and (
            (self.saw_minus and self.minus_path is None) or self.created
        )
        is_rename = bool(self.rename_from) and bool(self.rename_to)
        if is_rename:  # the translation table reads a rename before anything else
            is_deletion = is_creation = False
        old = _first(self.minus_path, self.rename_from, self.copy_from, self.header_old,
                     self.binary_old)
        new = _first(self.plus_path, self.rename_to, self.copy_to, self.header_new,
                     self.binary_new)
        if is_rename:
            old, new = self.rename_from, self.rename_to
        if is_creation:
            old = None
        if is_deletion:
            new = None
        if (old if is_deletion else new) is None:
            raise DiffError(NO_PATH)
        return FileBlock(
            old_path=old, new_path=new, is_binary=self.binary, is_rename=is_rename,
            is_copy=bool(self.copy_from) and bool(self.copy_to),
            is_deletion=is_deletion, is_creation=is_creation,
            added=self.added, removed=self.removed,
        )


def _first(*candidates: str | None) -> str | None:
    """The first candidate that names a file; an empty string names none."""
    for candidate in candidates:
        if candidate:
            return candidate
    return None


def _read_quoted(text: str) -> tuple[str, int] | None:
    """Decode the C-quoted string at the start of `text`: (value, index after the closing quote).

    Octal escapes are bytes of the path, so all bytes are collected and decoded as UTF-8
    together; decoding escape by escape would break every multi-byte character.
    None when the closing quote is missing.
    """
    out = bytearray()
    at, end = 1, len(text)
    while at < end:
        char = text[at]
        if char == '"':
            return out.decode("utf-8", "replace"), at + 1
        if char != "\\":
            out += char.encode("utf-8", "surrogatepass")
            at += 1
            continue
        if at + 1 >= end:
            return None
        digits = text[at + 1:at + 4]
        if len(digits) == 3 and digits[0] in "0123" and all(d in "01234567" for d in digits):
            out.append(int(digits, 8))
            at += 4
            continue
        escaped = text[at + 1]
        code = _NAMED_ESCAPES.get(escaped)
        out += bytes([code]) if code is not None else escaped.encode("utf-8", "surrogatepass")
        at += 2
    return None


def _strip_prefix(path: str, prefix: str) -> str:
    return path[len(prefix):] if path.startswith(prefix) else path


def _side_path(rest: str, prefix: str) -> str | None:
    """The path of a `---` / `+++` line after its marker; None for `/dev/null`."""
    path: str | None = None
    if rest.startswith('"'):
        quoted = _read_quoted(rest)
        if quoted is not None:
            path = quoted[0]
    if path is None:
        tab = rest.find("\t")
        path = rest if tab < 0 else rest[:tab]
    if path == DEV_NULL:
        return None
    return _strip_prefix(path, prefix)


def _bare_path(rest: str) -> str:
    """A `rename from/to` / `copy from/to` path: unquoted when git quoted it, else as is."""
    if rest.startswith('"'):
        quoted = _read_quoted(rest)
        if quoted is not None:
            return quoted[0]
    return rest


def _split_pair(rest: str, separator: str) -> tuple[str, str] | None:
    """Split the two raw paths of a `diff --git` header (separator " ") or `Binary files` line.

    A quoted side ends at its closing quote. Bare paths may themselves contain the separator,
    and git writes the two sides with equal-length prefixes, so a split leaving both halves
    the same length is git's own; failing that the first separator splits.
    """
    width = len(separator)
    if rest.startswith('"'):
        quoted = _read_quoted(rest)
        if quoted is None or not rest.startswith(separator, quoted[1]):
            return None
        return rest[:quoted[1]], rest[quoted[1] + width:]
    if rest.endswith('"'):
        # Only the last `separator"` whose quote is not the final character can open a quoted
        # side that runs to the end: the quote after any earlier one is unescaped (a separator
        # precedes it), so a side opened earlier closes there. One candidate, one read: linear
        # in the line, where trying each candidate was quadratic.
        at = rest.rfind(separator + '"', 0, len(rest) - 1)
        if at >= 0:
            quoted = _read_quoted(rest[at + width:])
            if quoted is not None and at + width + quoted[1] == len(rest):
                return rest[:at], rest[at + width:]
    if (len(rest) - width) % 2 == 0:
        middle = (len(rest) - width) // 2
        if middle > 0 and rest.startswith(separator, middle):
            return rest[:middle], rest[middle + width:]
    at = rest.find(separator)
    if at < 0:
        return None
    return rest[:at], rest[at + width:]


def _hunk_counts(line: str) -> tuple[int, int] | None:
    """(old count, new count) of an `@@ -o[,n] +o[,m] @@` header; a missing count is 1."""
    at = 4  # after "@@ -"
    old, at = _range(line, at)
    if old is None or not line.startswith(" +", at):
        return None
    new, at = _range(line, at + 2)
    if new is None or not line.startswith(" @@", at):
        return None
    return old, new


def _range(line: str, at: int) -> tuple[int | None, int]:
    """Read `start[,count]` at `at`; returns (count, index after it) or (None, at)."""
    start = _digits_end(line, at)
    if start == at:
        return None, at
    if not line.startswith(",", start):
        return 1, start
    end = _digits_end(line, start + 1)
    if end == start + 1:
        return None, at
    # A count past any input's line count only says "to the end of the input": read no more
    # than 18 digits of it (int() of a long digit run is slow, and refused past 4,300 digits).
    return int(line[start + 1:min(end, start + 19)]), end


def _digits_end(line: str, at: int) -> int:
    end = len(line)
    while at < end and "0" <= line[at] <= "9":
        at += 1
    return at


def parse_unified_diff(text: str) -> list[FileBlock]:
    """Read a unified diff into its file blocks, in input order.

    Raises DiffError for a combined diff, an unpaired `---`/`+++`, a hunk outside any file
    block, a hunk line its counts have no room for, a block naming no path, and non-blank text
    holding no block. Whitespace-only text (or none) is no blocks.
    """
    if not text or text.isspace():
        return []
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    drafts: list[_Draft] = []
    draft: _Draft | None = None
    index, count = 0, len(lines)
    while index < count:
        line = lines[index]
        index += 1
        if line.startswith("diff --"):
            if line.startswith("diff --git "):
                draft = _Draft(git_header=True)
                drafts.append(draft)
                pair = _split_pair(line[11:], " ")
                if pair is not None:
                    draft.header_old = _strip_prefix(_bare_path(pair[0]), "a/")
                    draft.header_new = _strip_prefix(_bare_path(pair[1]), "b/")
                continue
            if line.startswith(("diff --cc ", "diff --combined ")):
                raise DiffError(COMBINED_DIFF.format(line=line))
            continue
        if line.startswith("--- "):
            # A new header-less block only when this one already had a `---` line (as the
            # original reads spec §3.6): a `diff --git` header, a binary marker or a hunk does
            # not count, so a `---`/`+++` pair after them names this same block. A header-less
            # `Binary files` line names its own file (plain `diff -r`), so it is complete.
            if draft is None or draft.saw_minus or (draft.binary and not draft.git_header):
                draft = _Draft()
                drafts.append(draft)
            draft.saw_minus = True
            draft.minus_path = _side_path(line[4:], "a/")
            continue
        if line.startswith("+++ "):
            if draft is None or not draft.saw_minus or draft.saw_plus:
                raise DiffError(PLUS_WITHOUT_MINUS.format(line=line))
            draft.saw_plus = True
            draft.plus_path = _side_path(line[4:], "b/")
            continue
        if line.startswith("@@ -"):
            counts = _hunk_counts(line)
            if counts is None:
                continue  # not a hunk header: an ordinary line, ignored (spec §3.6)
            # A hunk belongs to a `---`/`+++` pair or to a `diff --git` header.
            if draft is None or not (draft.git_header or draft.saw_plus):
                raise DiffError(HUNK_WITHOUT_HEADER.format(line=line))
            draft.hunks += 1
            index = _read_hunk(lines, index, counts, draft)
            continue
        kind = _extended_header(line)
        if kind is None:
            continue  # `index`, `old mode`, `similarity index`, base85 payload, prose ...
        # A finished block is never rewritten by a later header line (see module docstring).
        if draft is None or draft.in_body() or (kind == "binary" and draft.binary):
            draft = _Draft()
            drafts.append(draft)
        _read_extended_header(line, draft)
    if not drafts:
        raise DiffError(NO_BLOCK)
    return [d.finish() for d in drafts]


# A line that does not continue a run of lines with one mark, in the joined text of a slice.
_RUN_BREAK = {mark: re.compile("\n(?!" + re.escape(mark) + ")") for mark in "+- "}
_AFTER_MARK = itemgetter(slice(1, None))


def _run_length(lines: list[str], index: int, limit: int, mark: str) -> int:
    """How many lines from `index` on (at most `limit`) start with `mark`, tested in C on the
    joined text of a slice: a creation's whole text is one run, and it is read without a
    bytecode per line. Slices double while they match whole, so a run costs its length and a
    short run a short slice."""
    length, width = 0, 16
    while length < limit:
        chunk = lines[index + length:index + length + min(width, limit - length)]
        joined = "\n".join(chunk)
        if not chunk or not joined.startswith(mark):
            return length
        found = _RUN_BREAK[mark].search(joined)
        if found is not None:
            return length + joined.count("\n", 0, found.start()) + 1
        length += len(chunk)
        width *= 2
    return length


_RUN_FROM = 8  # lines in a row with one mark after which the rest of the run is taken whole


def _read_hunk(lines: list[str], index: int, counts: tuple[int, int], draft: _Draft) -> int:
    """Consume a hunk body by its declared counts; returns the index of the next line.

    Lines are read one by one; once `_RUN_FROM` in a row carry the same mark, the rest of
    that run (a creation's whole text, a block of added lines) is taken at once by
    `_run_length`, which tests the lines in C. A mixed hunk never pays for a run's setup.
    """
    old_left, new_left = counts
    added, removed = draft.added, draft.removed
    count = len(lines)
    previous, streak = "", 0
    while (old_left or new_left) and index < count:
        body = lines[index]
        head = body[:1]
        if head != previous:
            previous, streak = head, 0
        elif streak < _RUN_FROM:
            streak += 1
        else:
            limit = {"+": new_left, "-": old_left, " ": min(old_left, new_left)}.get(head, 0)
            if limit:
                run = _run_length(lines, index, limit, head)
                if head != " ":
                    kept = added if head == "+" else removed
                    kept.extend(map(_AFTER_MARK, lines[index:index + run]))
                old_left -= 0 if head == "+" else run
                new_left -= 0 if head == "-" else run
                index += run
                continue
        index += 1
        if head == "+" and new_left:
            added.append(body[1:])
            new_left -= 1
        elif head == "-" and old_left:
            removed.append(body[1:])
            old_left -= 1
        elif (head == " " or body == "") and old_left and new_left:
            old_left -= 1
            new_left -= 1
        elif head != "\\":
            raise DiffError(UNKNOWN_HUNK_LINE.format(line=body))
    return index


_EXTENDED_PREFIXES = (
    "rename from ", "rename to ", "copy from ", "copy to ",
    "deleted file mode ", "new file mode ",
)


def _extended_header(line: str) -> str | None:
    """Classify a line `_read_extended_header` records: "binary", "header", or None."""
    if line.startswith(("Binary files ", "GIT binary patch")):
        return "binary"
    if line.startswith(_EXTENDED_PREFIXES):
        return "header"
    return None


def _read_extended_header(line: str, draft: _Draft) -> None:
    """Record a recognised extended header line; every other line names nothing we read."""
    if line.startswith("rename from "):
        draft.rename_from = _bare_path(line[12:])
    elif line.startswith("rename to "):
        draft.rename_to = _bare_path(line[10:])
    elif line.startswith("copy from "):
        draft.copy_from = _bare_path(line[10:])
    elif line.startswith("copy to "):
        draft.copy_to = _bare_path(line[8:])
    elif line.startswith("deleted file mode "):
        draft.deleted = True
    elif line.startswith("new file mode "):
        draft.created = True
    elif line.startswith("GIT binary patch"):
        draft.binary = True
    elif line.startswith("Binary files "):
        draft.binary = True
        body = line.removesuffix("\r")
        if body.endswith(" and /dev/null differ"):
            draft.deleted = True
        if body.endswith(" differ"):
            pair = _split_pair(body[13:-7], " and ")
            if pair is not None:
                draft.binary_old = _side_path(pair[0], "a/")
                draft.binary_new = _side_path(pair[1], "b/")


def _call(name: str, path: str, file_change: dict | None) -> dict:
    call: dict = {"name": name, "args": {"file_path": path}}
    if file_change is not None:
        call["fileChange"] = file_change
    return call


def _block_calls(block: FileBlock) -> list[dict]:
    """The calls one block becomes (05-cli.md §3.6 table), in the order they are judged."""
    pre, post = "\n".join(block.removed), "\n".join(block.added)
    if block.is_rename:
        old, new = block.old_path, block.new_path
        # Binary content is not evidence; an empty `modify` would claim no line changed.
        after = (None if block.is_binary
                 else {"kind": "modify", "path": new, "pre": pre, "post": post})
        return [
            _call(STAGED_DELETE, old, {"kind": "delete", "path": old}),
            _call(STAGED_WRITE, new, after),
        ]
    path = block.path
    if block.is_binary:
        return [_call(STAGED_DELETE if block.is_deletion else STAGED_WRITE, path, None)]
    if block.is_deletion:
        return [_call(STAGED_DELETE, path, {"kind": "delete", "path": path, "pre": pre})]
    if block.is_creation:
        return [_call(STAGED_WRITE, path, {"kind": "create", "path": path, "post": post})]
    return [_call(STAGED_WRITE, path, {"kind": "modify", "path": path, "pre": pre, "post": post})]


def diff_to_input(text: str) -> dict:
    """Translate a unified diff into the covenant input IR as plain JSON-shaped data.

    One or two calls per file block in input order (a rename is a `staged-delete` of the old
    path, then a `staged-write` of the new one). Raises DiffError as `parse_unified_diff`.
    """
    calls: list[dict] = []
    for block in parse_unified_diff(text):
        calls.extend(_block_calls(block))
    return {"toolCalls": calls, "subagentSpawns": [], "userMessages": []}
