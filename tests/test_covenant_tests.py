"""`pdks test` and the covenant test-file format (api/casefile.py, api/testing.py, api/update.py).

Through the real `pdks` process where the command line is the subject (exit codes, stdout,
stderr, the starter scaffold); in-process (`polydeukes.testing.main`) for the runner's
behaviour over many files.
"""

from __future__ import annotations

import json
import os
import pty
import re
import subprocess
from pathlib import Path
from xml.etree import ElementTree

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

import golden
from conftest import PDKS, RUNGS, uncommented

from polydeukes.casefile import CaseFileError, load_file
from polydeukes.cli.scaffold import STARTER_TESTS
from polydeukes.claude_code import ROSTER, edit_post
from polydeukes.shorthand import deletion_diff, expand, replacement
from polydeukes.testing import main

REPO = Path(__file__).parent.parent



def uncommented_tests() -> str:
    return uncommented(STARTER_TESTS, "#   - name: an added focused")


class Run:
    def __init__(self, root: Path) -> None:
        self.root = root
        self.out: list[str] = []
        self.err: list[str] = []

    def __call__(self, *paths: str, config=None, pattern=None, junit=None, update=False,
                 answer=None) -> int:
        self.out, self.err = [], []
        return main(str(self.root), list(paths), config=config, pattern=pattern, junit=junit,
                    update=update, out=self.out.append, err=self.err.append,
                    ask=lambda question: answer)


@pytest.fixture
def run(project) -> Run:
    return Run(project.root)


# -- the starter scaffold ---------------------------------------------------------------------


def test_init_writes_a_starter_test_file_whose_cases_pass(project):
    created = project.run("init")
    assert created.stdout == ("created polydeukes.config.yaml\ncreated .gitignore\n"
                              "created polydeukes.tests.yaml\n")
    result = project.run("test")
    assert (result.code, result.stderr) == (0, "")
    assert re.fullmatch(r"6 passed in \d+\.\d\ds\n", result.stdout)
    assert result.rows == [] and not (project.root / ".polydeukes").exists()
    again = project.run("init")
    assert "skipped polydeukes.tests.yaml (already present)" in again.stdout


def test_the_commented_rungs_pass_once_adopted(project, run):
    project.config(RUNGS)
    project.write("polydeukes.tests.yaml", uncommented_tests())
    assert run() == 0, run.out
    assert run.out[-1].startswith("8 passed")


def test_init_beside_an_existing_config_writes_no_starter_cases(project):
    project.config("languages: {}\n")
    assert "polydeukes.tests.yaml" not in project.run("init").stdout
    assert not (project.root / "polydeukes.tests.yaml").exists()


# -- failures, and what they print ------------------------------------------------------------

CONFIG = RUNGS
CASES = """\
cases:
  - name: focused test, advised
    edit: {path: src/a.test.ts, before: "it('a');\\n", after: "it.only('a');\\n"}
    expect: {no-focused-tests: advised}
    exit: 0
  - name: wrong event
    write: {path: src/debug.ts, content: "debugger;\\n"}
    expect: {no-debugger-statements: advised}
    exit: 0
  - name: not routed
    bash: "ls src"
    expect: {no-debugger-statements: not-routed, shell-mod: not-routed}
"""


def test_a_failing_case_prints_its_location_and_a_diff(project):
    project.config(CONFIG)
    project.write("polydeukes.tests.yaml", CASES)
    result = project.run("test")
    assert result.code == 1 and result.stderr == ""
    lines = result.stdout.split("\n")
    assert lines[:6] == [
        "polydeukes.tests.yaml:6: FAIL wrong event",
        "  - no-debugger-statements: advised",
        "  + no-debugger-statements: blocked · src/debug.ts · relate nothing-added",
        "  +     discipline 'no-debugger-statements' broken on src/debug.ts: adds debugger: "
        "debugger; — why: a debugger statement must not reach shared source.",
        "  - exit: 0",
        "  + exit: 2",
    ]
    assert re.fullmatch(r"1 failed, 2 passed in \d+\.\d\ds", lines[6]) and lines[7:] == [""]


