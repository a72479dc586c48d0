"""Stage 1 of the shell analysis: text in, simple commands out (spec 04 §8.1). Never raises.

It only reads text: nothing is executed, expanded or evaluated. Bash syntax it does not model is
read as flat word sequences (loops, `case`, groups), so branch and loop bodies stay visible as
commands; text it cannot finish (an unclosed quote, `$(…)` or `<(…)`) becomes an `UnreadSpan`,
which the judges treat as unprovable; an unclosed backtick is read to the end as one opaque
word instead, as spec 04 §8.1.2 reads it. Expansion (braces, globs, variables) is the next
stage's business (`expansion.py`): a word only records, in `flags`, which expansions its
spelling asks for, and the next stage re-reads the word's raw source `[start, end)` when it
needs the detail.

Result types (msgspec Structs, frozen):

- `Word(text, opaque, start, end, flags)`: `text` is the word after quote removal and escape
  handling (what bash would pass, for a transparent word); `opaque` means its static value is
  unknowable by the spec's rule (parameter expansion, substitution, unquoted `*` or `?`, unknown
  ANSI-C escape); `start`/`end` are the raw source offsets; `flags` are the `W_*` bits below.
- `Redirect(operator, target)`: `operator` as written including a folded fd number (`2>`,
  `&>>`, `1>&`, `<<<`); `target` is a `Word`.
- `Heredoc(body, literal, delimiter)`: `body` is the bytes bash would feed (tabs stripped for
  `<<-`, CR of CRLF dropped, each line plus `\\n`); `literal` is true when the delimiter was
  quoted or escaped (bash then expands nothing in the body).
- `SimpleCommand(words, redirects, heredocs, connector, flags)`: `connector` is the control
  operator that ended the command (`;`, `&&`, `||`, `|`, `&`, `\\n`, or `''` at end of input), so
  pipelines can be rebuilt (`|` means "stdout feeds the next command"); `flags` is the union of
  its words' and redirect targets' flags (0: nothing to expand anywhere in it).
- `PlainRun(start, end)` (only from `scan`): a run of whole lines made of one plain command
  each (no quote that spans lines, no expansion, no redirect, no operator) whose command name is
  not in the caller's set of names with effects of their own. Such a line can only matter
  through a spelled mention, so the analyzers test the run's text for one and read it word by
  word (`tokenize(text[start:end])`) only when it has one. This keeps a ten-megabyte script of
  plain lines from costing a Python object per word.
- `UnreadSpan(text, reason, start)`: text from `start` the tokenizer could not read.
- `Script(commands, unread, data)`: `data` are the `[start, end)` offsets of stdin data bash does
  not execute (literal heredoc bodies, transparent herestring words; §8.1.5). `fully_read` is
  true when `unread` is empty.

How it reads: the main loop matches one regular expression (`_STEP`) at the cursor, which reads
in one call what most text is made of: a run of plain words one space apart (split with
`str.split`, their offsets counted from their lengths), a word of plain characters around one
quoted string, an unquoted word with globs or `$NAME`, a redirect with a plain target, each with
the control operator or newline after it, or a comment. Whatever it does not read (`$(`,
backslashes, heredocs, process substitution, an unclosed quote, ...) is read by the general
reading (`read_token`: `word`, `redirect` and their helpers), one token at a time. Both readings
give the same result for the same text; tests/test_shell_tokenizer.py holds them to the
character-by-character tokenizer this one replaced.

Every loop advances by at least one character, and a step reads again at most the one
unfinished word it gave back, so the tokenizer runs in time linear in its input.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

import msgspec

from polydeukes.vm.sre import LazyPattern

# Word flags: which expansions the word's unquoted spelling asks for.
W_GLOB = 1  # an unquoted `*`, `?`, `[` or an extglob group `?(…)`, `*(…)`, `+(…)`, `@(…)`, `!(…)`
W_BRACE = 2  # an unquoted `{` (brace expansion, if the braces hold a list or a range)
W_VAR = 4  # a parameter expansion `$NAME` / `${…}` (unquoted or inside double quotes)
W_SUBST = 8  # a command, arithmetic or process substitution
W_ESCAPE = 16  # an ANSI-C escape whose bytes are not known

# Characters that end a word outside quotes; `(`/`)` are word characters on purpose (§8.1.2):
# subshell and group parentheses stay glued to words so the analyzer can see them as markers.
# `[`, `{` and `(` are left to `word`, which flags globs, braces and extglob groups.
_PLAIN_RUN = LazyPattern(r"[^\s'\"\\$`;&|<>*?\[{(]+")
# One step of the main loop (`_STEP`, matched at the cursor): a token read without a helper's
# call, with what follows it up to the next token. A word's step also takes the blanks after it
# and the control operator or newline that ends the command, if one comes next: most commands
# end in the step that reads their last word. `lastindex` (the last group that matched) tells
# both what was read (`_STEP_KIND`) and what ended the command (`_STEP_END`), so the loop reads
# no group it does not need. (No group is repeated or made optional with `?`: CPython's `re`
# allocates memory for each such repeat it enters; an empty alternative costs nothing.)
_PLAIN_CHAR = r"[^\s'\"\\$`;&|<>*?\[{(]"  # a character `word` copies as it is (`_PLAIN_RUN`)
# An ASCII `_PLAIN_CHAR` or a space, but no `#` (a word starting with one starts a comment):
# listed rather than negated, since `re` compiles a negated class that admits all of Unicode
# into a table of every code point (some 3 M instructions; this costs a tenth). A word with
# other characters is read by the word steps below.
_RUN_CHAR = r"[\x00-\x08\x0e-\x1b !%)+-:=@-Z\]-_a-z}-\x7f]"
# No word starts at `#` (a comment) or at digits that a `>` follows (a redirect, `2>`).
_WORD_START = r"(?!#|[0-9]*+>)"
# A word ends exactly at `_WORD_END` (any other whitespace character is read by `word`).
_WORD_ENDS = r"(?=[ \t\n\r;&|<>]|\Z)"
# The control operators, then the blanks after them (`&>` is a redirect; `|&` is `|` for stderr
# too), and the newlines: each alternative ends in an empty group, whose number (`lastindex`) says
# which one matched. (Each starts with its first character, so `re` skips the others at once.)
_CONTROL = r"(?:&&()|\|\|()|\|&?()|;()|&(?!>)())[ \t]*+|\n()|\r\n?()"
_CONTROL_ENDS = ("&&", "||", "|", ";", "&", "\n", "\n")
_STEP = LazyPattern(
    r"#[^\n\r]*+(?:\n()|\r\n?()|())"  # a comment, to the line end, and the newline after it
    # A run of plain words one space apart (their text is their spelling) and the spaces after
    # them, that ends at a space or a word end (a greedy run gives back an unfinished last word);
    # a `>` after it (its own group) may make its last word a redirect's fd number (`2>`).
    + r"|(?:(?![0-9]*+>)(" + _RUN_CHAR + r"+)(?:(?<= )|(?=[\t\n\r;&|<]|\Z)|(?=(>)))"
    # Or one word and the blanks after it: a redirect operator (fd digits folded in; not a
    # heredoc, a herestring or `<(`) and its plain target; or a word of plain characters around
    # one quoted string, with no backslash or backtick; or an unquoted word that may hold globs,
    # braces and `$` (but no `(`).
    + r"|(?:((?:[0-9]++(?=>)|)(?:&>>|&>|>>|>\||>&|<&|<>|>|<(?!<)))[ \t]*+(" + _PLAIN_CHAR + "++)"
    + "|(" + _WORD_START + _PLAIN_CHAR + r"""*+(?:'[^']*+'|"[^"\\`]*+")""" + _PLAIN_CHAR + "*+)"
    + "|(" + _WORD_START + r"""[^\s'"\\`;&|<>(]++))""" + _WORD_ENDS + r"[ \t]*+"
    # Or nothing, before a control operator or a newline.
    + r"|(?=&&|\|\||\||;|&(?!>)|\n|\r))"
    # Then the control operator or newline that ends the command, if one comes next (one tail
    # for all: `re` compiles each copy of a pattern anew at every first use, in every process).
    + "(?:" + _CONTROL + "|)"
    + r"|[ \t]++()"  # blanks (a run reads spaces; these start with a tab)
)
# What each group of `_STEP`, as its `lastindex`, says the step read, and what ended the command
# (None: nothing). After a control operator the kind is `_ENDED`: what came before it, the
# groups of the run and the words say.
_RUN, _RUN_BEFORE_GREATER, _QUOTED_WORD, _EXPANDING_WORD, _REDIRECT, _ENDED, _NOTHING, _SKIP = range(8)
_STEP_KIND = (None, _NOTHING, _NOTHING, _SKIP, _RUN, _RUN_BEFORE_GREATER, None, _REDIRECT, _QUOTED_WORD,
              _EXPANDING_WORD, *(_ENDED,) * len(_CONTROL_ENDS), _SKIP)
