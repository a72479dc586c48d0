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

from polydeukes.stdlib.shell.analysis import EXEC_OPTION_PROGRAMS, UNKNOWN_DIRECTORY, View, Walk
from polydeukes.stdlib.shell.disk import Refused
from polydeukes.stdlib.shell.expansion import Arg
from polydeukes.stdlib.shell.scripts import FileScript, _read_file
from polydeukes.vm.sre import LazyPattern

_PYPROJECT = ("pyproject.toml",)
_TASKFILES = ("Taskfile.yml", "Taskfile.yaml", "taskfile.yml", "taskfile.yaml", "Taskfile.dist.yml",
              "Taskfile.dist.yaml", "taskfile.dist.yml", "taskfile.dist.yaml")
# program -> (subcommands that run the files (None: any invocation), file names, how read)
TOOLS: dict[str, tuple[frozenset[str] | None, tuple[str, ...], str]] = {
    "just": (None, ("justfile", "Justfile", ".justfile"), "recipes"),
    "task": (None, _TASKFILES, "commands"),
    "go-task": (None, _TASKFILES, "commands"),
    "rake": (None, ("Rakefile", "rakefile", "Rakefile.rb", "rakefile.rb"), "code"),
    "invoke": (None, ("tasks.py", "tasks/__init__.py"), "code"),
    "inv": (None, ("tasks.py", "tasks/__init__.py"), "code"),
    "nox": (None, ("noxfile.py",), "code"),
    "tox": (None, ("tox.ini", "setup.cfg", "pyproject.toml", "tox.toml"), "commands"),
    "pdm": (frozenset({"run"}), _PYPROJECT, "commands"),
    "poe": (None, _PYPROJECT + ("poe_tasks.toml",), "commands"),
    "hatch": (frozenset({"run", "test", "fmt", "build"}), _PYPROJECT + ("hatch.toml",), "commands"),
    # Round r8 (r8-runners): doit's dodo.py and fabric's fabfile (Python, imported by any call);
    # the runners whose files hold command lines (runners.py reads them): cargo-make's
    # Makefile.toml, mise's configuration (every file of its hierarchy, and its task files),
    # a Procfile, devbox.json, an Earthfile, lefthook's configuration.
    "doit": (None, ("dodo.py",), "code"),
    "fab": (None, ("fabfile.py", "fabfile/__init__.py"), "code"),
    "cargo-make": (None, ("Makefile.toml",), "commands"),
    "makers": (None, ("Makefile.toml",), "commands"),
    "mise": (None, (".config/mise/config.toml", ".config/mise.toml", "mise/config.toml", ".mise/config.toml",
                    ".mise.toml", "mise.toml", ".mise.local.toml", "mise.local.toml"), "commands"),
    "honcho": (frozenset({"start"}), ("Procfile",), "commands"),
    "foreman": (frozenset({"start", "s"}), ("Procfile",), "commands"),
    "overmind": (frozenset({"start", "s"}), ("Procfile",), "commands"),
    "hivemind": (None, ("Procfile",), "commands"),
    "forego": (frozenset({"start"}), ("Procfile",), "commands"),
    "devbox": (frozenset({"run", "shell", "services"}), ("devbox.json",), "commands"),
    "earthly": (None, ("Earthfile",), "commands"),
    "lefthook": (frozenset({"run"}), ("lefthook.yml", ".lefthook.yml", "lefthook.yaml", ".lefthook.yaml",
                                       "lefthook-local.yml", ".lefthook-local.yml"), "commands"),
    "buck2": (None, ("BUCK", "BUCK.v2", "TARGETS", "PACKAGE"), "code"),
    "pants": (None, ("pants.toml", "BUILD", "BUILD.pants"), "code"),
    "nix": (frozenset({"develop", "run", "shell", "build", "print-dev-env"}), ("flake.nix", "default.nix"), "code"),
    # turbo's and nx's tasks: package.json scripts of the workspaces and nx's project.json
    # commands (`_monorepo`)
    "turbo": (None, ("turbo.json",), "monorepo"),
    "nx": (None, ("nx.json",), "monorepo"),
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
# Tools whose configuration file is a program they run when they start (issue 11, hardening
# round 5): eslint.config.js, vite.config.ts, a Gruntfile, Sphinx's conf.py, a Gemfile. Per
# tool: the file names it looks for, nearest first in the directory it runs in and then in each
# directory above it up to the project's root (as eslint, prettier and most of these search);
# the options that name the file instead (`eslint -c FILE`); and whether such an option names a
# directory that holds the file (`sphinx-build -c DIR`, `storybook -c DIR`). Each file is read
# as code: a mention fails closed, and the project's modules it imports are read too
# (imports.py, by the file's name: `.js`/`.ts` as JavaScript, `.py` as Python, a Gemfile as
# Ruby). Sphinx and mkdocs have their own readers (`_sphinx_configuration`, `_mkdocs_hooks`).
_JS_EXTENSIONS = (".js", ".mjs", ".cjs", ".ts", ".mts", ".cts")


def _js_names(*stems: str) -> tuple[str, ...]:
    return tuple(stem + extension for stem in stems for extension in _JS_EXTENSIONS)


_ESLINT = (_js_names("eslint.config", ".eslintrc"), frozenset({"-c", "--config"}), False)
_WEBPACK = (_js_names("webpack.config"), frozenset({"-c", "--config"}), False)
_STORYBOOK = (tuple(".storybook/" + n for n in _js_names("main")), frozenset({"-c", "--config-dir"}), True)
CONFIG_TOOLS: dict[str, tuple[tuple[str, ...], frozenset[str], bool]] = {
    "eslint": _ESLINT,
    "prettier": (_js_names("prettier.config", ".prettierrc"), frozenset({"--config"}), False),
    "webpack": _WEBPACK,
    "webpack-cli": _WEBPACK,
    "webpack-dev-server": _WEBPACK,
    "vite": (_js_names("vite.config"), frozenset({"-c", "--config"}), False),
    "rollup": (_js_names("rollup.config"), frozenset({"-c", "--config"}), False),
    "babel": (_js_names("babel.config", ".babelrc"), frozenset({"--config-file"}), False),
    "next": (_js_names("next.config"), frozenset(), False),
    "nuxt": (_js_names("nuxt.config"), frozenset(), False),
    "nuxi": (_js_names("nuxt.config"), frozenset(), False),
    "astro": (_js_names("astro.config"), frozenset({"--config"}), False),
    "svelte-kit": (_js_names("svelte.config"), frozenset(), False),
    "tailwindcss": (_js_names("tailwind.config"), frozenset({"-c", "--config"}), False),
    "postcss": (_js_names("postcss.config", ".postcssrc"), frozenset({"--config"}), True),
    "stylelint": (_js_names("stylelint.config", ".stylelintrc"), frozenset({"--config"}), False),
    "commitlint": (_js_names("commitlint.config", ".commitlintrc"), frozenset({"-g", "--config"}), False),
    "lint-staged": (_js_names("lint-staged.config", ".lintstagedrc"), frozenset({"-c", "--config"}), False),
    "playwright": (_js_names("playwright.config"), frozenset({"-c", "--config"}), False),
    "cypress": (_js_names("cypress.config"), frozenset({"-C", "--config-file"}), False),
    "karma": (_js_names("karma.conf"), frozenset(), False),
    "grunt": (("Gruntfile.js", "gruntfile.js", "Gruntfile.cjs", "Gruntfile.ts", "Gruntfile.coffee"),
              frozenset({"--gruntfile"}), False),
    "gulp": (_js_names("gulpfile", "Gulpfile") + ("gulpfile.babel.js",), frozenset({"-f", "--gulpfile"}), False),
    "tsup": (_js_names("tsup.config"), frozenset({"--config"}), False),
    "docusaurus": (_js_names("docusaurus.config"), frozenset({"--config"}), False),
    "gatsby": (_js_names("gatsby-config", "gatsby-node"), frozenset(), False),
    "storybook": _STORYBOOK,
    "start-storybook": _STORYBOOK,
    "build-storybook": _STORYBOOK,
    "bundle": (("Gemfile", "gems.rb"), frozenset({"--gemfile"}), False),
    "sphinx-build": (("conf.py",), frozenset({"-c"}), True),
    "mkdocs": (("mkdocs.yml", "mkdocs.yaml"), frozenset({"-f", "--config-file"}), False),
}
# `bundle` evaluates the Gemfile for these subcommands (and `bundle exec CMD`, which analysis.py
# reads as CMD too); `bundle --version`, `help` and `config` do not.
_BUNDLE_READS = frozenset({"install", "update", "exec", "check", "lock", "outdated", "list", "show", "package",
                           "cache", "console", "binstubs", "clean", "doctor", "i", "e"})
_NO_CONFIGURATION = frozenset({"--version", "-v", "-V", "--help", "-h"})

# Tools that read every one of their files that exists (others read the first).
ALL_FILES = frozenset({"gradle", "bazel", "bazelisk", "mise", "lefthook", "pants", "buck2"})
# Tools that look for their file in the directories above too (invoke's and fabric's loader,
# mise's configuration hierarchy): each directory from where they run up to the project's root.
_SEARCHED_UP = frozenset({"invoke", "inv", "fab", "mise"})
# Options naming the file a runner reads instead, or the directory it reads it from (round r8).
_FILE_OPTIONS: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    "doit": (frozenset({"-f", "--file"}), frozenset()),
    "task": (frozenset({"-t", "--taskfile"}), frozenset({"-d", "--dir"})),
    "go-task": (frozenset({"-t", "--taskfile"}), frozenset({"-d", "--dir"})),
    "tox": (frozenset({"-c", "--conf"}), frozenset({"--root"})),
    "poe": (frozenset(), frozenset({"-C", "--directory", "--root"})),
    "invoke": (frozenset(), frozenset({"-r", "--search-root"})),
    "inv": (frozenset(), frozenset({"-r", "--search-root"})),
    "fab": (frozenset(), frozenset({"-r", "--search-root"})),
    "cargo-make": (frozenset({"--makefile"}), frozenset({"--cwd"})),
    "makers": (frozenset({"--makefile"}), frozenset({"--cwd"})),
    "mise": (frozenset(), frozenset({"-C", "--cd"})),
    "honcho": (frozenset({"-f", "--procfile"}), frozenset({"-d", "--app-root"})),
    "foreman": (frozenset({"-f", "--procfile"}), frozenset({"-d", "--root"})),
    "overmind": (frozenset({"-f", "--procfile"}), frozenset({"-d", "--root"})),
    "hivemind": (frozenset(), frozenset({"--root"})),
    "forego": (frozenset({"-f"}), frozenset()),
    "devbox": (frozenset(), frozenset({"-c", "--config"})),
    "nix": (frozenset({"-f", "--file"}), frozenset()),
    "rake": (frozenset({"-f", "--rakefile"}), frozenset({"-C", "--directory"})),
    "nox": (frozenset({"-f", "--noxfile"}), frozenset()),
    "just": (frozenset({"-f", "--justfile"}), frozenset()),
}
# mise's task files: every file below these directories may be a task `mise run` runs.
_MISE_TASK_DIRECTORIES = ("mise-tasks", ".mise-tasks", "mise/tasks", ".mise/tasks", ".config/mise/tasks")
_MISE_TASK_FILES = 64
# Options after which the tool runs no project file (`cmake -E rm …` is a command of its own,
# judged by its words; `cmake -P x.cmake` runs that script instead).
_NO_PROJECT = {"cmake": frozenset({"-E", "-P", "--version", "--help", "-h"}),
               "ninja": frozenset({"--version", "-h", "--help"}),
               "meson": frozenset({"--version", "-v", "--help", "-h"})}
# pip's subcommands that build a local project (`pip install .`, `pip install -e .`): its setup.py
PIP = frozenset({"pip", "pip3"})
_PIP_BUILDS = frozenset({"install", "wheel", "download", "sync"})




def project_script(walk: Walk, view: View) -> FileScript | None:
    """What `view` (a tool in `TOOLS`, or pip) runs from the project, as a `FileScript`, or
    None when it runs none this layer can name."""
    if view.name in EXEC_OPTION_PROGRAMS:
        from polydeukes.stdlib.shell import execopts  # (round 8)

        return execopts.ansible(walk, view) if view.name in ("ansible", "ansible-playbook") \
            else execopts.terragrunt(walk, view) if view.name == "terragrunt" else execopts.option_script(walk, view)
    args = view.args[view.inner + 1 :]
    words = _operands(args, _BUILDERS[view.name][0]) if view.name in _PROJECT_OPTIONS \
        else _operands(args, _FILE_OPTIONS[view.name][0] | _FILE_OPTIONS[view.name][1]) if view.name in _FILE_OPTIONS \
        else [a for a in args if not a.text.startswith("-")]
    if view.name in PIP:
        return _pip_project(walk, view, args)
    if view.name in _BUILDERS:
        script = python_builder(walk, view, args)
        if view.name not in TOOLS or script is not None and script.refused is not None:
            return script
        # `hatch run x`, `pdm install`: pyproject.toml's scripts as `TOOLS` says, and the code
        # that builds the project beside them.
        configured = _pdm_hooks(walk, view, args) if view.name == "pdm" and words and not words[0].opaque \
            and words[0].text in _BUILDERS["pdm"][1] else _project_script_of(walk, view, args, words)
        if script is None or configured is None or configured.refused is not None or configured.text is None:
            return configured or script
        configured.code_parts = script.parts or [(script.path, script.text)]
        return configured
    return _project_script_of(walk, view, args, words)


def module_tool(walk: Walk, view: View, args, tool: str) -> FileScript | None:
    """`python3 -m invoke x`, `python3 -m doit`: what the tool's own command reads (round r8;
    before, `python3 -m invoke` read no tasks.py though `invoke` did)."""
    words = [a for a in args if not a.text.startswith("-")]
    return _project_script_of(walk, view, list(args), words, tool)


# pdm's hook scripts, which its commands run around what they do (`post_install`, `pre_build`).
_PDM_HOOK = LazyPattern(r"(?m)^[ \t]*[\"']?(?:pre|post)_[a-z]+[\"']?[ \t]*=")


def _pdm_hooks(walk: Walk, view: View, args) -> FileScript | None:
    """pyproject.toml (of the project `-p` names), read as `TOOLS` reads it for `pdm run`,
    when it has hook scripts."""
    place = _project_place(view, "pdm", args)
    if isinstance(place, FileScript):
        return place
    spelled = "pyproject.toml" if place[0] == "." else place[0] + "/pyproject.toml"
    text = _read_file(walk, view, spelled)
    if not isinstance(text, str):
        return text
    if _PDM_HOOK().search(text) is None:
        return None
    script = FileScript(spelled, view.name, True, True, None)
    script.text = text
    script.lines = []
    return script


