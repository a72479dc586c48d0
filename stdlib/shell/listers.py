"""Listers: pipeline stages that print paths of the project (issue 11, gaps of 2026-12-02).

`find . -name gate.sh | xargs rm`, `git ls-files -z | xargs -0 sed -i …`, `for f in $(git
ls-files); do rm "$f"; done`: the writer gets, as operands, every path the lister can print.
`listing(view)` says which, for one stage, as `Extra("list", path=START, pattern=…, names=…,
rule=LISTER)` items: everything below START (START included) whose name passes every glob of
`names` (`i:` folds case; none: no filter). The judge reads them as it reads `find -delete`'s
start paths (`_Judge.listed_reach`): what the lister cannot print (a filtered name, a file that
is not there) is not reached.

A lister's own filters are read where they are modelled: find's `-name`/`-iname` (from the
find handler), grep's single `--include=GLOB`, a git pathspec `*SUFFIX`. Any other filter is
ignored, which can only widen the listing. A stage between the lister and the writer that only
passes on some of its lines unchanged (`grep x`, `sort`, `head -n 3`) keeps the listing;
anything else there may rewrite the paths into any path at all (`anywhere`).
"""

from __future__ import annotations

from collections.abc import Sequence

from polydeukes.stdlib.shell import effects as E

# The commands `listing` may answer for (the walk asks only about these names).
LISTERS = frozenset({"find", "git", "ls", "grep", "egrep", "fgrep", "rg", "ag", "fd", "fdfind", "tree", "du",
                     "stat", "compgen", "locate", "plocate", "mlocate", "slocate"})
# (round 8) Programs that print paths from a database built earlier, of any directory: what they
# print may be anywhere (`locate gate.sh | xargs rm` passed).
_DATABASE_LISTERS = frozenset({"locate", "plocate", "mlocate", "slocate"})
# Commands that print their own words (round r5): fed to xargs (`echo x.sh | xargs bash`) or
# printing a lister's paths again (`bash $(echo $(ls x.sh))`), the words are a listing of files.
WORD_PRINTERS = frozenset({"echo", "printf"})
_GREPS = frozenset({"grep", "egrep", "fgrep", "rg", "ag"})
_FILES_ONLY = frozenset({"--files-with-matches", "--files-without-match", "--files"})
GLOB_CHARACTERS = frozenset("*?[")
_GIT_NAME_FLAGS = frozenset({"--name-only", "--name-status", "-l", "--files-with-matches", "-L",
                             "--files-without-match", "--porcelain", "--short", "-s", "--raw", "--stat"})

# Stages that pass on whole lines of their input unchanged: per command, the option letters
# that keep them so (None: any), the letters whose value is the next word, and how many
# operands may stand (grep's pattern; tee's files).
_SELECTING: dict[str, tuple[str | None, str, int]] = {
    "grep": ("viEFwxPsaz", "e", 1), "egrep": ("viwxsaz", "e", 1), "fgrep": ("viwxsaz", "e", 1),
    "sort": (None, "ktoST", 0), "uniq": ("iduz", "", 0), "head": ("nqz", "n", 0),
    "tail": ("nqz", "n", 0), "cat": ("", "", 0), "tac": ("", "", 0), "tee": ("ai", "", 1 << 20),
}


