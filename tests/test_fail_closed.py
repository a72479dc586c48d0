"""A crash inside judging blocks (spec 05 §3.7): exit 2, one stderr line, a `blocked` row.

The exception is forced with monkeypatch at points of the judging path and observed through the
public `run_check`, as the CLI calls it, so the test survives a rework of check.py's helpers.
Exit 0 (or 1, which Claude Code lets through) would let a call pass that nobody judged.
"""

from __future__ import annotations

import json
import os

import pytest

from conftest import rows_of
from polydeukes.cli.check import run_check

CALL = {"toolCalls": [{"name": "Edit", "fileChange": {"kind": "modify", "path": "src/a.ts",
                                                      "pre": "a", "post": "b"}}],
        "subagentSpawns": [], "userMessages": []}


def _boom(*args: object, **kwargs: object) -> None:
    raise RuntimeError("boom")


@pytest.mark.parametrize("target", [
    "polydeukes.vm.machine.dispatch",  # the dispatch loop over the registrations
    "polydeukes.stdlib.assembly.assemble",  # building the registrations for this call
    "polydeukes.vm.ir.parse_input",  # decoding stdin
])
@pytest.mark.parametrize("posture", [[], ["--enforce", "block"]])
def test_an_exception_inside_judging_blocks_with_one_line_and_a_row(
        target: str, posture: list[str], tmp_path, monkeypatch, capsys) -> None:
    (tmp_path / "polydeukes.config.yaml").write_text("languages: {}\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("POLYDEUKES_TELEMETRY_PATH", raising=False)
    code = run_check(posture, stdin=json.dumps(CALL).encode("utf-8"))  # compiles the plan
    assert code == 0 and capsys.readouterr().err == ""

    module, name = target.rsplit(".", 1)
    monkeypatch.setattr(f"{module}.{name}", _boom)
    code = run_check(posture, stdin=json.dumps(CALL).encode("utf-8"))
    assert code == 2
    assert capsys.readouterr().err == (
        "covenant check failed closed: internal error: RuntimeError: boom\n")
    assert rows_of(tmp_path / ".polydeukes" / "roi.log")[-1] == ["blocked", "covenant-check", "-"]
    assert os.getcwd() == str(tmp_path)
