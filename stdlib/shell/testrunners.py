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
- a `-p NAME` plugin: `NAME.py` (or `NAME/__init__.py`) where pytest runs (a module on
  `sys.path`; one installed elsewhere is not followed, as any module); `PYTEST_PLUGINS`'
  names too, and the words of `PYTEST_ADDOPTS` as command-line words (`Walk.environment`).

- what pytest's configuration adds (`_configuration`): `addopts` words as command-line
  words, `testpaths` as operands, `python_files` makes every `*.py` under a directory operand
  a test file; from pytest.ini, .pytest.ini, pyproject.toml, tox.ini and setup.cfg in the
  command's directory and above, `-c FILE` and `-o KEY=VALUE`.

The project's modules the files import are read by the judge's import reading (imports.py,
which knows pytest and coverage as Python); plugins installed as packages are not followed:
docs/security.md lists them as unjudged channels.

The other test runners (round 4) go through the same reading, each by its own rule:
`python3 -m unittest` (`_unittest_files`: test names, or discovery in packages only; nose2 and
green: discovery in every directory, round 5), and the
JavaScript runners `jest`, `vitest`, `mocha`, `node --test`, `bun test`, `deno test`, whose
rules are data (`RUNNERS`: the test file pattern, whether operands filter or name paths, the
configuration files; `_script_files`). Their configuration files that are code are read as
code, and the files a configuration names (setup files) too (`_runner_configuration`). The
collections are bounded as pytest's (`disk.Disk.test_files`). `source_files` serves the
compiled languages (projectfiles.py: `go test`, `cargo test`). docs/shell-axis.md, "Other
test runners", has the table.
"""

from __future__ import annotations

import re
import msgspec

from polydeukes.stdlib.shell.analysis import UNKNOWN_DIRECTORY, View, Walk
from polydeukes.stdlib.shell.disk import FILE_BYTES, Refused
from polydeukes.stdlib.shell.interpreters import (
    CONFIG_FILE, NOSE2, OVERRIDE, PLUGIN, TEST_PATH, TestRun, runner_items,
)
from polydeukes.vm.sre import LazyPattern

_CONFTEST = "conftest.py"


def test_files(walk: Walk, view: View, run: TestRun) -> list[str] | Refused:
    """The files the test runner `run` imports, spelled relative to the command's directory
    where they are under it (absolute otherwise), in import order."""
    disk = walk.disk
    cwd = view.cwd
    if disk is None or cwd is None:
        # (after `cd "$D"` the runner collects the tests and conftest.py of a directory that may
        # lie outside the project: none of its files is known, round r7)
        return Refused(UNKNOWN_DIRECTORY) if disk is not None and view.cwd_glob is None else []
    found: list[str] = []
    seen: set[tuple[str, ...]] = set()

    def add(path: tuple[str, ...]) -> None:
        if path not in seen:
            seen.add(path)
            found.append(_spelled(path, cwd))

    if run.runner == "pytest":
        refused = _pytest_files(walk, view, run, add)
    elif run.runner == "unittest" or run.runner == NOSE2:
        refused = _unittest_files(walk, view, run, add)
    else:
        refused = _script_files(walk, view, run, RUNNERS[run.runner], add)
    return refused if refused is not None else found


def _pytest_files(walk: Walk, view: View, run: TestRun, add) -> Refused | None:
    """pytest's files (the module docstring)."""
    cwd = view.cwd
    tests, plugins = run.paths, run.plugins
    configuration = run.configuration
    words = _environment_words(walk, view)
    if words:
        # `PYTEST_ADDOPTS="-p plug -c x.ini"`: words pytest puts on its command line (round 6)
        more = runner_items("pytest", [_Word(w) for w in words], 0)
        plugins = plugins + [it.text for it in more if it.option == PLUGIN and not it.text.startswith("no:")]
        tests = tests + [it.text for it in more if it.option == TEST_PATH]
        configuration = configuration + [("-c " if it.option in CONFIG_FILE else "") + it.text
                                         for it in more if it.option in CONFIG_FILE or it.option in OVERRIDE]
    plugins = plugins + [name.strip() for name in (walk.environment(view, "PYTEST_PLUGINS") or "").split(",")
                         if name.strip()]
    configured = _configuration(walk, view, configuration)
    if isinstance(configured, Refused):
        return configured
    added, any_python = configured
    if added:
        # What the configuration adds comes first on pytest's command line (`addopts`), its
        # `testpaths` stand for operands when the command gives none.
        more = runner_items("pytest", [_Word(w) for w in added], 0)
        plugins = plugins + [it.text for it in more if it.option == PLUGIN and not it.text.startswith("no:")]
        tests = tests + [it.text for it in more if it.option == TEST_PATH]
    doctests = _doctest_files([*(a.text for a in view.args[view.inner + 1 :] if not a.opaque), *words, *added])
    if "--doctest-modules" in doctests:
        any_python = True  # every module is imported for its docstrings
    for spelled in tests or ["."]:
        glob = _glob(spelled, r".*\.py")
        if glob is not None:
            # `pytest tests/test_*.py`: the files the shell expands it to, which pytest runs
            # whatever their names
            spelled = glob[0]
        path = walk.absolute(spelled.split("::", 1)[0], cwd)
        if path is None:
            continue
        written = [w for w in walk.written_named(_WRITTEN_KEY, _is_test_file) if w[: len(path)] == path]
        if written:
            # Files the line writes first (`echo … > tests/test_x.py; pytest tests`): read as
            # the line wrote them (scripts._text), with the conftest.py files above them.
            for w in written:
                if w == path or _is_test_file(w[-1]):
                    for depth in range(len(w)):
                        add(w[:depth] + (_CONFTEST,))
                    add(w)
        collected = _collected(walk, path, any_python=any_python) if glob is None else _collected(
            walk, path, files=LazyPattern(glob[1]))
        if isinstance(collected, Refused):
            return collected
        if collected is None:
            continue  # pytest stops: no such file or directory
        kind, below = collected
        if kind == "dir":
            # text files pytest runs as doctests (`--doctest-glob`, `test*.txt` by default):
            # their `>>>` lines are Python (red-team round 2, AG)
            texts = _collected(walk, path, files=LazyPattern(doctests[0]))
            if isinstance(texts, Refused):
                return texts
            below = [*below, *(texts[1] if texts is not None else ())]
        directory = path if kind == "dir" else path[:-1]
        for depth in range(len(directory) + 1):
            add(directory[:depth] + (_CONFTEST,))
        if kind != "dir":
            add(path)
        for file in below:
            add(file)
    for plugin in plugins:
        # (a module, or a package: its __init__.py)
        for spelled in (plugin.replace(".", "/") + ".py", plugin.replace(".", "/") + "/__init__.py"):
            path = walk.absolute(spelled, cwd)
            if path is not None:
                add(path)
    return None


