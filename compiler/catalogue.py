"""The mechanism catalogue (spec 03 §15): what each of the eighteen mechanisms admits.

The names and their order come from grammar/declarations.lark (`mechanism_name`); this module
adds what the grammar cannot say — each mechanism's allowed axes and body relations and its
structural requirement — keyed by those names, and refuses to build when the two disagree.
`MECHANISMS` is built on first use (module `__getattr__`), so importing this module costs no
grammar load.
"""

from __future__ import annotations

import functools
from typing import Any, NamedTuple

from polydeukes.compiler import declaration_messages as M
from polydeukes.compiler import nodes
from polydeukes.compiler.diagnostics import ConfigValidationError
from polydeukes.compiler.parse import vocabulary

# Axis names in catalogue order (§15.1 columns; `declaration_axes` reports in this order).
AXES = ("change", "actor", "world", "history")

_ALL_RELATIONS = None  # `scoped-valve`: every relation of the vocabulary

# name: (allowed axes, allowed body relations, pinned scope source, witness required, reserved)
# `pairing` admits `subset` beside `equal`: the 0.8.0-era documentation lists both, the older
# catalogue source only `equal` (spec 03 §15.1 note, §24.2 recommends accepting both).
_CONSTRAINTS: dict[str, tuple[tuple[str, ...], tuple[str, ...] | None, str | None, bool, bool]] = {
    "pairing": (("world",), ("equal", "subset"), None, False, False),
    "companion": (("change", "world"), ("implies",), None, False, False),
    "monotonic-order": (("change", "world"), ("ordered",), None, False, False),
    "fingerprint-sync": (("world",), ("equal",), None, False, False),
    "producer-owned": (("actor",), ("empty", "nonEmpty"), None, False, False),
    "self-absolution-ban": (("change",), ("unchanged", "empty"), None, False, False),
    "actor-scope": (("actor",), ("empty", "nonEmpty"), None, False, False),
    "precedent": (("history", "world"), ("nonEmpty",), None, False, False),
    "phase-order": (("history",), ("ordered",), None, False, False),
    "turn-locality": (("history",), ("nonEmpty",), None, False, False),
    "stated-ground": (("history",), ("nonEmpty",), None, False, False),
    "controlled-vocabulary": (("change", "world"), ("subset",), None, False, False),
    "naming": (("change",), ("empty", "nonEmpty"), "target.path", False, False),
    "added-only": (("change",), ("empty",), None, False, False),
    "one-way-marker": (("change",), ("subset",), None, False, False),
    "delegated-scope": ((), (), None, False, True),
    "scoped-valve": (("change", "actor", "world", "history"), _ALL_RELATIONS, None, True, False),
    "forbidden-command": (("change",), ("empty",), "command", False, False),
}


class Mechanism(NamedTuple):
    name: str
    axes: tuple[str, ...]  # allowed axes, in the spec table's order
    relations: tuple[str, ...]  # allowed body relations, in the spec table's order
    scope_source: str | None  # the scope source the mechanism pins, if any
    needs_witness: bool
    reserved: bool


@functools.cache
def mechanisms() -> tuple[Mechanism, ...]:
    """The eighteen mechanisms in catalogue table order."""
    vocab = vocabulary()
    if set(_CONSTRAINTS) != set(vocab.mechanisms):
        raise RuntimeError("compiler/catalogue.py and the grammar's mechanism_name disagree")
    result = []
    for name in vocab.mechanisms:
        axes, relations, scope_source, needs_witness, reserved = _CONSTRAINTS[name]
        relations = tuple(vocab.relations) if relations is _ALL_RELATIONS else relations
        unknown = set(relations) - set(vocab.relations)
        if unknown:
            raise RuntimeError(f"catalogue entry '{name}' names unknown relations {unknown}")
        result.append(Mechanism(name, axes, relations, scope_source, needs_witness, reserved))
    return tuple(result)


def mechanism(name: str) -> Mechanism | None:
    for entry in mechanisms():
        if entry.name == name:
            return entry
    return None


def __getattr__(name: str) -> Any:
    if name == "MECHANISMS":
        return mechanisms()
    raise AttributeError(name)


# -- axes (§15.2) ------------------------------------------------------------------------------


