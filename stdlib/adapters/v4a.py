"""The V4A patch format of `apply_patch` (spec 07 §4.4): parse a patch into file changes.

Pure: the pre-state of each target comes from an injected `read(path) -> str | None` (None for
a file that does not exist; any other failure is the reader's exception and propagates). A
patch this parser cannot read, or one the tool itself would refuse (a hunk that does not match,
a delete of a missing file), raises PatchRefused with the reason: never a guess, never a
traceback. Paths are returned as the patch spells them; rebasing them onto the project is the
caller's business (spec 07 §4.5), after parsing, so the two bases never cross.

Shared by every host that edits through V4A patches (Codex's apply_patch; OpenCode and Copilot
CLI later). Standard library only.
"""

from __future__ import annotations

from typing import Callable

from polydeukes.vm.values import js_trim

BEGIN = "*** Begin Patch"
END = "*** End Patch"
ENVIRONMENT = "*** Environment ID:"
ADD = "*** Add File:"
DELETE = "*** Delete File:"
UPDATE = "*** Update File:"
MOVE = "*** Move to:"
END_OF_FILE = "*** End of File"
HEADERS = (ADD, DELETE, UPDATE)


class PatchRefused(Exception):
    """The patch cannot be read, or the tool would refuse it; ``str(e)`` is the reason."""


Reader = Callable[[str], "str | None"]


def parse_patch(text: str, read: Reader) -> list[dict]:
    """The file changes a patch makes, in patch order (fileChange dicts, paths as spelled).

    Add -> create; Delete -> delete (with the pre-state); Update -> modify; Update with
    `*** Move to:` -> delete of the old path, then create of the new one (a rename changes the
    path it leaves and the one it takes: judging one alone would let a file move out of or into
    a protected directory unseen).
    """
    if not isinstance(text, str):
        raise PatchRefused("the patch is not text")
    # Trimmed once as a whole (never per line); LF splits; a CR ending a line is dropped.
    lines = [line[:-1] if line.endswith("\r") else line for line in js_trim(text).split("\n")]
    if lines[0].strip() != BEGIN:
        raise PatchRefused(f"the patch does not start with '{BEGIN}'")
    if len(lines) < 2 or lines[-1].strip() != END:
        raise PatchRefused(f"the patch does not end with '{END}'")
    body = lines[1:-1]
    if body and body[0].startswith(ENVIRONMENT):
        body = body[1:]
    changes: list[dict] = []
    for header, path, hunk in _hunks(body):
        if header == ADD:
            changes.append(_add(path, hunk))
        elif header == DELETE:
            changes.append({"kind": "delete", "path": path, "pre": _existing(path, read)})
        else:
            changes.extend(_update(path, hunk, read))
    return changes


def _hunks(body: list[str]) -> list[tuple[str, str, list[str]]]:
    """Split the body at hunk headers, recognized only at the start of a raw line."""
    hunks: list[tuple[str, str, list[str]]] = []
    for line in body:
        header = next((h for h in HEADERS if line.startswith(h)), None)
        if header is None:
            if not hunks:
                raise PatchRefused(f"'{line}' appears before any hunk header")
            hunks[-1][2].append(line)
            continue
        path = line[len(header):].strip()
        if not path:
            raise PatchRefused(f"'{header}' names no path")
        hunks.append((header, path, []))
    if not hunks:
        raise PatchRefused("the patch names no file to change")
    return hunks


def _add(path: str, hunk: list[str]) -> dict:
    for line in hunk:
        if not line.startswith("+"):
            raise PatchRefused(f"'{path}' has a body line without the '+' prefix")
    return {"kind": "create", "path": path, "post": "".join(line[1:] + "\n" for line in hunk)}


def _existing(path: str, read: Reader) -> str:
    pre = read(path)
    if pre is None:
        raise PatchRefused(f"the patch targets '{path}', which does not exist")
    return pre


