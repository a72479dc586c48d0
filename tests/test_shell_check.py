"""The shell case table (tests/cases/shell/) through the real `pdks covenant check` process.

Every case's command is sent as a `Bash` call with a shell roster, posture `block`, in a project
whose `protectedPaths` are the case's entries. The table's root `/home/u/proj` and home `/home/u`
are rebased onto a scratch directory of the same shape (`<tmp>/u/proj`, `<tmp>/u`, with HOME set
to the latter), so absolute-path and `~` spellings mean what the table says; a case with a
`tree` gets those files (and links, archives) in its project first.

Cases are batched: one process judges every case that shares a configuration (protected list
and tree), one `Bash` call per case, each followed by a marker call that routes nothing and so
records `passed covenant-check marker-<n>`. The rows between two markers are the case's, and
each `blocked shell-mod` row has its reason line on stderr in the same order, so every verdict
is still attributed to its case. The exit code of a batch is the worst of its calls; a
separate set of one process per case (`EXIT_CASES`: the first block and the first pass of each
table file) checks the exit code itself.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import defaultdict

import pytest

from conftest import PDKS, rows_of
from shell_tree import make_tree, rebase
from test_shell import CASES, HOME, ROOT

ROSTER = {"mutating": ["Edit", "Write"], "shell": ["Bash"], "commandArgs": ["command"]}
MARKER = "Marker"


def _config_key(case: dict) -> str:
    return json.dumps([case["protected"], case.get("tree")], sort_keys=True)


def _batches() -> list:
    grouped: dict[str, list] = defaultdict(list)
    for param in CASES:
        case = param.values[0]
        if case["root"] != ROOT or case["home"] != HOME:
            continue  # the case pins its own root or home: judged in-process only
        grouped[_config_key(case)].append((param.id, case))
    # (a batch is one `pdks covenant check` under the 10 s deadline: the common protected list
    # gathered some 2,000 calls, near the deadline on a loaded machine, so groups are cut)
    chunks = [cases[k : k + _BATCH] for cases in grouped.values() for k in range(0, len(cases), _BATCH)]
    return [pytest.param(cases, id=f"batch-{k}-{cases[0][0]}") for k, cases in enumerate(chunks)]


_BATCH = 250  # calls per process


def _exit_cases() -> list:
    chosen: dict[tuple[str, str], tuple[str, dict]] = {}
    for param in CASES:
        case = param.values[0]
        if case["root"] != ROOT or case["home"] != HOME:
            continue
        key = (param.id.rsplit("-", 1)[0], case["want"]["verdict"])
        chosen.setdefault(key, (param.id, case))
    return [pytest.param(case, id=case_id) for case_id, case in chosen.values()]


def _scratch(tmp_path_factory, case: dict):
    base = tmp_path_factory.mktemp("shell")
    home = base / "u"
    root = home / "proj"
    root.mkdir(parents=True)
    if case.get("tree"):
        make_tree(root, case["tree"])
    return str(root), str(home)


def _run(root: str, home: str, case: dict, calls: list, log: str) -> subprocess.CompletedProcess:
    protected = [rebase(p, root, home) for p in case["protected"]]
    with open(os.path.join(root, "polydeukes.config.yaml"), "w", encoding="utf-8") as handle:
        handle.write("protectedPaths: " + json.dumps(protected) + "\n")
    payload = {"toolCalls": calls, "subagentSpawns": [], "userMessages": [], "tools": ROSTER}
    env = {k: v for k, v in os.environ.items() if k != "POLYDEUKES_TELEMETRY_PATH"}
    env["HOME"] = home
    return subprocess.run([*PDKS, "covenant", "check", "--enforce", "block", "--telemetry-path", log],
                          input=json.dumps(payload).encode(), cwd=root, env=env,
                          capture_output=True, timeout=120)


def _bash(command: str, cwd: str | None = None) -> dict:
    call = {"name": "Bash", "args": {"command": command}}
    if cwd is not None:
        call["cwd"] = cwd  # (the directory the host runs it in)
    return call


@pytest.mark.parametrize("cases", _batches())
def test_table_through_pdks(tmp_path_factory, cases) -> None:
    root, home = _scratch(tmp_path_factory, cases[0][1])
    calls = []
    for n, (_case_id, case) in enumerate(cases):
        calls.append(_bash(rebase(case["command"], root, home), rebase(case.get("cwd"), root, home)))
        calls.append({"name": MARKER, "args": {"file_path": f"marker-{n}"}})
    log = os.path.join(root, "roi.log")
    done = _run(root, home, cases[0][1], calls, log)
    stderr = done.stderr.decode()
    assert "Traceback" not in stderr
    from pathlib import Path

    rows = rows_of(Path(log))
    reasons = iter(stderr.splitlines())
    expected_code = 0
    index = 0
    for n, (case_id, case) in enumerate(cases):
        case_rows = []
        while rows[index] != ["passed", "covenant-check", f"marker-{n}"]:
            case_rows.append(rows[index])
            index += 1
        index += 1
        want = case["want"]
        shell_rows = [row for row in case_rows if row[1] == "shell-mod"]
        if want["verdict"] == "block":
            expected_code = 2
            assert shell_rows == [["blocked", "shell-mod", rebase(want["subject"], root, home)]], case_id
            assert next(reasons) == rebase(want["reason"], root, home), case_id
        else:
            assert all(row[0] != "blocked" for row in case_rows), (case_id, case_rows)
        backstop = [row for row in case_rows if row[1] == "shell-unjudgeable"]
        assert backstop == ([["skipped", "shell-unjudgeable", "-", "no-observation"]]
                            if want["unjudgeable"] else []), case_id
    assert index == len(rows)
    assert next(reasons, None) is None
    assert done.returncode == expected_code, stderr


@pytest.mark.parametrize("case", _exit_cases())
def test_exit_code_per_case(tmp_path_factory, case) -> None:
    """One process per case for a sample: the exit code and stderr of a lone call."""
    root, home = _scratch(tmp_path_factory, case)
    log = os.path.join(root, "roi.log")
    done = _run(root, home, case, [_bash(rebase(case["command"], root, home), rebase(case.get("cwd"), root, home))], log)
    stderr = done.stderr.decode()
    if case["want"]["verdict"] == "block":
        assert done.returncode == 2
        assert stderr == rebase(case["want"]["reason"], root, home) + "\n"
    else:
        assert done.returncode == 0
        assert stderr == ""


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
    payload = {"toolCalls": [_bash(command)], "subagentSpawns": [], "userMessages": [], "tools": ROSTER}
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


def test_a_modelled_write_in_scope_is_recorded_too(project):
    """The effect model feeds the derivation: `cp x src/a.ts` is a write to an in-scope path
    whose content this layer does not compute."""
    project.config("protectedPaths: ['.claude/hooks']\n" + FOCUSED)
    result = _shell_call(project, "cp /tmp/elsewhere.ts src/a.ts", session=True)
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
    payload = {"toolCalls": [_bash(command)], "subagentSpawns": [], "userMessages": [], "tools": ROSTER,
               "session": {"userMessages": [{"text": "pdks witness",
                                             "timestampMs": time.time() * 1000 - 1000}],
                           "toolCalls": []}}
    opened = project.check(payload, "--enforce", "block")
    assert opened.code == 0
    assert ["witnessed", "shell-mod", ".claude/hooks"] in opened.rows


# The judgment runs in a forked child (cli/deadline.py): the probe reports the modules from
# inside it, once it has judged (its stdout reaches the parent through the deadline's relay).
_MODULES_AFTER_CHECK = """
import json, sys
from polydeukes.cli import check
judge = check._judge_observation
def probed(*args):
    code = judge(*args)
    shell = sorted(m for m in sys.modules if m.startswith("polydeukes.stdlib.shell"))
    print(json.dumps({"code": code, "modules": shell}))
    return code
