"""The pytest plugin (entry point `pytest11`: installed with polydeukes, loaded by every pytest).

* Collects covenant test files — `polydeukes.tests.yaml` anywhere, and the *.yaml / *.yml files
  of the folders named by the ini option `polydeukes_tests` (default `tests/covenants`) — as
  one pytest item per case, failing with the same diff `pdks test` prints and pointing at the
  case's line.
* Offers the `pdks` fixture for tests written in Python:

      def test_focused_tests_are_blocked(pdks):
          verdict = pdks.check(edit={"path": "src/a.test.ts", "before": "it('a')\\n",
                                     "after": "it.only('a')\\n"})
          assert verdict.blocked and "focused" in verdict.reason

Nothing heavy is imported until a covenant file is collected or the fixture is used: pytest
loads this module in every project where polydeukes is installed.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

_SUITE = pytest.StashKey[Any]()
# polydeukes.casefile's default places, spelled again here so that loading the plugin (in every
# pytest run where polydeukes is installed) imports nothing; a test holds the two together.
CASES_FILE = "polydeukes.tests.yaml"
CASES_FOLDER = "tests/covenants"


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addini("polydeukes_tests", type="linelist", default=[CASES_FOLDER],
                  help="folders (relative to rootdir) whose *.yaml files are covenant test files")
    parser.addini("polydeukes_config", default="",
                  help="the config covenant cases judge (default: the project's own)")


def pytest_collect_file(file_path: Path, parent: pytest.Collector):
    if file_path.name == CASES_FILE or _in_case_folder(file_path, parent.config):
        return CovenantFile.from_parent(parent, path=file_path)
    return None


def _in_case_folder(file_path: Path, config: pytest.Config) -> bool:
    if file_path.suffix not in (".yaml", ".yml"):
        return False
    folders = [config.rootpath / folder for folder in config.getini("polydeukes_tests")]
    return any(file_path.parent == folder for folder in folders)


def _suite(config: pytest.Config):
    suite = config.stash.get(_SUITE, None)
    if suite is None:
        from polydeukes.testing import Suite

        default = config.getini("polydeukes_config") or None
        suite = config.stash[_SUITE] = Suite(str(config.rootpath), default)
        config.add_cleanup(suite.close)
    return suite


class CovenantFile(pytest.File):
    def collect(self):
        from polydeukes.casefile import CaseFileError, load_file

        root = str(self.config.rootpath)
        try:
            loaded = load_file(root, os.path.relpath(self.path, root))
        except CaseFileError as exc:
            raise self.CollectError(str(exc)) from None
        for case in loaded.cases:
            yield CovenantCase.from_parent(self, name=case.case.name, loaded=case,
                                           config_path=loaded.config)


class CaseFailed(Exception):
    pass


class CovenantCase(pytest.Item):
    def __init__(self, *, loaded, config_path: str | None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.loaded = loaded
        self.config_path = config_path

    def runtest(self) -> None:
        from polydeukes.testing import ConfigUnusable, differences

        suite = _suite(self.config)
        try:
            verdict, root = suite.judge(self.loaded.case, self.config_path)
        except ConfigUnusable as exc:
            raise CaseFailed(str(exc)) from None
        diff = differences(self.loaded.case, verdict, root)
        if diff:
            raise CaseFailed("\n".join(diff))

    def repr_failure(self, excinfo, style=None):
        if isinstance(excinfo.value, CaseFailed):
            return f"{self.loaded.where}: {self.loaded.case.name}\n{excinfo.value}"
        return super().repr_failure(excinfo, style=style)

    def reportinfo(self):
        return self.path, self.loaded.line - 1, f"covenant case: {self.name}"


def pytest_terminal_summary(terminalreporter, exitstatus, config: pytest.Config) -> None:
    suite = config.stash.get(_SUITE, None)
    for line in suite.faults if suite is not None else ():
        terminalreporter.write_line(f"polydeukes: {line}")


class CovenantFixture:
    """`pdks.check(<one call form>=..., config=..., **case)`: one covenant case, judged now.

    The keywords are a test file's case keys (edit, write, delete, bash, diff, ir, files,
    user_says, prior_calls, spawns, actor, enforce, unattended). `config` is None (the
    project's config, found at pytest's rootdir), a path (os.PathLike) to a config file, YAML
    text (str) or config data (dict). Returns a polydeukes.Verdict: exit_code, rows, stderr,
    blocked, reason.
    """

    def __init__(self, suite) -> None:
        self._suite = suite

    def check(self, *, config: Any = None, **case: Any):
        import msgspec

        from polydeukes.casefile import Case

        try:
            parsed = msgspec.convert({"name": "pdks.check", **case}, Case)
        except msgspec.ValidationError as exc:
            raise ValueError(f"pdks.check: {exc}") from None
        forms = [name for name in ("edit", "write", "delete", "bash", "diff", "ir")
                 if getattr(parsed, name) is not None]
        if len(forms) != 1:
            raise ValueError("pdks.check takes exactly one of edit, write, delete, bash, diff, ir")
        verdict, _ = self._suite.judge(parsed, self._config_key(config))
        return verdict

    def _config_key(self, config: Any):
        if config is None:
            return None
        if isinstance(config, os.PathLike):
            return os.fspath(config)
        if isinstance(config, dict):
            import json

            config = json.dumps(config)
        if not isinstance(config, str):
            raise TypeError("config is a path (os.PathLike), YAML text (str) or data (dict)")
        return self._suite.inline(config)


@pytest.fixture
def pdks(request: pytest.FixtureRequest) -> CovenantFixture:
    return CovenantFixture(_suite(request.config))
