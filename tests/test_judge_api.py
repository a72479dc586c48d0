"""`from polydeukes import Judge`: the in-process API (api/judge.py) against the `pdks` process.

The law: for the same project and input, `Judge.check` answers exactly what
`pdks covenant check --enforce <level>` answers — exit code, stderr byte for byte, and the rows
it appends (timestamps aside). Checked on generated configs and inputs, each side in its own
copy of the project so that neither's plan cache or baseline can speak for the other.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

import strategies_judge as sj
from conftest import PDKS, rows_of

from polydeukes import Judge, Verdict
from polydeukes.cli.planning import PlanUnavailable, compile_to_disk

OBSERVED_AT = re.compile(r'"observedAtMs":\d+')  # the transcript snapshot's wall clock
ROSTER = {"mutating": ["Edit", "Write"], "shell": ["Bash"], "commandArgs": ["command"]}
PATHS = ["src/a.ts", "locales/en.json", "b.ko.json", ".claude/hooks/x", "polydeukes.config.yaml"]
TEXTS = ["", "a\n", "TODO fix\n", "it.only(x)\n", '{"a": 1}', "debugger;\n"]


@st.composite
def calls(draw) -> dict:
    kind = draw(st.sampled_from(["modify", "create", "delete", "bash", "none"]))
    path = draw(st.sampled_from(PATHS))
    if kind == "bash":
        command = draw(st.sampled_from(["ls", "echo x > .claude/hooks/y", "sed -i s/a/b/ src/a.ts",
                                        "cat locales/en.json", "rm -rf ."]))
        return {"name": "Bash", "args": {"command": command}}
    call = {"name": "Edit" if kind == "modify" else "Write", "args": {"file_path": path}}
    if kind == "modify":
        call["fileChange"] = {"kind": "modify", "path": path, "pre": draw(st.sampled_from(TEXTS)),
                              "post": draw(st.sampled_from(TEXTS))}
    elif kind == "create":
        call["fileChange"] = {"kind": "create", "path": path, "post": draw(st.sampled_from(TEXTS))}
    elif kind == "delete":
        call["fileChange"] = {"kind": "delete", "path": path}
    return call


@st.composite
def inputs(draw) -> bytes:
    if draw(st.integers(0, 12)) == 0:  # now and then an input the runner refuses
        return draw(st.sampled_from([b"", b"{", b"[]", b'{"toolCalls": []}',
                                     b'{"toolCalls":[],"subagentSpawns":[],"userMessages":[],'
                                     b'"world":{}}']))
    ir: dict = {"toolCalls": draw(st.lists(calls(), min_size=0, max_size=2)),
                "subagentSpawns": [], "userMessages": []}
    if draw(st.booleans()):
        ir["tools"] = ROSTER
    if draw(st.booleans()):
        ir["actor"] = draw(st.sampled_from([{}, {"agentType": "reviewer"}]))
    if draw(st.booleans()):
        ir["session"] = {"userMessages": draw(st.sampled_from([
            [], [{"text": "pdks witness", "timestampMs": 10**13}]])), "toolCalls": []}
    return json.dumps(ir).encode()


def _project(root: Path, config: str) -> None:
    root.mkdir(parents=True)
    (root / "polydeukes.config.yaml").write_text(config, encoding="utf-8")
    (root / "locales").mkdir()
    (root / "locales" / "en.json").write_text('{"a": 1, "b": 2}', encoding="utf-8")
    (root / "locales" / "ko.json").write_text('{"a": 1}', encoding="utf-8")


def _config(disciplines_json: str) -> str:
    data = json.loads(disciplines_json)
    data["protectedPaths"] = [".claude/hooks"]
    data["witness"] = {"token": "pdks witness", "ttlMinutes": 10}
    # Not ensure_ascii: the YAML loader reads a JSON `\\ud83d\\ude00` escape as two lone
    # surrogates (a loader limit this test is not about).
    return json.dumps(data, ensure_ascii=False)


@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(config=sj.configs(), raw=inputs(), enforce=st.sampled_from(["advise", "block"]),
       unattended=st.booleans())
def test_judge_check_is_the_pdks_process(tmp_path_factory, config, raw, enforce, unattended):
    base = tmp_path_factory.mktemp("judge")
    config = _config(config)
    _project(base / "in-process", config)
    _project(base / "process", config)
    judge = Judge(base / "in-process", telemetry=base / "in-process.log")
    verdict = judge.check(raw, enforce, unattended=unattended)
    try:  # a fresh plan.bin spares the process the compiler; verdicts are the same either way
        compile_to_disk(str(base / "process"))
    except PlanUnavailable:
        pass
    flags = ["--enforce", enforce] + (["--unattended"] if unattended else [])
    done = subprocess.run([*PDKS, "covenant", "check", *flags, "--telemetry-path",
                           str(base / "process.log")], input=raw, cwd=base / "process",
                          capture_output=True, env=_clean_env())

    def same(text: str) -> str:  # the other project's path, and the clock, aside
        text = text.replace(str(base / "process"), str(base / "in-process"))
        return OBSERVED_AT.sub('"observedAtMs":T', text)

    event(f"exit {verdict.exit_code}, {len(verdict.rows)} row(s)"
          + (", failed closed" if "failed closed" in verdict.stderr else ""))
    assert verdict.exit_code == done.returncode
    assert same(verdict.stderr) == same(done.stderr.decode("utf-8"))
    assert [same(row.line) for row in verdict.rows] == [
        same("\t".join(row)) for row in rows_of(base / "process.log")]
    assert rows_of(base / "in-process.log") == [row.line.split("\t") for row in verdict.rows]


def _clean_env() -> dict:
    return {k: v for k, v in os.environ.items() if k != "POLYDEUKES_TELEMETRY_PATH"}


CONFIG = """\
protectedPaths: ['.claude/hooks']
witness: {token: 'pdks witness', ttlMinutes: 10}
disciplines:
  - id: no-todo
    why: a TODO is a promise nobody keeps
    enforce: block
    declare:
      mechanism: added-only
      scope: {source: target.path, include: ['^src/']}
      supply: {pre: empty, post: empty}
      extract:
        before: [{op: source, of: pre}, {op: lines}, {op: keyByPattern, re: '(TODO)'}]
        after: [{op: source, of: post}, {op: lines}, {op: keyByPattern, re: '(TODO)'}]
        added: [{op: onlyIn, of: after, notIn: before}]
      relate: [{id: none-added, relation: {op: empty, of: added}, message: 'adds {value}'}]
