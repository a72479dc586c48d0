"""Compiled patterns in the plan (vm/sre.py): the rebuilt pattern is `re.compile`'s, a plan from
another Python falls back to `re.compile` and says so, and a fresh plan compiles nothing."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import msgspec
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from polydeukes.vm import planfile, sre
from polydeukes.vm.explain import SRE_FALLBACK
from polydeukes.vm.project import read_bytes

# -- the equivalence property ------------------------------------------------------------------

# Real regular-expression syntax: atoms, classes, anchors, groups of every kind, lookarounds,
# back references, greedy / lazy / possessive quantifiers, scoped and global inline flags.
ATOMS = st.sampled_from([
    "a", "b", "ab", "é", "\U0001f600", " ", "-", ".", r"\.", r"\d", r"\w", r"\s", r"\W", r"\b",
    r"\B", "^", "$", r"\A", r"\Z", "[ab]", "[^a-c]", r"[\d_]", "[a-zé]", r"[\w.-]", r"\n",
    r"\x41", r"\u00e9",
])
QUANTIFIERS = st.sampled_from(["", "", "*", "+", "?", "*?", "+?", "??", "{2}", "{1,3}",
                               "{0,2}?", "*+", "++", "?+", "{1,2}+"])
LOOKBEHIND = st.sampled_from(["(?<=a)", "(?<!b)", r"(?<=\d)", "(?<=ab)"])


def _regex(children):
    quantified = st.tuples(children, QUANTIFIERS).map(lambda t: t[0] if t[1] == "" or
                                                      t[0].endswith(("*", "+", "?", "}"))
                                                      else f"(?:{t[0]}){t[1]}")
    return st.one_of(
        st.lists(quantified, min_size=1, max_size=4).map("".join),
        st.lists(children, min_size=2, max_size=3).map("|".join),
        children.map(lambda x: f"({x})"),
        children.map(lambda x: f"(?:{x})"),
        st.tuples(st.integers(1, 3), children).map(lambda t: f"(?P<g{t[0]}>{t[1]})"),
        children.map(lambda x: f"(?={x})"),
        children.map(lambda x: f"(?!{x})"),
        children.map(lambda x: f"(?>{x})"),
        st.tuples(LOOKBEHIND, children).map("".join),
        children.map(lambda x: f"(?i:{x})"),
        children.map(lambda x: f"({x})\\1"),
        children.map(lambda x: f"(?P<n>{x})(?P=n)?"),
    )


REGEXES = st.tuples(st.sampled_from(["", "", "(?s)", "(?m)", "(?i)", "(?x)"]),
                    st.recursive(ATOMS, _regex, max_leaves=8)).map("".join)
FLAGS = st.sampled_from([0, re.IGNORECASE, re.MULTILINE, re.DOTALL, re.IGNORECASE | re.MULTILINE,
                         re.ASCII, re.VERBOSE])
SUBJECTS = st.lists(st.text(alphabet="abcé\U0001f600 -.\n1_AB", max_size=24), min_size=1,
                    max_size=6)


def _match_view(m: re.Match | None):
    if m is None:
        return None
    return ([m.span(i) for i in range(m.re.groups + 1)], m.groups(), m.groupdict(), m.lastindex,
            m.lastgroup)


@settings(max_examples=300, deadline=None)
@given(REGEXES, FLAGS, SUBJECTS)
def test_a_rebuilt_pattern_is_re_compiles(source, flags, subjects):
    try:
        expected = re.compile(source, flags)
    except re.error:
        assume(False)
    # Through the plan's own encoding, as a check reads it.
    stored = msgspec.msgpack.encode(sre.compiled_form(source, flags))
    form = msgspec.msgpack.decode(stored, type=sre.CompiledPattern)
    rebuilt = sre.pattern(source, flags, form, sre.KEY)
    assert rebuilt == expected  # _sre compares flags and code words
    assert (rebuilt.pattern, rebuilt.flags, rebuilt.groups, rebuilt.groupindex) == (
        expected.pattern, expected.flags, expected.groups, expected.groupindex)
    for subject in subjects:
        assert _match_view(rebuilt.search(subject)) == _match_view(expected.search(subject))
        assert [_match_view(m) for m in rebuilt.finditer(subject)] == \
            [_match_view(m) for m in expected.finditer(subject)]


def test_another_pythons_form_is_not_used():
    form = sre.compiled_form("(a)+b", 0)
    other = msgspec.structs.replace(form, code=sre.compiled_form("x", 0).code)
    # Under another key the words are never handed to _sre: the source decides.
    elsewhere = "sre 0 2l cpython-99 9.9.9"
    assert sre.pattern("(a)+b", 0, other, elsewhere).search("aab").span() == (0, 3)
    assert sre.pattern("(a)+b", 0, None, sre.KEY).search("aab").span() == (0, 3)


def test_words_that_sre_refuses_fall_back_to_the_source():
    form = sre.compiled_form("(a)+b", 0)
    for code in (b"", form.code[:-1], form.code[:8], b"\xff" * len(form.code)):
        damaged = msgspec.structs.replace(form, code=code)
        assert sre.pattern("(a)+b", 0, damaged, sre.KEY).search("xaab").span() == (1, 4)
    named = sre.compiled_form("(?P<a>x)", 0)
    for groups, groupindex in ((1, {"a": 9}), (-5, {"a": 1})):
        damaged = msgspec.structs.replace(named, groups=groups, groupindex=groupindex)
        assert sre.pattern("(?P<a>x)", 0, damaged, sre.KEY) == re.compile("(?P<a>x)")


# -- the plan carries the forms; a check compiles none of them -----------------------------------

CONFIG = """\
protectedPaths: [".claude/hooks"]
disciplines:
  - id: "no-focused-tests"
    why: "a focused test hides the rest"
    enforce: block
    declare:
      mechanism: "added-only"
      scope: { source: "target.path", include: ["^src/"] }
      supply: { pre: "empty", post: "empty" }
      extract:
        before: [{ op: "source", of: "pre" }, { op: "lines" }, { op: "keyByPattern", re: '(\\.only\\()' }]
        after: [{ op: "source", of: "post" }, { op: "lines" }, { op: "keyByPattern", re: '(\\.only\\()' }]
        added: [{ op: "onlyIn", of: "after", notIn: "before" }]
      relate:
        - id: "nothing-added"
          relation: { op: "empty", of: "added" }
          message: "adds {key}"
