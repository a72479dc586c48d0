"""Project files a build tool or task runner runs (issue 11, "Reading the working tree, read-only").

`just build` runs the justfile's recipe, `rake` the Rakefile, `invoke`/`nox` their Python task
files, `pip install .` the project's setup.py, `cargo build` its build.rs: code the agent can
write with its Write tool and run with a command that names no protected path. `TOOLS` says,
per program, which invocations run which files of the directory the command runs in, and how
their text is read:

- `recipes`: shell lines (a justfile's recipe bodies), walked one shell each as a makefile's
  recipes are, and the whole file read for mentions;
- `code`: a program (Python, Ruby, Rust): a mention, string fragments joined, fails closed, as
  for a script file an interpreter runs;
- `text`: a configuration that holds command lines in its own syntax (Taskfile.yml, tox.ini,
  pyproject.toml's `[tool.pdm.scripts]`, `[tool.poe.tasks]`, hatch's scripts, Maven's pom.xml):
  a mention in it fails closed;
- `ninja`: build.ninja, whose rules' `command = …` lines are shell lines, walked one shell each;
- `tasks`: a JSON file whose `tasks` (deno.json, `deno task`) or `scripts` (composer.json)
  values are shell lines, walked one shell each (composer's `@`-references and
  `Class::method` callbacks are read for mentions only).

The first of a tool's file names that exists is read (as the tool does), or, for a tool that
reads several (`ALL_FILES`: gradle's build and settings scripts, bazel's BUILD and WORKSPACE
files), every one that exists, as scripts.py reads a runner's file (within the scripts' bounds;
the content the line gave it when the line writes it first); one that cannot be read fails
closed. Files are looked for where the command runs, or, for cmake and meson, in the source
directory the command names (`cmake ..`, `cmake -S src`, `meson setup build src`). Not read:
files these tools include or import from elsewhere (`add_subdirectory`, `subdir()`, gradle's
subprojects, BUILD files of other packages), and each tool's own plugins.

`go test`, `go run` and `cargo test`, `cargo run` compile the project's sources into the
program they run: those files are read as one program (`_go`, `_compiled`; Go follows the
module's own imports), and `go generate` walks its `//go:generate` lines as commands.
"""

from __future__ import annotations

import re

from polydeukes.stdlib.shell.analysis import View, Walk
from polydeukes.stdlib.shell.disk import Refused
from polydeukes.stdlib.shell.scripts import FileScript, _read_file
from polydeukes.vm.sre import LazyPattern

