"""Stage 5 of the shell analysis: the `shell-mod` judgment (spec 04 §7.2, §8.5; issue 11).

`judge_shell_mod(text, protected, root=..., home=...) -> ShellModResult` walks the command string
(`analysis.Walk`) and judges each command with the ladder of §8.5, now fed by the effect model:

- untokenizable text that spells a protected path breaks;
- a command that removes, moves or otherwise writes the project root or a directory above it
  reaches every entry;
- (a) the precise rules: a redirect, `tee` or `sed -i` whose target is (or can match) a
  protected path; then the effects no single word spells: a write through a symbolic link, an
  archive's members, a patch's targets, `find -delete`, `git checkout <branch>` and the other
  commands that rewrite the work tree, `cp -r x/. dest` and the names a command derives;
- (b) the mention scan over the expanded words and redirect targets: literal mentions by path
  segment (§8.4), glob patterns that can match a protected path or one of its ancestors, code
  (interpreter `-c`/`-e` text, stdin programs, scripts the line wrote) with string fragments
  joined;
- (c) a mention inside an opaque token, unless a command that only reads takes it as an operand;
- (d) an opaque write target beside a mention;
- (e) read-only proof: the line was fully read, the command is modelled, nothing on the line
  redefined its name, its output does not feed a stage that executes it, and every mention is
  an operand the model proves it only reads (or a pattern, message or mode);
- (f) otherwise the backstop breaks.

`ShellModResult(broken, subject, kind, reason)`: `subject` is the protected entry the command
reached (the first in config order), or the first entry when the text could not be read or the
command's reach is unknown (fail-closed routing), or None; `kind` is one of `BREAK_*`.
"""

from __future__ import annotations

import re
from functools import partial
from collections.abc import Callable, Sequence

import msgspec

from polydeukes.stdlib.shell import effects as E
from polydeukes.stdlib.shell import viewers
from polydeukes.stdlib.shell.analysis import (
    UNKNOWN_DIRECTORY,
    BUILTINS,
    CONTAINER_ENGINES,
    DANGEROUS_ENVIRONMENT,
    EXEC_OPTION_PROGRAMS,
    MAX_NESTING,
    NESTED_SHELLS,
    NESTING_TOO_DEEP,
    PROJECT_TOOLS,
    PYTHON_TOOLS,
    FORMATTERS,
    FORMATTER_MODULES,
    Context,
    GlobOptions,
    QuietCommand,
    View,
    Walk,
    basename,
    configuration_reader,
    is_write_redirect,
    shell_options,
    untrusted_program_path,
)
from polydeukes.stdlib.shell.coded import changes_case, decoded_variants, made_text
from polydeukes.stdlib.shell.startup import NAMES as _STARTUP_NAMES, row_of as startup_row
from polydeukes.stdlib.shell.expansion import (
    ONE,
    Arg,
    compile_pattern,
    escape_pattern,
    compile_segment,
    segment_matches,
    pathspec_reaches,
    pattern_reaches,
    resolve_pattern,
    unknown_tail,
)
from polydeukes.stdlib.shell.paths import (
    absolute_segments,
    anchored_match,
    comparable,
    dot_resolve,
    path_candidates,
    relative_parts,
    root_segments,
    segments,
    segments_match,
    tail_can_name,
)
from polydeukes.stdlib.shell.tokenizer import W_GLOB, UnreadSpan, Word
from polydeukes.vm.sre import LazyPattern

__all__ = [
    "BREAK_CODE_MENTION",
    "BREAK_CONTAINS_PROTECTED",
    "BREAK_EFFECT",
    "BREAK_OPAQUE_MENTION",
    "BREAK_OPAQUE_WRITE_TARGET",
    "BREAK_PATTERN",
    "BREAK_PRECISE_WRITE",
    "BREAK_REDEFINED",
    "BREAK_UNPROVEN_MENTION",
    "BREAK_UNREADABLE",
    "BREAK_UNTOKENIZABLE_MENTION",
    "ShellModResult",
    "judge_shell_mod",
]

BREAK_PRECISE_WRITE = "precise-write"  # (a) a detected write lands on a protected path
BREAK_CONTAINS_PROTECTED = "contains-protected"  # a write to the project root or above it
BREAK_EFFECT = "effect"  # a modelled effect reaches a protected path no word spells
BREAK_OPAQUE_MENTION = "opaque-mention"  # (c) mention inside a substitution or expansion
BREAK_OPAQUE_WRITE_TARGET = "opaque-write-target"  # (d) unknowable write target beside a mention
BREAK_PATTERN = "pattern"  # a glob that can match a protected path, outside a read
BREAK_CODE_MENTION = "code-mention"  # code passed as data mentions a protected path
BREAK_REDEFINED = "redefined"  # a name the line redefined is called
BREAK_UNREADABLE = "unreadable"  # what decides the effect cannot be read within bounds
BREAK_UNPROVEN_MENTION = "unproven-mention"  # (f) mention without read-only proof
BREAK_UNTOKENIZABLE_MENTION = "untokenizable-mention"  # unread text mentions a protected path

# Break messages (spec 04 §7.2 / §8.5 for the first six; the rest are this issue's).
UNTOKENIZABLE = "untokenizable command line mentions protected path {p}"
PRECISE = "{rule} targets protected path {p}"
CONTAINS_REMOVED = "{head} removes or moves a directory that contains protected path {p}"
CONTAINS_WRITTEN = "{head} {verb} a directory that contains protected path {p}"
OPAQUE_MENTION = "protected path {p} inside an opaque token"
OPAQUE_TARGET = "opaque redirect target alongside protected path {p}"
UNKNOWN_PREFIX = "{head} {what} {word} can be protected path {p}: its value before {tail!r} is unknown"
_COMPUTED = "PDKS_MAKE_COMPUTED"  # (makefiles.COMPUTED's name, without importing makefiles)
COMPUTED_WRITE = "{head} {what} {word} can be protected path {p}: make computes a value this reading does not"
UNKNOWN_BASE = "{head} {what} {word} can be protected path {p}: {base} is unknown"
UNPROVEN = "{head} mentions protected path {p} without read-only proof"
PATTERN = "{head} pattern {word} can match protected path {p}"
UNFOLLOWED_LINKS = "{head} writes {path}, whose symbolic links cannot be followed: {why}"
THROUGH_HARD_LINK = "{head} writes {path}, another name (a hard link) of a file of protected path {p}"
THROUGH_SYMLINK = "{head} writes through symbolic link {path} into protected path {p}"
THROUGH_LINE_LINK_UNKNOWN = ("{head} writes {path} through a symbolic link the line makes, which leads where "
                             "the walk cannot tell")
WHOLE_TREE = "{what} rewrites the work tree, which holds protected path {p}"
# remotes.py: a tree whose names come from a bucket, a repository, a backup (not the line)
REMOTE_TREE = "{what} copies a remote tree into {path}, which may write protected path {p}"
REMOTE_MOUNT = "{what} mounts a remote tree over {path}, which may write protected path {p}"
REMOTE_PROFILE = ("{what} synchronizes roots its profile names, which the line does not show: "
                  "they may hold protected path {p}")
_REMOTE_TEMPLATES = {"remote": REMOTE_TREE, "remote-mount": REMOTE_MOUNT, "remote-profile": REMOTE_PROFILE}
SKIPS_HOOK = "{what} {how} skips {hooks}"
REDIRECTS_HOOKS = "{what} can point core.hooksPath elsewhere, which takes {hooks} out of use"
# Every hook git runs (githooks(5)): a new core.hooksPath takes any of them out of use.
GIT_HOOKS = frozenset({
    "applypatch-msg", "pre-applypatch", "post-applypatch", "pre-commit", "pre-merge-commit",
    "prepare-commit-msg", "commit-msg", "post-commit", "pre-rebase", "post-checkout", "post-merge",
    "pre-push", "pre-receive", "update", "proc-receive", "post-receive", "post-update",
    "reference-transaction", "push-to-checkout", "pre-auto-gc", "post-rewrite",
    "sendemail-validate", "fsmonitor-watchman", "p4-changelist", "p4-prepare-changelist",
    "p4-post-changelist", "p4-pre-submit", "post-index-change",
})
UNLISTED_ARCHIVE = ("{head} extracts {archive} into a directory that holds protected path {p}, "
                    "and its members cannot be listed: {why}")
UNLISTED_ANYWHERE = ("{head} extracts {archive}, whose member names are written as they are (absolute, or "
                     "climbing with ..), and its members cannot be listed: {why}; one may be protected path {p}")
# (munpack, ripmime, uudeview: archivers.mime_decoder)
NAMED_BELOW = "{head} writes files named inside its input below {path}, which can make one protected path {p}"
# (python3 -m compileall, -m py_compile: pymodules._bytecode)
BYTECODE = "{head} writes compiled bytecode (__pycache__, .pyc) for the sources below {path}, which reaches protected path {p}"
# (uudecode's `begin` line, gunzip -N's stored name: the output's name is data in the input)
UNREAD_NAMES = "{head} writes a file named inside {archive}, which cannot be read ({why}): it may be protected path {p}"
UNKNOWN_DESTINATION = "{head} writes {member} below {word}, which can make it protected path {p}"
UNREAD_PATCH = "{head} applies a patch that cannot be read ({why}) where protected path {p} lies"
FIND_DELETE = "find -delete can remove protected path {p}"
FIND_EXEC = "{action} {name} gets protected path {p} as {{}} without read-only proof"
LISTED = "{name} gets protected path {p} from {lister} without read-only proof"
LISTED_TARGET = "redirect-write targets protected path {p} from {lister}"
DERIVED = "{head} {verb} {path}, which reaches protected path {p}"
CODE = "{head} runs code that mentions protected path {p}"
REDEFINED = "{name} is called after this line redefines it ({how})"
REWRITTEN = "{head} runs what {stage} makes of the text on its way through the pipeline, which cannot be judged"
WRITTEN_SCRIPT = "{head} runs {path}, which this line writes with content this layer does not compute"
FEEDS_PROCESS = "{head} writes into {process}, which runs what it reads: code this layer does not read"
UNREADABLE_ITEMS = "{head} takes operands from a file that cannot be read within bounds ({why})"
CONFIGURATION_HOME = "{head} runs with {setting}, where it may read configuration files of its own, which cannot be judged"
SCRIPT_MENTION = "{runner} runs {path}, which mentions protected path {p}"
SCRIPT_CODE = "{runner} runs {path}, whose code mentions protected path {p}"
UNREADABLE_SCRIPT = "{runner} runs {path}, which cannot be read within bounds ({why})"
MADE_OF_DATA = "{runner} {what} from the text of {path}, which cannot be judged"
LISTED_RUN = "{name} runs the files {lister} lists, which cannot be judged"
TOO_DEEP = "{text} runs more than {depth} levels deep (scripts, shells and substitutions that run one another), which cannot be judged"
UNREADABLE_PASSED = ("{head} passes {path} on to a stage that runs what it reads, and it cannot be read "
                     "within bounds ({why})")
IMPORTED = "{head} runs code that imports {module}, which mentions protected path {p}"
STARTUP_CODE = "{head} runs {path} at start-up, whose code mentions protected path {p}"
STARTUP_UNREADABLE = "{head} runs {path} at start-up, which cannot be read within bounds ({why})"
STARTUP_STATE = "{head} restores {path} at start-up, saved state whose code (R's .First) cannot be judged"
STARTUP_SETTING = "{head} reads {path} at start-up, which sets {variable}: what that points it to cannot be judged"
NAMED_SCRIPT = "{head} runs code that names {module}, which mentions protected path {p}"
UNREADABLE_MODULE = "{head} runs code that imports {module}, which cannot be read within bounds ({why})"
REWRITTEN_WORD = "{head} takes a word that {stage} makes of text on the line, which cannot be judged"
UNREADABLE_PRINTED = "{head} takes the text of {path} as words, and it cannot be read within bounds ({why})"
REWRITTEN_OPERANDS = ("{head} takes operands that {stage} makes of text on its way through the pipeline, "
                      "which cannot be judged")
WRITTEN_ITEMS = "{head} takes operands from {path}, which this line writes with content this layer does not compute"
WRITTEN_PASSED = ("{head} passes {path} on to a stage that runs what it reads, and this line writes it with "
                  "content this layer does not compute")
OPTION_GLOB = "{head} pattern {word} can expand to {name}, which it takes as an option: what it then does cannot be judged"
MADE = "{head} takes {word}, whose value {how}, which cannot be judged"
VIEWER_COMMANDS = "{head} runs {what} as commands of its own, which cannot be judged"
ROOTED = "{head} runs its command with {root} as its root directory, where its paths name other files, which cannot be judged"
VIEWER_SETTING = "{head} runs with {what}, which gives less commands of its own that cannot be judged"
VIEWER_LOG = "{head} runs with {what}, which makes less write a log file that cannot be judged"
VIEWER_OPERANDS = ("{head} takes operands this layer cannot read, and runs one that begins with + as a command "
                   "of its own, which cannot be judged")
MADE_IN_CODE = "{head} runs code that makes text from {how} and calls {call}, which cannot be judged"
MADE_IN_SCRIPT = "{runner} runs {path}, whose code makes text from {how} and calls {call}, which cannot be judged"
MADE_IN_MODULE = ("{head} runs code that imports {module}, whose code makes text from {how} and calls {call}, "
                  "which cannot be judged")


# Commands that cannot concern an entry are judged from their tokens, without a view
# (`Walk(spells=...)`); False views every command (tests compare the two readings).
QUIET_COMMANDS = True

# The kernel's names of a working directory or a directory descriptor, with the slash after
# them, inside program text (`code_index`).
_PROCESS_DIRECTORY_IN_CODE = LazyPattern(r"/proc/[^/\s'\"]+/(?:cwd|fd/[0-9]+)/|/dev/fd/[0-9]+/")
# A word that is the home directory or a path below it spelled with the variable: `$HOME/x`.
# (`${HOME[@]}`, `${HOME:-x}` are the home directory too: HOME is set where an agent runs)
_PDB_STATEMENT = LazyPattern(r"(?m)^[ \t]*!")  # (a `.pdbrc` line `!stmt`: the statement pdb runs)
_HOME_WORD = LazyPattern(r"\$(?:HOME|\{HOME(?:\[[@*0]\]|:?[-=][^{}$`]*)?\})(/[^$`]*)?")

# Inline code that reads its stdin (Python's `sys.stdin`, `input()`, node's `readFileSync(0)` and
# `process.stdin`, Perl's `<STDIN>` and `<>`, Ruby's `$stdin`, `STDIN`, `gets`, `ARGF`, PHP's
# `php://stdin`, Lua's `io.read`, `/dev/stdin`).
_CODE_READS_STDIN = LazyPattern(r"stdin|STDIN|\binput\s*\(|readFileSync\(\s*0\b|<>|\bgets\b|\bARGF\b|\bio\.read\b"
                                r"|\bio\.lines\b|\breadline\b")
# A variable in an unquoted heredoc body (`$D`, `${D}`; `\$D` is text).
_BODY_VARIABLE = LazyPattern(r"(?<!\\)\$(?:\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*))")
# `opaque_mentions`' marker for a read redirect's target (`-1`: any other redirect target).
_READ_TARGET = -2
_NAMES_FROM_STDIN = frozenset({"read", "mapfile", "readarray"})
_VIEWERS_AND_PAGER_USERS = viewers.VIEWERS | viewers.PAGER_USERS
# Models whose program is code that may import the project's modules or run its scripts.
_CODE_HANDLERS = frozenset({"interpreter", "awk", "sed"})

# Link members of one archive followed in a row to place a member below them (`_member_paths`).
_LINK_HOPS = 8

# Effects on a directory that carry its whole content with them.
_CONTAINING = frozenset({E.DELETE, E.MOVE, E.CHMOD})
# Roles of a path that write at most that one file (given a directory, they reach nothing below).
_SINGLE_FILE_WRITES = E.HARMLESS | {E.WRITE, E.CREATE, E.LINK}


# Values git reads as false for a boolean environment variable (git_env_bool).
_GIT_FALSE = frozenset({"", "0", "false", "no", "off"})


def _feeder(view: View) -> str:
    """The program that hands a command the operands it reads (`xargs`, or GNU `parallel`
    reading them the same way, round 7), as a message names it."""
    return "parallel" if view.wrapper == "parallel" else "xargs"

class ShellModResult(msgspec.Struct, frozen=True):
    broken: bool
    subject: str | None
    kind: str | None
    reason: str | None


# -- matching against the protected entries ----------------------------------------------------


def _on_branch(cwd: tuple[str, ...], target: list[str]) -> bool:
    """Is the directory `cwd` above, at or inside the absolute entry `target`?"""
    n = min(len(cwd), len(target))
    # The last shared segment first: most directories differ there, and it spares copying a
    # deep directory per entry (a script that keeps `cd`-ing down paid for its whole depth).
    if n and cwd[n - 1] != target[n - 1]:
        return False
    return list(cwd[:n]) == target[:n]


def _names_in(text: str, name: str, inside) -> bool:
    """Does `name` stand in `text` with no character `inside` accepts on either side (`rm
    ci/gate.sh`, not `xci/gate.shy`)? (`str.find`, not a regular expression with look-arounds:
    a compiled program runs to megabytes.)"""
    at = text.find(name)
    while at >= 0:
        end = at + len(name)
        if (at == 0 or not inside(text[at - 1])) and (end == len(text) or not inside(text[end])):
            return True
        at = text.find(name, at + 1)
    return False


def _name_character(c: str) -> bool:
    """A character a file name around a path may hold."""
    return c.isalnum() or c in "_.+-"


def _printable(c: str) -> bool:
    """A character of a string of printable ASCII (a C literal ends at its NUL)."""
    return " " <= c <= "~"