_STEP_END = (None, "\n", "\n") + (None,) * 7 + _CONTROL_ENDS + (None,)
_RUN_GROUP, _REDIRECT_GROUP, _QUOTED_WORD_GROUP, _EXPANDING_WORD_GROUP = 4, 6, 8, 9
# Optional fd digits, the operator (longest spellings first), then the blanks before the target.
_REDIRECT_OPERATOR = LazyPattern(r"([0-9]*+)(&>>|<<<|<<-|&>|>>|>\||>&|<&|<>|<<|>|<)[ \t]*")
_DOUBLE_QUOTE_SPECIAL = frozenset('"\\$`')
_DOUBLE_QUOTED_RUN = LazyPattern(r'[^"\\$`]+')
_ASSIGNMENT = LazyPattern(r"[A-Za-z_][A-Za-z0-9_]*\+?=")  # `x=…`, and `x+=…` (appends)

_WORD_END = frozenset(" \t\n\r;&|<>")
# Characters a word reads specially (quotes, escapes, expansions, globs, braces, groups): no
# plain run starts at one, so testing this set first spares such words a failing regex call.
_SPECIAL_WORD_START = frozenset("'\"\\$`*?[{(")
_DIGITS = frozenset("0123456789")
_REDIRECT_START = frozenset("<>")
_EXTGLOB_PREFIX = frozenset("?*+@!")


