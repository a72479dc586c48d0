"""The change-set surface with real git: stage changes, pipe the real `git diff` into the real
`pdks covenant check --diff`, and the pre-commit hook `pdks init --git` installs."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from conftest import PDKS, rows_of

BILINGUAL = r"""
protectedPaths: ['.claude/hooks']
changeSetDisciplines:
  - id: 'docs-stay-bilingual'
    why: 'a change to one side of a doc pair must reach the other side.'
    declare:
      mechanism: 'companion'
      scope: { source: 'target.path', include: ['\.md$'], exclude: ['^CHANGELOG\.md$'] }
      extract:
        en: [{ op: 'source', of: 'target.path' }, { op: 'keyByPattern', re: '^(.+?)(?<!\.ko)\.md$' }]
        ko: [{ op: 'source', of: 'target.path' }, { op: 'keyByPattern', re: '^(.+)\.ko\.md$' }]
        enChanged:
          - { op: 'source', of: 'changes' }
          - { op: 'items' }
          - { op: 'keyByPattern', re: '^(.+?)(?<!\.ko)\.md$' }
        koChanged:
          - { op: 'source', of: 'changes' }
          - { op: 'items' }
          - { op: 'keyByPattern', re: '^(.+)\.ko\.md$' }
      relate:
        - id: 'ko-follows'
          relation: { op: 'implies', of: 'en', requires: 'koChanged' }
          message: '{value} changed without {key}.ko.md'
        - id: 'en-follows'
          relation: { op: 'implies', of: 'ko', requires: 'enChanged' }
          message: '{value} changed without {key}.md'
disciplines:
  - id: 'locale-key-parity'
    enforce: block
    why: 'every English key has its Korean twin.'
    declare:
      mechanism: 'pairing'
      scope: { source: 'target.path', include: ['^locales/(en|ko)\.json$'] }
      sources:
        en: { file: 'locales/en.json' }
        ko: { file: 'locales/ko.json' }
      extract:
        enKeys: [{ op: 'source', of: 'en' }, { op: 'json' }, { op: 'flattenKeys' }]
        koKeys: [{ op: 'source', of: 'ko' }, { op: 'json' }, { op: 'flattenKeys' }]
      relate:
        - id: 'parity'
          relation: { op: 'equal', of: ['enKeys', 'koKeys'] }
          messageBySide: { left: '{value} is in en only', right: '{value} is in ko only' }