class Protected:
    """The protected entries with their segments precomputed, plus the matching context.

    Every comparison goes through `paths.comparable` with `fold_case`, so a project on a
    case-folding file system switches matching to case-insensitive in one place."""

    def __init__(self, entries: Sequence[str], root: str, home: str | None, fold_case: bool = False) -> None:
        # (each entry split once: the judge is made once per check, and splitting twice cost
        # the typical line about 2 % of its instructions)
        kept: list[str] = []
        self.segs: list[list[str]] = []
        for e in entries:
            if isinstance(e, str):
                segs = segments(comparable(e, fold_case))
                if segs:
                    kept.append(e)
                    self.segs.append(segs)
        self.entries = kept
        self.fold = fold_case
        self.resolved = [dot_resolve(s) for s in self.segs]
        resolved_firsts = {s[0] for s in self.resolved if s}
        self.resolved_firsts = frozenset(resolved_firsts)
        # Without case folding a substring test per first segment answers `spelled_in`: compiling
        # the alternation of them cost a shell call more (about 1 M instructions) than the few
        # texts it is asked about save. With folding, one case-insensitive alternation.
        self.firsts = tuple(sorted(resolved_firsts.union([s[0] for s in self.segs])))
        self.spelled = (re.compile("|".join(re.escape(f) for f in self.firsts), re.IGNORECASE)
                        if fold_case and self.firsts else None)
        self.root = root
        # (folding the root's text folds each of its segments: casefold makes no `/`)
        root_segs = root_segments(comparable(root, fold_case))
        self.root_segs: tuple[str, ...] | None = tuple(root_segs) if root_segs is not None else None
        self.home = home if _valid_home(home) else None
        self.absolute = ([[*self.root_segs, *r] for r in self.resolved] if self.root_segs is not None else None)
        # Memos for one judged command string (see `segment_match`, `first_in_text`).
        self.segment_matches: dict[str, int] = {}
        # (word text, opaque) -> [spells an entry's first segment, its path candidates or None]
        self.tokens: dict[tuple[str, bool], list] = {}
        self._last_cwd: tuple[str, ...] | None = None
        self._last_cwd_spelled = False
        self._last_cwd_off_branch = False
        self._pattern_hits: dict[tuple, list[int]] = {}
        self._matches_cwd: tuple[str, ...] | None = None
        self._matches: dict[tuple[str, bool], int] = {}
        self._matches_off_first = False
        self._off_first_matches: dict[tuple[str, bool], int] = {}

    def compiled_index(self, program: str, cwd: tuple[str, ...] | None) -> int:
        """The first entry a compiled program names, -1 for none (`program`: its bytes, one
        character each). A name is its strings' literal text: the entry's path, from the root,
        absolute, or from the directory the program runs in, between characters no name holds
        (`"rm -f ci/gate.sh"`, `"/home/u/proj/ci/gate.sh"`); or each of the path's names a
        string of its own (`chdir("ci"); unlink("gate.sh")`). Patterns do not count: a program's
        strings are full of regular expressions and formats, which would match anything."""
        if self.fold:
            program = program.lower()
        for index, segs in enumerate(self.segs):
            spellings = ["/".join(segs)]
            if self.absolute is not None:
                absolute = self.absolute[index]
                spellings.append("/" + "/".join(absolute))
                if cwd is not None and len(cwd) < len(absolute) and tuple(absolute[: len(cwd)]) == tuple(cwd):
                    spellings.append("/".join(absolute[len(cwd) :]))
            if any(_names_in(program, spelling, _name_character) for spelling in spellings):
                return index
            if len(segs) > 1 and all(_names_in(program, seg, _printable) for seg in segs):
                return index
        return -1

    def spelled_in(self, text: str) -> bool:
        """Cheap pre-filter: any literal match needs some entry's first segment spelled in the
        text (or in the working directory that supplies its leading segments)."""
        if self.spelled is None:
            for first in self.firsts:
                if first in text:
                    return True
            return False
        return self.spelled.search(text) is not None

    def cwd_spelled(self, cwd: tuple[str, ...] | None) -> bool:
        """Does the working directory supply an entry's first segment (relative paths there
        can name an entry without spelling it)?"""
        if cwd is None or self.root_segs is None or len(cwd) <= len(self.root_segs):
            return False
        if cwd is not self._last_cwd:  # the walk hands the same tuple until the next `cd`
            self._last_cwd = cwd
            self._last_cwd_spelled = self.spelled_in("/".join(cwd[len(self.root_segs) :]))
            self._last_cwd_off_branch = not any(_on_branch(cwd, target) for target in self.absolute)
        return self._last_cwd_spelled

    def off_branch(self, cwd: tuple[str, ...] | None) -> bool:
        """Is the working directory on no protected entry's branch (neither above nor inside
        one)? Then a relative pattern without `..` cannot reach any entry."""
        if cwd is None or self.absolute is None:
            return False
        self.cwd_spelled(cwd)
        return cwd is self._last_cwd and self._last_cwd_off_branch

    def match(self, candidate: str, cwd: tuple[str, ...] | None, cwd_spelled: bool = False) -> int:
        """Index of the first entry `candidate` names (list order), or -1.

        `cwd` is the absolute directory the command runs in, or None when unknown (relative
        candidates are then not resolved against the root).

        Memoised per directory (the walk hands the same tuple until the next `cd`, so the key
        is not hashed with the whole directory): scripts repeat their paths, and resolving one
        against the root builds lists per call (the benchmark's `for f in src/*.py` loop: 16%
        of its instructions)."""
        if cwd is not self._matches_cwd:
            self._matches_cwd = cwd
            self._matches = {}
            root = self.root_segs
            # Below the root in a directory whose first segment starts no entry, a plain
            # relative path cannot name an entry anchored (see `relative`): its answer is the
            # same in every such directory, so it is kept across them (a script that keeps
            # `cd`-ing resolved its paths again after every `cd`).
            self._matches_off_first = (root is not None and cwd is not None and len(cwd) > len(root)
                                       and cwd[len(root)] not in self.resolved_firsts and cwd[: len(root)] == root)
        key = (candidate, cwd_spelled)
        index = self._matches.get(key)
        if index is None:
            if self._matches_off_first and candidate[:1] not in "/~$" and "." not in candidate:
                index = self._off_first_matches.get(key)
                if index is None:
                    index = self._off_first_matches[key] = self._match(candidate, cwd, cwd_spelled)
            else:
                index = self._match(candidate, cwd, cwd_spelled)
            self._matches[key] = index
        return index

    def _match(self, candidate: str, cwd: tuple[str, ...] | None, cwd_spelled: bool) -> int:
        candidate = comparable(candidate, self.fold)
        if not cwd_spelled and not self.spelled_in(candidate):
            return -1
        # An entry is named by the candidate's segments or, resolved against the root, by an
        # anchored match; the first entry named either way is the lower of the two first
        # indices, and only the anchored one depends on `cwd`.
        first = self.segment_match(candidate)
        if first == 0 or self.root_segs is None:
            return first
        if cwd is None and not candidate.startswith(("/", "~", "$")):
            return first
        rel = self.relative(candidate, cwd if cwd is not None else self.root_segs)
        if rel and rel[0] in self.resolved_firsts:  # else no entry can match it anchored
            for index in range(first if first >= 0 else len(self.resolved)):
                if anchored_match(rel, self.resolved[index]):
                    return index
        return first

    def relative(self, candidate: str, cwd: Sequence[str]) -> list[str] | None:
        """`candidate` spelled in the absolute directory `cwd`, relative to the root (None
        outside it, or when a plain relative candidate's path starts with a segment no entry
        starts with: it cannot match anchored)."""
        root = self.root_segs
        if not candidate.startswith(("/", "~", "$")) and cwd[: len(root)] == root:
            parts = [seg for seg in candidate.split("/") if seg]
            if parts and "." not in parts and ".." not in parts:
                # The path's first segment is known before the path is built, and building it
                # copies the whole directory (the benchmark's script `cd`s a level deeper in
                # every block, up to 100 levels; with escape_pattern's regex: 126.6M -> 125.7M).
                if (cwd[len(root)] if len(cwd) > len(root) else parts[0]) not in self.resolved_firsts:
                    return None
                return [*cwd[len(root) :], *parts]
        absolute = absolute_segments(candidate, cwd, self.home)
        if absolute is None or tuple(absolute[: len(root)]) != root:
            return None
        return absolute[len(root) :]

    def segment_match(self, candidate: str) -> int:
        """Index of the first entry the candidate's raw or dot-resolved segments name, or -1.

        Memoised per candidate: it does not depend on the working directory, and scripts
        repeat their paths."""
        index = self.segment_matches.get(candidate)
        if index is None:
            a = segments(candidate)
            a_resolved = dot_resolve(a)  # `a` itself when it has no dot segment
            index = -1
            for k, b in enumerate(self.segs):
                if segments_match(a, b) or (a_resolved is not a and segments_match(a_resolved, b)):
                    index = k
                    break
            self.segment_matches[candidate] = index
        return index

    def first_in_text(self, text: str, opaque: bool, cwd: tuple[str, ...] | None, cwd_spelled: bool) -> int:
        """Index of the first entry a path candidate of a word's text names, or -1."""
        # Memoised per word like the candidates: scripts repeat their words, and a dict lookup
        # costs less than the regular expression it saves.
        key = (text, opaque)
        token = self.tokens.get(key)
        if token is None:
            token = self.tokens[key] = [self.spelled_in(text), None]
        if not cwd_spelled and not token[0]:
            return -1  # candidates are pieces of the text: none of them spells an entry either
        candidates = token[1]
        if candidates is None:
            candidates = token[1] = path_candidates(text, opaque)
        # (Without case folding a candidate that is the whole text is spelled: checked above.)
        whole = not self.fold
        for candidate in candidates:
            index = self.match(candidate, cwd, cwd_spelled or (whole and candidate == text))
            if index >= 0:
                return index
        return -1

    def pattern_hits(self, pattern: str, cwd: tuple[str, ...] | None, glob) -> list[int]:
        """The entries a pathname pattern can match (itself, an ancestor, or inside it), in
        list order. Under an unknown directory a relative pattern may be anchored anywhere."""
        if self.absolute is None:
            return []
        if not pattern.startswith(("/", "~", "..")) and "/.." not in pattern and self.off_branch(cwd):
            return []
        key = (pattern, cwd, glob.dotglob, glob.extglob, glob.globstar, glob.nocaseglob)
        found = self._pattern_hits.get(key)
        if found is None:
            found = self._pattern_hits[key] = self._pattern_hits_of(pattern, cwd, glob)
        return found

    def _pattern_hits_of(self, pattern: str, cwd: tuple[str, ...] | None, glob) -> list[int]:
        compiled = list(compile_pattern(comparable(pattern, self.fold), extglob=glob.extglob,
                                        globstar=glob.globstar))
        if not compiled:
            return []
        dotglob = glob.dotglob
        fold = glob.nocaseglob or self.fold
        if pattern.startswith("/"):
            anchor: list[str] = []
        elif pattern.startswith("~/") or pattern == "~":
            if self.home is None:
                return []
            anchor = [comparable(s, self.fold) for s in self.home.split("/") if s]
            compiled = compiled[1:]
        elif cwd is None:
            return self._unanchored_pattern_hits(compiled, dotglob, fold)
        else:
            anchor = [comparable(s, self.fold) for s in cwd]
        # Leading `.` and `..` are plain directory steps from the anchor.
        k = 0
        while k < len(compiled) and compiled[k].literal in (".", ".."):
            if compiled[k].literal == ".." and anchor:
                anchor.pop()
            k += 1
        rest = resolve_pattern(compiled[k:])
        depth = len(anchor)
        hits = []
        for index, target in enumerate(self.absolute):
            if target[:depth] == anchor:
                if pattern_reaches(rest, target[depth:], dotglob=dotglob, fold=fold):
                    hits.append(index)
            elif anchor[: len(target)] == target:
                hits.append(index)  # the pattern runs inside the entry: what it matches lies in it
        return hits

    def _unanchored_pattern_hits(self, compiled: list, dotglob: bool, fold: bool) -> list[int]:
        """A relative pattern under an unknown directory may be anchored anywhere."""
        if any(segment.literal == ".." for segment in compiled):
            return list(range(len(self.entries)))
        hits = []
        for index, target in enumerate(self.absolute):
            if any(pattern_reaches(compiled, target[k:], dotglob=dotglob, fold=fold)
                   for k in range(len(target) + 1)):
                hits.append(index)
        return hits

    def pathspec_hits(self, pathspec: str, cwd: tuple[str, ...] | None, fold: bool,
                      may_hold: Callable[[int, Callable[[str], bool]], bool]) -> list[int]:
        """The entries a git pathspec (joined with git's directory) can match the way git
        matches it (`pathspec_reaches`: `*`, `?` and `[…]` cross `/`). The literal directory
        before the first wildcard anchors it. Where the pattern could match a path below an
        entry, `may_hold(index, accept)` tells whether the entry holds one it `accept`s."""
        if self.absolute is None:
            return []
        fold = fold or self.fold
        cut = min((pathspec.find(c) for c in "*?[" if c in pathspec), default=len(pathspec))
        head, slash, _ = pathspec[:cut].rpartition("/")
        directory, rest = (head or "/", pathspec[len(head) + 1 :]) if slash else (".", pathspec)
        anchor = None
        if cwd is not None or directory.startswith(("/", "~")):
            anchor = absolute_segments(comparable(directory, self.fold), cwd if cwd is not None else (), self.home)
            if anchor is None:
                return []
            if fold:
                anchor = [s.casefold() for s in anchor]
        hits = []
        for index, target in enumerate(self.absolute):
            spelled = [s.casefold() for s in target] if fold else target
            if anchor is None:
                starts: Sequence[int] = range(len(target) + 1)  # an unknown directory: anywhere
            elif spelled[: len(anchor)] == anchor:
                starts = (len(anchor),)
            elif anchor[: len(target)] == spelled:
                hits.append(index)  # the pathspec lies inside the entry
                continue
            else:
                continue
            if any(pathspec_reaches(rest, target[k:], fold=fold, inside=False) for k in starts):
                hits.append(index)
                continue
            below = [k for k in starts if pathspec_reaches(rest, target[k:], fold=fold)]
            if below and may_hold(index, lambda path: any(
                    pathspec_reaches(rest, [*target[k:], *path.split("/")], fold=fold, inside=False) for k in below)):
                hits.append(index)
        return hits

    def tree_hits(self, path: str, cwd: tuple[str, ...] | None) -> list[int]:
        """The entries on the same branch as a directory whose whole subtree an effect may
        write: the entry lies below it, or it lies inside the entry."""
        if self.absolute is None or cwd is None and not path.startswith(("/", "~")):
            return list(range(len(self.entries))) if self.absolute is not None and path in (".", "") else []
        absolute = absolute_segments(comparable(path, self.fold) or ".", cwd if cwd is not None else (), self.home)
        if absolute is None:
            return []
        hits = []
        for index, target in enumerate(self.absolute):
            shorter = min(len(absolute), len(target))
            if absolute[:shorter] == target[:shorter]:
                hits.append(index)
        return hits

    def anchored_hits(self, path: str, cwd: tuple[str, ...] | None) -> list[int]:
        """The entries a path resolved against its directory is, lies inside, or contains."""
        if self.root_segs is None or (cwd is None and not path.startswith(("/", "~"))):
            index = self.match(path, None)
            return [index] if index >= 0 else []
        absolute = absolute_segments(comparable(path, self.fold), cwd if cwd is not None else (), self.home)
        if absolute is None:
            return []
        return self.absolute_entry_hits(absolute)

    def contains_root(self, path: str, cwd: tuple[str, ...] | None) -> bool:
        """Does `path` (spelled in `cwd`) name the project root or a directory above it?"""
        if self.root_segs is None or (cwd is None and not path.startswith(("/", "~"))):
            return False
        absolute = absolute_segments(comparable(path, self.fold), cwd if cwd is not None else (), self.home)
        return absolute is not None and list(self.root_segs[: len(absolute)]) == absolute

    def absolute_entry_hits(self, absolute: list[str]) -> list[int]:
        """The entries an absolute path is, lies inside, or contains."""
        if self.absolute is None:
            return []
        folded = [comparable(s, self.fold) for s in absolute]
        hits = []
        for index, target in enumerate(self.absolute):
            shorter = min(len(folded), len(target))
            if folded[:shorter] == target[:shorter] and (len(folded) >= len(target) or len(folded) > len(self.root_segs)):
                hits.append(index)
        return hits


def _valid_home(home: str | None) -> bool:
    # `/` is a home like any other (`~/home/u/proj` is then the project); None, '' and a
    # relative path leave `~` unknown (see `_Judge.unknown_base`).
    return isinstance(home, str) and home.startswith("/") and ".." not in home.split("/")


def unread_candidates(span: UnreadSpan) -> list[str]:
    """§8.4.4: the span text (quotes and backslashes removed) plus its operator-split fragments,
    plus (Python design) each fragment's word candidates, so `$(rm -rf src/core` — unread up to
    the end — still mentions `src/core` although the path is not at a fragment boundary."""
    text = span.text.replace("'", "").replace('"', "").replace("\\", "")
    out = [text] if text else []
    for fragment in re.split(r"[;&|<>]+", text):
        if fragment and fragment != text:
            out.append(fragment)
    seen = set(out)
    for fragment in list(out):
        for c in path_candidates(fragment, True):
            if c not in seen:
                seen.add(c)
                out.append(c)
    return out


# -- code passed as data -----------------------------------------------------------------------

# String literals in program text, and the operators that join them: concatenation (`+`, `.`,
# `..`, or nothing: Python's implicit concatenation) and argument lists (`,`: a path join).
_STRING_LITERAL = LazyPattern(
    r"""'((?:[^'\\\n]|\\.)*)'|"((?:[^"\\\n]|\\.)*)"|`((?:[^`\\]|\\.)*)`"""
    # Perl's quote-like operators (`q{…}`, `qq(…)`, `qw[…]`, `q/…/` …) and Ruby's (`%q{…}`,
    # `%Q(…)`, `%w[…]`, `%(…)`), and Ruby's one-character literal (`?c`)
    r"""|(?:\bq[qw]?|%[qQwW]?)\s*(?:\{([^{}\n]*)\}|\(([^()\n]*)\)|\[([^\[\]\n]*)\]|<([^<>\n]*)>)"""
    r"""|\bq[qw]?\s*(?:/([^/\n]*)/|!([^!\n]*)!|\|([^|\n]*)\|)"""
    r"""|(?<![\w?])\?([A-Za-z0-9_./-])(?![\w?])""")
# A placeholder a format fills (`%s`, `{}`, `{0}`, `{name}`, `${x}`, `#{x}`) or an f-string's
# expression that is itself a literal (`{"c"}`), inside a literal.
_PLACEHOLDER = LazyPattern(r"""%[-#0 +]*\d*(?:\.\d+)?[sdrai]|[$#]?\{(?:'([^'{}]*)'|"([^"{}]*)"|[^{}'"]*)\}""")
# `LITERAL.replace(LITERAL, LITERAL)` (Python, JavaScript's `.replace`/`.replaceAll`, Ruby's `.gsub`/`.sub`/`.tr`).
_REPLACED = LazyPattern(r"""(['"])((?:(?!\1)[^\\\n])*)\1\s*\.\s*(?:replace(?:All)?|g?sub|tr)\s*\(\s*(['"])((?:(?!\3)[^\\\n])*)\3\s*,\s*(['"])((?:(?!\5)[^\\\n])*)\5\s*\)""")
_GLOB_CHARACTER = LazyPattern(r"[*?\[]")
_GAP = 64  # code between two literals still joined as one name's pieces (`p = 'c'; f(p + 'i/x')`)
_CONCATENATION = LazyPattern(r"\s*(?:\+|\.\.?)?\s*")
_ARGUMENT = LazyPattern(r"\s*,\s*")
_CODE_LITERALS = 2000  # string literals read per program
_JOIN_WINDOW = 6  # path-join arguments combined at most
# A string literal read as a pathname pattern: no blank, a `*`, `?` or `[`, a bounded length.
_CODE_PATTERN = LazyPattern(r"(?=[^\s]*[*?\[])[^\s]{1,256}")
_CODE_GLOB = GlobOptions()  # the pattern rules of glob(3) and of Python's and Perl's globs: no dotglob


# Ruby's (and Crystal's, Elixir's, CoffeeScript's) interpolation `#{EXPR}`, whose EXPR may
# hold quotes of the string around it (`"#{"c"}i/gate.sh"`): the string literal reading stops
# at them, so the interpolations are worked out first (`_interpolated`).
_INTERPOLATION = LazyPattern(r"""#\{((?:[^{}"'\n]|"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*')*)\}""")
_ONLY_CONCATENATION = LazyPattern(r"[\s+]*")


def _interpolated(code: str) -> list[str]:
    """`code` with each interpolation whose expression holds a string literal replaced: by the
    literals' text joined (exact for `#{"c"}` and `#{'c' + 'i'}`; for any other expression a
    guess, `#{%w[c].first}`), and, in a second text, an expression that is not only literals by
    `#{x}`, a placeholder `code_candidates` fills from neighbouring literals."""
    joined: list[str] = []
    placeholders: list[str] = []
    end = 0
    for m in _INTERPOLATION().finditer(code):
        body = m.group(1)
        if "'" not in body and '"' not in body and "%" not in body and "?" not in body:
            continue
        literals = list(_STRING_LITERAL().finditer(body))
        if not literals:
            continue
        text = "".join(next(g for g in lit.groups() if g is not None) for lit in literals)
        rest = _STRING_LITERAL().sub("", body)
        joined.append(code[end : m.start()] + text)
        placeholders.append(code[end : m.start()] + (text if _ONLY_CONCATENATION().fullmatch(rest) else "#{x}"))
        end = m.end()
    if not joined:
        return []
    return ["".join(joined) + code[end:], "".join(placeholders) + code[end:]]


