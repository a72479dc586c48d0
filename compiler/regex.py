"""JavaScript regular expressions (non-`u`, Annex B) -> Python `re` source, or a refusal.

Config authors write patterns for JavaScript's `RegExp` (spec 03 §19). This module parses a
pattern with the ECMAScript grammar, so it accepts and rejects exactly what JavaScript does, and
emits Python `re` source in which every JS meaning is spelled out: character sets become explicit
sets of UTF-16 code units, `$` becomes `\\Z`, case-insensitivity is expanded into the sets (no
`re.IGNORECASE`), and back-references become conditionals so an unset group matches empty.

Constructs `re` cannot express faithfully are refused with a reason rather than approximated:
variable-width look-behind, captures whose value depends on JavaScript resetting groups at each
repetition, and the nested-quantifier shapes that backtrack catastrophically (the hot path must
never hang). docs/regex-dialect.md lists every rule.

The runtime half (running a translation, the UTF-16 view) is `polydeukes.vm.jsregex`.
"""

from __future__ import annotations

import bisect
import functools
import itertools
import re
from typing import Iterable

from polydeukes.vm import sre
from polydeukes.vm.jsregex import JsRegex, TranslatedPattern, from_code_units, to_code_units

__all__ = ["RegexRefused", "TranslatedPattern", "JsRegex", "translate", "compile_js", "reset_groups"]


class RegexRefused(Exception):
    """JavaScript would reject the pattern, or this implementation cannot express it faithfully.

    `reason` is short human text naming the construct. `syntax_error` is True when JavaScript
    itself rejects the pattern, False when the pattern is valid JavaScript that this
    implementation refuses (unsupported construct or catastrophic backtracking).
    """

    def __init__(self, reason: str, *, syntax_error: bool = False) -> None:
        super().__init__(reason)
        self.reason = reason
        self.syntax_error = syntax_error


def _syntax(message: str, at: int) -> RegexRefused:
    return RegexRefused(f"invalid regular expression: {message} at offset {at}", syntax_error=True)


def _unsupported(construct: str) -> RegexRefused:
    return RegexRefused(f"the expression uses {construct}, which this implementation does not support")


def _backtracking(shape: str) -> RegexRefused:
    return RegexRefused(f"the expression {shape} (catastrophic backtracking)")


# ---------------------------------------------------------------------------------------------
# Sets of UTF-16 code units: sorted tuples of disjoint, non-adjacent inclusive (lo, hi) ranges.

Ranges = tuple[tuple[int, int], ...]
_MAX_UNIT = 0xFFFF


def _normalize(pairs: Iterable[tuple[int, int]]) -> Ranges:
    out: list[list[int]] = []
    for lo, hi in sorted(pairs):
        if out and lo <= out[-1][1] + 1:
            out[-1][1] = max(out[-1][1], hi)
        else:
            out.append([lo, hi])
    return tuple((lo, hi) for lo, hi in out)


def _complement(r: Ranges) -> Ranges:
    out, nxt = [], 0
    for lo, hi in r:
        if lo > nxt:
            out.append((nxt, lo - 1))
        nxt = hi + 1
    if nxt <= _MAX_UNIT:
        out.append((nxt, _MAX_UNIT))
    return tuple(out)


def _intersects(a: Ranges, b: Ranges) -> bool:
    i = j = 0
    while i < len(a) and j < len(b):
        if a[i][1] < b[j][0]:
            i += 1
        elif b[j][1] < a[i][0]:
            j += 1
        else:
            return True
    return False


def _chars(text: str) -> Ranges:
    return _normalize((ord(c), ord(c)) for c in text)


_DIGIT: Ranges = ((0x30, 0x39),)
_WORD: Ranges = _normalize([(0x30, 0x39), (0x41, 0x5A), (0x5F, 0x5F), (0x61, 0x7A)])
_SPACE: Ranges = _normalize(
    [(0x09, 0x0D), (0x20, 0x20), (0xA0, 0xA0), (0x1680, 0x1680), (0x2000, 0x200A),
     (0x2028, 0x2029), (0x202F, 0x202F), (0x205F, 0x205F), (0x3000, 0x3000), (0xFEFF, 0xFEFF)]
)
_LINE_TERMINATORS: Ranges = _chars("\n\r\u2028\u2029")
_DOT: Ranges = _complement(_LINE_TERMINATORS)
_ANY: Ranges = ((0, _MAX_UNIT),)
_SURROGATES: Ranges = ((0xD800, 0xDFFF),)
_CLASS_ESCAPES: dict[str, Ranges] = {
    "d": _DIGIT, "D": _complement(_DIGIT),
    "w": _WORD, "W": _complement(_WORD),
    "s": _SPACE, "S": _complement(_SPACE),
}

# JavaScript's non-`u` case-insensitive match (Canonicalize): two code units are equal when
# their single-unit uppercase forms are; a multi-unit uppercase (ß -> SS) does not fold, and a
# non-ASCII unit never folds onto ASCII (ſ, the Kelvin sign and ı stay apart from s, k, i).
# Built lazily, once per process, because only `i` patterns need it (about 15 ms).
_fold_classes: dict[int, tuple[int, ...]] | None = None
_fold_keys: list[int] = []


def _fold_table() -> dict[int, tuple[int, ...]]:
    global _fold_classes, _fold_keys
    if _fold_classes is None:
        units = list(map(chr, range(_MAX_UNIT + 1)))
        uppers = list(map(str.upper, units))

        def canonical(unit: int) -> int:
            upper = uppers[unit]
            if len(upper) == 1 and not (unit >= 128 and ord(upper) < 128):
                return ord(upper)
            return unit

        # Only a unit whose uppercase differs from it can join another's class: the loop runs
        # over those (1,265), not over all 65,536 (once per compile, so it counts).
        by_canon: dict[int, list[int]] = {}
        for unit in itertools.compress(range(_MAX_UNIT + 1), map(str.__ne__, units, uppers)):
            canon = canonical(unit)
            if canon != unit:
                by_canon.setdefault(canon, []).append(unit)
        table: dict[int, tuple[int, ...]] = {}
        for canon, members in by_canon.items():
            if canonical(canon) == canon:
                members.append(canon)
            if len(members) > 1:
                for unit in members:
                    table[unit] = tuple(sorted(members))
        _fold_keys = sorted(table)
        _fold_classes = table
    return _fold_classes


_reference_misfolds: dict[str, Ranges] = {}


