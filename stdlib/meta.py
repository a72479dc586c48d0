"""The meta-covenants' judges (spec 04 §7): the registrations that protect the judging chain.

Pure and hot-path safe (standard library and msgspec only). Each judge answers an `Outcome`:
`exit_code` 0 upheld, 1 broken (with a one-line `reason`), 2 unjudgeable (no reason). The
dispatcher (vm/machine.py) routes, translates levels and writes rows; nothing here records.

- `judge_self_mod` — tool axis (§7.1): a mutating call whose proven change path, or, without
  usable evidence, whose args reach a protected entry.
- `judge_shell_mod_call` — shell axis (§7.2): every command string of a shell call through the
  shell analyzer's ladder (`shell.judge_shell_mod`).
- `transcript_mod_matches` — transcript axis (§7.3): the content predicate that is also the
  judge; `None` means the call does not route, an `Outcome` means it routes with the evidence
  path as subject and is judged so.
- `shell_backstop_routes`, `shell_skip_arm_subject` — the routing predicates of the shell skip
  registrations (§7.5).
- `resolve_home` — the home directory the transcript axis expands `~`/`$HOME` with.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING

import msgspec

from polydeukes.stdlib.routing import (  # resolve_home: re-exported, see __all__
    Candidates,
    arg_strings,
    call_directory,
    change_path,
    command_strings,
    linked_entry,
    resolve_home,
    route_by_paths,
    string_candidates,
    through_links,
)
from polydeukes.stdlib.protected import fold
from polydeukes.stdlib.shell.paths import path_candidates, path_matches, segments
from polydeukes.vm.ir import UNSET, ToolCall

if TYPE_CHECKING:  # the shell analyzer's stages load only in the judges that run them
    from polydeukes.stdlib.shell.evidence import ShellWrites
    from polydeukes.stdlib.shell.transcript import TranscriptTarget

__all__ = [
    "SELF_MOD_BREAK",
    "SELF_MOD_LINK_BREAK",
    "SHELL_NO_COMMAND",
    "TRANSCRIPT_ARGS",
    "TRANSCRIPT_CHANGE",
    "Outcome",
    "judge_self_mod",
    "judge_shell_mod_call",
    "resolve_home",
    "shell_backstop_routes",
    "shell_skip_arm_subject",
    "transcript_mod_matches",
]

# Break messages, verbatim from spec 04 §7 (the shell ladder's own live in shell/judgment.py
# and shell/transcript.py).
SELF_MOD_BREAK = "{tool} would modify protected path {path}"
# A path that reaches a protected entry only through a symbolic link on disk (the shell axis
# words the same case the same way).
SELF_MOD_LINK_BREAK = "{tool} writes through symbolic link {path} into protected path {entry}"
SHELL_NO_COMMAND = "unjudgeable shell call {tool}: no command string under any command-arg name"
TRANSCRIPT_CHANGE = "{tool} would modify the session transcript {path}"
TRANSCRIPT_ARGS = "{tool} names the session transcript {path} with no proven target"


class Outcome(msgspec.Struct, frozen=True):
    exit_code: int  # 0 upheld, 1 broken, 2 unjudgeable
    reason: str | None


UPHELD = Outcome(0, None)
UNJUDGEABLE = Outcome(2, None)


def _broken(reason: str) -> Outcome:
    return Outcome(1, reason)


def _names(roster: Sequence[str]) -> frozenset[str]:
    """A roster's usable names: empty names never match a call."""
    return frozenset(name for name in roster if isinstance(name, str) and name)


def _valid_entries(protected: Sequence[str]) -> list[str]:
    return [entry for entry in protected if isinstance(entry, str) and segments(entry)]


def _args_candidates(call: ToolCall) -> tuple[str, ...]:
    """What a call's args mention: each string read as a shell line (the routing view) and also
    split as written (§8.4.3), so neither reading can hide a mention from the other."""
    if call.args is UNSET:
        return ()
    found: list[str] = []
    for text in arg_strings(call.args):
        found.extend(string_candidates(text)[0])
        found.extend(path_candidates(text))
    return tuple(dict.fromkeys(found))