# (round 8) The JVM options a build tool's project gives the JVM it starts, per tool: the file
# names and how each is read. Maven's `.mvn/jvm.config` (`jvm`: options, in the first directory
# from where mvn runs up to the project's root that has one: the mvn script reads it on every
# call, Maven 3.3.1+); Gradle's `gradle.properties` (`gradle`: `org.gradle.jvmargs`, the
# daemon's options, and `org.gradle.java.home`, the JDK whose bin/java runs it) of where gradle
# runs and each directory above it up to the project's root, and `~/.gradle/gradle.properties`;
# sbt's `.jvmopts` (`jvm`) and `.sbtopts` (`sbt`: its `-J…` words are the JVM's) where it runs.
# Gradle's properties may be given on its command line too (`-Dorg.gradle.jvmargs=…`).
_JVM_CONFIG: dict[str, tuple[tuple[str, str], ...]] = {
    "mvn": ((".mvn/jvm.config", "jvm"),),
    "gradle": (("gradle.properties", "gradle"),),
    "sbt": ((".jvmopts", "jvm"), (".sbtopts", "sbt")),
}
_GRADLE_JVM = LazyPattern(r"(?m)^[ \t]*org\.gradle\.(jvmargs|java\.home)[ \t]*[=:][ \t]*((?:[^\n]*\\\n)*[^\n]*)")


def _jvm_options(walk: Walk, view: View) -> FileScript | None:
    """Walk the JVM options `_JVM_CONFIG` names (`view.wrapper_scripts`: `java OPTIONS -version`,
    read as java's own by scripts.jvm_option_lines); a refusal for a file that cannot be read."""
    from polydeukes.stdlib.shell.scripts import _jvm_tokens

    tool = view.name
    places: list[tuple[str, str]] = []
    if tool == "sbt":
        places = list(_JVM_CONFIG[tool])
    else:
        (name, kind), = _JVM_CONFIG[tool]
        places = [(prefix + name, kind) for prefix in _upward_from(walk, view, ".")]
        home = walk.home_now()
        if tool == "gradle" and home is not None:
            places.append(("/" + "/".join((*home, ".gradle", name)), kind))
    lines: list[str] = []
    # (`gradle -Dorg.gradle.jvmargs=… build`: the same properties given on the line)
    given = "\n".join(a.text[2:] for a in view.args[view.inner + 1 :] if a.text.startswith("-Dorg.gradle.")
                      and not a.opaque) if tool == "gradle" else ""
    for place, kind in [*places, ("", "gradle")] if given else places:
        text = _read_file(walk, view, place) if place else given
        if isinstance(text, FileScript):
            return text
        if text is None:
            continue
        if kind == "gradle":
            values = [(m.group(1), re.sub(r"\\\n[ \t]*", "", m.group(2))) for m in _GRADLE_JVM().finditer(text)]
        else:
            values = [("jvmargs", text)]
        for key, value in values:
            if key == "java.home":
                lines.append(_quoted(value.strip()) + "/bin/java -version")
                continue
            tokens = _jvm_tokens(value, False)
            if tokens is None:
                return _refused(place, tool, "its JVM options cannot be read")
            if kind == "sbt":
                tokens = [t[2:] for t in tokens if t.startswith("-J")]
            if tokens:
                lines.append(" ".join(["java", *map(_quoted, tokens), "-version"]))
        if tool == "mvn":
            break  # (the first project directory's)
    if lines:
        view.wrapper_scripts = (*view.wrapper_scripts, *lines)
    return None


def _project_script_of(walk: Walk, view: View, args, words, tool: str | None = None) -> FileScript | None:
    """What a `TOOLS` program (`view.name`, or `tool`: `python3 -m invoke`, `cargo make`) runs
    from the project (see the table)."""
    if tool is None:
        if view.name in _JVM_CONFIG:
            refused = _jvm_options(walk, view)
            if refused is not None:
                return refused
        if view.name == "go":
            return _go(walk, view, args)
        if view.name in CONFIG_TOOLS:
            return _configuration(walk, view, args)
        if view.name == "pre-commit":
            return pre_commit(walk, view, args)
        if view.name == "dotnet":
            return _dotnet(walk, view, args)
        if view.name == "cargo":
            if words and not words[0].opaque and words[0].text == "make":
                # `cargo make x`: cargo runs its external subcommand cargo-make (round r8)
                at = args.index(words[0])
                return _project_script_of(walk, view, args[at + 1 :], words[1:], "cargo-make")
            return _cargo(walk, view, args)
    tool = tool or view.name
    if tool in ("turbo", "nx"):
        return _monorepo(walk, view, args, words, tool)
    subcommands, names, mode = TOOLS[tool]
    if tool == "cargo-make" and words and not words[0].opaque and words[0].text == "make":
        words = words[1:]  # (`cargo-make make x`, as cargo hands it its own name)
    if subcommands is not None and (not words or words[0].opaque or words[0].text not in subcommands):
        return None
    if tool == "cmake" and any(a.text == "-P" for a in args):
        return _cmake_script(walk, view, args)
    if any(a.text in _NO_PROJECT.get(tool, _NO_RUN if tool in _FILE_OPTIONS or tool in _RUNNER_TOOLS else ())
           for a in args):
        return None
    directory = _source_directory(tool, args)
    if directory is None:
        return None  # a source directory of unknown value
    if tool in _PROJECT_OPTIONS:
        # `pdm run -p sub x`: the scripts of the project the option names (round r7; before,
        # the root's were read)
        place = _project_place(view, tool, args)
        if isinstance(place, FileScript):
            return place
        directory = _as_prefix(place[0])
    if tool in _FILE_OPTIONS or tool == "earthly":
        # `task -d sub x`, `doit -f x.py`, `earthly ./sub+x` (round r8)
        placed = _runner_place(tool, args, words)
        if isinstance(placed, FileScript):
            return placed
        moved, named = placed
        if moved is not None:
            directory = _as_prefix(moved)
        if named is not None:
            names = (named,) if tool != "devbox" else (named + "/devbox.json",) if not named.endswith(".json") \
                else (named,)
    if tool in _LABELLED:
        # `bazel build //sub:x`, `pants run src/py:x`: the BUILD files of the packages the
        # targets name, beside the root's (round r8)
        packages = _label_packages(args, tool)
        if isinstance(packages, FileScript):
            return packages
        names = (*names, *(p + "/" + n for p in packages for n in _BUILD_FILES[tool]))
    prefixes = [directory]
    if tool in _SEARCHED_UP and directory == "":
        prefixes = _upward(walk, view)
    names = tuple(prefix + n for prefix in prefixes for n in names)
    if tool == "cmake":
        loaded = _cmake_loaded(walk, view, args, directory)
        if isinstance(loaded, FileScript):
            return loaded
        names = (*loaded, *names)  # (read with CMakeLists.txt: the first found is not the only one)
    # `pdm run CMD …`, `hatch run CMD …`: a name that is no script of the project is a command
    # line, run as it is written.
    command = _quoted_line(args[args.index(words[0]) + 1 :]) if tool in _RUNS_COMMANDS and words else None
    if tool == "mise":
        command = _mise_command(args, words)
    found: list[tuple[str, str]] = []
    for name in names:
        text = _read_file(walk, view, name)
        if text is None:
            continue
        if isinstance(text, FileScript):
            return text
        found.append((name, text))
        if tool not in ALL_FILES and (tool != "cmake" or name.endswith("CMakeLists.txt")):
            break
    if found and tool in _INCLUDES:
        refused = _included(walk, view, tool, found)
        if refused is not None:
            return refused
    tasks: list[str] = []
    if tool == "mise":
        listed = _mise_task_files(walk, view, prefixes)
        if isinstance(listed, FileScript):
            return listed
        tasks = listed
    if found:
        text = "\n".join(t for _, t in found)
        script = FileScript(" and ".join(n for n, _ in found), tool, mode != "code", True, None)
        script.text = text
        if len(found) > 1:
            script.parts = found
        if mode == "recipes":
            script.lines = _placed_lines(tool, found[0][0], just_recipes(text))
        elif mode == "ninja":
            script.lines = ninja_commands(text)
        elif mode == "tasks":
            script.lines = json_tasks(text, _task_named(tool, words))
        elif mode == "commands":
            from polydeukes.stdlib.shell import runners  # (only such a runner loads it)

            script.lines = []
            for name, part in found:
                lines = runners.command_lines(tool, name, part)
                if isinstance(lines, str):
                    return _refused(name, tool, lines)
                lines = _placed_lines(tool, name, lines)
                script.lines.extend(lines)
        else:
            script.lines = [] if mode == "text" else None
        if script.lines is not None:
            script.lines.extend(tasks)
        if command and script.lines is not None:
            script.lines.append(command)
        return script
    if command or tasks:
        script = FileScript(f"the command {tool} runs" if command else "its task directories", tool, True, True, None)
        script.lines = [*tasks, *([command] if command else [])]
        script.text = "\n".join(script.lines)
        return script
    return None


# The tools added in round r8; with `--help` or `--version` they, and those with `_FILE_OPTIONS`,
# read no file (`-v`, `-h` are other options to some: `task -v` is verbose).
_NO_RUN = frozenset({"--version", "--help"})
_RUNNER_TOOLS = frozenset({"doit", "fab", "cargo-make", "makers", "mise", "honcho", "foreman", "overmind", "hivemind",
                           "forego", "devbox", "earthly", "lefthook", "buck2", "pants", "nix"})


# turbo's and nx's commands that run tasks, and their options that take a value (round r8).
_MONOREPO_RUNS = frozenset({"run", "run-many", "affected", "watch"})
_MONOREPO_VALUES = frozenset({"--filter", "-F", "--concurrency", "--cache-dir", "--output-logs", "--log-order",
                              "--graph", "--env-mode", "--cwd", "--profile", "--team", "--token", "--api",
                              "--projects", "-p", "--exclude", "--base", "--head", "--configuration", "-c",
                              "--parallel", "--output-style", "--nxBail", "--nx-bail", "--runner"})
_NX_PROJECTS = 64


def _monorepo(walk: Walk, view: View, args, words, tool: str) -> FileScript | None:
    """`turbo run build` (`turbo build`), `nx run app:build`, `nx build app`, `nx run-many -t
    build`: the task of that name in every workspace package, which is its package.json
    script (walked as `pnpm -r run NAME` walks them: every package under the root when no
    workspace file lists them) and, for nx, the `nx:run-commands` lines of every project.json
    (`options.command`, `options.commands`). A task of unknown name fails closed."""
    texts = [a.text for a in args]
    targets: list[str] = []
    for k, t in enumerate(texts):
        if t in ("-t", "--targets", "--target") and k + 1 < len(args):
            if args[k + 1].opaque:
                return _refused(t, tool, "the task it runs is of unknown name")
            targets.extend(args[k + 1].text.split(","))
        elif t.startswith(("--targets=", "--target=")):
            targets.extend(t.partition("=")[2].split(","))
    operands = _operands(args, _MONOREPO_VALUES | {"-t", "--targets", "--target"})
    if operands and operands[0].opaque:
        return _refused(operands[0].text, tool, "the task it runs is of unknown name")
    first = operands[0].text if operands else ""
    if tool == "turbo":
        if first in ("run",):
            names = operands[1:]
        elif first in ("login", "logout", "link", "unlink", "prune", "daemon", "telemetry", "gen", "generate",
                       "ls", "info", "bin", "scan", "query", "boundaries", "") or first.startswith("-"):
            return None
        else:
            names = operands  # (`turbo build test`)
        if any(a.opaque for a in names):
            return _refused("its tasks", tool, "the task it runs is of unknown name")
        targets.extend(a.text for a in names)
    else:
        if first == "run" and len(operands) > 1:
            target = operands[1].text.split(":")
            if len(target) < 2:
                return _refused(operands[1].text, tool, "the target it runs is not named")
            targets.append(target[1])
        elif first in _MONOREPO_RUNS:
            pass  # (`-t` named them)
        elif first and first not in ("graph", "show", "list", "report", "reset", "daemon", "init", "add",
                                      "generate", "g", "migrate", "format", "format:check", "format:write",
                                      "print-affected", "connect", "view-logs", "release", "repair", "sync"):
            targets.append(first)  # (`nx build app`: the target)
        if not targets:
            return None
    if not targets:
        return None
    lines = ["pnpm -r run " + _quoted(t) for t in dict.fromkeys(targets)]
    parts: list[tuple[str, str]] = []
    if tool == "nx" and walk.disk is not None and view.cwd is not None:
        from polydeukes.stdlib.shell import runners

        root = walk.root_segs or view.cwd
        found = walk.disk.files_below(list(root), lambda name: name == "project.json", _NX_PROJECTS)
        if not isinstance(found, list):
            return _refused("project.json", tool, found.reason)
        base = "/" + "/".join(root)
        for path in sorted(f for f in found if "/node_modules/" not in f):
            text = _read_file(walk, view, path)
            if text is None:
                continue
            if isinstance(text, FileScript):
                return text
            read = runners.command_lines("nx", path, text)
            if isinstance(read, str):
                return _refused(path[len(base) + 1 :], tool, read)
            parts.append((path[len(base) + 1 :], text))
            lines.extend(read)  # (nx:run-commands runs them at the workspace's root, unless `cwd` says)
    script = FileScript(" and ".join(n for n, _ in parts) or "its tasks", tool, True, True, None)
    script.text = "\n".join(t for _, t in parts)
    if len(parts) > 1:
        script.parts = parts
    script.lines = lines
    return script


# Where a runner's command lines run (round r8): in the directory of the file that holds them
# (task, earthly's LOCALLY, tox's toxinidir, devbox's project, the pyproject.toml runners, mise's
# configuration root, which for `.config/mise.toml`, `mise/config.toml`, `.mise/config.toml`
# is the directory above), where the call runs (cargo-make, lefthook), or either (the Procfile
# runners, whose documentation leaves it open, and just, whose recipes run in the justfile's
# directory unless the file says otherwise: walked in both).
_WHERE_CALLED = frozenset({"cargo-make", "makers", "lefthook"})
_EITHER_PLACE = frozenset({"honcho", "foreman", "overmind", "hivemind", "forego", "just"})
_CONFIGURATION_DIRECTORIES = (".config/mise", ".config", "mise", ".mise")