"""
FOCUSED = {"toolCalls": [{"name": "Edit", "args": {"file_path": "src/a.test.ts"},
                          "fileChange": {"kind": "modify", "path": "src/a.test.ts",
                                         "pre": "it('a')\n", "post": "it.only('a')\n"}}],
           "subagentSpawns": [], "userMessages": []}


def _plan(project):
    raw = read_bytes(str(project.root / "polydeukes.config.yaml"), "polydeukes.config.yaml")
    key = planfile.plan_key("polydeukes.config.yaml", raw)
    return planfile.read_plan(str(project.root), key), key


def test_pdks_compile_stores_each_patterns_form(project):
    project.config(CONFIG)
    project.run("compile")
    plan, _ = _plan(project)
    assert plan.sre_key == sre.KEY and len(plan.compiled) == len(plan.patterns) > 0
    for pattern, form in zip(plan.patterns, plan.compiled):
        assert sre.pattern(pattern.source, pattern.flags, form, plan.sre_key) == \
            re.compile(pattern.source, pattern.flags)


def test_a_plan_from_another_python_judges_alike_and_explain_says_so(project):
    project.config(CONFIG)
    project.run("compile")
    own = project.check(FOCUSED, "--enforce", "block", "--telemetry-path", "own.log",
                        log=project.root / "own.log")
    own_listing = project.run("explain", "--code").stdout
    assert "patterns: compiled for" not in own_listing
    plan, key = _plan(project)
    foreign = msgspec.structs.replace(plan, sre_key="sre 20220615 4l cpython-312 3.12.0")
    (project.root / ".polydeukes" / "plan.bin").write_bytes(planfile.encode_plan(foreign, key))
    other = project.check(FOCUSED, "--enforce", "block", "--telemetry-path", "other.log",
                          log=project.root / "other.log")
    assert (other.code, other.stderr, other.rows) == (own.code, own.stderr, own.rows)
    assert own.code == 2 and [row[:3] for row in own.rows] == [
        ["blocked", "no-focused-tests", "src/a.test.ts"]]
    listing = project.run("explain", "--code").stdout.split("\n")
    # The one line more, right under the title; the listing is otherwise the same.
    assert listing[1] == SRE_FALLBACK.format(plan_key="sre 20220615 4l cpython-312 3.12.0",
                                             key=sre.KEY)
    assert "\n".join(listing[:1] + listing[2:]) == own_listing


PROBE = """
import io, json, re, sys, types
from re import _compiler
compiled = []
original = _compiler.compile
def recording(p, flags=0):
    compiled.append(p)
    return original(p, flags)
