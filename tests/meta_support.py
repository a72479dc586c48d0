"""Shared helpers for the meta-covenant, routing and baseline case tables (tests/cases/meta/).

A case file is one YAML mapping: file-level defaults (`root`, `home`, `protected`, rosters …)
and `cases`, each self-describing with a `note`. A case names its call either in full (`call:`,
the IR ToolCall shape) or, for a shell line, as `command:` (a `Bash` call with
`args: {command: …}`); `calls:` lists several calls judged one by one (sibling cases).
"""

from __future__ import annotations

import pathlib
from typing import Any

import msgspec
import pytest
import yaml

from polydeukes.vm.ir import ToolCall

CASES_DIR = pathlib.Path(__file__).parent / "cases" / "meta"
DEFAULTS = ("root", "home", "protected", "mutating", "shell", "command_args", "evidence_path")


def load(name: str) -> list:
    """The cases of `tests/cases/meta/<name>.yaml`, file defaults filled in, as pytest params."""
    data = yaml.safe_load((CASES_DIR / f"{name}.yaml").read_text(encoding="utf-8"))
    params = []
    for index, case in enumerate(data["cases"]):
        for key in DEFAULTS:
            if key in data:
                case.setdefault(key, data[key])
        params.append(pytest.param(case, id=f"{name}-{index}"))
    return params


def call_of(spec: Any) -> ToolCall:
    if isinstance(spec, str):
        return ToolCall(name="Bash", args={"command": spec})
    return msgspec.convert(spec, ToolCall)


def calls_of(case: dict) -> list[ToolCall]:
    if "calls" in case:
        return [call_of(spec) for spec in case["calls"]]
    if "command" in case:
        return [call_of(case["command"])]
    return [call_of(case["call"])]
