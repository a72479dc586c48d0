"""Programs the line runs by other means than a command word (issue 11 hardening, round 11).

- An unknown program's arguments that name a program are read as a command it may run, in a
  script of 64 KB or more too, where runs of plain lines are otherwise skipped whole.
- The argv lists a program's code runs (`subprocess.run([...])`, `spawnSync(…, [...])`, perl's
  and ruby's `system LIST`) are read back word for word (`imports.argv_lines`), checked against
  Python's own `shlex`, which shares no code with the reader; the reader never raises.

The verdicts themselves are rows of `cases/shell/programs-r11.yaml`.
"""

from __future__ import annotations

import shlex

from hypothesis import given, settings
from hypothesis import strategies as st

from polydeukes.stdlib.shell import judge_shell_mod
from polydeukes.stdlib.shell.imports import argv_lines, compile_lines
from polydeukes.stdlib.shell.tokenizer import PLAIN_RUNS_FROM

ROOT = "/home/u/proj"
HOME = "/home/u"
PROTECTED = ["ci/gate.sh", ".claude/hooks"]
# Plain lines: a name with no effects and plain words, the run the scanner keeps whole.
PLAIN = "\n".join(f"echo step {k} of the plain part" for k in range(PLAIN_RUNS_FROM // 30 + 1))


def _blocks(command: str) -> bool:
    return judge_shell_mod(command, PROTECTED, root=ROOT, home=HOME).broken


def test_a_large_script_is_large_enough_to_keep_plain_runs_whole() -> None:
    assert len(PLAIN) >= PLAIN_RUNS_FROM


def test_an_unknown_wrapper_inside_a_run_of_plain_lines_is_read() -> None:
    line = "runcon u:r:t:s0 find . -delete"
    assert _blocks(line)
    assert _blocks(PLAIN + "\n" + line + "\n" + PLAIN)
    assert _blocks(PLAIN + "\nruncon u:r:t:s0 'find' . -delete\n" + PLAIN)  # (quoted, as the regex allows)


def test_a_run_of_plain_lines_with_a_program_name_that_writes_nothing_passes() -> None:
    assert not _blocks(PLAIN + "\nmycli status find\n" + PLAIN)


# Words an argv may hold: printable text with quotes, backslashes and blanks (no newline:
# a literal spans one line in the languages read).
words = st.text(st.characters(min_codepoint=32, max_codepoint=126), max_size=12)
programs = st.sampled_from(["find", "rm", "git", "sh", "python3", "/usr/bin/env"])


@settings(max_examples=300, deadline=None)
@given(program=programs, rest=st.lists(words, max_size=5))
def test_a_python_argv_list_is_read_word_for_word(program, rest) -> None:
    argv = [program, *rest]
    code = f"import subprocess\nsubprocess.run({argv!r}, check=True)\n"
    assert [shlex.split(line) for line in argv_lines(code)] == [argv]


@settings(max_examples=200, deadline=None)
@given(program=programs, rest=st.lists(words.filter(lambda w: "`" not in w and "$" not in w and "\\" not in w),
                                       max_size=4))
def test_a_node_spawn_list_is_read_word_for_word(program, rest) -> None:
    quoted = ", ".join("`" + w + "`" for w in rest)
    code = f"require('child_process').spawnSync(`{program}`, [{quoted}], {{stdio: 'inherit'}})"
    assert [shlex.split(line) for line in argv_lines(code)] == [[program, *rest]]


@settings(max_examples=200, deadline=None)
@given(program=programs, rest=st.lists(words, min_size=1, max_size=4))
def test_os_execvp_drops_the_repeated_argv0(program, rest) -> None:
    code = f"import os\nos.execvp({program!r}, {[program, *rest]!r})\n"
    assert [shlex.split(line) for line in argv_lines(code)] == [[program, *rest]]


def test_an_element_of_unknown_value_is_a_word_of_unknown_value() -> None:
    assert argv_lines('subprocess.run(["rm", "-rf", target, f"{d}/x"])') == \
        ["'rm' '-rf' \"$ARGV_UNKNOWN\" \"$ARGV_UNKNOWN\""]
    # (a program of unknown name, a one-string call to a shell and a string built by joining
    # pieces are no argv lists)
    assert argv_lines('subprocess.run([sys.executable, "-c", "pass"])') == []
    assert argv_lines('os.system("rm -rf build")') == []
    assert argv_lines('{system("rm build/" $1)}') == []


@settings(max_examples=500, deadline=None)
@given(st.text(max_size=200))
def test_reading_code_for_argv_lists_and_compilers_never_raises(code) -> None:
    for line in argv_lines(code) + argv_lines("subprocess.run([" + code) + compile_lines("compile_dir(" + code):
        assert isinstance(line, str)


def test_compiler_calls_read_as_compileall_lines() -> None:
    assert compile_lines("import compileall; compileall.compile_dir('src', quiet=1)") == \
        ["python3 -m compileall -q 'src'"]
    assert compile_lines("compileall.compile_path()") == ["python3 -m compileall -q '.'"]
    assert compile_lines("compileall.compile_dir(sys.argv[1])") == ['python3 -m compileall -q "$ARGV_UNKNOWN"']


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=200))
def test_reading_code_for_split_lines_kept_lists_and_evaluated_strings_never_raises(code) -> None:
    from polydeukes.stdlib.shell.imports import evaluated_code, list_lines, split_lines

    for text in (code, "subprocess.run(x)\n[" + code, '"' + code + '".split()', "exec('" + code + "')"):
        assert all(isinstance(line, str) for line in split_lines(text) + evaluated_code(text))
        assert all(isinstance(first, str) and isinstance(line, str) for first, line in list_lines(text))


@settings(max_examples=200, deadline=None)
@given(words=st.lists(st.text(st.characters(min_codepoint=33, max_codepoint=126), min_size=1, max_size=8)
                      .filter(lambda w: "'" not in w and '"' not in w and "\\" not in w), min_size=1, max_size=5))
def test_a_split_string_is_read_as_the_words_python_splits_it_into(words) -> None:
    from polydeukes.stdlib.shell.imports import split_lines

    line = " ".join(words)
    assert [text.split() for text in split_lines(f"subprocess.run({line!r}.split())")] == [line.split()]
