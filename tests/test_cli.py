"""The command line through the real process: usage, config discovery, telemetry paths, init."""

from __future__ import annotations

import os

import pytest

from conftest import EMPTY_INPUT, rows_of

from polydeukes.cli.check import parse_flags

USAGE_PREFIX = "usage: pdks covenant check"


@pytest.mark.parametrize("argv", [
    [], ["bogus"], ["covenant"], ["covenant", "verify"], ["init", "extra"], ["compile", "x"],
    ["explain", "--bogus"],
    ["covenant", "check", "--enforce"], ["covenant", "check", "--enforce", "strict"],
    ["covenant", "check", "--enforce=block"], ["covenant", "check", "--diff", "--diff"],
    ["covenant", "check", "--config-layer"], ["covenant", "check", "--config-layer", "--diff"],
    ["covenant", "check", "--telemetry-path", ""], ["covenant", "check", "extra"],
    ["covenant", "check", "--unattended", "yes"],
])
def test_usage_errors_print_the_usage_line_and_exit_2_without_rows(project, argv):
    project.config("languages: {}\n")
    result = project.run(*argv, stdin=b"not read")
    assert result.code == 2
    assert result.stderr.startswith(USAGE_PREFIX) and result.stderr.count("\n") == 1
    assert result.stdout == "" and result.rows == []


def test_flags_in_any_order():
    flags = parse_flags(["--telemetry-path", "t.log", "--unattended", "--enforce", "block",
                         "--diff", "--config-layer", "../layer.yaml"])
    assert (flags.diff, flags.enforce, flags.unattended, flags.config_layer,
            flags.telemetry_path) == (True, "block", True, "../layer.yaml", "t.log")
    assert parse_flags([]).enforce == "advise"


def test_version_and_help(project):
    assert project.run("--version").stdout == "pdks 0.8.0\n"
    helped = project.run("--help")
    assert helped.code == 0 and "covenant" in helped.stdout and "init" in helped.stdout


def test_missing_config_fails_closed_with_a_row(project):
    result = project.check(EMPTY_INPUT)
    assert result.code == 2
    assert result.stderr == (
        f"covenant check failed closed: no Polydeukes config found in {project.root} — expected "
        "one of: polydeukes.config.yaml, polydeukes.config.yml, polydeukes.config.json\n")
    assert result.rows == [["blocked", "covenant-check", "-"]]


def test_ambiguous_config_names_every_file(project):
    for name in ("polydeukes.config.yaml", "polydeukes.config.yml", "polydeukes.config.json"):
        project.config("{}", name)
    result = project.check(EMPTY_INPUT)
    assert result.code == 2
    assert result.stderr == (
        f"covenant check failed closed: ambiguous Polydeukes config in {project.root} — found "
        "polydeukes.config.yaml and polydeukes.config.yml and polydeukes.config.json; "
        "keep exactly one\n")


REPAIR_HINT = (" — fix polydeukes.config.yaml in one Edit or Write whose result loads; every "
               "other call stays blocked until it does")


def test_invalid_config_is_one_located_line(project):
    project.config("languages: {}\nprotectedPath: []\n")
    result = project.check(EMPTY_INPUT)
    assert result.code == 2
    # On the session surface the line also says how to get out (spec 05 §3.8)...
    assert result.stderr == (
        "covenant check failed closed: invalid config in polydeukes.config.yaml: unknown key "
        f"'protectedPath' in config (at polydeukes.config.yaml:2:1){REPAIR_HINT}\n")
    # ...while the change-set surface has no repair branch.
    assert project.check(b"", "--diff").stderr == (
        "covenant check failed closed: invalid config in polydeukes.config.yaml: unknown key "
        "'protectedPath' in config (at polydeukes.config.yaml:2:1)\n")
    # The config never loaded, so its logPath is not used: the default path gets the row.
    assert result.rows == [["blocked", "covenant-check", "-"]]


def test_a_broken_json_config(project):
    project.config('{"protectedPaths": [1]}', "polydeukes.config.json")
    result = project.check(EMPTY_INPUT)
    assert result.stderr == (
        "covenant check failed closed: invalid config in polydeukes.config.json: protectedPaths "
        "must be an array of strings (at polydeukes.config.json:1:20) — fix "
        "polydeukes.config.json in one Edit or Write whose result loads; every other call stays "
        "blocked until it does\n")


