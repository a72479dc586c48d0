"""`pdks-<host> init` (spec 07 §1, §2.6, §3, §4.6; spec 05 §5.5): what each installer writes,
how it merges into files the user already has, what it refuses before writing anything, and two
properties: a second run changes no byte, and every pre-existing key, hook and permission
survives."""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adapter_support import BIN, git_project, run, tree
from adapter_support import installed_in_process as _installed_in_process

from polydeukes.stdlib.adapters import (claude_code, codex, copilot, cursor, gemini, grok,
                                        install as I, opencode)

HOSTS = {"claude-code": claude_code.HOST, "codex": codex.HOST, "grok": grok.HOST,
         "gemini": gemini.HOST, "copilot": copilot.HOST, "cursor": cursor.HOST,
         "opencode": opencode.HOST}


def init(root: Path, host: str) -> tuple[int, str, str]:
    return _installed_in_process(root, HOSTS[host])
CLAUDE_COMMAND = I.registered_command(claude_code.HOST)
CODEX_COMMAND = I.registered_command(codex.HOST)


# -- the console scripts ------------------------------------------------------------------------

@pytest.mark.parametrize("host", HOSTS)
def test_usage_help_and_version(host, tmp_path):
    script = str(BIN / f"pdks-{host}")
    init = "init [--plugin DIR]" if host == "claude-code" else "init"
    for argv in ([], ["bogus"], ["init", "extra"], ["hook", "--enforce", "advise"],
                 ["init", "--plugin"]):
        wrong = run([script, *argv], tmp_path, b"not read")
        assert (wrong.code, wrong.stdout) == (2, "")
        assert wrong.stderr == f"usage: pdks-{host} {init} | pdks-{host} hook\n"
    helped = run([script, "--help"], tmp_path)
    assert helped.code == 0 and helped.stdout.startswith(f"usage: pdks-{host} init")
    assert run([script, "--version"], tmp_path).stdout == f"pdks-{host} 0.8.0\n"
    assert list(tmp_path.iterdir()) == []  # nothing written by any of them


def test_claude_code_init_writes_every_artifact(tmp_path):
    root = git_project(tmp_path / "p")
    done = run([str(BIN / "pdks-claude-code"), "init"], root)
    assert done.code == 0, done.stderr
    assert done.stdout.splitlines()[:9] == [
        "created polydeukes.config.yaml", "created .gitignore", "created polydeukes.tests.yaml",
        "protected .claude/settings.local.json in polydeukes.config.yaml",
        "created .polydeukes/hook-python",
        "created .claude/hooks/covenant-pretooluse.sh", "created .claude/settings.json",
        "created .claude/rules/polydeukes.md", "created .claude/skills/discipline-draft/SKILL.md",
    ]
    assert (root / ".polydeukes" / "hook-python").read_text() == sys.executable + "\n"
    assert (root / ".claude/hooks/covenant-pretooluse.sh").read_text() == \
        I.delegator_text(claude_code.HOST)
    assert json.loads((root / ".claude/settings.json").read_text()) == {"hooks": {"PreToolUse": [
        {"matcher": "Edit|Write|MultiEdit|NotebookEdit|Bash",
         "hooks": [{"type": "command", "command": CLAUDE_COMMAND, "timeout": 60}]}]}}
    rules = (root / ".claude/rules/polydeukes.md").read_text()
    assert rules.startswith("---\npaths:\n  - polydeukes.config.yaml\n  - polydeukes.config.yml\n"
                            "  - polydeukes.config.json\n  - .claude/**\n---\n")
    assert "pdks docs search" in rules and "pdks docs show" in rules
    skill = (root / ".claude/skills/discipline-draft/SKILL.md").read_text()
    assert skill.startswith("---\nname: discipline-draft\ndescription: ")
    assert "enforce: block" in skill and "advised" in skill
    before = tree(root)
    again = run([str(BIN / "pdks-claude-code"), "init"], root)
    assert again.code == 0 and tree(root) == before
    assert all(line.startswith("skipped ") for line in again.stdout.splitlines()[:7])


