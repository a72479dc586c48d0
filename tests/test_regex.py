"""The JavaScript regex dialect: conformance corpus (tests/cases/regex) plus properties.

The corpus expectations were checked against Node 20 when written (cases marked `node: false`
follow spec 03 §19.2 for the Node >= 24 engine upstream runs on); these tests do not need node.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from hypothesis import event, example, given, settings
from hypothesis import strategies as st

from polydeukes.compiler.regex import RegexRefused, compile_js, translate
from polydeukes.vm.jsregex import UNSET, JsRegex, TranslatedPattern, from_code_units, to_code_units

CASES_DIR = Path(__file__).parent / "cases" / "regex"


def _load_cases() -> list:
    params = []
    for path in sorted(CASES_DIR.glob("*.yaml")):
        for n, case in enumerate(yaml.safe_load(path.read_text(encoding="utf-8"))):
            params.append(pytest.param(case, id=f"{path.stem}[{n}] {case['re']!r}"))
    return params


@pytest.mark.parametrize("case", _load_cases())
def test_corpus(case: dict) -> None:
    pattern, ignore_case = case["re"], case.get("i", False)
    if "refused" in case:
        with pytest.raises(RegexRefused) as info:
            translate(pattern, ignore_case)
        kind = case["refused"]
        assert info.value.syntax_error == (kind == "syntax"), info.value.reason
        if "reason" in case:  # the text a config author reads in the compile fault
            assert info.value.reason == case["reason"]
        if kind == "backtracking":
            assert "catastrophic backtracking" in info.value.reason
        if kind == "search":  # names the construct and where it starts in the pattern
            assert re.search(r"\((polynomial|exponential) backtracking", info.value.reason)
            assert re.search(r"'[^']+'.* at offset \d+$", info.value.reason), info.value.reason
        if kind == "unsupported":
            assert "which this implementation does not support" in info.value.reason
        return
    rx = compile_js(pattern, ignore_case)
    m = rx.search(case["subject"])
    assert (None if m is None else m.text) == case["match"]
    assert rx.test(case["subject"]) == (case["match"] is not None)
    if "group1" in case:
        want = case["group1"]
        assert m is not None
        assert m.group(1) == want
        assert rx.group1(case["subject"]) == (UNSET if want is None else want)


def test_translation_shape() -> None:
    t = translate(r"(?<y>\d{4})-(\d\d)")
    assert isinstance(t, TranslatedPattern)
    assert t.group_count == 2 and t.flags == 0 and not t.needs_utf16
    assert JsRegex.from_translated(t).group1("on 2024-05") == "2024"
    assert not re.compile(t.source).flags & re.IGNORECASE


def test_ignore_case_never_uses_re_ignorecase() -> None:
    t = translate("abc", ignore_case=True)
    assert t.flags & re.IGNORECASE == 0
    assert t.source == "[Aa][Bb][Cc]"


def test_case_fold_table_is_javascripts_canonicalize_over_every_code_unit() -> None:
    """The fold table is built from the units that have an uppercase of their own; the oracle
    here applies JavaScript's non-`u` Canonicalize to all 65,536 units, the definition itself:
    a unit's canonical form is its uppercase when that is one unit and does not take a
    non-ASCII unit onto ASCII, else the unit; units with one canonical form match each other."""
    from polydeukes.compiler import regex

    members: dict[int, list[int]] = {}
    for unit in range(0x10000):
        upper = chr(unit).upper()
        canonical = ord(upper) if len(upper) == 1 and (unit < 128 or ord(upper) >= 128) else unit
        members.setdefault(canonical, []).append(unit)
    expected = {unit: tuple(group) for group in members.values() if len(group) > 1
                for unit in group}
    assert regex._fold_table() == expected
    assert regex._fold_keys == sorted(expected)
    assert expected[ord("k")] == (ord("K"), ord("k"))  # not the Kelvin sign (U+212A)
    assert expected[ord("\u03c3")] == (0x3A3, 0x3C2, 0x3C3)  # final sigma folds with sigma


def test_group1_no_match_is_none() -> None:
    rx = compile_js("(a)|b")
    assert rx.group1("x") is None
    assert rx.group1("b") is UNSET
    assert rx.group1("a") == "a"


def test_group1_reset_refusal_only_when_group1_is_read() -> None:
    with pytest.raises(RegexRefused):
        translate("(?:(a)|b)+")
    rx = compile_js("(?:(a)|b)+", reads_group1=False)
    assert rx.search("xab").text == "ab"


def test_back_reference_to_reset_group_refused_even_without_group1() -> None:
    with pytest.raises(RegexRefused, match="back-reference"):
        translate(r"(?:(a)|b)+\1", reads_group1=False)


def test_back_reference_inside_look_behind_refused() -> None:
    with pytest.raises(RegexRefused, match="look-behind"):
        translate(r"(a)(?<=\1)")


def test_group_repeated_inside_look_behind_refused() -> None:
    # JavaScript matches look-behinds backwards: `(?<=(a){2})` on "aa" captures 0..1 there and
    # 1..2 in `re` (found by the node oracle, tests/test_regex_js.py).
    for pattern in (r"(?<=(a){2})", r"(?<=x(?:(a)|b){3})y", r"(?<=((a)b){2})"):
        with pytest.raises(RegexRefused) as info:
            translate(pattern)
        assert info.value.reason == ("the expression uses a capturing group repeated inside a "
                                     "look-behind, which this implementation does not support")
    for pattern in (r"(?<=(a)(b))c", r"(?<=(?:ab){2})c", r"(?<=(a))(b){2}", r"(?<=(a){1})"):
        translate(pattern)  # one round, no group in the repeat, or outside the look-behind


def test_variable_look_behind_reason_names_the_construct() -> None:
    with pytest.raises(RegexRefused) as info:
        translate(r"(?<=a+)b")
    assert info.value.reason == (
        "the expression uses a variable-width look-behind, which this implementation does not support"
    )
    assert not info.value.syntax_error


def test_deep_nesting_is_refused_not_crashing() -> None:
    with pytest.raises(RegexRefused):
        translate("(" * 5000 + ")" * 5000)


def test_code_unit_view_round_trip() -> None:
    text = "a\U0001F600b\ud800"
    units = to_code_units(text)
    assert units == "a\ud83d\ude00b\ud800"
    assert from_code_units(units) == text


def test_fast_path_skips_code_unit_view_without_astral_subject() -> None:
    rx = compile_js("^.$")
    assert rx.needs_utf16
    assert rx.test("é") and not rx.test("\U0001F600")


def test_runtime_module_imports_only_the_standard_library() -> None:
    code = (
        "import sys; import polydeukes.vm.jsregex; "
        "bad = [m for m in ('polydeukes.compiler', 'polydeukes.compiler.regex', 'yaml', 'lark')"
        " if m in sys.modules]; print(bad)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


# --- properties ---------------------------------------------------------------------------------


@settings(max_examples=300, deadline=None)
@example("0+0+0", False)  # refused for polynomial backtracking (found by this property)
@given(st.text(alphabet=st.sampled_from(list("ab()[]{}|*+?^$.\\-,:<>=!?PkcdwsbBxu019i") + ["é", "\U0001F600"]), max_size=14),
       st.booleans())
def test_translate_only_ever_refuses(pattern: str, ignore_case: bool) -> None:
    try:
        t = translate(pattern, ignore_case)
    except RegexRefused as e:
        # A refusal says which kind it is: JavaScript's syntax error, or our documented refusal.
        assert e.syntax_error == e.reason.startswith("invalid regular expression: "), e.reason
        assert e.syntax_error or e.reason.endswith("which this implementation does not support") \
            or re.search(r"\((?:catastrophic|polynomial|exponential) backtracking[;)]", e.reason), e.reason
        event("refused: syntax error" if e.syntax_error else "refused: unsupported")
        return
    event("translated")
    compiled = re.compile(t.source, t.flags)
    assert compiled.groups == t.group_count  # one `re` group per JavaScript capture, no other
    assert not t.flags & re.IGNORECASE
    assert translate(pattern, ignore_case) == t  # a pure function of (pattern, ignore case)
    JsRegex.from_translated(t).search("a\U0001F600")


_ATOMS = st.sampled_from(
    ["a", "b", "x", ".", r"\d", r"\w", r"\s", r"\S", "[a-c]", "[^b]", r"\.", "é", r"\u00e9", "[]", "[^]"]
)


def _safe_patterns() -> st.SearchStrategy[str]:
    # A literal `-` between neighbours: two quantifiers side by side may match the same text,
    # which the search guard refuses (tests/cases/regex/hostile.yaml).
    quantified = st.tuples(_ATOMS, st.sampled_from(["", "*", "+", "?", "{2}", "{1,3}", "+?"])).map("".join)
    seq = st.lists(quantified, min_size=1, max_size=4).map("-".join)
    anchored = st.tuples(st.sampled_from(["", "^", r"\b"]), seq, st.sampled_from(["", "$", r"\b"])).map("".join)
    group = anchored.map(lambda s: f"({s})")
    item = st.one_of(anchored, group, st.tuples(group, st.just("?")).map("".join),
                     anchored.map(lambda s: f"(?={s})"), st.just("(?<=a|bc)"), st.just("(?<!x)"))
    return st.lists(item, min_size=1, max_size=3).map(lambda parts: "|".join(parts) if len(parts) == 3 else "-".join(parts))


@settings(max_examples=200, deadline=None)
@given(_safe_patterns(), st.booleans(),
       st.text(alphabet=st.sampled_from(list("aaabbbcx. é\n") + ["\U0001F600"]), max_size=12))
def test_safe_grammar_translates_and_runs(pattern: str, ignore_case: bool, subject: str) -> None:
    t = translate(pattern, ignore_case, reads_group1=False)
    rx = JsRegex.from_translated(t)
    m = rx.search(subject)
    event("match" if m is not None else "no match")
    assert rx.test(subject) == (m is not None)
    if m is None:
        return
    # Every group's text is the subject's UTF-16 code units at that group's span.
    units = subject.encode("utf-16-le", "surrogatepass")
    for n in range(t.group_count + 1):
        span, text = m.span(n), m.group(n)
        assert (span is None) == (text is None)
        if span is not None:
            start, end = span
            assert units[2 * start:2 * end].decode("utf-16-le", "surrogatepass") == text


_LITERAL = st.text(alphabet=st.sampled_from(list("abcXYZ019 _-,;:'\"/.*+?()[]{}|^$\\")), min_size=1, max_size=8)


def _js_escape(text: str) -> str:
    return re.sub(r"([\^$\\.*+?()\[\]{}|/])", r"\\\1", text)


@settings(max_examples=200, deadline=None)
@given(_LITERAL, st.text(alphabet=st.sampled_from(list("abcXYZ019 _-,.*+?()[]{}|^$\\")), max_size=20), st.booleans())
def test_ascii_literals_agree_with_re_escape(literal: str, noise: str, embed: bool) -> None:
    subject = noise[: len(noise) // 2] + literal + noise[len(noise) // 2:] if embed else noise
    m = compile_js(_js_escape(literal)).search(subject)
    want = re.search(re.escape(literal), subject)
    event("match" if want is not None else "no match")
    assert (None if m is None else m.text) == (None if want is None else want.group())


def test_empty_round_refusal_names_the_construct() -> None:
    with pytest.raises(RegexRefused, match="JavaScript rejects the empty round"):
        translate("(?:a?|b)?c", reads_group1=False)