def test_telemetry_path_precedence(project, tmp_path):
    project.config("telemetry: {logPath: logs/config.log}\n")
    bad = b"[]"
    # The config's logPath, resolved against the root, once the config has loaded.
    project.check(bad)
    assert rows_of(project.root / "logs" / "config.log") == [["blocked", "covenant-check", "-"]]
    # The environment variable beats the config.
    env_log = tmp_path / "env.log"
    project.check(bad, env={"POLYDEUKES_TELEMETRY_PATH": str(env_log)})
    assert rows_of(env_log) == [["blocked", "covenant-check", "-"]]
    # The flag beats both; a relative flag is relative to the working directory.
    project.check(bad, "--telemetry-path", "flag.log",
                  env={"POLYDEUKES_TELEMETRY_PATH": str(env_log)})
    assert rows_of(project.root / "flag.log") == [["blocked", "covenant-check", "-"]]
    assert len(rows_of(env_log)) == 1


def test_unwritable_telemetry_never_changes_the_verdict(project):
    project.config("languages: {}\n")
    project.write("blocker", "")
    result = project.check(EMPTY_INPUT, "--telemetry-path", "blocker/roi.log")
    assert result.code == 0 and result.stderr == ""
    refused = project.check(b"", "--telemetry-path", "blocker/roi.log")
    assert refused.code == 2
    assert refused.stderr.splitlines()[0] == "covenant check failed closed: input is not a JSON object"
    assert "pdks: telemetry could not be written to blocker/roi.log" in refused.stderr


def test_config_layer_errors_fail_closed(project):
    project.config("languages: {}\n")
    missing = project.check(EMPTY_INPUT, "--config-layer", "absent.yaml")
    assert missing.code == 2
    assert missing.stderr.startswith(
        f"covenant check failed closed: cannot read config layer {project.root}/absent.yaml: ")
    project.write("layer.yaml", "protectedPaths: [x]\n")
    foreign = project.check(EMPTY_INPUT, "--config-layer", "layer.yaml")
    assert foreign.stderr == (
        f"covenant check failed closed: invalid config layer in {project.root}/layer.yaml: "
        "unknown key 'protectedPaths' in config layer: a config layer carries only disciplines, "
        f"sessionDisciplines, changeSetDisciplines (at {project.root}/layer.yaml:1:1)\n")
    project.config("disciplines:\n  - {id: d, why: x, draft: true}\n")
    project.write("layer.yaml", "disciplines:\n  - {id: d, why: y, draft: true}\n")
    clash = project.check(EMPTY_INPUT, "--config-layer", "layer.yaml")
    assert clash.stderr == (
        "covenant check failed closed: invalid config in polydeukes.config.yaml with layer "
        f"{project.root}/layer.yaml: disciplines[1] ('d') duplicates the id of an earlier entry "
        f"(at {project.root}/layer.yaml:2:10)\n")
    project.write("layer.yaml", "{}\n")
    assert project.check(EMPTY_INPUT, "--config-layer", "layer.yaml").code == 0


def test_init_creates_then_skips_and_never_rewrites(project):
    first = project.run("init")
    assert (first.code, first.stdout) == (0, "created polydeukes.config.yaml\ncreated .gitignore\n"
                                             "created polydeukes.tests.yaml\n")
    config = (project.root / "polydeukes.config.yaml").read_text()
    again = project.run("init")
    assert again.stdout == (
        "skipped polydeukes.config.yaml (already present)\nskipped .gitignore (already present)\n"
        "skipped polydeukes.tests.yaml (already present)\n")
    assert (project.root / "polydeukes.config.yaml").read_text() == config
    assert (project.root / ".gitignore").read_text() == (
        "# Polydeukes telemetry — local observation data, never committed.\n.polydeukes/\n")
    # The scaffold loads: an empty IR is an explicit pass.
    assert project.check(EMPTY_INPUT).code == 0


def test_init_appends_to_an_existing_gitignore_without_reordering(project):
    project.write(".gitignore", "node_modules\n.polydeukes\n/dist")
    project.config("not: [valid")  # a broken config being repaired is never overwritten
    result = project.run("init")
    assert result.stdout == (
        "created .gitignore\nskipped polydeukes.config.yaml (already present)\n")
    assert (project.root / ".gitignore").read_text() == (
        "node_modules\n.polydeukes\n/dist\n# Polydeukes telemetry — local observation data, "
        "never committed.\n.polydeukes/\n")
    assert (project.root / "polydeukes.config.yaml").read_text() == "not: [valid"


def test_init_recognises_an_indented_rule(project):
    project.write(".gitignore", "  .polydeukes/  \n")
    assert "skipped .gitignore (already present)" in project.run("init").stdout


def test_init_refuses_an_ambiguous_project_and_writes_nothing(project):
    project.config("{}", "polydeukes.config.yaml")
    project.config("{}", "polydeukes.config.json")
    result = project.run("init")
    assert result.code == 2 and result.stdout == ""
    assert result.stderr == (
        f"pdks init failed: ambiguous Polydeukes config in {project.root} — found "
        "polydeukes.config.yaml and polydeukes.config.json; keep exactly one and re-run\n")
    assert not (project.root / ".gitignore").exists()


