"""The check path's shortcuts judge exactly like the plain path (vm/planfile.py, vm/machine.py).

A large plan.bin is read lazily (`LazyList`: an entry is decoded when first looked up) behind a
CRC-32, and the dispatcher asks only the declarations a surface's `RouteIndex` lets through.
These tests hold both to the plain behaviour: every judge case again through a lazily read plan,
and a large config judged the same with and without its plan.bin, and with every declaration
asked.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
import yaml
from conftest import rows_of
from test_judge_cases import _cases, payload_of, set_up, wanted

from polydeukes.cli.check import run_check
from polydeukes.compiler import compile_config
from polydeukes.compiler.diagnostics import ConfigError
from polydeukes.vm import machine, planfile

NAME = "polydeukes.config.yaml"
EXAMPLES = Path(__file__).parent / "cases" / "declare" / "forms" / "worked_examples.yaml"


def _check_in_process(root: Path, payload, flags: list[str], capsys) -> dict:
    capsys.readouterr()
    stdin = (payload if isinstance(payload, str) else json.dumps(payload)).encode("utf-8")
    code = run_check(flags, stdin=stdin)
    return {"exit": code, "stderr": capsys.readouterr().err.splitlines(),
            "rows": rows_of(root / ".polydeukes" / "roi.log")}


def _write_plan(root: Path) -> bool:
    raw = (root / NAME).read_bytes()
    try:
        plan = compile_config(str(root), NAME, raw).plan
    except ConfigError:
        return False  # a config that does not load has no plan to read
    planfile.write_plan(str(root), plan, planfile.plan_key(NAME, raw))
    return True


@pytest.mark.parametrize("case", _cases())
def test_judge_case_through_a_lazily_read_plan(case, project, monkeypatch, capsys):
    monkeypatch.setattr(planfile, "LAZY_FROM", 0)  # every plan.bin is read lazily
    monkeypatch.delenv("POLYDEUKES_TELEMETRY_PATH", raising=False)
    monkeypatch.chdir(project.root)
    set_up(case, project)
    if _write_plan(project.root):
        key = planfile.plan_key(NAME, (project.root / NAME).read_bytes())
        assert isinstance(planfile.read_plan(str(project.root), key).entries, planfile.LazyList)
    root = str(project.root)
    payload, flags = payload_of(case, root)
    assert _check_in_process(project.root, payload, flags, capsys) == wanted(case, root)


def _large_config() -> str:
    """300 disciplines from the spec's worked examples: every third keeps its scope (so the
    Edit below routes some), the others are scoped away from anything the calls touch."""
    entries = []
    for case in yaml.safe_load(EXAMPLES.read_text(encoding="utf-8")):
        entries.extend(yaml.safe_load(case["config"]).get("disciplines", []))
    chosen = []
    for i in range(300):
        entry = json.loads(json.dumps(entries[i % len(entries)]))
        entry["id"] = f"{entry['id']}-{i}"
        if i % 3:
            entry["declare"]["scope"] = {"source": "target.path", "include": [f"^never/{i}/"]}
        chosen.append(entry)
    return yaml.safe_dump({"disciplines": chosen}, sort_keys=False)


CALLS = [
    {"name": "Edit", "args": {"file_path": "src/app.py"},
     "fileChange": {"kind": "modify", "path": "src/app.py",
                    "pre": "it('a', () => {})\n", "post": "it.only('a', () => {})\n"}},
    {"name": "Write", "args": {"file_path": "locales/ko.json"},
     "fileChange": {"kind": "create", "path": "locales/ko.json", "post": '{"a": 1}'}},
    # A shell write with no session: every in-scope skip arm records it.
    {"name": "Bash", "args": {"command": "echo x > src/app.py"}},
]


@pytest.mark.parametrize("call", CALLS, ids=lambda call: call["name"])
def test_a_large_config_judges_the_same_with_and_without_its_plan(call, project, monkeypatch,
                                                                  capsys):
    monkeypatch.delenv("POLYDEUKES_TELEMETRY_PATH", raising=False)
    # The first check compiles a large config: not what is measured here, so no deadline near.
    monkeypatch.setenv("POLYDEUKES_DEADLINE_SECONDS", "3600")
    monkeypatch.chdir(project.root)
    project.config(_large_config())
    project.write("locales/en.json", '{"a": 1, "b": 2}')
    payload = {"toolCalls": [call], "subagentSpawns": [], "userMessages": [],
               "tools": {"mutating": ["Edit", "Write"], "shell": ["Bash"],
                         "commandArgs": ["command"]}}
    fresh = _check_in_process(project.root, payload, ["--enforce", "block"], capsys)
    plan_bin = project.root / ".polydeukes" / "plan.bin"
    assert len(plan_bin.read_bytes()) > planfile.LAZY_FROM  # the check wrote a large plan
    os.remove(project.root / ".polydeukes" / "roi.log")
    cached = _check_in_process(project.root, payload, ["--enforce", "block"], capsys)
    assert cached == fresh
    # The route index only spares asking: every declaration asked gives the same run.
    os.remove(project.root / ".polydeukes" / "roi.log")
    monkeypatch.setattr(machine.Declarations, "_routable",
                        lambda self, index, call: range(self.size))
    assert _check_in_process(project.root, payload, ["--enforce", "block"], capsys) == fresh
    assert len(fresh["rows"]) > 1  # something routed, so the comparison means something


def test_a_lazily_read_plan_equals_and_re_encodes_as_the_plan_it_was_written_from():
    raw = _large_config().encode("utf-8")
    plan = compile_config("/p", NAME, raw).plan
    key = planfile.plan_key(NAME, raw)
    data = planfile.encode_plan(plan, key)
    read = planfile.decode_plan(data, key)
    assert isinstance(read.entries, planfile.LazyList)
    assert read.entries[-1] == plan.entries[-1] and read.entries[5:8] == plan.entries[5:8]
    assert read == plan
    assert planfile.encode_plan(read, key) == data


def test_a_damaged_body_that_still_decodes_reads_as_no_plan():
    raw = _large_config().encode("utf-8")
    plan = compile_config("/p", NAME, raw).plan
    key = planfile.plan_key(NAME, raw)
    data = planfile.encode_plan(plan, key)
    label = plan.entries[200].label.encode("utf-8")
    at = data.rindex(label)
    damaged = data[:at] + label.upper() + data[at + len(label):]  # still well-formed msgpack
    assert planfile.decode_plan(damaged, key) is None


UNREADABLE_SOURCE = r"""
disciplines:
  - id: 'database-location'
    declare:
      mechanism: 'naming'
      scope: { source: 'target.path', include: ['\.db$'] }
      extract:
        outside:
          - { op: 'source', of: 'target.path' }
          - { op: 'matches', re: '^(?!data/)' }
      relate:
        - id: 'location'
          relation: { op: 'empty', of: 'outside' }
          message: '{value} must be under data/'
  - id: 'locale-key-parity'
    declare:
      mechanism: 'pairing'
      sources:
        ko: { file: 'locales/ko.json' }
        en: { file: 'locales/en.json' }
      scope: { source: 'target.path', include: ['^never/'] }
      extract:
        koKeys:
          - { op: 'source', of: 'ko' }
        enKeys:
          - { op: 'source', of: 'en' }
      relate:
        - id: 'parity'
          relation: { op: 'equal', of: ['koKeys', 'enKeys'] }
          message: '{key} differs'
