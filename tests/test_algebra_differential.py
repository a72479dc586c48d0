"""vm/algebra.py and vm/values.py against tests/reference.py, one step or relation at a time.

tests/test_differential.py compares whole declarations; its worlds are shaped like a runner's
and its values are small. Here every step, predicate, combinator and relation — and the value
helpers under them — meets its independently written twin directly, over the wider value space
of tests/strategies_values.py (big integers, 1e21 and 1e-7, -0, undefined, astral characters,
index-like keys) and over session snapshots with odd members.

The reference itself is first held to the spec-derived case tables of tests/cases/algebra (the
same expectations the VM's functions pass in test_algebra.py and test_values.py), so a
disagreement below points at the side that departs from the spec.
"""

from __future__ import annotations

import json
from typing import Any, Callable

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

import reference as R
import strategies_values as sv
from algebra_support import case_steps, from_reference, items_of, load_cases, strict, to_reference
from polydeukes.compiler import nodes
from polydeukes.compiler.regex import translate
from polydeukes.vm import algebra as A
from polydeukes.vm import values as V
from polydeukes.vm.jsregex import JsRegex

PREDICATE_NODES = {"eq": nodes.Eq, "ne": nodes.Ne, "size": nodes.Size, "notIn": nodes.NotIn,
                   "lte": nodes.Lte, "gte": nodes.Gte}


def predicate_node(field: str, operator: str, constant: Any) -> Any:
    return nodes.build(PREDICATE_NODES[operator], {"field": field, operator: constant})


def combinator_node(kind: str) -> Any:
    if kind == "onlyIn":
        return nodes.OnlyIn(of="a", not_in="b")
    return {"union": nodes.Union, "intersect": nodes.Intersect}[kind](of=("a", "b"))


def reference_step(op: str, items: list, args: dict) -> list:
    """One reference step by its vocabulary name, with config-shaped arguments."""
    if op in ("keyByPattern", "matches", "userTexts"):
        pattern = translate(args["re"], args.get("i", False), reads_group1=op == "keyByPattern")
        fn = {"keyByPattern": R.step_key_by_pattern, "matches": R.step_matches,
              "userTexts": R.step_user_texts}[op]
        return fn(items, pattern)
    if op == "filter":
        when = tuple(predicate_node(p["field"], *[(k, v) for k, v in p.items() if k != "field"][0])
                     for p in args["when"])
        return R.step_filter(items, when)
    one_argument = {"source": (R.step_source, "of"), "select": (R.step_select, "path"),
                    "keyBy": (R.step_key_by, "field"), "field": (R.step_field, "name"),
                    "agentType": (R.step_agent_type, "is")}
    if op in one_argument:
        fn, name = one_argument[op]
        return fn(items, args[name])
    if op == "toolUses":
        names = args.get("names")
        return R.step_tool_uses(items, None if names is None else tuple(names),
                                args.get("subagentType"))
    fn = {"json": R.step_json, "items": R.step_items, "flattenKeys": R.step_flatten_keys,
          "sort": R.step_sort, "lines": R.step_lines, "first": R.step_first,
          "ageMs": R.step_age_ms}[op]
    return fn(items)


# -- the reference against the spec-derived case tables ----------------------------------------


@pytest.mark.parametrize("case", load_cases("steps"))
def test_reference_step_cases(case: dict) -> None:
    items = to_reference(items_of(case["in"]))
    try:
        for op, args in case_steps(case):
            items = reference_step(op, items, args)
    except R.Unreadable as failure:
        assert failure.reason == case.get("raises"), case
        return
    assert "raises" not in case
    assert strict(from_reference(items)) == strict(items_of(case["want"]))


@pytest.mark.parametrize("case", load_cases("predicates"))
def test_reference_predicate_cases(case: dict) -> None:
    field, operator, constant = case["predicate"]
    node = predicate_node(field, operator, to_reference(constant))
    assert R.holds(node, to_reference(case["value"])) is case["holds"]


@pytest.mark.parametrize("case", load_cases("combinators"))
def test_reference_combinator_cases(case: dict) -> None:
    got = R.combine(combinator_node(case["combinator"]), to_reference(items_of(case["a"])),
                    to_reference(items_of(case["b"])))
    assert strict(from_reference(got)) == strict(items_of(case["want"]))


