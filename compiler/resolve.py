"""Compile-fault resolution of a load-valid declaration against the step registry (spec 03 §17.2).

The step registry is the grammar's `step` signatures (compiler/parse.py `vocabulary()`): a step
name outside it, an argument outside a signature, an argument of the wrong kind, a regex that
does not compile, a paired/single mismatch — each is a CompileFault `{location, reason}` with
the spec's text, returned (never raised). Order, first fault wins: the body's pipelines in
extract order, each step in order; the paired-combinator check once the block's pipelines are
compiled; the relations; the scope patterns; then the witness block the same way.

What a fault *does* is one switch, `REFUSE_ON_COMPILE_FAULT` (spec 03 §24.1).
"""

from __future__ import annotations

from typing import Any

from polydeukes.compiler import declaration_messages as M
from polydeukes.compiler import nodes
from polydeukes.compiler.catalogue import relation_name
from polydeukes.compiler.diagnostics import CompileFault
from polydeukes.compiler.parse import Signature, node_class, vocabulary

# 0.8.0 (normative, spec 03 §17.2): a declaration that does not compile becomes a skip
# registration with reason `config-fault` and its siblings still compile. Newer upstream
# refuses the whole config instead; flipping this is the whole change on our side (the
# lowering pass reads it when it meets a CompileFault).
REFUSE_ON_COMPILE_FAULT = False

# The steps whose key is capture group 1 of their pattern (§8.6): a pattern without a group
# cannot key anything, and the regex translator must keep group 1 faithful.
_READS_GROUP_ONE = frozenset({"keyByPattern"})


def translate_pattern(pattern: str, ignore_case: bool = False, *, reads_group1: bool = False):
    """The one door to the regex helper (spec 03 §19): TranslatedPattern, or RegexRefused."""
    from polydeukes.compiler.regex import translate

    return translate(pattern, ignore_case, reads_group1=reads_group1)


class _Fault(Exception):
    def __init__(self, location: str, reason: str, span) -> None:
        super().__init__(reason)
        self.fault = CompileFault(location=location, reason=reason, span=span)


def resolve_declaration(
    decl: nodes.Declaration, *, entry_id: str
) -> nodes.ResolvedDeclaration | CompileFault:
    """The declaration with every step typed and every regex translated, or its first fault."""
    try:
        return _Resolver(entry_id).declaration(decl)
    except _Fault as fault:
        return fault.fault


