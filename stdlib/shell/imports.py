"""Local modules a program imports (issue 11, "Reading the working tree, read-only").

`python3 main.py` reads main.py as code, but main.py's `import tool` runs tool.py, which the
agent may have written beside it: `python3 -c 'import tool'` and `node -e 'require("./x")'`
name no protected path and run one. So a program's code (inline `-c`/`-e` code, a heredoc, a
script file) is searched for the modules it imports from the project, and those are read,
read-only and within bounds, and scanned as code too, transitively:

- Python: `import a.b, c`, `from a.b import x`, `from . import x`, `from .m import x`,
  `__import__("m")`, `importlib.import_module("m")`: `a.py`, `a/__init__.py`, `a/b.py`,
  `a/b/__init__.py` … in the program's directory (a script's own, else where the command runs:
  the first entry of `sys.path`); a relative import in the importing file's directory.
- JavaScript and TypeScript: `require("./x")`, `import … from "./x"`, `import("./x")`,
  `import "./x"` with a path that starts with `./` or `../`, relative to the importing file
  (for inline code, where the command runs), tried as written and with `.js`, `.mjs`, `.cjs`,
  `.ts`, `.mts`, `.cts`, `.jsx`, `.tsx`, `/index.js`, `/index.ts`; a directory's
  `package.json` `main` too (node's `LOAD_AS_DIRECTORY`; round 6), tried with the same suffixes.
- Ruby: `require_relative "x"`, `require "./x"`, `load "x.rb"`; Perl: `require "x.pl"`,
  `do "x.pl"` (a quoted file name).
- Perl modules (round 6): `use Foo::Bar`, `no Foo`, `require Foo::Bar`, `use parent`/`use base
  'Foo'` load `Foo/Bar.pm` from `@INC`: the directories of `-I` and `PERL5LIB` (`search_path`)
  and those the code adds with `use lib LIST` or `push`/`unshift @INC, LIST` (relative to where
  the command runs; `$FindBin::Bin` is the script's directory). `.` is not on `@INC` (perl
  5.26 and later) unless one of those puts it there. A module in none of them is perl's own or
  an installed one: not followed.
- Compiled modules (round 7): a Python extension module (`x.cpython-312-….so`, `x.abi3.so`,
  `x.so`, `x.pyd`), which the import system finds before `x.py`, and a native addon a
  `require("./x.node")` loads, are read as their bytes (`CompiledText`): the judge searches
  them for the protected entries' names.
- Any language: a script file a string in the code names (`exec(open("x.py").read())`,
  `runpy.run_path("x.py")`, `os.system("bash x.sh")`, Perl's or awk's `system("sh x.sh")`),
  where the command runs or beside the importing file: a word that ends in a script's suffix
  (`.py`, `.sh`, `.js` …, `SCRIPT_SUFFIXES`). Such a file is read as code, whatever runs it.
- Python with `PYTHONPATH=DIR` in front of the command (or through `env`): imports are looked
  up in those directories too, and their `sitecustomize.py` and `usercustomize.py`, which
  Python runs at start-up, are read.
- Python's other start-up files (round 5, `startup_code`): the `import` lines of the `.pth`
  files and the sitecustomize of a named venv's site-packages, of `PYTHONUSERBASE`'s, and of
  any start-up file the line writes; read by judgment's `_startup` as modules, but for
  setuptools' generated editable finder, which is data (round r8, `startup_modules`).
- A module the line writes first is read as written (`Walk.written`); one of content not
  computed is `WRITTEN` (the judge fails closed); one the line removed is not the line's.
- A compiled module on disk that Python runs in place of an imported module (round r6,
  `compiled_module`): a `__pycache__` pyc whose header Python accepts for the source, unless
  the source compiled here gives its bytes, and a sourceless `x.pyc`, are reported unreadable.

A module found nowhere (the standard library, an installed package) is not this layer's;
one that cannot be read within bounds is reported so (the judge fails closed). At most
`MODULES` files and `MODULE_BYTES` bytes in all are read per program; past them the rest is
reported as unread too.
"""

from __future__ import annotations

import re

from polydeukes.stdlib.shell.disk import FILE_BYTES, MISSING, PROGRAM_BYTES, Binary, Missing, Refused
from polydeukes.vm.sre import LazyPattern

MODULES = 64  # files read per program
OTHER = "other"  # the language of a program that imports nothing (awk's, sed's)
MODULE_BYTES = 4 * PROGRAM_BYTES  # bytes read per program, all modules together
# The "text" of a module the line writes with content this layer does not compute: the judge
# fails closed as for a script so written (judgment.WRITTEN_SCRIPT).
WRITTEN = Refused("written on this line")

_PYTHON_IMPORT = LazyPattern(
    r"(?:^|[;:\n])[ \t]*(?:from[ \t]+(?P<source>\.*[A-Za-z_][\w.]*|\.+)[ \t]+import[ \t]*"
    r"(?:\((?P<grouped>[^)]*)\)|(?P<names>[\w., \t*]+))"
    r"|import[ \t]+(?P<plain>[A-Za-z_][\w.]*(?:[ \t]+as[ \t]+\w+)?(?:[ \t]*,[ \t]*[A-Za-z_][\w.]*(?:[ \t]+as[ \t]+\w+)?)*))",
    re.MULTILINE)
_PYTHON_DYNAMIC = LazyPattern(r"(?:__import__|import_module)\(\s*['\"]([A-Za-z_][\w.]*)['\"]")
_JS_IMPORT = LazyPattern(
    r"""(?:require|import)\s*\(\s*['"`](\.{1,2}/[^'"`\n]*)['"`]\s*\)|(?:from|import)\s*['"](\.{1,2}/[^'"\n]*)['"]""")
