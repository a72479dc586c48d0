"""The dispatcher: one observation in, rows and an exit code out (spec 04 §2, §4, §5; 03 §3, §18).

Registrations arrive assembled (stdlib/assembly.py builds the meta-covenants and shell skips
from the input's roster and hands them in); this module routes every call to every
registration, runs the bodies through the wrapper, and judges declarations by running their
lowered programs over the call's worlds. It imports nothing of ours outside vm/.
"""

from __future__ import annotations

import os
import posixpath
import time
from typing import Any, Callable, Iterable, Iterator

import msgspec

from polydeukes.vm import plan as P
from polydeukes.vm import sre
from polydeukes.vm.ir import UNSET, CovenantInput, Create, Delete, Modify, ToolCall
from polydeukes.vm.jsregex import JsRegex
from polydeukes.vm.opcodes import Op
from polydeukes.vm.ops import Frame, SupplyProblem, bind, stored
from polydeukes.vm.safeio import PROJECT_FILE_LIMIT, read_regular, refusal_text
from polydeukes.vm.telemetry import TelemetryWriter, relate_failure, witnesses_field
from polydeukes.vm.values import UNDEFINED, js_trim
from polydeukes.vm.verdict import (
    ADVISED,
    BLOCKED,
    NO_OBSERVATION,
    PASSED,
    SKIPPED,
    SUPPLY_PASS,
    WITNESSED,
    translate_body_exit,
)

CHECK_LABEL = "covenant-check"
CHANGE = object()  # the world key of the file change a file world came from
SESSION, CHANGE_SET = "session", "change-set"


class RunFailed(Exception):
    """The whole run fails closed (a fatal read, a broken witness token): spec 05 §3.7."""


# Small records are frozen msgspec Structs rather than NamedTuples: a NamedTuple class costs
# ~0.15 ms to create, paid by every check at import.
class Route(msgspec.Struct, frozen=True, gc=False):
    subject: str
    failed: bool = False  # fail-closed routing: judged at block, never witnessed


class Outcome(msgspec.Struct, frozen=True):
    """A body's answer: exit 0 upheld, 1 broken, 2 unjudgeable (spec 04 §1.1)."""

    exit_code: int
    reason: str | None = None
    witnesses: str | None = None  # the serialized fifth field of a declaration break
    skipped: str | None = None  # a skip token, honoured only with exit 0
    opens: Callable[[], bool] | None = None  # a declaration's own witness block


UNJUDGEABLE = Outcome(2)


class Registration:
    """One covenant the dispatcher may run; `kind` is meta, declare or skip."""

    kind = "meta"
    label = ""
    entry_level: str | None = None  # an entry's declared enforce; None for meta-covenants

    def route(self, index: int, call: ToolCall) -> Route | None:
        raise NotImplementedError

    def judge(self, index: int, call: ToolCall, route: Route) -> Outcome:
        raise NotImplementedError

    def routes(self, index: int, call: ToolCall) -> Iterator[tuple["Registration", Route]]:
        """(registration, route) for each registration this stands for that routes the call."""
        route = route_or_fail(self, index, call)
        if route is not None:
            yield self, route


def route_or_fail(registration: Registration, index: int, call: ToolCall) -> Route | None:
    try:
        return registration.route(index, call)
    except RunFailed:
        raise
    except Exception:  # noqa: BLE001 - a routing predicate that raises routes fail-closed
        return Route("-", failed=True)


class Group(Registration):
    """Consecutive registrations that route exactly as if listed one by one, built on demand.

    `candidates(index, call)` names, in order, the positions of the members that may route the
    call (a superset); the others are never built nor asked, which is what keeps a thousand
    entries that cannot route a call from costing a thousand objects and calls per check.
    """

    def __init__(self, build: Callable[[int], Registration],
                 candidates: Callable[[int, ToolCall], Iterable[int]]) -> None:
        self._build = build
        self._candidates = candidates
        self._members: dict[int, Registration] = {}

    def member(self, position: int) -> Registration:
        found = self._members.get(position)
        if found is None:
            found = self._members[position] = self._build(position)
        return found

    def routes(self, index: int, call: ToolCall) -> Iterator[tuple[Registration, Route]]:
        # A generator: each member is routed only after the one before it has been judged and
        # recorded, as in a flat list (a fatal read while routing leaves the earlier rows).
        for position in self._candidates(index, call):
            registration = self.member(position)
            route = route_or_fail(registration, index, call)
            if route is not None:
                yield registration, route


