"""makefiles.py against GNU make itself: every recipe line make would run for a call is a line
the reading walks (the reading may walk more, never less).

The oracle is `make -r -n -B` on a generated makefile in a scratch directory: `-n` prints each
recipe line it would run instead of running it, `-B` treats every target as out of date (so
every recipe the goals reach is printed), `-r` leaves out make's built-in rules, which the
generated makefiles do not rely on; every name is also a file, so that a prerequisite without a
rule is no error that stops make early. The tables in tests/cases/shell/makefiles.yaml hold the
cases by hand; this property finds what they miss.
"""

from __future__ import annotations

import shutil
import subprocess

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from polydeukes.stdlib.shell.makefiles import read_makefiles

MAKE = shutil.which("make")
pytestmark = pytest.mark.skipif(MAKE is None, reason="GNU make is not installed")

NAMES = ["a", "b", "c", "d", "e", "f"]
DOUBLE_COLON = {"e", "f"}  # (a target's rules are all `:` or all `::`, or make refuses the file)


@st.composite
def makefiles(draw) -> tuple[str, list[str]]:
    lines: list[str] = []
    variables = 0
    if draw(st.booleans()):
        lines.append(f".DEFAULT_GOAL := {draw(st.sampled_from(NAMES))}")
    for k in range(draw(st.integers(1, 7))):
        target = draw(st.sampled_from(NAMES))
        prerequisites = draw(st.lists(st.sampled_from(NAMES), max_size=3))
        order_only = draw(st.lists(st.sampled_from(NAMES), max_size=2))
        spelled = " ".join(prerequisites)
        if prerequisites and draw(st.booleans()):
            # the prerequisites through a variable, assigned before or after the rule line
            name = f"DEPS{variables}"
            variables += 1
            operator = draw(st.sampled_from(["=", ":=", "::="]))
            lines.append(f"{name} {operator} {spelled}")
            spelled = f"$({name})" if draw(st.booleans()) else f"${{{name}}}"
        if order_only:
            spelled += " | " + " ".join(order_only)
        colon = "::" if target in DOUBLE_COLON else ":"
        header = f"{target}{colon} {spelled}".rstrip()
        if draw(st.booleans()):
            header += f" ; @echo run {target} {k} inline"
        lines.append(header)
        for r in range(draw(st.integers(0, 2))):
            prefix = draw(st.sampled_from(["", "@", "-", "+"]))
            lines.append(f"\t{prefix}echo run {target} {k} {r}")
        if draw(st.booleans()):
            lines.append("")
        if draw(st.booleans()):
            lines.append("# a comment between rules")
    goals = draw(st.lists(st.sampled_from(NAMES), max_size=2))
    return "\n".join(lines) + "\n", goals


def make_runs(tmp_path, text: str, goals: list[str]) -> list[str]:
    (tmp_path / "Makefile").write_text(text, encoding="utf-8")
    for name in NAMES:  # (a prerequisite without a rule is then a file that is there, not an error)
        (tmp_path / name).write_text("", encoding="utf-8")
    done = subprocess.run([MAKE, "-r", "-R", "-n", "-B", "-s", *goals], cwd=tmp_path, capture_output=True,
                          text=True, timeout=20)
    return [line for line in done.stdout.splitlines() if line.startswith("echo run")]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(makefiles())
def test_every_recipe_make_runs_is_walked(tmp_path, case) -> None:
    text, goals = case
    ran = make_runs(tmp_path, text, goals)
    program = read_makefiles([("Makefile", text)], goals, {})
    assert program.refused is None
    missing = [line for line in ran if line not in program.lines]
    assert not missing, (text, goals, missing, program.lines)


def test_the_reading_leaves_out_what_make_does_not_run(tmp_path) -> None:
    """The property above allows walking more; this pins that the reading is not every recipe."""
    text = "build: app\n\techo run build\napp:\n\techo run app\nclean:\n\techo run clean\n"
    assert make_runs(tmp_path, text, []) == ["echo run app", "echo run build"]
    program = read_makefiles([("Makefile", text)], [], {})
    assert sorted(program.lines) == ["echo run app", "echo run build"]
    assert "clean" not in program.texts[0][1]
