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
from hypothesis import HealthCheck, example, given, settings
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


# -- make's text functions against make itself ---------------------------------------------------

WORDS = ["a", "b.c", "x/y.o", "ci", "c", "%", "a.b/c", "..", "q.x.c", "c.c", "cic"]
PATTERNS = ["%", "%.c", "%.o", "x/%", "c%", "%i", "a", "%.x.c"]


@st.composite
def expressions(draw, depth: int = 0) -> str:
    """A make expression of literal words: a function call or a substitution reference."""
    def text() -> str:
        if depth < 2 and draw(st.booleans()):
            return draw(expressions(depth + 1))
        return " ".join(draw(st.lists(st.sampled_from(WORDS), max_size=3)))

    kind = draw(st.sampled_from(["subst", "patsubst", "strip", "findstring", "filter", "filter-out", "sort",
                                 "word", "wordlist", "words", "firstword", "lastword", "dir", "notdir",
                                 "suffix", "basename", "addsuffix", "addprefix", "join", "if", "or", "and",
                                 "foreach", "reference"]))
    if kind == "subst":
        return f"$(subst {draw(st.sampled_from(['c', '.', 'x', '/', 'i']))},{draw(st.sampled_from(['i', '', 'o', 'c']))},{text()})"
    if kind == "patsubst":
        return f"$(patsubst {draw(st.sampled_from(PATTERNS))},{draw(st.sampled_from(PATTERNS + ['y']))},{text()})"
    if kind in ("filter", "filter-out"):
        return f"$({kind} {draw(st.sampled_from(PATTERNS))} {draw(st.sampled_from(PATTERNS))},{text()})"
    if kind == "findstring":
        return f"$(findstring {draw(st.sampled_from(['c', 'i', 'b.c', 'z']))},{text()})"
    if kind == "word":
        return f"$(word {draw(st.integers(1, 4))},{text()})"
    if kind == "wordlist":
        return f"$(wordlist {draw(st.integers(1, 3))},{draw(st.integers(0, 4))},{text()})"
    if kind in ("addsuffix", "addprefix"):
        return f"$({kind} {draw(st.sampled_from(['i', '.o', 'x/', 'c']))},{text()})"
    if kind == "join":
        return f"$(join {text()},{text()})"
    if kind == "if":
        return f"$(if {text()},{text()},{text()})"
    if kind in ("or", "and"):
        return f"$({kind} {text()},{text()})"
    if kind == "foreach":
        return f"$(foreach v,{text()},$(v)i {draw(st.sampled_from(['x', '$(v)']))})"
    if kind == "reference":
        return f"$(V:{draw(st.sampled_from(['.c=.o', '%.c=%.i', 'c=i', '%=x/%']))})"
    return f"$({kind} {text()})"


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(expressions(), st.lists(st.sampled_from(WORDS), max_size=3))
# (a condition's blank expansion is true, and the value: make strips the text before expanding)
@example('$(or $(notdir $(dir a a)),)', [])
@example('$(if $(notdir ./ ./),a,b)', [])
def test_text_functions_compute_what_make_does(tmp_path, expression, v) -> None:
    """Of literal words, each text function's value is what GNU make prints for it."""
    makefile = f"V := {' '.join(v)}\n$(info [{expression}])\nall: ;@:\n"
    (tmp_path / "Makefile").write_text(makefile, encoding="utf-8")
    done = subprocess.run([MAKE, "-r", "-R", "-s"], cwd=tmp_path, capture_output=True, text=True, timeout=20)
    from polydeukes.stdlib.shell.makefiles import MARK, _Reader

    reader = _Reader({}, False, lambda _name: None)  # (no environment: literal words only)
    reader.read(0, makefile)
    ours = reader.expand(expression)
    assert ours is not None
    if done.returncode != 0:
        assert MARK in ours  # (make stops: this reading gives no value)
        return
    assert done.stdout.splitlines()[0] == f"[{ours}]", (makefile, done.stdout)


def test_a_function_of_what_the_reading_cannot_compute_is_marked() -> None:
    from polydeukes.stdlib.shell.makefiles import COMPUTED

    program = read_makefiles([("Makefile", "X := $(shell ls)\nall: x/ci\nx/%:\n\trm -rf $* $(X) $(suffix $(wildcard z*))\n")],
                             [], {})
    assert program.lines[0] == f"rm -rf ci {COMPUTED} {COMPUTED}"