def test_k_selects_cases_by_name_and_junit_reports_them(project, run):
    project.config(CONFIG)
    project.write("polydeukes.tests.yaml", CASES)
    junit = project.root / "report.xml"
    assert run(pattern="EVENT", junit=str(junit)) == 1
    suite = ElementTree.parse(junit).getroot().find("testsuite")
    assert (suite.get("tests"), suite.get("failures")) == ("1", "1")
    case = suite.find("testcase")
    assert (case.get("name"), case.get("file"), case.get("line")) == (
        "wrong event", "polydeukes.tests.yaml", "6")
    assert case.find("failure").text.startswith("polydeukes.tests.yaml:6: FAIL wrong event\n")
    assert run(pattern="routed") == 0
    assert run(pattern="nothing like it") == 2
    assert run.err == ["pdks test: no case matches -k nothing like it"]


@pytest.mark.parametrize("expect,holds", [
    ("{no-focused-tests: advised}", True),
    ("{no-focused-tests: [advised]}", True),
    ("{no-focused-tests: [advised, advised]}", False),
    ("{no-focused-tests: {event: advised, relate: nothing-added}}", True),
    ("{no-focused-tests: {event: advised, relate: something-else}}", False),
    ("{no-focused-tests: {event: advised, subject: src/a.test.ts}}", True),
    ("{no-focused-tests: {event: advised, subject: src/b.test.ts}}", False),
    ("{no-focused-tests: {event: advised, message: \"adds .only(\"}}", True),
    ("{no-focused-tests: {event: advised, message: \"removes\"}}", False),
    ("{no-focused-tests: not-routed}", False),
    ("{no-debugger-statements: not-routed}", False),
    ("{shell-mod: not-routed, covenant-check: not-routed}", True),
    ("{self-mod: passed}", False),
])
def test_expectations_hold_exactly_when_the_rows_say_so(project, run, expect, holds):
    project.config(CONFIG)
    project.write("polydeukes.tests.yaml", (
        "cases:\n  - name: c\n    edit: {path: src/a.test.ts, before: \"it('a');\\n\", "
        f"after: \"it.only('a');\\n\"}}\n    expect: {expect}\n"))
    assert run() == (0 if holds else 1), run.out


def test_skip_reasons_and_witnessed_rows(project, run):
    project.config(CONFIG + """\
  - id: version-frozen
    declare:
      mechanism: self-absolution-ban
      supply: {state: pass}
      extract:
        v: [{op: source, of: state}, {op: lines}, {op: keyByPattern, re: '^(version):'}]
      relate:
        - {id: same, relation: {op: unchanged, of: v}, message: 'moved'}
""")
    project.write("polydeukes.tests.yaml", """\
cases:
  - name: a creation has no pre-state to compare
    write: {path: pkg.yaml, content: "version: 2\\n"}
    expect: {version-frozen: {event: skipped, reason: supply-pass}}
  - name: the token opens the debugger block
    write: {path: src/debug.ts, content: "debugger;\\n"}
    user_says: [{text: "pdks witness", ago: 9m}]
    expect: {no-debugger-statements: witnessed}
    exit: 0
  - name: but not once it is stale
    write: {path: src/debug.ts, content: "debugger;\\n"}
    user_says: [{text: "pdks witness", ago: 601000}]
    expect: {no-debugger-statements: blocked}
    exit: 2
  - name: nor when nobody is there
    write: {path: src/debug.ts, content: "debugger;\\n"}
    user_says: ["pdks witness"]
    unattended: true
    expect: {no-debugger-statements: blocked}
  - name: at advise a block-level entry is advised
    write: {path: src/debug.ts, content: "debugger;\\n"}
    enforce: advise
    expect: {no-debugger-statements: advised}
    exit: 0
  - name: deleting a protected file, on the change-set surface
    delete: {path: .claude/settings.json, before: "{}\\n"}
    expect: {self-mod: blocked, no-debugger-statements: not-routed}
    exit: 2
""")
    assert run() == 0, run.out


# -- broken test files and configs: exit 2 with a location ------------------------------------


