"""Compiled regular expressions carried in the plan: the one module that knows CPython's
`re` -> `_sre` handshake, so that a change in a future CPython touches this file alone.

CPython's `re.compile` parses a pattern (`re._parser`), turns it into a list of SRE code words
(`re._compiler`) and hands that list to `_sre.compile`, which builds the pattern object. The
first two steps are pure Python and are what a check used to pay for every pattern it ran, in
every process. `pdks compile` now runs them once (`compiled_form`) and the plan stores their
result; a check hands the stored words straight to `_sre.compile` (`pattern`).

The words are only meaningful to the `_sre` that `re._compiler` was written for: `re` itself
refuses to run against another one (its `MAGIC` check). So the plan records `KEY` (the engine's
`MAGIC`, word size, byte order and the interpreter's version) beside the words, and a check whose
interpreter has another key compiles the pattern with `re.compile` instead: the same pattern
object, only slower. `pdks explain --code` says when a plan is read that way. `_sre.compile`
also validates the words it is given, and a form it refuses falls back the same way.

Standard library and msgspec only: the VM imports this on the hot path.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

import _sre
import msgspec

# Everything the words depend on: the engine's code version and word size, the byte order they
# are stored in, and the interpreter (whose `re._compiler` chose the words).
KEY = (f"sre {_sre.MAGIC} {_sre.CODESIZE}{sys.byteorder[0]} "
       f"{sys.implementation.cache_tag} {sys.version_info[0]}.{sys.version_info[1]}."
       f"{sys.version_info[2]}")
# memoryview format of one code word (`_sre.CODESIZE` bytes, native order).
_WORD = {2: "H", 4: "I"}.get(_sre.CODESIZE, "")


class CompiledPattern(msgspec.Struct, frozen=True, array_like=True, gc=False):
    """What `re._compiler` hands `_sre.compile` for one pattern, minus the source text."""

    flags: int  # the pattern's flags with its inline ones ((?s), (?i), ...) folded in
    code: bytes  # the SRE code words, native order
    groups: int  # capturing groups
    groupindex: dict[str, int]  # named groups


def compiled_form(source: str, flags: int) -> CompiledPattern | None:
    """The SRE form of `re.compile(source, flags)` on this interpreter (at `pdks compile`);
    None when this interpreter has no such form to give (the check then uses `re.compile`).
    Raises what `re.compile` raises for a pattern `re` cannot parse."""
    if not _WORD:
        return None
    form = _forms.get((source, flags))
    if form is None:
        import struct
        from re import _compiler  # the cold path only: a check never parses a pattern

        tree = parsed(source, flags)
        words = _compiler._code(tree, flags)
        code = struct.pack(f"={len(words)}{_WORD}", *words)
        form = CompiledPattern(int(flags | tree.state.flags), code, tree.state.groups - 1,
                               dict(tree.state.groupdict))
        _remember(_forms, (source, flags), form)
    return form


def parsed(source: str, flags: int):
    """`re._parser`'s tree of a pattern (the cold path: a check never parses one). A compile
    reads each pattern's tree three times (the translator's check that `re` takes it, the
    required literal, the SRE form), so it is parsed once per process; readers must not
    change it. Raises what `re.compile` raises."""
    tree = _trees.get((source, flags))
    if tree is None:
        from re import _parser

        tree = _parser.parse(source, flags)
        _remember(_trees, (source, flags), tree)
    return tree


# Per process, bounded so that a long-lived process (the Judge API) cannot grow without end.
_trees: dict = {}
_forms: dict = {}
_REMEMBERED = 4096


def _remember(cache: dict, key, value) -> None:
    if len(cache) >= _REMEMBERED:
        cache.clear()
    cache[key] = value


def require_compiles(source: str) -> None:
    """Raise what `re.compile(source)` raises when `re` cannot compile it; the compiler's
    check of a translation, which leaves the SRE form behind for the plan."""
    pattern(source, 0, compiled_form(source, 0), KEY)


def pattern(source: str, flags: int, form: CompiledPattern | None, key: str):
    """The `re.Pattern` for `source`: rebuilt from `form` when it was compiled under this
    interpreter's `KEY`, else (or if `_sre` refuses the form) `re.compile(source, flags)`."""
    if form is not None and key == KEY:
        try:
            indexgroup = [None] * (form.groups + 1)
            for name, number in form.groupindex.items():
                indexgroup[number] = name
            return _sre.compile(source, form.flags, memoryview(form.code).cast(_WORD).tolist(),
                                form.groups, form.groupindex, tuple(indexgroup))
        except (RuntimeError, TypeError, ValueError, OverflowError, IndexError):
            pass  # words _sre does not accept: what re.compile makes of the source is the truth
    import re

    return re.compile(source, flags)


def usable(key: str) -> bool:
    """Whether a plan whose patterns were compiled under `key` runs them without `re.compile`."""
    return key == KEY


class CarriedPattern(msgspec.Struct, frozen=True, array_like=True, gc=False):
    """One of the standard library's own patterns (a `LazyPattern`) with its SRE form, made at
    `pdks compile` and carried in the plan (`Plan.carried`), so that a check rebuilds it with
    `_sre.compile` instead of running `re.compile` (see `carry`)."""

    source: str
    flags: int
    form: CompiledPattern


# The carried patterns of the plan being run (`carry`), the interpreter key they were made
# under, and their index by (source, flags), built on the first `LazyPattern` lookup.
_carried: Sequence[CarriedPattern] = ()
_carried_key = ""
_carried_index: dict | None = None


def carry(patterns: Sequence[CarriedPattern], key: str) -> None:
    """Let every `LazyPattern` first used from now on rebuild from these forms (a plan's
    `carried`, made under `key`). One set per process: a later plan's replaces it (a
    long-lived Judge runs plans of one interpreter, whose forms agree)."""
    global _carried, _carried_key, _carried_index
    if patterns is not _carried or key != _carried_key:
        _carried, _carried_key, _carried_index = patterns, key, None


def _carried_form(source: str, flags: int) -> CompiledPattern | None:
    global _carried_index
    if _carried_key != KEY:
        return None
    index = _carried_index
    if index is None:
        try:  # a plan read from disk decodes its carried forms here (vm/planfile.py)
            index = {(carried.source, carried.flags): carried.form for carried in _carried}
        except (msgspec.DecodeError, msgspec.ValidationError, ValueError, TypeError,
                IndexError):
            index = {}  # forms that do not decode: every pattern compiles from its source
        _carried_index = index
    return index.get((source, flags))


class LazyPattern:
    """A module-level regular expression compiled on its first use, not at import: a check
    imports many modules whose patterns only some calls run. `PATTERN()` is the `re.Pattern`,
    rebuilt from the plan's form when the plan carries one (`carry`), else `re.compile`'s."""

    __slots__ = ("source", "flags", "_compiled")

    def __init__(self, source: str, flags: int = 0) -> None:
        self.source = source
        self.flags = flags
        self._compiled = None

    def __call__(self):
        compiled = self._compiled
        if compiled is None:
            compiled = self._compiled = pattern(self.source, self.flags,
                                                _carried_form(self.source, self.flags),
                                                _carried_key)
        return compiled

    def __repr__(self) -> str:
        return f"LazyPattern({self.source!r}, {self.flags})"