def code_candidates(code: str) -> list[str]:
    """Path-like texts a program spells: the code itself, each string literal, literals
    concatenated as the program would (`'.cl' + 'aude/hooks'`), and neighbouring arguments
    joined as a path join would (`os.path.join('.claude', 'hooks')`) or a string join with
    nothing between them would (`"".join(["c", "i/gate.sh"])`); a Ruby interpolation of
    literals is worked out first (`_interpolated`)."""
    out = [code]
    if "#{" in code:
        for flat in _interpolated(code):
            out.extend(code_candidates(flat)[1:])
    groups: list[list[str]] = []  # runs of arguments; each argument a concatenation
    end = -1
    values: list[str] = []  # every literal, in order
    near: list[bool] = []  # per literal after the first: is it within `_GAP` of the one before?
    for m in list(_STRING_LITERAL().finditer(code))[:_CODE_LITERALS]:
        value = next(g for g in m.groups() if g is not None)
        out.append(value)
        if "\\" in value:
            # (`"\x63i/gate.sh"`, `"\143i"`: the escapes decoded, the value joined as such)
            variants = decoded_variants(value)
            out.extend(variants)
            value = variants[0] if variants else value
        if end >= 0 and _CONCATENATION().fullmatch(code, end, m.start()):
            groups[-1][-1] += value
        elif end >= 0 and _ARGUMENT().fullmatch(code, end, m.start()):
            groups[-1].append(value)
        else:
            groups.append([value])
        if values:
            near.append(m.start() - end <= _GAP)
        values.append(value)
        end = m.end()
    # Pieces a program may join through names, formats and calls the reading does not follow
    # (round 8): neighbouring literals joined in order (`p = 'c'; os.remove(p + 'i/gate.sh')`),
    # a literal's placeholders filled with a neighbour or left empty (`'%si/gate.sh' % 'c'`,
    # `'{}i/gate.sh'.format('c')`, `f'{"c"}i/gate.sh'`), and a literal's `.replace` worked out.
    joined: list[str] = []
    for k in range(1, len(values)):
        if near[k - 1]:
            joined.append(values[k - 1] + values[k])
            if k >= 2 and near[k - 2]:
                joined.append(values[k - 2] + values[k - 1] + values[k])
    # (not read as pathname patterns: `pack("c*") + "/gate.sh"` is no glob `c*/gate.sh`)
    out.extend(j for j in joined if not _GLOB_CHARACTER().search(j))
    for k, value in enumerate(values):
        if ("%" in value or "{" in value) and _PLACEHOLDER().search(value):
            fills = {""} | {values[j] for j in range(max(0, k - 3), min(len(values), k + 4)) if j != k}
            for fill in fills:
                out.append(_PLACEHOLDER().sub(lambda m: next((g for g in m.groups() if g is not None), fill), value))
    if "replace" in code or "sub" in code or ".tr" in code:
        for m in _REPLACED().finditer(code):
            out.append(m.group(2).replace(m.group(4), m.group(6)) if m.group(4) else m.group(2))
    for group in groups:
        for k in range(len(group)):
            for width in range(1, min(_JOIN_WINDOW, len(group) - k) + 1):
                out.append("/".join(part.strip("/") for part in group[k : k + width]))
                if width > 1:
                    out.append("".join(group[k : k + width]))
    if changes_case(code):
        # (`'CI/GATE.SH'.lower()`: the literals in either case)
        out.extend([c.lower() for c in out[1:]] + [c.upper() for c in out[1:]])
    return out


# -- the judge ---------------------------------------------------------------------------------