_RUBY_IMPORT = LazyPattern(r"""(?:require_relative)\s*\(?\s*['"]([^'"\n]+)['"]|(?:require|load)\s*\(?\s*['"](\.{1,2}/[^'"\n]+|[^'"\n]+\.rb)['"]""")
# `require 'lib'` of a bare name (no `./`, no `.rb`): a library on $LOAD_PATH.
_JS_BARE = LazyPattern(r"""\brequire\s*\(\s*['"`]([^'"`./][^'"`]*)['"`]""")
_RUBY_BARE = LazyPattern(r"""\brequire\s*\(?\s*['"]([A-Za-z0-9_][A-Za-z0-9_/.-]*)(?<!\.rb)['"]""")
_PERL_IMPORT = LazyPattern(r"""(?:require|do)\s*\(?\s*['"]([^'"\n]+\.p[lm])['"]""")
# `use Foo::Bar`, `no Foo`, `require Foo` (a bareword: a module on @INC), and the modules
# `use parent`/`use base` load (their quoted or `qw` list).
_PERL_MODULE = LazyPattern(r"(?:^|(?<=[;{}\s]))(?:use|no|require)\s+([A-Za-z_]\w*(?:::\w+)*)(?:\s+([^;]*))?")
# `use lib LIST`, `push @INC, LIST`, `unshift(@INC, LIST)`: directories put on @INC.
_PERL_LIB = LazyPattern(r"(?:\buse\s+lib\b|\b(?:push|unshift)\s*\(?\s*@INC\s*,)([^;]*)")
_PERL_STRING = LazyPattern(r"""'([^'\n]*)'|"([^"\n]*)"|\bqw\s*[(\[{<]([^)\]}>]*)[)\]}>]""")
_JS_SUFFIXES = ("", ".js", ".mjs", ".cjs", ".ts", ".mts", ".cts", ".jsx", ".tsx", "/index.js", "/index.ts")


def family(program: str) -> str | None:
    """The language an interpreter's name runs (`python3.12` -> python), or None (another
    program's code, awk's or sed's, imports nothing: `OTHER` reads only the script files its
    strings name)."""
    name = program.rsplit("/", 1)[-1]
    if name.startswith(("python", "pypy", "ipython", "pytest", "py.test", "coverage", "pyinstrument", "mprof",
                            "nose2", "green")):  # (test runners: scripts.py)
        return "python"
    if name in ("node", "nodejs", "deno", "bun", "tsx", "ts-node", "jest", "vitest", "mocha", "_mocha"):
        return "js"
    if name.startswith("ruby"):
        return "ruby"
    if name.startswith("perl"):
        return "perl"
    if name in _SHELL_LIKE:
        return SHELL_LIKE
    return None


# (round 8) Shells of another syntax, whose code runs the files `source FILE` or `. FILE` names
# (`fish -c 'source x'`, `tcsh -c 'source x'`, `pwsh -c '. ./x.ps1'`, `nu -c 'source x.nu'`).
SHELL_LIKE = "shell-like"
_SHELL_LIKE = frozenset({"fish", "csh", "tcsh", "rc", "es", "elvish", "ysh", "nu", "xonsh", "pwsh", "powershell"})
_SOURCED = LazyPattern(r"(?:^|[;&|({\n]|\b(?:and|or|then|else|do|begin)\b)[ \t]*(?:source|\.)[ \t]+['\"]?([^\s;&|)'\"]+)")


# A program file's language by its name, for a file a tool runs whose own name says nothing
# (`nox` runs noxfile.py, `rake` the Rakefile, `eslint` eslint.config.js).
_FILE_FAMILIES = {".py": "python", ".js": "js", ".mjs": "js", ".cjs": "js", ".ts": "js", ".mts": "js",
                  ".cts": "js", ".jsx": "js", ".tsx": "js", ".rb": "ruby", ".gemspec": "ruby",
                  ".pl": "perl", ".pm": "perl", ".fish": SHELL_LIKE, ".csh": SHELL_LIKE, ".tcsh": SHELL_LIKE,
                  ".nu": SHELL_LIKE, ".xsh": SHELL_LIKE, ".ps1": SHELL_LIKE, ".psm1": SHELL_LIKE}
_RUBY_FILES = frozenset({"Rakefile", "rakefile", "Gemfile", "gems.rb", "Guardfile", "Vagrantfile",
                         "Fastfile", "Podfile", "Dangerfile", "Brewfile", "Capfile"})


def file_family(path: str) -> str | None:
    """The language of a program file by its name (`noxfile.py` -> python, `Rakefile` -> ruby),
    or None."""
    name = path.rsplit("/", 1)[-1]
    if name in _RUBY_FILES:
        return "ruby"
    dot = name.rfind(".")
    return _FILE_FAMILIES.get(name[dot:]) if dot > 0 else None