def reference_relation(relation: str, case: dict) -> list:
    def side(name: str) -> list:
        return to_reference(items_of(case[name]))

    if relation == "unchanged":
        return R.relate_unchanged(side("pre"), side("post"))
    if relation == "empty":
        return R.relate_empty(side("a"))
    if relation == "nonEmpty":
        return R.relate_non_empty(side("a"), case["name"])
    if relation == "ordered":
        return R.relate_ordered(side("a"), case["strict"])
    fn = {"equal": R.relate_equal, "subset": R.relate_subset, "implies": R.relate_implies}
    return fn[relation](side("a"), side("b"))


@pytest.mark.parametrize("case", load_cases("relations"))
def test_reference_relation_cases(case: dict) -> None:
    got = reference_relation(case["relation"], case)
    assert strict(from_reference(got)) == strict([tuple(w) for w in case["want"]])


REFERENCE_VALUES: dict[str, Callable] = {
    "js_string": R.text, "js_number_string": R.number_text, "js_equal": R.same,
    "js_keys": R.own_keys, "js_trim": R.trim, "js_json_parse": R.parse_json,
    "js_compare_strings": lambda a, b: 0 if a == b else (-1 if R.precedes(a, b) else 1),
}


@pytest.mark.parametrize("case", [c for c in load_cases("values")
                                  if c.values[0]["fn"] in REFERENCE_VALUES])
def test_reference_value_cases(case: dict) -> None:
    fn = REFERENCE_VALUES[case["fn"]]
    args = to_reference(case["args"])
    if case.get("raises"):
        with pytest.raises(Exception):
            fn(*args)
        return
    got = fn(*args)
    assert strict(from_reference(got)) == strict(case["want"])
    if isinstance(got, dict):
        assert R.own_keys(got) == list(case["want"]), "order must match too"


# -- the VM's functions against the reference, over generated values ---------------------------

DIFFERENTIAL = settings(max_examples=150, deadline=None)


def _vm(run: Callable[[], Any]) -> Any:
    try:
        return strict(run())
    except A.SupplyFailure as failure:
        return ("unreadable", failure.reason)


def _ref(run: Callable[[], Any]) -> Any:
    try:
        return strict(from_reference(run()))
    except R.Unreadable as failure:
        return ("unreadable", failure.reason)


def agree(vm_run: Callable[[], Any], ref_run: Callable[[], Any]) -> Any:
    vm, ref = _vm(vm_run), _ref(ref_run)
    assert vm == ref
    return vm


def _reached(result: Any) -> None:
    event("reads something" if result and result[0] != "unreadable" else "empty or unreadable")


# Item values that the steps can read: objects with the fields steps look at, JSON texts,
# multi-line texts, arrays.
_FIELD_NAMES = st.sampled_from(["a", "b", "0", "10", "agentType", "timestampMs", "a.b"])
_objects = st.dictionaries(_FIELD_NAMES, sv.values, max_size=4)
# Objects nested two deep, so that dot paths (`a.b`) and `source`/`field` names find something.
_nested = st.dictionaries(_FIELD_NAMES, _objects | sv.values | st.lists(_objects, max_size=2),
                          min_size=1, max_size=4)
_object_items = st.lists(st.tuples(sv.keys, _nested | sv.values), min_size=1, max_size=4)
_subjects = st.lists(st.sampled_from(list("aab1 \n\t") + ["\U0001f600", "\ufeff", "merge"]),
                     max_size=6).map("".join)
_text_items = st.lists(st.tuples(sv.keys, _subjects | sv.values), min_size=1, max_size=4)
_json_texts = sv.json_safe.map(lambda v: json.dumps(v, ensure_ascii=False))
_step_values = st.one_of(sv.values, _objects, st.lists(_objects, max_size=3), _json_texts,
                         sv.line_texts, st.just("not json"))
_step_items = st.lists(st.tuples(sv.keys, _step_values), max_size=5)

_messages = st.fixed_dictionaries(
    {"index": st.integers(0, 3), "text": st.sampled_from(["merge it", "no", "MERGE", "a\nmerge"])},
    optional={"timestampMs": st.sampled_from([0, 5, 10, 11, -1, "5", None, V.UNDEFINED, 1.5])},
)
_calls = st.fixed_dictionaries(
    {"index": st.integers(0, 3), "name": st.sampled_from(["Bash", "Agent", 1, None])},
    optional={"args": st.sampled_from([{}, {"subagent_type": "x"}, {"subagent_type": 1}, "x",
                                       None]),
              "succeeded": st.sampled_from([True, False, V.UNDEFINED])},
)
_snapshots = st.fixed_dictionaries(
    {"userMessages": st.lists(_messages | sv.values, max_size=3),
     "toolCalls": st.lists(_calls | sv.values, max_size=3)},
    optional={"observedAtMs": st.sampled_from([10, 10.5, "10", V.UNDEFINED])},
)
_snapshot_items = st.lists(st.tuples(sv.keys, _snapshots | sv.values), max_size=3)
_records = st.fixed_dictionaries({"agentType": st.sampled_from(["x", "y", "x", "x ", 1])},
                                optional={"a": sv.values})