def _doctest_files(words: list[str]) -> tuple[str, ...]:
    """A pattern of the paths (relative to a test directory) of the text files pytest collects
    as doctests (its `--doctest-glob` patterns, `test*.txt` without one), and
    `--doctest-modules` when given."""
    globs: list[str] = []
    modules = False
    for k, word in enumerate(words):
        if word.startswith("--doctest-glob="):
            globs.append(word.split("=", 1)[1])
        elif word == "--doctest-glob" and k + 1 < len(words):
            globs.append(words[k + 1])
        elif word == "--doctest-modules":
            modules = True
    if globs:
        import fnmatch  # only a run with `--doctest-glob` needs it

        pattern = "(?:.*/)?(?:" + "|".join(fnmatch.translate(g.rsplit("/", 1)[-1]) for g in globs) + ")"
    else:
        pattern = _DEFAULT_DOCTESTS
    return (pattern, "--doctest-modules") if modules else (pattern,)


# `test*.txt` as `_doctest_files` spells a glob (`fnmatch.translate`, whose output a test
# holds this to): every pytest run without `--doctest-glob` would translate it again.
_DEFAULT_DOCTESTS = r"(?:.*/)?(?:(?s:test.*\.txt)\Z)"


def _environment_words(walk: Walk, view: View) -> list[str]:
    """The words of `PYTEST_ADDOPTS` as the command runs with it (`Walk.environment`), split
    as pytest splits them (`shlex.split`)."""
    value = walk.environment(view, "PYTEST_ADDOPTS")
    if not value or not value.strip():
        return []
    import shlex  # only a pytest run with PYTEST_ADDOPTS needs it

    try:
        return shlex.split(value)
    except ValueError:
        return value.split()  # (pytest refuses it; reading the words only reads more)


