"""Shell axis: the case table under tests/cases/shell/, unit checks, and Hypothesis properties.

Case schema (one YAML file = `root`, `home`, `cases`; each case is self-describing):

    note: why the case exists (spec row, issue requirement)
    command: the command string a host sends (may be multi-line)
    protected: the normalized protected entries, in config order
    root / home: optional per-case overrides of the file's values
    cwd: optional: the directory the host says the command runs in (the call's `cwd`; a shell
         whose `cd` persists between calls), absolute or relative to the root; default the root
    tree: files, links and archives the project holds (see shell_tree.py); such a case is
          judged in a scratch directory with the table's root and home rebased onto it
    want:
      verdict: block | pass          # judge_shell_mod(...).broken
      subject: <entry> | null        # the protected entry reached (telemetry subject)
      reason: <text>                 # present iff verdict is block: the exact break message
      writes: [<path>, ...]          # every write target with a known path, as spelled (sorted)
      evidence: [{path, repo_path, content, mode}]   # the computable writes, in command order
      unjudgeable: true | false      # some write target cannot be determined (skip row)
"""

from __future__ import annotations

import pathlib
import re
import shutil
import subprocess
import sys
import time

import pytest
import yaml
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from polydeukes.stdlib.shell import (
    BREAK_UNPROVEN_MENTION,
    ShellFileChange,
    ShellModResult,
    TranscriptTarget,
    judge_shell_mod,
    judge_transcript_line,
    path_matches,
    shell_writes,
    tokenize,
)
from polydeukes.stdlib.shell.expansion import unknown_tail
from polydeukes.stdlib.shell.paths import tail_can_name
from polydeukes.stdlib.shell.tokenizer import executed_text
from shell_tree import make_tree, rebase

CASES_DIR = pathlib.Path(__file__).parent / "cases" / "shell"
ROOT = "/home/u/proj"
HOME = "/home/u"
PROTECTED = ["packages/core/dist", ".claude/settings.json", "src/core", "polydeukes.config.yaml"]
TRANSCRIPT = TranscriptTarget("/home/u/.claude/projects/-home-u-proj/session.jsonl", root=ROOT, home=HOME)


def _load_cases() -> list:
    params = []
    for path in sorted(CASES_DIR.glob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        for index, case in enumerate(data["cases"]):
            case.setdefault("root", data.get("root", ROOT))
            case.setdefault("home", data.get("home", HOME))
            params.append(pytest.param(case, id=f"{path.stem}-{index}"))
    return params


CASES = _load_cases()


def test_the_table_is_large_enough() -> None:
    assert len(CASES) >= 200
    notes = [p.values[0]["note"] for p in CASES]
    spec_rows = {re.match(r"§8\.7 #\d+", n).group() for n in notes if n.startswith("§8.7 #")}
    assert spec_rows == {f"§8.7 #{k}" for k in range(1, 70)}


@pytest.mark.parametrize("case", CASES)
def test_case(case: dict, tmp_path: pathlib.Path) -> None:
    if case.get("tree"):
        home = tmp_path / "u"
        root = home / "proj"
        root.mkdir(parents=True)
        make_tree(root, case["tree"])
        case = rebase({k: v for k, v in case.items() if k != "tree"}, str(root), str(home))
    command, want, cwd = case["command"], case["want"], case.get("cwd")
    result = judge_shell_mod(command, case["protected"], root=case["root"], home=case["home"], cwd=cwd)
    assert ("block" if result.broken else "pass") == want["verdict"], result
    assert result.subject == want["subject"]
    assert result.reason == want.get("reason")
    writes = shell_writes(command, root=case["root"], home=case["home"], read_file=None, cwd=cwd)
    spelled = {w.path for w in writes.computed} | {w.path for w in writes.uncomputable}
    assert sorted(spelled) == want["writes"]
    evidence = [
        {"path": w.path, "repo_path": w.repo_path, "content": w.content, "mode": w.mode}
        for w in writes.computed
    ]
    assert evidence == want.get("evidence", [])
    assert writes.target_undeterminable == want["unjudgeable"]



# Every block row, carried: the same command run from a script file, a Makefile recipe, a
# package.json script or `sh -c` must block too (each carrier is read by its own code path;
# a gap there is a way around the guard: round 7 found `bash a.sh` binding `$@` to no value).
_CARRIED_ROWS = [p.values[0] for p in CASES if p.values[0]["want"]["verdict"] == "block"
                 and p.values[0]["root"] == ROOT and p.values[0]["home"] == HOME]


_DOLLAR_ZERO = re.compile(r"^[^']*\$\{?0")  # a $0 before any single quote: the carrier's own $0


def _carried(kind: str, command: str) -> tuple[str, dict] | None:
    import json
    import shlex

    if _DOLLAR_ZERO.search(command):
        return None  # (each carrier binds $0 its own way: `sh -c` makes it "sh", a script its path)
    if kind == "script":
        return "bash carrier.sh", {"carrier.sh": command + "\n"}
    if kind == "sh -c":
        return "sh -c " + shlex.quote(command), {}
    if "\n" in command:
        return None  # (a recipe or a package.json script is one line here)
    if kind == "make":
        return "make -f carrier.mk", {"carrier.mk": "all:\n\t" + command.replace("$", "$$") + "\n"}
    return "npm run carrier", {"package.json": json.dumps({"scripts": {"carrier": command}})}


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(case=st.sampled_from(_CARRIED_ROWS), kind=st.sampled_from(["script", "make", "npm", "sh -c"]))
def test_a_blocked_command_blocks_in_every_carrier(tmp_path_factory, case: dict, kind: str) -> None:
    carried = _carried(kind, case["command"])
    tree = case.get("tree") or {}
    if carried is None or any(name in tree for name in carried[1]):
        return
    home = tmp_path_factory.mktemp("carrier") / "u"
    root = home / "proj"
    root.mkdir(parents=True)
    command, files = carried
    if case.get("cwd") is not None:
        # (the carrier's file lies where the row's command runs, the call's directory)
        here = case["cwd"][len(ROOT) + 1 :] if case["cwd"].startswith(ROOT + "/") else case["cwd"]
        if here.startswith(("/", "..")):
            return  # outside the project, or no directory at all
        files = {f"{here}/{name}": text for name, text in files.items()}
    command = rebase(command, str(root), str(home))  # (a row may spell the project's absolute path)
    make_tree(root, {**tree, **rebase(files, str(root), str(home))})
    protected = rebase(case["protected"], str(root), str(home))
    cwd = rebase(case.get("cwd"), str(root), str(home))  # (the carrier runs where the row does)
    result = judge_shell_mod(command, protected, root=str(root), home=str(home), cwd=cwd)
    assert result.broken, (kind, case["command"])

# A call's directory is a `cd` the line did not write: judged in D, a line must judge as `cd D` and
# the line judged from the root (rows that read the directory stack or `$PWD`, which a `cd` sets,
# and lines the tokenizer cannot read whole, whose unread text the prefix changes, are left out).
# It found a compose file's later mounts left unjudged once an earlier command had read an entry.
_STACK_READERS = re.compile(r"OLDPWD|cd -|~-|~\+|dirs|DIRSTACK|pushd|popd|PWD|\$0|BASH_SOURCE|\$_")
_DIRECTORY_ROWS = [p.values[0] for p in CASES if p.values[0]["root"] == ROOT and p.values[0]["home"] == HOME
                   and p.values[0].get("cwd") is None and not _STACK_READERS.search(p.values[0]["command"])]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(case=st.sampled_from(_DIRECTORY_ROWS), directory=st.sampled_from(["ci", "docs", ".claude"]))
def test_a_call_directory_judges_as_a_cd_to_it(tmp_path_factory, case: dict, directory: str) -> None:
    if tokenize(case["command"]).unread:
        return
    home = tmp_path_factory.mktemp("directory") / "u"
    root = home / "proj"
    root.mkdir(parents=True)
    make_tree(root, case.get("tree") or {})
    (root / directory).mkdir(parents=True, exist_ok=True)
    command = rebase(case["command"], str(root), str(home))
    protected = rebase(case["protected"], str(root), str(home))
    there = judge_shell_mod(command, protected, root=str(root), home=str(home), cwd=str(root / directory))
    after_cd = judge_shell_mod(f"cd {directory}\n{command}", protected, root=str(root), home=str(home))
    assert there.broken == after_cd.broken, (directory, case["command"], there.reason, after_cd.reason)


# -- tokenizer -----------------------------------------------------------------------------------


def _words(text: str) -> list[list[str]]:
    return [[w.text for w in c.words] for c in tokenize(text).commands]


def test_separators_and_commands() -> None:
    assert _words("a && b | c; d") == [["a"], ["b"], ["c"], ["d"]]
    assert _words("a & b") == [["a"], ["b"]]
    assert [c.connector for c in tokenize("a | b && c").commands] == ["|", "&&", ""]
    assert _words("echo 'a; b' > f") == [["echo", "a; b"]]


# Plain words, digits, blanks and control operators only: a command's words are its blank-separated
# pieces (no quote, expansion, comment or redirect to read). The tokenizer reads runs of such
# words in one regex call and splits them itself; this reference splits with str methods.
_PLAIN_PIECES = st.lists(st.sampled_from(["a", "b1", "-x", "./p", "k=v", "7", "42", "z)", " ", "  ", "\t", " \t ",
                                          ";", "&&", "||", "|", "\n"]), max_size=24)


@settings(max_examples=300, deadline=None)
@given(_PLAIN_PIECES)
def test_plain_word_runs_are_split_at_blanks(pieces: list[str]) -> None:
    text = "".join(pieces)
    expected = []
    for segment in re.split(r"&&|\|\||[;|\n]", text):
        if segment.split():
            expected.append(segment.split())
    commands = tokenize(text).commands
    assert [[w.text for w in c.words] for c in commands] == expected
    for c in commands:
        for w in c.words:
            assert text[w.start : w.end] == w.text and not w.opaque and w.flags == 0


def test_redirect_operators_fold_fd_numbers() -> None:
    cmd = tokenize("tee 12> f 2>&1 &>> g").commands[0]
    assert [w.text for w in cmd.words] == ["tee"]
    assert [(r.operator, r.target.text) for r in cmd.redirects] == [("12>", "f"), ("2>&", "1"), ("&>>", "g")]


def test_opacity() -> None:
    words = tokenize("x $(echo f) `y` ${FILE} $var *.txt '$var' plain.txt \"$v\" $'\\q'").commands[0].words
    assert [w.opaque for w in words] == [False, True, True, True, True, True, False, False, True, True]


def test_ansi_c_decoding() -> None:
    words = tokenize("$'a\\nb' $'\\x41\\101\\u00e9' $'\\cA'").commands[0].words
    assert [(w.text, w.opaque) for w in words] == [("a\nb", False), ("AAé", False), ("\\c" + "A", True)]


def test_heredoc_bodies_land_on_their_declaring_command() -> None:
    script = tokenize("a <<A; b <<'B'\n1\nA\n$x\nB\nc")
    assert [c.heredocs for c in script.commands][0][0].body == "1\n"
    second = script.commands[1].heredocs[0]
    assert (second.body, second.literal) == ("$x\n", True)
    assert _words("a <<A; b <<'B'\n1\nA\n$x\nB\nc")[-1] == ["c"]


def test_unread_spans() -> None:
    assert tokenize("echo 'oops").unread[0].reason == "unclosed quote"
    assert tokenize("echo hi >").unread[0].reason == "missing redirect target"
    assert tokenize("x=$(ls").unread[0].reason == "unclosed substitution"
    assert tokenize("echo ok").fully_read


def test_executed_text_drops_stdin_data() -> None:
    assert executed_text("cat <<'EOF'\ngit commit\nEOF\nls") == "cat <<'EOF'\nEOF\nls"
    assert executed_text("cat <<EOF\n$(git commit)\nEOF") == "cat <<EOF\n$(git commit)\nEOF"
    assert executed_text("cat <<< 'git commit'") == "cat <<< "


# -- path matching -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("candidate", "entry", "expected"),
    [
        ("core", "core/src", True),
        ("core/src/x", "core/src", True),
        ("core/src-generated", "core/src", False),
        ("/home/u/proj/packages/core/src/index.ts", "packages/core/src", True),
        ("x/packages/core", "packages/core/src", False),
        ("vendor/packages", "packages/core/src", False),
        ("packages", "packages/core/src", True),
        ("./core/src/", "core/src", True),
        (".claude/hooks/../..", ".claude/hooks", True),
        ("packages/core/src/../dist/index.js", "packages/core/dist", True),
        ("../packages", "packages/core/dist", False),
        ("..", "packages/core/dist", False),
        (".", "x", False),
        ("", "x", False),
        ("/", "x", False),
        ("src/core_utils.py", "src/core", False),
        ("../proj/src", "src/core", True),
        ("/home/u/proj/src", "src/core", True),
        ("/home/u/other/src", "src/core", False),
        ("packages/*/dist", "packages/core/dist", False),
        ("$BUILD/dist", "packages/core/dist", False),
    ],
)
def test_path_matches(candidate: str, entry: str, expected: bool) -> None:
    assert path_matches(candidate, entry, root=ROOT) is expected


