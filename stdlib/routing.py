"""Path routing by mention (spec 04 §5.1): which protected entry, if any, one call reaches.

Pure and hot-path safe. A registration with protected paths routes a call when some *path
candidate* of the call matches one of its entries under the segment rule (§8.4, implemented once
in `shell.paths.path_matches`). The candidates of a call are:

- every string value at any depth of `args` (keys are never scanned, non-strings never match),
  tokenized like a shell line so quote and escape splits collapse to the word the shell would
  see; each word and each redirect target is split into candidates (§8.4.3). A string the
  tokenizer could not read to its end (an unread span) marks the gathering **failed**;
- the call's **proven change path** (`fileChange.path` with at least one segment other than
  `.`), taken whole.

`route_by_paths` answers `(subject, routing_failed)`: the first entry in list order that any
candidate matches; or, when nothing matches but the gathering failed, the first entry with
`routing_failed=True` (fail-closed routing: text that could not be read may name anything).
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from functools import lru_cache
from typing import Any

import msgspec

from polydeukes.stdlib.protected import fold
from polydeukes.stdlib.shell.paths import (
    anchored_match,
    dot_resolve,
    path_candidates,
    path_matches,
    relative_to_root,
    root_segments,
    segments,
    segments_match,
)
from polydeukes.vm.ir import UNSET, ToolCall

__all__ = [
    "Candidates",
    "arg_strings",
    "change_path",
    "command_strings",
    "gather_candidates",
    "linked_entry",
    "resolve_home",
    "route_by_paths",
    "route_shell_mod",
    "string_candidates",
    "through_links",
]


# Records are frozen msgspec Structs rather than NamedTuples: a NamedTuple class costs ~0.15 ms
# to create, paid by every check at import.
class Candidates(msgspec.Struct, frozen=True):
    paths: tuple[str, ...]  # distinct, in first-seen order
    failed: bool  # some args string left an unread span
    runs: tuple[str, ...] = ()  # runs of plain lines: their candidates come only when needed


def arg_strings(value: Any) -> Iterator[str]:
    """Every string at any depth of a JSON value, in document order; keys are never yielded.

    Iterative, so pathologically deep nesting cannot exhaust the recursion limit.
    """
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            yield item
        elif isinstance(item, dict):
            stack.extend(reversed(list(item.values())))
        elif isinstance(item, (list, tuple)):
            stack.extend(reversed(item))




def string_candidates(text: str) -> tuple[list[str], bool]:
    """The path candidates of one string read as a shell line, and whether it was fully read.

    (For a large string, see `string_candidate_parts`: this expands every plain run.)"""
    found, fully_read, runs = string_candidate_parts(text)
    for run in runs:
        found.extend(_run_candidates(run))
    return found, fully_read


def _run_candidates(run: str) -> list[str]:
    """The candidates of a run of plain lines, word by word."""
    from polydeukes.stdlib.shell.tokenizer import tokenize

    found: list[str] = []
    for cmd in tokenize(run).commands:
        for word in cmd.words:
            found.extend(path_candidates(word.text, word.opaque))
    return found


# Characters with no meaning to the shell tokenizer nor to the candidate split (spec 04 §8.4.3):
# a string made of them alone is one plain word. No quote, space, `$`, glob, brace, `=`, `,`,
# `#`, `~`, `!` or operator character.
_ONE_PLAIN_WORD = frozenset(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789/._-+:@%"
)


def _scanned(text: str):
    """One read of a string per process, shared with the judges: a large string is scanned with
    runs of plain lines kept whole (`shell.tokenizer.PlainRun`), whose candidates are only worked
    out when a run spells a protected entry's first segment."""
    from polydeukes.stdlib.shell.tokenizer import PLAIN_RUNS_FROM, tokenized

    if len(text) < PLAIN_RUNS_FROM:
        return tokenized(text)
    from polydeukes.stdlib.shell.analysis import scanned  # loads the command table

    return scanned(text)


def string_candidate_parts(text: str) -> tuple[list[str], bool, list[str]]:
    """The path candidates of one string read as a shell line, whether it was fully read, and
    the texts of its runs of plain lines, whose candidates are left to the caller."""
    if text.isascii() and _ONE_PLAIN_WORD.issuperset(text):
        # What the tokenizer would answer, without loading it (most calls that are not shell
        # calls name files by such strings): one plain word, its own only candidate.
        return ([text] if text else []), True, []
    from polydeukes.stdlib.shell.tokenizer import PlainRun

    script = _scanned(text)
    found: list[str] = []
    runs: list[str] = []
    for cmd in script.commands:
        if type(cmd) is PlainRun:
            runs.append(text[cmd.start : cmd.end])
            continue
        for word in cmd.words:
            found.extend(path_candidates(word.text, word.opaque))
        for redirect in cmd.redirects:
            found.extend(path_candidates(redirect.target.text, redirect.target.opaque))
    return found, script.fully_read, runs