class Word(msgspec.Struct, frozen=True, gc=False):
    text: str
    opaque: bool
    start: int
    end: int
    flags: int = 0


class Redirect(msgspec.Struct, frozen=True, gc=False):
    operator: str
    target: Word


class Heredoc(msgspec.Struct, frozen=True, gc=False):
    body: str
    literal: bool
    delimiter: str


# Untracked by the garbage collector like its parts (a script makes thousands of these): it only
# holds tuples of the structs above and a string, so it can never be part of a reference cycle.
class SimpleCommand(msgspec.Struct, frozen=True, gc=False):
    words: tuple[Word, ...]
    redirects: tuple[Redirect, ...]
    heredocs: tuple[Heredoc, ...]
    connector: str
    flags: int = 0  # the union of its words' and redirect targets' flags


class PlainRun(msgspec.Struct, frozen=True, gc=False):
    """Whole plain lines `[start, end)` of the text, read later only if they spell a mention."""

    start: int
    end: int


class UnreadSpan(msgspec.Struct, frozen=True, gc=False):
    text: str
    reason: str
    start: int


class Script(msgspec.Struct, frozen=True):
    commands: tuple[SimpleCommand | PlainRun, ...]
    unread: tuple[UnreadSpan, ...]
    data: tuple[tuple[int, int], ...]

    @property
    def fully_read(self) -> bool:
        return not self.unread


UNCLOSED_QUOTE = "unclosed quote"
UNCLOSED_SUBSTITUTION = "unclosed substitution"
MISSING_TARGET = "missing redirect target"


def is_assignment(text: str) -> bool:
    """`NAME=VALUE` prefix word (§8.1.7)."""
    return "=" in text and _ASSIGNMENT().match(text) is not None  # `in` first: most words have no `=`


def _skip_group(s: str, i: int, open_ch: str, close_ch: str) -> int:
    """Index just past the `close_ch` matching `s[i] == open_ch`, or -1 when unclosed.

    Quotes suspend counting (`$(echo ")")`), backslash escapes one character. Iterative, so deep
    nesting cannot exhaust the recursion limit; every step moves forward.
    """
    n = len(s)
    depth = 0
    while i < n:
        c = s[i]
        if c == "\\":
            i += 2
            continue
        if c == "'":
            j = s.find("'", i + 1)
            if j < 0:
                return -1
            i = j + 1
            continue
        if c == '"':
            i += 1
            while i < n and s[i] != '"':
                i += 2 if s[i] == "\\" else 1
            if i >= n:
                return -1
            i += 1
            continue
        if c == "`":
            j = s.find("`", i + 1)
            if j < 0:
                return -1
            i = j + 1
            continue
        if c == open_ch:
            depth += 1
        elif c == close_ch:
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return -1


def _parameter_flags(s: str, start: int, end: int) -> int:
    """The flags of a parameter expansion `s[start:end]`: a substitution in an operator's word
    or a subscript (`${x:-$(…)}`, `${x#`…`}`, `${a[$(…)]}`, `${x:-<(…)}`) runs when the
    expansion does, so the word is walked for it like a plain `$(…)` (an extglob group,
    `${x#@(a|b)}`, is none)."""
    if s.find("(", start, end) < 0 and s.find("`", start, end) < 0:
        return W_VAR
    text = s[start:end]
    if "`" in text or "$(" in text or "<(" in text or ">(" in text:
        return W_VAR | W_SUBST
    return W_VAR


def ansi_c_escape(s: str, j: int) -> tuple[str | None, int]:
    """The bytes of the `$'…'` escape at `s[j] == '\\'` and the index past it; None when they
    are unknown (the escape then spans two characters)."""
    decoded = _ANSI_C.get(s[j + 1 : j + 2])
    if decoded is not None:
        return decoded, j + 2
    m = _ANSI_C_NUMERIC().match(s, j + 1)
    code = int(next(g for g in m.groups() if g is not None), 8 if m.group(2) else 16) if m else 0
    if m and 0 < code <= 0x10FFFF and not 0xD800 <= code <= 0xDFFF:
        return chr(code), m.end()
    return None, j + 2


