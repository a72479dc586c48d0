"""The git configuration reader of the shell axis (stdlib/shell/gitruns.py) agrees with git.

The oracle is the real `git config --file F --list -z` on the machine: Hypothesis writes
configuration files from the syntax's pieces (section headers old and new, quoted subsections,
keys, values with quotes, escapes, comments and continuation lines), git lists what it reads,
and `parse_config` must read the same keys and values in the same order. A file git refuses
is not compared (git then runs nothing of it), but the reader must still not raise. The tests
skip, saying so, where git is absent.
"""

from __future__ import annotations

import os
import shutil
import subprocess

import pytest
from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st

from polydeukes.stdlib.shell.gitruns import parse_config

GIT = shutil.which("git")

_HEADERS = st.sampled_from(["[core]", "[Core]", "[alias]", "[pager]", '[filter "lfs"]', '[filter "L fs"]',
                            '[diff "a\\"b"]', "[core.sub]", "[credential]", '[x ""]', " [alias] ", "[alias] k = v"])
_KEYS = st.sampled_from(["pager", "Pager", "editor", "x", "a-b", "hooksPath", "helper", "k1", "smudge"])
_VALUE_PIECES = st.sampled_from(["sh", " ", "  ", "\t", "script.sh", "!rm", '"', '\\"', "\\\\", "\\t", "\\n",
                                 "#c", ";c", '"a # b"', "x=y", "-f", "a\\\n b", "'q'", "$1", "é"])
_LINE = st.one_of(
    _HEADERS,
    st.tuples(_KEYS, st.sampled_from([" = ", "=", " =", "= "]), st.lists(_VALUE_PIECES, max_size=6).map("".join))
    .map(lambda t: "\t" + t[0] + t[1] + t[2]),
    _KEYS.map(lambda k: "\t" + k),  # a key alone: true
    st.sampled_from(["", "# comment", "; comment", "\t# indented"]),
)
_FILES = st.lists(_LINE, min_size=1, max_size=10).map(lambda lines: "[core]\n" + "\n".join(lines) + "\n")


def _git_list(path: str) -> list[tuple[str, str]] | None:
    done = subprocess.run([GIT, "config", "--file", path, "--list", "-z"], capture_output=True, timeout=30,
                          env={"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LC_ALL": "C",
                               "GIT_CONFIG_NOSYSTEM": "1", "HOME": os.path.dirname(path)})
    if done.returncode != 0:
        return None
    out = []
    for entry in done.stdout.decode("utf-8", "surrogateescape").split("\0")[:-1]:
        key, _, value = entry.partition("\n")
        out.append((key, value if "\n" in entry else "true"))
    return out


@pytest.mark.skipif(GIT is None, reason="git is not installed: nothing to compare with")
@settings(max_examples=int(os.environ.get("GIT_CONFIG_EXAMPLES", "60")), deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(text=_FILES)
# (found in CI: git counts blanks outside quotes only once the value has text)
@example(text='[core]\n\tpager = "" sh\n')
@example(text='[core]\n\tpager = " " x\n')
def test_config_reader_agrees_with_git(tmp_path, text: str) -> None:
    path = tmp_path / "config"
    path.write_text(text, encoding="utf-8")
    ours = parse_config(text)
    theirs = _git_list(str(path))
    assume(theirs is not None)  # a file git refuses: compared with nothing
    flat = [(key, value) for key, values in ours.items() for value in values]
    # (git lists in file order; ours groups by key, each key's values in file order)
    grouped: dict[str, list[str]] = {}
    for key, value in theirs:
        grouped.setdefault(key, []).append(value)
    assert ours == grouped, (text, flat, theirs)


@settings(max_examples=300, deadline=None)
@given(text=st.text(max_size=300))
def test_config_reader_never_raises(text: str) -> None:
    values = parse_config(text)
    assert all(isinstance(v, list) and all(isinstance(x, str) for x in v) for v in values.values())