def _reference_misfold(mode: str) -> Ranges:
    """Code units whose case-insensitive back-reference class under the `re` inline flags
    `mode` differs from JavaScript's (Canonicalize, above).

    `re` compares a back-reference under `(?i:…)` by its simple lowercase (`_sre`'s
    `unicode_tolower`, the very function it calls): the Kelvin sign then equals `k`, `İ`
    equals `i`, `ẞ` equals `ß`, while `σ` and `ς` stay apart — all the other way round in
    JavaScript. Under `(?ai:…)` only ASCII letters fold, which is JavaScript's answer for
    every unit whose JavaScript class is itself alone or ASCII.
    """
    if mode not in _reference_misfolds:
        table = _fold_table()
        if mode == "ai":
            wrong = [u for u in table if u >= 128]
        else:
            import _sre

            by_lower: dict[int, set[int]] = {}
            for unit in range(_MAX_UNIT + 1):
                by_lower.setdefault(_sre.unicode_tolower(unit), set()).add(unit)
            wrong = [u for u in range(_MAX_UNIT + 1)
                     if by_lower[_sre.unicode_tolower(u)] != set(table.get(u, (u,)))]
        _reference_misfolds[mode] = _normalize((u, u) for u in wrong)
    return _reference_misfolds[mode]


def _case_closure(r: Ranges) -> Ranges:
    """Every code unit that matches some member of `r` case-insensitively."""
    table = _fold_table()
    extra = []
    for lo, hi in r:
        i = bisect.bisect_left(_fold_keys, lo)
        while i < len(_fold_keys) and _fold_keys[i] <= hi:
            extra.extend((u, u) for u in table[_fold_keys[i]])
            i += 1
    return _normalize(list(r) + extra) if extra else r


# ---------------------------------------------------------------------------------------------
# Syntax tree. Non-capturing groups and modifier groups leave no node of their own.


class Node:
    __slots__ = ()


class CharSet(Node):
    """Consumes one code unit from `ranges`."""

    __slots__ = ("ranges",)

    def __init__(self, ranges: Ranges) -> None:
        self.ranges = ranges


class Seq(Node):
    __slots__ = ("items",)

    def __init__(self, items: list[Node]) -> None:
        self.items = items


class Alt(Node):
    __slots__ = ("alts",)

    def __init__(self, alts: list[Node]) -> None:
        self.alts = alts


class Group(Node):
    """A capturing group; `index` is its JavaScript number."""

    __slots__ = ("body", "index")

    def __init__(self, body: Node, index: int) -> None:
        self.body = body
        self.index = index


class Look(Node):
    __slots__ = ("body", "behind", "negative")

    def __init__(self, body: Node, behind: bool, negative: bool) -> None:
        self.body = body
        self.behind = behind
        self.negative = negative


class Repeat(Node):
    __slots__ = ("body", "min", "max", "greedy", "start", "end")

    def __init__(self, body: Node, lo: int, hi: int | None, greedy: bool, start: int = 0,
                 end: int = 0) -> None:
        self.body = body
        self.min = lo
        self.max = hi  # None: unbounded
        self.greedy = greedy
        self.start, self.end = start, end  # code-unit offsets of the construct in the pattern


class Anchor(Node):
    """Zero-width: 'start', 'end', 'line-start', 'line-end' (the `m` modifier), 'b', 'B'."""

    __slots__ = ("kind",)

    def __init__(self, kind: str) -> None:
        self.kind = kind


class BackRef(Node):
    """A back-reference to one group, or to each group of a duplicated name."""

    __slots__ = ("groups", "ignore_case")

    def __init__(self, groups: list[int], ignore_case: bool) -> None:
        self.groups = groups
        self.ignore_case = ignore_case


def _children(node: Node) -> list[Node]:
    if isinstance(node, Seq):
        return node.items
    if isinstance(node, Alt):
        return node.alts
    if isinstance(node, (Group, Look, Repeat)):
        return [node.body]
    return []


def _walk(node: Node, into_looks: bool = True) -> Iterable[Node]:
    """Every node of the subtree, parents before children, children in order. (An explicit
    stack: nested generators passed each node up through every level above it, and the
    analyses walk every subtree, which made that quadratic in the depth.)"""
    pending = [node]
    while pending:
        node = pending.pop()
        yield node
        if into_looks or not isinstance(node, Look):
            pending.extend(reversed(_children(node)))


# ---------------------------------------------------------------------------------------------
# Parser: the ES2025 pattern grammar, non-`u` mode, with Annex B. It runs over the pattern's
# UTF-16 code units, so an astral literal is two units and a quantifier after it repeats only
# the second (as in JavaScript).

_MAX_DEPTH = 100  # nesting limit; keeps recursion (ours and `re`'s) far from Python's limit
_BIG = 2**31  # counts at or above this behave as unbounded for any real subject
_CONTROL_ESCAPES = {"f": 0x0C, "n": 0x0A, "r": 0x0D, "t": 0x09, "v": 0x0B}
_HEX = frozenset("0123456789abcdefABCDEF")
_OCTAL = frozenset("01234567")


class _Flags:
    __slots__ = ("i", "m", "s")

    def __init__(self, i: bool, m: bool, s: bool) -> None:
        self.i, self.m, self.s = i, m, s


class _GroupInfo:
    __slots__ = ("name", "path", "closed")

    def __init__(self, name: str | None, path: tuple[tuple[int, int], ...]) -> None:
        self.name = name
        self.path = path  # (disjunction id, alternative index) from the root: for duplicate names
        self.closed = False


