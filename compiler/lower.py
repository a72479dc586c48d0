"""Lowering: a validated config -> the plan of registrations (vm/plan.py).

Each judged entry compiles once into a `Declare` registration (a flat program over numbered
slots) or, when the step registry refuses it, a `Fault` skip registration (spec 02 §1.6); the
session and change-set surfaces then list entry indices in assembly order.

The evaluation order of spec 03 §7.3 is static: relate entries run in declaration order and each
resolves its extractions on demand, left operand first, caching them for the world. Lowering
walks exactly that order and emits each needed pipeline just before its first use, so the VM runs
a straight line, a pipeline no relation reads is never emitted (its absent source is never
noticed), and the first supply problem met in program order is the one the spec reports.
"""

from __future__ import annotations

import posixpath
import re
import re._constants as sre_constants
from typing import Any

from polydeukes.compiler import nodes
from polydeukes.compiler.catalogue import AXES, declaration_axes, relation_name
from polydeukes.compiler.diagnostics import CompileFault, ConfigValidationError
from polydeukes.compiler.render import render_declaration_text
from polydeukes.compiler.resolve import REFUSE_ON_COMPILE_FAULT, resolve_declaration
from polydeukes.compiler.source import Span
from polydeukes.compiler.validate import Entry, ResolvedConfig
from polydeukes.stdlib.protected import normalize_protected_paths, with_guard_state
from polydeukes.vm import plan as P
from polydeukes.vm import sre

# Catalogue order of relations for explain rows (spec 05 §4.2).
RELATION_ORDER = ("empty", "nonEmpty", "equal", "subset", "implies", "ordered", "unchanged")
POLICIES = {name: index for index, name in enumerate(P.POLICY_NAMES)}


class Tables:
    """Interned strings, patterns, constants and spans shared by every registration."""

    def __init__(self) -> None:
        self.strings: list[str] = []
        self._string_index: dict[str, int] = {}
        self.patterns: list[P.Pattern] = []
        self._pattern_index: dict[P.Pattern, int] = {}
        self.constants: list[Any] = []
        self.spans: list[P.SourceSpan] = []
        self._span_index: dict[P.SourceSpan, int] = {}

    def string(self, text: str) -> int:
        found = self._string_index.get(text)
        if found is None:
            found = self._string_index[text] = len(self.strings)
            self.strings.append(text)
        return found

    def pattern(self, js: str, ignore_case: bool, translated: Any) -> int:
        pattern = P.Pattern(
            js=js, ignore_case=ignore_case, source=translated.source, flags=translated.flags,
            group_count=translated.group_count, needs_utf16=translated.needs_utf16,
            required=required_literal(translated),
        )
        found = self._pattern_index.get(pattern)
        if found is None:
            found = self._pattern_index[pattern] = len(self.patterns)
            self.patterns.append(pattern)
        return found

    def constant(self, value: Any) -> int:
        self.constants.append(value)
        return len(self.constants) - 1

    def span(self, span: Span | None) -> int:
        if span is None:
            return P.NONE
        key = P.SourceSpan(self.string(span.file), span.line, span.col)
        found = self._span_index.get(key)
        if found is None:
            found = self._span_index[key] = len(self.spans)
            self.spans.append(key)
        return found


def required_literal(translated: Any) -> str:
    """The longest literal run every match must contain ('' when none is certain).

    The VM tests it with `in` before compiling the pattern, so routing a call past a scope
    that cannot match costs a substring test, not a regex compilation (1,000 unrouted
    disciplines must stay cheap). Only a top-level concatenation is trusted: its literals, and
    those of plain groups in it, occur in every match; anything else ends a run.
    """
    if translated.needs_utf16 or translated.flags & re.IGNORECASE:
        return ""
    try:
        parsed = sre.parsed(translated.source, translated.flags)
    except (re.error, RecursionError):
        return ""
    best, run = "", []

    def walk(items) -> None:
        nonlocal best
        for op, argument in items:
            if op is sre_constants.LITERAL:
                run.append(chr(argument))
                continue
            if op is sre_constants.SUBPATTERN:
                walk(argument[-1])  # a plain group's body is part of the concatenation
                continue
            if len(run) > len(best):
                best = "".join(run)
            run.clear()

    walk(parsed.data)
    if len(run) > len(best):
        best = "".join(run)
    return best


