"""The config's JSON Schema (`pdks schema`, stdlib/schemas/polydeukes.schema.json).

The schema is generated from the validator's definitions (compiler/config_schema.py); these
tests hold it to the validator itself, over every config this repository carries (test cases,
golden files, the starter config, the docs, the live benchmark config) and over generated
declarations: a config the validator accepts and the compiler compiles without a fault is
accepted by the schema, and a config the validator refuses is refused by the schema unless the
reason is one JSON Schema cannot state (BEYOND_SCHEMA, each with its reason).
"""

from __future__ import annotations

import functools
import json
import re
from pathlib import Path

import jsonschema
import pytest
import yaml
from hypothesis import HealthCheck, event, given, settings

import golden
from conftest import RUNGS

from polydeukes.cli.scaffold import STARTER_CONFIG
from polydeukes.compiler import config_schema
from polydeukes.compiler.config import load_config
from polydeukes.compiler.diagnostics import ConfigError
from polydeukes.compiler.load import parse_config_text
from polydeukes.compiler.lower import lower_config

REPO = Path(__file__).parent.parent
SHIPPED = REPO / "stdlib" / "schemas" / "polydeukes.schema.json"
LIVE = Path("/work/shared/bench/live.polydeukes.config.yaml")
NAME = "polydeukes.config.yaml"

# Refusals JSON Schema cannot express: they relate two places of the document, need the
# JavaScript regex dialect, or a number JSON cannot carry.
BEYOND_SCHEMA = [
    (r"duplicates the id of an earlier entry", "ids unique across three lists"),
    (r"memory\.(obligations|supersedes)\[\d+\]\.(line|key|section) is invalid", "regex dialect"),
    (r"memory\.ticket\[\d+\]\.pattern is invalid", "regex dialect"),
    (r"scope\.(include|exclude) (must be a compilable|'.*' is refused)", "regex dialect"),
    (r"is not a string-valued source", "a scope may read a file source bound elsewhere"),
    (r"supply names the source", "names bound in sources"),
    (r"reads the source '.*', which is neither", "names bound in sources"),
    (r"references '.*', which no extract", "references between extractions"),
    (r"takes part in a reference cycle", "references between extractions"),
    (r"duplicates the entry id", "relate ids unique"),
    (r"shadows the body extract", "two blocks share one namespace"),
    (r"'onlyIn' names '.*' on both sides", "two properties compared"),
]
# JSON has no infinity: YAML's `.inf` passes `exclusiveMinimum: 0` but not the validator.
INFINITY = re.compile(r"(?m):\s*-?\.inf\b")


def _beyond(message: str, text: str) -> bool:
    if INFINITY.search(text):
        return True
    if any(re.search(pattern, message) for pattern, _ in BEYOND_SCHEMA):
        return True
    # A mechanism's admitted axes derive from what each step reads; its relations are checked.
    shape = re.search(r"expects relations (.*) on axes .*; this declaration relates (.*) on ",
                      message)
    if shape:
        return set(shape.group(2).split(", ")) <= set(shape.group(1).split(", "))
    return False


# Compile faults JSON Schema cannot see: the regex dialect and paired/single extractions.
FAULTS_BEYOND_SCHEMA = re.compile(
    r"cannot compile the expression|refuses the expression|needs at least one capture group|"
    r"reads a before/after pair|compares a before/after pair")


@pytest.fixture(scope="module")
def validator():
    return jsonschema.Draft202012Validator(json.loads(SHIPPED.read_text(encoding="utf-8")))


def test_shipped_schema_is_the_generated_one():
    docs = (REPO / "docs" / "declarations.md").read_text(encoding="utf-8")
    text = config_schema.render(config_schema.build(config_schema.doc_descriptions(docs)))
    golden.check(SHIPPED, text)
    jsonschema.Draft202012Validator.check_schema(json.loads(text))


def test_every_word_of_the_algebra_has_a_description_from_the_docs():
    from polydeukes.compiler.parse import vocabulary

    vocab = vocabulary()
    docs = config_schema.doc_descriptions((REPO / "docs" / "declarations.md").read_text("utf-8"))
    words = [*vocab.mechanisms, *vocab.declare_keys, *vocab.steps, *vocab.combinators,
             *vocab.relations, *vocab.predicate_operators]
    assert [word for word in words if word not in docs] == []


class _CaseLoader(yaml.SafeLoader):
    """Case files carry their own tags (`!ago`, `!missing`); only `config` texts matter here."""


_CaseLoader.add_multi_constructor("!", lambda loader, suffix, node: None)


def _configs() -> list:
    """(id, text) of every config this repository carries."""
    found = []
    for path in sorted((REPO / "tests" / "cases").rglob("*.yaml")):
        data = yaml.load(path.read_text(encoding="utf-8"), Loader=_CaseLoader)
        for index, case in enumerate(data if isinstance(data, list) else []):
            if isinstance(case, dict) and isinstance(case.get("config"), str):
                label = case.get("name") or case.get("note") or index
                found.append((f"{path.relative_to(REPO)}: {label}", case["config"]))
    for path in sorted((REPO / "tests" / "golden").rglob("*.config.yaml")):
        found.append((str(path.relative_to(REPO)), path.read_text(encoding="utf-8")))
    found.append(("starter", STARTER_CONFIG))
    found.append(("starter, rungs uncommented", RUNGS))
    for path in sorted((REPO / "docs").glob("*.md")):
        blocks = re.findall(r"```yaml\n(.*?)```", path.read_text(encoding="utf-8"), re.S)
        for index, block in enumerate(blocks):
            found.append((f"{path.relative_to(REPO)} block {index}", block))
    if LIVE.exists():
        found.append(("live config", LIVE.read_text(encoding="utf-8")))
    return found


