"""Properties of the textual form: render then parse is the identity; channels never raise."""

from __future__ import annotations

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from polydeukes.compiler import nodes
from polydeukes.compiler.declare import check_declaration, declaration_channels
from polydeukes.compiler.render import render_declaration_text
from polydeukes.compiler.source import SourceMap
from strategies_declare import declarations, json_values, nested_data

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
    event("channels found" if channels else "no channel")


CHANNEL_ORDER = ["transcript", "channel", "command", "actor", "changes"]


def _well_formed(channels: list[str]) -> None:
    """Known channels only, each once, in the fixed order of spec 03 §16.1."""
    assert channels == [c for c in CHANNEL_ORDER if c in channels]


@st.composite
def channel_bodies(draw) -> tuple[object, list[str]]:
    """A declaration-shaped body (often unvalidated nonsense around the parts that count) and
    the channels spec 03 §16.1 finds in it, worked out while drawing."""
    found: set[str] = set()
    body: dict = {}
    if draw(st.booleans()):
        sources = {}
        for name in draw(st.lists(st.sampled_from(["s", "t", "u"]), unique=True, max_size=3)):
            kind = draw(st.sampled_from(["transcript", "sidecar", "file", "junk"]))
            if kind == "junk":
                sources[name] = draw(json_values)  # its keys are too short to be a kind
                continue
            sources[name] = {kind: draw(st.sampled_from([True, False, "x"]))}
            found.add({"transcript": "transcript", "sidecar": "channel"}.get(kind, ""))
        body["sources"] = sources
    if draw(st.booleans()):
        source = draw(st.sampled_from(["command", "target.path", 1]))
        body["scope"] = {"source": source}
        found.add("command" if source == "command" else "")

    def extract() -> dict:
        block = {}
        for name in draw(st.lists(st.sampled_from(["a", "b"]), unique=True, max_size=2)):
            steps = []
            for _ in range(draw(st.integers(0, 3))):
                of = draw(st.sampled_from(["command", "actor", "changes", "pre", 3]))
                step = draw(st.sampled_from([{"op": "source", "of": of}, {"op": "lines"}]))
                steps.append(step)
                if step["op"] == "source":
                    found.add(of if of in CHANNEL_ORDER else "")
            block[name] = steps
        return block

    body["extract"] = extract()
    if draw(st.booleans()):
        body["witness"] = {"extract": extract()}
    return body, [c for c in CHANNEL_ORDER if c in found]


@settings(max_examples=300, deadline=None)
@given(channel_bodies() | nested_data.map(lambda data: (data, None)))
def test_channels_of_data_are_the_specs_and_never_raise(pair):
    data, expected = pair
    channels = declaration_channels(data)
    _well_formed(channels)
    if expected is not None:
        assert channels == expected
    event("channels found" if channels else "no channel")


@st.composite
def _spliced(draw, text: str) -> str:
    at = draw(st.integers(0, len(text)))
    return text[:at] + draw(st.text(max_size=4)) + text[at:]


_texts = declarations().map(render_declaration_text)


@SETTINGS
@given(st.text(max_size=80) | _texts | _texts.flatmap(_spliced))
def test_channels_of_any_text_are_well_formed(text):
    channels = declaration_channels(text)
    _well_formed(channels)
    event("channels found" if channels else "no channel")