_PYPROJECT = ("pyproject.toml",)
# program -> (subcommands that run the files (None: any invocation), file names, how read)
TOOLS: dict[str, tuple[frozenset[str] | None, tuple[str, ...], str]] = {
    "just": (None, ("justfile", "Justfile", ".justfile"), "recipes"),
    "task": (None, ("Taskfile.yml", "Taskfile.yaml", "taskfile.yml", "taskfile.yaml", "Taskfile.dist.yml",
                    "Taskfile.dist.yaml"), "text"),
    "go-task": (None, ("Taskfile.yml", "Taskfile.yaml", "taskfile.yml", "taskfile.yaml"), "text"),
    "rake": (None, ("Rakefile", "rakefile", "Rakefile.rb", "rakefile.rb"), "code"),
    "invoke": (None, ("tasks.py",), "code"),
    "inv": (None, ("tasks.py",), "code"),
    "nox": (None, ("noxfile.py",), "code"),
    "tox": (None, ("tox.ini", "pyproject.toml", "setup.cfg"), "text"),
    "pdm": (frozenset({"run"}), _PYPROJECT, "text"),
    "poe": (None, _PYPROJECT + ("poe_tasks.toml",), "text"),
    "hatch": (frozenset({"run", "test", "fmt", "build"}), _PYPROJECT + ("hatch.toml",), "text"),
    "go": (frozenset({"test", "run", "generate"}), (), "code"),  # (the Go files of its packages: `_go`)
    "cargo": (frozenset({"build", "run", "test", "check", "bench", "install", "b", "r", "t", "c", "clippy",
                         "doc", "publish", "package"}), ("build.rs",), "code"),
    # Build systems whose build description is code the tool runs at configure or build time
    # (CMake's `execute_process`/`file(REMOVE …)`, meson's `run_command`, Gradle's Groovy or
    # Kotlin, Bazel's Starlark and genrules, SCons' Python, sbt's Scala, mix's Elixir).
    "cmake": (None, ("CMakeLists.txt",), "code"),
    "meson": (None, ("meson.build",), "code"),
    "gradle": (None, ("settings.gradle", "settings.gradle.kts", "build.gradle", "build.gradle.kts"), "code"),
    "bazel": (None, ("MODULE.bazel", "WORKSPACE", "WORKSPACE.bazel", "BUILD.bazel", "BUILD"), "code"),
    "bazelisk": (None, ("MODULE.bazel", "WORKSPACE", "WORKSPACE.bazel", "BUILD.bazel", "BUILD"), "code"),
    "scons": (None, ("SConstruct", "Sconstruct", "sconstruct"), "code"),
    "sbt": (None, ("build.sbt",), "code"),
    "mix": (None, ("mix.exs",), "code"),
    "mvn": (None, ("pom.xml",), "text"),
    "ninja": (None, ("build.ninja",), "ninja"),
    "deno": (frozenset({"task"}), ("deno.json", "deno.jsonc"), "tasks"),
    "composer": (frozenset({"run-script", "run", "test", "install", "update", "require", "remove",
                            "dump-autoload", "create-project"}), ("composer.json",), "tasks"),
}
# Tools that read every one of their files that exists (others read the first).
ALL_FILES = frozenset({"gradle", "bazel", "bazelisk"})
# Options after which the tool runs no project file (`cmake -E rm …` is a command of its own,
# judged by its words; `cmake -P x.cmake` runs that script instead).
_NO_PROJECT = {"cmake": frozenset({"-E", "-P", "--version", "--help", "-h"}),
               "ninja": frozenset({"--version", "-h", "--help"}),
               "meson": frozenset({"--version", "-v", "--help", "-h"})}
# pip's subcommands that build a local project (`pip install .`, `pip install -e .`): its setup.py
PIP = frozenset({"pip", "pip3"})
_PIP_BUILDS = frozenset({"install", "wheel", "download"})


def project_script(walk: Walk, view: View) -> FileScript | None:
    """What `view` (a tool in `TOOLS`, or pip) runs from the project, as a `FileScript`, or
    None when it runs none this layer can name."""
    args = view.args[view.inner + 1 :]
    words = [a for a in args if not a.text.startswith("-")]
    if view.name in PIP:
        return _pip_project(walk, view, args)
    if view.name == "go":
        return _go(walk, view, args)
    subcommands, names, mode = TOOLS[view.name]
    if subcommands is not None and (not words or words[0].opaque or words[0].text not in subcommands):
        return None
    if view.name == "cargo" and words[0].text in _CARGO_RUNS:
        return _compiled(walk, view, "cargo", [(".", True)], r".*\.rs", _CARGO_SKIPPED)
    if any(a.text in _NO_PROJECT.get(view.name, ()) for a in args):
        return None
    directory = _source_directory(view.name, args)
    if directory is None:
        return None  # a source directory of unknown value
    names = tuple(directory + n for n in names)
    # `pdm run CMD …`, `hatch run CMD …`: a name that is no script of the project is a command
    # line, run as it is written.
    command = _quoted_line(args[args.index(words[0]) + 1 :]) if view.name in _RUNS_COMMANDS else None
    found: list[tuple[str, str]] = []
    for name in names:
        text = _read_file(walk, view, name)
        if text is None:
            continue
        if isinstance(text, FileScript):
            return text
        found.append((name, text))
        if view.name not in ALL_FILES:
            break
    if found:
        text = "\n".join(t for _, t in found)
        script = FileScript(" and ".join(n for n, _ in found), view.name, mode != "code", True, None)
        script.text = text
        if len(found) > 1:
            script.parts = found
        if mode == "recipes":
            script.lines = just_recipes(text)
        elif mode == "ninja":
            script.lines = ninja_commands(text)
        elif mode == "tasks":
            script.lines = json_tasks(text, _task_named(view.name, words))
        else:
            script.lines = [] if mode == "text" else None
        if command and script.lines is not None:
            script.lines.append(command)
        return script
    if command:
        script = FileScript(f"the command {view.name} runs", view.name, True, True, None)
        script.text = command
        script.lines = [command]
        return script
    return None