class _Judge:
    def __init__(self, protected: Protected, text: str, root: str, home: str | None,
                 cwd: str | None = None) -> None:
        self.p = protected
        self.walk = Walk(text, root=root, home=home, wants_run=self.wants_run,
                         spells=self.spells if QUIET_COMMANDS else None, names_entry=self.names_entry, cwd=cwd)
        # (an unread span's relative names are read from the root and from the call's directory)
        self.start = self.walk.context.cwd
        self.reached: set[int] = set()
        self.unknown_reach = False  # text was unread or a reach could not be determined
        self.reason: str | None = None
        self.kind: str | None = None
        self._targets_cwd: tuple[str, ...] | None = None
        self._linked_ids: dict[tuple[int, int], int] | None = None  # (`_hard_linked`)
        self._targets_judged: set[tuple[str, bool]] = set()
        # A reason found early but judged after the command's other rules, so that a mention
        # names the entry first: code that makes text of codes and can write (coded.made_text),
        # a viewer's operands of unknown spelling.
        self.judged_last: str | None = None
        self.code_view: View | None = None  # the command whose code is read, where its directory is unknown

    def found(self, kind: str, reason: str) -> None:
        if self.reason is None:
            self.kind = kind
            # Inside a script file a command runs, the reason says which (scripts.py).
            self.reason = reason if self.walk.origin is None else f"{reason} (in {self.walk.origin})"

    def run(self) -> None:
        for event in self.walk.events():
            # The first break is kept and the subject is the lowest entry reached, so once entry
            # 0 is reached after a break nothing later can change the result.
            if self.reason is not None and 0 in self.reached:
                return
            kind = type(event)
            if kind is View:
                self.command(event)
            elif kind is UnreadSpan:
                self.unread(event)
            else:
                self.quiet(event)

    def wants_run(self, text: str, context: Context) -> bool:
        """A run of plain lines matters only if it spells an entry's first segment, or the
        directory it runs in supplies one."""
        if self.p.cwd_spelled(context.cwd):
            return True
        return self.p.spelled_in(text.replace("'", "").replace('"', "") if ("'" in text or '"' in text) else text)

    def spells(self, text: str, context: Context) -> bool:
        """Can a plain command whose words and targets read `text` name an entry (the walk
        makes no view of it otherwise)? The same test as `_mention_possible` on its view."""
        if self.p.cwd_spelled(context.cwd):
            return True
        return self.p.spelled_in(text)

    def names_entry(self, token: str, cwd: tuple[str, ...] | None) -> bool:
        """Does an opaque token, as spelled, name an entry (§8.5 (c))? The walk leaves such a
        file print (`$(cat ci/gate.sh)`) of unknown value, so the rule still reads its spelling."""
        p = self.p
        return p.first_in_text(token, True, cwd, p.cwd_spelled(cwd)) >= 0

    def quiet(self, command: QuietCommand) -> None:
        """A plain command that names no entry: its write redirects' targets, as `precise`
        judges them, may still be symbolic links into one."""
        for r, targets in command.targets:
            if is_write_redirect(r):
                for t in targets:
                    self.unspelled_target(command, t, command.cwd)

    def unread(self, span: UnreadSpan) -> None:
        self.unknown_reach = True
        if span.reason is NESTING_TOO_DEEP:
            # What runs past the last level is not read, and its own mentions would not show
            # what the scripts it runs in turn do (`bash s9.sh`): fail closed.
            text = span.text.strip().partition("\n")[0]
            self.found(BREAK_UNREADABLE, TOO_DEEP.format(text=text if len(text) <= 60 else text[:57] + "...",
                                                         depth=MAX_NESTING))
            return
        for candidate in unread_candidates(span):
            index = self.p.match(candidate, self.p.root_segs)
            if index < 0 and self.start is not self.walk.root_segs:
                index = self.p.match(candidate, self.start)
            if index >= 0:
                self.found(BREAK_UNTOKENIZABLE_MENTION, UNTOKENIZABLE.format(p=self.p.entries[index]))
                return

    # -- one command ------------------------------------------------------------------------

    def command(self, view: View) -> None:
        p = self.p
        cwd = view.cwd
        # (`cwd_spelled`'s answer for the directory it saw last, without the call)
        cwd_spelled = p._last_cwd_spelled if cwd is p._last_cwd and cwd is not None else p.cwd_spelled(cwd)
        name = view.name
        model = view.model
        if cwd is None:
            self.code_view = view  # (`code_index`: relative names in its code)
        # A call of a name the line redefined proves nothing; a builtin or a modelled command
        # so redefined fails closed even without a mention.
        if view.redefined and (name in BUILTINS or model is not None or name in NESTED_SHELLS):
            self.unknown_reach = True
            self.found(BREAK_REDEFINED, REDEFINED.format(name=name, how=view.redefined))
        if view.rewritten_by is not None:
            self.unknown_reach = True
            self.found(BREAK_UNREADABLE, REWRITTEN.format(head=view.head, stage=view.rewritten_by))
        if view.feeds_process is not None:
            self.unknown_reach = True
            self.found(BREAK_UNREADABLE, FEEDS_PROCESS.format(head=view.head, process=view.feeds_process))
        if view.runs_written is not None:
            self.unknown_reach = True
            self.found(BREAK_UNREADABLE, WRITTEN_SCRIPT.format(head=view.head, path=view.runs_written))
        if view.new_root is not None:
            self.unknown_reach = True
            wrapper, root = view.new_root
            self.found(BREAK_UNREADABLE, ROOTED.format(head=wrapper, root=root))
        if view.runs_unknown is not None and self.judged_last is None:
            self.judged_last = view.runs_unknown
        if view.file_script is not None:
            self.file_script(view, cwd, cwd_spelled)
        if model is not None and model.handler in _CODE_HANDLERS or view.file_script is not None:
            self.imported(view, cwd)
        if (name in _STARTUP_NAMES or name[:6] == "python") \
                and (row := startup_row(name, view.args, view.inner)) is not None:
            self.startup(view, cwd, row, name, view.inner)  # (`Rscript x.R` beside a `.Rprofile`: startup.py)
        if view.wrapper and (wrapper := view.wrapper.partition(" ")[0]) in _STARTUP_NAMES:
            # (`gdb -batch -iex …`, `tmux -f t.conf new -d CMD` (wrapper `tmux new`): its own words)
            at = next((k for k in range(min(view.inner, len(view.args))) if basename(view.args[k].text) == wrapper),
                      None)
            if at is not None and (row := startup_row(wrapper, view.args, at)) is not None:
                self.startup(view, cwd, row, wrapper, at)
        elif (name in PYTHON_TOOLS or view.inner or "/" in name or self.walk.context.python_environment) \
                and self.walk.disk is not None and _runs_python(view, self.walk, cwd):
            # (the cheap tests first: most commands are neither a console script nor given
            # Python's environment; `_runs_python` decides)
            self.python_started(view, cwd)
        if view.file_script is not None and view.file_script.made is not None:
            # (after the program's own code is read: a mention there names what it reaches)
            script = view.file_script
            self.unknown_reach = True
            self.found(BREAK_UNREADABLE, MADE_OF_DATA.format(runner=script.runner, what=script.made, path=script.path))
        if view.passes_unreadable is not None:
            self.unknown_reach = True
            path, why = view.passes_unreadable
            self.found(BREAK_UNREADABLE, UNREADABLE_PASSED.format(head=view.head, path=path, why=why))
        if view.prints_written is not None and (name in NESTED_SHELLS or model is not None
                                                 and model.handler == "interpreter"):
            self.unknown_reach = True  # (`sh -c "$(cat s)"` runs s, as `sh s` does)
            self.found(BREAK_UNREADABLE, WRITTEN_SCRIPT.format(head=view.head, path=view.prints_written))
        if view.rewritten_word is not None and not _only_reads(view):
            self.unknown_reach = True
            self.found(BREAK_UNREADABLE, REWRITTEN_WORD.format(head=view.head, stage=view.rewritten_word))
        if view.option_glob is not None:
            self.unknown_reach = True
            word, option = view.option_glob
            self.found(BREAK_UNREADABLE, OPTION_GLOB.format(head=view.head, word=word, name=option))
        if view.print_refused is not None and (not view.print_refused[2] or name in NESTED_SHELLS
                                               or model is not None and model.handler == "interpreter"):
            # (`cd "$D" && sh -c "$(cat s)"` runs s of a directory anywhere; `echo` takes it as data)
            self.unknown_reach = True
            path, why, _ = view.print_refused
            self.found(BREAK_UNREADABLE, UNREADABLE_PRINTED.format(head=view.head, path=path, why=why))
        if view.items_written is not None and (model is None or not model.pure):
            self.unknown_reach = True
            self.found(BREAK_UNREADABLE, WRITTEN_ITEMS.format(head=view.head, path=view.items_written))
        if view.passes_written is not None:
            self.unknown_reach = True
            self.found(BREAK_UNREADABLE, WRITTEN_PASSED.format(head=view.head, path=view.passes_written))
        if view.items_refused is not None and (model is None or not model.pure):
            self.unknown_reach = True
            self.found(BREAK_UNREADABLE, UNREADABLE_ITEMS.format(head=view.head, why=view.items_refused))
        if view.configuration_home is not None and (reader := configuration_reader(view)) is not None:
            # (judged last: a file the program's own reading finds names the entry first)
            self.judged_last = self.judged_last or CONFIGURATION_HOME.format(
                head=reader, setting=view.configuration_home)
        if name in _VIEWERS_AND_PAGER_USERS:
            self.viewer(view)
        if name in CONTAINER_ENGINES and view.inner < len(view.args):
            from polydeukes.stdlib.shell import containers  # only a container engine loads it

            containers.judge(self, view)
        if (name in FORMATTERS or "@" in name and name.partition("@")[0] in FORMATTERS) and view.inner < len(view.args):
            from polydeukes.stdlib.shell import formatters  # only a formatter loads it

            # (`npx prettier@3`, `uvx ruff@0.5`: a package runner's name with its version)
            formatters.judge(self, view, name.partition("@")[0], view.inner + 1)
        elif model is not None and model.handler == "interpreter" and (module := _formatter_module(view)) is not None:
            from polydeukes.stdlib.shell import formatters  # (`python3 -m black .`)

            formatters.judge(self, view, *module)
        for extra in view.wrapper_outputs:  # (nohup.out, perf.data, script's typescript)
            self.extra(view, extra, cwd, view.wrapper, view.wrapper)
        writer = model is not None and not model.pure
        mention = cwd_spelled or view.spells_entry or self._mention_possible(view)
        if not writer and not mention and not view.targets:
            if view.listed or view.listed_targets:
                self.listed(view, cwd)
            if view.rewritten_operands is not None:
                self.rewritten_operands(view)
            if view.made_word is not None:
                self.made_word(view)
            if self.judged_last is not None:
                self.found_last()
            return  # reads or runs something unknown, and names no entry: nothing to judge
        found = view.effects if writer or mention else None
        if writer and not mention and found is not None:
            # A writer given code (awk's program, a sed script that runs `e`): its strings,
            # joined, may spell an entry no word spells (`"rm c" "i/gate.sh"`).
            for it in found.items:
                if it.role == E.CODE:
                    mention = True
                    break
        if found is not None and writer:
            self.contains(view, found, cwd)
        if view.targets or (view.words and basename(view.words[0].text) in ("tee", "sed")):
            self.precise(view, cwd, cwd_spelled)
        if mention:
            self.mentions(view, found, model, cwd, cwd_spelled)
        if found is not None and writer:
            self.effect_reach(view, found, cwd)
            if view.inner and name == "git" and _configures_git(view):
                self.hooks(view, E.REDIRECTED_HOOKS)
        if view.listed or view.listed_targets:
            self.listed(view, cwd)
        if view.rewritten_operands is not None:
            self.rewritten_operands(view)
        if view.made_word is not None:
            self.made_word(view)
        if self.judged_last is not None:
            self.found_last()

    def viewer(self, view: View) -> None:
        """A pager or editor given commands of its own (viewers.py): `less +'!sh x.sh' f`,
        `vim -c '!…'`, `vim -S cmds.vim`, a lesskey file, `LESS='+!…'` for less or a program
        that pages with it, operands it takes from a lister through xargs."""
        name = view.name
        what = None
        if name in viewers.VIEWERS:
            args = view.args[view.inner + 1 :]
            what = viewers.commands(name, [a.text for a in args], [a.opaque for a in args])
            if what is None and name in viewers.EDITORS:
                # (round 10) VIMINIT and EXINIT are Ex commands vim and ex run at start-up
                scope = self.walk.context.scope.values
                for variable in viewers.EDITOR_VARIABLES:
                    if variable in scope or any(a.text.startswith(variable + "=") for a in view.args[: view.inner]):
                        value = self.walk.environment(view, variable)
                        if value != "":
                            what = f"{variable}={'?' if value is None else value}"
                            break
            if what is None and (view.via_xargs or view.listed) and not any(a.text == "--" for a in args) \
                    and not _found_names(view.listed):
                head = f"{_feeder(view)} {name}" if view.via_xargs else name
                self.judged_last = self.judged_last or VIEWER_OPERANDS.format(head=head)
                return
        if what is None and name in viewers.PAGER_USERS:
            # (plain loops: this runs for every git command, most with nothing named LESS…)
            scope = self.walk.context.scope.values
            assigned = False
            for a in view.args[: view.inner]:
                if a.text.startswith("LESS"):
                    assigned = True
                    break
            values: dict[str, str | None] = {}
            for variable in viewers.LESS_VARIABLES:
                if assigned or variable in scope:
                    values[variable] = self.walk.environment(view, variable)
            setting = viewers.pager_environment(values) if values else None
            if setting is not None:
                self.unknown_reach = True
                self.found(BREAK_UNREADABLE, VIEWER_SETTING.format(head=name, what=setting))
                return
            log = viewers.pager_log(values) if values and name not in viewers.PAGERS else None
            if log is not None:  # (less itself takes LESS's words as its own: `_OPTION_VARIABLES`)
                self.unknown_reach = True
                self.found(BREAK_UNREADABLE, VIEWER_LOG.format(head=name, what=log))
                return
        if what is not None:
            self.unknown_reach = True
            self.found(BREAK_UNREADABLE, VIEWER_COMMANDS.format(head=name, what=what))

    def found_last(self) -> None:
        """A program that makes text of codes or encodings and calls what writes or runs
        (`perl -e 'unlink chr(99).chr(105)."/gate.sh"'`): no mention test can read the name;
        names of unknown spelling a viewer may take as commands (`| xargs less`)."""
        self.unknown_reach = True
        self.found(BREAK_UNREADABLE, self.judged_last)
        self.judged_last = None

    def made_word(self, view: View) -> None:
        """A word whose value the line makes of text the walk does not work out (`x=$(rev f);
        rm -rf $x`), taken by a writer, a program or a shell, or a write redirect's target;
        judged last, so a mention's own rule names the entry first. `set -- $v` only makes the
        positional parameters of such words (`Walk._positional`)."""
        word, how, target = view.made_word
        if target or view.name != "set" and not _only_reads(view):
            self.unknown_reach = True
            self.found(BREAK_UNREADABLE, MADE.format(head=view.head, word=word, how=how))

    def rewritten_operands(self, view: View) -> None:
        """`echo x | sed s/x/ci/ | xargs rm`, `xargs rm < <(rev l)`: operands made of text on
        the way, judged last (a lister's paths, or a passed file's mention, name the entry)."""
        self.unknown_reach = True
        self.found(BREAK_UNREADABLE, REWRITTEN_OPERANDS.format(head=view.head, stage=view.rewritten_operands))

    def mentions(self, view: View, found: E.Effects | None, model: E.Model | None,
                 cwd: tuple[str, ...] | None, cwd_spelled: bool) -> None:
        """(b)-(f): the mention scan and the read-only proof."""
        p = self.p
        name = view.name
        first = -1
        first_kind = ""  # what carried the first mention: literal, pattern or code
        first_word = ""
        opaque_mentions: list[int] = []
        mentioned: list[int] = []  # arguments that mention an entry
        inner = view.inner
        tokens = p.tokens
        by_find = _judged_by_find(view) if view.listed else ()
        if name in _PACKAGE_MANAGERS:
            by_find = (*by_find, *_script_names(view))  # (`npm ci`, `npm run ci`: names, no paths)
        for k, a in enumerate(view.args):
            if k == inner and "/" not in a.text or by_find and k in by_find:
                continue  # a command name without a slash is looked up in PATH, not a path
            # (`first_in_text`'s answer for a word already seen spelling nothing, without the call)
            token = tokens.get((a.text, a.opaque))
            if token is not None and not token[0] and not cwd_spelled and a.pattern is None:
                continue
            index = p.first_in_text(a.text, a.opaque, cwd, cwd_spelled)
            kind = "literal"
            if index < 0 and a.pattern is not None:
                hits = p.pattern_hits(a.pattern, cwd, view.glob)
                if hits:
                    self.reached.update(hits)
                    index, kind = hits[0], "pattern"
            if index < 0:
                continue
            self.reached.add(index)
            mentioned.append(k)
            if a.opaque:
                opaque_mentions.append(k)
            if first < 0:
                first, first_kind, first_word = index, kind, a.text
        for it in _attached_items(view, found):
            # An option's attached value (`sort -oFILE`, `curl -oFILE`): the word as a whole
            # spells `-oci/…`, no path; the model's item is the value.
            index = p.first_in_text(it.text, view.args[it.index].opaque, cwd, cwd_spelled)
            if index >= 0:
                self.reached.add(index)
                mentioned.append(it.index)
                if first < 0:
                    first, first_kind, first_word = index, "literal", it.text
        in_target = False  # a mention in a write redirect's target (a read redirect is a read)
        for r, targets in view.targets:
            if view.stdin_program and r.operator == "<<<":
                continue  # (its program's text: `code_mention` reads it)
            writes = is_write_redirect(r)
            for t in targets:
                index = p.first_in_text(t.text, t.opaque, cwd, cwd_spelled)
                if index < 0 and t.pattern is not None:
                    hits = p.pattern_hits(t.pattern, cwd, view.glob)
                    index = hits[0] if hits else -1
                if index >= 0:
                    self.reached.add(index)
                    in_target = in_target or writes
                    if t.opaque:
                        # A read redirect's target is what the command reads, as an operand a
                        # reader only reads: `done < <(find .claude -type f)` (the substitution's
                        # commands are walked on their own). Any other target: rule (c) as is.
                        opaque_mentions.append(_READ_TARGET if r.operator == "<" else -1)
                    if first < 0:
                        first, first_kind, first_word = index, "literal", t.text
        in_unread_stdin = False  # a mention in stdin an executor runs that no analysis read
        for body in view.piped_unread:
            index = p.first_in_text(body, False, cwd, cwd_spelled)
            if index >= 0:
                self.reached.add(index)
                in_unread_stdin = True
                if first < 0:
                    first, first_kind, first_word = index, "literal", body
        code_index = self.code_mention(view, found, cwd)
        if code_index >= 0:
            self.reached.add(code_index)
            if first < 0:
                first, first_kind = code_index, "code"
        if first < 0:
            return
        if found is None and view.name:
            found = view.effects
        entry = p.entries[first]
        # (c) a mention inside an opaque token: a command that only reads may take it
        roles = _roles_by_arg(found)
        pure = model is not None and model.pure and found is not None and found.unproven is None \
            and not (view.inner < len(view.args) and untrusted_program(view))
        for k in opaque_mentions:
            if not (pure and (k == _READ_TARGET and _reads_only_from_stdin(view)
                              or k >= 0 and _harmless(roles.get(k, ()), k, view))):
                self.found(BREAK_OPAQUE_MENTION, OPAQUE_MENTION.format(p=entry))
                return
        # (d) an unknowable write target beside the mention
        if view.targets and any(is_write_redirect(r) and any(t.opaque for t in targets) for r, targets in view.targets):
            self.found(BREAK_OPAQUE_WRITE_TARGET, OPAQUE_TARGET.format(p=entry))
            return
        # (e) read-only proof
        if code_index < 0 and not in_target and not in_unread_stdin and proven_read(view, found, mentioned, roles):
            return
        # (f) the backstop, named after what carried the mention
        if view.redefined:
            self.found(BREAK_REDEFINED, REDEFINED.format(name=name, how=view.redefined))
        elif first_kind == "pattern":
            self.found(BREAK_PATTERN, PATTERN.format(head=view.head, word=first_word, p=entry))
        elif first_kind == "code":
            self.found(BREAK_CODE_MENTION, CODE.format(head=view.head, p=entry))
        else:
            self.found(BREAK_UNPROVEN_MENTION, UNPROVEN.format(head=view.head, p=entry))

    def _mention_possible(self, view: View) -> bool:
        """Can anything in the command name an entry: a word or target spelling an entry's
        first segment, a glob pattern, or code?"""
        # An interpreter's code may spell a path only once its string fragments are joined
        # (`'.cl' + 'aude'`); stdin bodies are data, except a program an interpreter reads.
        if view.written_code is not None or view.piped_unread or view.stdin_program or (
                view.model is not None and view.model.handler == "interpreter"):
            return True
        args = view.args
        for a in args:  # (plain loops: a generator expression costs several times more here)
            if a.pattern is not None:
                return True
        texts = [a.text for a in args]
        for _r, targets in view.targets:
            for t in targets:
                if t.pattern is not None:
                    return True
                texts.append(t.text)
        return self.p.spelled_in(" ".join(texts))

    def precise(self, view: View, cwd: tuple[str, ...] | None, cwd_spelled: bool) -> None:
        """(a): redirect-write, tee and sed-in-place targets (§8.2) that reach an entry."""
        p = self.p
        for r, targets in view.targets:
            if not is_write_redirect(r):
                continue
            for t in targets:
                if t.opaque:
                    self.unspelled_target(view, t, cwd)
                    continue
                index = p.first_in_text(t.text, False, cwd, cwd_spelled)
                if index < 0 and t.pattern is not None:
                    hits = p.pattern_hits(t.pattern, cwd, view.glob)
                    index = hits[0] if hits else -1
                if index >= 0:
                    self.reached.add(index)
                    self.found(BREAK_PRECISE_WRITE, PRECISE.format(rule="redirect-write", p=p.entries[index]))
                else:
                    self.unspelled_target(view, t, cwd)
        words = view.words
        if words and not view.synthetic and basename(words[0].text) in ("tee", "sed"):
            for rule, detect in (("tee", tee_targets), ("sed-in-place", sed_in_place_targets)):
                for w in detect(words):
                    index = p.first_in_text(w.text, False, cwd, cwd_spelled)
                    if index >= 0:
                        self.reached.add(index)
                        self.found(BREAK_PRECISE_WRITE, PRECISE.format(rule=rule, p=p.entries[index]))

    def unspelled_target(self, view: View | QuietCommand, t: Arg, cwd: tuple[str, ...] | None) -> None:
        """A write redirect's target that spells no entry: it may still reach one through a
        symbolic link, as the tail of a word of unknown value, or from an unknown directory."""
        if t.opaque:
            self.unknown_prefix(view, t.text, "write target", True, t.word is not None and bool(t.word.flags & W_GLOB))
            return
        self.through_symlink(view, t.text, cwd)
        if cwd is None or t.text[:1] == "~":
            self.unknown_base(view, t.text, t.pattern, cwd, "write target")

    def pattern_through_links(self, view: View, word: str, pattern: str, cwd: tuple[str, ...] | None) -> None:
        """A written glob below a literal directory that is a symbolic link on disk (`rm -rf
        l/c?` after `ln -s . l` by an earlier call), or in a working directory reached through
        one (`cd l; rm -f *`: the shell's directory is where the link leads): matched again
        where the link leads."""
        led = self.led_pattern(pattern, cwd)
        if led is None:
            return
        if type(led) is not str:
            self.unknown_reach = True
            self.found(BREAK_UNREADABLE, UNFOLLOWED_LINKS.format(head=view.head, path=word, why=led.reason))
            return
        hits = self.p.pattern_hits(led, cwd, view.glob)
        if hits:
            self.reached.update(hits)
            self.found(BREAK_EFFECT, THROUGH_SYMLINK.format(head=view.head, path=word, p=self.p.entries[hits[0]]))

    def led_pattern(self, pattern: str, cwd: tuple[str, ...] | None):
        """`pattern` (relative) with its literal directories spelled where the symbolic links on
        their way lead, as an absolute pattern; None when no link is on the way (or nothing is
        known), a `Refused` when the links cannot be followed."""
        disk = self.walk.disk
        if disk is None or cwd is None or pattern.startswith(("/", "~")):
            return None
        parts = pattern.split("/")
        literal: list[str] = []
        for part in parts[:-1]:
            if any(c in part for c in "*?[\\") or part in ("", ".", ".."):
                break
            literal.append(part)
        resolved = disk.resolve_below(cwd, literal)
        if resolved is None or type(resolved) is not list:
            return resolved
        return escape_pattern("/" + "/".join(resolved)) + "/" + "/".join(parts[len(literal):])

    def led_path(self, path: str, cwd: tuple[str, ...] | None) -> str | None:
        """`path` spelled as where the symbolic links on its way lead (absolute), or None when
        none is on the way (or it cannot be told: a refusal is judged where the path is written)."""
        disk = self.walk.disk
        if disk is None or cwd is None:
            return None
        absolute = absolute_segments(path, cwd, self.p.home)
        if absolute is None:
            return None
        resolved = disk.resolve(list(absolute))
        if type(resolved) is not list or resolved == absolute:
            return None
        return "/" + "/".join(resolved)

    def _hard_linked(self, disk) -> dict[tuple[int, int], int]:
        """(device, inode) -> entry index of the files with more than one name at or below
        the entries, looked up once per judgment (only when a write target has another name)."""
        if self._linked_ids is None:
            from polydeukes.stdlib.shell.disk import Refused  # loaded by `walk.disk`

            self._linked_ids = {}
            for index, target in enumerate(self.p.absolute or ()):
                found = disk.linked_file_ids(target)
                for identity in found if not isinstance(found, Refused) else ():
                    self._linked_ids.setdefault(identity, index)
        return self._linked_ids

    def through_symlink(self, view: View | QuietCommand, text: str, cwd: tuple[str, ...] | None, follow_last: bool = True) -> None:
        """A write target that spells no entry may still reach one through a symbolic link
        in the project, or one the line made earlier (`ln -s . l; rm -rf l/ci`)."""
        if text == "." or text.endswith("/."):
            follow_last = True  # (`.` is the directory itself, where a link to it leads: `cd l; find . -delete`)
        links = self.walk.context.links
        if links and cwd is not None:
            self.through_line_links(view, text, cwd, links, follow_last)
        disk = self.walk.disk
        if disk is None or cwd is None:
            return
        # Judged once per directory already: a break found then is kept, a clean target stays
        # clean. Kept per directory tuple (the walk hands the same one until the next `cd`), so
        # the key is not hashed with the whole directory for every target.
        if cwd is not self._targets_cwd:
            self._targets_cwd = cwd
            self._targets_judged = set()
        key = (text, follow_last)
        if key in self._targets_judged:
            return
        self._targets_judged.add(key)
        parts = relative_parts(text)
        if parts is not None:
            # The usual target, a relative path: the directory's links are followed once.
            resolved = disk.resolve_below(cwd, parts, follow_last=follow_last)
            present = disk.last_directory_present()
        else:
            absolute = absolute_segments(text, cwd, self.p.home)
            if absolute is None:
                return
            # `..` after a link climbs from where the link leads (`docs/../gate.sh` with
            # `docs -> ci/sub` is `ci/gate.sh`): the walk of the disk reads the dots itself.
            spelled = absolute_segments(text, cwd, self.p.home, resolve_dots=False) \
                if "/.." in text or text.startswith("..") else absolute
            resolved = disk.resolve(list(spelled), follow_last=follow_last)
            if resolved == absolute:
                resolved = None
            root = self.p.root_segs
            present = root is not None and absolute[: len(root)] == list(root)
        from polydeukes.stdlib.shell.disk import Refused  # loaded by `walk.disk`

        if not isinstance(resolved, Refused):
            # A file with another name inside an entry is that entry's content (`ln ci/gate.sh
            # h` made by an earlier call; `echo x > h` writes the protected file)
            identity = None
            if resolved is not None or present:
                final = resolved if resolved is not None else [*cwd, *parts] if parts is not None else absolute
                identity = disk.hard_link_id(final)
            if identity is not None:
                index = self._hard_linked(disk).get(identity, -1)
                if index >= 0:
                    self.reached.add(index)
                    self.found(BREAK_EFFECT, THROUGH_HARD_LINK.format(head=view.head, path=text,
                                                                      p=self.p.entries[index]))
                    return
        if resolved is None:
            return
        if isinstance(resolved, Refused):
            self.unknown_reach = True
            self.found(BREAK_UNREADABLE, UNFOLLOWED_LINKS.format(head=view.head, path=text, why=resolved.reason))
            return
        hits = self.p.absolute_entry_hits(resolved)
        if hits:
            self.reached.update(hits)
            self.found(BREAK_EFFECT, THROUGH_SYMLINK.format(head=view.head, path=text, p=self.p.entries[hits[0]]))

    def through_line_links(self, view: View | QuietCommand, text: str, cwd: tuple[str, ...],
                           links: dict, follow_last: bool) -> None:
        """A write target below a link the line made (`Context.links`): the path it leads to is
        judged as written (an entry, inside one, or holding one); a link that leads somewhere
        unknown, on the target's way, fails closed."""
        absolute = absolute_segments(text, cwd, self.p.home)
        if absolute is None:
            return
        path = list(absolute)
        for _ in range(8):  # (links to links, a few deep)
            for end in range(len(path) if follow_last else len(path) - 1, 0, -1):
                prefix = tuple(path[:end])
                if prefix in links:
                    break
            else:
                return
            target = links[prefix]
            if target is None:
                self.unknown_reach = True
                self.found(BREAK_OPAQUE_WRITE_TARGET, THROUGH_LINE_LINK_UNKNOWN.format(head=view.head, path=text))
                return
            path = list(dot_resolve([*target, *path[end:]]))
            hits = self.p.absolute_entry_hits(path)
            if hits:
                self.reached.update(hits)
                self.found(BREAK_EFFECT, THROUGH_SYMLINK.format(head=view.head, path=text, p=self.p.entries[hits[0]]))
                return

    def glob_into_links(self, view: View, pattern: str, cwd: tuple[str, ...] | None) -> None:
        """`cp tmp/gat* DIR` writes DIR/<name> for every name the glob can match: each link
        already in DIR whose name the glob's last segment matches is written through, as the
        same source spelled literally would be (`DIR/gate.sh -> ../ci/gate.sh`)."""
        disk = self.walk.disk
        if disk is None or cwd is None:
            return
        directory, _, last = pattern.rpartition("/")  # `into` joins DIR and the source's last segment
        absolute = absolute_segments(directory or "/", cwd, self.p.home)
        if absolute is None:
            return
        glob = view.glob
        segment = compile_segment(last, glob.extglob, glob.globstar)
        fold = glob.nocaseglob or self.p.fold
        links = disk.links_in(absolute, lambda name: segment_matches(segment, name, dotglob=glob.dotglob, fold=fold))
        from polydeukes.stdlib.shell.disk import Refused  # loaded by `walk.disk`

        if isinstance(links, Refused):
            self.unknown_reach = True
            self.found(BREAK_UNREADABLE, f"{view.head} writes {pattern}, whose directory cannot be listed: {links.reason}")
            return
        for name in links:
            self.through_symlink(view, f"{directory}/{name}", cwd)

    def glob_destination(self, view: View, pattern: str, name: str, cwd: tuple[str, ...] | None) -> None:
        """`cp x.sh note*` writes each match of the destination glob, or `<match>/x.sh` when it
        is a directory: the matches in the glob's directory (links and directories) are listed
        and each spelling is followed through its symbolic links. A glob in a directory above
        the last segment is not listed: it fails closed."""
        disk = self.walk.disk
        if disk is None or cwd is None:
            return
        directory, _, last = pattern.rpartition("/")
        absolute = absolute_segments(directory or ".", cwd, self.p.home) if "\\" not in directory else None
        from polydeukes.stdlib.shell.disk import Refused  # loaded by `walk.disk`

        if absolute is None or any(c in directory for c in "*?[("):  # (escaped ones too: fail closed)
            self.unknown_reach = True
            self.found(BREAK_UNREADABLE, f"{view.head} writes into {pattern}, whose directories cannot be listed")
            return
        glob = view.glob
        segment = compile_segment(last, glob.extglob, glob.globstar)
        fold = glob.nocaseglob or self.p.fold
        matches = disk.links_in(absolute, lambda entry: segment_matches(segment, entry, dotglob=glob.dotglob, fold=fold),
                                directories=True)
        if isinstance(matches, Refused):
            self.unknown_reach = True
            self.found(BREAK_UNREADABLE, f"{view.head} writes into {pattern}, whose directory cannot be listed: {matches.reason}")
            return
        for match in matches:
            spelled = f"{directory}/{match}" if directory else match
            self.through_symlink(view, spelled, cwd)
            if name:
                self.through_symlink(view, f"{spelled}/{name}", cwd)

    def contains(self, view: View, found: E.Effects, cwd: tuple[str, ...] | None) -> None:
        """Writing the project root or a directory above it reaches every entry."""
        by_find = _judged_by_find(view) if view.listed else ()
        for it in found.items:
            if by_find and it.index in by_find:
                continue
            # (Writing into the root, `cp x .`, is judged by the names it lands under.)
            if it.role in _CONTAINING and self.p.contains_root(it.text, cwd):
                self.reached.add(0)
                template = CONTAINS_REMOVED if it.role in (E.DELETE, E.MOVE) else CONTAINS_WRITTEN
                self.found(BREAK_CONTAINS_PROTECTED, template.format(
                    head=view.name or view.head, verb=E.VERBS[it.role], p=self.p.entries[0]))
                return

    def effect_reach(self, view: View, found: E.Effects, cwd: tuple[str, ...] | None) -> None:
        """Effects that reach entries without a word spelling them: writes through symbolic
        links, the work tree, archives, patches, `find -delete`, derived names."""
        by_find = _judged_by_find(view) if view.listed else ()
        homes = False  # a `$HOME` word with the home known
        # (round 9) destinations of unknown value (`cp -t "$D" build/gate.sh`, `cp build/gate.sh
        # "$D"`): each source lands at `$D/NAME`, judged as `cp x "$D/gate.sh"` is (below)
        unknown: set[str] = set()
        for it in found.items:
            a = view.args[it.index]
            if it.role in E.WRITING and not a.opaque and (a.pattern is None or not it.whole) \
                    and not (by_find and it.index in by_find):
                # `rm link` removes the link itself; anything else follows it.
                follow_last = it.role not in (E.DELETE, E.MOVE) or it.text.endswith("/")
                self.through_symlink(view, it.text, cwd, follow_last=follow_last)
            elif it.role in E.WRITING and not a.opaque and a.pattern is not None:
                self.pattern_through_links(view, a.text, a.pattern, cwd)
            if it.role in E.WRITING and not a.opaque and (cwd is None or it.text[:1] == "~"):
                self.unknown_base(view, it.text, a.pattern if it.whole else None, cwd, "operand", role=it.role)
            elif a.opaque and (it.role in E.WRITING or it.role == E.UNKNOWN):
                if it.whole:
                    unknown.add(it.text.rstrip("/"))
                home = _HOME_WORD().fullmatch(it.text)
                if home is None:
                    self.unknown_prefix(view, it.text, "operand", True,
                                        a.word is not None and bool(a.word.flags & W_GLOB))
                elif self.p.home is None or "HOME" in self.walk.context.scope.values:
                    self.unknown_base(view, "~" + (home.group(1) or ""), None, cwd, "operand", it.text, it.role)
                else:
                    homes = True
        if homes:
            self.home_words(view, cwd)
        # Destinations spelled as globs (`cp x.sh note*`): the directories and links they can
        # name are listed, as a glob source copied into a directory is (`glob_into_links`).
        globbed = {view.args[it.index].text: view.args[it.index].pattern for it in found.items
                   if it.role in E.WRITING and it.whole and view.args[it.index].pattern is not None}
        for extra in found.extra:
            if (globbed or unknown) and extra.rule == "into" and extra.pattern is None:
                destination, _, name = extra.path.rpartition("/")
                if destination in globbed:
                    self.glob_destination(view, globbed[destination], name, cwd)
                elif destination in unknown and not extra.tree:
                    self.unknown_prefix(view, extra.path, "write target", True)
            if unknown and extra.rule == "into" and extra.tree and extra.source \
                    and extra.path.rstrip("/") in unknown:
                self.contents_into_unknown(view, extra, cwd)
            self.extra(view, extra, cwd, view.head, view.name)

    def contents_into_unknown(self, view: View, extra: E.Extra, cwd: tuple[str, ...] | None) -> None:
        """(round 9) A directory's contents copied into one of unknown value (`cp -r build/.
        "$D"`, `rsync -a build/ "$D"`): what lands there is `$D/NAME` for each NAME the source
        holds. For each entry, each tail of its path (`gate.sh`, `ci/gate.sh`) the source holds
        on disk is such a write, judged as `cp x "$D/gate.sh"` is; a look that is refused counts
        as found."""
        disk = self.walk.disk
        source = self.walk.absolute(extra.source[0], cwd)
        if disk is None or source is None:
            return
        for entry in self.p.entries:
            parts = entry.split("/")
            for k in range(len(parts)):
                if disk.kind([*source, *parts[k:]]) != "missing":
                    self.unknown_prefix(view, extra.path.rstrip("/") + "/" + "/".join(parts[k:]), "write target", True)
                    if self.reason is not None:
                        return

    def home_words(self, view: View, cwd: tuple[str, ...] | None) -> None:
        """`rm -rf "$HOME"` with the home known: the model gives a word of unknown value no
        role, so the command's effects are worked out again with such words spelled `~…`, and
        a removal of the home that holds the project reaches every entry (`cp x "$HOME"` writes
        into it and does not)."""
        spelled = []
        for a in view.args[view.inner + 1 :]:
            home = _HOME_WORD().fullmatch(a.text) if a.opaque else None
            spelled.append(Arg("~" + (home.group(1) or ""), None, False, ONE, a.word) if home else a)
        effects = E.effects_of(view.name, spelled, view.env, view.inner + 1, view.model)
        if effects is not None:
            self.contains(view, effects, cwd)

    def unknown_prefix(self, view: View, text: str, what: str, written: bool = False,
                       globbed: bool = False) -> None:
        """A written word whose value is unknown up to a literal tail (`$V/gate.sh`, `"$D"/ci`)
        can be every path that ends so: an entry, an ancestor up to the project root, or
        something inside an entry; with `globbed` (the word has an unquoted glob character),
        a tail with `*`, `?` or `[` matches as a pattern (`"$D"/c?`, round 11). A value make
        computes that its reading does not (makefiles.COMPUTED), written with no literal tail
        after it, can be any path: it fails closed (with a program of such a value, under any
        role)."""
        tail = unknown_tail(text)
        if not tail:
            if written and _COMPUTED in text and self.p.entries:
                self.reached.add(0)
                self.found(BREAK_OPAQUE_WRITE_TARGET, COMPUTED_WRITE.format(
                    head=view.head, what=what, word=text, p=self.p.entries[0]))
            return  # no literal tail (`rm -rf "$V"`): recorded as unjudgeable, not judged here
        if text.startswith("${PROCESS_DIRECTORY}") and _uninformative(tail):
            # (round 11) a descriptor's or another process's directory, written whole or all its
            # members (`rm -rf /dev/fd/3/`, `… /proc/$$/cwd/*`): it may be the project or any
            # directory in it, unlike `"$V"`, which the line's words leave to its environment
            hits = list(range(len(self.p.entries)))
        elif globbed and any(c in tail for c in "*?["):
            hits = self._tail_pattern_hits(tail, view.glob)
        else:
            hits = self._tail_hits(tail)
        if hits:
            self.reached.update(hits)
            self.found(BREAK_OPAQUE_WRITE_TARGET, UNKNOWN_PREFIX.format(
                head=view.head, what=what, word=text, tail=tail, p=self.p.entries[hits[0]]))

    def _tail_hits(self, tail: str) -> list[int]:
        """The entries a path ending in `tail` after an unknown value can be (`tail_can_name`)."""
        p = self.p
        # Each entry with the project directory's own name above it: the directories above the
        # project are not matched (`"$D"/tmp` would block wherever the project lives in /tmp).
        top = p.root_segs[-1:] if p.root_segs is not None else ()
        tail = comparable(tail, p.fold)
        return [index for index, entry in enumerate(p.resolved) if tail_can_name(tail, [*top, *entry])]

    def _tail_pattern_hits(self, tail: str, glob) -> list[int]:
        """`_tail_hits` for a tail that is a pattern (`/c?` after an unknown value): each of its
        segments matched against the entry's, the first (the end of the segment the value
        began, `c?` in `${D}c?`) against any end of one. What follows a `**` is a tail after an
        unknown value again; a tail of `*` segments only tells no more than none (`rm -rf
        "$OUT"/*` is judged as `rm -rf "$OUT"`: unjudgeable, not matched here)."""
        p = self.p
        parts = tail.split("/")
        if "**" in parts:
            parts = ["", *parts[len(parts) - parts[::-1].index("**") :]]
        if _uninformative("/".join(parts)):
            return []
        segments = {seg: compile_segment(seg) for seg in parts[1:]}
        head = compile_segment("*" + parts[0])
        dotglob, fold = glob.dotglob, glob.nocaseglob or p.fold

        def matches(seg: str, name: str) -> bool:
            return segment_matches(segments[seg], name, dotglob=dotglob, fold=fold)

        def ends(name: str, _head: str) -> bool:
            return segment_matches(head, name, dotglob=True, fold=fold)

        top = p.root_segs[-1:] if p.root_segs is not None else ()
        return [index for index, entry in enumerate(p.resolved)
                if tail_can_name("/".join(parts), [*top, *entry], matches, ends)]

    def unknown_base(self, view: View, text: str, pattern: str | None, cwd: tuple[str, ...] | None,
                     what: str, shown: str | None = None, role: str = E.WRITE) -> None:
        """A written path whose base directory is unknown can be every path that ends in its
        text: `~…` when the home directory is unknown (the host gave none, or a relative one,
        or the line assigns HOME), a relative path where a `cd` could not be followed (`cd ~`
        with an unknown home). `~` alone can be the project or a directory above it: removing,
        moving or changing its mode (or an unknown role) reaches every entry; writing into it
        is judged by the names it writes there (`cp x ~` writes `~/x`)."""
        p = self.p
        if text == "~" or text.startswith("~/"):
            if p.home is not None and "HOME" not in self.walk.context.scope.values:
                return
            tail, base = text[1:], "the home directory"
            pattern = pattern[1:] if pattern is not None and pattern.startswith("~") else None
        elif cwd is None and text[:1] not in ("/", "~", "$", ""):
            tail, base = "/" + text, "the directory it runs in"
            if view.cwd_glob is not None:
                # `cd .claude/hook? && rm h.sh`, `git -C c? rm gate.sh`: below a match of the glob
                where, glob = view.cwd_glob
                hits = p.pattern_hits(glob.rstrip("/") + "/" + (pattern or escape_pattern(text)), where, view.glob)
                if hits:
                    self.reached.update(hits)
                    self.found(BREAK_OPAQUE_WRITE_TARGET, UNKNOWN_BASE.format(
                        head=view.head, what=what, word=shown or text, base=base, p=p.entries[hits[0]]))
                    return
            pattern = None  # a relative pattern here is already matched anchored anywhere
        else:
            return
        if pattern is not None:
            compiled = list(compile_pattern(comparable(pattern.lstrip("/"), p.fold), extglob=view.glob.extglob,
                                            globstar=view.glob.globstar))
            hits = p._unanchored_pattern_hits(compiled, view.glob.dotglob, view.glob.nocaseglob or p.fold)
        elif tail.strip("/"):
            hits = self._tail_hits(tail)
        elif role in _CONTAINING or role == E.UNKNOWN:
            hits = list(range(len(p.entries)))  # `~` itself: the project may lie below it
        else:
            hits = []
        if hits:
            self.reached.update(hits)
            self.found(BREAK_OPAQUE_WRITE_TARGET, UNKNOWN_BASE.format(
                head=view.head, what=what, word=shown or text, base=base, p=p.entries[hits[0]]))

    def extra(self, view: View, extra: E.Extra, cwd: tuple[str, ...] | None, head: str, name: str) -> None:
        p = self.p
        entries = p.entries
        kind = extra.kind
        if kind == "command" or kind == "list":
            return  # judged as its own view / what find prints (judged where it is fed)
        if kind == "hooks":
            self.hooks(view, extra)
            return
        if extra.rule == "whole-tree":
            hits = self._tree_dir_hits(extra.path, cwd)
            if not hits and name == "git":
                # `GIT_WORK_TREE=DIR git -C /elsewhere …` (round 2, AC): git writes DIR
                tree = self.walk.environment(view, "GIT_WORK_TREE")
                if tree is not None or any(a.opaque and a.text.startswith("GIT_WORK_TREE=")
                                           for a in view.args[: view.inner]):
                    hits = self._tree_dir_hits(tree if tree is not None else "", None)
            if hits:
                self.reached.update(hits)
                what = extra.what or (f"git {_git_subcommand(view)}" if name == "git" else name)
                self.found(BREAK_EFFECT, WHOLE_TREE.format(what=what, p=entries[hits[0]]))
            return
        if extra.rule in _REMOTE_TEMPLATES and kind == E.WRITE:
            hits = list(range(len(entries))) if extra.rule == "remote-profile" else (
                p.tree_hits(extra.path, cwd) or self.linked_tree_hits(extra.path, cwd))
            if hits:
                self.reached.update(hits)
                template = _REMOTE_TEMPLATES[extra.rule]
                self.found(BREAK_EFFECT, template.format(what=extra.what or name, path=extra.path, p=entries[hits[0]]))
            return
        if kind in ("extract", "patch"):
            self.deferred(view, extra, cwd, head)
            return
        if extra.rule == "find-delete":
            hits = self.listed_reach(extra.path, extra.pattern, extra.names, cwd, view.glob, False)
            if not hits and extra.path.startswith("${PROCESS_DIRECTORY}"):
                # (round 11) below a descriptor's directory of unknown place (`find /dev/fd/3/
                # -delete` with fd 3 opened elsewhere): as `unknown_prefix`
                tail = extra.path[len("${PROCESS_DIRECTORY}") :]
                reach = range(len(entries)) if _uninformative(tail) else self._tail_hits(tail)
                hits = [h for h in reach if self._find_names_reach(extra.names, h)]
            if not hits and cwd is None and extra.pattern is None and extra.path[:1] not in ("/", "~", "$", ""):
                # (round 11) a start path below a directory of unknown place (`cd "$D" && find
                # proj -name gate.sh -delete`): every entry a path ending in it can hold
                hits = [h for h in self._tail_hits("/" + extra.path) if self._find_names_reach(extra.names, h)]
            if hits:
                self.reached.update(hits)
                self.found(BREAK_EFFECT, FIND_DELETE.format(p=entries[hits[0]]))
            return
        shown = extra.pattern if extra.pattern is not None else extra.path
        icase = extra.rule.startswith("pathspec") and self.icase_pathspecs(view)
        if extra.rule in ("pathspec-wildmatch", "pathspec-icase") or icase:
            restored = name == "git" and kind == E.WRITE  # (from the index or a revision)
            hits = p.pathspec_hits(shown, cwd, icase or extra.rule == "pathspec-icase",
                                   partial(self.may_hold_restored, view) if restored else self.may_hold)
        elif extra.pattern is not None:
            hits = p.pattern_hits(extra.pattern, cwd, view.glob)
            if not hits and extra.rule == "into":
                self.glob_into_links(view, extra.pattern, cwd)
        elif extra.tree:
            hits = p.tree_hits(extra.path, cwd) or self.linked_tree_hits(extra.path, cwd)
            if extra.rule == "bytecode" and hits:
                hits = self.bytecode_hits(hits, extra.path, cwd)
        else:
            # A derived path is a real location, not a mention: it is resolved, never matched
            # by spelling alone (`cp x /tmp/keep` does not write `/tmp/keep/x` of the project).
            hits = p.anchored_hits(extra.path, cwd)
            if not hits:
                self.through_symlink(view, extra.path, cwd)
                if cwd is None or extra.path[:1] == "~":
                    self.unknown_base(view, extra.path, None, cwd, "target")
        if hits:
            self.reached.update(hits)
            message = NAMED_BELOW if extra.rule == "named-by-data" else BYTECODE if extra.rule == "bytecode" else DERIVED
            self.found(BREAK_EFFECT, message.format(head=head, verb=E.VERBS.get(kind, "writes"), path=shown,
                                                    p=entries[hits[0]]))

    def linked_tree_hits(self, path: str, cwd: tuple[str, ...] | None) -> list[int]:
        """`tree_hits` of the directory a path leads to through symbolic links on disk (`out ->
        .`: a remote tree copied into `out` lands in the root). A link that cannot be followed
        is reported by the path's own write item (`through_symlink`)."""
        disk = self.walk.disk
        if disk is None or cwd is None:
            return []
        parts = relative_parts(path)
        if parts is not None:
            resolved = disk.resolve_below(cwd, parts, follow_last=True)
        else:
            absolute = absolute_segments(path, cwd, self.p.home)
            resolved = disk.resolve(list(absolute), follow_last=True) if absolute is not None else None
        if resolved is None or not isinstance(resolved, list):
            return []
        return self.p.tree_hits("/" + "/".join(resolved), ())
    def bytecode_hits(self, hits: list[int], path: str, cwd: tuple[str, ...] | None) -> list[int]:
        """Of the entries on a compiled directory's branch (`python3 -m compileall DIR`), those
        its bytecode can reach: one it lies in, a `.pyc` file, or a directory below it that
        holds a `.py` file (whose `__pycache__` it makes)."""
        p = self.p
        absolute = absolute_segments(comparable(path, p.fold) or ".", cwd or (), p.home) if p.absolute else None
        if absolute is None:
            return hits
        return [index for index in hits
                if len(p.absolute[index]) <= len(absolute) or p.entries[index].endswith(".pyc")
                or self.may_hold(index, lambda rel: rel.endswith((".py", ".pyw")))]

    def icase_pathspecs(self, view: View) -> bool:
        """Does git run with GIT_ICASE_PATHSPECS set on the line (an unknown value counts)?"""
        value = self.walk.environment(view, "GIT_ICASE_PATHSPECS")
        if value is None:
            return any(a.opaque and a.text.startswith("GIT_ICASE_PATHSPECS=") for a in view.args[: view.inner])
        return value.strip().lower() not in _GIT_FALSE

    def may_hold(self, index: int, accept: Callable[[str], bool]) -> bool:
        """Can the protected entry hold a path (from it) that `accept`s? A file holds none, a
        directory is walked (bounded: past the bound it may); anything else may."""
        disk = self.walk.disk
        if disk is None or self.p.root_segs is None:
            return True
        absolute = [*self.p.root_segs, *self.p.resolved[index]]
        kind = disk.kind(absolute)
        if kind == "file":
            return False
        if kind != "dir":
            return True
        found = disk.tree_has_path(absolute, accept)
        return found if isinstance(found, bool) else True

    def may_hold_restored(self, view: View, index: int, accept: Callable[[str], bool]) -> bool:
        """`may_hold` for a git command that writes the files a pattern matches from the index
        (`git checkout -- '*.sh'`, `git restore`) or from a revision: a file the index records
        below the entry is restored though it is not on disk (round 6); a revision's files, an
        index elsewhere (`GIT_INDEX_FILE`, `-C`, `--git-dir`, `--work-tree`) or one that cannot
        be read may be any."""
        if self.may_hold(index, accept):
            return True
        walk = self.walk
        args = view.args[view.inner + 1 :]
        if _from_revision(args) or view.cwd is None or walk.environment(view, "GIT_INDEX_FILE") is not None \
                or "GIT_INDEX_FILE" in walk.context.scope.values \
                or any(a.text.startswith(("GIT_INDEX_FILE=", "GIT_DIR=", "GIT_WORK_TREE=")) for a in view.args[: view.inner]):
            return True
        from polydeukes.stdlib.shell import disk, gitruns  # only a git command loads them

        found = gitruns._repository(walk, None, view.cwd)
        if found is None:
            return False  # (no repository: git restores nothing)
        top, git_dir = found
        key = ("git index", git_dir)
        if key not in walk.file_scripts:
            walk.file_scripts[key] = walk.disk.index_paths("/" + "/".join((*git_dir, "index")))
        recorded = walk.file_scripts[key]
        if isinstance(recorded, disk.Missing):
            return False  # (no index yet: nothing recorded to restore)
        if not isinstance(recorded, list):
            return True
        entry = (*self.p.root_segs, *self.p.resolved[index])
        return any(_below(top, path.split("/"), entry, accept) for path in recorded)

    def _tree_dir_hits(self, path: str, cwd: tuple[str, ...] | None) -> list[int]:
        """Entries a whole-work-tree effect reaches: git works on the repository that holds
        its directory, which holds the project when the directory is inside it or above it."""
        p = self.p
        if p.root_segs is None:
            return []
        if cwd is None and not path.startswith("/"):
            return list(range(len(p.entries)))  # unknown directory: the repository may be ours
        absolute = absolute_segments(path or ".", cwd if cwd is not None else (), p.home)
        if absolute is None:
            return list(range(len(p.entries)))
        root = list(p.root_segs)
        if absolute[: len(root)] == root or root[: len(absolute)] == absolute:
            return list(range(len(p.entries)))
        return []

    def listed(self, view: View, cwd: tuple[str, ...] | None) -> None:
        """Arguments that stand for every path a lister prints: `{}` of `find … -exec CMD {} ;`
        (`-execdir`, `-ok`), the operands `lister | xargs CMD` appends, `$f` of a loop over a
        lister's output. Where CMD does not prove it only reads one of them (`sed -i`,
        `chmod`, `tee`, an unknown program, a shell, `{}` as the program), each protected
        entry among those paths is reached (`listed_reach`); a write redirect's target that
        expands such a variable (`: > "$f"`, `View.listed_targets`) reaches each always."""
        p = self.p
        for extra in view.listed_targets:
            hits = self.listed_reach(extra.path, extra.pattern, extra.names, cwd, view.glob, False)
            if hits:
                self.reached.update(hits)
                self.found(BREAK_EFFECT, LISTED_TARGET.format(lister=extra.rule, p=p.entries[hits[0]]))
                return
        if not view.listed:
            return
        argv = view.listed_argv
        if argv is None:
            found = view.effects
        else:
            found = E.effects_of(view.name, argv[view.inner + 1 :], view.env, view.inner + 1,
                                 view.model) if view.model is not None else None
        roles = _roles_by_arg(found)
        for extra in view.listed:
            for k in extra.source:
                if proven_read(view, found, (k,), roles):
                    continue
                hits = self.listed_reach(extra.path, extra.pattern, extra.names, cwd, view.glob,
                                         not _SINGLE_FILE_WRITES.issuperset(roles.get(k, (E.UNKNOWN,))))
                if not hits:
                    continue
                self.reached.update(hits)
                if (action := _exec_action(extra.rule)) is not None:
                    name = "{}" if view.inner in extra.source else view.name
                    self.found(BREAK_EFFECT, FIND_EXEC.format(action=action, name=name, p=p.entries[hits[0]]))
                else:
                    name = f"{_feeder(view)} {view.name}" if view.via_xargs else view.name or (
                        view.args[view.inner].text if view.inner < len(view.args) else view.head)
                    self.found(BREAK_EFFECT, LISTED.format(name=name, lister=extra.rule, p=p.entries[hits[0]]))
                return
        argv = argv if argv is not None else view.args
        script = view.file_script
        read = script.listings_read if script is not None else ()
        for extra in view.listed:
            if extra in read:
                continue  # (the files it lists were read as the scripts run: `scripts._listed`)
            for k in extra.source:
                if _runs_listed(view, argv, k, roles):
                    # `ls *.sh | xargs bash`, `find . -name x.sh -exec sh {} \;`: every file
                    # listed is a script it runs, which no judge reads
                    self.unknown_reach = True
                    action = _exec_action(extra.rule)
                    name = f"{action} {view.name if k != view.inner else '{}'}" if action is not None else (
                        f"{_feeder(view)} {view.name}" if view.via_xargs else view.name or view.head)
                    self.found(BREAK_UNREADABLE, LISTED_RUN.format(
                        name=name, lister=action.split(" ", 1)[0] if action is not None else extra.rule))
                    return

    def listed_reach(self, path: str, pattern: str | None, names: tuple[str, ...],
                     cwd: tuple[str, ...] | None, glob, recursing: bool) -> list[int]:
        """The entries among the paths find can list below the start path `path` (or
        `pattern`) that pass its `-name` filters `names`; with `recursing`, also the entries
        below a directory that passes them."""
        p = self.p
        if pattern is not None:
            hits = p.pattern_hits(pattern, cwd, glob)
            if not hits and type(led := self.led_pattern(pattern, cwd)) is str:
                hits = p.pattern_hits(led, cwd, glob)  # (`ls -d l/* | xargs rm` with `l -> ci`)
        else:
            hits = p.tree_hits(path, cwd)
            if not hits and (led := self.led_path(path, cwd)) is not None:
                path, hits = led, p.tree_hits(led, cwd)  # (`find l/ -name 'g*' | xargs rm`)
        if not hits or not names:
            return hits
        visited_from = None
        if recursing:
            start = absolute_segments(path, cwd, p.home) if pattern is None and cwd is not None else None
            # The start's own name is matched too, unless it is spelled `.` (find calls it `.`).
            visited_from = 0 if start is None else len(start) - (path.rstrip("/").rsplit("/", 1)[-1] not in ("", ".", ".."))
        return [h for h in hits if self._find_names_reach(names, h, visited_from)]

    def _find_names_reach(self, names: tuple[str, ...], index: int, visited_from: int | None = None) -> bool:
        """With `-name` filters only matching names are deleted: the entry is safe when it is
        missing, a regular file whose name matches none, or a directory that holds no such name
        (looked up on disk, within bounds; past the bounds it is not safe). A line that made
        the entry first is judged at that write.

        `visited_from`: for a command that may recurse into what it is given (`rm -r {}`,
        `chmod -R`, `mv`), the index in the entry's absolute segments of the first directory
        find visits: a matching name there or below, above the entry, reaches it too."""
        if not names:
            return True
        matchers = []
        for spec in names:
            fold = spec.startswith("i:")
            matchers.append((compile_segment(spec[2:] if fold else spec), fold))

        def accept(name: str) -> bool:
            return all(segment_matches(m, name, dotglob=True, fold=fold) for m, fold in matchers)

        disk = self.walk.disk
        if disk is None or self.p.root_segs is None:
            return True
        absolute = [*self.p.root_segs, *self.p.resolved[index]]
        kind = disk.kind(absolute)
        if kind == "missing":
            return False
        if visited_from is not None and any(accept(name) for name in absolute[visited_from:-1]):
            return True
        if kind == "file":
            return accept(absolute[-1])
        if kind != "dir":
            return True
        found = disk.tree_has(absolute, accept)
        return found if isinstance(found, bool) else True

    def hooks(self, view: View, extra: E.Extra) -> None:
        """`--no-verify` or a new `core.hooksPath` disarms a protected git hook: an entry named
        as a hook it skips (any hook, for a new hooks path), or the hooks directory above it."""
        p = self.p
        skipped = extra.names or GIT_HOOKS
        for index, entry in enumerate(p.entries):
            segments = entry.split("/")
            hook = segments[-1] in skipped
            directory = segments == [".git", "hooks"] or segments == [".git"]  # (not .claude/hooks)
            if hook or directory:
                self.reached.add(index)
                what = f"git {_git_subcommand(view)}"
                hooks = f"protected git hook {entry}" if hook else f"the git hooks of protected path {entry}"
                if extra.rule == "skip-hook":
                    self.found(BREAK_EFFECT, SKIPS_HOOK.format(what=what, how=extra.path, hooks=hooks))
                else:
                    self.found(BREAK_EFFECT, REDIRECTS_HOOKS.format(what=what, hooks=hooks))
                return

    def deferred(self, view: View, extra: E.Extra, cwd: tuple[str, ...] | None, head: str) -> None:
        """An archive's members or a patch's targets, read from disk or stdin, as writes."""
        from polydeukes.stdlib.shell.disk import Missing, Refused, patch_text_links, patch_text_targets, v4a_targets

        p = self.p
        where = view.unknown_directory
        v4a = extra.rule == "v4a"
        if v4a or extra.kind == "extract" and extra.source[0] in E.ANYWHERE_KINDS:
            # (a V4A patch's paths, uudecode's names may be absolute or climb with `..`: any
            # entry may be reached)
            hits = list(range(len(p.entries)))
        elif where is not None:
            # `tar -C c? -xf x.tar`, `patch -d "$D"`: members land below a glob (which may match
            # a directory on an entry's branch) or a word of unknown value (anywhere)
            hits = p.pattern_hits(where.pattern, cwd, view.glob) if where.pattern is not None \
                else list(range(len(p.entries)))
        elif cwd is None and (extra.path or ".")[:1] not in ("/", "~"):
            hits = list(range(len(p.entries)))  # (`cd "$D" && tar xf …`: below a directory anywhere)
        else:
            hits = p.tree_hits(extra.path, cwd)
        if not hits:
            return  # the directory holds no entry: nothing written there can reach one
        disk = self.walk.disk
        kind = extra.source[0]
        listed: list[str] | Missing | Refused
        if extra.kind == "extract":
            archive = extra.source[1]
            path = self.walk.absolute(archive, cwd) if archive is not None else None
            if archive is None:
                listed = Refused("it arrives on stdin" if kind in _NAMED_BY_DATA else "the archive arrives on stdin")
            elif path is None or disk is None:
                listed = Refused("its path is not known")
            elif path in self.walk.written():
                listed = Refused("this line writes it")
            elif extra.source[3]:
                listed = Refused("they are renamed as they are written (cpio -r)" if kind.startswith("cpio") else
                                 "they are renamed as they are written (tar --transform, bsdtar and pax -s)")
            else:
                members = disk.archive_members("/" + "/".join(path), kind)
                if isinstance(members, Missing) and kind == "zip" and not archive.endswith(".zip"):
                    members = disk.archive_members("/" + "/".join(path) + ".zip", kind)
                listed = members if not isinstance(members, list) else member_paths(members, extra.source)
            if isinstance(listed, Missing):
                listed = Refused("it does not exist yet")
            if isinstance(listed, Refused):
                if where is not None and where.pattern is None and (archive is None or path is None or disk is None):
                    # an archive of unknown content (stdin, a word of unknown value) below a word
                    # of unknown value: unjudgeable, as such a word's writes are; a known archive
                    # that cannot be listed fails closed (round r7: `cp x h.tar; tar xf h.tar -C
                    # "$D"` passed)
                    return
                self.unknown_reach = True
                self.reached.update(hits)
                message = UNREAD_NAMES if kind in _NAMED_BY_DATA else \
                    UNLISTED_ANYWHERE if kind in E.ANYWHERE_KINDS else UNLISTED_ARCHIVE
                self.found(BREAK_UNREADABLE, message.format(head=view.name or head if message is UNREAD_NAMES else head,
                                                            archive=archive or "stdin",
                                                            p=p.entries[hits[0]], why=listed.reason))
                return
            rule = extra.rule  # (archive-extract, pip)
        else:
            source = extra.source
            text: str | Missing | Refused = Refused("it arrives on stdin")
            if source[0] == "text":
                text = source[1]
            elif source[0] == "refused":
                text = Refused(source[1])
            elif source[0] == "file" and disk is not None:
                path = self.walk.absolute(source[1], cwd)
                if path is None:
                    text = Refused("its path is not known")
                elif path in self.walk.written():
                    text = Refused("this line writes it")
                else:
                    text = disk.read_text("/" + "/".join(path))
                    if isinstance(text, Missing):
                        text = Refused(f"{source[1]} does not exist yet")
            if isinstance(text, str) and v4a:
                listed, refused = v4a_targets(text, partial(self._patched_text, cwd))
                if refused is not None and (index := self.code_index(text, cwd)) >= 0:
                    # (a patch the tool refuses may be applied in part, with paths this reading
                    # cannot be sure of)
                    listed = Refused(refused)
                    hits = [index]
            elif isinstance(text, str):
                # (the places its symbolic links lead count as written: `l -> ci`, then `l/gate.sh`)
                listed = patch_text_targets(text)
                if not isinstance(listed, Refused) and "120000" in text:
                    listed = [*listed, *patch_text_links(text)]
            else:
                listed = text
            if isinstance(listed, Refused):
                if where is not None and where.pattern is None:
                    return  # below a word of unknown value: unjudgeable, as such a word's writes are
                self.unknown_reach = True
                self.reached.update(hits)
                self.found(BREAK_UNREADABLE, UNREAD_PATCH.format(head=head, why=listed.reason, p=p.entries[hits[0]]))
                return
            prefix = source[3] if len(source) > 3 and source[3] else ""
            listed = [prefix.rstrip("/") + "/" + path if prefix else path for path in listed]
            rule = head if v4a else "patch"
        if where is not None:
            self.unknown_destination(view, where, listed, cwd, head)
            return
        base = extra.path or "."
        if cwd is None and base[:1] not in ("/", "~"):
            # `cd "$D" && tar xf /x/h.tar`: each member can be any path that ends as it does, as
            # `rm gate.sh` there can (`unknown_base`; round r7, before nothing matched)
            for member in listed:
                if member[:1] == "/" or member[:2] == "~/":
                    # (cpio's, pax's, uudecode's absolute names land where they say, from anywhere)
                    hits = p.anchored_hits(member, cwd)
                    if hits:
                        self.reached.update(hits)
                        self.found(BREAK_PRECISE_WRITE, PRECISE.format(rule=extra.rule, p=p.entries[hits[0]]))
                        return
                    continue
                relative = member if base in (".", "./", "") else base.rstrip("/") + "/" + member
                self.unknown_base(view, relative, None, cwd, "member", shown=member)
                if self.reason is not None:
                    return
            return
        for member in listed:
            # (uudecode's names may be absolute or below `~/`)
            target = member if member[:1] == "/" or member[:2] == "~/" else (base.rstrip("/") + "/" + member)
            # An archive member lands where its name says (resolved, not matched by spelling);
            # a patch's target also under any `-p` strip of it, so its name is matched anywhere.
            hits = p.anchored_hits(target, cwd)
            if not hits and rule == "patch":
                index = p.match(member.lstrip("/"), cwd)
                hits = [index] if index >= 0 else []
                if not hits and len(extra.source) > 4:  # its backups (`patch -B ci/`, `-z .sh`)
                    from polydeukes.stdlib.shell.readers import patch_backups

                    named = member if base in (".", "") else target
                    for pattern in patch_backups(escape_pattern(named), extra.source[4]):
                        hits = hits or p.pattern_hits(pattern, cwd, view.glob)
            if hits:
                self.reached.update(hits)
                self.found(BREAK_PRECISE_WRITE, PRECISE.format(rule=rule, p=p.entries[hits[0]]))
                return
            self.through_symlink(view, target, cwd)

    def unknown_destination(self, view: View, where: Arg, listed: list[str], cwd: tuple[str, ...] | None,
                            head: str) -> None:
        """Members (or patched files) written below a glob, matched as the glob joined with
        each name; below a word of unknown value, every path that ends with the name is one
        (as `unknown_prefix` reads `$D/gate.sh`)."""
        p = self.p
        for member in listed:
            member = member.lstrip("/")
            if where.pattern is not None:
                hits = p.pattern_hits(where.pattern.rstrip("/") + "/" + escape_pattern(member), cwd, view.glob)
            else:
                hits = self._tail_hits((unknown_tail(where.text) or "") + "/" + member)
            if hits:
                self.reached.update(hits)
                self.found(BREAK_PATTERN, UNKNOWN_DESTINATION.format(head=head, member=member, word=where.text,
                                                                     p=p.entries[hits[0]]))
                return

    def _patched_text(self, cwd: tuple[str, ...] | None, spelled: str) -> str | None:
        """A V4A patch's target as it is before the patch (`v4a.parse_patch`'s reader): None
        when it is not there; a file that cannot be read refuses the patch."""
        from polydeukes.stdlib.adapters.v4a import PatchRefused
        from polydeukes.stdlib.shell.disk import Missing

        walk = self.walk
        path = walk.absolute(spelled, cwd)
        if path is None or walk.disk is None:
            raise PatchRefused(f"the place of {spelled} is not known")
        if path in walk.written():
            raise PatchRefused(f"this line writes {spelled}")
        text = walk.disk.read_text("/" + "/".join(path))
        if isinstance(text, Missing):
            return None
        if not isinstance(text, str):
            raise PatchRefused(f"{spelled} cannot be read within bounds ({text.reason})")
        return text

    def code_mention(self, view: View, found: E.Effects | None, cwd: tuple[str, ...] | None) -> int:
        """An interpreter's code (or stdin program, or a script the line wrote) that spells a
        protected path, string fragments joined."""
        codes: list[str] = []
        reads_stdin = True  # no code or program operand other than `-`
        for it in found.items if found is not None else ():
            if it.role == E.CODE or it.role == E.EXEC:
                if it.role == E.CODE:
                    codes.append(it.text)
                if it.text != "-":
                    reads_stdin = False
        model = view.model
        interpreter = model is not None and model.handler == "interpreter"
        if reads_stdin and interpreter or view.stdin_program or interpreter and view.env.heredocs and codes \
                and any(_CODE_READS_STDIN().search(code) for code in codes):
            # (`python3 - <<EOF`, `ed -s <<EOF`; code that reads its stdin takes the body as code or
            # as names: `python3 -c 'import sys; exec(sys.stdin.read())' <<EOF`)
            codes.extend(view.env.heredocs)
            for h in view.cmd.heredocs:
                if not h.literal and "$" in h.body:
                    # an unquoted body's variables, expanded where the line gives them one value
                    # (`D=ci; python3 <<EOF` with `os.remove("$D/gate.sh")`)
                    expanded = _BODY_VARIABLE().sub(
                        lambda m: self.walk.environment(view, m.group(1) or m.group(2)) or m.group(0), h.body)
                    if expanded != h.body:
                        codes.append(expanded)
        if view.written_code is not None:
            codes.append(view.written_code)
        for code in codes:
            index = self.code_index(code, cwd)
            if index >= 0:
                return index
        return -1

    def code_index(self, code: str, cwd: tuple[str, ...] | None) -> int:
        """The first entry a program's text spells, string fragments joined (-1: none). Where
        the program runs in a directory of unknown place (`cd s?b && python3 -c …`, `cd "$D"
        && …`), its relative names are read from each directory a `cd` pattern matches on
        disk, or else as paths below any directory (`unknown_base`'s rule)."""
        index = self._code_index(code, cwd)
        if index >= 0 or cwd is not None or self.code_view is None:
            return index
        view = self.code_view
        if view.cwd_glob is not None:
            from polydeukes.stdlib.shell.scripts import glob_matches  # (only a directory pattern)

            directories = glob_matches(self.walk, view, view.cwd_glob[1], view.cwd_glob[0], absolute=True)
            if isinstance(directories, list):
                for directory in directories:
                    index = self._code_index(code, tuple(s for s in directory.split("/") if s))
                    if index >= 0:
                        return index
                return -1
        for candidate in code_candidates(code)[1:]:
            for piece in path_candidates(candidate, True):
                if piece[:1] not in ("/", "~", "$", "") and piece not in (".", ".."):
                    hits = self._tail_hits("/" + piece)
                    if hits:
                        return hits[0]
        return -1

    def _code_index(self, code: str, cwd: tuple[str, ...] | None) -> int:
        p = self.p
        if "/proc/" in code or "/dev/fd/" in code:
            # (`shutil.rmtree("/proc/self/cwd/ci")`: a directory named through the process
            # files is read as the working directory, whosever it is)
            code = _PROCESS_DIRECTORY_IN_CODE().sub("", code)
        # (`spelled_in` first, as the judge's other mention tests: a program file of 100 KB
        # split into words and matched word by word took half a second)
        filtered = not p.cwd_spelled(cwd)
        candidates = code_candidates(code)
        for candidate in candidates:
            if filtered and not p.spelled_in(candidate):
                continue
            for piece in path_candidates(candidate, True):
                if filtered and not p.spelled_in(piece):
                    continue
                index = p.match(piece, cwd)
                if index >= 0:
                    return index
        # A string that is a pathname pattern with a directory part (`glob.glob("c?/g*")`,
        # perl's `glob "c?/g*"`): the files it can match, as a shell glob's.
        for candidate in candidates[1:]:
            if "/" in candidate and _CODE_PATTERN().fullmatch(candidate):
                hits = p.pattern_hits(candidate, cwd, _CODE_GLOB)
                if hits:
                    return hits[0]
        return -1

    def imported(self, view: View, cwd: tuple[str, ...] | None) -> None:
        """The project's modules an interpreter's program imports (imports.py), read within
        bounds: a protected path their code mentions fails closed, as the program's own."""
        from polydeukes.stdlib.shell import imports  # only an interpreter's program loads it

        script = view.file_script
        if script is not None and script.made is not None:
            script = None  # (the data a program makes commands of: its code is on the line)
        codes: list[str] = []
        module = None  # (`python3 -m NAME`)
        if script is not None:
            if script.shell or script.text is None:
                return
            language = imports.family(script.runner) or imports.file_family(script.path)
            if language is None and script.runner in PROJECT_TOOLS and script.runner != "cargo" \
                    and script.runner not in EXEC_OPTION_PROGRAMS:  # (their option files: execopts.py)
                # A build description in a language not modelled (meson.build, SConstruct, BUILD,
                # flake.nix): the script files its strings name are read (round r8:
                # `run_command('bash', 'x.sh')` passed)
                language = imports.OTHER
            elif language is None and basename(script.runner) in _other_languages():
                language = imports.OTHER  # (round 8: `expect x.exp`'s `spawn sh x.sh`: the script files it names)
            path = self.walk.absolute(script.path, cwd)
            base = path[:-1] if path else None  # (a script's own directory comes first on the path)
            if language == imports.SHELL_LIKE:
                base = cwd  # (a shell's `source FILE` is relative to where it runs)
            if script.tests is not None and script.tests.import_root is not None:
                base = script.tests.import_root  # (unittest's: its top-level directory)
            codes.append(script.text)
        else:
            language = imports.family(view.name)
            base = cwd
            found = view.effects
            for it in found.items if found is not None else ():
                if it.role == E.CODE:
                    codes.append(it.text)
                elif it.role == E.EXEC and it.option == "-m" and language == "python":
                    codes.append(f"import {it.text}\nfrom {it.text} import __main__")  # `python3 -m tool`
                    module = it
            if not codes and language is not None:
                codes.extend(view.env.heredocs)  # `python3 - <<EOF`
            if language is None and codes:
                language = imports.OTHER  # awk's `system("sh x.sh")`: the script files it names
            if self.judged_last is None:
                # (the program's own text; a module run by `-m` is read as an import, below)
                for code in codes:
                    made = made_text(code, listings=script is None) if not code.endswith(" import __main__") else None
                    if made is not None:
                        self.judged_last = MADE_IN_CODE.format(head=view.head, how=made[0], call=made[1])
                        break
        if language is None:
            return
        if language == "perl":
            # `-MFoo`, `-mFoo`, `-d:Foo` load modules before the program; `-I DIR` and
            # `PERL5LIB` put directories on @INC (round 6)
            loaded, search_path = _perl_switches(view, self.walk, cwd)
            if loaded:
                codes = [loaded + "\n" + code for code in codes] or [loaded]
        elif language == "ruby":
            # `-rLIB` requires LIB before the program, looked up on `-I DIR` and `RUBYLIB`
            # (round 8: `ruby -I. -revil -e 1` loads ./evil.rb)
            loaded, search_path = _ruby_switches(view, self.walk, cwd)
            if loaded:
                codes = [loaded + "\n" + code for code in codes] or [loaded]
        else:
            search_path = _python_path(view, self.walk, cwd) if language == "python" else (
                _search_path(self.walk, view, cwd, [], "NODE_PATH") if language == "js" else ())
            if search_path and not codes:
                codes.append("")  # (`PYTHONPATH=. pytest`: its sitecustomize.py runs first all the same)
        if language == "python" and (self._startup(view, cwd, imports)
                                     or module is not None and module.text == "pickle"
                                     and self._unpickled(view, cwd, module.index + 1)):
            return
        if base is None and view.cwd_glob is None and self.walk.disk is not None:
            # `cd "$D" && python3 -c 'import x'`, `python3 -m x`: the modules of a directory that
            # may lie outside the project, holding any x.py (round r7); judged last, so a
            # mention in the code itself names the entry first
            site = not any(a.text[:1] == "-" and a.text[1:2] != "-" and "S" in a.text
                           for a in view.args[view.inner + 1 :])  # (`python3 -S`: `site` not run)
            for code in codes:
                unplaced = imports.first_import(language, code, site)
                if unplaced is not None:
                    self.judged_last = self.judged_last or UNREADABLE_MODULE.format(
                        head=view.head, module=unplaced, why=UNKNOWN_DIRECTORY)
                    return
        for code in codes:
            if self._modules(view, cwd, imports.local_modules(self.walk, language, code, base, cwd, search_path)):
                return

    def python_started(self, view: View, cwd: tuple[str, ...] | None) -> None:
        """A Python console script not named as Python (`pip`, `black`, a program whose file
        starts with a Python shebang: `_runs_python`; round r7): what Python runs before it,
        its start-up files (`_startup`) and the `sitecustomize.py`/`usercustomize.py` and
        standard-library shadows of `PYTHONPATH`, judged as for `python3`."""
        from polydeukes.stdlib.shell import imports  # only a Python run loads it

        if self._startup(view, cwd, imports):
            return
        search_path = _python_path(view, self.walk, cwd)
        if search_path:
            self._modules(view, cwd, imports.local_modules(self.walk, "python", "", search_path[0], cwd, search_path))

    def startup(self, view: View, cwd: tuple[str, ...] | None, row, name: str, at: int) -> None:
        """The start-up files a program reads where it runs (startup.py, round r8): each is
        read within the scripts' bounds and judged as the program's code, with the project's
        files its code imports or names; saved state that is not text (R's `.RData`) and a
        settings file that points the program at other code fail closed when there; so does a
        start-up file of a directory of unknown value (judged last) or of unknown name."""
        from polydeukes.stdlib.shell import imports, startup
        from polydeukes.stdlib.shell.disk import PROGRAM_BYTES, Refused
        from polydeukes.stdlib.shell.scripts import _text

        read = startup.reads(name, view.args, at, row)
        walk = self.walk
        if read is None or walk.disk is None:
            return
        head = view.head
        if read.directory is not None:
            where = walk.absolute(read.directory, cwd) if read.directory != "$" else None
        else:
            where = cwd
        if where is None:
            if view.cwd_glob is None or read.directory is not None:
                spelled = (read.files or read.state or read.settings)[0]
                self.judged_last = self.judged_last or STARTUP_UNREADABLE.format(
                    head=head, path=spelled, why=UNKNOWN_DIRECTORY)
            return
        shown = (lambda spelled: spelled) if read.directory is None else (
            lambda spelled: read.directory.rstrip("/") + "/" + spelled)
        for spelled in read.settings:
            text = _text(walk, view, "/" + "/".join(where + (spelled,)))
            if isinstance(text, Refused) or view.runs_written is not None and text is None:
                self._startup_refused(view, shown(spelled), text)
                return
            if isinstance(text, str):
                variable = startup.redirecting(text, read.row)
                if variable is not None:
                    self.unknown_reach = True
                    self.found(BREAK_UNREADABLE, STARTUP_SETTING.format(head=head, path=shown(spelled),
                                                                        variable=variable))
                    return
        for spelled in read.state:
            path = where + (spelled,)
            if path in walk.written() or walk.disk.kind(list(path)) not in ("missing", "dir"):
                self.unknown_reach = True
                self.found(BREAK_UNREADABLE, STARTUP_STATE.format(head=head, path=shown(spelled)))
                return
        language = row.language or imports.OTHER
        home = walk.home_segs
        files = read.files + (["/" + "/".join(home + (spelled,)) for spelled in read.home] if home else [])
        for spelled in files:
            if spelled == "$":
                self.unknown_reach = True
                self.found(BREAK_UNREADABLE, STARTUP_UNREADABLE.format(
                    head=head, path="its configuration file", why="its name is unknown"))
                return
            path = walk.absolute(spelled, where) if read.directory is not None or spelled[:1] == "/" \
                else walk.absolute(spelled, cwd)
            if path is None:
                continue
            before = view.runs_written
            text = _text(walk, view, "/" + "/".join(path), PROGRAM_BYTES)
            if isinstance(text, Refused) or text is None and view.runs_written is not before:
                self._startup_refused(view, shown(spelled), text)
                return
            if text is None:
                continue
            index = self.code_index(text, cwd)
            if index >= 0:
                self.reached.add(index)
                self.found(BREAK_CODE_MENTION, STARTUP_CODE.format(head=head, path=shown(spelled),
                                                                  p=self.p.entries[index]))
                return
            if language == "python" and "!" in text:
                text = _PDB_STATEMENT().sub("", text)  # (`!import tool`: a statement pdb runs)
            if self._modules(view, cwd, imports.local_modules(walk, language, text, path[:-1], cwd, ())):
                return

    def _startup_refused(self, view: View, path: str, text) -> None:
        from polydeukes.stdlib.shell.disk import Refused

        self.unknown_reach = True
        if isinstance(text, Refused):
            self.found(BREAK_UNREADABLE, STARTUP_UNREADABLE.format(head=view.head, path=path, why=text.reason))
        else:
            self.found(BREAK_UNREADABLE, WRITTEN_SCRIPT.format(head=view.head, path=path))

    def _startup(self, view: View, cwd: tuple[str, ...] | None, imports) -> bool:
        """What Python runs at start-up before the program (imports.startup_code), from the
        site-packages directories of a venv whose interpreter the command names
        (`.venv/bin/python`, or a `python3` found first on the PATH the line set: the walk
        rewrites it to that path), of `PYTHONUSERBASE`, and of any start-up file the line wrote
        (`> .venv/lib/python3.12/site-packages/x.pth`, or its code did:
        `Context.python_written`): judged as imported modules (but for setuptools' generated
        editable finder, data: `imports.startup_modules`); a `PYTHONHOME` of the project
        fails closed. True when the command is found breaking. (`imports`: the module, loaded
        by the caller; an import statement costs every Python run some thousands of
        instructions.)"""
        walk = self.walk
        if walk.disk is None:
            return False
        prefixes: list[tuple[str, ...]] = []
        program = view.args[view.inner].text if view.inner < len(view.args) else ""
        venv = None
        if "/" in program and not view.args[view.inner].opaque:
            path = walk.absolute(program, cwd)
            if path is not None and len(path) > 2 and path[-2] == "bin" \
                    and walk.disk.kind(list(path[:-2] + ("pyvenv.cfg",))) == "file":
                venv = path[:-2]  # (a venv's interpreter or console script)
                prefixes.append(venv)
        user_base = walk.environment(view, "PYTHONUSERBASE")
        if user_base:
            path = walk.absolute(user_base, cwd)
            if path is not None:
                prefixes.append(path)
        else:
            # (round r7: `~/.local/lib/python3.N/site-packages`, which an earlier call may have
            # written outside the project; one look per line when it is not there)
            home = _python_user_home(view, walk, cwd)
            if home is not None and imports.user_site_present(walk, home) \
                    and _user_site_enabled(view, walk, venv, imports):
                prefixes.append(home + (".local",))
        home = _python_home(view, walk, cwd)
        if home is not None:
            # `PYTHONHOME=.venv python3`: the standard library (`encodings`, `site`, `os` …) is
            # imported from HOME/lib/python3.N, the project's files (or files the line wrote
            # there), every one of them code
            self.unknown_reach = True
            spelled, why = home
            self.found(BREAK_UNREADABLE, UNREADABLE_MODULE.format(
                head=view.head, module=spelled.rstrip("/") + "/lib", why=why))
            return True
        directories: list[tuple[str, ...]] = []
        for prefix in prefixes:
            found = imports.site_directories(walk, prefix)
            if not isinstance(found, list):  # (a refusal)
                self.unknown_reach = True
                self.found(BREAK_UNREADABLE, UNREADABLE_MODULE.format(
                    head=view.head, module=_shown_path("/" + "/".join(prefix), cwd), why=found.reason))
                return True
            directories.extend(found)
        compiled, startup, _ = imports.written_python(walk)
        coded = [w for w in walk.context.python_written if w not in walk.context.removed]
        if compiled or coded:
            # `cp evil.pyc __pycache__/x.cpython-312.pyc; python3 -c 'import x'`: Python runs a
            # compiled module in place of its source (an unchecked hash, or a header that
            # matches the source's time and size), whose code this layer cannot read
            self.unknown_reach = True
            self.found(BREAK_UNREADABLE, WRITTEN_SCRIPT.format(
                head=view.head, path=_shown_path("/" + "/".join((compiled or coded)[0]), cwd)))
            return True
        directories.extend(w[:-1] for w in startup)
        for directory in dict.fromkeys(directories):
            code, files = imports.startup_code(walk, directory)
            if self._modules(view, cwd, [(path, text, False) for path, text in files]):
                return True
            if code and self._modules(view, cwd, imports.startup_modules(walk, code, directory, cwd)):
                return True
        return False

    def _unpickled(self, view: View, cwd: tuple[str, ...] | None, start: int) -> bool:
        """`python3 -m pickle FILE…` loads each file: unpickling calls whatever callables the
        pickle names (`os.system`, `posix.remove`), so a file is code unless its opcodes
        (`pickletools.genops`, which runs nothing) only build data. A pickle that names a
        callable or a class, that cannot be parsed, or that comes from stdin (`-`) or a file
        of unknown name fails closed (True). `start`: the index of pickle's first word."""
        if self.walk.disk is None:
            return False
        for a in view.args[start:]:
            if a.text.startswith("-") and a.text != "-" and not a.opaque:
                continue  # (`-v`, `-t`)
            why = _pickle_calls(self.walk, a, cwd)
            if why is not None:
                self.unknown_reach = True
                self.found(BREAK_UNREADABLE, UNREADABLE_SCRIPT.format(runner=view.head, path=a.text, why=why))
                return True
        return False

    def _modules(self, view: View, cwd: tuple[str, ...] | None, modules) -> bool:
        """Judge the modules `imports.local_modules` found: one written on the line with content
        unknown, unreadable, or whose code mentions an entry breaks (True)."""
        from polydeukes.stdlib.shell import imports
        from polydeukes.stdlib.shell.disk import CompiledText  # (modules were read: the disk is loaded)

        for module, text, named in modules:
            shown = _shown_path(module, cwd)
            if text is imports.WRITTEN:
                self.unknown_reach = True
                self.found(BREAK_UNREADABLE, WRITTEN_SCRIPT.format(head=view.head, path=shown))
                return True
            if not isinstance(text, str):
                self.unknown_reach = True
                self.found(BREAK_UNREADABLE, UNREADABLE_MODULE.format(head=view.head, module=shown, why=text.reason))
                return True
            if isinstance(text, CompiledText):  # (an extension module: its names, not code)
                index = self.p.compiled_index(text, cwd)
            else:
                if self.judged_last is None:
                    made = made_text(text)
                    if made is not None:
                        self.judged_last = MADE_IN_MODULE.format(head=view.head, module=shown, how=made[0],
                                                                  call=made[1])
                index = self.code_index(text, cwd)
            if index >= 0:
                self.reached.add(index)
                message = NAMED_SCRIPT if named else IMPORTED
                self.found(BREAK_CODE_MENTION, message.format(head=view.head, module=shown, p=self.p.entries[index]))
                return True
        return False

    def file_script(self, view: View, cwd: tuple[str, ...] | None, cwd_spelled: bool) -> None:
        """A script file on disk the command runs (scripts.py): read within bounds, or the
        command fails closed; a shell script that mentions an entry is unabsolved as a
        shell's `-c` text is (§8.5 (e)); another interpreter's program is code."""
        script = view.file_script
        if script.rewritten is not None:
            self.unknown_reach = True
            self.found(BREAK_UNREADABLE, REWRITTEN.format(head=script.runner, stage=script.rewritten))
            return
        if script.refused is not None:
            if view.listed:  # (`sh $(git ls-files)`: a listing that reaches an entry says so first)
                self.listed(view, cwd)
            self.unknown_reach = True
            self.found(BREAK_UNREADABLE, UNREADABLE_SCRIPT.format(runner=script.runner, path=script.path,
                                                                  why=script.refused))
            return
        if script.made is not None:
            return  # (data, judged after the program's code: `command`)
        from polydeukes.stdlib.shell.disk import CompiledText  # (a script was read: the disk is loaded)

        # A script of several files or scripts (`node -r ./x.js y.js`, what pytest imports,
        # npm's life cycle scripts) names the one that mentions the entry.
        index = -1
        parts = [(path, text, script.shell) for path, text in script.parts or ((script.path, script.text),)]
        for path, text, shell in parts + [(path, text, False) for path, text in script.code_parts]:
            message = SCRIPT_MENTION if shell else SCRIPT_CODE
            if shell:
                index = self.p.first_in_text(text, False, cwd, cwd_spelled)
            elif isinstance(text, CompiledText):
                index = self.p.compiled_index(text, cwd)
            else:
                index = self.code_index(text, cwd)
                if index < 0 and isinstance(script.directory, tuple) and script.directory != cwd:
                    index = self.code_index(text, script.directory)  # (pip's build backend runs there)
            if index >= 0:
                break
            if not shell and self.judged_last is None and not isinstance(text, CompiledText) \
                    and _program_text(script.runner, path):
                made = made_text(text)
                if made is not None:
                    self.judged_last = MADE_IN_SCRIPT.format(runner=script.runner, path=path, how=made[0],
                                                              call=made[1])
        if index >= 0:
            self.reached.add(index)
            self.found(BREAK_CODE_MENTION, message.format(runner=script.runner, path=path,
                                                          p=self.p.entries[index]))