def _collected(walk: Walk, path: tuple[str, ...], **rule) -> tuple[str, list[tuple[str, ...]]] | Refused | None:
    """What a runner collects at `path`: ("file", []) for a file, ("dir", the files under it
    that `rule` (`Disk.test_files`'s keywords) collects, spelled under `path`, shallow ones
    first); None when nothing is there. Links are followed (the runners follow them)."""
    disk = walk.disk
    if disk.missing_directory(path):
        return None  # (below a missing directory: no lookup)
    resolved = disk.resolve(list(path))
    if isinstance(resolved, Refused):
        return resolved
    kind = disk.kind(resolved)
    if isinstance(kind, Refused):
        return kind
    if kind == "missing":
        return None
    if kind != "dir":
        return "file", []
    below = disk.test_files(resolved, **rule)
    if isinstance(below, Refused):
        return below
    # (as found under the resolved directory; spelled under `path`)
    prefix = len(resolved)
    return "dir", [path + tuple(file.split("/")[1:][prefix:])
                   for file in sorted(below, key=lambda f: (f.count("/"), f))]


class _Word:
    """A word of pytest's configuration, as `runner_items` reads a command-line word."""

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
    depth = min(disk.first_missing(cwd), len(cwd) + 1) - 1
    # (cached per directory; a configuration file the line writes later makes a new entry)
    key = (_CONFIG_KEY, cwd[:depth], len(walk.written_named(_WRITTEN_CONFIG_KEY, _CONFIG_NAMES.__contains__)))
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


# (`Walk.written_named`'s keys: their entries in `Walk.file_scripts`, the walk's cache of files read)
_WRITTEN_KEY = "testrunners.written"
_WRITTEN_CONFIG_KEY = "testrunners.written-configuration"
_WRITTEN_MODULES_KEY = "testrunners.written-modules"


def _is_test_file(name: str) -> bool:
    return name.endswith(".py") and (name == _CONFTEST or name.startswith("test_") or name.endswith("_test.py"))


def _is_module_file(name: str) -> bool:
    return name.endswith(".py")


def _spelled(path: tuple[str, ...], cwd: tuple[str, ...]) -> str:
    if path[: len(cwd)] == cwd and len(path) > len(cwd):
        return "/".join(path[len(cwd) :])
    return "/" + "/".join(path)


# -- unittest ------------------------------------------------------------------------------------

_INIT = "__init__.py"
# unittest's discovery imports a file only when its name is a module name (`VALID_MODULE_NAME`).
_MODULE_NAME = r"(?=[_A-Za-z]\w*\.py\Z)"
_NO_DIRECTORY = LazyPattern(r"(?!)")  # (unittest enters every package; no name is skipped)


def _unittest_files(walk: Walk, view: View, run: TestRun, add) -> Refused | None:
    """`python3 -m unittest NAME…` imports each name's module (`tests.test_x`, `tests.test_x.Case.
    test_y`: every prefix as a module file or package; `tests/test_x.py`: the file) and the
    packages above it; with no name, or `discover`, it imports from the start directory (`-s`,
    default `.`) every file whose name is a module name matching the pattern (`-p`, default
    `test*.py`; one of unknown value: every module), recursing only into packages (a directory
    holding `__init__.py`, which it imports too: Python 3.11 dropped namespace packages from
    discovery, and before it a directory without one was not entered either)."""
    cwd = view.cwd
    settings = dict(run.settings)
    plugins = run.plugins
    if run.runner == NOSE2:
        configured = _nose2_plugins(walk, view, run)
        if isinstance(configured, Refused):
            return configured
        plugins = plugins + configured
    for plugin in plugins:  # (nose2's `--plugin NAME`: a module imported where it runs)
        for spelled in (plugin.replace(".", "/") + ".py", plugin.replace(".", "/") + "/__init__.py"):
            path = walk.absolute(spelled, cwd)
            if path is not None:
                add(path)
    # (discovery puts its top-level directory, by default the start directory, first on
    # `sys.path`; test names are imported from where it runs)
    top = (settings.get("-t") or settings.get("-s") or ".") if not run.paths else "."
    run.import_root = walk.absolute(top, cwd)
    if run.paths:
        for name in run.paths:
            if "/" in name or name.endswith(".py"):
                path = walk.absolute(name, cwd)  # (unittest turns a path into its module name)
                if path is not None:
                    _add_packages(path[:-1], cwd, add)
                    add(path)
                continue
            parts = [p for p in name.split(".") if p]
            for k in range(1, len(parts) + 1):
                stem = cwd + tuple(parts[:k])
                add(stem + (_INIT,))
                add(stem[:-1] + (stem[-1] + ".py",))
        if run.runner != NOSE2:
            return None
    # (green's and nose2's named directories are discovered too: `green tests`)
    for start in [name if "/" in name else name.replace(".", "/") for name in run.paths] if run.paths else [
            settings.get("-s") or "."]:
        refused = _discovered(walk, view, run, settings, start, add)
        if refused is not None:
            return refused
    return None