def test_claude_code_merges_and_keeps_everything(tmp_path):
    root = tmp_path
    settings = {
        "permissions": {"allow": ["Bash(npm test)"], "deny": ["Read(.env)"]},
        "hooks": {
            "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "lint"}]}],
            "PostToolUse": [{"matcher": "Edit", "hooks": [{"type": "command", "command": "fmt"}]}],
        },
        "model": "opus",
    }
    (root / ".claude").mkdir()
    (root / ".claude/settings.json").write_text(json.dumps(settings))
    assert init(root, "claude-code")[0] == 0
    merged = json.loads((root / ".claude/settings.json").read_text())
    own = {"matcher": "Edit|Write|MultiEdit|NotebookEdit|Bash",
           "hooks": [{"type": "command", "command": CLAUDE_COMMAND, "timeout": 60}]}
    settings["hooks"]["PreToolUse"].append(own)
    assert merged == settings
    assert (root / ".claude/settings.json").read_text().endswith("}\n")


def test_claude_code_skips_without_reformatting_when_registered(tmp_path):
    compact = json.dumps({"hooks": {"PreToolUse": [{"hooks": [{"command": CLAUDE_COMMAND}]}]}},
                         separators=(",", ":"))
    (tmp_path / ".claude").mkdir()
    (tmp_path / ".claude/settings.json").write_text(compact)
    code, out, _ = init(tmp_path, "claude-code")
    assert code == 0 and "skipped .claude/settings.json (already present)" in out.splitlines()
    assert (tmp_path / ".claude/settings.json").read_text() == compact


@pytest.mark.parametrize("text, message", [
    ("{\"hooks\": ", "cannot parse .claude/settings.json in {root} — fix it and re-run "
                     "(Expecting value: line 1 column 11 (char 10))"),
    ("{\"a\": NaN}", "cannot parse .claude/settings.json in {root} — fix it and re-run "
                     "(NaN is not JSON)"),
    ("[]", ".claude/settings.json in {root} did not take the PreToolUse registration — the "
           "judge would never be spawned. Fix that file and re-run"),
    ("{\"hooks\": []}", ".claude/settings.json in {root} did not take the PreToolUse "
                        "registration — the judge would never be spawned. Fix that file and re-run"),
    ("{\"hooks\": {\"PreToolUse\": {}}}", ".claude/settings.json in {root} did not take the "
     "PreToolUse registration — the judge would never be spawned. Fix that file and re-run"),
])
def test_claude_code_refuses_a_settings_file_before_writing_anything(tmp_path, text, message):
    (tmp_path / ".claude").mkdir()
    (tmp_path / ".claude/settings.json").write_text(text)
    code, out, err = init(tmp_path, "claude-code")
    assert (code, out) == (2, "")
    assert err == "pdks-claude-code init failed: " + message.format(root=tmp_path) + "\n"
    assert tree(tmp_path) == {".claude/settings.json": text.encode()}


def test_claude_code_verifies_the_registration_by_reading_it_back(tmp_path, monkeypatch):
    real_replace = I._replace
    monkeypatch.setattr(I, "_replace", lambda path, text: real_replace(path, "{}\n"))
    code, _, err = init(tmp_path, "claude-code")
    assert code == 2
    assert err == (f"pdks-claude-code init failed: .claude/settings.json in {tmp_path} did not "
                   "take the PreToolUse registration — the judge would never be spawned. Fix "
                   "that file and re-run\n")


def test_a_symlinked_settings_file_stays_a_link(tmp_path):
    (tmp_path / "dotfiles").mkdir()
    (tmp_path / "dotfiles/settings.json").write_text('{"model": "opus"}')
    (tmp_path / ".claude").mkdir()
    (tmp_path / ".claude/settings.json").symlink_to(tmp_path / "dotfiles/settings.json")
    assert init(tmp_path, "claude-code")[0] == 0
    assert (tmp_path / ".claude/settings.json").is_symlink()
    assert "PreToolUse" in (tmp_path / "dotfiles/settings.json").read_text()


