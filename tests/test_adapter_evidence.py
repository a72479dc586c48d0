"""Virtual post-states and pre-state reading (spec 07 §2.3, §3; the original's
virtual-post-state and notebook-evidence tests), path rebasing (spec 07 §4.5)."""

from __future__ import annotations

import json
import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polydeukes.stdlib.adapters import evidence, paths
from polydeukes.stdlib.adapters.claude_code import file_change, notebook_change
from polydeukes.stdlib.adapters.runner import PreSpawnFailure
from polydeukes.vm.safeio import UnsafeFile


# -- Edit, MultiEdit, Write ---------------------------------------------------------------------

def test_write_returns_its_content_even_without_a_pre_state(tmp_path):
    change = file_change("Write", {"file_path": str(tmp_path / "new.txt"), "content": "x\n"},
                         str(tmp_path))
    assert change == {"kind": "create", "path": str(tmp_path / "new.txt"), "post": "x\n"}
    (tmp_path / "old.txt").write_text("a")
    change = file_change("Write", {"file_path": str(tmp_path / "old.txt"), "content": "b"},
                         str(tmp_path))
    assert change == {"kind": "modify", "path": str(tmp_path / "old.txt"), "pre": "a", "post": "b"}


def test_a_relative_path_is_read_from_the_working_directory_the_root(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "old.txt").write_text("a")
    change = file_change("Write", {"file_path": "old.txt", "content": "b"}, str(tmp_path))
    assert change == {"kind": "modify", "path": "old.txt", "pre": "a", "post": "b"}


def test_write_without_string_content_proves_nothing(tmp_path):
    assert file_change("Write", {"file_path": "a.txt", "content": 3}, str(tmp_path)) is None


@pytest.mark.parametrize("pre, edit, post", [
    ("a a a", {"old_string": "a", "new_string": "b", "replace_all": True}, "b b b"),
    ("a b", {"old_string": "a", "new_string": "$&$1x"}, "$&$1x b"),   # literal, no patterns
    ("a b", {"old_string": "a", "new_string": "c", "replace_all": False}, "c b"),
    ("a a", {"old_string": "a", "new_string": "c"}, None),              # ambiguous
    ("a b", {"old_string": "z", "new_string": "c"}, None),              # absent
    ("a b", {"old_string": "", "new_string": "c"}, None),               # empty old
    ("a b", {"old_string": "a", "new_string": "a"}, None),              # no change
    ("a b", {"old_string": "a", "new_string": "c", "replace_all": "yes"}, None),
    ("a b", {"old_string": "a", "new_string": "c", "replace_all": None}, None),
    ("a b", {"old_string": "a", "new_string": 5}, None),
    (None, {"old_string": "a", "new_string": "c"}, None),               # Edit needs a file
])
def test_edit_rules(pre, edit, post):
    assert evidence.edit_post(pre, edit) == post


@pytest.mark.parametrize("pre, edits, post", [
    ("a", [{"old_string": "a", "new_string": "b"}, {"old_string": "b", "new_string": "c"}], "c"),
    (None, [{"old_string": "", "new_string": "new\n"}, {"old_string": "new", "new_string": "x"}],
     "x\n"),
    (None, [{"old_string": "", "new_string": "only\n"}], "only\n"),
    ("a b", [{"old_string": "a", "new_string": "x"}, {"old_string": "zz", "new_string": "y"},
             {"old_string": "b", "new_string": "z"}], None),          # a failing middle edit
    ("a", [{"old_string": "", "new_string": "x"}], None),              # empty old on a file
    (None, [{"old_string": "a", "new_string": "x"}], None),            # creation must seed
    (None, [{"old_string": "", "new_string": "x"}, {"old_string": "", "new_string": "y"}], None),
    ("a", [], None),
    ("a", ["not an edit"], None),
])
def test_multi_edit_is_sequential_and_all_or_nothing(pre, edits, post):
    assert evidence.multi_edit_post(pre, {"edits": edits}) == post


