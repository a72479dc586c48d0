"""The shell axis: judging a shell command string against protected paths (spec 04 §7.2, §8).

Pure and hot-path safe: standard library and msgspec only. Nothing is executed, expanded or
evaluated; the one piece of outside state the evidence derivation needs (the pre-state of a file
a computable write lands on) arrives through an injected `read_file(rel_path) -> str | None`.

Public API
----------
`tokenize(text) -> Script` — see `shell_tokenizer` for the result types.

`path_matches(candidate, entry, *, root) -> bool` — segment-wise matching, see `shell_paths`.

`judge_shell_mod(text, protected, *, root, home) -> ShellModResult` — the `shell-mod` body for one
command string. Fields:
  - `broken`: the command breaks the covenant;
  - `subject`: the protected entry the command reached, as given in `protected` (config order:
    the first entry any word or redirect target mentions; when nothing is mentioned but part of
    the text could not be read, the first entry — fail-closed routing, 06-telemetry.md §5);
    `None` when the command reaches no protected entry (shell-mod does not route);
  - `kind`: why it broke, one of the `BREAK_*` constants below (`None` when upheld);
  - `reason`: the one-line break message (spec 04 §7.2 / §8.5 wording; `None` when upheld).

`shell_writes(text, *, root, home, read_file) -> ShellWrites` — the evidence derivation of §8.6
(plus completion, §4.3). Fields:
  - `computed`: `ComputedWrite(path, repo_path, content, mode)` per computable write, in command
    order; `path` as spelled, `repo_path` relative to the project root or `None` when the path
    lies outside it (no world); `mode` is `truncate` or `append`;
  - `uncomputable`: `UncomputableWrite(path, repo_path, reason)` — the target is known, the
    content is not (`tee`, `sed -i`, `printf >`, `2>` …);
  - `undeterminable`: reasons of writes whose target cannot be determined at all (the
    `shell-unjudgeable` backstop records `skipped` when this is non-empty);
  - `changes`: with a `read_file`, each computed in-project write completed into
    `ShellFileChange(path, kind, pre, post)` (`kind` `create` | `modify`; several writes to one
    path chain in command order); `None` without a pre-state channel;
  - `pre_state_error`: set when `read_file` raised (the judge must then answer unjudgeable).

Beyond the spec (the issue "Shell axis" raises the bar): wrappers (`NAME=VALUE` prefixes, `env`,
`command`, `exec`, `nice`, `nohup`, `time`, `timeout`, `sudo`, `doas`, `stdbuf`, `ionice`,
`setsid`, `xargs`) are unwrapped, and the scripts of nested shells (`bash -c '…'`, `eval …`, a
heredoc or herestring fed to a shell) are analysed as the commands they run; a read-only head that
feeds a command-executing pipeline stage (`xargs`, `sh`, `while read`) loses its read-only proof;
allowlisted heads lose it when they carry a flag that writes or executes (`git … --output`,
`rg --pre`, `file -C`); deleting or moving the project root or an ancestor of it reaches every
protected entry. These never turn a spec "block" into a pass; each only adds breaks or evidence.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence
from typing import Literal

import msgspec

from polydeukes.stdlib.shell_paths import (
    anchored_match,
    contains_root,
    dot_resolve,
    path_candidates,
    path_matches,
    relative_to_root,
    root_segments,
    segments,
    segments_match,
)
from polydeukes.stdlib.shell_tokenizer import (
    Heredoc,
    Redirect,
    Script,
    SimpleCommand,
    UnreadSpan,
    Word,
    is_assignment,
    tokenize,
)

__all__ = [
    "BREAK_CONTAINS_PROTECTED",
    "BREAK_OPAQUE_MENTION",
    "BREAK_OPAQUE_WRITE_TARGET",
    "BREAK_PRECISE_WRITE",
    "BREAK_UNPROVEN_MENTION",
    "BREAK_UNTOKENIZABLE_MENTION",
    "ComputedWrite",
    "Script",
    "ShellFileChange",
    "ShellModResult",
    "ShellWrites",
    "UncomputableWrite",
    "judge_shell_mod",
    "path_matches",
    "shell_writes",
    "tokenize",
]

# -- result types ------------------------------------------------------------------------------

BREAK_PRECISE_WRITE = "precise-write"  # (a) a detected write lands on a protected path
BREAK_CONTAINS_PROTECTED = "contains-protected"  # rm/mv of the project root or an ancestor
BREAK_OPAQUE_MENTION = "opaque-mention"  # (c) mention inside a substitution/expansion/glob
BREAK_OPAQUE_WRITE_TARGET = "opaque-write-target"  # (d) unknowable write target beside a mention
BREAK_UNPROVEN_MENTION = "unproven-mention"  # (f) mention without read-only proof
BREAK_UNTOKENIZABLE_MENTION = "untokenizable-mention"  # unread text mentions a protected path


class ShellModResult(msgspec.Struct, frozen=True):
    broken: bool
    subject: str | None
    kind: str | None
    reason: str | None


class ComputedWrite(msgspec.Struct, frozen=True):
    path: str
    repo_path: str | None
    content: str
    mode: Literal["truncate", "append"]


class UncomputableWrite(msgspec.Struct, frozen=True):
    path: str
    repo_path: str | None
    reason: str


class ShellFileChange(msgspec.Struct, frozen=True):
    path: str
    kind: Literal["create", "modify"]
    pre: str | None
    post: str


class ShellWrites(msgspec.Struct, frozen=True):
    computed: tuple[ComputedWrite, ...]
    uncomputable: tuple[UncomputableWrite, ...]
    undeterminable: tuple[str, ...]
    changes: tuple[ShellFileChange, ...] | None
    pre_state_error: str | None

    @property
    def target_undeterminable(self) -> bool:
        return bool(self.undeterminable)


# -- fixed vocabularies ------------------------------------------------------------------------

# §8.1.7 names eval/bash/sh/zsh; the other POSIX-family shells reinterpret text the same way.
NESTED_SHELLS = frozenset({"eval", "bash", "sh", "zsh", "dash", "ksh", "mksh", "ash"})
DIRECTORY_CHANGES = frozenset({"cd", "pushd", "popd"})

# §8.3 default read-only allowlist: first word by basename, later words verbatim.
READ_ONLY_ALLOWLIST: tuple[tuple[str, ...], ...] = (
    ("cat",), ("head",), ("tail",), ("grep",), ("rg",), ("ls",), ("wc",), ("diff",),
    ("stat",), ("file",), ("echo",), ("printf",), ("git", "status"), ("git", "grep"),
)

# Flags that let an allowlisted reader write a file or run a program (prefix match).
WRITING_FLAGS: dict[str, tuple[str, ...]] = {
    "git": ("--output", "-O", "--open-files-in-pager", "--ext-diff", "-c"),
    "rg": ("--pre",),
    "file": ("-C", "--compile"),
}

# §8.5.2: `find` actions that delete, run programs or write files.
FIND_WRITING_ACTIONS = frozenset(
    {"-delete", "-exec", "-execdir", "-ok", "-okdir", "-fprint", "-fprint0", "-fprintf", "-fls"}
)
_SED_RANGE_PRINT = re.compile(r"\d+(,\d+)?p")
_FD_REFERENCE = re.compile(r"-|\d+-?")

# Wrappers run the rest of their words as a command. Per wrapper: short options that take a
# separate argument, long options that take one (unless written `--opt=value`), how many
# positional arguments precede the command, and whether `NAME=VALUE` words may precede it.
_WRAPPERS: dict[str, tuple[frozenset[str], frozenset[str], int, bool]] = {
    "env": (frozenset("uCS"), frozenset({"--unset", "--chdir", "--split-string"}), 0, True),
    "command": (frozenset(), frozenset(), 0, False),
    "builtin": (frozenset(), frozenset(), 0, False),
    "exec": (frozenset("a"), frozenset(), 0, False),
    "nice": (frozenset("n"), frozenset({"--adjustment"}), 0, False),
    "nohup": (frozenset(), frozenset(), 0, False),
    "time": (frozenset("fo"), frozenset({"--format", "--output"}), 0, False),
    "timeout": (frozenset("sk"), frozenset({"--signal", "--kill-after"}), 1, False),
    "sudo": (
        frozenset("ughprtCDTU"),
        frozenset({"--user", "--group", "--host", "--prompt", "--role", "--type",
                   "--close-from", "--chdir", "--command-timeout", "--other-user"}),
        0,
        True,
    ),
    "doas": (frozenset("uC"), frozenset(), 0, False),
    "stdbuf": (frozenset("ioe"), frozenset({"--input", "--output", "--error"}), 0, False),
    "ionice": (frozenset("cnpPu"), frozenset({"--class", "--classdata", "--pid", "--pgid", "--uid"}), 0, False),
    "setsid": (frozenset(), frozenset(), 0, False),
    "xargs": (
        frozenset("ILnPsdEa"),
        frozenset({"--replace", "--max-lines", "--max-args", "--max-procs", "--max-chars",
                   "--delimiter", "--eof", "--arg-file", "--process-slot-var"}),
        0,
        False,
    ),
}
# Stages that execute what arrives on stdin (as commands or as operands of a command).
_STDIN_EXECUTORS = frozenset({"xargs", "parallel", "while", "until", "source", "."})
_CHDIR_FLAGS = frozenset({("env", "C"), ("sudo", "D")})
_DESTRUCTIVE_HEADS = frozenset({"rm", "rmdir", "unlink", "shred", "mv"})
_MAX_NESTING = 8


@functools.lru_cache(maxsize=1024)  # every judge asks for its command names several times
def _basename(text: str) -> str:
    return text.rsplit("/", 1)[-1]


def _name_index(words: Sequence[Word]) -> int:
    """Index of the command-name word past `NAME=VALUE` prefixes (§8.1.7)."""
    k = 0
    while k < len(words) and not words[k].opaque and is_assignment(words[k].text):
        k += 1
    return k


def _unwrap(words: Sequence[Word]) -> tuple[int, bool, bool]:
    """Index of the command a chain of wrappers finally runs, past assignments and options.

    Returns (index, via_xargs, changes_directory). The index equals `len(words)` when there is
    no inner command (`env` alone, `command -v x`).
    """
    if not words or ("=" not in words[0].text and _basename(words[0].text) not in _WRAPPERS):
        return 0, False, False  # the common case: a plain command, nothing to unwrap
    k = _name_index(words)
    via_xargs = False
    changes_directory = False
    while k < len(words):
        head = words[k]
        name = _basename(head.text)
        spec = _WRAPPERS.get(name)
        if head.opaque or spec is None:
            break
        short_args, long_args, positionals, assignments = spec
        k += 1
        via_xargs = via_xargs or name == "xargs"
        while k < len(words):
            text = words[k].text
            if text == "--":
                k += 1
                break
            if name == "command" and text in ("-v", "-V"):
                return len(words), via_xargs, changes_directory  # a lookup, not an execution
            if text.startswith("--"):
                option = text.split("=", 1)[0]
                changes_directory = changes_directory or option == "--chdir"
                k += 2 if option in long_args and "=" not in text else 1
            elif text.startswith("-") and len(text) > 1:
                flag = text[1]
                changes_directory = changes_directory or (name, flag) in _CHDIR_FLAGS
                k += 2 if flag in short_args and len(text) == 2 else 1
            elif assignments and is_assignment(text):
                k += 1
            else:
                break
        k += positionals
        while k < len(words) and not words[k].opaque and is_assignment(words[k].text):
            k += 1
    return k, via_xargs, changes_directory


# The allowlist entries by first word, in list order (the match is by first word first).
_ALLOWLIST_BY_HEAD: dict[str, tuple[tuple[str, ...], ...]] = {
    head: tuple(entry for entry in READ_ONLY_ALLOWLIST if entry[0] == head)
    for head in {entry[0] for entry in READ_ONLY_ALLOWLIST}
}


def _allowlisted(words: Sequence[Word]) -> bool:
    """§8.3 allowlist match, minus heads carrying a flag that writes or executes."""
    if not words or words[0].opaque:
        return False
    head = _basename(words[0].text)
    for entry in _ALLOWLIST_BY_HEAD.get(head, ()):
        if len(words) < len(entry):
            continue
        if len(entry) == 1 or all(not w.opaque and w.text == e for w, e in zip(words[1 : len(entry)], entry[1:])):
            flags = WRITING_FLAGS.get(head)
            if flags and any(w.text.startswith(flags) for w in words[len(entry) :]):
                return False
            return True
    return False


def _conditional_reader(words: Sequence[Word]) -> bool:
    """§8.5.2 argument-sensitive readers (default allowlist only, which is the only one here)."""
    if not words or any(w.opaque for w in words):
        return False
    head = _basename(words[0].text)
    texts = [w.text for w in words]
    if head == "git":
        return len(texts) > 1 and texts[1] == "ls-files"
    if head == "find":
        return not any(t in FIND_WRITING_ACTIONS for t in texts)
    if head == "sed":
        return (
            len(texts) >= 4
            and texts[1] == "-n"
            and _SED_RANGE_PRINT.fullmatch(texts[2]) is not None
            and not any(t.startswith("-") for t in texts[3:])
        )
    return False


# -- write-detection rules (§8.2) --------------------------------------------------------------


def _is_write_redirect(r: Redirect) -> bool:
    if ">" not in r.operator:
        return False
    return not (r.operator.endswith(">&") and _FD_REFERENCE.fullmatch(r.target.text) is not None)


def _redirect_write_targets(cmd_redirects: Sequence[Redirect]) -> list[Word]:
    return [r.target for r in cmd_redirects if _is_write_redirect(r) and not r.target.opaque]


def _tee_targets(words: Sequence[Word]) -> list[Word]:
    if not words or _basename(words[0].text) != "tee":
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


def _sed_in_place_targets(words: Sequence[Word]) -> list[Word]:
    """Files `sed` edits in place, GNU (`-i`, `-i.bak`, `--in-place[=s]`, `-ni`) and BSD
    (`-i ''`, `-i .bak`) spellings; the script operand is never a file."""
    if not words or _basename(words[0].text) != "sed":
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


_RULES: tuple[tuple[str, Callable[[SimpleCommand], list[Word]]], ...] = (
    ("redirect-write", lambda c: _redirect_write_targets(c.redirects)),
    ("tee", lambda c: _tee_targets(c.words)),
    ("sed-in-place", lambda c: _sed_in_place_targets(c.words)),
)


# -- nested scripts ----------------------------------------------------------------------------


def _shell_script_sources(words: Sequence[Word], cmd: SimpleCommand) -> tuple[list[str], bool]:
    """Script texts a nested shell at `words[0]` will run, and whether they are all known.

    `eval` runs its words joined by spaces; `sh -c SCRIPT` runs SCRIPT; a shell with neither
    `-c` nor a script file reads its script from stdin (heredoc or herestring). A script file,
    an opaque script or a piped stdin make the script unknown.
    """
    name = _basename(words[0].text)
    rest = words[1:]
    if name == "eval":
        if any(w.opaque for w in rest):
            return [], False
        return [" ".join(w.text for w in rest)], True
    command_mode = False
    k = 0
    while k < len(rest):
        t = rest[k].text
        if rest[k].opaque:
            return [], False
        if t == "--" or t == "-":
            k += 1
            break
        if t in ("-o", "+o", "-O", "+O", "--rcfile", "--init-file"):
            k += 2
            continue
        if t.startswith("--"):
            k += 1
            continue
        if t[:1] in ("-", "+") and len(t) > 1:
            command_mode = command_mode or "c" in t[1:]
            k += 1
            continue
        break
    operands = rest[k:]
    if command_mode:
        if not operands or operands[0].opaque:
            return [], False
        return [operands[0].text], True
    if operands:
        return [], False  # a script file: its text is not ours to read
    stdin = [h.body for h in cmd.heredocs]
    stdin.extend(r.target.text + "\n" for r in cmd.redirects if r.operator == "<<<" and not r.target.opaque)
    stdin_sources = len(cmd.heredocs) + sum(1 for r in cmd.redirects if r.operator in ("<<<", "<"))
    if not stdin or len(stdin) != stdin_sources:
        return [], False
    return stdin, True


def _reads_stdin_as_program(cmd: SimpleCommand) -> bool:
    """Does this pipeline stage turn the bytes it reads into commands or command operands?"""
    index, via_xargs, _ = _unwrap(cmd.words)
    words = cmd.words[index:]
    if via_xargs:
        return not words or not _allowlisted(words)
    if not words or words[0].opaque:
        return False
    head = _basename(words[0].text)
    if head in _STDIN_EXECUTORS:
        return True
    if head in NESTED_SHELLS and head != "eval":
        _, known = _shell_script_sources(words, cmd)
        return not known and not any(
            not w.text.startswith(("-", "+")) for w in words[1:]
        )
    return False


def _feeds_executor(commands: Sequence[SimpleCommand]) -> list[bool]:
    """Per command: does its stdout reach, through `|`, a stage that executes its input?"""
    flags = [False] * len(commands)
    downstream_executes = False
    for k in range(len(commands) - 1, -1, -1):
        if commands[k].connector != "|":
            downstream_executes = False
        flags[k] = downstream_executes and commands[k].connector == "|"
        # Only a stage that receives a pipe can execute what flows into it.
        if k > 0 and commands[k - 1].connector == "|" and _reads_stdin_as_program(commands[k]):
            downstream_executes = True
    return flags


# -- mention matching --------------------------------------------------------------------------


def _joined_texts(cmd: SimpleCommand) -> str:
    """The command's word and redirect-target texts, joined by spaces."""
    texts = [w.text for w in cmd.words]
    if cmd.redirects:
        texts.extend([r.target.text for r in cmd.redirects])
    return " ".join(texts)


