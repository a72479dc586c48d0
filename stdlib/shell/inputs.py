"""Where a command's input comes from (issue 11, red-team round 2 section S).

A script a shell, an interpreter or make reads from its stdin is read as the script
(scripts.py); this module works out which file is on that stdin, and on the other file
descriptors a command reads (`/dev/fd/3`), from the line's redirects:

- fd numbers glued to a reading redirect (`0<x.sh`, `3<x.sh`, `0<>x.sh`, `0<&3`): bash folds
  them into the operator, the tokenizer only those before `>` (spec 04 §8.1.3), so the digits
  are a word of their own there; `input_fds` takes them back (`Walk._view` drops the word);
- a redirect on a group or a compound command around the command (`{ bash; } < x.sh`, `(bash;
  true) < x.sh`, `while …; do bash; done < x.sh`): `group_inputs`;
- descriptors `exec 3<x.sh` opened earlier on the line (`Context.fds`): `exec_fds`;
- the parentheses of a subshell around its words, glued (`(bash x.sh)`) or words of their own
  (`( bash x.sh )`), after reserved words too (`! ( bash x.sh )`): `ungrouped`.
"""

from __future__ import annotations

from collections.abc import Sequence

from polydeukes.stdlib.shell.expansion import Arg
from polydeukes.stdlib.shell.tokenizer import W_SUBST, PlainRun, Redirect, SimpleCommand, Word
from polydeukes.vm.sre import LazyPattern

_READING = ("<", "<>", "<&")
_DIGITS = "0123456789"
_LOOP_OPENERS = frozenset({"while", "until", "for", "select", "if", "case"})
_LOOP_CLOSERS = frozenset({"done", "fi", "esac"})


def input_fds(text: str, cmd: SimpleCommand) -> tuple[dict[str, Redirect | None], frozenset[int]]:
    """The file descriptors the command's own redirects set, each to the redirect that opens it
    for reading (None: for writing, or closed), later ones winning as bash applies them left to
    right; and the start offsets of the words that are the fd numbers of reading redirects."""
    fds: dict[str, Redirect | None] = {}
    numbers: set[int] = set()
    digit_words = {w.end: w for w in cmd.words if not w.opaque and w.text.isdigit() and w.text.isascii()}
    for r in cmd.redirects:
        op = r.operator
        if op not in _READING:
            digits = op[: len(op) - len(op.lstrip(_DIGITS))]
            if digits or op in (">", ">>", ">|", ">&"):
                fds[digits or "1"] = None
            continue
        at = r.target.start
        while at > 0 and text[at - 1 : at] in (" ", "\t"):
            at -= 1
        fd = "0"
        if text[at - len(op) : at] == op and (w := digit_words.get(at - len(op))) is not None:
            fd = w.text.lstrip("0") or "0"
            numbers.add(w.start)
        fds[fd] = None if op == "<&" and r.target.text == "-" else r
    return fds, frozenset(numbers)


def without_numbers(args: list[Arg], numbers: frozenset[int]) -> list[Arg]:
    """`args` without the words that are fd numbers of reading redirects (`bash 0<x.sh`)."""
    return [a for a in args if a.word is None or a.word.start not in numbers or a.text != a.word.text]


def exec_fds(fds: dict[str, str | None], inputs: dict[str, Redirect | None]) -> None:
    """`exec 3<x.sh` (no command): the descriptors stay open for the rest of the line."""
    for fd, r in inputs.items():
        if r is None or r.target.opaque:
            fds[fd] = None
        elif r.operator == "<&":
            fds[fd] = fds.get(r.target.text) if r.target.text.isdigit() else None
        else:
            fds[fd] = r.target.text


def stdin_of(inputs: dict[str, Redirect | None] | None, group: Redirect | None,
             opened: dict[str, str | None]) -> tuple[str, str | None] | None:
    """What the command reads on fd 0: ("file", spelled path), ("herestring", None), ("fd", N)
    for a descriptor nothing on the line opened from a file (unknown), or None (no redirect of
    its own or of a group around it: the pipe or the agent's stdin)."""
    r = inputs.get("0") if inputs else None
    if r is None and inputs and "0" in inputs:
        return None  # closed, or a write redirect on fd 0
    r = r or group
    seen = 0
    while r is not None and seen < 10:
        seen += 1
        if r.operator != "<&":
            # (a target of unknown value: the judges read its spelling, `scripts` no file)
            return None if r.target.opaque else ("file", r.target.text)
        n = r.target.text
        if r.target.opaque or not n.isdigit():
            return ("fd", n)
        n = n.lstrip("0") or "0"
        if n == "0":
            return None
        if inputs and n in inputs:
            r = inputs[n]
            if r is None:
                return ("fd", n)
            continue
        spelled = opened.get(n)
        return ("file", spelled) if spelled is not None else ("fd", n)
    return None