class MetaRegistration(Registration):
    def __init__(self, label: str, route: Callable[[int, ToolCall], Route | None],
                 judge: Callable[[int, ToolCall, Route], Outcome]) -> None:
        self.label = label
        self._route = route
        self._judge = judge

    def route(self, index: int, call: ToolCall) -> Route | None:
        return self._route(index, call)

    def judge(self, index: int, call: ToolCall, route: Route) -> Outcome:
        return self._judge(index, call, route)


class SkipRegistration(Registration):
    """Records `skipped` (with `token`) for the calls it routes; never judges, never witnessed."""

    kind = "skip"

    def __init__(self, label: str, token: str,
                 route: Callable[[int, ToolCall], Route | None]) -> None:
        self.label = label
        self.token = token
        self._route = route

    def route(self, index: int, call: ToolCall) -> Route | None:
        return self._route(index, call)


# -- the run context ------------------------------------------------------------------------


class ShellFacts:
    """What the shell layer knows about a call (stdlib provides it; absent: no shell roster)."""

    def command(self, call: ToolCall) -> str | None:
        return None

    def derived_changes(self, call: ToolCall) -> list:
        """Computable writes completed into file changes (session surface with a session)."""
        return []

    def computable_write_paths(self, call: ToolCall) -> list[str]:
        return []


class Memo:
    """What the runs of one plan may share in a long-lived process (polydeukes.Judge): the
    compiled regexes and the bound programs, which depend on the plan alone."""

    __slots__ = ("regexes", "programs")

    def __init__(self) -> None:
        self.regexes: dict[int, JsRegex] = {}
        self.programs: dict[int, tuple] = {}  # by id() of a plan entry, which the plan keeps