def _runs_listed(view: View, argv: Sequence[Arg], k: int, roles: dict[int, tuple[str, ...]]) -> bool:
    """Is the listed path at `argv[k]` a program or script the command runs: the command
    itself (`-exec {} ;`), a shell's script operand (not `-c`'s arguments), what `source`
    reads, or an interpreter's program (its `exec` or `code` role)?"""
    inner = view.inner
    if k == inner:
        return True
    name = view.name
    if name in _SCRIPT_SHELLS:
        options = shell_options(argv[inner + 1 :])
        return options is None or "c" not in options[1] and "s" not in options[1] and k == inner + 1 + options[0]
    if name in ("source", "."):
        return k == inner + 1
    return view.model is not None and view.model.handler == "interpreter" and bool(
        {E.EXEC, E.CODE} & set(roles.get(k, ())))


_SCRIPT_SHELLS = NESTED_SHELLS - {"eval"}


def _found_names(listed: tuple) -> bool:
    """Are all the names a lister gives spelled below find's start paths, none beginning
    with `+` (`find . -name '*.md' | xargs less` gets `./…`)?"""
    # (a start of unknown value is listed as `/`: it may be spelled anyhow)
    return bool(listed) and all(extra.rule == "find" and extra.path not in ("", "/") and extra.path[:1] != "+"
                                for extra in listed)


