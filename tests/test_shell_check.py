"""The shell case table (tests/cases/shell/) through the real `pdks covenant check` process.

Each case's command is sent as a `Bash` call with a shell roster, posture `block`, in a project
whose `protectedPaths` are the case's entries. The table's root `/home/u/proj` and home
`/home/u` are rebased onto a scratch directory of the same shape (`<tmp>/u/proj`, `<tmp>/u`,
with HOME set to the latter), so absolute-path and `~` spellings mean what the table says.
"""

from __future__ import annotations

import json
import os
import subprocess

import pytest

from conftest import PDKS, rows_of
from test_shell import CASES, HOME, ROOT

ROSTER = {"mutating": ["Edit", "Write"], "shell": ["Bash"], "commandArgs": ["command"]}


@pytest.fixture(scope="module")
def scratch(tmp_path_factory):
    base = tmp_path_factory.mktemp("shell")
    home = base / "u"
    root = home / "proj"
    root.mkdir(parents=True)
    return str(root), str(home)


def _rebase(text, root: str, home: str):
    if isinstance(text, str):
        return text.replace(ROOT, root).replace(HOME, home)
    return text


@pytest.mark.parametrize("case", CASES)
def test_case_through_pdks(scratch, case):
    if case["root"] != ROOT or case["home"] != HOME:
        pytest.skip("the case pins its own root or home")
    root, home = scratch
    protected = [_rebase(p, root, home) for p in case["protected"]]
    config = "protectedPaths: " + json.dumps(protected) + "\n"
    config_path = os.path.join(root, "polydeukes.config.yaml")
    with open(config_path, "w", encoding="utf-8") as handle:
        handle.write(config)
    log = os.path.join(root, "roi-" + str(abs(hash(case["note"]))) + ".log")
    command = _rebase(case["command"], root, home)
    payload = {"toolCalls": [{"name": "Bash", "args": {"command": command}}],
               "subagentSpawns": [], "userMessages": [], "tools": ROSTER}
    env = {k: v for k, v in os.environ.items() if k != "POLYDEUKES_TELEMETRY_PATH"}
    env["HOME"] = home
    done = subprocess.run([*PDKS, "covenant", "check", "--enforce", "block",
                           "--telemetry-path", log],
                          input=json.dumps(payload).encode(), cwd=root, env=env,
                          capture_output=True, timeout=60)
    stderr = done.stderr.decode()
    assert "Traceback" not in stderr
    rows = rows_of(__import__("pathlib").Path(log))
    want = case["want"]
    shell_rows = [row for row in rows if row[1] == "shell-mod"]
    if want["verdict"] == "block":
        assert done.returncode == 2, stderr
        assert shell_rows == [["blocked", "shell-mod", _rebase(want["subject"], root, home)]]
        assert _rebase(want["reason"], root, home) in stderr.splitlines()
    else:
        assert done.returncode == 0, stderr
        assert all(row[0] != "blocked" for row in rows), rows
    backstop = [row for row in rows if row[1] == "shell-unjudgeable"]
    assert backstop == ([["skipped", "shell-unjudgeable", "-", "no-observation"]]
                        if want["unjudgeable"] else [])


FOCUSED = r"""
disciplines:
  - id: no-focused-tests
    enforce: block
    declare:
      mechanism: added-only
      scope: { source: target.path, include: ['^src/'] }
      supply: { pre: empty, post: empty }
      extract:
        before: [{ op: source, of: pre }, { op: lines }, { op: keyByPattern, re: '(\.only\()' }]
        after: [{ op: source, of: post }, { op: lines }, { op: keyByPattern, re: '(\.only\()' }]
        added: [{ op: onlyIn, of: after, notIn: before }]
      relate:
        - { id: nothing-added, relation: { op: empty, of: added }, message: 'adds {key}: {value}' }
"""


def _shell_call(project, command: str, *, session: bool):
    payload = {"toolCalls": [{"name": "Bash", "args": {"command": command}}],
               "subagentSpawns": [], "userMessages": [], "tools": ROSTER}
    if session:
        payload["session"] = {"userMessages": [], "toolCalls": []}
    return project.check(payload, "--enforce", "block")


def _without_baseline(rows):
    return [row for row in rows if row[1] != "baseline"]


def test_a_computable_shell_write_is_judged_like_an_edit(project):
    project.config("protectedPaths: ['.claude/hooks']\n" + FOCUSED)
    project.write("src/a.ts", "it('works');\n")
    command = "cat >> src/a.ts <<'EOF'\nit.only('focus');\nEOF"
    result = _shell_call(project, command, session=True)
    assert result.code == 2
    assert result.stderr == (
        "discipline 'no-focused-tests' broken on src/a.ts: adds .only(: it.only('focus');\n")
    assert _without_baseline(result.rows) == [[
        "blocked", "no-focused-tests", "src/a.ts",
        '[{"id":"nothing-added","witnesses":[{"key":".only(","value":"it.only(\'focus\');"}],'
        '"total":1}]']]
    # The pre-state came from disk: an append of a line the file already has adds nothing.
    project.write("src/a.ts", "it.only('focus');\n")
    assert _shell_call(project, command, session=True).code == 0


def test_an_uncomputable_write_in_scope_is_recorded_not_guessed(project):
    project.config("protectedPaths: ['.claude/hooks']\n" + FOCUSED)
    result = _shell_call(project, "sed -i 's/it(/it.only(/' src/a.ts", session=True)
    assert result.code == 0
    assert _without_baseline(result.rows) == [
        ["skipped", "no-focused-tests", "src/a.ts", "no-observation"]]


def test_without_a_session_a_computable_write_has_no_pre_state_channel(project):
    project.config("protectedPaths: ['.claude/hooks']\n" + FOCUSED)
    result = _shell_call(project, "echo 'it.only(1)' > src/a.ts", session=False)
    assert result.code == 0
    assert result.rows == [["skipped", "no-focused-tests", "src/a.ts", "no-observation"]]


def test_an_undeterminable_target_records_the_backstop(project):
    project.config("protectedPaths: ['.claude/hooks']\n" + FOCUSED)
    result = _shell_call(project, 'echo x > "$OUT"', session=True)
    assert result.code == 0
    assert _without_baseline(result.rows) == [["skipped", "shell-unjudgeable", "-", "no-observation"]]


def test_a_protected_write_through_a_wrapper_is_blocked_and_witnessable(project):
    import time

    project.config("protectedPaths: ['.claude/hooks']\nwitness: {token: 'pdks witness', ttlMinutes: 10}\n")
    command = "sudo -u root bash -c 'echo x > .claude/hooks/pre.sh'"
    blocked = _shell_call(project, command, session=True)
    assert blocked.code == 2
    assert ["blocked", "shell-mod", ".claude/hooks"] in blocked.rows
    payload = {"toolCalls": [{"name": "Bash", "args": {"command": command}}],
               "subagentSpawns": [], "userMessages": [], "tools": ROSTER,
               "session": {"userMessages": [{"text": "pdks witness",
                                             "timestampMs": time.time() * 1000 - 1000}],
                           "toolCalls": []}}
    opened = project.check(payload, "--enforce", "block")
    assert opened.code == 0
    assert ["witnessed", "shell-mod", ".claude/hooks"] in opened.rows