class Run:
    """Everything one `covenant check` run shares across calls and registrations."""

    def __init__(
        self,
        plan: P.Plan,
        value: CovenantInput,
        *,
        root: str,
        surface: str,
        posture: str,
        unattended: bool,
        telemetry: TelemetryWriter,
        stderr: Callable[[str], None],
        shell: ShellFacts | None = None,
        witness_open: Callable[[], bool] | None = None,
        snapshot: dict | None = None,
        memo: Memo | None = None,
    ) -> None:
        self.plan = plan
        sre.carry(plan.carried, plan.sre_key)  # the stdlib's patterns this run may compile
        self.value = value
        self.root = root
        self.surface = surface
        self.posture = posture
        self.unattended = unattended
        self.telemetry = telemetry
        self.stderr = stderr
        self.shell = shell or ShellFacts()
        self.witness_open = witness_open
        self.snapshot = snapshot
        self.has_session = value.session is not UNSET
        memo = memo or Memo()
        self._regexes = memo.regexes
        self.programs = memo.programs
        self._files: dict[str, str | None] = {}
        self.lines: dict[str, list] = {}  # ops.Frame.lines: texts split once per run
        self.groups: dict[int, dict] = {}  # ops.Frame.groups: keyByPattern's groups, per pattern
        self._worlds: dict[tuple[int, bool], list[dict]] = {}
        # `changes`: the path of every call of the observation that carries evidence.
        self.changes = [c.fileChange.path for c in value.toolCalls if c.fileChange is not UNSET]
        session = value.session
        self.sidecar = (
            session.channels.sidecar
            if session is not UNSET and session.channels is not UNSET
            and session.channels.sidecar is not UNSET else None
        )

    def test(self, index: int, subject: str) -> bool:
        """Unanchored search; a subject without the pattern's required literal never matches,
        and is rejected before the pattern is ever compiled."""
        required = self.plan.patterns[index].required
        if required and required not in subject:
            return False
        return self.regex(index).test(subject)

    def regex(self, index: int) -> JsRegex:
        found = self._regexes.get(index)
        if found is None:
            plan = self.plan
            pattern = plan.patterns[index]
            found = JsRegex(pattern.source, pattern.flags, pattern.needs_utf16,
                            sre.pattern(pattern.source, pattern.flags, plan.compiled[index],
                                        plan.sre_key))
            self._regexes[index] = found
        return found

    # -- worlds (spec 03 §3.2) ---------------------------------------------------------------
    def worlds(self, index: int, call: ToolCall, *, enriched: bool) -> list[dict]:
        """The call's worlds; `enriched` adds shell-derived file changes (session only)."""
        # Without a session no shell-derived change is added: both views are one list (and
        # a registration's admitted worlds, memoised by list, are worked out once).
        key = (index, enriched and self.has_session)
        found = self._worlds.get(key)
        if found is None:
            found = self._build_worlds(call, key[1])
            self._worlds[key] = found
        return found

    def _build_worlds(self, call: ToolCall, enriched: bool) -> list[dict]:
        shared: dict[str, Any] = {"changes": list(self.changes)}
        command = self.shell.command(call)
        if command is not None:
            shared["command"] = command
        if self.value.actor is not UNSET:
            shared["actor"] = _actor_value(self.value.actor)
        changes = [call.fileChange] if call.fileChange is not UNSET else []
        if enriched and self.has_session:
            changes = changes + list(self.shell.derived_changes(call))
        worlds = []
        for change in changes:
            path = self.repo_path(change.path)
            if path is None:
                continue
            world = dict(shared)
            world["target.path"] = path
            if isinstance(change, Create):
                world["post"] = change.post
            elif isinstance(change, Modify):
                world["pre"] = change.pre
                world["post"] = change.post
                world["state"] = {"pre": change.pre, "post": change.post}
            elif isinstance(change, Delete):
                if change.pre is not UNSET:
                    world["pre"] = change.pre
            else:
                continue
            world[CHANGE] = change  # for named file sources (a non-string key: never a source)
            worlds.append(world)
        if not worlds and command is not None:
            call_world = dict(shared)
            worlds.append(call_world)
        return worlds

    def repo_path(self, path: str) -> str | None:
        """Repository-relative POSIX path, or None when it lies outside or names the root."""
        if path.startswith("/"):
            relative = posixpath.relpath(posixpath.normpath(path), self.root)
        else:
            relative = posixpath.normpath(path)
        if relative == "." or relative == ".." or relative.startswith("../"):
            return None
        return relative

    def file_source(self, path: str, worlds: list[dict]) -> str | None:
        """The change's own text when the input changes the file, else the working tree."""
        for world in reversed(worlds):
            if world.get("target.path") != path:
                continue
            change = world[CHANGE]
            if self.surface == CHANGE_SET:
                # A diff's modification carries hunk lines only: only a creation is whole.
                if isinstance(change, Create):
                    return change.post
                if isinstance(change, Delete) and change.pre is UNSET:
                    return None
                break
            return change.post if not isinstance(change, Delete) else None
        return self.read_file(path)

    def read_file(self, relative: str) -> str | None:
        """A project file's text from the working tree; None when absent (spec 03 §3.4)."""
        if relative in self._files:
            return self._files[relative]
        path = os.path.join(self.root, relative)
        try:
            # A FIFO or a device in the working tree is refused, never waited on or read
            # forever; a symlink is followed to a regular file (vm/safeio.py).
            data = read_regular(path, limit=PROJECT_FILE_LIMIT)
        except (FileNotFoundError, IsADirectoryError, NotADirectoryError):
            text = None
        except OSError as exc:
            raise RunFailed(f"cannot read {relative}: {refusal_text(exc)}") from None
        else:
            text = None if b"\0" in data else data.decode("utf-8", errors="replace")
        self._files[relative] = text
        return text


def _actor_value(actor: Any) -> dict:
    return {} if actor.agentType is UNSET else {"agentType": actor.agentType}


def subject_of(world: dict) -> str:
    return world.get("target.path", "-")


# -- declarations ---------------------------------------------------------------------------