class _Parser:
    def __init__(self, pattern: str, ignore_case: bool) -> None:
        self.src = to_code_units(pattern)
        self.pos = 0
        self.flags = _Flags(ignore_case, False, False)
        self.group_total, self.named = _prescan(self.src)  # JS decides escapes on these
        self.groups: list[_GroupInfo] = []
        self.names: dict[str, list[int]] = {}
        self.references: list[tuple[str, int]] = []
        self.path: list[list[int]] = []
        self.next_disjunction = 0
        self.depth = 0
        self.look_behind_depth = 0
        self.unsupported: RegexRefused | None = None

    # -- helpers ------------------------------------------------------------------------------

    def peek(self, k: int = 0) -> str:
        i = self.pos + k
        return self.src[i] if i < len(self.src) else ""

    def eat(self, text: str) -> bool:
        if self.src.startswith(text, self.pos):
            self.pos += len(text)
            return True
        return False

    def literal(self, unit: int) -> CharSet:
        r = ((unit, unit),)
        return CharSet(_case_closure(r) if self.flags.i else r)

    # -- grammar ------------------------------------------------------------------------------

    def parse(self) -> Node:
        node = self.disjunction()
        if self.pos < len(self.src):
            # Only an unmatched ')' stops a top-level disjunction early.
            raise _syntax("unmatched ')'", self.pos)
        for name, at in self.references:
            if name not in self.names:
                raise _syntax(f"invalid named reference '{name}'", at)
        if self.unsupported is not None:
            raise self.unsupported
        return node

    def disjunction(self) -> Node:
        self.depth += 1
        if self.depth > _MAX_DEPTH:
            raise RegexRefused(f"the expression nests groups more than {_MAX_DEPTH} deep, "
                               "which this implementation does not support")
        frame = [self.next_disjunction, 0]
        self.next_disjunction += 1
        self.path.append(frame)
        alts = [self.alternative()]
        while self.eat("|"):
            frame[1] += 1
            alts.append(self.alternative())
        self.path.pop()
        self.depth -= 1
        return alts[0] if len(alts) == 1 else Alt(alts)

    def alternative(self) -> Node:
        items: list[Node] = []
        while self.pos < len(self.src) and self.peek() not in "|)":
            items.append(self.term())
        return items[0] if len(items) == 1 else Seq(items)

    def term(self) -> Node:
        start = self.pos
        c = self.peek()
        if c == "^":
            self.pos += 1
            return Anchor("line-start" if self.flags.m else "start")
        if c == "$":
            self.pos += 1
            return Anchor("line-end" if self.flags.m else "end")
        if c == "\\" and self.peek(1) in ("b", "B"):
            self.pos += 2
            return Anchor(self.peek(-1))
        if self.eat("(?<=") or self.eat("(?<!"):
            negative = self.src[self.pos - 1] == "!"
            self.look_behind_depth += 1
            body = self.disjunction()
            self.look_behind_depth -= 1
            self.close_paren(start)
            if self.quantifier_ahead():
                raise _syntax("a look-behind assertion cannot be quantified", self.pos)
            return Look(body, behind=True, negative=negative)
        if self.eat("(?=") or self.eat("(?!"):
            negative = self.src[self.pos - 1] == "!"
            body = self.disjunction()
            self.close_paren(start)
            # Annex B: a look-ahead may carry a quantifier.
            return self.quantified(Look(body, behind=False, negative=negative), start)
        return self.quantified(self.atom(), start)

    def close_paren(self, start: int) -> None:
        if not self.eat(")"):
            raise _syntax("unterminated group", start)

    def quantifier_ahead(self) -> bool:
        c = self.peek()
        return c in ("*", "+", "?") or (c == "{" and self.braced() is not None)

    def braced(self) -> tuple[int, int | None, int] | None:
        """A valid `{n}`, `{n,}` or `{n,m}` at the current position: (min, max, length)."""
        m = _BRACED.match(self.src, self.pos)
        if m is None:
            return None
        lo = int(m.group(1))
        hi = lo if m.group(2) is None else (None if m.group(3) == "" else int(m.group(3)))
        return lo, hi, m.end() - m.start()

    def quantified(self, atom: Node, start: int) -> Node:
        c = self.peek()
        if c == "*":
            lo, hi, size = 0, None, 1
        elif c == "+":
            lo, hi, size = 1, None, 1
        elif c == "?":
            lo, hi, size = 0, 1, 1
        elif c == "{" and (b := self.braced()) is not None:
            lo, hi, size = b
            if hi is not None and hi < lo:
                raise _syntax("numbers out of order in {} quantifier", self.pos)
        else:
            return atom
        self.pos += size
        greedy = not self.eat("?")
        if hi is not None and hi >= _BIG:
            hi = None
        if (self.look_behind_depth and (hi is None or hi > 1) and self.unsupported is None
                and any(isinstance(n, Group) for n in _walk(atom))):
            # JavaScript matches a look-behind backwards, so a group repeated there keeps the
            # leftmost round (`(?<=(a){2})` on `aa`: 0..1); `re` keeps the rightmost (1..2).
            # Raised after the whole pattern parsed: a later syntax error must win.
            self.unsupported = _unsupported("a capturing group repeated inside a look-behind")
        return Repeat(atom, min(lo, _BIG), hi, greedy, start, self.pos)

    def atom(self) -> Node:
        c = self.peek()
        start = self.pos
        if c == ".":
            self.pos += 1
            return CharSet(_ANY if self.flags.s else _DOT)
        if c == "(":
            return self.group()
        if c == "[":
            return self.char_class()
        if c == "\\":
            return self.atom_escape()
        if c in ("*", "+", "?"):
            raise _syntax("nothing to repeat", start)
        if c == "{" and self.braced() is not None:
            raise _syntax("nothing to repeat", start)
        self.pos += 1
        return self.literal(ord(c))  # includes Annex B's literal ']', '{', '}'

    def group(self) -> Node:
        start = self.pos
        self.pos += 1
        if not self.eat("?"):
            return self.capture(None, start)
        if self.peek() == "<":
            self.pos += 1
            return self.capture(self.group_name(), start)
        if self.eat(":"):
            body = self.disjunction()
            self.close_paren(start)
            return body
        return self.modified_group(start)

    def capture(self, name: str | None, start: int) -> Node:
        index = len(self.groups) + 1
        info = _GroupInfo(name, tuple((d, a) for d, a in self.path))
        if name is not None:
            for other in self.names.get(name, []):
                if not _exclusive(self.groups[other - 1].path, info.path):
                    raise _syntax(f"duplicate capture group name '{name}'", start)
            self.names.setdefault(name, []).append(index)
        self.groups.append(info)
        body = self.disjunction()
        self.close_paren(start)
        info.closed = True
        return Group(body, index)

    def modified_group(self, start: int) -> Node:
        """`(?ims-ims:…)` scoped modifiers (ES2025); a bare `(?i)` stays a syntax error."""
        on = self.modifier_letters()
        off = self.modifier_letters() if self.eat("-") else None
        if not self.eat(":"):
            raise _syntax("invalid group", start)
        if off is not None and not on and not off:
            raise _syntax("invalid group", start)
        if set(on) & set(off or ""):
            raise _syntax("repeated flag in modifiers", start)
        saved = self.flags
        self.flags = _Flags(*((f in on) or (getattr(saved, f) and f not in (off or ""))
                              for f in ("i", "m", "s")))
        body = self.disjunction()
        self.flags = saved
        self.close_paren(start)
        return body

    def modifier_letters(self) -> str:
        start = self.pos
        while self.peek() in ("i", "m", "s"):
            if self.peek() in self.src[start:self.pos]:
                raise _syntax("repeated flag in modifiers", self.pos)
            self.pos += 1
        return self.src[start:self.pos]

    def group_name(self) -> str:
        """RegExpIdentifierName up to '>'; a `\\u` escape or a surrogate pair is one character."""
        start = self.pos
        chars: list[str] = []
        while not self.eat(">"):
            if self.pos >= len(self.src):
                raise _syntax("invalid capture group name", start)
            if self.peek() == "\\":
                m = _NAME_ESCAPE.match(self.src, self.pos)
                if m is None or int(m.group(1) or m.group(2), 16) > 0x10FFFF:
                    raise _syntax("invalid capture group name", start)
                code = int(m.group(1) or m.group(2), 16)
                self.pos = m.end()
            else:
                code = ord(self.src[self.pos])
                self.pos += 1
            if chars and 0xDC00 <= code <= 0xDFFF and "\ud800" <= chars[-1] <= "\udbff":
                chars[-1] = chr(0x10000 + ((ord(chars[-1]) - 0xD800) << 10) + code - 0xDC00)
            else:
                chars.append(chr(code))
        name = "".join(chars)
        if not name or not _valid_name(name):
            raise _syntax("invalid capture group name", start)
        return name

    def atom_escape(self) -> Node:
        start = self.pos
        self.pos += 1
        c = self.peek()
        if c == "":
            raise _syntax("\\ at end of pattern", start)
        if c in "123456789":
            m = _DECIMAL.match(self.src, self.pos)
            assert m is not None
            number = int(m.group())
            if number <= self.group_total:
                self.pos = m.end()
                return self.back_reference([number], start)
            if c in "89":  # Annex B identity escape
                self.pos += 1
                return self.literal(ord(c))
            return self.literal(self.legacy_octal())
        if c == "k" and self.named:
            self.pos += 1
            if not self.eat("<"):
                raise _syntax("invalid named reference", start)
            name = self.group_name()
            self.references.append((name, start))  # the name may belong to a later group
            return self.back_reference(self.names.get(name, []), start)
        if c in _CLASS_ESCAPES:
            self.pos += 1
            r = _CLASS_ESCAPES[c]
            return CharSet(_case_closure(r) if self.flags.i else r)
        if c == "c" and not _is_ascii_letter(self.peek(1)):
            # Annex B: `\c` without a control letter is a literal backslash; 'c' is read next.
            return self.literal(ord("\\"))
        return self.literal(self.character_escape())

    def character_escape(self) -> int:
        """The escapes shared by atoms and classes; the position is just after the backslash."""
        c = self.peek()
        if c in _CONTROL_ESCAPES:
            self.pos += 1
            return _CONTROL_ESCAPES[c]
        if c == "c":  # the caller has checked that a control letter follows
            self.pos += 2
            return ord(self.src[self.pos - 1]) % 32
        if c == "0" and not (self.peek(1) and self.peek(1) in "0123456789"):
            self.pos += 1
            return 0
        if c in _OCTAL:
            return self.legacy_octal()
        if c == "x" and self.peek(1) in _HEX and self.peek(2) in _HEX and self.peek(2):
            self.pos += 3
            return int(self.src[self.pos - 2:self.pos], 16)
        if c == "u" and all(self.peek(k) in _HEX and self.peek(k) for k in range(1, 5)):
            self.pos += 5
            return int(self.src[self.pos - 4:self.pos], 16)
        self.pos += 1  # identity escape: \a is 'a', \A is 'A', \p is 'p', \u without hex is 'u'
        return ord(c)

    def legacy_octal(self) -> int:
        """Annex B LegacyOctalEscapeSequence: up to three octal digits, at most 0o377."""
        first = self.src[self.pos]
        digits = first
        self.pos += 1
        limit = 3 if first in "0123" else 2
        while len(digits) < limit and self.peek() in _OCTAL and self.peek():
            digits += self.peek()
            self.pos += 1
        return int(digits, 8)

    def back_reference(self, numbers: list[int], start: int) -> Node:
        if self.look_behind_depth and self.unsupported is None:
            # Raised after the whole pattern parsed: a later syntax error must win.
            self.unsupported = _unsupported("a back-reference inside a look-behind")
        # A reference to a group that has not closed yet (a forward reference, or one inside
        # the group itself) always matches empty in JavaScript: that group cannot have captured.
        closed = [n for n in numbers if n <= len(self.groups) and self.groups[n - 1].closed]
        if not closed:
            return Seq([])
        return BackRef(closed, self.flags.i)

    def char_class(self) -> Node:
        start = self.pos
        self.pos += 1
        negate = self.eat("^")
        parts: list[tuple[int, int]] = []
        while not self.eat("]"):
            if self.pos >= len(self.src):
                raise _syntax("unterminated character class", start)
            a = self.class_atom()
            if self.peek() == "-" and self.peek(1) not in ("]", ""):
                self.pos += 1
                b = self.class_atom()
                if isinstance(a, tuple) or isinstance(b, tuple):
                    # Annex B: a range with a class escape at either end is the union of both
                    # ends and a literal '-' ([\d-z] is digits, '-' and 'z').
                    for end in (a, b, ord("-")):
                        parts.extend(end if isinstance(end, tuple) else [(end, end)])
                    continue
                if a > b:
                    raise _syntax("range out of order in character class", self.pos)
                parts.append((a, b))
            else:
                parts.extend(a if isinstance(a, tuple) else [(a, a)])
        r = _normalize(parts)
        if self.flags.i:
            r = _case_closure(r)
        return CharSet(_complement(r) if negate else r)

    def class_atom(self) -> int | Ranges:
        """One code unit, or the ranges of a class escape (\\d, \\w, ...)."""
        c = self.peek()
        if c != "\\":
            self.pos += 1
            return ord(c)
        self.pos += 1
        c = self.peek()
        if c == "":
            raise _syntax("\\ at end of pattern", self.pos - 1)
        if c in _CLASS_ESCAPES:
            self.pos += 1
            return _CLASS_ESCAPES[c]
        if c == "b":
            self.pos += 1
            return 0x08
        if c == "c":
            follower = self.peek(1)
            if _is_ascii_letter(follower) or (follower and follower in "0123456789_"):
                self.pos += 2  # Annex B ClassControlLetter also takes digits and '_'
                return ord(follower) % 32
            return ord("\\")  # literal backslash; the 'c' is the next class atom
        if c in "89":
            self.pos += 1
            return ord(c)
        if c == "k" and self.named:
            raise _syntax("invalid escape", self.pos - 1)
        return self.character_escape()


