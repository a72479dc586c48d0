"""Table cases for the algebra's runtime meaning (spec 03 §8–§11, §13): tests/cases/algebra."""

from __future__ import annotations

from typing import Any

import pytest

from algebra_support import case_steps, items_of, load_cases, regex, strict
from polydeukes.vm import algebra, messages
from polydeukes.vm.algebra import MISSING, NOT_A_PAIR, NOT_JSON, SupplyFailure, state_pair


def _predicates(when: list[dict]) -> list[tuple[str, str, Any]]:
    """Config-shaped `{field: f, <operator>: constant}` mappings as predicate tuples."""
    out = []
    for p in when:
        (operator, constant), = [(k, v) for k, v in p.items() if k != "field"]
        out.append((p["field"], operator, constant))
    return out


def run_step(op: str, items: list, args: dict) -> list:
    """One step by its vocabulary name, with config-shaped arguments."""
    if op in ("keyByPattern", "matches", "userTexts"):
        pattern = regex(args["re"], args.get("i", False))
        fn = {"keyByPattern": algebra.key_by_pattern, "matches": algebra.matches,
              "userTexts": algebra.user_texts}[op]
        return fn(items, pattern)
    if op == "source":
        return algebra.source_at(items, args["of"])
    if op == "select":
        return algebra.select(items, args["path"])
    if op == "keyBy":
        return algebra.key_by(items, args["field"])
    if op == "field":
        return algebra.field(items, args["name"])
    if op == "filter":
        return algebra.filter_(items, _predicates(args["when"]))
    if op == "toolUses":
        return algebra.tool_uses(items, args.get("names"), args.get("subagentType"))
    if op == "agentType":
        return algebra.agent_type(items, args["is"])
    fn = {"json": algebra.json, "items": algebra.items_, "flattenKeys": algebra.flatten_keys,
          "sort": algebra.sort, "lines": algebra.lines, "first": algebra.first,
          "ageMs": algebra.age_ms}[op]
    assert not args, f"{op} takes no arguments"
    return fn(items)


@pytest.mark.parametrize("case", load_cases("steps"))
def test_step(case: dict) -> None:
    steps = case_steps(case)
    items = items_of(case["in"])
    frozen = strict(items)

    def run() -> list:
        out = items
        for op, args in steps:
            out = run_step(op, out, args)
        return out

    if "raises" in case:
        with pytest.raises(SupplyFailure) as info:
            run()
        assert info.value.reason == case["raises"]
        return
    got = run()
    assert all(type(k) is str for k, _ in got)
    assert strict(got) == strict(items_of(case["want"]))
    assert strict(items) == frozen, "a step must not mutate its input"


@pytest.mark.parametrize("case", load_cases("predicates"))
def test_predicate(case: dict) -> None:
    assert algebra.predicate_holds(case["value"], tuple(case["predicate"])) is case["holds"]


@pytest.mark.parametrize("case", load_cases("combinators"))
def test_combinator(case: dict) -> None:
    fn = {"union": algebra.union, "onlyIn": algebra.only_in,
          "intersect": algebra.intersect}[case["combinator"]]
    got = fn(items_of(case["a"]), items_of(case["b"]))
    assert strict(got) == strict(items_of(case["want"]))


@pytest.mark.parametrize("case", load_cases("relations"))
def test_relation(case: dict) -> None:
    relation = case["relation"]
    if relation == "unchanged":
        got = algebra.unchanged(items_of(case["pre"]), items_of(case["post"]))
    elif relation == "empty":
        got = algebra.empty(items_of(case["a"]))
    elif relation == "nonEmpty":
        got = algebra.non_empty(items_of(case["a"]), case["name"])
    elif relation == "ordered":
        got = algebra.ordered(items_of(case["a"]), case["strict"])
    else:
        fn = {"equal": algebra.equal, "subset": algebra.subset,
              "implies": algebra.implies}[relation]
        got = fn(items_of(case["a"]), items_of(case["b"]))
    assert strict(got) == strict([tuple(w) for w in case["want"]])


@pytest.mark.parametrize("case", load_cases("messages"))
def test_message(case: dict) -> None:
    if "line" in case:
        got = getattr(messages, case["line"])(*case["args"])
    else:
        template = case["template"]
        template = tuple(template) if isinstance(template, list) else template
        got = messages.render_break(template, [tuple(w) for w in case["witnesses"]])
    assert got == case["want"]


def test_witnesses_default_before_is_missing() -> None:
    # Every relation but unchanged reports MISSING, which renders `{before}` as nothing.
    assert algebra.subset([("k", 1)], [])[0][3] is MISSING
    assert repr(MISSING) == "MISSING"  # how a witness prints in a failing test
    assert algebra.equal([("k", 1)], [])[0][2:] == ("left", MISSING)