class DeclareRegistration(Registration):
    kind = "declare"

    def __init__(self, entry: P.Declare, run: Run) -> None:
        self.entry = entry
        self.run = run
        self.label = entry.label
        self.entry_level = entry.enforce or "advise"
        self._bound: tuple | None = None  # (body, witness), bound on first judgment
        self._admitted: tuple[list, list] | None = None  # (worlds, admitted): route, then judge

    def programs(self) -> tuple:
        if self._bound is None:
            entry = self.entry
            found = self.run.programs.get(id(entry))
            if found is None:
                witness = bind(entry.witness.code) if entry.witness is not None else None
                found = self.run.programs[id(entry)] = (bind(entry.body.code), witness)
            self._bound = found
        return self._bound

    # -- scope and named sources -------------------------------------------------------------
    def admitted(self, worlds: list[dict]) -> list[dict]:
        # Routing and judging a call ask about the same worlds (Run.worlds keeps each list for
        # the run, and the file sources it reads are cached there too): admitted once.
        memo = self._admitted
        if memo is not None and memo[0] is worlds:
            return memo[1]
        entry = self.entry
        chosen = []
        for world in worlds:
            world = self.with_sources(world, worlds)
            if entry.scope is None or self.in_scope(world):
                chosen.append(world)
        self._admitted = (worlds, chosen)
        return chosen

    def in_scope(self, world: dict) -> bool:
        scope, plan = self.entry.scope, self.run.plan
        value = world.get(plan.strings[scope.source])
        if type(value) is not str:
            return False
        if scope.include and not any(self.run.test(i, value) for i in scope.include):
            return False
        return not any(self.run.test(i, value) for i in scope.exclude)

    def with_sources(self, world: dict, worlds: list[dict]) -> dict:
        if not self.entry.bindings:
            return world
        run, strings = self.run, self.run.plan.strings
        merged = dict(world)
        for binding in self.entry.bindings:
            name = strings[binding.name]
            if binding.kind == "file":
                value = run.file_source(strings[binding.file], worlds)
            elif binding.kind == "sidecar":
                value = run.sidecar
            else:
                value = run.snapshot
            if value is None:
                merged.pop(name, None)  # absent: the supply policy decides
            else:
                merged[name] = value
        return merged

    # -- routing (spec 03 §18.1) -------------------------------------------------------------
    def route(self, index: int, call: ToolCall) -> Route | None:
        admitted = self.admitted(self.run.worlds(index, call, enriched=False))
        if admitted:
            return Route(subject_of(admitted[0]))
        if self.run.surface == SESSION and self.run.has_session:
            for path in self.run.shell.computable_write_paths(call):
                if self.admits_path(path):
                    return Route(path)
        return None

    def admits_path(self, path: str) -> bool:
        scope = self.entry.scope
        if scope is None or self.run.plan.strings[scope.source] != "target.path":
            return True  # a scope over another source admits every computable write
        return self.in_scope({"target.path": path})

    # -- judging (spec 03 §18.2) -------------------------------------------------------------
    def judge(self, index: int, call: ToolCall, route: Route) -> Outcome:
        entry, run = self.entry, self.run
        if run.unattended and _reads_user_texts(entry.body):
            # Nobody is present: caller-supplied "human" text is no observation (spec 05 §3.3).
            return Outcome(0, skipped=NO_OBSERVATION)
        passed_by_supply = judged = False
        for world in self.admitted(run.worlds(index, call, enriched=True)):
            result = evaluate_world(run.plan, entry, world, run.regex, self.programs()[0],
                                    run.lines, run.groups)
            if result.status == SUPPLY_PASSED:
                passed_by_supply = True
            elif result.status == SUPPLY_ERROR:
                from polydeukes.vm.messages import unjudgeable_line  # a failure's text alone

                return Outcome(2, unjudgeable_line(entry.label, subject_of(world),
                                                   result.source, result.reason))
            elif result.status == BROKEN:
                return self.broken(result)
            else:
                judged = True
        if passed_by_supply and not judged:
            return Outcome(0, skipped=SUPPLY_PASS)
        return Outcome(0)

    def broken(self, result: "WorldResult") -> Outcome:
        entry = self.entry
        failures = [
            relate_failure(relate_id, [(key, value, side) for key, value, side, _ in witnesses],
                           len(witnesses))
            for relate_id, _, witnesses in result.breaks
        ]
        from polydeukes.vm.messages import break_line  # a break's text: a passing call needs none

        reason = break_line(entry.label, subject_of(result.frame.world), result.breaks[0][1],
                            entry.why)
        frame = result.frame
        opens = (lambda: self.witness_opens(frame)) if self.programs()[1] is not None else None
        return Outcome(1, reason, witnesses_field(failures), opens=opens)

    def witness_opens(self, frame: Frame) -> bool:
        """The declaration's own witness, on the world that broke (spec 03 §14)."""
        if self.run.unattended and _reads_user_texts(self.entry.witness):
            return False  # a witness that reads user texts cannot open with nobody present
        return evaluate_witness(self.entry, frame, self.programs()[1])


