"""Hypothesis properties for the foundation's parsers: stdin bytes, YAML documents."""

from __future__ import annotations

import contextlib
import io
import json
import os
import sys
import types

import yaml
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from polydeukes.cli.check import run_check
from polydeukes.compiler.config import load_config
from polydeukes.compiler.diagnostics import ConfigError, ConfigValidationError
from polydeukes.stdlib.protected import normalize_protected_paths

SETTINGS = settings(max_examples=150, deadline=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture])


def _check_in_process(root: str, data: bytes) -> tuple[int, str]:
    err = io.StringIO()
    saved_stdin, saved_cwd = sys.stdin, os.getcwd()
    sys.stdin = types.SimpleNamespace(buffer=io.BytesIO(data))
    try:
        os.chdir(root)
        with contextlib.redirect_stderr(err):
            code = run_check(["--telemetry-path", os.path.join(root, "roi.log")])
    finally:
        sys.stdin = saved_stdin
        os.chdir(saved_cwd)
    return code, err.getvalue()


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10, 10) | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
        st.sampled_from(["toolCalls", "subagentSpawns", "userMessages", "world", "actor",
                         "tools", "session", "name", "kind", "path", "x"]), inner, max_size=4),
    max_leaves=12,
)


_paths = st.sampled_from(["src/a.ts", "polydeukes.config.yaml", "/abs/x", "../out", "a b"])
_file_changes = st.one_of(
    st.fixed_dictionaries({"kind": st.just("create"), "path": _paths, "post": st.text(max_size=5)}),
    st.fixed_dictionaries({"kind": st.just("modify"), "path": _paths, "pre": st.text(max_size=5),
                           "post": st.text(max_size=5)}),
    st.fixed_dictionaries({"kind": st.just("delete"), "path": _paths},
                          optional={"pre": st.text(max_size=5)}),
)
_tool_calls = st.fixed_dictionaries(
    {"name": st.sampled_from(["Edit", "Write", "Bash", "Read"])},
    optional={"args": st.sampled_from([{}, {"command": "ls"}, {"command": "rm -rf .claude"}]),
              "fileChange": _file_changes},
)
# Inputs shaped like the IR (spec 01 §2), so that most of them are judged; `_damaged` then breaks
# some of them in one place, which the decoder must refuse with one clear line.
covenant_inputs = st.fixed_dictionaries(
    {"toolCalls": st.lists(_tool_calls, max_size=2), "subagentSpawns": st.just([]),
     "userMessages": st.lists(st.fixed_dictionaries({"text": st.text(max_size=5)}), max_size=1)},
    optional={"actor": st.sampled_from([{}, {"agentType": "x"}]),
              "tools": st.just({"mutating": ["Edit", "Write"], "shell": ["Bash"],
                                "commandArgs": ["command"]}),
              "session": st.just({"userMessages": [], "toolCalls": []})},
)


@st.composite
def _damaged(draw, value: dict) -> dict:
    if draw(st.integers(0, 2)):  # two in three stay whole
        return value
    key = draw(st.sampled_from(sorted(value) + ["world", "x"]))
    return {**value, key: draw(json_values)}


_as_bytes = st.one_of(covenant_inputs, covenant_inputs.flatmap(_damaged), json_values).map(
    lambda v: json.dumps(v).encode())


@SETTINGS
@given(data=st.binary(max_size=300) | _as_bytes)
def test_any_stdin_exits_0_or_2_with_one_clear_line(tmp_path, data):
    (tmp_path / "polydeukes.config.yaml").write_text("languages: {}\n")
    code, err = _check_in_process(str(tmp_path), data)
    event("refused" if "failed closed" in err else f"judged: exit {code}")
    assert code in (0, 2)
    assert "Traceback" not in err
    if code == 2:
        assert err.startswith("covenant check failed closed: ") and err.count("\n") == 1


yaml_documents = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.sampled_from(["languages", "protectedPaths", "adapters", "memory", "telemetry",
                         "witness", "disciplines", "sessionDisciplines", "changeSetDisciplines",
                         "id", "why", "draft", "enforce", "token", "ttlMinutes", "logPath",
                         "include", "productionGlob", "testCmd", "x"]),
        inner, max_size=5),
    max_leaves=20,
)


