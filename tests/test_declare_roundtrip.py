"""Properties of the textual form: render then parse is the identity; channels never raise."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from polydeukes.compiler import nodes
from polydeukes.compiler.declare import check_declaration, declaration_channels
from polydeukes.compiler.render import render_declaration_text
from polydeukes.compiler.source import SourceMap
from strategies_declare import declarations, nested_data

SETTINGS = settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow]
)


def _read(text: str) -> nodes.Declaration:
    return check_declaration(text, where="d declare", path=("d",), source_map=SourceMap("t"))


@SETTINGS
@given(declarations())
def test_parse_of_render_is_the_identity(decl):
    text = render_declaration_text(decl)
    assert nodes.strip_spans(_read(text)) == decl, text


@SETTINGS
@given(declarations())
def test_channels_of_the_text_equal_channels_of_the_rendered_ast(decl):
    text = render_declaration_text(decl)
    channels = declaration_channels(text)
    assert channels == sorted(set(channels), key=channels.index)  # no duplicates
    expected = []
    if any(b.kind == "transcript" for b in decl.sources):
        expected.append("transcript")
    if any(b.kind == "sidecar" for b in decl.sources):
        expected.append("channel")
    steps = [s for p in decl.extract + (decl.witness.extract if decl.witness else ()) for s in p.steps]
    read = {a.value for s in steps if s.op == "source" for a in s.arguments if a.name == "of"}
    if "command" in read or (decl.scope is not None and decl.scope.source == "command"):
        expected.append("command")
    expected += [c for c in ("actor", "changes") if c in read]
    assert channels == expected


@settings(max_examples=300, deadline=None)
@given(nested_data)
def test_channels_never_raise_on_data(data):
    channels = declaration_channels(data)
    assert set(channels) <= {"transcript", "channel", "command", "actor", "changes"}


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=80) | st.sampled_from(["scope command", "sources s = sidecar", "extract a = ("]))
def test_channels_never_raise_on_text(text):
    assert isinstance(declaration_channels(text), list)