# nose2's configuration files where it runs (its `--config` default), and a `plugins` setting
# of their `[unittest]` section: module names, separated by blanks or on continuation lines.
_NOSE2_CONFIGS = ("unittest.cfg", "nose2.cfg")
_NOSE2_PLUGINS = LazyPattern(r"(?m)^[ \t]*plugins[ \t]*[=:][ \t]*(.*(?:\n[ \t]+\S.*)*)")


def _nose2_plugins(walk: Walk, view: View, run: TestRun) -> list[str] | Refused:
    """The plugin modules nose2 loads from its configuration files (`-c FILE`, else
    unittest.cfg and nose2.cfg where it runs; both are read, and the given ones, which only
    reads more). The `[unittest]` section is not told from the others: a `plugins` key in any
    section is read, which only reads more too."""
    from polydeukes.stdlib.shell.scripts import _text  # (loaded: it called us)

    names: list[str] = []
    given = [g[3:] for g in run.configuration if g.startswith("-c ")]
    for spelled in [*given, *_NOSE2_CONFIGS]:
        path = walk.absolute(spelled, view.cwd)
        if path is None:
            continue
        text = _text(walk, view, "/" + "/".join(path), FILE_BYTES)
        if isinstance(text, Refused):
            return text
        if not text or "plugins" not in text:
            continue
        for found in _NOSE2_PLUGINS().finditer(text):
            names.extend(found.group(1).split())
    return names


def _discovered(walk: Walk, view: View, run: TestRun, settings: dict, start: str, add) -> Refused | None:
    """unittest's discovery from the directory `start` (the `_unittest_files` docstring)."""
    path = walk.absolute(start, view.cwd)
    if path is None:
        return None
    rule = discovery_rule(settings.get("-p", "test*.py"), run.runner == NOSE2)
    # Files the line writes first (`echo … > test_x.py; python3 -m unittest`): read as the line
    # wrote them (scripts._text), as pytest's (round 5)
    for w in walk.written_named(_WRITTEN_MODULES_KEY, _is_module_file):
        if w[: len(path)] == path and len(w) > len(path) and rule["files"]().fullmatch("/".join(w[len(path) :])):
            add(w)
    collected = _collected(walk, path, **rule)
    if isinstance(collected, Refused):
        return collected
    if collected is not None and collected[0] == "dir":
        add(path + (_INIT,))  # (a start directory that is a package is imported as one)
        for file in collected[1]:
            add(file)
    return None


def discovery_rule(pattern: str | None, everywhere: bool = False) -> dict:
    """`Disk.test_files`'s keywords for unittest's discovery with the file name `pattern`
    (None: of unknown value, every module): a module name matching it, in packages only."""
    if pattern is None:
        files = LazyPattern(r"(?:[^/]*/)*" + _MODULE_NAME + r".*")
    else:
        import fnmatch  # only a discovery needs it

        files = LazyPattern(r"(?:[^/]*/)*" + _MODULE_NAME + r"(?:" + fnmatch.translate(pattern) + r")")
    return {"files": files, "skip": _NO_DIRECTORY, "packages": not everywhere}


