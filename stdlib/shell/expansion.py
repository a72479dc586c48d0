"""Stage 2 of the shell analysis: static expansion where the shell is predictable.

Bash expands a word in a fixed order: braces, then tilde, parameters and substitutions, then
word splitting and pathname expansion (globs), then quote removal. This module does the parts
whose result is knowable from the command text alone, and marks the rest unknown:

- `brace_expand(raw)`: bash's brace expansion of one raw word spelling (lists `{a,b}`, nesting,
  sequences `{1..9..2}` `{a..e}` with zero padding, quoting and `${…}` respected, the odd cases
  bash has: `{a}` and `{}` stay literal, an unmatched brace is text). Past `BRACE_LIMIT` words or
  `BRACE_BUDGET` scanning steps the result is `None` (unknown) instead of a huge list.
- `expand_word(word, raw, scope)`: one tokenizer `Word` into the argv words it becomes:
  `Arg(text, pattern, opaque, count)`. Variables assigned literally earlier on the line
  (`scope.value(name)`) are substituted, with word splitting for unquoted ones; a variable the
  line did not assign stays unknown (`opaque`). `pattern` is the word as a pathname pattern when
  an unquoted `*`, `?`, `[…]` or extglob group survives (quoted characters are backslash-escaped
  in it), else None.
- `compile_pattern(pattern)` / `pattern_reaches(...)`: pathname patterns matched segment by
  segment against a path, with bash's rules for `*` `?` `[…]` (classes, ranges, `!`/`^`),
  extglob `?(…)` `*(…)` `+(…)` `@(…)` `!(…)`, `**` under globstar, a leading `.` matched only
  explicitly unless dotglob, and nocaseglob. Matching simulates all positions at once (no
  backtracking), so a hostile pattern costs at most pattern length times name length squared.

Nothing here reads the file system: a glob is compared with the paths the judges care about (a
protected entry and its ancestors), never listed.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from functools import lru_cache

import msgspec

from polydeukes.stdlib.shell.tokenizer import W_BRACE, W_GLOB, W_VAR, Word, ansi_c_escape, group_end
from polydeukes.vm.sre import LazyPattern

BRACE_LIMIT = 256  # words one brace expansion may produce; past it the word is unknown
BRACE_BUDGET = 20_000  # characters the brace scanner may step over for one word
ALTERNATIVES_LIMIT = 64  # variable alternatives one word may combine into
VALUE_LIMIT = 4096  # characters of one variable value the walk keeps
PATTERN_LIMIT = 1_000  # pattern nodes in one path segment; past it the segment matches anything

# How many argv words an `Arg` stands for.
ONE = 0
MANY = 1  # a glob: one or more (several files may match)
ANY = 2  # an unknown expansion: none, one or several

_NAME = LazyPattern(r"[A-Za-z_][A-Za-z0-9_]*")
_SUBSCRIPTED = LazyPattern(r"([A-Za-z_][A-Za-z0-9_]*)\[([^\]]*)\]")  # `${a[@]}`'s inside
_SEQ_INT = LazyPattern(r"[+-]?[0-9]+")
_EXTGLOB_PREFIX = frozenset("?*+@!")
_IFS = LazyPattern(r"[ \t\n]+")
# Runs of characters that `_read_pieces` copies as they are (outside and inside double quotes).
_ACTIVE_RUN = LazyPattern(r"[^\\'\"$`(]*")
_QUOTED_SPECIAL = frozenset('"\\$`')
_QUOTED_RUN = LazyPattern(r'[^"\\$`]+')


class Arg(msgspec.Struct, frozen=True, gc=False):
    """One argv word after expansion.

    `text`: the word after quote removal (for a glob, its spelling without the quotes);
    `pattern`: the pathname pattern (quoted characters escaped with `\\`) or None;
    `opaque`: some part of its value stays unknown; `count`: ONE, MANY or ANY;
    `word`: the tokenizer word it came from.
    """

    text: str
    pattern: str | None
    opaque: bool
    count: int
    word: Word


# -- brace expansion ---------------------------------------------------------------------------


class _Budget:
    __slots__ = ("steps",)

    def __init__(self, steps: int) -> None:
        self.steps = steps


class _Exhausted(Exception):
    pass


def _gobble(text: str, i: int, satisfy: str, budget: _Budget) -> int:
    """Index of the character that satisfies the search (`{` opening a brace expression, the
    `}` closing one, or a top-level `,`), or len(text) when there is none. Quotes, backslash
    escapes, `${…}` and `$(…)`/`<(…)`/`>(…)` are stepped over as bash's brace scanner does."""
    n = len(text)
    level = 0
    quoted = ""
    separators = 0 if satisfy == "}" else 1
    pass_next = False
    start = i
    while i < n:
        c = text[i]
        if pass_next:
            pass_next = False
            i += 1
            continue
        if c == "\\" and quoted != "'":
            pass_next = True
            i += 1
            continue
        if c == "$" and text.startswith("{", i + 1) and quoted != "'":
            pass_next = True  # `${` reads like an escaped brace that still nests
            if not quoted:
                level += 1
            i += 1
            continue
        if quoted:
            if c == quoted:
                quoted = ""
            elif quoted == '"' and c == "$" and text.startswith("(", i + 1):
                i = group_end(text, i + 1, "(", ")")
                continue
            i += 1
            continue
        if c in "\"'`":
            quoted = c
            i += 1
            continue
        if c in "$<>" and text.startswith("(", i + 1):
            i = group_end(text, i + 1, "(", ")")
            continue
        if c == satisfy and level == 0 and separators > 0:
            # An open brace between blanks (or before a close brace) is not an expression.
            if c == "{" and (i == 0 or text[i - 1] in " \t\n") and (i + 1 >= n or text[i + 1] in " \t\n}"):
                i += 1
                continue
            break
        if c == "{":
            level += 1
        elif c == "}" and level:
            level -= 1
        elif satisfy == "}" and level == 0 and (c == "," or (text.startswith("..", i) and text[i + 2 : i + 3] != "}")):
            separators += 1
        i += 1
    budget.steps -= i - start + 1
    if budget.steps < 0:
        raise _Exhausted
    return i


def brace_expand(raw: str, limit: int = BRACE_LIMIT, budget: int = BRACE_BUDGET) -> list[str] | None:
    """The words bash's brace expansion makes of `raw` (quotes kept), or None past the limits."""
    if "{" not in raw:
        return [raw]
    try:
        found = _brace(raw, limit, _Budget(budget), 0)
    except (_Exhausted, RecursionError):
        return None
    return found


def _brace(text: str, limit: int, budget: _Budget, depth: int) -> list[str] | None:
    if depth > 64:
        raise _Exhausted
    n = len(text)
    # The first `{` that opens a brace expression (one with a matching close brace).
    i = 0
    while True:
        i = _gobble(text, i, "{", budget)
        if i >= n:
            return [text]
        if _gobble(text, i + 1, "}", budget) < n:
            break
        i += 1
    preamble = text[:i]
    start = i + 1
    close = _gobble(text, start, "}", budget)
    amble = text[start:close]
    postamble = text[close + 1 :]
    if _has_separator(amble):
        tack = _amble(amble, limit, budget, depth)
    else:
        tack = _sequence(amble, limit)
        if tack is None:
            if not postamble:
                return [text]
            tack = [text[i : close + 1]]  # an invalid sequence is text; the rest still expands
    if tack is None:
        return None
    words = [preamble + t for t in tack]
    if postamble:
        rest = _brace(postamble, limit, budget, depth + 1)
        if rest is None or len(words) * len(rest) > limit:
            return None
        words = [w + r for w in words for r in rest]
    return words


def _has_separator(amble: str) -> bool:
    """Bash looks for any comma not escaped by a backslash (quotes are not consulted here)."""
    i = 0
    n = len(amble)
    while i < n:
        c = amble[i]
        if c == "\\":
            i += 2
            continue
        if c == ",":
            return True
        i += 1
    return False


def _amble(amble: str, limit: int, budget: _Budget, depth: int) -> list[str] | None:
    out: list[str] = []
    start = 0
    n = len(amble)
    while True:
        i = _gobble(amble, start, ",", budget)
        part = _brace(amble[start:i], limit, budget, depth + 1)
        if part is None:
            return None
        out.extend(part)
        if len(out) > limit:
            return None
        if i >= n:
            return out
        start = i + 1


def _sequence(amble: str, limit: int) -> list[str] | None:
    """`x..y[..incr]` over integers or single letters (bash's `expand_seqterm`), or None."""
    at = amble.find("..")
    if at <= 0:
        return None
    lhs, rhs = amble[:at], amble[at + 2 :]
    if not rhs:
        return None
    incr = 1
    rest = ""
    m = _SEQ_INT().match(rhs)
    if m is not None and (rhs[:1].isdigit() or rhs[1:2].isdigit()):
        rhs_kind, rhs_text, rest = "int", m.group(), rhs[m.end() :]
    elif rhs[:1].isascii() and rhs[:1].isalpha() and (len(rhs) == 1 or rhs[1] == "."):
        rhs_kind, rhs_text, rest = "char", rhs[0], rhs[1:]
    else:
        return None
    if rest:
        if not rest.startswith("..") or len(rest) == 2:
            return None
        step = _SEQ_INT().fullmatch(rest[2:])
        if step is None:
            return None
        incr = int(step.group())
    if _SEQ_INT().fullmatch(lhs):
        lhs_kind = "int"
    elif len(lhs) == 1 and lhs.isascii() and lhs.isalpha():
        lhs_kind = "char"
    else:
        return None
    if lhs_kind != rhs_kind:
        return None
    if lhs_kind == "char":
        a, b, width = ord(lhs), ord(rhs_text), 0
    else:
        a, b = int(lhs), int(rhs_text)
        if max(abs(a), abs(b)) >= 1 << 63:
            return None
        width = 0
        for term in (lhs, rhs_text):
            if (len(term) > 1 and term[0] == "0") or (len(term) > 2 and term[:2] == "-0"):
                width = max(width, len(term))
    if incr == 0:
        incr = 1
    if (a > b and incr > 0) or (a < b and incr < 0):
        incr = -incr
    count = abs(b - a) // abs(incr) + 1
    if count > limit:
        raise _Exhausted
    values = range(a, b + (1 if incr > 0 else -1), incr)
    if lhs_kind == "char":
        # The characters between two letters are text (`{Z..a}` passes `[`, `` ` ``, `_` …).
        return [escape_pattern(chr(v)) if chr(v) in "\\`$'\"" else chr(v) for v in values]
    if width:
        return [f"{v:0{width}d}" if v >= 0 else "-" + f"{-v:0{width - 1}d}" for v in values]
    return [str(v) for v in values]


