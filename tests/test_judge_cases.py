"""Table-driven judging cases through the real `pdks covenant check` process (tests/cases/judge/).

Each case file is a YAML list of cases:

    note:    what the case shows (the test id)
    config:  polydeukes.config.yaml text
    files:   optional {path: text} written into the working tree before the run
    input:   the IR object (session surface), or
    diff:    unified diff text (change-set surface; `--diff` is added to the flags)
    flags:   optional extra `covenant check` flags, e.g. [--enforce, block]
    roster:  optional, default true: an input without a `tools` key gets the spec 03 §20 roster
             {mutating: [Edit, Write], shell: [Bash], commandArgs: [command]}; false leaves it out
    want:    {exit, stderr: [lines], rows: [[event, label, subject(, fifth)]]}
    xfail:   optional reason: the VM is known to disagree with the spec (strict xfail)

Inputs also get `subagentSpawns: []` and `userMessages: []` when they lack them. `!ago <ms>` is a
timestamp that many milliseconds before the real clock, read when the case runs (pdks reads the
real clock, so witness and `ageMs` cases cannot use fixed times). `{root}` in an input string or
an expected row stands for the project directory (absolute paths, and the baseline comparison
names its file by absolute path).
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
import yaml

CASES = Path(__file__).parent / "cases" / "judge"
ROSTER = {"mutating": ["Edit", "Write"], "shell": ["Bash"], "commandArgs": ["command"]}


class Ago:
    def __init__(self, ms: int) -> None:
        self.ms = ms


class _Loader(yaml.SafeLoader):
    pass


_Loader.add_constructor("!ago", lambda loader, node: Ago(int(loader.construct_scalar(node))))


def _cases() -> list:
    params = []
    for path in sorted(CASES.glob("*.yaml")):
        for case in yaml.load(path.read_text(encoding="utf-8"), Loader=_Loader):
            marks = []
            if case.get("xfail"):
                marks.append(pytest.mark.xfail(strict=True, reason=case["xfail"]))
            params.append(pytest.param(case, id=f"{path.stem}: {case['note']}", marks=marks))
    return params


def _materialize(value, now: int, root: str):
    if isinstance(value, Ago):
        return now - value.ms
    if isinstance(value, str):
        return value.replace("{root}", root)
    if isinstance(value, dict):
        return {k: _materialize(v, now, root) for k, v in value.items()}
    if isinstance(value, list):
        return [_materialize(v, now, root) for v in value]
    return value


def payload_of(case: dict, root: str) -> tuple[object, list[str]]:
    flags = list(case.get("flags", []))
    if "diff" in case:
        return case["diff"], ["--diff", *flags]
    ir = dict(case["input"])
    ir.setdefault("subagentSpawns", [])
    ir.setdefault("userMessages", [])
    if case.get("roster", True):
        ir.setdefault("tools", ROSTER)
    return _materialize(ir, int(time.time() * 1000), root), flags


def set_up(case: dict, project) -> None:
    """The case's config, files and symbolic links (made as written) in the project."""
    project.config(case["config"])
    for path, text in (case.get("files") or {}).items():
        project.write(path, text)
    for path, target in (case.get("links") or {}).items():
        os.symlink(target.replace("{root}", str(project.root)), project.root / path)


def wanted(case: dict, root: str) -> dict:
    """The case's expected exit, stderr lines and rows, `{root}` filled in."""
    want = case["want"]
    return {"exit": want["exit"],
            "stderr": [line.replace("{root}", root) for line in want.get("stderr", [])],
            "rows": [[field.replace("{root}", root) for field in row] for row in want.get("rows", [])]}


@pytest.mark.parametrize("case", _cases())
def test_judge_case(case, project):
    set_up(case, project)
    root = str(project.root)
    payload, flags = payload_of(case, root)
    result = project.check(payload, *flags)
    actual = {"exit": result.code, "stderr": result.stderr.splitlines(), "rows": result.rows}
    assert actual == wanted(case, root)
