"""Every host's payloads through the command its installer registered (tests/cases/adapters/).

For each case: the host's real command runs through `sh -c` with the host's environment variable
and working directory, and its exit code, stderr, stdout and rows must equal the case's `want`
(`stdout`: the decision document a host reads there, absent for the hosts that read exit 2 and
stderr). Then the same payload's IR (or its pre-spawn failure line) is piped into
`pdks covenant check --enforce block`: the hook must answer exactly as that command does, told in
the host's terms, because the hook judges in its own process through the same code path.
"""

from __future__ import annotations

import json
import os
import shutil

import pytest

from adapter_support import (check, git_project, install, load_cases, materialize, prepare,
                             reset_state, run, run_hook)
from conftest import PDKS

from polydeukes.stdlib.adapters import (claude_code, codex, copilot, cursor, gemini, grok,
                                        opencode)
from polydeukes.stdlib.adapters.runner import judge_input

HOSTS = {"claude-code": claude_code.HOST, "codex": codex.HOST, "grok": grok.HOST,
         "gemini": gemini.HOST, "copilot": copilot.HOST, "cursor": cursor.HOST,
         "opencode": opencode.HOST}


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> dict:
    """One installed git project per host; each case works on a copy."""
    base = tmp_path_factory.mktemp("installed")
    roots = {}
    for host in HOSTS:
        root = git_project(base / host)
        result = install(host, root)
        assert result.code == 0, result.stderr
        # A fresh plan.bin in the template: a case that keeps the scaffold config skips the compile.
        assert run([*PDKS, "compile"], root).code == 0
        roots[host] = root
    return roots


def _cases() -> list:
    return [pytest.param(host, case, id=f"{host}: {case['note']}")
            for host in HOSTS for case in load_cases(f"{host}.yaml")]


def _assert_stderr(got: list[str], want: dict) -> None:
    if "stderr_prefix" in want:
        assert len(got) == 1 and got[0].startswith(want["stderr_prefix"]), got
    elif "stderr_suffix" in want:
        assert len(got) == 1 and got[0].endswith(want["stderr_suffix"]), got
    else:
        assert got == want.get("stderr", [])


@pytest.mark.parametrize("host, case", _cases())
def test_payload_through_the_registered_command(host, case, installed, tmp_path, monkeypatch,
                                                capsys):
    root = tmp_path / "project"
    shutil.copytree(installed[host], root, symlinks=True)
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    places = prepare(case, root, scratch)
    payload = materialize(case["payload"], places)
    raw = payload.encode("utf-8") if isinstance(payload, str) else json.dumps(payload).encode()
    cwd = root / case["cwd"] if "cwd" in case else root

    got = run_hook(host, root, raw, cwd=cwd)
    want = materialize(case["want"], places)
    assert got.code == want["exit"], got.stderr
    _assert_stderr(got.stderr.splitlines(), want)
    assert got.rows == want.get("rows", [])
    # A hook's stdout is a decision channel: only the host's own decision document is there.
    if "stdout" in want:
        assert got.stdout.count("\n") == 1 and json.loads(got.stdout) == want["stdout"]
    else:
        assert got.stdout == HOSTS[host].allow_output

    # Equivalence: the IR this adapter builds, piped into `pdks covenant check --enforce block`.
    reset_state(root)
    monkeypatch.chdir(root)
    judged = judge_input(HOSTS[host], raw, os.getcwd())
    failure_line = capsys.readouterr().err
    piped = check(root, judged)
    assert (got.stderr, got.rows) == (failure_line + piped.stderr, piped.rows)
    assert (got.code, got.stdout) == told(HOSTS[host], piped.code, got.stderr)


def told(host, code: int, stderr: str) -> tuple[int, str]:
    """What a hook answers for the judge's exit `code`, in the host's own terms (an oracle
    written from the hosts' documentation, not from the runner)."""
    if code == 0:
        return 0, {"cursor": "{}\n"}.get(host.name, "")
    reason = stderr.rstrip("\n")
    document = {
        "copilot": {"permissionDecision": "deny", "permissionDecisionReason": reason},
        "cursor": {"permission": "deny", "user_message": reason, "agent_message": reason},
    }.get(host.name)
    status = 0 if host.name == "copilot" else 2
    return status, "" if document is None else json.dumps(document, separators=(",", ":"), ensure_ascii=False) + "\n"
