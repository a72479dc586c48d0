"""The registered command never lets a call through by failing: every way it can break ends in
exit 2 with a message (Claude Code reads 1 and 127 as "not blocked"). Each case runs the exact
command string the installer registered, through `sh -c`, as the host does."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from adapter_support import (ROOT_VARIABLES, clean_env, git_project, install, registered_command,
                             run, run_hook)

CANNOT_USE = ("covenant hook failed closed: cannot use 'polydeukes' from {root} — install or "
              "update it there, then try again")
BASH_LS = {"session_id": "s", "cwd": "", "hook_event_name": "PreToolUse", "tool_name": "Bash",
           "tool_input": {"command": "ls"}, "tool_use_id": "toolu_1"}
CODEX_LS = {"cwd": "", "hook_event_name": "PreToolUse", "model": "gpt-5-codex",
            "permission_mode": "default", "session_id": "s", "tool_input": {"command": "ls"},
            "tool_name": "Bash", "tool_use_id": "call_1", "transcript_path": None,
            "turn_id": "t"}
SYSTEM_PATH = "/usr/local/bin:/usr/bin:/bin"  # no polydeukes console scripts here


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    root = git_project(tmp_path_factory.mktemp("failures") / "project")
    for host in ("claude-code", "codex", "grok", "gemini", "copilot", "cursor", "opencode"):
        assert install(host, root).code == 0
    return root


@pytest.fixture
def project(installed, tmp_path) -> Path:
    root = tmp_path / "project"
    shutil.copytree(installed, root, symlinks=True)
    return root


def payload(root: Path, template: dict = BASH_LS) -> bytes:
    return json.dumps({**template, "cwd": str(root)}).encode()


def codex_ls(root: Path) -> bytes:
    """CODEX_LS with a rollout that records the call (no workdir): allowed unpinned, so the
    hook says nothing on stdout."""
    rollout = root.parent / f"rollout-{root.name}.jsonl"
    call = {"type": "function_call", "name": "exec_command", "arguments": '{"cmd":"ls"}',
            "call_id": CODEX_LS["tool_use_id"]}
    rollout.write_text(json.dumps({"timestamp": "2026-12-01T10:00:00.000Z", "type": "response_item",
                                   "payload": call}) + "\n", encoding="utf-8")
    return json.dumps({**CODEX_LS, "cwd": str(root), "transcript_path": str(rollout)}).encode()


def claude(root: Path, *, path: str | None = None, cwd: Path | None = None, **env: str):
    variables = {"CLAUDE_PROJECT_DIR": str(root), **env}
    if path is not None:
        variables["PATH"] = path
    return run_hook("claude-code", root, payload(root), cwd=cwd, env=clean_env(**variables))


def fake_judge(directory: Path, body: str) -> Path:
    """A `pdks-claude-code` on PATH that does `body` instead of judging."""
    directory.mkdir(parents=True, exist_ok=True)
    script = directory / "pdks-claude-code"
    script.write_text("#!/bin/sh\n" + body + "\n", encoding="utf-8")
    script.chmod(0o755)
    return directory


def test_the_interpreter_that_ran_init_judges_without_anything_on_path(project):
    result = claude(project, path=SYSTEM_PATH)
    assert (result.code, result.stderr, result.rows) == (0, "", [["passed", "covenant-check", "-"]])


def test_no_judge_anywhere_blocks_without_a_row(project):
    (project / ".polydeukes" / "hook-python").unlink()
    result = claude(project, path=SYSTEM_PATH)
    assert result.code == 2
    assert result.stderr == CANNOT_USE.format(root=project) + "\n"
    assert result.rows == []  # the only pre-judgment failure with no row: there is no writer


def test_a_recorded_interpreter_that_is_gone_falls_through_to_path(project):
    (project / ".polydeukes" / "hook-python").write_text("/nonexistent/bin/python3\n")
    assert claude(project, path=SYSTEM_PATH).code == 2
    found = claude(project, path=f"{Path(sys.executable).parent}:{SYSTEM_PATH}")
    assert (found.code, found.rows) == (0, [["passed", "covenant-check", "-"]])


def test_the_project_venv_comes_first(project, tmp_path):
    marker = tmp_path / "venv-used"
    bin_dir = project / ".venv" / "bin"
    bin_dir.mkdir(parents=True)
    (bin_dir / "python").write_text(
        f"#!/bin/sh\ntouch '{marker}'\nexec '{sys.executable}' \"$@\"\n", encoding="utf-8")
    (bin_dir / "python").chmod(0o755)
    (bin_dir / "pdks-claude-code").write_text("", encoding="utf-8")
    (project / ".polydeukes" / "hook-python").write_text("/nonexistent/bin/python3\n")
    result = claude(project, path=SYSTEM_PATH)
    assert (result.code, result.rows) == (0, [["passed", "covenant-check", "-"]])
    assert marker.exists()


def test_a_deleted_venv_falls_through_to_the_recorded_interpreter(project):
    bin_dir = project / ".venv" / "bin"
    bin_dir.mkdir(parents=True)
    (bin_dir / "python").symlink_to(project / "gone" / "python3")  # the base was removed
    (bin_dir / "pdks-claude-code").write_text("", encoding="utf-8")
    result = claude(project, path=SYSTEM_PATH)
    assert (result.code, result.rows) == (0, [["passed", "covenant-check", "-"]])


def test_a_venv_that_cannot_import_polydeukes_blocks_with_the_cause(project):
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(project / ".venv")],
                   check=True)
    (project / ".venv" / "bin" / "pdks-claude-code").write_text("", encoding="utf-8")
    result = claude(project, path=SYSTEM_PATH)
    assert result.code == 2
    assert result.stderr == (CANNOT_USE.format(root=project)
                             + " (ModuleNotFoundError: No module named 'polydeukes')\n")
    assert result.rows == []


def test_an_agent_planted_module_in_the_root_is_not_imported(project):
    # The judge runs with the project root as its working directory; `-P` keeps it off sys.path.
    (project / "msgspec.py").write_text("raise SystemExit(0)\n", encoding="utf-8")
    (project / "polydeukes").mkdir()
    (project / "polydeukes" / "__init__.py").write_text("raise SystemExit(0)\n")
    blocked = {**BASH_LS, "tool_input": {"command": "rm -rf .claude/hooks"}}
    result = run_hook("claude-code", project, json.dumps(blocked).encode(),
                      env=clean_env(CLAUDE_PROJECT_DIR=str(project), PATH=SYSTEM_PATH))
    assert result.code == 2 and "shell-mod" in [row[1] for row in result.rows]


@pytest.mark.parametrize("body, status", [
    ("exit 1", 1),                 # a crash: Python's status for an uncaught exception
    ("exit 127", 127),             # a command not found inside the judge
    ("kill -KILL $$", 137),        # a signal
    ("kill -TERM $$", 143),
])
def test_any_status_but_a_verdict_blocks(project, tmp_path, body, status):
    (project / ".polydeukes" / "hook-python").unlink()
    fake = fake_judge(tmp_path / "bin", body)
    result = claude(project, path=f"{fake}:{SYSTEM_PATH}")
    assert result.code == 2
    # (the shell itself may first say "Killed" or "Terminated")
    assert result.stderr.splitlines()[-1] == (f"covenant hook failed closed: the judge exited "
                                              f"with status {status} before a verdict")


def test_a_deleted_delegator_blocks_with_the_way_back(project):
    (project / ".claude" / "hooks" / "covenant-pretooluse.sh").unlink()
    result = claude(project)
    assert result.code == 2
    assert result.stderr == (
        f"covenant hook failed closed: no .claude/hooks/covenant-pretooluse.sh in {project} or "
        "any directory above it — run pdks-claude-code init in the project\n")


def test_a_delegator_that_ends_without_a_verdict_blocks(project):
    delegator = project / ".claude" / "hooks" / "covenant-pretooluse.sh"
    delegator.write_text("# emptied\n:\n", encoding="utf-8")
    result = claude(project)
    assert result.code == 2
    assert result.stderr == f"covenant hook failed closed: {delegator} ended without a verdict\n"
    delegator.write_text("if then fi (\n", encoding="utf-8")  # not even shell
    assert claude(project).code == 2


def test_without_the_project_variable_the_command_walks_up_from_its_cwd(project):
    (project / "src" / "deep").mkdir(parents=True)
    env = clean_env(PATH=SYSTEM_PATH)
    result = run_hook("claude-code", project, payload(project), cwd=project / "src" / "deep",
                      env=env)
    assert (result.code, result.rows) == (0, [["passed", "covenant-check", "-"]])


def test_codex_runs_from_any_subdirectory_and_says_nothing_on_stdout(project, tmp_path):
    (project / "src" / "deep").mkdir(parents=True)
    result = run_hook("codex", project, codex_ls(project), cwd=project / "src" / "deep",
                      env=clean_env(PATH=SYSTEM_PATH))
    assert (result.code, result.stdout, result.rows) == (0, "", [["passed", "covenant-check", "-"]])
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    lost = run_hook("codex", project, payload(project, CODEX_LS), cwd=outside,
                    env=clean_env(PATH=SYSTEM_PATH))
    assert (lost.code, lost.stdout) == (2, "")
    assert lost.stderr == (
        f"covenant hook failed closed: no .codex/hooks/covenant-pretooluse.sh in {outside} or any "
        "directory above it — run pdks-codex init in the project\n")


@pytest.mark.parametrize("shell", ["sh", "bash", "zsh", "fish"])
def test_the_command_reads_the_same_in_every_shell_a_host_may_use(project, shell):
    # Codex runs hooks through the user's $SHELL (`$SHELL -lc <command>`).
    if shutil.which(shell) is None:
        pytest.skip(f"{shell} is not installed here")
    command = registered_command("codex", project)
    (project / "src").mkdir()
    result = run([shell, "-c", command], project / "src", codex_ls(project),
                 env=clean_env(PATH=SYSTEM_PATH), log=project / ".polydeukes" / "roi.log")
    assert (result.code, result.stdout, result.rows) == (0, "", [["passed", "covenant-check", "-"]])


def test_grok_finds_its_root_from_its_variable(project):
    grok = {"tool_name": "run_terminal_command", "tool_input": {"command": "ls"}}
    result = run_hook("grok", project, json.dumps(grok).encode(), cwd=Path("/"),
                      env=clean_env(GROK_WORKSPACE_ROOT=str(project), PATH=SYSTEM_PATH))
    assert (result.code, result.rows) == (0, [["passed", "covenant-check", "-"]])


# A blocked write in each host's own payload shape.
BLOCKED_WRITES = {
    "claude_code": {**BASH_LS, "tool_name": "Write",
                    "tool_input": {"file_path": ".claude/hooks/x.sh", "content": "x"}},
    "gemini": {"hook_event_name": "BeforeTool", "tool_name": "write_file",
               "tool_input": {"file_path": ".gemini/hooks/x.sh", "content": "x"}},
    "copilot": {"toolName": "create",
                "toolArgs": json.dumps({"path": ".github/hooks/x.json", "file_text": "{}"})},
    "cursor": {"hook_event_name": "preToolUse", "tool_name": "Write",
               "tool_input": {"file_path": ".cursor/hooks.json", "content": "{}"}},
    "opencode": {"tool": "write", "args": {"filePath": ".opencode/plugins/x.js", "content": ""}},
}


@pytest.mark.parametrize("module", BLOCKED_WRITES)
def test_the_hook_process_imports_only_what_a_check_needs(project, module):
    """With a fresh plan, the hook never loads the compiler, yaml, lark or click."""
    subprocess.run([*map(str, [sys.executable, "-m", "polydeukes.cli"]), "compile"], cwd=project,
                   check=True, capture_output=True)
    probe = (
        "import io, sys, types\n"
        "sys.stdin = types.SimpleNamespace(buffer=io.BytesIO(sys.argv[1].encode()))\n"
        f"from polydeukes.stdlib.adapters.{module} import HOST, hook\n"
        "from polydeukes.stdlib.adapters import runner\n"
        "def report(code):\n"  # hook() ends the process with the answer: look just before
        "    sys.stderr.write('%s %s' % (code == HOST.deny_status, sorted(m for m in ('lark', "
        "'yaml', 'click', 'polydeukes.compiler', 'polydeukes.stdlib.adapters.install') "
        "if m in sys.modules)))\n"
        "    runner.os._exit(code)\n"
        "runner.end_process = report\n"
        "hook()\n"
    )
    done = subprocess.run([sys.executable, "-P", "-c", probe, json.dumps(BLOCKED_WRITES[module])],
                          cwd=project, capture_output=True, text=True, env=clean_env())
    assert done.stderr.splitlines()[-1] == "True []"


# -- the hosts that read their decision on stdout ---------------------------------------------------

COPILOT_LS = {"sessionId": "s", "timestamp": 1, "cwd": "", "toolName": "bash",
              "toolArgs": json.dumps({"command": "ls"})}
CURSOR_LS = {"hook_event_name": "preToolUse", "conversation_id": "c", "workspace_roots": [],
             "cwd": "", "tool_name": "Shell", "tool_input": {"command": "ls"}}
STDOUT_HOSTS = {"copilot": (COPILOT_LS, 0), "cursor": (CURSOR_LS, 2)}


def decision(host: str, result) -> str | None:
    """The reason of the host's deny document on stdout, or None when stdout says nothing."""
    if not result.stdout.strip() or result.stdout == "{}\n":
        return None
    assert result.stdout.count("\n") == 1  # exactly one JSON object, one line
    document = json.loads(result.stdout)
    if host == "copilot":
        assert document["permissionDecision"] == "deny"
        return document["permissionDecisionReason"]
    assert document["permission"] == "deny"
    assert document["user_message"] == document["agent_message"]
    return document["agent_message"]