def local_modules(walk, language: str, code: str, base: tuple[str, ...] | None,
                  cwd: tuple[str, ...] | None = None, search_path: tuple[tuple[str, ...], ...] = ()
                  ) -> list[tuple[str, str | Refused, bool]]:
    """The project files `code` imports, transitively: (absolute path, text, named) each, the
    text a `Refused` when the file cannot be read within bounds (or past the bounds of this
    search), `named` true for a script file a string names rather than an import.
    `base` is the program's directory, `cwd` where the command runs (the script files its
    strings name are looked for there too), `search_path` the directories of `PYTHONPATH`
    (Python), of `-I` and `PERL5LIB` (Perl's @INC), of `-I` and `RUBYLIB`, or of `NODE_PATH`. Each file is read once per walk
    (`Walk.read_file`)."""
    disk = walk.disk
    if base is None or disk is None:
        return []
    found: list[tuple[str, str | Refused, bool]] = []
    seen: set[tuple[str, ...]] = set()
    if language == "perl":
        # (@INC is the line's and the code's `use lib`: the program's directory is not on it;
        # a relative `require "x.pl"` is still looked up beside the file, which only reads more)
        inc: list[tuple[str, ...]] = list(search_path)
        modules: list[str] = []
        search_path = ()
    # (a Python program's modules are under its directory: none in a missing one, but for
    # those the line writes there: `mkdir t; cd t; echo … > x.py; python3 -c 'import x'`)
    written = walk.written()
    bases = [b for b in dict.fromkeys((base, *search_path))
             if not (language == "python" and disk.missing_directory(b) and not _written_in(walk, b))]
    queue: list[tuple[str, tuple[str, ...]]] = [(code, b) for b in bases]
    if language == "python":
        # A project file named like a standard-library module (`string.py`, `json/`) shadows
        # it for every module that imports it (pytest, logging, venv …): read them all (W).
        for b in bases:
            shadows = stdlib_shadows(disk, b)
            if isinstance(shadows, Refused):
                found.append(("/" + "/".join(b), shadows, False))
                return found
            if shadows:
                queue.append(("import " + ", ".join(shadows), b))
    queue.extend(("import sitecustomize\nimport usercustomize", b) for b in search_path if b in bases)
    manifests: set[tuple[str, ...]] = set()
    extensions: dict[tuple[str, ...], list[str] | Refused] = {}  # a directory's extension modules
    spent = 0
    while queue:
        text, directory = queue.pop(0)
        imported = _candidates(language, text, directory)
        named = _named_scripts(text, directory, cwd)
        if language == "js":
            # `require("./lib")` of a directory: its package.json's `main` (node's LOAD_AS_DIRECTORY)
            for folder in _js_directories(text, directory):
                if folder in manifests:
                    continue
                manifests.add(folder)
                main = package_main(walk, folder + ("package.json",))
                if isinstance(main, Refused):
                    found.append(("/" + "/".join(folder + ("package.json",)), main, False))
                    return found
                if main is not None:
                    imported.extend(p for p in (_join(folder, main + s) for s in _JS_SUFFIXES) if p)
        if language == "js" and search_path:
            # (round 10) a bare `require("x")` is looked up on NODE_PATH after node_modules
            imported.extend(p for d in search_path for name in _JS_BARE().findall(text)
                            for p in (_join(d, name + suffix) for suffix in _JS_SUFFIXES) if p)
        elif language == "ruby" and search_path:
            # (a bare `require 'evil'` is looked up on $LOAD_PATH: `-I DIR`, `RUBYLIB`)
            imported.extend(d + tuple(f"{name}.rb".split("/")) for d in search_path
                            for name in _RUBY_BARE().findall(text))
        elif language == "perl":
            _perl_search(text, base, cwd, inc, modules)
            imported.extend(d + tuple(m.split("::")[:-1]) + (m.split("::")[-1] + ".pm",)
                            for d in inc for m in modules)
        for path in imported + named:
            if path in seen:
                continue
            seen.add(path)
            spelled = "/" + "/".join(path)
            if len(found) >= MODULES or spent > MODULE_BYTES:
                found.append((spelled, Refused(f"more than {MODULES} modules or {MODULE_BYTES >> 20} MiB to read"), False))
                return found
            # (a directory known missing holds no module: no lookup, as `cd`-ing down a fresh
            # tree and running a program there would otherwise spend one per name)
            if path in written and path not in walk.context.removed:
                # A module the line writes first (`echo … > x.py; python3 -c 'import x'`,
                # `> sitecustomize.py; PYTHONPATH=. python3`): its content is the line's (round 5)
                content = written[path]
                if content is None:
                    found.append((spelled, WRITTEN, path in named and path not in imported))
                    return found
            else:
                content = MISSING if disk.missing_directory(path[:-1]) else walk.read_file(path, PROGRAM_BYTES)
            if language == "python" and path[-1].endswith(".py") and path not in named \
                    and not disk.missing_directory(path[:-1]):
                # (an extension module is found before the source: `x.cpython-311-….so`)
                extension = _extension_module(walk, path, extensions)
                if extension is not None:
                    found.append(extension)
                    if isinstance(extension[1], Refused):
                        return found
                    continue
            if language == "python" and path[-1].endswith(".py") and path not in named \
                    and not isinstance(content, Refused):
                # (a compiled module Python imports in place of the source, or without one)
                compiled = compiled_module(walk, path, not isinstance(content, (Missing, Binary)))
                if compiled is not None:
                    found.append(compiled)
                    return found
            if isinstance(content, Binary) and language == "js" and path[-1].endswith(".node"):
                # (`require("./addon.node")`: a native addon, its names searched)
                content = disk.read_compiled(spelled)
                if not isinstance(content, Missing):
                    found.append((spelled, content, False))
                if isinstance(content, Refused):
                    return found
                continue
            if isinstance(content, (Missing, Binary)):
                continue  # not a module of the project
            found.append((spelled, content, path in named and path not in imported))
            if isinstance(content, str):
                spent += len(content)
                # (a shell's `source` is relative to where it runs, not to the file sourcing)
                queue.append((content, base if language == SHELL_LIKE else path[:-1]))
    return found


# A compiled extension module's names (`importlib.machinery.EXTENSION_SUFFIXES`, of any Python
# version the project may run: `x.cpython-312-x86_64-linux-gnu.so`, `x.abi3.so`, `x.so`, `x.pyd`).
_EXTENSION = LazyPattern(r"[^.]+(?:\.[A-Za-z0-9_-]+)?\.(?:so|pyd)")


def _extension_module(walk, source: tuple[str, ...], listed: dict) -> tuple[str, str | Refused, bool] | None:
    """The extension module Python imports for the source path `source` (`x.py`: `x.*.so` in
    its directory), as (path, its bytes as `CompiledText`, False), None when there is none;
    `listed` keeps each directory's extension modules for the search (one listing each)."""
    directory, stem = source[:-1], source[-1][:-3]
    names = listed.get(directory)
    if names is None:
        pattern = _EXTENSION()
        names = listed[directory] = walk.disk.names_in(directory, lambda name: pattern.fullmatch(name) is not None)
    if isinstance(names, Refused):
        return "/" + "/".join(directory), names, False
    for name in sorted(names):
        if name.split(".", 1)[0] == stem:
            spelled = "/" + "/".join(directory + (name,))
            content = walk.disk.read_compiled(spelled)
            if not isinstance(content, Missing):
                return spelled, content, False
    return None


# -- compiled modules on disk (round r6) ----------------------------------------------------------

# A compiled module's name in `__pycache__`: `x.cpython-311.pyc`, `x.cpython-311.opt-1.pyc`
# (pytest's own caches, `x.cpython-311-pytest-8.0.0.pyc`, are pytest's, not the import system's:
# not read here).
_CACHE_TAG = LazyPattern(r"[a-z]+-\d+(?:\.opt-([12]))?")
_UNCHECKED_HASH, _CHECKED_HASH = 1, 3  # (a pyc header's flags: PEP 552)