_RUNS_COMMANDS = frozenset({"pdm", "hatch"})


def _as_prefix(spelled: str) -> str:
    """A directory as a prefix for file names (`.` and `./`: none)."""
    spelled = spelled.rstrip("/")
    return "" if spelled in ("", ".") else spelled + "/"


def _source_directory(tool: str, args) -> str | None:
    """Where cmake and meson read their build description, as a prefix for its file names
    (`""`: where the command runs; None: a directory of unknown value). cmake: `-S DIR`, else
    its one operand when that is the source (`cmake ..`; `cmake -B build` names none); meson:
    `setup BUILD [SOURCE]`."""
    if tool == "cmake":
        operands: list = []
        k = 0
        while k < len(args):
            a = args[k]
            if a.text in ("-S", "-B", "-G", "-T", "-A", "-C", "-D", "-U", "--preset", "--build", "--install") \
                    and k + 1 < len(args):
                if a.text == "-S":
                    return None if args[k + 1].opaque else _as_prefix(args[k + 1].text)
                if a.text in ("--build", "--install"):
                    return ""  # the build tree's (its source is where CMakeCache.txt says: the cwd's, mostly)
                k += 2
                continue
            if a.text.startswith("-S") and len(a.text) > 2:
                return _as_prefix(a.text[2:])
            if not a.text.startswith("-"):
                operands.append(a)
            k += 1
        if operands:
            return None if operands[-1].opaque else _as_prefix(operands[-1].text)
        return ""
    if tool == "meson":
        words = [a for a in args if not a.text.startswith("-")]
        if words and words[0].text == "setup":
            words = words[1:]
        if len(words) >= 2:
            return None if words[1].opaque else _as_prefix(words[1].text)
        return ""
    return ""


def ninja_commands(text: str) -> list[str]:
    """The shell lines of build.ninja: every rule's `command = …` (and `rspfile_content`'s
    neighbour `command` only), with ninja's `$$` as `$`, `$ ` as a blank, `$:` as `:` and
    its variables (`$in`, `${out}`) as values of unknown value (`${NINJA}`)."""
    out: list[str] = []
    lines = text.split("\n")
    k = 0
    while k < len(lines):
        line = lines[k]
        k += 1
        while line.endswith("$") and not line.endswith("$$") and k < len(lines):
            line = line[:-1] + lines[k].lstrip()  # `$` at the end continues the line
            k += 1
        stripped = line.strip()
        if not stripped.startswith("command") or "=" not in stripped:
            continue
        key, _, value = stripped.partition("=")
        if key.strip() != "command":
            continue
        out.append(_ninja_unescaped(value.strip()))
    return out


def _ninja_unescaped(value: str) -> str:
    out: list[str] = []
    i = 0
    n = len(value)
    while i < n:
        c = value[i]
        if c != "$" or i + 1 >= n:
            out.append(c)
            i += 1
            continue
        following = value[i + 1]
        if following in "$ :":
            out.append(following)
            i += 2
        elif following == "{":
            end = value.find("}", i)
            out.append("${NINJA}")
            i = n if end < 0 else end + 1
        else:
            j = i + 1
            while j < n and (value[j].isalnum() or value[j] in "_-"):
                j += 1
            out.append("${NINJA}")
            i = j
    return "".join(out)


def _task_named(tool: str, words) -> str | None:
    """The task or script a call runs by name (`deno task NAME`, `composer run-script NAME`,
    `composer test`), or None when it runs others (`composer install`'s event scripts: all
    are walked) or the name is of unknown value."""
    if not words:
        return None
    first = words[0].text
    if tool == "deno" or first in ("run-script", "run"):
        return words[1].text if len(words) > 1 and not words[1].opaque else None
    return first if first == "test" else None


