"""Laws of the declaration algebra and the JS value model (Hypothesis, over random item lists)."""

from __future__ import annotations

import json

from hypothesis import event, given, settings
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
    event("a has items" if a else "a is empty")
    assert algebra.subset(a, algebra.union(a, b)) == []


@LAWS
@given(sv.items)
def test_only_in_itself_is_empty(a):
    event("a has items" if a else "a is empty")
    assert algebra.only_in(a, a) == []


@LAWS
@given(sv.items)
def test_intersect_with_itself_keeps_every_item(a):
    event("a has items" if a else "a is empty")
    assert [k for k, _ in algebra.intersect(a, a)] == [k for k, _ in a]


@LAWS
@given(sv.items, sv.items)
def test_equal_holds_symmetrically_and_swaps_sides(a, b):
    ab, ba = algebra.equal(a, b), algebra.equal(b, a)
    event("equal breaks" if ab else "equal holds")
    assert bool(ab) == bool(ba)
    flip = {"left": "right", "right": "left"}
    assert sorted((w[0], flip[w[2]]) for w in ab) == sorted((w[0], w[2]) for w in ba)


@LAWS
@given(sv.items, sv.items)
def test_a_list_implies_its_union(a, b):
    event("a has items" if a else "a is empty")
    assert algebra.implies(a, algebra.union(a, b)) == []


@LAWS
@given(sv.items)
def test_sort_is_idempotent_and_stable(a):
    numbered = [(str(i), v) for i, (_, v) in enumerate(a)]  # keys record the input position
    once = algebra.sort(numbered)
    assert strict(algebra.sort(once)) == strict(once)
    assert sorted(int(k) for k, _ in once) == list(range(len(a)))
    numeric = all(type(v) in (int, float) for _, v in a)
    ties = 0
    for (k1, v1), (k2, v2) in zip(once, once[1:]):
        tie = js_equal(v1, v2) if numeric else js_string(v1) == js_string(v2)
        if tie:
            ties += 1
            assert int(k1) < int(k2), "equal values keep their input order"
    event("a tie to keep in order" if ties else "no tie")


@LAWS
@given(sv.items | sv.numeric_items | sv.text_items)
def test_a_sorted_list_is_ordered(a):
    event("two or more items" if len(a) >= 2 else "fewer than two items")
    assert algebra.ordered(algebra.sort(a), strict=False) == []


@LAWS
@given(sv.numeric_items | sv.text_items)
def test_strict_order_fails_exactly_on_ties_after_sorting(a):
    s = algebra.sort(a)
    ties = sum(1 for (_, x), (_, y) in zip(s, s[1:]) if js_equal(x, y))  # 2**53 + 1 ties 2**53
    event("a tie" if ties else "no tie")
    assert len(algebra.ordered(s, strict=True)) == ties


@LAWS
@given(sv.equal_pairs())
def test_js_equal_agrees_with_canonical_equality(pair):
    a, b = pair
    event("equal" if js_equal(a, b) else "different")
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
    event("exponent form" if "e" in text else "positional form")
    assert float(text) == x
    assert "e" not in text or "e+" in text or "e-" in text
    assert not text.startswith("0") or text == "0" or text.startswith("0.")


# Pairs that share a prefix and then differ where code points and UTF-16 code units disagree
# (an astral character against one in U+E000–U+FFFF), besides unrelated texts.
_ASTRAL = st.sampled_from(["\U0001f600", "\U00010000"])
_HIGH_BMP = st.sampled_from(["\ue000", "\uff61", "\uffff"])
_string_pairs = st.tuples(sv.texts, _ASTRAL, _HIGH_BMP, sv.texts, sv.texts).map(
    lambda t: (t[0] + t[1] + t[3], t[0] + t[2] + t[4]))


@LAWS
@given(_string_pairs | st.tuples(sv.texts, sv.texts), st.booleans())
def test_string_order_is_utf16_code_unit_order(pair, swap):
    a, b = reversed(pair) if swap else pair
    ua, ub = a.encode("utf-16-be", "surrogatepass"), b.encode("utf-16-be", "surrogatepass")
    event("code units order them unlike code points" if (ua < ub) != (a < b) else "same order")
    assert js_compare_strings(a, b) == (ua > ub) - (ua < ub)


@LAWS
@given(st.lists(st.tuples(sv.keys, sv.line_texts | sv.values), max_size=4))
def test_lines_keys_increase_within_each_item(a):
    event("some lines" if algebra.lines(a) else "no line")
    for key, value in a:
        numbers = [int(k) for k, _ in algebra.lines([(key, value)])]
        assert numbers == sorted(set(numbers))
        assert all(1 <= n <= js_string(value).count("\n") + 1 for n in numbers)


@LAWS
@given(sv.items)
def test_first_is_a_prefix(a):
    got = algebra.first(a)
    event("a has items" if a else "a is empty")
    assert len(got) == min(1, len(a))
    assert got == a[: len(got)]


@LAWS
@given(sv.items, sv.items, st.data())
def test_intersect_and_only_in_split_a_by_key(a, b, data):
    b = b + data.draw(st.lists(st.sampled_from(a), max_size=2)) if a else b  # share some keys
    kept, dropped = algebra.intersect(a, b), algebra.only_in(a, b)
    event("split both ways" if kept and dropped else "one side empty")
    assert sorted(map(repr, kept + dropped)) == sorted(map(repr, a))
    assert algebra.only_in(kept, b) == [] and algebra.intersect(dropped, b) == []
    assert algebra.implies(kept, b) == []


@LAWS
@given(sv.items)
def test_unchanged_against_itself_holds_for_unique_keys(a):
    unique = list({k: (k, v) for k, v in a}.values())
    event("a has items" if unique else "a is empty")
    assert algebra.unchanged(unique, unique) == []


@LAWS
@given(sv.items)
def test_equal_and_subset_are_reflexive(a):
    event("a has items" if a else "a is empty")
    assert algebra.equal(a, a) == [] and algebra.subset(a, a) == []