@pytest.mark.parametrize(
    ("text", "tail"),
    [
        ("$V/gate.sh", "/gate.sh"),
        ("${V}ate.sh", "ate.sh"),
        ("$1ci/gate.sh", "ci/gate.sh"),
        ("$V/$W/x", "/x"),
        ("$(pwd)/a", "/a"),
        ("`pwd`", ""),
        ("ci/gate.sh", None),
    ],
)
def test_unknown_tail(text: str, tail: str | None) -> None:
    assert unknown_tail(text) == tail


@pytest.mark.parametrize(
    ("tail", "expected"),
    [
        ("/gate.sh", True),  # the entry itself
        ("/ci/gate.sh", True),
        ("/ci", True),  # an ancestor
        ("/proj", True),  # the project directory
        ("ate.sh", True),  # the value ends inside a segment
        ("i", True),  # ... of the ancestor `ci`
        ("/gate.sh/x", True),  # inside the entry
        ("/x/../gate.sh", True),  # after `..` only the rest is known
        ("/ci/./gate.sh/", True),
        ("/x", False),
        ("/gate", False),
        ("/cit/gate.sh", False),
        ("/gate.sh/ci", True),
        ("/ci/x", False),  # a sibling of the entry
        ("/u/proj", True),  # what lies above the segments given is not known
        ("/u/proj/ci", True),
        ("/u/x/ci", False),
        ("/home/u", False),
        ("i/x", False),
        ("", False),  # the value alone
        ("/", False),
        ("/x/..", False),
    ],
)
def test_tail_can_name(tail: str, expected: bool) -> None:
    assert tail_can_name(tail, ["proj", "ci", "gate.sh"]) is expected


# -- judge details -------------------------------------------------------------------------------


def test_subject_is_first_reached_entry_in_config_order() -> None:
    result = judge_shell_mod(
        "cat .claude/settings.json; rm -rf packages/core/dist", [".claude/settings.json", "packages/core/dist"],
        root=ROOT, home=HOME,
    )
    assert result.subject == ".claude/settings.json"
    assert result.reason == "rm mentions protected path packages/core/dist without read-only proof"
    assert result.kind == BREAK_UNPROVEN_MENTION


def test_no_protected_entries_never_breaks() -> None:
    assert not judge_shell_mod("rm -rf /", [], root=ROOT, home=HOME).broken
    assert not judge_shell_mod("rm -rf x", ["", "./"], root=ROOT, home=HOME).broken


def test_nesting_is_bounded_and_fails_closed() -> None:
    command = "rm -rf src/core"
    for _ in range(12):
        command = "bash -c " + "'" + command.replace("'", "'\\''") + "'"
    result = judge_shell_mod(command, PROTECTED, root=ROOT, home=HOME)
    assert result.broken and result.subject == "src/core"


def test_case_folding_is_one_switch() -> None:
    """On a case-folding file system `.CLAUDE/hooks` is `.claude/hooks`: one keyword turns it on,
    for literal spellings and globs alike."""
    for command in ("rm -rf .CLAUDE/Hooks", "rm -rf .CL*/hooks", "echo x > .Claude/hooks/pre.sh"):
        assert not judge_shell_mod(command, [".claude/hooks"], root=ROOT, home=HOME).broken, command
        folded = judge_shell_mod(command, [".claude/hooks"], root=ROOT, home=HOME, fold_case=True)
        assert folded.broken and folded.subject == ".claude/hooks", command


def test_a_nul_byte_in_a_path_names_nothing_and_raises_nothing() -> None:
    for command in ("echo x > a\x00b", "rm -f ci/\x00", "tar -xf x\x00.tar", "xargs rm < l\x00"):
        judge_shell_mod(command, PROTECTED, root=ROOT, home=HOME)
        shell_writes(command, root=ROOT, home=HOME, read_file=None)


# -- the working tree is read within bounds -----------------------------------------------------


def test_path_lookups_past_their_budget_are_refused(tmp_path: pathlib.Path) -> None:
    from polydeukes.stdlib.shell.disk import Disk, Refused

    (tmp_path / "a").mkdir()
    segments = [s for s in str(tmp_path).split("/") if s]
    assert Disk(str(tmp_path), lookups=2).resolve([*segments, "a", "b"]) == [*segments, "a", "b"]
    refused = Disk(str(tmp_path), lookups=0).resolve([*segments, "a", "b"])
    assert isinstance(refused, Refused) and "too many paths" in refused.reason
    slow = Disk(str(tmp_path), seconds=-1).resolve([*segments, "a", "b"])
    assert isinstance(slow, Refused) and "took longer than" in slow.reason


def test_a_script_past_its_bound_fails_closed_and_one_at_it_is_read(tmp_path: pathlib.Path) -> None:
    """`bash big.sh`: a script file larger than `disk.SCRIPT_BYTES` is not read; the command
    fails closed and says why. One of exactly the bound is read and judged."""
    from polydeukes.stdlib.shell.disk import SCRIPT_BYTES

    root = tmp_path / "u" / "proj"
    root.mkdir(parents=True)
    line = "rm -f c?/gate.sh\n"
    (root / "at.sh").write_text("#" * (SCRIPT_BYTES - len(line) - 1) + "\n" + line)
    (root / "over.sh").write_text("#" * (SCRIPT_BYTES - len(line)) + "\n" + line)
    assert (root / "at.sh").stat().st_size == SCRIPT_BYTES
    over = judge_shell_mod("bash over.sh", ["ci/gate.sh"], root=str(root), home=str(root.parent))
    assert over.broken and over.subject == "ci/gate.sh"
    assert over.reason == f"bash runs over.sh, which cannot be read within bounds ('{root}/over.sh' is larger than 1 MiB)"
    at = judge_shell_mod("bash at.sh", ["ci/gate.sh"], root=str(root), home=str(root.parent))
    assert at.reason == "rm pattern c?/gate.sh can match protected path ci/gate.sh (in at.sh, run by bash)"


def test_a_program_is_read_to_a_larger_bound_than_a_shell_script(tmp_path: pathlib.Path) -> None:
    """A program for another interpreter is only scanned for mentions, so it is read up to
    `disk.PROGRAM_BYTES`; a shell script, walked command by command, up to `SCRIPT_BYTES`,
    also when a path run as a program turns out (by its `#!` line) to be one."""
    from polydeukes.stdlib.shell.disk import PROGRAM_BYTES, SCRIPT_BYTES

    root = tmp_path / "u" / "proj"
    root.mkdir(parents=True)
    padding = "#" * (2 * SCRIPT_BYTES) + "\n"
    (root / "tool.py").write_text(padding + "open('ci/gate.sh', 'w')\n")
    (root / "run").write_text("#!/bin/sh\n" + padding + "rm -f ci/gate.sh\n")
    (root / "huge.py").write_text("#" * PROGRAM_BYTES + "\n")

    def judged(command: str) -> ShellModResult:
        return judge_shell_mod(command, ["ci/gate.sh"], root=str(root), home=str(root.parent))

    assert judged("python3 tool.py").reason == "python3 runs tool.py, whose code mentions protected path ci/gate.sh"
    assert judged("./run").reason == f"sh runs ./run, which cannot be read within bounds ('{root}/run' is larger than 1 MiB)"
    assert judged("python3 huge.py").reason == (
        f"python3 runs huge.py, which cannot be read within bounds ('{root}/huge.py' is larger than 4 MiB)")


