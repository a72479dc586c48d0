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
  pyproject.toml's `[tool.pdm.scripts]`, `[tool.poe.tasks]`, hatch's scripts): a mention in it
  fails closed.

The first of a tool's file names that exists is read (as the tool does), as scripts.py reads a
runner's file (within the scripts' bounds; the content the line gave it when the line writes it
first); one that cannot be read fails closed. Not read: files these
tools include or import from elsewhere, and each tool's own plugins.
"""

from __future__ import annotations

from polydeukes.stdlib.shell.analysis import View, Walk
from polydeukes.stdlib.shell.scripts import FileScript, _read_file

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
    "cargo": (frozenset({"build", "run", "test", "check", "bench", "install", "b", "r", "t", "c", "clippy",
                         "doc", "publish", "package"}), ("build.rs",), "code"),
}
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
    subcommands, names, mode = TOOLS[view.name]
    if subcommands is not None and (not words or words[0].opaque or words[0].text not in subcommands):
        return None
    # `pdm run CMD …`, `hatch run CMD …`: a name that is no script of the project is a command
    # line, run as it is written.
    command = _quoted_line(args[args.index(words[0]) + 1 :]) if view.name in _RUNS_COMMANDS else None
    for name in names:
        text = _read_file(walk, view, name)
        if text is None:
            continue
        if isinstance(text, FileScript):
            return text
        script = FileScript(name, view.name, mode != "code", True, None)
        script.text = text
        script.lines = just_recipes(text) if mode == "recipes" else [] if mode == "text" else None
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