def _program_text(runner: str, path: str) -> bool:
    """Is a file a runner reads a program in a language coded.made_text knows (not a
    configuration file: `.cargo/config.toml`)?"""
    from polydeukes.stdlib.shell import imports
    from polydeukes.stdlib.shell.interpreters import FAMILIES, family_of

    name = basename(runner)
    return imports.family(runner) is not None or imports.file_family(path) is not None \
        or family_of(name) in FAMILIES or name in _AWKS


_AWKS = frozenset({"awk", "gawk", "mawk", "nawk"})


def _other_languages():
    from polydeukes.stdlib.shell.interpreters import _OTHER_LANGUAGES

    return _OTHER_LANGUAGES


def _only_reads(view: View) -> bool:
    """Is the command one whose model proves every effect on these arguments a read?"""
    model = view.model
    if model is None or not model.pure or view.name in NESTED_SHELLS:
        return False
    found = view.effects
    return found is not None and found.unproven is None and all(it.role in E.HARMLESS for it in found.items)


# The pickle opcodes that only build data (`pickletools.opcodes`' names): any other one calls
# or names code (GLOBAL, STACK_GLOBAL, REDUCE, BUILD, INST, OBJ, NEWOBJ, EXT*, PERSID …).
_PICKLE_DATA = frozenset({
    "INT", "BININT", "BININT1", "BININT2", "LONG", "LONG1", "LONG4", "STRING", "BINSTRING", "SHORT_BINSTRING",
    "BINBYTES", "SHORT_BINBYTES", "BINBYTES8", "BYTEARRAY8", "NEXT_BUFFER", "READONLY_BUFFER", "NONE",
    "NEWTRUE", "NEWFALSE", "UNICODE", "SHORT_BINUNICODE", "BINUNICODE", "BINUNICODE8", "FLOAT", "BINFLOAT",
    "EMPTY_LIST", "APPEND", "APPENDS", "LIST", "EMPTY_TUPLE", "TUPLE", "TUPLE1", "TUPLE2", "TUPLE3",
    "EMPTY_DICT", "DICT", "SETITEM", "SETITEMS", "EMPTY_SET", "ADDITEMS", "FROZENSET", "POP", "DUP", "MARK",
    "POP_MARK", "GET", "BINGET", "LONG_BINGET", "PUT", "BINPUT", "LONG_BINPUT", "MEMOIZE", "PROTO", "STOP",
    "FRAME",
})