def _source_steps(decl: nodes.Declaration):
    """Every `source` step (any position) of the body extract, then of the witness extract."""
    pipelines = decl.extract + (decl.witness.extract if decl.witness else ())
    for pipeline in pipelines:
        for step in pipeline.steps:
            if step.op == "source":
                of = next((a.value for a in step.arguments if a.name == "of"), None)
                if isinstance(of, str):
                    yield step, of


def _axis(decl: nodes.Declaration, source: str) -> str | None:
    if source == "actor":
        return "actor"
    if source in vocabulary().fixed_sources:
        return "change"
    for binding in decl.sources:
        if binding.name == source:
            return "history" if binding.kind == "transcript" else "world"
    return None


def _axes_in_reading_order(decl: nodes.Declaration) -> list[str]:
    found: list[str] = []
    for _, source in _source_steps(decl):
        axis = _axis(decl, source)
        if axis is not None and axis not in found:
            found.append(axis)
    return found


def declaration_axes(decl: nodes.Declaration | nodes.ResolvedDeclaration) -> list[str]:
    """The axes a declaration reads (§15.2), in catalogue order change, actor, world, history."""
    if isinstance(decl, nodes.ResolvedDeclaration):
        decl = decl.declaration
    found = set(_axes_in_reading_order(decl))
    return [axis for axis in AXES if axis in found]


# -- the catalogue check (§15.3) ---------------------------------------------------------------


def _quoted(names) -> str:
    return ", ".join(f"'{name}'" for name in names)


def check_catalogue(decl: nodes.Declaration, where: str) -> None:
    """Raise ConfigValidationError at the first §15.3 failure, in the spec's order."""
    vocab = vocabulary()
    entry = mechanism(decl.mechanism)
    if entry is None:
        raise ConfigValidationError(
            M.MECHANISM_UNKNOWN.format(
                where=where, mechanism=decl.mechanism, names=_quoted(vocab.mechanisms)
            ),
            decl.span,
        )
    if entry.reserved:
        raise ConfigValidationError(
            M.MECHANISM_RESERVED.format(where=where, mechanism=entry.name), decl.span
        )
    bound = [binding.name for binding in decl.sources]
    for step, source in _source_steps(decl):
        if source and source not in vocab.fixed_sources and source not in bound:
            template = M.SOURCE_UNKNOWN_BOUND if bound else M.SOURCE_UNKNOWN
            raise ConfigValidationError(
                template.format(
                    where=where, source=source, names=_quoted(vocab.fixed_sources),
                    bound=_quoted(bound),
                ),
                step.span,
            )
    if entry.needs_witness and decl.witness is None:
        raise ConfigValidationError(
            M.WITNESS_REQUIRED.format(where=where, mechanism=entry.name), decl.span
        )
    if entry.scope_source is not None:
        if decl.scope is None:
            raise ConfigValidationError(
                M.SCOPE_PINNED_NO_SCOPE.format(
                    where=where, mechanism=entry.name, source=entry.scope_source
                ),
                decl.span,
            )
        if decl.scope.source != entry.scope_source:
            raise ConfigValidationError(
                M.SCOPE_PINNED_OTHER.format(
                    where=where, mechanism=entry.name, source=entry.scope_source,
                    actual=decl.scope.source,
                ),
                decl.scope.span,
            )
    relations: list[str] = []
    for relate_entry in decl.relate:
        op = relation_name(relate_entry.relation)
        if op not in relations:
            relations.append(op)
    axes = _axes_in_reading_order(decl)
    if not set(relations) <= set(entry.relations) or not set(axes) <= set(entry.axes):
        raise ConfigValidationError(
            M.MECHANISM_SHAPE.format(
                where=where, mechanism=entry.name, relations=_quoted(entry.relations),
                axes=_quoted(entry.axes), declared_relations=_quoted(relations),
                declared_axes=_quoted(axes),
            ),
            decl.span,
        )


@functools.cache
def _relation_names() -> dict[type, str]:
    from polydeukes.compiler.parse import node_class

    return {node_class(s.rule): s.name for s in vocabulary().relations.values()}


def relation_name(relation: nodes.Relation) -> str:
    """The vocabulary spelling of a relation node (`NonEmpty` -> `nonEmpty`)."""
    return _relation_names()[type(relation)]
