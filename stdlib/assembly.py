"""Assembly: the registrations one run judges with, in order (spec 05 §3.5, spec 04 §3).

The plan carries what depends on the config alone; the meta-covenants and the shell skips
depend on the input (its tool roster, its session) and are instantiated here, per run:

    self-mod, shell-mod, transcript-mod, the surface's entries, per-entry shell skip arms,
    shell-unjudgeable (always last)
"""

from __future__ import annotations

import os
from typing import Callable

from polydeukes.stdlib import routing
from polydeukes.stdlib.protected import folds_case
from polydeukes.vm import machine as M
from polydeukes.vm import plan as P
from polydeukes.vm.ir import UNSET, Create, Modify, ToolCall
from polydeukes.vm.safeio import PROJECT_FILE_LIMIT, read_regular
from polydeukes.vm.verdict import NO_OBSERVATION

# Imported where first needed rather than here, so a call that routes to no meta-covenant and
# writes nothing through a shell never loads them (about 1 ms of every check's start-up):
# stdlib.meta (the judges), stdlib.shell.evidence (write analysis), stdlib.shell.tokenizer (a
# shell call's command text), vm.explain (a config-fault's line).

STAGED_NAMES = ["staged-write", "staged-delete"]  # the change-set surface's synthetic tools
BACKSTOP = "shell-unjudgeable"


class RosterShellFacts(M.ShellFacts):
    """The shell layer's view of calls, by the input's roster (`tools.shell`, `commandArgs`)."""

    def __init__(self, shell: list[str], command_args: list[str], *, root: str,
                 home: str | None, read_file: Callable[[str], str | None] | None) -> None:
        self.shell = shell
        self.command_args = command_args
        self.root = root
        self.home = home
        self.read_file = read_file  # None: no pre-state channel (an IR without a session)
        self._writes: dict[int, list] = {}

    def command_strings(self, call: ToolCall) -> list[str]:
        if call.name not in self.shell or call.args is UNSET:
            return []
        return [call.args[key] for key in self.command_args if isinstance(call.args.get(key), str)]

    def command(self, call: ToolCall) -> str | None:
        strings = self.command_strings(call)
        if not strings:
            return None
        from polydeukes.stdlib.shell.tokenizer import executed_text  # a shell call's alone

        # Literal stdin data bash would not execute is not the command (spec 04 §8.1.8).
        return executed_text(strings[0])

    def writes(self, call: ToolCall) -> list:
        found = self._writes.get(id(call))
        if found is None:
            found = []
            texts = self.command_strings(call)
            if texts:  # only a shell call loads the analyzer
                from polydeukes.stdlib.shell.evidence import shell_writes

                cwd = routing.call_directory(call)
                found = [shell_writes(text, root=self.root, home=self.home,
                                      read_file=self.read_file, cwd=cwd) for text in texts]
            self._writes[id(call)] = found
        return found

    def derived_changes(self, call: ToolCall) -> list:
        changes = []
        for writes in self.writes(call):
            if writes.pre_state_error is not None:
                raise OSError(writes.pre_state_error)  # every routed declaration: unjudgeable
            for change in writes.changes or ():
                if change.kind == "create":
                    changes.append(Create(path=change.path, post=change.post))
                else:
                    changes.append(Modify(path=change.path, pre=change.pre, post=change.post))
        return changes

    def computable_write_paths(self, call: ToolCall) -> list[str]:
        return [w.repo_path for writes in self.writes(call) for w in writes.computed
                if w.repo_path is not None]

    def undeterminable(self, call: ToolCall) -> bool:
        return any(writes.undeterminable for writes in self.writes(call))

    def uncomputable_paths(self, call: ToolCall) -> list[str]:
        return [w.repo_path for writes in self.writes(call) for w in writes.uncomputable
                if w.repo_path is not None]