def test_an_ambiguous_config_refuses_before_the_adapter_writes(tmp_path):
    (tmp_path / "polydeukes.config.yaml").write_text("{}")
    (tmp_path / "polydeukes.config.json").write_text("{}")
    code, out, err = init(tmp_path, "claude-code")
    assert (code, out) == (2, "")
    assert err == (
        f"pdks init failed: ambiguous Polydeukes config in {tmp_path} — found "
        "polydeukes.config.yaml and polydeukes.config.json; keep exactly one and re-run\n"
        f"pdks-claude-code init failed: 'pdks init' failed in {tmp_path} (exit 2) — fix what it "
        "reported and re-run\n")
    assert sorted(tree(tmp_path)) == ["polydeukes.config.json", "polydeukes.config.yaml"]


def test_a_write_failure_exits_2_with_the_path(tmp_path):
    (tmp_path / ".claude").mkdir()
    (tmp_path / ".claude/hooks").write_text("a file where the folder goes")
    code, out, err = init(tmp_path, "claude-code")
    assert code == 2 and "created polydeukes.config.yaml" in out  # not transactional
    assert err == "pdks-claude-code init failed: cannot write .claude/hooks: File exists\n"


# -- Codex --------------------------------------------------------------------------------------

CODEX_ENTRY = {"matcher": "Bash|apply_patch",
               "hooks": [{"type": "command", "command": CODEX_COMMAND, "timeout": 60}]}


def test_codex_init_and_the_approval_note(tmp_path):
    code, out, _ = init(tmp_path, "codex")
    assert code == 0
    text = (tmp_path / ".codex/hooks.json").read_text()
    assert text == json.dumps({"hooks": {"PreToolUse": [CODEX_ENTRY]}}, indent=2,
                              ensure_ascii=False) + "\n"
    assert "created .codex/hooks.json" in out.splitlines()
    assert out.splitlines()[-1].startswith("next: Codex runs a project hook only after you "
                                           "approve it: open /hooks")
    assert not (tmp_path / ".claude").exists()
    code, out, _ = init(tmp_path, "codex")
    assert "skipped .codex/hooks.json (already present)" in out.splitlines()
    assert (tmp_path / ".codex/hooks.json").read_text() == text


@pytest.mark.parametrize("before, after", [
    # foreign events, matchers and keys are kept; ours is appended
    ({"version": 2, "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "notify"}]}],
                              "PreToolUse": [{"matcher": "Bash", "hooks": [
                                  {"type": "command", "command": "lint", "timeout": 5}]}]}},
     {"version": 2, "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "notify"}]}],
                              "PreToolUse": [{"matcher": "Bash", "hooks": [
                                  {"type": "command", "command": "lint", "timeout": 5}]},
                                  CODEX_ENTRY]}}),
    # our handler is refreshed in place (matcher, timeout), its extra keys kept
    ({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "command", "command": CODEX_COMMAND, "timeout": 5, "statusMessage": "judging"}]}]}},
     {"hooks": {"PreToolUse": [{"matcher": "Bash|apply_patch", "hooks": [
         {"type": "command", "command": CODEX_COMMAND, "timeout": 60,
          "statusMessage": "judging"}]}]}}),
    # siblings under another matcher keep it; ours moves into its own entry
    ({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "command", "command": "lint"},
        {"type": "command", "command": CODEX_COMMAND, "timeout": 60}]}]}},
     {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "lint"}]},
                               CODEX_ENTRY]}}),
    # a matcher-less entry holding only ours gets the matcher; duplicates are dropped
    ({"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": CODEX_COMMAND}]},
                               {"matcher": "x", "hooks": [{"command": CODEX_COMMAND},
                                                          {"command": "keep"}]},
                               {"hooks": [{"command": CODEX_COMMAND}]}]}},
     {"hooks": {"PreToolUse": [{"matcher": "Bash|apply_patch", "hooks": [
         {"type": "command", "command": CODEX_COMMAND, "timeout": 60}]},
         {"matcher": "x", "hooks": [{"command": "keep"}]}]}}),
])
def test_codex_merge_rules(tmp_path, before, after):
    (tmp_path / ".codex").mkdir()
    (tmp_path / ".codex/hooks.json").write_text(json.dumps(before))
    assert init(tmp_path, "codex")[0] == 0
    assert json.loads((tmp_path / ".codex/hooks.json").read_text()) == after