class LoweredConfig:
    def __init__(self, plan: P.Plan, faults: list[tuple[str, CompileFault]]) -> None:
        self.plan = plan
        self.faults = faults  # (entry id, fault), in config order


def lower_config(config: ResolvedConfig) -> LoweredConfig:
    tables = Tables()
    entries: list[P.Entry] = []
    faults: list[tuple[str, CompileFault]] = []
    index_of: dict[str, int] = {}

    def compile_list(list_entries: list[Entry] | None) -> list[int]:
        indices = []
        for entry in list_entries or ():
            if entry.id not in index_of:
                lowered = _lower_entry(entry, tables)
                if isinstance(lowered, P.Fault):
                    faults.append((entry.id, CompileFault(lowered.location, lowered.reason)))
                index_of[entry.id] = len(entries)
                entries.append(lowered)
            indices.append(index_of[entry.id])
        return indices

    shared = compile_list(config.disciplines)
    session_own = compile_list(config.session_disciplines)
    change_set_own = compile_list(config.change_set_disciplines)
    if faults and REFUSE_ON_COMPILE_FAULT:
        # Newer upstream refuses the config instead of skipping the entry (spec 03 §24.1).
        raise ConfigValidationError(
            "; ".join(f"{fault.location}: {fault.reason}" for _, fault in faults)
        )
    witness = config.witness

    def surface(ids: list[int], own: int) -> P.Surface:
        route = P.route_index(entries, ids, tables.strings, tables.patterns)
        return P.Surface(ids, len(shared), own, route)

    plan = P.Plan(
        config_name=config.config_name,
        protected=with_guard_state(normalize_protected_paths(config.protected_paths),
                                   config.telemetry_log_path),
        telemetry_log_path=config.telemetry_log_path,
        witness_token=witness.token if witness else None,
        witness_ttl_minutes=witness.ttl_minutes if witness else None,
        deadline_seconds=config.deadline_seconds,
        entries=entries,
        session=surface(shared + session_own, len(session_own)),
        change_set=surface(shared + change_set_own, len(change_set_own)),
        drafts=[P.Draft(d.id, d.why, tables.span(d.span)) for d in config.drafts or ()],
        strings=tables.strings,
        patterns=tables.patterns,
        sre_key=sre.KEY,
        compiled=[sre.compiled_form(p.source, p.flags) for p in tables.patterns],
        carried=carried_patterns(),
        constants=tables.constants,
        spans=tables.spans,
    )
    return LoweredConfig(plan, faults)


# The standard library modules whose patterns (`LazyPattern`s) every shell check compiles: the
# plan carries their SRE forms (vm/sre.py `carry`). The tokenizer's step costs a check about
# 5 M instructions through re.compile, and about 0.1 M rebuilt from its form. Patterns of other
# modules, each run by a few command shapes and small, compile on first use as before; listing
# a module here costs every `pdks compile` its import.
CARRIED_FROM = ("polydeukes.stdlib.shell.tokenizer", "polydeukes.stdlib.shell.paths")


def carried_patterns() -> list[sre.CarriedPattern]:
    """Each module-level `LazyPattern` of `CARRIED_FROM` with its SRE form, in a fixed order
    (plan bytes are compared); none under an interpreter with no form to give."""
    import importlib

    carried = []
    for module_name in CARRIED_FROM:
        names = vars(importlib.import_module(module_name))
        for name in sorted(names):
            value = names[name]
            if isinstance(value, sre.LazyPattern):
                form = sre.compiled_form(value.source, value.flags)
                if form is not None:
                    carried.append(sre.CarriedPattern(value.source, value.flags, form))
    return carried


def _lower_entry(entry: Entry, tables: Tables) -> P.Entry:
    resolved = resolve_declaration(entry.declaration, entry_id=entry.id)
    if isinstance(resolved, CompileFault):
        return P.Fault(
            label=entry.id, list_name=entry.list_name, location=resolved.location,
            reason=resolved.reason, span=tables.span(resolved.span or entry.span),
        )
    return _Lowering(entry, resolved, tables).declare()