def json_tasks(text: str, named: str | None = None) -> list[str]:
    """The shell lines of deno.json's `tasks` (a task may be `{"command": …}`) and
    composer.json's `scripts` (a script may be a list of lines): of the task `named` and those
    it depends on, else of all; composer's `Class::method` callbacks and `@php`/`@composer`
    lines are not shell. A file that is not a JSON object gives none (its text is still read
    for mentions)."""
    import json

    try:
        data = json.loads(_without_comments(text))
    except ValueError:
        return []
    if not isinstance(data, dict):
        return []
    out: list[str] = []
    for key in ("tasks", "scripts"):
        table = data.get(key)
        if not isinstance(table, dict):
            continue
        # A named task runs itself and the tasks it depends on (deno's `dependencies`,
        # composer's `@name` references); a name the file lacks runs none of them.
        names = list(table) if named is None else [named]
        seen: set[str] = set()
        while names:
            name = names.pop()
            if name in seen or name not in table:
                continue
            seen.add(name)
            value = table[name]
            if isinstance(value, dict):
                dependencies = value.get("dependencies")
                if isinstance(dependencies, list):
                    names.extend(d for d in dependencies if isinstance(d, str))
                value = value.get("command")
            for line in value if isinstance(value, list) else [value]:
                if not isinstance(line, str):
                    continue
                if line.startswith("@") and not line.startswith(("@php", "@putenv", "@composer")):
                    names.append(line[1:].split()[0] if line[1:].split() else "")
                elif not line.startswith("@") and "::" not in line:
                    out.append(line)
    return out


def _without_comments(text: str) -> str:
    """Whole-line `//` comments dropped (a .jsonc file's; enough for the common file)."""
    return "\n".join(line for line in text.split("\n") if not line.lstrip().startswith("//"))


def _quoted_line(words) -> str | None:
    """Words as a shell line that gives them back (None: a word of unknown value)."""
    if not words or any(a.opaque for a in words):
        return None
    return " ".join("'" + a.text.replace("'", "'\\''") + "'" for a in words)


def _pip_project(walk: Walk, view: View, args) -> FileScript | None:
    """`pip install .`, `pip install -e ./lib`, `pip wheel .`: the local project's setup.py."""
    if not args or args[0].opaque or args[0].text not in _PIP_BUILDS:
        return None
    for a in args[1:]:
        t = a.text
        if a.opaque or not (t == "." or t.startswith(("./", "../", "/")) or t == ".."):
            continue
        spelled = t.rstrip("/") + "/setup.py"
        text = _read_file(walk, view, spelled)
        if isinstance(text, FileScript):
            return text
        if text is not None:
            script = FileScript(spelled, view.name, False, True, None)
            script.text = text
            return script
    return None


def just_recipes(text: str) -> list[str]:
    """The shell lines of a justfile's recipes: the indented lines after a recipe's header,
    without the `@`/`-` prefixes, `{{…}}` interpolations as values of unknown value
    (`${JUST}`), a line ending in a backslash joined with the next."""
    out: list[str] = []
    in_recipe = False
    pending = ""
    for line in text.split("\n"):
        if line[:1] in (" ", "\t"):
            if not in_recipe or not line.strip():
                continue
            body = line.strip()
            if not pending:
                body = body.lstrip("@-")
            body = _interpolated(body)
            if body.endswith("\\"):
                pending += body[:-1] + " "
                continue
            out.append(pending + body)
            pending = ""
            continue
        stripped = line.strip()
        # A recipe header: `name args: deps` (not an assignment `x := …`, a setting, a comment).
        in_recipe = bool(stripped) and not stripped.startswith(("#", "set ", "export ", "alias ", "import ", "mod ")) \
            and ":" in stripped and ":=" not in stripped
    if pending:
        out.append(pending)
    return out