"""


def edit(path: str, pre: str, post: str, **extra) -> dict:
    return {"toolCalls": [{"name": "Edit", "args": {"file_path": path},
                           "fileChange": {"kind": "modify", "path": path, "pre": pre,
                                          "post": post}}],
            "subagentSpawns": [], "userMessages": [], "tools": ROSTER, **extra}


def test_a_verdict_reads_like_the_rows(project):
    project.config(CONFIG)
    judge = Judge(project.root, telemetry=False)
    verdict = judge.check(edit("src/a.ts", "a\n", "a\nTODO: later\n"))
    assert isinstance(verdict, Verdict)
    assert (verdict.exit_code, verdict.blocked) == (2, True)
    assert verdict.reason == ("discipline 'no-todo' broken on src/a.ts: adds TODO: later "
                              "— why: a TODO is a promise nobody keeps")
    (row,) = verdict.of("no-todo")
    assert (row.event, row.subject, row.message) == ("blocked", "src/a.ts", verdict.reason)
    assert json.loads(row.detail)[0]["id"] == "none-added"
    assert verdict.stderr == verdict.reason + "\n"
    advised = judge.check(edit("src/a.ts", "a\n", "a\nTODO: later\n"), enforce="advise")
    assert (advised.exit_code, advised.reason) == (0, None)
    assert advised.stderr.endswith("covenant advisory: 1 verdict(s) recorded as advised, "
                                   "commit allowed\n")
    passed = judge.check(json.dumps(edit("README.md", "a", "b")))
    assert passed.rows[0][:3] == ("passed", "covenant-check", "README.md")


def test_telemetry_false_writes_nothing(project):
    project.config(CONFIG)
    judge = Judge(project.root, telemetry=False)
    judge.check(edit("src/a.ts", "", "TODO\n", session={"userMessages": [], "toolCalls": []}))
    assert sorted(p.name for p in project.root.iterdir()) == [".polydeukes",
                                                             "polydeukes.config.yaml"]
    assert [p.name for p in (project.root / ".polydeukes").iterdir()] == ["plan.bin"]


def test_telemetry_true_writes_where_the_command_would(project, monkeypatch):
    project.config(CONFIG + "telemetry: {logPath: logs/roi.log}\n")
    monkeypatch.delenv("POLYDEUKES_TELEMETRY_PATH", raising=False)
    verdict = Judge(project.root).check(edit("src/a.ts", "", "TODO\n"))
    assert rows_of(project.root / "logs" / "roi.log") == [row.line.split("\t")
                                                          for row in verdict.rows]
    monkeypatch.setenv("POLYDEUKES_TELEMETRY_PATH", str(project.root / "env.log"))
    Judge(project.root).check(edit("src/a.ts", "", "x\n"))
    assert rows_of(project.root / "env.log") == [["passed", "no-todo", "src/a.ts"]]
    Judge(project.root, telemetry=project.root / "mine.log").check(edit("src/a.ts", "", "x\n"))
    assert rows_of(project.root / "mine.log") == [["passed", "no-todo", "src/a.ts"]]


def test_the_plan_follows_the_config_file(project):
    project.config(CONFIG)
    judge = Judge(project.root, telemetry=False)
    assert judge.check(edit("src/a.ts", "", "TODO\n")).exit_code == 2
    project.config(CONFIG.replace("enforce: block", "enforce: advise"))
    assert judge.check(edit("src/a.ts", "", "TODO\n")).exit_code == 0
    project.config("languages: 1\n")
    broken = judge.check(edit("src/a.ts", "", "TODO\n"))
    assert broken.exit_code == 2
    assert broken.stderr.startswith("covenant check failed closed: invalid config in "
                                    "polydeukes.config.yaml: languages must be an object")
    assert [row[:3] for row in broken.rows] == [("blocked", "covenant-check", "-")]
    assert broken.reason == broken.stderr[:-1]


def test_a_missing_config_fails_closed_without_raising(tmp_path):
    missing = Judge(tmp_path, telemetry=False).check(edit("src/a.ts", "", "TODO\n"))
    assert missing.exit_code == 2 and missing.stderr == (
        f"covenant check failed closed: no Polydeukes config found in {tmp_path} — expected "
        "one of: polydeukes.config.yaml, polydeukes.config.yml, polydeukes.config.json\n")
    (tmp_path / "polydeukes.config.yaml").write_text(CONFIG)
    os.utime(tmp_path, ns=(10**18, 10**18))  # an old directory: its discovery is trusted
    judge = Judge(tmp_path, telemetry=False)
    assert judge.check(edit("src/a.ts", "", "TODO\n")).exit_code == 2
    (tmp_path / "polydeukes.config.yml").write_text(CONFIG)  # the directory's mtime moves
    verdict = judge.check(edit("src/a.ts", "", "TODO\n"))
    assert verdict.exit_code == 2 and verdict.stderr.startswith(
        "covenant check failed closed: ambiguous Polydeukes config")


def test_another_config_file(project):
    project.config("languages: {}\n")
    project.write("strict.yaml", CONFIG)
    assert Judge(project.root, telemetry=False).check(edit("src/a.ts", "", "TODO\n")).exit_code == 0
    strict = Judge(project.root, config="strict.yaml", telemetry=False)
    assert strict.check(edit("src/a.ts", "", "TODO\n")).exit_code == 2
    assert strict.check(edit("strict.yaml", "a", "b")).of("self-mod")[0].event == "blocked"


def test_importing_polydeukes_costs_the_hot_path_nothing(project):
    project.config(CONFIG)
    Judge(project.root)  # a fresh plan.bin
    probe = ("import sys, polydeukes.cli.check, polydeukes.cli.planning; "
             "print(sorted(m for m in ('polydeukes.judge', 'lark', 'yaml', 'click') "
             "if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    assert done.stdout == "[]\n", done.stderr
    probe = ("import sys; from polydeukes import Judge; j = Judge('.'); "
             "j.check(" + repr(json.dumps(edit("src/a.ts", "", "x"))) + "); "
             "print(sorted(m for m in ('lark', 'yaml', 'click') if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          cwd=project.root)
    assert done.stdout == "[]\n", done.stderr


def test_a_real_install(tmp_path):
    """A wheel built from this tree, installed (not editable) into a virtualenv inside a project:
    the top-level `polydeukes` package and its subpackages, the shipped schemas, the editor
    directive `pdks init` writes, `pdks test`, the pytest plugin by its entry point, and the
    bundled docs."""
    repo = Path(__file__).parent.parent
    wheels = tmp_path / "wheels"
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w",
                            str(wheels), str(repo)], capture_output=True, text=True)
    if built.returncode and "No matching distribution found" in built.stderr:
        pytest.skip("pip cannot fetch the build backend (setuptools) here: " + built.stderr[-200:])
    assert built.returncode == 0, built.stderr
    project = tmp_path / "project"
    venv = project / ".venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "-q",
                    "--no-deps", *map(str, wheels.glob("polydeukes-*.whl"))],
                   check=True, capture_output=True)
    # The dependencies (msgspec, lark, pyyaml, click, pytest) from this environment's
    # site-packages, by a plain path line: no .pth of that directory runs, so this checkout's
    # editable install stays out.
    site = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
                          check=True, capture_output=True, text=True).stdout.strip()
    ours = [p for p in sys.path if p.endswith("site-packages")][0]
    Path(site, "deps.pth").write_text(ours + "\n")

    def run(*argv: str) -> subprocess.CompletedProcess:
        return subprocess.run(argv, cwd=project, capture_output=True, text=True,
                              env={"PATH": f"{venv / 'bin'}:/usr/bin:/bin", "HOME": str(tmp_path)})

    where = run(str(python), "-c", "import polydeukes, polydeukes.cli, polydeukes.judge; "
                                   "from polydeukes import Judge; print(polydeukes.__file__)")
    assert where.stdout.startswith(site), where.stderr
    assert run(str(venv / "bin" / "pdks"), "init").returncode == 0
    first = (project / "polydeukes.config.yaml").read_text().split("\n", 1)[0]
    directive = "# yaml-language-server: $schema=.venv/lib/"
    assert first.startswith(directive) and first.endswith(
        "/site-packages/polydeukes/stdlib/schemas/polydeukes.schema.json")
    assert (project / first.split("=", 1)[1]).is_file()
    assert (project / "polydeukes.tests.yaml").read_text().startswith(
        "# yaml-language-server: $schema=.venv/lib/")
    tested = run(str(venv / "bin" / "pdks"), "test")
    assert tested.returncode == 0 and "6 passed" in tested.stdout, tested.stdout + tested.stderr
    plugin = run(str(python), "-m", "pytest", "-q", "-p", "no:cacheprovider", "polydeukes.tests.yaml")
    assert plugin.returncode == 0 and "6 passed" in plugin.stdout, plugin.stdout + plugin.stderr
    docs = run(str(venv / "bin" / "pdks"), "docs", "testing-disciplines")
    assert docs.returncode == 0 and docs.stdout.startswith("# Testing disciplines"), docs.stderr
    verdict = run(str(python), "-c", "from polydeukes import Judge; print(Judge('.').check("
                  + repr(json.dumps(edit(".claude/hooks/x", "a", "b"))) + ").exit_code)")
    assert verdict.stdout == "2\n", verdict.stderr
    shutil.rmtree(wheels)


def test_no_input_makes_a_check_raise_it_is_refused_as_the_command_would(project):
    """What the command refuses on stdin, Judge refuses the same way; what no stdin could carry
    (an object JSON has no form for, a string that is not Unicode) is refused as stdin that is
    not JSON: exit 2, the failed-closed line, one blocked covenant-check row."""
    project.config(CONFIG)
    judge = Judge(project.root, telemetry=False)
    cyclic: dict = {"toolCalls": []}
    cyclic["self"] = cyclic
    not_json = "covenant check failed closed: input is not a JSON object\n"
    for ir, stderr in [
        ({"toolCalls": [], "at": object()}, not_json),
        (cyclic, not_json),
        ('{"toolCalls": [], "a": "\ud800"}', not_json),
        (b"\xff", not_json),
        (b" " * (64 * 2 ** 20 + 1), "covenant check failed closed: the input is larger than 64 MiB\n"),
    ]:
        verdict = judge.check(ir)
        assert (verdict.exit_code, verdict.stderr) == (2, stderr), repr(ir)[:40]
        assert [row[:3] for row in verdict.rows] == [("blocked", "covenant-check", "-")]
    diff = judge.check_diff("--- a/x\n+++ b/x\n@@ -1 +1 @@\n-\ud800\n+b\n")
    assert (diff.exit_code, diff.stderr) == (
        2, "covenant check failed closed: unified diff: the input is not UTF-8 text\n")