_BRACED = re.compile(r"\{([0-9]+)(?:(,)([0-9]*))?\}")
_DECIMAL = re.compile(r"[0-9]+")
_NAME_ESCAPE = re.compile(r"\\u(?:([0-9a-fA-F]{4})|\{([0-9a-fA-F]+)\})")


def _is_ascii_letter(c: str) -> bool:
    return len(c) == 1 and ("a" <= c <= "z" or "A" <= c <= "Z")


def _valid_name(name: str) -> bool:
    first, rest = name[0], name[1:]
    if not (first in "$_" or first.isidentifier()):
        return False
    return all(c in "$\u200c\u200d" or ("a" + c).isidentifier() for c in rest)


def _exclusive(p: tuple[tuple[int, int], ...], q: tuple[tuple[int, int], ...]) -> bool:
    """True when the two groups sit in different alternatives of one disjunction."""
    for (dp, ap), (dq, aq) in zip(p, q):
        if dp != dq:
            return False
        if ap != aq:
            return True
    return False


def _prescan(src: str) -> tuple[int, bool]:
    """Count capturing groups and see whether any is named, before parsing.

    JavaScript decides between a back-reference and an octal escape by the total group count,
    and whether `\\k` is special by whether any named group exists, both over the whole pattern.
    """
    count, named = 0, False
    i, in_class = 0, False
    while i < len(src):
        c = src[i]
        if c == "\\":
            i += 2
            continue
        if in_class:
            in_class = c != "]"
        elif c == "[":
            in_class = True
        elif c == "(":
            if src.startswith("(?<", i) and src[i + 3:i + 4] not in ("=", "!"):
                count += 1
                named = True
            elif not src.startswith("(?", i):
                count += 1
        i += 1
    return count, named