def fd_file(n: str, inputs: dict[str, Redirect | None] | None, opened: dict[str, str | None]) -> str | None:
    """The file open for reading on descriptor `n` (`3<x.sh` on the command, `exec 3<x.sh`
    before it), or None when unknown."""
    n = n.lstrip("0") or "0"
    if inputs and n in inputs:
        r = inputs[n]
        if r is None or r.target.opaque:
            return None
        if r.operator == "<&":
            return fd_file(r.target.text, None, opened) if r.target.text.isdigit() else None
        return r.target.text
    return opened.get(n)


def substitution_on(fd: str, inputs: dict[str, Redirect | None] | None, group: Redirect | None,
                    opened: dict[str, str]) -> str | None:
    """The script of the process substitution open for reading on descriptor `fd` (`read -u 3`
    with `3< <(git ls-files)`): by the command's own redirects (`<&N` followed), a group's
    around it (fd 0), or `exec` earlier (`opened`: descriptor to script); None otherwise."""
    fd = (fd.lstrip("0") or "0") if fd.isdigit() else fd
    own = inputs or {}
    for _ in range(10):
        if fd in own:
            r = own[fd]
        elif fd == "0" and group is not None:
            r, group, own = group, None, {}  # (a group's `<&N` names the descriptors outside it)
        else:
            return opened.get(fd)
        if r is None:
            return None
        if r.operator == "<&":
            if r.target.opaque or not r.target.text.isdigit():
                return None
            fd = r.target.text.lstrip("0") or "0"
            continue
        t = r.target.text
        return t[2:-1] if r.operator == "<" and t.startswith("<(") and t.endswith(")") else None
    return None


def _opens_group(cmd: SimpleCommand) -> bool:
    if not cmd.words:
        return False
    first = cmd.words[0].text
    return first == "{" or first in _LOOP_OPENERS or first[:1] == "(" and first[:2] != "((" and not (
        first.endswith(")") and len(cmd.words) > 1)  # (`(x) cmd`: a `case` arm)


def _closes_group(cmd: SimpleCommand) -> bool:
    if not cmd.words:
        return False
    first, last = cmd.words[0], cmd.words[-1]
    return first.text == "}" or first.text in _LOOP_CLOSERS or (
        last.text.endswith(")") and "(" not in last.text and not last.flags & W_SUBST)


def group_inputs(commands: Sequence) -> dict[int, Redirect]:
    """For each command inside a group or compound command whose closing command reads a file
    on fd 0 (`{ bash; } < x.sh`, `(true; bash) < x.sh`, `… done < x.sh`), that redirect, keyed
    by `id(command)` (the innermost group's)."""
    out: dict[int, Redirect] = {}
    stack: list[int] = []
    for k, cmd in enumerate(commands):
        if type(cmd) is PlainRun:
            continue
        opens = _opens_group(cmd)
        if opens:
            stack.append(k)
            # (`{ while read f; …; done; } < x`: the group and the loop open on one command)
            for w in cmd.words[1:]:
                if w.text != "{" and w.text not in _LOOP_OPENERS:
                    break
                stack.append(k)
        if _closes_group(cmd) and stack and not (opens and len(cmd.words) == 1 and cmd.words[0].text[:1] == "("):
            start = stack.pop()
            redirect = next((r for r in reversed(cmd.redirects) if r.operator in ("<", "<>", "<&")), None)
            if redirect is not None:
                for m in range(start, k + 1):
                    out.setdefault(id(commands[m]), redirect)
        elif opens and len(cmd.words) == 1 and cmd.words[0].text[:1] == "(" and cmd.words[0].text.endswith(")"):
            stack.pop()  # `(bash) < x.sh`: its own redirects are the group's
    return out


# Reserved words after which bash starts a new command, so a subshell may open there although
# the tokenizer keeps them in the same simple command (`! (bash x.sh)`, `time ( … )`, `if ( … )`,
# `{ (bash x.sh) }`).
_BEFORE_SUBSHELL = frozenset({"!", "time", "if", "then", "else", "elif", "do", "while", "until", "{"})


def _substituted(a: Arg | Word) -> bool:
    """Does the word hold a command substitution (whose `)` closes no group)?"""
    word = a.word if type(a) is Arg else a
    return word is not None and bool(word.flags & W_SUBST)


def _case_pattern(w: Arg | Word) -> bool:
    """Is the word a `case` arm's pattern (`x)`, `(x)`, `*.sh)`)? (`f()` and `$(cmd)` are none.)"""
    text = w.text
    return text.endswith(")") and ("(" not in text or text[:1] == "(" and text[1:2] != "(") and not _substituted(w)


