"""libyaml composes a config only where PyYAML would compose the same tree (compiler/load.py):
the loader with libyaml and the loader without it give the same data, the same position of
every value, key and block-scalar line, and the same error message at the same place, for any
text. The pure loader (libyaml switched off) is the oracle."""

from __future__ import annotations

import math

import pytest
import yaml
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from polydeukes.compiler import load
from polydeukes.compiler.diagnostics import ConfigError

pytestmark = pytest.mark.skipif(load._CLoader is None, reason="PyYAML was built without libyaml")


def _outcome(text: str):
    try:
        data, source_map = load.parse_config_text(text, "c.yaml")
    except ConfigError as exc:
        return ("error", exc.message, exc.span)
    return ("data", _exact(data), source_map._values, source_map._keys, source_map._scalars)


def _exact(value):
    """Data with types kept apart (1, 1.0 and True are not equal here) and NaN equal to itself."""
    if isinstance(value, dict):
        return ("map", tuple((key, _exact(item)) for key, item in value.items()))
    if isinstance(value, list):
        return ("seq", tuple(_exact(item) for item in value))
    if isinstance(value, float) and math.isnan(value):
        return ("nan",)
    return (type(value).__name__, value)


def _pure(text: str):
    saved, load._CLoader = load._CLoader, None
    try:
        return _outcome(text)
    finally:
        load._CLoader = saved


def _used_libyaml(text: str) -> bool:
    if not load._libyaml_may_compose(text):
        return False
    loader = load._CLoader(text)
    try:
        root = loader.get_single_node()
    except Exception:  # noqa: BLE001
        return False
    finally:
        loader.dispose()
    return root is not None and load._same_as_pure(text, root)


def _check(text: str) -> None:
    hybrid = _outcome(text)
    assert hybrid == _pure(text), repr(text)
    event("libyaml composed it" if _used_libyaml(text) else "PyYAML composed it")
    event(hybrid[0])


# Fragments that reach the edges where the two composers are known to differ, or might.
NASTY = [
    "\t", "\r\n", "\r", "\ufeff", "\x85", "\u2028", "\x00", "\x07", "\x1b", "\x7f", "é",
    "\U0001F600",
    "#", " #c", "|", "|#c", "|-", "|+", ">", ">-#c", "|2", "|1-", "|0", ">+9 # c", ": ", ":", " :",
    "- ", "-", "? ", "&a ", "*a", "&a [1]", "!!str ", "!!int ", "!x ", "!<tag:x> ", "---\n",
    "...\n", "--- ", "%YAML 1.2\n---\n", "%TAG ! tag:x:\n---\n", "'", "''", '"', '"\\x41"',
    '"\\u00e9"', '"\\ud800"', '"\\N"', '"\\_"', '"\\L"', '"\\P"', '"\\e"', '"\\/"', '"\\q"',
    "[", "]", "{", "}", ",", "[a, b]", "{a: 1, b}", "{a: }", "[a, ]", "\n", "  ", "    ", "\\",
    "~", "null", "yes", "0x1F", "0o17", "1_000", "1:30", ".inf", "-.NaN", "1e3", "+1", "0777",
    "a" * 1100 + ": x", "@", "`", "%",
]

_words = st.sampled_from(["a", "b", "id", "x y", "k:v", "é", "1", "-1", "true", "null", "", "#"])
_scalars = st.one_of(
    st.none(), st.booleans(), st.integers(-10**6, 10**6),
    st.floats(allow_nan=True, allow_infinity=True), _words,
    st.text(alphabet=st.characters(codec="utf-8", exclude_categories=["Cs"]), max_size=12),
    st.text(alphabet="ab \n:#-'\"\\|>{}[],&*!%@`\t", max_size=12),
)
_data = st.recursive(
    _scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=4),
                            st.dictionaries(st.one_of(_words, st.text(max_size=6)), inner,
                                            max_size=4)),
    max_leaves=16,
)


@st.composite
def _dumped(draw) -> str:
    """A document PyYAML's own dumper wrote, in one of its styles."""
    return yaml.safe_dump(
        {"disciplines": draw(_data)} if draw(st.booleans()) else draw(_data),
        default_flow_style=draw(st.sampled_from([False, True, None])),
        default_style=draw(st.sampled_from([None, None, "'", '"', "|", ">"])),
        indent=draw(st.integers(2, 5)), width=draw(st.sampled_from([12, 80, 10**6])),
        allow_unicode=draw(st.booleans()), sort_keys=False,
    )


@st.composite
def _spliced(draw, text: str) -> str:
    for _ in range(draw(st.integers(1, 3))):
        at = draw(st.integers(0, len(text)))
        text = text[:at] + draw(st.sampled_from(NASTY)) + text[at:]
    return text


@st.composite
def _lines(draw) -> str:
    """Lines of indentation and fragments: mostly not YAML at all."""
    lines = []
    for _ in range(draw(st.integers(1, 6))):
        parts = draw(st.lists(st.sampled_from(NASTY + ["a", "b: c", "- d", "e:", "  f: |"]),
                              max_size=4))
        lines.append(" " * draw(st.integers(0, 4)) + "".join(parts))
    return "\n".join(lines) + draw(st.sampled_from(["", "\n"]))


SETTINGS = settings(max_examples=300, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@SETTINGS
@given(_dumped())
def test_documents_pyyaml_writes_load_alike(text) -> None:
    _check(text)


@SETTINGS
@given(_dumped().flatmap(_spliced))
def test_documents_with_nasty_fragments_load_alike(text) -> None:
    _check(text)


@SETTINGS
@given(_lines())
def test_lines_of_fragments_load_alike(text) -> None:
    _check(text)


@pytest.mark.parametrize("text", [
    "a: |#c\n  x\n", "a: >-#c\n  x\n", "a: x\t\n", "a:\n", "a:\nb: 1\n", "- \n- x\n", "{a: }\n",
    "a: &x [1]\nb: *x\n", "a: !!str 1\n", "--- \na: 1\n", "a: 1\n---\nb: 2\n",
    'a: "\\ud800"\n', "a: 'x'#c\n", "\ufeffa: 1\n", "a: 1\r\nb: 2\r\n", "[" * 150 + "]" * 150,
    "a: 1\na: 2\n" + "- " * 150 + "x\n", "a:\n" + "  " * 120 + "b: 1\n",
    "{\\? '' : null}\n", "[a?b, c]\n", "{a: b\n  c}\n", "a: \ud800\n",
    "! #c!null 'null'\n", "a: !\n", 'a: "\\U00110000"\n', 'a: "\\U80000000"\n', 'a: "\\Uaaaaaaaa"\n',
])
def test_the_known_edges_load_alike(text) -> None:
    assert _outcome(text) == _pure(text)


def test_a_typical_config_is_composed_by_libyaml(monkeypatch) -> None:
    """The speed-up is real: the pure composer is not asked for a plain config."""
    text = (
        "protectedPaths:\n  - .claude/hooks\n"
        "disciplines:\n  - id: e\n    declare: |\n        mechanism added-only\n"
        "    scope: {source: target.path, include: ['^src/']}\n    note: \"caf\\u00e9 — ok\"\n"
    )
    expected = _pure(text)

    class Refuses:
        def __init__(self, _text):
            raise AssertionError("the pure composer was used")

    monkeypatch.setattr(load, "_Loader", Refuses)
    assert _used_libyaml(text) and _outcome(text) == expected
