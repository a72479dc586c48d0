"""Config discovery, parsing and validation (spec 02), table-driven, plus the real command."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from polydeukes.compiler.config import load_config
from polydeukes.compiler.diagnostics import ConfigError, ConfigValidationError

CASE_DIR = Path(__file__).parent / "cases" / "config"
CASES = [
    case
    for path in sorted(CASE_DIR.glob("*.yaml"))
    for case in yaml.safe_load(path.read_text("utf-8"))
]


def _load(text: str, name: str = "polydeukes.config.yaml"):
    return load_config("/project", name, text.encode("utf-8"))


@pytest.mark.parametrize("case", CASES, ids=[c["note"] for c in CASES])
def test_config_case(case):
    with pytest.raises(ConfigError) as caught:
        _load(case["config"])
    assert caught.value.message == case["want"]
    where = caught.value.span
    assert (f"{where.line}:{where.col}" if where else None) == case["at"]


# -- fuzz findings (issue 15): each a located message, never a traceback or a hang ------------


def test_an_escaped_surrogate_pair_is_one_character_as_in_javascript():
    config = _load('protectedPaths: ["\\uD83D\\uDE00/x"]\n')
    assert config.protected_paths[0] == "\U0001F600/x"


def test_an_integer_past_the_digit_limit_reads_as_a_number_as_in_javascript():
    with pytest.raises(ConfigValidationError) as caught:
        _load("witness: {token: t, ttlMinutes: " + "9" * 5000 + "}\n")
    assert caught.value.located() == (
        "invalid config in polydeukes.config.yaml: witness.ttlMinutes must be a finite number "
        "greater than 0 (at polydeukes.config.yaml:1:33)")


@pytest.mark.parametrize("text, at", [
    ("a: " + "[" * 10_000 + "]" * 10_000 + "\n", "1:103"),  # past PyYAML's own recursion
    ("a: " + "[" * 150 + "]" * 150 + "\n", "1:103"),  # within it: the builder's bound
    ("".join("  " * i + "k:\n" for i in range(150)) + "  " * 150 + "v\n", "101:201"),
])
def test_nesting_past_the_bound_is_located_where_it_passes_it(text, at):
    with pytest.raises(ConfigError) as caught:
        _load(text)
    assert caught.value.message == (
        "failed to parse polydeukes.config.yaml: the document nests deeper than 100 levels")
    assert f"{caught.value.span.line}:{caught.value.span.col}" == at


def test_nesting_up_to_the_bound_loads_and_one_more_level_does_not():
    config = _load("adapters: {x: {k: " + "[" * 97 + "]" * 97 + "}}\n")  # 100 levels
    value, levels = config.adapters["x"]["k"], 0
    while value is not None:
        value, levels = (value[0] if value else None), levels + 1
    assert levels == 97
    with pytest.raises(ConfigError, match="nests deeper than 100 levels"):
        _load("adapters: {x: {k: " + "[" * 98 + "]" * 98 + "}}\n")


def test_validation_errors_keep_their_type_through_the_wrapper():
    with pytest.raises(ConfigValidationError):
        _load("languages: 1\n")


def test_defaults_of_a_minimal_config():
    config = _load("languages: {}\n")
    assert config.protected_paths == ["polydeukes.config.yaml"]
    assert config.telemetry_log_path == ".polydeukes/roi.log"
    assert config.witness is None
    assert config.languages == {}
    # A list the input did not declare stays absent; `[]` stays `[]`.
    assert config.disciplines is None and config.session_disciplines is None
    assert _load("disciplines: []\n").disciplines == []


def test_schema_key_is_stripped_and_yaml_1_2_core_scalars():
    config = _load(
        "$schema: ./polydeukes.schema.json\nprotectedPaths: [yes, on, off]\n"
        "adapters: {git: {enforce: block, protectedPaths: [x]}}\n"
    )
    # `yes` and `on` are strings under YAML 1.2; the legacy git namespace is accepted, unread.
    assert config.protected_paths == ["yes", "on", "off", "polydeukes.config.yaml"]
    assert config.adapters == {"git": {"enforce": "block", "protectedPaths": ["x"]}}


def test_config_file_is_appended_once():
    assert _load("protectedPaths: [a, polydeukes.config.yaml]\n").protected_paths == [
        "a", "polydeukes.config.yaml"
    ]
    json_config = load_config("/p", "polydeukes.config.json", b'{"protectedPaths": ["./a/"]}')
    assert json_config.protected_paths == ["./a/", "polydeukes.config.json"]


def test_witness_and_telemetry_are_carried():
    config = _load("witness: {token: 'pdks witness', ttlMinutes: 0.5}\ntelemetry: {logPath: x.log}\n")
    assert (config.witness.token, config.witness.ttl_minutes) == ("pdks witness", 0.5)
    assert config.telemetry_log_path == "x.log"


def test_drafts_are_split_out_of_disciplines():
    config = _load("disciplines:\n  - {id: d, why: prose, draft: true}\n")
    assert config.disciplines == [] and [d.id for d in config.drafts] == ["d"]


def test_schema_must_be_a_string_for_direct_callers():
    from polydeukes.compiler.source import SourceMap
    from polydeukes.compiler.validate import define_config

    with pytest.raises(ConfigValidationError) as caught:
        define_config({"$schema": 1}, SourceMap("polydeukes.config.yaml"), "polydeukes.config.yaml")
    assert caught.value.message == "$schema must be a string"


def test_a_layer_must_be_a_mapping(tmp_path):
    (tmp_path / "layer.yaml").write_text("- a\n")
    with pytest.raises(ConfigValidationError) as caught:
        load_config(str(tmp_path), "polydeukes.config.yaml", b"{}", "layer.yaml")
    assert caught.value.message == (
        f"invalid config layer in {tmp_path}/layer.yaml: config layer must be a plain object: a "
        "config layer carries only disciplines, sessionDisciplines, changeSetDisciplines")


def test_a_layer_adds_its_lists_after_the_config(tmp_path):
    (tmp_path / "layer.yaml").write_text(
        "$schema: x\ndisciplines:\n  - {id: from-layer, why: prose, draft: true}\n")
    config = load_config(str(tmp_path), "polydeukes.config.yaml",
                         b"disciplines:\n  - {id: own, why: prose, draft: true}\n", "layer.yaml")
    assert [d.id for d in config.drafts] == ["own", "from-layer"]
    # The layer file is never protected automatically.
    assert config.protected_paths == ["polydeukes.config.yaml"]
