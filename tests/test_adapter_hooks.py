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

from adapter_support import (check, clean_env, git_project, install, load_cases, materialize, prepare,
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
    assert (got.code, got.stdout) == told(HOSTS[host], piped.code, got.stderr, want.get("stdout"))


def told(host, code: int, stderr: str, allowed_document: dict | None = None) -> tuple[int, str]:
    """What a hook answers for the judge's exit `code`, in the host's own terms (an oracle
    written from the hosts' documentation, not from the runner). `allowed_document`: the
    decision an allowed call hands the host (Codex: a call pinned to its directory)."""
    if code == 0:
        if allowed_document is not None:
            return 0, json.dumps(allowed_document, separators=(",", ":"), ensure_ascii=False) + "\n"
        return 0, {"cursor": "{}\n"}.get(host.name, "")
    reason = stderr.rstrip("\n")
    document = {
        "copilot": {"permissionDecision": "deny", "permissionDecisionReason": reason},
        "cursor": {"permission": "deny", "user_message": reason, "agent_message": reason},
    }.get(host.name)
    status = 0 if host.name == "copilot" else 2
    return status, "" if document is None else json.dumps(document, separators=(",", ":"), ensure_ascii=False) + "\n"


def test_a_codex_call_pinned_to_its_directory_runs_only_there(installed, tmp_path):
    """Codex hides a shell call's workdir from the hook; without the rollout to show it, the
    hook hands Codex the command pinned to the directory it judged. Run as Codex runs a
    rewritten exec_command (`bash -lc` in the call's directory): where the model set a workdir
    the pinned command refuses and the hook folder stays; where it was judged it runs."""
    root = tmp_path / "project"
    shutil.copytree(installed["codex"], root, symlinks=True)
    payload = {"session_id": "0199a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b", "transcript_path": None,
               "cwd": str(root), "hook_event_name": "PreToolUse", "model": "gpt-5-codex",
               "permission_mode": "default", "turn_id": "turn-3", "tool_name": "Bash",
               "tool_input": {"command": "rm -rf hooks && echo removed"}, "tool_use_id": "call_8f3a"}
    got = run_hook("codex", root, json.dumps(payload).encode())
    assert got.code == 0, got.stderr
    pinned = json.loads(got.stdout)["hookSpecificOutput"]["updatedInput"]["command"]

    elsewhere = run(["bash", "-lc", pinned], root / ".codex", b"", env=clean_env())
    assert elsewhere.code == 1 and "" == elsewhere.stdout
    assert elsewhere.stderr.startswith("pdks: not run: Codex runs this call in another directory")
    assert (root / ".codex" / "hooks").is_dir()

    judged_here = run(["sh", "-c", pinned], root, b"", env=clean_env())
    assert (judged_here.code, judged_here.stdout) == (0, "removed\n")
    assert (root / ".codex" / "hooks").is_dir()