def test_a_compiled_program_past_its_bound_fails_closed(tmp_path: pathlib.Path, monkeypatch) -> None:
    """`./e`: a compiled program larger than `scripts.COMPILED_BYTES` is not searched for the
    names it holds; the command fails closed and says why. At the bound it is read and judged."""
    from polydeukes.stdlib.shell import scripts

    root = tmp_path / "u" / "proj"
    root.mkdir(parents=True)
    program = b"\x7fELF\x02\x01\x01\0\0\0" + b"\0" * 20 + b"ci/gate.sh\0"
    (root / "e").write_bytes(program)

    def judged() -> ShellModResult:
        return judge_shell_mod("./e", ["ci/gate.sh"], root=str(root), home=str(root.parent))

    monkeypatch.setattr(scripts, "COMPILED_BYTES", len(program))
    assert judged().reason == "the system runs ./e, whose code mentions protected path ci/gate.sh"
    monkeypatch.setattr(scripts, "COMPILED_BYTES", len(program) - 1)
    over = judged()
    assert over.broken and over.reason == (f"the system runs ./e, which cannot be read within bounds "
                                           f"('{root}/e' is larger than {len(program) - 1} bytes)")


def test_a_test_directory_past_its_bound_fails_closed(tmp_path: pathlib.Path, monkeypatch) -> None:
    """`pytest tests/`: more test files under a directory operand than `disk.TEST_FILES` are
    not read; the command fails closed and says why. At the bound they are read and judged."""
    from polydeukes.stdlib.shell import disk

    root = tmp_path / "u" / "proj"
    (root / "tests" / "deep").mkdir(parents=True)
    for k in range(3):
        (root / "tests" / f"test_{k}.py").write_text("def test():\n    pass\n")
    (root / "tests" / "deep" / "conftest.py").write_text("import os\nos.remove('ci/gate.sh')\n")
    (root / "tests" / "helper.py").write_text("")  # not a test file: not counted

    def judged(command: str) -> ShellModResult:
        return judge_shell_mod(command, ["ci/gate.sh"], root=str(root), home=str(root.parent))

    monkeypatch.setattr(disk, "TEST_FILES", 4)
    assert judged("pytest tests").reason == "pytest runs tests/deep/conftest.py, whose code mentions protected path ci/gate.sh"
    monkeypatch.setattr(disk, "TEST_FILES", 3)
    over = judged("pytest tests")
    assert over.broken and over.reason.startswith("pytest runs its test files, which cannot be read within bounds (more than 3 test files under")


def test_other_runners_past_the_test_file_bound_fail_closed(tmp_path: pathlib.Path, monkeypatch) -> None:
    """jest's and unittest's collections are bounded as pytest's: past `disk.TEST_FILES` files
    under one directory the command fails closed and says why; at the bound they are read."""
    from polydeukes.stdlib.shell import disk

    root = tmp_path / "u" / "proj"
    (root / "tests").mkdir(parents=True)
    (root / "tests" / "__init__.py").write_text("")
    for k in range(2):
        (root / "tests" / f"test_{k}.py").write_text("import unittest\n")
        (root / "tests" / f"t{k}.test.js").write_text("test('x', () => {})\n")
    (root / "tests" / "test_wipe.py").write_text("import os\nos.remove('ci/gate.sh')\n")
    (root / "tests" / "wipe.test.js").write_text("require('fs').rmSync('ci/gate.sh')\n")

    def judged(command: str) -> ShellModResult:
        return judge_shell_mod(command, ["ci/gate.sh"], root=str(root), home=str(root.parent))

    monkeypatch.setattr(disk, "TEST_FILES", 4)  # (unittest's three modules and the package's __init__.py)
    assert judged("jest").reason == "jest runs tests/wipe.test.js, whose code mentions protected path ci/gate.sh"
    assert judged("python3 -m unittest").reason == (
        "python3 runs tests/test_wipe.py, whose code mentions protected path ci/gate.sh")
    monkeypatch.setattr(disk, "TEST_FILES", 2)
    for command, runner in (("jest", "jest"), ("python3 -m unittest", "python3")):
        over = judged(command)
        assert over.broken and over.reason.startswith(
            f"{runner} runs its test files, which cannot be read within bounds (more than 2 test files under"), over


_UNITTEST_ORACLE = """
import os, sys, unittest
sys.path.insert(0, os.getcwd())
unittest.TestLoader().discover(".", pattern=sys.argv[1], top_level_dir=".")
here = os.getcwd() + os.sep
print("\\n".join(sorted(os.path.relpath(m.__file__) for m in list(sys.modules.values())
                        if (getattr(m, "__file__", None) or "").startswith(here))))
"""


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    packages=st.sets(st.sampled_from(["a", "a/b", "c", "c/d", "e"])),
    files=st.lists(st.tuples(st.sampled_from(["", "a", "a/b", "c", "c/d", "e"]),
                             st.sampled_from(["test_x.py", "testy.py", "check_z.py", "test-bad.py", "helper.py",
                                              "Test_up.py", "x_test.py", "test_.txt", "_test_u.py", "test.v2.py",
                                              "1test.py", "tést.py"])),
                   max_size=12),
    pattern=st.sampled_from(["test*.py", "*_test.py", "check*.py", "t?st*.py", "*.py", "*", "[tc1]*.py"]),
)
def test_unittest_discovery_agrees_with_unittest(tmp_path_factory, packages, files, pattern) -> None:
    """The files `discovery_rule` collects are the modules unittest's own loader imports (run
    in a child Python on the same tree): module names matching the pattern, in packages only."""
    from polydeukes.stdlib.shell.disk import Disk
    from polydeukes.stdlib.shell.testrunners import discovery_rule

    root = tmp_path_factory.mktemp("discover")
    for package in packages:
        (root / package).mkdir(parents=True, exist_ok=True)
        (root / package / "__init__.py").write_text("")
    for directory, name in files:
        (root / directory).mkdir(parents=True, exist_ok=True)
        (root / directory / name).write_text("")
    found = Disk(str(root)).test_files([s for s in str(root).split("/") if s], **discovery_rule(pattern))
    ours = {str(pathlib.Path(f).relative_to(root)) for f in found}
    real = subprocess.run([sys.executable, "-c", _UNITTEST_ORACLE, pattern], cwd=root, capture_output=True,
                          text=True, check=True).stdout.split()
    assert ours == set(real)



def test_default_doctest_pattern_is_fnmatchs_own() -> None:
    """pytest's default doctest glob, kept spelled out so a run does not translate it again,
    is what `fnmatch.translate` makes of `test*.txt` (so the two cannot drift apart)."""
    import fnmatch
    import re

    from polydeukes.stdlib.shell.testrunners import _DEFAULT_DOCTESTS, _doctest_files

    assert _DEFAULT_DOCTESTS == "(?:.*/)?(?:" + fnmatch.translate("test*.txt") + ")"
    assert _doctest_files(["-q"]) == (_DEFAULT_DOCTESTS,)
    assert re.match(_DEFAULT_DOCTESTS, "docs/test_usage.txt") and not re.match(_DEFAULT_DOCTESTS, "usage.txt")
    assert _doctest_files(["--doctest-glob=*.rst"])[0] != _DEFAULT_DOCTESTS

class _Word:
    """A command-line word as the runners' parser reads it."""

    def __init__(self, text: str, opaque: bool = False) -> None:
        self.text = text
        self.opaque = opaque


def _runner_words():
    from polydeukes.stdlib.shell.interpreters import RUNNER_OPTIONS

    spelled = sorted({o for r in RUNNER_OPTIONS.values() for o in (*r.values, *r.settings, *r.subcommands)})
    word = st.one_of(st.sampled_from(spelled + ["--", "-", "discover", "-xq", "-kexpr", "-pplug", "--x=1"]),
                     st.text(alphabet="-=./*abt", max_size=6))
    return st.lists(st.tuples(word, st.booleans()), max_size=10)


@settings(max_examples=200, deadline=None)
@given(runner=st.sampled_from(["pytest", "unittest", "jest", "vitest", "mocha", "node --test", "bun test",
                               "deno test"]),
       words=_runner_words(), start=st.integers(0, 2), first=st.sampled_from(["", "discover", "run", "test"]))
def test_runner_parser_gives_every_word_a_role(runner: str, words, start: int, first: str) -> None:
    """`runner_items` reads any command line without raising, and every word from `start` on
    (each option, its value, each operand) has an item at its own index, whatever the runner:
    no word is dropped unread (a dropped operand is a test file never read)."""
    from polydeukes.stdlib.shell.interpreters import TEST_PATH, runner_items

    if first:  # (a mode word where the runner's words start: `discover`, `vitest run`)
        words = words[:start] + [(first, False)] + words[start:]
    args = [_Word(text, opaque) for text, opaque in words]
    items = runner_items(runner, args, start)
    assert {it.index for it in items} == set(range(start, len(args)))
    for it in items:
        if it.option == TEST_PATH and it.whole:
            assert it.text == args[it.index].text


def test_make_includes_past_their_bound_fail_closed(tmp_path: pathlib.Path) -> None:
    """A makefile that includes a chain of makefiles deeper than make's include bound is not
    followed to its end: the command fails closed and says why."""
    from polydeukes.stdlib.shell.scripts import _INCLUDE_DEPTH

    root = tmp_path / "u" / "proj"
    root.mkdir(parents=True)

    def judged(command: str) -> ShellModResult:
        return judge_shell_mod(command, ["ci/gate.sh"], root=str(root), home=str(root.parent))

    (root / "Makefile").write_text("include m0.mk\nall:\n\ttrue\n")
    for k in range(_INCLUDE_DEPTH - 1):
        (root / f"m{k}.mk").write_text(f"include m{k + 1}.mk\n")
    (root / f"m{_INCLUDE_DEPTH - 1}.mk").write_text("x:\n\trm -f c?/gate.sh\n")
    assert judged("make").reason.startswith("rm pattern c?/gate.sh can match protected path ci/gate.sh (in Makefile and m0.mk")
    (root / f"m{_INCLUDE_DEPTH - 1}.mk").write_text(f"include m{_INCLUDE_DEPTH}.mk\n")
    (root / f"m{_INCLUDE_DEPTH}.mk").write_text("x:\n\ttrue\n")
    deep = judged("make")
    assert deep.broken and deep.reason == (
        f"make runs m{_INCLUDE_DEPTH}.mk, which cannot be read within bounds (more than 64 included makefiles, "
        f"or included {_INCLUDE_DEPTH} deep)")


def test_make_down_a_missing_tree_spends_one_lookup(tmp_path: pathlib.Path) -> None:
    """`cd build && make` repeated, each deeper in a tree that is not there: make's makefile
    is looked for once, not three times per level (the lookups and the time budget would run
    out on a long script, and the line would fail closed for nothing)."""
    from polydeukes.stdlib.shell import judgment

    root = tmp_path / "u" / "proj"
    root.mkdir(parents=True)
    text = "\n".join(["cd build && make -j4 all"] * 200)
    judge = judgment._Judge(judgment.Protected(["ci/gate.sh"], str(root), str(root.parent)), text,
                            str(root), str(root.parent))
    judge.run()
    assert judge.reason is None
    from polydeukes.stdlib.shell.disk import LOOKUPS

    assert LOOKUPS - judge.walk.disk.lookups <= 2