def listing(view) -> tuple[E.Extra, ...] | None:
    """The paths stage `view` prints, or None when it is no lister."""
    name = view.name
    found = view.effects
    args = view.args
    inner = view.inner
    if name == "find":
        return tuple(extra for extra in found.extra if extra.kind == "list") if found is not None else None
    operands = [it for it in found.items if it.role == E.READ] if found is not None else []
    names: tuple[str, ...] = ()
    if name == "git":
        return _git_ls_files(view, found)
    if name == "compgen":
        return _compgen(args[inner + 1 :])
    if name in _DATABASE_LISTERS:
        return (_start("/", None, True, name),)
    if name in _GREPS:
        words = [a.text for a in args[inner + 1 :]]
        if not any(w in _FILES_ONLY or w[:1] == "-" and w[1:2] != "-" and ("l" in w or "L" in w) for w in words) \
                and not (name == "ag" and any(w[:1] == "-" and w[1:2] != "-" and "g" in w for w in words)):
            return None  # matching lines, not paths (ag's `-g PATTERN` prints the files it names)
        includes = [w.split("=", 1)[1] for w in words if w.startswith("--include=")]
        if len(includes) == 1 and "/" not in includes[0]:
            names = (includes[0],)
    if found is None:
        # fd and other unmodelled listers: every operand may be a start path, and so is `.`
        starts = [_start(a.text, a.pattern, a.opaque, name) for a in args[inner + 1 :] if not a.text.startswith("-")]
        return (_start(".", None, False, name), *starts)
    if not operands:
        return (_start(".", None, False, name, names),)
    return tuple(_start(it.text, args[it.index].pattern if it.whole else None, args[it.index].opaque, name, names)
                 for it in operands)


def _git_ls_files(view, found: E.Effects | None) -> tuple[E.Extra, ...] | None:
    """`git ls-files [pathspec…]`: every file below the directory, or below each pathspec; a
    pathspec `*SUFFIX` (git's `*` crosses `/`, so it is a filter on the name), other globs and
    `:` magic match anywhere below the directory. The other git commands that print paths of
    the work tree (`git ls-tree`, `git status`, `--name-only` …) list all of it."""
    if found is None:
        return None
    args = view.args
    sub = -1
    for it in found.items:
        if it.role == E.DATA and not it.text.startswith("-"):
            sub = it.index
            break
    if sub < 0:
        return None
    # (`git -C DIR`, `--work-tree`, `--git-dir`: the listing is another directory's, round 2;
    # a `-C` of known value is followed, any other place may be anywhere)
    base = "."
    for k in range(view.inner + 1, sub):
        option = args[k].text
        value = args[k + 1] if k + 1 < sub else None
        if option in ("--work-tree", "--git-dir") or option.startswith(("--work-tree=", "--git-dir=")):
            return (_start("/", None, True, "git " + args[sub].text),)
        if option == "-C" and value is not None:
            if value.opaque or value.pattern is not None:
                return (_start("/", None, True, "git " + args[sub].text),)
            base = value.text if value.text.startswith("/") else base.rstrip("/") + "/" + value.text
    if args[sub].text != "ls-files":
        if args[sub].text in ("ls-tree", "status") or any(
                a.text in _GIT_NAME_FLAGS for a in args[sub + 1 :]):
            return (_start(base, None, False, "git " + args[sub].text),)
        return None
    out = []
    for it in found.items:
        if it.index <= sub or it.role != E.READ:
            continue
        a = args[it.index]
        text = it.text
        if a.opaque or text.startswith((":/", ":(top", ":(attr", ":!/", ":^/")):
            out.append(_start(text, None, True, "git ls-files"))  # (from the top: anywhere)
        elif text.startswith(":") or GLOB_CHARACTERS & set(text):
            suffix = text[1:]
            filtered = text.startswith("*") and "/" not in text and not GLOB_CHARACTERS & set(suffix)
            out.append(_start(base, None, False, "git ls-files", (text,) if filtered else ()))
        else:
            out.append(_start(text if text.startswith("/") or base == "." else base.rstrip("/") + "/" + text,
                              None, False, "git ls-files"))
    return tuple(out) if out else (_start(base, None, False, "git ls-files"),)


# compgen's actions that print names of files (`-f`, `-d`, `-A file`, `-A directory`), the `-o`
# options that add them, and its options whose value is the next word (`-P`/`-S` put text
# around every name printed).
_COMPGEN_FILE_ACTIONS = frozenset({"file", "directory"})
_COMPGEN_FILE_OPTIONS = frozenset({"default", "dirnames", "bashdefault", "plusdirs"})
_COMPGEN_VALUES = frozenset("AGWFCXPSo")


