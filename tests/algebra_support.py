"""Shared by the algebra, values and laws tests: the case-file loader and a strict comparison.

Case files under tests/cases/algebra/ are YAML with two extra tags, because YAML has no
JavaScript `undefined` and the relations' `before` needs its own absence marker:
`!undefined ''` is UNDEFINED and `!missing ''` is the witness `before` MISSING. `!num '1e21'` is
a float spelled as JavaScript spells it (PyYAML's YAML 1.1 floats need a dot and a signed
exponent, so `1e21` would load as a string).
"""

from __future__ import annotations

import math
from functools import lru_cache
from pathlib import Path
from typing import Any

import pytest
import yaml

import reference
from polydeukes.compiler.regex import compile_js
from polydeukes.vm.algebra import MISSING
from polydeukes.vm.values import UNDEFINED

CASES = Path(__file__).parent / "cases" / "algebra"


class _Loader(yaml.SafeLoader):
    pass


_Loader.add_constructor("!undefined", lambda loader, node: UNDEFINED)
_Loader.add_constructor("!missing", lambda loader, node: MISSING)
_Loader.add_constructor("!num", lambda loader, node: float(loader.construct_scalar(node)))


def load_cases(name: str) -> list:
    """pytest params for every case of tests/cases/algebra/<name>.yaml, named by their note."""
    path = CASES / f"{name}.yaml"
    cases = yaml.load(path.read_text(encoding="utf-8"), Loader=_Loader)
    return [pytest.param(case, id=f"{name}[{n}] {case['note']}") for n, case in enumerate(cases)]


@lru_cache(maxsize=None)
def regex(pattern: str, ignore_case: bool = False) -> Any:
    return compile_js(pattern, ignore_case)


def strict(v: Any) -> Any:
    """A form in which `==` tells booleans from numbers and UNDEFINED from null and absence.

    Numbers compare by value (JS has one number type), NaN equals NaN here so expectations
    can name it, and a dict's UNDEFINED-valued keys stay visible.
    """
    t = type(v)
    if t is bool:
        return ("bool", v)
    if t is int or t is float:
        return ("number", "nan" if math.isnan(v) else v)
    if v is None:
        return ("null",)
    if v is UNDEFINED:
        return ("undefined",)
    if v is MISSING:
        return ("missing",)
    if t is list or t is tuple:
        return [strict(e) for e in v]
    if t is dict:
        return {k: strict(x) for k, x in v.items()}
    return v


def to_reference(v: Any) -> Any:
    """A value for tests/reference.py: the VM's UNDEFINED spelled as the reference's marker."""
    if v is UNDEFINED:
        return reference.UNDEFINED
    if type(v) in (list, tuple):
        return type(v)(to_reference(e) for e in v)
    if type(v) is dict:
        return {k: to_reference(e) for k, e in v.items()}
    return v


def from_reference(v: Any) -> Any:
    """The reference's markers spelled as the VM's, so that `strict` compares the two."""
    if v is reference.UNDEFINED:
        return UNDEFINED
    if v is reference.NO_BEFORE:
        return MISSING
    if type(v) in (list, tuple):
        return [from_reference(e) for e in v]
    if type(v) is dict:
        return {k: from_reference(e) for k, e in v.items()}
    return v


def case_steps(case: dict) -> list[tuple[str, dict]]:
    """A steps.yaml case's steps as (op, arguments): one `step`, or a whole `pipeline`."""
    if "pipeline" in case:
        return [(s["op"], {k: v for k, v in s.items() if k != "op"}) for s in case["pipeline"]]
    return [(case["step"], case.get("args", {}))]


def items_of(pairs: list) -> list[tuple[str, Any]]:
    """Case-file items `[[key, value], ...]` as the algebra's item tuples."""
    return [(key, value) for key, value in pairs]
