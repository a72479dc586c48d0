"""Every load-time message (spec 03 §17.1, §15.3) and compile fault (§17.2, §9): exact text, located."""

from __future__ import annotations

import pytest

from declare_support import check_golden, load_cases, outcome

CASES = load_cases()


@pytest.mark.parametrize("case", CASES, ids=[case["name"] for case in CASES])
def test_message_and_location(case):
    actual = outcome(case["config"])
    if case["kind"] == "load":
        assert " declare" in actual.splitlines()[0]  # a load error, not a fault or success
    else:
        assert actual.startswith("e ") or actual.startswith("e:"), actual
    check_golden(case["name"], actual)


def test_every_golden_file_has_a_case():
    names = {case["name"] for case in CASES}
    from declare_support import GOLDEN

    assert {path.stem for path in GOLDEN.glob("*.txt")} <= names