def _pickle_calls(walk, a, cwd: tuple[str, ...] | None) -> str | None:
    """Why loading the pickle file `a` may run code (the message's reason), or None when it
    only builds data (or there is no such file: pickle's command line stops)."""
    from polydeukes.stdlib.shell.disk import FILE_BYTES, Missing

    if a.opaque or a.pattern is not None or a.text == "-":
        return "a pickle of unknown content: unpickling runs the code it names"
    path = walk.absolute(a.text, cwd)
    if path is None:
        return "a pickle of unknown content: unpickling runs the code it names"
    written = walk.written()
    if path in written and path not in walk.context.removed:
        data = written[path]
        if data is None:
            return "this line writes it with content this layer does not compute"
        data = data.encode("utf-8", errors="surrogateescape")
    else:
        data = walk.disk.read_bytes("/" + "/".join(path), FILE_BYTES)
    if isinstance(data, Missing):
        return None
    if not isinstance(data, bytes):
        return data.reason
    import pickletools  # only `-m pickle` loads it

    try:
        for opcode, _, _ in pickletools.genops(data):
            if opcode.name not in _PICKLE_DATA:
                return f"unpickling it runs code: its {opcode.name} names a callable"
            if opcode.name == "STOP":
                return None  # (pickle.load reads one pickle)
    except Exception:  # (a malformed pickle: what it would run before failing is not told)
        return "it is no pickle this layer can read"
    return "it is no pickle this layer can read"


def _python_home(view: View, walk, cwd: tuple[str, ...] | None) -> tuple[str, str] | None:
    """The `PYTHONHOME` the command runs with, spelled for the message, and why its standard
    library cannot be read, when it may be a directory of the project (inside it, or of
    unknown value) or one the line writes into (round r7: `cp x.py /tmp/h/lib/python3.11/
    site.py; PYTHONHOME=/tmp/h python3`); None when it is not given or names another
    directory outside the project (the system's, a toolchain's)."""
    given = None
    for a in reversed(view.args[: view.inner]):
        if a.text.startswith("PYTHONHOME="):
            given = a
            break
    if given is not None:
        value = None if given.opaque else given.text[len("PYTHONHOME=") :]
    elif "PYTHONHOME" in walk.context.scope.values:
        value = walk.environment(view, "PYTHONHOME")
    else:
        return None
    if value is None:
        return "$PYTHONHOME", "PYTHONHOME is of unknown value"  # (it may be the project's)
    if value == "":
        return None  # (empty: Python's own)
    path = walk.absolute(value, cwd)
    root = walk.root_segs
    if path is not None and root is not None and path[: len(root)] != root:
        context = walk.context
        depth = len(path)
        for written in (walk.written(), context.trees_written, context.links):
            for w in written:
                if w is not None and w[:depth] == path:
                    return value, "PYTHONHOME names a directory this line writes into"
        return None
    return value, "PYTHONHOME names a directory of the project"


_PYTHON_ENVIRONMENT = ("PYTHONPATH=", "PYTHONHOME=")


def _runs_python(view: View, walk, cwd: tuple[str, ...] | None) -> bool:
    """Does the command start Python though its name is not an interpreter's (round r7)? A
    known console script (`PYTHON_TOOLS`), a program named by path whose file
    starts with a `#!…python…` line, and any program but a builtin or a pure reader given
    `PYTHONPATH` or `PYTHONHOME` (a console script of the environment this layer cannot look
    up: `PYTHONPATH=. yq`)."""
    if view.inner >= len(view.args):
        return False
    name = basename(view.name)
    if name in PYTHON_TOOLS:
        return True
    program = view.args[view.inner]
    if "/" in program.text and not program.opaque:
        path = walk.absolute(program.text, cwd)
        from polydeukes.stdlib.shell.disk import PROGRAM_BYTES  # (a program run by its path: the disk is read)

        text = walk.read_file(path, PROGRAM_BYTES) if path is not None else None
        if isinstance(text, str) and text.startswith("#!") and "python" in text.partition("\n")[0]:
            return True
    if walk.context.python_environment or any(a.text.startswith(_PYTHON_ENVIRONMENT) for a in view.args[: view.inner]):
        return name not in BUILTINS and not _only_reads(view)
    return False


def _user_site_enabled(view: View, walk, venv: tuple[str, ...] | None, imports) -> bool:
    """Does Python run the user site's start-up files for this command (round r7)? Not with
    `-s` or `-I` before the program, nor `PYTHONNOUSERSITE` set (unless `-E`), nor for a venv's
    program whose pyvenv.cfg leaves out the system site-packages (`include-system-site-packages`
    other than `true`: `site.venv`). A pyvenv.cfg that cannot be read reads the user site
    (reading more only fails closed)."""
    ignores_environment = False
    if basename(view.name).startswith(("python", "pypy")):
        for flag in _python_flags(view):
            if flag in "sI":
                return False
            ignores_environment = ignores_environment or flag == "E"
    if not ignores_environment and walk.environment(view, "PYTHONNOUSERSITE"):
        return False
    if venv is not None:
        text = walk.read_file(venv + ("pyvenv.cfg",), imports.FILE_BYTES)
        if isinstance(text, str):
            return imports.venv_system_site(text)
    return True


def _python_flags(view: View) -> str:
    """The one-letter flags before a Python interpreter's program (`-sE` -> "sE"), up to the
    first `-c`, `-m`, operand or word of unknown value."""
    args = view.args
    flags: list[str] = []
    k = view.inner + 1
    while k < len(args):
        a = args[k]
        t = a.text
        if a.opaque or not t.startswith("-") or t in ("-", "--"):
            break
        if t.startswith("--"):
            k += 2 if t == "--check-hash-based-pycs" else 1
            continue
        for j, letter in enumerate(t[1:], 1):
            if letter in "cm":
                return "".join(flags)
            if letter in "WX":
                if j == len(t) - 1:
                    k += 1  # (its value is the next word)
                break
            flags.append(letter)
        k += 1
    return "".join(flags)


