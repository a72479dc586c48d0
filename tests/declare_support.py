"""Shared helpers of the tests/test_declare_*.py files: run a config through the declaration front end."""

from __future__ import annotations

from pathlib import Path

import yaml

import golden
from polydeukes.compiler.declare import check_declaration
from polydeukes.compiler.diagnostics import CompileFault, ConfigValidationError
from polydeukes.compiler.load import parse_config_text
from polydeukes.compiler.resolve import resolve_declaration

TESTS = Path(__file__).resolve().parent
CASES = TESTS / "cases" / "declare"
GOLDEN = TESTS / "golden" / "faults"
CONFIG = "polydeukes.config.yaml"


def load_cases(*names: str) -> list[dict]:
    cases = []
    for path in sorted(CASES.glob("*.yaml")):
        if names and path.stem not in names:
            continue
        cases.extend(yaml.safe_load(path.read_text(encoding="utf-8")))
    return cases


def declarations(config_text: str):
    """Every (entry id, declaration or ConfigValidationError) of a config, in list order."""
    data, source_map = parse_config_text(config_text, CONFIG)
    for list_name, entries in data.items():
        for index, entry in enumerate(entries):
            where = f"{list_name}[{index}] ('{entry['id']}') declare"
            path = (list_name, index, "declare")
            try:
                yield entry["id"], check_declaration(
                    entry["declare"], where=where, path=path, source_map=source_map
                )
            except ConfigValidationError as exc:
                yield entry["id"], exc


def outcome(config_text: str) -> str:
    """What the front end says about the first entry: a load error or compile fault, located."""
    entry_id, result = next(declarations(config_text))
    if isinstance(result, ConfigValidationError):
        return f"{result.message}\n{result.span}\n"
    resolved = resolve_declaration(result, entry_id=entry_id)
    if isinstance(resolved, CompileFault):
        return f"{resolved.location}: {resolved.reason}\n{resolved.span}\n"
    return "compiles\n"


def check_golden(name: str, actual: str) -> None:
    golden.check(GOLDEN / f"{name}.txt", actual)
