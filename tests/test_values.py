"""Table cases for the JS value model (spec 03 §12; JSON for telemetry, spec 06 §7)."""

from __future__ import annotations

import json
import math
import pickle
import sys
import subprocess

import pytest

from algebra_support import load_cases, strict
from polydeukes.vm import values
from polydeukes.vm.values import UNDEFINED, canonical


@pytest.mark.parametrize("case", load_cases("values"))
def test_value(case: dict) -> None:
    fn = getattr(values, case["fn"])
    if case.get("raises"):
        with pytest.raises(ValueError):
            fn(*case["args"])
        return
    got = fn(*case["args"])
    if case["fn"] == "js_json_value":
        # What telemetry does with it: the lead's writer serializes with json.dumps.
        got = json.dumps(got, separators=(",", ":"), ensure_ascii=False)
    assert strict(got) == strict(case["want"])
    if case["fn"] in ("js_json_parse", "js_keys") and isinstance(got, (dict, list)):
        assert json.dumps(got) == json.dumps(case["want"]), "order must match too"


def test_canonical_keeps_booleans_apart_from_numbers() -> None:
    assert canonical(True) != canonical(1)
    assert canonical(False) != canonical(0)
    assert len({canonical(True), canonical(1), canonical(1.0), canonical("1")}) == 3
    assert canonical([True]) != canonical([1])
    assert canonical({"a": 1, "b": UNDEFINED}) == canonical({"a": 1})
    assert canonical(None) != canonical(UNDEFINED)
    assert canonical(-0.0) == canonical(0)
    nan = float("nan")
    assert canonical(nan) != canonical(nan), "NaN equals nothing, not even the same NaN"
    assert canonical([nan]) != canonical([nan])


def test_an_integer_beyond_every_double_is_an_infinity_of_its_sign() -> None:
    # A config's YAML integer can exceed the double range; JavaScript would read it as ±Infinity.
    huge = 10**400
    assert values.js_number(huge) == math.inf and values.js_number(-huge) == -math.inf
    assert values.js_string(huge) == "Infinity" and values.js_string(-huge) == "-Infinity"
    assert values.js_equal(-huge, -math.inf) and not values.js_equal(-huge, math.inf)


def test_json_parse_orders_index_keys_like_js() -> None:
    parsed = values.js_json_parse('{"b":1,"2":2,"a":3,"1":4}')
    assert list(parsed) == ["1", "2", "b", "a"]


def test_undefined_is_one_falsy_singleton_that_survives_pickling() -> None:
    assert not UNDEFINED
    assert type(UNDEFINED)() is UNDEFINED
    assert pickle.loads(pickle.dumps(UNDEFINED)) is UNDEFINED


def test_hot_path_modules_import_only_the_standard_library() -> None:
    code = (
        "import sys; import polydeukes.vm.messages, polydeukes.vm.algebra;"
        "bad = [m for m in ('yaml', 'lark', 'click', 'polydeukes.compiler') if m in sys.modules];"
        "print(bad)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
