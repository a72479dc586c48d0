"""The declaration grammar's parser stored as data (compiler/parser_table.py): it is the parser
of the grammar as it stands, it is what the compiler uses, it parses exactly as a parser built
from the grammar does, and anything else in its place makes the compiler build the parser."""

from __future__ import annotations

import subprocess
import sys

import lark
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from polydeukes.compiler import parse, parser_table
from polydeukes.compiler.render import render_declaration_text
from strategies_declare import declarations

GRAMMAR = parse.GRAMMAR_PATH.read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def built():
    return parse.build_parser(GRAMMAR)


@pytest.fixture(scope="module")
def stored():
    found = parser_table.stored_parser(GRAMMAR, parse.LARK_OPTIONS)
    assert found is not None, f"the stored parser is not used: run `{parser_table.COMMAND}`"
    return found


def test_the_stored_file_is_what_the_documented_command_writes() -> None:
    """Byte for byte, in another process (so another hash seed): it cannot drift."""
    done = subprocess.run([sys.executable, "-m", "polydeukes.compiler.parser_table", "--check"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr


def test_the_check_fails_for_an_edited_grammar(tmp_path, monkeypatch, capsys) -> None:
    edited = tmp_path / "declarations.lark"
    edited.write_text(GRAMMAR.replace('"mechanism"', '"mechanisms"', 1), encoding="utf-8")
    table = tmp_path / "declarations.parser.json"
    table.write_bytes(parser_table.TABLE_PATH.read_bytes())
    monkeypatch.setattr(parser_table, "GRAMMAR_PATH", edited)
    monkeypatch.setattr(parser_table, "TABLE_PATH", table)
    assert parser_table.main(["--check"]) == 1
    assert "run `python -m polydeukes.compiler.parser_table`" in capsys.readouterr().err
    assert parser_table.main([]) == 0  # the command rewrites it for the edited grammar
    assert parser_table.main(["--check"]) == 0


def test_the_compiler_uses_the_stored_parser() -> None:
    assert parse._lark().source_path == "<deserialized>"  # Lark's mark of a loaded parser


def test_the_stored_parser_has_the_built_parsers_vocabulary(built, stored) -> None:
    def shape(parser):
        rules = sorted((r.origin.name, tuple(s.name for s in r.expansion), r.alias, r.order)
                       for r in parser.rules)
        terminals = sorted((t.name, t.pattern.type, t.pattern.value, t.priority)
                           for t in parser.terminals)
        return rules, terminals

    assert shape(stored) == shape(built)


def _outcome(parser, text: str, start: str = "declaration"):
    """The tree with every node's position, or the error with what it reports."""
    try:
        tree = parser.parse(text, start=start)
    except lark.exceptions.UnexpectedCharacters as exc:
        return ("character", exc.pos_in_stream, exc.line, exc.column, sorted(exc.allowed or ()))
    except lark.exceptions.UnexpectedToken as exc:
        return ("token", exc.token.type, exc.token.start_pos, sorted(exc.accepts or exc.expected))

    def flat(node):
        if isinstance(node, lark.Token):
            return (node.type, str(node), node.start_pos, node.end_pos, node.line, node.column)
        if node is None:
            return None
        meta = None if node.meta.empty else (node.meta.start_pos, node.meta.end_pos)
        return (node.data, meta, tuple(flat(child) for child in node.children))

    return flat(tree)


@settings(max_examples=120, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(st.one_of(
    declarations().map(render_declaration_text),
    declarations().map(render_declaration_text).flatmap(
        lambda text: st.tuples(st.integers(0, len(text)), st.text(max_size=3)).map(
            lambda cut: text[:cut[0]] + cut[1] + text[cut[0]:])),
    st.lists(st.sampled_from(list("abc:=|(),'\"{}[] \n-.0") + ["mechanism", "extract",
                                 "relate", "source", "lines"]), max_size=40).map("".join),
))
def test_the_stored_and_the_built_parser_agree_on_any_text(built, stored, text) -> None:
    assert _outcome(stored, text) == _outcome(built, text)


@pytest.mark.parametrize("rule", parse.LARK_OPTIONS["start"][1:])
def test_the_stored_and_the_built_parser_agree_on_every_start_rule(built, stored, rule) -> None:
    for text in ("relate", "keyByPattern(re: 'x')", "lines", "eq", "pre", "bogus", ""):
        assert _outcome(stored, text, rule) == _outcome(built, text, rule)


@pytest.mark.parametrize("spoil", ["grammar", "lark", "corrupt", "missing"])
def test_anything_but_this_grammar_under_this_lark_builds_the_parser(spoil, tmp_path,
                                                                     monkeypatch) -> None:
    grammar = GRAMMAR
    table = tmp_path / "declarations.parser.json"
    table.write_bytes(parser_table.TABLE_PATH.read_bytes())
    if spoil == "grammar":
        grammar = GRAMMAR + "\n// another grammar\n"
    elif spoil == "lark":
        monkeypatch.setattr(lark, "__version__", "0.0.1")
    elif spoil == "corrupt":
        table.write_text('{"grammar": "' + "0" * 64 + '", "data": [}', encoding="utf-8")
    else:
        table.unlink()
    monkeypatch.setattr(parser_table, "TABLE_PATH", table)
    assert parser_table.stored_parser(grammar, parse.LARK_OPTIONS) is None
    monkeypatch.setattr(parse, "GRAMMAR_PATH", tmp_path / "declarations.lark")
    (tmp_path / "declarations.lark").write_text(grammar, encoding="utf-8")
    parse._lark.cache_clear()
    try:
        assert parse._lark().source_path != "<deserialized>"  # built from the grammar
        assert parse.parse_text("mechanism added-only").data == {"mechanism": "added-only"}
    finally:
        parse._lark.cache_clear()


def test_the_stored_form_holds_no_pickle_and_decodes_to_what_was_encoded() -> None:
    text = parser_table.TABLE_PATH.read_text(encoding="utf-8")
    assert text.isascii() and "pickle" not in text
    sample = {"a": (1, [2, (3,)]), "b": {0: "x", (1, 2): None}, "#tuple": 1, "c": 2 ** 64}
    import json

    decoded = json.loads(json.dumps(parser_table._encoded(sample)),
                         object_hook=parser_table._decoded)
    assert decoded == sample
    assert type(decoded["a"]) is tuple and type(decoded["a"][1][1]) is tuple