def test_listing_a_directory_past_the_budget_is_refused(tmp_path: pathlib.Path, monkeypatch) -> None:
    """`cp tmp/gat* notes` lists notes for links the glob can match: a directory too large to
    list within the budget fails closed."""
    import os

    from polydeukes.stdlib.shell.disk import Disk, Refused

    notes = tmp_path / "notes"
    notes.mkdir()
    for k in range(200):
        (notes / f"f{k}").write_text("")
    os.symlink("../ci/gate.sh", notes / "gate.sh")
    segments = [s for s in str(notes).split("/") if s]
    assert Disk(str(tmp_path), lookups=8).links_in(segments, lambda name: name.startswith("g")) == ["gate.sh"]
    assert Disk(str(tmp_path), lookups=8).links_in(segments, lambda name: name.startswith("x")) == []
    refused = Disk(str(tmp_path), lookups=3).links_in(segments, lambda name: True)
    assert isinstance(refused, Refused) and "too many paths" in refused.reason
    monkeypatch.setattr(Disk, "links_in", lambda self, segments, accept: Refused("too many paths to look up on disk"))
    result = judge_shell_mod("cp tmp/x* notes", ["ci/gate.sh"], root=str(tmp_path), home=None)
    assert result.broken and "whose directory cannot be listed: too many paths" in result.reason


def test_a_decompression_bomb_is_refused_not_unpacked(tmp_path: pathlib.Path) -> None:
    """A small gzip archive that unpacks past the bound fails closed instead of filling memory."""
    import gzip
    import io
    import tarfile

    from polydeukes.stdlib.shell import disk as D

    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode="w") as archive:
        info = tarfile.TarInfo("ci/gate.sh")
        info.size = 1 << 20
        archive.addfile(info, io.BytesIO(bytes(1 << 20)))
    (tmp_path / "bomb.tgz").write_bytes(gzip.compress(raw.getvalue(), compresslevel=1))
    saved = D.UNPACKED_BYTES
    D.UNPACKED_BYTES = 1 << 16  # the bound, scaled down so the test stays small
    try:
        found = D.Disk(str(tmp_path)).archive_members(str(tmp_path / "bomb.tgz"), "tar")
    finally:
        D.UNPACKED_BYTES = saved
    assert isinstance(found, D.Refused) and "unpacks to more than" in found.reason


@pytest.mark.parametrize("kind", ["tar", "zip"])
def test_an_archive_of_exactly_the_member_limit_is_read(tmp_path: pathlib.Path, monkeypatch, kind: str) -> None:
    """The refusal says "more than N members": an archive of N members is still read (its
    protected member blocks by name), one of N + 1 is refused. N scaled down to 3."""
    from polydeukes.stdlib.shell import disk as D

    monkeypatch.setattr(D, "MEMBERS", 3)
    names = {"ci/gate.sh": "x", "a": "", "b": ""}
    make_tree(tmp_path, {f"full.{kind}": {kind: names}, f"over.{kind}": {kind: {**names, "c": ""}}})
    extract = "tar -xf" if kind == "tar" else "unzip"
    full = judge_shell_mod(f"{extract} full.{kind}", ["ci/gate.sh"], root=str(tmp_path), home=None)
    assert full.broken and full.reason == "archive-extract targets protected path ci/gate.sh"
    over = judge_shell_mod(f"{extract} over.{kind}", ["ci/gate.sh"], root=str(tmp_path), home=None)
    assert over.broken and f"'{tmp_path}/over.{kind}' has more than 3 members" in over.reason


_AR_NAME = st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789._-", min_size=1, max_size=24).filter(
    lambda name: name not in (".", "..") and not name.startswith("-"))


@pytest.mark.skipif(shutil.which("ar") is None, reason="binutils ar is not installed")
@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(names=st.lists(_AR_NAME, min_size=1, max_size=5, unique=True), bsd=st.booleans())
def test_ar_members_agree_with_binutils(tmp_path_factory, names: list[str], bsd: bool) -> None:
    """disk.py's ar reader lists what binutils' `ar t` lists, for an archive made by `ar rc`
    itself (GNU names, a long-name table past 15 bytes) and for the fixture's BSD form."""
    from polydeukes.stdlib.shell.disk import Disk

    root = tmp_path_factory.mktemp("ar")
    if bsd:
        make_tree(root, {"x.a": {"ar-bsd": {name: "data" for name in names}}})
    else:
        for name in names:
            (root / name).write_text("data" * len(name))
        subprocess.run(["ar", "rc", "x.a", *names], cwd=root, check=True, capture_output=True)
    listed = subprocess.run(["ar", "t", "x.a"], cwd=root, check=True, capture_output=True, text=True).stdout
    members = Disk(str(root)).archive_members(str(root / "x.a"), "ar")
    assert [m.name for m in members] == listed.splitlines() == names


@settings(max_examples=200, deadline=None)
@given(body=st.binary(max_size=300))
def test_the_ar_reader_never_raises(tmp_path_factory, body: bytes) -> None:
    from polydeukes.stdlib.shell.disk import Disk, Refused

    root = tmp_path_factory.mktemp("arb")
    (root / "x.a").write_bytes(b"!<arch>\n" + body)
    found = Disk(str(root)).archive_members(str(root / "x.a"), "ar")
    assert isinstance(found, (list, Refused))


_URL_SEGMENT = st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789._-~%", min_size=1, max_size=12)


@settings(max_examples=300, deadline=None)
@given(host=_URL_SEGMENT, path=st.lists(_URL_SEGMENT, max_size=4), slash=st.booleans(),
       query=st.one_of(st.none(), _URL_SEGMENT), fragment=st.one_of(st.none(), _URL_SEGMENT),
       scheme=st.sampled_from(["https://", "http://", "ftp://", ""]))
def test_a_downloads_file_name_is_the_urls_last_path_segment(host, path, slash, query, fragment, scheme) -> None:
    """downloads.url_names against urllib's reading of the same URL (an independent parser):
    the name is the path's last segment, with the query kept as wget keeps it; none when the
    path ends in `/` or is empty."""
    from urllib.parse import urlsplit

    from polydeukes.stdlib.shell.downloads import url_names

    url = scheme + host + "".join("/" + p for p in path) + ("/" if slash else "") \
        + (f"?{query}" if query is not None else "") + (f"#{fragment}" if fragment is not None else "")
    parsed = urlsplit(url if scheme else "//" + url)
    last = parsed.path.rsplit("/", 1)[-1] if "/" in parsed.path else ""
    want = [] if last in ("", ".", "..") else [last] + ([f"{last}?{parsed.query}"] if parsed.query else [])
    assert url_names(url) == want


def test_a_symlink_loop_is_refused(tmp_path: pathlib.Path) -> None:
    import os

    from polydeukes.stdlib.shell.disk import Disk, Refused

    os.symlink("b", tmp_path / "a")
    os.symlink("a", tmp_path / "b")
    segments = [s for s in str(tmp_path).split("/") if s]
    assert isinstance(Disk(str(tmp_path)).resolve([*segments, "a", "x"]), Refused)
    result = judge_shell_mod("echo x > a/x", ["ci"], root=str(tmp_path), home=None)
    assert result.broken and "symbolic links cannot be followed" in result.reason


# -- derivation reasons (§8.6) -------------------------------------------------------------------


@pytest.mark.parametrize("command, uncomputable, undeterminable", [
    # §8.7 #65: each of several write redirects gets the same reason, with its path when known.
    ("echo x > a.ts > b.ts", [("a.ts", "the command carries more than one write"),
                              ("b.ts", "the command carries more than one write")], []),
    ("echo x > $F > b.ts", [("b.ts", "the command carries more than one write")],
     ["the command carries more than one write"]),
    # One entry per write: the opaque word beside it adds no other (case 5 is for commands
    # without writes).
    ("cd build; make $T > build.log", [],
     ["relative write target build.log beside a directory change"]),
    # An effect-model write with a known path, an operand's and a derived name's.
    ("gzip notes.txt", [("notes.txt", "gzip deletes it; the result is not computed"),
                        ("notes.txt.gz", "gzip writes it; the result is not computed")], []),
])
def test_every_unjudgeable_write_carries_its_reason(command, uncomputable, undeterminable) -> None:
    """§8.6: "Every unjudgeable entry carries a non-empty reason" — the reason the derivation
    (`shell_writes`, exported by the package) gives for each write it does not compute."""
    writes = shell_writes(command, root=ROOT, home=HOME, read_file=None)
    assert [(w.path, w.reason) for w in writes.uncomputable] == uncomputable
    assert list(writes.undeterminable) == undeterminable


# -- evidence completion (§4.3) ------------------------------------------------------------------


def test_completion_reads_pre_state_once_and_chains() -> None:
    reads: list[str] = []

    def read_file(path: str) -> str | None:
        reads.append(path)
        return {"f.ts": "old\n"}.get(path)

    result = shell_writes(
        "echo a >> f.ts; echo b >> f.ts; echo c > new.ts; echo d > /tmp/out", root=ROOT, home=HOME, read_file=read_file
    )
    assert reads == ["f.ts", "new.ts"]
    assert result.changes == (
        ShellFileChange("f.ts", "modify", "old\n", "old\na\n"),
        ShellFileChange("f.ts", "modify", "old\na\n", "old\na\nb\n"),
        ShellFileChange("new.ts", "create", None, "c\n"),
    )
    assert result.pre_state_error is None


def test_completion_append_to_absent_file_creates_it() -> None:
    result = shell_writes("echo a >> new.ts", root=ROOT, home=HOME, read_file=lambda p: None)
    assert result.changes == (ShellFileChange("new.ts", "create", None, "a\n"),)


def test_completion_read_failure_is_reported() -> None:
    def broken(path: str) -> str | None:
        raise PermissionError("denied")

    result = shell_writes("echo a > f.ts", root=ROOT, home=HOME, read_file=broken)
    assert result.pre_state_error is not None and "f.ts" in result.pre_state_error


def test_no_pre_state_channel_leaves_changes_absent() -> None:
    assert shell_writes("echo a > f.ts", root=ROOT, home=HOME, read_file=None).changes is None