_sidecar_items = st.lists(st.tuples(sv.keys, st.one_of(
    st.lists(_records, min_size=1, max_size=4), st.lists(_records | sv.values, max_size=4),
    _records, sv.values)), min_size=1, max_size=3)

_GROUP_PATTERNS = ["(a)", "^(\\w+)", "(b)?a", "(\\d+)", "(\U0001f600|\ufeff)", "(?<n>\\s)",
                  "([^a])"]
_MATCH_PATTERNS = _GROUP_PATTERNS + ["merge", "^a$", "[^a]", "b$", "^$"]


@DIFFERENTIAL
@given(_step_items, st.sampled_from(["json", "items", "flattenKeys", "sort", "lines", "first"]))
def test_argumentless_steps_agree(items, op):
    fn = {"json": A.json, "items": A.items_, "flattenKeys": A.flatten_keys, "sort": A.sort,
          "lines": A.lines, "first": A.first}[op]
    _reached(agree(lambda: fn(items), lambda: reference_step(op, to_reference(items), {})))


@DIFFERENTIAL
@given(_object_items, st.sampled_from(["source", "select", "keyBy", "field"]),
       st.sampled_from(["a", "b", "0", "a.b", "b.a", "agentType", "10.a"]))
def test_steps_with_a_name_agree(items, op, name):
    fn = {"source": A.source_at, "select": A.select, "keyBy": A.key_by, "field": A.field}[op]
    argument = {"source": "of", "select": "path", "keyBy": "field", "field": "name"}[op]
    _reached(agree(lambda: fn(items, name),
                   lambda: reference_step(op, to_reference(items), {argument: name})))


@DIFFERENTIAL
@given(_text_items, st.sampled_from(["keyByPattern", "matches"]), st.data())
def test_regex_steps_agree(items, op, data):
    pattern = data.draw(st.sampled_from(_GROUP_PATTERNS if op == "keyByPattern" else _MATCH_PATTERNS))
    ignore_case = data.draw(st.booleans())
    rx = JsRegex.from_translated(translate(pattern, ignore_case))
    fn = A.key_by_pattern if op == "keyByPattern" else A.matches
    _reached(agree(lambda: fn(items, rx), lambda: reference_step(
        op, to_reference(items), {"re": pattern, "i": ignore_case})))


@DIFFERENTIAL
@given(_snapshot_items, st.sampled_from([None, (), ("Bash",), ("Agent", 1)]),
       st.sampled_from([None, "x", ""]), st.sampled_from(["merge", "^no$", "a"]))
def test_session_steps_agree(items, names, subagent_type, pattern):
    result = agree(lambda: A.tool_uses(items, None if names is None else list(names), subagent_type),
                   lambda: R.step_tool_uses(to_reference(items), names, subagent_type))
    texts = agree(lambda: A.user_texts(items, JsRegex.from_translated(translate(pattern, True))),
                  lambda: R.step_user_texts(to_reference(items), translate(pattern, True)))
    aged = agree(lambda: A.age_ms(A.user_texts(items, JsRegex.from_translated(translate("", False)))),
                 lambda: R.step_age_ms(R.step_user_texts(to_reference(items), translate("", False))))
    _reached(result + texts + aged)


@DIFFERENTIAL
@given(_sidecar_items, st.sampled_from(["x", "y"]))
def test_agent_type_agrees(items, kind):
    _reached(agree(lambda: A.agent_type(items, kind),
                   lambda: R.step_agent_type(to_reference(items), kind)))


_constants = sv.values | st.sampled_from([0, 1, 2, 1.5, -1])


@DIFFERENTIAL
@given(st.lists(_objects | sv.values, min_size=1, max_size=4),
       st.sampled_from(list(PREDICATE_NODES)), st.data())
