"""The transcript axis of the shell analysis (spec 04 §7.3): does a call name one exact file?

`transcript-mod` protects the live session evidence file (the host transcript) by **whole-path
equality**, never by ancestor or descendant: deleting `~/.claude` is out of the observation's
scope, and the home directory must never become a protected ancestor. This module holds the
two pieces that differ from the shell-mod judge (`judgment.py`):

- `TranscriptTarget`: equality of a spelled path with the transcript, home spellings included
  (`~`, `$HOME`, `${HOME}`, `~<user>` stand for a valid home when the transcript lies under it),
  plus the suffix forms that catch `-o/abs`, `host:/abs` and `>>/abs`, and glob patterns that
  can match the transcript itself;
- `judge_transcript_line`: the ladder of §8.5 **without** the opaque-mention clause (c), with
  transcript-specific reasons, over the same walk and effect model as shell-mod: a reader the
  model proves (`cat`, `jq`, `sha256sum` …) passes on a fully read line; a command with unknown
  effects that names the transcript breaks.
"""

from __future__ import annotations

from collections.abc import Sequence

from polydeukes.stdlib.shell import effects as E
from polydeukes.stdlib.shell.analysis import View, Walk, basename, is_write_redirect
from polydeukes.stdlib.shell.expansion import compile_pattern, compile_segment, pattern_reaches, resolve_pattern
from polydeukes.stdlib.shell.judgment import (
    _roles_by_arg,
    proven_read,
    code_candidates,
    sed_in_place_targets,
    tee_targets,
    unread_candidates,
)
from polydeukes.stdlib.shell.paths import dot_resolve, path_candidates, root_segments, segments
from polydeukes.stdlib.shell.tokenizer import UnreadSpan, Word

__all__ = [
    "TRANSCRIPT_OPAQUE_TARGET",
    "TRANSCRIPT_RULE",
    "TRANSCRIPT_UNPROVEN",
    "TRANSCRIPT_UNREAD",
    "TranscriptTarget",
    "judge_transcript_line",
    "valid_home",
]

TRANSCRIPT_UNREAD = "untokenizable command line names the session transcript {path}"
TRANSCRIPT_RULE = "{rule} targets the session transcript {path}"
TRANSCRIPT_OPAQUE_TARGET = "opaque redirect target alongside the session transcript {path}"
TRANSCRIPT_UNPROVEN = "{head} names the session transcript {path} without read-only proof"

_HOME_WORDS = ("~", "$HOME", "${HOME}")
_FORM_STARTS = "/~$"


def valid_home(home: str | None) -> list[str] | None:
    """The segments of a usable home directory, or None.

    Valid = absolute, with at least one segment and no `.`/`..` segment. (Python design:
    trailing and doubled slashes are tolerated, since accepting them only adds matches.)
    """
    if not isinstance(home, str) or not home.startswith("/"):
        return None
    segs = [s for s in home.split("/") if s]
    if not segs or any(s in (".", "..") for s in segs):
        return None
    return segs


def _absolute(segs: list[str]) -> list[str]:
    """Dot-resolved absolute segments; `/..` is `/` in POSIX, so a leading `..` is dropped."""
    out = dot_resolve(segs)
    while out and out[0] == "..":
        out = out[1:]
    return out


_AT_ROOT = object()  # (a relative name read from the project root: the file tools' spelling)


class TranscriptTarget:
    """One evidence path and the spellings that name it."""

    def __init__(self, evidence_path: str, *, root: str, home: str | None) -> None:
        self.path = evidence_path
        self.root = root
        self.home_text = home
        raw = segments(evidence_path)
        # A path with no segment other than `.` names nothing: the covenant is inert.
        self.inert = all(seg == "." for seg in raw)
        self.target = dot_resolve(raw)
        self.root_segs = root_segments(root)
        if evidence_path.startswith("/"):
            self.absolute_target: list[str] | None = _absolute(raw)
        elif self.root_segs is not None:
            self.absolute_target = _absolute(self.root_segs + raw)
        else:
            self.absolute_target = None
        home_segs = valid_home(home)
        # Home spellings are honoured only for a transcript under the home directory.
        if home_segs is not None and len(self.target) > len(home_segs) and self.target[: len(home_segs)] == home_segs:
            self.home: list[str] | None = home_segs
            self.home_words = (*_HOME_WORDS, "~" + home_segs[-1])
        else:
            self.home = None
            self.home_words = ()
        # Any spelling that resolves to the transcript spells its last segment.
        self.last = self.target[-1] if self.target else ""

    def equals(self, path: str, cwd: object = _AT_ROOT) -> bool:
        """Is `path`, taken whole, the transcript? A relative path is read from `cwd` (absolute
        segments: where the command runs, after the line's `cd`s and in the call's directory;
        None: unknown, so any directory may hold the transcript; default the project root)."""
        if self.inert or self.last not in path:
            return False
        segs = segments(path)
        if not segs:
            return False
        if self.home is not None and segs[0] in self.home_words:
            return _absolute(self.home + segs[1:]) == self.target
        if dot_resolve(segs) == self.target:
            return True
        # (Python design) the path as the shell resolves it: absolute as written, relative
        # against the project root (`../../.claude/…/session.jsonl` from inside the project).
        if self.absolute_target is None or path[:1] in ("~", "$"):
            return False
        if path.startswith("/"):
            return _absolute(segs) == self.absolute_target
        if cwd is None:  # (`cd "$D"; rm session.jsonl`: the name may be the transcript's tail)
            tail = dot_resolve(segs)
            return ".." not in tail and self.absolute_target[len(self.absolute_target) - len(tail):] == tail
        base = self.root_segs if cwd is _AT_ROOT else list(cwd)
        return base is not None and _absolute(base + segs) == self.absolute_target

    def names(self, candidate: str, cwd: object = _AT_ROOT) -> bool:
        """Does a path candidate name the transcript, as written or from its first `/`, `~`
        or `$` on (`-o/abs`, `host:/abs`, `>>/abs`)? (`cwd`: as `equals` reads it)"""
        if self.equals(candidate, cwd):
            return True
        if candidate[:1] in _FORM_STARTS:
            return False
        cut = min((i for i in (candidate.find(c) for c in _FORM_STARTS) if i > 0), default=-1)
        return cut > 0 and self.equals(candidate[cut:], cwd)

    def names_word(self, word: Word, cwd: object = _AT_ROOT) -> bool:
        # Every candidate is a piece of the word's text and a name of the transcript spells its
        # last segment, so a word without that spelling is decided without splitting it.
        if self.last not in word.text:
            return False
        # An opaque token's text still counts: `chmod 000 $HOME/…/session.jsonl` names it.
        return any(self.names(c, cwd) for c in path_candidates(word.text, word.opaque))

    def names_arg(self, arg, cwd: object = _AT_ROOT) -> bool:
        """An expanded word: its text as a word, or its glob pattern matching the transcript
        itself (whole-path equality: a pattern over its directory does not count)."""
        if self.names_word(arg, cwd):
            return True
        if arg.pattern is None or self.absolute_target is None:
            return False
        pattern = arg.pattern
        if pattern.startswith("~/") and self.home is not None:
            anchor = list(self.home)
            pattern = pattern[2:]
        elif pattern.startswith("/"):
            anchor = []
        elif cwd is not _AT_ROOT and cwd is not None:
            anchor = list(cwd)
        elif self.root_segs is not None:
            anchor = list(self.root_segs)
        else:
            return False
        compiled = resolve_pattern([compile_segment(s) for s in anchor] + list(compile_pattern(pattern)))
        return pattern_reaches(compiled, self.absolute_target, exact=True)

    def names_span(self, span: UnreadSpan) -> bool:
        return any(self.names(c) for c in unread_candidates(span))