def stdout_host(host: str, root: Path, *, path: str | None = None, cwd: Path | None = None):
    template, _ = STDOUT_HOSTS[host]
    variables = {} if path is None else {"PATH": path}
    return run_hook(host, root, payload(root, template), cwd=cwd, env=clean_env(**variables))


@pytest.mark.parametrize("host", STDOUT_HOSTS)
def test_a_stdout_host_is_told_every_failure_in_its_own_terms(project, tmp_path, host):
    status = STDOUT_HOSTS[host][1]
    allowed = stdout_host(host, project, path=SYSTEM_PATH)
    assert (allowed.code, decision(host, allowed)) == (0, None)

    hook_python = project / ".polydeukes" / "hook-python"
    recorded = hook_python.read_text()
    hook_python.unlink()
    nowhere = stdout_host(host, project, path=SYSTEM_PATH)
    message = CANNOT_USE.format(root=project)
    assert (nowhere.code, nowhere.stderr, decision(host, nowhere)) == (status, message + "\n",
                                                                       message)
    hook_python.write_text(recorded)

    broken = project / ".venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(broken)], check=True)
    (broken / "bin" / f"pdks-{host}").write_text("", encoding="utf-8")
    no_module = stdout_host(host, project, path=SYSTEM_PATH)
    cause = message + " (ModuleNotFoundError: No module named 'polydeukes')"
    assert (no_module.code, no_module.stderr, decision(host, no_module)) == (status, cause + "\n",
                                                                             cause)
    shutil.rmtree(broken)

    fake = tmp_path / "bin"
    fake.mkdir()
    (fake / f"pdks-{host}").write_text("#!/bin/sh\nkill -KILL $$\n", encoding="utf-8")
    (fake / f"pdks-{host}").chmod(0o755)
    hook_python.unlink()
    crashed = stdout_host(host, project, path=f"{fake}:{SYSTEM_PATH}")
    crash = "covenant hook failed closed: the judge exited with status 137 before a verdict"
    assert (crashed.code, crashed.stderr.splitlines()[-1], decision(host, crashed)) == (
        status, crash, crash)
    hook_python.write_text(recorded)

    outside = tmp_path / "elsewhere"
    outside.mkdir()
    lost = stdout_host(host, project, cwd=outside)
    delegator = STDOUT_DELEGATORS[host]
    assert lost.code == status
    assert lost.stderr == (f"covenant hook failed closed: no {delegator} in {outside} or any "
                           f"directory above it — run pdks-{host} init in the project\n")
    assert decision(host, lost) == (f"covenant hook failed closed: no {delegator} in the working "
                                    "directory of the hook or any directory above it — run "
                                    f"pdks-{host} init in the project")

    emptied = project / delegator
    emptied.write_text(":\n", encoding="utf-8")
    silent = stdout_host(host, project)
    assert (silent.code, decision(host, silent)) == (
        status, f"covenant hook failed closed: {delegator} ended without a verdict")