@pytest.mark.parametrize("text,message", [
    ("cases: [\n", r"pdks test: cannot read polydeukes\.tests\.yaml: .* "
                   r"\(at polydeukes\.tests\.yaml:2:1\)"),
    ("cases:\n  - name: a\n    bash: ls\n    expekt: {}\n",
     r"pdks test: polydeukes\.tests\.yaml: cases\[0\]: Object contains unknown field `expekt` "
     r"\(at polydeukes\.tests\.yaml:4:5\)"),
    ("cases:\n  - name: a\n    bash: ls\n    edit: {path: a, after: b}\n",
     r"pdks test: case 'a' needs exactly one of edit, write, delete, bash, diff, ir "
     r"\(found edit, bash\) \(at polydeukes\.tests\.yaml:2:5\)"),
    ("cases:\n  - {name: a, bash: ls}\n  - {name: a, bash: pwd}\n",
     r"pdks test: case name 'a' is used twice in polydeukes\.tests\.yaml "
     r"\(at polydeukes\.tests\.yaml:3:12\)"),
    ("cases:\n  - name: a\n    bash: ls\n    expect:\n      self-mod: blocked\n      x: nope\n",
     r"pdks test: polydeukes\.tests\.yaml: cases\[0\]\.expect\.x: Invalid enum value 'nope' "
     r"\(at polydeukes\.tests\.yaml:6:10\)"),
    ("cases:\n  - {name: a, bash: ls, user_says: [{text: hi, ago: soon}]}\n",
     r"pdks test: case 'a' user_says\[0\]\.ago must be a duration .* "
     r"\(at polydeukes\.tests\.yaml:2:53\)"),
    ("cases:\n  - {name: a, bash: ls, exit: 1}\n",
     r"pdks test: polydeukes\.tests\.yaml: cases\[0\]\.exit: Invalid enum value 1 "
     r"\(at polydeukes\.tests\.yaml:2:31\)"),
])
def test_a_broken_test_file_exits_2_naming_where(project, run, text, message):
    project.config(CONFIG)
    project.write("polydeukes.tests.yaml", text)
    assert run() == 2 and run.out == []
    assert len(run.err) == 1 and re.fullmatch(message, run.err[0]), run.err


def test_a_fifo_as_the_test_file_is_refused_not_waited_on(project, run):
    project.config(CONFIG)
    (project.root / "tests" / "covenants").mkdir(parents=True)
    os.mkfifo(project.root / "tests" / "covenants" / "pipe.yaml")  # no writer: open() waits
    assert run() == 2 and run.out == []
    assert run.err == ["pdks test: cannot read tests/covenants/pipe.yaml: it is a FIFO, not a "
                       "regular file"]


def test_a_config_that_does_not_load_exits_2_with_its_location(project):
    project.config("languages: {}\nbogus: 1\n")
    project.write("polydeukes.tests.yaml", "cases:\n  - {name: a, bash: ls}\n")
    result = project.run("test")
    assert (result.code, result.stdout) == (2, "")
    assert result.stderr == ("pdks test: invalid config in polydeukes.config.yaml: unknown key "
                             "'bogus' in config (at polydeukes.config.yaml:2:1)\n")


def test_no_test_files_is_not_a_pass(project, run):
    project.config(CONFIG)
    assert run() == 2
    assert run.err[0].startswith("pdks test: no covenant test files")
    assert run("missing.yaml") == 2 and run.err == ["pdks test: no such test file or folder: "
                                                    "missing.yaml"]


def test_a_config_fault_is_named_once_with_its_location(project, run):
    project.config(CONFIG + """\
  - id: uses-grep
    declare:
      mechanism: added-only
      extract:
        a: [{op: source, of: post}, {op: grep}]
      relate: [{id: r, relation: {op: empty, of: a}, message: m}]
""")
    project.write("polydeukes.tests.yaml", "cases:\n  - name: a\n    write: {path: src/x.ts, "
                  "content: x}\n    expect: {uses-grep: blocked}\n  - {name: b, bash: ls}\n")
    assert run() == 1
    fault = [line for line in run.err if "uses-grep" in line]
    assert len(fault) == 1 and fault[0].startswith(
        "pdks test: discipline 'uses-grep': uses-grep extract a: 'grep' is not a registered")
    line = CONFIG.count("\n") + 5
    assert fault[0].endswith(f" — skipped, not judged (at polydeukes.config.yaml:{line}:37)")
    assert run.out[0] == ("polydeukes.tests.yaml:2: FAIL a\n  - uses-grep: blocked\n"
                          "  + uses-grep: not-routed")