def _python_user_home(view: View, walk, cwd: tuple[str, ...] | None) -> tuple[str, ...] | None:
    """The home directory whose `.local` is Python's user base for the command: `HOME` given
    to it, else the line's home (None when unknown)."""
    given = walk.environment(view, "HOME")
    if given is not None:
        return walk.absolute(given, cwd) if given.startswith("/") else None
    return walk.home_now()


def _python_path(view: View, walk, cwd: tuple[str, ...] | None) -> tuple[tuple[str, ...], ...]:
    """The directories a `PYTHONPATH=…` in front of the command (or given through `env`, or
    assigned earlier on the line: `Walk.environment`) puts on Python's path, as absolute
    segments (one of unknown value: left out)."""
    out: list[tuple[str, ...]] = []
    value = walk.environment(view, "PYTHONPATH")
    for directory in value.split(":") if value is not None else ():
        path = walk.absolute(directory or ".", cwd)
        if path is not None:
            out.append(path)
    return tuple(out)


def _perl_switches(view: View, walk, cwd: tuple[str, ...] | None) -> tuple[str, tuple[tuple[str, ...], ...]]:
    """What perl's command line loads before the program, as `use` lines (`-MFoo=a`, `-mFoo`,
    `-M-Foo`, `-d:Foo` loads Devel::Foo), and the directories `-I DIR` and `PERL5LIB` (in
    front of the command, through `env`, or assigned earlier on the line) put on @INC."""
    args = view.args
    loaded: list[str] = []
    directories: list[str] = []
    k = view.inner + 1
    while k < len(args):
        a = args[k]
        t = a.text
        if a.opaque or t == "--" or not t.startswith("-") or t == "-":
            break
        j = 1
        while j < len(t):
            letter = t[j]
            if letter in "MmI":
                value = t[j + 1 :]
                if not value and k + 1 < len(args) and not args[k + 1].opaque:
                    k += 1
                    value = args[k].text
                if letter == "I":
                    directories.append(value)
                elif value:
                    # (`-MFoo=a,b` is `use Foo split(/,/, q{a,b})`: `-Mlib=.` puts `.` on @INC)
                    module, eq, rest = value.lstrip("-").partition("=")
                    loaded.append(f"use {module} qw({rest.replace(',', ' ')});" if eq else f"use {module};")
                break
            if letter == "d" and t[j + 1 : j + 2] in (":", "t"):
                value = t[j + 1 :].lstrip("t").lstrip(":")
                if value:
                    loaded.append("use Devel::" + re.split(r"[=,]", value)[0] + ";")
                break
            if letter in "l0":  # (an octal number may follow; `-0xHH`: a hex one)
                j += 1
                digits = "01234567"
                if letter == "0" and t[j : j + 1] == "x":
                    j, digits = j + 1, "0123456789abcdefABCDEF"
                while j < len(t) and t[j] in digits:
                    j += 1
                continue
            if letter in "eE":
                k += 1  # (the code, which the judge reads; switches may follow it)
                break
            if letter in "xiCDV":
                break  # (the rest of the word is the switch's value)
            j += 1
        k += 1
    return "\n".join(loaded), _search_path(walk, view, cwd, directories, "PERL5LIB")


def _search_path(walk, view: View, cwd: tuple[str, ...] | None, directories: list[str],
                 variable: str) -> tuple[tuple[str, ...], ...]:
    """The directories an interpreter looks its libraries up in: those its options name, then
    those of `variable` (`PERL5LIB`, `RUBYLIB`) as the line gives it, each from `cwd`."""
    value = walk.environment(view, variable)
    if value is not None:
        directories = [*directories, *value.split(":")]
    return tuple(path for directory in directories if directory
                 for path in [walk.absolute(directory, cwd)] if path is not None)


def _ruby_switches(view: View, walk, cwd: tuple[str, ...] | None) -> tuple[str, tuple[tuple[str, ...], ...]]:
    """What ruby's command line requires before the program (`-rLIB`, `-r LIB`), as `require`
    lines, and the directories `-I DIR` (`-IDIR`) and `RUBYLIB` put on $LOAD_PATH."""
    args = view.args
    loaded: list[str] = []
    directories: list[str] = []
    k = view.inner + 1
    while k < len(args):
        a = args[k]
        t = a.text
        if a.opaque or t == "--" or not t.startswith("-") or t == "-":
            break
        if t[:2] in ("-r", "-I"):
            value = t[2:]
            if not value and k + 1 < len(args) and not args[k + 1].opaque:
                k += 1
                value = args[k].text
            if value and t[1] == "I":
                directories.append(value)
            elif value:
                loaded.append(f"require '{value}'")
        elif t[:2] == "-e":
            k += 1  # (the code, which the judge reads; switches may follow it)
        k += 1
    return "\n".join(loaded), _search_path(walk, view, cwd, directories, "RUBYLIB")


def _uninformative(tail: str) -> bool:
    """Does a tail after a value of unknown text tell nothing of where the path is (``, `/`,
    `/*`, `/./*/`, `/../*`: what follows a `..` or `**` is a tail after an unknown value
    again; not `/.*`, which names dot files)? (round 11)"""
    parts = tail.split("/")
    cut = max((k for k, seg in enumerate(parts) if seg in ("..", "**")), default=-1)
    return all(seg in ("", "*", ".") for seg in parts[cut + 1 :])


def untrusted_program(view: View) -> bool:
    """Is the command named by a path its row cannot vouch for (`untrusted_program_path`), or
    looked up on a PATH of unknown value (`View.path_unknown`)?"""
    return view.path_unknown or untrusted_program_path(view.args[view.inner].text)


def _reads_only_from_stdin(view: View) -> bool:
    """Does what a command reads from its `<` redirect reach nothing but reads? A pure
    command's does, except where it gives names their values (`read`, `mapfile`: a later
    writer may take them), and a loop's `done` only when the loop's commands only read."""
    first = view.words[0].text if view.words else ""
    if first == "done":
        return view.loop_reads_only
    return view.name not in _NAMES_FROM_STDIN


def _attached_items(view: View, found: E.Effects | None) -> list:
    """Values attached to a short option (`-oFILE`): the model's items for them (`whole`
    False), and, where no model parses the word — a program the model does not know, a
    wrapper's own options (`strace -oFILE cmd`) — everything after the option's letter, of
    unknown role. Only a word of one dash and more than one letter may hold one, so most
    commands pay a scan of their words and no effects."""
    args = view.args
    inner = view.inner
    bundles = [k for k, a in enumerate(args) if k != inner and len(a.text) > 2 and a.text[0] == "-" and a.text[1] != "-"]
    if not bundles:
        return []
    modelled = view.model is not None
    items = [E.Item(k, args[k].text[2:], E.UNKNOWN, False) for k in bundles if k < inner or not modelled]
    if modelled and bundles[-1] > inner:
        found = found if found is not None else view.effects
        if found is not None:
            items.extend(it for it in found.items if not it.whole)
    return items


def _shown_path(path: str, cwd: tuple[str, ...] | None) -> str:
    """An absolute path for a reason: relative to the command's directory when under it."""
    prefix = "/" + "/".join(cwd) + "/" if cwd else None
    return path[len(prefix):] if prefix and path.startswith(prefix) else path


def proven_read(view: View, found: E.Effects | None, mentioned: Sequence[int],
                roles: dict[int, tuple[str, ...]]) -> bool:
    """§8.5 (e): every mention of this command is proven to be a read (or no path at all)."""
    if not view.fully_read or view.feeds_executor or view.redefined is not None:
        return False
    if view.inner < len(view.args):
        if not view.name or view.name in NESTED_SHELLS or found is None or found.unproven is not None \
                or untrusted_program(view):
            return False
        # `LESSOPEN=… less f`, `PAGER=… git log`: the environment makes the program run code.
        for a in view.args[: view.inner]:
            if "=" in a.text and a.text.split("=", 1)[0] in DANGEROUS_ENVIRONMENT:
                return False
    for k in mentioned:
        if not _harmless(roles.get(k, ()), k, view):
            return False
    return True


# Package managers whose first operand is a subcommand (`npm ci`, `yarn install`) and whose
# `run NAME` names a script of package.json (walked where it is defined: scripts.py).
_PACKAGE_MANAGERS = frozenset({"npm", "yarn", "pnpm", "bun"})
_RUN_SUBCOMMANDS = frozenset({"run", "run-script", "rum", "urn"})


def _script_names(view: View) -> tuple[int, ...]:
    """The words of a package manager's call that name a subcommand or a script, not a path:
    the word right after the program's name, and the one right after `run` (bare words: one
    with a `/` stays a path; after an option, whose value it may be, nothing is skipped)."""
    args = view.args
    found: list[int] = []
    for k in range(view.inner + 1, min(view.inner + 3, len(args))):
        a = args[k]
        if a.opaque or "/" in a.text or a.text.startswith("-"):
            break
        found.append(k)
        if a.text not in _RUN_SUBCOMMANDS:
            break
    return tuple(found)


def _formatter_module(view: View) -> tuple[str, int] | None:
    """`python3 [OPTIONS] -m MODULE ARGS…` where MODULE is a formatter's (`FORMATTER_MODULES`):
    the formatter's name and the index of its first argument."""
    args = view.args
    k = view.inner + 1
    while k < len(args) - 1:
        t = args[k].text
        if args[k].opaque or not t.startswith("-") or t in ("-c", "-"):
            return None
        if t == "-m" or t.startswith("-m") and len(t) > 2:
            module = t[2:] or args[k + 1].text
            tool = FORMATTER_MODULES.get(module)
            return (tool, k + 1 + (t == "-m")) if tool is not None and not args[k + (t == "-m")].opaque else None
        k += 2 if t in ("-W", "-X") else 1
    return None


def _exec_action(rule: str) -> str | None:
    """`find -exec` for a `find-exec` command's rule, `fd -x` for fd's; None for a lister's."""
    if rule.startswith("find-"):
        return "find " + rule[4:]
    return rule if rule.startswith("fd ") else None


def _judged_by_find(view: View) -> tuple[int, ...]:
    """The words of a `find -exec` command that hold `{}` under `-name` filters: only the
    filtered paths reach them, so `_Judge.listed` alone judges them (unfiltered, they are
    also judged as the start path they were spelled with, as before)."""
    for extra in view.listed:
        if extra.names and _exec_action(extra.rule) is not None:
            return extra.source
    return ()


# Assignments before `git` that can give it another core.hooksPath (`GIT_CONFIG_COUNT=1
# GIT_CONFIG_KEY_0=core.hooksPath GIT_CONFIG_VALUE_0=/x git commit`, another `HOME`'s .gitconfig).
_GIT_CONFIG_ENVIRONMENT = frozenset({"GIT_CONFIG_COUNT", "GIT_CONFIG_PARAMETERS", "GIT_CONFIG_GLOBAL",
                                     "GIT_CONFIG_SYSTEM", "GIT_CONFIG", "HOME", "XDG_CONFIG_HOME",
                                     "GIT_DIR", "GIT_COMMON_DIR"})


def _configures_git(view: View) -> bool:
    for a in view.args[: view.inner]:
        if "=" in a.text and a.text.split("=", 1)[0] in _GIT_CONFIG_ENVIRONMENT:
            return True
    return False


def _git_subcommand(view: View) -> str:
    found = view.effects
    for it in found.items if found is not None else ():
        if it.index > view.inner and it.role == E.DATA and it.whole and not it.text.startswith("-"):
            previous = view.args[it.index - 1].text if it.index - 1 > view.inner else ""
            if previous in ("-C", "-c", "--git-dir", "--work-tree"):
                continue
            return it.text
    return ""


def _roles_by_arg(found: E.Effects | None) -> dict[int, tuple[str, ...]]:
    out: dict[int, tuple[str, ...]] = {}
    for it in found.items if found is not None else ():
        roles = out.get(it.index)
        out[it.index] = (it.role,) if roles is None else (*roles, it.role)
    return out


def _harmless(roles: tuple[str, ...], k: int, view: View) -> bool:
    """Is a mention in argument `k` proven to be a read (or not a path at all)?"""
    if k < view.inner:
        # Prefixes: reserved words and wrappers (`sudo -u u`, `env -C dir`) read nothing; an
        # assignment prefix only reaches the command's environment, which a reader ignores
        # unless the variable makes programs run code. A line of assignments only is data: the
        # walk follows the values into the commands that use them.
        if k in view.prefix_roles:
            return view.prefix_roles[k] in E.HARMLESS
        a = view.args[k]
        name = a.text.split("=", 1)[0] if "=" in a.text else ""
        if view.inner >= len(view.args):
            return True
        model = view.model
        return model is not None and model.pure and name not in DANGEROUS_ENVIRONMENT
    if k == view.inner:
        return False  # the program itself: running it is no read
    return bool(roles) and all(role in E.HARMLESS for role in roles)


def tee_targets(words: Sequence[Word]) -> list[Word]:
    """§8.2 `tee`: every non-opaque operand; flags skipped until `--`."""
    if not words or basename(words[0].text) != "tee":
        return []
    out: list[Word] = []
    flags_done = False
    for w in words[1:]:
        if not flags_done and w.text == "--":
            flags_done = True
        elif not flags_done and w.text.startswith("-") and w.text != "-":
            continue
        elif not w.opaque:
            out.append(w)
    return out


def sed_in_place_targets(words: Sequence[Word]) -> list[Word]:
    """Files `sed` edits in place, GNU (`-i`, `-i.bak`, `--in-place[=s]`, `-ni`) and BSD
    (`-i ''`, `-i .bak`) spellings; the script operand is never a file."""
    if not words or basename(words[0].text) != "sed":
        return []
    in_place = False
    script_flag = False
    positionals: list[Word] = []
    k = 1
    options_done = False
    while k < len(words):
        w = words[k]
        t = w.text
        k += 1
        if options_done or not t.startswith("-") or t == "-":
            positionals.append(w)
            continue
        if t == "--":
            options_done = True
        elif t.startswith("--in-place"):
            in_place = True
        elif t in ("--expression", "--file"):
            script_flag = True
            k += 1
        elif t.startswith(("--expression=", "--file=")):
            script_flag = True
        elif t.startswith("--"):
            continue
        else:
            # A short-option cluster: flag letters, then `i` (rest is a suffix) or `e`/`f`/`l`
            # (rest, or the next word, is their argument).
            for pos, letter in enumerate(t[1:], start=1):
                if letter == "i":
                    in_place = True
                    # BSD `-i SUFFIX`: a separate empty or dotted suffix word belongs to `-i`.
                    if pos == len(t) - 1 and k < len(words):
                        nxt = words[k].text
                        if not words[k].opaque and (nxt == "" or (nxt.startswith(".") and "/" not in nxt)):
                            k += 1
                    break
                if letter in "ef":
                    script_flag = True
                    if pos == len(t) - 1:
                        k += 1
                    break
                if letter == "l":
                    if pos == len(t) - 1:
                        k += 1
                    break
    if not in_place:
        return []
    files = positionals if script_flag else positionals[1:]
    return [w for w in files if not w.opaque]


def judge_shell_mod(text: str, protected: Sequence[str], *, root: str, home: str | None,
                    fold_case: bool = False, cwd: str | None = None) -> ShellModResult:
    """Judge one shell command string against the protected entries (spec 04 §7.2, §8.5), run
    in `cwd` (the call's directory, when the host tells it; the root otherwise)."""
    p = Protected(protected, root, home, fold_case)
    if not p.entries:
        return ShellModResult(False, None, None, None)
    judge = _Judge(p, text, root, home, cwd)
    try:
        judge.run()
    finally:
        judge.walk.close()
    if judge.reached:
        subject: str | None = p.entries[min(judge.reached)]
    elif judge.unknown_reach:
        subject = p.entries[0]  # fail-closed routing: the text could not be read
    else:
        subject = None
    return ShellModResult(judge.reason is not None, subject, judge.kind, judge.reason)


# The `extract` kinds whose "members" are output names an input file holds (uudecode's header
# lines, gzip's stored name), written as they are rather than as an archive's member paths.
_NAMED_BY_DATA = frozenset({"uu", "gz"})


def member_paths(members, source: tuple) -> list[str]:
    """Member names as tar or unzip would write them: `--strip-components`, `-j`, and a
    symbolic link member whose target points into the tree (later members can write
    through it)."""
    kind, _archive, strip, _transformed, option = source  # (renamed: refused before)
    if kind == "wheel":
        return _wheel_paths(members)
    if kind in _NAMED_BY_DATA:
        return [member.name for member in members]  # (as written: disk.uu_names, disk._gzip_name)
    # (cpio without --no-absolute-filenames, pax: an absolute name is written where it says)
    absolute = kind in E.ANYWHERE_KINDS
    out = []
    links: dict[str, str] = {}  # a link member's name -> where it leads, spelled from the directory
    for member in members:
        name = member.name
        parts = [s for s in name.split("/") if s and s != "."]
        if kind == "cpio":  # (--no-absolute-filenames: leading `/` and `../` dropped)
            while parts[:1] == [".."]:
                parts = parts[1:]
        if kind in ("zip", "ar") and option:
            parts = parts[-1:]  # unzip -j, ar x without P (names land in one directory)
        elif strip:
            parts = parts[strip:]
        if not parts:
            continue
        if absolute and name.startswith("/"):
            parts[0] = "/" + parts[0]
        out.append("/".join(parts))
        if member.link is not None:
            leads = member.link if member.link.startswith("/") else "/".join(parts[:-1] + [member.link])
            out.append(leads)
            links["/".join(parts)] = leads
    if links:
        # `l -> .` then `l/ci/gate.sh`: tar writes the later member through the link the
        # earlier one made, so a name below a link member lands where the link leads
        for name in list(out):
            for _ in range(_LINK_HOPS):
                parts = name.split("/")
                prefix = next(("/".join(parts[:k]) for k in range(len(parts) - 1, 0, -1)
                               if "/".join(parts[:k]) in links), None)
                if prefix is None:
                    break
                name = links[prefix].rstrip("/") + name[len(prefix):]
                out.append(name)
    return out


# Where `pip install --target DIR` puts a wheel's `NAME.data/KEY/` members, below DIR (pip
# installs into a scheme whose home is a temporary directory, then moves each top-level item of
# its purelib, platlib and data directories into DIR, removing an item of that name first
# with `--upgrade`): None drops the key's name.
_WHEEL_DATA = {"purelib": None, "platlib": None, "data": None, "scripts": "bin", "headers": "include"}


def _wheel_paths(members) -> list[str]:
    """A wheel's members as `pip install --target` writes them (see `_WHEEL_DATA`), each
    top-level item too (replaced whole with `--upgrade`), and `bin`, where its console
    scripts go (pip writes a link member as a file of its text: named only)."""
    out = ["bin"]
    for member in members:
        parts = [s for s in member.name.split("/") if s and s != "."]
        if len(parts) > 2 and parts[0].endswith(".data"):
            place = _WHEEL_DATA.get(parts[1], parts[1])
            parts = parts[2:] if place is None else [place, *parts[2:]]
        if parts:
            out.extend((parts[0], "/".join(parts)))
    return list(dict.fromkeys(out))


# Options that name the revision `git checkout` or `git restore` takes files from (round 6).
_SOURCE_OPTIONS = ("-s", "--source")


def _from_revision(args) -> bool:
    """Does a `git checkout`/`git restore` (its words after `git`, global options first) take
    the files from a revision rather than the index: `restore --source=REV` / `-s REV`, or a
    checkout with a word that is not an option before `--` (`checkout REV -- PATHS`), or
    with two or more such words and no `--` (`checkout REV PATH`)?"""
    k = 0
    while k < len(args) and args[k].text.startswith("-"):
        k += 2 if args[k].text in ("-C", "-c", "--git-dir", "--work-tree", "--namespace") else 1
    if k >= len(args):
        return True
    sub, rest = args[k].text, args[k + 1 :]
    if sub == "restore":
        return any(a.text in _SOURCE_OPTIONS or a.text.startswith(("--source=", "-s")) for a in rest)
    if sub != "checkout":
        return True  # (another writer, `git stash push -- PATHS`: what it writes is not read)
    texts = [a.text for a in rest]
    before = texts[: texts.index("--")] if "--" in texts else None
    if before is not None:
        return any(not t.startswith("-") for t in before)
    return sum(not t.startswith("-") for t in texts) >= 2


def _below(top: tuple[str, ...], parts: list[str], entry: tuple[str, ...], accept: Callable[[str], bool]) -> bool:
    """Does the index path `parts` (from the work tree's `top`) lie below `entry`, as a path
    `accept`ed from it?"""
    path = (*top, *parts)
    return len(path) > len(entry) and path[: len(entry)] == entry and accept("/".join(path[len(entry) :]))