STDOUT_DELEGATORS = {"copilot": ".github/hooks/covenant-pretooluse.sh",
                     "cursor": ".cursor/hooks/covenant-pretooluse.sh"}


def test_a_reason_with_quotes_backslashes_and_control_characters_stays_one_json_line(project):
    # The delegator's own JSON escaper (plain sh) on a reason naming a hostile directory.
    odd = project.parent / 'we"ird\\dir\tname'
    shutil.move(str(project), str(odd))
    (odd / ".polydeukes" / "hook-python").unlink()
    result = stdout_host("copilot", odd, path=SYSTEM_PATH)
    assert decision("copilot", result) == CANNOT_USE.format(root=odd).replace("\t", " ")


@pytest.mark.parametrize("shell", ["sh", "bash", "zsh", "fish"])
def test_a_json_answer_reads_the_same_in_every_shell(project, shell):
    if shutil.which(shell) is None:
        pytest.skip(f"{shell} is not installed here")
    command = registered_command("copilot", project)
    lost = run([shell, "-c", command], Path("/"), payload(project, COPILOT_LS),
               env=clean_env(PATH=SYSTEM_PATH))
    assert lost.code == 0
    assert decision("copilot", lost) == (
        "covenant hook failed closed: no .github/hooks/covenant-pretooluse.sh in the working "
        "directory of the hook or any directory above it — run pdks-copilot init in the project")