def test_bash_and_unknown_tools_carry_no_evidence(tmp_path):
    assert file_change("Bash", {"command": "echo > a"}, str(tmp_path)) is None
    assert file_change("Read", {"file_path": "a"}, str(tmp_path)) is None


def _replace_by_scanning(text: str, old: str, new: str, replace_all: bool) -> str | None:
    """Oracle: find the non-overlapping occurrences left to right by hand; no str.replace/count."""
    spots, i = [], 0
    while (found := text.find(old, i)) != -1:
        spots.append(found)
        i = found + len(old)
    if not spots or (len(spots) > 1 and not replace_all):
        return None
    out, last = [], 0
    for spot in spots:
        out.append(text[last:spot] + new)
        last = spot + len(old)
    return "".join(out) + text[last:]


TEXT = st.text(alphabet="ab\n$&", max_size=20)


@settings(max_examples=300)
@given(pre=TEXT, old=TEXT.filter(bool), new=TEXT, replace_all=st.booleans())
def test_edit_equals_python_str_replace(pre, old, new, replace_all):
    got = evidence.edit_post(pre, {"old_string": old, "new_string": new,
                                   "replace_all": replace_all})
    if old == new:
        assert got is None
        return
    assert got == _replace_by_scanning(pre, old, new, replace_all)
    if got is not None:
        assert got == (pre.replace(old, new) if replace_all else pre.replace(old, new, 1))


@settings(max_examples=200)
@given(pre=st.one_of(st.none(), TEXT),
       edits=st.lists(st.fixed_dictionaries({"old_string": TEXT, "new_string": TEXT,
                                             "replace_all": st.booleans()}), min_size=1,
                      max_size=4))
def test_multi_edit_folds_the_edit_rules(pre, edits):
    expected = pre
    rest = edits
    if pre is None:
        expected = edits[0]["new_string"] if edits[0]["old_string"] == "" else None
        rest = edits[1:]
    for edit in rest:
        if expected is None:
            break
        if edit["old_string"] == "" or edit["old_string"] == edit["new_string"]:
            expected = None
        else:
            expected = _replace_by_scanning(expected, edit["old_string"], edit["new_string"],
                                            edit["replace_all"])
    assert evidence.multi_edit_post(pre, {"edits": edits}) == expected


# -- NotebookEdit -------------------------------------------------------------------------------

NOTEBOOK = {"cells": [
    {"id": "c1", "cell_type": "code", "source": ["x = 1\n", "y = 2\n"]},
    {"id": "c2", "cell_type": "markdown", "source": "# title"},
    {"id": "c3", "cell_type": "code", "source": 7},
], "metadata": {}, "nbformat": 4}


@pytest.mark.parametrize("args, change", [
    ({"cell_id": "c1", "new_source": "z", "edit_mode": "replace"},
     {"kind": "modify", "pre": "x = 1\ny = 2\n", "post": "z"}),
    ({"cell_id": "c2", "new_source": "# new"},  # absent mode is replace; string source
     {"kind": "modify", "pre": "# title", "post": "# new"}),
    ({"new_source": "w", "edit_mode": "insert", "cell_type": "code"},
     {"kind": "modify", "pre": "", "post": "w"}),
    ({"cell_id": "c1", "new_source": "w", "edit_mode": "insert", "cell_type": "code"},
     {"kind": "modify", "pre": "", "post": "w"}),
    ({"cell_id": "c1", "new_source": "ignored", "edit_mode": "delete"},
     {"kind": "modify", "pre": "x = 1\ny = 2\n", "post": ""}),
    ({"cell_id": "nope", "new_source": "z"}, None),                       # unknown cell
    ({"cell_id": "c1", "new_source": "z", "edit_mode": "append"}, None),  # unknown mode
    ({"cell_id": "c1"}, None),                                            # no new_source
    ({"new_source": "w", "edit_mode": "insert"}, None),                   # insert needs a type
    ({"cell_id": "c3", "new_source": "z"}, None),                         # non-text source
    ({"new_source": "z"}, None),                                          # no cell_id
])
def test_notebook_evidence_is_cell_level(tmp_path, args, change):
    notebook = tmp_path / "nb.ipynb"
    notebook.write_text(json.dumps(NOTEBOOK))
    got = notebook_change({"notebook_path": str(notebook), **args}, str(tmp_path))
    assert got == (None if change is None else {**change, "path": str(notebook)})