def assemble(run: M.Run, surface: P.Surface, *, home: str | None) -> list[M.Registration]:
    """The run's registrations; writes each config-fault line once (spec 03 §17.2)."""
    plan, value, root = run.plan, run.value, run.root
    protected = plan.protected
    tools = value.tools
    mutating = tools.mutating if tools is not UNSET else STAGED_NAMES
    shell = tools.shell if tools is not UNSET else []
    command_args = tools.commandArgs if tools is not UNSET else []
    registrations: list[M.Registration] = []
    # On macOS or Windows `.Claude/hooks/pre.sh` is the protected `.claude/hooks/pre.sh`: the
    # file system is asked (the config file under its case-swapped name is the same file).
    folded = folds_case(root, plan.config_name)
    gathered: dict[int, routing.Candidates] = {}
    matched: dict[int, tuple[str | None, bool]] = {}

    def candidates(index: int, call: ToolCall) -> routing.Candidates:
        # self-mod and shell-mod both route on a call's path candidates: gathered once.
        found = gathered.get(index)
        if found is None:
            found = gathered[index] = routing.gather_candidates(call, root=root)
        return found

    def matched_entry(index: int, call: ToolCall) -> tuple[str | None, bool]:
        # ... and on the same protected list: matched once too.
        found = matched.get(index)
        if found is None:
            found = matched[index] = routing.route_by_paths(
                candidates(index, call), protected, root=root, folded=folded)
        return found

    mutating_names = frozenset(mutating)

    def by_path(index: int, call: ToolCall) -> M.Route | None:
        subject, failed = matched_entry(index, call)
        if subject is None and call.name in mutating_names:
            # No spelling names an entry; a symbolic link on the way may still lead to one.
            path = routing.change_path(call)
            subject = None if path is None else routing.linked_entry(path, protected, root=root, folded=folded)
        return None if subject is None else M.Route(subject, failed)

    if mutating:
        registrations.append(M.MetaRegistration(
            "self-mod", by_path,
            lambda index, call, route: _outcome(_meta().judge_self_mod(
                call, protected=protected, mutating=mutating, root=root, folded=folded)),
        ))

    def shell_route(index: int, call: ToolCall) -> M.Route | None:
        # Beside mentions, the analyzer's own subject: `rm -rf .` names no entry yet reaches all.
        subject, failed = routing.route_shell_mod(
            call, candidates(index, call), protected, shell=shell,
            command_args=command_args, root=root, home=home, folded=folded,
            by_paths=matched_entry(index, call))
        return None if subject is None else M.Route(subject, failed)

    if shell:
        registrations.append(M.MetaRegistration(
            "shell-mod", shell_route,
            lambda index, call, route: _outcome(_meta().judge_shell_mod_call(
                call, protected=protected, shell=shell, command_args=command_args,
                root=root, home=home, folded=folded)),
        ))
    session = value.session
    if session is not UNSET and session.evidencePath is not UNSET:
        registrations.append(_transcript_mod(
            session.evidencePath, mutating, shell, command_args, root, home))

    # The faults are the surface's entries that are not declarations: found by index, since
    # looking an entry up decodes it (planfile.LazyList).
    declared = set(surface.route.declarations)
    faults = [index for index in surface.entries if index not in declared]
    if faults:
        from polydeukes.vm.explain import fault_line

        for index in faults:
            run.stderr(fault_line(plan.entries[index]))
    declarations = M.entry_registrations(run, surface)
    registrations.append(declarations)

    if shell:
        registrations.append(_skip_arms(declarations, run.shell, run.has_session))
    registrations.append(M.SkipRegistration(
        BACKSTOP, NO_OBSERVATION,
        lambda index, call: M.Route("-") if shell and run.shell.undeterminable(call) else None,
    ))
    return registrations


def _skip_arms(declarations: M.Declarations, facts: RosterShellFacts,
               has_session: bool) -> M.Group:
    """One skip arm per declaration not scoped on `command`, in declaration order: the first
    in-scope, path-bearing shell write whose result cannot be computed; without a session (no
    pre-state channel) computable writes are recorded the same way (spec 04 §7.5)."""
    strings = declarations.run.plan.strings

    found: list[list[int]] = []

    def armed() -> list[int]:
        # Worked out once a call has write paths: it looks up (decodes) every declaration.
        # (A closure rather than functools.cache, whose wrapper costs every run its creation.)
        if not found:
            found.append([position for position in range(declarations.size)
                          if (scope := declarations.entry(position).scope) is None
                          or strings[scope.source] != "command"])
        return found[0]

    def paths(call: ToolCall) -> list[str]:
        found = facts.uncomputable_paths(call)
        if not has_session:
            found = found + facts.computable_write_paths(call)
        return found

    def build(position: int) -> M.Registration:
        declaration = declarations.member(armed()[position])

        def route(index: int, call: ToolCall) -> M.Route | None:
            for path in paths(call):
                if declaration.admits_path(path):
                    return M.Route(path)
            return None

        return M.SkipRegistration(declaration.label, NO_OBSERVATION, route)

    def routable(index: int, call: ToolCall) -> range:
        # The write paths are the call's, not the arm's: a call with none (every call that is
        # not a shell write) routes no arm, so none is built or asked.
        try:
            if not paths(call):
                return range(0)
        except Exception:  # noqa: BLE001 - every arm then meets the failure in its own route
            pass
        return range(len(armed()))

    return M.Group(build, routable)


def _transcript_mod(evidence_path: str, mutating, shell, command_args, root, home):
    def route(index: int, call: ToolCall) -> M.Route | None:
        outcome = _meta().transcript_mod_matches(
            call, evidence_path=evidence_path, mutating=mutating, shell=shell,
            command_args=command_args, root=root, home=home)
        if outcome is None:
            return None
        routes_cache[index] = outcome
        return M.Route(evidence_path)

    routes_cache: dict[int, object] = {}
    return M.MetaRegistration(
        "transcript-mod", route,
        lambda index, call, route_: _outcome(routes_cache[index]),
    )


def _outcome(result) -> M.Outcome:
    return M.Outcome(result.exit_code, result.reason)


def _meta():
    from polydeukes.stdlib import meta

    return meta


def default_home() -> str | None:
    return routing.resolve_home()


def disk_reader(root: str) -> Callable[[str], str | None]:
    """The pre-state channel: the session hook runs before the tool, so disk is the pre-state."""

    def read(relative: str) -> str | None:
        # Any other refusal (a FIFO, a device, a file past the limit) propagates: the shell
        # layer then answers unjudgeable rather than judging an unknown pre-state.
        try:
            data = read_regular(os.path.join(root, relative), limit=PROJECT_FILE_LIMIT)
        except FileNotFoundError:
            return None
        return data.decode("utf-8", errors="replace")

    return read
