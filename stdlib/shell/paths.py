"""Path matching for the shell axis (spec 04 §8.4): by path segment, never by substring.

`path_matches(candidate, entry, root=...)` is the union of three passes:

1. raw (§8.4.2): the entry's segments occur as a contiguous run anywhere in the candidate's
   (descendant or equal), or the candidate is a non-empty root-anchored proper prefix of the
   entry (ancestor: deleting or moving `packages/core` takes `packages/core/dist` with it);
2. the same with the candidate dot-resolved (`.` dropped, `..` cancels its predecessor, an
   unresolvable leading `..` is kept);
3. (Python design) the candidate resolved against the project root — absolute paths, and
   relative paths whose `..` leave and re-enter the project (`../proj/packages/core`), become
   root-relative and are compared anchored; a path resolving outside the project matches
   nothing on this pass.

Nothing is ever expanded here: globs, variables and tildes name nothing (the analyzer's opacity
rules and skip rows own their undecidability); `~`/`$HOME` are only resolved by callers that
hold a valid `home`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from polydeukes.stdlib.protected import fold
from polydeukes.vm.sre import LazyPattern

# §8.4.3 splits on whitespace, `=`, `,`, parentheses and backticks. Quotes and shell operators
# are added (Python design): inside a word they only survive as quoted data — an interpreter
# one-liner `open("src/core/a.py")` or a nested script `rm -rf P;true` — where a glued path is
# still a mention. Splitting only ever adds candidates, so it can only add breaks.
_CANDIDATE_SPLIT = LazyPattern(r"[\s=,()`'\";&|<>]+")
# Inside an opaque word a parameter expansion's operand is still a spelled path
# (`${T:-packages/core/dist}`): split it out too, so a literal mention is never hidden. A
# special parameter is one character after `$` (`$1ci` is `${1}ci`, `$#ci` is `${#}ci`), so it
# is a separator whole: what follows it is literal text (`$_ci` is the variable `_ci`).
_OPAQUE_CANDIDATE_SPLIT = LazyPattern(r"(?:\$[0-9#?$!@*-]|[\s=,()`'\";&|<>{}$])+|:[-=+?]")


def segments(path: str) -> list[str]:
    """§8.4.1: strip leading `./` and trailing `/`, split on `/`, drop empty segments."""
    while path.startswith("./"):
        path = path[2:]
    parts = path.split("/")
    # (most paths have no empty segment: the split is the answer, without a comprehension's call)
    return parts if "" not in parts else [seg for seg in parts if seg]


def dot_resolve(segs: list[str]) -> list[str]:
    """Drop `.`, let `..` cancel the previous segment; a `..` with nothing to cancel is kept."""
    if "." not in segs and ".." not in segs:
        return segs
    out: list[str] = []
    for seg in segs:
        if seg == ".":
            continue
        if seg == ".." and out and out[-1] != "..":
            out.pop()
        else:
            out.append(seg)
    return out


def _contains_run(a: list[str], b: list[str]) -> bool:
    first = b[0]
    width = len(b)
    for k in range(len(a) - width + 1):
        if a[k] == first and a[k : k + width] == b:
            return True
    return False


def segments_match(a: list[str], b: list[str]) -> bool:
    """Descendant-or-equal (contiguous run anywhere) or root-anchored ancestor (§8.4.2)."""
    if not a or not b:
        return False
    if _contains_run(a, b):
        return True
    return len(a) < len(b) and b[: len(a)] == a


def anchored_match(rel: list[str], b: list[str]) -> bool:
    """For a root-relative path: inside the entry, equal to it, or an ancestor of it."""
    if not rel or not b or rel[0] != b[0]:  # most pairs already differ in their first segment
        return False
    shorter = min(len(rel), len(b))
    return rel[:shorter] == b[:shorter]


def root_segments(root: str) -> list[str] | None:
    if not root.startswith("/"):
        return None
    segs = dot_resolve(segments(root))
    return None if ".." in segs else segs


def absolute_segments(candidate: str, cwd: Sequence[str], home: str | None,
                      resolve_dots: bool = True) -> list[str] | None:
    """Absolute, dot-resolved segments of `candidate` spelled in the directory `cwd` (absolute
    segments); None when it names nothing knowable (another user's home, a variable). With
    `resolve_dots=False` the `.` and `..` segments stay where they are (after a symbolic link,
    `..` climbs from where the link leads, so only a walk of the disk may resolve them)."""
    parts = [s for s in candidate.split("/") if s]
    if candidate.startswith("/"):
        joined = parts
    elif not parts:
        return None
    elif home is not None and parts[0] in ("~", "$HOME", "${HOME}"):
        joined = [s for s in home.split("/") if s] + parts[1:]
    elif parts[0].startswith("~") or parts[0].startswith("$"):
        return None  # another user's home or an unknown variable names nothing
    else:
        joined = [*cwd, *parts]
    if not resolve_dots:
        return joined
    absolute = dot_resolve(joined)
    # `/..` is `/` in POSIX: a `..` kept at the front has nothing left to climb.
    while absolute and absolute[0] == "..":
        absolute = absolute[1:]
    return absolute


def relative_parts(candidate: str) -> list[str] | None:
    """The segments of a plain relative path (no leading `/`, `~` or `$`, no `.` or `..`
    segment), or None for any other spelling."""
    if candidate[:1] in ("/", "~", "$", ""):
        return None
    parts = [s for s in candidate.split("/") if s]
    if not parts or "." in parts or ".." in parts:
        return None
    return parts


def root_relative(candidate: str, root: str, home: str | None = None) -> list[str] | None:
    """Segments of `candidate`, spelled at the project root, relative to the root; None when
    it lies outside. `home` (absolute) lets a leading `~`, `$HOME` or `${HOME}` stand for the
    home directory."""
    root_segs = root_segments(root)
    return None if root_segs is None else relative_to_root(candidate, root_segs, root_segs, home)


def relative_to_root(candidate: str, root_segs: Sequence[str], cwd: Sequence[str], home: str | None) -> list[str] | None:
    """`candidate` spelled in the directory `cwd` (absolute segments), relative to the root."""
    absolute = absolute_segments(candidate, cwd, home)
    if absolute is None or absolute[: len(root_segs)] != list(root_segs):
        return None
    return absolute[len(root_segs) :]


def contains_root(candidate: str, root_segs: Sequence[str], cwd: Sequence[str], home: str | None = None) -> bool:
    """True when `candidate` (spelled in `cwd`) names the project root or one of its ancestors."""
    absolute = absolute_segments(candidate, cwd, home)
    return absolute is not None and list(root_segs[: len(absolute)]) == absolute


def tail_can_name(tail: str, target: Sequence[str],
                  matches: Callable[[str, str], bool] | None = None,
                  ends: Callable[[str, str], bool] | None = None) -> bool:
    """Can a path that ends in the literal `tail`, after a value nobody knows, be a path whose
    last segments are `target`, one of its ancestors within `target`, or something inside it?

    The value may end anywhere, even inside a segment: `/gate.sh`, `/ci`, `/proj` and `ate.sh`
    can all end `proj/ci/gate.sh` or an ancestor, and `/hooks/x` lies inside `.claude/hooks`.
    An empty tail (`"$V"`, `"$V"/`) tells nothing about the path and names nothing here. With
    `matches(tail segment, name)` and `ends(name, head)` the tail's segments are patterns
    (`"$D"/c?`: judgment `_tail_pattern_hits`); without, they are compared as text."""
    parts = tail.split("/")
    if ".." in parts:  # `$V/x/..` is some directory again: only the text after the last `..` is known
        parts = ["", *parts[len(parts) - parts[::-1].index("..") :]]
    head = parts[0]  # the end of a segment the unknown value began
    rest = [seg for seg in parts[1:] if seg and seg != "."]
    if not head and not rest:
        return False
    # `rest[0]` lands on `target[i]`; below 0 its first segments lie above `target`, where
    # anything may stand (`/u/proj` can end the project directory `proj`).
    for i in range(1 - len(rest), len(target) + 1):
        if head and i >= 1 and not (target[i - 1].endswith(head) if ends is None else ends(target[i - 1], head)):
            continue
        skip = max(0, -i)
        start = max(0, i)
        shared = min(len(rest) - skip, len(target) - start)
        if not (shared > 0 or head and i >= 1):
            continue
        if matches is None:
            if rest[skip : skip + shared] == list(target[start : start + shared]):
                return True
        elif all(matches(rest[skip + k], target[start + k]) for k in range(shared)):
            return True
    return False


def comparable(text: str, fold_case: bool) -> str:
    """The one place path text is prepared for comparison: case-folded when the project's
    file system folds case (the caller decides; every matcher here compares through this)."""
    return fold(text) if fold_case else text


def path_matches(candidate: str, entry: str, *, root: str) -> bool:
    """Does `candidate` name `entry`, something inside it, or a directory containing it?"""
    b = segments(entry)
    if not b:
        return False
    a = segments(candidate)
    if segments_match(a, b) or segments_match(dot_resolve(a), b):
        return True
    rel = root_relative(candidate, root)
    return rel is not None and anchored_match(rel, dot_resolve(b))


def path_candidates(token: str, opaque: bool = False) -> list[str]:
    """§8.4.3: split a token into path candidates (never on `/` or `:`).

    For an opaque token the pieces of its parameter-expansion operands are added as well.
    """
    found = [c for c in _CANDIDATE_SPLIT().split(token) if c]
    if opaque:
        # An opaque word additionally yields the pieces a parameter expansion's operand spells
        # (`${T:-packages/core/dist}`), so a literal mention is never hidden by its wrapper.
        # (A set for the test: a list's made it quadratic, half a second for a 100 KB program.)
        seen = set(found)
        for c in _OPAQUE_CANDIDATE_SPLIT().split(token):
            if c and c not in seen:
                seen.add(c)
                found.append(c)
    return found