# -- reading a word's raw spelling -------------------------------------------------------------

# Piece kinds of one raw word.
_LIT = 0  # quoted or escaped text: literal, never a glob
_ACTIVE = 1  # unquoted text: its `*?[` and extglob groups are pattern characters
_VAR = 2  # a parameter `$NAME` / `${NAME}`; `quoted` tells whether it was inside "…"
_UNKNOWN = 3  # anything else whose value is unknown (substitution, `$1`, `${x@Q}`, …)
# `${NAME-WORD}`, `${NAME:-WORD}`, `${NAME=WORD}`, `${NAME:=WORD}`: NAME's value, or WORD's when
# NAME is unset (or, with the colon, empty). `text` is NAME, `_OPERATOR`, the operator and WORD.
# An unset NAME is unknown, so both may be the value (`_default_options`): `rm -rf "${x-ci}"`
# passed while only NAME's unknown value was read.
_DEFAULT = 6


class _Piece(msgspec.Struct, frozen=True, gc=False):
    kind: int
    text: str  # the piece's value (for _VAR the variable's name, for _UNKNOWN its spelling)
    quoted: bool = False
    raw: str = ""  # _VAR: the spelling, kept when the value stays unknown


@lru_cache(maxsize=1024)
def _read_pieces(raw: str) -> tuple[_Piece, ...]:
    """The pieces of one word's raw spelling, in order (quote removal done per piece).

    Kept for the last thousand spellings: scripts repeat their words (`"$f"` in a loop body),
    and the pieces depend on the spelling alone (the values come from the scope later)."""
    return tuple(_pieces(raw))


@lru_cache(maxsize=256)
def _read_quoted_pieces(text: str) -> tuple[_Piece, ...]:
    """The pieces of text read as inside double quotes (a quoted default word, `_DEFAULT`)."""
    out: list[_Piece] = []
    _read_double_quoted(text + '"', 0, out)
    return tuple(out)


def _pieces(raw: str) -> list[_Piece]:
    out: list[_Piece] = []
    i, n = 0, len(raw)
    while i < n:
        c = raw[i]
        if c == "\\":
            if raw.startswith("\\\n", i):
                i += 2
            elif raw.startswith("\\\r\n", i):
                i += 3
            elif i + 1 < n:
                out.append(_Piece(_LIT, raw[i + 1]))
                i += 2
            else:
                out.append(_Piece(_LIT, "\\"))
                i += 1
        elif c == "'":
            j = raw.find("'", i + 1)
            j = n if j < 0 else j
            out.append(_Piece(_LIT, raw[i + 1 : j]))
            i = j + 1
        elif c == '"':
            i = _read_double_quoted(raw, i + 1, out)
        elif c == "$":
            i = _read_dollar(raw, i, out, quoted=False)
        elif c == "`":
            j = raw.find("`", i + 1)
            j = n if j < 0 else j
            out.append(_substitution(raw[i : j + 1], False))
            i = j + 1
        elif c == "(" and i > 0 and raw[i - 1] in _EXTGLOB_PREFIX and out and out[-1].kind == _ACTIVE:
            end = group_end(raw, i, "(", ")")
            out.append(_Piece(_ACTIVE, raw[i:end]))
            i = end
        else:
            j = _ACTIVE_RUN().match(raw, i + 1).end()
            out.append(_Piece(_ACTIVE, raw[i:j]))
            i = j
    return out


def _read_double_quoted(raw: str, i: int, out: list[_Piece]) -> int:
    n = len(raw)
    buf: list[str] = []
    while i < n and raw[i] != '"':
        c = raw[i]
        if c not in _QUOTED_SPECIAL:
            j = _QUOTED_RUN().match(raw, i).end()  # a run without meaning inside quotes, at once
            buf.append(raw[i:j])
            i = j
        elif c == "\\" and i + 1 < n and raw[i + 1] in '$`"\\\n':
            if raw[i + 1] != "\n":
                buf.append(raw[i + 1])
            i += 2
        elif c == "$" or c == "`":
            if buf:
                out.append(_Piece(_LIT, "".join(buf)))
                buf = []
            if c == "`":
                j = raw.find("`", i + 1)
                j = n if j < 0 else j
                out.append(_substitution(raw[i : j + 1], True))
                i = j + 1
            else:
                i = _read_dollar(raw, i, out, quoted=True)
        else:
            buf.append(c)
            i += 1
    if buf:
        out.append(_Piece(_LIT, "".join(buf)))
    return i + 1


_POSITIONAL = frozenset("0123456789@*")  # (`$0`: bound for a shell's `-c` code, analysis.py)


# A substitution whose output is one file's text as it stands: `$(cat F)`, `$(< F)`, `` `cat F` ``
# (and, where a script operand or stdin is a file, `<(cat F)`). The walk reads F within bounds
# and keeps the text in the scope under the substitution's spelling, which `_pieces` reads as a
# variable's name; unread, the spelling stays a value of unknown value as before.
_FILE_PRINT = LazyPattern(
    r"(?:\$\(|<\(|(`))[ \t]*+(?:cat[ \t]++(?:--[ \t]++)?|<[ \t]*+)"
    r"(?:([^\s'\"\\$`;&|<>()*?\[\]{}#~][^\s'\"\\$`;&|<>()*?\[\]{}]*+)|'([^'\r\n]++)'|\"([^\"\\$`\r\n]++)\")"
    r"[ \t]*+(?(1)`|\))")


def printed_file(spelling: str) -> str | None:
    """The file a substitution spelled `spelling` prints whole (`$(cat F)` -> `F`), or None."""
    m = _FILE_PRINT().fullmatch(spelling)
    return None if m is None else m.group(2) or m.group(3) or m.group(4)


def file_prints(raw: str) -> list[tuple[str, str | None]]:
    """The substitutions of one word's raw spelling whose output the walk can work out:
    (spelling, the file it prints) each, the file None for one that prints its own words."""
    return [(piece.text, printed_file(piece.text)) for piece in _read_pieces(raw)
            if piece.kind == _VAR and piece.text[:1] in "$`"]


# A substitution that prints its own words: `$(echo WORDS)`, `$(printf FORMAT ARGS)` (no
# expansion, operator or redirect inside; the walk works out the text, `Walk._print_values`).
# A backslash quotes the next character (`$(echo c\?/*)`, read by the tokenizer; not before
# `$`, a backquote or a backslash, which backquotes read otherwise). Echo's `-e` escapes and
# printf's are refused where they are read (`_words_printed`).
_WORD_PRINT = LazyPattern(r"(?:\$\(|(`))[ \t]*+(?:echo|printf)[ \t]++(?:[^$`()|&;<>\n\\]|\\[^$`()|&;<>\n\\])*+(?(1)`|\))")


def printed_words(spelling: str) -> str | None:
    """The command inside a substitution that prints its own words (`$(echo a b)` and
    `` `echo a b` `` -> `echo a b`), or None."""
    if _WORD_PRINT().fullmatch(spelling) is None:
        return None
    return spelling[1:-1] if spelling[0] == "`" else spelling[2:-1]


def _substitution(spelling: str, quoted: bool) -> _Piece:
    """A command substitution: a value named by its spelling when it prints a file or its own
    words, the working directory for `$(pwd)`, else unknown."""
    if printed_file(spelling) is not None or printed_words(spelling) is not None:
        return _Piece(_VAR, spelling, quoted, spelling)
    if _PWD_PRINT().fullmatch(spelling) is not None:
        return _Piece(_VAR, "PWD", quoted, spelling)  # (`Scope.directories`)
    if _TOPLEVEL_PRINT().fullmatch(spelling) is not None:
        return _Piece(_VAR, TOPLEVEL, quoted, spelling)
    return _Piece(_UNKNOWN, spelling)


def prints_directory(raw: str) -> bool:
    """Does a word's spelling hold `$(pwd)` or `` `pwd` `` (the working directory), or the
    top of the repository?"""
    return _PWD_PRINT().search(raw) is not None or _TOPLEVEL_PRINT().search(raw) is not None


def prints_unworked_directory(script: str) -> bool:
    """May a command substitution's script print a directory this module does not work out
    (`$(env pwd)`, `$(cd .; pwd)`, `$(echo $PWD)`, `$(dirs)`, `$(git -C . rev-parse
    --show-toplevel)`, `$(python3 -c 'import os; print(os.getcwd())')`)? The project's own
    directory or one above it would be a value of the line's making (`Walk._maker`)."""
    if _DIRECTORY_WORD().search(script) is None:
        return False
    spelling = "$(" + script + ")"
    return _PWD_PRINT().fullmatch(spelling) is None and _TOPLEVEL_PRINT().fullmatch(spelling) is None


_DIRECTORY_WORD = LazyPattern(
    r"\b(?:pwd|PWD|OLDPWD|DIRSTACK|HOME|dirs|realpath|readlink|show-toplevel|show-cdup|"
    r"show-superproject-working-tree|getcwd|cwd|abspath|resolve)\b|~")  # (git's `--git-dir`, a
# `.git` path, is judged by what follows it: `"$(git rev-parse --git-dir)/hooks/pre-commit"`)