"""

GIT_ENV = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com",
           "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.com"}


def git(root, *args, check=True):
    return subprocess.run(["git", *args], cwd=root, env={**os.environ, **GIT_ENV},
                          capture_output=True, text=True, check=check)


@pytest.fixture
def repo(project):
    git(project.root, "init", "-q", "-b", "main")
    project.config(BILINGUAL)
    project.write("docs/guide.md", "# Guide\n")
    project.write("docs/guide.ko.md", "# 안내\n")
    project.write("locales/en.json", '{"home": {"title": "Home"}}\n')
    project.write("locales/ko.json", '{"home": {"title": "홈"}}\n')
    git(project.root, "add", "-A")
    git(project.root, "commit", "-q", "-m", "start")
    return project


def staged_check(project, *flags):
    diff = git(project.root, "diff", "--cached", "--no-color", "--no-ext-diff", "--no-textconv",
               "--src-prefix=a/", "--dst-prefix=b/").stdout
    log = project.root / "run.log"
    if log.exists():
        log.unlink()
    result = project.check(diff.encode(), "--diff", "--telemetry-path", str(log), *flags)
    result.rows = rows_of(log)
    return result


def test_a_doc_changed_without_its_twin_is_advised(repo):
    repo.write("docs/guide.md", "# User guide\n")
    git(repo.root, "add", "docs/guide.md")
    result = staged_check(repo, "--enforce", "block")
    assert result.code == 0  # the entry declares no enforce: advised even under block
    assert result.stderr.splitlines() == [
        "discipline 'docs-stay-bilingual' broken on docs/guide.md: docs/guide.md changed without "
        "docs/guide.ko.md — why: a change to one side of a doc pair must reach the other side.",
        "covenant advisory: 1 verdict(s) recorded as advised, commit allowed",
    ]
    assert result.rows == [[
        "advised", "docs-stay-bilingual", "docs/guide.md",
        '[{"id":"ko-follows","witnesses":[{"key":"docs/guide","value":"docs/guide.md"}],"total":1}]']]


def test_both_sides_of_the_pair_pass(repo):
    repo.write("docs/guide.md", "# User guide\n")
    repo.write("docs/guide.ko.md", "# 사용자 안내\n")
    git(repo.root, "add", "-A")
    result = staged_check(repo)
    assert (result.code, result.stderr) == (0, "")
    # git lists the files in path order: one dispatch per file block.
    assert result.rows == [["passed", "docs-stay-bilingual", "docs/guide.ko.md"],
                           ["passed", "docs-stay-bilingual", "docs/guide.md"]]


def test_a_file_source_is_read_from_the_working_tree(repo):
    # The modified en.json is read from disk (a diff's modification carries hunk lines only).
    repo.write("locales/en.json", '{"home": {"title": "Home", "subtitle": "Welcome"}}\n')
    git(repo.root, "add", "-A")
    advised = staged_check(repo)
    assert advised.code == 0
    assert advised.stderr.splitlines()[0] == (
        "discipline 'locale-key-parity' broken on locales/en.json: home.subtitle is in en only "
        "— why: every English key has its Korean twin.")
    blocked = staged_check(repo, "--enforce", "block")
    assert blocked.code == 2
    assert blocked.rows[0][:3] == ["blocked", "locale-key-parity", "locales/en.json"]


def test_renames_deletions_and_binary_files(repo):
    git(repo.root, "mv", "docs/guide.ko.md", "docs/intro.ko.md")
    (repo.root / "logo.png").write_bytes(bytes(range(256)))
    git(repo.root, "add", "-A")
    result = staged_check(repo)
    labels = [(row[0], row[1], row[2]) for row in result.rows]
    # The rename's deletion carries no text (no world), its new side is a modify of docs/intro.ko.md
    # whose English twin did not change; the binary file is judged by path only.
    assert ("advised", "docs-stay-bilingual", "docs/intro.ko.md") in labels
    assert ("passed", "covenant-check", "logo.png") in labels


def test_a_protected_path_in_the_change_set_meets_self_mod(repo):
    repo.write(".claude/hooks/pre.sh", "exit 0\n")
    git(repo.root, "add", "-A")
    advised = staged_check(repo)
    assert advised.code == 0 and ["advised", "self-mod", ".claude/hooks"] in advised.rows
    blocked = staged_check(repo, "--enforce", "block")
    assert blocked.code == 2
    assert "staged-write would modify protected path .claude/hooks/pre.sh" in blocked.stderr


def test_an_empty_staging_area_is_nothing_to_judge(repo):
    result = staged_check(repo, "--enforce", "block")
    assert (result.code, result.stderr, result.rows) == (0, "", [])


def test_init_git_installs_a_hook_that_blocks_the_commit(repo):
    first = repo.run("init", "--git")
    assert first.code == 0
    assert "created .git/hooks/pre-commit" in first.stdout.splitlines()
    again = repo.run("init", "--git")
    assert "skipped .git/hooks/pre-commit (already present)" in again.stdout.splitlines()
    # init added the hook to protectedPaths: that config change is the human's to commit with
    # --no-verify (a staged protected path blocks like an agent's edit); stage the locales only.
    repo.write("locales/ko.json", '{"home": {}}\n')
    git(repo.root, "add", "locales")
    refused = git(repo.root, "commit", "-q", "-m", "drop a key", check=False)
    assert refused.returncode != 0
    assert ("discipline 'locale-key-parity' broken on locales/ko.json: home.title is in en only"
            in refused.stderr)
    repo.write("locales/ko.json", '{"home": {"title": "집"}}\n')
    git(repo.root, "add", "locales")
    assert git(repo.root, "commit", "-q", "-m", "keep it", check=False).returncode == 0


def _call(name, args=None, **fields):
    call = {"name": name, "args": args or {}, **fields}
    return {"toolCalls": [call], "subagentSpawns": [], "userMessages": [],
            "tools": {"mutating": ["Write"], "shell": ["Bash"], "commandArgs": ["command"]}}


def test_init_git_protects_the_hook_it_installs(repo):
    # The hook is the commit-time gate: an agent that deletes or rewrites it disarms every later
    # commit, so init adds it to protectedPaths (in the list's own style) before writing it.
    result = repo.run("init", "--git")
    assert result.stdout.splitlines()[-3:] == [
        "protected .git/hooks/pre-commit in polydeukes.config.yaml",
        "protected .git/config in polydeukes.config.yaml",
        "created .git/hooks/pre-commit",
    ]
    assert "protectedPaths: ['.claude/hooks', '.git/hooks/pre-commit', '.git/config']\n" in (
        repo.root / "polydeukes.config.yaml").read_text()
    for command, entry in (("rm -f .git/hooks/pre-commit", ".git/hooks/pre-commit"),
                           ("echo 'exit 0' > .git/hooks/pre-commit", ".git/hooks/pre-commit"),
                           ("chmod -x .git/hooks/pre-commit", ".git/hooks/pre-commit"),
                           # (core.hooksPath written into the config by hand)
                           ("printf '[core]\\n\\thooksPath = /tmp\\n' >> .git/config", ".git/config")):
        judged = repo.check(_call("Bash", {"command": command}), "--enforce", "block")
        assert judged.code == 2, command
        assert f"protected path {entry}" in judged.stderr, command
    # git's own writes of its config are not spelled, and pass (the key above is judged by name)
    assert repo.check(_call("Bash", {"command": "git config user.email bot@example.com"}),
                      "--enforce", "block").code == 0
    edit = repo.check(_call("Write", fileChange={"kind": "modify", "path": ".git/hooks/pre-commit",
                                                 "pre": "", "post": "exit 0\n"}),
                      "--enforce", "block")
    assert edit.code == 2 and "protected path .git/hooks/pre-commit" in edit.stderr
    # Nor may it make git skip the hook, for one commit or for good (shell-axis.md, "Git hooks").
    for command, reason in (
            ("git commit --no-verify -m wip", "git commit --no-verify skips protected git hook .git/hooks/pre-commit"),
            ("git config core.hooksPath /dev/null",
             "git config can point core.hooksPath elsewhere, which takes protected git hook .git/hooks/pre-commit out of use")):
        judged = repo.check(_call("Bash", {"command": command}), "--enforce", "block")
        assert judged.code == 2 and reason in judged.stderr, command
    assert repo.check(_call("Bash", {"command": "git commit -m wip"}), "--enforce", "block").code == 0
    again = repo.run("init", "--git")
    assert "protected" not in again.stdout  # already covered: nothing added twice


def test_the_hook_gate_includes_an_in_project_environment_only(repo, monkeypatch):
    from polydeukes.stdlib.adapters.git import hook_gate

    monkeypatch.setattr(sys, "base_prefix", "/usr")
    monkeypatch.setattr(sys, "prefix", str(repo.root / ".venv"))
    assert hook_gate(str(repo.root)) == [".git/hooks/pre-commit", ".git/config", ".venv"]
    monkeypatch.setattr(sys, "prefix", str(repo.root.parent / "elsewhere-venv"))
    assert hook_gate(str(repo.root)) == [".git/hooks/pre-commit", ".git/config"]
    git(repo.root, "config", "core.hooksPath", str(repo.root.parent / "shared-hooks"))
    assert hook_gate(str(repo.root)) == []


def test_init_git_refuses_before_writing_when_protection_cannot_be_added(repo):
    repo.config("protectedPaths: &gates ['.claude/hooks']\nother: *gates\n")
    result = repo.run("init", "--git")
    assert result.code == 2
    assert result.stderr.startswith("pdks init failed: cannot add to protectedPaths in "
                                    "polydeukes.config.yaml without rewriting it")
    assert "  - '.git/hooks/pre-commit'" in result.stderr
    assert not (repo.root / ".git" / "hooks" / "pre-commit").exists()


def test_init_git_never_overwrites_an_existing_hook(repo):
    hook = repo.root / ".git" / "hooks" / "pre-commit"
    hook.write_text("#!/bin/sh\necho mine\n")
    result = repo.run("init", "--git")
    assert result.code == 0
    assert ("skipped .git/hooks/pre-commit (another hook is installed there; add `pdks hook git` "
            "to it)") in result.stdout.splitlines()
    assert hook.read_text() == "#!/bin/sh\necho mine\n"


def test_init_git_outside_a_repository_writes_nothing(project):
    result = project.run("init", "--git", env={"GIT_CEILING_DIRECTORIES": str(project.root.parent)})
    assert result.code == 2
    assert result.stderr == "pdks init failed: not a git repository (run `git init` first)\n"
    assert not (project.root / "polydeukes.config.yaml").exists()


def test_pre_commit_framework_manifest_names_the_hook_entry():
    import yaml

    manifest = os.path.join(os.path.dirname(__file__), "..", ".pre-commit-hooks.yaml")
    with open(manifest, encoding="utf-8") as handle:
        (hook,) = yaml.safe_load(handle)
    assert hook["entry"] == "pdks hook git" and hook["pass_filenames"] is False
    done = subprocess.run([*PDKS, "hook", "--help"], capture_output=True, text=True)
    assert done.returncode == 0 and "git" in done.stdout