def compiled_module(walk, source: tuple[str, ...], present: bool) -> tuple[str, Refused, bool] | None:
    """A compiled module Python may import for the module file `source` whose code is not
    proven to be the source's: (its absolute path, why, False), as `local_modules` reports an
    unreadable module; None when there is none. `present`: the source file is there.

    Python's import system (`SourceFileLoader.get_code`) runs `__pycache__/x.TAG.pyc` in place
    of x.py when its header says so: an unchecked hash (the source is never looked at), a
    checked hash equal to the source's hash, or the source's modification time and size; and
    a sourceless `x.pyc` beside where x.py is not there (`SourcelessFileLoader`). Such a file
    is code this layer reads only by comparing: the source compiled here (`compile`, which runs
    nothing) and marshalled must give the pyc's bytes, which holds for a pyc the same Python
    version wrote of the same source. One that differs fails closed. A pyc of another Python
    version (another magic number) cannot be compiled here to compare, and passes: the judge
    often runs on another Python than the project (pipx, uv tool), and failing closed would
    block every import of a cached module there (docs/shell-axis.md, "Still open"). A header
    that does not match the source (a stale cache) is one Python recompiles over: it does not
    run."""
    directory, stem = source[:-1], source[-1][:-3]
    removed = walk.context.removed
    if not present:
        names = _listed(walk, directory, lambda name: name.endswith(".pyc"))
        if isinstance(names, Refused):
            return "/" + "/".join(directory), names, False
        if stem + ".pyc" in names and directory + (stem + ".pyc",) not in removed:
            return ("/" + "/".join(directory + (stem + ".pyc",)),
                    Refused("a compiled module without its source: its code is not read"), False)
        return None
    cache = directory + ("__pycache__",)
    if cache in removed:
        return None  # (`rm -rf __pycache__` first)
    names = _listed(walk, cache, lambda name: name.endswith(".pyc"))
    if isinstance(names, Refused):
        return "/" + "/".join(cache), names, False
    for name in names:
        if not name.startswith(stem + "."):
            continue
        tag = _CACHE_TAG().fullmatch(name[len(stem) + 1 : -4])
        if tag is None or cache + (name,) in removed:
            continue
        why = _unproven(walk, source, cache + (name,), int(tag.group(1) or 0))
        if why is not None:
            return "/" + "/".join(cache + (name,)), Refused(why), False
    return None


def _listed(walk, directory: tuple[str, ...], accept) -> list[str] | Refused:
    """The names in `directory` that `accept`, listed once per walk (a directory found
    missing holds none, without a lookup)."""
    key = ("imports.compiled", directory)
    names = walk.file_scripts.get(key)
    if names is None:
        names = [] if walk.disk.missing_directory(directory) else walk.disk.names_in(directory, accept)
        walk.file_scripts[key] = names
    return names


def _unproven(walk, source: tuple[str, ...], pyc: tuple[str, ...], optimize: int) -> str | None:
    """Why the compiled module at `pyc` may run other code than `source` (`compiled_module`),
    or None when Python would not use it or it is the source's own compile."""
    import importlib.util  # only a module with a compiled cache loads them
    import marshal

    disk = walk.disk
    data = disk.read_bytes("/" + "/".join(pyc), FILE_BYTES)
    if isinstance(data, Missing):
        return None
    if isinstance(data, Refused):
        return data.reason
    if len(data) < 16 or data[2:4] != b"\r\n":
        return None  # (no pyc: Python ignores it and compiles the source)
    flags = int.from_bytes(data[4:8], "little")
    ours = data[:4] == importlib.util.MAGIC_NUMBER
    text = disk.read_bytes("/" + "/".join(source), PROGRAM_BYTES)
    if not isinstance(text, bytes):
        return None if isinstance(text, Missing) else text.reason
    if flags == 0:
        info = disk.stat("/" + "/".join(source))
        if isinstance(info, Refused):
            return info.reason
        if info is None or int.from_bytes(data[8:12], "little") != int(info.st_mtime) & 0xFFFFFFFF \
                or int.from_bytes(data[12:16], "little") != info.st_size & 0xFFFFFFFF:
            return None  # (stale: recompiled from the source)
    elif flags == _CHECKED_HASH:
        if ours and data[8:16] != importlib.util.source_hash(text):
            return None  # (stale: recompiled from the source)
    elif flags != _UNCHECKED_HASH:
        return None  # (invalid flags: Python compiles the source)
    if not ours:
        return None  # (another version's code: not comparable here, see the docstring)
    import os

    body = data[16:]
    spelled = "/" + "/".join(source)
    # (the name Python compiled it under: the path as imported, the file's real path when a
    # link leads to the project, or a relative one)
    for filename in dict.fromkeys((spelled, os.path.realpath(spelled), source[-1], "./" + source[-1])):
        try:
            code = compile(text, filename, "exec", dont_inherit=True, optimize=optimize)
        except (SyntaxError, ValueError):
            break
        if marshal.dumps(code) == body:
            return None
    return "a compiled module Python runs in place of its source, and its code is not the source's"


# -- start-up files (round 5) -------------------------------------------------------------------

# What Python's `site` module runs at start-up from each site-packages directory: the lines of
# every `.pth` file that begin with `import` (`import os; os.remove(…)` is one such line), and
# then the first `sitecustomize` and `usercustomize` modules on the path (`-S` leaves them all
# out: reading them anyway only reads more).
STARTUP_MODULES = ("sitecustomize.py", "usercustomize.py")
_PTH_IMPORT = LazyPattern(r"(?m)^import[ \t].*$")


def is_startup_file(path: tuple[str, ...]) -> bool:
    """A file Python may run at start-up: a `.pth` file in a `site-packages` (or Debian's
    `dist-packages`) directory, or a sitecustomize / usercustomize module anywhere."""
    name = path[-1]
    return name in STARTUP_MODULES or name.endswith(".pth") and len(path) > 1 and path[-2].endswith("-packages")


def is_compiled(path: tuple[str, ...]) -> bool:
    """A compiled module Python may import in place of a source file: a `.pyc` file, or any
    file under a `__pycache__` directory."""
    return path[-1].endswith(".pyc") or "__pycache__" in path


def written_python(walk) -> tuple[list[tuple[str, ...]], list[tuple[str, ...]], list[tuple[str, ...]]]:
    """The compiled modules (`is_compiled`), the start-up files (`is_startup_file`) and the
    Python source files the line has written so far (the first two: not removed since). The
    line's written files only grow, in order: each is looked at once per analysis, however
    many Python commands a long script holds."""
    seen, compiled, startup, sources = walk.file_scripts.get(_WRITTEN_KEY, (0, [], [], []))
    new = walk.written_since(seen)
    if new:
        compiled = compiled + [w for w in new if w and is_compiled(w)]
        startup = startup + [w for w in new if w and is_startup_file(w)]
        sources = sources + [w for w in new if w and w[-1].endswith(".py")]
        walk.file_scripts[_WRITTEN_KEY] = (seen + len(new), compiled, startup, sources)
    removed = walk.context.removed
    if removed:
        compiled, startup = [w for w in compiled if w not in removed], [w for w in startup if w not in removed]
    return compiled, startup, sources


