"""Verdicts, exit codes and the fail-policy table (spec 01 §6, §7, §9)."""

from __future__ import annotations

from typing import Literal

EXIT_UPHOLD = 0
EXIT_BREAK_NON_BLOCKING = 1  # a body's break signal; the wrapper turns it into 0 or 2
EXIT_BREAK_BLOCKING = 2

# The six telemetry words (spec 06 §3).
PASSED = "passed"
BLOCKED = "blocked"
WITNESSED = "witnessed"
ADVISED = "advised"
SKIPPED = "skipped"
UNATTRIBUTED = "unattributed"
EVENTS = (PASSED, BLOCKED, WITNESSED, ADVISED, SKIPPED, UNATTRIBUTED)

# Skip reason tokens (spec 06 §6).
NO_OBSERVATION = "no-observation"
CONFIG_FAULT = "config-fault"
SUPPLY_PASS = "supply-pass"
SKIP_REASONS = (NO_OBSERVATION, CONFIG_FAULT, SUPPLY_PASS)

FailMode = Literal["open", "closed"]

# Only observability fails open; every other kind, named or not, fails closed.
_FAIL_POLICY: dict[str, FailMode] = {
    "evidence-absence": "closed",
    "input-parse": "closed",
    "undecidable-structure": "closed",
    "observability": "open",
}


def resolve_fail_mode(kind: object) -> FailMode:
    """Total: unknown names (including `__proto__`, `toString`, `__class__`) resolve closed."""
    if isinstance(kind, str) and kind in _FAIL_POLICY:
        return _FAIL_POLICY[kind]
    return "closed"


def fail_mode_to_exit_code(mode: FailMode) -> int:
    return EXIT_UPHOLD if mode == "open" else EXIT_BREAK_BLOCKING


def verdict_to_exit_code(upheld: bool) -> int:
    """A body reports (0 or 1); it never decides policy, so this never returns 2."""
    return EXIT_UPHOLD if upheld else EXIT_BREAK_NON_BLOCKING


def translate_body_exit(code: object, level: str) -> tuple[int, str]:
    """The wrapper's translation of a body outcome under an effective level (spec 01 §7.2).

    Returns (exit code, event). Anything but 0 or 1 — 2, another code, no code — blocks.
    """
    if code == EXIT_UPHOLD and code is not False:
        return EXIT_UPHOLD, PASSED
    if code == EXIT_BREAK_NON_BLOCKING and code is not True:
        if level == "block":
            return EXIT_BREAK_BLOCKING, BLOCKED
        return EXIT_UPHOLD, ADVISED
    return EXIT_BREAK_BLOCKING, BLOCKED