def judge_transcript_line(text: str, target: TranscriptTarget, cwd: str | None = None) -> str | None:
    """The break reason for one command string run in `cwd` (the call's directory; the root when
    None), or None when it leaves the transcript alone."""
    if target.inert:
        return None
    walk = Walk(text, root=target.root, home=target.home_text,
                wants_run=lambda run, _context: target.last in run, cwd=cwd)
    try:
        for event in walk.events():
            if type(event) is UnreadSpan:
                if target.names_span(event):
                    return TRANSCRIPT_UNREAD.format(path=target.path)
                continue
            reason = _command(event, target)
            if reason is not None:
                return reason
        return None
    finally:
        walk.close()


def _command(view: View, target: TranscriptTarget) -> str | None:
    path = target.path
    cmd = view.cmd
    words: Sequence[Word] = view.words
    cwd = view.cwd  # (relative names are read where the command runs)
    # (a) precise rules: a redirect, `tee` or `sed -i` whose target is the transcript
    for r, targets in view.targets:
        if is_write_redirect(r) and any(not t.opaque and target.names_arg(t, cwd) for t in targets):
            return TRANSCRIPT_RULE.format(rule="redirect-write", path=path)
    if words and not view.synthetic and basename(words[0].text) in ("tee", "sed"):
        for rule, detect in (("tee", tee_targets), ("sed-in-place", sed_in_place_targets)):
            if any(target.names_word(w, cwd) for w in detect(words)):
                return TRANSCRIPT_RULE.format(rule=rule, path=path)
    # (b) mention scan over the expanded words, redirect targets and code (heredoc bodies fed
    # to a command that does not run them are data)
    mentioned = [k for k, a in enumerate(view.args) if target.names_arg(a, cwd)]
    in_targets = any(target.names_arg(t, cwd) for r, targets in view.targets if is_write_redirect(r) for t in targets)
    read_targets = any(target.names_arg(t, cwd) for r, targets in view.targets if not is_write_redirect(r)
                       for t in targets)
    model = view.model
    found = view.effects if (mentioned or in_targets or (model is not None and not model.pure)) else None
    in_code = _code_names(view, found, target)
    if not mentioned and not in_targets and not in_code and not read_targets:
        return None
    # (c) is shell-mod's alone. (d) an unknowable write target beside the mention
    if any(is_write_redirect(r) and any(t.opaque for t in targets) for r, targets in view.targets):
        return TRANSCRIPT_OPAQUE_TARGET.format(path=path)
    # (e) read-only proof, only on a fully read line
    if not in_targets and not in_code and proven_read(view, found, mentioned, _roles_by_arg(found)):
        return None
    # (f) backstop
    head = view.head if cmd.words or cmd.redirects else view.name
    return TRANSCRIPT_UNPROVEN.format(head=head, path=path)


def _code_names(view: View, found: E.Effects | None, target: TranscriptTarget) -> bool:
    codes: list[str] = [it.text for it in found.items if it.role == E.CODE] if found is not None else []
    model = view.model
    if model is not None and model.handler == "interpreter":
        if not any(it.role in (E.CODE, E.EXEC) and it.text != "-" for it in (found.items if found else ())):
            codes.extend(view.env.heredocs)
    if view.written_code is not None:
        codes.append(view.written_code)
    for code in codes:
        if target.last not in code and not any(target.last in c for c in code_candidates(code)[1:]):
            continue
        for candidate in code_candidates(code):
            if any(target.names(piece, view.cwd) for piece in path_candidates(candidate, True)):
                return True
    return False