def _interpolated(line: str) -> str:
    out: list[str] = []
    k = 0
    while True:
        start = line.find("{{", k)
        if start < 0:
            out.append(line[k:])
            return "".join(out)
        end = line.find("}}", start + 2)
        if end < 0:
            out.append(line[k:])
            return "".join(out)
        out.append(line[k:start] + "${JUST}")
        k = end + 2


# -- compiled languages ----------------------------------------------------------------------------

# cargo's subcommands that build the package's code and run it (`cargo test` runs its tests, its
# binaries' unit tests, doc tests): every `.rs` file under the directory (a workspace's members
# too), not `target/` (what it built) nor hidden directories; build.rs among them.
_CARGO_RUNS = frozenset({"run", "r", "test", "t", "bench"})
_CARGO_SKIPPED = r"\..*|target"
# The go tool ignores files and directories whose name begins with `.` or `_`, and `testdata`.
_GO_SKIPPED = r"[._].*|testdata"
_GO_FILES = r"(?:.*/)?[^./_][^/]*\.go"
# `go` flags that take the next word as their value (`-run X`; `-flag=X` is one word).
_GO_VALUES = frozenset({
    "-run", "-bench", "-benchtime", "-count", "-timeout", "-cpu", "-parallel", "-tags", "-o", "-coverprofile",
    "-covermode", "-coverpkg", "-exec", "-ldflags", "-gcflags", "-asmflags", "-gccgoflags", "-mod", "-modfile",
    "-p", "-C", "-vet", "-shuffle", "-blockprofile", "-blockprofilerate", "-cpuprofile", "-memprofile",
    "-memprofilerate", "-mutexprofile", "-mutexprofilefraction", "-outputdir", "-trace", "-fuzz", "-fuzztime",
    "-fuzzminimizetime", "-list", "-skip", "-overlay", "-pkgdir", "-toolexec", "-buildmode", "-compiler",
    "-installsuffix", "-pgo", "-buildvcs", "-failfast", "-coverpkg", "-reldir",
})


def _go(walk: Walk, view: View, args) -> FileScript | None:
    """`go test [packages]`, `go run package|files`, `go generate [packages]`: the Go files of
    the packages named (`./...`: the directory and every one below it; none: the directory it
    runs in; an import path or a standard package: not the project's, not read). `go test` and
    `go run` compile them into the program they run: read as code. `go generate` runs the
    command of each `//go:generate` line in them: walked as a shell line each, in the
    package's directory (its `$GOFILE`, `$GOPACKAGE` … are of unknown value)."""
    if not args or args[0].opaque or args[0].text not in TOOLS["go"][0]:
        return None
    subcommand = args[0].text
    targets: list[tuple[str, bool]] = []
    directory = ""  # (`-C DIR`: the go tool changes to it first)
    k = 1
    while k < len(args):
        a = args[k]
        t = a.text
        if t in ("-args", "--"):
            break  # (the test binary's or the program's own arguments)
        if t.startswith("-"):
            if a.opaque:
                return None  # which words are packages is unknown
            option, eq, value = t.lstrip("-").partition("=")
            if "-" + option in _GO_VALUES and not eq and k + 1 < len(args):
                k += 1
                value = args[k].text
                if args[k].opaque and option == "C":
                    return None
            if option == "C":
                directory = value.rstrip("/") + "/"
            k += 1
            continue
        if a.opaque or a.pattern is not None:
            return None  # a package of unknown name: not followed
        if t.endswith(".go"):
            targets.append((directory + t, False))  # (`go run main.go util.go`: the files are the package)
        elif subcommand == "run" and targets:
            break  # the program's arguments
        elif t == "..." or t.endswith("/..."):
            targets.append((directory + (t[:-3].rstrip("/") or "."), True))
        elif t.startswith((".", "/")):
            targets.append((directory + t if not t.startswith("/") else t, False))
        if subcommand == "run" and not t.endswith(".go"):
            break  # `go run ./cmd/x args…`: one package, then its arguments
        k += 1
    if not targets:
        targets = [(directory or ".", False)]
    if subcommand != "generate":
        return _go_program(walk, view, targets)
    from polydeukes.stdlib.shell.testrunners import source_files

    files = source_files(walk, view, targets, _GO_FILES, _GO_SKIPPED)
    if isinstance(files, Refused):
        return _refused("its Go files", "go", files.reason)
    lines: list[str] = []
    for spelled in files:
        text = _read_file(walk, view, spelled)
        if isinstance(text, FileScript):
            return text
        directory = spelled.rsplit("/", 1)[0] if "/" in spelled else "."
        for line in (text or "").split("\n"):
            if line.startswith("//go:generate "):
                command = line[len("//go:generate "):].strip()
                lines.append(command if directory == "." else f"cd {_quoted(directory)} && {command}")
    if not lines:
        return None
    script = FileScript("the //go:generate lines of " + (files[0] if len(files) == 1 else "its Go files"), "go",
                        True, True, None)
    script.text = "\n".join(lines)
    script.lines = lines
    return script


