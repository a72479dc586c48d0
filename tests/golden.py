"""Golden files: expected output checked in beside the tests and compared byte for byte.

There is one way to refresh them: `pytest --update-golden`. A refresh run writes every golden
file its tests produce (only those whose text changed) and then fails the session, listing the
files it wrote, so a refresh can never pass CI by accident; rerun without the flag to see the
suite pass against the new files. No environment variable changes any of this.

This module is a pytest plugin (tests/conftest.py loads it with `pytest_plugins`), so the flag
and the failing session come with `check` wherever it is used.
"""

from __future__ import annotations

from pathlib import Path

import pytest

OPTION = "--update-golden"
_state: dict = {"refreshing": False, "written": []}


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(OPTION, action="store_true",
                     help="rewrite golden files from current output (the run then fails)")


def pytest_configure(config: pytest.Config) -> None:
    _state["refreshing"] = bool(config.getoption(OPTION))
    _state["written"] = []


def pytest_sessionfinish(session: pytest.Session) -> None:
    if _state["refreshing"]:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_terminal_summary(terminalreporter) -> None:  # noqa: ANN001 - pytest's reporter
    if not _state["refreshing"]:
        return
    written = _state["written"]
    terminalreporter.section("golden files")
    for path in written:
        terminalreporter.write_line(f"rewritten: {path}")
    terminalreporter.write_line(
        f"{len(written)} golden file(s) rewritten; a --update-golden run always fails: "
        "review the diff, then rerun without the flag")


def refreshing() -> bool:
    return _state["refreshing"]


def check(path: Path, actual: str) -> None:
    """Assert `actual` is the golden file's text; under --update-golden, write it instead."""
    if _state["refreshing"]:
        if not path.exists() or path.read_bytes() != actual.encode("utf-8"):
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(actual.encode("utf-8"))
            _state["written"].append(path)
        return
    assert path.exists(), f"no golden file {path}; write it with: pytest {OPTION}"
    assert actual == path.read_bytes().decode("utf-8"), f"differs from the golden file {path}"