class _Protected:
    """The protected entries with their segments precomputed, plus the matching context."""

    def __init__(self, entries: Sequence[str], root: str, home: str | None) -> None:
        self.entries = [e for e in entries if isinstance(e, str) and segments(e)]
        self.segs = [segments(e) for e in self.entries]
        self.resolved = [dot_resolve(s) for s in self.segs]
        self.resolved_firsts = frozenset(s[0] for s in self.resolved if s)
        firsts = {s[0] for s in self.segs} | {s[0] for s in self.resolved if s}
        # One alternation per protected list; `re` caches it across calls with the same list.
        self.spelled = re.compile("|".join(re.escape(f) for f in sorted(firsts))) if firsts else None
        self.root = root
        self.root_segs = root_segments(root)
        self.home = home if _valid_home(home) else None
        # Memos for one judged command string (see `segment_match`, `first_in_token`).
        self.segment_matches: dict[str, int] = {}
        self.token_candidates: dict[tuple[str, bool], list[str]] = {}

    def spelled_in(self, text: str) -> bool:
        """Cheap pre-filter: any match needs some entry's first segment spelled in the text
        (or in the working directory that supplies its leading segments)."""
        return self.spelled is not None and self.spelled.search(text) is not None

    def match(self, candidate: str, cwd: tuple[str, ...] | None, cwd_spelled: bool = False) -> int:
        """Index of the first entry `candidate` names (list order), or -1.

        `cwd` is the root-relative directory the command runs in (`()` = the root), or None
        when unknown (relative candidates are then not resolved against the root);
        `cwd_spelled` tells whether that directory spells an entry's first segment.
        """
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
        rel = self.relative(candidate, cwd or ())
        if rel and rel[0] in self.resolved_firsts:  # else no entry can match it anchored
            for index in range(first if first >= 0 else len(self.resolved)):
                if anchored_match(rel, self.resolved[index]):
                    return index
        return first

    def relative(self, candidate: str, cwd: tuple[str, ...]) -> list[str] | None:
        """`relative_to_root(candidate, root, cwd, home)`, for a root that has segments.

        A relative path without `.`/`..` segments just extends `cwd`: the directory is already
        root-relative and dot-free (the judge only ever sets it from this method's results), so
        the common case skips re-resolving the root and the directory."""
        if not candidate.startswith(("/", "~", "$")):
            parts = [seg for seg in candidate.split("/") if seg]
            if parts and "." not in parts and ".." not in parts:
                return [*cwd, *parts]
        return relative_to_root(candidate, self.root_segs, cwd, self.home)

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

    def first_in_token(self, w: Word, cwd: tuple[str, ...] | None, cwd_spelled: bool) -> int:
        """Index of the first entry a path candidate of `w` names, or -1."""
        text = w.text
        if not cwd_spelled and not self.spelled_in(text):
            return -1  # candidates are pieces of the text: none of them spells an entry either
        key = (text, w.opaque)
        candidates = self.token_candidates.get(key)
        if candidates is None:
            candidates = self.token_candidates[key] = path_candidates(text, w.opaque)
        for candidate in candidates:
            index = self.match(candidate, cwd, cwd_spelled)
            if index >= 0:
                return index
        return -1