@pytest.mark.parametrize("text, message", [
    ("[1]", ".codex/hooks.json is not a JSON object — repair it, then run this again"),
    ("{", ".codex/hooks.json is not a JSON object — repair it, then run this again (Expecting "
          "property name enclosed in double quotes: line 1 column 2 (char 1))"),
    ('{"hooks": {"PreToolUse": {}}}', '.codex/hooks.json has a "hooks.PreToolUse" value that is '
                                      "not an array — repair it, then run this again"),
])
def test_codex_refuses_before_writing_anything(tmp_path, text, message):
    (tmp_path / ".codex").mkdir()
    (tmp_path / ".codex/hooks.json").write_text(text)
    code, out, err = init(tmp_path, "codex")
    assert (code, out, err) == (2, "", f"pdks-codex init failed: {message}\n")
    assert tree(tmp_path) == {".codex/hooks.json": text.encode()}


def test_the_codex_command_finds_its_root_and_never_changes():
    assert CODEX_COMMAND == I.registered_command(codex.HOST)
    assert CODEX_COMMAND.startswith("/bin/sh -c 'd=$PWD; ")
    assert CLAUDE_COMMAND.startswith("/bin/sh -c 'd=${CLAUDE_PROJECT_DIR:-$PWD}; ")


# -- Grok ---------------------------------------------------------------------------------------

def test_grok_writes_its_hook_file_with_a_timeout_and_never_touches_claude(tmp_path):
    code, out, _ = init(tmp_path, "grok")
    assert code == 0
    assert json.loads((tmp_path / ".grok/hooks/covenant-pretooluse.json").read_text()) == {
        "hooks": {"PreToolUse": [{"matcher": "write|search_replace|run_terminal_command",
                                  "hooks": [{"type": "command",
                                             "command": I.registered_command(grok.HOST),
                                             "timeout": 60}]}]}}
    assert not (tmp_path / ".claude").exists()
    (tmp_path / ".grok/hooks/covenant-pretooluse.json").write_text("{}")  # the user's edit
    code, out, _ = init(tmp_path, "grok")
    assert "skipped .grok/hooks/covenant-pretooluse.json (already present)" in out.splitlines()
    assert (tmp_path / ".grok/hooks/covenant-pretooluse.json").read_text() == "{}"


# -- properties ---------------------------------------------------------------------------------

JSON_LEAF = st.none() | st.booleans() | st.integers(-5, 5) | st.text(max_size=5)
JSON_VALUE = st.recursive(JSON_LEAF, lambda inner: st.lists(inner, max_size=3)
                          | st.dictionaries(st.text(max_size=4), inner, max_size=3),
                          max_leaves=8)
HANDLER = st.fixed_dictionaries({"type": st.just("command"),
                                 "command": st.sampled_from(["lint", "fmt", "notify", "x y"])},
                                optional={"timeout": st.integers(1, 600)})
ENTRY = st.fixed_dictionaries({"hooks": st.lists(HANDLER, max_size=3)},
                              optional={"matcher": st.sampled_from(["Bash", "Edit|Write", ""])})
EVENTS = st.dictionaries(st.sampled_from(["PreToolUse", "PostToolUse", "Stop", "SessionStart"]),
                         st.lists(ENTRY, max_size=3), max_size=4)