def test_docs_and_memory_fail_closed_without_their_parts(project):
    docs = project.run("docs", "show", "no-such-page")  # the bundle's own tests: test_docs_command
    assert docs.code == 2 and docs.stdout == "" and docs.stderr.startswith("pdks docs: ")
    memory = project.run("memory", "lint", env={"PATH": "/nonexistent"})
    assert memory.code == 2
    assert memory.stderr == (
        "pdks memory: pdks-memory is not installed — put the pdks-memory executable on PATH\n")


def test_memory_passes_arguments_stdin_and_exit_status_through(project, tmp_path):
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    script = bin_dir / "pdks-memory"
    script.write_text("#!/bin/sh\necho \"args:$*\"\ncat\nexit 1\n")
    script.chmod(0o755)
    result = project.run("memory", "search", "--json", "x", stdin=b"in",
                         env={"PATH": f"relative:{bin_dir}:{os.environ['PATH']}"})
    assert (result.code, result.stdout) == (1, "args:search --json x\nin")


def test_diff_surface_front(project):
    project.config("languages: {}\n")
    # Zero bytes or blank text is nothing staged: nothing to judge, no rows.
    assert project.check(b"", "--diff").code == 0
    assert project.check(b" \n\n", "--diff").rows == []
    unreadable = project.check(b"hello\n", "--diff")
    assert unreadable.code == 2
    assert unreadable.stderr == (
        "covenant check failed closed: unified diff: no file block recognized in the input\n")
    assert unreadable.rows == [["blocked", "covenant-check", "-"]]
    combined = project.check(b"diff --cc a.txt\n", "--diff")
    assert combined.stderr == ("covenant check failed closed: unified diff: combined diffs are "
                               "not translatable: diff --cc a.txt\n")
    binary = project.check(b"\xff\xfe", "--diff")
    assert binary.stderr == "covenant check failed closed: unified diff: the input is not UTF-8 text\n"


def test_the_sdk_process_contract(project, tmp_path):
    """`covenant check --enforce <level> --unattended [--config-layer P] [--telemetry-path P]`,
    relative paths against the working directory; exit 0 / 2 map to Upheld / Blocked."""
    project.config("protectedPaths: ['.claude/hooks']\nwitness: {token: t, ttlMinutes: 10}\n")
    project.write("layers/team.yaml", "disciplines: []\n")
    edit = {"toolCalls": [{"name": "Edit", "args": {"file_path": ".claude/hooks/a"},
                           "fileChange": {"kind": "create", "path": ".claude/hooks/a", "post": "x"}}],
            "subagentSpawns": [], "userMessages": [],
            "tools": {"mutating": ["Edit"], "shell": [], "commandArgs": []},
            "session": {"userMessages": [{"text": "t", "timestampMs": 4102444800000 - 1}],
                        "toolCalls": []}}
    flags = ["--enforce", "block", "--unattended", "--config-layer", "layers/team.yaml",
             "--telemetry-path", "out/rows.log"]
    result = project.check(edit, *flags)
    assert result.code == 2  # unattended: no valve, whatever the session says
    assert result.stderr == "Edit would modify protected path .claude/hooks/a\n"
    rows = rows_of(project.root / "out" / "rows.log")
    assert ["blocked", "self-mod", ".claude/hooks"] in rows
    clean = dict(edit, toolCalls=[{"name": "Edit", "args": {"file_path": "src/a"},
                                   "fileChange": {"kind": "create", "path": "src/a", "post": "x"}}])
    assert project.check(clean, *flags).code == 0


BROKEN = "languages: {}\nprotectedPath: []\n"
FIXED = "languages: {}\nprotectedPaths: []\ntelemetry: {logPath: logs/fixed.log}\n"


def _repair(text_pre: str, text_post: str, *, extra_calls: int = 0) -> dict:
    call = {"name": "Edit", "args": {"file_path": "polydeukes.config.yaml"},
            "fileChange": {"kind": "modify", "path": "polydeukes.config.yaml",
                           "pre": text_pre, "post": text_post}}
    return {"toolCalls": [call] * (1 + extra_calls), "subagentSpawns": [], "userMessages": []}


def test_one_edit_that_repairs_a_broken_config_is_advised_not_judged(project):
    project.config(BROKEN)
    result = project.check(_repair(BROKEN, FIXED), "--enforce", "block")
    assert result.code == 0
    assert result.stderr == (
        "covenant check: polydeukes.config.yaml does not load (invalid config in "
        "polydeukes.config.yaml: unknown key 'protectedPath' in config (at "
        "polydeukes.config.yaml:2:1)) — this call rewrites it into one that does; advised, not "
        "judged\n")
    # The row goes where the repaired config says rows go.
    assert rows_of(project.root / "logs" / "fixed.log") == [
        ["advised", "covenant-check", "polydeukes.config.yaml"]]