def _placed_lines(tool: str, name: str, lines: list[str]) -> list[str]:
    directory = name.rpartition("/")[0]
    if tool == "mise":
        for inner in _CONFIGURATION_DIRECTORIES:
            if directory == inner or directory.endswith("/" + inner):
                directory = directory[: -len(inner)].rstrip("/")
                break
    if not directory or tool in _WHERE_CALLED:
        return lines
    placed = [f"cd {_quoted(directory)}\n{line}" for line in lines]
    return [*lines, *placed] if tool in _EITHER_PLACE else placed


# Build tools whose targets are labels of packages, each a directory with its own BUILD file.
_BUILD_FILES = {"bazel": ("BUILD.bazel", "BUILD"), "bazelisk": ("BUILD.bazel", "BUILD"), "buck2": ("BUCK", "BUCK.v2", "TARGETS"),
                "pants": ("BUILD", "BUILD.pants")}
_LABELLED = frozenset(_BUILD_FILES)
_LABEL_PACKAGES = 64


def _label_packages(args, tool: str) -> list[str] | FileScript:
    """The package directories the target labels among `args` name (`//sub/x:t` -> sub/x,
    `//sub/...` -> sub, `src/py:t` -> src/py), at most `_LABEL_PACKAGES`, up to `--` (the
    program's arguments after it); a word of unknown value there refuses."""
    out: list[str] = []
    for a in args:
        t = a.text
        if t == "--":
            break
        if a.opaque and not t.startswith("-"):
            return _refused(t, tool, "the package its target names is of unknown value")
        if ":" not in t and not t.startswith("//"):
            continue
        if t.startswith("-") or "=" in t or "@" in t.split(":")[0]:
            continue
        package = t[2:] if t.startswith("//") else t
        package = package.split(":", 1)[0]
        if package.endswith("..."):
            package = package[:-3]
        package = package.strip("/")
        if package and ".." not in package.split("/") and package not in out:
            out.append(package)
    return out[:_LABEL_PACKAGES]


def _runner_place(tool: str, args, words) -> tuple[str | None, str | None] | FileScript:
    """The directory a runner reads its file from and the file it names, as `_FILE_OPTIONS`
    say (the last one given counts; None: not given); earthly's target reference
    (`./sub+build`: sub's Earthfile). A value of unknown value refuses."""
    files, directories = _FILE_OPTIONS.get(tool, (frozenset(), frozenset()))
    moved = named = None
    if tool == "earthly":
        for a in words:
            if "+" in a.text and not a.text.startswith("+") and "=" not in a.text:  # (`--build-arg V=a+b`)
                if a.opaque:
                    return _refused(a.text, tool, "its target's directory is of unknown value")
                reference = a.text.rpartition("+")[0]
                if reference.startswith(("./", "../", "/")) or reference in (".", ".."):
                    moved = reference
                else:
                    return _refused(a.text, tool, "its target is of a remote repository, whose Earthfile is not read")
        return moved, named
    for k, a in enumerate(args):
        option, eq, value = a.text.partition("=")
        if option in files or option in directories:
            word = Arg(value, None, a.opaque, a.count, a.word) if eq else args[k + 1] if k + 1 < len(args) else None
        elif len(option) > 2 and option[:2] in files | directories and not option.startswith("--"):
            option, word = option[:2], Arg(a.text[2:], None, a.opaque, a.count, a.word)  # (`-fx.py`)
        else:
            continue
        if word is None:
            continue
        if word.opaque:
            return _refused(word.text, tool, "its file or directory is of unknown value")
        if option in files:
            named = word.text
        else:
            moved = word.text
    if named is not None and moved is not None and not named.startswith("/"):
        named = moved.rstrip("/") + "/" + named
    return moved, named


def _mise_command(args, words) -> str | None:
    """`mise exec TOOL@V -- CMD …`, `mise x -- CMD`: the command line run with mise's
    environment (its configuration's `[env]`, read with the file)."""
    if not words or words[0].opaque or words[0].text not in ("exec", "x"):
        return None
    texts = [a.text for a in args]
    if "--" not in texts:
        return None
    return _quoted_line(args[texts.index("--") + 1 :])


def _mise_task_files(walk: Walk, view: View, prefixes: list[str]) -> list[str] | FileScript:
    """Every file of mise's task directories (`mise-tasks/`, `.mise/tasks/` …) in the
    directories mise reads, as a line running it (by its `#!` line, as mise does); more than
    `_MISE_TASK_FILES` refuse."""
    if walk.disk is None:
        return []
    out: list[str] = []
    for prefix in prefixes:
        for spelled in _MISE_TASK_DIRECTORIES:
            path = walk.absolute(prefix + spelled, view.cwd)
            if path is None:
                continue
            files = walk.disk.files_below(list(path), lambda name: True, _MISE_TASK_FILES)
            if not isinstance(files, list):
                return _refused(prefix + spelled, "mise", files.reason)
            base = "/" + "/".join(path)
            out.extend("./" + _quoted(prefix + spelled + f[len(base):]) for f in sorted(files))
            if len(out) > _MISE_TASK_FILES:
                return _refused(prefix + spelled, "mise", f"more than {_MISE_TASK_FILES} task files")
    return out


_RUNS_COMMANDS = frozenset({"pdm", "hatch", "devbox"})


# Build descriptions that pull in others (since round 5): cmake's `add_subdirectory(DIR)` (DIR's
# CMakeLists.txt) and `include(FILE.cmake)`, meson's `subdir('DIR')` (DIR's meson.build),
# gradle's `include 'app', ':lib:core'` in settings (each project's build script) and `apply
# from: 'x.gradle'`. Names are relative to the file that names them; cmake's
# `${CMAKE_CURRENT_SOURCE_DIR}` and `${CMAKE_CURRENT_LIST_DIR}` are its directory. A name of
# another variable's value, a cmake module found on CMAKE_MODULE_PATH and a gradle project whose
# directory is set elsewhere are not followed.
_INCLUDES = frozenset({"cmake", "meson", "gradle"})
_INCLUDED_FILES = 64  # files read through includes, per command
_CMAKE_INCLUDE = LazyPattern(r"""(?im)^[ \t]*(add_subdirectory|include)[ \t]*\([ \t]*"?([^\s")]+)""")
_MESON_SUBDIR = LazyPattern(r"""\bsubdir[ \t]*\([ \t]*['"]([^'"]+)['"]""")
_GRADLE_INCLUDE = LazyPattern(r"""(?m)^[ \t]*include[ \t(]+([^\n]+)""")
_GRADLE_APPLY = LazyPattern(r"""\bapply[ \t(]*from[ \t]*[:=][ \t]*(?:file\()?['"]([^'"]+)['"]""")
_QUOTED = LazyPattern(r"""['"]([^'"]+)['"]""")


def _included(walk: Walk, view: View, tool: str, found: list[tuple[str, str]]) -> FileScript | None:
    """Add to `found` (spelled path, text) the build files those files pull in, transitively
    (see `_INCLUDES`); a refusal of one that cannot be read within bounds."""
    parts = _read_linked(walk, view, [name for name, _ in found],
                         lambda name, text: _includes_of(tool, text, name.rpartition("/")[0]))
    if isinstance(parts, FileScript):
        return parts
    found[:] = parts
    return None


def _read_linked(walk: Walk, view: View, names: list[str], linked) -> list[tuple[str, str]] | FileScript:
    """(spelled path, text) of each of `names` that is there and of the files `linked(name,
    text)` says each read one pulls in, transitively: each once, at most `_INCLUDED_FILES`;
    a refusal (`FileScript`) of the first that cannot be read within bounds. (Files the walk
    read already come from its cache.)"""
    parts: list[tuple[str, str]] = []
    queue = list(names)
    seen: set[str] = set()
    k = 0
    while k < len(queue) and len(parts) < _INCLUDED_FILES:
        name = queue[k]
        k += 1
        if name in seen:
            continue
        seen.add(name)
        text = _read_file(walk, view, name)
        if isinstance(text, FileScript):
            return text
        if text is not None:
            parts.append((name, text))
            queue.extend(linked(name, text))
    return parts


def _includes_of(tool: str, text: str, directory: str) -> list[str]:
    """The build files one file of `tool` names (spelled from where the command runs)."""
    prefix = _as_prefix(directory)
    out: list[str] = []
    if tool == "cmake":
        for m in _CMAKE_INCLUDE().finditer(text):
            target = m.group(2)
            for variable in ("${CMAKE_CURRENT_SOURCE_DIR}", "${CMAKE_CURRENT_LIST_DIR}"):
                target = target.replace(variable, directory or ".")
            if "$" in target:
                continue
            joined = target if target.startswith("/") else prefix + target
            while joined.startswith("./"):
                joined = joined[2:]
            if m.group(1).lower() == "add_subdirectory":
                out.append(_as_prefix(joined) + "CMakeLists.txt")
            elif target.endswith(".cmake") or "/" in target:
                out.append(joined)
    elif tool == "meson":
        out.extend(_as_prefix(prefix + m.group(1)) + "meson.build" for m in _MESON_SUBDIR().finditer(text))
    else:
        for m in _GRADLE_INCLUDE().finditer(text):
            for project in _QUOTED().finditer(m.group(1)):
                path = project.group(1).strip(":").replace(":", "/")
                if path and "$" not in path:
                    out.extend(prefix + path + "/" + n for n in ("build.gradle", "build.gradle.kts"))
        out.extend(prefix + m.group(1) for m in _GRADLE_APPLY().finditer(text)
                   if "$" not in m.group(1) and "://" not in m.group(1))
    return out


def _cmake_script(walk: Walk, view: View, args) -> FileScript | None:
    """`cmake [-D…] -P SCRIPT`: SCRIPT is the CMake code it runs (and what it includes)."""
    at = next(k for k, a in enumerate(args) if a.text == "-P")
    if at + 1 >= len(args):
        return None
    script_arg = args[at + 1]
    if script_arg.opaque:
        return _refused("the script it is given", "cmake", "its script is of unknown value")
    text = _read_file(walk, view, script_arg.text)
    if text is None or isinstance(text, FileScript):
        return text
    found = [(script_arg.text, text)]
    refused = _included(walk, view, "cmake", found)
    if refused is not None:
        return refused
    script = FileScript(" and ".join(n for n, _ in found), "cmake", False, True, None)
    script.text = "\n".join(t for _, t in found)
    if len(found) > 1:
        script.parts = found
    return script


# cmake's cache variables whose value names CMake code it runs as it configures: a toolchain
# file, files `project()` includes (`CMAKE_PROJECT_<NAME>_INCLUDE…` too), the top-level
# dependency providers, the user rules override (`…_<LANG>` too); a `;` list names several.
_CMAKE_CODE_VARIABLES = LazyPattern(
    r"CMAKE_TOOLCHAIN_FILE|CMAKE_PROJECT_(?:\w+_)?INCLUDE(?:_BEFORE)?|CMAKE_PROJECT_TOP_LEVEL_INCLUDES"
    r"|CMAKE_USER_MAKE_RULES_OVERRIDE(?:_\w+)?")
_CMAKE_PRESETS = ("CMakePresets.json", "CMakeUserPresets.json")
_PRESET_FILES = 16  # preset files read through `include`, per command


def _cmake_loaded(walk: Walk, view: View, args, directory: str) -> list[str] | FileScript:
    """The files of CMake code a configuring cmake runs besides CMakeLists.txt: `-C FILE` (the
    initial cache script), `--toolchain FILE`, `-D VAR=FILE` of `_CMAKE_CODE_VARIABLES`
    (`-DVAR:FILEPATH=FILE`), CMAKE_TOOLCHAIN_FILE from the environment (cmake 3.21), and with
    `--preset`/`--workflow` what the presets files name (`_cmake_presets`). A name of unknown
    value refuses; one with no file is not judged (cmake stops there)."""
    files: list[str] = []
    unknown = False
    for k, a in enumerate(args):
        t = a.text
        value = None
        if t in ("-C", "-D", "--toolchain") and k + 1 < len(args):
            word = args[k + 1]
            unknown |= word.opaque and (t != "-D" or _CMAKE_CODE_VARIABLES().match(word.text) is not None)
            value = word.text if t != "-D" else None
            t = "-D" + word.text if t == "-D" else t
        elif t.startswith("--toolchain="):
            value = t[12:]
        elif t.startswith("-C") and len(t) > 2:
            value = t[2:]
        if t.startswith("-D") and "=" in t:
            name, _, assigned = t[2:].partition("=")
            if _CMAKE_CODE_VARIABLES().fullmatch(name.split(":", 1)[0]):
                unknown |= a.opaque
                files.extend(f for f in assigned.split(";") if f)
        elif value is not None:
            unknown |= a.opaque
            files.append(value)
    from polydeukes.stdlib.shell.scripts import _make_environment

    environment = _make_environment(walk, view, "CMAKE_TOOLCHAIN_FILE")
    if environment:
        unknown |= "$" in environment
        files.append(environment)
    if any(a.text.startswith(("--preset", "--workflow")) for a in args):
        presets = _cmake_presets(walk, view, directory)
        if isinstance(presets, FileScript):
            return presets
        files.extend(presets)
    if unknown:
        return _refused("the CMake code it is given", "cmake", "its name is not known")
    # (a relative name: `-C`'s from where cmake runs, a toolchain file's from the build tree,
    # else the source tree; each place that holds one is read)
    build = next((_as_prefix(args[k + 1].text) for k in range(len(args) - 1)
                  if args[k].text == "-B" and not args[k + 1].opaque), "")
    return list(dict.fromkeys(p for f in files for p in ((f,) if f.startswith("/") else (f, build + f, directory + f))))