"""


def test_an_unreadable_file_source_fails_the_run_at_its_declaration_though_it_cannot_route(
        project, monkeypatch, capsys):
    # A declaration reads its file sources before its scope test, so a read that fails ends the
    # run at that declaration, after the rows before it: the route index must keep that.
    monkeypatch.delenv("POLYDEUKES_TELEMETRY_PATH", raising=False)
    monkeypatch.chdir(project.root)
    project.config(UNREADABLE_SOURCE)
    (project.root / "locales").mkdir()
    os.symlink("ko.json", project.root / "locales" / "ko.json")  # a loop: ELOOP, not absence
    payload = {"toolCalls": [{"name": "Write", "args": {"file_path": "tmp/a.db"},
                              "fileChange": {"kind": "create", "path": "tmp/a.db", "post": ""}}],
               "subagentSpawns": [], "userMessages": []}
    indexed = _check_in_process(project.root, payload, [], capsys)
    assert indexed["exit"] == 2
    assert indexed["stderr"][-1].startswith(
        "covenant check failed closed: cannot read locales/ko.json: ")
    assert indexed["rows"] == [["advised", "database-location", "tmp/a.db",
                                '[{"id":"location","witnesses":[{"key":"0","value":"tmp/a.db"}],'
                                '"total":1}]'],
                               ["blocked", "covenant-check", "-"]]
    os.remove(project.root / ".polydeukes" / "roi.log")
    monkeypatch.setattr(machine.Declarations, "_routable",
                        lambda self, index, call: range(self.size))
    assert _check_in_process(project.root, payload, [], capsys) == indexed


def test_a_stale_plan_check_composes_translates_and_decodes_once(project, monkeypatch, capsys):
    """Compile and judge in one process: the config composed once, each distinct pattern
    translated once, the plan written and not read back, the same verdict as with its plan."""
    from polydeukes.cli import check as check_command
    from polydeukes.compiler import load, regex
    from polydeukes.vm.telemetry import TelemetryWriter

    monkeypatch.delenv("POLYDEUKES_TELEMETRY_PATH", raising=False)
    monkeypatch.chdir(project.root)
    project.config(_large_config())
    payload = json.dumps({"toolCalls": [CALLS[0]], "subagentSpawns": [], "userMessages": [],
                          "tools": {"mutating": ["Edit", "Write"]}}).encode()
    counts = {"composed": 0, "translated": [], "decoded": 0}
    compose, translate, decode = load._compose, regex._translate, planfile.decode_plan

    def composed(text):
        counts["composed"] += 1
        return compose(text)

    def translated(*args):
        counts["translated"].append(args)
        return translate(*args)

    def decoded(*args, **kwargs):
        counts["decoded"] += 1
        return decode(*args, **kwargs)

    monkeypatch.setattr(load, "_compose", composed)
    monkeypatch.setattr(regex, "_translate", translated)
    monkeypatch.setattr(planfile, "decode_plan", decoded)
    regex._translated.cache_clear()  # translations earlier tests left in this process
    flags = check_command.parse_flags(["--enforce", "block"])
    lines: list[str] = []

    def judged() -> tuple:
        log = project.root / ".polydeukes" / "roi.log"
        code = check_command.check(flags, str(project.root), lambda: payload,
                                   stderr=lines.append, telemetry=TelemetryWriter(str(log)))
        rows = rows_of(log)
        log.unlink()
        return code, list(lines), rows

    stale = judged()
    assert counts["composed"] == 1 and counts["decoded"] == 0
    assert len(counts["translated"]) == len(set(counts["translated"])) > 0
    assert (project.root / ".polydeukes" / "plan.bin").exists()
    lines.clear()
    assert judged() == stale  # the next check reads the plan it wrote, and judges alike
    assert counts["composed"] == 1 and counts["decoded"] == 1
