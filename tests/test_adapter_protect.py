"""Each installer protects what it wrote (adapters/protect.py): protectedPaths is made to cover
the registration, the delegator and an in-project judge runtime, by one contiguous insertion
into the config that keeps every comment and the user's order, or the installer refuses before
writing anything and prints the exact lines to add.

The laws are checked with an oracle of its own: PyYAML / json read the texts back, and the
"one insertion" law compares the texts character by character."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from adapter_support import BIN, git_project, installed_in_process, run, run_hook, tree

from polydeukes.stdlib.adapters import (claude_code, codex, copilot, cursor, gemini, grok,
                                        install as I, opencode)
from polydeukes.stdlib.adapters.protect import Unsafe, extend

HOSTS = {"claude-code": claude_code.HOST, "codex": codex.HOST, "grok": grok.HOST,
         "gemini": gemini.HOST, "copilot": copilot.HOST, "cursor": cursor.HOST,
         "opencode": opencode.HOST}


def one_insertion(old: str, new: str) -> str:
    """The text inserted, when `new` is `old` with one contiguous piece added (else fail)."""
    prefix = 0
    while prefix < len(old) and old[prefix] == new[prefix]:
        prefix += 1
    suffix = 0
    while suffix < len(old) - prefix and old[len(old) - 1 - suffix] == new[len(new) - 1 - suffix]:
        suffix += 1
    assert prefix + suffix == len(old), (old, new)
    return new[prefix:len(new) - suffix]


# -- the edit -------------------------------------------------------------------------------------

@pytest.mark.parametrize("config, entries, edited", [
    # block list: after the last item, in its quoting and indentation; comments stay
    ("protectedPaths:\n  - '.claude/hooks'  # ours\n  # - '.old'\nwitness: {token: x}\n",
     [".gemini/settings.json"],
     "protectedPaths:\n  - '.claude/hooks'  # ours\n  - '.gemini/settings.json'\n  # - '.old'\n"
     "witness: {token: x}\n"),
    ("protectedPaths:\n- \"a\"\n- \"b\"\nwitness: {}\n", ["c"],
     "protectedPaths:\n- \"a\"\n- \"b\"\n- \"c\"\nwitness: {}\n"),
    ("protectedPaths:\n    - a\n    - b\n", [".cursor/hooks", ".cursor/hooks.json"],
     "protectedPaths:\n    - a\n    - b\n    - .cursor/hooks\n    - .cursor/hooks.json\n"),
    ("protectedPaths:\r\n  - 'a'\r\nwitness: {}\r\n", ["b"],
     "protectedPaths:\r\n  - 'a'\r\n  - 'b'\r\nwitness: {}\r\n"),
    ("protectedPaths:\n  - 'a'", ["b"], "protectedPaths:\n  - 'a'\n  - 'b'\n"),
    # a null list, and no list at all
    ("protectedPaths:\nwitness: {}\n", ["b"], "protectedPaths:\n  - 'b'\nwitness: {}\n"),
    ("witness: {token: x}", [".grok/hooks"],
     "witness: {token: x}\n\n# Added by `pdks-grok init`: the hook registration is a gate, and an "
     "agent that edits it disarms the judge.\nprotectedPaths:\n  - '.grok/hooks'\n"),
    # flow lists, on one line or several
    ("protectedPaths: ['a', \"b\"]  # the gates\n", ["c"],
     "protectedPaths: ['a', \"b\", \"c\"]  # the gates\n"),
    ("protectedPaths: []\n", ["c"], "protectedPaths: ['c']\n"),
    ("protectedPaths: [\n  a,\n  b, # note\n]\n", ["c"], "protectedPaths: [\n  a,\n  b, 'c' # note\n]\n"),
    # an entry with a quote in its name
    ("protectedPaths:\n  - 'a'\n", ["it's"], "protectedPaths:\n  - 'a'\n  - 'it''s'\n"),
])
def test_the_edit_is_one_insertion_in_the_lists_own_style(config, entries, edited):
    text, added = extend(config, entries, command="pdks-grok")
    assert (text, added) == (edited, entries)
    one_insertion(config, text)
    assert yaml.safe_load(text)["protectedPaths"][-len(entries):] == entries


def test_a_json_config_takes_entries_in_its_list():
    config = '{\n  "protectedPaths": [".claude/hooks"],\n  "witness": {"token": "x"}\n}\n'
    text, added = extend(config, [".gemini/hooks"], json_style=True)
    assert text == ('{\n  "protectedPaths": [".claude/hooks", ".gemini/hooks"],\n'
                    '  "witness": {"token": "x"}\n}\n')
    assert json.loads(text)["protectedPaths"] == [".claude/hooks", ".gemini/hooks"]


@pytest.mark.parametrize("config, entries", [
    ("protectedPaths:\n  - '.gemini'\n", [".gemini/settings.json", ".gemini/hooks"]),
    ("protectedPaths: ['./.codex/', '.codex/hooks.json']\n", [".codex/hooks", ".codex/hooks.json"]),
    ("protectedPaths: [a]\n", ["a/b/c", "a"]),
])
def test_an_entry_already_covered_by_itself_or_an_ancestor_is_not_added(config, entries):
    assert extend(config, entries) == (None, [])


@pytest.mark.parametrize("config, why", [
    ("protectedPaths: &gates [a]\nother: *gates\n", "its protectedPaths is not written as a list"),
    ("protectedPaths: [a]\nwitness: {}\nprotectedPaths: [b]\n", "it names protectedPaths more"),
    ("protectedPaths:\n  !!seq\n  - a\n", "reading it back did not give the list it should"),
    ("protectedPaths: a\n", "its protectedPaths is not a list"),
    ("protectedPaths: {a: 1}\n", "its protectedPaths is not a list"),
    ("protectedPaths: [a\n", "it does not parse"),
    ("- a\n- b\n", "it is not a mapping of keys"),
])
def test_what_cannot_be_edited_safely_is_refused(config, why):
    with pytest.raises(Unsafe, match=why.replace("(", r"\(")):
        extend(config, ["x"])
    with pytest.raises(Unsafe, match="a JSON config without a protectedPaths list"):
        extend('{"witness": {}}', ["x"], json_style=True)


# A config as people write them: other keys before and after, comments and blank lines anywhere,
# the list in block style (any indentation) or flow style, each item in any quoting.
ITEM = st.sampled_from([".claude/hooks", "src/generated", "a b", "docs", ".codex"])
QUOTED = st.sampled_from(["plain", "single", "double"])
AROUND = st.lists(st.sampled_from(["# a comment", "", "  # indented comment"]), max_size=2)


@st.composite
def configs(draw) -> str:
    items = draw(st.lists(st.tuples(ITEM, QUOTED), max_size=4, unique_by=lambda t: t[0]))

    def shown(item, style):
        if style == "double":
            return json.dumps(item)
        if style == "plain" and " " not in item:
            return item
        return f"'{item}'"

    lines = draw(AROUND) + ["languages:", "  placeholder: {testCmd: 'echo'}"] + draw(AROUND)
    if draw(st.booleans()):
        indent = " " * draw(st.sampled_from([0, 2, 4]))
        lines.append("protectedPaths:" + draw(st.sampled_from(["", "  # gates"])))
        for item, style in items:
            lines += draw(AROUND) if indent else []
            lines.append(f"{indent}- {shown(item, style)}" + draw(st.sampled_from(["", " # x"])))
    else:
        inner = ", ".join(shown(item, style) for item, style in items)
        lines.append(f"protectedPaths: [{inner}]" + draw(st.sampled_from(["", "  # gates"])))
    lines += draw(AROUND) + ["witness: {token: 'pdks witness', ttlMinutes: 10}"]
    return "\n".join(lines) + draw(st.sampled_from(["\n", ""]))


@settings(max_examples=150, deadline=None)
@given(configs(), st.lists(st.sampled_from([".gemini/settings.json", ".gemini/hooks", "docs/x",
                                            ".codex/hooks.json", ".venv"]), max_size=3))
def test_law_the_edit_adds_exactly_the_missing_entries_by_one_insertion(config, entries):
    before = yaml.safe_load(config)
    current = before.get("protectedPaths") or []
    wanted = []
    for entry in entries:
        covered = any(entry == p or entry.startswith(p.rstrip("/") + "/") for p in current)
        if not covered and entry not in wanted:
            wanted.append(entry)
    text, added = extend(config, entries)
    assert added == wanted
    if not wanted:
        assert text is None
        return
    assert yaml.safe_load(text) == {**before, "protectedPaths": current + wanted}
    inserted = one_insertion(config, text)
    assert all(entry in inserted for entry in wanted)


# -- every installer, in a project ------------------------------------------------------------------

@pytest.mark.parametrize("host", HOSTS)
def test_after_install_protected_paths_cover_everything_the_installer_wrote(tmp_path, host):
    root = git_project(tmp_path / "p")
    assert installed_in_process(root, HOSTS[host])[0] == 0
    protected = yaml.safe_load((root / "polydeukes.config.yaml").read_text())["protectedPaths"]
    # The starter test file (pdks init) is the author's, like .gitignore: it judges nothing,
    # so an agent editing it weakens no gate.
    written = [p for p in tree(root)
               if p not in (".gitignore", "polydeukes.config.yaml", "polydeukes.tests.yaml")
               and not p.startswith(".polydeukes/") and not p.startswith(".claude/rules/")
               and not p.startswith(".claude/skills/")]
    assert written  # the registration and the delegator at least
    for path in written:
        assert any(path == p or path.startswith(p + "/") for p in protected), (path, protected)


def test_a_users_config_keeps_every_comment_and_its_order(tmp_path):
    config = ("# Our gates, most important first.\nprotectedPaths:\n  - 'infra/terraform'  # prod\n"
              "  - '.claude/hooks'\n\n# Disciplines come later.\nwitness:\n  token: 'ok go'\n"
              "  ttlMinutes: 5\n")
    (tmp_path / "polydeukes.config.yaml").write_text(config)
    code, out, _ = installed_in_process(tmp_path, codex.HOST)
    assert code == 0
    assert out.splitlines()[:3] == ["created .gitignore",
                                    "skipped polydeukes.config.yaml (already present)",
                                    "protected .codex/hooks in polydeukes.config.yaml"]
    text = (tmp_path / "polydeukes.config.yaml").read_text()
    assert one_insertion(config, text) == "  - '.codex/hooks'\n  - '.codex/hooks.json'\n  - '.codex/config.toml'\n"


def test_a_config_that_cannot_be_edited_safely_stops_the_install_with_the_lines_to_add(tmp_path):
    config = "protectedPaths: &gates ['.claude/hooks']\nlayers: *gates\n"
    (tmp_path / "polydeukes.config.yaml").write_text(config)
    code, out, err = installed_in_process(tmp_path, cursor.HOST)
    assert (code, out) == (2, "")
    assert err == ("pdks-cursor init failed: cannot add to protectedPaths in polydeukes.config.yaml"
                   " without rewriting it (its protectedPaths is not written as a list) — add"
                   " these entries to it yourself, then run this again:\n"
                   "  - '.cursor/hooks'\n  - '.cursor/hooks.json'\n")
    assert tree(tmp_path) == {"polydeukes.config.yaml": config.encode()}
    json_config = '{"witness": {"token": "x", "ttlMinutes": 1}}'
    (tmp_path / "polydeukes.config.yaml").unlink()
    (tmp_path / "polydeukes.config.json").write_text(json_config)
    code, _, err = installed_in_process(tmp_path, gemini.HOST)
    assert code == 2 and err.endswith('then run this again:\n  ".gemini/hooks", '
                                      '".gemini/settings.json"\n')
    assert tree(tmp_path) == {"polydeukes.config.json": json_config.encode()}


# -- the judge's own runtime ----------------------------------------------------------------------

def test_a_judge_in_the_projects_venv_is_protected_against_shell_and_tool_writes(tmp_path):
    root = git_project(tmp_path / "p")
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(root / ".venv")],
                   check=True)
    (root / ".venv/bin/pdks-claude-code").write_text("")  # polydeukes is installed there
    done = run([str(BIN / "pdks-claude-code"), "init"], root)
    assert done.code == 0, done.stderr
    assert "protected .venv in polydeukes.config.yaml" in done.stdout.splitlines()
    # The delegator would run .venv/bin/python, which cannot import polydeukes here: point the
    # recorded judge at the tests' interpreter and drop the venv's marker for this check only.
    (root / ".venv/bin/pdks-claude-code").unlink()
    for tool_input, tool, reason in [
        ({"command": "cp /bin/true .venv/bin/python"}, "Bash",
         "cp mentions protected path .venv without read-only proof"),
        ({"file_path": str(root / ".venv/bin/python"), "content": "#!/bin/sh\nexit 0\n"}, "Write",
         f"Write would modify protected path {root}/.venv/bin/python"),
        ({"file_path": str(root / ".venv/pyvenv.cfg"), "content": "home = /tmp\n"}, "Write",
         f"Write would modify protected path {root}/.venv/pyvenv.cfg"),
    ]:
        payload = json.dumps({"session_id": "s", "cwd": str(root), "hook_event_name": "PreToolUse",
                              "tool_name": tool, "tool_input": tool_input}).encode()
        blocked = run_hook("claude-code", root, payload)
        assert (blocked.code, blocked.stderr) == (2, reason + "\n")


def test_the_venv_running_init_is_protected_when_it_lies_inside_the_project(tmp_path, monkeypatch):
    venv = tmp_path / "env"
    monkeypatch.setattr(sys, "prefix", str(venv))
    monkeypatch.setattr(sys, "base_prefix", "/usr")
    assert I.judge_environments(claude_code.HOST, str(tmp_path), str(venv / "bin/python")) == \
        ["env"]
    assert I.judge_environments(claude_code.HOST, str(tmp_path / "sub"),
                                str(venv / "bin/python")) == []  # outside this project
    monkeypatch.setattr(sys, "base_prefix", str(venv))  # not a virtual environment
    assert I.judge_environments(claude_code.HOST, str(tmp_path), str(venv / "bin/python")) == []