_WRITTEN_KEY = "imports.written"  # (its entry in `Walk.file_scripts`, the walk's cache of files read)


def site_directories(walk, prefix: tuple[str, ...]) -> list[tuple[str, ...]] | Refused:
    """The site-packages directories of the installation at `prefix` (a venv's directory, or
    `PYTHONUSERBASE`): `lib/python3.N/site-packages`, one per version there."""
    names = walk.disk.names_in(prefix + ("lib",), lambda name: name.startswith(("python", "pypy")))
    if isinstance(names, Refused):
        return names
    return [prefix + ("lib", name, "site-packages") for name in sorted(names)]


def user_site_present(walk, home: tuple[str, ...]) -> bool:
    """Is there a `.local/lib` directory in `home`, which may hold the user site-packages
    (round r7)? One look per line: most lines run where it is not there."""
    key = ("imports.user_site", home)
    present = walk.file_scripts.get(key)
    if present is None:
        # (start-up files the line writes there are read as any such file: `_startup`)
        present = walk.file_scripts[key] = not walk.disk.missing_directory(home + (".local", "lib"))
    return present


_SYSTEM_SITE = LazyPattern(r"(?m)^[ \t]*include-system-site-packages[ \t]*=[ \t]*(.*?)[ \t]*$")


def venv_system_site(config: str) -> bool:
    """Does a venv with this pyvenv.cfg run the system's and the user's site-packages
    (`site.venv`: when `include-system-site-packages` is absent, or its last value is `true`
    in any case)?"""
    values = _SYSTEM_SITE().findall(config)
    return not values or values[-1].lower() == "true"


def startup_code(walk, directory: tuple[str, ...]) -> tuple[str, list[tuple[str, str | Refused]]]:
    """The code Python runs at start-up from the site-packages `directory`: its `.pth` files'
    `import` lines and an import of each start-up module there; and the `.pth` files read, each
    (absolute path, its `import` lines), a `Refused` past the bounds or `WRITTEN` for one the
    line writes with content this layer does not compute."""
    written = walk.written()
    removed = walk.context.removed
    names = set(walk.disk.names_in(directory, lambda name: name.endswith(".pth") or name in STARTUP_MODULES) or ())
    names.update(w[-1] for w in written if w[:-1] == directory and is_startup_file(w) and w not in removed)
    lines: list[str] = []
    files: list[tuple[str, str | Refused]] = []
    for name in sorted(names):
        path = directory + (name,)
        if name in STARTUP_MODULES:
            lines.append("import " + name[:-3])  # (read by `local_modules`, written or not)
            continue
        fresh = path in written and path not in removed
        text = written[path] if fresh else walk.read_file(path, FILE_BYTES)
        if text is None:
            text = WRITTEN if fresh else None
        if isinstance(text, (Missing, Binary)) or text is None:
            continue
        if isinstance(text, str):
            # (only the `import` lines run: the others are directories put on the path, the
            # project's own for an editable install, which mention no file)
            text = "\n".join(m.group(0) for m in _PTH_IMPORT().finditer(text))
            lines.append(text)
        files.append(("/" + "/".join(path), text))
    return "\n".join(lines), files


def startup_modules(walk, code: str, directory: tuple[str, ...], cwd: tuple[str, ...] | None
                    ) -> list[tuple[str, str | Refused, bool]]:
    """The modules the start-up `code` of the site-packages `directory` imports
    (`local_modules`), less setuptools' generated editable finders there (round r8:
    `editable.generated_finder`, read only for a module named `__editable___*_finder.py`):
    data that maps the project's package names to its directories, which names them and
    writes nothing. The modules such a finder imports are still read."""
    modules = local_modules(walk, "python", code, directory, cwd, ())
    folder = "/" + "/".join(directory) + "/"
    kept = []
    for module in modules:
        path, text, named = module
        name = path[len(folder):]
        if type(text) is str and not named and path.startswith(folder) \
                and name.startswith("__editable___") and name.endswith("_finder.py") and "/" not in name:
            from polydeukes.stdlib.shell.editable import generated_finder
            if generated_finder(name[:-3], text) is not None:
                continue
        kept.append(module)
    return kept


def _written_in(walk, directory: tuple[str, ...]) -> bool:
    """Has the line written a Python file below `directory` (a directory found missing)?"""
    return any(w[: len(directory)] == directory for w in written_python(walk)[2])


# Standard-library modules no other module imports (an unknown program's test suite, demos):
# a project's `test/` directory does not shadow anything Python runs on its own.
_NOT_IMPORTED = frozenset({"test", "idlelib", "turtledemo", "this", "antigravity", "__hello__", "__phello__"})
_STDLIB: frozenset[str] | None = None


def stdlib_shadows(disk, directory: tuple[str, ...]) -> list[str] | Refused:
    """The standard-library module names (`sys.stdlib_module_names`) a file or package in
    `directory` shadows when it is first on `sys.path` (`string.py`, `json/`)."""
    global _STDLIB
    if _STDLIB is None:
        import sys

        _STDLIB = frozenset(getattr(sys, "stdlib_module_names", ())) - _NOT_IMPORTED
    names = disk.names_in(directory, lambda name: (name[:-3] if name.endswith(".py") else name) in _STDLIB)
    if isinstance(names, Refused):
        return names
    return sorted({name[:-3] if name.endswith(".py") else name for name in names})


def package_main(walk, manifest: tuple[str, ...]) -> str | Refused | None:
    """The `main` of the package.json at `manifest` (relative to its directory), or None (no
    such file, not JSON, no `main`); a refusal when it cannot be read within bounds."""
    text = walk.read_file(manifest, FILE_BYTES)
    if text is None or isinstance(text, (Missing, Binary)):
        return None
    return text if isinstance(text, Refused) else main_of(text)