# ---------------------------------------------------------------------------------------------
# Analyses over the tree.


def _nullable(node: Node, *, assertions_hold: bool = True) -> bool:
    """True when the node can match empty. With `assertions_hold=False`, only when it matches
    empty wherever it is tried: a look-around, an anchor or a back-reference may then fail."""
    if isinstance(node, CharSet):
        return False
    if isinstance(node, Seq):
        return all(_nullable(n, assertions_hold=assertions_hold) for n in node.items)
    if isinstance(node, Alt):
        return any(_nullable(n, assertions_hold=assertions_hold) for n in node.alts)
    if isinstance(node, Group):
        return _nullable(node.body, assertions_hold=assertions_hold)
    if isinstance(node, Repeat):
        return node.min == 0 or _nullable(node.body, assertions_hold=assertions_hold)
    return assertions_hold  # Look, Anchor, BackRef (a reference can match empty)


def _width(node: Node) -> tuple[int, int | None]:
    """(fewest, most) code units the node consumes; most is None when unbounded."""
    if isinstance(node, CharSet):
        return 1, 1
    if isinstance(node, Seq):
        lo, hi = 0, 0
        for n in node.items:
            a, b = _width(n)
            lo += a
            hi = None if hi is None or b is None else hi + b
        return lo, hi
    if isinstance(node, Alt):
        widths = [_width(n) for n in node.alts]
        his = [b for _, b in widths]
        return min(a for a, _ in widths), None if None in his else max(his)  # type: ignore[type-var]
    if isinstance(node, Group):
        return _width(node.body)
    if isinstance(node, Repeat):
        a, b = _width(node.body)
        return a * node.min, None if node.max is None or b is None else b * node.max
    if isinstance(node, BackRef):
        return 0, None
    return 0, 0


def _consumed(node: Node) -> Ranges:
    """Every code unit the node could consume (look-arounds consume nothing)."""
    if isinstance(node, BackRef):
        return _ANY
    if isinstance(node, CharSet):
        return node.ranges
    if isinstance(node, Look):
        return ()
    return _normalize(p for child in _children(node) for p in _consumed(child))


def _first(node: Node) -> Ranges | None:
    """Code units that can start a non-empty match; None when the node can match empty."""
    if isinstance(node, CharSet):
        return node.ranges
    if isinstance(node, Seq):
        acc: list[tuple[int, int]] = []
        for n in node.items:
            f = _first(n)
            if f is not None:
                return _normalize(acc + list(f))
            acc.extend(_consumed(n))
        return None
    if isinstance(node, Alt):
        firsts = [_first(n) for n in node.alts]
        return None if None in firsts else _normalize(p for f in firsts for p in f)  # type: ignore[union-attr]
    if isinstance(node, Group):
        return _first(node.body)
    if isinstance(node, Repeat):
        return _first(node.body) if node.min > 0 else None
    return None


def _signature(node: Node) -> list[Ranges]:
    """Per-position sets that an alternative must start with: its first set, then the exact
    sets of any further leading single units. Empty when the alternative can match empty."""
    f = _first(node)
    if f is None:
        return []
    sig = [f]
    if isinstance(node, Group):
        node = node.body
    if isinstance(node, Seq) and node.items and isinstance(node.items[0], CharSet):
        for n in node.items[1:]:
            if not isinstance(n, CharSet):
                break
            sig.append(n.ranges)
    return sig


def _distinguishable(a: Node, b: Node) -> bool:
    return any(not _intersects(x, y) for x, y in zip(_signature(a), _signature(b)))


def _mandatory_sets(node: Node, skip: Node) -> Iterable[Ranges]:
    """Sets of single units every match of `node` consumes, outside the subtree `skip`."""
    if node is skip:
        return
    if isinstance(node, CharSet):
        yield node.ranges
    elif isinstance(node, Seq):
        for n in node.items:
            yield from _mandatory_sets(n, skip)
    elif isinstance(node, Group) or (isinstance(node, Repeat) and node.min > 0):
        yield from _mandatory_sets(node.body, skip)


def _variable(node: Node) -> bool:
    """True when the node can match texts of different lengths through repetition."""
    return any(isinstance(n, BackRef) or (isinstance(n, Repeat) and n.min != n.max)
               for n in _walk(node, into_looks=False))


def _check_backtracking(root: Node) -> None:
    """Refuse the classic exponential shapes; docs/regex-dialect.md states the rule.

    For every repetition of a compound body that can run more than once:
    1. each variable-length repetition (or back-reference) inside the body must be fenced by a
       unit the body always consumes and that repetition can never match (`(?:[^/]+/)*` is
       fine, `(a+)+`, `(\\w+\\s?)+` and `(.*a){20}` are not);
    2. no two variable-length items of one sequence in the body may match a common unit with
       only optional items between them (`(a+a+b)+`);
    3. alternatives inside the body must be told apart by a leading unit (`(a|a)*`, `(\\s+|,)*`).
    Separately, a repetition of an empty-matching body may not demand more than 1000 rounds.
    """
    for node in _walk(root):
        if not isinstance(node, Repeat):
            continue
        if node.min > 1000 and _nullable(node.body):
            raise _backtracking("repeats an empty-matching group more than 1000 times")
        if isinstance(node.body, CharSet) or (node.max is not None and node.max <= 1):
            continue
        body = node.body
        inner = list(_walk(body, into_looks=False))
        for v in inner:
            if isinstance(v, BackRef) or (isinstance(v, Repeat) and v.min != v.max):
                vset = _consumed(v)
                if not any(not _intersects(m, vset) for m in _mandatory_sets(body, v)):
                    raise _backtracking("nests unbounded quantifiers")
        for seq in inner:
            if isinstance(seq, Seq):
                _check_adjacent(seq.items)
            if isinstance(seq, Alt):
                alts = seq.alts
                for i, a in enumerate(alts):
                    for b in alts[i + 1:]:
                        if not _distinguishable(a, b):
                            raise _backtracking(
                                "repeats a group whose alternatives can match the same text")