# Configs that load (spec 02), for `_damaged` to break in one place.
_discipline_drafts = st.lists(st.sampled_from(["a", "b", "c"]), unique=True, max_size=3).map(
    lambda ids: [{"id": i, "why": "w", "draft": True} for i in ids])
valid_documents = st.fixed_dictionaries({}, optional={
    "languages": st.dictionaries(st.sampled_from(["ts", "py"]), st.just(
        {"productionGlob": "src/**", "testCmd": "npm test"}), max_size=2),
    "protectedPaths": st.lists(st.sampled_from([".claude/hooks", "a", "./b/", "c d"]), max_size=3),
    "witness": st.fixed_dictionaries({"token": st.just("pdks witness"),
                                      "ttlMinutes": st.integers(1, 60)}),
    "telemetry": st.just({"logPath": "x.log"}),
    "disciplines": _discipline_drafts,
})


@st.composite
def _damaged_document(draw, document: dict) -> object:
    if draw(st.integers(0, 2)):  # two in three stay whole
        return document
    key = draw(st.sampled_from(sorted(document) + ["x", "disciplines", "witness"]))
    return {**document, key: draw(yaml_documents)}


def _load_outcome(text: str, document: object = "unknown") -> str:
    """Load `text`: the config's protected paths end with the config file, or a clear error."""
    try:
        config = load_config("/p", "polydeukes.config.yaml", text.encode("utf-8"))
    except ConfigValidationError as exc:
        # Only an empty document has nothing to point at.
        assert exc.span is not None or document is None
        assert exc.message.startswith("invalid config in polydeukes.config.yaml: ")
        return "invalid config"
    except ConfigError as exc:
        assert exc.message.startswith("failed to parse polydeukes.config.yaml: ")
        return "not YAML"
    assert config.protected_paths[-1:] == ["polydeukes.config.yaml"]
    return "loads"


@settings(max_examples=300, deadline=None)
@given(document=st.one_of(yaml_documents, valid_documents, valid_documents.flatmap(_damaged_document)),
       flow=st.booleans())
def test_any_yaml_document_loads_or_raises_a_located_config_error(document, flow):
    text = yaml.safe_dump(document, default_flow_style=flow, allow_unicode=True)
    event(_load_outcome(text, document))


_config_texts = valid_documents.map(lambda d: yaml.safe_dump(d, allow_unicode=True))


@st.composite
def _spliced(draw, text: str) -> str:
    """A config text with random text spliced in at a random place."""
    at = draw(st.integers(0, len(text)))
    return text[:at] + draw(st.text(max_size=6)) + text[at:]


@settings(max_examples=300, deadline=None)
@given(text=st.text(max_size=200) | _config_texts | _config_texts.flatmap(_spliced))
def test_any_text_loads_or_raises_a_config_error(text):
    try:
        document = yaml.compose(text)  # None: an empty stream, the one error with no position
    except yaml.YAMLError:
        document = "not YAML to PyYAML either"
    event(_load_outcome(text, document))


@settings(max_examples=200, deadline=None)
@given(paths=st.lists(st.text(alphabet="./ ab", max_size=6), max_size=8))
def test_protected_path_normalization_properties(paths):
    once = normalize_protected_paths(paths)
    kept_alone = [raw for raw in paths if normalize_protected_paths([raw])]
    event("a duplicate folded" if len(once) < len(kept_alone) else "no duplicate")
    assert len(set(once)) == len(once)  # deduplicated, first occurrence kept
    for entry in once:
        assert entry and not entry.startswith("./") and not entry.endswith("/")
    # Order is preserved: the kept entries appear in the order of their first raw occurrence.
    positions = [next(i for i, raw in enumerate(paths)
                      if normalize_protected_paths([raw]) == [entry]) for entry in once]
    assert positions == sorted(positions)


def test_protected_path_normalization_examples():
    assert normalize_protected_paths(
        ["  ./.claude/hooks/ ", "././x", "x//", "", "./", "/", "   ", "a/./b", "/abs/p", "x"]
    ) == [".claude/hooks", "x", "a/./b", "/abs/p"]
    assert normalize_protected_paths(None) == []