_FORBIDDEN_CALLS = {
    "open", "os.open", "os.system", "os.popen", "os.execv", "os.execvp", "os.spawnv", "os.fork",
    "os.remove", "os.unlink", "os.rename", "os.replace", "os.mkdir", "os.makedirs", "os.rmdir",
    "os.chmod", "os.chown", "os.symlink", "os.link", "os.truncate", "os.write", "os.utime",
}
_FORBIDDEN_METHODS = {"write", "write_text", "write_bytes", "extract", "extractall", "unlink", "touch"}
_FORBIDDEN_FLAGS = {"O_WRONLY", "O_RDWR", "O_CREAT", "O_TRUNC", "O_APPEND"}


def _dotted(node) -> str:
    import ast

    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return _dotted(node.value) + "." + node.attr
    return ""


def test_the_analysis_imports_no_heavy_module_and_never_runs_or_writes() -> None:
    """Every stage of the shell package: no yaml, lark, click, subprocess; no call that runs a
    program or writes a file (the working tree is only looked at, through `disk.py`, whose
    few opens are all read-only)."""
    import ast

    package = pathlib.Path(sys.modules["polydeukes.stdlib.shell"].__file__).parent
    for path in sorted(package.glob("*.py")):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                names = [a.name for a in node.names] + ([node.module] if isinstance(node, ast.ImportFrom) and node.module else [])
                for name in names:
                    assert name.split(".")[0] not in {"yaml", "lark", "click", "subprocess", "glob", "shutil",
                                                      "tempfile", "pty", "multiprocessing"}, (path.name, name)
            elif isinstance(node, ast.Call):
                name = _dotted(node.func)
                assert name not in _FORBIDDEN_CALLS, (path.name, name, node.lineno)
                if isinstance(node.func, ast.Attribute):
                    assert node.func.attr not in _FORBIDDEN_METHODS, (path.name, name, node.lineno)
                if name == "os.fdopen":
                    assert ast.literal_eval(node.args[1]) == "rb", (path.name, node.lineno)
                if name == "tarfile.open":
                    modes = [k.value for k in node.keywords if k.arg == "mode"]
                    assert [ast.literal_eval(m) for m in modes] == ["r|"], (path.name, node.lineno)
            elif isinstance(node, ast.Attribute) and node.attr in _FORBIDDEN_FLAGS:
                raise AssertionError((path.name, node.attr, node.lineno))


# -- properties ----------------------------------------------------------------------------------

PROPERTY_SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# Shell-flavoured fragments joined together: lone quotes, heredoc operators without
# terminators, substitutions, NULs and protected paths in random arrangement.
_SHELLISH = st.lists(
    st.sampled_from(
        list("ab/ .-_'\"\\$`(){}[]<>|&;#*?!=~\n\r\t\x00")
        + ["<<", "<<-", "$'", "$(", "EOF", "src/core", "bash -c ", "sudo ", "rm -rf "]
    ),
    max_size=40,
).map("".join)
# A writer or reader naming a protected path, among other words and operators: these break
# often, and the noise around them tests what proof the analysis accepts.
_NOISE = st.lists(st.sampled_from(["cat", "ls", "sudo", "bash -c", ";", "&&", "|", "'", '"', "$(", ")",
                                   "x", "notes.md"]), max_size=3)
_COMMANDS = st.tuples(
    _NOISE, st.sampled_from(["rm -rf", "echo x >", "tee -a", "mv", "cp x", "cat"]),
    st.sampled_from([*PROTECTED, "./src/core/x", "notes.md"]), _NOISE,
).map(lambda t: " ".join([*t[0], ";" if t[0] else "", t[1], t[2], *t[3]]))
_ANY_TEXT = st.one_of(st.text(max_size=200), _SHELLISH, _COMMANDS, _COMMANDS)


@PROPERTY_SETTINGS
@given(_ANY_TEXT)
def test_tokenizer_never_raises(text: str) -> None:
    script = tokenize(text)
    event("words" if any(cmd.words for cmd in script.commands) else "no word")
    for cmd in script.commands:
        for w in cmd.words:
            assert 0 <= w.start <= w.end <= len(text)
    executed_text(text, script)


# Pieces that drive the analysis down its costly paths: brace expansion (nested, sequences,
# many groups), glob matching (stars, brackets, extglob groups and negation, globstar), variable
# alternatives, directory changes, nested shells and substitutions, heredocs fed to programs,
# interpreter code full of string literals, the writers and their special readers.
_COSTLY = st.lists(
    st.sampled_from([
        "{", "}", ",", "{a,b}", "{1..99}", "{a..z}", "{x,{y,{z,w}}}", "*", "**", "?", "[!a]",
        "[[:alpha:]]", "@(a|b)", "!(x)", "*(a|*)", "+(?)", "a*a*a*a*", "$a", "${a}", "a=ci;",
        "a=$a$a;", "for f in ci/* x; do ", "done;", "cd ..; ", "cd ci; ", "pushd x; ", "popd; ",
        "bash -c '", "sh <<EOF\n", "\nEOF\n", "$(", ")", "<(", "`", "python3 -c \"",
        "'.cl'+'aude'+", "os.path.join('ci','gate.sh')", "rm -rf ", "cp x ", "mv ", "tee ",
        "sed -i s/a/b/ ", "tar -xf a.tar ", "unzip a.zip ", "git checkout ", "git apply ",
        "find . -name '*.sh' -exec rm {} + ", "xargs rm < l ", "awk '{print > \"f\"}' ",
        # (2026-12-02) the archivers, downloaders, python -m modules, git index and hooks, wrappers
        "7z x ", "7z a -sdel ", "unrar e ", "rar m ", "cpio -idm ", "cpio -p ", "ar xP ", "ar rcs ",
        "jar xf ", "jar --extract --file=", "pax -rw ", "pax -r -s ", "tar --trans=", "-o", "-op",
        "curl -sSO ", "curl -OJ ", "curl --output-dir ", "https://h/a/gate.sh?x#y", "wget -rP ",
        "wget -qO- ", "python3 -m zipfile -e ", "python3 -m tarfile -e ", "python3 -m json.tool ",
        "python3 -m venv --clear ", "python3 -m pip install -t ", "git commit -anm ", "--no-veri",
        "git -c core.hooksPath=", "git config --unset ", "core.hooksPath ", "GIT_CONFIG_COUNT=1 ",
        "git rm --cached ", "git update-index --cacheinfo 1,2,", "git reset HEAD~1 -- ",
        "git restore -S -s x ", "git apply --cached ", "rsync -a x/ ", "cp -rT ", "ditto ",
        "busybox ", "sudo -Eu ", "su x -c '", "runuser -l x -c '", "script -qc '", "flock l -c '",
        "sed 's/x/rm c\\i/e' ", "awk 'BEGIN{system(\"c\" \"i\")}' ",
        "shopt -s dotglob extglob globstar nocaseglob; ", "alias ls='rm -rf'; ", "f() { rm $1; }; ",
        " ", " ", " ", "; ", " | ", " && ", "\n", "ci/gate.sh", ".claude/hooks", "src/core",
        "packages/core/dist", "x" * 40,
    ]),
    max_size=120,
).map("".join)

# Issue 11: the analyzer never takes more than 50 ms per 1,000 characters of command (CPU time;
# any input under 1,000 characters is allowed the 50 ms of a full thousand).
MS_PER_THOUSAND = 50.0


def _analyze(text: str) -> ShellModResult:
    result = judge_shell_mod(text, PROTECTED, root=ROOT, home=HOME)
    shell_writes(text, root=ROOT, home=HOME, read_file=lambda p: None)
    judge_transcript_line(text, TRANSCRIPT)
    return result


def _timed_ms(text: str) -> tuple[float, ShellModResult]:
    started = time.process_time()
    result = _analyze(text)
    return (time.process_time() - started) * 1000, result


# Warm the lazily built pieces (regexes, option tables) so the bound times the analysis alone.
_analyze("shopt -s extglob; for f in ci/* x; do rm -rf {a,b}@(x|y)*; done; python3 -c 'x'; "
         "tar -xf a.tar; git checkout x; cp x {1..9}; find . -exec rm {} +; xargs rm < l")


@PROPERTY_SETTINGS
@given(st.one_of(_ANY_TEXT, _COSTLY))
def test_analysis_never_raises_and_stays_within_its_time(text: str) -> None:
    elapsed_ms, result = _timed_ms(text)
    event("broken" if result.broken else "not broken")
    if result.broken:
        assert result.subject in PROTECTED and result.reason
    budget = MS_PER_THOUSAND * max(1.0, len(text) / 1000)
    if elapsed_ms > budget:
        elapsed_ms = min(elapsed_ms, _timed_ms(text)[0])  # once more: the machine is shared
    assert elapsed_ms <= budget, (elapsed_ms, len(text))


# Lines a `PlainRun` may take whole (plain commands, quoted words, comments, mentions among
# them) and lines it must not (writers, expansions, directory changes, redefinitions, operators).
_RUN_LINES = st.lists(
    st.sampled_from([
        "cat src/core/a.py", "echo hi there", "ls -la", "grep -n x 'src/core' notes.md",
        "# rm -rf src/core", "'ls' packages/core/dist", "wc -l \"polydeukes.config.yaml\"",
        "make all", "", "   ",
        "rm -rf src/core", "mv notes.md src", "cd src", "cd ..", "d=src; rm $d/core/x",
        "echo x > src/core/f",
        "alias cat='rm -rf'", "cat() { rm -rf $1; }", "sudo cat src/core", "bash -c 'ls src/core'",
        "for f in src/*; do echo $f; done", "cat <<EOF\nsrc/core\nEOF", "cp -r src /tmp/x",
        "ls | xargs rm",
        "python3 -c 'open(\"src/core/a\",\"w\")'", "ls src/co*", "cat src/core | sh",
        # A versioned interpreter name reads as its family: never a plain line.
        "python3.12 -c \"import os; os.remove('.cl' + 'aude/settings.json'); ok = 1\"",
    ]),
    max_size=12,
).map("\n".join)


@PROPERTY_SETTINGS
@given(_RUN_LINES, st.sampled_from(["", "\n", "\r\n"]))
def test_runs_of_plain_lines_change_no_verdict(text: str, end: str) -> None:
    """A large string is read with its runs of plain lines kept whole (`PlainRun`), a short one
    word by word: the judges answer the same either way."""
    from polydeukes.stdlib.shell import analysis

    text = text.replace("\n", end) if end else text
    def judged() -> tuple:
        return (judge_shell_mod(text, PROTECTED, root=ROOT, home=HOME),
                judge_transcript_line(text, TRANSCRIPT))

    word_by_word = judged()
    saved = analysis.PLAIN_RUNS_FROM
    analysis.PLAIN_RUNS_FROM = 0  # every string is large
    try:
        with_runs = judged()
    finally:
        analysis.PLAIN_RUNS_FROM = saved
    event("broken" if word_by_word[0].broken else "not broken")
    assert with_runs == word_by_word