def _check_search_shapes(root: Node, units: str) -> None:
    """Refuse the shapes a *search* makes polynomial of degree three or more (issue 15).

    A search tries the pattern at every position, so a single unbounded quantifier that ends
    in a failure is already quadratic (`.*x`, the deadline's business); these add a degree:

    1. two unbounded quantifiers of one sequence that can match the same text, with only
       optional items between them, when something after them can still fail: the input
       splits between them in every way (`.*.*=.*`, `a*a*b`, `\\s*\\s*x`). When nothing
       after them can fail (`\\d+\\.?\\d*` at the end), the first split succeeds and the pair
       is harmless; when every round of one consumes a unit the other cannot match, the
       split is unique (`_ambiguous`). A bounded one (`x?`, `x{1,3}`) splits the text in a
       fixed number of ways, which only multiplies the cost, unless a chain of them does so
       more than CHAIN_WAYS times (the exponential `a?a?…a?aa…a`);
    2. an unbounded repetition of a group that holds an unbounded quantifier of its own,
       where a search can start it anywhere and something after it can fail
       (`(?:[^/]+/)*x`, `(a+b)+$`): each start re-runs the loop over the rest of the input
       and gives it back round by round. Anchored behind a leading `^` and fixed-width items
       (`^src/(?:[^/]+/)*x`) it is tried once; with nothing after it that can fail
       (`(?:\\s*,\\s*\\w+)+`) its first run succeeds.
    """

    def construct(node: Repeat) -> str:
        return from_code_units(units[node.start:node.end])

    def visit(node: Node, tail_cannot_fail: bool) -> None:
        if isinstance(node, Seq):
            items = node.items
            tails = [False] * len(items)  # tails[i]: nothing after item i can fail
            ok = tail_cannot_fail
            for i in range(len(items) - 1, -1, -1):
                tails[i] = ok
                ok = ok and _nullable(items[i], assertions_hold=False)  # it cannot fail
            for i, a in enumerate(items):
                first = _variable_repeat(a)
                if first is None:
                    continue
                ways = _ways(first)
                for j in range(i + 1, len(items)):
                    second = _variable_repeat(items[j])
                    if second is not None and not tails[j] and _ambiguous(first, second):
                        if first.max is None and second.max is None:
                            raise RegexRefused(
                                f"the expression repeats '{construct(first)}' and then "
                                f"'{construct(second)}' with nothing required between them, "
                                "so both can match the same text (polynomial backtracking) at "
                                f"offset {first.start}")
                        ways *= _ways(second)
                        if ways > CHAIN_WAYS:
                            raise RegexRefused(
                                f"the expression repeats '{construct(first)}' and then "
                                "optional quantifiers up to "
                                f"'{from_code_units(units[first.start:second.end])}' that can "
                                f"match the same text in more than {CHAIN_WAYS} ways "
                                f"(exponential backtracking) at offset {first.start}")
                    if not _nullable(items[j]):
                        break
            for item, tail in zip(items, tails):
                visit(item, tail)
        elif isinstance(node, Alt):
            for alt in node.alts:
                visit(alt, tail_cannot_fail)
        elif isinstance(node, Group):
            visit(node.body, tail_cannot_fail)
        elif isinstance(node, Look):
            visit(node.body, True)  # the assertion ends where its body does
        elif isinstance(node, Repeat):
            if (not tail_cannot_fail and node.max is None
                    and not isinstance(node.body, CharSet) and id(node) not in anchored
                    and any(isinstance(n, Repeat) and n.max is None
                            for n in _walk(node.body, into_looks=False))):
                raise RegexRefused(
                    f"the expression repeats '{construct(node)}', which holds an unbounded "
                    "quantifier of its own, from every position a search starts at (polynomial "
                    f"backtracking; anchor the pattern with ^) at offset {node.start}")
            visit(node.body, False)  # another round may follow, and it can fail

    anchored = _anchored_repeats(root)
    visit(root, True)


def _ambiguous(first: Repeat, second: Repeat) -> bool:
    """Can text move between two neighbouring quantifiers? Not when either one's every round
    consumes a unit the other can never match (`(?:[^/]+/)*` then `[^/]+`: every round ends
    in `/`, so the boundary is the last `/`)."""
    a, b = _consumed(first.body), _consumed(second.body)
    if not _intersects(a, b):
        return False
    fenced = (any(not _intersects(m, b) for m in _mandatory_sets(first.body, second))
              or any(not _intersects(m, a) for m in _mandatory_sets(second.body, first)))
    return not fenced


CHAIN_WAYS = 1024  # splits of one text among bounded quantifiers, beyond which a chain is refused


def _ways(node: Repeat) -> int:
    """How many lengths a quantifier can take (unbounded counts as one: its degree is judged
    on its own)."""
    return 1 if node.max is None else node.max - node.min + 1


def _variable_repeat(node: Node) -> Repeat | None:
    """The variable-length quantifier an item is, through capture groups; else None."""
    while isinstance(node, Group):
        node = node.body
    if isinstance(node, Repeat) and node.min != node.max:
        return node
    return None


def _anchored_repeats(root: Node) -> set[int]:
    """Repeats a search tries only at the start: top-level items behind a leading `^` (not
    the multiline kind) and fixed-width items, in each top-level alternative. Behind a
    variable-width item too, when no item since the first variable one can consume a unit a
    round of the repeat must start with (`^[^/]+(?:/[^/]+)*$`): those items then end before
    the first such unit of the text, so the repeat's rounds can begin at one place only."""
    found: set[int] = set()
    for alt in root.alts if isinstance(root, Alt) else [root]:
        items = alt.items if isinstance(alt, Seq) else [alt]
        if not items or not (isinstance(items[0], Anchor) and items[0].kind == "start"):
            continue
        since_variable: Ranges | None = None  # what the items since the first variable one consume
        for item in items[1:]:
            if isinstance(item, Repeat):
                first = _first(item.body)
                if since_variable is None or (
                        first is not None and not _intersects(first, since_variable)):
                    found.add(id(item))
            lo, hi = _width(item)
            if since_variable is not None or lo != hi:
                since_variable = _normalize([*(since_variable or ()), *_consumed(item)])
    return found