def test_files_folders_and_each_files_own_config(project, run):
    project.config("languages: {}\n")  # the project's own: no disciplines
    project.write("configs/strict.yaml", CONFIG)
    project.write("tests/covenants/strict.yaml", (
        "config: ../../configs/strict.yaml\ncases:\n  - name: debugger blocked\n"
        "    write: {path: src/d.ts, content: \"debugger;\\n\"}\n"
        "    expect: {no-debugger-statements: blocked}\n"))
    project.write("tests/covenants/plain.yml", (
        "cases:\n  - name: debugger passes without the discipline\n"
        "    write: {path: src/d.ts, content: \"debugger;\\n\"}\n"
        "    expect: {no-debugger-statements: not-routed, covenant-check: passed}\n"))
    assert run() == 0, run.out
    assert run.out[-1].startswith("2 passed")
    assert run("tests/covenants/plain.yml", config="configs/strict.yaml") == 1


def test_cases_run_in_their_own_tree_and_write_nothing(project, run):
    """`files` are the case's working tree; the project's files are never read or written."""
    project.config(CONFIG.replace("disciplines:\n", """disciplines:
  - id: en-ko-keys
    declare:
      mechanism: pairing
      sources: {en: {file: en.json}, ko: {file: ko.json}}
      extract:
        e: [{op: source, of: en}, {op: json}, {op: flattenKeys}]
        k: [{op: source, of: ko}, {op: json}, {op: flattenKeys}]
      relate: [{id: same, relation: {op: equal, of: [e, k]}, message: 'missing {value}'}]
""", 1))
    project.write("en.json", '{"a": 1}')  # the project's own files would pass
    project.write("ko.json", '{"a": 1}')
    project.write("polydeukes.tests.yaml", """\
cases:
  - name: the case's own files break the pairing
    files: {en.json: '{"a": 1, "b": 2}', ko.json: '{"a": 1}'}
    write: {path: src/x.ts, content: "x\\n"}
    expect: {en-ko-keys: {event: advised, message: "missing b"}}
  - name: without files the sources are absent
    write: {path: src/x.ts, content: "x\\n"}
    expect: {en-ko-keys: blocked}
""")
    before = sorted(p.relative_to(project.root) for p in project.root.rglob("*"))
    assert run() == 0, run.out
    assert sorted(p.relative_to(project.root) for p in project.root.rglob("*")) == before


# -- --update ---------------------------------------------------------------------------------

UPDATE_CASES = """\
# A comment that must survive.
cases:
  - name: keeps its style
    write: {path: src/debug.ts, content: "debugger;\\n"}
    expect: {no-debugger-statements: advised}   # trailing comment
    exit: 0
  # between the cases
  - name: already right
    bash: ls
    expect: {shell-mod: not-routed}
  - name: block style
    edit: {path: src/a.test.ts, before: "it('a');\\n", after: "it.only('a');\\n"}
    expect:
      no-focused-tests:
        event: passed
        relate: wrong
      self-mod: passed
    # after the block
  - name: nothing expected yet
    write: {path: .claude/settings.json, content: "{}"}
"""


def test_update_refuses_without_a_terminal(project, run):
    project.config(CONFIG)
    project.write("polydeukes.tests.yaml", UPDATE_CASES)
    assert run(update=True, answer=None) == 2
    assert run.err == ["pdks test: --update asks before rewriting a test file, and stdin is "
                       "not a terminal — nothing rewritten"]
    assert (project.root / "polydeukes.tests.yaml").read_text() == UPDATE_CASES
    assert run(update=True, answer=False) == 1
    assert (project.root / "polydeukes.tests.yaml").read_text() == UPDATE_CASES