# The working directory printed: `pwd` (`-L`/`-P`, by its path), `realpath .`, `readlink -f .`,
# `cd . && pwd`, `dirs -l +0` (a link in the directory's own path is not told apart: the project
# directory either way).
_PWD_PRINT = LazyPattern(
    r"(?:\$\(|(`))[ \t]*+(?:(?:(?:/usr)?/bin/)?pwd(?:[ \t]++-[LP])?|(?:(?:/usr)?/bin/)?realpath(?:[ \t]++-[a-zA-Z]++)*+"
    r"[ \t]++\.|(?:(?:/usr)?/bin/)?readlink[ \t]++-[fem][ \t]++\.|cd[ \t]++\.[ \t]*+&&[ \t]*+pwd|dirs[ \t]++-l[ \t]++\+?0)"
    r"[ \t]*+(?(1)`|\))")
_TOPLEVEL_PRINT = LazyPattern(r"(?:\$\(|(`))[ \t]*+git[ \t]++rev-parse[ \t]++--show-toplevel[ \t]*+(?(1)`|\))")


def _read_dollar(raw: str, i: int, out: list[_Piece], *, quoted: bool) -> int:
    nxt = raw[i + 1 : i + 2]
    if nxt == "{":
        end = group_end(raw, i + 1, "{", "}")
        inner = raw[i + 2 : end - 1]
        if _NAME().fullmatch(inner) or inner in _POSITIONAL or inner[:1] == "!" and _NAME().fullmatch(inner, 1):
            out.append(_Piece(_VAR, inner, quoted, raw[i:end]))  # (`${!r}`: indirection, `Scope.value`)
        elif (m := _DEFAULTED().fullmatch(inner)) is not None:
            out.append(_Piece(_DEFAULT, m.group(1) + _OPERATOR + m.group(2), quoted, raw[i:end]))
        elif (m := _OPERATED().fullmatch(inner)) is not None:
            # `${x,,}`, `${x#pre}`, `${x/a/b}`, `${x:1:2}`, `${x:-word}` …: worked out from x's
            # known values (`Scope.value` reads the operator after `_OPERATOR`), else unknown.
            out.append(_Piece(_VAR, m.group(1) + _OPERATOR + m.group(2), quoted, raw[i:end]))
        elif (m := _SUBSCRIPTED().match(inner)) is not None:
            # `${a[@]}`, `${a[*]}`, `${a[1]}`, `${a[$i]}`; an operator after the subscript
            # (`${a[@]:1}`, `${a[0]%.sh}`) leaves the value unknown: `a[?]` (see `Scope.value`).
            name = m.group(1) + ("[" + m.group(2) + "]" if m.end() == len(inner) else "[?]")
            out.append(_Piece(_VAR, name, quoted, raw[i:end]))
        else:
            out.append(_Piece(_UNKNOWN, raw[i:end]))
        return end
    if nxt == "(":
        end = group_end(raw, i + 1, "(", ")")
        out.append(_substitution(raw[i:end], quoted))
        return end
    if nxt == "'" and not quoted:
        return _read_ansi_c(raw, i + 2, out)
    m = _NAME().match(raw, i + 1)
    if m is not None:
        out.append(_Piece(_VAR, m.group(), quoted, "$" + m.group()))
        return m.end()
    if nxt and nxt in _POSITIONAL:
        # `$0`…`$9`, `$@`, `$*`: unknown, unless the walk binds them (a script file run with
        # literal arguments, scripts.py; `sh -c CODE NAME ARG…`, analysis.py)
        out.append(_Piece(_VAR, nxt, quoted, raw[i : i + 2]))
        return i + 2
    if nxt and nxt in "#?-$!":
        out.append(_Piece(_UNKNOWN, raw[i : i + 2]))
        return i + 2
    out.append(_Piece(_LIT if quoted else _ACTIVE, "$"))
    return i + 1


def _read_ansi_c(raw: str, i: int, out: list[_Piece]) -> int:
    """`$'…'` from just after the opening quote: known escapes decode (as the tokenizer's)."""
    n = len(raw)
    buf: list[str] = []
    while i < n and raw[i] != "'":
        c = raw[i]
        if c == "\\" and i + 1 < n:
            decoded, end = ansi_c_escape(raw, i)
            if decoded is not None:
                buf.append(decoded)
            else:
                if buf:
                    out.append(_Piece(_LIT, "".join(buf)))
                    buf = []
                out.append(_Piece(_UNKNOWN, raw[i:end]))
            i = end
        else:
            buf.append(c)
            i += 1
    if buf:
        out.append(_Piece(_LIT, "".join(buf)))
    return i + 1


# -- variables and word expansion --------------------------------------------------------------


class Value(msgspec.Struct, frozen=True, gc=False):
    """One possible value of a variable: its text and, for a `for` loop over a glob, the
    pattern the value is one match of."""

    text: str
    pattern: str | None = None


# A parameter expansion with an operator this module works out (`Scope.operated`): the name,
# then the operator and its words, none of which expands anything itself.
_OPERATED = LazyPattern(r"([A-Za-z_][A-Za-z0-9_]*)((?:,,?|\^\^?|##?|%%?|//?|:[0-9]|:?[-+=])[^$`\\'\"]*)")
_DEFAULTED = LazyPattern(r"([A-Za-z_][A-Za-z0-9_]*)(:?[-=].*)", re.DOTALL)  # (`_DEFAULT`)
_OPERATOR = "\x00"  # between a name and its operator in a `_VAR` piece's name
_UNASSIGNED = object()
# The top of the repository the line runs in (`$(git rev-parse --show-toplevel)`): a name no
# variable can have.
TOPLEVEL = "git rev-parse --show-toplevel"
_DIRECTORY_NAMES = frozenset({"PWD", "OLDPWD", TOPLEVEL})


# Variables that decide which program a bare command name runs.
_PROGRAM_LOOKUP = frozenset({"PATH", "BASH_CMDS"})