def _add_packages(directory: tuple[str, ...], cwd: tuple[str, ...], add) -> None:
    """The `__init__.py` of each directory from the command's down to `directory`: importing a
    module of a package imports the packages above it."""
    if directory[: len(cwd)] == cwd:
        for depth in range(len(cwd) + 1, len(directory) + 1):
            add(directory[:depth] + (_INIT,))


# -- JavaScript test runners ---------------------------------------------------------------------


class Runner(msgspec.Struct, frozen=True):
    """Where one JavaScript test runner finds the files it runs (a row of RUNNERS)."""

    files: str  # a test file's path, relative to the directory searched (matched in full)
    code: str  # a file of its language: what a directory operand (mocha) or a glob holds
    filters: bool  # its operands are patterns over the files under its root (jest), not paths
    default: str = "."  # the directory searched without a path operand (relative to the root)
    recursive: bool = True  # into subdirectories (mocha: only with `--recursive`)
    configuration: tuple[str, ...] = ()  # configuration files, looked up where it runs and above
    package_key: str = ""  # the key of package.json that holds its configuration


_CONFIG_CODE = ("js", "cjs", "mjs", "ts", "cts", "mts")
RUNNERS: dict[str, Runner] = {
    # testMatch: `**/__tests__/**/*.[jt]s?(x)`, `**/?(*.)+(spec|test).[jt]s?(x)`
    "jest": Runner(files=r"(?:.*/)?__tests__/.*\.[jt]sx?|(?:.*/)?(?:[^/]*\.)?(?:spec|test)+\.[jt]sx?",
                   code=r".*\.[jt]sx?", filters=True,
                   configuration=tuple(f"jest.config.{e}" for e in (*_CONFIG_CODE, "json")), package_key="jest"),
    # include: `**/*.{test,spec}.?(c|m)[jt]s?(x)` (and benchmarks, `vitest bench`)
    "vitest": Runner(files=r"(?:.*/)?[^/]*\.(?:test|spec|bench|benchmark)\.[cm]?[jt]sx?", code=r".*\.[cm]?[jt]sx?",
                     filters=True, configuration=tuple(f"{n}.{e}" for n in ("vitest.config", "vite.config",
                                                                           "vitest.workspace") for e in _CONFIG_CODE)),
    # spec: `./test/*.{js,cjs,mjs}`, not recursive without `--recursive`
    "mocha": Runner(files=r"(?:.*/)?[^/]*\.(?:js|cjs|mjs)", code=r".*\.(?:js|cjs|mjs)", filters=False, default="test",
                    recursive=False,
                    configuration=tuple(f".mocharc.{e}" for e in ("js", "cjs", "mjs", "yaml", "yml", "json", "jsonc")),
                    package_key="mocha"),
    # `**/*.test.?(c|m)js`, `**/*-test.…`, `**/*_test.…`, `**/test-*.…`, `**/test.…`,
    # `**/test/**/*.…` (and TypeScript, with type stripping)
    "node --test": Runner(files=r"(?:.*/)?(?:[^/]*[.\-_]test|test-[^/]*|test)\.[cm]?[jt]s|(?:.*/)?test/.*\.[cm]?[jt]s",
                          code=r".*\.[cm]?[jt]s", filters=False),
    # `*.test.*`, `*_test.*`, `*.spec.*`, `*_spec.*` (js, jsx, ts, tsx); operands filter
    "bun test": Runner(files=r"(?:.*/)?[^/]*[._](?:test|spec)\.[jt]sx?", code=r".*\.[cm]?[jt]sx?", filters=True,
                       configuration=("bunfig.toml",)),
    # `{*_,*.,}test.{ts,tsx,mts,js,mjs,jsx}`
    "deno test": Runner(files=r"(?:.*/)?(?:[^/]*[_.])?test\.(?:ts|tsx|mts|js|mjs|jsx)", code=r".*\.[cm]?[jt]sx?",
                        filters=False, configuration=("deno.json", "deno.jsonc")),
}
_NOT_SEARCHED = LazyPattern(r"node_modules|\.git")  # (the runners' default exclusions)
_GLOB = LazyPattern(r"[*?\[{]")