# -- self-mod (§7.1) ---------------------------------------------------------------------------


def judge_self_mod(call: ToolCall, *, protected: Sequence[str], mutating: Sequence[str], root: str,
                   folded: bool = False) -> Outcome:
    """Would this mutating call modify a protected entry?

    Evidence outranks args: a proven change path decides alone (a protected path quoted inside
    the edit's content is a mention, not a target). Without usable evidence the judge falls
    back to the args: any mention breaks. Non-mutating calls are never judged here. `folded`:
    the project's file system folds case, so `.Claude/hooks` is `.claude/hooks`.
    """
    try:
        entries = _valid_entries(protected)
        names = _names(mutating)
        if not entries or not names:
            return UNJUDGEABLE  # misassembly: nothing to protect or no tool axis to watch
        if call.name not in names:
            return UPHELD
        path = change_path(call)
        if path is not None:
            spelled, spellings, at = (fold(path), [fold(e) for e in entries], fold(root)) \
                if folded else (path, entries, root)
            if any(path_matches(spelled, entry, root=at) for entry in spellings):
                return _broken(SELF_MOD_BREAK.format(tool=call.name, path=path))
            entry = linked_entry(path, entries, root=root, folded=folded)
            if entry is not None:
                return _broken(SELF_MOD_LINK_BREAK.format(tool=call.name, path=path, entry=entry))
            return UPHELD
        entry, _ = route_by_paths(Candidates(_args_candidates(call), False), entries, root=root,
                                  folded=folded)
        if entry is not None:
            return _broken(SELF_MOD_BREAK.format(tool=call.name, path=entry))
        return UPHELD
    except Exception:  # noqa: BLE001 - a judge that raises is unjudgeable (spec 04 §7.1)
        return UNJUDGEABLE


# -- shell-mod (§7.2) --------------------------------------------------------------------------


def judge_shell_mod_call(
    call: ToolCall,
    *,
    protected: Sequence[str],
    shell: Sequence[str],
    command_args: Sequence[str],
    root: str,
    home: str | None,
    folded: bool = False,
) -> Outcome:
    """Every command string of a shell call through the analyzer's ladder; the first break wins.

    The command strings are every string under the command-arg keys (keys in roster order; a
    nested value is walked, so no string a host nests there goes unjudged).

    `folded` (the project's file system folds case): the analyzer compares every path with
    its case folded, so `.Claude/hooks` reaches `.claude/hooks`.
    """
    try:
        entries = _valid_entries(protected)
        if not entries or not _names(shell) or not _names(command_args):
            return UNJUDGEABLE  # misassembly (an empty allowlist would only be stricter)
        if call.name not in _names(shell):
            return UPHELD
        lines = command_strings(call, command_args)
        if not lines:
            return _broken(SHELL_NO_COMMAND.format(tool=call.name))
        cwd = call_directory(call)
        for line in lines:
            result = judge_shell_mod(line, entries, root=root, home=home, fold_case=folded, cwd=cwd)
            if result.broken:
                return Outcome(1, result.reason)
        return UPHELD
    except Exception:  # noqa: BLE001 - a judge that raises is unjudgeable
        return UNJUDGEABLE


def judge_shell_mod(text: str, protected: Sequence[str], *, root: str, home: str | None,
                    fold_case: bool = False, cwd: str | None = None):
    """`shell.judgment.judge_shell_mod`, whose module (with the walk and the command table) loads
    on the first shell call: a self-mod judgment never needs it."""
    from polydeukes.stdlib.shell.judgment import judge_shell_mod as judge

    return judge(text, protected, root=root, home=home, fold_case=fold_case, cwd=cwd)


# -- transcript-mod (§7.3) ---------------------------------------------------------------------


