"""Hypothesis properties for the foundation's parsers: stdin bytes, YAML documents."""

from __future__ import annotations

import contextlib
import io
import json
import os
import sys
import types

import yaml
from hypothesis import HealthCheck, given, settings
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


@SETTINGS
@given(data=st.binary(max_size=300) | json_values.map(lambda v: json.dumps(v).encode()))
def test_any_stdin_exits_0_or_2_with_one_clear_line(tmp_path, data):
    (tmp_path / "polydeukes.config.yaml").write_text("languages: {}\n")
    code, err = _check_in_process(str(tmp_path), data)
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


@settings(max_examples=300, deadline=None)
@given(document=yaml_documents, flow=st.booleans())
def test_any_yaml_document_loads_or_raises_a_located_config_error(document, flow):
    text = yaml.safe_dump(document, default_flow_style=flow, allow_unicode=True)
    try:
        config = load_config("/p", "polydeukes.config.yaml", text.encode("utf-8"))
    except ConfigValidationError as exc:
        # Only an empty document has nothing to point at.
        assert exc.span is not None or document is None
        assert exc.message.startswith("invalid config in polydeukes.config.yaml: ")
    except ConfigError as exc:
        assert exc.message.startswith("failed to parse polydeukes.config.yaml: ")
    else:
        assert config.protected_paths[-1:] == ["polydeukes.config.yaml"]


@settings(max_examples=300, deadline=None)
@given(text=st.text(max_size=200))
def test_any_text_loads_or_raises_a_config_error(text):
    try:
        load_config("/p", "polydeukes.config.yaml", text.encode("utf-8"))
    except ConfigError:
        pass


@settings(max_examples=200, deadline=None)
@given(paths=st.lists(st.text(alphabet="./ ab", max_size=6), max_size=8))
def test_protected_path_normalization_properties(paths):
    once = normalize_protected_paths(paths)
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