# Commands for the fast path's property: names with and without effects, words that name,
# match, brace-expand to or lead to a protected entry (or do not), quoting, variables,
# substitutions, redirects to plain files, to entries and through links, heredocs,
# herestrings, directory changes and redefinitions.
# Most commands of a real script are plain (a name without effects, plain words): drawn more
# often, so that the fast path is taken for a good share of the commands.
_QUIET_PLAIN_NAMES = [
    "cat", "echo", "ls", "make", "wc -l", "grep -n x", "ruff check", "done", "fi", "true", "f",
    "cd build;", "cd notes &&", "cd ..;", "cd $1;", "pushd build;", "popd;", "sort", "git diff --stat",
]
_QUIET_OTHER_NAMES = [
    "g2", "sort", "uniq", "sort -o gate", "sort -o out.txt", "uniq -c", "rg -n x", "mv a.txt",
    "ln -s a.txt", "chmod +x", "xxd", "mkdir -p", "git diff --stat", "git checkout", "git status",
    "git apply", "awk '{print}'", "awk 'BEGIN{system(\"x\")}'", "tar -xf a.tar", "gzip", "patch -p1",
    "dd of=gate", "unzip", "tr a-z A-Z", "base64 -d", "while read f; do rm", "rm -f", "cp", "tee", "sed -i s/a/b/", "bash -c", "sh", "python3",
    "python3.12 -c", "perl5.30 -e", "eval", "xargs rm", "cd", "pushd", "popd", "env", "sudo",
    "alias f=rm", "hash -p /bin/rm f", "x=ci", "read x", "set -f", "shopt -s dotglob", "source",
    "for x in ci/*; do echo", "for x in *; do echo", "for y in .c*; do echo", "while read l; do echo", "exec", "command", "printf -v x",
    # listers feeding writers, case arms, arrays, find -exec, output prefixes
    "git ls-files", "find . -name gate.sh", "find . -name '*.o'", "for f in $(git ls-files); do rm $f", "rg -l x", "ls -R", "grep -rl x .",
    "xargs -0 sed -i s/a/b/", "for f in $(git ls-files); do rm", "case $x in x) rm", "a=(ci/gate.sh); rm",
    "arr+=(x); rm", "find . -type f -exec sed -i s/a/b/ {} +", "split -a1 -b1 x",
]
_QUIET_PLAIN_WORDS = ["a.txt", "-r", "build", "notes", "b.md", "'a b'", '"x y"', "$x", '"$y"']
_QUIET_OTHER_WORDS = [
    "ci/gate.sh", "ci", ".", "..", "ci/ga*", "ci/{gate,x}.sh", "'ci/gate.sh'", '"c"i/gate.sh',
    "c'i/gate.sh'", "${x}", "$(echo ci)", "`ls`", "src/core/a.py", ".claude", "out",
    "gate", "notes/hook", "x=ci", "src/*", "*", "~/proj/ci", "/tmp/z", "(ls", "a)",
    "'.cl' + 'aude/hooks'", "$'\\x41'", "'it''s'", "$V/gate.sh", '"$HOME"/proj/ci', "~/proj/out",
    '"${a[@]}"', "${arr[0]}", '"$f"', "$(git ls-files)", "$(find . -name '*.sh')", "ci/gate.s", ";;", "esac",
]
_QUIET_REDIRECTS = [""] * 12 + [
    " > out.txt", " > gate", " >> out/new", " 2>&1", " < ci/gate.sh", " > ci/gate.sh",
    " <<< 'rm -rf ci'", " > $x", " > notes/hook/x", " 2> build/e.log", " > ci/g*", " >&2",
    " > \"$y\"", " > build/{a,b}", " <<< ci/gate.sh", " > $V/gate.sh", " > ~/proj/gate", " > gate.sh", " >> hooks/x", " > $'\\q'gate",
]
_QUIET_HEREDOCS = ["", "", "", " <<'EOF'\nrm -rf ci\nEOF", " <<EOF\n$x ci/gate.sh\nEOF", " <<EOF\nhello\nEOF"]
_QUIET_COMMAND = st.tuples(
    st.sampled_from(_QUIET_PLAIN_NAMES * 10 + _QUIET_OTHER_NAMES),
    st.lists(st.sampled_from(_QUIET_PLAIN_WORDS * 4 + _QUIET_OTHER_WORDS), max_size=3),
    st.sampled_from(_QUIET_REDIRECTS),
).map(lambda parts: " ".join([parts[0], *parts[1]]) + parts[2])
_QUIET_LINE = st.tuples(
    st.lists(st.tuples(_QUIET_COMMAND, st.sampled_from(["; ", " && ", " || ", " | ", "\n"])),
             min_size=1, max_size=6),
    st.sampled_from(_QUIET_HEREDOCS),
).map(lambda parts: "".join(c + sep for c, sep in parts[0][:-1]) + parts[0][-1][0] + parts[1])
_QUIET_TREE = {
    "ci/gate.sh": "x", ".claude/hooks/pre.sh": "x", "src/core/a.py": "x", "build/": {"dir": True},
    "out": {"symlink": "ci"}, "gate": {"symlink": "ci/gate.sh"}, "notes/hook": {"symlink": "../.claude/hooks"},
}
_QUIET_PROTECTED = ["ci/gate.sh", ".claude/hooks", "src/core"]