class Scope:
    """What the line has assigned so far: name -> the tuple of possible values, or None when
    the variable's value is unknown (assigned from a substitution, read, unset …).

    An array `a=(x y)` is kept as `a[@]` -> its elements (None when one is unknown) and `a` ->
    its first element; `spellings` keeps what an array's assignment spelled, which an
    expansion of unknown value carries so the mention rules can read it."""

    __slots__ = ("values", "spellings", "keyed", "references", "directories", "made", "unset", "wild",
                 "wild_since", "path_assignments")

    def __init__(self, directories=None) -> None:
        self.values: dict[str, tuple[Value, ...] | None] = {}
        self.spellings: dict[str, str] = {}
        self.keyed: set[str] = set()  # arrays assigned with `[k]=v` elements: positions unknown
        # Name references (`declare -n r=x`): r -> x, or None when what r names is unknown.
        self.references: dict[str, str | None] = {}
        # The shell's own directory variables, `PWD`, `OLDPWD` and `DIRSTACK[N]`, as the walk
        # knows them (`directories(name)`), unless the line assigned them.
        self.directories = directories
        # Names whose value the line makes of text the walk does not work out (`x=$(rev f)`,
        # a `read` with another split, the positional parameters of `set --`): name -> how,
        # for the judge's message. Such a value is unknown, as an unassigned one, but a writer
        # or program that takes it fails closed (it is not the environment's).
        self.made: dict[str, str] = {}
        # Names the line `unset`: their value is empty, and a default word is taken without
        # the colon too (`unset x; rm -rf "${x-ci}"`).
        self.unset: set[str] = set()
        # Set when an operand of unknown text may have assigned any name (`export $(rev f)`,
        # `any_made`): how, for the judge's message; every name not assigned since
        # (`wild_since`) is made so.
        self.wild: str | None = None
        self.wild_since: set[str] = set()
        # How many times the line gave PATH (or bash's table of remembered programs, BASH_CMDS)
        # a value, by any route (`read PATH`, `printf -v PATH`, a reference): which program a
        # bare name runs then depends on it (`Walk._follow_path`).
        self.path_assignments = 0

    def any_made(self, how: str) -> None:
        """Every name may now hold a value made as `how` says, until the line assigns it."""
        self.wild = how
        self.wild_since = set()

    def copy(self) -> Scope:
        other = Scope(self.directories)
        other.values = dict(self.values)
        other.spellings = dict(self.spellings)
        other.keyed = set(self.keyed)
        other.references = dict(self.references)
        other.made = dict(self.made)
        other.unset = set(self.unset)
        other.wild = self.wild
        other.wild_since = set(self.wild_since)
        other.path_assignments = self.path_assignments
        return other

    def refer(self, name: str, target: str | None) -> None:
        """`declare -n name=target`: a chain that comes back to `name` names nothing known."""
        seen = {name}
        end = target
        while end is not None and end in self.references:
            if end in seen:
                target = None
                break
            seen.add(end)
            end = self.references[end]
        self.references[name] = target
        self.values.pop(name, None)

    def _referenced(self, name: str) -> str | None:
        """The variable a name reference finally names (chains followed), None when unknown."""
        for _ in range(len(self.references) + 1):
            if name not in self.references:
                return name
            target = self.references[name]
            if target is None:
                return None
            name = target
        return None

    def value(self, name: str) -> tuple[Value, ...] | None:
        if _OPERATOR in name:
            return self.operated(*name.split(_OPERATOR, 1))
        if name[0] == "!":
            # `${!r}`: the variable r's value names (one known name, else unknown)
            named = self.value(name[1:])
            if named is None or len(named) != 1 or named[0].pattern is not None \
                    or _NAME().fullmatch(named[0].text) is None:
                return None
            return self.value(named[0].text)
        if self.references:
            base = name.partition("[")[0]
            if base in self.references:
                target = self._referenced(base)
                if target is None:
                    return None
                name = target + name[len(base):]
        if name[-1:] != "]":
            found = self.values.get(name, _UNASSIGNED)
            if found is _UNASSIGNED:
                if name == "DIRSTACK" and self.directories:
                    return self.directories("DIRSTACK[0]")  # (an array's name is its element 0)
                return self.directories(name) if name in _DIRECTORY_NAMES and self.directories else None
            return found
        base, _, subscript = name[:-1].partition("[")
        if base == "DIRSTACK" and base + "[@]" not in self.values and self.directories:
            return self.directories(name)
        if base + "[@]" not in self.values:
            # a scalar named with a subscript: `${x[0]}`, `${x[@]}` are `$x` (`"${PWD[@]}"` too)
            return self.value(base) if subscript in ("@", "*", "0") else None
        elements = self.values[base + "[@]"]
        if elements is None or subscript == "?":
            return None
        if subscript.isdigit() and base not in self.keyed:
            k = int(subscript)
            return (elements[k],) if k < len(elements) else (Value(""),)
        return elements  # `${a[@]}`, `${a[*]}`, `${a[$i]}`: every element (each may be it)

    def operated(self, name: str, operator: str) -> tuple[Value, ...] | None:
        """`${name OPERATOR}` over each of name's known values (as bash works it out), or None
        when a value, or the operator's pattern, is not known (only literal patterns are
        applied)."""
        values = self.value(name)
        c = operator[0]
        if self.unset and name in self.unset and (c in "-+=" or operator[:2] in (":-", ":+", ":=")):
            # (unset: the word for `-` and `=`, nothing for `+`, with the colon or without)
            return (Value(""),) if "+" in operator[:2] else (Value(operator[2 if c == ":" else 1 :]),)
        if c in "-+=" or operator[:2] in (":-", ":+", ":="):
            # (a value the line assigned: the variable is set; one it did not is unknown)
            if values is None:
                if operator[:2] == ":+" or c == "+":
                    # `c${BASH:+i}`: the word when the variable is set, else nothing, whatever it holds
                    return Value(operator[2 if c == ":" else 1 :]), Value("")
                return None
            colon = c == ":"
            kind, word = operator[1 if colon else 0], operator[2 if colon else 1 :]
            out = []
            for v in values:
                empty = colon and v.pattern is None and v.text == ""
                if kind == "+":
                    out.append(Value("") if empty else Value(word))
                else:
                    out.append(Value(word) if empty else v)
            return tuple(out)
        if values is None or any(v.pattern is not None for v in values):
            return None
        out = []
        for v in values:
            text = _operated_text(v.text, operator)
            if text is None:
                return None
            out.append(Value(text))
        return tuple(out)

    def spelling(self, name: str, raw: str) -> str:
        """What to keep of a variable of unknown value: an array's assigned spelling (`a=(ci/x
        $y)`), else the expansion as written."""
        return self.spellings.get(name.partition("[")[0], raw)

    def assign(self, name: str, values: tuple[Value, ...] | None) -> None:
        if self.references and name in self.references:
            target = self._referenced(name)
            if target is None:
                return  # an assignment through a reference to an unknown name: still unknown
            name = target
        self.values[name] = values
        if name in _PROGRAM_LOOKUP:
            self.path_assignments += 1
        if self.unset:
            self.unset.discard(name)
        if self.made:
            self.made.pop(name, None)
        if self.wild is not None:
            self.wild_since.add(name)
        if self.spellings and name + "[@]" not in self.values:
            self.spellings.pop(name, None)
        if name + "[@]" in self.values:  # a scalar assignment replaces element 0
            elements = self.values[name + "[@]"]
            self.values[name + "[@]"] = None if values is None or elements is None or len(values) != 1 \
                else (values[0], *elements[1:])

    def assign_array(self, name: str, elements: tuple[Value, ...] | None, spelling: str,
                     append: bool = False, keyed: bool = False) -> None:
        """`name=(…)`, `name+=(…)`: the elements, None when one of them is unknown."""
        if append:
            before = self.values.get(name + "[@]", self.values.get(name, ()))
            elements = None if before is None or elements is None else (*before, *elements)
            spelling = self.spellings.get(name, "") + " " + spelling
        elements = elements if elements is None or elements else (Value(""),)
        if self.made:
            self.made.pop(name, None)
        if self.wild is not None:
            self.wild_since.add(name)
        if self.unset:
            self.unset.discard(name)
        self.values[name + "[@]"] = elements
        self.values[name] = None if elements is None else elements[:1]
        if name in _PROGRAM_LOOKUP:
            self.path_assignments += 1
        self.spellings[name] = spelling
        if keyed:
            self.keyed.add(name)


def unworked_expansion(raw: str, scope: Scope) -> str | None:
    """The variable a word spelled `raw` expands, of a value the line assigned or the shell's
    directory variables hold, in a way this module does not work out (`${x%[z]}`, `${x@E}`,
    `${x: 0}`, `${!c*}`, the keys of an array the line made, `${PWD%/*}`), or None. Such a
    value is the line's own making, not the environment's (`Walk._maker`)."""
    for piece in _read_pieces(raw):
        if piece.kind == _VAR and _OPERATOR in piece.text:
            name = piece.text.split(_OPERATOR, 1)[0]
            if _known_name(name, scope) and scope.value(piece.text) is None:
                return name
        elif piece.kind == _UNKNOWN and piece.text.startswith("${") and not piece.text.startswith("${#"):
            m = _NAME_START().match(piece.text, 3 if piece.text.startswith("${!") else 2)
            if m is None:
                continue
            name = m.group()
            if piece.text.startswith("${!") and piece.text[m.end() : m.end() + 2] in ("*}", "@}"):
                if any(key.startswith(name) for key in scope.values):
                    return name  # `${!c*}`: the names the line assigned that begin so
            elif piece.text.startswith("${!") and piece.text[m.end() : m.end() + 4] in ("[@]}", "[*]}"):
                if name in scope.keyed:
                    return name  # the keys of `declare -A m=([ci]=1)`; an indexed array's are numbers
            elif name in scope.values or name + "[@]" in scope.values or _known_name(name, scope):
                return name
    return None


def _known_name(name: str, scope: Scope) -> bool:
    """Does the line, or the shell's knowledge of where the line runs, give `name` a value?"""
    return name in scope.values or scope.directories is not None and name in _SHELL_DIRECTORIES


# The shell's directory variables: their values are where the line runs, never the environment's.
# `HOME` is the environment's, but the walk knows it (`~`): one above the project, it must not be
# cut down to another directory unseen (`rm -rf "${HOME%/*}"`).
_SHELL_DIRECTORIES = frozenset({"PWD", "OLDPWD", "DIRSTACK", "HOME"})


_NAME_START = LazyPattern(r"[A-Za-z_][A-Za-z0-9_]*")


def _operated_text(text: str, operator: str) -> str | None:
    """One value through a case, trim, replace or substring operator, or None for a pattern
    with glob characters (not worked out here)."""
    if operator in (",,", "^^", ",", "^"):
        if operator == ",,":
            return text.lower()
        if operator == "^^":
            return text.upper()
        first = text[:1].lower() if operator == "," else text[:1].upper()
        return first + text[1:]
    if operator[0] in "#%":
        longest = operator[:2] in ("##", "%%")
        pattern = operator[2 if longest else 1 :]
        if any(ch in pattern for ch in "*?[]"):
            return None
        if operator[0] == "#":
            return text[len(pattern):] if text.startswith(pattern) else text
        return text[: len(text) - len(pattern)] if pattern and text.endswith(pattern) else text
    if operator[0] == "/":
        every = operator.startswith("//")
        pattern, _, replacement = operator[2 if every else 1 :].partition("/")
        anchor = pattern[:1] if not every and pattern[:1] in ("#", "%") else ""
        pattern = pattern[len(anchor):]
        if any(ch in pattern for ch in "*?[]\\") or not pattern and not anchor:
            return None
        if anchor == "#":  # `${x/#pre/new}`: at the start only (an empty pattern prepends)
            return replacement + text[len(pattern):] if text.startswith(pattern) else text
        if anchor == "%":
            return text[: len(text) - len(pattern)] + replacement if text.endswith(pattern) else text
        return text.replace(pattern, replacement) if every else text.replace(pattern, replacement, 1)
    if operator[0] == ":":
        offset, _, length = operator[1:].partition(":")
        if not offset.isdigit() or length and not length.isdigit():
            return None
        start = int(offset)
        return text[start : start + int(length)] if length else text[start:]
    return None


def escape_pattern(text: str) -> str:
    """Literal text as pattern text: every pattern character escaped."""
    # One regex call: a generator over the characters cost ~4x more for a typical quoted word.
    return _PATTERN_CHARACTER().sub(r"\\\g<0>", text)


_PATTERN_CHARACTER = LazyPattern(r"[*?\[\]\\(){}|!@+]")


def _has_active_glob(pattern: str) -> bool:
    """Does a pattern (quoted characters backslash-escaped) hold an unescaped `*`, `?`, `[`
    or extglob group?"""
    return _ACTIVE_GLOB().match(pattern) is not None


# Escapes and characters that open nothing, skipped whole (possessively), then a `*`, `?`, `[`
# or an extglob prefix before `(` (the only `+`, `@`, `!` the skipping leaves). One regex call
# instead of a Python loop per character.
_ACTIVE_GLOB = LazyPattern(r"(?:[^\\*?\[+@!]++|\\.|[+@!](?!\())*+[*?\[+@!]", re.DOTALL)


