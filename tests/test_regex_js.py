"""compiler/regex.py against JavaScript itself (spec 03 §19): the regex differential.

Two sources of JavaScript's answers (tests/regex_oracle.py describes both sides):
* the checked-in table tests/cases/regex/javascript.jsonl — several hundred curated cases (the
  dialect's risky corners: quantifier bounds greedy and lazy past the upper bound, classes,
  Unicode and ASCII escapes, anchors with trailing newlines, look-arounds, named groups,
  back-references, case-insensitive matching) and a few hundred seeded generated ones, each
  with what node answered. It runs everywhere, node or not.
* node itself, when it is on PATH: it re-answers the whole table (so the table cannot go stale
  silently; `pytest --update-golden` rewrites it) and answers freshly generated cases.
"""

from __future__ import annotations

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

import golden
import regex_oracle as oracle

needs_node = pytest.mark.skipif(oracle.NODE is None, reason=oracle.NO_NODE)


def _outcome(js: dict) -> str:
    if "error" in js:
        return "syntax error"
    if js["match"] is None:
        return "no match"
    start, end, _ = js["match"][0]
    return "empty match" if start == end else "match"


def test_the_table_lists_exactly_the_curated_and_seeded_inputs() -> None:
    rows = oracle.read_table()
    assert [case for case, _ in rows] == oracle.table_inputs(), (
        "the inputs changed: refresh the table with node on PATH: pytest --update-golden "
        "tests/test_regex_js.py")


def test_the_translation_agrees_with_every_table_row() -> None:
    rows = oracle.read_table()
    failures = []
    for case, js in rows:
        why = oracle.disagreement(case, js, oracle.our_answer(case))
        if why is not None:
            failures.append(f"{case!r}: {why}")
    assert not failures, "\n".join(failures)
    # The table asks real questions: most rows are valid patterns, a good share of them match.
    outcomes = [_outcome(js) for _, js in rows]
    assert outcomes.count("match") > len(rows) // 5
    assert outcomes.count("syntax error") < len(rows) // 5


@needs_node
def test_the_table_is_what_node_answers_today() -> None:
    cases = oracle.table_inputs()
    golden.check(oracle.TABLE, oracle.table_text(cases, oracle.node_answers(cases)))


@pytest.fixture(scope="module")
def node():
    session = oracle.NodeSession()
    yield session
    session.close()


@needs_node
@settings(max_examples=400, deadline=None)
@given(data=st.data())
def test_generated_cases_agree_with_node(node, data) -> None:
    case = oracle.draw_case(lambda options: data.draw(st.sampled_from(options)))
    js, ours = node.answer(case), oracle.our_answer(case)
    event("refused by us" if "refused" in ours else _outcome(js))
    why = oracle.disagreement(case, js, ours)
    assert why is None, f"{case!r}: {why}"


def test_only_the_groups_javascript_resets_are_left_out_of_the_comparison() -> None:
    from polydeukes.compiler.regex import reset_groups

    assert reset_groups("(?:(a)|b)+(c)") == {1}
    assert reset_groups("(a?)?(b)") == {1}
    assert reset_groups("(a)(?:(b)c)+") == frozenset()
    # Group 2 is reset, so a difference there is no disagreement; group 1 still counts.
    case, js = ("(x)(?:(a)|b)+", "", "xab"), {"groups": 2, "match": [[0, 3, "xab"], [0, 1, "x"], None]}
    assert oracle.disagreement(case, js, oracle.our_answer(case)) is None
    wrong_group1 = {"groups": 2, "match": [[0, 3, "xab"], [0, 1, "y"], None]}
    assert oracle.disagreement(case, wrong_group1, oracle.our_answer(case)) is not None