def test_a_missing_or_broken_notebook_proves_nothing(tmp_path):
    args = {"notebook_path": str(tmp_path / "nb.ipynb"), "cell_id": "c1", "new_source": "z"}
    assert notebook_change(args, str(tmp_path)) is None
    (tmp_path / "nb.ipynb").write_text("{not json")
    assert notebook_change(args, str(tmp_path)) is None
    (tmp_path / "nb.ipynb").write_text('{"cells": {}}')
    assert notebook_change(args, str(tmp_path)) is None


# -- pre-states ---------------------------------------------------------------------------------

def test_absence_is_none_and_everything_else_unreadable_is_named(tmp_path):
    assert evidence.read_text(str(tmp_path / "missing")) is None
    os.mkfifo(tmp_path / "fifo")
    (tmp_path / "dir").mkdir()
    (tmp_path / "zero").symlink_to("/dev/zero")
    (tmp_path / "big").write_bytes(b"x" * 11)
    for name, reason in [("fifo", "is a FIFO"), ("dir", "is a directory"),
                         ("zero", "is a character device")]:
        with pytest.raises(evidence.Unreadable, match=reason):
            evidence.read_text(str(tmp_path / name))
    with pytest.raises(evidence.Unreadable, match="larger than 10 bytes"):
        evidence.read_text(str(tmp_path / "big"), limit=10)
    with pytest.raises(PreSpawnFailure, match=r"^the pre-state of the target could not be read "
                                              r"\('.*/fifo' is a FIFO, not a regular file\)$"):
        evidence.pre_state(str(tmp_path / "fifo"))


def test_invalid_utf8_is_replaced_as_the_hosts_read_it(tmp_path):
    (tmp_path / "bin").write_bytes(b"a\xffb")
    assert evidence.read_text(str(tmp_path / "bin")) == "a\ufffdb"


def test_unsafe_file_is_what_safeio_raises():
    assert issubclass(UnsafeFile, OSError)


# -- paths --------------------------------------------------------------------------------------

def test_rebase_from_the_calls_cwd(tmp_path):
    root = str(tmp_path)
    (tmp_path / "src").mkdir()
    assert paths.rebase("a.py", str(tmp_path / "src"), root) == "src/a.py"
    assert paths.rebase("../README.md", str(tmp_path / "src"), root) == "README.md"
    assert paths.rebase(str(tmp_path / "x" / "y"), "/elsewhere", root) == "x/y"
    assert paths.rebase("../../outside", str(tmp_path / "src"), root) is None
    assert paths.rebase(".", root, root) is None  # the root itself is not a file
    assert paths.rebase("/etc/passwd", root, root) is None


def test_a_symlinked_spelling_of_the_project_is_rebased(tmp_path):
    root = tmp_path / "real"
    (root / "src").mkdir(parents=True)
    alias = tmp_path / "alias"
    alias.symlink_to(root)
    assert paths.rebase("a.py", str(alias / "src"), str(root)) == "src/a.py"
    assert paths.rebase(str(alias / "src" / "a.py"), "/", str(root)) == "src/a.py"
    assert paths.judged_spelling(str(alias / "src" / "a.py"), str(root)) == str(root / "src" / "a.py")
    assert paths.judged_spelling(str(root / "src" / "a.py"), str(root)) == str(root / "src" / "a.py")
    assert paths.judged_spelling("src/a.py", str(root)) == "src/a.py"
    assert paths.judged_spelling("/etc/hosts", str(root)) == "/etc/hosts"