def expand_word(word: Word, raw: str, scope: Scope | None) -> list[Arg]:
    """The argv words one tokenizer word becomes (see the module docstring)."""
    flags = word.flags
    if not flags & (W_GLOB | W_BRACE | W_VAR):
        return [Arg(word.text, None, word.opaque, ANY if word.opaque else ONE, word)]
    if flags & W_BRACE:
        spellings = brace_expand(raw)
        if spellings is None:
            # Too many words to enumerate: read as a pattern that may match any name.
            return [Arg(word.text, "*", False, ANY, word)]
    else:
        # Memoised on the spelling and the values of its variables (scripts repeat their words,
        # `"$f"` in a loop body); the word, whose position differs, is set on each call.
        read = _read_pieces(raw)
        pieces = [piece for piece in read if piece.kind == _VAR]
        if len(pieces) != len(read) and any(piece.kind == _DEFAULT for piece in read):
            return _expand_spelling(raw, word, scope)  # (its word's variables are no part of a key)
        values = [scope.value(piece.text) if scope is not None else None for piece in pieces]
        # (a variable of unknown value keeps what an array's assignment spelled: part of the key)
        spelled = tuple(scope.spelling(piece.text, piece.raw) for piece, value in zip(pieces, values)
                        if value is None) if scope is not None and scope.spellings else ()
        key = (raw, tuple(values), spelled)
        found = _EXPANDED.get(key)
        if found is None:
            if len(_EXPANDED) >= 4096:
                _EXPANDED.clear()
            found = _EXPANDED[key] = tuple([(a.text, a.pattern, a.opaque, a.count)
                                            for a in _expand_spelling(raw, word, scope)])
        return [Arg(text, pattern, opaque, count, word) for text, pattern, opaque, count in found]
    out: list[Arg] = []
    for spelling in spellings:
        out.extend(_expand_spelling(spelling, word, scope))
        if len(out) > BRACE_LIMIT:
            return [Arg(word.text, "*", False, ANY, word)]
    return out


_EXPANDED: dict[tuple, tuple[tuple[str, str | None, bool, int], ...]] = {}
# Emptied like the functools caches (bench/bench_shell.py clears every `cache_clear` it finds).
expand_word.cache_clear = _EXPANDED.clear  # type: ignore[attr-defined]

# Chunk kinds of an expanded word besides _LIT and _ACTIVE: an unquoted variable value (split
# at blanks, its pattern characters active) and one value of a loop over a glob.
_SPLIT = 4
_LOOP_PATTERN = 5
_SPLIT_PATTERN = 6  # a pattern of several printed words (`$(echo a c?)`), split at its unescaped blanks
_PATTERN_BLANK = LazyPattern(r"(?<!\\)[ \t\n]")  # (a blank after a backslash is taken as escaped)


def _expand_spelling(spelling: str, word: Word, scope: Scope | None) -> list[Arg]:
    alternatives = _alternatives(_read_pieces(spelling), scope, False, 0)
    if alternatives is None:
        return [Arg(word.text, "*", False, ANY, word)]
    out: list[Arg] = []
    for chunks, opaque in alternatives:
        if opaque:
            # Part of the value stays unknown: the word keeps its spelling, with what the line
            # assigned substituted (the mention rules read it; `d=src; rm $d/$X` spells `src/`).
            out.append(Arg("".join(text for text, _, _ in chunks), None, True, ANY, word))
        else:
            out.extend(_finish(chunks, word))
    return out


def _alternatives(pieces: Sequence[_Piece], scope: Scope | None, literal: bool,
                  depth: int) -> list[tuple[list[tuple[str, int, str]], bool]] | None:
    """The values a word's pieces may take: each a list of chunks (text, kind, pattern text)
    and whether part of it is unknown; None past `ALTERNATIVES_LIMIT`. `literal`: the pieces
    are a default word inside double quotes (`"${x:-*.sh}"`), whose pattern characters are
    text."""
    alternatives: list[tuple[list[tuple[str, int, str]], bool]] = [([], False)]
    for piece in pieces:
        kind = piece.kind
        if kind == _VAR:
            values = scope.value(piece.text) if scope is not None else None
            if values is None:
                spelled = scope.spelling(piece.text, piece.raw) if scope is not None and scope.spellings \
                    else piece.raw
                options = [([(spelled, _LIT, spelled)], True)]
            else:
                options = [([_value_chunk(v, piece.quoted or literal)], False) for v in values]
        elif kind == _DEFAULT:
            options = _default_options(piece, scope, literal, depth)
            if options is None:
                return None
        elif kind == _UNKNOWN:
            # Its spelling stays in the word (`$(echo ci)/gate.sh`), as in a word without
            # braces or variables: the mention rules read it.
            options = [([(piece.text, _LIT, piece.text)], True)]
        elif kind == _LIT or literal:
            options = [([(piece.text, _LIT, escape_pattern(piece.text))], False)]
        else:
            options = [([(piece.text, _ACTIVE, piece.text)], False)]
        if len(options) == 1:
            chunks, opaque = options[0]
            alternatives = [(alt + chunks, alt_opaque or opaque) for alt, alt_opaque in alternatives]
            continue
        if len(alternatives) * len(options) > ALTERNATIVES_LIMIT:
            return None
        alternatives = [(alt + chunks, alt_opaque or opaque)
                        for alt, alt_opaque in alternatives for chunks, opaque in options]
    return alternatives


def _value_chunk(v: Value, quoted: bool) -> tuple[str, int, str]:
    if v.pattern is not None:
        if not quoted and _PATTERN_BLANK().search(v.pattern):
            return v.text, _SPLIT_PATTERN, v.pattern  # (printed words: `$(echo a c?)`)
        return v.text, _LOOP_PATTERN, v.pattern
    return (v.text, _LIT, escape_pattern(v.text)) if quoted else (v.text, _SPLIT, v.text)


def _default_parts(piece: _Piece) -> tuple[str, bool, str]:
    """A `_DEFAULT` piece's name, whether its operator has the colon, and its word."""
    name, operator = piece.text.split(_OPERATOR, 1)
    colon = operator[0] == ":"
    return name, colon, operator[2 if colon else 1 :]


def _default_options(piece: _Piece, scope: Scope | None, literal: bool,
                     depth: int) -> list[tuple[list[tuple[str, int, str]], bool]] | None:
    """`${NAME:-WORD}` and kin (`_DEFAULT`): NAME's values, and WORD's where NAME may be unset
    (or empty, with the colon). An unset NAME's value is unknown: both are kept, so a writer
    is judged on WORD too (`rm -rf "${x:-$PWD}"`)."""
    name, colon, word = _default_parts(piece)
    values = scope.value(name) if scope is not None else None
    quoted = piece.quoted or literal
    if depth >= 8:
        return [([(piece.raw, _LIT, piece.raw)], True)]
    # (inside double quotes the word is read as double-quoted text: `"${x-'a b'}"` keeps the
    # single quotes; a double quote inside is read as outside, the one spelling not followed)
    pieces = _read_quoted_pieces(word) if quoted and '"' not in word else _read_pieces(word)
    word_options = _alternatives(pieces, scope, quoted, depth + 1)
    if word_options is None:
        return None
    if quoted:  # (`"${x-}"` is one empty word: an empty quoted chunk keeps it)
        word_options = [([("", _LIT, ""), *chunks], opaque) for chunks, opaque in word_options]
    if scope is not None and scope.unset and name in scope.unset:
        return word_options
    if values is None:
        return [([(piece.raw, _LIT, piece.raw)], True), *word_options]
    out: list[tuple[list[tuple[str, int, str]], bool]] = []
    for v in values:
        if colon and v.pattern is None and v.text == "":
            out.extend(word_options)
        else:
            out.append(([_value_chunk(v, quoted)], False))
    return out


def _finish(chunks: list[tuple[str, int, str]], word: Word) -> list[Arg]:
    """Word splitting of unquoted variable values, then the pattern of each field."""
    fields: list[list[tuple[str, int, str]]] = [[]]
    for chunk in chunks:
        text, kind, _ = chunk
        if kind == _SPLIT_PATTERN:
            parts = _split_pattern_words(chunk[2])
            fields[-1].append(parts[0])
            fields.extend([part] for part in parts[1:])
        elif kind == _SPLIT and _IFS().search(text):
            parts = _IFS().split(text)
            fields[-1].append((parts[0], _ACTIVE, parts[0]))
            for part in parts[1:]:
                fields.append([(part, _ACTIVE, part)])
        else:
            fields[-1].append((text, _ACTIVE, text) if kind == _SPLIT else chunk)
    out: list[Arg] = []
    for field in fields:
        texts: list[str] = []
        patterns: list[str] = []
        quoted = looped = False
        for text, kind, pattern in field:  # (one loop: generator expressions cost more here)
            texts.append(text)
            patterns.append(pattern)
            if kind == _LIT:
                quoted = True
            elif kind == _LOOP_PATTERN:
                looped = True
        text = "".join(texts)
        if not text and not quoted:
            continue  # an unquoted empty field disappears
        pattern = "".join(patterns)
        if looped or _has_active_glob(pattern):
            out.append(Arg(text, pattern, False, MANY, word))
        else:
            out.append(Arg(text, None, False, ONE, word))
    return out


def _split_pattern_words(pattern: str) -> list[tuple[str, int, str]]:
    """The chunks of the words a pattern of printed words splits into (`_SPLIT_PATTERN`): a
    word with a glob is one match of it, any other its own (unescaped) text."""
    out = []
    for part in _PATTERN_BLANK().split(pattern):
        if _has_active_glob(part):
            out.append((part, _LOOP_PATTERN, part))
        else:
            out.append((_ESCAPE().sub(r"\1", part), _ACTIVE, part))
    return out


_ESCAPE = LazyPattern(r"\\(.)", re.DOTALL)


def unknown_tail(text: str) -> str | None:
    """The literal text after the last expansion of unknown value in an opaque word's text,
    which keeps such expansions as spelled (`$V/gate.sh` -> `/gate.sh`, `${V}ate.sh` ->
    `ate.sh`, `$(pwd)` -> ``), or None when the text holds none."""
    pieces = _read_pieces(text)
    for k in range(len(pieces) - 1, -1, -1):
        if pieces[k].kind in (_VAR, _UNKNOWN, _DEFAULT):
            return "".join(piece.text for piece in pieces[k + 1 :])
    return None


