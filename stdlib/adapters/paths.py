"""Paths a host names, as the judge must see them: relative to the project root (spec 07 §4.5).

The judge resolves `fileChange.path` lexically against its working directory, the project root
as `os.getcwd()` spells it (symlinks resolved). A host may spell the same place through another
path: a patch path relative to the call's `cwd`, or an absolute path through a symlinked
directory (macOS's `/tmp` is `/private/tmp`). Judged as spelled, such a path would land outside
every scope and pass; these helpers give it the root's own spelling. Standard library only.
"""

from __future__ import annotations

import os
import posixpath


def _canonical(path: str) -> str:
    """`path` with symlinks in its directory resolved (never its last segment: a symlink that
    is itself the target stays the path the tool writes through)."""
    head, tail = posixpath.split(posixpath.normpath(path))
    try:
        head = os.path.realpath(head, strict=False)
    except (OSError, ValueError):
        return posixpath.normpath(path)
    return posixpath.join(head, tail)


def within(root: str, absolute: str) -> str | None:
    """`absolute` relative to `root` (both absolute), or None when it names the root itself or
    a place outside it. Lexical first, then with the directory's symlinks resolved."""
    for candidate in (posixpath.normpath(absolute), _canonical(absolute)):
        relative = posixpath.relpath(candidate, root)
        if relative != "." and relative != ".." and not relative.startswith("../"):
            return relative
    return None


def rebase(path: str, cwd: str, root: str) -> str | None:
    """A path the host resolves against `cwd` (Codex patch paths), relative to `root`; None when
    it lies outside the project (the caller refuses the whole call)."""
    if not posixpath.isabs(path):
        try:
            cwd = os.path.realpath(cwd)
        except (OSError, ValueError):
            pass
        path = posixpath.join(cwd, path)
    return within(root, path)


def judged_spelling(path: str, root: str) -> str:
    """The spelling under which the judge sees a host's absolute `file_path` inside the project:
    as given when it already lies under the root, the root's own spelling when it reaches the
    project only through a symlink, and as given when it lies outside (out of every scope, by
    design). A relative path is relative to the root already."""
    if not posixpath.isabs(path) or _lexically_inside(path, root):
        return path
    relative = within(root, path)
    return path if relative is None else posixpath.join(root, relative)


def _lexically_inside(path: str, root: str) -> bool:
    relative = posixpath.relpath(posixpath.normpath(path), root)
    return relative != ".." and not relative.startswith("../")