def change_path(call: ToolCall) -> str | None:
    """The call's proven change path, or None when its evidence is absent or degenerate.

    A path with no segment other than `.` (`''`, `.`, `/`, `./.`) proves no target: the judges
    then fall back to what the args mention.
    """
    change = call.fileChange
    if change is UNSET:
        return None
    path = getattr(change, "path", None)
    if not isinstance(path, str) or all(seg == "." for seg in segments(path)):
        return None
    return path


def through_links(path: str, root: str) -> tuple[str, str] | None:
    """(the real path a write of `path` lands on, the project root's real path), when a symbolic
    link on disk stands between the spelling and the file — a directory link (`docs/ci ->
    ../ci`), a link as the last segment, a link to the project itself (`ln -s . self`) — else
    None. A host's Write or Edit follows such links, so the judges look where they lead. Lexical
    spellings (`./`, `..`, doubled slashes, `~`) are the string matchers' business."""
    if path[:1] in ("~", "$"):
        return None
    try:
        spelled = os.path.join(root, path)
        # Not normalized first: after a link, `..` climbs from where the link leads
        # (`docs/../gate.sh` with `docs -> ci/sub` is `ci/gate.sh`), as the kernel reads it.
        real = os.path.realpath(spelled)
        if real == os.path.normpath(spelled):
            return None
        return real, os.path.realpath(root)
    except (OSError, ValueError):  # a NUL in the path: no file can be written there either
        return None


def linked_entry(path: str, protected: Sequence[str], *, root: str, folded: bool = False) -> str | None:
    """The first protected entry that a write of the change path `path` reaches only through a
    symbolic link on disk (None when no link is on the way or it leads elsewhere)."""
    resolved = through_links(path, root)
    if resolved is None:
        return None
    real, real_root = (fold(resolved[0]), fold(resolved[1])) if folded else resolved
    for entry in protected:
        if path_matches(real, fold(entry) if folded else entry, root=real_root):
            return entry
    return None


def gather_candidates(call: ToolCall, *, root: str) -> Candidates:
    """Every path candidate of one call (spec 04 §5.1); never raises on any args shape.

    `root` is accepted for symmetry with `route_by_paths`: candidates are spelled paths, and
    resolving them against the project root is the matcher's business.
    """
    del root  # candidates are root-independent; see the docstring
    found: list[str] = []
    runs: list[str] = []
    failed = False
    if call.args is not UNSET:
        for text in arg_strings(call.args):
            words, fully_read, plain = string_candidate_parts(text)
            found.extend(words)
            runs.extend(plain)
            failed = failed or not fully_read
    path = change_path(call)
    if path is not None:
        found.append(path)
    return Candidates(tuple(dict.fromkeys(found)), failed, tuple(runs))


class _Entries(msgspec.Struct, frozen=True):
    """A protected list made ready for matching, once per process (lru_cache below)."""

    entries: tuple[str, ...]  # as normalized from the config: the subjects
    spellings: tuple[str, ...]  # what candidates are compared with (case-folded when asked)
    segments: tuple[list[str], ...]  # per entry: its spelling's segments (never empty) ...
    resolved: tuple[list[str], ...]  # ... and those dot-resolved
    # Each distinct first segment (raw or dot-resolved) with the entries that have it: a
    # candidate can only match an entry whose first segment it spells (see route_by_paths).
    owners: tuple[tuple[str, tuple[int, ...]], ...]


@lru_cache(maxsize=16)
def _entries(protected: tuple[str, ...], folded: bool) -> _Entries:
    kept = tuple(e for e in protected if isinstance(e, str) and segments(e))
    spellings = tuple(fold(e) for e in kept) if folded else kept
    segs = tuple(segments(spelling) for spelling in spellings)
    resolved = tuple(dot_resolve(s) for s in segs)
    owners: dict[str, list[int]] = {}
    for position, (raw, dotted) in enumerate(zip(segs, resolved)):
        for first in dict.fromkeys([raw[0], *dotted[:1]]):
            owners.setdefault(first, []).append(position)
    return _Entries(kept, spellings, segs, resolved,
                    tuple((first, tuple(held)) for first, held in owners.items()))


class _Spelled:
    """One candidate's segment forms, worked out once however many entries it is tested with:
    exactly what `shell.paths.path_matches` computes for it."""

    __slots__ = ("segments", "resolved", "relative")

    def __init__(self, candidate: str, root_segs: list[str] | None) -> None:
        self.segments = segments(candidate)
        self.resolved = dot_resolve(self.segments)
        self.relative = (None if root_segs is None
                         else relative_to_root(candidate, root_segs, root_segs, None))

    def matches(self, entry: list[str], entry_resolved: list[str]) -> bool:
        """`path_matches(candidate, entry spelling, root=root)`."""
        if segments_match(self.segments, entry) or segments_match(self.resolved, entry):
            return True
        return self.relative is not None and anchored_match(self.relative, entry_resolved)