def word_values(word: Word, raw: str, scope: Scope | None) -> tuple[Value, ...] | None:
    """The values an assignment's right-hand side gives its variable, or None when unknown.

    An assignment value is not word-split nor globbed (`x=*` assigns a star), but braces in it
    do not expand either; only variables are substituted."""
    pieces = _read_pieces(raw)
    values = [""]
    patterns: list[str] | None = None  # the values as patterns, once a piece is one
    for piece in pieces:
        if piece.kind == _UNKNOWN:
            return None
        if piece.kind == _DEFAULT:
            # (an assignment keeps WORD's values where NAME is unset: NAME's own unknown value
            # is the environment's, and `y=${x:-$PWD}; rm -rf "$y"` must be judged on $PWD)
            known = _default_values(piece, scope)
            if known is None or len(values) * len(known) > ALTERNATIVES_LIMIT:
                return None
            if patterns is not None:
                patterns = [p + escape_pattern(k) for p in patterns for k in known]
            values = [v + k for v in values for k in known]
            continue
        if piece.kind == _VAR:
            known = scope.value(piece.text) if scope is not None else None
            if known is None or len(values) * len(known) > ALTERNATIVES_LIMIT:
                return None
            if patterns is None and any(v.pattern is not None for v in known):
                # `x=$(echo c?/*)`, `x=$f/gate.sh` in a loop over a glob: the value is a
                # match of the pattern, kept as one (the assignment itself globs nothing)
                patterns = [escape_pattern(v) for v in values]
            if patterns is not None:
                patterns = [p + (k.pattern if k.pattern is not None else escape_pattern(k.text))
                            for p in patterns for k in known]
            values = [v + k.text for v in values for k in known]
            if piece.text[:1] in "$`":
                continue  # a file's text (`$(cat F)`, bounded by `disk.PRINT_BYTES`), kept whole
        else:
            if patterns is not None:
                patterns = [p + escape_pattern(piece.text) for p in patterns]
            values = [v + piece.text for v in values]
        if any(len(v) > VALUE_LIMIT for v in values):
            return None  # `a=$a$a` doubling: past the limit the value is unknown
    if patterns is not None:
        return tuple(Value(v, p) for v, p in zip(values, patterns))
    return tuple(Value(v) for v in values)


def _default_values(piece: _Piece, scope: Scope | None) -> list[str] | None:
    """The texts an assignment's `${NAME:-WORD}` may give (`word_values`), None when unknown."""
    name, colon, word_text = _default_parts(piece)
    word = word_values(None, word_text, scope)
    values = scope.value(name) if scope is not None else None
    if values is None or scope.unset and name in scope.unset:
        return None if word is None else [w.text for w in word]
    out: list[str] = []
    for v in values:
        if v.pattern is not None:
            return None
        if colon and v.text == "":
            if word is None:
                return None
            out.extend(w.text for w in word)
        else:
            out.append(v.text)
    return out


# -- pathname patterns -------------------------------------------------------------------------

# Node kinds of a compiled segment pattern.
_N_CHAR = 0  # a literal character
_N_ONE = 1  # `?`
_N_STAR = 2  # `*`
_N_SET = 3  # `[…]`: a `_Set`
_N_GROUP = 4  # extglob: (kind, alternatives)

_CLASSES: dict[str, Callable[[str], bool]] = {
    "alpha": str.isalpha, "digit": str.isdigit, "alnum": str.isalnum, "upper": str.isupper,
    "lower": str.islower, "space": str.isspace, "punct": lambda c: c.isprintable() and not c.isalnum() and not c.isspace(),
    "print": str.isprintable, "graph": lambda c: c.isprintable() and not c.isspace(),
    "cntrl": lambda c: not c.isprintable(), "xdigit": lambda c: c in "0123456789abcdefABCDEF",
    "blank": lambda c: c in " \t", "word": lambda c: c.isalnum() or c == "_", "ascii": lambda c: c < "\x80",
}

# POSIX names of collating symbols bash knows (lib/glob/collsyms.h): `[[.hyphen.]]` is `-`.
_COLLATING_NAMES: dict[str, str] = {
    **{name: chr(code) for code, names in enumerate((
        "NUL", "SOH", "STX", "ETX", "EOT", "ENQ", "ACK", "alert", "BS backspace", "HT tab", "LF newline",
        "VT vertical-tab", "FF form-feed", "CR carriage-return", "SO", "SI", "DLE", "DC1", "DC2", "DC3",
        "DC4", "NAK", "SYN", "ETB", "CAN", "EM", "SUB", "ESC", "IS4 FS", "IS3 GS", "IS2 RS", "IS1 US"))
       for name in names.split()},
    "space": " ", "exclamation-mark": "!", "quotation-mark": '"', "number-sign": "#", "dollar-sign": "$",
    "percent-sign": "%", "ampersand": "&", "apostrophe": "'", "left-parenthesis": "(",
    "right-parenthesis": ")", "asterisk": "*", "plus-sign": "+", "comma": ",", "hyphen": "-",
    "hyphen-minus": "-", "minus": "-", "dash": "-", "period": ".", "full-stop": ".", "slash": "/",
    "solidus": "/", "zero": "0", "one": "1", "two": "2", "three": "3", "four": "4", "five": "5", "six": "6",
    "seven": "7", "eight": "8", "nine": "9", "colon": ":", "semicolon": ";", "less-than-sign": "<",
    "equals-sign": "=", "greater-than-sign": ">", "question-mark": "?", "commercial-at": "@",
    "left-square-bracket": "[", "backslash": "\\", "reverse-solidus": "\\", "right-square-bracket": "]",
    "circumflex": "^", "circumflex-accent": "^", "underscore": "_", "grave-accent": "`", "left-brace": "{",
    "left-curly-bracket": "{", "vertical-line": "|", "right-brace": "}", "right-curly-bracket": "}",
    "tilde": "~", "DEL": "\x7f",
}
# The characters a bracket expression is tried with when it is compiled: every ASCII character,
# and non-ASCII ones that fold or classify unusually (the Kelvin sign folds to `k`).
_PROBES = tuple(chr(code) for code in range(1, 128)) + tuple("éÉçÿſıİ\u212a€中")


def _collating_symbol(name: str) -> str | None:
    """The character a `[.name.]` or (bash 5.3) `[=name=]` stands for; None when invalid."""
    found = _COLLATING_NAMES.get(name)
    return found if found is not None else name if len(name) == 1 else None


def _fold(c: str, fold: bool) -> str:
    if not fold:
        return c
    low = c.lower()
    return low if len(low) == 1 else c


def _class_holds(name: str, c: str) -> bool:
    """`[:name:]`: bash 5.2/5.3 unquote the name; an unknown class matches nothing."""
    test = _CLASSES.get(name.replace("\\", ""))
    return test is not None and test(c)


def _brackmatch_52(text: str, start: int, test: str, fold: bool) -> int | None:
    """Bash 5.2's BRACKMATCH (lib/glob/sm_loop.c), line for line: `text[start]` is just past
    the `[`. The index past the expression when `test` matches it, `start` when the `[` is a
    plain character matching `test == "["`, None when `test` does not match."""
    n = len(text)

    def at(k: int) -> str:
        return text[k] if k < n else "\0"

    def literal() -> int | None:
        return start if test == "[" else None

    orig_test = test
    test = _fold(test, fold)
    p = start
    negated = at(p) in "!^"
    if negated:
        p += 1
    c = at(p)
    p += 1
    while True:
        cstart = c
        if c == "[" and at(p) == "=" and at(p + 2) == "=" and at(p + 3) == "]":
            equivalent = _fold(at(p + 1), fold)
            p += 4
            if test == equivalent:
                return _matched_52(text, p + 1, start, test, negated)
            c = at(p)
            p += 1
            if c == "\0":
                return literal()
            c = _fold(c, fold)
            continue  # (5.2 reads a `]` here as a member, not the end)
        if c == "[" and at(p) == ":":
            close = p + 1
            while at(close) != "\0" and not (at(close) == ":" and at(close + 1) == "]"):
                close += 1
            holds = False
            if at(close) != "\0":
                holds = _class_holds(text[p + 1 : close], orig_test)
                p = close + 2
            if holds:
                return _matched_52(text, p + 1, start, test, negated)
            c = at(p)
            p += 1
            if c == "\0":
                return literal()
            if c == "]":
                break
            c = _fold(c, fold)
            continue
        if c == "[" and at(p) == ".":
            symbol, p = _collsym_52(text, p, at)
            # An invalid symbol cannot match (bash: one past the character tried).
            cstart = symbol if symbol is not None else chr(ord(test) + 1)
        if c == "\\":
            if at(p) == "\0":
                return None
            cstart = at(p)
            p += 1
        cstart = cend = _fold(cstart, fold)
        ranged = False
        if c == "\0":
            return literal()
        c = _fold(at(p), fold)
        p += 1
        if c == "\0":
            return literal()
        if c == "-" and at(p) != "]":
            cend = at(p)
            p += 1
            if cend == "\\":
                cend = at(p)
                p += 1
            if cend == "\0":
                return None
            if cend == "[" and at(p) == ".":
                symbol, p = _collsym_52(text, p, at)
                cend = symbol if symbol is not None else chr(max(ord(test) - 1, 0))
            cend = _fold(cend, fold)
            c = at(p)
            p += 1
            if cstart > cend:  # an inverted range matches nothing; the rest still counts
                if c == "]":
                    break
                c = _fold(c, fold)
                continue
            ranged = True
        if (cstart <= test <= cend) if ranged else test == cstart:
            return _matched_52(text, p, start, test, negated)
        if c == "]":
            break
    return p if negated else None


def _collsym_52(text: str, p: int, at: Callable[[int], str]) -> tuple[str | None, int]:
    """5.2's PARSE_COLLSYM at the `.` of `[.`: the symbol (None when invalid) and the index
    past `.]` (at the end of the text when there is none)."""
    q = p + 1
    k = q
    while at(k) != "\0" and not (at(k) == "." and at(k + 1) == "]"):
        k += 1
    if at(k) == "\0":
        return None, k
    return _collating_symbol(text[q:k]), k + 2


