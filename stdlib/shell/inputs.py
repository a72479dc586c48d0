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
- the parentheses of a subshell glued to its first and last words (`(bash x.sh)`): `ungrouped`.
"""

from __future__ import annotations

from collections.abc import Sequence

from polydeukes.stdlib.shell.expansion import Arg
from polydeukes.stdlib.shell.tokenizer import W_SUBST, PlainRun, Redirect, SimpleCommand, Word

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
        if _closes_group(cmd) and stack and not (opens and len(cmd.words) == 1 and cmd.words[0].text[:1] == "("):
            start = stack.pop()
            redirect = next((r for r in reversed(cmd.redirects) if r.operator in ("<", "<>", "<&")), None)
            if redirect is not None:
                for m in range(start, k + 1):
                    out.setdefault(id(commands[m]), redirect)
        elif opens and len(cmd.words) == 1 and cmd.words[0].text[:1] == "(" and cmd.words[0].text.endswith(")"):
            stack.pop()  # `(bash) < x.sh`: its own redirects are the group's
    return out


def ungrouped(args: list[Arg], opens: bool, closes: bool) -> list[Arg]:
    """`args` without the subshell parentheses glued to the first word (`(bash`) and, when a
    group is open, to the last (`x.sh)`); a word that was only a parenthesis is dropped."""
    out = list(args)
    if opens and out and out[0].pattern is None and not out[0].opaque and out[0].text != "(":
        # (A `(` word of its own stays: the judge takes no such head for read-only, §8.7;
        # `scripts.located` looks past it.)
        a = out[0]
        text = a.text.lstrip("(")
        out[0] = Arg(text, None, False, a.count, a.word)
    if closes and out:
        a = out[-1]
        if a.text.endswith(")") and "(" not in a.text and not a.opaque and not (a.word is not None
                                                                             and a.word.flags & W_SUBST):
            text = a.text.rstrip(")")
            pattern = a.pattern.rstrip(")") if a.pattern is not None else None
            out[-1:] = [Arg(text, pattern, False, a.count, a.word)] if text else []
    return out


def bare_words(words: tuple[Word, ...]) -> tuple[Word, ...]:
    """A subshell's words without its parentheses (`(bash)` reads as `bash`)."""
    out = list(words)
    first = out[0]
    text = first.text.lstrip("(")
    out[0:1] = [Word(text, first.opaque, first.start + len(first.text) - len(text), first.end, first.flags)] \
        if text else []
    if out and out[-1].text.endswith(")") and "(" not in out[-1].text and not out[-1].flags & W_SUBST:
        last = out[-1]
        text = last.text.rstrip(")")
        out[-1:] = [Word(text, last.opaque, last.start, last.start + len(text), last.flags)] if text else []
    return tuple(out)
