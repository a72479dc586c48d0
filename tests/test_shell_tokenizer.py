"""The shell tokenizer against the one it replaced (tests/shell_tokenizer_oracle.py).

The tokenizer reads most text in regex steps (`_STEP`: runs of plain words, quoted and
expanding words, simple redirects, each with the control operator after it) and hands the rest
to its general reading. The oracle is the previous tokenizer, which read every token through
that general reading: for every text both must return equal Scripts, word for word, offset for
offset, flag for flag.
"""

from __future__ import annotations

import re

import shell_tokenizer_oracle as oracle
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from polydeukes.stdlib.shell import tokenizer
from polydeukes.stdlib.shell.tokenizer import plain_lines_pattern, scan, tokenize

# Pieces of shell text, weighted towards what the steps read (plain words, quotes, `$NAME`,
# globs, redirects with fd digits, control operators) and what they must hand back (`$(`, `${`,
# backticks, escapes and continuations, heredocs with `<<-` and quoted delimiters, herestrings,
# process substitution, extglob groups, CR and CRLF, comments, unclosed quotes, other
# whitespace), so that every boundary between the two readings is crossed.
_PIECES = st.sampled_from([
    "a", "b1", "-x", "--flag=", "src/", "x.py", "k=v", "7", "42", "2", "\u0663", "\u00b2", "é", "z)", "(", ")", "#", "#c", "a#b",
    " ", " ", " ", "  ", "\t", "\n", "\n", "\r\n", "\r", "\x0b", "\x0c", "\u00a0", "\u3000", "\x00",
    ";", ";;", "&&", "||", "|", "|&", "&", ";&",
    ">", ">>", "<", "<>", ">|", ">&", "<&", "&>", "&>>", "2>", "2>&1", "12>", "0<", "<<<", "<(", ">(",
    "<<EOF\n", "<<-EOF\n", "<<'EOF'\n", "<<\"EOF\"\n", "<<\\EOF\n", "\tEOF\n", "EOF\n", "EOF",
    "'", '"', "'a b'", "'x'", "'$v'", '"a b"', '"$f"', '"${f}"', '"$(ls)"', '"`x`"', '"a\\"b"', "'a\"b'", "\"a'b\"",
    "$", "$x", "${x}", "${x", "$(", "$(ls)", "$((1+2))", "$'a\\nb'", "$'\\q'", '$"x"', "`", "`ls`",
    "\\", "\\\n", "\\\r\n", "\\ ", "\\$",
    "*", "?", "[", "]", "{", "}", "{a,b}", "*.py", "?(a|b)", "*(x)", "@(a)", "+(b)", "!(c)",
    "cat ", "echo ", "rm -rf ", "bash -c ", "for f in ", "; do ", "; done",
])
SHELLISH = st.lists(_PIECES, max_size=40).map("".join)
ANY_TEXT = st.one_of(SHELLISH, SHELLISH, st.text(max_size=80))

PROPERTY = settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@PROPERTY
@given(ANY_TEXT)
@example("cd build && make -j4 all\necho \"building $TARGET\" >> build.log")
@example("grep -rn 'TODO' src/ | sort | uniq -c > todo.txt\npython3 -m pytest -q 2>&1 | tee t.log")
@example("for f in src/*.py; do ruff check \"$f\"; done\ncat > out.md <<'EOF'\n# $HOME\nEOF\n")
@example("a 2>x 12>y 2<z a2>w x 2>\"$f\" ${x}y \"$(echo \")\")\" 'a\"b' a\x0bb\t\tc")
@example("a \u0663>x b \u00b2>y")  # digits other than ASCII's are no fd number
def test_the_tokenizer_reads_every_text_as_the_oracle_does(text: str) -> None:
    assert tokenize(text) == oracle.tokenize(text)


# Plain lines (`PlainRun`) are found at every line start, including after heredoc bodies.
_PLAIN_LINES = plain_lines_pattern(["rm", "cp", "tee"])
_ORACLE_PLAIN_LINES = oracle.plain_lines_pattern(["rm", "cp", "tee"])
_LINES = st.lists(st.one_of(st.sampled_from(["ls -la", "echo hi 'x'", "  cat a b", "# note", "rm -f x",
                                             "cp a b", "cat <<EOF", "EOF", "x=$(ls)", "", "a && b"]),
                            SHELLISH), max_size=8)


@PROPERTY
@given(_LINES, st.sampled_from(["\n", "\r\n"]))
def test_runs_of_plain_lines_are_found_as_the_oracle_finds_them(lines: list[str], newline: str) -> None:
    text = newline.join(lines)
    assert scan(text, _PLAIN_LINES) == oracle.scan(text, _ORACLE_PLAIN_LINES)


def test_a_run_takes_the_ascii_characters_of_plain_words_and_the_space() -> None:
    """`_RUN_CHAR` is listed by hand: it must be `_PLAIN_CHAR` or a space, less `#`, for every
    ASCII character, and hold nothing else (other characters are left to the word steps)."""
    run_char = re.compile(tokenizer._RUN_CHAR)
    plain_char = re.compile(tokenizer._PLAIN_CHAR)
    for code in range(0x110000):
        c = chr(code)
        expected = c == " " or (c != "#" and c.isascii() and plain_char.fullmatch(c) is not None)
        if (run_char.fullmatch(c) is not None) != expected:
            raise AssertionError(f"U+{code:04X}")


def test_every_group_of_the_step_has_a_kind_and_an_end() -> None:
    groups = tokenizer._STEP().groups
    assert len(tokenizer._STEP_KIND) == len(tokenizer._STEP_END) == groups + 1
    ends = tokenizer._STEP().match("a && b").lastindex, tokenizer._STEP().match("'a' |& b").lastindex
    assert [tokenizer._STEP_END[k] for k in ends] == ["&&", "|"]