def main_of(manifest: str) -> str | None:
    """A package.json's `main`, or None (not JSON, none)."""
    import json  # only a package's directory loads it

    try:
        main = json.loads(manifest).get("main")
    except (ValueError, AttributeError):
        return None  # (node refuses the package: nothing of it runs)
    return main if isinstance(main, str) and main.strip() else None


def _js_directories(text: str, directory: tuple[str, ...]) -> list[tuple[str, ...]]:
    """The directories a JavaScript file's relative imports may name (`require("./lib")`)."""
    out = []
    for m in _JS_IMPORT().finditer(text):
        target = _join(directory, m.group(1) or m.group(2))
        if target:
            out.append(target)
    return out


def _perl_search(text: str, base: tuple[str, ...], cwd: tuple[str, ...] | None,
                 inc: list[tuple[str, ...]], modules: list[str]) -> None:
    """Add to `inc` the directories `text` puts on @INC (`use lib`, `push @INC`), relative to
    where the command runs (`$FindBin::Bin`: the script's directory; another variable: not
    followed), and to `modules` the modules it loads."""
    for m in _PERL_LIB().finditer(text):
        for s in _PERL_STRING().finditer(m.group(1)):
            words = s.group(3).split() if s.group(3) is not None else [s.group(1) if s.group(1) is not None
                                                                      else s.group(2)]
            for word in words:
                word = re.sub(r"\$(?:\{FindBin::(?:Real)?Bin\}|FindBin::(?:Real)?Bin\b)", "/" + "/".join(base), word)
                if "$" in word or "@" in word or not word or (cwd is None and not word.startswith("/")):
                    continue
                path = _join(cwd or (), word)
                if path not in inc:
                    inc.append(path)
    for m in _PERL_MODULE().finditer(text):
        name, rest = m.group(1), m.group(2) or ""
        if name in ("lib", "if"):
            continue
        if name in ("parent", "base"):
            for s in _PERL_STRING().finditer(rest):
                names = s.group(3).split() if s.group(3) is not None else [s.group(1) or s.group(2) or ""]
                modules.extend(n for n in names if re.fullmatch(r"[A-Za-z_]\w*(?:::\w+)*", n) and n not in modules)
            continue
        if name not in modules:
            modules.append(name)


# Suffixes of the script files a string in code may name (read as code wherever they are run).
SCRIPT_SUFFIXES = ("py", "sh", "bash", "zsh", "js", "mjs", "cjs", "ts", "mts", "cts", "rb", "pl", "pm", "php", "lua",
                   "tcl", "awk", "sed", "el", "exp")
_SCRIPT_NAME = LazyPattern(r"(?<![\w./$-])((?:\.{1,2}/|/)?[\w.-]+(?:/[\w.-]+)*\.(?:%s))(?![\w/-])"
                           % "|".join(SCRIPT_SUFFIXES))


# A string a program hands to a shell (round 5): Python's `os.system`/`os.popen`/`subprocess.…(
# "…", shell=True)`/`getoutput`, Node's `exec`/`execSync`, Perl's and Ruby's `system`/`exec`/`qx`,
# (round r8) invoke's and fabric's `c.run`/`c.local`/`c.sudo`, rake's `sh`,
# awk's `system`, PHP's `shell_exec`/`passthru`: the first string argument (one literal), and
# Perl's `system q(…)` / `qx(…)` and backquotes.
_SHELL_CALL = LazyPattern(
    r"""\b(?:system|popen|getoutput|getstatusoutput|check_output|check_call|call|run|Popen|exec|execSync|"""
    r"""shell_exec|passthru|spawnSync|local|sudo|sh)\s*\(?\s*(?:[rbuf]{0,2})(?:"((?:[^"\\\n]|\\.)*)"|'((?:[^'\\\n]|\\.)*)')"""
    r"""(?=\s*[),;\n]|\s*$)"""  # (the whole argument: `"rm c" "i/x"`, joined at run time, is not one)
    r"""|\b(?:system|exec|qx)\s*q[qx]?\s*\(([^)\n]*)\)|\bqx\s*\(([^)\n]*)\)|`([^`\n]+)`""")


def shell_strings(code: str) -> list[str]:
    """The command lines a program's code hands to a shell (`_SHELL_CALL`), as written (a
    string built at run time is not among them); a doit task's `actions` strings (round r8:
    doit runs each through a shell)."""
    out = [next(g for g in m.groups() if g is not None) for m in _SHELL_CALL().finditer(code)]
    if "actions" in code:
        for m in _DOIT_ACTIONS().finditer(code):
            out.extend(m2.group(1) if m2.group(1) is not None else m2.group(2)
                       for m2 in _DOIT_STRING().finditer(m.group(1)))
    return out


# A call that runs a program with an argv of its own, no shell between (round 11): Python's
# `subprocess.run([...])` (`call`, `check_call`, `check_output`, `Popen`), `os.execvp`,
# `os.spawnlp`, …; Node's `spawn`/`spawnSync`/`execFile`/`execFileSync`/`fork`; Perl's and
# Ruby's `system`/`exec`/`spawn` with more than one argument, Ruby's `Open3.capture2` and kin.
_ARGV_CALL = LazyPattern(r"\b(?P<name>run|call|check_call|check_output|Popen|exec[lv]p?e?|spawn[lv]?p?e?|spawnSync"
                         r"|execFile(?:Sync)?|fork|system|exec|capture[23]?e?|popen[23]?e?|pipeline\w*"
                         r"|posix_spawnp?|create_subprocess_exec|open)"
                         r"(?:\s*\(\s*|[ \t]+(?=['\"\[]))")
# One token of an argument list: a string literal (Python's prefixes, Node's template without
# `${`), a bracket, a comma, or anything else up to the next of those (of unknown value).
_ARGV_TOKEN = LazyPattern(r"""\s*(?:(?P<literal>[rRbBuUfF]{0,2}(?:"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*')|`[^`$\\\n]*`)"""
                          r"""|(?P<punct>[\[\],()])|(?P<keyword>\w+\s*=(?!=))|(?P<other>[^\[\],()'"`\n;]+))""")
_OS_EXEC = LazyPattern(r"exec[lv]p?e?|spawn[lv]p?e?|posix_spawnp?")
# (round 11) A string a program splits into an argv (`"find . -delete".split()`,
# `shlex.split("…")`): a command line of its own.
_SPLIT_LINE = LazyPattern(r"""(?:"((?:[^"\\\n]|\\.)*)"|'((?:[^'\\\n]|\\.)*)')\.split\(\s*\)"""
                          r"""|\bshlex\.split\(\s*(?:"((?:[^"\\\n]|\\.)*)"|'((?:[^'\\\n]|\\.)*)')\s*\)""")
