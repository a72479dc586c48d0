"""Runtime half of the JavaScript regex dialect: run a translated pattern with JS results.

The translator (`polydeukes.compiler.regex`) turns a JavaScript pattern into Python `re` source
once, at compile time; the plan stores `(source, flags, needs_utf16)` and this module runs it.
It imports only the standard library because the VM imports it on the hot path.

JavaScript strings are sequences of UTF-16 code units and non-`u` patterns match code units, so
a character above U+FFFF is two units to JavaScript (`^.$` does not match an emoji). When the
translator says the pattern can tell the difference (`needs_utf16`) and the subject holds such a
character, the pattern runs over the subject's code-unit view — a `str` whose astral characters
are split into their surrogate halves — and captured texts are joined back before they are
returned, so callers only ever see ordinary Python strings.
"""

from __future__ import annotations

import re

import msgspec

from polydeukes.vm.sre import LazyPattern

_ASTRAL = LazyPattern("[\U00010000-\U0010ffff]")


class TranslatedPattern(msgspec.Struct, frozen=True, gc=False):
    """What the translator produces and the plan stores. (A Struct, not a NamedTuple: a
    NamedTuple class costs every check ~0.15 ms to create.)"""

    source: str  # Python `re` source, compiled with `flags`
    flags: int  # Python `re` flags; never IGNORECASE (case-insensitivity is spelled out)
    group_count: int  # capturing groups, numbered by position as JavaScript numbers them
    needs_utf16: bool  # matching must run over the UTF-16 code-unit view of astral subjects


class _Unset:
    """A capture group that did not take part in the match (JavaScript `undefined`)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "UNSET"


UNSET = _Unset()


def _split_astral(m: re.Match[str]) -> str:
    offset = ord(m.group()) - 0x10000
    return chr(0xD800 + (offset >> 10)) + chr(0xDC00 + (offset & 0x3FF))


def to_code_units(text: str) -> str:
    """The UTF-16 code-unit view of `text`: each astral character becomes two surrogates."""
    return _ASTRAL().sub(_split_astral, text)


def from_code_units(units: str) -> str:
    """Join surrogate pairs back into characters; a lone surrogate stays as it is (as in JS)."""
    if units.isascii():
        return units
    return units.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "surrogatepass")


class JsMatch:
    """The first match of a search, with texts in JavaScript string terms."""

    __slots__ = ("_m", "_units")

    def __init__(self, m: re.Match[str], units: bool) -> None:
        self._m = m
        self._units = units

    @property
    def text(self) -> str:
        return self.group(0)  # type: ignore[return-value]

    def group(self, n: int = 0) -> str | None:
        """Text of group `n` (0 = the whole match), or None when the group did not take part."""
        text = self._m.group(n)
        if text is None or not self._units:
            return text
        return from_code_units(text)

    def span(self, n: int = 0) -> tuple[int, int] | None:
        """Start and end of group `n` in UTF-16 code units (JavaScript's `indices`), or None."""
        start, end = self._m.span(n)
        if start < 0:
            return None
        if self._units:
            return start, end  # the search already ran over the code-unit view
        # Each astral character before an offset is one code point but two code units.
        subject = self._m.string
        return (start + len(_ASTRAL().findall(subject, 0, start)),
                end + len(_ASTRAL().findall(subject, 0, end)))

    def __repr__(self) -> str:
        return f"<JsMatch {self.text!r}>"


class JsRegex:
    """A compiled JavaScript pattern: unanchored first-match search, as `RegExp.prototype.exec`."""

    __slots__ = ("source", "flags", "needs_utf16", "_re")

    def __init__(self, source: str, flags: int = 0, needs_utf16: bool = False,
                 compiled: re.Pattern[str] | None = None) -> None:
        """`compiled`: `source` already compiled with `flags` (from the plan, vm/sre.py)."""
        self.source = source
        self.flags = flags
        self.needs_utf16 = needs_utf16
        self._re = re.compile(source, flags) if compiled is None else compiled

    @classmethod
    def from_translated(cls, t: TranslatedPattern) -> JsRegex:
        return cls(t.source, t.flags, t.needs_utf16)

    def _subject(self, subject: str) -> tuple[str, bool]:
        # Fast path: without astral characters the code-unit view is the string itself.
        if self.needs_utf16 and not subject.isascii() and _ASTRAL().search(subject):
            return to_code_units(subject), True
        return subject, False

    def search(self, subject: str) -> JsMatch | None:
        text, units = self._subject(subject)
        m = self._re.search(text)
        return None if m is None else JsMatch(m, units)

    def test(self, subject: str) -> bool:
        text, _ = self._subject(subject)
        return self._re.search(text) is not None

    def group1(self, subject: str) -> str | None | _Unset:
        """What `keyByPattern` reads: group 1 of the first match.

        None when nothing matches (JS `exec` gives null), UNSET when the match leaves group 1
        out (JS `undefined`), otherwise the group's text (possibly empty).
        """
        text, units = self._subject(subject)
        m = self._re.search(text)
        if m is None:
            return None
        found = m.group(1)
        if found is None:
            return UNSET
        return from_code_units(found) if units else found

    def __repr__(self) -> str:
        return f"JsRegex({self.source!r}, {self.flags}, {self.needs_utf16})"