def subshell_opening(words: Sequence[Arg] | Sequence[Word]) -> tuple[int, int]:
    """Where the subshell parentheses opening this command stand and how many open there: the
    index past the reserved words, `time -p` or `case` arm pattern before them, and the count
    (0: none). A `(` is a word of its own (`( bash x.sh )`, `( (bash) )`) or glued to the
    command's name (`(bash x.sh)`); `((` glued opens arithmetic."""
    n = len(words)
    k = 0
    if n > 3 and words[0].text == "case" and words[2].text == "in":
        k = 3  # `case x in x) ( bash x.sh );; esac`: past the arm's pattern
        while k < n and not _case_pattern(words[k]):
            k += 1
        k += 1
    elif n > 1 and _case_pattern(words[0]) and not words[0].opaque:
        k = 1  # a later arm (`x) ( bash x.sh )`, `(x) cmd`)
    while k < n and not words[k].opaque and (words[k].text in _BEFORE_SUBSHELL
                                             or words[k].text == "-p" and k and words[k - 1].text == "time"):
        k += 1
    at = k
    while k < n and words[k].text == "(" and not words[k].opaque:
        k += 1
    count = k - at
    if k < n and not words[k].opaque and words[k].text[:1] == "(" and words[k].text[:2] != "((":
        count += 1
    return at, count


# A word that opens an array assignment (`a=(1`, `a+=(x`, `local a=(1`).
_ARRAY_OPENING = LazyPattern(r"[A-Za-z_][A-Za-z0-9_]*\+?=\(")
# Reserved words that may follow a subshell's `)` in the same simple command as the tokenizer
# splits it (`{ (bash x.sh) }`, `then (bash x.sh) fi`).
AFTER_SUBSHELL = frozenset({"}", "fi", "done", "esac"})


def subshell_closing(words: Sequence[Arg] | Sequence[Word]) -> tuple[int, int]:
    """Where the subshell parentheses closing this command end (the index before the reserved
    words after them) and how many close there: `)` words of their own and those glued to the
    word before (`x.sh)`, `x.sh))`, `(true)`); none in a word holding another `(` (`$(x)`,
    `f()`), nor the `)` that closes an array the command opens (`a=(1 2)`)."""
    k = len(words)
    while k > 0 and words[k - 1].text in AFTER_SUBSHELL and not words[k - 1].opaque:
        k -= 1
    end = k
    while k > 0 and words[k - 1].text == ")" and not words[k - 1].opaque:
        k -= 1
    count = end - k
    if k > 0 and not words[k - 1].opaque:
        text = words[k - 1].text
        if text.endswith(")") and "(" not in text.lstrip("(") and not _substituted(words[k - 1]):
            count += len(text) - len(text.rstrip(")"))
    if count and any(_ARRAY_OPENING().match(w.text) and ")" not in w.text for w in words[: k - 1]):
        count -= 1  # (`(cd ci; a=(1 2); rm -f gate.sh)`: the array's, the subshell still open)
    return end, count


def ungrouped(args: list[Arg], opening: tuple[int, int], closes: bool) -> list[Arg]:
    """`args` without the subshell parentheses that open the command (`opening`, from
    `subshell_opening`) and, when a group is open, those closing it at its end; a word that
    was only parentheses is dropped, so the head is the command the subshell runs (`( bash
    x.sh )` reads as `bash x.sh`)."""
    out = list(args)
    at, opens = opening
    if opens:
        k = at
        while k < len(out) and out[k].text == "(" and not out[k].opaque:
            k += 1
        if k < len(out) and out[k].pattern is None and not out[k].opaque and out[k].text[:1] == "(" \
                and out[k].text[:2] != "((":
            a = out[k]
            out[k] = Arg(a.text[1:], None, False, a.count, a.word)
        del out[at:k]
    if closes:
        end, count = subshell_closing(out)
        k = end
        while k > 0 and out[k - 1].text == ")" and not out[k - 1].opaque:
            k -= 1
        if count > end - k:  # (some glued to the word before)
            a = out[k - 1]
            text = a.text.rstrip(")")
            pattern = a.pattern.rstrip(")") if a.pattern is not None else None
            k -= 1
            if text:
                out[k] = Arg(text, pattern, False, a.count, a.word)
                k += 1
        del out[k:end]
    return out


def bare_words(words: tuple[Word, ...]) -> tuple[Word, ...]:
    """A subshell's words without its parentheses (`(bash)`, `( bash )` read as `bash`)."""
    at, opens = subshell_opening(words)
    out = list(words)
    if opens:
        k = at
        while k < len(out) and out[k].text == "(":
            k += 1
        if k < len(out) and out[k].text[:1] == "(" and out[k].text[:2] != "((":
            first = out[k]
            out[k] = Word(first.text[1:], first.opaque, first.start + 1, first.end, first.flags)
        del out[at:k]
    end, count = subshell_closing(out)
    k = end
    while k > 0 and out[k - 1].text == ")":
        k -= 1
    if count > end - k:  # (some glued to the word before)
        last = out[k - 1]
        text = last.text.rstrip(")")
        k -= 1
        if text:
            out[k] = Word(text, last.opaque, last.start, last.start + len(text), last.flags)
            k += 1
    del out[k:end]
    return tuple(out)