def _glob(spelled: str, any_file: str) -> tuple[str, str] | None:
    """A glob operand (`test/**/*.js`, expanded by the shell or by the runner) as the directory
    before its first pattern and a pattern of the paths below it that it matches (a `*` may
    cross a `/` here, which only reads more; with a brace or a `**`, which fnmatch does not
    know: every file of the language, `any_file`); None when `spelled` holds no pattern."""
    glob = _GLOB().search(spelled)
    if glob is None:
        return None
    import fnmatch  # only a glob operand needs it

    before = spelled[: glob.start()]
    base, rest = before.rsplit("/", 1) if "/" in before else (".", before)
    rest += spelled[glob.start() :]
    return base or "/", any_file if "{" in rest or "**" in rest else fnmatch.translate(rest)


NAMED_PATHS = 64  # paths one configuration file may name before the runner fails closed


def _script_files(walk: Walk, view: View, run: TestRun, rule: Runner, add) -> Refused | None:
    """A JavaScript runner's files: its configuration files that are code, the files its
    configuration and its loading options name (setup files: read as code), and the test
    files it collects: under its root (where it runs, or the nearest directory above holding
    its configuration) for a runner whose operands filter; under each path operand, or its
    default directory, for one whose operands are paths. A file operand is run as given; a
    directory is searched by the runner's rule; a glob (an operand, or a string of its
    configuration: mocha's `spec`, jest's `testMatch`) has the directory before its first
    pattern searched for the files it matches (`_glob`)."""
    cwd = view.cwd
    settings = dict(run.settings)
    configured = _runner_configuration(walk, view, rule, run)
    if isinstance(configured, Refused):
        return configured
    code, named, root = configured
    for path in code:
        add(path)
    recursive = rule.recursive or "--recursive" in settings
    files = rule.files
    if "--extension" in settings:  # (mocha: the extensions it is told of too)
        extension = settings["--extension"]
        files = r"(?:.*/)?[^/]*" if extension is None else rf"(?:.*/)?[^/]*\.(?:js|cjs|mjs|{re.escape(extension)})"
    searched: list[tuple[tuple[str, ...], str]] = []  # (a directory or file, the files collected there)
    if rule.filters:
        for option in ("--rootDir", "-r", "--root", "--dir", "--roots"):
            if settings.get(option):
                root = walk.absolute(settings[option], cwd) or root
        searched.append((root, files))
    for spelled in (run.paths or ([] if rule.filters else [rule.default])) + named:
        glob = _glob(spelled, rule.code)
        if glob is None:
            path = walk.absolute(spelled, cwd)
            rule_there = files
        else:
            path = walk.absolute(glob[0], cwd)
            rule_there = glob[1]
        if path is not None:
            searched.append((path, rule_there))
    for path, collected_files in searched:
        any_code = collected_files is not files
        collected = _collected(walk, path, files=LazyPattern(collected_files), skip=_NOT_SEARCHED,
                               recursive=recursive or any_code)
        if isinstance(collected, Refused):
            return collected
        if collected is None:
            continue
        kind, below = collected
        if kind == "file":
            add(path)
        for file in below:
            add(file)
    return None


# A quoted string, or a YAML or TOML value, that may name a file.
_NAMED = LazyPattern(r"""(?m)["'`]([^"'`\n]{1,1024})["'`]|^[ \t]*(?:-[ \t]+|[\w.\-]+[ \t]*[:=][ \t]*)([^\s#"'`{\[,][^\s#,]*)""")