def _valid_home(home: str | None) -> bool:
    return isinstance(home, str) and home.startswith("/") and bool(segments(home))


def _unread_candidates(span: UnreadSpan) -> list[str]:
    """§8.4.4: the span text (quotes and backslashes removed) plus its operator-split fragments,
    plus (Python design) each fragment's word candidates, so `$(rm -rf src/core` — unread up to
    the end — still mentions `src/core` although the path is not at a fragment boundary."""
    text = span.text.replace("'", "").replace('"', "").replace("\\", "")
    out = [text] if text else []
    for fragment in re.split(r"[;&|<>]+", text):
        if fragment and fragment != text:
            out.append(fragment)
    out.extend(c for fragment in list(out) for c in path_candidates(fragment, True) if c not in out)
    return out


# -- shell-mod judge ---------------------------------------------------------------------------


class _Judge:
    def __init__(self, protected: _Protected) -> None:
        self.p = protected
        self.reached: set[int] = set()
        self.unread_seen = False
        self.reason: str | None = None
        self.kind: str | None = None

    def found(self, kind: str, reason: str) -> None:
        if self.reason is None:
            self.kind = kind
            self.reason = reason

    def script(self, script: Script, depth: int, outer_fully_read: bool) -> None:
        entries = self.p.entries
        if script.unread:
            self.unread_seen = True
        for span in script.unread:
            for candidate in _unread_candidates(span):
                index = self.p.match(candidate, ())
                if index >= 0:
                    self.found(
                        BREAK_UNTOKENIZABLE_MENTION,
                        f"untokenizable command line mentions protected path {entries[index]}",
                    )
                    break
        fully_read = outer_fully_read and script.fully_read
        commands = script.commands
        cwd: tuple[str, ...] | None = ()
        cwd_spelled = False
        for cmd, feeds_executor in zip(commands, _feeds_executor(commands)):
            if self.reason is not None and 0 in self.reached:
                # Settled: the first break is kept and the subject is the lowest entry reached,
                # so nothing later (here or in an enclosing script) can change the result.
                return
            self.command(cmd, cwd, cwd_spelled, fully_read, feeds_executor, depth)
            new_cwd = self.next_cwd(cmd, cwd)
            if new_cwd is not cwd:  # (an equal new tuple recomputes the same `cwd_spelled`)
                cwd = new_cwd
                cwd_spelled = bool(cwd) and self.p.spelled_in("/".join(cwd))

    def next_cwd(self, cmd: SimpleCommand, cwd: tuple[str, ...] | None) -> tuple[str, ...] | None:
        """Follow literal `cd`/`pushd` targets so `cd packages && rm -rf core` resolves."""
        words = cmd.words
        if not words:
            return cwd
        k = _name_index(words) if "=" in words[0].text else 0  # most commands have no prefix
        name = _basename(words[k].text) if k < len(words) else ""
        if name not in DIRECTORY_CHANGES:
            return cwd
        if name == "popd" or cwd is None:
            return None
        args = [w for w in words[k + 1 :] if not w.text.startswith("-")]
        if len(args) != 1 or args[0].opaque:
            return None
        rel = None if self.p.root_segs is None else self.p.relative(args[0].text, cwd)
        return None if rel is None else tuple(rel)

    def command(
        self,
        cmd: SimpleCommand,
        cwd: tuple[str, ...] | None,
        cwd_spelled: bool,
        fully_read: bool,
        feeds_executor: bool,
        depth: int,
    ) -> None:
        words = cmd.words
        inner = words[_unwrap(words)[0] :]
        # The name the command finally runs; "" when there is none or it is opaque.
        inner_name = _basename(inner[0].text) if inner and not inner[0].opaque else ""
        if inner_name in _DESTRUCTIVE_HEADS:
            self.contains_protected(inner, inner_name, cwd)
        # Every match needs an entry's first segment in some token or in the working directory;
        # one search over the joined tokens spares the per-token work for most commands.
        if cwd_spelled or self.p.spelled_in(_joined_texts(cmd)):
            self.mentions(cmd, cwd, cwd_spelled, fully_read, feeds_executor)
        if inner_name in NESTED_SHELLS:
            self.nested(cmd, inner, fully_read, depth)

    def contains_protected(self, inner: Sequence[Word], name: str, cwd: tuple[str, ...] | None) -> None:
        """Deleting or moving the project root (or above) takes every protected entry with it.

        `name` is the basename of `inner[0]`, a destructive head."""
        operands = [w for w in inner[1:] if not w.opaque and not w.text.startswith("-")]
        if name == "mv":
            operands = operands[:-1]  # the destination is not moved
        for w in operands:
            if contains_root(w.text, self.p.root, cwd or (), self.p.home):
                self.reached.add(0)
                self.found(
                    BREAK_CONTAINS_PROTECTED,
                    f"{inner[0].text} removes or moves a directory that contains protected path {self.p.entries[0]}",
                )
                return

    def mentions(
        self,
        cmd: SimpleCommand,
        cwd: tuple[str, ...] | None,
        cwd_spelled: bool,
        fully_read: bool,
        feeds_executor: bool,
    ) -> None:
        entries = self.p.entries
        first_in_token = self.p.first_in_token
        # (a) precise rules; they only fire on a write redirect or under a `tee`/`sed` head
        if cmd.redirects or (cmd.words and _basename(cmd.words[0].text) in ("tee", "sed")):
            for rule, detect in _RULES:
                for target in detect(cmd):
                    index = first_in_token(target, cwd, cwd_spelled)
                    if index >= 0:
                        self.found(BREAK_PRECISE_WRITE, f"{rule} targets protected path {entries[index]}")
        # (b) mention scan: words, then redirect targets; heredoc bodies are data
        first = -1
        opaque_mention = False
        for w in cmd.words:
            index = first_in_token(w, cwd, cwd_spelled)
            if index >= 0:
                self.reached.add(index)
                first = index if first < 0 else first
                opaque_mention = opaque_mention or w.opaque
        for r in cmd.redirects:
            index = first_in_token(r.target, cwd, cwd_spelled)
            if index >= 0:
                self.reached.add(index)
                first = index if first < 0 else first
                opaque_mention = opaque_mention or r.target.opaque
        if first >= 0:
            self.ladder(cmd, entries[first], opaque_mention, fully_read, feeds_executor)

    def ladder(self, cmd: SimpleCommand, p: str, opaque_mention: bool, fully_read: bool, feeds_executor: bool) -> None:
        # (c) opaque mention
        if opaque_mention:
            self.found(BREAK_OPAQUE_MENTION, f"protected path {p} inside an opaque token")
            return
        # (d) opaque write target, even beside an allowlisted reader
        if cmd.redirects and any(_is_write_redirect(r) and r.target.opaque for r in cmd.redirects):
            self.found(BREAK_OPAQUE_WRITE_TARGET, f"opaque redirect target alongside protected path {p}")
            return
        # (e) read-only proof
        words = cmd.words
        if (
            fully_read
            and words
            and _basename(words[0].text) not in NESTED_SHELLS
            and not feeds_executor
            and (_allowlisted(words) or _conditional_reader(words))
        ):
            return
        # (f) backstop
        head = words[0].text if words else cmd.redirects[0].operator
        self.found(BREAK_UNPROVEN_MENTION, f"{head} mentions protected path {p} without read-only proof")

    def nested(self, cmd: SimpleCommand, inner: Sequence[Word], fully_read: bool, depth: int) -> None:
        """Judge the script a nested shell (`inner[0]`) runs, when its text is known (`bash -c '…'`)."""
        sources, _ = _shell_script_sources(inner, cmd)
        for text in sources:
            if depth >= _MAX_NESTING:
                # Too deep to read: treat the script as unread text (fail closed on mentions).
                self.script(Script((), (UnreadSpan(text, "nesting too deep", 0),), ()), depth, False)
            else:
                self.script(tokenize(text), depth + 1, fully_read)