def _cmake_presets(walk: Walk, view: View, directory: str) -> list[str] | FileScript:
    """CMakePresets.json and CMakeUserPresets.json (and the files their `include` lists name):
    each read as CMake code (a mention fails closed), and the toolchain files and
    `_CMAKE_CODE_VARIABLES` their configure presets name, whichever preset the call picks
    (`${sourceDir}` is the source directory; another macro's value is unknown and refuses)."""
    import json

    out: list[str] = []
    pending = list(_CMAKE_PRESETS)
    seen: set[str] = set()
    while pending and len(seen) < _PRESET_FILES:
        spelled = pending.pop(0)
        if spelled in seen:
            continue
        seen.add(spelled)
        text = _read_file(walk, view, directory + spelled)
        if isinstance(text, FileScript):
            return text
        if text is None:
            continue
        out.append(spelled)  # (its text: a `cmakeCommandArgs` … that mentions an entry fails closed)
        try:
            data = json.loads(text)
        except ValueError:
            return _refused(directory + spelled, "cmake", "it is not JSON this layer can read")
        if not isinstance(data, dict):
            continue
        base = spelled.rpartition("/")[0]
        pending.extend((base + "/" if base else "") + f for f in data.get("include") or () if isinstance(f, str))
        for preset in data.get("configurePresets") or ():
            if not isinstance(preset, dict):
                continue
            named = [preset.get("toolchainFile")]
            for name, value in (preset.get("cacheVariables") or {}).items():
                if _CMAKE_CODE_VARIABLES().fullmatch(name):
                    named.append(value.get("value") if isinstance(value, dict) else value)
            for value in named:
                if not isinstance(value, str):
                    continue
                value = value.replace("${sourceDir}/", "").replace("${sourceDir}", ".")
                if "$" in value:
                    return _refused(directory + spelled, "cmake", f"it names CMake code of unknown name ({value})")
                out.extend(f for f in value.split(";") if f)
    return out


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
    """`pip install .`, `pip install -e lib`, `pip install -r requirements.txt`, `pip wheel
    sub/`: the code pip runs to build each local project it is given (`_local_projects`),
    as one program (`_projects_code`)."""
    at = _pip_subcommand(args)
    if at is None or args[at].text not in _PIP_BUILDS:
        return None
    rest = args[at + 1 :]
    if args[at].text == "sync":  # (`uv pip sync requirements.txt`: its operands are requirements files)
        rest = [word for a in rest if not a.text.startswith("-") for word in (Arg("-r", None, False, 1, None), a)]
    configured = _pip_configuration(walk, view)
    if isinstance(configured, FileScript):
        return configured
    directories = _local_projects(walk, view, [*configured, *rest])
    if isinstance(directories, FileScript):
        return directories
    return _projects_code(walk, view, directories)


# pip's options from its environment and configuration files (round r7): every option has a
# default in `PIP_<NAME>` and in a configuration file's `[global]` or command section (`name =
# value`, whitespace between the values of an option given more than once). Those that name
# what pip builds or where it finds archives are read as on the command line (`find-links`
# with `-f`'s rule, `requirement`, `constraint`, `editable`); those that say where it
# installs, or an index on this machine, fail closed (`PIP_TARGET=. pip install x`; the
# command line's own `--target` is judged as a write: pymodules.pip_writes). The files read:
# `PIP_CONFIG_FILE`, and `pip.conf` of the environment whose pip runs (its `sys.prefix`: a venv
# the line names, `.venv/bin/pip`, or puts first on PATH, `. .venv/bin/activate`). The
# user's and the system's files are outside the project (docs/shell-axis.md, "Still open").
_PIP_CONFIGURED = {"find-links": "--find-links", "requirement": "--requirement", "constraint": "--constraint",
                   "editable": "--editable"}
_PIP_CONFIGURED_PLACES = frozenset({"target", "prefix", "root", "src", "index-url", "extra-index-url"})
# The venv's pip.conf of a pip run by its path, handed on with the line analysis.py walks for
# it (which names pip alone): a name no variable of the agent's has; set by hand, it only
# makes pip's reading read one more file.
SITE_CONFIGURATION = "PDKS_PIP_SITE_CONFIGURATION"


def _pip_configuration(walk: Walk, view: View) -> list[Arg] | FileScript:
    """pip's options from the environment and the configuration files the line gives it (see
    above), as command-line words; a refusal of one of unknown value or one that says where
    pip installs."""
    words: list[Arg] = []
    for key in (*_PIP_CONFIGURED, *_PIP_CONFIGURED_PLACES, "config-file"):
        name = "PIP_" + key.upper().replace("-", "_")
        values = _line_setting(walk, view, name)
        if values is None:
            continue
        unknown = f"${name}" if isinstance(values, bool) else next((v for v in values if "$" in v or "`" in v), None)
        if unknown is not None:
            return _refused(unknown, view.name, "its name is not known")
        for value in values:
            if key == "config-file":
                found = _pip_config_file(walk, view, value)
                if isinstance(found, FileScript):
                    return found
                words.extend(found)
            elif not _pip_place_harmless(key, value):
                return _refused(f"{name}={value}", view.name, "it says where pip installs or finds archives")
            elif key in _PIP_CONFIGURED:
                words.extend(Arg(w, None, False, 1, None) for part in value.split()
                             for w in (_PIP_CONFIGURED[key], part))
    site = _pip_site_configuration(walk, view)
    given = _line_setting(walk, view, SITE_CONFIGURATION) if site is None else None
    site = given[0] if given else site
    if site is not None:
        found = _pip_config_file(walk, view, site)
        if isinstance(found, FileScript):
            return found
        words.extend(found)
    return words


def _pip_place_harmless(key: str, value: str) -> bool:
    """Whether a configured option is one read as on the command line (`_PIP_CONFIGURED`), or
    an index on another host (`index-url = https://…`)."""
    if key in _PIP_CONFIGURED:
        return True
    return key in ("index-url", "extra-index-url") and all(
        "://" in v and not v.startswith("file:") for v in value.split())


def _line_setting(walk: Walk, view: View, name: str) -> list[str] | None | bool:
    """The values the line gives environment variable `name` for `view` (assigned in front of
    it, as spelled, or earlier on the line): None when it gives none, False when it gave one
    earlier whose value is unknown."""
    for a in reversed(view.args[: view.inner]):
        if a.text.startswith(name + "="):
            return [a.text[len(name) + 1 :]]  # (of unknown value: spelled with its `$`)
    if name not in walk.context.scope.values:
        return None
    values = walk.context.scope.values[name]
    if values is None or any(v.pattern is not None for v in values):
        return False
    return [v.text for v in values]


def _pip_config_file(walk: Walk, view: View, spelled: str) -> list[Arg] | FileScript:
    """The options a pip configuration file sets that `_PIP_CONFIGURED` reads, as words; a
    refusal of a file that cannot be read or that says where pip installs."""
    import configparser  # only a pip with a configuration file of the line's needs it

    if spelled in ("/dev/null", "os.devnull"):
        return []
    text = _read_file(walk, view, spelled)
    if text is None or isinstance(text, FileScript):
        return text or []
    parser = configparser.RawConfigParser()
    try:
        parser.read_string(text)
    except configparser.Error:
        return []  # (pip stops: a configuration it cannot parse is an error)
    words: list[Arg] = []
    for section in parser.sections():
        for key, value in parser.items(section):
            key = key.lower().replace("_", "-").removeprefix("--")
            if key in _PIP_CONFIGURED_PLACES and not _pip_place_harmless(key, value):
                return _refused(spelled, view.name, f"it sets {key}, which says where pip installs or finds archives")
            if key in _PIP_CONFIGURED:
                if "$" in value:  # (pip expands `$VAR` and `~` in these values)
                    return _refused(spelled, view.name, "a file or project it names holds an environment variable")
                words.extend(Arg(w, None, False, 1, None) for part in value.split() for w in (_PIP_CONFIGURED[key], part))
    return words


def _pip_site_configuration(walk: Walk, view: View) -> str | None:
    """`pip.conf` of the virtual environment whose pip (or python) runs, spelled absolute, when
    the line names it: run by its path in the venv's `bin`, or found in a `bin` the line put
    first on PATH; None otherwise."""
    word = view.args[view.inner] if view.inner < len(view.args) else None
    if word is None or word.opaque or walk.disk is None:
        return None
    path = None
    if "/" in word.text:
        path = walk.absolute(word.text, view.cwd)
    else:
        for directory in walk.context.path_dirs:
            if walk.disk.kind([*directory, word.text]) in ("file", "link"):
                path = (*directory, word.text)
                break
    if path is None or len(path) < 3 or path[-2] != "bin" or walk.disk.kind([*path[:-2], "pyvenv.cfg"]) != "file":
        return None
    return "/" + "/".join((*path[:-2], "pip.conf"))


# Python front ends that build and install local projects with their build backends (issue 11,
# round 5: `uv pip install ./sub`, `uv sync`, `poetry install`, `pipx install ./sub`, `python
# -m build`): per program, its general options that take a value, and per subcommand, the
# options after which it does not build the project it runs in (None: it builds only the
# projects it is given). The projects it is given: its operands that pip would take for paths
# (`_local_project`); of a subcommand in `_SOURCE_OPERANDS`, any operand (`uv build sub`).
# `uv pip …` is pip's command line (`_pip_project`); `uv run CMD` syncs first and `uvx --from
# ./sub` builds ./sub (analysis.py walks `uv sync`, `uv tool run --from ./sub` beside them).
_BUILDERS: dict[str, tuple[frozenset[str], dict[str, frozenset[str] | None]]] = {
    "uv": (frozenset({"--directory", "--project", "--cache-dir", "--config-file", "--color", "--python", "-p"}), {
        "sync": frozenset({"--no-install-project", "--no-install-workspace", "--only-dev", "--dry-run"}),
        "build": frozenset(), "add": frozenset({"--no-sync"}), "remove": frozenset({"--no-sync"}),
        "tool": None,
    }),
    "pipx": (frozenset({"--pip-args", "--python", "--suffix", "--index-url", "--preinstall"}),
             {sub: None for sub in ("install", "inject", "run", "install-all")}),
    "poetry": (frozenset({"-C", "--directory", "-P", "--project"}), {
        "install": frozenset({"--no-root", "--dry-run"}), "sync": frozenset({"--no-root", "--dry-run"}),
        "build": frozenset(), "add": frozenset({"--lock", "--dry-run"}),
    }),
    "pdm": (frozenset({"-p", "--project", "-c", "--config"}), {
        sub: frozenset({"--no-self", "--dry-run"}) for sub in ("install", "sync", "add", "update", "build")}),
    "hatch": (frozenset({"-e", "--env", "-p", "--project", "--data-dir", "--cache-dir", "--config"}), {
        sub: frozenset() for sub in ("build", "run", "test", "shell", "env")}),
    "pyproject-build": (frozenset({"-o", "--outdir", "-C", "--config-setting"}), {"": frozenset()}),
}
_SOURCE_OPERANDS = frozenset({("uv", "build"), ("pyproject-build", "")})
# Options that name the project a front end works on (round r6), anywhere on its line: `cd`,
# the directory it runs in (`uv --directory sub sync`, `poetry -C sub install`: every path is
# from there); `project`, the project's directory only (`uv --project sub sync`, `pdm -p sub
# install`); `named`, a project hatch finds through its own configuration (`hatch -p NAME`),
# which this layer does not read: it fails closed.
_PROJECT_OPTIONS: dict[str, dict[str, str]] = {
    "uv": {"--directory": "cd", "--project": "project"},
    "poetry": {"-C": "cd", "--directory": "cd", "-P": "project", "--project": "project"},
    "pdm": {"-p": "project", "--project": "project"},
    "hatch": {"-p": "named", "--project": "named"},
}
# Subcommands whose operands are requirements to install: one of unknown value fails closed
# (`uv tool install "$X"`; not `uv tool run`/`pipx run`, whose later words are the tool's).
_REQUIREMENT_OPERANDS = frozenset({("uv", "tool install"), ("uv", "add"), ("poetry", "add"), ("pdm", "add"),
                                   ("pipx", "install"), ("pipx", "inject")})
# Options after which a front end installs nothing at all (`_BUILDERS` lists those that skip
# the project only).
_INSTALLS_NOTHING = frozenset({"--dry-run", "--lock", "--no-sync"})
# Options whose value is a project to build (`uvx --from ./sub x`, `pipx run --spec ./sub x`).
_PROJECT_VALUES = frozenset({"--from", "--with", "--with-editable", "--spec"})


# A project that these front ends install as a package when they sync its environment (`uv
# sync`, `pdm install`, `poetry install`, `hatch run`): one whose pyproject.toml has a
# `[build-system]` table, says so (uv's `package = true`, pdm's `distribution = true`), or is
# poetry's (its package mode is the default). Their `build` subcommands build it anyway.
_PACKAGED = LazyPattern(r"(?m)^[ \t]*(?:\[build-system\]|\[tool\.poetry\]|(?:package|distribution)[ \t]*=[ \t]*true)")


def _packaged(walk: Walk, view: View, project: str = ".") -> bool:
    toml = _read_file(walk, view, "pyproject.toml" if project == "." else project.rstrip("/") + "/pyproject.toml")
    if toml is None:
        return False  # (none: they stop)
    return not isinstance(toml, str) or _PACKAGED().search(toml) is not None  # (unreadable: read on)


def python_builder(walk: Walk, view: View, args, name: str | None = None) -> FileScript | None:
    """The code a `_BUILDERS` front end (`view.name`, or `name` for `python3 -m build`) runs to
    build the projects it installs, as one program (`_projects_code`); None when it builds
    none."""
    name = name or view.name
    options, subcommands = _BUILDERS[name]
    k = 0
    while k < len(args) and args[k].text.startswith("-") and "" not in subcommands:
        if args[k].opaque:
            return None
        k += 2 if args[k].text in options else 1
    if "" in subcommands:
        subcommand = ""
    elif k >= len(args) or args[k].opaque:
        return None
    else:
        subcommand = args[k].text
        k += 1
    if name == "uv" and subcommand == "pip":
        return _pip_project(walk, view, args[k:])
    if subcommand not in subcommands:
        return None
    place = _project_place(view, name, args)
    if isinstance(place, FileScript):
        return place
    project, moved = place
    skips = subcommands[subcommand]
    directories = [project] if skips is not None and not any(a.text in skips for a in args[k:]) \
        and (subcommand in ("build", "") or _packaged(walk, view, project)) else []
    if not directories and skips and not any(a.text in _INSTALLS_NOTHING for a in args[k:]):
        # (`poetry install --no-root`, `uv sync` of an application: the projects it depends on
        # by path are installed all the same)
        toml = _read_file(walk, view, project.rstrip("/") + "/pyproject.toml")
        declared = toml if isinstance(toml, FileScript) else _declared(walk, view, project.rstrip("/") + "/", toml)
        if isinstance(declared, FileScript):
            return declared
        directories = declared[1]
    named: list[str] = []
    source = (name, subcommand) in _SOURCE_OPERANDS
    requirements = (name, subcommand if subcommand != "tool" or k >= len(args) else "tool " + args[k].text) \
        in _REQUIREMENT_OPERANDS
    while k < len(args):
        a = args[k]
        k += 1
        if a.opaque:
            option, eq, value = a.text.partition("=")
            if requirements and not a.text.startswith("-") or eq and option in _PROJECT_VALUES:
                return _refused(value if eq else a.text, view.name, "its name is not known")
            continue
        if a.text.startswith("-"):
            option, eq, value = a.text.partition("=")
            if not eq and option in options | _PROJECT_VALUES and k < len(args):
                if args[k].opaque and option in _PROJECT_VALUES:
                    return _refused(args[k].text, view.name, "its name is not known")  # (`--from "$X"`)
                value = "" if args[k].opaque else args[k].text
                k += 1
            if option in _PROJECT_VALUES and value:
                named.append(_local_project(value, False))  # (`uvx --from ./sub x`, `pipx run --spec ./sub`)
            continue
        named.append(a.text if source else _local_project(a.text, False))
    named = [n if moved == "." or n.startswith(("/", "~")) or _LOCAL_REPOSITORY().match(n) else f"{moved}/{n}"
             for n in named if n is not None]
    if named and source:
        directories = named  # (`uv build sub`: the source directory, not the one it runs in)
    else:
        directories.extend(named)
    return _projects_code(walk, view, list(dict.fromkeys(directories)))