def _runner_configuration(walk: Walk, view: View, rule: Runner, run: TestRun
                          ) -> tuple[list[tuple[str, ...]], list[str], tuple[str, ...]] | Refused:
    """The runner's configuration: the configuration files that are code (read as code), the
    paths its configuration names (a file is code the runner loads, `setupFiles`; a directory
    or a glob may hold tests, `roots`, mocha's `spec`: each string that may be a path, relative
    to the file's directory, `<rootDir>/` dropped), and the runner's root: the nearest
    directory at or above the command's (within the project) that holds one of its
    configuration files or package.json, else the command's. Files looked up: `-c FILE`, and
    each configuration file name in the command's directory and above it, within the project."""
    from polydeukes.stdlib.shell.scripts import _text  # (loaded: it called us)

    cwd = view.cwd
    disk = walk.disk
    root_segments = tuple(disk.root_segs)
    top = len(root_segments) if cwd[: len(root_segments)] == root_segments else len(cwd)
    # (a directory known missing holds no configuration: no lookup per name)
    depth = max(top, min(disk.first_missing(cwd, top), len(cwd) + 1) - 1)
    candidates: list[tuple[tuple[str, ...], bool]] = [  # (path, is package.json)
        (walk.absolute(given[3:], cwd), False) for given in run.configuration if given.startswith("-c ")]
    names = rule.configuration + (("package.json",) if rule.package_key else ())
    candidates.extend((cwd[:d] + (name,), name == "package.json") for d in range(depth, top - 1, -1) for name in names)
    code: list[tuple[str, ...]] = []
    named: list[str] = []
    root = cwd
    found_root = False
    for path, package in candidates:
        if path is None:
            continue
        text = _text(walk, view, "/" + "/".join(path), FILE_BYTES)
        if isinstance(text, Refused):
            return text
        if text is None:
            continue
        if not found_root:  # (the nearest: `-c FILE`'s, else the deepest found)
            root, found_root = path[:-1], True
        if package:
            text = _package_configuration(text, rule.package_key)
            if not text:
                continue
        elif path[-1].rsplit(".", 1)[-1] in _CONFIG_CODE:
            code.append(path)
        strings = [m.group(1) or m.group(2) for m in _NAMED().finditer(text)]
        strings = [s.replace("<rootDir>/", "") for s in strings if "://" not in s and not s.startswith(("~", "$"))]
        paths = [s for s in strings if "/" in s or s.endswith(_CODE_SUFFIXES)]
        if len(paths) > NAMED_PATHS:
            return Refused(f"'/{'/'.join(path)}' names more than {NAMED_PATHS} paths")
        # A bare word may name a directory too (mocha's `spec: [checks]`), or be any other
        # value (`"testEnvironment": "node"`): the first `NAMED_PATHS` are looked up.
        paths.extend([s for s in strings if s not in paths and _BARE_WORD().fullmatch(s)][:NAMED_PATHS])
        directory = path[:-1]
        named.extend(s if s.startswith("/") else "/" + "/".join((*directory, s)) for s in paths)
    return code, named, root


_BARE_WORD = LazyPattern(r"[\w.\-]+")
_CODE_SUFFIXES = (".js", ".cjs", ".mjs", ".ts", ".cts", ".mts", ".jsx", ".tsx")


def _package_configuration(text: str, key: str) -> str:
    """The runner's section of package.json, as JSON text ("": none, or not JSON)."""
    import json  # only a runner configured in package.json needs it

    try:
        section = json.loads(text).get(key)
    except (ValueError, AttributeError):
        return ""
    return json.dumps(section) if section else ""


# -- compiled languages (projectfiles.py: `go test`, `go run`, `cargo test`, `cargo run`) ----------


def source_files(walk: Walk, view: View, targets: list[tuple[str, bool]], files: str,
                 skip: str) -> list[str] | Refused:
    """The source files a compiler builds into the program it runs: for each (spelled path,
    recursive) target, the file itself, or the files under the directory whose path matches
    `files` in full (in its subdirectories too if recursive, not entering those `skip`
    names), spelled as `test_files` spells them; bounded as a test runner's collection."""
    cwd = view.cwd
    if walk.disk is None or cwd is None:
        relative = any(spelled[:1] not in ("/", "~", "$") for spelled, _ in targets)
        return Refused(UNKNOWN_DIRECTORY) if relative and walk.disk is not None and view.cwd_glob is None else []
    found: list[str] = []
    seen: set[tuple[str, ...]] = set()
    for spelled, recursive in targets:
        path = walk.absolute(spelled, cwd)
        if path is None:
            continue
        collected = _collected(walk, path, files=LazyPattern(files), skip=LazyPattern(skip), recursive=recursive)
        if isinstance(collected, Refused):
            return collected
        if collected is None:
            continue
        kind, below = collected
        for file in [path] if kind == "file" else below:
            if file not in seen:
                seen.add(file)
                found.append(_spelled(file, cwd))
    return found