_GO_MODULE = LazyPattern(r"(?m)^module[ \t]+\"?([^\s\"]+)")
GO_PACKAGES = 64  # packages of the module read for one go command, following its imports


def _go_program(walk: Walk, view: View, targets: list[tuple[str, bool]]) -> FileScript | None:
    """The Go files `go test`/`go run` compile: the packages named, and the packages of the
    same module their files import (`"example.com/m/pkg/x"` under go.mod's `module
    example.com/m`: `pkg/x` beside go.mod), transitively, at most `GO_PACKAGES`; the
    standard library's and other modules' packages are not the project's files."""
    module = _go_module(walk, view)
    seen = {spelled for spelled, _ in targets}
    while True:
        script = _compiled(walk, view, "go", targets, _GO_FILES, _GO_SKIPPED)
        if module is None or script is None or script.text is None:
            return script
        name, root = module
        imported = [(root.rstrip("/") or ".") + (found.group(1) or "") for found in
                    LazyPattern(r"\"" + re.escape(name) + r"(/[^\"\s]*)?\"")().finditer(script.text)]
        more = [(p, False) for p in dict.fromkeys(imported) if p not in seen]
        if not more:
            return script
        if len(seen) + len(more) > GO_PACKAGES:
            return _refused("its Go packages", "go", f"more than {GO_PACKAGES} packages of the module to read")
        seen.update(p for p, _ in more)
        targets = targets + more


def _go_module(walk: Walk, view: View) -> tuple[str, str] | None:
    """The module path go.mod declares, and go.mod's directory spelled from the command's
    (`../../`), looked up from the command's directory to the project root."""
    cwd = view.cwd
    disk = walk.disk
    if cwd is None or disk is None:
        return None
    root = len(disk.root_segs) if cwd[: len(disk.root_segs)] == tuple(disk.root_segs) else len(cwd)
    for up in range(len(cwd) - root + 1):
        spelled = "../" * up
        text = _read_file(walk, view, spelled + "go.mod")
        if isinstance(text, str):
            found = _GO_MODULE().search(text)
            return (found.group(1), spelled) if found else None
    return None


def _compiled(walk: Walk, view: View, runner: str, targets: list[tuple[str, bool]], files: str,
              skip: str) -> FileScript | None:
    """The source files a compiler builds and runs (testrunners.source_files), read together
    as a program: a mention in any fails closed, as in a script an interpreter runs."""
    from polydeukes.stdlib.shell.scripts import _read_program
    from polydeukes.stdlib.shell.testrunners import source_files

    found = source_files(walk, view, targets, files, skip)
    if isinstance(found, Refused):
        return _refused("its source files", runner, found.reason)
    if not found:
        return None
    script = FileScript(found[0], runner, False, True, ())
    script.paths = found
    return _read_program(walk, view, script)


def _refused(shown: str, runner: str, why: str) -> FileScript:
    script = FileScript(shown, runner, False, True, ())
    script.refused = why
    return script


def _quoted(word: str) -> str:
    return "'" + word.replace("'", "'\\''") + "'"