def group_end(s: str, i: int, open_ch: str, close_ch: str) -> int:
    """Index just past the group that opens at `s[i]` (quotes and escapes respected), or
    `len(s)` when it is never closed."""
    end = _skip_group(s, i, open_ch, close_ch)
    return len(s) if end < 0 else end


# `$'…'` escapes whose bytes are fixed. Numeric escapes (`\xHH`, `\NNN`, `\uHHHH`) are decoded
# too: the bytes are as knowable as `\n`, and decoding them keeps `$'src\x2fcore'` from hiding a
# path. `\cX`, a NUL, and unknown letters stay opaque (§8.1.2 makes every other escape opaque).
_ANSI_C = {
    "n": "\n", "t": "\t", "'": "'", "\\": "\\", '"': '"', "?": "?", "a": "\a", "b": "\b",
    "e": "\x1b", "E": "\x1b", "f": "\f", "r": "\r", "v": "\v",
}
_ANSI_C_NUMERIC = LazyPattern(r"x([0-9A-Fa-f]{1,2})|([0-7]{1,3})|u([0-9A-Fa-f]{1,4})|U([0-9A-Fa-f]{1,8})")


def plain_lines_pattern(names_with_effects: Iterable[str]) -> re.Pattern[str]:
    """The regex of a `PlainRun`: one or more whole lines, each one plain command or a comment.

    A plain command's name is spelled plainly (or in one pair of quotes), has no `/`, `=` or
    glob character, and is none of `names_with_effects`; its other words are plain characters
    and quoted strings without expansions. Every quantifier is possessive and the alternatives
    start with different characters, so a line is matched or refused in one forward pass.
    """
    trie = _trie_pattern(sorted(set(names_with_effects)))
    special = r"'\"\\$`;&|<>(){}\[\]*?"
    # Everything after the name: runs of plain characters and closed quotes, each taken whole
    # (`++`), so a long line costs a step per run or quote, not per character.
    body = rf"(?:[^\r\n{special}]++|'[^'\r\n]*+'|\"[^\"\\$`\r\n]*+\")*+"
    # A name ending in a digit may be a versioned interpreter (`python3.12`), which the table
    # reads as its family: never part of a run.
    name = (rf"(?:(?!{trie}(?:[ \t\r\n]|\Z))[^\s{special}=/#]++(?<![0-9])"
            rf"|'(?!{trie}')[^\s{special}=/#]++(?<![0-9])')")
    line = rf"[ \t]*+(?:{name}(?:[ \t]{body})?|#[^\r\n]*+)?"
    return re.compile(rf"(?:{line}(?:\r\n|\n|\r|\Z))++")


def argument_names_pattern(names: Iterable[str]) -> re.Pattern[str]:
    """The regex of a word past a line's first that is one of `names`, bare or in one pair of
    quotes: a run of plain lines holding one is read command by command after all (an unknown
    program may run its arguments: `analysis._argument_commands`)."""
    trie = _trie_pattern(sorted(set(names)))
    return re.compile(rf"[ \t]['\"]?{trie}['\"]?(?=[ \t\r\n]|\Z)")


def _trie_pattern(names: list[str]) -> str:
    """An alternation of `names` factored by common prefixes (the `re` engine tries each branch
    of a flat alternation in turn; a trie answers in a few character tests)."""
    if not names:
        return "(?!)"
    tree: dict = {}
    for name in names:
        node = tree
        for ch in name:
            node = node.setdefault(ch, {})
        node[""] = {}

    def render(node: dict) -> str:
        branches = []
        ends = "" in node
        for ch in sorted(k for k in node if k):
            branches.append(re.escape(ch) + render(node[ch]))
        if not branches:
            return ""
        body = branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"
        return f"(?:{body})?" if ends else body

    return "(?:" + render(tree) + ")"