def judge_shell_mod(text: str, protected: Sequence[str], *, root: str, home: str | None) -> ShellModResult:
    """Judge one shell command string against the protected entries (spec 04 §7.2, §8.5)."""
    p = _Protected(protected, root, home)
    if not p.entries:
        return ShellModResult(False, None, None, None)
    judge = _Judge(p)
    judge.script(tokenize(text), 0, True)
    if judge.reached:
        subject: str | None = p.entries[min(judge.reached)]
    elif judge.unread_seen:
        subject = p.entries[0]  # fail-closed routing: the text could not be read
    else:
        subject = None
    return ShellModResult(judge.reason is not None, subject, judge.kind, judge.reason)


# -- evidence derivation (§8.6) ----------------------------------------------------------------


def _has_subshell_marker(words: Sequence[Word]) -> bool:
    for w in words:
        if w.text.startswith("(") or w.text.endswith(")"):
            return True
    return False


class _Deriver:
    def __init__(self, root: str, home: str | None) -> None:
        self.root_segs = root_segments(root)
        self.home = home if _valid_home(home) else None
        self.computed: list[ComputedWrite] = []
        self.uncomputable: list[UncomputableWrite] = []
        self.undeterminable: list[str] = []

    def repo_path(self, path: str) -> str | None:
        rel = self.root_relative(path)
        return "/".join(rel) if rel else None

    def root_relative(self, path: str) -> list[str] | None:
        """`root_relative(path, root, (), home)` with the root's segments read once."""
        if self.root_segs is None:
            return None
        return relative_to_root(path, self.root_segs, (), self.home)

    def known(self, path: str, reason: str) -> None:
        self.uncomputable.append(UncomputableWrite(path, self.repo_path(path), reason))

    def script(self, script: Script, depth: int, moves_directory: bool) -> None:
        for span in script.unread:
            self.undeterminable.append(span.reason)
        commands = script.commands
        unwrapped = [_unwrap(cmd.words) for cmd in commands]  # read each command's wrappers once
        moves_directory = moves_directory or any(
            _moves_directory(cmd, wrapper_cd) for cmd, (_, _, wrapper_cd) in zip(commands, unwrapped)
        )
        for cmd, unwrap in zip(commands, unwrapped):
            self.command(cmd, unwrap, depth, moves_directory)

    def command(self, cmd: SimpleCommand, unwrap: tuple[int, bool, bool], depth: int, moves_directory: bool) -> None:
        """Derive the writes of one command; `unwrap` is `_unwrap(cmd.words)`."""
        words = cmd.words
        index, via_xargs, wrapper_cd = unwrap
        inner = words[index:]
        moves_directory = moves_directory or wrapper_cd
        name = _basename(inner[0].text) if inner and not inner[0].opaque else ""
        # 1. nested shell: analyse the script it runs when its text is known
        if name in NESTED_SHELLS:
            sources, known = _shell_script_sources(inner, cmd)
            if not known or depth >= _MAX_NESTING or via_xargs:
                self.undeterminable.append(f"nested shell execution: {name}")
                return
            for text in sources:
                self.script(tokenize(text), depth + 1, moves_directory)
            self.redirect_writes(cmd, moves_directory)  # the shell's own stdout redirects
            return
        # 2. subshell marker
        if _has_subshell_marker(words):
            writes = [r for r in cmd.redirects if _is_write_redirect(r)]
            for r in writes:
                if r.target.opaque:
                    self.undeterminable.append("subshell group syntax is not parsed here")
                else:
                    self.known(r.target.text, "subshell group syntax is not parsed here")
            if not writes:
                self.undeterminable.append("subshell group syntax is not parsed here")
            return
        # 3. write redirects
        wrote = self.redirect_writes(cmd, moves_directory)
        # 4. tee and sed-in-place, on the command itself and on what its wrappers run
        detected = False
        views = [words] if index == 0 else [words, inner]
        for view in views:
            # Both rules, and their xargs form, only ever fire under a `tee` or `sed` head.
            if not view or _basename(view[0].text) not in ("tee", "sed"):
                continue
            for rule, detect in (("tee", _tee_targets), ("sed-in-place", _sed_in_place_targets)):
                for w in detect(view):
                    self.known(w.text, f"{rule} writes content this layer does not compute")
                    detected = True
                if via_xargs and view is inner and _rule_applies(rule, view):
                    # xargs appends operands read from stdin: the files are unknowable here.
                    self.undeterminable.append(f"{rule} targets arrive through xargs")
                    detected = True
        # 5. an opaque word under a head that is not proven read-only
        if not wrote and not detected:
            if any(w.opaque for w in words) and not _allowlisted(words):
                head = words[0].text if words else ""
                self.undeterminable.append(f"opaque token under {head} that is not proven read-only")

    def redirect_writes(self, cmd: SimpleCommand, moves_directory: bool) -> bool:
        """§8.6 case 3; answers whether the command has any write redirect."""
        if not cmd.redirects:
            return False
        writes = [r for r in cmd.redirects if _is_write_redirect(r)]
        if not writes:
            return False
        if len(writes) > 1:
            for r in writes:
                if r.target.opaque:
                    self.undeterminable.append("the command carries more than one write")
                else:
                    self.known(r.target.text, "the command carries more than one write")
            return True
        r = writes[0]
        target = r.target.text
        if r.target.opaque:
            self.undeterminable.append(f"write target {target} is opaque")
            return True
        if target.startswith("~"):
            rel = self.root_relative(target) if self.home else None
            if rel is None:
                self.undeterminable.append(f"write target {target} is home-relative")
                return True
        if moves_directory and not target.startswith(("/", "~")):
            self.undeterminable.append(f"relative write target {target} beside a directory change")
            return True
        if r.operator not in (">", ">>", ">|", "1>", "1>>", "1>|"):
            self.known(target, f"redirect {r.operator} does not carry stdout")
            return True
        content, refusal = _stdout_content(cmd)
        if refusal is not None:
            self.known(target, refusal)
        else:
            mode: Literal["truncate", "append"] = "append" if r.operator.endswith(">>") else "truncate"
            self.computed.append(ComputedWrite(target, self.repo_path(target), content, mode))
        return True