SETTINGS = st.fixed_dictionaries({}, optional={
    "hooks": EVENTS,
    "permissions": st.fixed_dictionaries({"allow": st.lists(st.text(max_size=6), max_size=3),
                                          "deny": st.lists(st.text(max_size=6), max_size=3)}),
    "env": st.dictionaries(st.text(min_size=1, max_size=4), st.text(max_size=4), max_size=2),
    "extra": JSON_VALUE,
})
PROPERTY = settings(max_examples=40, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


@PROPERTY
@given(SETTINGS)
def test_claude_code_init_keeps_every_key_and_hook_and_is_idempotent(existing):
    with tempfile.TemporaryDirectory() as base:
        root = Path(base)
        (root / ".claude").mkdir()
        (root / ".claude/settings.json").write_text(json.dumps(existing))
        assert init(root, "claude-code")[0] == 0
        merged = json.loads((root / ".claude/settings.json").read_text())
        added = merged["hooks"]["PreToolUse"].pop()
        assert added["hooks"][0]["command"] == CLAUDE_COMMAND
        if not merged["hooks"]["PreToolUse"] and "PreToolUse" not in existing.get("hooks", {}):
            del merged["hooks"]["PreToolUse"]
        if not merged["hooks"] and "hooks" not in existing:
            del merged["hooks"]
        assert merged == existing
        before = tree(root)
        assert init(root, "claude-code")[0] == 0
        assert tree(root) == before


def _handlers(document: dict) -> list[tuple[str, object, dict]]:
    """(event, matcher, handler) for every handler that is not ours."""
    return [(event, entry.get("matcher"), handler)
            for event, entries in document.get("hooks", {}).items() for entry in entries
            for handler in entry["hooks"] if handler.get("command") != CODEX_COMMAND]


OWN = st.fixed_dictionaries({"command": st.just(CODEX_COMMAND)},
                            optional={"timeout": st.integers(1, 9), "type": st.just("command")})
CODEX_ENTRIES = st.fixed_dictionaries(
    {"hooks": st.lists(st.one_of(HANDLER, OWN), min_size=1, max_size=3)},
    optional={"matcher": st.sampled_from(["Bash", "Bash|apply_patch", "apply_patch"])})
CODEX_DOCUMENTS = st.fixed_dictionaries(
    {"hooks": st.fixed_dictionaries(
        {"PreToolUse": st.lists(CODEX_ENTRIES, max_size=3)},
        optional={"PostToolUse": st.lists(CODEX_ENTRIES, max_size=2),
                  "Stop": st.lists(ENTRY, max_size=2)})},
    optional={"version": st.integers(1, 3), "notes": JSON_VALUE})


@PROPERTY
@given(CODEX_DOCUMENTS)
def test_codex_merge_keeps_foreign_handlers_under_their_matchers_and_is_idempotent(existing):
    with tempfile.TemporaryDirectory() as base:
        root = Path(base)
        (root / ".codex").mkdir()
        (root / ".codex/hooks.json").write_text(json.dumps(existing))
        assert init(root, "codex")[0] == 0
        merged = json.loads((root / ".codex/hooks.json").read_text())
        assert {k: v for k, v in merged.items() if k != "hooks"} == \
            {k: v for k, v in existing.items() if k != "hooks"}
        for event in existing["hooks"]:
            if event != "PreToolUse":
                assert merged["hooks"][event] == existing["hooks"][event]
        assert sorted(map(json.dumps, _handlers(merged))) == \
            sorted(map(json.dumps, _handlers(existing)))
        own = [(entry.get("matcher"), handler) for entry in merged["hooks"]["PreToolUse"]
               for handler in entry["hooks"] if handler.get("command") == CODEX_COMMAND]
        assert len(own) == 1 and own[0][0] == "Bash|apply_patch"
        assert {k: own[0][1][k] for k in ("type", "command", "timeout")} == CODEX_ENTRY["hooks"][0]
        before = tree(root)
        code, out, _ = init(root, "codex")
        assert code == 0 and "skipped .codex/hooks.json (already present)" in out.splitlines()
        assert tree(root) == before


def test_an_interpreter_that_cannot_be_recorded_refuses_before_writing(tmp_path, monkeypatch):
    monkeypatch.setattr(sys, "executable", "")
    code, out, err = init(tmp_path, "grok")
    assert (code, out) == (2, "")
    assert err.startswith(f"pdks-grok init failed: cannot use 'polydeukes' from {tmp_path} — "
                          "install or update it there first (e.g. 'pip install polydeukes'), "
                          "then run this command again: ")
    assert tree(tmp_path) == {}