class _Resolver:
    def __init__(self, entry_id: str) -> None:
        self.entry_id = entry_id
        self.vocab = vocabulary()

    def declaration(self, decl: nodes.Declaration) -> nodes.ResolvedDeclaration:
        extract = self.block(decl.extract, "extract", known=())
        paired = {p.name: p.paired for p in extract}
        relate = self.relations(decl.relate, "relate", paired)
        scope = self.scope(decl.scope) if decl.scope is not None else None
        witness = None
        if decl.witness is not None:
            witness_extract = self.block(decl.witness.extract, "witness.extract", known=extract)
            paired.update({p.name: p.paired for p in witness_extract})
            witness_relate = self.relations(decl.witness.relate, "witness relate", paired)
            witness = nodes.ResolvedWitness(
                extract=witness_extract, relate=witness_relate, span=decl.witness.span
            )
        return nodes.ResolvedDeclaration(
            id=self.entry_id, declaration=decl, scope=scope, extract=extract, relate=relate,
            witness=witness, span=decl.span,
        )

    # -- pipelines -----------------------------------------------------------------------------
    def block(
        self, pipelines: tuple[nodes.Pipeline, ...], block: str, *, known
    ) -> tuple[nodes.ResolvedPipeline, ...]:
        resolved = tuple(self.pipeline(pipeline, block) for pipeline in pipelines)
        paired = {p.name: p.paired for p in known} | {p.name: p.paired for p in resolved}
        for pipeline in pipelines:
            for ref in pipeline.references():
                if paired.get(ref, False):
                    raise _Fault(
                        self.extract_location(block, pipeline.name),
                        M.FAULT_COMBINES_PAIRED.format(name=pipeline.name, ref=ref),
                        pipeline.span,
                    )
        return resolved

    def extract_location(self, block: str, name: str) -> str:
        return M.LOCATION_EXTRACT.format(id=self.entry_id, block=block, name=name)

    def pipeline(self, pipeline: nodes.Pipeline, block: str) -> nodes.ResolvedPipeline:
        location = self.extract_location(block, pipeline.name)
        steps = pipeline.steps
        head: Any = pipeline.combinator
        if head is None:
            combinators = ", ".join(self.vocab.combinators)
            if not steps:
                raise _Fault(
                    location, M.FAULT_FIRST_STEP_EMPTY.format(combinators=combinators),
                    pipeline.span,
                )
            if steps[0].op != "source":
                raise _Fault(
                    location, M.FAULT_FIRST_STEP.format(combinators=combinators, op=steps[0].op),
                    steps[0].span,
                )
        resolved = tuple(self.step(step, location) for step in steps)
        if head is None:
            head, resolved = resolved[0], resolved[1:]
        paired = isinstance(head, nodes.Source) and head.of == "state"
        return nodes.ResolvedPipeline(
            name=pipeline.name, paired=paired, head=head, steps=resolved, span=pipeline.span
        )

    def step(self, step: nodes.Step, location: str) -> nodes.ResolvedStep:
        op = step.op
        signature = self.vocab.steps.get(op)
        if signature is None:
            raise _Fault(
                location,
                M.FAULT_UNKNOWN_STEP.format(op=op, steps=", ".join(self.vocab.steps)),
                step.span,
            )
        given = {argument.name: argument for argument in step.arguments}
        for argument in step.arguments:
            if signature.argument(argument.name) is None:
                raise _Fault(
                    location,
                    M.FAULT_UNKNOWN_ARGUMENT.format(op=op, argument=argument.name),
                    argument.span,
                )
        values: dict[str, Any] = {}
        for spec in signature.arguments:
            argument = given.get(spec.name)
            if argument is None and not spec.required:
                continue
            value = argument.value if argument is not None else None
            span = argument.span if argument is not None else step.span
            values[spec.name] = self.argument(op, spec.name, spec.kind, value, location, span)
        node_type = node_class(signature.rule)
        pattern_arguments = [a for a in signature.arguments if a.kind == "pattern"]
        if pattern_arguments:
            values["translated"] = self.pattern(
                op, signature, values, pattern_arguments[0].name, location, step.span
            )
        return nodes.build(node_type, values, step.span)

    def argument(self, op: str, name: str, kind: str, value: Any, location: str, span) -> Any:
        def fail(reason: str) -> _Fault:
            return _Fault(location, reason, span)

        if kind in ("text", "pattern"):
            if not (isinstance(value, str) and value):
                raise fail(M.FAULT_NEEDS_TEXT.format(op=op, argument=name))
            return value
        if kind == "flag":
            if not isinstance(value, bool):
                raise fail(M.FAULT_FLAG.format(op=op, argument=name))
            return value
        if kind == "tool_names":
            if not isinstance(value, list):
                raise fail(M.FAULT_TOOL_NAMES.format(op=op, argument=name))
            return tuple(value)
        if kind == "string":
            if not isinstance(value, str):
                raise fail(M.FAULT_STRING.format(op=op, argument=name))
            return value
        if kind == "predicates":
            return self.predicates(value, fail)
        raise AssertionError(kind)  # pragma: no cover - the grammar gives steps no other kind

    def pattern(
        self, op: str, signature: Signature, values: dict, name: str, location: str, span
    ):
        from polydeukes.compiler.regex import RegexRefused

        pattern = values[name]
        ignore_case = any(
            values.get(a.name, False) for a in signature.arguments if a.kind == "flag"
        )
        try:
            translated = translate_pattern(
                pattern, ignore_case, reads_group1=op in _READS_GROUP_ONE
            )
        except RegexRefused as exc:
            if exc.syntax_error:
                reason = M.FAULT_NOT_COMPILABLE.format(op=op, pattern=pattern)
            else:
                reason = M.FAULT_REFUSED.format(op=op, pattern=pattern, reason=exc.reason)
            raise _Fault(location, reason, span) from None
        if op in _READS_GROUP_ONE and translated.group_count < 1:
            raise _Fault(location, M.FAULT_NO_CAPTURE_GROUP.format(op=op, pattern=pattern), span)
        return translated

    def predicates(self, value: Any, fail) -> tuple[nodes.Predicate, ...]:
        """Filter predicates (§9): a string `field` and exactly one known operator."""
        operators = self.vocab.predicate_operators
        if not isinstance(value, list):
            raise fail(M.FILTER_WHEN)
        result = []
        for predicate in value:
            if not isinstance(predicate, dict) or not isinstance(predicate.get("field"), str):
                raise fail(M.FILTER_FIELD)
            others = [key for key in predicate if key != "field"]
            if len(others) != 1 or others[0] not in operators:
                raise fail(M.FILTER_ONE_OPERATOR.format(operators=", ".join(operators)))
            (operator,) = others
            operand = predicate[operator]
            kind = operators[operator].arguments[0].kind
            if kind == "number" and (
                isinstance(operand, bool) or not isinstance(operand, (int, float))
            ):
                raise fail(M.FILTER_NUMBER.format(operator=operator))
            if kind == "constants":
                if not isinstance(operand, list):
                    raise fail(M.FILTER_VALUES.format(operator=operator))
                operand = tuple(operand)
            node_type = node_class(operators[operator].rule)
            result.append(nodes.build(node_type, {"field": predicate["field"], operator: operand}, None))
        return tuple(result)

    # -- relations and scope -------------------------------------------------------------------
    def relations(
        self, entries: tuple[nodes.RelateEntry, ...], block: str, paired: dict[str, bool]
    ) -> tuple[nodes.RelateEntry, ...]:
        for entry in entries:
            location = M.LOCATION_RELATE.format(id=self.entry_id, block=block, entry=entry.id)
            relation = entry.relation
            for ref in nodes.relation_references(relation):
                if isinstance(relation, nodes.Unchanged) and not paired.get(ref, False):
                    raise _Fault(location, M.FAULT_UNCHANGED_SINGLE.format(ref=ref), entry.span)
                if not isinstance(relation, nodes.Unchanged) and paired.get(ref, False):
                    raise _Fault(
                        location,
                        M.FAULT_RELATION_PAIRED.format(op=relation_name(relation), ref=ref),
                        entry.span,
                    )
        return entries

    def scope(self, scope: nodes.Scope) -> nodes.ResolvedScope:
        from polydeukes.compiler.regex import RegexRefused

        translated = {}
        for key, patterns, ignore_case in (
            ("include", scope.include, False),
            ("exclude", scope.exclude, scope.exclude_ignore_case),
        ):
            result = []
            for pattern in patterns:
                try:
                    result.append(translate_pattern(pattern, ignore_case))
                except RegexRefused:
                    raise _Fault(
                        M.LOCATION_SCOPE.format(id=self.entry_id),
                        M.FAULT_SCOPE_PATTERN.format(pattern=pattern),
                        scope.span,
                    ) from None
            translated[key] = tuple(result)
        return nodes.ResolvedScope(
            scope=scope, include=translated["include"], exclude=translated["exclude"],
            span=scope.span,
        )


