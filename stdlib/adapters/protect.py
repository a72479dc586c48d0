"""`init` makes protectedPaths cover what it installed (cold path).

A hook registration, its delegator and the judge's runtime are the gate: an agent that edits
them disarms the judge. Every installer therefore makes sure `protectedPaths` in the project's
config covers each of them, by the smallest textual edit that does it: the new entries are
inserted after the list's last item (block or flow style, in the list's own quoting), or, when
the config has no such key, a new `protectedPaths:` block is appended. Every comment, line and
the user's order stay as they were, and the result is read back: it must parse to exactly the
old config with the new entries at the end of the list. When that cannot be done safely (a
JSON config without the key, an alias, a list written twice, a config that does not parse), the
installer refuses before writing anything and prints the exact lines to add.

An entry already covered (by itself or by an ancestor directory, e.g. `.claude` covers
`.claude/settings.json`) is not added again.
"""

from __future__ import annotations

import json
import os
import re

from polydeukes.stdlib.adapters.install import InstallError, _replace
from polydeukes.vm.project import present_config_names
from polydeukes.vm.safeio import MiB, read_regular

KEY = "protectedPaths"
UNSAFE = ("cannot add to protectedPaths in {config} without rewriting it ({why}) \u2014 add "
          "{what} to it yourself, then run this again:\n{lines}")
APPENDED_COMMENT = ("# Added by `{command} init`: the hook registration is a gate, and an agent "
                    "that edits it disarms the judge.")

_YAML_KEY = re.compile(r"""^(?:protectedPaths|'protectedPaths'|"protectedPaths")[ \t]*:(.*)$""")
_JSON_KEY = re.compile(r'"protectedPaths"\s*:\s*\[')
_PLAIN = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_./-]*$|^\.[A-Za-z0-9_][A-Za-z0-9_./-]*$")


class Unsafe(Exception):
    """The edit cannot be made safely; ``str(e)`` says why."""


def preflight(root: str, entries: list[str], command: str) -> None:
    """Refuse now, before anything is written, when the existing config cannot take the entries.
    No config yet (the scaffold will write one) or an ambiguous one (the scaffold refuses) is
    left to the scaffold."""
    _plan(root, entries, command)


def apply(root: str, entries: list[str], command: str) -> list[str]:
    """Add the entries the config does not cover yet; the report lines."""
    planned = _plan(root, entries, command)
    if planned is None:
        return []
    name, text, added = planned
    if text is None:
        return []
    _replace(os.path.join(root, name), text)
    return [f"protected {entry} in {name}" for entry in added]


def _plan(root: str, entries: list[str], command: str):
    found = present_config_names(root)
    if len(found) != 1:
        return None
    name = found[0]
    try:
        original = read_regular(os.path.join(root, name), limit=16 * MiB).decode("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise InstallError(_unsafe(name, f"it cannot be read: {_reason(exc)}", entries,
                                   json_style=name.endswith(".json"))) from None
    try:
        text, added = extend(original, entries, json_style=name.endswith(".json"),
                             command=command)
    except Unsafe as exc:
        raise InstallError(_unsafe(name, str(exc), entries,
                                   json_style=name.endswith(".json"))) from None
    return name, text, added


def _reason(exc: Exception) -> str:
    return getattr(exc, "strerror", None) or str(exc)


def _unsafe(name: str, why: str, entries: list[str], *, json_style: bool) -> str:
    if json_style:
        lines = "  " + ", ".join(json.dumps(e) for e in entries)
    else:
        lines = "\n".join(f"  - {_quoted(e, 'single')}" for e in entries)
    what = "these entries" if len(entries) > 1 else "this entry"
    return UNSAFE.format(config=name, why=why, what=what, lines=lines)


def extend(text: str, entries: list[str], *, json_style: bool = False,
           command: str = "pdks") -> tuple[str | None, list[str]]:
    """(the new text or None when nothing is missing, the entries added). Raises Unsafe."""
    before = _parse(text, json_style)
    if not isinstance(before, dict):
        raise Unsafe("it is not a mapping of keys")
    current = before.get(KEY)
    if current is None:
        current = []
    if not isinstance(current, list):
        raise Unsafe("its protectedPaths is not a list")
    missing = [e for e in entries if not _covered(e, current)]
    missing = [e for i, e in enumerate(missing) if e not in missing[:i]]
    if not missing:
        return None, []
    edited = (_json_edit if json_style else _yaml_edit)(text, missing, command)
    try:
        after = _parse(edited, json_style)
    except Unsafe:
        after = None
    if after != {**before, KEY: current + missing}:
        raise Unsafe("reading it back did not give the list it should")
    return edited, missing


def _parse(text: str, json_style: bool) -> object:
    try:
        if json_style:
            return json.loads(text)
        import yaml

        return yaml.safe_load(text)
    except Exception as exc:  # noqa: BLE001 - any parser failure means "not safely editable"
        raise Unsafe(f"it does not parse: {str(exc).splitlines()[0] if str(exc) else exc}") \
            from None


def _covered(entry: str, current: list) -> bool:
    wanted = _segments(entry)
    for existing in current:
        if isinstance(existing, str):
            have = _segments(existing)
            if have and wanted[:len(have)] == have:
                return True
    return False


def _segments(path: str) -> list[str]:
    while path.startswith("./"):
        path = path[2:]
    return [segment for segment in path.split("/") if segment and segment != "."]