def evaluate_witness(entry: P.Declare, frame: Frame, program: list | None = None) -> bool:
    """Whether the witness block holds on the frame the body left: every witness relate entry
    empty and no supply problem (an absent source keeps it shut even under `pass`)."""
    if entry.witness is None:
        return False
    frame.witnesses = {}
    try:
        for handler, ins in program if program is not None else bind(entry.witness.code):
            handler(frame, ins)
    except Exception:  # noqa: BLE001 - a supply problem or a failure keeps it shut
        return False
    return not frame.witnesses


def _reads_user_texts(program: P.Program | None) -> bool:
    return program is not None and any(ins[0] == Op.USER_TEXTS for ins in stored(program.code))


PASSED_WORLD, BROKEN, SUPPLY_PASSED, SUPPLY_ERROR = "passed", "broken", "supply-pass", "supply-error"


class WorldResult(msgspec.Struct, frozen=True):
    """One world's judgment (spec 03 §7.3): `breaks` are (relate id, message, witnesses)."""

    status: str
    breaks: list
    frame: Frame
    source: str = ""
    reason: str = ""


def evaluate_world(plan: P.Plan, entry: P.Declare, world: dict, regex: Callable[[int], JsRegex],
                   body: list | None = None, lines: dict | None = None,
                   groups: dict | None = None) -> WorldResult:
    """Run a declaration's body program over one admitted world (`lines`, `groups`: a run's
    memos, see ops.Frame)."""
    frame = Frame(plan, world, entry.slots, regex, lines, groups)
    try:
        for handler, ins in body if body is not None else bind(entry.body.code):
            handler(frame, ins)
    except SupplyProblem as problem:
        status = SUPPLY_PASSED if problem.passed else SUPPLY_ERROR
        return WorldResult(status, [], frame, problem.source, problem.reason)
    if not frame.witnesses:  # every relation holds: the common case
        return WorldResult(PASSED_WORLD, [], frame)
    breaks = []
    for index, relate in enumerate(entry.body.relate):
        witnesses = frame.witnesses.get(index)
        if witnesses:
            from polydeukes.vm.messages import render_break

            template = relate.message if relate.message is not None else (relate.left, relate.right)
            breaks.append((relate.id, render_break(template, witnesses), witnesses))
    return WorldResult(BROKEN if breaks else PASSED_WORLD, breaks, frame)


# -- the TTL witness valve (spec 04 §9) -----------------------------------------------------


def ttl_witness(token: str, ttl_minutes: float, messages: list,
                clock: Callable[[], int]) -> Callable[[], bool]:
    """Opens iff a session user message's first line is the token alone and fresh."""
    wanted = js_trim(token)
    if not wanted:
        raise RunFailed("ttlWitness: token must not be empty")
    if "\n" in token or "\r" in token:
        raise RunFailed("ttlWitness: token must not contain line breaks")
    ttl_ms = ttl_minutes * 60000

    def opens() -> bool:
        now = clock()  # read once per consultation
        for message in messages:
            stamp = message.timestampMs
            if stamp is UNSET:
                continue  # freshness unprovable: evidence-absence fails closed
            if js_trim(message.text.split("\n", 1)[0]) == wanted and 0 <= now - stamp <= ttl_ms:
                return True
        return False

    return opens


def now_ms() -> int:
    return time.time_ns() // 1_000_000


def transcript_snapshot(value: CovenantInput, observed_at_ms: int) -> dict | None:
    """The `{transcript: true}` source (spec 03 §3.4); UNDEFINED where the host gave nothing."""
    session = value.session
    if session is UNSET:
        return None
    return {
        "observedAtMs": observed_at_ms,
        "userMessages": [
            {"index": i, "text": m.text,
             "timestampMs": UNDEFINED if m.timestampMs is UNSET else m.timestampMs}
            for i, m in enumerate(session.userMessages)
        ],
        "toolCalls": [
            {"index": i, "name": c.name, "args": {} if c.args is UNSET else c.args,
             "succeeded": UNDEFINED if c.succeeded is UNSET else c.succeeded}
            for i, c in enumerate(session.toolCalls)
        ],
    }


# -- dispatch (spec 04 §2, §5.2; 05 §3.4 step 7) ---------------------------------------------


def effective_level(registration: Registration, posture: str, route: Route) -> str:
    """Lenient side wins; failed routing always blocks (spec 04 §10.1)."""
    if route.failed:
        return "block"
    if registration.entry_level == "advise":
        return "advise"
    return posture