def _project_place(view: View, name: str, args) -> tuple[str, str] | FileScript:
    """The project a front end works on and the directory its paths are from, as spelled from
    where it runs ((".", ".") without `_PROJECT_OPTIONS`; the last one given counts); a
    refusal of one of unknown value or that only hatch's configuration locates."""
    options = _PROJECT_OPTIONS.get(name)
    project = moved = "."
    if options is None:
        return project, moved
    for k, a in enumerate(args):
        option, eq, value = a.text.partition("=")
        how = options.get(option)
        if how is None:
            continue
        word = Arg(value, None, a.opaque, a.count, a.word) if eq else args[k + 1] if k + 1 < len(args) else None
        if word is None:
            continue
        if word.opaque or how == "named":
            why = "its name is not known" if word.opaque else "hatch finds it through its own configuration"
            return _refused(word.text, view.name, why)
        place = word.text.rstrip("/") or "/"
        if how == "cd":
            moved = place if moved == "." or place.startswith(("/", "~")) else f"{moved}/{place}"
            project = moved
        else:
            project = place if moved == "." or place.startswith(("/", "~")) else f"{moved}/{place}"
    return project, moved


# pip's options whose value is the next word (or, short, the rest of the word: `-rFILE`), of
# its general options and those of install, download and wheel; an option not listed takes
# none (a value in the same word, `--target=x`, is its own).
_PIP_VALUES = frozenset({
    "--log", "--log-file", "--proxy", "--retries", "--timeout", "--exists-action", "--trusted-host", "--cert",
    "--client-cert", "--cache-dir", "--python", "--use-feature", "--use-deprecated", "--keyring-provider",
    "--requirement", "--constraint", "--editable", "--target", "--platform", "--python-version",
    "--implementation", "--abi", "--root", "--prefix", "--src", "--upgrade-strategy", "--config-settings",
    "--global-option", "--build-option", "--install-option", "--index-url", "--extra-index-url", "--find-links",
    "--no-binary", "--only-binary", "--progress-bar", "--root-user-action", "--report", "--dest", "--wheel-dir",
    "--group", "--build", "--build-dir", "--resume-retries",
})
_PIP_VALUE_LETTERS = "rcetdifCw"
# Options whose value names requirements files (read for the projects they name) or an
# editable project (a directory, `-e sub`).
_PIP_FILES = frozenset({"-r", "--requirement", "-c", "--constraint"})
_PIP_EDITABLE = frozenset({"-e", "--editable"})
# Requirements files read for one command, nested ones (`-r other.txt`) among them.
_REQUIREMENT_FILES = 64
# Local projects one command builds, read beyond that: it fails closed.
_LOCAL_PROJECTS = 64


def _pip_options(args):
    """pip's words as (option or None, value): `-r F`, `-rF`, `--requirement=F`, a bundle
    `-qr F` give ("-r" or "--requirement", F); an operand gives (None, it); an option without
    a value (option, None). Words after `--` are operands."""
    k = 0
    while k < len(args):
        a = args[k]
        t = a.text
        k += 1
        if t == "--":
            for rest in args[k:]:
                yield None, rest
            return
        if a.opaque or not t.startswith("-") or t == "-":
            yield None, a
        elif t.startswith("--"):
            option, eq, value = t.partition("=")
            if eq:
                yield option, Arg(value, None, a.opaque, a.count, a.word)
            elif option in _PIP_VALUES and k < len(args):
                yield option, args[k]
                k += 1
            else:
                yield option, None
        else:
            for j in range(1, len(t)):
                letter = t[j]
                if letter not in _PIP_VALUE_LETTERS:
                    yield "-" + letter, None
                    continue
                if j + 1 < len(t):
                    yield "-" + letter, Arg(t[j + 1 :].removeprefix("="), None, False, a.count, a.word)
                elif k < len(args):
                    yield "-" + letter, args[k]
                    k += 1
                break


def _pip_subcommand(args) -> int | None:
    """Where pip's subcommand is among `args` (after its general options: `pip -q
    --no-cache-dir install .`), or None (none, or of unknown value)."""
    k = 0
    while k < len(args):
        a = args[k]
        if a.opaque:
            return None
        if not a.text.startswith("-"):
            return k
        k += 2 if a.text in _PIP_VALUES else 1
    return None


def _local_projects(walk: Walk, view: View, args) -> list[str] | FileScript:
    """The local projects a pip command builds, spelled as directories: the operands pip
    takes for paths (a `/` in them, or a leading `.`: `sub/`, `./sub[x]`, `.[dev]`; a
    `file:` URL; `name @ file:…`), every `-e`/`--editable` value that is no VCS or remote
    URL (pip reads `-e sub` as the directory sub), and those the requirements files of `-r`
    and `-c` name (read within bounds, `-r` within them followed; one that cannot be read
    fails closed)."""
    out: list[str] = []
    files: list[str] = []
    for option, value in _pip_options(args):
        if value is None:
            continue
        if value.opaque:
            if option in _PIP_PATHS and not (option is None and _index_requirement(walk, view, value.text)):
                return _refused(value.text, view.name, "its name is not known")
            continue
        if option is None or option in _PIP_EDITABLE:
            local = _local_project(value.text, option is not None)
            if local is not None:
                out.append(local)
        elif option in _PIP_FILES and "://" not in value.text:
            files.append(value.text)
        elif option in _PIP_LINKS:
            archives = _linked_archives(walk, view, value.text)
            if isinstance(archives, FileScript):
                return archives
            out.extend(archives)
        elif option in _PIP_INDEXES and not _pip_place_harmless("index-url", value.text):
            return _refused(value.text, view.name, _LOCAL_INDEX)
    seen: set[str] = set()
    k = 0
    while k < len(files):
        spelled = files[k]
        k += 1
        if spelled in seen:
            continue
        seen.add(spelled)
        if len(seen) > _REQUIREMENT_FILES:
            return _refused(spelled, view.name, f"it reads more than {_REQUIREMENT_FILES} requirements files")
        text = _read_file(walk, view, spelled)
        if isinstance(text, FileScript):
            return text
        if text is None:
            continue  # (not there: pip stops)
        base = spelled.rpartition("/")[0]
        for line in _requirement_lines(text):
            named_files: list[str] = []
            named_projects: list[str] = []
            if line.startswith("-"):
                for option, value in _pip_options([Arg(w, None, False, 1, None) for w in line.split()]):
                    if value is not None and option in _PIP_FILES and "://" not in value.text:
                        # (a nested file is named from the file that names it)
                        named_files.append(value.text if value.text.startswith("/") or not base
                                           else base + "/" + value.text)
                    elif value is not None and option in _PIP_EDITABLE:
                        named_projects.append(_local_project(value.text, True))
                    elif value is not None and option in _PIP_INDEXES \
                            and not _pip_place_harmless("index-url", value.text):
                        return _refused(value.text, view.name, _LOCAL_INDEX)
                    elif value is not None and option in _PIP_LINKS:
                        # (relative to the file when there is one there, else to where pip runs)
                        for place in dict.fromkeys((value.text, base + "/" + value.text if base else value.text)):
                            archives = _linked_archives(walk, view, place)
                            if isinstance(archives, FileScript):
                                return archives
                            named_projects.extend(archives)
            else:
                named_projects.append(_local_project(line.split(" -", 1)[0].strip(), False))
            named_projects = [p for p in named_projects if p is not None]
            if "${" in line and (named_files or named_projects):
                # (pip puts in the environment's `${NAME}`: a path of unknown value here)
                return _refused(spelled, view.name, "a file or project it names holds an environment variable")
            files.extend(named_files)
            out.extend(named_projects)
    return list(dict.fromkeys(out))


# The options whose value names a local path to a project, a requirements file or archives
# (round r6): one of unknown value fails closed, as pip may read it as a path.
_PIP_LINKS = frozenset({"-f", "--find-links"})
# An index on this machine (`--index-url file:///…/simple`: its pages link archives there,
# which pip builds; round r7) is not read: it fails closed. One on another host passes.
_PIP_INDEXES = frozenset({"-i", "--index-url", "--extra-index-url"})
_LOCAL_INDEX = "the archives an index on this machine links are not read"
_PIP_PATHS = frozenset({None}) | _PIP_EDITABLE | _PIP_FILES | _PIP_LINKS
# An operand whose known beginning is a project's name and a version operator (`"requests==$V"`):
# pip reads it as a path only when a directory (`requests==1/../sub`) or an archive file that
# begins with that text is there (`_get_url_from_path`).
_VERSIONED_NAME = LazyPattern(r"[A-Za-z0-9][\w.-]*(?:\[[\w,. -]*\])?[ \t]*(?:===?|~=|!=|<=?|>=?)")


def _index_requirement(walk: Walk, view: View, text: str) -> bool:
    """Whether an operand of unknown value is proven a requirement of the index: its known
    beginning is a name and a version operator (`_VERSIONED_NAME`) and nothing where pip
    runs has a name that begins with that text."""
    known = re.split(r"[$`]", text, maxsplit=1)[0]
    if _VERSIONED_NAME().match(known) is None or view.cwd is None or walk.disk is None:
        return False
    names = walk.disk.names_in(view.cwd, lambda name: name.startswith(known))
    return not names and not isinstance(names, Refused) and not _made_on_line(walk, view.cwd, known)


def _made_on_line(walk: Walk, directory: tuple[str, ...], known: str) -> bool:
    """Whether the line made something in `directory` whose name begins with `known` (`mkdir
    'requests==1'`, `mkdir -p 'requests==1/x'`, `cp -r sub 'requests==1'`: round r7), or wrote
    members of unknown names into it or a directory above it (an archive extracted there)."""
    depth = len(directory)
    for path in walk.written():
        if len(path) > depth and path[depth].startswith(known) and path[:depth] == directory:
            return True
    return any(directory[: len(tree)] == tree for tree in walk.context.trees_written)


def _linked_archives(walk: Walk, view: View, value: str) -> list[str] | FileScript:
    """The archives pip may pick from a local `--find-links` directory (`-f ./dist`), spelled
    as pip is given them, for `_archive_code` to judge: each file there whose name is an
    archive's (none when it is missing or a remote URL); a refusal of a page of links (a file)
    or a place that cannot be listed."""
    if "://" in value and not value.startswith("file:"):
        return []
    if "${" in value:  # (pip puts in the environment's `${NAME}`)
        return _refused(value, view.name, "its name is not known")
    spelled = _local_project(value, True) if value.startswith("file:") else value
    if not spelled:
        return []
    path = walk.absolute(spelled, view.cwd)
    if path is None or walk.disk is None:
        return _refused(spelled, view.name, "the place it finds archives in is unknown")
    kind = walk.disk.kind(list(path))
    names = walk.disk.names_in(path, lambda name: name.endswith(_ARCHIVES)) if kind == "dir" else kind
    if isinstance(names, Refused):
        return _refused(spelled, view.name, names.reason)
    if kind == "missing":
        return []
    if kind != "dir":
        return _refused(spelled, view.name, "the archives a page of links names are not read")
    return [spelled.rstrip("/") + "/" + name for name in sorted(names)]


_COMMENT = LazyPattern(r"(?:^|\s)#.*")
_DIRECT_REFERENCE = LazyPattern(r"[A-Za-z0-9][\w.-]*\s*(?:\[[^\]]*\])?\s*@\s*(\S+)")
_EXTRAS = LazyPattern(r"\[[^\]]*\]$")


def _requirement_lines(text: str) -> list[str]:
    """The lines of a requirements file as pip reads them: a line ending in `\\` joined with
    the next, comments dropped, blank lines skipped."""
    out: list[str] = []
    for line in text.replace("\\\n", "").split("\n"):
        line = _COMMENT().sub("", line).strip()
        if line:
            out.append(line)
    return out


def _local_project(spec: str, editable: bool) -> str | None:
    """The directory a requirement names (spelled as written, without extras, markers or a
    fragment), or None: a project name, a remote or VCS URL. pip takes a requirement for a
    path when it holds a `/` or begins with `.`, and an editable one always."""
    spec = spec.split(";", 1)[0].strip()
    reference = _DIRECT_REFERENCE().fullmatch(spec)
    if reference is not None:
        spec = reference.group(1)  # `name @ file:///…`
        if not spec.startswith("file:") and _LOCAL_REPOSITORY().match(spec) is None:
            return None
    if _LOCAL_REPOSITORY().match(spec) is not None:
        return spec  # (`git+file:///…`: refused by `_projects_code`)
    if spec.startswith("file:"):
        from urllib.parse import unquote

        spec = unquote(spec[5:].split("#", 1)[0])
        if spec.startswith("//"):
            spec = "/" + spec[2:].partition("/")[2]  # (`file://localhost/x`, `file:///x`)
        editable = True
    elif "://" in spec or re.match(r"[a-z]+\+", spec):
        return None  # (a remote archive, a VCS checkout: not the project's files)
    spec = _EXTRAS().sub("", spec.split("#", 1)[0] if editable else spec)
    if not spec or not (editable or "/" in spec or spec.startswith(".") or spec.endswith(_ARCHIVES)):
        return None  # (pip takes `x-1.0.tar.gz` for a file when there is one: `_archive_code`)
    return spec.rstrip("/") or "/"


