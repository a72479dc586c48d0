"""The two surface forms of a declaration meet in one AST (spec 03 §20 worked examples)."""

from __future__ import annotations

import pytest
import yaml

from declare_support import CASES, declarations
from polydeukes.compiler import nodes
from polydeukes.compiler.catalogue import declaration_axes
from polydeukes.compiler.declare import check_declaration, declaration_channels
from polydeukes.compiler.diagnostics import CompileFault, ConfigValidationError
from polydeukes.compiler.render import render_declaration_text
from polydeukes.compiler.resolve import resolve_declaration
from polydeukes.compiler.source import SourceMap

FORMS = CASES / "forms"
EXAMPLES = yaml.safe_load((FORMS / "worked_examples.yaml").read_text(encoding="utf-8"))


def _texts() -> dict[str, str]:
    texts: dict[str, str] = {}
    section = None
    for line in (FORMS / "worked_examples.txt").read_text(encoding="utf-8").splitlines(True):
        if line.startswith("=== "):
            section = line[4:].strip()
            texts[section] = ""
        elif section is not None:
            texts[section] += line
    return texts


TEXTS = _texts()


def _check_text(text: str) -> nodes.Declaration:
    return check_declaration(text, where="d declare", path=("d",), source_map=SourceMap("t"))


@pytest.mark.parametrize("example", EXAMPLES, ids=[e["section"] for e in EXAMPLES])
def test_both_forms_give_one_ast_that_compiles(example):
    ((entry_id, from_yaml),) = list(declarations(example["config"]))
    assert isinstance(from_yaml, nodes.Declaration), from_yaml
    from_text = _check_text(TEXTS[example["section"]])
    assert nodes.strip_spans(from_text) == nodes.strip_spans(from_yaml)
    resolved = resolve_declaration(from_yaml, entry_id=entry_id)
    assert isinstance(resolved, nodes.ResolvedDeclaration), resolved
    config = yaml.safe_load(example["config"])
    (entries,) = config.values()
    assert declaration_channels(entries[0]["declare"]) == declaration_channels(
        TEXTS[example["section"]]
    )


@pytest.mark.parametrize("example", EXAMPLES, ids=[e["section"] for e in EXAMPLES])
def test_rendered_text_reads_back(example):
    ((_, from_yaml),) = list(declarations(example["config"]))
    text = render_declaration_text(from_yaml)
    assert nodes.strip_spans(_check_text(text)) == nodes.strip_spans(from_yaml)


def test_rendering_of_an_example():
    ((_, decl),) = list(declarations(EXAMPLES[1]["config"]))
    assert render_declaration_text(decl) == (
        "mechanism added-only\n"
        "scope target.path include ['^src/', '^test/']\n"
        "supply pre: empty, post: empty\n"
        "extract\n"
        "  before = source(of: pre) | lines | keyByPattern(re: '(\\.only\\()')\n"
        "  after = source(of: post) | lines | keyByPattern(re: '(\\.only\\()')\n"
        "  added = onlyIn(of: after, notIn: before)\n"
        "relate\n"
        "  nothing-added: empty(of: added) message 'adds {key}: {value}'\n"
    )


def test_channels_and_axes_of_the_examples():
    by_section = {e["section"]: e for e in EXAMPLES}
    ((_, valve),) = list(declarations(by_section["20.13"]["config"]))
    assert declaration_axes(valve) == ["change", "history"]
    assert declaration_channels(TEXTS["20.13"]) == ["transcript"]
    assert declaration_channels(TEXTS["20.12"]) == ["command", "actor"]
    assert declaration_channels(TEXTS["20.9"]) == ["changes"]


def test_text_spans_are_rebased_onto_the_yaml_file():
    config = (
        "disciplines:\n"
        "  - id: e\n"
        "    declare: |\n"
        "      mechanism added-only\n"
        "      extract\n"
        "        a = source(of: post) | lines | split\n"
        "      relate\n"
        "        r: empty(of: a) message 'm'\n"
    )
    ((entry_id, decl),) = list(declarations(config))
    fault = resolve_declaration(decl, entry_id=entry_id)
    assert isinstance(fault, CompileFault)
    assert str(fault.span) == "polydeukes.config.yaml:6:40"
    assert decl.extract[0].steps[2].span.line == 6


def test_a_compile_fault_leaves_the_declaration_loaded():
    config = EXAMPLES[1]["config"].replace("op: 'lines'", "op: 'lines', keep: 'blank'", 1)
    ((entry_id, decl),) = list(declarations(config))
    assert isinstance(decl, nodes.Declaration)
    fault = resolve_declaration(decl, entry_id=entry_id)
    assert fault == CompileFault(
        location="no-focused-tests-in-src extract before",
        reason="'lines' does not take the argument 'keep'",
        span=fault.span,
    )


def test_unreachable_faults_from_constructed_asts():
    empty = nodes.Declaration(
        mechanism="added-only",
        scope=nodes.Scope(source="target.path", include=("(",)),
        extract=(nodes.Pipeline(name="a"),),
        relate=(nodes.RelateEntry(id="r", relation=nodes.Empty(of="a"), message="m"),),
    )
    fault = resolve_declaration(empty, entry_id="x")
    assert fault.text() == (
        "x extract a: a pipeline begins with 'source' or one of union, onlyIn, intersect "
        "— found an empty pipeline"
    )
    source = nodes.Step(op="source", arguments=(nodes.Argument(name="of", value="pre"),))
    bad_scope = nodes.Declaration(
        mechanism=empty.mechanism, scope=empty.scope,
        extract=(nodes.Pipeline(name="a", steps=(source,)),), relate=empty.relate,
    )
    assert resolve_declaration(bad_scope, entry_id="x").text() == (
        "x scope: cannot compile the expression '('"
    )


def test_a_syntax_error_in_text_stops_the_load():
    with pytest.raises(ConfigValidationError) as caught:
        _check_text("mechanism added-only\nextract\n  a = = b\n")
    assert caught.value.message.startswith("d declare does not read as a declaration: ")