def _compgen(args) -> tuple[E.Extra, ...] | None:
    """`compgen -G PATTERN` (the pattern's matches, quoted or not: compgen globs it) and the
    file actions (`compgen -f WORD`: the names that begin with WORD); None when it prints no
    names of files. A value of unknown text, `-P`/`-S`, may print any path."""
    out: list[E.Extra] = []
    files = False
    k = 0
    while k < len(args):
        a = args[k]
        text = a.text
        if a.opaque:
            return (_start("/", None, True, "compgen"),)
        if text.startswith("-") and len(text) > 1:
            for j, letter in enumerate(text[1:], 2):
                if letter in "fd":
                    files = True
                elif letter in _COMPGEN_VALUES:
                    value = text[j:] if j < len(text) else args[k + 1].text if k + 1 < len(args) else ""
                    if k + 1 < len(args) and j >= len(text) and args[k + 1].opaque:
                        return (_start("/", None, True, "compgen"),)
                    if letter == "G":
                        out.append(_start(value, value if GLOB_CHARACTERS & set(value) else None, False, "compgen"))
                    elif letter == "A" and value in _COMPGEN_FILE_ACTIONS or letter == "o" and value in _COMPGEN_FILE_OPTIONS:
                        files = True
                    elif letter in "PS":
                        return (_start("/", None, True, "compgen"),)
                    if j >= len(text):
                        k += 1
                    break
            k += 1
            continue
        if files:  # the word the names begin with
            out.append(_start(text, _escaped(text) + "*", False, "compgen"))
            files = False
        k += 1
    if files:
        out.append(_start(".", None, False, "compgen"))
    return tuple(out) or None


def _escaped(text: str) -> str:
    from polydeukes.stdlib.shell.expansion import escape_pattern  # (only compgen asks)

    return escape_pattern(text)


def _start(text: str, pattern: str | None, opaque: bool, rule: str, names: tuple[str, ...] = ()) -> E.Extra:
    if opaque:
        return E.Extra("list", path="/", rule=rule)  # a start of unknown value may be anywhere
    return E.Extra("list", path=text, pattern=pattern, rule=rule, names=names)


def selects(view) -> bool:
    """Does stage `view` pass on some of its input lines unchanged (and nothing else)?"""
    spec = _SELECTING.get(view.name)
    if spec is None:
        return False
    letters, with_value, operands = spec
    skip = False
    for a in view.args[view.inner + 1 :]:
        text = a.text
        if skip:
            skip = False
        elif a.opaque or text.startswith("--") and letters is not None:
            return False
        elif text.startswith("-") and text != "-":
            flags = text[1:]
            if view.name in ("head", "tail") and flags.isdigit():
                continue  # `head -3`
            for k, letter in enumerate(flags):
                if letter in with_value:
                    skip = k == len(flags) - 1  # else the value is attached (`-n3`)
                    break
                if letters is not None and letter not in letters:
                    return False
        else:
            operands -= 1
            if operands < 0:
                return False
    return True


def anywhere(flowing: Sequence[E.Extra]) -> tuple[E.Extra, ...]:
    """What a stage that may rewrite the listed paths passes on: any path at all."""
    return (E.Extra("list", path="/", rule=flowing[0].rule if flowing else "a lister"),)


def within(extras: Sequence[E.Extra], source: tuple[int, ...]) -> tuple[E.Extra, ...]:
    """The listing `extras` given as the arguments at `source` of a command."""
    return tuple(E.Extra("list", path=e.path, pattern=e.pattern, rule=e.rule, names=e.names, source=source)
                 for e in extras)


SELECTING = frozenset(_SELECTING)


def printed_word(word: str, globbed: bool, rule: str) -> E.Extra:
    """A word `echo`/`printf` prints, as the file it names (`WORD_PRINTERS`); when the command
    had a pattern among its words (`printf '%s\\n' *.sh`), a word with glob characters is
    taken for it and matched on disk."""
    return E.Extra("list", path=word, pattern=word if globbed and GLOB_CHARACTERS & set(word) else None, rule=rule)