check._judge_observation = probed
check.run_check(["--enforce", "block"], stdin=sys.stdin.buffer.read())
"""


def _modules_after(project, call: dict) -> dict:
    payload = {"toolCalls": [call], "subagentSpawns": [], "userMessages": [], "tools": ROSTER}
    done = subprocess.run([sys.executable, "-c", _MODULES_AFTER_CHECK], input=json.dumps(payload).encode(),
                          cwd=project.root, capture_output=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.decode().strip().splitlines()[-1])


def test_a_check_loads_only_the_shell_stages_it_runs(project):
    """An Edit loads the tokenizer and path matching only (for routing); a plain shell command
    loads the walk and the judges but not the readers of irregular commands; `git` loads its
    reader."""
    project.config("protectedPaths: ['.claude/hooks']\n")
    edit = _modules_after(project, {"name": "Edit", "args": {"file_path": "src/a.py"},
                                    "fileChange": {"kind": "modify", "path": "src/a.py", "pre": "a", "post": "b"}})
    assert edit["code"] == 0
    assert set(edit["modules"]) <= {"polydeukes.stdlib.shell", "polydeukes.stdlib.shell.tokenizer",
                                    "polydeukes.stdlib.shell.paths"}
    plain = _modules_after(project, _bash("cat .claude/hooks/pre.sh && echo done > notes.txt"))
    assert plain["code"] == 0
    assert "polydeukes.stdlib.shell.judgment" in plain["modules"]
    assert not {"polydeukes.stdlib.shell.readers", "polydeukes.stdlib.shell.git"} & set(plain["modules"])
    git = _modules_after(project, _bash("git checkout main"))
    assert git["code"] == 2
    assert "polydeukes.stdlib.shell.git" in git["modules"]