# -- YAML -------------------------------------------------------------------------------------


def _yaml_edit(text: str, entries: list[str], command: str) -> str:
    lines = text.splitlines(keepends=True)
    newline = "\r\n" if "\r\n" in text else "\n"
    keys = [i for i, line in enumerate(lines) if _YAML_KEY.match(line.rstrip("\r\n"))]
    if len(keys) > 1:
        raise Unsafe("it names protectedPaths more than once")
    if not keys:
        tail = "" if not text or text.endswith("\n") else newline
        block = [APPENDED_COMMENT.format(command=command), f"{KEY}:"]
        block += [f"  - {_quoted(e, 'single')}" for e in entries]
        return text + tail + newline + newline.join(block) + newline
    index = keys[0]
    value = _strip_comment(_YAML_KEY.match(lines[index].rstrip("\r\n")).group(1)).strip()
    if value.startswith("["):
        offset = sum(len(line) for line in lines[:index]) + lines[index].index("[")
        return _flow_edit(text, offset, entries, style=None)
    if value:
        raise Unsafe("its protectedPaths is not written as a list")
    return _block_edit(lines, index, entries, newline)


def _block_edit(lines: list[str], index: int, entries: list[str], newline: str) -> str:
    """Insert items after the last item of the block sequence under lines[index]."""
    indent: int | None = None
    last: int | None = None
    for number in range(index + 1, len(lines)):
        line = lines[number].rstrip("\r\n")
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        depth = len(line) - len(line.lstrip(" "))
        is_item = line[depth:].startswith("- ") or line[depth:] == "-"
        if indent is None:
            if not is_item:
                break  # no items: the key is null, the next key follows
            indent = depth
        if depth == indent and is_item:
            last = number
        elif depth > indent:
            last = number  # the continuation of an item
        else:
            break
    if last is None:
        indent, last, style = 2, index, "single"
    else:
        style = _item_style(lines, index, indent)
    new = [" " * indent + "- " + _quoted(e, style) + newline for e in entries]
    if not lines[last].endswith("\n"):
        lines[last] += newline
    return "".join(lines[:last + 1] + new + lines[last + 1:])


def _item_style(lines: list[str], index: int, indent: int) -> str:
    """The quoting of the list's last item: single, double, or plain."""
    style = "single"
    for line in lines[index + 1:]:
        body = line.rstrip("\r\n")
        if body[:indent].strip() == "" and body[indent:].startswith("- "):
            first = body[indent + 2:].lstrip()[:1]
            style = {"'": "single", '"': "double"}.get(first, "plain")
        elif body.strip() and not body.strip().startswith("#") and \
                len(body) - len(body.lstrip(" ")) < indent:
            break
    return style


def _strip_comment(value: str) -> str:
    """A YAML plain value without its trailing comment (`#` after whitespace, outside quotes)."""
    quote = None
    for i, char in enumerate(value):
        if quote:
            if char == quote:
                quote = None
        elif char in "'\"":
            quote = char
        elif char == "#" and (i == 0 or value[i - 1] in " \t"):
            return value[:i]
    return value


def _quoted(entry: str, style: str | None) -> str:
    if style == "double" or style == "json":
        return json.dumps(entry)
    if style == "plain" and _PLAIN.match(entry):
        return entry
    return "'" + entry.replace("'", "''") + "'"


# -- flow sequences (YAML `[a, b]`, and JSON) ----------------------------------------------------


def _json_edit(text: str, entries: list[str], command: str) -> str:
    found = list(_JSON_KEY.finditer(text))
    if not found:
        raise Unsafe("a JSON config without a protectedPaths list cannot take one in place")
    if len(found) > 1:
        raise Unsafe("it names protectedPaths more than once")
    return _flow_edit(text, found[0].end() - 1, entries, style="json")


def _flow_edit(text: str, start: int, entries: list[str], style: str | None) -> str:
    """Insert the entries after the last element of the flow sequence opening at text[start]."""
    last = start  # the last character that is neither space nor comment
    depth = 0
    i = start
    while True:
        if i >= len(text):
            raise Unsafe("its protectedPaths list does not end")
        char = text[i]
        if char in "'\"":
            i = last = _string_end(text, i)
            if style != "json":  # the quoting of the list's last quoted item
                style = "double" if char == '"' else "single"
        elif char == "#" and style != "json" and text[i - 1] in " \t\n":
            i = text.find("\n", i)
            i = len(text) if i == -1 else i
            continue
        elif char in "]}" and depth == 1:
            break
        elif not char.isspace():
            depth += 1 if char in "[{" else -1 if char in "]}" else 0
            last = i
        i += 1
    items = ", ".join(_quoted(e, style or "single") for e in entries)
    joiner = {"[": "", ",": " "}.get(text[last], ", ")
    return text[:last + 1] + joiner + items + text[last + 1:]


def _string_end(text: str, start: int) -> int:
    """Index of the quote closing the string that opens at text[start]."""
    quote = text[start]
    i = start + 1
    while i < len(text):
        if quote == '"' and text[i] == "\\":
            i += 2
            continue
        if text[i] == quote:
            if quote == "'" and text[i + 1:i + 2] == "'":
                i += 2  # '' is a quote inside a single-quoted YAML string
                continue
            return i
        i += 1
    raise Unsafe("its protectedPaths list has a string that does not end")