def dispatch(run: Run, registrations: list[Registration]) -> int:
    result = 0
    advised = 0
    for index, call in enumerate(run.value.toolCalls):
        routed = False
        for item in registrations:
            for registration, route in item.routes(index, call):
                routed = True
                code, event = _run_registration(run, registration, index, call, route)
                result = max(result, code)
                advised += event == ADVISED
        if not routed:
            file_path = call.args.get("file_path") if call.args is not UNSET else None
            subject = file_path if isinstance(file_path, str) else "-"
            run.telemetry.record(PASSED, CHECK_LABEL, subject)
    if advised:
        fate = "commit blocked by another verdict" if result == 2 else "commit allowed"
        run.stderr(f"covenant advisory: {advised} verdict(s) recorded as advised, {fate}")
    return result


def _run_registration(run: Run, registration: Registration, index: int, call: ToolCall,
                      route: Route) -> tuple[int, str]:
    """The wrapper (spec 04 §2): judge, translate, valve, record exactly once."""
    label, subject = registration.label, route.subject
    if isinstance(registration, SkipRegistration):
        if route.failed:
            run.telemetry.record(BLOCKED, label, subject)
            return 2, BLOCKED
        run.telemetry.record(SKIPPED, label, subject, reason=registration.token)
        return 0, SKIPPED
    try:
        outcome = registration.judge(index, call, route)
    except RunFailed:
        raise
    except Exception:  # noqa: BLE001 - a body that fails is unjudgeable; the others still run
        outcome = UNJUDGEABLE
    if outcome.reason:
        run.stderr(outcome.reason)
    if outcome.skipped is not None and outcome.exit_code == 0:
        run.telemetry.record(SKIPPED, label, subject, reason=outcome.skipped)
        return 0, SKIPPED
    code, event = translate_body_exit(outcome.exit_code, effective_level(registration, run.posture, route))
    if event == BLOCKED and not route.failed and _valve_opens(run, outcome):
        code, event = 0, WITNESSED
    run.telemetry.record(event, label, subject, witnesses=outcome.witnesses)
    return code, event


def _valve_opens(run: Run, outcome: Outcome) -> bool:
    """The human TTL valve or, for a real break, the declaration's own witness; a raise is shut."""
    try:
        if run.witness_open is not None and run.witness_open():
            return True
        return outcome.exit_code == 1 and outcome.opens is not None and outcome.opens()
    except Exception:  # noqa: BLE001
        return False


class Declarations(Group):
    """A surface's declarations in order, as one group. The surface's route index names the
    members a call can route; only those are looked up, and so decoded (planfile.LazyList)."""

    def __init__(self, run: Run, surface: P.Surface) -> None:
        self.run = run
        self.route_index = surface.route
        self.size = len(surface.route.declarations)
        super().__init__(lambda position: DeclareRegistration(self.entry(position), run),
                         self._routable)

    def entry(self, position: int) -> P.Declare:
        return self.run.plan.entries[self.route_index.declarations[position]]

    def _routable(self, index: int, call: ToolCall) -> Iterable[int]:
        table = self.route_index
        if not table.literals:
            return table.always
        run = self.run
        try:
            worlds = run.worlds(index, call, enriched=False)
            # Every path DeclareRegistration.route tests: the worlds', then computable writes.
            paths = [world["target.path"] for world in worlds if "target.path" in world]
            if run.surface == SESSION and run.has_session:
                paths += run.shell.computable_write_paths(call)
        except Exception:  # noqa: BLE001 - every member then meets the failure in its own route
            return range(self.size)
        chosen = set(table.always)
        for path in paths:
            for literal, position in zip(table.literals, table.holders):
                if literal in path:
                    chosen.add(position)
        if worlds:
            # A member reads its file sources before its scope test, and a read that fails ends
            # the run (RunFailed) at that member: such a member stays, to fail in its own turn.
            failing: dict[str, bool] = {}
            for position, files in table.files.items():
                if position not in chosen and any(
                        self._read_fails(path, worlds, failing) for path in files):
                    chosen.add(position)
        return sorted(chosen)

    def _read_fails(self, path: str, worlds: list[dict], seen: dict[str, bool]) -> bool:
        found = seen.get(path)
        if found is None:
            try:
                self.run.file_source(path, worlds)  # a success is cached for the member's read
                found = False
            except RunFailed:
                found = True
            seen[path] = found
        return found


def entry_registrations(run: Run, surface: P.Surface) -> Declarations:
    """The surface's declarations; a config fault routes nothing (spec 02 §1.6)."""
    return Declarations(run, surface)
