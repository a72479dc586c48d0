"""The symbolic links a git diff creates, read as git itself makes them (issue 11, round 8).

`patch_text_links` (disk.py) reads where each link a diff creates leads, joined to the link's
directory: the judge counts that place as written (`git apply link.diff` with `l -> ci`). The
oracle is git: a link is made and committed in a scratch repository, `git diff` writes the
diff (so the text is git's, not ours), and `git apply` of it in a fresh repository makes the
link whose target `os.readlink` gives. No code of the analyzer is shared with the oracle.
"""

from __future__ import annotations

import os
import pathlib
import shutil
import subprocess

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from polydeukes.stdlib.shell.disk import patch_text_links

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")

_GIT = ["git", "-c", "user.name=t", "-c", "user.email=t@t", "-c", "core.symlinks=true"]
_SEGMENT = st.text("abcxyz-_.", min_size=1, max_size=4).filter(lambda s: s not in (".", ".."))
_LINK = st.lists(_SEGMENT, min_size=1, max_size=3).map("/".join)
_TARGET = st.lists(st.one_of(_SEGMENT, st.just("..")), min_size=1, max_size=4).map("/".join)


def _git(cwd: pathlib.Path, *args: str, text: str | None = None) -> str:
    done = subprocess.run([*_GIT, *args], cwd=cwd, input=text, capture_output=True, text=True, check=True)
    return done.stdout


def _diff_creating(scratch: pathlib.Path, link: str, target: str) -> str:
    """git's own diff of a commit that adds the link."""
    made = scratch / "made"
    made.mkdir()
    _git(made, "init", "-q")
    _git(made, "commit", "-q", "--allow-empty", "-m", "root")
    (made / link).parent.mkdir(parents=True, exist_ok=True)
    os.symlink(target, made / link)
    _git(made, "add", "-A")
    _git(made, "commit", "-q", "-m", "link")
    return _git(made, "diff", "HEAD~1", "HEAD")


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(link=_LINK, target=_TARGET)
def test_links_read_where_git_apply_makes_them(tmp_path_factory, link: str, target: str) -> None:
    scratch = tmp_path_factory.mktemp("patch-links")
    diff = _diff_creating(scratch, link, target)
    applied = scratch / "applied"
    applied.mkdir()
    _git(applied, "init", "-q")
    _git(applied, "apply", text=diff)
    made = os.readlink(applied / link)
    directory = os.path.dirname(link)
    assert patch_text_links(diff) == [os.path.join(directory, made) if directory else made]


def test_a_diff_without_links_has_none() -> None:
    diff = ("diff --git a/x b/x\nnew file mode 100644\n--- /dev/null\n+++ b/x\n@@ -0,0 +1 @@\n"
            "+ci\n")
    assert patch_text_links(diff) == []


def test_a_mode_change_to_a_link_counts() -> None:
    diff = ("diff --git a/d/l b/d/l\nold mode 100644\nnew mode 120000\n--- a/d/l\n+++ b/d/l\n"
            "@@ -1 +1 @@\n-text\n+../ci\n\\ No newline at end of file\n")
    assert patch_text_links(diff) == ["d/../ci"]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.one_of(st.sampled_from(["diff --git a/l b/l\n", "diff --git l\n", "new file mode 120000\n",
                                            "new mode 120000\n", "+x\n", "+++ b/l\n", "-y\n", "\n", " b/", "+"]),
                          st.text(max_size=5)), max_size=40).map("".join))
def test_never_raises_on_arbitrary_text(text: str) -> None:
    found = patch_text_links(text)
    assert all(isinstance(path, str) for path in found)