@pytest.mark.parametrize("payload", [
    _repair(BROKEN, "languages: 1\n"),  # the result does not load either
    _repair("something else", FIXED),  # pre is not the text on disk
    _repair(BROKEN, FIXED, extra_calls=1),  # more than the one repairing call
])
def test_anything_but_a_loading_repair_stays_blocked(project, payload):
    project.config(BROKEN)
    result = project.check(payload)
    assert result.code == 2
    assert result.stderr.endswith(REPAIR_HINT + "\n")
    assert result.rows == [["blocked", "covenant-check", "-"]]


def test_a_repair_that_fails_only_with_the_layer_says_so(project):
    project.config(BROKEN)
    project.write("layer.yaml", "disciplines:\n  - {id: d, why: prose, draft: true}\n")
    post = FIXED + "disciplines:\n  - {id: d, why: prose, draft: true}\n"
    result = project.check(_repair(BROKEN, post), "--config-layer", "layer.yaml")
    assert result.code == 2
    assert result.stderr.endswith(
        f"{REPAIR_HINT} (this call's result does not load with layer {project.root}/layer.yaml: "
        f"invalid config in polydeukes.config.yaml with layer {project.root}/layer.yaml: "
        f"disciplines[1] ('d') duplicates the id of an earlier entry (at {project.root}/"
        "layer.yaml:2:10))\n")


_YARN_CALL = {"toolCalls": [{"name": "Bash", "args": {"command": "yarn --version"}}], "subagentSpawns": [],
              "userMessages": [], "tools": {"mutating": ["Edit", "Write"], "shell": ["Bash"],
                                            "commandArgs": ["command"]}}


def test_init_protects_the_yarn_release_and_plugins_the_project_pins(project):
    # A pinned release runs on every yarn command; unprotected, the shell axis reads it as code
    # an agent may have written, and a real bundle (globs, dotted names) blocks every yarn call.
    project.write(".yarnrc.yml", "yarnPath: .yarn/releases/yarn-4.1.0.cjs\nplugins:\n"
                                 "  - path: .yarn/plugins/@yarnpkg/plugin-x.cjs\n    spec: x\n")
    project.write(".yarn/releases/yarn-4.1.0.cjs", "const hooks = '.claude/hooks';\n")
    project.write(".yarn/plugins/@yarnpkg/plugin-x.cjs", "module.exports = {};\n")
    project.config("protectedPaths:\n  - '.claude/hooks'\n")
    before = project.check(_YARN_CALL, "--enforce", "block")
    assert before.code == 2
    assert "node runs .yarn/releases/yarn-4.1.0.cjs, whose code mentions protected path .claude/hooks" \
        in before.stderr
    result = project.run("init")
    assert (result.code, result.stdout) == (0, (
        "created .gitignore\nskipped polydeukes.config.yaml (already present)\n"
        "protected .yarn/releases in polydeukes.config.yaml\n"
        "protected .yarn/plugins in polydeukes.config.yaml\n"))
    assert (project.root / "polydeukes.config.yaml").read_text() == (
        "protectedPaths:\n  - '.claude/hooks'\n  - '.yarn/releases'\n  - '.yarn/plugins'\n")
    assert project.check(_YARN_CALL, "--enforce", "block").code == 0
    assert project.run("init").stdout.count("protected") == 0  # covered: nothing added again


def test_init_leaves_a_yarn_release_outside_the_project_and_yarn_1_pins_too(project, tmp_path_factory):
    outside = tmp_path_factory.mktemp("elsewhere") / "yarn.cjs"
    outside.write_text("")
    project.write(".yarnrc.yml", f"yarnPath: {outside}\n")
    project.write(".yarnrc", 'yarn-path "./tools/yarn-1.22.22.js"\n')
    result = project.run("init")
    assert result.code == 0
    assert result.stdout.splitlines()[-1] == "protected tools/yarn-1.22.22.js in polydeukes.config.yaml"
    assert str(outside) not in (project.root / "polydeukes.config.yaml").read_text()


def test_init_refuses_before_writing_when_the_yarn_release_cannot_be_protected(project):
    project.write(".yarnrc.yml", "yarnPath: .yarn/releases/yarn-4.1.0.cjs\n")
    project.config('{"protectedPaths": "not a list"}', "polydeukes.config.json")
    result = project.run("init")
    assert result.code == 2 and result.stdout == ""
    assert result.stderr.startswith("pdks init failed: cannot add to protectedPaths in polydeukes.config.json")
    assert "'.yarn/releases'" in result.stderr or '".yarn/releases"' in result.stderr
    assert not (project.root / ".gitignore").exists()
