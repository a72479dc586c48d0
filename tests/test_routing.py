"""Path routing by mention (stdlib/routing.py, spec 04 §5.1): the case table and its laws."""

from __future__ import annotations

import sys

import pytest
from hypothesis import event, example, given, settings
from hypothesis import strategies as st

from meta_support import calls_of, load
from polydeukes.stdlib.routing import Candidates, gather_candidates, route_by_paths
from polydeukes.vm.ir import ToolCall

ROOT = "/home/u/proj"
PROTECTED = ["packages/core/dist", ".claude/settings.json", "src/core", "polydeukes.config.yaml"]


@pytest.mark.parametrize("case", load("routing"))
def test_case(case: dict) -> None:
    (call,) = calls_of(case)
    got = route_by_paths(gather_candidates(call, root=case["root"]), case["protected"], root=case["root"])
    assert got == (case["want"]["subject"], case["want"]["failed"])


def test_candidates_are_distinct_and_keep_first_seen_order() -> None:
    call = ToolCall(name="X", args={"a": "cat b a b", "c": ["a", "d"]})
    assert gather_candidates(call, root=ROOT) == Candidates(("cat", "b", "a", "d"), False)


def test_pathological_nesting_does_not_exhaust_the_stack() -> None:
    deep: object = "src/core/a.py"
    for _ in range(sys.getrecursionlimit() * 2):
        deep = [deep]
    call = ToolCall(name="X", args={"a": deep})
    assert route_by_paths(gather_candidates(call, root=ROOT), PROTECTED, root=ROOT) == ("src/core", False)


# -- laws --------------------------------------------------------------------------------------

_scalar = st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=40) | st.text(
    alphabet="src/core.packages~$'\"\\;|&<>()` =,{}*\n", max_size=40)
_json = st.recursive(
    _scalar,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4),
    max_leaves=25,
)


@settings(max_examples=200, deadline=None)
@given(args=st.dictionaries(st.text(max_size=10), _json, max_size=4))
def test_gathering_never_raises_on_any_args(args: dict) -> None:
    got = gather_candidates(ToolCall(name="X", args=args), root=ROOT)
    assert all(isinstance(c, str) and c for c in got.paths)
    assert len(set(got.paths)) == len(got.paths)
    subject, failed = route_by_paths(got, PROTECTED, root=ROOT)
    event("routed" if subject is not None else "not routed")
    assert subject is None or subject in PROTECTED
    assert not failed or subject == PROTECTED[0]


_path = st.lists(
    st.sampled_from(["src", "core", "packages", "dist", ".", "..", "x", ".claude", "settings.json", "~", "/home/u/proj"]),
    min_size=1, max_size=5,
).map("/".join)


@settings(max_examples=300, deadline=None)
@given(paths=st.lists(_path, max_size=6), extra=_path, failed=st.booleans(), extra_failed=st.booleans())
def test_adding_a_candidate_never_unroutes(paths: list[str], extra: str, failed: bool, extra_failed: bool) -> None:
    before = route_by_paths(Candidates(tuple(paths), failed), PROTECTED, root=ROOT)
    after = route_by_paths(Candidates((*paths, extra), failed or extra_failed), PROTECTED, root=ROOT)
    event("routed before" if before[0] is not None else "not routed before")
    if before[0] is not None:
        assert after[0] is not None
    if before[0] is not None and not before[1]:
        # A real match stays a real match, and its subject can only move earlier in list order.
        assert not after[1]
        assert PROTECTED.index(after[0]) <= PROTECTED.index(before[0])


_entry = st.lists(
    st.sampled_from(["src", "core", "packages", "dist", ".", "..", ".claude", "settings.json", "Src"]),
    min_size=1, max_size=3,
).map("/".join)


@settings(max_examples=300, deadline=None)
@given(paths=st.lists(_path, max_size=6), protected=st.lists(_entry | st.just(""), max_size=5),
       failed=st.booleans(), folded=st.booleans(),
       root=st.sampled_from([ROOT, "/home/u/proj/src", "/", "relative/root"]))
# Each way a pair matches, alone: inside the entry, dot-resolved, an ancestor anchored at the root.
@example(paths=["x/src/core/a"], protected=["dist", "src/core"], failed=False, folded=False,
         root="relative/root")
@example(paths=["x/src/./core"], protected=["dist", "src/core"], failed=False, folded=False,
         root="relative/root")
@example(paths=["/home/u/proj/src"], protected=["dist", "src/core"], failed=False, folded=False,
         root=ROOT)
@example(paths=["SRC/core"], protected=["dist", "Src/core"], failed=False, folded=True, root=ROOT)
def test_route_is_the_first_entry_any_candidate_matches(
        paths: list[str], protected: list[str], failed: bool, folded: bool, root: str) -> None:
    """route_by_paths' tables (segments per entry, entries by first segment, each candidate's
    forms worked out once) answer what the segment rule answers asked pair by pair."""
    from polydeukes.stdlib.protected import fold
    from polydeukes.stdlib.shell.paths import path_matches, segments

    kept = [e for e in protected if segments(e)]
    spell = fold if folded else (lambda text: text)
    want: tuple = (None, False)
    for entry in kept:
        if any(path_matches(spell(c), spell(entry), root=spell(root)) for c in paths):
            want = (entry, False)
            break
    else:
        if failed and kept:
            want = (kept[0], True)
    event("routed" if want[0] is not None else "not routed")
    assert route_by_paths(Candidates(tuple(dict.fromkeys(paths)), failed), protected, root=root,
                          folded=folded) == want
