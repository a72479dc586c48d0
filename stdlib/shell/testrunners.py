"""The files a test runner imports (issue 11, "Reading the working tree, read-only").

`pytest tests/`, `py.test x_test.py`, `python3 -m pytest`, `coverage run -m pytest`: pytest
imports every test file it is given, and every `conftest.py` from the filesystem root down to
each of them (its `confcutdir` stops it at the rootdir; reading above it only reads more). This
layer names those files, read as code by scripts.py (a mention fails closed, as in `python3
tool.py`):

- a file operand (`tests/test_a.py`, `tests/test_a.py::test_x`): the file, and the
  `conftest.py` of its directory and of each directory above it;
- a directory operand, or none (pytest then collects from where it runs): the `conftest.py`
  files above it, and under it every `conftest.py`, `test_*.py` and `*_test.py` in the
  directories pytest recurses into (`disk.Disk.test_files`: bounded, fails closed past
  `disk.TEST_FILES` files or the disk budget);
- a `-p NAME` plugin: `NAME.py` where pytest runs (a module on `sys.path`; one installed
  elsewhere is not followed, as any module).

- what pytest's configuration adds (`_configuration`): `addopts` words as command-line
  words, `testpaths` as operands, `python_files` makes every `*.py` under a directory operand
  a test file; from pytest.ini, .pytest.ini, pyproject.toml, tox.ini and setup.cfg in the
  command's directory and above, `-c FILE` and `-o KEY=VALUE`.

The project's modules the files import are read by the judge's import reading (imports.py,
which knows pytest and coverage as Python); plugins installed as packages are not followed:
docs/security.md lists them as unjudged channels.
"""

from __future__ import annotations

from itertools import islice

from polydeukes.stdlib.shell.analysis import View, Walk
from polydeukes.stdlib.shell.disk import FILE_BYTES, Refused
from polydeukes.stdlib.shell.interpreters import PLUGIN, TEST_PATH, pytest_items
from polydeukes.vm.sre import LazyPattern

_CONFTEST = "conftest.py"


def test_files(walk: Walk, view: View, tests: list[str], plugins: list[str],
               configuration: list[str]) -> list[str] | Refused:
    """The files pytest imports for these operands (none: where it runs), spelled relative to
    the command's directory where they are under it (absolute otherwise), in import order."""
    disk = walk.disk
    cwd = view.cwd
    if disk is None or cwd is None:
        return []  # relative paths under an unknown directory: not followed
    found: list[str] = []
    seen: set[tuple[str, ...]] = set()

    def add(path: tuple[str, ...]) -> None:
        if path not in seen:
            seen.add(path)
            found.append(_spelled(path, cwd))

    configured = _configuration(walk, view, configuration)
    if isinstance(configured, Refused):
        return configured
    added, any_python = configured
    if added:
        # What the configuration adds comes first on pytest's command line (`addopts`), its
        # `testpaths` stand for operands when the command gives none.
        more = pytest_items([_Word(w) for w in added], 0)
        plugins = plugins + [it.text for it in more if it.option == PLUGIN and not it.text.startswith("no:")]
        tests = tests + [it.text for it in more if it.option == TEST_PATH]
    for spelled in tests or ["."]:
        path = walk.absolute(spelled.split("::", 1)[0], cwd)
        if path is None:
            continue
        written = [w for w in _written_named(walk, _WRITTEN_KEY, _is_test_file) if w[: len(path)] == path]
        if written:
            # Files the line writes first (`echo … > tests/test_x.py; pytest tests`): read as
            # the line wrote them (scripts._text), with the conftest.py files above them.
            for w in written:
                if w == path or _is_test_file(w[-1]):
                    for depth in range(len(w)):
                        add(w[:depth] + (_CONFTEST,))
                    add(w)
        if disk.missing_directory(path):
            continue  # pytest stops: no such file or directory (below a missing directory: no lookup)
        resolved = disk.resolve(list(path))
        if isinstance(resolved, Refused):
            return resolved
        kind = disk.kind(resolved)
        if isinstance(kind, Refused):
            return kind
        if kind == "missing":
            continue  # pytest stops: no such file or directory
        directory = path if kind == "dir" else path[:-1]
        for depth in range(len(directory) + 1):
            add(directory[:depth] + (_CONFTEST,))
        if kind != "dir":
            add(path)
            continue
        below = disk.test_files(resolved, any_python=any_python)
        if isinstance(below, Refused):
            return below
        # (as found under the resolved directory; spelled under the operand)
        prefix = len(resolved)
        for file in sorted(below, key=lambda f: (f.count("/"), f)):
            add(path + tuple(file.split("/")[1:][prefix:]))
    for plugin in plugins:
        path = walk.absolute(plugin.replace(".", "/") + ".py", cwd)
        if path is not None:
            add(path)
    return found


