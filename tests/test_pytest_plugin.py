"""The pytest plugin (api/pytest_plugin.py), run the way a project runs it: a pytest process in
a scratch project (pytester's subprocess mode), which finds the plugin through the installed
distribution's `pytest11` entry point, as after `pip install polydeukes`. (In-process runs
would re-import polydeukes beside the outer session's copy: not what any user runs.)"""

from __future__ import annotations

import pytest

from conftest import RUNGS as CONFIG

from polydeukes.cli.scaffold import STARTER_TESTS



@pytest.fixture
def scratch(pytester: pytest.Pytester) -> pytest.Pytester:
    (pytester.path / "polydeukes.config.yaml").write_text(CONFIG, encoding="utf-8")
    return pytester


def _cases(pytester: pytest.Pytester, text: str) -> None:
    (pytester.path / "polydeukes.tests.yaml").write_text(text, encoding="utf-8")


def test_the_plugin_is_registered_by_its_entry_point():
    from importlib.metadata import entry_points

    (found,) = [e for e in entry_points(group="pytest11") if e.name == "polydeukes"]
    assert found.value == "polydeukes.pytest_plugin"


def test_the_plugin_collects_where_pdks_test_looks():
    import os

    from polydeukes import casefile, pytest_plugin

    assert (pytest_plugin.CASES_FILE,) == casefile.DEFAULT_FILES
    assert pytest_plugin.CASES_FOLDER == casefile.DEFAULT_FOLDER.replace(os.sep, "/")


def test_each_case_is_one_item_with_its_id(scratch):
    _cases(scratch, STARTER_TESTS)
    result = scratch.runpytest_subprocess("-v")
    result.stdout.fnmatch_lines([
        "polydeukes.tests.yaml::an ordinary edit goes through PASSED*",
        "polydeukes.tests.yaml::the agent may not rewrite its hook settings PASSED*",
    ])
    result.assert_outcomes(passed=6)


FAILING = """\
cases:
  - name: passes
    write: {path: src/debug.ts, content: "debugger;\\n"}
    expect: {no-debugger-statements: blocked}
  - name: expects the wrong event
    write: {path: src/debug.ts, content: "debugger;\\n"}
    expect: {no-debugger-statements: passed}
    exit: 0
"""


def test_a_failing_case_reports_its_yaml_location_and_diff(scratch):
    _cases(scratch, FAILING)
    result = scratch.runpytest_subprocess("-q", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines([
        "*polydeukes.tests.yaml:5: expects the wrong event",
        "- no-debugger-statements: passed",
        "+ no-debugger-statements: blocked · src/debug.ts · relate nothing-added",
        "+     discipline 'no-debugger-statements' broken on src/debug.ts: adds debugger: *",
        "- exit: 0",
        "+ exit: 2",
        "FAILED polydeukes.tests.yaml::expects the wrong event*",
    ])


def test_a_broken_case_file_is_a_collection_error(scratch):
    _cases(scratch, "cases:\n  - {name: a, bash: ls, x: 1}\n")
    result = scratch.runpytest_subprocess("-q")
    result.stdout.fnmatch_lines(["*cases[[]0[]]: Object contains unknown field `x` "
                                 "(at polydeukes.tests.yaml:2:25)*"])
    assert result.ret == pytest.ExitCode.INTERRUPTED


def test_folders_come_from_the_ini_option(scratch):
    scratch.makeini("[pytest]\npolydeukes_tests = checks/covenants\n")
    folder = scratch.mkpydir("checks") / "covenants"
    folder.mkdir()
    (folder / "debug.yaml").write_text(FAILING.split("  - name: expects")[0])
    (scratch.path / "other.yaml").write_text("not: a case file\n")
    result = scratch.runpytest_subprocess("-q")
    result.assert_outcomes(passed=1)


def test_the_pdks_fixture(scratch):
    scratch.makepyfile(test_python="""
        from pathlib import Path

        def test_project_config(pdks):
            verdict = pdks.check(write={"path": "src/debug.ts", "content": "debugger;\\n"})
            assert verdict.exit_code == 2 and verdict.blocked
            assert verdict.reason.startswith("discipline 'no-debugger-statements' broken")
            assert [r.event for r in verdict.of("no-debugger-statements")] == ["blocked"]

        def test_inline_config_text(pdks):
            verdict = pdks.check(bash="ls", config="languages: {}\\n")
            assert (verdict.exit_code, verdict.blocked, verdict.reason) == (0, False, None)
            assert [r.label for r in verdict.rows] == ["covenant-check"]

        def test_inline_config_data_and_session(pdks):
            config = {"protectedPaths": ["secrets"], "witness": {"token": "ok", "ttlMinutes": 5}}
            opened = pdks.check(write={"path": "secrets/k", "content": "x"}, config=config,
                                user_says=["ok"])
            assert opened.exit_code == 0 and opened.of("self-mod")[0].event == "witnessed"

        def test_config_file(pdks, tmp_path):
            (tmp_path / "c.yaml").write_text("protectedPaths: [docs]\\n")
            verdict = pdks.check(edit={"path": "docs/a.md", "before": "a", "after": "b"},
                                 config=tmp_path / "c.yaml")
            assert verdict.blocked and verdict.of("self-mod")[0].subject == "docs"

        def test_bad_arguments(pdks):
            import pytest
            with pytest.raises(ValueError, match="exactly one of"):
                pdks.check(bash="ls", write={"path": "a", "content": ""})
            with pytest.raises(ValueError, match="unknown field"):
                pdks.check(bash="ls", colour="red")
    """)
    scratch.runpytest_subprocess("-q").assert_outcomes(passed=5)