class _Lowering:
    def __init__(self, entry: Entry, resolved: nodes.ResolvedDeclaration, tables: Tables) -> None:
        self.entry = entry
        self.resolved = resolved
        self.decl = resolved.declaration
        self.tables = tables
        self.supply = {s.source: POLICIES[s.policy] for s in self.decl.supply}
        self.pipelines = {p.name: p for p in resolved.extract}
        if resolved.witness is not None:
            self.pipelines.update({p.name: p for p in resolved.witness.extract})
        self.slots: dict[str, tuple[int, ...]] = {}  # pipeline -> its slot (two when paired)
        self.slot_count = 0
        self.code: list[P.Instruction] = []

    # -- the registration --------------------------------------------------------------------
    def declare(self) -> P.Declare:
        body = self.program(self.resolved.relate)
        witness = None
        if self.resolved.witness is not None:
            # The witness runs after the body on the same world, so pipelines the body already
            # computed stay in their slots and are not emitted again.
            witness = self.program(self.resolved.witness.relate)
        entry = self.entry
        return P.Declare(
            label=entry.id,
            list_name=entry.list_name,
            enforce=entry.enforce,
            why=entry.why,
            scope=self.scope(),
            bindings=[self.binding(b) for b in self.decl.sources],
            slots=self.slot_count,
            body=body,
            witness=witness,
            coordinate=self.coordinate(),
            source_text=render_declaration_text(self.decl),
            span=self.tables.span(entry.span),
        )

    def program(self, relate: tuple[nodes.RelateEntry, ...]) -> P.Program:
        self.code = []
        entries = []
        for index, relate_entry in enumerate(relate):
            self.relation(index, relate_entry)
            by_side = relate_entry.message_by_side
            entries.append(P.RelateEntry(
                id=relate_entry.id,
                message=relate_entry.message,
                left=by_side.left if by_side else None,
                right=by_side.right if by_side else None,
            ))
        return P.Program(code=self.code, relate=entries)

    def scope(self) -> P.Scope | None:
        resolved = self.resolved.scope
        if resolved is None:
            return None
        scope = resolved.scope
        include = [
            self.tables.pattern(js, False, t) for js, t in zip(scope.include, resolved.include)
        ]
        exclude = [
            self.tables.pattern(js, scope.exclude_ignore_case, t)
            for js, t in zip(scope.exclude, resolved.exclude)
        ]
        return P.Scope(source=self.tables.string(scope.source), include=include, exclude=exclude)

    def binding(self, binding: nodes.Binding) -> P.Binding:
        # POSIX-normalized once, so `./locales/en.json` names the same file as `locales/en.json`
        # (spec 03 §3.4); the validator has already refused absolute paths and `..` segments.
        file = P.NONE if binding.file is None else self.tables.string(posixpath.normpath(binding.file))
        return P.Binding(name=self.tables.string(binding.name), kind=binding.kind, file=file)

    def coordinate(self) -> P.Coordinate:
        decl = self.decl
        used = {relation_name(e.relation) for e in decl.relate}
        scope = decl.scope
        return P.Coordinate(
            mechanism=decl.mechanism,
            axes=[axis for axis in AXES if axis in declaration_axes(decl)],
            relations=[name for name in RELATION_ORDER if name in used],
            relate_ids=[e.id for e in decl.relate],
            scope=scope.source if scope else None,
            include=len(scope.include) if scope else 0,
            exclude=len(scope.exclude) if scope else 0,
            sources=len(decl.sources),
            sidecar_sources=sum(1 for b in decl.sources if b.kind == "sidecar"),
            transcript_sources=sum(1 for b in decl.sources if b.kind == "transcript"),
            valve=decl.witness is not None,
        )

    # -- pipelines ---------------------------------------------------------------------------
    def new_slot(self) -> int:
        self.slot_count += 1
        return self.slot_count - 1

    def pipeline(self, name: str) -> tuple[int, ...]:
        """Emit `name` (and what it references) unless already computed; its slot(s)."""
        found = self.slots.get(name)
        if found is not None:
            return found
        pipeline = self.pipelines[name]
        head = pipeline.head
        span = self.tables.span(head.span)
        label = name  # a combinator-headed pipeline reports failures under its own name
        if isinstance(head, nodes.Source):
            label = head.of
            policy = self.supply.get(head.of, P.POLICY_ERROR)
            if pipeline.paired:
                slots = (self.new_slot(), self.new_slot())
                self.code.append(P.SourcePair(slots[0], slots[1], policy, span))
            else:
                slots = (self.new_slot(),)
                self.code.append(P.Source(slots[0], self.tables.string(head.of), policy, span))
        else:
            left, right = (self.pipeline(ref)[0] for ref in _head_references(head))
            slots = (self.new_slot(),)
            self.code.append(_COMBINATORS[type(head)](slots[0], left, right, span))
        for slot in slots:  # a paired pipeline runs its steps over each side
            for step in pipeline.steps:
                self.code.append(self.step(step, slot, label))
        self.slots[name] = slots
        return slots

    def step(self, step: Any, slot: int, label: str) -> P.Instruction:
        t = self.tables
        span = t.span(step.span)
        match step:
            case nodes.Source(of=of):
                return P.SourceAt(slot, slot, t.string(of), span)
            case nodes.Json():
                return P.Json(slot, slot, t.string(label), span)
            case nodes.Select(path=path):
                return P.Select(slot, slot, t.string(path), span)
            case nodes.Items():
                return P.Items(slot, slot, span)
            case nodes.KeyBy(field=field):
                return P.KeyBy(slot, slot, t.string(field), span)
            case nodes.KeyByPattern(re=re, i=i, translated=translated):
                return P.KeyByPattern(slot, slot, t.pattern(re, i, translated), span)
            case nodes.Field(name=name):
                return P.Field(slot, slot, t.string(name), span)
            case nodes.Filter(when=when):
                return P.Filter(slot, slot, t.constant([_predicate(p) for p in when]), span)
            case nodes.FlattenKeys():
                return P.FlattenKeys(slot, slot, span)
            case nodes.Sort():
                return P.Sort(slot, slot, span)
            case nodes.Lines():
                return P.Lines(slot, slot, span)
            case nodes.Matches(re=re, i=i, translated=translated):
                return P.Matches(slot, slot, t.pattern(re, i, translated), span)
            case nodes.ToolUses(names=names, subagent_type=subagent_type):
                names_index = P.NONE if names is None else t.constant(list(names))
                subagent = P.NONE if subagent_type is None else t.string(subagent_type)
                return P.ToolUses(slot, slot, names_index, subagent, span)
            case nodes.UserTexts(re=re, i=i, translated=translated):
                return P.UserTexts(slot, slot, t.pattern(re, i, translated), span)
            case nodes.AgentType(is_=is_):
                return P.AgentType(slot, slot, t.string(is_), span)
            case nodes.First():
                return P.First(slot, slot, span)
            case nodes.AgeMs():
                return P.AgeMs(slot, slot, span)
        raise AssertionError(f"no lowering for step {type(step).__name__}")

    # -- relations ---------------------------------------------------------------------------
    def relation(self, index: int, relate_entry: nodes.RelateEntry) -> None:
        relation = relate_entry.relation
        span = self.tables.span(relate_entry.span)
        refs = [self.pipeline(name) for name in nodes.relation_references(relation)]
        match relation:
            case nodes.Empty():
                self.code.append(P.Empty(index, refs[0][0], span))
            case nodes.NonEmpty(of=of):
                self.code.append(P.NonEmpty(index, refs[0][0], self.tables.string(of), span))
            case nodes.Equal():
                self.code.append(P.Equal(index, refs[0][0], refs[1][0], span))
            case nodes.Subset():
                self.code.append(P.Subset(index, refs[0][0], refs[1][0], span))
            case nodes.Implies():
                self.code.append(P.Implies(index, refs[0][0], refs[1][0], span))
            case nodes.Ordered(strict=strict):
                self.code.append(P.Ordered(index, refs[0][0], strict, span))
            case nodes.Unchanged():
                pre, post = refs[0]
                self.code.append(P.Unchanged(index, pre, post, span))
            case _:
                raise AssertionError(f"no lowering for relation {type(relation).__name__}")


def _head_references(head: Any) -> tuple[str, str]:
    """A combinator's operands, left first (spec 03 §7.3: left resolves before right)."""
    if isinstance(head, nodes.OnlyIn):
        return (head.of, head.not_in)
    return tuple(head.of)


_COMBINATORS = {nodes.Union: P.UnionOf, nodes.OnlyIn: P.OnlyIn, nodes.Intersect: P.Intersect}

_PREDICATE_OPERATOR = {
    nodes.Eq: "eq", nodes.Ne: "ne", nodes.Size: "size", nodes.NotIn: "notIn",
    nodes.Lte: "lte", nodes.Gte: "gte",
}


def _predicate(predicate: Any) -> list[Any]:
    operator = _PREDICATE_OPERATOR[type(predicate)]
    attribute = "not_in" if operator == "notIn" else operator
    constant = getattr(predicate, attribute)
    if isinstance(constant, tuple):
        constant = list(constant)
    return [predicate.field, operator, constant]
