"""The V4A `apply_patch` parser (spec 07 §4.4): every refusal by its message, the change kinds,
and two properties: arbitrary text never raises anything but a refusal, and a patch built from
a known edit reproduces that edit's result."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polydeukes.stdlib.adapters.v4a import PatchRefused, parse_patch

FILES = {
    "src/app.py": "def a():\n    return 1\n\ndef b():\n    return 1\n",
    "notes.txt": "one\ntwo\nthree",          # no trailing newline
    "crlf.txt": "one\r\ntwo\r\nthree\r\n",
}


def read(path: str) -> str | None:
    return FILES.get(path)


def patch(*lines: str) -> str:
    return "\n".join(["*** Begin Patch", *lines, "*** End Patch"]) + "\n"


@pytest.mark.parametrize("text, reason", [
    ("", "the patch does not start with '*** Begin Patch'"),
    ("*** Update File: a\n*** End Patch", "the patch does not start with '*** Begin Patch'"),
    ("*** Begin Patch\n*** Add File: a\n+x\n", "the patch does not end with '*** End Patch'"),
    ("*** Begin Patch", "the patch does not end with '*** End Patch'"),
    (patch(), "the patch names no file to change"),
    (patch("hello", "*** Add File: a", "+x"), "'hello' appears before any hunk header"),
    (patch("*** Add File:   "), "'*** Add File:' names no path"),
    (patch("*** Delete File:"), "'*** Delete File:' names no path"),
    (patch("*** Add File: a", "x"), "'a' has a body line without the '+' prefix"),
    (patch("*** Delete File: gone.txt"), "the patch targets 'gone.txt', which does not exist"),
    (patch("*** Update File: gone.txt", "@@", "-a", "+b"),
     "the patch targets 'gone.txt', which does not exist"),
    (patch("*** Update File: notes.txt", "*** Move to:  ", "@@", "-one", "+1"),
     "'*** Move to:' names no path"),
    (patch("*** Update File: notes.txt", "@@", "-four", "+4"),
     "a hunk of 'notes.txt' does not match the file it updates"),
    (patch("*** Update File: src/app.py", "@@ def c():", "-    return 1", "+    return 2"),
     "a hunk of 'src/app.py' does not match the file it updates"),
    (patch("*** Update File: notes.txt", "@@", "-one", "+1", "*** End of File", " two"),
     "a hunk of 'notes.txt' carries ' two' outside any block"),
    (patch("*** Update File: notes.txt", "@@", "-three", "-two", "+x"),  # order matters
     "a hunk of 'notes.txt' does not match the file it updates"),
])
def test_refusals_name_their_reason(text, reason):
    with pytest.raises(PatchRefused) as refused:
        parse_patch(text, read)
    assert str(refused.value) == reason


def test_add_delete_update_in_patch_order():
    changes = parse_patch(patch(
        "*** Add File: docs/new.md", "+# New", "+", "+text",
        "*** Delete File: notes.txt",
        "*** Update File: src/app.py", "@@ def b():", "-    return 1", "+    return 2",
    ), read)
    assert changes == [
        {"kind": "create", "path": "docs/new.md", "post": "# New\n\ntext\n"},
        {"kind": "delete", "path": "notes.txt", "pre": "one\ntwo\nthree"},
        # the anchor line skips the first, identical `return 1`
        {"kind": "modify", "path": "src/app.py", "pre": FILES["src/app.py"],
         "post": "def a():\n    return 1\n\ndef b():\n    return 2\n"},
    ]


def test_a_move_is_a_delete_then_a_create():
    changes = parse_patch(patch("*** Update File: notes.txt", "*** Move to: archive/notes.txt",
                                "@@", " one", "-two", "+2"), read)
    assert changes == [
        {"kind": "delete", "path": "notes.txt", "pre": "one\ntwo\nthree"},
        {"kind": "create", "path": "archive/notes.txt", "post": "one\n2\nthree"},
    ]


def test_blocks_land_in_order_and_end_of_file_anchors_at_the_end():
    changes = parse_patch(patch(
        "*** Update File: src/app.py",
        "-    return 1", "+    return 10",          # first block: no `@@`, first match
        "@@",
        "-    return 1", "+    return 20",          # found after where the first landed
        "*** End of File",
    ), read)
    assert changes[0]["post"] == "def a():\n    return 10\n\ndef b():\n    return 20\n"
    twice = parse_patch(patch("*** Update File: src/app.py", "@@", "-    return 1", "+    return 10",
                              "@@", "-    return 1", "+    return 20"), read)
    assert twice[0]["post"] == changes[0]["post"]  # the second identical block lands second
    end = parse_patch(patch("*** Update File: notes.txt", "@@", "-three", "+3",
                            "*** End of File"), read)
    assert end[0]["post"] == "one\ntwo\n3"  # no trailing newline before, none after


def test_an_empty_old_block_inserts_at_the_cursor():
    changes = parse_patch(patch("*** Update File: notes.txt", "@@", " one", "@@", "+1.5"), read)
    assert changes[0]["post"] == "one\n1.5\ntwo\nthree"


def test_crlf_patches_and_crlf_files():
    text = patch("*** Environment ID: env-1", "*** Update File: crlf.txt", "@@", " one",
                 "-two", "+2").replace("\n", "\r\n")
    changes = parse_patch("\n\n  " + text + "  \n", read)  # the whole text is trimmed once
    assert changes == [{"kind": "modify", "path": "crlf.txt", "pre": FILES["crlf.txt"],
                        "post": "one\r\n2\r\nthree\r\n"}]


def test_the_reader_decides_absence_and_its_errors_propagate():
    def failing(path: str) -> str | None:
        raise PermissionError(13, "Permission denied", path)

    with pytest.raises(PermissionError):
        parse_patch(patch("*** Delete File: a"), failing)


# -- properties ---------------------------------------------------------------------------------

MARKERS = ["*** Begin Patch", "*** End Patch", "*** Add File: a", "*** Delete File: notes.txt",
           "*** Update File: notes.txt", "*** Update File: src/app.py", "*** Move to: b",
           "*** End of File", "@@", "@@ def b():", "+x", "-one", " two", "-    return 1", "",
           "*** Environment ID: e", "\r"]


@settings(max_examples=400)
@given(st.one_of(
    st.text(),
    st.lists(st.one_of(st.sampled_from(MARKERS), st.text(max_size=8)), max_size=12)
    .map("\n".join),
    st.lists(st.one_of(st.sampled_from(MARKERS), st.text(max_size=8)), max_size=12)
    .map(lambda lines: "\n".join(["*** Begin Patch", *lines, "*** End Patch"])),
))
def test_arbitrary_text_is_parsed_or_refused_never_raised(text):
    try:
        changes = parse_patch(text, read)
    except PatchRefused as refused:
        assert str(refused)
        return
    for change in changes:
        assert change["kind"] in ("create", "modify", "delete") and change["path"]


@st.composite
def edited_files(draw):
    """A file of distinct lines, and non-overlapping edits in order: (start, removed, added,
    context-before). Distinct lines make every block's location unambiguous."""
    count = draw(st.integers(1, 12))
    lines = [f"line {i} {draw(st.sampled_from(['', 'x', 'yy', ' z']))}" for i in range(count)]
    edits, cursor = [], 0
    while cursor < count and draw(st.booleans()):
        start = draw(st.integers(cursor, count - 1))
        context = draw(st.integers(0, start - cursor))
        removed = draw(st.integers(0, count - start))
        if context + removed == 0:
            removed = 1 if start < count else 0
            if removed == 0:
                break
        added = draw(st.lists(st.sampled_from(["new", "added line", "", "  indented"]),
                              max_size=3))
        edits.append((start, removed, added, context))
        cursor = start + removed
    return lines, edits, draw(st.booleans()), draw(st.booleans())


@settings(max_examples=300)
@given(edited_files())
def test_a_patch_built_from_known_edits_reproduces_their_result(case):
    lines, edits, trailing_newline, crlf_patch = case
    pre = "\n".join(lines) + ("\n" if trailing_newline else "")
    expected, body, cursor = [], [], 0
    for start, removed, added, context in edits:
        expected += lines[cursor:start] + added
        body.append("@@")
        body += [" " + line for line in lines[start - context:start]]
        body += ["-" + line for line in lines[start:start + removed]]
        body += ["+" + line for line in added]
        cursor = start + removed
    expected += lines[cursor:]
    text = "\n".join(["*** Begin Patch", "*** Update File: f.txt", *body, "*** End Patch"])
    if crlf_patch:
        text = text.replace("\n", "\r\n")
    changes = parse_patch(text, lambda path: pre if path == "f.txt" else None)
    post = "\n".join(expected) + ("\n" if trailing_newline and expected else "")
    assert changes == [{"kind": "modify", "path": "f.txt", "pre": pre, "post": post}]
