"""Laws of the declaration algebra and the JS value model (Hypothesis, over random item lists)."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

import strategies_values as sv
from algebra_support import strict
from polydeukes.vm import algebra
from polydeukes.vm.values import (
    canonical,
    js_compare_strings,
    js_equal,
    js_json_parse,
    js_json_stringify,
    js_number_string,
    js_string,
)

LAWS = settings(max_examples=150, deadline=None)


@LAWS
@given(sv.items, sv.items)
def test_a_list_is_a_subset_of_its_union(a, b):
    assert algebra.subset(a, algebra.union(a, b)) == []


@LAWS
@given(sv.items)
def test_only_in_itself_is_empty(a):
    assert algebra.only_in(a, a) == []


@LAWS
@given(sv.items)
def test_intersect_with_itself_keeps_every_item(a):
    assert [k for k, _ in algebra.intersect(a, a)] == [k for k, _ in a]


@LAWS
@given(sv.items, sv.items)
def test_equal_holds_symmetrically_and_swaps_sides(a, b):
    ab, ba = algebra.equal(a, b), algebra.equal(b, a)
    assert bool(ab) == bool(ba)
    flip = {"left": "right", "right": "left"}
    assert sorted((w[0], flip[w[2]]) for w in ab) == sorted((w[0], w[2]) for w in ba)


@LAWS
@given(sv.items, sv.items)
def test_a_list_implies_its_union(a, b):
    assert algebra.implies(a, algebra.union(a, b)) == []


@LAWS
@given(sv.items)
def test_sort_is_idempotent_and_stable(a):
    numbered = [(str(i), v) for i, (_, v) in enumerate(a)]  # keys record the input position
    once = algebra.sort(numbered)
    assert strict(algebra.sort(once)) == strict(once)
    assert sorted(int(k) for k, _ in once) == list(range(len(a)))
    numeric = all(type(v) in (int, float) for _, v in a)
    for (k1, v1), (k2, v2) in zip(once, once[1:]):
        tie = v1 == v2 if numeric else js_string(v1) == js_string(v2)
        if tie:
            assert int(k1) < int(k2), "equal values keep their input order"


@LAWS
@given(sv.items | sv.numeric_items | sv.text_items)
def test_a_sorted_list_is_ordered(a):
    assert algebra.ordered(algebra.sort(a), strict=False) == []


@LAWS
@given(sv.numeric_items | sv.text_items)
def test_strict_order_fails_exactly_on_ties_after_sorting(a):
    s = algebra.sort(a)
    ties = sum(1 for (_, x), (_, y) in zip(s, s[1:]) if x == y)
    assert len(algebra.ordered(s, strict=True)) == ties


@LAWS
@given(sv.equal_pairs())
def test_js_equal_agrees_with_canonical_equality(pair):
    a, b = pair
    assert js_equal(a, b) == (canonical(a) == canonical(b))
    assert js_equal(a, b) == js_equal(b, a)
    if js_equal(a, b):
        assert hash(canonical(a)) == hash(canonical(b))


@LAWS
@given(sv.values.flatmap(lambda v: st.tuples(st.just(v), sv._variants(v))))
def test_variants_are_equal(pair):
    a, b = pair
    assert js_equal(a, b)


@LAWS
@given(sv.json_safe)
def test_json_parse_round_trips_json_text(x):
    assert strict(js_json_parse(json.dumps(x))) == strict(x)
    assert strict(js_json_parse(json.dumps(x, ensure_ascii=False))) == strict(x)
    assert strict(js_json_parse(js_json_stringify(x))) == strict(x)


@LAWS
@given(st.floats(allow_nan=False, allow_infinity=False))
def test_number_text_reads_back_as_the_same_double(x):
    text = js_number_string(x)
    assert float(text) == x
    assert "e" not in text or "e+" in text or "e-" in text
    assert not text.startswith("0") or text == "0" or text.startswith("0.")


@LAWS
@given(sv.texts, sv.texts)
def test_string_order_is_utf16_code_unit_order(a, b):
    ua, ub = a.encode("utf-16-be", "surrogatepass"), b.encode("utf-16-be", "surrogatepass")
    assert js_compare_strings(a, b) == (ua > ub) - (ua < ub)


@LAWS
@given(st.lists(st.tuples(sv.keys, sv.line_texts | sv.values), max_size=4))
def test_lines_keys_increase_within_each_item(a):
    for key, value in a:
        numbers = [int(k) for k, _ in algebra.lines([(key, value)])]
        assert numbers == sorted(set(numbers))
        assert all(1 <= n <= js_string(value).count("\n") + 1 for n in numbers)


@LAWS
@given(sv.items)
def test_first_is_a_prefix(a):
    got = algebra.first(a)
    assert len(got) == min(1, len(a))
    assert got == a[: len(got)]


@LAWS
@given(sv.items, sv.items)
def test_intersect_and_only_in_split_a_by_key(a, b):
    kept, dropped = algebra.intersect(a, b), algebra.only_in(a, b)
    assert sorted(map(repr, kept + dropped)) == sorted(map(repr, a))
    assert algebra.only_in(kept, b) == [] and algebra.intersect(dropped, b) == []
    assert algebra.implies(kept, b) == []


@LAWS
@given(sv.items)
def test_unchanged_against_itself_holds_for_unique_keys(a):
    unique = list({k: (k, v) for k, v in a}.values())
    assert algebra.unchanged(unique, unique) == []


@LAWS
@given(sv.items)
def test_equal_and_subset_are_reflexive(a):
    assert algebra.equal(a, a) == [] and algebra.subset(a, a) == []