class _Word:
    """A word of pytest's configuration, as `pytest_items` reads a command-line word."""

    __slots__ = ("text",)
    opaque = False

    def __init__(self, text: str) -> None:
        self.text = text


_CONFIG_NAMES = ("pytest.ini", ".pytest.ini", "pyproject.toml", "tox.ini", "setup.cfg")
# `key = value` (ini, toml) or `key: value` (setup.cfg), with its indented continuation lines.
_CONFIG_SETTING = LazyPattern(r"(?m)^[ \t]*(addopts|testpaths|python_files)[ \t]*[=:][ \t]*(.*(?:\n[ \t]+\S.*)*)")
_CONFIG_TOKEN = LazyPattern(r"\"([^\"]*)\"|'([^']*)'|([^\s,\[\]\"']+)")


def _configuration(walk: Walk, view: View, given: list[str]) -> tuple[list[str], bool] | Refused:
    """What pytest's configuration adds to its command line: the words of `addopts`, then
    those of `testpaths` (relative to the file's directory), and whether `python_files` is
    set (then any `*.py` file under a directory operand may be collected). Read from `-c FILE`,
    `-o KEY=VALUE`, and every configuration file pytest may pick in the command's directory
    and above it (pytest takes the first it finds; every one is read, which only reads more).
    A file the line writes first is read as written (with content this layer does not
    compute, the command fails closed)."""
    cwd = view.cwd
    disk = walk.disk
    # The directories from the root down to the command's, to the first that is not there
    # (a long script `cd`-ing down a missing tree pays for the existing part only).
    depth = 0
    while depth < len(cwd) and not disk.missing_directory(cwd[: depth + 1]):
        depth += 1
    # (cached per directory; a configuration file the line writes later makes a new entry)
    key = (_CONFIG_KEY, cwd[:depth], len(_written_named(walk, _WRITTEN_CONFIG_KEY, _CONFIG_NAMES.__contains__)))
    found = walk.file_scripts.get(key) if not given else None
    if found is None:
        sources: list[tuple[str, tuple[str, ...] | None]] = [(g[3:], None) for g in given if g.startswith("-c ")]
        sources.extend(("/" + "/".join((*cwd[:d], name)), cwd[:d]) for d in range(depth, -1, -1)
                       for name in _CONFIG_NAMES)
        overrides = "\n".join(g.replace("=", " = ", 1) for g in given if not g.startswith("-c "))
        found = _settings(walk, view, overrides, sources)
        if not given:
            walk.file_scripts[key] = found
    return found


def _settings(walk: Walk, view: View, overrides: str,
              sources: list[tuple[str, tuple[str, ...] | None]]) -> tuple[list[str], bool] | Refused:
    from polydeukes.stdlib.shell.scripts import _text  # (loaded: it called us)

    words: list[str] = []
    paths: list[str] = []
    any_python = False
    for path, directory in [("", None), *sources]:
        text = _text(walk, view, path, FILE_BYTES) if path else overrides
        if isinstance(text, Refused):
            return text
        if not text or "addopts" not in text and "testpaths" not in text and "python_files" not in text:
            continue
        if directory is None:  # `-c FILE`, `-o`: where pytest runs
            directory = walk.absolute(path, view.cwd)[:-1] if path else view.cwd
        for found in _CONFIG_SETTING().finditer(text):
            key, value = found.group(1), found.group(2)
            tokens = [next(g for g in t.groups() if g is not None) for t in _CONFIG_TOKEN().finditer(value)]
            if key == "python_files":
                any_python = True
            elif key == "addopts":
                words.extend(w for token in tokens for w in token.split())
            else:
                paths.extend(t if t.startswith("/") else "/" + "/".join((*directory, t)) for t in tokens)
    return words + paths, any_python


_CONFIG_KEY = "testrunners.configuration"  # (its entries in `Walk.file_scripts`)


def _written_named(walk: Walk, key: str, accept) -> list[tuple[str, ...]]:
    """The files the line has written so far whose name `accept`s (test files, configuration
    files). The line's written files only grow, in order: each is looked at once per analysis
    and `key`, however many pytest commands a long script holds."""
    written = walk.written()
    seen, found = walk.file_scripts.get(key, (0, []))
    if seen < len(written):
        found = found + [w for w in islice(written, seen, None) if w and accept(w[-1])]
        walk.file_scripts[key] = (len(written), found)
    return found


# (their entries in `Walk.file_scripts`, the walk's cache of files read)
_WRITTEN_KEY = "testrunners.written"
_WRITTEN_CONFIG_KEY = "testrunners.written-configuration"


def _is_test_file(name: str) -> bool:
    return name.endswith(".py") and (name == _CONFTEST or name.startswith("test_") or name.endswith("_test.py"))


def _spelled(path: tuple[str, ...], cwd: tuple[str, ...]) -> str:
    if path[: len(cwd)] == cwd and len(path) > len(cwd):
        return "/".join(path[len(cwd) :])
    return "/" + "/".join(path)
