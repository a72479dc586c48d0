"""The OpenCode plugin that `pdks-opencode init` writes, run as OpenCode runs it: loaded as an
ES module (here by node; OpenCode's runtime is Bun, and the plugin uses only APIs both have),
its `tool.execute.before` handler awaited with a tool call. Exit 0 of the hook lets the call
run; anything else throws with the judge's reason, and so does a hook that cannot be started,
dies or hangs. Skipped where node is not installed."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from adapter_support import clean_env, git_project, install, rows_of

NODE = shutil.which("node")
pytestmark = pytest.mark.skipif(NODE is None, reason="node is not installed here")

# Loads the plugin, calls the handler once per call given, prints one JSON line per call:
# {"allowed": true} or {"thrown": "<message>"}, and the arguments as the handler left them.
DRIVER = """
const [plugin, directory, calls] = process.argv.slice(1)  // node -e: no script path
const { Polydeukes } = await import(plugin)
const hooks = await Polydeukes({ directory, project: {}, client: {}, worktree: directory })
for (const call of JSON.parse(calls)) {
  const output = { args: call.args }
  try {
    await hooks["tool.execute.before"]({ tool: call.tool, sessionID: "ses_1", callID: "call_1" },
                                       output)
    console.log(JSON.stringify({ allowed: true }))
  } catch (error) {
    console.log(JSON.stringify({ thrown: error.message }))
  }
}
"""


@pytest.fixture(scope="module")
def template(tmp_path_factory) -> Path:
    root = git_project(tmp_path_factory.mktemp("opencode") / "project")
    assert install("opencode", root).code == 0
    return root


@pytest.fixture
def project(template, tmp_path) -> Path:
    root = tmp_path / "project"
    shutil.copytree(template, root, symlinks=True)
    return root


def handle(root: Path, *calls: dict, plugin: Path | None = None, env: dict | None = None) -> list:
    plugin = plugin or root / ".opencode/plugins/polydeukes.js"
    done = subprocess.run([NODE, "--input-type=module", "-e", DRIVER, "--", str(plugin),
                           str(root), json.dumps(list(calls))],
                          capture_output=True, text=True, timeout=120, env=env or clean_env())
    assert done.returncode == 0, done.stderr
    return [json.loads(line) for line in done.stdout.splitlines()]


def test_an_allowed_call_runs_and_a_blocked_one_throws_the_judges_reason(project):
    results = handle(project,
                     {"tool": "bash", "args": {"command": "ls -la"}},
                     {"tool": "bash", "args": {"command": "rm -rf .opencode/hooks"}},
                     {"tool": "write", "args": {"filePath": str(project / ".opencode/plugins/x.js"),
                                                "content": ""}})
    assert results == [
        {"allowed": True},
        {"thrown": "rm mentions protected path .opencode/hooks without read-only proof"},
        {"thrown": f"write would modify protected path {project}/.opencode/plugins/x.js"},
    ]
    assert rows_of(project / ".polydeukes/roi.log") == [
        ["passed", "covenant-check", "-"],
        ["passed", "self-mod", ".opencode/hooks"], ["blocked", "shell-mod", ".opencode/hooks"],
        ["blocked", "self-mod", ".opencode/plugins"], ["passed", "shell-mod", ".opencode/plugins"],
    ]


def test_a_tool_outside_the_roster_is_not_handed_to_the_judge(project):
    assert handle(project, {"tool": "read", "args": {"filePath": ".opencode/plugins/x.js"}},
                  {"tool": "grep", "args": {"pattern": "x"}}) == [{"allowed": True}] * 2
    assert rows_of(project / ".polydeukes/roi.log") == []  # no judgment: no process, no row


def test_the_call_the_hook_receives_is_the_documented_one(project):
    # A stand-in judge that records its stdin and blocks; the plugin must throw its message.
    (project / ".polydeukes/hook-python").unlink()
    delegator = project / ".opencode/hooks/covenant-pretooluse.sh"
    delegator.write_text(f"cat > '{project}/seen.json'\nprintf 'recorded\\n' >&2\nexit 2\n")
    results = handle(project, {"tool": "edit", "args": {"filePath": "a.py", "oldString": "x",
                                                         "newString": "y"}})
    assert results == [{"thrown": "recorded"}]
    assert json.loads((project / "seen.json").read_text()) == {
        "tool": "edit", "sessionID": "ses_1", "callID": "call_1",
        "args": {"filePath": "a.py", "oldString": "x", "newString": "y"},
        "directory": str(project)}


def test_a_hook_that_cannot_run_or_dies_throws(project, tmp_path):
    # Moved out of its project, the plugin finds no delegator above it: the command says so.
    elsewhere = tmp_path / "copy" / ".opencode" / "plugins"
    elsewhere.mkdir(parents=True)
    shutil.copy(project / ".opencode/plugins/polydeukes.js", elsewhere)
    (lost,) = handle(project, {"tool": "bash", "args": {"command": "ls"}},
                     plugin=elsewhere / "polydeukes.js")
    assert lost["thrown"] == (f"covenant hook failed closed: no .opencode/hooks/"
                              f"covenant-pretooluse.sh in {tmp_path / 'copy'} or any directory "
                              "above it — run pdks-opencode init in the project")
    # A project root that is gone: the shell cannot even be started there.
    shutil.rmtree(tmp_path / "copy" / ".opencode" / "hooks", ignore_errors=True)
    gone = tmp_path / "gone" / ".opencode" / "plugins"
    gone.mkdir(parents=True)
    shutil.copy(project / ".opencode/plugins/polydeukes.js", gone)
    script = (
        "const { Polydeukes } = await import(process.argv[1]);"
        "const hooks = await Polydeukes({ directory: '/' });"
        "(await import('node:fs')).rmSync(process.argv[2], { recursive: true });"
        "try { await hooks['tool.execute.before']({ tool: 'bash' }, { args: {} });"
        "      console.log('allowed') } catch (e) { console.log('thrown: ' + e.message) }")
    done = subprocess.run([NODE, "--input-type=module", "-e", script, "--",
                           str(gone / "polydeukes.js"), str(tmp_path / "gone")],
                          capture_output=True, text=True, timeout=60)
    assert done.stdout.startswith("thrown: covenant hook failed closed: cannot start the hook ("), \
        done.stdout + done.stderr
    # A judge killed by a signal: the delegator turns it into a block with the status.
    (project / ".polydeukes/hook-python").write_text(str(tmp_path / "python") + "\n")
    (tmp_path / "python").write_text("#!/bin/sh\nkill -KILL $$\n")
    (tmp_path / "python").chmod(0o755)
    (died,) = handle(project, {"tool": "bash", "args": {"command": "ls"}})
    assert died["thrown"].splitlines()[-1] == ("covenant hook failed closed: the judge exited with "
                                               "status 137 before a verdict")


def test_a_hook_that_hangs_is_killed_and_the_call_blocked(project):
    plugin = project / ".opencode/plugins/polydeukes.js"
    fast = project / ".opencode/plugins/fast.mjs"
    fast.write_text(plugin.read_text().replace("const TIMEOUT_MS = 60000",
                                               "const TIMEOUT_MS = 300"))
    (project / ".opencode/hooks/covenant-pretooluse.sh").write_text("sleep 30\nexit 0\n")
    (hung,) = handle(project, {"tool": "bash", "args": {"command": "ls"}}, plugin=fast)
    assert hung == {"thrown": "covenant hook failed closed: the judge gave no verdict within 0.3 s"}