@functools.lru_cache(maxsize=None)  # the corpus test and the parametrized one share the work
def _verdicts(text: str):
    """(data, validator message or None, compile fault reasons); None when not a config."""
    try:
        data, _ = parse_config_text(text, NAME)
    except ConfigError:
        return None  # a YAML error is the parser's, before any schema
    try:
        lowered = lower_config(load_config("/nonexistent", NAME, text.encode("utf-8")))
    except ConfigError as exc:
        return data, exc.message, []
    return data, None, [fault.reason for _, fault in lowered.faults]


CONFIGS = _configs()


def test_the_corpus_is_large_and_mixed():
    verdicts = [v for v in (_verdicts(text) for _, text in CONFIGS) if v is not None]
    accepted = [v for v in verdicts if v[1] is None and not v[2]]
    refused = [v for v in verdicts if v[1] is not None]
    assert len(accepted) > 100 and len(refused) > 100, (len(accepted), len(refused))


@pytest.mark.parametrize("label,text", CONFIGS, ids=[label for label, _ in CONFIGS])
def test_schema_agrees_with_the_validator(validator, label, text):
    verdict = _verdicts(text)
    if verdict is None:
        return
    data, message, faults = verdict
    errors = list(validator.iter_errors(data))
    if message is None and not faults:
        assert errors == [], f"schema refuses a valid config: {errors[0].message}"
    elif message is not None:
        if isinstance(data, dict) and _has_textual_declaration(data):
            return  # the schema reads a textual declaration as an opaque string
        assert errors or _beyond(message, text), f"schema accepts a config refused with: {message}"
    elif not (isinstance(data, dict) and _has_textual_declaration(data)):
        assert errors or all(FAULTS_BEYOND_SCHEMA.search(f) for f in faults), faults


def _has_textual_declaration(data: dict) -> bool:
    return any(isinstance(entry, dict) and isinstance(entry.get("declare"), str)
               for name in ("disciplines", "sessionDisciplines", "changeSetDisciplines")
               for entry in (data.get(name) if isinstance(data.get(name), list) else []))


# -- generated declarations ---------------------------------------------------------------------

from strategies_declare import declarations  # noqa: E402  (tests/ is on sys.path)

from polydeukes.compiler.declare import declaration_channels  # noqa: E402
from polydeukes.compiler.parse import parse_text  # noqa: E402
from polydeukes.compiler.render import render_declaration_text  # noqa: E402


def _list_for(channels: list[str]) -> str | None:
    session = any(c in ("transcript", "channel", "command", "actor") for c in channels)
    if session and "changes" in channels:
        return None
    return "sessionDisciplines" if session else (
        "changeSetDisciplines" if "changes" in channels else "disciplines")


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(declarations())
def test_generated_declarations_schema_iff_they_compile(validator, declaration):
    """Load-valid declarations (mapping form): the schema accepts exactly those that compile,
    up to the faults it cannot see."""
    data = parse_text(render_declaration_text(declaration)).data
    list_name = _list_for(declaration_channels(data))
    if list_name is None:
        return
    config = {list_name: [{"id": "generated", "declare": data}]}
    text = json.dumps(config)
    _, message, faults = _verdicts(text)
    assert message is None, message
    errors = list(validator.iter_errors(config))
    if not faults:
        event("compiles: the schema must accept")
        assert errors == [], errors[0].message
    elif not any(FAULTS_BEYOND_SCHEMA.search(f) for f in faults):
        event("a fault the schema can see")
        assert errors, faults
    else:
        event("a fault beyond the schema")


# -- pdks schema and the init directive ---------------------------------------------------------


def test_pdks_schema_prints_the_shipped_file(project):
    result = project.run("schema")
    assert (result.code, result.stderr) == (0, "")
    assert result.stdout == SHIPPED.read_text(encoding="utf-8")
    assert result.rows == []
    located = project.run("schema", "--path")
    assert located.code == 0 and Path(located.stdout.strip()).samefile(SHIPPED)
    assert project.run("schema", "input").stdout == (
        REPO / "stdlib" / "schemas" / "covenant-input.schema.json").read_text(encoding="utf-8")


@pytest.mark.parametrize("argv", [["schema", "bogus"], ["schema", "config", "extra"]])
def test_pdks_schema_usage_errors(project, argv):
    result = project.run(*argv)
    assert (result.code, result.stdout) == (2, "")
    assert result.stderr.startswith("usage: pdks covenant check")


def test_init_names_a_schema_inside_the_project(tmp_path, monkeypatch):
    """As with a project-local virtualenv: the directive is the path relative to the config."""
    from polydeukes import stdlib
    from polydeukes.cli.scaffold import run_init

    inside = tmp_path / ".venv" / "site" / "config"
    inside.parent.mkdir(parents=True)
    inside.write_text("{}", encoding="utf-8")
    monkeypatch.setattr(stdlib, "schema_path", lambda name: str(inside.with_name(name)))
    inside.with_name("tests").write_text("{}", encoding="utf-8")
    assert run_init(str(tmp_path)) == ["created polydeukes.config.yaml", "created .gitignore",
                                       "created polydeukes.tests.yaml"]
    text = (tmp_path / NAME).read_text(encoding="utf-8")
    assert text == "# yaml-language-server: $schema=.venv/site/config\n" + STARTER_CONFIG
    assert (tmp_path / "polydeukes.tests.yaml").read_text(encoding="utf-8").startswith(
        "# yaml-language-server: $schema=.venv/site/tests\n# Covenant test cases")


def test_init_writes_no_directive_to_a_schema_outside_the_project(project):
    # This checkout's schema lies outside the scratch project: a committed config must not
    # name a path that exists only on this machine.
    project.run("init")
    assert (project.root / NAME).read_text(encoding="utf-8") == STARTER_CONFIG