def test_commands_judged_without_a_view_change_no_result(tmp_path: pathlib.Path, monkeypatch) -> None:
    """The judge makes no view of a plain command whose words and targets spell no entry
    (`analysis.QuietCommand`): over generated lines, judging with that fast path and with a
    view of every command gives the same result (verdict, subject, kind, reason). The fast
    path must be taken for a good share of the commands, or the property proves little."""
    from polydeukes.stdlib.shell import analysis, judgment

    root = tmp_path / "u" / "proj"
    root.mkdir(parents=True)
    make_tree(root, _QUIET_TREE)
    views = {True: 0, False: 0}
    reading = [True]
    view_of = analysis.Walk._view

    def counted(self, *args, **kwargs):
        views[reading[0]] += 1
        return view_of(self, *args, **kwargs)

    monkeypatch.setattr(analysis.Walk, "_view", counted)

    inert = analysis._inert

    def judged(text: str, quiet: bool) -> ShellModResult:
        reading[0] = quiet
        monkeypatch.setattr(judgment, "QUIET_COMMANDS", quiet)
        # The full reading: a view of every command (not even the inert ones are skipped).
        monkeypatch.setattr(analysis, "_inert", inert if quiet else lambda cmd: False)
        return judge_shell_mod(text, _QUIET_PROTECTED, root=str(root), home=str(root.parent))

    # Derandomized: the share asserted below is then the same on every run (it moves between
    # about 34% and 43% from one random run to another).
    @settings(max_examples=400, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
    @given(_QUIET_LINE)
    def same_result(text: str) -> None:
        viewed = judged(text, False)
        fast = judged(text, True)
        event("broken" if viewed.broken else "not broken")
        assert fast == viewed

    same_result()
    skipped = 1 - views[True] / views[False]
    print(f"fast path: {views[False] - views[True]} of {views[False]} commands judged without a view ({skipped:.0%})")
    assert skipped >= 0.30, views


def test_deep_nesting_neither_exhausts_recursion_nor_hides_a_mention() -> None:
    for text in ("$(" * 5000, "(" * 5000 + ")" * 5000, "`" * 5001, "${" * 5000, "<(" * 3000):
        tokenize(text)
        assert not judge_shell_mod(text, PROTECTED, root=ROOT, home=HOME).broken  # names nothing
        for mentioned in (text + " rm -rf src/core", "rm -rf src/core; " + text):
            result = judge_shell_mod(mentioned, PROTECTED, root=ROOT, home=HOME)
            assert result.broken and result.subject in PROTECTED, mentioned[:20]


_HEADS = st.sampled_from(["rm -rf", "mv", "cp x", "node", "touch", "chmod 644", "sed -i s/a/b/", "tee", "vim", "git rm"])
_TAILS = st.sampled_from(["", "/a.py", "/sub/b.ts"])


@PROPERTY_SETTINGS
@given(_HEADS, st.sampled_from(PROTECTED), _TAILS, st.sampled_from(["", "; ls", " && echo ok", " | cat"]))
def test_a_literal_mention_without_read_only_proof_breaks(head: str, entry: str, tail: str, rest: str) -> None:
    result = judge_shell_mod(f"{head} {entry}{tail}{rest}", PROTECTED, root=ROOT, home=HOME)
    assert result.broken
    assert result.subject == entry


def _requote(word: str, cuts: list[int], styles: list[int]) -> str:
    """Respell `word` as pieces in the quoting styles bash joins back into the same word."""
    pieces: list[str] = []
    bounds = sorted({0, len(word), *[c % (len(word) + 1) for c in cuts]})
    for k, (a, b) in enumerate(zip(bounds, bounds[1:])):
        piece = word[a:b]
        style = styles[k % len(styles)] if styles else 0
        if style == 1:
            pieces.append(f"'{piece}'")
        elif style == 2:
            pieces.append(f'"{piece}"')
        elif style == 3:
            pieces.append(f"$'{piece}'")
        elif style == 4:
            pieces.append(f"{piece}''")
        else:
            pieces.append("".join("\\" + ch if ch in "." else ch for ch in piece))
    return "".join(pieces)


@PROPERTY_SETTINGS
@given(
    st.sampled_from(["rm -rf {}", "cat {}", "echo x > {}", "tee {}", "ls {}", "cp {} /tmp", "git status {}",
                     "mv {} x", "sed -i s/a/b/ {}", "chmod 644 {}"]),
    st.sampled_from(["src/core/a.py", "packages/core/dist", ".claude/settings.json", "src/core_utils.py", "notes/x"]),
    st.lists(st.integers(min_value=0, max_value=40), max_size=4),
    st.lists(st.integers(min_value=0, max_value=4), min_size=1, max_size=4),
)
def test_quoting_never_changes_the_verdict(template: str, path: str, cuts: list[int], styles: list[int]) -> None:
    plain = judge_shell_mod(template.format(path), PROTECTED, root=ROOT, home=HOME)
    quoted = judge_shell_mod(template.format(_requote(path, cuts, styles)), PROTECTED, root=ROOT, home=HOME)
    event("broken" if plain.broken else "not broken")
    assert (quoted.broken, quoted.subject, quoted.reason) == (plain.broken, plain.subject, plain.reason)


# -- scripts on disk (scripts.py) ---------------------------------------------------------------

# Commands that spell no protected entry's first segment (`ci`, `.claude`), and commands that do.
_UNSPELLED = [
    "rm -f c?/gate.sh", "rm -rf build", "cat notes.txt", "echo hi > out.txt", "d=c; rm -rf ${d}i",
    "mv a.txt b.txt", "rm -f *.o", "cp a b", "rm -rf .", "echo x > notes/link/gate.sh", "rm -f [c]i/*",
    "find . -name '*.o' -delete", "touch new.txt", "for f in src/*; do rm \"$f\"; done", "make -j4",
    "x=.cl; rm -rf ${x}aude/hooks", "git checkout -- .", "sort notes.txt | uniq", "ls -la",
]
_SPELLED = ["cat ci/gate.sh", "rm -f ci/gate.sh", "grep -r x .claude", "echo ci > out.txt"]
_SCRIPT_TEXT = st.lists(
    st.tuples(st.sampled_from(_UNSPELLED * 3 + _SPELLED), st.sampled_from(["\n", "; ", " && ", " || "])),
    min_size=1, max_size=4,
).map(lambda parts: "".join(c + sep for c, sep in parts[:-1]) + parts[-1][0] + "\n")


def _script_tree(tmp_path: pathlib.Path):
    """A project with protected entries, a link into one, and the script file `s.sh` the
    properties below write; and the judge of a line there."""
    root = tmp_path / "u" / "proj"
    root.mkdir(parents=True)
    make_tree(root, {"ci/gate.sh": "x", ".claude/hooks/pre.sh": "x", "notes/link": {"symlink": "../ci"},
                     "src/a.py": "x"})

    def judged(text: str) -> ShellModResult:
        return judge_shell_mod(text, ["ci/gate.sh", ".claude/hooks"], root=str(root), home=str(root.parent))

    return root / "s.sh", judged


def test_a_script_file_is_judged_as_its_text(tmp_path: pathlib.Path) -> None:
    """`bash s.sh` and `source s.sh` (no positional parameters, no `cd`) against the same text
    pasted as the command line: never a weaker verdict; and for a script that spells no entry
    (so the unabsolved mention rule for shells does not apply) the same verdict and subject, the
    reason naming the script."""
    script, judged = _script_tree(tmp_path)

    @settings(max_examples=80, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
    @given(_SCRIPT_TEXT)
    def same_verdict(text: str) -> None:
        script.write_text(text)
        pasted = judged(text)
        spelled = any(c in text for c in _SPELLED)
        event("spelled" if spelled else "unspelled")
        for runner in ("bash", "source"):
            run = judged(f"{runner} s.sh")
            assert run.broken or not pasted.broken, (runner, text, pasted)
            if not spelled:
                assert (run.broken, run.subject) == (pasted.broken, pasted.subject), (runner, text)
                want = None if pasted.reason is None else f"{pasted.reason} (in s.sh, run by {runner})"
                assert run.reason == want, (runner, text)

    same_verdict()


def test_a_printed_script_is_judged_as_its_text(tmp_path: pathlib.Path) -> None:
    """A script's text given to a shell by a substitution that prints it (`sh -c "$(cat s.sh)"`,
    `eval "$(< s.sh)"`, `bash <(cat s.sh)`) is never judged weaker than the text pasted as the
    command line, and for a script that spells no entry the verdict and subject are the same."""
    script, judged = _script_tree(tmp_path)

    @settings(max_examples=60, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
    @given(_SCRIPT_TEXT)
    def never_weaker(text: str) -> None:
        script.write_text(text)
        pasted = judged(text)
        spelled = any(c in text for c in _SPELLED)
        event("spelled" if spelled else "unspelled")
        for line in ('sh -c "$(cat s.sh)"', 'eval "$(< s.sh)"', "bash <(cat s.sh)"):
            run = judged(line)
            assert run.broken or not pasted.broken, (line, text, pasted)
            if not spelled:
                assert (run.broken, run.subject) == (pasted.broken, pasted.subject), (line, text)

    never_weaker()


_RUNNER_FILE = st.one_of(
    st.text(alphabet=st.sampled_from(list("\t\n\\$(){}@-+:=#'\" acirm/?.*;|&<>\x00")), max_size=120),
    st.text(max_size=60),
    st.recursive(st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=20)),
                 lambda inner: st.one_of(st.lists(inner, max_size=3),
                                         st.dictionaries(st.sampled_from(["scripts", "test", "pretest", "x",
                                                                          "postinstall", "prepack"]), inner,
                                                         max_size=3)),
                 max_leaves=8).map(__import__("json").dumps),
)


_RUNNER_WORD = st.one_of(
    st.sampled_from(["-", "--", "-I", "-m", "-c", "-e", "-r", "-p", "-k", "-x", "-IBc", "-Wd", "--require", "--import=",
                     "--frobnicate", "run", "eval", "test", "install", "ci", "pytest", "s.sh", "conftest.py", "-C", "..",
                     "--prefix", "--ignore-scripts", "$X", "'*.py'", "::x", "no:x", "-f", "-I../x", "=", "--cov"]),
    st.text(alphabet=st.sampled_from(list("-=:./*$ab")), max_size=6),
)


@settings(max_examples=150, deadline=None, derandomize=True)
@given(st.sampled_from(["python3", "pypy3", "ipython", "coverage", "node", "tsx", "ts-node", "deno", "bun", "perl",
                        "pytest", "npm", "yarn", "pnpm", "make"]),
       st.lists(_RUNNER_WORD, max_size=7))
def test_runner_command_lines_never_raise(runner: str, words: list[str]) -> None:
    """Any words after an interpreter, a test runner or a package runner (options it does not
    know, a value missing at the end, `--` anywhere, unknown values) give a result."""
    result = judge_shell_mod(" ".join([runner, *words]), ["ci/gate.sh"], root=ROOT, home=HOME)
    assert isinstance(result, ShellModResult)


def test_script_runners_never_raise_on_any_file(tmp_path: pathlib.Path) -> None:
    """Whatever a makefile, a package.json or a script holds (binary, half-written, not JSON),
    judging the command that runs it gives a result, never a traceback."""
    root = tmp_path / "u" / "proj"
    root.mkdir(parents=True)
    make_tree(root, {"ci/gate.sh": "x"})

    @settings(max_examples=60, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
    @given(_RUNNER_FILE)
    def never_raises(content: str) -> None:
        for name in ("Makefile", "package.json", "s.sh", "inc.mk", "conftest.py"):
            (root / name).write_text(content, encoding="utf-8", errors="surrogatepass")
        (root / "GNUmakefile").write_text("include inc.mk\n" + content, encoding="utf-8", errors="surrogatepass")
        for command in ("make", "make -f Makefile", "npm test", "npm install", "yarn", "yarn x", "bash s.sh a", "./s.sh",
                        "python3 s.sh", "pytest", "node -r ./s.sh x", "cat s.sh | xargs rm"):
            result = judge_shell_mod(command, ["ci/gate.sh"], root=str(root), home=str(root.parent))
            assert isinstance(result, ShellModResult)

    never_raises()


# -- local modules a program imports (imports.py) -----------------------------------------------

_PY_NAMES = st.sampled_from(["a", "tool", "pkg.sub", "x_1", "deep.er.mod"])
_PY_IMPORTS = st.one_of(
    st.builds(lambda n, alias: f"import {n}" + (f" as {alias}" if alias else ""), _PY_NAMES, st.sampled_from(["", "q"])),
    st.builds(lambda a, b: f"import {a}, {b}", _PY_NAMES, _PY_NAMES),
    st.builds(lambda n, what: f"from {n} import {what}", _PY_NAMES, st.sampled_from(["x", "x as y", "(x, y)", "*"])),
    st.builds(lambda dots, n: f"from {dots}{n} import z", st.sampled_from([".", ".."]), _PY_NAMES),
    st.builds(lambda what: f"from . import {what}", st.sampled_from(["m", "m, n", "(m,\n n)"])),
)


@settings(max_examples=200, deadline=None)
@given(statements=st.lists(_PY_IMPORTS, min_size=1, max_size=5), separator=st.sampled_from(["\n", "; ", "\n    pass\n"]))
def test_python_imports_are_found_as_python_reads_them(statements: list[str], separator: str) -> None:
    """Every module Python's own parser sees imported (the oracle: `ast`) is among the files
    imports.py would read: `a.py` or `a/__init__.py` for `import a.b`, `m.py` beside the
    importer for `from . import m` and `from .m import z`."""
    import ast

    from polydeukes.stdlib.shell.imports import _candidates

    text = separator.join(statements).replace("\n    pass\n", "\nif x:\n    pass\n")
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return  # (a `;` before an indented block: not Python)
    wanted: set[tuple[str, ...]] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                wanted.add((alias.name.split(".")[0] + ".py",))
        elif isinstance(node, ast.ImportFrom):
            if node.module:
                wanted.add((node.module.split(".")[0] + ".py",))
            else:
                wanted.update((alias.name + ".py",) for alias in node.names)
    found = set(_candidates("python", text, ()))
    assert wanted <= found, (text, wanted - found)


@settings(max_examples=300, deadline=None)
@given(text=st.text(max_size=400), language=st.sampled_from(["python", "js", "ruby", "perl"]))
def test_import_reading_never_raises(text: str, language: str) -> None:
    from polydeukes.stdlib.shell.imports import _candidates

    assert all(isinstance(path, tuple) for path in _candidates(language, text, ("home", "u")))


def test_project_tools_are_the_table_of_projectfiles() -> None:
    """The names the walk treats as build tools (analysis.PROJECT_TOOLS, kept beside the other
    name sets so a plain command need not load projectfiles.py) are the table's."""
    from polydeukes.stdlib.shell import analysis, projectfiles

    assert analysis.PROJECT_TOOLS == (frozenset(projectfiles.TOOLS) | projectfiles.PIP
                                      | frozenset(projectfiles.CONFIG_TOOLS) | {"pre-commit", "dotnet"}
                                      | frozenset(projectfiles._BUILDERS) | analysis.EXEC_OPTION_PROGRAMS)
    from polydeukes.stdlib.shell import execopts  # (round 8: the programs execopts.py reads)

    assert analysis.EXEC_OPTION_PROGRAMS == frozenset(execopts.PROGRAMS) | {"terraform", "tofu", "ansible",
                                                                            "ansible-playbook", "terragrunt"}
    assert set(analysis._TOOL_MODULES.values()) <= analysis.PROJECT_TOOLS


@settings(max_examples=300, deadline=None)
@given(text=st.text(alphabet=st.sampled_from(list("ab:= \t\n@-{}\\#x")), max_size=200))
def test_justfile_reading_never_raises(text: str) -> None:
    """A justfile of any shape gives shell lines (no raise); an indented line is read only
    under a recipe header."""
    from polydeukes.stdlib.shell.projectfiles import just_recipes

    lines = just_recipes(text)
    assert all(isinstance(line, str) for line in lines)
    if ":" not in text:
        assert lines == []


# pre-commit's configuration is read line by line (no YAML parser on the check path): the local
# hooks' lines it finds are what a YAML parser's reading of the same file gives.
_HOOK = st.fixed_dictionaries(
    {"id": st.sampled_from(["a", "lint", "x-1"]),
     "entry": st.sampled_from(["rm -f", "bash tools/x.sh", "wc -l", "python3 -m tool --fix", "x.sh", "echo 'a b'"])},
    optional={"language": st.sampled_from(["system", "script", "python"]),
              "pass_filenames": st.booleans(),
              "files": st.sampled_from([r"\.py$", "^src/"])})
_REPO = st.one_of(
    st.fixed_dictionaries({"repo": st.just("local"), "hooks": st.lists(_HOOK, max_size=3)}),
    st.fixed_dictionaries({"repo": st.just("https://github.com/psf/black"), "rev": st.just("24.1.0"),
                           "hooks": st.lists(st.fixed_dictionaries({"id": st.just("black")}), max_size=2)}))


@settings(max_examples=200, deadline=None)
@given(repos=st.lists(_REPO, max_size=4), flow=st.booleans())
def test_pre_commit_lines_agree_with_a_yaml_reading(repos: list, flow: bool) -> None:
    from polydeukes.stdlib.shell.projectfiles import pre_commit_lines

    text = yaml.safe_dump({"repos": repos}, default_flow_style=False, sort_keys=flow)
    expected = []
    for repo in yaml.safe_load(text)["repos"] or []:
        if repo["repo"] != "local":
            continue
        for hook in repo["hooks"]:
            entry = hook["entry"]
            if hook.get("language") == "script" and "/" not in entry.split(" ", 1)[0]:
                entry = "./" + entry
            expected.append(entry if hook.get("pass_filenames") is False else f"git ls-files | xargs {entry}")
    assert pre_commit_lines(text) == expected


@given(st.text(max_size=300))
def test_pre_commit_reading_never_raises(text: str) -> None:
    from polydeukes.stdlib.shell.projectfiles import pre_commit_lines

    assert all(isinstance(line, str) for line in pre_commit_lines(text))


# A compose file's bind mounts are read line by line (no YAML parser on the check path): what
# that reading finds is what a YAML parser's reading of the same file gives.
_SOURCES = st.sampled_from([".", "./src", "..", "/srv/data", "~/cache", "data", "${PWD}/x", "./a b"])
_SHORT = st.builds(lambda s, ro: f"{s}:/mnt" + (":ro" if ro else ""), _SOURCES, st.booleans())
_LONG = st.fixed_dictionaries({"type": st.sampled_from(["bind", "volume"]), "source": _SOURCES,
                               "target": st.just("/mnt")}, optional={"read_only": st.booleans()})
_SERVICE = st.fixed_dictionaries({"image": st.just("alpine")},
                                 optional={"volumes": st.lists(st.one_of(_SHORT, _LONG), max_size=3)})


@settings(max_examples=200, deadline=None)
@given(services=st.dictionaries(st.sampled_from(["app", "db", "web"]), _SERVICE, max_size=3),
       named=st.booleans(), order=st.booleans())
def test_compose_mounts_agree_with_a_yaml_reading(services: dict, named: bool, order: bool) -> None:
    from polydeukes.stdlib.shell.containers import compose_mounts

    document = {"services": services}
    if named:
        document["volumes"] = {"data": None}
    text = yaml.safe_dump(document, default_flow_style=False, sort_keys=order)
    expected = []
    for service in yaml.safe_load(text)["services"].values():
        for volume in service.get("volumes", []):
            if isinstance(volume, str):
                parts = volume.split(":")
                expected.append((parts[0], "ro" in parts[2:]))
            elif volume["type"] == "bind":
                expected.append((volume["source"], volume.get("read_only", False)))
    assert compose_mounts(text) == expected


@given(st.text(max_size=300))
def test_compose_reading_never_raises(text: str) -> None:
    from polydeukes.stdlib.shell.containers import compose_mounts

    assert all(isinstance(source, str) for source, _ in compose_mounts(text))


def test_msbuild_exec_commands_are_xml_unescaped_once() -> None:
    from polydeukes.stdlib.shell.projectfiles import _xml_unescaped

    assert _xml_unescaped("a &amp;&amp; b &quot;c&quot; &lt;d&gt; &apos;e&apos;") == "a && b \"c\" <d> 'e'"
    assert _xml_unescaped("&amp;quot;") == "&quot;"  # (`&amp;` last: no second unescaping)


def test_formatter_rows_are_the_names_the_judge_looks_up() -> None:
    """analysis.FORMATTERS (the judge's lookup) names exactly the programs of
    formatters.REWRITERS and pre-commit; each row's extensions start with a dot."""
    from polydeukes.stdlib.shell.analysis import FORMATTER_MODULES, FORMATTERS
    from polydeukes.stdlib.shell.formatters import REWRITERS

    assert FORMATTERS == frozenset(REWRITERS) | {"pre-commit"}
    assert set(FORMATTER_MODULES.values()) <= FORMATTERS
    for rows in REWRITERS.values():
        for row in rows:
            assert all(extension.startswith(".") for extension in row.extensions)
            assert row.every_file or row.extensions or row.names


def test_pre_commit_repositories_name_remote_ones() -> None:
    from polydeukes.stdlib.shell.projectfiles import pre_commit_repositories

    text = ("repos:\n- repo: https://github.com/psf/black\n  rev: 24.1.0\n  hooks:\n  - id: black\n"
            "- repo: local\n  hooks:\n  - id: noop\n    entry: 'true'\n    language: system\n"
            "- repo: meta\n  hooks:\n  - id: identity\n")
    assert pre_commit_repositories(text) == [("https://github.com/psf/black", ("black",)), ("local", ("noop",)),
                                             ("meta", ("identity",))]
    assert pre_commit_repositories("repos: [{repo: x}]") == [("", ())]


# -- setuptools' generated editable finder (editable.py, round r8) --------------------------------

def _editable_finders() -> dict[str, str]:
    """The real finder texts of tests/cases/shell/editable-r8.yaml (its pass rows), by note."""
    data = yaml.safe_load((CASES_DIR / "editable-r8.yaml").read_text())
    return {case["note"]: text for case in data["cases"] if case["want"]["verdict"] == "pass"
            for path, text in case["tree"].items() if path.endswith("/__editable___core_0_1_finder.py")}


def test_a_generated_editable_finder_is_known_by_its_digest() -> None:
    """The digest of the finder setuptools 84.2.1 wrote (`pip install -e .` of a flat layout),
    regenerated from the file: the template of 71.0.0 … 84.2.1; each real finder of the table
    is recognised, its MAPPING's directories returned."""
    from polydeukes.stdlib.shell.editable import FINDER_DIGESTS, digest, generated_finder

    finders = _editable_finders()
    newest = next(text for note, text in finders.items() if "setuptools 84.2.1" in note)
    assert digest(newest) == "e332226b0e45a6608195cff068441688d112b0ae4085abb1dbdb3d4a5e0466da"
    assert FINDER_DIGESTS[digest(newest)] == "71.0.0 - 84.2.1"
    assert len(finders) >= 9 and len({digest(text) for text in finders.values()}) == len(FINDER_DIGESTS)
    for note, text in finders.items():
        directories = generated_finder("__editable___core_0_1_finder", text)
        assert directories is not None and "/home/u/proj/core" in directories, note
    assert generated_finder("__editable___core_0_2_finder", newest) is None  # (another name's)


def test_the_installed_setuptools_writes_a_known_finder() -> None:
    """setuptools' own `_finder_template` (the version installed here, when there is one no
    newer than the digests know) writes a finder `generated_finder` recognises."""
    setuptools = pytest.importorskip("setuptools")
    editable_wheel = pytest.importorskip("setuptools.command.editable_wheel")
    from polydeukes.stdlib.shell.editable import generated_finder

    version = tuple(int(p) for p in setuptools.__version__.split(".")[:2] if p.isdigit())
    if not (64, 0) <= version <= (84, 2):
        pytest.skip(f"setuptools {setuptools.__version__}: outside the versions the digests cover")
    text = editable_wheel._finder_template("__editable__.my-pkg-1.0.finder",
                                           {"my_pkg": "/p/src's \"x\"\\y\u00e9", "ns.a": "/p/ns/a"},
                                           {"ns": []})
    assert generated_finder("__editable___my_pkg_1_0_finder", text) == ["/p/src's \"x\"\\y\u00e9", "/p/ns/a"]


@settings(max_examples=150, deadline=None)
@given(mapping=st.dictionaries(st.text(max_size=8), st.text(max_size=12), max_size=3),
       namespaces=st.dictionaries(st.text(max_size=6), st.lists(st.text(max_size=8), max_size=2), max_size=2),
       at=st.integers(min_value=0), char=st.characters())
def test_a_finder_is_recognised_only_as_written(mapping, namespaces, at, char) -> None:
    """Any values of the constants' shapes (quotes, backslashes, newlines, any character)
    are recognised as setuptools writes them; one character put anywhere outside the three
    values makes the file code."""
    from polydeukes.stdlib.shell.editable import _CONSTANT, generated_finder

    template = next(iter(_editable_finders().values()))
    text = _CONSTANT().sub(lambda m: m.group(1) + m.group(2) + {
        "MAPPING": repr(mapping), "NAMESPACES": repr(namespaces),
        "PATH_PLACEHOLDER": repr("__editable__.core-0.1.finder") + ' + ".__path_hook__"'}[m.group(1)], template)
    assert generated_finder("__editable___core_0_1_finder", text) == list(mapping.values())
    values = [m.span(3) for m in _CONSTANT().finditer(text)]
    at %= len(text) + 1
    if any(start <= at <= end for start, end in values):
        return
    assert generated_finder("__editable___core_0_1_finder", text[:at] + char + text[at:]) is None
