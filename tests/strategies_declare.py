"""Hypothesis strategies over the declaration AST (compiler/nodes.py): well-formed declarations.

`declarations()` draws a Declaration that passes every load-time check (spec 03 §17.1, §15.3):
references exist and run backwards (no cycle), ids are unique, sources are fixed or bound, and
the mechanism is drawn from those whose axes, relations and structure fit. Step names and
arguments are drawn from the vocabulary *and* outside it, since the load-time grammar leaves
the step vocabulary open.
"""

from __future__ import annotations

from hypothesis import assume
from hypothesis import strategies as st

from polydeukes.compiler import nodes
from polydeukes.compiler.catalogue import _axes_in_reading_order, mechanisms, relation_name
from polydeukes.compiler.parse import vocabulary

VOCAB = vocabulary()
FIXED = VOCAB.fixed_sources
_TEXT = st.text(st.characters(blacklist_categories=("Cs",)), max_size=8)

# Names: plain words, words the textual form reserves, and text that needs quoting.
names = st.one_of(
    st.sampled_from(["a", "b", "before", "after", "x-y.z", "_n1"]),
    st.sampled_from(sorted(VOCAB.keywords)),
    _TEXT.filter(bool),
)

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | _TEXT,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(_TEXT, inner, max_size=3),
    max_leaves=6,
)

patterns = st.sampled_from(["^src/", r"\.ts$", "a'b", 'x"y', "(a|b)", "한", r"\bTODO\b", ""])

_SEQUENTIAL_OPS = [op for op in VOCAB.steps if op != "source"] + ["split", "key by"]


@st.composite
def unary_steps(draw) -> nodes.Step:
    op = draw(st.sampled_from(_SEQUENTIAL_OPS))
    keys = draw(
        st.lists(names.filter(lambda n: n not in ("op", "notIn", "of")), max_size=3, unique=True)
    )
    arguments = tuple(nodes.Argument(name=key, value=draw(json_values)) for key in keys)
    return nodes.Step(op=op, arguments=arguments)


@st.composite
def pipelines(draw, name: str, readable: list[str], sources: list[str]) -> nodes.Pipeline:
    steps = tuple(draw(st.lists(unary_steps(), max_size=3)))
    if len(readable) >= 2 and draw(st.booleans()):
        left, right = draw(st.lists(st.sampled_from(readable), min_size=2, max_size=2, unique=True))
        kind = draw(st.sampled_from(list(VOCAB.combinators)))
        if kind == "onlyIn":
            combinator = nodes.OnlyIn(of=left, not_in=right)
        elif kind == "union":
            combinator = nodes.Union(of=(left, right))
        else:
            combinator = nodes.Intersect(of=(left, right))
        return nodes.Pipeline(name=name, combinator=combinator, steps=steps)
    of = draw(st.sampled_from(sources))
    head = nodes.Step(op="source", arguments=(nodes.Argument(name="of", value=of),))
    return nodes.Pipeline(name=name, steps=(head, *steps))


@st.composite
def relate_entries(draw, entry_id: str, readable: list[str]) -> nodes.RelateEntry:
    choices = ["empty", "nonEmpty", "ordered", "unchanged", "subset", "implies"]
    if len(readable) >= 2:
        choices.append("equal")
    op = draw(st.sampled_from(choices))
    pick = st.sampled_from(readable)
    by_side = None
    if op == "equal":
        left, right = draw(st.lists(pick, min_size=2, max_size=2, unique=True))
        relation = nodes.Equal(of=(left, right))
        if draw(st.booleans()):
            by_side = nodes.MessageBySide(left=draw(_TEXT.filter(bool)), right=draw(_TEXT.filter(bool)))
    elif op == "subset":
        relation = nodes.Subset(of=draw(pick), in_=draw(pick))
    elif op == "implies":
        relation = nodes.Implies(of=draw(pick), requires=draw(pick))
    elif op == "ordered":
        relation = nodes.Ordered(of=draw(pick), strict=draw(st.booleans()))
    else:
        relation = nodes.build(
            {"empty": nodes.Empty, "nonEmpty": nodes.NonEmpty, "unchanged": nodes.Unchanged}[op],
            {"of": draw(pick)},
        )
    message = None if by_side is not None else draw(_TEXT.filter(bool))
    return nodes.RelateEntry(id=entry_id, relation=relation, message=message, message_by_side=by_side)


