"""`pdks-gemini`, `pdks-copilot`, `pdks-cursor` and `pdks-opencode init`; the Claude Code plugin
(`pdks-claude-code init --plugin DIR`); `pdks init --host` and `--list-hosts`.

What each installer writes, how it merges into the host file a user already has (every foreign
key, event and handler kept; a second run changes no byte), and what it refuses before writing
anything. The hooks themselves are exercised through these registrations in
test_adapter_hooks.py and test_adapter_failures.py."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adapter_support import (BIN, clean_env, git_project, installed_in_process, registered_command,
                             run, tree)
from conftest import PDKS

from polydeukes.cli.scaffold import STARTER_CONFIG
from polydeukes.stdlib.adapters import copilot, cursor, gemini, install as I, opencode

NEW_HOSTS = {"gemini": gemini.HOST, "copilot": copilot.HOST, "cursor": cursor.HOST,
             "opencode": opencode.HOST}
COMMAND = {name: I.registered_command(host) for name, host in NEW_HOSTS.items()}
GEMINI_ENTRY = {"matcher": "write_file|replace|run_shell_command", "hooks": [
    {"name": "pdks", "type": "command", "command": COMMAND["gemini"], "timeout": 60000}]}
COPILOT_HANDLER = {"type": "command", "bash": COMMAND["copilot"], "timeoutSec": 60}
CURSOR_TOOL = {"command": COMMAND["cursor"], "matcher": "Shell|Write|StrReplace|Edit|Delete",
               "timeout": 60, "failClosed": True}
CURSOR_SHELL = {"command": COMMAND["cursor"], "timeout": 60, "failClosed": True}


def init(root: Path, host: str) -> tuple[int, str, str]:
    return installed_in_process(root, NEW_HOSTS[host])


def written(root: Path, relative: str) -> object:
    return json.loads((root / relative).read_text(encoding="utf-8"))


# -- what each installer writes ----------------------------------------------------------------

@pytest.mark.parametrize("host, registration, document", [
    ("gemini", ".gemini/settings.json", {"hooks": {"BeforeTool": [GEMINI_ENTRY]}}),
    ("copilot", ".github/hooks/polydeukes.json",
     {"version": 1, "hooks": {"preToolUse": [COPILOT_HANDLER]}}),
    ("cursor", ".cursor/hooks.json",
     {"version": 1, "hooks": {"preToolUse": [CURSOR_TOOL], "beforeShellExecution": [CURSOR_SHELL]}}),
])
def test_a_fresh_install_writes_the_registration_and_a_second_changes_nothing(
        tmp_path, host, registration, document):
    root = git_project(tmp_path / "p")
    done = run([str(BIN / f"pdks-{host}"), "init"], root)
    assert done.code == 0, done.stderr
    folder = NEW_HOSTS[host].folder
    assert done.stdout.splitlines()[:2] == ["created polydeukes.config.yaml", "created .gitignore"]
    assert f"created {folder}/hooks/covenant-pretooluse.sh" in done.stdout.splitlines()
    assert f"created {registration}" in done.stdout.splitlines()
    assert written(root, registration) == document
    assert (root / registration).read_text().endswith("}\n")
    assert (root / folder / "hooks" / "covenant-pretooluse.sh").read_text() == \
        I.delegator_text(NEW_HOSTS[host])
    before = tree(root)
    again = run([str(BIN / f"pdks-{host}"), "init"], root)
    assert again.code == 0 and tree(root) == before
    assert f"skipped {registration} (already present)" in again.stdout.splitlines()


def test_the_gemini_timeout_is_in_milliseconds_and_the_matcher_a_regular_expression():
    import re

    assert GEMINI_ENTRY["hooks"][0]["timeout"] == 60 * 1000
    matcher = re.compile(GEMINI_ENTRY["matcher"])
    assert all(matcher.fullmatch(tool) for tool in ("write_file", "replace", "run_shell_command"))
    assert not matcher.fullmatch("read_file")


def test_opencode_writes_its_plugin_once_and_keeps_a_changed_one(tmp_path):
    root = git_project(tmp_path / "p")
    code, out, _ = init(root, "opencode")
    assert code == 0
    plugin = root / ".opencode/plugins/polydeukes.js"
    assert "created .opencode/plugins/polydeukes.js" in out.splitlines()
    assert plugin.read_text() == opencode.plugin_text(opencode.HOST)
    assert json.dumps(I.registered_script(opencode.HOST), ensure_ascii=False) in plugin.read_text()
    plugin.write_text("// the user's own plugin\n")
    code, out, _ = init(root, "opencode")
    assert code == 0 and "skipped .opencode/plugins/polydeukes.js (already present)" in out
    assert plugin.read_text() == "// the user's own plugin\n"


# -- merging into the file a user has -------------------------------------------------------------

def test_gemini_merges_into_settings_and_keeps_everything(tmp_path):
    settings = {"model": {"name": "gemini-2.5-pro"}, "hooksConfig": {"enabled": True},
                "hooks": {"BeforeTool": [{"matcher": "run_shell_command", "hooks": [
                    {"name": "audit", "type": "command", "command": "./audit.sh"}]}],
                          "AfterTool": [{"hooks": [{"type": "command", "command": "fmt"}]}]}}
    (tmp_path / ".gemini").mkdir()
    (tmp_path / ".gemini/settings.json").write_text(json.dumps(settings))
    assert init(tmp_path, "gemini")[0] == 0
    settings["hooks"]["BeforeTool"].append(GEMINI_ENTRY)
    assert written(tmp_path, ".gemini/settings.json") == settings


def test_gemini_reads_a_commented_settings_file_and_never_rewrites_it(tmp_path):
    (tmp_path / ".gemini").mkdir()
    commented = '{\n  // the team model\n  "model": {"name": "gemini-2.5-pro"} /* pinned */\n}\n'
    (tmp_path / ".gemini/settings.json").write_text(commented)
    code, out, err = init(tmp_path, "gemini")
    assert (code, out) == (2, "")
    assert err == ("pdks-gemini init failed: .gemini/settings.json has comments, which rewriting "
                   "it would lose \u2014 add this yourself, then run this again:\n"
                   f"  in \"hooks\".\"BeforeTool\": {json.dumps(GEMINI_ENTRY)}\n")
    assert tree(tmp_path) == {".gemini/settings.json": commented.encode()}
    # Added by hand, as printed: the next run finds it and leaves the file as it is.
    registered = commented.replace('"model"', '"hooks": {"BeforeTool": [' + json.dumps(GEMINI_ENTRY)
                                   + ']}, // added\n  "model"')
    (tmp_path / ".gemini/settings.json").write_text(registered)
    code, out, _ = init(tmp_path, "gemini")
    assert code == 0 and "skipped .gemini/settings.json (already present)" in out.splitlines()
    assert (tmp_path / ".gemini/settings.json").read_text() == registered


def test_copilot_and_cursor_refresh_their_own_handler_and_keep_the_others(tmp_path):
    (tmp_path / ".github/hooks").mkdir(parents=True)
    own_old = {"type": "command", "bash": COMMAND["copilot"], "timeoutSec": 5, "env": {"A": "1"}}
    foreign = {"type": "command", "bash": "./scan.sh", "powershell": "scan.ps1"}
    (tmp_path / ".github/hooks/polydeukes.json").write_text(json.dumps(
        {"version": 1, "hooks": {"preToolUse": [own_old, foreign, dict(own_old)],
                                 "sessionStart": [{"type": "prompt", "prompt": "/status"}]}}))
    assert init(tmp_path, "copilot")[0] == 0
    assert written(tmp_path, ".github/hooks/polydeukes.json") == {
        "version": 1, "hooks": {"preToolUse": [{**own_old, "timeoutSec": 60}, foreign],
                                "sessionStart": [{"type": "prompt", "prompt": "/status"}]}}

    (tmp_path / ".cursor").mkdir()
    lint = {"command": "./lint.sh", "matcher": "Write"}
    (tmp_path / ".cursor/hooks.json").write_text(json.dumps(
        {"version": 1, "hooks": {"preToolUse": [lint], "stop": [{"command": "./notify.sh"}]}}))
    assert init(tmp_path, "cursor")[0] == 0
    assert written(tmp_path, ".cursor/hooks.json") == {"version": 1, "hooks": {
        "preToolUse": [lint, CURSOR_TOOL], "stop": [{"command": "./notify.sh"}],
        "beforeShellExecution": [CURSOR_SHELL]}}


@pytest.mark.parametrize("host, relative, text, message", [
    ("gemini", ".gemini/settings.json", "{\"hooks\": ",
     ".gemini/settings.json is not a JSON object — repair it, then run this again (Expecting "
     "value: line 1 column 11 (char 10))"),
    ("gemini", ".gemini/settings.json", "[]",
     ".gemini/settings.json is not a JSON object — repair it, then run this again"),
    ("gemini", ".gemini/settings.json", '{"hooks": {"BeforeTool": {}}}',
     '.gemini/settings.json has a "hooks.BeforeTool" value that is not an array — repair it, '
     "then run this again"),
    ("copilot", ".github/hooks/polydeukes.json", '{"version": 2, "hooks": {}}',
     '.github/hooks/polydeukes.json has a "version" other than 1 — repair it, then run this '
     "again"),
    ("copilot", ".github/hooks/polydeukes.json", '{"version": 1, "hooks": []}',
     '.github/hooks/polydeukes.json has a "hooks" value that is not an object — repair it, then '
     "run this again"),
    ("cursor", ".cursor/hooks.json", '{"version": 1, "hooks": {"beforeShellExecution": "x"}}',
     '.cursor/hooks.json has a "hooks.beforeShellExecution" value that is not an array — repair '
     "it, then run this again"),
    ("cursor", ".cursor/hooks.json", "{\"version\": 1,, }",
     ".cursor/hooks.json is not a JSON object — repair it, then run this again (Expecting "
     "property name enclosed in double quotes: line 1 column 15 (char 14))"),
])
def test_a_host_file_that_cannot_take_the_registration_is_refused_before_anything_is_written(
        tmp_path, host, relative, text, message):
    (tmp_path / relative).parent.mkdir(parents=True)
    (tmp_path / relative).write_text(text)
    code, out, err = init(tmp_path, host)
    assert (code, out, err) == (2, "", f"pdks-{host} init failed: {message}\n")
    assert tree(tmp_path) == {relative: text.encode()}


HANDLER = st.fixed_dictionaries({"command": st.sampled_from(["./lint.sh", "fmt", "x y"])},
                                optional={"timeout": st.integers(1, 9),
                                          "matcher": st.sampled_from(["Shell", "Write"])})
OWN = st.fixed_dictionaries({"command": st.just(COMMAND["cursor"])},
                            optional={"timeout": st.integers(1, 9), "failClosed": st.booleans(),
                                      "note": st.text(max_size=3)})
CURSOR_FILES = st.fixed_dictionaries({"version": st.just(1), "hooks": st.fixed_dictionaries(
    {}, optional={event: st.lists(st.one_of(HANDLER, OWN), max_size=4)
                  for event in ("preToolUse", "beforeShellExecution", "stop")})})


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(CURSOR_FILES)
def test_a_flat_merge_keeps_every_foreign_handler_in_order_and_is_idempotent(existing):
    with tempfile.TemporaryDirectory() as base:
        root = Path(base)
        (root / ".cursor").mkdir()
        (root / ".cursor/hooks.json").write_text(json.dumps(existing))
        assert init(root, "cursor")[0] == 0
        merged = written(root, ".cursor/hooks.json")
        for event, handlers in existing["hooks"].items():
            foreign = [h for h in handlers if h["command"] != COMMAND["cursor"]]
            assert [h for h in merged["hooks"][event] if h["command"] != COMMAND["cursor"]] \
                == foreign
        for event, own in (("preToolUse", CURSOR_TOOL), ("beforeShellExecution", CURSOR_SHELL)):
            mine = [h for h in merged["hooks"][event] if h["command"] == COMMAND["cursor"]]
            assert len(mine) == 1 and {k: mine[0][k] for k in own} == own
        before = tree(root)
        assert init(root, "cursor")[0] == 0 and tree(root) == before


# -- the Claude Code plugin ----------------------------------------------------------------------

def test_the_plugin_layout_judges_the_project_claude_code_runs_it_in(tmp_path):
    project = git_project(tmp_path / "project")
    assert run([str(BIN / "pdks-claude-code"), "init"], project).code == 0
    plugin = tmp_path / "dist" / "polydeukes"
    done = run([str(BIN / "pdks-claude-code"), "init", "--plugin", str(plugin)], tmp_path)
    assert done.code == 0, done.stderr
    assert done.stdout.splitlines()[:3] == [
        f"created {plugin}/.claude-plugin/plugin.json", f"created {plugin}/hooks/hooks.json",
        f"created {plugin}/hooks/covenant-pretooluse.sh"]
    manifest = json.loads((plugin / ".claude-plugin/plugin.json").read_text())
    assert (manifest["name"], manifest["version"]) == ("polydeukes", "0.8.0")
    hooks = json.loads((plugin / "hooks/hooks.json").read_text())["hooks"]
    (entry,) = hooks["PreToolUse"]
    assert entry["matcher"] == "Edit|Write|MultiEdit|NotebookEdit|Bash"
    (handler,) = entry["hooks"]
    assert handler["timeout"] == 60 and "${CLAUDE_PLUGIN_ROOT}/hooks/" in handler["command"]
    env = clean_env(CLAUDE_PLUGIN_ROOT=str(plugin), CLAUDE_PROJECT_DIR=str(project))
    payload = json.dumps({"session_id": "s", "cwd": str(project), "hook_event_name": "PreToolUse",
                          "tool_name": "Bash", "tool_input": {"command": "rm -rf .claude/hooks"}})
    blocked = run(["sh", "-c", handler["command"]], project / ".claude", payload.encode(), env=env,
                  log=project / ".polydeukes" / "roi.log")
    assert blocked.code == 2
    assert blocked.stderr == "rm mentions protected path .claude/hooks without read-only proof\n"
    assert blocked.rows == [["passed", "self-mod", ".claude/hooks"],
                            ["blocked", "shell-mod", ".claude/hooks"]]
    # A plugin missing its delegator (a broken install) blocks and says so.
    (plugin / "hooks/covenant-pretooluse.sh").unlink()
    lost = run(["sh", "-c", handler["command"]], project, payload.encode(), env=env)
    assert lost.code == 2
    assert lost.stderr == (f"covenant hook failed closed: no {plugin}/hooks/covenant-pretooluse.sh"
                           " — reinstall the polydeukes plugin\n")


def test_a_plugin_packaged_inside_the_project_is_protected_and_never_overwritten(tmp_path):
    root = git_project(tmp_path / "p")
    assert run([str(BIN / "pdks-claude-code"), "init"], root).code == 0
    done = run([str(BIN / "pdks-claude-code"), "init", "--plugin", "tools/claude-plugin"], root)
    assert done.code == 0, done.stderr
    assert "protected tools/claude-plugin in polydeukes.config.yaml" in done.stdout.splitlines()
    assert "  - 'tools/claude-plugin'\n" in (root / "polydeukes.config.yaml").read_text()
    before = tree(root)
    again = run([str(BIN / "pdks-claude-code"), "init", "--plugin", "tools/claude-plugin"], root)
    assert again.code == 0 and tree(root) == before
    assert again.stdout.splitlines()[0] == \
        "skipped tools/claude-plugin/.claude-plugin/plugin.json (already present)"


# -- pdks init --host, --list-hosts ----------------------------------------------------------------

def test_bare_pdks_init_is_still_the_agent_neutral_scaffold(tmp_path):
    done = run([*PDKS, "init"], tmp_path)
    assert (done.code, done.stdout) == (0, "created polydeukes.config.yaml\ncreated .gitignore\n"
                                           "created polydeukes.tests.yaml\n")
    assert (tmp_path / "polydeukes.config.yaml").read_text() == STARTER_CONFIG
    assert sorted(tree(tmp_path)) == [".gitignore", "polydeukes.config.yaml",
                                      "polydeukes.tests.yaml"]


def test_init_host_is_repeatable_and_all_detected_installs_what_the_project_uses(tmp_path):
    root = git_project(tmp_path / "p")
    (root / ".cursor").mkdir()
    (root / ".gemini").mkdir()
    done = run([*PDKS, "init", "--host", "all-detected", "--host", "copilot",
                "--host", "cursor"], root)
    assert done.code == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[:2] == ["created polydeukes.config.yaml", "created .gitignore"]
    for registration in (".gemini/settings.json", ".cursor/hooks.json",
                         ".github/hooks/polydeukes.json"):
        assert lines.count(f"created {registration}") == 1  # cursor named twice, installed once
    assert lines.index("created .gemini/settings.json") < lines.index("created .cursor/hooks.json")
    listing = run([*PDKS, "init", "--list-hosts"], root)
    assert listing.code == 0
    assert listing.stdout.splitlines() == [
        "claude-code  not installed  pdks-claude-code init",
        "codex        not installed  pdks-codex init",
        "grok         not installed  pdks-grok init",
        "gemini       installed      pdks-gemini init",
        "copilot      installed      pdks-copilot init",
        "cursor       installed      pdks-cursor init",
        "opencode     not installed  pdks-opencode init",
    ]


def test_list_hosts_tells_a_detected_host_and_a_broken_install(tmp_path):
    root = git_project(tmp_path / "p")
    (root / ".codex").mkdir()
    assert run([str(BIN / "pdks-opencode"), "init"], root).code == 0
    (root / ".opencode/hooks/covenant-pretooluse.sh").unlink()
    rows = {line.split("  ")[0]: line for line in
            run([*PDKS, "init", "--list-hosts"], root).stdout.splitlines()}
    assert "detected, not installed" in rows["codex"]
    assert "incomplete (run its init again)" in rows["opencode"]


def test_an_unknown_host_is_refused_before_anything_is_written(tmp_path):
    done = run([*PDKS, "init", "--host", "gemini", "--host", "vim"], tmp_path)
    assert (done.code, done.stdout) == (2, "")
    assert done.stderr == ("pdks init failed: unknown host 'vim' — one of claude-code, codex, "
                           "grok, gemini, copilot, cursor, opencode, or all-detected\n")
    assert tree(tmp_path) == {}
    none = run([*PDKS, "init", "--host", "all-detected"], tmp_path)
    assert none.code == 0
    assert none.stdout.splitlines()[-1].startswith("skipped --host all-detected (no host folder "
                                                   "here: .claude, .codex, .grok, .gemini")
    assert run([*PDKS, "init", "--list-hosts", "--git"], tmp_path).code == 2


def test_a_failing_installer_ends_the_run_with_its_status(tmp_path):
    root = git_project(tmp_path / "p")
    (root / ".gemini").mkdir()
    (root / ".gemini/settings.json").write_text("[]")
    done = run([*PDKS, "init", "--host", "gemini", "--host", "cursor"], root)
    assert done.code == 2
    assert done.stderr == ("pdks-gemini init failed: .gemini/settings.json is not a JSON object "
                           "— repair it, then run this again\n")
    assert not (root / ".cursor").exists()


def test_the_tests_read_back_the_command_each_installer_registered(tmp_path):
    root = git_project(tmp_path / "p")
    for host in NEW_HOSTS:
        assert init(root, host)[0] == 0
        assert registered_command(host, root) == COMMAND[host]
