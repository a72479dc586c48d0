"""Exit-code contract and fail-policy table (spec 01 §7, §9)."""

import pytest

from polydeukes.vm import verdict as V


@pytest.mark.parametrize("kind,mode", [
    ("evidence-absence", "closed"), ("input-parse", "closed"), ("undecidable-structure", "closed"),
    ("observability", "open"), ("", "closed"), ("unknown", "closed"), ("__proto__", "closed"),
    ("toString", "closed"), ("__class__", "closed"), ("get", "closed"), (None, "closed"),
    (3, "closed"),
])
def test_fail_policy_is_total_and_closed_by_default(kind, mode):
    assert V.resolve_fail_mode(kind) == mode
    assert V.fail_mode_to_exit_code(mode) == (0 if mode == "open" else 2)


@pytest.mark.parametrize("code,level,want", [
    (0, "advise", (0, "passed")), (0, "block", (0, "passed")),
    (1, "advise", (0, "advised")), (1, "block", (2, "blocked")),
    (2, "advise", (2, "blocked")), (2, "block", (2, "blocked")),
    (3, "advise", (2, "blocked")), (None, "advise", (2, "blocked")), (-9, "block", (2, "blocked")),
    (False, "advise", (2, "blocked")), (True, "advise", (2, "blocked")),
])
def test_wrapper_translation(code, level, want):
    assert V.translate_body_exit(code, level) == want


def test_a_body_never_reports_2():
    assert (V.verdict_to_exit_code(True), V.verdict_to_exit_code(False)) == (0, 1)
    assert (V.EXIT_UPHOLD, V.EXIT_BREAK_NON_BLOCKING, V.EXIT_BREAK_BLOCKING) == (0, 1, 2)