class _Tokenizer:
    """One pass over the text; builds the command list with plain lists, freezes at the end."""

    def __init__(self, text: str, plain_lines: re.Pattern[str] | None) -> None:
        self.s = text
        self.n = len(text)
        self.i = 0
        self.plain_lines = plain_lines
        self.commands: list[SimpleCommand | PlainRun] = []
        self.unread: list[UnreadSpan] = []
        self.data: list[tuple[int, int]] = []
        # The current command's words and redirects; `end_command` copies and empties them.
        self.words: list[Word] = []
        self.redirects: list[Redirect] = []
        self.heredocs: list[Heredoc] = []
        self.heredocs_declared = False
        self.flags = 0  # the current command's flags so far
        self.heredoc_owner: dict[int, list[Heredoc]] = {}
        # (heredoc list of the declaring command, delimiter, strip tabs, literal), fed at newline
        self.pending: list[tuple[list[Heredoc], str, bool, bool]] = []

    # -- commands ---------------------------------------------------------------------------

    def end_command(self, connector: str) -> None:
        if not (self.words or self.redirects or self.heredocs_declared):
            return  # an empty command (blank line, `;;`): nothing to record or reset
        index = len(self.commands)
        self.commands.append(SimpleCommand(tuple(self.words), tuple(self.redirects), (), connector, self.flags))
        self.words.clear()
        self.redirects.clear()
        self.flags = 0
        # Heredoc bodies arrive after the newline, possibly after later commands on the same
        # line; remember which command declared them so each body lands on its declarer. (An
        # undeclared heredoc list is still empty and unshared, so it is kept.)
        if self.heredocs_declared:
            self.heredoc_owner[index] = self.heredocs
            self.heredocs = []
            self.heredocs_declared = False

    def run(self) -> Script:
        s, n = self.s, self.n
        step = _STEP().match
        commands = self.commands
        # The current command's words and redirects: the same lists the helpers fill, never rebound.
        words, redirects = self.words, self.redirects
        add_word = words.append
        # The current command's flags, and whether it declared a heredoc, live in locals while
        # this loop scans: the helpers read and set `self.flags` and `self.heredocs_declared`,
        # so they are stored before and reloaded after every helper call (as is the cursor).
        flags = 0
        declared = False
        i = self.plain_lines_at(0)
        while i < n:
            m = step(s, i)
            if m is None:
                # Anything else (a substitution, an escape, a heredoc, an unclosed quote, ...):
                # one token the general way.
                self.flags = flags
                self.read_token(i)
                i, flags, declared = self.i, self.flags, self.heredocs_declared
                continue
            k = m.lastindex
            kind = _STEP_KIND[k]
            if kind == _ENDED:
                kind = (_RUN if m[_RUN_GROUP] is not None else _QUOTED_WORD if m[_QUOTED_WORD_GROUP] is not None
                        else _EXPANDING_WORD if m[_EXPANDING_WORD_GROUP] is not None
                        else _REDIRECT if m[_REDIRECT_GROUP] is not None else _NOTHING)
            if kind == _RUN:
                for text in m[_RUN_GROUP].split(" "):  # words one space apart: offsets by length
                    if text:
                        end = i + len(text)
                        add_word(Word(text, False, i, end))
                        i = end + 1
                    else:
                        i += 1
            elif kind == _REDIRECT:
                target_start, target_end = m.span(_REDIRECT_GROUP + 1)
                redirects.append(Redirect(m[_REDIRECT_GROUP],
                                          Word(s[target_start:target_end], False, target_start, target_end)))
            elif kind == _SKIP:  # a comment or blanks
                i = m.end()
                continue
            elif kind == _QUOTED_WORD:
                raw = m[_QUOTED_WORD_GROUP]
                # The word's only quote characters are its string's two delimiters, unless the
                # string holds the other kind of quote.
                if '"' not in raw:
                    add_word(Word(raw.replace("'", ""), False, i, i + len(raw)))
                elif "'" in raw or "$(" in raw or "${" in raw:  # (a substitution may go on past `"`)
                    self.flags = flags
                    self.read_token(i)
                    i, flags = self.i, self.flags
                    continue
                elif "$" in raw:  # a parameter expansion inside double quotes
                    add_word(Word(raw.replace('"', ""), True, i, i + len(raw), W_VAR))
                    flags |= W_VAR
                else:
                    add_word(Word(raw.replace('"', ""), False, i, i + len(raw)))
            elif kind == _EXPANDING_WORD:
                raw = m[_EXPANDING_WORD_GROUP]
                if "$" in raw:
                    if "${" in raw:  # read by `word`, which finds the brace that closes it
                        self.flags = flags
                        self.read_token(i)
                        i, flags = self.i, self.flags
                        continue
                    word_flags = W_VAR
                    opaque = True
                else:
                    word_flags = 0
                    opaque = False
                if "*" in raw or "?" in raw:
                    word_flags |= W_GLOB
                    opaque = True
                elif "[" in raw:
                    word_flags |= W_GLOB
                if "{" in raw:
                    word_flags |= W_BRACE
                add_word(Word(raw, opaque, i, i + len(raw), word_flags))
                flags |= word_flags
            elif kind == _RUN_BEFORE_GREATER:
                texts = m[_RUN_GROUP].split(" ")
                fd = texts[-1].isdigit() and texts[-1].isascii()
                if fd:
                    # The last word is the fd number of a redirect (`2>`): read from there next.
                    # (A word precedes it: no run starts at the digits of `2>`.)
                    texts.pop()
                for text in texts:
                    if text:
                        add_word(Word(text, False, i, i + len(text)))
                    i += len(text) + 1
                if not fd:
                    i = m.end()
                continue
            i = m.end()
            connector = _STEP_END[k]
            if connector is not None:  # a control operator or a newline ends the command
                if declared:
                    self.flags = flags
                    self.end_command(connector)
                    declared = False
                elif redirects:
                    commands.append(SimpleCommand(tuple(words), tuple(redirects), (), connector, flags))
                    words.clear()
                    redirects.clear()
                elif words:
                    commands.append(SimpleCommand(tuple(words), (), (), connector, flags))
                    words.clear()
                flags = 0
                if connector == "\n":
                    if self.pending:
                        self.i = i
                        self.feed_heredocs()
                        i = self.i
                    i = self.plain_lines_at(i)
        self.i = i
        self.flags = flags
        self.end_command("")
        if self.pending:
            # Unterminated heredoc declared on the last line: its body is empty, not an error.
            for owner, delim, _strip, literal in self.pending:
                owner.append(Heredoc("", literal, delim))
            self.pending = []
        for index, owner in self.heredoc_owner.items():
            cmd = commands[index]
            commands[index] = SimpleCommand(cmd.words, cmd.redirects, tuple(owner), cmd.connector, cmd.flags)
        return Script(tuple(commands), tuple(self.unread), tuple(self.data))

    def plain_lines_at(self, i: int) -> int:
        """At a line start `i`: record the run of plain lines there, if any, and return where
        the tokenizer reads on (only `scan` with a `plain_lines` pattern finds runs)."""
        if self.plain_lines is not None and i < self.n:
            m = self.plain_lines.match(self.s, i)
            if m is not None and m.end() > i:
                self.commands.append(PlainRun(i, m.end()))
                return m.end()
        return i

    def read_token(self, i: int) -> None:
        """Read the token at `i` that `_STEP` does not (a continuation, a redirect or word that
        needs the general reading); advances `self.i`."""
        s = self.s
        c = s[i]
        if c == "\\" and s.startswith("\\\n", i):
            self.i = i + 2  # continuation between words
        elif c == "\\" and s.startswith("\\\r\n", i):
            self.i = i + 3
        elif c in _REDIRECT_START or c == "&" or (c in _DIGITS and self.digits_redirect(i)):
            self.i = i  # (a `&` here starts `&>`: `_STEP` reads every other `&`)
            if (c == "<" or c == ">") and s.startswith("(", i + 1):
                self.words.append(self.process_substitution(i))
                self.flags |= W_SUBST
            else:
                self.redirect()
        else:
            w = self.word(i)
            if w is not None:
                self.words.append(w)
                self.flags |= w.flags
            elif self.i == i:  # defensive: the loop must always advance
                self.i += 1

    # -- redirects --------------------------------------------------------------------------

    def digits_redirect(self, j: int) -> bool:
        """A run of digits at word start `j` folds into a following `>` operator (§8.1.3)."""
        s, n = self.s, self.n
        while j < n and s[j] in _DIGITS:
            j += 1
        return j < n and s[j] == ">"

    def redirect(self) -> None:
        s, n = self.s, self.n
        start = self.i
        # Callers enter only at `<`, `>`, `&>` or digits before `>`, so an operator is there.
        m = _REDIRECT_OPERATOR().match(s, start)
        digits, op = m.group(1, 2)
        operator = digits + op
        self.i = i = m.end()
        if i >= n or s[i] in "\r\n;&|<>" and not (s[i] in "<>" and s.startswith("(", i + 1)):
            self.unread.append(UnreadSpan(operator, MISSING_TARGET, start))
            return
        if op in ("<<", "<<-"):
            self.heredoc_declaration(operator)
            return
        if s[i] in "<>" and s.startswith("(", i + 1):
            target = self.process_substitution(i)
        else:
            target = self.word(i)
            if target is None:  # ran into an unclosed quote: span recorded, redirect dropped
                return
            if target.text.startswith("("):
                target = Word(target.text, True, target.start, target.end, target.flags | W_SUBST)
        self.redirects.append(Redirect(operator, target))
        self.flags |= target.flags
        if op == "<<<" and not target.opaque and target.end > target.start:
            self.data.append((target.start, target.end))

    def heredoc_declaration(self, operator: str) -> None:
        raw_start = self.i
        w = self.word(self.i)
        if w is None:
            return
        raw = self.s[raw_start : w.end]
        literal = "'" in raw or '"' in raw or "\\" in raw
        self.heredocs_declared = True
        self.pending.append((self.heredocs, w.text, operator.endswith("-"), literal))

    def feed_heredocs(self) -> None:
        """Consume queued heredoc bodies in order, starting at the current line (§8.1.5)."""
        s, n = self.s, self.n
        for owner, delim, strip_tabs, literal in self.pending:
            body_start = self.i
            lines: list[str] = []
            body_end = n
            while self.i < n:
                j = s.find("\n", self.i)
                line_end = n if j < 0 else j
                line = s[self.i : line_end]
                if line.endswith("\r"):
                    line = line[:-1]
                if strip_tabs:
                    line = line.lstrip("\t")
                if line == delim:
                    body_end = self.i
                    self.i = n if j < 0 else j + 1
                    break
                lines.append(line + "\n")
                self.i = n if j < 0 else j + 1
            body = "".join(lines)
            owner.append(Heredoc(body, literal, delim))
            if body_end > body_start and (literal or ("$" not in body and "`" not in body)):
                self.data.append((body_start, body_end))
        self.pending = []

    def process_substitution(self, start: int) -> Word:
        end = _skip_group(self.s, start + 1, "(", ")")
        if end < 0:
            self.unread.append(UnreadSpan(self.s[start:], UNCLOSED_SUBSTITUTION, start))
            end = self.n
        self.i = end
        return Word(self.s[start:end], True, start, end, W_SUBST)

    # -- words ------------------------------------------------------------------------------

    def word(self, start: int) -> Word | None:
        """Read one word at `start`; None when an unclosed quote swallowed the rest."""
        s, n = self.s, self.n
        i = start
        parts: list[str] = []
        plain_run = _PLAIN_RUN().match  # (compiled on the first text that needs it)
        plain = plain_run(s, start) if s[start] not in _SPECIAL_WORD_START else None
        if plain is not None:
            i = plain.end()
            if i == n or s[i] in _WORD_END:
                # The whole word is one plain run (the common case): no quote, escape or expansion.
                self.i = i
                return Word(plain.group(), False, start, i)
            parts.append(plain.group())
        opaque = False
        flags = 0
        # Where an extglob group may open: just after an unquoted `?`, `*`, `+`, `@` or `!`.
        group_at = i if parts and s[i - 1] in _EXTGLOB_PREFIX else -1
        while i < n:
            c = s[i]
            if c in _WORD_END:
                break
            if c not in _SPECIAL_WORD_START:
                m = plain_run(s, i)
                if m is not None:
                    parts.append(m.group())
                    i = m.end()
                    if s[i - 1] in _EXTGLOB_PREFIX:
                        group_at = i
                    continue
            if c == "(":
                # An extglob group `@(a|b)` reads to its matching `)` (the `|` inside is no
                # pipe); any other `(` is a word character (a subshell marker, §8.6).
                if i == group_at:
                    end = _skip_group(s, i, "(", ")")
                    if end < 0:
                        return self.unclosed(i, UNCLOSED_SUBSTITUTION)
                    parts.append(s[i:end])
                    flags |= W_GLOB
                    i = end
                else:
                    parts.append(c)
                    i += 1
            elif c == "*" or c == "?":
                opaque = True
                flags |= W_GLOB
                parts.append(c)
                i += 1
                group_at = i
            elif c == "[":
                flags |= W_GLOB
                parts.append(c)
                i += 1
            elif c == "{":  # (`${` is read by the `$` branch)
                flags |= W_BRACE
                parts.append(c)
                i += 1
            elif c == "\\":
                if s.startswith("\\\n", i):
                    i += 2
                elif s.startswith("\\\r\n", i):
                    i += 3
                elif i + 1 < n:
                    parts.append(s[i + 1])
                    i += 2
                else:
                    parts.append("\\")  # a trailing lone backslash is kept
                    i += 1
            elif c == "'":
                j = s.find("'", i + 1)
                if j < 0:
                    return self.unclosed(i, UNCLOSED_QUOTE)
                parts.append(s[i + 1 : j])
                i = j + 1
            elif c == '"':
                i, quoted_flags = self.double_quoted(i, parts)
                if i < 0:
                    return self.unclosed(-i - 1, UNCLOSED_QUOTE)
                if quoted_flags:
                    opaque = True
                    flags |= quoted_flags
            elif c == "`":
                # Consumed to the next backtick or to the end, opaque (§8.1.2). An unclosed one
                # is no unread span: bash runs none of it, and its text stays a visible mention.
                j = s.find("`", i + 1)
                end = n if j < 0 else j + 1
                parts.append(s[i:end])
                opaque = True
                flags |= W_SUBST
                i = end
            else:  # c == "$"
                nxt = s[i + 1 : i + 2]
                if nxt == "'":
                    i, quoted_opaque = self.ansi_c(i, parts)
                    if i < 0:
                        return self.unclosed(-i - 1, UNCLOSED_QUOTE)
                    if quoted_opaque:
                        opaque = True
                        flags |= W_ESCAPE
                elif nxt == '"':  # $"…" (locale translation) reads like a double-quoted string
                    i, quoted_flags = self.double_quoted(i + 1, parts)
                    if i < 0:
                        return self.unclosed(-i - 1, UNCLOSED_QUOTE)
                    if quoted_flags:
                        opaque = True
                        flags |= quoted_flags
                elif nxt == "(" or nxt == "{":
                    end = _skip_group(s, i + 1, nxt, ")" if nxt == "(" else "}")
                    if end < 0:
                        return self.unclosed(i, UNCLOSED_SUBSTITUTION)
                    parts.append(s[i:end])
                    opaque = True
                    flags |= W_SUBST if nxt == "(" else _parameter_flags(s, i, end)
                    i = end
                else:
                    parts.append("$")
                    opaque = True
                    flags |= W_VAR
                    i += 1
        self.i = i
        if i == start:
            return None
        return Word("".join(parts), opaque, start, i, flags)

    def unclosed(self, at: int, reason: str) -> None:
        """An unterminated quote or substitution swallows the rest of the input (§8.1.2)."""
        self.unread.append(UnreadSpan(self.s[at:], reason, at))
        self.i = self.n
        return None

    def double_quoted(self, i: int, parts: list[str]) -> tuple[int, int]:
        """Read `"…"` at `i` and append its content to `parts`.

        Returns (index past it, flags); the index is `-(i+1)` when unclosed. The flags name the
        expansions and substitutions the content carries (globs do not expand inside quotes);
        any flag makes the word opaque.
        """
        s, n = self.s, self.n
        out: list[str] = []
        flags = 0
        j = i + 1
        while j < n:
            c = s[j]
            if c not in _DOUBLE_QUOTE_SPECIAL:
                # Characters without meaning inside double quotes: copy the whole run at once.
                end = _DOUBLE_QUOTED_RUN().match(s, j).end()
                out.append(s[j:end])
                j = end
                continue
            if c == '"':
                parts.append("".join(out))
                return j + 1, flags
            if c == "\\":
                nxt = s[j + 1 : j + 2]
                if nxt == "\n":
                    j += 2
                elif s.startswith("\\\r\n", j):
                    j += 3
                elif nxt in ("$", "`", '"', "\\"):
                    out.append(nxt)
                    j += 2
                else:
                    out.append("\\")
                    j += 1
            elif c == "$" and s[j + 1 : j + 2] in ("(", "{"):
                nxt = s[j + 1]
                end = _skip_group(s, j + 1, nxt, ")" if nxt == "(" else "}")
                if end < 0:
                    return -(i + 1), W_SUBST
                out.append(s[j:end])
                flags |= W_SUBST if nxt == "(" else _parameter_flags(s, j, end)
                j = end
            elif c == "`":
                end = s.find("`", j + 1)
                if end < 0:
                    return -(i + 1), W_SUBST
                out.append(s[j : end + 1])
                flags |= W_SUBST
                j = end + 1
            else:  # a `$` (§8.1.2: any `$` inside double quotes makes the word opaque)
                flags |= W_VAR
                out.append(c)
                j += 1
        return -(i + 1), W_SUBST

    def ansi_c(self, i: int, parts: list[str]) -> tuple[int, bool]:
        """Read `$'…'` at `i` like `double_quoted`; escapes outside `_ANSI_C` and the numeric
        forms keep their spelling and make the word opaque (the bytes are unknown)."""
        s, n = self.s, self.n
        out: list[str] = []
        opaque = False
        j = i + 2
        while j < n:
            c = s[j]
            if c == "'":
                parts.append("".join(out))
                return j + 1, opaque
            if c == "\\" and j + 1 < n:
                decoded, end = ansi_c_escape(s, j)
                if decoded is None:
                    opaque = True
                    decoded = s[j:end]
                out.append(decoded)
                j = end
            else:
                out.append(c)
                j += 1
        return -(i + 1), True