# (round 11) Code a program's code runs from a string (Python's `exec`/`eval`, JavaScript's and
# Perl's and Ruby's `eval`): the string is code of the same program.
_EVALUATED = LazyPattern(r"""\b(?:exec|eval)\s*\(\s*[rRuU]?(?:"((?:[^"\\\n]|\\.)*)"|'((?:[^'\\\n]|\\.)*)')\s*[,)]""")
MAX_ARGV_LINES = 64


def argv_lines(code: str) -> list[str]:
    """The command lines of the argv lists a program's code runs (`_ARGV_CALL`), each word
    single-quoted; a word of unknown value (a name, an f-string, `*args`) as `"$ARGV_UNKNOWN"`,
    which the walk takes as a word of unknown value. A list of one literal naming a program
    (`run(["make"])`) is a line too; a call whose first word is unknown is not."""
    out: list[str] = []
    for m in _ARGV_CALL().finditer(code):
        words, listed = _argv_words(code, m.end(), m.group(0).rstrip().endswith("("))
        if not words:
            continue
        if m.group("name") == "open":
            if words[0] not in ("-|", "|-") or len(words) < 2:
                continue  # (perl's `open(F, "-|", LIST)` runs LIST; any other open is a file's)
            words = words[1:]
        elif _OS_EXEC().fullmatch(m.group("name")) and len(words) > 1:
            words = [words[0], *words[2:]]  # `os.execvp("find", ["find", ".", "-delete"])`: argv[0] again
        if words[0] is None or len(words) == 1 and not listed:
            continue  # (one string, not in a list: a shell's command line, `shell_strings`)
        out.append(_command_text(words))
        if len(out) == MAX_ARGV_LINES:
            break
    return out


def list_lines(code: str) -> list[tuple[str, str]]:
    """(round 11) Every list of literals in code that runs programs (`args = ["find", ".",
    "-delete"]; subprocess.run(args)`), as (its first word, the command line `argv_lines`
    would make): the caller keeps those whose first word names a program that writes."""
    out: list[tuple[str, str]] = []
    if _ARGV_CALL().search(code) is None:
        return out
    for m in _LIST_START().finditer(code):
        words, _ = _argv_words(code, m.end(), True)
        if words and words[0]:
            out.append((words[0], _command_text(words)))
            if len(out) == MAX_ARGV_LINES:
                break
    return out


def _command_text(words: list[str | None]) -> str:
    """The command line of an argv: each word single-quoted, one of unknown value (None) as
    `"$ARGV_UNKNOWN"`, which the walk takes as a word of unknown value."""
    return " ".join('"$ARGV_UNKNOWN"' if w is None else "'" + w.replace("'", "'\\''") + "'" for w in words)


_LIST_START = LazyPattern(r"""\[(?=\s*[rRbBuU]?["'`])""")


def split_lines(code: str) -> list[str]:
    """(round 11) The strings code splits into an argv (`_SPLIT_LINE`), as command lines."""
    return _literal_texts(_SPLIT_LINE(), code) if "split(" in code else []


def evaluated_code(code: str) -> list[str]:
    """(round 11) The literal strings code evaluates as code (`exec("…")`, `eval('…')`), with
    their escapes read: `exec("import os; os.system(\\"find . -delete\\")")`."""
    return _literal_texts(_EVALUATED(), code) if "exec" in code or "eval" in code else []


def _literal_texts(pattern: re.Pattern[str], code: str) -> list[str]:
    """The non-empty string literals `pattern` finds in code (its one group that matched), with
    their escapes read; at most `MAX_ARGV_LINES`."""
    out = []
    for m in pattern.finditer(code):
        text = next(g for g in m.groups() if g is not None)
        text = _unescaped(text) if "\\" in text else text
        if text:
            out.append(text)
            if len(out) == MAX_ARGV_LINES:
                break
    return out


def _argv_words(code: str, at: int, parenthesised: bool) -> tuple[list[str | None], bool]:
    """The words of the argument list from `at`, up to the call's end: each element (between
    commas, a list's elements taken in place) that is one string literal, None for any other
    (`"rm ci/" $1`, `os.path.join(…)`, a name); a leading element of other value (`os.P_WAIT`)
    dropped; nothing after a keyword argument or an options object. And whether a list held
    them (`run(["make"])` is an argv of one word, `run("make")` a shell's line)."""
    words: list[str | None] = []
    listed = False
    parts: list[str | None] = []  # the current element's tokens (None: not a literal)
    parens = 0  # nesting of `(` within the current element
    lists = 0
    token = _ARGV_TOKEN()

    def flush() -> None:
        if parts:
            value = parts[0] if len(parts) == 1 else None
            if value is not None or words or lists:
                words.append(value)  # (a positional argument before the first string is dropped)
            parts.clear()

    while at < len(code):
        t = token.match(code, at)
        if t is None or t.end() == at:
            break
        at = t.end()
        literal, punct = t.group("literal"), t.group("punct")
        if parens:
            if punct == "(":
                parens += 1
            elif punct == ")":
                parens -= 1
            parts.append(None)
            continue
        if literal is not None:
            prefix = literal[: len(literal) - len(literal.lstrip("rRbBuUfF"))]
            body = literal[len(prefix) + 1 : -1]
            if "{" in body and ("f" in prefix or "F" in prefix):
                parts.append(None)  # an f-string's value is made at run time
            elif "\\" in body and literal[-1] != "`" and "r" not in prefix and "R" not in prefix:
                parts.append(_unescaped(body))
            else:
                parts.append(body)
        elif punct == "(":
            parens += 1
            parts.append(None)  # (a call's value: `os.path.join(…)`)
        elif punct == ",":
            flush()
        elif punct == "[":
            flush()
            lists += 1
            listed = True
        elif punct == "]":
            flush()
            lists -= 1
            if lists < 0:
                break
        elif punct == ")":
            break  # the call's own `)`
        elif t.group("keyword") is not None:
            break  # `cwd=…`, `shell=True`: the argv is over
        else:
            other = t.group("other").strip()
            if other.startswith("{") or not parenthesised and other.split()[:1] in (["do"], ["end"], ["if"]):
                break
            parts.append(None)
    flush()
    return words, listed