def transcript_mod_matches(
    call: ToolCall,
    *,
    evidence_path: str,
    mutating: Sequence[str],
    shell: Sequence[str],
    command_args: Sequence[str],
    root: str,
    home: str | None,
) -> Outcome | None:
    """transcript-mod's content predicate, which is also its judge.

    None: the call does not route (it leaves the transcript alone). An Outcome: the call routes
    with subject `evidence_path` and is judged with that outcome — a break (exit 1), or, when a
    roster is empty (misassembly), unjudgeable for every call (exit 2).
    """
    mutating_names, shell_names = _names(mutating), _names(shell)
    if not mutating_names or not shell_names or not _names(command_args):
        return UNJUDGEABLE
    target = _target(evidence_path, root, home)
    if target.inert:
        return None
    if call.name in mutating_names:
        path = change_path(call)
        if path is not None:
            if target.equals(path) or ((resolved := through_links(path, root)) is not None
                                       and target.equals(resolved[0])):
                return _broken(TRANSCRIPT_CHANGE.format(tool=call.name, path=evidence_path))
        elif any(target.names(c) for c in _args_candidates(call)):
            return _broken(TRANSCRIPT_ARGS.format(tool=call.name, path=evidence_path))
    if call.name in shell_names:
        from polydeukes.stdlib.shell.transcript import judge_transcript_line

        # A shell call with no command string is not judged here: this judge is the router.
        cwd = call_directory(call)
        for line in command_strings(call, command_args):
            reason = judge_transcript_line(line, target, cwd)
            if reason is not None:
                return _broken(reason)
    return None


@lru_cache(maxsize=4)
def _target(evidence_path: str, root: str, home: str | None) -> TranscriptTarget:
    from polydeukes.stdlib.shell.transcript import TranscriptTarget

    return TranscriptTarget(evidence_path, root=root, home=home)


# -- shell skip registrations (§7.5) -----------------------------------------------------------


@lru_cache(maxsize=32)
def _derive(text: str, root: str, home: str | None, cwd: str | None) -> ShellWrites:
    # Without a pre-state channel: routing needs targets, never completed changes. Cached
    # because every per-entry skip arm asks about the same call.
    from polydeukes.stdlib.shell.evidence import shell_writes

    return shell_writes(text, root=root, home=home, read_file=None, cwd=cwd)


def _derivations(call: ToolCall, shell: Sequence[str], command_args: Sequence[str], root: str, home: str | None) -> list[ShellWrites]:
    if call.name not in _names(shell):
        return []
    cwd = call_directory(call)
    return [_derive(text, root, home, cwd) for text in command_strings(call, command_args)]


def shell_backstop_routes(
    call: ToolCall, *, shell: Sequence[str], command_args: Sequence[str], root: str, home: str | None
) -> bool:
    """`shell-unjudgeable` routes (subject `-`): some command string of this shell call has a
    write whose target cannot be determined. One row per call, however many targets."""
    return any(writes.undeterminable for writes in _derivations(call, shell, command_args, root, home))


def shell_skip_arm_subject(
    call: ToolCall,
    *,
    shell: Sequence[str],
    command_args: Sequence[str],
    root: str,
    home: str | None,
    in_scope: Callable[[str], bool],
    has_session: bool,
) -> str | None:
    """A per-entry shell skip arm's subject: the repo-relative target of the first in-scope,
    path-bearing write whose result cannot be computed (`tee`, `sed -i`, `printf >` …), or None.

    Without a session there is no pre-state channel to complete computable writes either, so
    those are recorded the same way. Per command string, uncomputable targets come before
    computable ones; a write outside the project has no world and is never in scope.
    """
    for writes in _derivations(call, shell, command_args, root, home):
        paths = [w.repo_path for w in writes.uncomputable]
        if not has_session:
            paths.extend(w.repo_path for w in writes.computed)
        for path in paths:
            if path is not None and in_scope(path):
                return path
    return None