def test_update_rewrites_only_the_failing_expectations(project, run):
    project.config(CONFIG)
    project.write("polydeukes.tests.yaml", UPDATE_CASES)
    assert run(update=True, answer=True) == 0, run.out
    assert "updated 3 case(s) in polydeukes.tests.yaml" in run.out
    assert (project.root / "polydeukes.tests.yaml").read_text() == """\
# A comment that must survive.
cases:
  - name: keeps its style
    write: {path: src/debug.ts, content: "debugger;\\n"}
    expect: {no-debugger-statements: blocked}   # trailing comment
    exit: 2
  # between the cases
  - name: already right
    bash: ls
    expect: {shell-mod: not-routed}
  - name: block style
    edit: {path: src/a.test.ts, before: "it('a');\\n", after: "it.only('a');\\n"}
    expect:
      no-focused-tests: {event: advised, relate: nothing-added}
      self-mod: not-routed
    # after the block
  - name: nothing expected yet
    write: {path: .claude/settings.json, content: "{}"}
    expect: {self-mod: blocked, shell-mod: passed}
    exit: 2
"""


def test_update_asks_on_a_terminal(project):
    """The command line's own prompt, answered on a pseudo-terminal."""
    project.config(CONFIG)
    project.write("polydeukes.tests.yaml", UPDATE_CASES)
    pid, fd = pty.fork()
    if pid == 0:  # pragma: no cover - the child
        os.chdir(project.root)
        os.execv(PDKS[0], [*PDKS, "test", "--update"])
    output = b""
    answered = False
    while True:
        try:
            chunk = os.read(fd, 4096)
        except OSError:
            break
        if not chunk:
            break
        output += chunk
        if not answered and b"[y/N] " in output:
            os.write(fd, b"y\n")
            answered = True
    _, status = os.waitpid(pid, 0)
    text = output.decode()
    assert answered and os.waitstatus_to_exitcode(status) == 0, text
    assert "rewrite the expectations of 3 failing case(s) in polydeukes.tests.yaml" in text
    assert "updated 3 case(s)" in text and "4 passed" in text


# -- the format's parser and the shorthands ---------------------------------------------------


def test_the_shipped_test_file_schema_is_the_generated_one():
    from polydeukes.casefile import schema
    from polydeukes.compiler.config_schema import render

    golden.check(REPO / "stdlib" / "schemas" / "polydeukes-tests.schema.json", render(schema()))


def test_the_schema_agrees_with_the_loader_on_the_starter_and_the_broken_files(tmp_path):
    import jsonschema
    import yaml

    from polydeukes.casefile import schema

    validator = jsonschema.Draft202012Validator(schema())
    assert list(validator.iter_errors(yaml.safe_load(STARTER_TESTS))) == []
    assert list(validator.iter_errors(yaml.safe_load(UPDATE_CASES))) == []
    for text in ("cases:\n  - {name: a, bash: ls, edit: {path: a}}\n",
                 "cases:\n  - {name: a}\n", "cases:\n  - {name: a, bash: ls, exit: 1}\n",
                 "cases:\n  - {name: a, bash: ls, expect: {x: nope}}\n"):
        (tmp_path / "t.yaml").write_text(text)
        with pytest.raises(CaseFileError):
            load_file(str(tmp_path), "t.yaml")
        assert list(validator.iter_errors(yaml.safe_load(text))), text


_scalars = st.none() | st.booleans() | st.integers(-1, 3) | st.sampled_from(
    ["", "ls", "src/a.ts", "5m", "soon", "blocked", "passed", "not-routed", "nope"])
_valid_cases = st.fixed_dictionaries(
    {"name": st.sampled_from(["a", "b", "c d"])},
    optional={"expect": st.dictionaries(st.sampled_from(["self-mod", "x"]),
                                        st.sampled_from(["passed", "blocked", "not-routed"]),
                                        max_size=2),
              "exit": st.sampled_from([0, 2]),
              "user_says": st.lists(st.sampled_from(["hi", {"text": "hi", "ago": "5m"}]),
                                    max_size=2)},
).flatmap(lambda case: st.sampled_from([
    {**case, "bash": "ls"}, {**case, "write": {"path": "a", "content": "x"}},
    {**case, "edit": {"path": "a", "before": "x", "after": "y"}}]))


@st.composite
def _case_files(draw) -> object:
    """A loading case file (a list of distinct cases), broken in one place half of the time."""
    cases = draw(st.lists(_valid_cases, min_size=1, max_size=3, unique_by=lambda c: c["name"]))
    document = {"cases": cases}
    if draw(st.booleans()):
        case = draw(st.sampled_from(cases))
        key = draw(st.sampled_from(["bash", "edit", "exit", "expect", "name", "colour", "cases"]))
        if key == "cases":
            document["cases"] = draw(_scalars)
        else:
            case[key] = draw(_scalars)
    return document