_compiler.compile = recording
sys.stdin = types.SimpleNamespace(buffer=io.BytesIO(sys.argv[1].encode()))
from polydeukes.cli import check, main
judge = check._judge_observation
def probed(*args):
    code = judge(*args)
    print(code, json.dumps(sorted(set(map(str, compiled)))), end='')
    return code
check._judge_observation = probed
main(['covenant', 'check', '--enforce', 'block'])
"""


def test_a_fresh_plan_compiles_none_of_its_patterns(project):
    project.config(CONFIG)
    project.run("compile")
    plan, _ = _plan(project)
    done = subprocess.run([sys.executable, "-c", PROBE, json.dumps(FOCUSED)], cwd=project.root,
                          capture_output=True, text=True)
    code, _, compiled = done.stdout.partition(" ")
    assert code == "2", done.stderr
    sources = {p.source for p in plan.patterns}
    assert sources and not sources & set(json.loads(compiled))


# -- the standard library's own patterns ride in the plan too ----------------------------------

ROSTER = {"mutating": ["Edit", "Write"], "shell": ["Bash"], "commandArgs": ["command"]}
READ = {"toolCalls": [{"name": "Bash", "args": {"command": "cat .claude/hooks/gate.sh | head -5"}}],
        "subagentSpawns": [], "userMessages": [], "tools": ROSTER}
DELETE = {"toolCalls": [{"name": "Bash", "args": {"command": "cd .claude && rm -rf hook*"}}],
          "subagentSpawns": [], "userMessages": [], "tools": ROSTER}


def _compiled_by(project, payload) -> tuple[str, set[str]]:
    done = subprocess.run([sys.executable, "-c", PROBE, json.dumps(payload)], cwd=project.root,
                          capture_output=True, text=True)
    code, _, compiled = done.stdout.partition(" ")
    assert code in ("0", "2"), done.stderr
    return code, set(json.loads(compiled))


def test_a_shell_check_rebuilds_the_tokenizers_patterns_from_the_plan(project):
    from polydeukes.stdlib.shell import paths, tokenizer

    project.config(CONFIG)
    project.run("compile")
    plan, _ = _plan(project)
    carried = {p.source: p for p in plan.carried}
    # The tokenizer's step and the path splitter the routing runs on every shell call.
    assert {tokenizer._STEP.source, paths._CANDIDATE_SPLIT.source} <= set(carried)
    for source, found in carried.items():
        assert sre.pattern(source, found.flags, found.form, plan.sre_key) == \
            re.compile(source, found.flags)
    for payload, verdict in ((READ, "0"), (DELETE, "2")):
        code, compiled = _compiled_by(project, payload)
        assert code == verdict
        assert not set(carried) & compiled


def _replaced(project, **fields) -> None:
    plan, key = _plan(project)
    replaced = msgspec.structs.replace(plan, **fields)
    (project.root / ".polydeukes" / "plan.bin").write_bytes(planfile.encode_plan(replaced, key))


def test_carried_forms_of_another_python_or_undecodable_compile_from_source(project):
    from polydeukes.stdlib.shell import tokenizer

    project.config(CONFIG)
    project.run("compile")
    own = [project.check(payload, "--enforce", "block", "--telemetry-path", "own.log",
                         log=project.root / "own.log") for payload in (READ, DELETE)]
    assert [result.code for result in own] == [0, 2]
    for fields in ({"sre_key": "sre 20220615 4l cpython-312 3.12.0"},
                   {"carried": [["not", "a", "form"], 7]}):
        project.run("compile")
        _replaced(project, **fields)
        assert tokenizer._STEP.source in _compiled_by(project, DELETE)[1]
        again = [project.check(payload, "--enforce", "block", "--telemetry-path", "other.log",
                               log=project.root / "other.log") for payload in (READ, DELETE)]
        assert [(r.code, r.stderr, r.rows) for r in again] == \
            [(r.code, r.stderr, r.rows) for r in own]
        (project.root / "other.log").unlink()