def tokenize(text: str) -> Script:
    """Tokenize one command string (may be a multi-line script). Never raises (§8.1.6)."""
    return scan(text, None)


# A command string this long is read with its runs of plain lines kept whole (`PlainRun`); a
# shorter one is tokenized word by word. The regex of plain lines is built from the command
# table and costs about 20 M instructions to compile (some 5 ms), more than the runs save in
# any but a large string: a typical shell call never builds it.
PLAIN_RUNS_FROM = 1 << 16


@lru_cache(maxsize=8)
def tokenized(text: str) -> Script:
    """`tokenize(text)`, once per process for each of the last few command strings: routing
    and every judge of one call read the same string."""
    return tokenize(text)


def scan(text: str, plain_lines: re.Pattern[str] | None) -> Script:
    """`tokenize`, with runs of plain lines (`plain_lines_pattern`) kept whole as `PlainRun`s."""
    if not isinstance(text, str):
        return Script((), (UnreadSpan("", "not a string", 0),), ())
    try:
        return _Tokenizer(text, plain_lines).run()
    except Exception as exc:  # noqa: BLE001 - the contract is "never raises": fail to unread
        return Script((), (UnreadSpan(text, f"tokenizer failure: {type(exc).__name__}", 0),), ())


def executed_text(text: str, script: Script | None = None) -> str:
    """The command text with every stdin data span deleted (§8.1.8)."""
    script = tokenized(text) if script is None else script
    if not script.data:
        return text
    out: list[str] = []
    pos = 0
    for start, end in sorted(script.data):
        if start < pos:
            continue
        out.append(text[pos:start])
        pos = end
    out.append(text[pos:])
    return "".join(out)