def test_an_unknown_operator_is_a_named_error_not_a_silent_answer() -> None:
    # The compiler refuses it first (spec 03 §9); reaching the VM is a bug, named as such.
    with pytest.raises(ValueError, match="unknown filter operator 'lt'"):
        algebra.predicate_holds({"x": 1}, ("x", "lt", 2))


def test_state_pair() -> None:
    assert state_pair({"pre": "a", "post": "b"}) == ("a", "b")
    for bad in ({"pre": "a"}, {"post": "b"}, ["a", "b"], "a", None):
        with pytest.raises(SupplyFailure) as info:
            state_pair(bad)
        assert info.value.reason == str(info.value) == NOT_A_PAIR


def test_supply_reason_texts_are_the_specs() -> None:
    assert NOT_JSON == "the value is not valid JSON"
    assert NOT_A_PAIR == (
        "'state' must be a before/after pair — an object carrying 'pre' and 'post'"
    )
    assert messages.NO_SOURCE.format(source="ko") == "the world carries no source named 'ko'"


# -- worked examples of spec 03 §20, composed from the functions the VM calls ------------------


def _text_keys(text: str, pattern: str) -> list:
    return algebra.key_by_pattern(algebra.lines([("0", text)]), regex(pattern))


def test_added_only_example_breaks_with_the_spec_line() -> None:
    pre = "describe('login', () => {\n  it('works', () => {});\n});\n"
    post = "describe('login', () => {\n  it.only('works', () => {});\n});\n"
    added = algebra.only_in(_text_keys(post, r"(\.only\()"), _text_keys(pre, r"(\.only\()"))
    witnesses = algebra.empty(added)
    line = messages.break_line("no-focused-tests-in-src", "test/login.test.ts",
                               messages.render_break("adds {key}: {value}", witnesses),
                               "a focused test must not land in shared source.")
    assert line == (
        "discipline 'no-focused-tests-in-src' broken on test/login.test.ts: adds .only(: "
        "it.only('works', () => {}); — why: a focused test must not land in shared source."
    )
    # A key the old file already had is forgiven, even on a new line.
    forgiven = "describe.only('login', () => {\n  it.only('works', () => {});\n});\n"
    assert algebra.only_in(_text_keys(forgiven, r"(\.only\()"),
                           _text_keys("describe.only('login', () => {\n", r"(\.only\()")) == []


def test_frozen_path_example_counts_a_deletion_twice() -> None:
    here = [("0", "records/archive/2024.md")]
    prior = [("0", "v1\n")]  # a deletion carrying pre: no post at all
    after: list = []
    touched = algebra.union(algebra.intersect(here, prior), algebra.only_in(here, after))
    message = messages.render_break("{value} is frozen", algebra.empty(touched))
    assert message == "records/archive/2024.md is frozen (+1)"


def test_phase_order_example_reports_the_implementer_spawn() -> None:
    snapshot = {"observedAtMs": 1, "userMessages": [], "toolCalls": [
        {"index": 0, "name": "Agent", "args": {"subagent_type": "tdd-implementer"},
         "succeeded": True},
        {"index": 1, "name": "Agent", "args": {"subagent_type": "tdd-test-writer"},
         "succeeded": True},
    ]}

    def spawn(kind: str) -> list:
        calls = algebra.tool_uses([("0", snapshot)], ["Agent", "Task"], kind)
        done = algebra.filter_(calls, [("succeeded", "eq", True)])
        return algebra.first(algebra.field(done, "index"))

    sequence = algebra.union(spawn("tdd-test-writer"), spawn("tdd-implementer"))
    witnesses = algebra.ordered(sequence, strict=False)
    assert messages.render_break(
        "the first implementer spawn #{value} precedes the first test-writer spawn", witnesses
    ) == "the first implementer spawn #0 precedes the first test-writer spawn"


def test_locale_parity_example_reports_the_right_only_key() -> None:
    def keys(text: str) -> list:
        return algebra.flatten_keys(algebra.json([("0", text)]))

    ko, en = keys('{"home":"홈"}'), keys('{"home":"Home","settings":"Settings"}\n')
    witnesses = algebra.equal(ko, en)
    assert messages.render_break(("{key} is in ko only", "{key} is in en only"),
                                 witnesses) == "settings is in en only"
    assert algebra.equal(keys('{"home":"홈","settings":"설정"}'),
                         keys('{"settings":"S","home":"H"}')) == []