def _matched_52(text: str, p: int, start: int, test: str, negated: bool) -> int | None:
    """5.2 skips the rest of a bracket expression that matched, its own way."""
    n = len(text)

    def at(k: int) -> str:
        return text[k] if k < n else "\0"

    p -= 1
    c = at(p)
    depth = 1
    opener: int | None = None
    while depth > 0:
        if c == "\0":
            return start if test == "[" else None
        before = c
        c = at(p)
        p += 1
        if c == "[" and at(p) in "=:." and at(p) != "\0":
            depth += 1
            opener = p
            p += 1
            c = at(p)
            if c == "\0":
                return start if test == "[" else None
        elif c == "]" and depth > 1 and opener is not None and before == at(opener):
            depth -= 1
            opener = None
        elif c == "]" and (opener is None or at(opener) != ".") and depth >= 1:
            depth = 0
        elif c == "\\":
            if at(p) == "\0":
                return None
            p += 1
    return None if negated else p


def _subbracket_53(text: str, p: int) -> int | None:
    """5.3's PARSE_SUBBRACKET at the `.`, `=` or `:` after a `[`: the index of the closing
    `.]`/`=]`/`:]`; only a collating symbol may hold a `]`."""
    kind = text[p]
    n = len(text)
    p += 1
    while p < n and (kind == "." or text[p] != "]"):
        if text[p] == kind and text.startswith("]", p + 1):
            return p
        p += 1
    return None


def _brackmatch_53(text: str, start: int, test: str, fold: bool) -> int | None:
    """Bash 5.3's BRACKMATCH, same contract as `_brackmatch_52`. 5.3 reads `[=name=]` by
    collating name and ends the expression at a `]` after a class; a range with an invalid
    collating symbol as an end is taken to match anything (it is unspecified)."""
    n = len(text)

    def at(k: int) -> str:
        return text[k] if k < n else "\0"

    def literal() -> int | None:
        return start if test == "[" else None

    orig_test = test
    test = _fold(test, fold)
    p = start
    negated = at(p) in "!^"
    if negated:
        p += 1
    c = at(p)
    p += 1
    while True:
        cstart: str | None = c
        if c == "[" and at(p) in "=:" and (close := _subbracket_53(text, p)) is not None:
            if at(p) == "=":
                symbol = _collating_symbol(text[p + 1 : close])
                hit = symbol is not None and test == _fold(symbol, fold)
            else:
                hit = _class_holds(text[p + 1 : close], orig_test)
            p = close + 2
            if hit:
                return _matched_53(text, p + 1, start, test, negated)
            c = at(p)
            p += 1
            if c == "\0":
                return literal()
            if c == "]":
                break
            c = _fold(c, fold)
            continue
        if c == "[" and at(p) == "." and (close := _subbracket_53(text, p)) is not None:
            cstart = _collating_symbol(text[p + 1 : close])
            p = close + 2
        if c == "\\":
            if at(p) == "\0":
                return literal()
            cstart = at(p)
            p += 1
        cstart = cend = _fold(cstart, fold) if cstart is not None else None
        ranged = False
        if c == "\0":
            return literal()
        c = _fold(at(p), fold)
        p += 1
        if c == "\0":
            return literal()
        if c == "-" and at(p) != "]":
            cend = at(p)
            p += 1
            if cend == "\\":
                cend = at(p)
                p += 1
            if cend == "\0":
                return literal()
            if cend == "[" and at(p) == "." and (close := _subbracket_53(text, p)) is not None:
                cend = _collating_symbol(text[p + 1 : close])
                p = close + 2
            cend = _fold(cend, fold) if cend is not None else None
            c = at(p)
            p += 1
            if cstart is not None and cend is not None and cstart > cend:
                if c == "]":
                    break
                c = _fold(c, fold)
                continue
            ranged = True
        if ranged:
            if cstart is None or cend is None or cstart <= test <= cend:
                return _matched_53(text, p, start, test, negated)
        elif test == cstart:
            return _matched_53(text, p, start, test, negated)
        if c == "]":
            break
    return p if negated else None


def _matched_53(text: str, p: int, start: int, test: str, negated: bool) -> int | None:
    n = len(text)

    def at(k: int) -> str:
        return text[k] if k < n else "\0"

    p -= 1
    c = at(p)
    while True:
        if c == "\0":
            return start if test == "[" else None
        c = at(p)
        p += 1
        if c == "[" and at(p) in "=:." and at(p) != "\0":
            close = _subbracket_53(text, p)
            if close is not None:
                p = close + 2
        elif c == "]":
            break
        elif c == "\\":
            if at(p) == "\0":
                return start if test == "[" else None
            p += 1
    return None if negated else p


class _Set(msgspec.Struct, frozen=True, gc=False):
    """A bracket expression, as the ASCII characters it matches (`folded`: under nocaseglob).
    A character outside ASCII matches when `plain` (only listed characters) says so, and
    otherwise may (classes and ranges of other locales are not modelled: fail closed)."""

    chars: frozenset[str]
    folded: frozenset[str]
    plain: bool
    text: str  # the expression, `[` to `]`

    def has(self, c: str, fold: bool) -> bool:
        if c < "\x80":
            return c in (self.folded if fold else self.chars)
        if not self.plain:
            return True
        return any(_brackmatch(self.text, 1, c, fold) is not None for _brackmatch in _BASH_BRACKETS)


_BASH_BRACKETS = (_brackmatch_52, _brackmatch_53)
_BRACKET_SPAN = 128  # characters a bracket expression is read within (past them: may match anything)
_BRACKETS_LIMIT = 16  # bracket expressions read in one path segment (past them: may match anything)
_READINGS_DEPTH = 4  # brackets with several readings, one after another, in one segment


@lru_cache(maxsize=256)
def _bracket_readings(text: str, i: int) -> tuple[tuple[_Set, int], ...] | None:
    """How bash reads the `[` at `text[i]`, tried with every probe character in bash 5.2 and
    5.3: None when the `[` is a plain character; else each set of characters that match with
    the index where matching goes on after them. Bash 5.2 reads `[[=a=]]` as `[=a=]` matching
    `a`, or as a plain `[` followed by `[=a=]]`: two readings. () when no end is found."""
    start = i + 1
    if text.find("]", start + 1) < 0:
        return None  # no `]` that could close it: a plain `[` in every reading
    # Bounded: the expression is read within a window; one that may reach past it is unknown.
    window = text[: start + _BRACKET_SPAN]
    cut = len(window) < len(text)
    by_end: dict[int, dict[bool, set[str]]] = {}
    for fold in (False, True):
        for probe in _PROBES:
            for brackmatch in _BASH_BRACKETS:
                end = brackmatch(window, start, probe, fold)
                if end is not None:
                    by_end.setdefault(end, {False: set(), True: set()})[fold].add(probe)
    if not by_end:
        # Nothing matches: the expression still ends somewhere (a negated reading finds it).
        if text.startswith(("!", "^"), start):
            return ()
        negated = window[:start] + "!" + window[start:]
        ends = {brackmatch(negated, start, "\x01", False) for brackmatch in _BASH_BRACKETS}
        if None in ends or start in ends:
            return () if cut else None  # no end either: the `[` is a character (that `[` does not match)
        by_end = {end - 1: {False: set(), True: set()} for end in ends}
    if cut and (start in by_end or max(by_end) > len(window) - 4):
        return ()  # it may end past the window
    if set(by_end) == {start}:
        return None
    readings = []
    for end, matched in sorted(by_end.items()):
        body = text[start : end - 1]
        plain = end == start or ("[" not in body and "-" not in body)
        readings.append((_Set(frozenset(c for c in matched[False] if c < "\x80"),
                              frozenset(c for c in matched[True] if c < "\x80"), plain, text[i:end]), end))
    return tuple(readings)


class Segment(msgspec.Struct, frozen=True, gc=False):
    """One compiled path segment of a pattern: a literal name, `**`, or nodes to match."""

    literal: str | None  # the segment has no pattern character: compare as a name
    globstar: bool  # the segment is exactly `**`
    nodes: tuple  # compiled nodes (see `_N_*`), empty for a literal
    anything: bool = False  # too large to compile: may match any name
    # Index of the first top-level `!(…)` node, or -1. Bash's matcher is not exact after one
    # (`a*!(a)?` matches `a`), so a name the nodes before it can begin also matches (a superset).
    negation: int = -1


def split_pattern(pattern: str) -> list[str]:
    """The pattern's `/`-separated segments (a `/` escaped or inside a group does not split)."""
    out: list[str] = []
    buf: list[str] = []
    depth = 0
    i, n = 0, len(pattern)
    while i < n:
        c = pattern[i]
        if c == "\\" and i + 1 < n:
            buf.append(pattern[i : i + 2])
            i += 2
            continue
        if c == "(" and i > 0 and pattern[i - 1] in _EXTGLOB_PREFIX:
            depth += 1
        elif c == ")" and depth:
            depth -= 1
        if c == "/" and depth == 0:
            out.append("".join(buf))
            buf = []
        else:
            buf.append(c)
        i += 1
    out.append("".join(buf))
    return out


@lru_cache(maxsize=512)
def compile_segment(text: str, extglob: bool = True, globstar: bool = True) -> Segment:
    """Compile one segment of a pattern (already split at `/`); without globstar a `**`
    segment is a plain `*`."""
    if text == "**" and globstar:
        return Segment(None, True, ())
    if not any(c in text for c in "*?[\\") and not ("(" in text and any(c in text for c in _EXTGLOB_PREFIX)):
        return Segment(text, False, ())
    nodes, end = _compile_nodes(text, 0, extglob, top=True) if text.count("[") <= _BRACKETS_LIMIT else (None, 0)
    if nodes is None or _size(nodes) > PATTERN_LIMIT:
        return Segment(None, False, (), anything=True)
    if all(kind == _N_CHAR for kind, _ in nodes):
        return Segment("".join(value for _, value in nodes), False, ())
    negation = next((k for k, (kind, value) in enumerate(nodes) if kind == _N_GROUP and value[0] == "!"), -1)
    return Segment(None, False, tuple(nodes), negation=negation)


