"""Hypothesis strategies for JS values and item lists (the algebra's laws, tests/test_laws.py)."""

from __future__ import annotations

from hypothesis import strategies as st

from polydeukes.vm.values import UNDEFINED

# Characters that exercise the value model: ASCII, JS-only whitespace, the U+E000–U+FFFF block
# that UTF-16 orders after astral characters, and astral characters themselves.
_CHARS = st.sampled_from(list("ab B1.,$ \n\r\t") + ["\u00a0", "\ufeff", "\u0085", "\ue000",
                                                     "\uff61", "\U0001f600", "\U00010000", "é"])
texts = st.text(_CHARS, max_size=6)
keys = st.sampled_from(["0", "1", "2", "10", "a", "b", "a.b", ""])  # small: keys must collide
numbers = (
    st.integers(-3, 3)
    | st.integers(-(2**60), 2**60)
    | st.floats(allow_nan=False, allow_infinity=False, width=64)
    | st.sampled_from([0.0, -0.0, 1.0, 1e21, 1e-7, 0.5])
    # Integers a double cannot hold: JavaScript sees 2**53 + 1 as 2**53 (spec 03 §12.5).
    | st.sampled_from([2**53 - 1, 2**53, 2**53 + 1, 2**53 + 2, -(2**53) - 1, float(2**53)])
)
scalars = st.none() | st.just(UNDEFINED) | st.booleans() | numbers | texts


def _containers(inner: st.SearchStrategy) -> st.SearchStrategy:
    return st.lists(inner, max_size=3) | st.dictionaries(keys, inner, max_size=3)


values = st.recursive(scalars, _containers, max_leaves=8)
items = st.lists(st.tuples(keys, values), max_size=6)


json_safe = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**53) + 1, 2**53 - 1)
    | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=3)
    | st.dictionaries(st.text(max_size=3), inner, max_size=3),
    max_leaves=8,
)

numeric_items = st.lists(
    st.tuples(keys, st.integers(-5, 5) | st.floats(-5, 5, allow_nan=False)
              | st.sampled_from([2**53, 2**53 + 1, 2**53 + 2])), max_size=6
)
text_items = st.lists(st.tuples(keys, texts), max_size=6)
line_texts = st.text(st.sampled_from(list("ab \n\r\t") + ["\u00a0", "\u2028"]), max_size=20)


def _variants(v: object) -> st.SearchStrategy:
    """Values structurally equal to `v`, written differently: int/float, key order, UNDEFINED."""
    if type(v) is int and -(2**53) < v < 2**53:
        return st.sampled_from([v, float(v)])
    if type(v) is float and v.is_integer() and abs(v) < 2**53:
        return st.sampled_from([v, int(v)])
    if type(v) is list:
        return st.tuples(*[_variants(e) for e in v]).map(list)
    if type(v) is dict:
        entries = st.tuples(*[st.tuples(st.just(k), _variants(x)) for k, x in v.items()])
        return st.tuples(entries.flatmap(st.permutations), st.booleans()).map(
            lambda pair: dict(list(pair[0]) + ([("extra-undefined", UNDEFINED)] if pair[1] else []))
        )
    return st.just(v)


def equal_pairs() -> st.SearchStrategy:
    """Pairs of values that are often, but not always, structurally equal."""
    same = values.flatmap(lambda v: st.tuples(st.just(v), _variants(v)))
    return same | st.tuples(values, values)