def _unescaped(text: str) -> str | None:
    """A string literal's body with its backslash escapes read (None when one is malformed)."""
    import warnings  # (loaded at start-up already: Python's own import machinery uses it)

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # (an unknown escape, `\P`, is kept as written)
            return text.encode("ascii", "backslashreplace").decode("unicode_escape")
    except UnicodeDecodeError:
        return None


# Python's own compilers called from code (round 11): `compileall.compile_dir(DIR)` writes the
# bytecode of every module below DIR, as `python3 -m compileall DIR` does; `compile_file`,
# `py_compile.compile` one file's; `compile_path()` those of sys.path, the current directory
# first.
_COMPILE_CALL = LazyPattern(r"\b(?P<call>compile_dir|compile_file|py_compile\.compile|compile_path)\s*\(\s*"
                            r"""(?:[rRuU]?(?:"(?P<double>[^"\\\n]*)"|'(?P<single>[^'\\\n]*)')(?=\s*[,)]))?""")


def compile_lines(code: str) -> list[str]:
    """`python3 -m compileall …` lines for the compiler calls of Python code (`_COMPILE_CALL`):
    the directory or file a literal names, `.` for `compile_path()`, else a word of unknown
    value."""
    out: list[str] = []
    if "compile" not in code:
        return out
    for m in _COMPILE_CALL().finditer(code):
        spelled = m.group("double") if m.group("double") is not None else m.group("single")
        if m.group("call") == "compile_path":
            spelled = "."
        word = '"$ARGV_UNKNOWN"' if spelled is None else "'" + (spelled or ".") + "'"
        out.append("python3 -m compileall -q " + word)
        if len(out) == MAX_ARGV_LINES:
            break
    return out


# A doit task's `"actions": [...]` list (dodo.py), and the string literals in it.
_DOIT_ACTIONS = LazyPattern(r"""["']actions["']\s*:\s*\[([^\]]*)\]""")
_DOIT_STRING = LazyPattern(r"""(?<![\w)])\s*(?:[rbuf]{0,2})(?:"((?:[^"\\\n]|\\.)*)"|'((?:[^'\\\n]|\\.)*)')""")


def _named_scripts(text: str, directory: tuple[str, ...], cwd: tuple[str, ...] | None) -> list[tuple[str, ...]]:
    """The script files words of `text` name (`"bash x.sh"`, `open("tools/x.py")`), beside the
    file that names them and where the command runs."""
    out: list[tuple[str, ...]] = []
    for m in _SCRIPT_NAME().finditer(text):
        spelled = m.group(1)
        for place in (directory, cwd) if cwd is not None and cwd != directory else (directory,):
            path = _join(place, spelled)
            if path:
                out.append(path)
    return out


def _candidates(language: str, text: str, directory: tuple[str, ...]) -> list[tuple[str, ...]]:
    """The files an import in `text` may load, in the order tried; those not there are skipped."""
    out: list[tuple[str, ...]] = []
    if language == "python":
        names: list[str] = []
        for m in _PYTHON_IMPORT().finditer(text):
            source, plain = m.group("source"), m.group("plain")
            imported = m.group("grouped") or m.group("names") or ""
            if plain is not None:
                names.extend(part.split()[0] for part in plain.split(","))
            elif source.strip(".") == "":  # `from . import a, b`: modules beside the importer
                names.extend("." + part.split()[0] for part in imported.split(",") if part.split())
            else:
                names.append(source)
                # (`from pkg import mod` may load pkg/mod.py)
                names.extend(f"{source}.{part.split()[0]}" for part in imported.split(",")
                             if part.split() and part.split()[0] != "*")
        names.extend(m.group(1) for m in _PYTHON_DYNAMIC().finditer(text))
        for name in names:
            parts = [p for p in name.lstrip(".").split(".") if p]
            for k in range(1, len(parts) + 1):
                stem = directory + tuple(parts[:k])
                out.append(stem[:-1] + (stem[-1] + ".py",))
                out.append(stem + ("__init__.py",))
    elif language == "js":
        for m in _JS_IMPORT().finditer(text):
            spelled = m.group(1) or m.group(2)
            target = _join(directory, spelled)
            if target:
                out.extend(_join(directory, spelled + suffix) for suffix in _JS_SUFFIXES if target)
    elif language == SHELL_LIKE:
        out.extend(_join(directory, m.group(1)) for m in _SOURCED().finditer(text))
    elif language in ("ruby", "perl"):
        pattern = _RUBY_IMPORT if language == "ruby" else _PERL_IMPORT
        for m in pattern().finditer(text):
            spelled = next(g for g in m.groups() if g is not None)
            if language == "ruby" and not spelled.endswith(".rb"):
                spelled += ".rb"
            out.append(_join(directory, spelled))
    return [path for path in out if path]


# Modules Python has imported before the program's first line (its start-up and `site`'s):
# an `import os` finds them loaded and looks for no file (not so under `-S`).
_STARTED = frozenset({"abc", "builtins", "codecs", "encodings", "genericpath", "io", "marshal", "os", "posix",
                      "posixpath", "site", "stat", "sys", "time", "zipimport"})


def first_import(language: str, code: str, site: bool = True) -> str | None:
    """The first relative file an import or a script name in `code` may load, spelled from where
    it runs (`x.py` of `import x`), or None when it names none (`site`: Python runs `site`,
    so the modules it loads are loaded)."""
    for path in (*_candidates(language, code, ("",)), *_named_scripts(code, ("",), None)):
        if path[:1] != ("",) or len(path) < 2:
            continue  # (absolute: the spelling does not keep the marker)
        if language == "python" and site and (path[1][:-3] if len(path) == 2 else path[1]) in _STARTED:
            continue
        return "/".join(path[1:])
    return None


def _join(directory: tuple[str, ...], spelled: str) -> tuple[str, ...]:
    """`spelled` (relative, or absolute) under `directory`, `.` and `..` resolved."""
    parts = list(directory) if not spelled.startswith("/") else []
    for segment in spelled.split("/"):
        if segment in ("", "."):
            continue
        if segment == "..":
            if parts:
                parts.pop()
            continue
        parts.append(segment)
    return tuple(parts)