# -- the runner's own mapping, in process --------------------------------------------------------

def test_a_translation_bug_is_a_failure_before_the_judgment(capsys):
    from polydeukes.stdlib.adapters import claude_code
    from polydeukes.stdlib.adapters.runner import judge_input

    class Broken(claude_code.ClaudeCode):
        def translate(self, raw, root):
            return 1 / 0

    line = ("adapter-claude-code failed before spawn: internal error: ZeroDivisionError: "
            "division by zero\n")
    assert judge_input(Broken(), b"{}", "/") == line.encode()
    assert capsys.readouterr().err == line


@pytest.mark.parametrize("judge, message", [
    (lambda flags, stdin: 1, "covenant hook failed closed: the judge exited with status 1 "
                             "before a verdict\n"),
    (lambda flags, stdin: 1 / 0, "covenant hook failed closed: the judge failed before a "
                                 "verdict (ZeroDivisionError: division by zero)\n"),
])
def test_the_runner_maps_anything_but_a_verdict_to_2(monkeypatch, tmp_path, capsys, judge,
                                                     message):
    import io
    import types

    from polydeukes.cli import check
    from polydeukes.stdlib.adapters import claude_code, runner

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(runner, "_silence_stdout", lambda: None)  # pytest owns fd 1 here
    monkeypatch.setattr(check, "run_check", judge)
    monkeypatch.setattr(sys, "stdin", types.SimpleNamespace(buffer=io.BytesIO(b"{}")))
    assert runner.run_hook(claude_code.HOST) == 2
    assert capsys.readouterr().err.endswith(message)