def route_by_paths(
    candidates: Candidates, protected: Sequence[str], *, root: str, folded: bool = False
) -> tuple[str | None, bool]:
    """(subject, routing_failed) for one registration's protected list (spec 04 §5.1).

    Empty entries are ignored; a list with none never routes by path. `folded`: the project's
    file system folds case (stdlib.protected.folds_case), so spellings are compared folded;
    the subject is still the entry as the config spells it.
    """
    table = _entries(tuple(protected), folded)
    if not table.entries:
        return None, False
    paths = tuple(fold(c) for c in candidates.paths) if folded else candidates.paths
    if folded:
        root = fold(root)
    # Every way a candidate can match an entry (descendant, ancestor, dot-resolved, anchored
    # at the root) needs the entry's first segment spelled inside the candidate, so a
    # substring test discards almost every candidate of a long file body before the
    # segment-wise comparison runs.
    if candidates.runs:
        # A run of plain lines can only name an entry it spells: read only those runs.
        for run in candidates.runs:
            dequoted = run.replace("'", "").replace('"', "")
            if folded:
                dequoted = fold(dequoted)
            if any(first in dequoted for first, _ in table.owners):
                found = _run_candidates(run)
                paths = paths + tuple(fold(c) for c in found) if folded else paths + tuple(found)
    # Which candidates each entry must be compared with; the first entry in list order that
    # one of them matches is the subject, whichever candidate it is.
    tried: dict[int, list[str]] = {}
    for candidate in paths:
        for first, held in table.owners:
            if first in candidate:
                for position in held:
                    found = tried.get(position)
                    if found is None:
                        tried[position] = [candidate]
                    elif found[-1] is not candidate:
                        found.append(candidate)
    if tried:
        root_segs = root_segments(root)
        spelled: dict[str, _Spelled] = {}
        for position in sorted(tried):
            b, b_resolved = table.segments[position], table.resolved[position]
            for candidate in tried[position]:
                forms = spelled.get(candidate)
                if forms is None:
                    forms = spelled[candidate] = _Spelled(candidate, root_segs)
                if forms.matches(b, b_resolved):
                    return table.entries[position], False
    if candidates.failed:
        return table.entries[0], True
    return None, False


def command_strings(call: ToolCall, command_args: Sequence[str]) -> list[str]:
    """Every string under the command-arg keys, keys in roster order, nested values walked."""
    if call.args is UNSET:
        return []
    found: list[str] = []
    for key in dict.fromkeys(k for k in command_args if k):
        if key in call.args:
            found.extend(arg_strings(call.args[key]))
    return found


def route_shell_mod(
    call: ToolCall,
    candidates: Candidates,
    protected: Sequence[str],
    *,
    shell: Sequence[str],
    command_args: Sequence[str],
    root: str,
    home: str | None,
    folded: bool = False,
    by_paths: tuple[str | None, bool] | None = None,
) -> tuple[str | None, bool]:
    """shell-mod's route: `route_by_paths`, widened by what the shell analyzer reaches.
    `by_paths`: `route_by_paths`' answer for the same arguments, when the caller has it.

    (Python design) The analyzer follows literal `cd` targets and sees a command that deletes or
    moves the project root (`rm -rf .`), which reaches every entry although no candidate names
    one. Routing on the analyzer's subject too keeps that judgment from being skipped; it only
    ever adds routes.
    """
    if by_paths is None:
        by_paths = route_by_paths(candidates, protected, root=root, folded=folded)
    subject, failed = by_paths
    if subject is not None or call.name not in shell:
        return subject, failed
    # Imported here: only a shell call needs the analyzer, and most checks judge none.
    from polydeukes.stdlib.shell.judgment import judge_shell_mod

    cwd = call_directory(call)
    for text in command_strings(call, command_args):
        reached = judge_shell_mod(text, protected, root=root, home=home, cwd=cwd).subject
        if reached is not None:
            return reached, False
    return None, False


def call_directory(call: ToolCall) -> str | None:
    """The directory the host runs a shell call in (the call's `cwd`); None: the project root."""
    cwd = call.cwd
    return cwd if isinstance(cwd, str) else None


def resolve_home() -> str | None:
    """The home directory `~`/`$HOME` expand to: `HOME`, else the passwd entry's, else None.

    Here rather than in stdlib.meta, so that every check can resolve it without loading the
    judges.
    """
    home = os.environ.get("HOME")
    if home:
        return home
    try:
        import pwd  # POSIX only; imported here so the module loads everywhere

        return pwd.getpwuid(os.getuid()).pw_dir or None
    except (ImportError, KeyError, OSError):
        return None