# Local archives (round r6): pip installs a file whose name ends as an archive's (pip's
# `is_archive_file`); an sdist holds the build code pip runs (setup.py, an in-tree backend),
# which this layer does not unpack, and a wheel runs none but installs its members, among
# them `.pth` files Python runs at every start-up and `NAME.data/` trees pip puts beside
# site-packages (scripts, headers, data under the prefix). npm's and yarn's tarballs hold a
# package.json whose install scripts run.
_WHEEL = ".whl"
_SDISTS = (".tar.gz", ".tgz", ".tar", ".tar.bz2", ".tbz", ".tar.xz", ".txz", ".tlz", ".tar.lz", ".tar.lzma",
           ".zip")
_ARCHIVES = _SDISTS + (_WHEEL,)
# A VCS URL of a repository on this machine (`git+file:///…`, `git+file:.`, `git+/abs`): pip
# clones and builds its committed files, which need not be the work tree's (a commit's setup.py
# differs from the one on disk); one of another host (`git+https://`, `git+ssh://`) is remote.
_LOCAL_REPOSITORY = LazyPattern(r"(?:git|hg|svn|bzr)\+(?!(?:https?|ssh|git|svn)(?:\+ssh)?://|[\w.-]+@)")


# Files a build backend runs besides setup.py and an in-tree backend: hatchling's build hook
# (`hatch_build.py`, or the `path` its `[tool.hatch…hooks.custom]` names), pdm-backend's
# `pdm_build.py`, poetry-core's build script (`[tool.poetry.build] script`, once `build`): the
# `.py` files pyproject.toml names are read too.
_BUILD_HOOKS = ("hatch_build.py", "pdm_build.py")
_NAMED_PYTHON = LazyPattern(r"""=[ \t]*["']([^"'\s]+\.py)["']""")


def _projects_code(walk: Walk, view: View, directories: list[str]) -> FileScript | None:
    """The code building `directories` runs (each project's setup.py, in-tree build
    backend, build hooks), as one program; a refusal of the first file that cannot be read."""
    parts: list[tuple[str, str]] = []
    directory = None
    directories = list(directories)  # (the path dependencies each declares join them)
    for spelled in directories:
        if len(directories) > _LOCAL_PROJECTS:
            return _refused(directories[_LOCAL_PROJECTS], view.name,
                            f"it builds more than {_LOCAL_PROJECTS} local projects")
        if spelled.endswith(_ARCHIVES) or _LOCAL_REPOSITORY().match(spelled) is not None:
            refused = _archive_code(walk, view, spelled)
            if refused is not None:
                return refused
            continue
        prefix = spelled if spelled.endswith("/") else spelled + "/"
        names = [prefix + "setup.py"]
        backend = _build_backend(walk, view, prefix.rstrip("/") or "/")
        if isinstance(backend, FileScript):
            return backend
        toml = _read_file(walk, view, prefix + "pyproject.toml")
        if isinstance(toml, FileScript):
            return toml
        if toml is not None:
            names.extend(prefix + n for n in _BUILD_HOOKS)
            names.extend(prefix + m.group(1).removeprefix("./") for m in _NAMED_PYTHON().finditer(toml)
                         if not m.group(1).startswith("/") and ".." not in m.group(1))
        declared = _declared(walk, view, prefix, toml)
        if isinstance(declared, FileScript):
            return declared
        names.extend(declared[0])
        directories.extend(d for d in declared[1] if d not in directories)
        found = _read_linked(walk, view, list(dict.fromkeys(names)), lambda name, text: ())
        if isinstance(found, FileScript):
            return found
        if (found or backend) and directory is None:
            directory = walk.absolute(spelled, view.cwd)  # (pip runs them in the project)
        parts.extend(found)
        parts.extend(backend)
    if not parts:
        return None
    script = FileScript(parts[0][0], view.name, False, True, None)
    script.text = "\n".join(part for _, part in parts)
    if len(parts) > 1:
        script.parts = parts
    if directory is not None:
        script.directory = directory
    return script


# What a project's configuration makes its install or build run besides its build code (round
# r6): the projects it depends on by path, which uv, poetry and pdm build and install with it
# (`[tool.uv.sources] x = {path = "sub"}`, uv's workspace members, poetry's `x = {path =
# "sub"}`, a requirement `x @ file:///${PROJECT_ROOT}/sub` of pdm's or of `[project]`), and the
# modules setuptools imports to fill in its metadata and commands (`attr:` in setup.cfg or
# `[tool.setuptools.dynamic]`, `[tool.setuptools.cmdclass]`, setup.cfg's `cmdclass`).
_SETUP_CFG_ATTR = LazyPattern(r"=[ \t]*attr:[ \t]*([A-Za-z_][\w.]*)")
# setup.cfg's `cmdclass =` and the indented lines that continue it (`build_py = a.cmd.BuildPy`)
_SETUP_CFG_CMDCLASS = LazyPattern(r"(?m)^[ \t]*cmdclass[ \t]*=(.*(?:\n[ \t]+.*)*)")
_CMDCLASS_ENTRY = LazyPattern(r"=[ \t]*([A-Za-z_][\w.]*)")
_WORKSPACE_MEMBERS = 64  # directories a workspace's member patterns may list, per project


def _declared(walk: Walk, view: View, prefix: str, toml: str | None) -> tuple[list[str], list[str]] | FileScript:
    """The module files setuptools may import and the path dependencies (see above) of the
    project at `prefix` (spelled, ending in `/`): (files, directories), spelled from where the
    command runs; a refusal of a dependency whose path holds a variable or a workspace too
    large to list."""
    import tomllib  # only an installer's project needs it

    modules: list[str] = []
    projects: list[str] = []
    table: dict = {}
    if toml is not None and ("path" in toml or "file:" in toml or "attr" in toml or "cmdclass" in toml
                             or "workspace" in toml):
        try:
            table = tomllib.loads(toml)
        except ValueError:
            table = {}  # (the build stops)
    tool = table.get("tool") if isinstance(table.get("tool"), dict) else {}
    uv, poetry = tool.get("uv") or {}, tool.get("poetry") or {}
    sources = uv.get("sources") if isinstance(uv, dict) else None
    for source in (sources.values() if isinstance(sources, dict) else ()):
        for entry in source if isinstance(source, list) else [source]:
            if isinstance(entry, dict) and isinstance(entry.get("path"), str):
                projects.append(entry["path"])
    groups = [poetry.get("dependencies"), poetry.get("dev-dependencies")] if isinstance(poetry, dict) else []
    for group in ((poetry.get("group") or {}).values() if isinstance(poetry, dict) and isinstance(
            poetry.get("group"), dict) else ()):
        groups.append(group.get("dependencies") if isinstance(group, dict) else None)
    for group in groups:
        for entry in (group.values() if isinstance(group, dict) else ()):
            for one in entry if isinstance(entry, list) else [entry]:
                if isinstance(one, dict) and isinstance(one.get("path"), str):
                    projects.append(one["path"])
    for requirement in _requirements(table):
        if "file:" not in requirement:
            continue
        spec = requirement.replace("file:///${PROJECT_ROOT}/", "file:").replace("${PROJECT_ROOT}/", "")
        local = _local_project(spec, False)
        if local is not None and "${" in local:
            return _refused(prefix + "pyproject.toml", view.name, "a project it depends on holds a variable")
        if local is not None:
            projects.append(local)
    workspace = uv.get("workspace") if isinstance(uv, dict) else None
    members = workspace.get("members") if isinstance(workspace, dict) else None
    for pattern in (members if isinstance(members, list) else ()):
        if isinstance(pattern, str):
            listed = _member_directories(walk, view, prefix, pattern)
            if isinstance(listed, FileScript):
                return listed
            projects.extend(listed)
    setuptools = tool.get("setuptools") if isinstance(tool.get("setuptools"), dict) else {}
    dynamic, cmdclass = setuptools.get("dynamic"), setuptools.get("cmdclass")
    imported = [v["attr"] for v in (dynamic.values() if isinstance(dynamic, dict) else ())
                if isinstance(v, dict) and isinstance(v.get("attr"), str)]
    imported.extend(v for v in (cmdclass.values() if isinstance(cmdclass, dict) else ()) if isinstance(v, str))
    cfg = _read_file(walk, view, prefix + "setup.cfg")
    if isinstance(cfg, FileScript):
        return cfg
    if cfg is not None:
        imported.extend(m.group(1) for m in _SETUP_CFG_ATTR().finditer(cfg))
        imported.extend(m.group(1) for block in _SETUP_CFG_CMDCLASS().finditer(cfg)
                        for m in _CMDCLASS_ENTRY().finditer(block.group(1)))
    for dotted in imported:
        parts = dotted.split(".")[:-1]  # (the module, without the attribute)
        for root in ("", "src/"):
            for k in range(1, len(parts) + 1):
                module = prefix + root + "/".join(parts[:k])
                modules.extend((module + ".py", module + "/__init__.py"))
    out = [p if p.startswith(("/", "~")) else (prefix.removeprefix("./") + p.removeprefix("./")).rstrip("/") or "."
           for p in projects]
    return list(dict.fromkeys(modules)), list(dict.fromkeys(out))


def _requirements(table: dict) -> list[str]:
    """The requirement strings a pyproject.toml declares (`[project]` dependencies and
    optional ones, `[dependency-groups]`, pdm's dev-dependencies)."""
    project = table.get("project") if isinstance(table.get("project"), dict) else {}
    pdm = (table.get("tool") or {}).get("pdm") if isinstance(table.get("tool"), dict) else None
    lists = [project.get("dependencies")]
    for groups in (project.get("optional-dependencies"), table.get("dependency-groups"),
                   pdm.get("dev-dependencies") if isinstance(pdm, dict) else None):
        lists.extend(groups.values() if isinstance(groups, dict) else ())
    return [r for group in lists if isinstance(group, list) for r in group if isinstance(r, str)]


def _member_directories(walk: Walk, view: View, prefix: str, pattern: str) -> list[str] | FileScript:
    """The directories a workspace member pattern (`packages/*`) names below the project at
    `prefix`, spelled from the project's parent (at most `_WORKSPACE_MEMBERS`)."""
    import fnmatch

    found = [""]
    for segment in pattern.strip("/").split("/"):
        if not any(c in segment for c in "*?["):
            found = [f + segment + "/" for f in found]
            continue
        listed: list[str] = []
        for place in found:
            path = walk.absolute(prefix + place, view.cwd)
            names = walk.disk.links_in(list(path), lambda n: fnmatch.fnmatchcase(n, segment), directories=True) \
                if path is not None and walk.disk is not None else Refused(UNKNOWN_DIRECTORY)
            if isinstance(names, Refused):
                return _refused(prefix + pattern, view.name, names.reason)
            listed.extend(place + n + "/" for n in sorted(names))
        if len(listed) > _WORKSPACE_MEMBERS:
            return _refused(prefix + pattern, view.name, f"it names more than {_WORKSPACE_MEMBERS} workspace members")
        found = listed
    return [f.rstrip("/") for f in found]


def _archive_code(walk: Walk, view: View, spelled: str) -> FileScript | None:
    """A refusal of a local archive or repository an installer builds (see `_ARCHIVES`,
    `_LOCAL_REPOSITORY`); None when there is none (pip stops) or it is a wheel that installs no
    start-up file and nothing beside site-packages."""
    if _LOCAL_REPOSITORY().match(spelled) is not None:
        return _refused(spelled, view.name, "it builds the committed files of a local repository, "
                                            "which this layer does not read")
    if view.cwd is None and spelled[:1] not in ("/", "~"):
        return _refused(spelled, view.name, UNKNOWN_DIRECTORY)
    path = walk.absolute(spelled, view.cwd)
    if path is None:
        return _refused(spelled, view.name, "its name is not known")
    if path in walk.written():
        return _refused(spelled, view.name, "the line writes it")
    if walk.disk is None:
        return None
    kind = walk.disk.kind(list(path))
    if isinstance(kind, Refused):
        return _refused(spelled, view.name, kind.reason)
    if kind == "missing":
        return None
    if not spelled.endswith(_WHEEL):
        return _refused(spelled, view.name, "an archive's build code is not unpacked")
    members = walk.disk.archive_members("/" + "/".join(path), "zip")
    if isinstance(members, Refused):
        return _refused(spelled, view.name, members.reason)
    if not isinstance(members, list):
        return None
    for member in members:
        top, slash, _ = member.name.partition("/")
        if not slash and top.endswith(".pth"):
            return _refused(spelled, view.name, f"it installs {top}, a start-up file Python runs")
        if slash and top.endswith(".data"):
            return _refused(spelled, view.name, f"it installs {top}/ beside site-packages")
    return None


_BACKEND_PATH = LazyPattern(r"(?m)^[ \t]*backend-path[ \t]*=[ \t]*\[([^\]]*)\]")
_BUILD_BACKEND = LazyPattern(r"""(?m)^[ \t]*build-backend[ \t]*=[ \t]*["']([\w.:]+)["']""")


def _build_backend(walk: Walk, view: View, directory: str) -> list[tuple[str, str]] | FileScript:
    """An in-tree PEP 517 build backend (pyproject.toml's `backend-path` and `build-backend`):
    the module pip imports to build the project, (spelled path, text) of those found
    (red-team round 2, AB)."""
    toml = _read_file(walk, view, directory + "/pyproject.toml")
    if not isinstance(toml, str):
        return toml if isinstance(toml, FileScript) else []
    paths, backend = _BACKEND_PATH().search(toml), _BUILD_BACKEND().search(toml)
    if paths is None or backend is None:
        return []
    module = backend.group(1).split(":", 1)[0].replace(".", "/")
    found: list[tuple[str, str]] = []
    for entry in re.findall(r"""["']([^"']*)["']""", paths.group(1)):
        base = directory + "/" + entry.strip("/") if entry.strip("/") not in ("", ".") else directory
        for spelled in (f"{base}/{module}.py", f"{base}/{module}/__init__.py"):
            text = _read_file(walk, view, spelled)
            if isinstance(text, FileScript):
                return text
            if text is not None:
                found.append((spelled, text))
    return found


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


# -- cargo ------------------------------------------------------------------------------------------