def test_an_agent_cannot_point_the_delegator_at_another_judge(project):
    # .polydeukes/ is a built-in protected entry (docs/security.md), hook-python included.
    write = {**BASH_LS, "tool_name": "Write",
             "tool_input": {"file_path": str(project / ".polydeukes" / "hook-python"),
                            "content": "/bin/true\n"}}
    assert claude(project).code == 0  # the installed judge works
    result = run_hook("claude-code", project, json.dumps(write).encode(),
                      env=clean_env(CLAUDE_PROJECT_DIR=str(project)))
    assert result.code == 2
    assert ["blocked", "self-mod", ".polydeukes"] in result.rows, result.stderr


# A harmless call in each host's payload shape (Claude Code's and Codex's are above).
HARMLESS = {
    "claude-code": BASH_LS, "codex": CODEX_LS, "copilot": COPILOT_LS, "cursor": CURSOR_LS,
    "grok": {"tool_name": "run_terminal_command", "tool_input": {"command": "ls"}},
    "gemini": {"hook_event_name": "BeforeTool", "cwd": "", "tool_name": "run_shell_command",
               "tool_input": {"command": "ls"}},
    "opencode": {"tool": "bash", "sessionID": "s", "callID": "c", "args": {"command": "ls"}},
}


@pytest.mark.parametrize("host", HARMLESS)
def test_every_registered_command_finds_the_project_from_a_subdirectory(project, host):
    deep = project / "src" / "deep"
    deep.mkdir(parents=True)
    # A host that names a root names the directory it was started in, here a subdirectory.
    variables = {ROOT_VARIABLES[host]: str(deep)} if host in ROOT_VARIABLES else {}
    result = run_hook(host, project, payload(project, HARMLESS[host]), cwd=deep,
                      env=clean_env(PATH=SYSTEM_PATH, **variables))
    assert (result.code, result.rows) == (0, [["passed", "covenant-check", "-"]]), result.stderr


def test_the_hook_process_judges_without_forking_and_ends_with_the_answer(project):
    """The delegator's bootstrap calls hook(): judged in this process (a fork would cost ~10 ms
    a call, docs/performance.md), and the process ends with the host's answer."""
    subprocess.run([*map(str, [sys.executable, "-m", "polydeukes.cli"]), "compile"], cwd=project,
                   check=True, capture_output=True)
    probe = (
        "import io, os, sys, types\n"
        "sys.stdin = types.SimpleNamespace(buffer=io.BytesIO(sys.argv[1].encode()))\n"
        "real_fork = os.fork\n"
        "def recorded_fork():\n"
        "    os.write(2, b'forked\\n')\n"
        "    return real_fork()\n"
        "os.fork = recorded_fork\n"
        "from polydeukes.stdlib.adapters.claude_code import hook\n"
        "hook()\n"
        "os.write(2, b'returned\\n')\n"
    )
    done = subprocess.run([sys.executable, "-P", "-c", probe,
                           json.dumps(BLOCKED_WRITES["claude_code"])],
                          cwd=project, capture_output=True, text=True, env=clean_env())
    assert (done.returncode, done.stderr) == (
        2, "Write would modify protected path .claude/hooks/x.sh\n")