@settings(max_examples=150, deadline=None)
@given(_case_files())
def test_the_loader_answers_any_document_with_cases_or_one_located_error(tmp_path_factory, data):
    root = tmp_path_factory.mktemp("casefile")
    (root / "t.yaml").write_text(json.dumps(data), encoding="utf-8")
    try:
        loaded = load_file(str(root), "t.yaml")
    except CaseFileError as exc:
        event("refused, located" if " (at t.yaml:" in str(exc) else "refused")
        assert "\n" not in str(exc) and str(exc).count(" (at t.yaml:") <= 1
    else:
        event("loaded")
        assert [case.case.name for case in loaded.cases] == [c["name"] for c in data["cases"]]
        assert all(case.case.form() in ("edit", "write", "delete", "bash", "diff", "ir")
                   for case in loaded.cases)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=12, alphabet="ab\n"), st.text(max_size=12, alphabet="ab\n"))
def test_an_edit_shorthand_is_an_edit_the_host_accepts(before, after):
    old, new = replacement(before, after)
    post = edit_post(before, {"old_string": old, "new_string": new})
    event("an edit exists" if before and before != after else "no edit can")
    if before and before != after:
        assert post == after  # Claude Code's Edit rules turn before into after
    else:
        assert post is None  # no Edit makes a file from nothing, or changes nothing


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=20, alphabet="ab \n\\+-"))
def test_a_delete_shorthand_is_the_diff_git_writes(before):
    from polydeukes.stdlib.diff import diff_to_input

    ir = diff_to_input(deletion_diff("src/gone.txt", before))
    (call,) = ir["toolCalls"]
    lines = before.split("\n")
    if before.endswith("\n"):
        lines.pop()
    assert call["name"] == "staged-delete" and call["fileChange"] == {
        "kind": "delete", "path": "src/gone.txt", "pre": "\n".join(lines)}


def test_session_shorthands_expand_to_the_claude_code_ir(tmp_path):
    import msgspec

    from polydeukes.casefile import Case

    case = msgspec.convert({
        "name": "x", "edit": {"path": "src/a.ts", "before": "a\nb\n", "after": "a\nc\n"},
        "user_says": [{"text": "pdks witness", "ago": "2m"}],
        "prior_calls": [{"name": "Bash", "args": {"command": "npm test"}}],
        "spawns": ["reviewer"], "actor": "implementer"}, Case)
    root = str(tmp_path / "tree")
    os.mkdir(root)
    ir = json.loads(expand(case, root, now_ms=1_760_000_000_000,
                           sessions=str(tmp_path / "sessions")).raw)
    transcript = str(tmp_path / "sessions" / "covenant-test.jsonl")
    assert ir == {
        "toolCalls": [{"name": "Edit", "args": {
            "file_path": f"{root}/src/a.ts", "old_string": "b", "new_string": "c"},
            "fileChange": {"kind": "modify", "path": f"{root}/src/a.ts", "pre": "a\nb\n",
                           "post": "a\nc\n"}}],
        "subagentSpawns": [], "userMessages": [], "actor": {"agentType": "implementer"},
        "tools": ROSTER,
        "session": {"evidencePath": transcript,
                    "userMessages": [{"text": "pdks witness", "timestampMs": 1_759_999_880_000}],
                    "toolCalls": [{"name": "Bash", "args": {"command": "npm test"},
                                   "succeeded": True}],
                    "channels": {"sidecar": '[{"agentType":"reviewer"}]'}},
    }


def test_pdks_test_usage(project):
    result = project.run("test", "--bogus")
    assert result.code == 2 and result.stderr.startswith("usage: pdks covenant check")


def test_the_cli_runs_in_a_subprocess_like_ci(project):
    project.run("init")
    done = subprocess.run([*PDKS, "test", "--junit-xml", "out.xml"], cwd=project.root,
                          capture_output=True, text=True, stdin=subprocess.DEVNULL)
    assert done.returncode == 0 and (project.root / "out.xml").exists()