def _rule_applies(rule: str, words: Sequence[Word]) -> bool:
    """Would `rule` fire on operands xargs appends? (`xargs tee`, `xargs sed -i …`)"""
    if not words:
        return False
    head = _basename(words[0].text)
    if rule == "tee":
        return head == "tee"
    return head == "sed" and any(
        w.text.startswith("-i") or w.text.startswith("--in-place") for w in words[1:]
    )


def _moves_directory(cmd: SimpleCommand, wrapper_changes_directory: bool) -> bool:
    """Does the command change directory, itself or through a wrapper (`env -C`, `sudo -D`)?"""
    if wrapper_changes_directory:
        return True
    k = _name_index(cmd.words)
    if k < len(cmd.words):
        w = cmd.words[k]
        if not w.opaque and _basename(w.text) in DIRECTORY_CHANGES:
            return True
    return False


def _stdout_content(cmd: SimpleCommand) -> tuple[str, str | None]:
    """What a single stdout redirect writes, or the reason it cannot be computed (§8.6 case 3)."""
    words = cmd.words
    if not words:
        return "", None
    stdin_redirects = [r for r in cmd.redirects if r.operator in ("<", "<<<", "<&", "<>")]
    heredocs: Sequence[Heredoc] = cmd.heredocs
    if stdin_redirects or heredocs:
        if len(words) != 1 or words[0].opaque or _basename(words[0].text) != "cat":
            return "", f"stdin of {words[0].text} is not copied verbatim"
        if len(stdin_redirects) + len(heredocs) > 1:
            return "", "more than one stdin source"
        if heredocs:
            h = heredocs[0]
            if not h.literal and any(ch in h.body for ch in "$`\\"):
                return "", "an unquoted heredoc body carries an expansion or escape"
            return h.body, None
        r = stdin_redirects[0]
        if r.operator == "<<<":
            if r.target.opaque:
                return "", "the herestring is opaque"
            return r.target.text + "\n", None
        return "", f"stdin comes from file {r.target.text}"
    head = words[0]
    if head.opaque:
        return "", "the writing command is opaque"
    if _basename(head.text) != "echo":
        return "", f"the output of {head.text} is not computable"
    args = words[1:]
    if args and args[0].text.startswith("-"):
        return "", "echo flag semantics are not computed"
    if any(w.opaque for w in args):
        return "", "an echo argument is opaque"
    return " ".join(w.text for w in args) + "\n", None


def shell_writes(
    text: str,
    *,
    root: str,
    home: str | None,
    read_file: Callable[[str], str | None] | None,
) -> ShellWrites:
    """Derive the file writes one shell command string makes (spec 04 §8.6, §4.3)."""
    deriver = _Deriver(root, home)
    deriver.script(tokenize(text), 0, False)
    changes: tuple[ShellFileChange, ...] | None = None
    error: str | None = None
    if read_file is not None:
        completed: list[ShellFileChange] = []
        state: dict[str, str | None] = {}
        for write in deriver.computed:
            path = write.repo_path
            if path is None:
                continue  # outside the project: no world
            if path not in state:
                try:
                    state[path] = read_file(path)
                except Exception as exc:  # noqa: BLE001 - the judge turns this into unjudgeable
                    error = f"cannot read the pre-state of {path}: {exc}"
                    break
            pre = state[path]
            post = (pre or "") + write.content if write.mode == "append" else write.content
            completed.append(ShellFileChange(path, "create" if pre is None else "modify", pre, post))
            state[path] = post
        changes = tuple(completed)
    return ShellWrites(
        tuple(deriver.computed),
        tuple(deriver.uncomputable),
        tuple(deriver.undeterminable),
        changes,
        error,
    )