def _size(nodes: Sequence) -> int:
    total = 0
    for kind, value in nodes:
        total += 1
        if kind == _N_GROUP:
            total += sum(_size(alt) for alt in value[1])
    return total


def _compile_nodes(text: str, i: int, extglob: bool, top: bool, depth: int = 0) -> tuple[list | None, int]:
    """Nodes from `text[i:]` up to the end (top level) or an unmatched `|`/`)` (in a group)."""
    if depth > 32:
        return None, i
    nodes: list = []
    n = len(text)
    while i < n:
        c = text[i]
        if not top and c in "|)":
            return nodes, i
        if c == "\\":
            if i + 1 < n:
                nodes.append((_N_CHAR, text[i + 1]))
                i += 2
            else:
                nodes.append((_N_CHAR, "\\"))
                i += 1
        elif extglob and c in _EXTGLOB_PREFIX and text.startswith("(", i + 1):
            alternatives = []
            j = i + 2
            while True:
                alt, j = _compile_nodes(text, j, extglob, top=False, depth=depth + 1)
                if alt is None:
                    return None, j
                alternatives.append(tuple(alt))
                if j >= n:
                    break  # unclosed: bash reads it as text; we keep the group (a superset)
                if text[j] == ")":
                    j += 1
                    break
                j += 1  # past `|`
            nodes.append((_N_GROUP, (c, tuple(alternatives))))
            i = j
        elif c == "*":
            if not (nodes and nodes[-1][0] == _N_STAR):  # `**` inside a name is one star
                nodes.append((_N_STAR, None))
            i += 1
        elif c == "?":
            nodes.append((_N_ONE, None))
            i += 1
        elif c == "[":
            readings = _bracket_readings(text, i)
            if readings is None:
                nodes.append((_N_CHAR, "["))
                i += 1
            elif len(readings) == 1:
                node, i = readings[0]
                nodes.append((_N_SET, node))
            elif not top or not readings or depth >= _READINGS_DEPTH:
                return None, i  # readings bash may go on from differently here: may match anything
            else:
                # Each reading goes on with the rest of the text from where it ends.
                alternatives = []
                for node, end in readings:
                    rest, _ = _compile_nodes(text, end, extglob, top=True, depth=depth + 1)
                    if rest is None:
                        return None, end
                    alternatives.append(((_N_SET, node), *rest))
                nodes.append((_N_GROUP, ("@", tuple(alternatives))))
                return nodes, n
        else:
            nodes.append((_N_CHAR, c))
            i += 1
    return nodes, i


def segment_matches(segment: Segment, name: str, *, dotglob: bool = False, fold: bool = False) -> bool:
    """Does one compiled pattern segment match one path segment (a file name)?"""
    if segment.anything:
        return True
    if segment.literal is not None:
        return segment.literal == name or (fold and segment.literal.casefold() == name.casefold())
    if segment.globstar:
        return dotglob or not name.startswith(".")
    guard = name.startswith(".") and not dotglob  # a leading dot must be matched explicitly
    if guard and not _begins_with_dot(segment.nodes):
        return False  # bash: a pattern that does not begin with a dot skips dotfiles
    if len(name) in _run(segment.nodes, name, {0}, guard, fold):
        return True
    return segment.negation >= 0 and bool(_run(segment.nodes[: segment.negation], name, {0}, guard, fold))


def _begins_with_dot(nodes: Sequence) -> bool:
    """Can the pattern begin with an explicit `.`? Past a leading `?(…)` or `*(…)`, which may
    match nothing, bash also asks what follows it (`?(a).*` matches `.a`: glob.c's
    extglob_skipname); a plain `*` or `?` is no such group."""
    for node in nodes:
        if _explicit_dot(node):
            return True
        kind, value = node
        if not (kind == _N_GROUP and value[0] in "?*"):
            return False
    return False


def _explicit_dot(node: tuple) -> bool:
    """Can this first node match a leading `.` explicitly (a literal dot, or an extglob group
    one of whose alternatives begins with one)? A bracket does not count, even `[.]` (bash)."""
    kind, value = node
    if kind == _N_CHAR:
        return value == "."
    if kind == _N_GROUP:
        op, alternatives = value
        return op != "!" and any(alt and _explicit_dot(alt[0]) for alt in alternatives)
    return False


def _run(nodes: Sequence, name: str, starts: set[int], guard: bool, fold: bool) -> set[int]:
    """The end positions reachable by matching `nodes` from any of `starts` (all at once)."""
    n = len(name)
    positions = starts
    for kind, value in nodes:
        if not positions:
            return positions
        if kind == _N_CHAR:
            positions = {p + 1 for p in positions if p < n and (name[p] == value or (fold and name[p].casefold() == value.casefold()))}
        elif kind == _N_ONE:
            positions = {p + 1 for p in positions if p < n and not (guard and p == 0)}
        elif kind == _N_STAR:
            low = min(positions)
            if guard and low == 0:
                rest = {p for p in positions if p > 0}
                positions = {0} | (set(range(min(rest), n + 1)) if rest else set())
            else:
                positions = set(range(low, n + 1))
        elif kind == _N_SET:
            positions = {p + 1 for p in positions if p < n and value.has(name[p], fold) and not (guard and p == 0)}
        else:
            positions = _group(value, name, positions, guard, fold)
    return positions


def _group(value: tuple, name: str, starts: set[int], guard: bool, fold: bool) -> set[int]:
    op, alternatives = value

    def once(froms: set[int]) -> set[int]:
        found: set[int] = set()
        for alt in alternatives:
            found |= _run(alt, name, froms, guard, fold)
        return found

    if op == "@":
        return once(starts)
    if op == "?":
        return starts | once(starts)
    if op in "+*":
        reached = once(starts)
        frontier = set(reached)
        while frontier:
            frontier = once(frontier) - reached
            reached |= frontier
        return reached | starts if op == "*" else reached
    # `!(…)`: every end whose span matches none of the alternatives.
    out: set[int] = set()
    for p in starts:
        spans = once({p})
        for q in range(p, len(name) + 1):
            if q not in spans and not (guard and p == 0 and q > 0):
                out.add(q)
    return out


def compile_pattern(pattern: str, *, extglob: bool = True, globstar: bool = True) -> tuple[Segment, ...]:
    """A whole path pattern as compiled segments (empty segments of `a//b` dropped)."""
    parts = split_pattern(pattern)
    return tuple(compile_segment(part, extglob, globstar) for part in parts if part != "")


def pattern_reaches(
    segments: Sequence[Segment],
    target: Sequence[str],
    *,
    dotglob: bool = False,
    fold: bool = False,
    exact: bool = False,
) -> bool:
    """Can the pattern match `target`, an ancestor of it or something inside it?

    Both are absolute, dot-resolved segment lists. With `exact`, only `target` itself counts
    (the transcript axis judges one file by whole-path equality)."""
    n = len(target)
    reachable = {0}  # positions in `target` the pattern's segments so far can reach
    for segment in segments:
        nxt: set[int] = set()
        for j in reachable:
            if j == n:
                if not exact:
                    return True  # the rest of the pattern may name something inside `target`
                if segment.globstar:
                    nxt.add(j)
                continue
            if segment.globstar:
                # `**` matches zero or more directories (not hidden ones without dotglob).
                nxt.add(j)
                q = j
                while q < n and (dotglob or not target[q].startswith(".")):
                    q += 1
                    nxt.add(q)
            elif segment_matches(segment, target[j], dotglob=dotglob, fold=fold):
                nxt.add(j + 1)
        reachable = nxt
        if not reachable:
            return False
    if exact:
        return n in reachable
    return True  # the whole pattern matched a prefix: an ancestor of `target` or itself


def pathspec_reaches(pattern: str, target: Sequence[str], *, fold: bool = False, inside: bool = True) -> bool:
    """Can a git pathspec's pattern match `target` (segments below the pathspec's directory),
    one of its ancestors, or (with `inside`) a path inside it? Git matches a pathspec with fnmatch without
    FNM_PATHNAME: `*`, `?` and `[…]` also match `/` (`git rm '*.sh'` removes `ci/gate.sh`);
    with `:(glob)` magic they do not, which matches less."""
    segment = compile_segment(pattern, False, False)
    if segment.anything:
        return True
    if not target:
        return True  # the pathspec's own directory: it names something inside it
    whole = "/".join(target)
    if segment.literal is not None:
        spec = segment.literal.casefold() if fold else segment.literal
        path = whole.casefold() if fold else whole
        return spec == path or path.startswith(spec + "/") or spec.startswith(path + "/")
    nodes = segment.nodes
    for k in range(1, len(target) + 1):  # the target or an ancestor (a directory holds it)
        name = "/".join(target[:k])
        if len(name) in _run(nodes, name, {0}, False, fold):
            return True
    if not inside:
        return False
    # Inside the target: the pattern's head takes `target/` and its tail may take any rest.
    below = whole + "/"
    for j in range(len(nodes) + 1):
        ends = _run(nodes[:j], below, {0}, False, fold)
        if len(below) in ends or (ends and j < len(nodes) and nodes[j][0] in (_N_STAR, _N_GROUP)):
            return True
    return False


def resolve_pattern(segments: Sequence[Segment]) -> tuple[Segment, ...]:
    """Drop `.` segments and let `..` cancel the segment before it (any segment: a glob
    followed by `..` is its parent directory again)."""
    out: list[Segment] = []
    for segment in segments:
        if segment.literal == ".":
            continue
        if segment.literal == "..":
            if out:
                out.pop()
            continue
        out.append(segment)
    return tuple(out)
