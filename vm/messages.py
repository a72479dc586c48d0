"""The lines a declaration's judgment writes (spec 03 §13): break messages and their lines.

A break message is rendered from the first witness of a failed relate entry by three sequential
placeholder passes that behave like JS `replaceAll` with a string replacement, `$` patterns
included; the judge then wraps it into `discipline '<id>' broken on <subject>: …`.
"""

from __future__ import annotations

from typing import Any, Sequence

from polydeukes.vm.algebra import MISSING
from polydeukes.vm.sre import LazyPattern
from polydeukes.vm.values import UNDEFINED, js_string, js_trim

NO_SOURCE = "the world carries no source named '{source}'"  # spec 03 §7.3, absence under `error`

_NEWLINES = LazyPattern("[\r\n]+")


def _substitution(replacement: str, subject: str, position: int, matched: str) -> str:
    """ECMAScript GetSubstitution for a string search: no captures, no named groups."""
    out = []
    i, end = 0, len(replacement)
    while i < end:
        c = replacement[i]
        if c == "$" and i + 1 < end:
            d = replacement[i + 1]
            if d == "$":
                out.append("$")
            elif d == "&":
                out.append(matched)
            elif d == "`":
                out.append(subject[:position])
            elif d == "'":
                out.append(subject[position + len(matched):])
            else:
                out.append(c)  # `$1`, `$<x>` and a lone `$` stay literal
                i += 1
                continue
            i += 2
            continue
        out.append(c)
        i += 1
    return "".join(out)


def _replace_all(subject: str, placeholder: str, replacement: str) -> str:
    """JS `subject.replaceAll(placeholder, replacement)` with a string replacement."""
    if placeholder not in subject:
        return subject
    if "$" not in replacement:
        return subject.replace(placeholder, replacement)
    # `$`` and `$'` read the subject around each occurrence, so expand per occurrence.
    out = []
    start, width = 0, len(placeholder)
    position = subject.find(placeholder)
    while position != -1:
        out.append(subject[start:position])
        out.append(_substitution(replacement, subject, position, placeholder))
        start = position + width
        position = subject.find(placeholder, start)
    out.append(subject[start:])
    return "".join(out)


def render_break(
    template: str | tuple[str, str], witnesses: Sequence[tuple[str, Any, Any, Any]]
) -> str:
    """The message of one failed relate entry (spec 03 §13.2); `witnesses` is non-empty.

    `template` is the entry's `message`, or its `messageBySide` as `(left, right)`, chosen by the
    side of the first witness.
    """
    key, value, side, before = witnesses[0]
    if type(template) is tuple:
        template = template[0] if side == "left" else template[1]
    text = _replace_all(template, "{key}", key)
    text = _replace_all(text, "{value}", js_string(value))
    shown_before = "" if before is MISSING or before is UNDEFINED else js_string(before)
    text = _replace_all(text, "{before}", shown_before)
    if len(witnesses) > 1:
        text += f" (+{len(witnesses) - 1})"
    return text


def fold_why(why: str | None) -> str | None:
    """`why` as one line: CR/LF runs become one space, then trim; None when nothing is left."""
    if not why:
        return None
    folded = js_trim(_NEWLINES().sub(" ", why))
    return folded or None


def break_line(entry_id: str, subject: str, message: str, why: str | None) -> str:
    """`discipline '<id>' broken on <subject>: <message>[ — why: <why>]`; `why` is folded here."""
    line = f"discipline '{entry_id}' broken on {subject}: {message}"
    folded = fold_why(why)
    return line if folded is None else f"{line} — why: {folded}"


def unjudgeable_line(entry_id: str, subject: str, source: str, reason: str) -> str:
    """`discipline '<id>' cannot judge <subject>: <source> — <reason>` (never carries a why)."""
    return f"discipline '{entry_id}' cannot judge {subject}: {source} — {reason}"