def _check_adjacent(items: list[Node]) -> None:
    for i, a in enumerate(items):
        if not _variable(a):
            continue
        for b in items[i + 1:]:
            if _variable(b) and _intersects(_consumed(a), _consumed(b)):
                raise _backtracking("nests unbounded quantifiers")
            if not _nullable(b):
                break


def _prefers_empty(node: Node) -> bool:
    """True when the node may try an empty match before a non-empty one: an empty-matching
    alternative ahead of another, or a lazy repetition that may stop at zero rounds. (Greedy
    choices always try the empty way last.)"""
    for n in _walk(node, into_looks=False):
        if isinstance(n, Alt) and any(_nullable(a) for a in n.alts[:-1]):
            return True
        if isinstance(n, Repeat) and not n.greedy and (n.min == 0 or _nullable(n.body)):
            return True
    return False


def _check_empty_rounds(root: Node) -> None:
    """JavaScript rejects an optional round that matches empty and backtracks into the body for
    a non-empty match (`(?:a?|b)?` matches `b` in "b"); `re` accepts the empty round. The two
    differ only when the body would try empty first, which is refused."""
    for n in _walk(root):
        if (isinstance(n, Repeat) and not isinstance(n.body, Look) and n.max != n.min
                and _nullable(n.body) and _prefers_empty(n.body)):
            raise _unsupported("an optional repetition whose body can match empty before it "
                               "matches text (JavaScript rejects the empty round)")


def _unstable_groups(root: Node) -> set[int]:
    """Groups whose final value can differ between JavaScript and Python `re`.

    JavaScript clears the captures inside a repeated group at each round and rejects a round
    that matches empty once the minimum is met; `re` keeps the last capture and accepts the
    empty round. A group is affected when it sits in a repetition that can run again without
    passing through it (`(?:(a)|b)+`), or in an optional round of an empty-matching body
    (`(a?)?`, `(a|)+`).
    """
    unstable: set[int] = set()

    def visit(node: Node, loops: list[tuple[Repeat, bool]]) -> None:
        # `loops` holds the enclosing repetitions and whether the path from each to here is
        # mandatory (every round passes through it).
        if isinstance(node, Group) and any(
            (r.max is None or r.max > 1) and not mandatory
            or (r.max != r.min and _nullable(r.body))
            for r, mandatory in loops
        ):
            unstable.add(node.index)
        if isinstance(node, Repeat) and isinstance(node.body, Look):
            visit(node.body, loops)  # emitted exactly: the assertion once, or never (see repeat())
        elif isinstance(node, Repeat):
            visit(node.body, [(r, m and node.min > 0) for r, m in loops] + [(node, True)])
        elif isinstance(node, Alt):
            for n in node.alts:
                visit(n, [(r, False) for r, _ in loops])
        elif isinstance(node, Look):
            visit(node.body, [(r, m and not node.negative) for r, m in loops])
        else:
            for n in _children(node):
                visit(n, loops)

    visit(root, [])
    return unstable


# ---------------------------------------------------------------------------------------------
# Emission.

_WORD_SRC = "[0-9A-Z_a-z]"
_TERMINATOR_SRC = r"[\n\r\u2028\u2029]"
_ANCHORS = {
    "start": r"\A",
    "end": r"\Z",
    "line-start": rf"(?:\A|(?<={_TERMINATOR_SRC}))",
    "line-end": rf"(?:\Z|(?={_TERMINATOR_SRC}))",
    "b": f"(?:(?<={_WORD_SRC})(?!{_WORD_SRC})|(?<!{_WORD_SRC})(?={_WORD_SRC}))",
    "B": f"(?:(?<={_WORD_SRC})(?={_WORD_SRC})|(?<!{_WORD_SRC})(?!{_WORD_SRC}))",
}


def _unit(u: int) -> str:
    c = chr(u)
    if c.isascii() and (c.isalnum() or c == "_"):
        return c
    if 0x20 <= u <= 0x7E:
        return "\\" + c  # `re` reads a backslash before ASCII punctuation as that character
    return f"\\x{u:02x}" if u < 0x100 else f"\\u{u:04x}"


def _class_body(r: Ranges) -> str:
    return "".join(_unit(lo) if lo == hi else f"{_unit(lo)}-{_unit(hi)}" for lo, hi in r)