@st.composite
def declarations(draw) -> nodes.Declaration:
    binding_names = draw(
        st.lists(names.filter(lambda n: n not in FIXED), max_size=3, unique=True)
    )
    sources = []
    for name in binding_names:
        kind = draw(st.sampled_from(VOCAB.binding_kinds))
        path = draw(st.sampled_from(["locales/en.json", "a..b/c", "x y.txt"])) if kind == "file" else None
        sources.append(nodes.Binding(name=name, kind=kind, file=path))
    readable_sources = list(FIXED) + binding_names
    supply_keys = draw(st.lists(st.sampled_from(readable_sources), max_size=3, unique=True))
    supply = []
    for key in supply_keys:
        policies = [p for p in VOCAB.supply_policies if not (key == "state" and p == "empty")]
        supply.append(nodes.Supply(source=key, policy=draw(st.sampled_from(policies))))
    scope = None
    if draw(st.booleans()):
        files = [b.name for b in sources if b.kind == "file"]
        scope = nodes.Scope(
            source=draw(st.sampled_from(["target.path", "pre", "post", "command", *files])),
            include=tuple(draw(st.lists(patterns, max_size=2))),
            exclude=tuple(draw(st.lists(patterns, max_size=2))),
            exclude_ignore_case=draw(st.booleans()),
        )
    all_names = draw(st.lists(names, min_size=1, max_size=6, unique=True))
    split = draw(st.integers(1, len(all_names)))
    body_names, witness_names = all_names[:split], all_names[split:]
    extract = []
    for index, name in enumerate(body_names):
        extract.append(draw(pipelines(name, body_names[:index], readable_sources)))
    entry_ids = draw(st.lists(names, min_size=2, max_size=5, unique=True))
    relate_count = draw(st.integers(1, len(entry_ids) - 1))
    relate = tuple(draw(relate_entries(i, body_names)) for i in entry_ids[:relate_count])
    witness = None
    if draw(st.booleans()):
        witness_extract = []
        for index, name in enumerate(witness_names):
            readable = body_names + witness_names[:index]
            witness_extract.append(draw(pipelines(name, readable, readable_sources)))
        witness_relate = tuple(
            draw(relate_entries(i, body_names + witness_names)) for i in entry_ids[relate_count:]
        )
        witness = nodes.Witness(extract=tuple(witness_extract), relate=witness_relate)
    shape = nodes.Declaration(
        mechanism="", scope=scope, sources=tuple(sources), supply=tuple(supply),
        extract=tuple(extract), relate=relate, witness=witness,
    )
    axes = set(_axes_in_reading_order(shape))
    relations = {relation_name(entry.relation) for entry in relate}
    fitting = [
        m.name
        for m in mechanisms()
        if not m.reserved
        and axes <= set(m.axes)
        and relations <= set(m.relations)
        and (witness is not None or not m.needs_witness)
        and (m.scope_source is None or (scope is not None and scope.source == m.scope_source))
    ]
    assume(fitting)
    return nodes.Declaration(
        mechanism=draw(st.sampled_from(fitting)), scope=scope, sources=tuple(sources),
        supply=tuple(supply), extract=tuple(extract), relate=relate, witness=witness,
    )


# -- arbitrary data for the tolerance of declaration_channels -----------------------------------

_KEYS = st.sampled_from(
    ["sources", "scope", "extract", "witness", "source", "op", "of", "transcript", "sidecar",
     "command", "actor", "changes", "file", "relate"]
)
nested_data = st.recursive(
    json_values,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_KEYS | _TEXT, inner, max_size=4),
    max_leaves=20,
)