# cargo's own subcommands (and their one-letter aliases): an alias of the same name is ignored.
_CARGO_BUILTINS = frozenset({
    "add", "bench", "build", "b", "check", "c", "clean", "clippy", "config", "doc", "d", "fetch", "fix", "fmt",
    "generate-lockfile", "help", "info", "init", "install", "locate-project", "login", "logout", "metadata",
    "miri", "new", "owner", "package", "pkgid", "publish", "read-manifest", "remove", "rm", "report", "run", "r",
    "rustc", "rustdoc", "search", "test", "t", "tree", "uninstall", "update", "vendor", "verify-project",
    "version", "yank",
})
# Subcommands that compile nothing, so run no wrapper, linker or runner cargo's configuration names.
_CARGO_QUIET = frozenset({"help", "version", "new", "init", "search", "locate-project", "read-manifest",
                          "verify-project", "pkgid", "owner", "yank", "logout", "generate-lockfile", "fmt",
                          "metadata", "tree", "fetch", "vendor", "update", "add", "remove", "rm", "config",
                          "clean", "info", "report"})
# cargo's options that take the next word as their value.
_CARGO_VALUES = frozenset({"--config", "-Z", "-C", "--manifest-path", "--target", "--target-dir", "-p", "--package",
                           "--features", "-F", "--bin", "--example", "--test", "--bench", "-j", "--jobs",
                           "--profile", "--color", "--message-format", "--exclude", "--lockfile-path"})
# Configuration keys whose value is a program cargo runs (`[target.*]` and `[host]` hold `linker`
# and `runner` under each target, read for any key of that name), and the environment variables
# that set them (analysis.py walks those where the line assigns them).
_CARGO_PROGRAMS = (("build", "rustc"), ("build", "rustc-wrapper"), ("build", "rustc-workspace-wrapper"),
                   ("build", "rustdoc"), ("doc", "browser"), ("registry", "credential-provider"))
_CARGO_ALIAS_DEPTH = 8


def _cargo(walk: Walk, view: View, args) -> FileScript | None:
    """What `cargo` runs besides the compiler: the programs its configuration names (the
    `.cargo/config.toml` or `.cargo/config` of where it runs and of every directory above it
    up to the project's root, then `~/.cargo/config.toml`, then each `--config KEY=VALUE` or
    `--config FILE`): `build.rustc`, `rustc-wrapper`, `rustc-workspace-wrapper`, `rustdoc`,
    each target's `runner` and `linker`, `-C linker=` in rustflags, `doc.browser`, credential
    providers, each walked as the command line it is (`view.wrapper_scripts`); an `[alias]`
    (or `CARGO_ALIAS_NAME`) is read as the cargo command line it stands for. The files are read
    for mentions with the build script (build.rs) or, for `run`, `test` and `bench`, every
    `.rs` file. A configuration that cannot be read or parsed fails closed."""
    import tomllib  # (only a cargo command pays for it)

    configs: list[tuple[str, str]] = []
    parsed: list[tuple[dict, str]] = []  # (a configuration, the directory its relative paths are in)
    for prefix in _upward_from(walk, view, "."):
        for name in (".cargo/config.toml", ".cargo/config"):
            text = _read_file(walk, view, prefix + name)
            if isinstance(text, FileScript):
                return text
            if text is not None:
                configs.append((prefix + name, text))
                break
    home = walk.home_now()
    cargo_home: str | None = "/" + "/".join((*home, ".cargo")) if home is not None else None
    for a in view.args[: view.inner]:
        if a.text.startswith("CARGO_HOME="):
            if a.opaque:
                return _refused("its CARGO_HOME", "cargo", "the directory of its configuration is of unknown value")
            cargo_home = a.text.partition("=")[2] or "."
    if "CARGO_HOME" in walk.context.scope.values and not any(a.text.startswith("CARGO_HOME=")
                                                             for a in view.args[: view.inner]):
        known = walk.context.scope.values["CARGO_HOME"]
        if known is None or len(known) != 1:
            return _refused("its CARGO_HOME", "cargo", "the directory of its configuration is of unknown value")
        cargo_home = known[0].text
    if cargo_home is not None:
        for name in ("config.toml", "config"):
            spelled = cargo_home.rstrip("/") + "/" + name
            text = _read_file(walk, view, spelled)
            if isinstance(text, FileScript):
                return text
            if text is not None:
                configs.append((spelled, text))
                break
    for name, text in configs:
        try:
            parsed.append((tomllib.loads(text), _as_prefix(name.rpartition("/")[0].rpartition("/")[0])))
        except (tomllib.TOMLDecodeError, ValueError) as exc:
            return _refused(name, "cargo", f"it is not TOML cargo reads ({exc})")
    words = list(args)
    aliases: dict[str, list[str] | None] = {}
    for table, _ in parsed:
        for key, value in (table.get("alias") or {}).items() if isinstance(table.get("alias"), dict) else ():
            aliases.setdefault(key, _cargo_words(value))
    for a in view.args[: view.inner]:
        if a.text.startswith("CARGO_ALIAS_"):
            key, _, value = a.text.partition("=")
            aliases[key[len("CARGO_ALIAS_"):].lower().replace("_", "-")] = None if a.opaque else value.split()
    subcommand: str | None = None
    for _ in range(_CARGO_ALIAS_DEPTH + 1):
        position, subcommand = _cargo_subcommand(words)
        if subcommand is None or subcommand in _CARGO_BUILTINS or subcommand not in aliases:
            break
        expansion = aliases[subcommand]
        if expansion is None:
            return _refused("its alias " + subcommand, "cargo", "the alias is of unknown value")
        words = [*words[:position], *(_Word(w) for w in expansion), *words[position + 1:]]
    else:
        return _refused("its alias " + (subcommand or ""), "cargo", f"aliases more than {_CARGO_ALIAS_DEPTH} deep")
    k = 0
    while k < len(words):
        t = words[k].text
        value = None
        if t == "--config" and k + 1 < len(words):
            value, k = words[k + 1], k + 1
        elif t.startswith("--config="):
            value = _Word(t.partition("=")[2], words[k].opaque)
        if value is not None:
            if value.opaque:
                return _refused("its --config", "cargo", "the configuration is of unknown value")
            one = _cargo_config_option(walk, view, value.text, tomllib)
            if isinstance(one, FileScript):
                return one
            parsed.append((one, ""))
        k += 1
    lines: list[str] = []
    if subcommand is None or subcommand not in _CARGO_QUIET:
        for table, base in parsed:
            lines.extend(_cargo_programs(table, base))
        # (`-C linker=PROGRAM` in the rustflags the environment gives, on the line or exported)
        scope = walk.context.scope.values
        assigned = [a.text.partition("=") for a in view.args[: view.inner] if not a.opaque and "=" in a.text]
        assigned += [(name, "=", " ".join(v.text for v in known)) for name, known in scope.items()
                     if known is not None and name.endswith("RUSTFLAGS")]
        for name, _, value in assigned:
            if name.endswith("RUSTFLAGS") or name.endswith("RUSTDOCFLAGS"):
                flags = value.split("\x1f") if name.startswith("CARGO_ENCODED_") else value
                lines.extend(" ".join(_quoted(w) for w in linker.split()) for linker in _linker_flags(flags))
    if lines:
        view.wrapper_scripts = (*view.wrapper_scripts, *lines)
    script: FileScript | None = None
    if subcommand in _CARGO_RUNS:
        script = _compiled(walk, view, "cargo", [(".", True)], r".*\.rs", _CARGO_SKIPPED)
    elif subcommand in TOOLS["cargo"][0]:
        text = _read_file(walk, view, "build.rs")
        if isinstance(text, FileScript):
            return text
        if text is not None:
            script = FileScript("build.rs", "cargo", False, True, None)
            script.text = text
            script.parts = [("build.rs", text)]
    if script is not None and script.refused is not None:
        return script
    if not configs:
        return script
    if script is None:
        script = FileScript(" and ".join(n for n, _ in configs), "cargo", True, True, None)
        script.lines = []
        script.parts = []
        script.text = ""
    script.parts = [*(script.parts or ([(script.path, script.text)] if script.text else [])), *configs]
    script.text = "\n".join(t for _, t in script.parts)
    script.path = " and ".join(n for n, _ in script.parts[:3]) + (" and more" if len(script.parts) > 3 else "")
    return script


class _Word:
    """A word of an alias's expansion, or of `--config=VALUE`, shaped as a command's `Arg`."""

    __slots__ = ("text", "opaque")

    def __init__(self, text: str, opaque: bool = False) -> None:
        self.text = text
        self.opaque = opaque


def _cargo_words(value) -> list[str] | None:
    """An alias's value: a string (split at blanks) or a list of strings."""
    if isinstance(value, str):
        return value.split()
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return list(value)
    return None


def _cargo_subcommand(words) -> tuple[int, str | None]:
    """The position and name of cargo's subcommand among `words` (None: none, or of unknown
    value: `+toolchain` and options are skipped)."""
    k = 0
    while k < len(words):
        a = words[k]
        if a.opaque:
            return k, None
        t = a.text
        if t in _CARGO_VALUES:
            k += 2
            continue
        if t.startswith(("-", "+")):
            k += 1
            continue
        return k, t
    return k, None


def _cargo_config_option(walk: Walk, view: View, text: str, tomllib) -> dict | FileScript:
    """`--config KEY=VALUE` (a TOML line) or `--config FILE`."""
    if "=" in text:
        try:
            return tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            return _refused("its --config", "cargo", f"it is not TOML cargo reads ({exc})")
    content = _read_file(walk, view, text)
    if isinstance(content, FileScript):
        return content
    if content is None:
        return {}
    try:
        return tomllib.loads(content)
    except tomllib.TOMLDecodeError as exc:
        return _refused(text, "cargo", f"it is not TOML cargo reads ({exc})")


def _cargo_programs(table: dict, base: str) -> list[str]:
    """The command lines of the programs one configuration names (see `_cargo`); a program
    spelled with a `/` is relative to the directory holding `.cargo/` (`base`)."""
    values: list = []
    for section, key in _CARGO_PROGRAMS:
        part = table.get(section)
        if isinstance(part, dict) and key in part:
            values.append(part[key])
    for section in ("target", "host", "registries"):
        part = table.get(section)
        pending = [part] if isinstance(part, dict) else []
        while pending:
            current = pending.pop()
            for key, value in current.items():
                if isinstance(value, dict):
                    pending.append(value)
                elif key in ("runner", "linker", "credential-provider"):
                    values.append(value)
                elif key in ("rustflags", "rustdocflags"):
                    values.extend(_linker_flags(value))
    for section in ("build",):
        part = table.get(section)
        if isinstance(part, dict):
            for key in ("rustflags", "rustdocflags"):
                if key in part:
                    values.extend(_linker_flags(part[key]))
    lines: list[str] = []
    for value in values:
        words = value.split() if isinstance(value, str) else value if isinstance(value, list) else None
        if not words or not all(isinstance(w, str) for w in words):
            continue
        program = words[0]
        if "/" in program and not program.startswith("/"):
            program = base + program
        lines.append(" ".join(_quoted(w) for w in [program, *words[1:]]))
    return lines


def _linker_flags(value) -> list[str]:
    """The linkers `-C linker=PROGRAM` (or `-Clinker=…`) in a rustflags value names."""
    words = value.split() if isinstance(value, str) else [w for w in value if isinstance(w, str)] \
        if isinstance(value, list) else []
    out: list[str] = []
    for k, word in enumerate(words):
        flag = word[2:] if word.startswith("-C") and len(word) > 2 else words[k + 1] if word == "-C" and k + 1 < len(words) else ""
        if flag.startswith("linker="):
            out.append(flag.partition("=")[2])
    return out


def _refused(shown: str, runner: str, why: str) -> FileScript:
    script = FileScript(shown, runner, False, True, ())
    script.refused = why
    return script


def _quoted(word: str) -> str:
    return "'" + word.replace("'", "'\\''") + "'"


def _configuration(walk: Walk, view: View, args, tool: str | None = None) -> FileScript | None:
    """The configuration file a `CONFIG_TOOLS` tool (`view.name`, or `tool` for `python3 -m
    sphinx`) runs, as code (see the table): the one an option names, else the nearest of its
    names from where the tool runs up to the project's root. An option's value of unknown value
    fails closed, as does a file that cannot be read within bounds."""
    tool = tool or view.name
    names, options, names_directory = CONFIG_TOOLS[tool]
    if any(a.text in _NO_CONFIGURATION for a in args):
        return None
    words = [a for a in args if not a.text.startswith("-")]
    if tool == "bundle" and words and (words[0].opaque or words[0].text not in _BUNDLE_READS):
        return None
    spelled = _configuration_option(tool, args, options)
    if spelled is not None and not isinstance(spelled, str):
        refused = FileScript(f"the configuration {tool} is given", tool, False, True, None)
        refused.refused = "its configuration file is of unknown value"
        return refused
    if tool == "sphinx-build" and spelled is None:
        # `sphinx-build [OPTIONS] SOURCEDIR OUTPUTDIR` (`-M BUILDER SOURCEDIR …`): conf.py of the
        # source directory; `-C` runs none.
        if any(a.text == "-C" for a in args):
            return None
        words = _operands(args, _SPHINX_VALUES)
        if words and not words[0].opaque and args and any(a.text == "-M" for a in args):
            words = words[1:]  # (`-M`'s builder is its operand)
        if not words:
            return None
        if words[0].opaque:
            refused = FileScript("conf.py of the source directory", tool, False, True, None)
            refused.refused = "its source directory is of unknown value"
            return refused
        spelled = words[0].text
        names_directory = True
    if spelled is not None:
        candidates = [_as_prefix(spelled) + n for n in names] if names_directory else [spelled]
    else:
        candidates = [prefix + n for prefix in _upward(walk, view) for n in names]
    found = _read_first(walk, view, candidates)
    if found is None or isinstance(found, FileScript):
        return found
    candidate, text = found
    script = FileScript(candidate, tool, False, True, None)
    if tool == "mkdocs":
        return _mkdocs_hooks(walk, view, candidate, text, script)
    script.text = text
    return script


def _read_first(walk: Walk, view: View, names: list[str]) -> tuple[str, str] | FileScript | None:
    """The first of `names` that is there, with its text; one that cannot be read within
    bounds stops the search as a refusal (`FileScript`); None when none is there."""
    for name in names:
        text = _read_file(walk, view, name)
        if text is not None:
            return text if isinstance(text, FileScript) else (name, text)
    return None


# sphinx-build's options that take a value (`-b html`, `-d DIR`, `-D name=value`, …).
_SPHINX_VALUES = frozenset({"-b", "-d", "-c", "-D", "-A", "-t", "-j", "-w", "--builder", "--doctree-dir",
                            "--conf-dir", "--define", "--html-define", "--tag", "--jobs", "--warning-file"})