def test_filter_predicates_agree(values, operator, data):
    present = sorted({k for v in values if type(v) is dict for k in v})
    field = data.draw(st.sampled_from(present + ["absent"]) if present else _FIELD_NAMES)
    # Constants are often the very values the items hold, so that eq and notIn can hold.
    held_values = [v[field] for v in values if type(v) is dict and field in v]
    constants = st.sampled_from(held_values) | _constants if held_values else _constants
    if operator == "notIn":
        constant = data.draw(st.lists(constants, max_size=3))
    elif operator in ("size", "lte", "gte"):  # a number (the compiler refuses anything else)
        numbers = [v for v in held_values if type(v) in (int, float)]
        constant = data.draw(st.sampled_from(numbers + [0, 1, 2, 1.5, -1, 1e21, 2**53]))
    else:
        constant = data.draw(constants)
    node = predicate_node(field, operator, to_reference(constant))
    held = [A.predicate_holds(v, (field, operator, constant)) for v in values]
    assert held == [R.holds(node, to_reference(v)) for v in values]
    event("some item holds" if any(held) else "no item holds")


@DIFFERENTIAL
@given(sv.items, sv.items, st.sampled_from(["union", "onlyIn", "intersect"]))
def test_combinators_agree(a, b, kind):
    fn = {"union": A.union, "onlyIn": A.only_in, "intersect": A.intersect}[kind]
    agree(lambda: fn(a, b),
          lambda: R.combine(combinator_node(kind), to_reference(a), to_reference(b)))


_relation_items = st.one_of(sv.items, sv.numeric_items, sv.text_items)


@DIFFERENTIAL
@given(_relation_items, _relation_items, st.booleans())
def test_relations_agree(a, b, strict_order):
    ra, rb = to_reference(a), to_reference(b)
    found = [
        agree(lambda: A.empty(a), lambda: R.relate_empty(ra)),
        agree(lambda: A.non_empty(a, "a"), lambda: R.relate_non_empty(ra, "a")),
        agree(lambda: A.equal(a, b), lambda: R.relate_equal(ra, rb)),
        agree(lambda: A.subset(a, b), lambda: R.relate_subset(ra, rb)),
        agree(lambda: A.implies(a, b), lambda: R.relate_implies(ra, rb)),
        agree(lambda: A.ordered(a, strict_order), lambda: R.relate_ordered(ra, strict_order)),
        agree(lambda: A.unchanged(a, b), lambda: R.relate_unchanged(ra, rb)),
    ]
    event(f"{sum(1 for f in found if f)} of 7 relations broken")


@DIFFERENTIAL
@given(sv.equal_pairs())
def test_value_helpers_agree(pair):
    a, b = pair
    ra, rb = to_reference(a), to_reference(b)
    assert V.js_equal(a, b) == R.same(ra, rb)
    assert V.js_string(a) == R.text(ra)
    if type(a) is dict:
        assert V.js_keys(a) == R.own_keys(ra)
    if type(a) is str and type(b) is str:
        assert (V.js_compare_strings(a, b) < 0) == R.precedes(a, b)
        assert V.js_trim(a) == R.trim(a)
    event("equal" if R.same(ra, rb) else "different")


@DIFFERENTIAL
@given(sv.numbers)
def test_number_text_agrees(x):
    assert V.js_number_string(x) == R.number_text(x)


@DIFFERENTIAL
@given(_json_texts | st.text(st.sampled_from(list('{}[]",:0123456789.eE-+ tnrufalsNIy\ufeff')),
                             max_size=12))
def test_json_parse_agrees(text):
    try:
        vm = strict(V.js_json_parse(text))
    except ValueError:
        vm = "refused"
    try:
        ref = strict(from_reference(R.parse_json(text)))
    except Exception:  # noqa: BLE001 - the reference's own refusal type
        ref = "refused"
    assert vm == ref
    event("parsed" if vm != "refused" else "refused")


def test_the_reference_shares_no_code_with_the_vm() -> None:
    """The oracle stays independent: tests/reference.py imports nothing from vm/ (or stdlib/)."""
    import ast
    from pathlib import Path

    tree = ast.parse(Path(R.__file__).read_text(encoding="utf-8"))
    imported = [alias.name for node in ast.walk(tree) if isinstance(node, ast.Import)
                for alias in node.names]
    imported += [f"{node.module}.{alias.name}" for node in ast.walk(tree)
                 if isinstance(node, ast.ImportFrom) for alias in node.names]
    ours = [name for name in imported if name.startswith("polydeukes")]
    assert ours == ["polydeukes.compiler.nodes"], ours  # the resolved AST, and nothing else