class _Emitter:
    def __init__(self, reference_folds: dict[int, str]) -> None:
        self.touches_surrogates = False
        self.reference_folds = reference_folds  # group -> `re` inline flags (_reference_folds)

    def emit(self, node: Node) -> str:
        if isinstance(node, CharSet):
            return self.char_set(node.ranges)
        if isinstance(node, Seq):
            return "".join(self.wrapped(n) if isinstance(n, Alt) else self.emit(n) for n in node.items)
        if isinstance(node, Alt):
            return "|".join(self.emit(n) for n in node.alts)
        if isinstance(node, Group):
            return f"(?P<g{node.index}>{self.emit(node.body)})"
        if isinstance(node, Look):
            return self.look(node)
        if isinstance(node, Repeat):
            return self.repeat(node)
        if isinstance(node, Anchor):
            return _ANCHORS[node.kind]
        assert isinstance(node, BackRef)
        refs = []
        for n in node.groups:
            ref = f"(?P=g{n})"
            if node.ignore_case:
                ref = f"(?{self.reference_folds[n]}:{ref})"
            # A group that did not take part matches empty in JavaScript; in `re` it fails.
            refs.append(f"(?(g{n}){ref})")
        return "".join(refs)

    def wrapped(self, node: Node) -> str:
        return f"(?:{self.emit(node)})"

    def char_set(self, r: Ranges) -> str:
        if not r:
            return "(?!)"
        if _intersects(r, _SURROGATES):
            self.touches_surrogates = True
        if len(r) == 1 and r[0][0] == r[0][1]:
            return _unit(r[0][0])
        inverse = _complement(r)
        # A negated class also matches astral code points, which the subject holds only when
        # no set reaches the surrogates; so negate only sets that contain every surrogate.
        if len(inverse) < len(r) and not _intersects(inverse, _SURROGATES):
            return f"[^{_class_body(inverse)}]" if inverse else "[\\x00-\\uffff]"
        return f"[{_class_body(r)}]"

    def look(self, node: Look) -> str:
        if not node.behind:
            return f"(?{'!' if node.negative else '='}{self.emit(node.body)})"
        # `re` needs each look-behind branch to have one fixed width, so alternatives are split:
        # (?<=A|B) -> (?:(?<=A)|(?<=B)) and (?<!A|B) -> (?<!A)(?<!B).
        alts = node.body.alts if isinstance(node.body, Alt) else [node.body]
        for alt in alts:
            lo, hi = _width(alt)
            if lo != hi:
                raise _unsupported("a variable-width look-behind")
        opener = "(?<!" if node.negative else "(?<="
        parts = [f"{opener}{self.emit(alt)})" for alt in alts]
        if len(parts) == 1 or node.negative:
            return "".join(parts)
        return f"(?:{'|'.join(parts)})"

    def repeat(self, node: Repeat) -> str:
        lo, hi = node.min, node.max
        if isinstance(node.body, Look):
            # A round that matches empty ends a JavaScript repetition once the minimum is met,
            # so a quantified look-ahead is either the assertion once (min >= 1) or nothing.
            # "Nothing" keeps the look-ahead's groups in a branch never taken, so that group
            # numbers stay put and those groups stay unset, as in JavaScript.
            look = self.emit(node.body)
            if lo > 0:
                return look
            return f"(?:(?!){look})?" if any(isinstance(n, Group) for n in _walk(node.body)) else ""
        body = node.body
        atom = self.emit(body) if isinstance(body, (CharSet, Group)) else self.wrapped(body)
        if (lo, hi) == (0, None):
            q = "*"
        elif (lo, hi) == (1, None):
            q = "+"
        elif (lo, hi) == (0, 1):
            q = "?"
        elif hi is None:
            q = f"{{{lo},}}"
        elif lo == hi:
            q = f"{{{lo}}}"
        else:
            q = f"{{{lo},{hi}}}"
        return atom + q + ("" if node.greedy else "?")


def _reference_folds(root: Node) -> dict[int, str]:
    """For each group a case-insensitive back-reference names, the `re` inline flags under
    which comparing with it agrees with JavaScript for every unit the group can capture:
    `ai` (ASCII folding) when that suffices, else `i`; neither exact is refused."""
    groups = {n.index: n for n in _walk(root) if isinstance(n, Group)}
    folds: dict[int, str] = {}
    for ref in _walk(root):
        if not isinstance(ref, BackRef) or not ref.ignore_case:
            continue
        for index in ref.groups:
            captured = _consumed(groups[index].body)
            for mode in ("ai", "i"):
                if not _intersects(captured, _reference_misfold(mode)):
                    folds[index] = mode
                    break
            else:
                raise _unsupported("a case-insensitive back-reference to a group that can "
                                   "capture a letter whose case Python folds differently "
                                   "(such as the Kelvin sign or final sigma)")
    return folds


def _has_middle_sensitive_assertion(root: Node) -> bool:
    """Negative look-arounds and \\B can hold between the two halves of an astral character."""
    return any((isinstance(n, Look) and n.negative) or (isinstance(n, Anchor) and n.kind == "B")
               for n in _walk(root))


# ---------------------------------------------------------------------------------------------
# Public entry points.


def translate(pattern: str, ignore_case: bool = False, *, reads_group1: bool = True) -> TranslatedPattern:
    """Translate a JavaScript pattern (flags: only `i`) into Python `re` source, or refuse.

    `reads_group1` says whether the caller will read capture group 1 (`keyByPattern`); when it
    does, a pattern whose group 1 value JavaScript would reset between repetitions is refused.
    Callers that only test for a match (`matches`, `scope`, `userTexts`) may pass False.
    """
    outcome = _translated(pattern, ignore_case, reads_group1)
    if isinstance(outcome, TranslatedPattern):
        return outcome
    reason, syntax_error = outcome
    raise RegexRefused(reason, syntax_error=syntax_error)  # new each time: no traceback kept


# A compile translates each pattern twice (the load-time check, then resolution) and a config
# repeats patterns across disciplines: each distinct one is translated once per process. The
# result is a pure function of the arguments (a frozen TranslatedPattern, or the refusal's
# reason and kind); the bound keeps a long-lived process (the Judge API) from growing without end.
@functools.lru_cache(maxsize=4096)
def _translated(pattern: str, ignore_case: bool,
                reads_group1: bool) -> TranslatedPattern | tuple[str, bool]:
    try:
        return _translate(pattern, ignore_case, reads_group1)
    except RegexRefused as refusal:
        return refusal.reason, refusal.syntax_error


def _translate(pattern: str, ignore_case: bool, reads_group1: bool) -> TranslatedPattern:
    parser = _Parser(pattern, ignore_case)
    tree = parser.parse()
    _check_backtracking(tree)
    _check_search_shapes(tree, parser.src)
    _check_empty_rounds(tree)
    unstable = _unstable_groups(tree)
    reset = "a capture in a repeated group whose value JavaScript resets between repetitions"
    if reads_group1 and 1 in unstable:
        raise _unsupported(f"{reset} (group 1)")
    for n in _walk(tree):
        if isinstance(n, BackRef) and unstable.intersection(n.groups):
            raise _unsupported(f"a back-reference to {reset}")
    emitter = _Emitter(_reference_folds(tree))
    source = emitter.emit(tree)
    needs_utf16 = emitter.touches_surrogates or (
        _nullable(tree) and _has_middle_sensitive_assertion(tree)
    )
    try:
        sre.require_compiles(source)  # re.compile's verdict; the parse is kept for lowering
    except (re.error, OverflowError, RecursionError) as e:  # a gap in the translation itself
        raise _unsupported(f"a construct Python cannot compile ({e})") from None
    return TranslatedPattern(source, 0, len(parser.groups), needs_utf16)


def reset_groups(pattern: str, ignore_case: bool = False) -> frozenset[int]:
    """The capture groups whose value may differ from JavaScript's after a match: the groups
    JavaScript resets at each round of an enclosing repetition (spec 03 §19.2 row 18).

    `translate` refuses to read group 1 or to back-reference any of them, so they never decide
    a verdict; the regex differential test leaves exactly these out of its comparison.
    """
    return frozenset(_unstable_groups(_Parser(pattern, ignore_case).parse()))


def compile_js(pattern: str, ignore_case: bool = False, *, reads_group1: bool = True) -> JsRegex:
    """`translate` and compile: the runtime object for a JavaScript pattern."""
    return JsRegex.from_translated(translate(pattern, ignore_case, reads_group1=reads_group1))