class _Block:
    __slots__ = ("anchor", "old", "new", "at_end")

    def __init__(self, anchor: str) -> None:
        self.anchor = anchor  # the text after `@@ `: a line to find before the old lines
        self.old: list[str] = []
        self.new: list[str] = []
        self.at_end = False  # `*** End of File`: the old lines end the file


def _update(path: str, hunk: list[str], read: Reader) -> list[dict]:
    destination = None
    if hunk and hunk[0].startswith(MOVE):
        destination = hunk[0][len(MOVE):].strip()
        if not destination:
            raise PatchRefused(f"'{MOVE}' names no path")
        hunk = hunk[1:]
    pre = _existing(path, read)
    post = _splice(path, pre, _blocks(path, hunk))
    if destination is None:
        return [{"kind": "modify", "path": path, "pre": pre, "post": post}]
    return [{"kind": "delete", "path": path, "pre": pre},
            {"kind": "create", "path": destination, "post": post}]


def _blocks(path: str, hunk: list[str]) -> list[_Block]:
    blocks: list[_Block] = []
    current: _Block | None = None
    for line in hunk:
        if line == "@@" or line.startswith("@@ "):
            current = _Block(line[3:] if line.startswith("@@ ") else "")
            blocks.append(current)
            continue
        if current is None:
            if blocks:  # after `*** End of File` only a new `@@` may follow
                raise PatchRefused(f"a hunk of '{path}' carries '{line}' outside any block")
            current = _Block("")  # the first block may omit its `@@`
            blocks.append(current)
        if line == END_OF_FILE:
            current.at_end = True
            current = None
        elif line.startswith("-"):
            current.old.append(line[1:])
        elif line.startswith("+"):
            current.new.append(line[1:])
        else:  # context, in both; its leading space is the prefix
            text = line[1:] if line.startswith(" ") else line
            current.old.append(text)
            current.new.append(text)
    return blocks


def _splice(path: str, pre: str, blocks: list[_Block]) -> str:
    """Apply the blocks in order, each located from where the previous one landed."""
    # A CRLF file keeps its line ends: lines are matched without their CR and the lines the
    # patch brings in get one back.
    crlf = "\r\n" in pre and pre.index("\r\n") == pre.index("\n") - 1
    trailing_newline = pre.endswith("\n")
    raw = [] if pre == "" else (pre[:-1] if trailing_newline else pre).split("\n")
    keys = [line[:-1] if line.endswith("\r") else line for line in raw]
    eol = "\r" if crlf else ""
    out: list[str] = []
    cursor = 0
    for block in blocks:
        if block.anchor:
            found = _find(keys, [block.anchor], cursor, at_end=False)
            if found is None:
                raise PatchRefused(f"a hunk of '{path}' does not match the file it updates")
            out.extend(raw[cursor:found + 1])
            cursor = found + 1
        found = _find(keys, block.old, cursor, at_end=block.at_end)
        if found is None:
            raise PatchRefused(f"a hunk of '{path}' does not match the file it updates")
        out.extend(raw[cursor:found])
        out.extend(line + eol for line in block.new)
        cursor = found + len(block.old)
    out.extend(raw[cursor:])
    if crlf and not trailing_newline and out and not (raw and raw[-1].endswith("\r")):
        out[-1] = out[-1].removesuffix("\r")  # the file's last line had no line end at all
    text = "\n".join(out)
    return text + "\n" if trailing_newline and out else text


def _find(keys: list[str], old: list[str], start: int, *, at_end: bool) -> int | None:
    """Where `old` occurs in `keys` at or after `start`; an empty `old` sits at `start`.

    At the end of the file first when the block is marked `*** End of File`, then anywhere
    after `start`, as the tool does."""
    width = len(old)
    if width == 0:
        return start
    last = len(keys) - width
    if at_end and last >= start and keys[last:] == old:
        return last
    first = old[0]
    for i in range(start, last + 1):
        if keys[i] == first and keys[i:i + width] == old:
            return i
    return None