def _operands(args, takes_value: frozenset[str]) -> list:
    """The operands of a call whose options in `takes_value` take the next word (`pdm run -p
    sub x`: `run`, `x`); every word after `--`."""
    out = []
    k = 0
    while k < len(args):
        t = args[k].text
        if t in takes_value:
            k += 2
            continue
        if t == "--":
            out.extend(args[k + 1 :])
            break
        if not t.startswith("-") or t == "-":
            out.append(args[k])
        k += 1
    return out


def _configuration_option(tool: str, args, options: frozenset[str]):
    """The text an option of `options` gives (`-c FILE`, `--config=FILE`, `-cFILE`), the
    `Arg` itself when it is of unknown value, or None when no such option is given. rollup's
    `-c` takes a value only when the next word is a program file (`rollup -c` reads the
    default)."""
    for k, a in enumerate(args):
        t = a.text
        if t in options:
            if k + 1 >= len(args):
                return None
            value = args[k + 1]
            if tool == "rollup" and not value.text.endswith(_JS_EXTENSIONS):
                return None
            return value if value.opaque else value.text
        for option in options:
            if option.startswith("--") and t.startswith(option + "="):
                return a if a.opaque else t[len(option) + 1 :]
            if len(option) == 2 and t.startswith(option) and len(t) > 2 and not t.startswith("--"):
                return a if a.opaque else t[2:]
    return None


def _upward(walk: Walk, view: View) -> list[str]:
    """Prefixes for the directory a command runs in and each one above it up to the project's
    root (`""`, `"../"`, …); only the first outside the project (or with no root known)."""
    cwd = view.cwd
    root = walk.root_segs
    if cwd is None or root is None or cwd[: len(root)] != root:
        return [""]
    return ["../" * up for up in range(len(cwd) - len(root) + 1)]


# mkdocs.yml's `hooks:` list: Python files mkdocs imports and runs (`- hooks/x.py`).
_MKDOCS_HOOK = LazyPattern(r"^[ \t]*-[ \t]*['\"]?([^'\"#\n]+\.py)['\"]?[ \t]*(?:#.*)?$", re.MULTILINE)


def _mkdocs_hooks(walk: Walk, view: View, spelled: str, text: str, script: FileScript) -> FileScript:
    """mkdocs.yml, read for mentions, with the Python hook files it lists (relative to its own
    directory), read as code."""
    directory = spelled.rpartition("/")[0]
    hooks = []
    in_hooks = False
    for line in text.split("\n"):
        if line.startswith("hooks:"):
            in_hooks = True
            continue
        if in_hooks and line and not line[0].isspace() and not line.startswith("-"):
            in_hooks = False
        if in_hooks:
            m = _MKDOCS_HOOK().match(line)
            if m:
                hooks.append(_as_prefix(directory) + m.group(1).strip())
    read = _read_linked(walk, view, hooks, lambda name, text: [])
    if isinstance(read, FileScript):
        return read
    parts = [(spelled, text), *read]
    script.path = " and ".join(n for n, _ in parts)
    script.text = "\n".join(t for _, t in parts)
    if len(parts) > 1:
        script.parts = parts
    return script


# pre-commit's subcommands that run hooks (a bare `pre-commit` is `pre-commit run`).
_PRE_COMMIT_RUNS = frozenset({"run", "hook-impl", "try-repo"})
# One `key: value` line of a YAML block mapping, perhaps the first of a list item (`- key: value`).
_YAML_KEY_LINE = LazyPattern(r"( *)(- +)?([A-Za-z_][\w-]*)[ \t]*:(?:[ \t]+(.*?))?[ \t]*")


def pre_commit(walk: Walk, view: View, args, tool: str = "pre-commit") -> FileScript | None:
    """`pre-commit run` (`hook-impl`, `try-repo`, or none): .pre-commit-config.yaml (or the
    file `-c`/`--config` names), read for mentions, and the hooks of its `repo: local` entries
    walked one shell line each: the `entry` command, given every file git tracks (as `git
    ls-files | xargs ENTRY` reads) unless the hook says `pass_filenames: false`; a `language:
    script` entry is a script of the repository. The hooks' `files`/`exclude`/`types` filters are
    not read (fail-closed: a hook may be given a protected file); remote repositories' hooks
    run code fetched at their pinned revision, not the project's files, and are not walked."""
    words = _operands(args, frozenset({"-c", "--config", "--hook-stage", "--from-ref", "--to-ref",
                                       "--source", "--origin", "-s", "-o", "--files", "--hook-type", "--hook-dir",
                                       "--color", "--remote-branch", "--local-branch", "--remote-name",
                                       "--remote-url", "--commit-msg-filename", "--prepare-commit-message-source",
                                       "--commit-object-name", "--checkout-type", "--is-squash-merge",
                                       "--rewrite-command"}))
    if words and (words[0].opaque or words[0].text not in _PRE_COMMIT_RUNS):
        return None
    if any(a.text in _NO_CONFIGURATION for a in args):
        return None
    spelled = _configuration_option("pre-commit", args, frozenset({"-c", "--config"}))
    if spelled is not None and not isinstance(spelled, str):
        refused = FileScript(f"the configuration {tool} is given", tool, True, True, None)
        refused.refused = "its configuration file is of unknown value"
        return refused
    spelled = spelled or ".pre-commit-config.yaml"
    text = _read_file(walk, view, spelled)
    if text is None or isinstance(text, FileScript):
        return text
    script = FileScript(spelled, tool, True, True, None)
    script.text = text
    script.lines = pre_commit_lines(text)
    return script


def pre_commit_lines(text: str) -> list[str]:
    """The shell lines of a pre-commit configuration's local hooks (see `pre_commit`), read
    by indentation, not as YAML (the check path loads no YAML parser): the list items least
    indented are the repositories; in one whose `repo` is `local`, the items of its `hooks`
    list are the hooks, whatever order their keys come in."""
    lines: list[str] = []
    for repo, hooks in _pre_commit_hooks(text):
        if repo != "local":
            continue
        for hook in hooks:
            entry = hook.get("entry")
            if not entry:
                continue
            if hook.get("language") == "script" and "/" not in entry.split(" ", 1)[0]:
                entry = "./" + entry
            if hook.get("pass_filenames", "true").lower() in ("false", "no", "off"):
                lines.append(entry)
            else:
                lines.append(f"git ls-files | xargs {entry}")
    return lines


def pre_commit_repositories(text: str) -> list[tuple[str, tuple[str, ...]]]:
    """Each repository of a pre-commit configuration: its `repo` (`local`, `meta`, a URL; ""
    when none is read) and the ids of its hooks (formatters.py judges the remote ones)."""
    return [(repo, tuple(hook.get("id", "") for hook in hooks)) for repo, hooks in _pre_commit_hooks(text)]


def _pre_commit_hooks(text: str) -> list[tuple[str, list[dict[str, str]]]]:
    """A pre-commit configuration's repositories, each its `repo` and its hooks' keys, read by
    indentation (see `pre_commit_lines`). A repository's `repo` may also stand in flow style
    or in a line this reading does not take: such a repository is still listed, with `repo` ""."""
    rows: list[tuple[int | None, int, str, str]] = []  # (dash column, key column, key, value)
    for line in text.split("\n"):
        m = _YAML_KEY_LINE().fullmatch(line)
        if m:
            indent, dash = len(m.group(1)), m.group(2)
            rows.append((indent if dash else None, indent + len(dash or ""), m.group(3),
                         _yaml_scalar(m.group(4) or "")))
    dashes = [row[0] for row in rows if row[0] is not None]
    if not dashes:
        return [("", [])] if "repo" in text else []
    top = min(dashes)
    repositories: list[list] = []
    for row in rows:
        if row[0] == top:
            repositories.append([row])
        elif repositories:
            repositories[-1].append(row)
    out: list[tuple[str, list[dict[str, str]]]] = []
    for repository in repositories:
        column = repository[0][1]
        repo = next((value for _, c, key, value in repository if c == column and key == "repo"), "")
        hooks: list[dict[str, str]] = []
        hook_dash = hook_column = None
        in_hooks = False
        for dash, c, key, value in repository:
            if c == column:
                in_hooks = key == "hooks"
                continue
            if not in_hooks:
                continue
            if dash is not None and (hook_dash is None or dash == hook_dash):
                hook_dash, hook_column = dash, c
                hooks.append({})
            if hooks and c == hook_column:
                hooks[-1][key] = value
        out.append((repo, hooks))
    return out


def _yaml_scalar(value: str) -> str:
    """A one-line YAML scalar's text: its quotes removed (`''` in single quotes is `'`), a
    plain scalar's trailing comment dropped."""
    if len(value) >= 2 and value[0] == value[-1] == "'":
        return value[1:-1].replace("''", "'")
    if len(value) >= 2 and value[0] == value[-1] == '"':
        return value[1:-1].replace('\\"', '"')
    return value.split(" #", 1)[0].rstrip()


# `dotnet` (since round 5): MSBuild evaluates the project files of the directory (or the project
# or solution named), the Directory.Build.props/.targets above it, and the projects a solution
# lists; their `<Exec Command="…">` tasks are shell lines it runs. `run`, `test` and `watch`
# also compile and run the project's sources.
_DOTNET_BUILDS = frozenset({"build", "run", "test", "publish", "pack", "msbuild", "restore", "watch",
                            "clean", "build-server", "vstest"})
_DOTNET_RUNS = frozenset({"run", "test", "watch"})
_DOTNET_PROJECTS = r".*\.(?:[cfv]sproj|proj|sln|slnx|props|targets)"
_DOTNET_SOURCES = r".*\.(?:cs|fs|fsx|vb|razor|cshtml)"
_DOTNET_SKIPPED = r"\..*|bin|obj|node_modules"
_DIRECTORY_BUILD = ("Directory.Build.props", "Directory.Build.targets", "Directory.Packages.props")
_DOTNET_VALUES = frozenset({"-c", "--configuration", "-f", "--framework", "-r", "--runtime", "-o", "--output",
                            "-v", "--verbosity", "-a", "--arch", "--os", "-p", "--property", "-s", "--source",
                            "--launch-profile", "--logger", "-l", "--filter", "--settings", "--results-directory",
                            "--collect", "--diag", "--version-suffix", "--project"})
_MSBUILD_EXEC = LazyPattern(r"""<Exec\b[^>]*?\bCommand\s*=\s*(?:"([^"]*)"|'([^']*)')""", re.IGNORECASE)
_SOLUTION_PROJECT = LazyPattern(r"""["']([^"'\n]+\.[cfv]sproj)["']""")


def _dotnet(walk: Walk, view: View, args) -> FileScript | None:
    """`dotnet build` (and the other subcommands that evaluate projects): the project files, read
    as text for mentions, their `<Exec Command>` lines walked as commands; for `run`/`test`/
    `watch` the sources they compile too, the whole read as a program (the Exec lines then
    walked as `view.wrapper_scripts`)."""
    from polydeukes.stdlib.shell.testrunners import source_files

    operands = _operands(args, _DOTNET_VALUES)
    if not operands or operands[0].opaque or operands[0].text not in _DOTNET_BUILDS:
        return None
    named = next((a for a in operands[1:] if a.text.endswith((".csproj", ".fsproj", ".vbproj", ".proj", ".sln",
                                                               ".slnx")) or a.opaque), None)
    project = next((args[k + 1] for k in range(len(args) - 1) if args[k].text == "--project"), named)
    if project is not None and project.opaque:
        return _refused("the project it is given", "dotnet", "its project is of unknown value")
    target = project.text if project is not None else "."
    found = source_files(walk, view, [(target, False)], _DOTNET_PROJECTS, _DOTNET_SKIPPED)
    if isinstance(found, Refused):
        return _refused("its project files", "dotnet", found.reason)
    directory = target if project is None or "/" not in target else target.rpartition("/")[0]
    if project is not None and "/" not in target:
        directory = "."
    names = list(found)
    for prefix in _upward_from(walk, view, directory):
        names.extend(prefix + n for n in _DIRECTORY_BUILD)
    parts = _read_linked(walk, view, names, _solution_projects)
    if isinstance(parts, FileScript):
        return parts
    # (an Exec task runs in its project's directory)
    lines = [(f"cd {_quoted(name.rpartition('/')[0])} && " if "/" in name else "")
             + _xml_unescaped(m.group(1) if m.group(1) is not None else m.group(2))
             for name, text in parts for m in _MSBUILD_EXEC().finditer(text)]
    runs = operands[0].text in _DOTNET_RUNS
    if lines and runs:
        view.wrapper_scripts = (*view.wrapper_scripts, *lines)  # (the script is the program's)
    if runs:
        project_directories = sorted({_as_prefix(n.rpartition("/")[0]) or "." for n, _ in parts
                                      if n.endswith(("proj",))}) or ["."]
        sources = source_files(walk, view, [(d, True) for d in project_directories], _DOTNET_SOURCES,
                               _DOTNET_SKIPPED)
        if isinstance(sources, Refused):
            return _refused("its source files", "dotnet", sources.reason)
        for name in sources:
            text = _read_file(walk, view, name)
            if isinstance(text, FileScript):
                return text
            if text is not None:
                parts.append((name, text))
    if not parts:
        return None
    script = FileScript(" and ".join(n for n, _ in parts) if len(parts) <= 3 else f"{parts[0][0]} and its project",
                        "dotnet", not runs, True, None)
    script.text = "\n".join(t for _, t in parts)
    if not runs:
        script.lines = lines  # (a build runs the project files' Exec lines, not the program)
    if len(parts) > 1:
        script.parts = parts
    return script


def _solution_projects(name: str, text: str) -> list[str]:
    """The projects a solution file lists, relative to it (none for another file)."""
    if not name.endswith((".sln", ".slnx")):
        return []
    base = _as_prefix(name.rpartition("/")[0])
    return [base + m.group(1).replace("\\", "/") for m in _SOLUTION_PROJECT().finditer(text)]


def _upward_from(walk: Walk, view: View, directory: str) -> list[str]:
    """`_upward`'s prefixes from `directory` (relative to where the command runs)."""
    path = walk.absolute(directory, view.cwd)
    root = walk.root_segs
    if path is None or root is None or path[: len(root)] != root:
        return [_as_prefix(directory)]
    return [_as_prefix(directory) + "../" * up for up in range(len(path) - len(root) + 1)]


def _xml_unescaped(text: str) -> str:
    for entity, character in (("&quot;", '"'), ("&apos;", "'"), ("&lt;", "<"), ("&gt;", ">"), ("&amp;", "&")):
        text = text.replace(entity, character)
    return text
