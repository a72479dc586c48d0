"""The transcript axis of the shell analyzer (spec 04 §7.3): does a call name one exact file?

`transcript-mod` protects the live session evidence file (the host transcript) by **whole-path
equality**, never by ancestor or descendant: deleting `~/.claude` is out of the observation's
scope, and the home directory must never become a protected ancestor. This module holds the
two pieces that differ from the shell-mod judge in `shell.py`:

- `TranscriptTarget`: equality of a spelled path with the transcript, home spellings included
  (`~`, `$HOME`, `${HOME}`, `~<user>` stand for a valid home when the transcript lies under it),
  plus the suffix forms that catch `-o/abs`, `host:/abs` and `>>/abs`;
- `judge_transcript_line`: the ladder of §8.5 **without** the opaque-mention clause (c), with
  transcript-specific reasons.

The ladder reuses the analyzer's own write rules, read-only allowlist, conditional readers,
pipeline and nested-shell handling (private names of `shell.py`, imported in one place below),
so the two axes cannot drift apart on what counts as a write or as a read.
"""

from __future__ import annotations

from collections.abc import Sequence

from polydeukes.stdlib.shell import (  # the analyzer's ladder pieces; see the module docstring
    _RULES,
    NESTED_SHELLS,
    _allowlisted,
    _basename,
    _conditional_reader,
    _feeds_executor,
    _is_write_redirect,
    _shell_script_sources,
    _unread_candidates,
    _unwrap,
)
from polydeukes.stdlib.shell_paths import dot_resolve, path_candidates, root_segments, segments
from polydeukes.stdlib.shell_tokenizer import Script, SimpleCommand, UnreadSpan, Word, tokenize

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
_MAX_NESTING = 8  # as the analyzer: deeper nested scripts are not read


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


class TranscriptTarget:
    """One evidence path and the spellings that name it."""

    def __init__(self, evidence_path: str, *, root: str, home: str | None) -> None:
        self.path = evidence_path
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

    def equals(self, path: str) -> bool:
        """Is `path`, taken whole, the transcript?"""
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
        return self.root_segs is not None and _absolute(self.root_segs + segs) == self.absolute_target

    def names(self, candidate: str) -> bool:
        """Does a path candidate name the transcript, as written or from its first `/`, `~`
        or `$` on (`-o/abs`, `host:/abs`, `>>/abs`)?"""
        if self.equals(candidate):
            return True
        if candidate[:1] in _FORM_STARTS:
            return False
        cut = min((i for i in (candidate.find(c) for c in _FORM_STARTS) if i > 0), default=-1)
        return cut > 0 and self.equals(candidate[cut:])

    def names_word(self, word: Word) -> bool:
        # Every candidate is a piece of the word's text and a name of the transcript spells its
        # last segment, so a word without that spelling is decided without splitting it.
        if self.last not in word.text:
            return False
        # An opaque token's text still counts: `chmod 000 $HOME/…/session.jsonl` names it.
        return any(self.names(c) for c in path_candidates(word.text, word.opaque))

    def names_span(self, span: UnreadSpan) -> bool:
        return any(self.names(c) for c in _unread_candidates(span))


def judge_transcript_line(text: str, target: TranscriptTarget) -> str | None:
    """The break reason for one command string, or None when it leaves the transcript alone."""
    if target.inert:
        return None
    return _script(tokenize(text), target, 0, True)


def _script(script: Script, target: TranscriptTarget, depth: int, outer_fully_read: bool) -> str | None:
    for span in script.unread:
        if target.names_span(span):
            return TRANSCRIPT_UNREAD.format(path=target.path)
    fully_read = outer_fully_read and script.fully_read
    feeds = _feeds_executor(script.commands)
    for k, cmd in enumerate(script.commands):
        reason = _command(cmd, target, fully_read, feeds[k]) or _nested(cmd, target, depth, fully_read)
        if reason is not None:
            return reason
    return None


def _command(cmd: SimpleCommand, target: TranscriptTarget, fully_read: bool, feeds_executor: bool) -> str | None:
    path = target.path
    # (a) precise rules; they only fire on a write redirect or under a `tee`/`sed` head
    if cmd.redirects or (cmd.words and _basename(cmd.words[0].text) in ("tee", "sed")):
        for rule, detect in _RULES:
            for word in detect(cmd):
                if target.names_word(word):
                    return TRANSCRIPT_RULE.format(rule=rule, path=path)
    # (b) mention scan over words and redirect targets (heredoc bodies are data)
    if not any(target.names_word(w) for w in cmd.words) and not any(
        target.names_word(r.target) for r in cmd.redirects
    ):
        return None
    # (c) is shell-mod's alone. (d) an unknowable write target beside the mention
    if any(_is_write_redirect(r) and r.target.opaque for r in cmd.redirects):
        return TRANSCRIPT_OPAQUE_TARGET.format(path=path)
    # (e) read-only proof, only on a fully read line
    words: Sequence[Word] = cmd.words
    if (
        fully_read
        and words
        and _basename(words[0].text) not in NESTED_SHELLS
        and not feeds_executor
        and (_allowlisted(words) or _conditional_reader(words))
    ):
        return None
    # (f) backstop
    head = words[0].text if words else cmd.redirects[0].operator
    return TRANSCRIPT_UNPROVEN.format(head=head, path=path)


def _nested(cmd: SimpleCommand, target: TranscriptTarget, depth: int, fully_read: bool) -> str | None:
    """Judge the script a nested shell runs when its text is known (a heredoc fed to `bash`)."""
    inner = cmd.words[_unwrap(cmd.words)[0] :]
    if not inner or inner[0].opaque or _basename(inner[0].text) not in NESTED_SHELLS:
        return None
    sources, _ = _shell_script_sources(inner, cmd)
    for text in sources:
        if depth >= _MAX_NESTING:
            # Too deep to read: judge the script as unread text (fail closed on a mention).
            script = Script((), (UnreadSpan(text, "nesting too deep", 0),), ())
        else:
            script = tokenize(text)
        reason = _script(script, target, depth + 1, fully_read)
        if reason is not None:
            return reason
    return None
