"""Scripts on disk that a command runs (issue 11, "Reading the working tree, read-only").

`bash build.sh`, `sh -e x.sh arg`, `source env.sh`, `. ./lib.sh`, `sh < x.sh`, `bash -s < x.sh`,
`./x.sh`, `tools/run` (a path as the command name), `python3 tool.py`, `node x.js`, `perl
x.pl`, `ruby x.rb`, `python3 < tool.py`: the walk reads the file the command runs, read-only
and within bounds (`disk.Disk.read_script`: a regular file, opened without blocking, at most
`disk.SCRIPT_BYTES` for a shell script, `disk.PROGRAM_BYTES` for a program only scanned for
mentions), and hands the judges a `FileScript`:

- **a shell script** (run by a shell, sourced, or a path whose `#!` line names a shell, or
  that has no `#!` line: `execve` refuses it and bash runs it as a script) is walked as a
  nested script (`walk_script`), one level deeper, in the directory of the command that runs
  it, with `$1`…`$9`, `$@` and `$*` bound to the call's arguments (unknown where an argument
  is). A script run by a shell runs in a child process: what it assigns and where it `cd`s
  stays there; a sourced script changes the caller's state. The judge also reads the
  script's text as a shell's `-c` text is read: a protected path it mentions fails closed
  (spec 04 §8.5 (e) keeps nested shells unabsolved), naming the script;
- **a program for another interpreter** (an interpreter's script operand, or a `#!` line
  naming any other program) is code: a mention, string fragments joined, fails closed, as
  for `-c`/`-e` code. Which words are the program is the interpreter's row's to say
  (interpreters.py): the script and the files loaded before it (`node -r ./x.js y.js`) are
  read together (`FileScript.paths`, then `parts`), and so are the files a test runner
  imports (`pytest tests/`, `python3 -m pytest`: testrunners.py); a reason names the file
  that mentions;
- a file that is not there (or a directory) runs nothing and is not judged; a file whose
  first line holds a NUL byte is a compiled program: run by its path, its bytes are searched
  for the protected entries' names (`_compiled`, `Protected.compiled_index`);
- a file that cannot be read within the bounds (a FIFO, a device, too large, unreadable, the
  disk budget spent) fails closed.

`make` and `npm`/`yarn`/`pnpm` run shell lines from a file (`runner_script`): a makefile's
recipe lines (and those of the makefiles its `include` directives name, `_included`),
package.json's scripts (the one a call names with its `pre`/`post` scripts, or the life cycle
scripts of the root package that `install`, `ci`, `pack`, `publish`, `version` … run,
`_LIFECYCLES`), each walked in a shell of its own; those of the workspace packages a call
selects (`npm run x -w sub`, `--workspaces`, `yarn workspace NAME`, `pnpm -r`: `_workspaces`),
in their directories; npm's defaults (`start` is `node server.js`; an install builds a
binding.gyp: `_binding_gyp`). `awk -f prog.awk` and
`sed -f script.sed` run a program from a file: it is read as code.

The same reading serves a file whose lines a pipeline's first stage passes on whole (`cat
list`, `sort list`, `head -n 3 list`, `grep x list`: `analysis.FILE_PASSERS`) to a stage that
takes operands, loop words or a script from its stdin (`| xargs rm`, `| while read f; do …`,
`| sh`): `passed_files` gives the files' text to that stage as a heredoc piped to it would be
(`cat <<EOF | xargs rm`), bounded as xargs's `-a FILE` (`disk.FILE_BYTES`); a file that
cannot be read within bounds fails closed.

A script the line itself writes first is the line's (`Walk._runs_written_script`); this
module reads only files the line did not write (and `sh < FILE` for both).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from polydeukes.stdlib.shell import effects as E
from polydeukes.stdlib.shell import inputs, listers
from polydeukes.stdlib.shell.analysis import (
    COMPILED_RUNNER,
    CODE_FILE_PROGRAMS,
    JVM_OPTION_PREFIXES,
    MAKES,
    NESTED_SHELLS,
    PROGRAM_FILE_READERS,
    PROJECT_TOOLS,
    UNKNOWN_DIRECTORY,
    Event,
    View,
    Walk,
    basename,
    shell_options,
    sqlite_editors,
)
from polydeukes.stdlib.shell.disk import (
    BINARY, COMPILED_BYTES, FILE_BYTES, PROGRAM_BYTES, SCRIPT_BYTES, Binary, CompiledText, Missing, Refused,
)
from polydeukes.stdlib.shell.expansion import ANY, ONE, Arg, Value, compile_segment, printed_file, printed_words, segment_matches
from polydeukes.stdlib.shell.readers import AWK_MODEL, LINES, MADE, WRITES, input_runs
from polydeukes.stdlib.shell.tokenizer import W_GLOB, PlainRun
from polydeukes.stdlib.shell.interpreters import (
    CONFIG_FILE,
    FAMILIES,
    OVERRIDE,
    PLUGIN,
    SETTINGS,
    TEST_PATH,
    TEST_RUNNERS,
    TestRun,
    family_of,
    test_runner,
)
from polydeukes.vm.sre import LazyPattern

SHELLS = NESTED_SHELLS - {"eval"}
SOURCING = frozenset({"source", "."})
POSITIONAL = tuple("123456789")


class FileScript:
    """A script file a command runs, as read from disk."""

    __slots__ = ("path", "runner", "shell", "text", "refused", "arguments", "child", "lines", "directory",
                 "paths", "parts", "tests", "node_bin", "rewritten", "pattern", "patterns", "sources",
                 "fallback", "made", "listings", "listings_read", "listed_text",
                 "code_parts")

    def __init__(self, path: str, runner: str, shell: bool, child: bool,
                 arguments: Sequence[Arg] | None) -> None:
        self.path = path  # as spelled on the command line
        self.runner = runner  # the program that runs it, for messages (`bash`, `python3`)
        self.shell = shell  # shell code (else code for another interpreter)
        self.child = child  # runs in a child process (not sourced)
        self.arguments = arguments  # its positional parameters (None: the caller's)
        self.text: str | None = None  # what the judge reads for mentions
        self.refused: str | None = None  # why it cannot be read within bounds
        # Shell lines run one per shell (a Makefile's recipe lines, package.json scripts); None:
        # `text` is one script.
        self.lines: list[str] | None = None
        # Where its lines run, when not where the command runs (`make -C dir`, `npm --prefix`;
        # None: unknown); False: where the command runs.
        self.directory: tuple[str, ...] | None | bool = False
        # A program of several files (an interpreter's preloads and script, the files a test
        # runner imports): their spelled paths, then (path, text) of those read.
        self.paths: list[str] | None = None
        self.parts: list[tuple[str, str]] | None = None
        # What a test runner's command line says (testrunners.test_files reads its files).
        self.tests: TestRun | None = None
        # Lines run with the package's node_modules/.bin first on PATH (package.json scripts).
        self.node_bin = False
        # The rewriter of a process substitution that makes the script of other text
        # (`bash <(rev a)`, `_rewritten_script`): nothing to read, the run fails closed.
        self.rewritten: str | None = None
        # The script is named by a pattern (`sh x.s?`): matched on disk when read (`_globbed`);
        # `patterns`: those among a program's files (`python3 p.p?`).
        self.pattern: str | None = None
        self.patterns: list[str] | None = None
        # The script is each file a lister can print (`bash "$(ls x.sh)"`, `source $(find . -name
        # x.sh)`): its listings (listers.py), matched on disk when read (`_listed`).
        self.listings: tuple | None = None
        self.listings_read: tuple = ()  # (the listings whose files `read` took as the script)
        # The script is the text of the files a lister prints, passed on by `xargs cat` or `cat
        # $(…)` (`source <(ls x.sh | xargs cat)`): the lister's command, walked when read.
        self.listed_text: str | None = None
        # Program files a tool of shell lines also runs, read as code ((path, text) each: the
        # build hooks `hatch run` builds the project with, beside pyproject.toml's scripts).
        self.code_parts: list[tuple[str, str]] = []
        # The script is the text of files a substitution passes on (`eval "$(head x.sh)"`,
        # `source <(tail x.sh)`): their spelled names or patterns, read together (`_sources`).
        self.sources: list[tuple[str, bool]] | None = None
        # An interpreter run by a path (`node_modules/.bin/node -e 1`): that file when it is a
        # shell script, else the program this reads (`_program`).
        self.fallback: FileScript | list[str] | None = None  # (a program: its env files, `--env-file`)
        # The file is data a program makes commands or file names of (`awk '{system("rm "
        # $2)}' f`, `_input_script`): what it does with them, for the message; it fails closed.
        self.made: str | None = None

    @property
    def origin(self) -> str:
        """Where a command inside it stands, for a reason about that command."""
        return f"{self.path}, run by {self.runner}"


def located(view: View) -> FileScript | None:
    """The script file `view` runs, before it is read: None when the command runs none (a
    `-c` string, a module, a heredoc, a name looked up in PATH) or its name is unknown."""
    args = view.args
    inner = view.inner
    name = view.name
    if name == "eval":
        return _substituted_files(view, args[inner + 1 :], name, False)  # `eval "$(head x.sh)"`
    if name in SHELLS:
        options = shell_options(args[inner + 1 :])
        if options is None:
            # `bash $OPTS x.sh`: which word is the script is unknown; `bash -c "$(head x.sh)"`:
            # the string of unknown value is x.sh's text
            at = next((k for k in range(inner + 1, len(args)) if args[k].opaque), len(args))
            before = shell_options(args[inner + 1 : at])
            if before is not None and "c" in before[1] and before[0] == at - inner - 1:
                return _substituted_files(view, args[at : at + 1], name, True)
            if before is not None and before[0] == at - inner - 1 and "s" not in before[1]:
                # (`/dev/fd/3`, spelled so; `"$(ls x.sh)"`, each file the lister prints)
                return _located(args[at], name, True, True, args[at + 1 :]) \
                    or _listed_script(view, at, name, True, True, args[at + 1 :]) \
                    or _after_vanishing(args, at, name, True)
            return None
        k, letters = options
        if "c" in letters:
            return None  # `sh -c '…'`: the walk reads the string
        stdin_mode = "s" in letters
        k += inner + 1
        if k < len(args) and not stdin_mode:
            return _located(args[k], name, True, True, args[k + 1 :]) or _after_vanishing(args, k, name, True)
        if k == len(args) and not stdin_mode and view.listed_argv is not None:
            # `ls x.sh | xargs bash`: the script is each file the lister prints (xargs appends it)
            return _listed_script(view, k, name, True, True, None)
        return _stdin_script(view, name, True, args[k:])
    if name in SOURCING:
        k = inner + 1
        if k < len(args) and args[k].text == "--":
            k += 1
        if k >= len(args):
            return None
        rest = args[k + 1 :]
        return _located(args[k], name, True, False, rest if rest else None) \
            or _listed_script(view, k, name, True, False, rest if rest else None) \
            or _after_vanishing(args, k, name, False)
    if view.stdin_program and view.stdin_program != "gdb" and name not in PROGRAM_FILE_READERS \
            and not _runs_own_program(view):
        return _stdin_script(view, name, False, ())  # `ed -s < x.ed`: its commands (E.STDIN_PROGRAMS)
    if name in CODE_FILE_PROGRAMS:
        found = _command_files(view, view.inner + 1, name) or _stdin_commands(view)
        if inner < len(args) and "/" in args[inner].text and not args[inner].opaque:
            # (round 8) `"$JAVA_HOME"/bin/java`, `./jdk/bin/java -jar a.jar`: a shell script of
            # that name runs instead; a compiled one is the program, its files read as above
            script = _located(args[inner], "", True, True, args[inner + 1 :])
            if script is not None:
                script.fallback = found
                return script
        return found
    if name == "split":
        return _split_filter(view, args[inner + 1 :])
    if name == "parallel":
        return _parallel_lines(view, args[inner + 1 :])
    if view.wrapper == "gdb" and inner >= len(args):
        at = next((k for k in range(len(args)) if basename(args[k].text) == "gdb"), None)
        return (_command_files(view, at + 1, "gdb") if at is not None else None) or _stdin_commands(view)
    model = view.model
    if name in _LINE_LOOPERS and (script := _input_script(view, args[inner + 1 :])) is not None:
        return script  # `perl -ne 'system $_' x.txt`
    if model is not None and model.handler == "interpreter":
        if inner < len(args) and "/" in args[inner].text and not args[inner].opaque:
            # `node_modules/.bin/node` shadowing node in a package script, `./python3 x.py`:
            # a shell script there runs instead of the interpreter (red-team round 2, Y)
            script = _located(args[inner], "", True, True, args[inner + 1 :])
            if script is not None:
                script.fallback = _program(view)
                return script
        return _program(view)
    if inner < len(args) and "/" in args[inner].text:
        return _located(args[inner], "", True, True, args[inner + 1 :])  # runner and kind: its `#!` line
    return None


def _runs_own_program(view: View) -> bool:
    """Is `view` an interpreter given its program on its command line (a script file, `-f
    FILE`, `-e CODE`), so that what it reads on stdin is not its program? (round r8: `R -f
    x.R > out` and `octave x.m > log` had x.R and x.m taken for stdin's text and not read)"""
    model = view.model
    found = view.effects
    if model is None or model.handler != "interpreter" or found is None:
        return False
    own = False
    for it in found.items:
        if it.text in E.STDIN_FILES and it.role in (E.EXEC, E.DATA):
            return False  # (`gnuplot -e cmd -`: `-` is stdin, its program)
        if it.role == E.EXEC and it.option != "-m" or it.role == E.CODE:
            own = True
    return own


def _stdin_commands(view: View) -> FileScript | None:
    """`gdb -q < cmds.gdb`: the file gdb reads its commands from (`E.STDIN_PROGRAMS`)."""
    return _stdin_script(view, "gdb", False, ()) if view.stdin_program == "gdb" else None


# (round 8) java's options that load code besides the program: (kind, value) of the option
# word `t` (`--patch-module`'s value, the next word, in `following`), or None. `file`: an agent
# jar (`-javaagent:JAR[=opts]`, its premain runs first) or native agent (`-agentpath:LIB[=opts]`);
# `library`: `-Djava.library.path=`, where `agent` (`-agentlib:NAME`) is looked up (OpenJDK 17
# looks in its own lib directory, then dlopen()'s search, LD_LIBRARY_PATH's: the property is
# read too, which only reads more); `class`: a
# class the JVM loads from the class path at start (`-Djava.system.class.loader=`,
# `-Djava.security.manager=`, not `allow`/`disallow`); `path`: a boot class path
# (`-Xbootclasspath/a:`, `/p:`) or a patched module's (`--patch-module M=P`), whose classes
# replace or extend the JDK's own.
_SECURITY_MANAGER_WORDS = frozenset({"", "allow", "disallow", "default"})


def _jvm_loaded(t: str, following: str | None) -> tuple[str, str] | None:
    if t[:2] not in ("-j", "-a", "-D", "-X", "--"):
        return None
    for prefix, kind in (("-javaagent:", "file"), ("-agentpath:", "file"), ("-agentlib:", "agent")):
        if t.startswith(prefix):
            return kind, t[len(prefix) :].split("=", 1)[0]
    if t.startswith("-Djava.library.path="):
        return "library", t.split("=", 1)[1]
    if t.startswith(("-Djava.system.class.loader=", "-Djava.security.manager=")):
        value = t.split("=", 1)[1]
        return None if value in _SECURITY_MANAGER_WORDS else ("class", value)
    if t.startswith(("-Xbootclasspath/a:", "-Xbootclasspath/p:", "-Xbootclasspath:")):
        return "path", t.split(":", 1)[1]
    if t == "--patch-module" and following is not None or t.startswith("--patch-module="):
        value = following if t == "--patch-module" else t.split("=", 1)[1]
        return "path", value.split("=", 1)[1] if "=" in value else ""
    return None


# Options of java, gdb and sqlite3 whose value is the next word (and those of gdb and sqlite3
# whose value is a file of commands it runs).
_JAVA_VALUES = frozenset({"-cp", "-classpath", "--class-path", "-p", "--module-path", "--upgrade-module-path",
                          "--add-modules", "--limit-modules", "--enable-native-access", "--source", "-d",
                          "--describe-module", "--add-reads", "--add-exports", "--add-opens", "--patch-module",
                          "-splash"})
_GDB_FILES = frozenset({"-x", "--x", "-command", "--command", "-ix", "--ix", "-init-command", "--init-command"})
_GDB_VALUES = frozenset({"-ex", "--ex", "-eval-command", "--eval-command", "-iex", "--iex", "-init-eval-command",
                         "--init-eval-command", "-p", "--pid", "-c", "--core", "-cd", "--cd", "-d", "--directory",
                         "-s", "--symbols", "-e", "--exec", "-se", "-tty", "--tty", "-data-directory",
                         "--data-directory", "-D", "-b", "-l", "-ix"})
_GDB_COMMANDS = frozenset({"-ex", "--ex", "-eval-command", "--eval-command", "-iex", "--iex", "-init-eval-command",
                           "--init-eval-command"})
# gdb's `source [-s] [-v] FILE` (any prefix from `so`), in a command file or an `-ex` command.
_GDB_SOURCE = LazyPattern(r"(?m)^[ \t]*so(?:u|ur|urc|urce)?(?:[ \t]+-[sv]+)*[ \t]+['\"]?([^'\"\s]+)")
_GDB_SOURCED = 64  # files a gdb program sources, at most


def gdb_sourced(text: str) -> list[str]:
    """The files gdb commands in `text` source (`source g.gdb`, `so -v g.gdb`)."""
    return [m.group(1) for m in _GDB_SOURCE().finditer(text)]


_SQLITE_VALUES = frozenset({"-cmd", "--cmd", "-init", "--init", "-separator", "--separator", "-newline",
                            "--newline", "-nullvalue", "--nullvalue", "-mmap", "--mmap", "-vfs", "--vfs",
                            "-lookaside", "--lookaside", "-maxsize", "--maxsize", "-pagecache", "--pagecache",
                            "-heap", "--heap", "-A", "-escape", "--escape"})
_SQLITE_READ = LazyPattern(r"(?m)^[ \t]*\.read[ \t]+['\"]?([^'\"\s|][^'\"\s]*)")  # (`|cmd`: a command)
_SQLITE_READS = 64  # files a sqlite3 program reads (`.read` inside a file it reads), at most


def _command_files(view: View, k: int, name: str) -> FileScript | None:
    """The files `java X.java` (a single-file source program), `jshell FILE`, `gdb -x FILE`
    and sqlite3 (`.read FILE` in an argument or `-cmd`, `-init FILE`, its stdin) run as code:
    read for mentions as a program is (red-team round 2, T and AF). sqlite3's `.shell` and
    `.system`, gdb's `shell` run command lines from them."""
    args = view.args
    files: list[str] = []
    operands = 0
    patterns: list[str] = []
    unknown: list[int] = []  # gdb's command files of unknown value (`-x "$F"`, `-x $(ls g.gdb)`)
    class_path = ["."]  # java's (`-cp`; without it CLASSPATH, assigned in front of java)
    library_path: list[str] = []  # (`-Djava.library.path=`; LD_LIBRARY_PATH's in front of java)
    if name == "java":
        assigned = next((a for a in reversed(args[: view.inner]) if a.text.startswith("CLASSPATH=")), None)
        if assigned is not None and not assigned.opaque:
            class_path = assigned.text[10:].split(":")
        # (java.library.path starts with LD_LIBRARY_PATH's directories on Linux)
        assigned = next((a for a in reversed(args[: view.inner]) if a.text.startswith("LD_LIBRARY_PATH=")), None)
        if assigned is not None and not assigned.opaque:
            library_path = assigned.text[16:].split(":")
    agents: list[str] = []  # (`-agentlib:NAME`)
    loader_classes: list[str] = []  # (`-Djava.system.class.loader=C`, `-Djava.security.manager=C`)
    directories: list[str] = []  # (of classes a boot class path or a patched module loads)
    while k < len(args):
        a = args[k]
        t = a.text
        if a.opaque:
            if name == "gdb" and t.partition("=")[0] in _GDB_FILES:
                unknown.append(k)  # (`-x=$F`)
            k += 1
            continue
        if name == "java":
            if t == "-jar" and k + 1 < len(args):
                files.append(args[k + 1].text)  # `java -jar app.jar`: its classes (`_compiled`)
                break
            if t in ("-cp", "-classpath", "--class-path") and k + 1 < len(args) and not args[k + 1].opaque:
                class_path = args[k + 1].text.split(":")
            loaded = _jvm_loaded(t, args[k + 1].text if t == "--patch-module" and k + 1 < len(args) else None)
            if loaded is not None:
                kind, value = loaded
                if kind == "file":
                    files.append(value)  # `-javaagent:a.jar`, `-agentpath:lib.so`: read as `-jar`'s
                elif kind == "library":
                    library_path = value.split(":")
                elif kind == "agent":
                    agents.append(value)
                elif kind == "class":
                    loader_classes.append(value)
                else:  # (a boot class path, a patched module's: jars read, a directory refused)
                    for entry in filter(None, value.split(":")):
                        if entry.endswith((".jar", ".zip")):
                            files.append(entry)
                        elif not directories:
                            directories.append(entry)
            if t in _JAVA_VALUES:
                k += 2
                continue
            if not t.startswith("-") and not t.startswith("@"):
                if t.endswith(".java"):
                    files.append(t)  # `java X.java`: compiled and run from source (JDK 11)
                else:
                    # `java -cp app.jar:classes Main`: the class is looked up along the class
                    # path, the current directory without one; each place is read (`_compiled`)
                    loader_classes.append(t)
                break  # the class or file; what follows is the program's argv
        elif name == "jshell":
            if t in ("--class-path", "-cp", "--module-path", "--add-modules", "--startup", "-R", "-J", "-C"):
                if t == "--startup" and k + 1 < len(args):
                    files.append(args[k + 1].text)
                k += 2
                continue
            if not t.startswith("-"):
                files.append(t)
        elif name == "gdb":
            option, _, attached = t.partition("=")
            if option in (_GDB_FILES | _GDB_COMMANDS) and not attached and k + 1 < len(args) \
                    and (args[k + 1].opaque or args[k + 1].pattern is not None):
                if args[k + 1].opaque and (option in _GDB_FILES or gdb_sourced(args[k + 1].text)):
                    unknown.append(k + 1)  # (which file is not known; a lister's: `_listed`)
                elif args[k + 1].pattern is not None and option in _GDB_FILES:
                    patterns.append(args[k + 1].pattern)  # `-x g.gd?`: every match is read
                k += 2
                continue
            if option in _GDB_FILES:
                value = attached if attached else (args[k + 1].text if k + 1 < len(args) else "")
                if value:
                    files.append(value)
                k += 1 if attached else 2
                continue
            if option in _GDB_COMMANDS:
                value = attached if attached else (args[k + 1].text if k + 1 < len(args) else "")
                files.extend(gdb_sourced(value))  # `-ex 'source g.gdb'`
                k += 1 if attached else 2
                continue
            if option in _GDB_VALUES and not attached:
                k += 2
                continue
        elif name == "sqlite3":
            if t in ("-init", "--init") and k + 1 < len(args):
                files.append(args[k + 1].text)
            if t in _SQLITE_VALUES:
                if k + 1 < len(args):
                    files.extend(m.group(1) for m in _SQLITE_READ().finditer(args[k + 1].text))
                k += 2
                continue
            if not t.startswith("-"):
                operands += 1
                if operands > 1:
                    files.extend(m.group(1) for m in _SQLITE_READ().finditer(t))  # `sqlite3 DB '.read q.sql'`
        k += 1
    if name == "java":
        # (round 8) the classes a system class loader or security manager names, and the main
        # class, looked up along the class path; an `-agentlib:NAME` along `-Djava.library.path`
        # or LD_LIBRARY_PATH (the JDK's and the system's library directories: not read)
        files.extend(entry if entry.endswith((".jar", ".zip")) else f"{entry or '.'}/{c.replace('.', '/')}.class"
                     for c in loader_classes for entry in class_path)
        files.extend(f"{entry or '.'}/lib{agent}.so" for agent in agents for entry in library_path)
        if directories:
            script = FileScript(directories[0], name, False, True, ())
            script.refused = "a directory of classes the JVM loads in place of its own is not read"
            return script
    if name == "gdb" and view.stdin_program == "gdb":
        files.extend(f for body in view.env.heredocs for f in gdb_sourced(body))  # (`source g.gdb` on stdin)
    if name == "sqlite3" and operands < 2:
        # (`.read q.sql` in its heredoc, herestring or piped text)
        files.extend(m.group(1) for body in view.env.heredocs for m in _SQLITE_READ().finditer(body))
        stdin = _stdin_script(view, name, False, ())  # `sqlite3 DB < q.sql`
        if stdin is not None and (not stdin.path.startswith(("<(", ">(", "/dev/fd/", "file descriptor"))
                                  and stdin.text is None and stdin.refused is None and stdin.rewritten is None
                                  and stdin.pattern is None):
            files.append(stdin.path)  # (read with the others: its `.read` files followed)
        elif stdin is not None and not files:
            return stdin
    if not files and not patterns and not unknown:
        return None
    script = FileScript(files[0] if files else patterns[0] if patterns else args[unknown[0]].text, name, False,
                        True, ())
    script.paths = files
    script.patterns = patterns or None
    if unknown:
        listings = tuple(e for e in view.listed if any(at in e.source for at in unknown))
        if any(not any(at in e.source for e in listings) for at in unknown):
            script.path = args[unknown[0]].text
            script.refused = "its name is not known"
        script.listings = listings or None
    return script


def _split_filter(view: View, args: Sequence[Arg]) -> FileScript | None:
    """`split --filter=CMD FILE`: CMD is a shell line fed each piece of FILE on its stdin. A
    shell that reads its script there (`--filter=sh`, `bash -s`) runs FILE, read as a script;
    an interpreter that does (`--filter=python3`) runs it as code."""
    command = None
    k = 0
    while k < len(args):
        t = args[k].text
        if t == "--filter" and k + 1 < len(args):
            command, k = args[k + 1], k + 2
            continue
        if t.startswith("--filter="):
            command = Arg(t.split("=", 1)[1], None, args[k].opaque, 1, args[k].word)
        k += 1
    if command is None:
        return None
    words = command.text.split()
    if not words:
        return None
    runner = basename(words[0])
    if command.opaque and ("$" in words[0] or "`" in words[0] or runner in SHELLS):
        return None  # a command of unknown value, as `sh -c "$X"` (`gzip > $FILE` is split's own)
    options = shell_options([Arg(w, None, False, 1, None) for w in words[1:]]) if runner in SHELLS else None
    if runner in SHELLS and (options is None or "c" not in options[1] and options[0] == len(words) - 1):
        shell = True
    elif E.COMMANDS.get(runner) is not None and E.COMMANDS[runner].handler == "interpreter" and len(words) == 1:
        shell = False
    else:
        return None  # (a filter that takes the pieces as data; its command line is walked)
    found = view.effects
    read = [it for it in (found.items if found is not None else ()) if it.role == E.READ and it.whole]
    if not read or read[0].text == "-":
        return _stdin_script(view, runner, shell, ())
    return _located(view.args[read[0].index], runner, shell, True, ())


# GNU parallel's options whose value is the next word (`-a FILE`: the input).
_PARALLEL_VALUES = frozenset({
    "-a", "--arg-file", "-j", "--jobs", "-P", "--max-procs", "-S", "--sshlogin", "--sshloginfile", "--slf",
    "-d", "--delimiter", "-E", "--eof", "-I", "--replace", "-n", "--max-args", "-N", "-L", "--max-lines",
    "--colsep", "-C", "--joblog", "--results", "--res", "--tmpdir", "--timeout", "--delay", "--retries",
    "--tagstring", "--workdir", "--wd", "-s", "--max-chars", "--load", "--memfree", "--halt", "--env",
    "--basefile", "--bf", "--return", "--transfer", "--transferfile", "--tf", "--block", "--header",
})


def _parallel_lines(view: View, args: Sequence[Arg]) -> FileScript | None:
    """GNU parallel without a command runs each input line as one: its stdin (`parallel <
    x.txt`), `-a FILE` or `:::: FILE`, read as a shell script. With a command the lines are
    its arguments (judged as xargs's are); `::: WORDS` are commands on the line, read as such."""
    files: list[Arg] = []
    k = 0
    sources = False
    while k < len(args):
        a = args[k]
        t = a.text
        if t == "::::":
            sources = True
        elif t == ":::":
            return None
        elif sources:
            files.append(a)
        elif t in ("-a", "--arg-file") and k + 1 < len(args):
            files.append(args[k + 1])
            k += 1
        elif t.startswith("--arg-file="):
            files.append(Arg(t.split("=", 1)[1], None, a.opaque, 1, a.word))
        elif t in _PARALLEL_VALUES:
            k += 1
        elif not t.startswith("-") or a.opaque:
            return None  # a command: the lines are its arguments
        k += 1
    if not files:
        return _stdin_script(view, "parallel", True, ())
    script = FileScript(files[0].text, "parallel", True, True, ())
    if any(f.opaque for f in files):
        script.refused = "its input file's name is not known"
        return script
    script.sources = [(f.pattern or f.text, f.pattern is not None) for f in files]
    return script


_LINE_LOOPERS = frozenset({"perl", "ruby"})
# What a program does with text it reads that no judge reads (`FileScript.made`).
_MADE = {MADE: "runs commands made", WRITES: "writes files named"}


def _input_script(view: View, args: Sequence[Arg]) -> FileScript | None:
    """The files an awk or sed program, or a perl or ruby `-n` loop, makes commands of
    (`readers.input_runs`): a program that runs each line as it is (`awk '{system($0)}' f`,
    `sed e f`, `awk '{print | "sh"}' f`) runs those files as a shell script; one that makes
    commands or file names of other text and its input (`system("rm " $2)`, `s/x/ls/e`,
    `print > $2`, `perl -ne 'system $_'`) fails closed, unless no input file is there. Input
    from a pipe, a heredoc or a file of unknown name fails closed too."""
    kind, inputs = input_runs(view.name, args)
    if kind is None:
        return None
    shell = kind == LINES
    if not inputs:
        script = _stdin_script(view, view.name, shell, ())
        if script is None:
            script = FileScript("its input", view.name, shell, True, ())
            script.text = ""  # a pipe, a heredoc, the terminal: text this layer does not follow
            script.made = _MADE.get(kind, _MADE[MADE])
        elif not shell:
            script.made = _MADE[kind]
        return script
    first = args[inputs[0]]
    script = FileScript(first.text, view.name, shell, True, ())
    if not shell:
        script.made = _MADE[kind]
    if any(args[k].opaque or args[k].text in ("-", "/dev/stdin") for k in inputs):
        script.text = ""  # (a file of unknown name, or stdin)
        script.made = _MADE.get(kind, _MADE[MADE])
        return script
    script.sources = [(args[k].pattern or args[k].text, args[k].pattern is not None) for k in inputs]
    return script


def _program(view: View) -> FileScript | None:
    """The files an interpreter or a test runner runs as code (interpreters.py marks them
    `exec`): the script, the files loaded before it (`node -r ./x.js`), the files a test
    runner imports (testrunners.py); with none of them and no code on the line, the file stdin
    reads (`python3 < tool.py`). A module (`python3 -m mod`) is looked up at run time: not
    followed, except a test runner's."""
    found = view.effects
    items = found.items if found is not None else ()
    args = view.args
    name = view.name
    runner = test_runner(name, items)
    run = TestRun(runner) if runner is not None else None
    files: list[str] = []
    patterns: list[str] = []
    listings: list = []
    for it in items:
        if run is not None:
            if it.option in CONFIG_FILE or it.option in OVERRIDE:
                # pytest's `-c FILE`, then its `-o KEY=VALUE` words; another runner's `--config`
                run.configuration.append(("-c " if it.option in CONFIG_FILE else "") + it.text)
            elif it.option in SETTINGS and it.role == E.DATA:
                run.settings.append((it.option, None if it.whole and args[it.index].opaque else it.text))
        if it.role != E.EXEC:
            continue
        a = args[it.index] if it.whole else None
        if it.text.startswith("<(") and (printed := printed_file(it.text)) is not None:
            files.append(printed)  # `python3 <(cat tool.py)` runs tool.py's text
            continue
        if it.text.startswith("<(") and (made := _rewritten_script(it.text, name, False, True)) is not None:
            return made  # `python3 <(rev t)`
        if it.option == TEST_PATH and run is not None and a is not None and a.pattern is not None \
                and not a.opaque:
            run.paths.append(it.text)  # `mocha 'test/**/*.js'`: the runner or the shell globs it
            continue
        if a is not None and a.pattern is not None and not a.opaque and it.option != TEST_PATH \
                and it.option != PLUGIN and it.option != "-m":
            patterns.append(a.pattern)  # `python3 p.p?`: every match is read (`read`)
            continue
        if a is not None and a.opaque and view.listed and it.option != "-m":
            listings.extend(e for e in view.listed if it.index in e.source)  # `python3 "$(ls p.py)"`
        if a is not None and (a.opaque or a.pattern is not None) or it.text.startswith(("<(", ">(")):
            continue  # unknown, a pattern, or text that arrives at run time
        if it.option == TEST_PATH:
            if run is not None:
                run.paths.append(it.text)
        elif it.option == PLUGIN:
            if run is not None and not it.text.startswith("no:"):
                run.plugins.append(it.text)
        elif it.option != "-m" and it.text != "-":
            files.append(it.text)
    at = next((k for k in range(view.inner + 1, len(args) - 1) if args[k].text == "-m"), None)
    if at is not None and args[at + 1].text == "doctest" and family_of(name).startswith("python"):
        # `python3 -m doctest x.txt`: the `>>>` lines of every file operand run (AG)
        for a in args[at + 2 :]:
            if a.pattern is not None and not a.opaque:
                patterns.append(a.pattern)
            elif not a.opaque and not a.text.startswith("-"):
                files.append(a.text)
    env_files: list[str] = []
    if family_of(name) in ("node", "nodejs"):
        # `node --env-file=.env`: the file may set NODE_OPTIONS (`--require ./e.js`): read as
        # code, with its NODE_OPTIONS' preloaded files (AG)
        for k in range(view.inner + 1, len(args)):
            t = args[k].text
            value = t.split("=", 1)[1] if t.startswith(("--env-file=", "--env-file-if-exists=")) else (
                args[k + 1].text if t in ("--env-file", "--env-file-if-exists") and k + 1 < len(args) else None)
            if value is not None and not args[k].opaque:
                files.append(value)
                env_files.append(value)
    if view.listed_argv is not None and not any(it.role in (E.CODE, E.EXEC) for it in items):
        # `ls p.py | xargs python3`: the script is each file the lister prints (xargs appends it)
        listings.extend(e for e in view.listed if len(args) in e.source)
    if files or patterns or listings or run is not None:
        script = FileScript(files[0] if files else patterns[0] if patterns else
                            (args[listings[0].source[0]].text if listings[0].source[0] < len(args)
                             else f"what {listings[0].rule} prints") if listings else "its test files",
                            name, False, True, ())
        script.paths = files
        script.patterns = patterns or None
        script.listings = tuple(listings) or None
        script.fallback = env_files or None  # (`_read_program`: their NODE_OPTIONS' preloads)
        script.tests = run
        return script
    known = FAMILIES.get(family_of(name))
    if any(it.role in (E.CODE, E.EXEC) for it in items) or known is not None and not known.stdin:
        return None
    return _stdin_script(view, name, False, ())


def _after_vanishing(args: Sequence[Arg], at: int, runner: str, child: bool) -> FileScript | None:
    """The script of `bash $O x.sh`, `source $O x.sh`: an unquoted word of unknown value at
    `at` may expand to no word at all (`$O` unset), and the next literal word is then the
    script, or the first operand after the options it starts (`bash $O -e x.sh`). None when no
    such word follows or its place is unknown. (Either way the unknown word itself names no
    file the walk can read.)"""
    if args[at].count != ANY:
        return None  # (a word that stays one word names the script itself)
    after = at + 1
    while after < len(args) and args[after].opaque and args[after].count == ANY:
        after += 1
    rest = args[after:]
    if not rest or rest[0].opaque:
        return None
    if runner in SHELLS:
        options = shell_options(rest)
        if options is None or "c" in options[1] or "s" in options[1] or options[0] >= len(rest):
            return None
        k = options[0]
    else:
        k = 1 if rest[0].text == "--" else 0
        if k >= len(rest):
            return None
    return _located(rest[k], runner, True, child, rest[k + 1 :] or None)


def _located(a: Arg, runner: str, shell: bool, child: bool, arguments: Sequence[Arg] | None) -> FileScript | None:
    text = a.text
    if text.startswith("<(") and (printed := printed_file(text)) is not None:
        return FileScript(printed, runner, shell, child, arguments)  # `bash <(cat s.sh)` runs s.sh's text
    if text.startswith("<(") and (made := _rewritten_script(text, runner, shell, child)) is not None:
        return made  # `bash <(rev a)`, `source <(base64 -d a)`
    if text.startswith("<(") and (words := printed_words("$(" + text[2:])) is not None:
        # `source <(echo "rm …")`: what the echo prints is the script
        from polydeukes.stdlib.shell.analysis import _words_printed

        printed_text = _words_printed(words)
        if printed_text is None:
            return None
        script = FileScript(text, runner, shell, child, arguments)
        script.text = printed_text[0]
        return script
    if text.startswith("<(") and text.endswith(")") and (lister := listed_text_source(text[2:-1])) is not None:
        script = FileScript(text, runner, shell, child, arguments)
        script.listed_text = lister  # `source <(ls x.sh | xargs cat)`: the listed files' text
        return script
    if text.startswith("<(") and text.endswith(")") and (sources := passed_sources(text[2:-1])):
        script = FileScript(text, runner, shell, child, arguments)
        script.sources = sources  # `source <(head x.sh)`, `bash <(cat x.s*)`
        return script
    if shell and text.startswith("<(") and text.endswith(")"):
        # Any other script of a process substitution (`source <(find . -name x.sh -exec cat {}
        # +)`, `. <(for f in *.sh; do cat "$f"; done)`): the shell runs what the script prints,
        # as `SCRIPT | sh` runs it, and is read so (a program's output keeps its own rule)
        script = FileScript(text, runner, shell, child, arguments)
        script.text = piped_into_shell(text[2:-1], runner if runner in SHELLS else "sh")
        return script
    if a.pattern is not None and not a.opaque and not text.startswith(("<(", ">(")):
        script = FileScript(text, runner, shell, child, arguments)
        if a.word is not None and not a.word.flags & W_GLOB:
            # `for f in *.sh; do bash "$f"; done`: a value that is one match or another, each
            # run in its turn: every match is read, together
            script.sources = [(a.pattern, True)]
            return script
        script.pattern = a.pattern  # `sh x.s?`, `./x.s?`, `source x.s?`: matched when read
        return script
    spelled = a.word.text if a.word is not None else text
    if (m := _FD_PATH().fullmatch(spelled)) is not None and m.group(1).lstrip("0") \
            and (text == spelled or a.opaque):
        script = FileScript(spelled, runner, shell, child, arguments)
        script.patterns = [m.group(1)]  # `bash /dev/fd/3 3<x.sh`: the file fd 3 reads (`read`)
        return script
    if a.opaque or a.pattern is not None or text.startswith(("<(", ">(")) or text == "-":
        return None  # unknown, or text that arrives at run time
    return FileScript(text, runner, shell, child, arguments)


def piped_into_shell(command: str, shell: str) -> str:
    """`COMMAND | SHELL`: one pipeline piped on as it is; several commands (or a text the
    tokenizer cannot read) as a group, whose output the walk does not follow (it fails closed)."""
    from polydeukes.stdlib.shell.tokenizer import tokenize

    try:
        commands = tokenize(command).commands
    except Exception:  # noqa: BLE001 - an unreadable text is piped on as a group
        commands = None
    if commands and all(type(cmd) is not PlainRun and cmd.connector == "|" for cmd in commands[:-1]) \
            and type(commands[-1]) is not PlainRun and not commands[-1].connector:
        return f"{command} | {shell}"
    return f"{{ {command}\n}} | {shell}"


def found_script(view: View, found: E.Extra) -> FileScript | None:
    """The script `find … -exec SHELL [OPTIONS] {} ARG… \\;` runs: every file find lists
    (`_listed_script`); None when `{}` is not the script (`-c` code, `-s`, an option)."""
    args = view.args
    options = shell_options(args[view.inner + 1 :]) if view.name in SHELLS else None
    if options is None or "c" in options[1] or "s" in options[1]:
        return None
    k = view.inner + 1 + options[0]
    if k >= len(args) or k not in found.source or args[k].text != found.path or args[k].pattern != found.pattern:
        return None  # (`{}` inside a longer word: `bash {}.sh`)
    return _listed_script(view, k, view.name, True, True, args[k + 1 :])


def _listed_script(view: View, k: int, runner: str, shell: bool, child: bool,
                   arguments: Sequence[Arg] | None) -> FileScript | None:
    """A script operand `args[k]` of unknown value that a lister fills (`bash "$(ls x.sh)"`,
    `source $(find . -name x.sh)`, `f=$(ls x.sh); bash "$f"`): every file it can print is
    read as the script (`_listed`); None when no lister fills it."""
    listings = tuple(e for e in view.listed if k in e.source)
    if not listings:
        return None
    # (past the words: a path xargs appends)
    script = FileScript(view.args[k].text if k < len(view.args) else f"what {listings[0].rule} prints",
                        runner, shell, child, arguments)
    script.listings = listings
    return script


_SUBSTITUTION = LazyPattern(r"\$\(([^()]*)\)|`([^`]*)`")


def _substituted_files(view: View, words: Sequence[Arg], runner: str, child: bool) -> FileScript | None:
    """Code of unknown value made of what a file passer prints (`eval "$(head x.sh)"`, `bash -c
    "$(tail -n 3 x.sh)"`, `$(grep . x.s?)`): the files' whole text is read as the script (a
    superset of what the substitution prints)."""
    source = view.source
    sources: list[tuple[str, bool]] = []
    for a in words:
        if not a.opaque or a.word is None:
            continue
        for m in _SUBSTITUTION().finditer(source[a.word.start : a.word.end]):
            if printed_file(m.group(0)) is not None:
                continue  # `$(cat F)`: the walk reads F as the substitution's value
            sources.extend(passed_sources(m.group(1) if m.group(1) is not None else m.group(2)))
    if not sources:
        return _printed_code(view, words, runner, child)
    script = FileScript(sources[0][0], runner, True, child, None)
    script.sources = sources
    return script


def _printed_code(view: View, words: Sequence[Arg], runner: str, child: bool) -> FileScript | None:
    """Code that is one substitution's output and nothing else (`eval "$(ls x.sh | xargs
    cat)"`, `eval "$(find . -name x.sh -exec cat {} +)"`): read as its script piped into a
    shell, as a process substitution a shell runs is (`_located`)."""
    if len(words) != 1 or words[0].word is None or not words[0].opaque:
        return None
    raw = view.source[words[0].word.start : words[0].word.end]
    if raw[:1] == '"' and raw[-1:] == '"':
        raw = raw[1:-1]
    m = _SUBSTITUTION().fullmatch(raw)
    if m is None or printed_file(raw) is not None:
        return None
    script = FileScript(raw, runner, True, child, None)
    script.text = piped_into_shell(m.group(1) if m.group(1) is not None else m.group(2), "sh")
    return script


# File passers whose words are not all files they read: the prefix of the word that names one
# (None: no word does, the file comes on stdin).
_COPIER_WORDS: dict[str, str | None] = {"tee": None, "dd": "if="}


_LISTED_CAT = LazyPattern(r'\s*(?:cat|tac)\s+("?)(?:\$\(([^()]*)\)|`([^`]*)`)\1\s*')
_XARGS_CAT = LazyPattern(r"\s*xargs\s+(?:-[0rt]\s+)*(?:cat|tac|head|tail|sort|uniq|shuf)(?:\s+-[^\s<>|&;]*(?:\s+\d+)?)*\s*")


def listed_text_source(command: str) -> str | None:
    """The lister whose files' text `command` prints (`LISTER … | xargs cat`, `xargs head -n
    3`: the whole text, a superset; `cat $(LISTER …)`), or None for any other command.
    (Whether it lists is asked when read.)"""
    head, bar, tail = command.rpartition("|")
    if bar and head.strip() and not head.endswith("|") and _XARGS_CAT().fullmatch(tail):
        return head
    m = _LISTED_CAT().fullmatch(command)
    if m is not None:
        return m.group(2) if m.group(2) is not None else m.group(3)
    return None


def substituted_listing(walk: Walk, view: View, a: Arg) -> list[str] | Refused | None:
    """The files a word that is one substitution of a lister names (`cat $(ls x.sh)`), found
    on disk as `_listed` finds them; None for any other word."""
    if a.word is None or not a.opaque:
        return None
    raw = view.source[a.word.start : a.word.end]
    m = _LISTED_CAT().fullmatch("cat " + raw)
    if m is None:
        return None
    printed = walk._printed_by(m.group(2) if m.group(2) is not None else m.group(3), view.depth)
    if not printed:
        return None
    return _listed(walk, view, printed)


def listed_texts(walk: Walk, view: View) -> list[str] | None:
    """The text of every file the listing fed to `view` (`… | xargs cat`) names, read within
    bounds; None when a file or the listing cannot be (the stage then keeps its rule)."""
    names = _listed(walk, view, view.listed)
    if isinstance(names, Refused):
        return None
    texts: list[str] = []
    for name in names:
        content = _text(walk, view, name)
        if isinstance(content, Refused) or content is None and view.runs_written is not None:
            return None
        if content is not None:
            texts.append(content)
    return texts


# find's actions that print on its stdout besides what its commands print.
_FIND_PRINTS = frozenset({"-print", "-print0", "-printf", "-ls"})


def found_texts(walk: Walk, view: View) -> list[str] | None:
    """The text of every file `find … -exec cat {} +` (or `tac`, `\\;`) prints, read within
    bounds; None when it prints anything else (paths, another command's output) or a file or
    the listing cannot be read."""
    found = view.effects
    if found is None or any(a.text in _FIND_PRINTS for a in view.args[view.inner + 1 :]):
        return None
    listings = []
    for extra in found.extra:
        if extra.kind != "command":
            continue
        argv = extra.argv
        if basename(argv[0].text) not in ("cat", "tac") or argv[0].opaque \
                or any(k not in extra.source or a.text != extra.path for k, a in enumerate(argv[1:], 1)):
            return None  # (`-exec nl {} +`, `-exec cat -A {} +`: text made of the files)
        listings.append(E.Extra("list", path=extra.path, pattern=extra.pattern, rule="find", names=extra.names))
    if not listings:
        return None
    names = _listed(walk, view, listings)
    if isinstance(names, Refused):
        return None
    texts: list[str] = []
    for name in names:
        content = _text(walk, view, name)
        if isinstance(content, Refused):
            return None
        if content is not None:
            texts.append(content)
    return texts


def passed_sources(command: str) -> list[tuple[str, bool]]:
    """The files a one-command text passes on (`head -n 3 x.sh`, `cat x.s?`, `cat < x.sh`,
    `grep . x.sh`): (spelled name or pattern, whether it is a pattern) each; [] for any other
    text. Every word that is no option is taken for a file (a `grep` pattern or a count that
    names no file is not there: nothing is read for it)."""
    from polydeukes.stdlib.shell.analysis import FILE_PASSERS
    from polydeukes.stdlib.shell.tokenizer import W_BRACE, W_GLOB, W_VAR, tokenize

    try:
        commands = tokenize(command).commands
    except Exception:  # noqa: BLE001 - a text the tokenizer cannot read names no file here
        return []
    if len(commands) != 1 or not hasattr(commands[0], "words") or not commands[0].words:
        return []
    cmd = commands[0]
    if basename(cmd.words[0].text) not in FILE_PASSERS or cmd.words[0].opaque:
        return []
    out: list[tuple[str, bool]] = []
    name = basename(cmd.words[0].text)
    for w in cmd.words[1:]:
        if w.text.startswith("-") or w.flags & (W_VAR | W_BRACE) or "$" in w.text or "`" in w.text:
            continue
        text = w.text.replace("'", "").replace('"', "")
        if name in _COPIER_WORDS:
            # (`tee F` writes F; `dd if=F` reads F, its other words are settings)
            prefix = _COPIER_WORDS[name]
            if prefix is None or not text.startswith(prefix):
                continue
            text = text[len(prefix) :]
        out.append((text, bool(w.flags & W_GLOB)))
    for r in cmd.redirects:
        if r.operator in ("<", "<>") and not r.target.opaque:
            out.append((r.target.text, False))
    return out


def _sources(walk: Walk, view: View, script: FileScript) -> FileScript | None:
    """The text of the files `script.sources` names, read together as one script."""
    texts: list[str] = []
    parts: list[tuple[str, str]] = []
    limit = SCRIPT_BYTES if script.shell else PROGRAM_BYTES
    for spelled, pattern in script.sources or ():
        names = glob_matches(walk, view, spelled) if pattern else [spelled]
        if isinstance(names, Refused):
            script.refused = names.reason
            return script
        for name in names:
            content = _text(walk, view, name, limit)
            if isinstance(content, Refused):
                script.refused = content.reason
                return script
            if content is not None and not texts:
                script.path = name  # (the reason names the first file read)
            if content is not None:
                texts.append(content)
                parts.append((name, content))
    if not texts:
        return None
    script.text = "\n".join(texts)
    if not script.runner:
        script.runner, script.shell = shebang(texts[0])  # (`./"$f"`: what its `#!` line names)
    if len(parts) > 1:
        script.parts = parts  # (a reason names the file that mentions the entry)
    return script


_FD_PATH = LazyPattern(r"/(?:dev|proc/self|proc/thread-self)/fd/([0-9]+)")


def _rewritten_script(text: str, runner: str, shell: bool, child: bool) -> FileScript | None:
    """A process substitution `<(…)` whose script makes its output of data with a rewriter
    (`<(rev a)`, `<(tr X i < a)`, analysis `_data_rewriter`): a script no mention test reads."""
    from polydeukes.stdlib.shell.analysis import _data_rewriter

    if not text.endswith(")"):
        return None
    rewriter = _data_rewriter(text[2:-1])
    if rewriter is None:
        return None
    script = FileScript(text, runner, shell, child, None)
    script.rewritten = rewriter
    return script


def _stdin_script(view: View, runner: str, shell: bool, arguments: Sequence[Arg]) -> FileScript | None:
    """`sh < FILE`, `bash -s < FILE`, `python3 < FILE`: the script is the file stdin reads
    (a heredoc or herestring, read by the walk already, and a pipe are not files)."""
    cmd = view.cmd
    if cmd.heredocs:
        return None
    found: FileScript | None = None
    for r in cmd.redirects:
        if r.operator == "<<<":
            return None
        if r.operator == "<":
            if r.target.text.startswith("<(") and (made := _rewritten_script(r.target.text, runner, shell,
                                                                               True)) is not None:
                return made  # `bash < <(rev a)`
            if r.target.flags & W_GLOB:
                # `python3 < x.p?`: bash opens the one file the pattern matches
                expanded = next((targets for redirect, targets in view.targets if redirect is r), ())
                if len(expanded) == 1 and expanded[0].pattern is not None and not expanded[0].opaque:
                    found = _located(expanded[0], runner, shell, True, arguments)
                    continue
            if r.target.opaque and printed_file(r.target.text) is None and not (
                    shell and r.target.text.startswith("<(")):  # (`bash < <(…)`: read by `_located`)
                return None
            found = _located(Arg(r.target.text, None, False, 1, r.target), runner, shell, True, arguments)
    if found is not None or not (view.inputs or view.group_input is not None):
        return found
    # `bash 0<x.sh`, `bash <>x.sh`, `exec 3<x.sh; bash <&3`, `{ bash; } < x.sh` (inputs.py)
    source = inputs.stdin_of(view.inputs, view.group_input, view.opened_fds)
    if source is None:
        return None
    kind, spelled = source
    if kind == "fd":
        script = FileScript(f"file descriptor {spelled}", runner, shell, True, arguments)
        script.refused = f"it reads its script from file descriptor {spelled}, which the line does not open from a file"
        return script
    if spelled.startswith("<(") or spelled.startswith(">("):
        return _located(Arg(spelled, None, True, 1, cmd.redirects[0].target if cmd.redirects else None),
                        runner, shell, True, arguments)
    return FileScript(spelled, runner, shell, True, arguments)


def shebang(text: str) -> tuple[str, bool]:
    """The program a script's `#!` line names (after `env` and its options), and whether it
    is a shell. Without a `#!` line `execve` refuses the file and bash runs it as a script."""
    if not text.startswith("#!"):
        return "the shell", True
    words = text[2:].split("\n", 1)[0].split()
    if not words:
        return "the shell", True
    program = basename(words[0])
    if program == "env":
        rest = [w for w in words[1:] if not w.startswith("-") and "=" not in w]
        program = basename(rest[0]) if rest else "env"
    return program, program in SHELLS


def _with_interpreters(walk: Walk, view: View, script: FileScript, content: str) -> str | Refused:
    """A script whose `#!` line names a script of the project (`#!./e.sh`: the kernel runs
    e.sh, by its own `#!` line, with the script's path as an argument) runs that script too:
    its text is read after the script's, and what runs both is what its own `#!` line names.
    Linux follows four such levels; a fifth is refused as the kernel refuses it. A compiled
    interpreter (`.venv/bin/python`) is a program: nothing more is read."""
    for _ in range(4):
        words = content[2:].split("\n", 1)[0].split() if content.startswith("#!") else []
        if not words or words[0].startswith("/") and not words[0].startswith(walk.root.rstrip("/") + "/"):
            return content  # (a system program: `/bin/sh`, `/usr/bin/env python3`)
        interpreter = _text(walk, view, words[0], PROGRAM_BYTES)
        if not isinstance(interpreter, str):
            return content if interpreter is None else interpreter
        script.runner, script.shell = shebang(interpreter)
        content = interpreter + "\n" + content
    return Refused(f"its #! line names a script that names another, more than four deep ({script.path})")


def read(walk: Walk, view: View, script: FileScript) -> FileScript | None:
    """`script` with its text (or why it cannot be read), None when it runs nothing this
    layer judges (missing, a directory, a compiled program, an unknown path)."""
    if view.via_xargs and script.child:
        script.arguments = None  # xargs appends arguments at run time: `$1`… are unknown
    if script.text is not None or script.rewritten is not None or script.refused is not None:
        return script  # (its text is known without a file: `source <(echo …)`)
    if script.listed_text is not None:
        printed = walk._printed_by(script.listed_text, view.depth)
        if not printed:
            return _refused(script, f"its text is that of files '{script.listed_text.strip()}' names, "
                                    "which are not worked out")
        script.listings = printed
    if script.listings is not None:
        listed = _listed(walk, view, script.listings)
        script.listings_read, script.listings = script.listings, None
        if isinstance(listed, Refused):
            script.refused = listed.reason
            return script
        if script.paths is None:
            script.sources = [(path, False) for path in listed]  # a shell's: read together
        else:
            script.paths = script.paths + listed
            if not script.paths and not script.patterns and script.tests is None:
                return None
    if script.sources is not None:
        return _sources(walk, view, script)
    if script.pattern is not None or script.patterns:
        script = _globbed(walk, view, script)
        if script is None or script.refused is not None:
            return script
    if view.cwd is None and view.cwd_glob is not None and script.paths is None and not script.path.startswith(
            ("/", "~", "$", "<(")):
        return _under_glob(walk, view, script)
    if script.tests is None and any(_under_unknown_directory(view, path) for path in script.paths or (script.path,)):
        # `cd "$D" && bash x.sh`, `cd "$D"; ./x.sh`, `cd "$D" && python3 x.py`: `$D` may be a
        # directory outside the project holding any x.sh (an earlier call can write one there),
        # so no file of the project is the one run (round r7; before, a shell script passed
        # when every project file so named was harmless)
        return _refused(script, UNKNOWN_DIRECTORY)
    if view.cwd is None and view.cwd_glob is not None and script.paths and script.tests is None:
        # `cd s?b && python3 x.py`: the program in every matching directory
        directories = glob_matches(walk, view, view.cwd_glob[1], view.cwd_glob[0], absolute=True)
        if isinstance(directories, Refused):
            script.refused = directories.reason
            return script
        script.paths = [p if p.startswith("/") else f"{d}/{p}" for p in script.paths
                        for d in (directories if not p.startswith("/") else ("",))]
        if not script.paths:
            return None
    if script.paths is not None:
        return _read_program(walk, view, script)
    # A shell script is walked command by command, a program only scanned for mentions: the
    # bounds differ (a path run as a program is read to the larger one, then by its `#!`).
    content = _text(walk, view, script.path, SCRIPT_BYTES if script.runner and script.shell else PROGRAM_BYTES)
    if script.fallback is not None and (not isinstance(content, str) or not shebang(content)[1]):
        return read(walk, view, script.fallback)  # the interpreter itself (a compiled program)
    if content is None and script.runner and not script.shell:
        # `python3 app` runs app/__main__.py; `node app` app/package.json's `main`, else
        # app/index.js (round 5): a directory given to an interpreter is the file it runs
        entry = _directory_entry(walk, view, script)
        if entry is not None:
            script.path = entry
            content = _text(walk, view, entry, PROGRAM_BYTES)
    if content is None and not _is_interpreter_run(view, script):
        # A compiled program run by its path (`./e`, `build/bin/tool`: `cc e.c -o e` in one
        # call, `./e` in the next), or handed to an interpreter (`python3 app.pyz`, a zip
        # archive whose __main__.py Python runs; `node addon.node`)
        content = _compiled(walk, view, script, script.path)
        if isinstance(content, CompiledText):
            # (judged from `parts` alone: its bytes are no code any other reading should see)
            script.parts, content = [(script.path, content)], ""
    if content is None:
        return None
    if not isinstance(content, Refused) and not script.runner:
        script.runner, script.shell = shebang(content)
        content = _with_interpreters(walk, view, script, content)
        if not isinstance(content, Refused) and script.shell and len(content.encode("utf-8", "replace")) > SCRIPT_BYTES:
            path = walk.absolute(script.path, view.cwd) or ()
            content = Refused(f"'/{'/'.join(path)}' is larger than {SCRIPT_BYTES >> 20} MiB")
    if isinstance(content, Refused):
        return _refused(script, content.reason)
    script.text = content
    return script


def _is_interpreter_run(view: View, script: FileScript) -> bool:
    """Is `script` the command itself, an interpreter the model knows run by its path
    (`.venv/bin/python3 -c 1`)? Compiled, it is that interpreter: its program and start-up
    files are what is judged, not its bytes."""
    model = view.model
    return model is not None and model.handler == "interpreter" and view.inner < len(view.args) \
        and script.path == view.args[view.inner].text


def _compiled(walk: Walk, view: View, script: FileScript, spelled: str) -> str | CompiledText | Refused | None:
    """The text to judge of the compiled program at `spelled` that `script` runs, None when
    the file is none (`read` judged it already) or lies under an unknown directory: the Python
    modules of a zip archive Python runs, read as code; else the program's bytes, one character
    each (`CompiledText`), searched for the protected entries' names."""
    path = walk.absolute(spelled, view.cwd)
    if path is None or walk.disk is None or walk.read_file(path, PROGRAM_BYTES) is not BINARY:
        return None
    data = walk.disk.read_bytes("/" + "/".join(path), COMPILED_BYTES)
    if not script.runner:
        script.runner, script.shell = COMPILED_RUNNER, False
    if not isinstance(data, bytes):
        return data if isinstance(data, Refused) else None
    from polydeukes.stdlib.shell.imports import family

    zipped = b"PK\x05\x06" in data[-(1 << 16) - 22 :]  # (the end of a zip's central directory)
    if zipped and script.runner and family(script.runner) == "python":
        return _zipped_python(data)
    if zipped and script.runner == "java":
        # `java -jar app.jar`: its classes, uncompressed, searched for names as compiled code
        classes = _zip_members(data, (".class",), COMPILED_BYTES, "classes")
        if isinstance(classes, Refused):
            return classes
        data = b"\0".join(classes)
    return CompiledText(data.decode("latin-1"))


def _zip_members(data: bytes, suffixes: tuple[str, ...], limit: int, what: str) -> list[bytes] | Refused:
    """The members of the zip archive `data` whose names end in `suffixes`, uncompressed,
    `limit` bytes together at most; refused past it or when the archive cannot be read."""
    import io
    import zipfile  # (only a zipped program needs it)

    found: list[bytes] = []
    total = 0
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            for member in archive.infolist():
                if not member.filename.endswith(suffixes):
                    continue
                total += member.file_size
                if total > limit:
                    return Refused(f"its {what} hold more than {limit >> 20} MiB")
                found.append(archive.read(member))
    except (zipfile.BadZipFile, OSError, ValueError, RuntimeError, EOFError, NotImplementedError) as exc:
        return Refused(f"it is a zip archive that cannot be read ({exc})")
    return found


def _zipped_python(data: bytes) -> str | Refused:
    """The Python modules of a zip archive (`python3 app.pyz`: Python runs its __main__.py,
    which may import the rest), joined, read as code."""
    members = _zip_members(data, (".py", ".pyw"), PROGRAM_BYTES, "modules")
    if isinstance(members, Refused):
        return members
    return "\n".join(member.decode("utf-8", "replace") for member in members)


def _under_unknown_directory(view: View, spelled: str) -> bool:
    """Is `spelled` a relative path where `view` runs in a directory of unknown value (`cd "$D"`;
    not a pattern's, `_under_glob`)? `$D` may lie outside the project, holding any file of the
    name (an earlier call can write one there), so no file of the project is the one meant."""
    return view.cwd is None and view.cwd_glob is None and spelled[:1] not in ("/", "~", "$", "<", "-", "")


def _refused(script: FileScript, why: str) -> FileScript:
    """`script` refused for `why`, run by the shell when nothing named its runner yet."""
    script.refused = why
    script.runner = script.runner or "the shell"
    return script


def _under_glob(walk: Walk, view: View, script: FileScript) -> FileScript | None:
    """`cd s?b && bash s.sh`: a relative script under a directory named by a pattern: the
    script in every matching directory, read together (a shell script walked as one)."""
    base, pattern = view.cwd_glob
    directories = glob_matches(walk, view, pattern, base, absolute=True)
    if isinstance(directories, Refused):
        return _refused(script, directories.reason)
    texts: list[str] = []
    limit = SCRIPT_BYTES if script.runner and script.shell else PROGRAM_BYTES
    for directory in directories:
        path = walk.absolute(script.path, tuple(directory.strip("/").split("/")))
        content = walk.read_file(path, limit) if path is not None else None
        if isinstance(content, Refused):
            return _refused(script, content.reason)
        if isinstance(content, str):
            texts.append(content)
    if not texts:
        return None
    if not script.runner:
        script.runner, script.shell = shebang(texts[0])
    script.text = "\n".join(texts)
    return script


def _globbed(walk: Walk, view: View, script: FileScript) -> FileScript | None:
    """A script named by a pattern (`sh x.s?`: the first match is the script, the others its
    first arguments), a program's files named by patterns (`python3 p.p?`: every match read as
    code), or `/dev/fd/N` (`bash /dev/fd/3 3<x.sh`: the file fd N reads, else fails closed)."""
    if script.paths is None and script.patterns and script.pattern is None:
        n = script.patterns[0]
        script.patterns = None
        spelled = inputs.fd_file(n, view.inputs, view.opened_fds)
        if spelled is None or spelled.startswith(("<(", ">(")):
            return _refused(script, f"it reads file descriptor {n}, which the line does not open from a file")
        script.path = spelled
        return script
    spelled_patterns = [script.pattern] if script.pattern is not None else script.patterns or []
    found: list[str] = []
    for pattern in spelled_patterns:
        matches = glob_matches(walk, view, pattern)
        if isinstance(matches, Refused):
            return _refused(script, matches.reason)
        found.extend(matches)
    if script.pattern is not None:
        script.pattern = None
        if not found:
            return None  # no match: the shell passes the pattern on, a name not there
        script.path = found[0]
        if len(found) > 1 and script.arguments is not None:
            script.arguments = [Arg(m, None, False, 1, None) for m in found[1:]] + list(script.arguments)
        return script
    script.patterns = None
    script.paths = (script.paths or []) + found
    if not script.paths and script.tests is None:
        return None
    if script.path not in script.paths and script.paths:
        script.path = script.paths[0]
    return script


_GLOB_MATCHES = 64  # matches of a pattern naming a script that are read, at most


def _listed(walk: Walk, view: View, listings: Sequence) -> list[str] | Refused:
    """The files a lister's listings can name (listers.py: everything at or below each start
    path or pattern match whose name passes its filters), spelled from where `view` runs.
    A start that is a file is one; below a directory, each file whose name passes the
    filters (find's `-name`). A directory listed without a filter (`ls d`, `git ls-files`:
    any file there), a place of unknown value, or more than `_GLOB_MATCHES` files refuse."""
    found: list[str] = []
    for listing in listings:
        starts = glob_matches(walk, view, listing.pattern) if listing.pattern is not None else [listing.path]
        if isinstance(starts, Refused):
            return starts
        matchers = [(compile_segment(spec[2:] if spec.startswith("i:") else spec), spec.startswith("i:"))
                    for spec in listing.names]

        def accept(name: str, matchers=matchers) -> bool:
            return all(segment_matches(m, name, dotglob=True, fold=fold) for m, fold in matchers)

        for start in starts:
            segments = walk.absolute(start, view.cwd)
            if segments is None or walk.disk is None:
                return Refused(f"the script is a file {listing.rule} prints below a directory of unknown place")
            kind = walk.disk.kind(list(segments))
            if kind == "link":
                real = walk.disk.resolve(list(segments))
                kind = real if isinstance(real, Refused) else walk.disk.kind(real)
            if isinstance(kind, Refused):
                return kind
            if kind == "missing":
                continue
            if kind != "dir":
                if accept(basename(start)):
                    found.append(start)
                continue
            if not listing.names:
                return Refused(f"the script is any file {listing.rule} prints below '{start}'")
            files = walk.disk.files_below(list(segments), accept, _GLOB_MATCHES)
            if isinstance(files, Refused):
                return files
            top = "/" + "/".join(segments)
            found.extend(start.rstrip("/") + path[len(top) :] for path in files)
        if len(found) > _GLOB_MATCHES:
            return Refused(f"{listing.rule} prints more than {_GLOB_MATCHES} files")
    return found


def glob_matches(walk: Walk, view: View, pattern: str, base: tuple[str, ...] | None = None,
                 absolute: bool = False) -> list[str] | Refused:
    """The paths (spelled as the pattern is, relative or absolute) a pathname pattern matches
    on disk where `view` runs, sorted as bash sorts them; a directory of unknown place, `**`,
    more than `_GLOB_MATCHES` matches or a disk that cannot be asked fail closed."""
    options = view.glob
    base = base if base is not None else view.cwd
    if walk.disk is None or base is None and not pattern.startswith("/"):
        return Refused(f"the script is named by the pattern '{pattern}' under a directory of unknown place")
    parts = pattern.split("/")
    base = () if pattern.startswith("/") else base
    if pattern.startswith("/"):
        parts = parts[1:]
    found: list[tuple[tuple[str, ...], str]] = [(base, "/" if pattern.startswith("/") else "")]
    for k, part in enumerate(parts):
        last = k == len(parts) - 1
        if part in ("", "."):
            found = [(b, s + part + ("" if last else "/")) for b, s in found]
            continue
        if part == "..":
            found = [(b[:-1], s + "../") for b, s in found]
            continue
        segment = compile_segment(part, options.extglob, options.globstar)
        if segment.globstar:
            return Refused(f"the script is named by the pattern '{pattern}' ('**' is not matched)")
        following: list[tuple[tuple[str, ...], str]] = []
        for directory, spelled in found:
            if segment.literal is not None and not options.nocaseglob:
                following.append((directory + (segment.literal,), spelled + segment.literal + ("" if last else "/")))
                continue
            names = walk.disk.names_in(directory, lambda name, seg=segment: segment_matches(
                seg, name, dotglob=options.dotglob, fold=options.nocaseglob) and name not in (".", ".."))
            if isinstance(names, Refused):
                return names
            following.extend((directory + (name,), spelled + name + ("" if last else "/")) for name in sorted(names))
        if len(following) > _GLOB_MATCHES:
            return Refused(f"the pattern '{pattern}' matches more than {_GLOB_MATCHES} paths")
        found = following
    return ["/" + "/".join(path) for path, _ in found] if absolute else [spelled for _, spelled in found]


_ENV_NODE_OPTIONS = LazyPattern(r"(?m)^[ \t]*(?:export[ \t]+)?NODE_OPTIONS[ \t]*=[ \t]*(.*?)[ \t]*$")
_NODE_OPTION_LOAD = LazyPattern(r"(?:^|\s)(?:-r|--require|--import|--loader|--experimental-loader)(?:=|\s+)(\S+)")


def _node_option_loads(text: str) -> list[str]:
    """The files the NODE_OPTIONS an env file sets make node load first (`--require ./e.js`)."""
    out: list[str] = []
    for m in _ENV_NODE_OPTIONS().finditer(text):
        value = m.group(1).strip("'\"")
        out.extend(load.strip("'\"") for load in _NODE_OPTION_LOAD().findall(value))
    return out


def _read_program(walk: Walk, view: View, script: FileScript) -> FileScript | None:
    """A program of several files, each read as code; the first that cannot be read within
    bounds refuses the whole (and is named), as do more than `FILE_BYTES` together."""
    parts: list[tuple[str, str]] = []
    total = 0
    if script.tests is not None:
        from polydeukes.stdlib.shell import testrunners  # only a test runner needs it

        found = testrunners.test_files(walk, view, script.tests)
        if isinstance(found, Refused):
            script.refused = found.reason
            return script
        script.paths = script.paths + found
    env_files = script.fallback if isinstance(script.fallback, list) else ()
    for spelled in script.paths:  # (grows: an env file's preloads)
        content = _text(walk, view, spelled, PROGRAM_BYTES)
        if spelled in env_files and isinstance(content, str):
            script.paths.extend(_node_option_loads(content))
        if script.runner == "gdb" and isinstance(content, str) and "so" in content:
            # (a command file that sources another: read too, each once)
            for sourced in gdb_sourced(content):
                if sourced not in script.paths:
                    if len(script.paths) >= _GDB_SOURCED:
                        script.path, script.refused = sourced, f"it sources more than {_GDB_SOURCED} files"
                        return script
                    script.paths.append(sourced)
        if script.runner == "sqlite3" and isinstance(content, str) and "edit" in content.lower() \
                and sqlite_editors(content) is None:
            script.path, script.refused = spelled, _SQLITE_COMPUTED_EDITOR
            return script
        if script.runner == "sqlite3" and isinstance(content, str) and ".read" in content:
            # (a `.read` file that reads another: read too, each once; past the bound, closed)
            for read_too in (m.group(1) for m in _SQLITE_READ().finditer(content)):
                if read_too not in script.paths:
                    if len(script.paths) >= _SQLITE_READS:
                        script.path, script.refused = read_too, f"it reads more than {_SQLITE_READS} files"
                        return script
                    script.paths.append(read_too)
        if content is None:
            # (`python3 app.pyz`: a zip archive; `python3 x.pyc`, `node addon.node`: compiled)
            content = _compiled(walk, view, script, spelled)
        if content is None and script.tests is None:
            # (`python3 app`: a directory runs its __main__.py; `node app`: its `main`)
            entry = _directory_entry(walk, view, FileScript(spelled, script.runner, False, True, None))
            if entry is not None:
                spelled, content = entry, _text(walk, view, entry, PROGRAM_BYTES)
        if content is None:
            continue
        if isinstance(content, Refused):
            script.path, script.refused = spelled, content.reason
            return script
        total += len(content) if not isinstance(content, CompiledText) else 0
        if total > FILE_BYTES:
            script.refused = f"the files it runs are larger than {FILE_BYTES >> 20} MiB together"
            return script
        parts.append((spelled, content))
    if not parts:
        return None
    script.parts = parts
    script.path = parts[0][0]
    # (a compiled program's bytes are judged from `parts` alone: no other reading sees them)
    script.text = "\n".join(text for _, text in parts if not isinstance(text, CompiledText))
    return script


def _text(walk: Walk, view: View, spelled: str, limit: int = SCRIPT_BYTES) -> str | Refused | None:
    """The text of the file at `spelled` that `view` runs or reads for its scripts, or why it
    cannot be read within bounds; None when it runs nothing this layer judges (not there, a
    directory, a compiled program, a path of unknown value, or a file the line writes with
    content this layer does not compute: `view.runs_written` then says so)."""
    path = walk.absolute(spelled, view.cwd)
    if path is None:
        if _under_unknown_directory(view, spelled):
            return Refused(UNKNOWN_DIRECTORY)
        return None  # a path of unknown value: not followed
    written = walk.written()
    if path in written:
        # The line writes it first (`echo … > x.sh; sh < x.sh`): the content is the line's.
        if written[path] is None:
            view.runs_written = spelled
        return written[path]
    content = walk.read_file(path, limit)
    return None if content is None or isinstance(content, (Missing, Binary)) else content


def walk_script(walk: Walk, view: View) -> Iterator[Event]:
    """The commands of a shell script file `view` runs, walked one level deeper (see the
    module docstring for what is bound and what stays in a child process)."""
    script: FileScript = view.file_script
    if script.text is None or not script.shell:
        return
    context = walk.context
    saved = (context.cwd, list(context.stack), context.oldpwd, context.glob, context.listed) if script.child else None
    node_bin = context.node_bin
    caller = context.scope
    if script.child or script.arguments is not None:
        context.scope = caller.copy()
        bind_positional(context.scope.values, script.arguments)
        if script.arguments is not None and len(script.arguments) > 1:
            # `"$*"` joins the arguments with IFS's first character, which the walk does not
            # follow (`IFS=; rm -rf "$*"` called with `c i`): made, not alternatives
            context.scope.made["*"] = f"joins the arguments {script.path} is called with"
    outer = walk.origin
    walk.origin = script.origin if outer is None else f"{script.origin}, in {outer}"
    frames = walk.frames
    walk.frames = (*frames, (script.path, script.text, script.directory, context.cwd, dict(context.scope.values)))
    try:
        if script.directory is not False:
            context.cwd = script.directory  # (a child's: restored below)
        if script.node_bin:
            context.node_bin = context.cwd
        if script.lines is None:
            yield from walk.nested(script.text, view.depth, view.fully_read)
        else:
            start = (context.cwd, list(context.stack), context.oldpwd)
            for line in script.lines:  # each in a shell of its own: a `cd` ends with its line
                yield from walk.nested(line, view.depth, view.fully_read)
                context.cwd, context.stack, context.oldpwd = start[0], list(start[1]), start[2]
    finally:
        walk.origin = outer
        walk.frames = frames
        context.node_bin = node_bin
        if saved is not None:
            # A child process: what the script assigned, and where it went, stays there.
            context.cwd, context.stack, context.oldpwd, context.glob, context.listed = saved
            context.scope = caller
        elif script.arguments is not None:
            # `source f args`: bash gives the caller its own positional parameters back; the
            # rest of what the script assigned stays.
            values = context.scope.values
            for key in (*POSITIONAL, "@", "*"):
                if key in caller.values:
                    values[key] = caller.values[key]
                else:
                    values.pop(key, None)


def bind_positional(values: dict, arguments: Sequence[Arg] | None) -> None:
    """`$1`…`$9`, `$@`, `$*` as the arguments the script is called with: literal ones are
    their values (a glob keeps its pattern), one of unknown value makes its position and
    `$@`/`$*` unknown; positions past the last argument are empty, as in bash. None: lines
    whose arguments are not the call's (make's, npm's): all unknown."""
    if arguments is None:  # not a shell's arguments (make's `$@` is its target): unknown
        for key in (*POSITIONAL, "@", "*"):
            values[key] = None
        return
    everything: list[Value] | None = []
    for k, key in enumerate(POSITIONAL):
        if k < len(arguments):
            a = arguments[k]
            value = None if a.opaque else (Value(a.text, a.pattern),)
        else:
            value = (Value(""),)
        values[key] = value
    for a in arguments:
        if a.opaque:
            everything = None
            break
        everything.append(Value(a.text, a.pattern))
    # (no argument: `$@` and `$*` are the empty text, not no value at all: unquoted beside
    # other text, `$@ci/gate.sh` is `ci/gate.sh`, as an empty array's `${a[@]}` is)
    values["@"] = values["*"] = None if everything is None else tuple(everything) or (Value(""),)


def passed_files(walk: Walk, view: View) -> list[str]:
    """The text of the files `view` (a first stage in `analysis.FILE_PASSERS`) reads and
    passes on; a file that cannot be read within bounds is noted in `view.passes_unreadable`.
    A glob passes on every match (`cat x.s? | sh`: `glob_matches`), a `cat < FILE` its stdin
    file; a file of unknown name (a variable, a glob under an unknown directory) is left out:
    its lines arrive at run time, as before; one the line writes without computable content is
    noted in `view.passes_written`."""
    if view.name in listers.LISTERS and listers.listing(view) is not None:
        return []  # `grep -l x f`: it prints paths, which the walk follows as a listing
    found = view.effects
    texts: list[str] = []
    spelled: list[str] = []
    for it in found.items if found is not None else ():
        a = view.args[it.index]
        if it.role == E.READ and a.pattern is not None and not a.opaque and view.cwd is not None:
            matches = glob_matches(walk, view, a.pattern)  # `cat x.s? | sh`: every match
            if isinstance(matches, Refused):
                view.passes_unreadable = (it.text, matches.reason)
            else:
                spelled.extend(matches)
            continue
        if it.role == E.READ and a.opaque and (listed := substituted_listing(walk, view, a)) is not None:
            if isinstance(listed, Refused):  # `cat $(ls x.sh) | sh`: every file the lister prints
                view.passes_unreadable = (it.text, listed.reason)
            else:
                spelled.extend(listed)
            continue
        if it.role != E.READ or a.opaque or a.pattern is not None or it.text == "-":
            continue
        spelled.append(it.text)
    if not spelled and view.env.stdin_file is not None and not view.env.stdin_file.startswith("<("):
        spelled.append(view.env.stdin_file)  # `cat < x.sh | sh`
    for name in spelled:
        path = walk.absolute(name, view.cwd)
        disk = walk.disk
        if path is None and _under_unknown_directory(view, name):
            view.passes_unreadable = (name, UNKNOWN_DIRECTORY)  # `cd "$D" && cat x.sh | sh`
            continue
        if path is None or disk is None:
            continue
        written = walk.written()
        if path in written:
            if written[path] is not None:
                texts.append(written[path])
            else:
                view.passes_written = name  # `echo c? > l; cat l | xargs rm`
            continue
        text = disk.read_text("/" + "/".join(path))
        if isinstance(text, Refused):
            resolved = disk.resolve(list(path))
            if not isinstance(resolved, Refused) and disk.kind(resolved) == "dir":
                continue  # `grep -r x .`: a directory passes on no lines of its own
            view.passes_unreadable = (name, text.reason)
        elif isinstance(text, str):
            texts.append(text)
    return texts


# -- make and the package runners ----------------------------------------------------------------

_MAKEFILES = ("GNUmakefile", "makefile", "Makefile")
# make options whose value is the next word (when not attached).
_MAKE_VALUE_OPTIONS = frozenset({"-f", "--file", "--makefile", "-C", "--directory", "-I", "--include-dir",
                                 "-o", "--old-file", "--assume-old", "-W", "--what-if", "--new-file",
                                 "--assume-new", "-l", "--load-average", "-O", "--output-sync"})
# Of those, the options whose value is optional (`make -l all`: `all` may be a goal).
_MAKE_OPTIONAL_VALUES = frozenset({"-l", "--load-average", "-O", "--output-sync"})
_MAKE_VARIABLE = LazyPattern(r"[^\s=:#$]+[:+?!]*=")
# npm's names for running a script, and the script each runs (None: the next word).
_NPM_RUNS = {"run": None, "run-script": None, "rum": None, "urn": None, "test": "test", "t": "test",
             "tst": "test", "start": "start", "stop": "stop", "restart": "restart"}
# Life cycle scripts of the root package that the package managers' other commands run (npm's
# "Life Cycle Operation Order", yarn 1 and berry, pnpm). Where a manager's documentation is
# silent or versions differ (`npm install <pkg>`: npm documents `dependencies`, and `prepare`
# as not run; reify paths that remove or update), the whole install list is walked: reading a
# script that does not run only fails closed.
_INSTALL = ("pnpm:devPreinstall", "preinstall", "install", "postinstall", "prepublish", "preprepare", "prepare",
            "postprepare", "dependencies")
_PACK = ("prepack", "preprepare", "prepare", "postprepare", "postpack")
_PUBLISH = ("prepublishOnly", "prepublish", *_PACK, "publish", "postpublish")
_VERSION = ("preversion", "version", "postversion")
_TEST = ("pretest", "test", "posttest")
_LIFECYCLES: dict[str, tuple[str, ...]] = {
    **dict.fromkeys(("install", "i", "in", "ins", "inst", "insta", "instal", "isnt", "isnta", "isntal",
                     "isntall", "add", "ci", "clean-install", "ic", "install-clean", "isntall-clean",
                     "uninstall", "unlink", "remove", "rm", "r", "un", "update", "up", "upgrade", "udpate",
                     "rebuild", "rb", "link", "ln", "dedupe", "ddp", "prune", "import"), _INSTALL),
    **dict.fromkeys(("install-test", "it", "install-ci-test", "cit", "clean-install-test", "sit"), _INSTALL + _TEST),
    "pack": _PACK, "publish": _PUBLISH, "version": _VERSION, "verison": _VERSION, "diff": ("prepare",),
}
_COMMANDS = frozenset(_LIFECYCLES) | frozenset(_NPM_RUNS)
# Options after which the package managers run no life cycle script.
_IGNORE_SCRIPTS = frozenset({"--ignore-scripts", "--ignore-scripts=true"})


# Short options whose value is the rest of the word or the next word, and those whose value is
# only the rest of the word (optional), of the programs whose option bundles `unbundled` splits.
_MAKE_LETTERS = ("fCIoWE", "jlO")
_SED_LETTERS = ("efl", "i")
_AWK_LETTERS = ("fvFEeilW", "opdLD")  # (gawk's among them: `-E F`, `-i F`, `-o[F]` …)
_PROGRAM_VALUE_OPTIONS = frozenset({"--file", "--expression", "--line-length", "--assign", "--field-separator",
                                    "--exec", "--include", "--load"})
_SEDS = frozenset({"sed", "gsed"})
# Their options whose value is a file of program code (gawk: `-E` runs one, `-i` includes one).
_SED_FILE_OPTIONS = frozenset({"-f", "--file"})
_AWK_FILE_OPTIONS = frozenset({"-f", "--file", "-E", "--exec", "-i", "--include"})


def unbundled(args: Sequence[Arg], letters: tuple[str, str], long_values: frozenset[str]) -> list[Arg]:
    """`args` with each bundle of short options split into one word per option, as getopt
    reads them (`make -sf m.mk` is `-s -f m.mk`, `sed -nfx.sed` is `-n -fx.sed`): the first
    letter that takes a value (`letters`: required, optional) takes the rest of the word, or,
    when it ends the word and its value is required, the next word (left whole)."""
    required, optional = letters
    out: list[Arg] = []
    value_next = False
    for k, a in enumerate(args):
        t = a.text
        if value_next or a.opaque or a.pattern is not None or t[:1] != "-" or t[:2] == "--" or len(t) < 3 \
                or t[1] in required or t[1] in optional:  # (no bundle: `-j4`, `-fm.mk`, `x`)
            if t == "--" and not value_next:
                out.extend(args[k:])  # (operands only after it)
                break
            out.append(a)
            value_next = not value_next and not a.opaque and (
                len(t) == 2 and t[1] in required or t in long_values)
            continue
        for j in range(1, len(t)):
            if t[j] in required or t[j] in optional:
                out.append(Arg("-" + t[j:], None, False, a.count, a.word))
                value_next = j == len(t) - 1 and t[j] in required
                break
            out.append(Arg("-" + t[j], None, False, a.count, a.word))
    return out


def runner_script(walk: Walk, view: View) -> FileScript | None:
    """What `make` or `npm`/`yarn`/`pnpm` runs: the recipe lines of the makefile, or the
    package.json scripts a call names (with their `pre`/`post` scripts), as shell lines each
    run by a shell of its own, read within bounds like a script file. None when it runs none
    this layer can name (no such file, a script name of unknown value, a builtin command)."""
    args = view.args[view.inner + 1 :]
    if view.name in MAKES:
        return _makefile(walk, view, args)
    if view.name in PROGRAM_FILE_READERS:
        return _program_files(walk, view, args)
    return _package_scripts(walk, view, args)


# bun's commands that run the package's scripts (round r7): `bun run NAME` (a script of the
# nearest package.json first, else a file), `bun NAME` (a name that is no builtin command and
# no file's: a script), and its installs, which run the root package's life cycle scripts (and
# those of dependencies `trustedDependencies` lists: the local ones are read, as npm's are).
_BUN_INSTALLS = frozenset({"install", "i", "add", "remove", "rm", "update", "link", "unlink"})


def bun_package_call(view: View) -> bool:
    """Whether a `bun` command may run package.json scripts (see `_BUN_INSTALLS`): its first
    word after bun's own options is `run`, an install, or a name that is none of bun's
    builtin commands and spells no file (`bun dev`; `bun x.ts`, `bun ./x` run the file)."""
    from polydeukes.stdlib.shell.interpreters import FAMILIES

    bun = FAMILIES["bun"]
    args = view.args
    k = view.inner + 1
    while k < len(args) and args[k].text.startswith("-") and not args[k].opaque:
        k += 2 if args[k].text in bun.values else 1
    if k >= len(args) or args[k].opaque:
        return False
    first = args[k].text
    return first == "run" or first in _BUN_INSTALLS or (
        first not in bun.other_modes and "/" not in first and "." not in first)


def _program_files(walk: Walk, view: View, args: Sequence[Arg]) -> FileScript | None:
    """`awk -f prog.awk`, `sed -f script.sed` (`--file=F`, `-fF`, in a bundle `-nf F`; gawk's
    `-E F` and `-i F`): the program files, read as code (a mention fails closed, as in the
    program written on the line)."""
    if view.name in OPTION_FILE_READERS:
        return _option_files(walk, view, args)
    sed = view.name in _SEDS
    options = _SED_FILE_OPTIONS if sed else _AWK_FILE_OPTIONS
    files: list[str] = []
    listings: list = []
    whole = args
    args = unbundled(args, _SED_LETTERS if sed else _AWK_LETTERS, _PROGRAM_VALUE_OPTIONS)
    if not any(a.text[:2] in options or a.text.split("=", 1)[0] in options for a in args):
        script = _input_script(view, whole)  # (`awk '{system($0)}' x.txt`)
        return read(walk, view, script) if script is not None else None
    k = 0
    while k < len(args):
        t = args[k].text
        option, value = t, None
        if t in options and k + 1 < len(args):
            if args[k + 1].text.startswith("<(") \
                    and (made := _rewritten_script(args[k + 1].text, view.name, False, True)) is not None:
                return made  # `awk -f <(rev p)`
            if args[k + 1].opaque:
                # `awk -f $(ls p.awk)`: each file the lister prints (`_listed`); a name of
                # other unknown value is not read, as a script's is not (`bash "$F"`)
                at = next((j for j, a in enumerate(view.args) if a is args[k + 1]), -1)
                found = tuple(e for e in view.listed if at in e.source)
                if not found:
                    return None
                listings.extend(found)
                k += 2
                continue
            value = args[k + 1].text
            k += 1
        elif t.startswith("--") and "=" in t:
            option, value = t.split("=", 1)
        elif len(t) > 2 and not t.startswith("--") and not args[k].opaque:
            option, value = t[:2], t[2:]
        elif t == "--":
            break
        if value is not None and option in options and value in E.STDIN_FILES:
            if view.stdin_program and (script := _stdin_script(view, view.name, False, ())) is not None:
                return read(walk, view, script)  # `awk -f - < p.awk` (a heredoc: the judge's `code_mention`)
        elif value is not None and option in options:
            files.append(value)
            if option in ("-i", "--include") and not value.endswith(".awk"):
                files.append(value + ".awk")  # (gawk tries NAME, then NAME.awk)
        k += 1
    if listings:
        script = FileScript(files[0] if files else f"what {listings[0].rule} prints", view.name, False, True, ())
        script.paths = files
        script.listings = tuple(listings)
        return read(walk, view, script)
    return _code_files(walk, view, files)
    return script


# Compilers and linkers that read options from `@FILE` (response files, which may name more
# `@FILE`s), run `-wrapper PROG` and the programs they find under a `-B PREFIX` (`cc1`, `as`,
# `ld` …), and read `-specs=FILE` (spec strings can run programs); curl reads options from
# `-K FILE` (`output = "…"` writes).
COMPILERS = frozenset({"gcc", "cc", "g++", "c++", "clang", "clang++", "ld", "ld.bfd", "ld.gold", "ld.lld",
                       "as", "cpp", "gfortran", "objcopy", "javac"})
OPTION_FILE_READERS = COMPILERS | frozenset({"curl", "wget"})
# The environment variables that place curl's and wget's configuration files, and the names
# read there ("": the variable names the file): curl reads the first .curlrc of $CURL_HOME,
# $XDG_CONFIG_HOME (7.73, also `curlrc`) and $HOME, wget $WGETRC (else $HOME/.wgetrc) and
# $SYSTEM_WGETRC; every one the line sets is read.
_CONFIG_HOMES = {
    "curl": (("CURL_HOME", (".curlrc",)), ("XDG_CONFIG_HOME", (".curlrc", "curlrc")), ("HOME", (".curlrc",))),
    "wget": (("WGETRC", ("",)), ("SYSTEM_WGETRC", ("",)), ("HOME", (".wgetrc",))),
}
_B_PROGRAMS = ("cc1", "cc1plus", "cc1obj", "f951", "as", "ld", "collect2", "lto-wrapper", "lto1", "cpp",
               "ld.bfd", "ld.gold", "ld.lld", "specs")
_RESPONSE_FILE = LazyPattern(r"(?:^|\s)['\"]?@([^\s'\"]+)")


def _option_files(walk: Walk, view: View, args: Sequence[Arg]) -> FileScript | None:
    """The files whose text a compiler's or curl's options come from or whose programs it runs
    (`COMPILERS`, `OPTION_FILE_READERS`), read as code: a protected path they mention fails
    closed (`gcc @r x.c` with `-o ci/gate.sh` in r; `curl -K c.txt` with `output =
    "ci/gate.sh"`), as does one that cannot be read or whose name is unknown; a missing file
    is not judged (the program finds nothing there)."""
    compiler = view.name in COMPILERS
    files: list[str] = []
    unknown: str | None = None
    k = 0
    while k < len(args):
        a = args[k]
        t = a.text
        value = None
        if compiler:
            if t.startswith("@"):
                value = t[1:]
            elif t in ("-wrapper", "-B", "--prefix", "-specs", "--specs") and k + 1 < len(args):
                k += 1
                value = args[k].text
                a = args[k]
                option = t
            elif t.startswith(("-specs=", "--specs=", "--prefix=")):
                option, value = t.split("=", 1)[0], t.split("=", 1)[1]
            elif t.startswith("-B") and len(t) > 2:
                option, value = "-B", t[2:]
            if value is not None and not t.startswith("@"):
                if option == "-wrapper":
                    value = value.split(",", 1)[0]
                elif option in ("-B", "--prefix"):
                    if a.opaque:
                        unknown = t
                    else:
                        files.extend(value + sep + name for name in _B_PROGRAMS
                                     for sep in (("",) if value.endswith("/") else ("", "/")))
                    value = None
        elif (t == "--config" or t == "-K" and view.name == "curl") and k + 1 < len(args):
            k += 1
            a = args[k]
            value = a.text
        elif t.startswith("--config="):
            value = t.split("=", 1)[1]
        elif t.startswith("-K") and len(t) > 2 and view.name == "curl":
            value = t[2:]
        if value is not None:
            if a.opaque:
                unknown = t
            else:
                files.append(value)
        k += 1
    for variable, names in () if compiler else _CONFIG_HOMES[view.name]:
        # `CURL_HOME=. curl …` reads ./.curlrc, `WGETRC=w wget …` w: the configuration the
        # environment the line gives it names (the session's own HOME's is not the line's)
        value = _make_environment(walk, view, variable)
        if value is not None and "$" in value:
            unknown = f"{variable}={value}"
        elif value:
            files.extend(value.rstrip("/") + "/" + name if name else value for name in names)
    if unknown is not None or "-" in files or "/dev/stdin" in files:
        refused = FileScript(unknown or "-", view.name, True, True, None)
        refused.refused = "its name is not known" if unknown is not None else "it arrives on stdin"
        return refused
    # (a compiler's response file may name more, `@more`)
    return _code_files(walk, view, files, _RESPONSE_FILE if compiler else None)


def inline_program_line(walk: Walk, view: View) -> str | None:
    """(round 11) `sed -f x.sed f`, `awk -f x.awk f`: the same command with its program files'
    text spelled on the line instead (`sed -e TEXT f`, `awk TEXT f`), so that what the program
    runs of its input (sed's `e`, awk's `system($0)`) or makes of it is read as for a program
    written on the line (`readers.input_runs`). None when there is no program file, a word is
    of unknown value, a file is read from stdin or cannot be read within bounds (the program
    file is still read as code: `_program_files`)."""
    sed = view.name in _SEDS
    args = unbundled(view.args[view.inner + 1 :], _SED_LETTERS if sed else _AWK_LETTERS, _PROGRAM_VALUE_OPTIONS)
    kept: list[str] = []
    texts: list[str] = []
    k = 0
    while k < len(args):
        t = args[k].text
        if args[k].opaque or t == "--":
            return None
        if t in ("-f", "--file") and k + 1 < len(args):
            value = args[k + 1].text
            k += 2
        elif t.startswith("--file="):
            value = t[len("--file="):]
            k += 1
        elif t.startswith("-f") and len(t) > 2 and not t.startswith("--"):
            value = t[2:]
            k += 1
        else:
            kept.append(t)
            k += 1
            continue
        if value in E.STDIN_FILES:
            # (`sed -f - f <<< 'e'`, `echo '1e …' | sed -f - f`: the heredoc, herestring or
            # text the stages before print, `Walk._script`'s upstream)
            text = "".join(view.env.heredocs) if view.env.heredocs else None
        else:
            text = _read_file(walk, view, value)
        if not isinstance(text, str) or not text:
            return None
        texts.append(text)
    if not texts:
        return None
    if sed:
        words = [view.name, *kept, *(w for text in texts for w in ("-e", text))]
    else:
        # the program goes where awk looks for it: its first operand
        parsed = E.read_options(AWK_MODEL, [Arg(t, None, False, ONE, None) for t in kept], stop_at_operand=True)
        at = parsed.operands[0] if parsed.operands else len(kept)
        words = [view.name, *kept[:at], "\n".join(texts), *kept[at:]]
    return " ".join("'" + w.replace("'", "'\\''") + "'" for w in words)


def _code_files(walk: Walk, view: View, files: list[str], more=None) -> FileScript | None:
    """The files a program reads as code or options (`awk -f`, `gcc @file`, `curl -K`), read
    as one program's text (a file that cannot be read within bounds refuses the whole); with
    `more`, a pattern whose first group names a further file in a file's text (at most 64)."""
    texts: list[str] = []
    read: list[str] = []
    seen: set[str] = set()
    while files and len(seen) < 64:
        spelled = files.pop(0)
        if spelled in seen:
            continue
        seen.add(spelled)
        text = _read_file(walk, view, spelled)
        if isinstance(text, FileScript):
            text.shell = False
            return text
        if text is not None:
            texts.append(text)
            read.append(spelled)
            if more is not None:
                files.extend(m.group(1) for m in more().finditer(text))
    if not texts:
        return None
    script = FileScript(read[0] if len(read) == 1 else " and ".join(read), view.name, False, True, ())
    script.text = "\n".join(texts)
    return script


def _makefile(walk: Walk, view: View, args: Sequence[Arg]) -> FileScript | None:
    """What `make` runs (makefiles.py): its makefiles (`-f FILE`, `-f -` on stdin, else the
    first default name that exists), their includes and `--eval` text, read for the goals
    the call names and its `NAME=value` operands."""
    files: list[str] = []
    include_dirs: list[str] = []
    evals: list[str] = []
    goals: list[str] | None = []
    overrides: dict[str, str | None] = {}
    environment_overrides = False
    directory = "."
    # make's environment (the line's `NAME=value` in front of it, through `env`, or assigned
    # before it): MAKEFLAGS carries options and variables, MAKEFILES makefiles read first.
    flags = _make_environment(walk, view, "MAKEFLAGS")
    if flags is not None:
        environment_overrides = _make_flags(flags, include_dirs, evals, overrides)
    listed = _make_environment(walk, view, "MAKEFILES")
    args = unbundled(args, _MAKE_LETTERS, _MAKE_VALUE_OPTIONS)  # (`make -sf m.mk`)
    k = 0
    while k < len(args):
        a = args[k]
        t = a.text
        value: str | None = None
        option = t
        if t in _MAKE_VALUE_OPTIONS or t in ("-E", "--eval"):
            if k + 1 >= len(args):
                break
            value = args[k + 1].text if not args[k + 1].opaque else None
            if t in ("-f", "--file", "--makefile") and args[k + 1].text.startswith("<(") \
                    and (made := _rewritten_script(args[k + 1].text, view.name, False, True)) is not None:
                return made  # `make -f <(tr X i < a)`
            if args[k + 1].opaque and t in ("-f", "--file", "--makefile", "-C", "--directory", "-E", "--eval"):
                return None  # which file, where, or what text is unknown
            if args[k + 1].pattern is not None and t in ("-f", "--file", "--makefile"):
                # `make -f m?`: every match is read (the first is the makefile, the others goals)
                matches = glob_matches(walk, view, args[k + 1].pattern)
                if isinstance(matches, Refused):
                    refused = FileScript(args[k + 1].text, view.name, True, True, None)
                    refused.refused = matches.reason
                    return refused
                files.extend(matches)
                k += 2
                continue
            if t in _MAKE_OPTIONAL_VALUES and goals is not None:
                goals.append(args[k + 1].text)  # (`-l all`: maybe no value, and a goal)
            k += 1
        elif t.startswith("--") and "=" in t:
            option, value = t.split("=", 1)
        elif t[:2] in ("-f", "-C", "-I", "-E") and len(t) > 2:
            option, value = t[:2], t[2:]
        elif a.opaque and t.startswith("-"):
            return None
        elif t in ("-e", "--environment-overrides"):
            environment_overrides = True
        elif not t.startswith("-") and "=" in t and _MAKE_VARIABLE().match(t):
            name, _, assigned = t.partition("=")
            overrides[name.rstrip(":+?!")] = None if a.opaque or name[-1:] in "+?!" else assigned
        elif not t.startswith("-"):
            if a.opaque:
                goals = None  # a goal of unknown value
            elif goals is not None:
                goals.append(t)
        if option in ("-f", "--file", "--makefile") and value is not None:
            files.append(value)
        elif option in ("-I", "--include-dir") and value is not None:
            include_dirs.append(value)
        elif option in ("-C", "--directory") and value is not None:
            directory = value if directory == "." or value.startswith("/") else f"{directory}/{value}"
        elif option in ("-E", "--eval") and value is not None:
            evals.append(value)
        k += 1
    if not files and not evals and not listed and _no_makefile_here(walk, view.cwd if directory == "." else walk.absolute(directory, view.cwd)):
        return None  # (one look instead of one per default name: `cd build && make` in a fresh tree)
    prefix = "" if directory == "." else directory.rstrip("/") + "/"
    names = [f if f.startswith("/") or f == "-" else prefix + f for f in files] or [prefix + n for n in _MAKEFILES]
    read: list[tuple[str, str]] = [("--eval", text) for text in evals]
    for name in names:
        if name in ("-", "/dev/stdin"):
            text = _stdin_makefile(walk, view, name)
        else:
            text = _read_file(walk, view, name)
        if isinstance(text, FileScript):
            return text
        if text is not None:
            read.append(("standard input" if name in ("-", "/dev/stdin") else name, text))
            if not files:
                break  # make reads the first of its default names that exists
    if not read and not listed:
        return None
    # (MAKEFILES: read first, where an `-include` looks, and a missing one is no error; its
    # first target is not the default goal, as an included file's is not: read with them)
    first = [f"-include {listed}"] if listed else []
    missing: list[str] = []
    included = _included(walk, view, first + [text for _, text in read], prefix, include_dirs, missing)
    if isinstance(included, FileScript):
        return included
    from polydeukes.stdlib.shell.makefiles import read_makefiles  # only a make command loads it

    program = read_makefiles(read + included, goals, overrides, environment_overrides, len(read), missing,
                             lambda name: walk.environment(view, name))
    shown = next((name for name, _ in read + included if name != "--eval"), "--eval")
    script = FileScript(shown, "make", True, True, None)
    if program.refused is not None:
        script.refused = program.refused
        return script
    if directory != ".":
        script.directory = walk.absolute(directory, view.cwd)  # (None: unknown, relative lines unmatched)
    texts = [(name, text) for name, text in program.texts]
    script.text = "\n".join(text for _, text in texts)
    if len(texts) > 1:
        # The texts make reads (the rules the call does not run left out): a reason names the
        # one that mentions the entry.
        script.parts = texts
        script.path = " and ".join(name for name, _ in texts)
    script.lines = program.lines
    return script


def _stdin_makefile(walk: Walk, view: View, name: str) -> str | FileScript | None:
    """The makefile `make -f -` reads: the command's heredoc or herestring, or its `< FILE`;
    from a pipe it cannot be read, and the command fails closed."""
    env = view.env
    if env.heredocs:
        return "".join(env.heredocs)
    if env.stdin_file is not None:
        return _read_file(walk, view, env.stdin_file)
    refused = FileScript("standard input", "make", True, True, None)
    refused.refused = "a pipe, which this layer does not see"
    return refused


# make's directives that read another makefile (`-include` and `sinclude` ignore a missing one).
_INCLUDE = LazyPattern(r"[ ]*(?:-?include|sinclude)[ \t]+(.*)")
INCLUDED_MAKEFILES = 64  # makefiles read through include directives for one make command
_INCLUDE_DEPTH = 8


def _included(walk: Walk, view: View, texts: list[str], prefix: str, include_dirs: list[str],
              missing: list[str] | None = None) -> list[tuple[str, str]] | FileScript:
    """The texts of the makefiles the `include` directives of `texts` read, and theirs in turn
    (depth `_INCLUDE_DEPTH`, at most `INCLUDED_MAKEFILES` files, then fail closed): a name is
    relative to make's directory, else looked up in the `-I` directories, then in the
    directories GNU make searches itself (`_MAKE_INCLUDE_DIRS`). A name found nowhere goes to
    `missing` (make may make it with a rule, then read it: makefiles.py fails closed then). A
    name of unknown value (`include $(DEPS)`, a glob) is not followed, as `bash $X`'s script
    is not."""
    out: list[tuple[str, str]] = []
    seen: set[str] = set()
    pending = [(text, 0) for text in texts]
    while pending:
        text, depth = pending.pop(0)
        for line in text.split("\n"):
            if "include" not in line or line.startswith("\t"):
                continue
            found = _INCLUDE().fullmatch(line.split("#", 1)[0].rstrip())
            if found is None:
                continue
            for name in found.group(1).split():
                if "$" in name or any(c in name for c in "*?["):
                    continue
                if name in seen:
                    continue
                seen.add(name)
                if len(seen) > INCLUDED_MAKEFILES or depth >= _INCLUDE_DEPTH:
                    refused = FileScript(name, "make", True, True, None)
                    refused.refused = f"more than {INCLUDED_MAKEFILES} included makefiles, or included " \
                                      f"{_INCLUDE_DEPTH} deep"
                    return refused
                # (a relative `-I` directory: under make's directory and, in case make reads it
                # before it changes directory, under the caller's: both are read)
                candidates = [name] if name.startswith("/") else [prefix + name] + [
                    base + d.rstrip("/") + "/" + name for d in include_dirs
                    for base in dict.fromkeys(("" if d.startswith("/") else prefix, ""))] + [
                    d + name for d in _MAKE_INCLUDE_DIRS]
                for spelled in candidates:
                    content = _read_file(walk, view, spelled)
                    if isinstance(content, FileScript):
                        return content
                    if content is not None:
                        out.append((spelled, content))
                        pending.append((content, depth + 1))
                        break
                else:
                    if missing is not None:
                        missing.append(name)
                    if found.group(0).lstrip().startswith("include"):
                        # (make stops unless a rule makes it, or it is found where this reading
                        # does not look: an `-I` from the environment the session exported)
                        refused = FileScript(name, "make", True, True, None)
                        refused.refused = "make includes it and it is not in make's directory nor the -I " \
                                          "directories: the environment's MAKEFLAGS may name where it is"
                        return refused
    return out


# Where GNU make looks for an included makefile after its directory and the `-I` ones.
_MAKE_INCLUDE_DIRS = ("/usr/gnu/include/", "/usr/local/include/", "/usr/include/")


def _make_environment(walk: Walk, view: View, name: str) -> str | None:
    """The value of make's environment variable `name` on this line: assigned in front of
    make (or through `env`), else assigned before it on the line; a part of unknown value
    stays spelled (`$X`); None when the line does not assign it."""
    for a in reversed(view.args[: view.inner]):
        if a.text.startswith(name + "="):
            return a.text.partition("=")[2]
    values = walk.context.scope.values
    if name not in values:
        return None
    known = values[name]
    if known is None:
        return "$" + name  # (of unknown value)
    return " ".join(v.text for v in known)


_UNESCAPED_BLANKS = LazyPattern(r"(?<!\\)[ \t]+")


def _make_flags(flags: str, include_dirs: list[str], evals: list[str], overrides: dict[str, str | None]) -> bool:
    """MAKEFLAGS as make reads it: a first word without `-` is single-letter options, then
    options and `NAME=value` variables; `-I`/`--include-dir`, `-E`/`--eval` and variables are
    read into the lists, `-e` is returned. `-f` and `-C` there are ignored by make (4.3), and
    so here. A word of unknown value (`$X`) is left out: options from the environment."""
    words = [w.replace("\\ ", " ").replace("\\\t", "\t") for w in _UNESCAPED_BLANKS().split(flags.strip())] \
        if flags.strip() else []
    if words and not words[0].startswith("-") and "=" not in words[0]:
        words[0] = "-" + words[0]
    environment = False
    k = 0
    while k < len(words):
        word = words[k]
        following = words[k + 1] if k + 1 < len(words) else None
        if word == "--":
            pass
        elif word.startswith("--") and "=" in word:
            option, _, value = word.partition("=")
            if option in ("--include-dir",):
                include_dirs.append(value)
            elif option == "--eval":
                evals.append(value)
        elif word in ("--include-dir", "--eval") and following is not None:
            (include_dirs if word == "--include-dir" else evals).append(following)
            k += 1
        elif word == "--environment-overrides":
            environment = True
        elif word.startswith("-") and not word.startswith("--"):
            letters = word[1:]
            for j, letter in enumerate(letters):
                if letter in "IE":
                    value = letters[j + 1 :] or following
                    if value is not None:
                        (include_dirs if letter == "I" else evals).append(value)
                        if not letters[j + 1 :]:
                            k += 1
                    break
                if letter in "fCoWlOj":
                    if not letters[j + 1 :] and letter in "fCoW":
                        k += 1  # (its value is the next word)
                    break
                if letter == "e":
                    environment = True
        elif "=" in word and not word.startswith("$") and _MAKE_VARIABLE().match(word):
            name, _, assigned = word.partition("=")
            overrides[name.rstrip(":+?!")] = None if "$" in assigned or name[-1:] in "+?!" else assigned
        k += 1
    return environment


def _no_makefile_here(walk: Walk, path: tuple[str, ...] | None) -> bool:
    """Is there no directory at `path` on disk, and has the line made neither it nor a
    makefile in it?"""
    disk = walk.disk
    if path is None or disk is None or not disk.missing_directory(path):
        return False
    written = walk.written()
    return not (path in written or any(path + (name,) in written for name in _MAKEFILES))


def _read_file(walk: Walk, view: View, spelled: str) -> str | FileScript | None:
    """`_text` for a runner's file, a refusal as a `FileScript` naming why it cannot be read.
    A relative name under a directory of unknown place (`cd "$D" && make`) is refused: any
    Makefile or package.json of the project could be the one run (round r5)."""
    if view.cwd is None and view.cwd_glob is None and spelled[:1] not in ("/", "~") and walk.disk is not None:
        refused = FileScript(spelled, view.name, True, True, None)
        refused.refused = UNKNOWN_DIRECTORY
        return refused
    content = _text(walk, view, spelled)
    if isinstance(content, Refused):
        refused = FileScript(spelled, view.name, True, True, None)
        refused.refused = content.reason
        return refused
    return content


def _package_scripts(walk: Walk, view: View, args: Sequence[Arg]) -> FileScript | None:
    name = view.name
    directory = "."
    words: list[Arg] = []
    after_option: list[bool] = []
    # Workspaces (round 6): npm's `-w NAME|DIR` (`--workspace`), `--workspaces` (`-ws`),
    # `--include-workspace-root`; pnpm's `-r` (`--recursive`), `--filter`/`-F`; yarn's
    # `workspace NAME …`, `workspaces foreach …` (`workspaces run …`): None, or the selectors
    # (an empty list: every workspace).
    selected: list[str] | None = None
    with_root = False
    k = 0
    while k < len(args):
        a = args[k]
        t = a.text
        if t in MANAGER_DIRECTORY and k + 1 < len(args):
            # (one of unknown value refuses once a script runs, below)
            directory = "\0" if args[k + 1].opaque else args[k + 1].text
            k += 2
            continue
        if name == "npm" and t in ("-w", "--workspace") or name == "pnpm" and t in ("--filter", "-F"):
            if k + 1 < len(args):
                if args[k + 1].opaque:
                    return _unresolved(view, "?")
                selected = (selected or []) + _selectors(name, args[k + 1].text)
            k += 2
            continue
        if name == "npm" and t.startswith(("--workspace=", "-w=")) or name == "pnpm" and t.startswith("--filter="):
            if a.opaque:
                return _unresolved(view, t)
            selected = (selected or []) + _selectors(name, t.split("=", 1)[1])
        elif name == "npm" and t in ("--workspaces", "-ws", "--workspaces=true") \
                or name == "pnpm" and t in ("-r", "--recursive"):
            selected = (selected or []) + [_EVERY]
        elif name == "npm" and t in ("--include-workspace-root", "-iwr", "--include-workspace-root=true"):
            with_root = True
        elif t.startswith(("--prefix=", "--dir=", "--cwd=")):
            directory = t.split("=", 1)[1]
        elif t == "--":
            break
        elif not t.startswith("-"):
            previous = args[k - 1].text if k else ""
            words.append(a)
            after_option.append(previous.startswith("-") and "=" not in previous and a.text not in _COMMANDS)
        k += 1
    # A word after an option without `=` may be that option's value (`npm --loglevel silly ci`,
    # `pnpm --filter web install`): the command is the first word that is not, if there is one.
    start = next((j for j, maybe_value in enumerate(after_option) if not maybe_value), 0)
    words, after_option = words[start:], after_option[start:]
    if name == "yarn" and words and not words[0].opaque and words[0].text in ("workspace", "workspaces"):
        if words[0].text == "workspace" and len(words) > 2:
            if words[1].opaque:
                return _unresolved(view, words[1].text)
            selected, words = [words[1].text], words[2:]  # `yarn workspace NAME run x`
        elif words[0].text == "workspaces" and len(words) > 2 and words[1].text in ("foreach", "run"):
            # `yarn workspaces foreach [-A] [--include X] run x`: every workspace
            skip = next((j for j in range(2, len(words)) if words[j].text == "run"),
                        next((j for j in range(2, len(words)) if not after_option[j]), 2))
            selected, words = [], words[skip:]
        else:
            return None
    if name == "yarn" and not words:
        first = "install"  # a bare `yarn` installs
    elif not words or words[0].opaque:
        return None
    else:
        first = words[0].text
    lifecycle = _LIFECYCLES.get(first)
    if lifecycle is not None:
        if any(a.text in _IGNORE_SCRIPTS for a in args):
            return None  # `npm ci --ignore-scripts`: no life cycle script runs
        script_name = first
    elif name == "npm":
        if first not in _NPM_RUNS:
            return None  # npm's other commands run no script of the package
        script_name = _NPM_RUNS[first]
        if script_name is None:
            if len(words) < 2 or words[1].opaque:
                return None
            script_name = words[1].text
    elif first == "run":
        if len(words) < 2 or words[1].opaque:
            return None
        script_name = words[1].text
    else:
        script_name = first  # `yarn build`, `pnpm test`: a script of that name, if there is one
    if directory == "\0":
        # (round 7) `npm --prefix "$D" test`: any package.json could be the one run, as after
        # `cd "$D"` (it passed)
        return _manager_refusal(view, "package.json")
    if selected is None and lifecycle is not None and lifecycle[0] == _INSTALL[0]:
        # An install at a workspace root links the workspaces and runs their install scripts.
        selected, with_root = [], True
        if not _declares_workspaces(walk, view, directory):
            selected = None
    # The packages an install or a rebuild builds besides the root: those under node_modules
    # (`npm rebuild [NAME…]`), local directories (`npm install ./sub`, `"file:sub"`).
    built = _built_packages(walk, view, directory, words) if lifecycle is not None else []
    if isinstance(built, FileScript):
        return built
    if selected is None and not built:
        return _scripts_of(walk, view, directory, words, script_name, lifecycle)
    if selected is None:
        places = [directory]
    else:
        if lifecycle is not None:
            with_root = True  # (whether the root's life cycle scripts run too differs: read them)
        places = _workspaces(walk, view, directory, selected)
        if isinstance(places, FileScript):
            return places
        if with_root and directory not in places:
            places = [directory, *places]
    places = [*places, *(place for place in built if place not in places)]
    found: list[FileScript] = []
    for place in places:
        script = _scripts_of(walk, view, place, words, script_name, lifecycle, binary=False)
        if script is not None and (script.refused is not None or script.lines is None):
            return script
        if script is not None:
            found.append(script)
    if len(found) < 2:
        return found[0] if found else None
    # Several packages' scripts: each line runs in its package's directory.
    import shlex  # only scripts of several workspaces need it

    merged = FileScript(" and ".join(f.path for f in found), name, True, True, None)
    merged.node_bin = True
    merged.lines = []
    merged.parts = []
    for f in found:
        place = f.directory if f.directory is not False else view.cwd
        prefix = "" if place is None else "cd " + shlex.quote("/" + "/".join(place)) + " && "
        merged.lines.extend(prefix + line for line in f.lines)
        merged.parts.extend(f.parts or [(f.path, f.text)])
    merged.text = "\n".join(merged.lines)
    return merged


# npm, pnpm and yarn build (run the install scripts, or `node-gyp rebuild` for a binding.gyp,
# of) each package a rebuild names (every one when none) under node_modules, nested ones
# included, and each local directory an install adds: its operands that name one (`./sub`,
# `sub/`, `file:sub`) and package.json's `file:`/`link:` dependencies. Read at most
# `_INSTALLED_PACKAGES` packages; past that the command fails closed. (An install leaves the
# packages already under node_modules as they are; their registry packages' scripts come
# from the network, not from files here.)
_REBUILDS = frozenset({"rebuild", "rb"})
# An install's commands whose operands name packages already installed (removed, rebuilt,
# pruned): one of unknown value adds none. The others' operands are specs, and one of unknown
# value fails closed: it may be a local package (`./evil`, `file:…`, `x@file:…`).
_NAMES_INSTALLED = _REBUILDS | frozenset({"uninstall", "unlink", "remove", "rm", "r", "un", "prune", "dedupe",
                                          "ddp"})
_INSTALLED_PACKAGES = 512
_DEPENDENCIES = ("dependencies", "devDependencies", "optionalDependencies", "peerDependencies")
_LOCAL_SPEC = LazyPattern(
    r"(?:file|link|portal):(.+)|(\.{1,2}(?:/.*)?|/.+|~/.+|[^@/][^/]*/.*|[^@/]+\.(?:tgz|tar\.gz|tar))")


def _built_packages(walk: Walk, view: View, directory: str, words: Sequence[Arg]) -> list[str] | FileScript:
    """The packages besides the root that an install or rebuild runs the install scripts of,
    spelled from where the command runs (see `_REBUILDS`)."""
    import json  # only an install or rebuild needs it

    base = "" if directory == "." else directory.rstrip("/") + "/"
    command, operands = (words[0].text, words[1:]) if words else ("install", [])
    if command in _REBUILDS:
        names = None if not operands or any(a.opaque for a in operands) else {
            a.text.rsplit("@", 1)[0] if a.text.rfind("@") > 0 else a.text for a in operands}
        return _installed(walk, view, base, names)
    found: list[str] = []
    unknown = next((a for a in operands if a.opaque), None) if command not in _NAMES_INSTALLED else None
    if unknown is not None:
        # (`npm i "$X"`, `yarn add $P`: it may be a local directory or tarball, whose install
        # scripts run; round r7)
        refused = FileScript(unknown.text, view.name, True, True, None)
        refused.refused = "its name is not known"
        return refused
    specs = [a.text for a in operands if not a.opaque]
    text = _text(walk, view, base + "package.json", FILE_BYTES)
    if isinstance(text, str) and (":" in text or "/" in text):
        try:
            manifest = json.loads(text)
        except ValueError:
            manifest = None
        for key in _DEPENDENCIES if isinstance(manifest, dict) else ():
            table = manifest.get(key)
            if isinstance(table, dict):
                specs.extend(v for v in table.values() if isinstance(v, str) and v.startswith(("file:", "link:",
                                                                                              "portal:")))
    for spec in specs:
        m = _LOCAL_SPEC().fullmatch(spec.split("#", 1)[0])
        if m is None or spec.startswith("@") and m.group(1) is None:
            continue  # (a name, a scope's package, a URL)
        place = (m.group(1) or m.group(2)).rstrip("/") or "/"
        if "://" in place:
            continue
        place = place.removeprefix("//") if m.group(1) else place
        place = place if place.startswith(("/", "~")) or not base else base + place
        if place.endswith(_TARBALLS):
            refused = _tarball(walk, view, place)
            if refused is not None:
                return refused
            continue
        found.append(place)
    return [place for place in dict.fromkeys(found)  # (one that cannot be read is read, to refuse)
            if _text(walk, view, place.rstrip("/") + "/package.json", FILE_BYTES) is not None]


# A local tarball an install adds (`npm i ./x.tgz`, `"x": "file:x.tgz"`, round r6): its
# package.json's install scripts run, and this layer does not unpack it: one that is there (or
# that the line writes) fails closed; a missing one passes (the install stops).
_TARBALLS = (".tgz", ".tar.gz", ".tar")


def _tarball(walk: Walk, view: View, spelled: str) -> FileScript | None:
    path = walk.absolute(spelled, view.cwd)
    why = "its name is not known" if path is None else "the line writes it" if path in walk.written() else None
    if why is None and walk.disk is not None:
        kind = walk.disk.kind(list(path))
        why = kind.reason if isinstance(kind, Refused) else None if kind == "missing" \
            else "a tarball's install scripts are not unpacked"
    if why is None:
        return None
    refused = FileScript(spelled, view.name, True, True, None)
    refused.refused = why
    return refused


def _installed(walk: Walk, view: View, base: str, names: set[str] | None) -> list[str] | FileScript:
    """The packages under `base`node_modules (`@scope/name` ones and nested node_modules
    included) whose name is among `names` (every one when None), spelled from where the
    command runs; a refusal past `_INSTALLED_PACKAGES` or when the place is of unknown value."""
    shown = f"the packages under {base}node_modules"
    root = walk.absolute(base or ".", view.cwd)
    if root is None or walk.disk is None:
        refused = FileScript(shown, view.name, True, True, None)
        refused.refused = "the directory it runs in is of unknown value"
        return refused
    found: list[str] = []
    packages = 0
    queue: list[tuple[str, ...]] = [("node_modules",)]
    while queue:
        place = queue.pop(0)
        entries = walk.disk.links_in([*root, *place], lambda n: not n.startswith("."), directories=True)
        why = entries.reason if isinstance(entries, Refused) else None
        for entry in sorted(entries) if why is None else ():
            if entry.startswith("@") and place[-1] == "node_modules":
                queue.append((*place, entry))  # (a scope: its packages are in it)
                continue
            packages += 1
            package = (*place, entry)
            name = entry if place[-1] == "node_modules" else place[-1] + "/" + entry
            if names is None or name in names:
                found.append(base + "/".join(package))
            queue.append((*package, "node_modules"))
        if why is None and packages > _INSTALLED_PACKAGES:
            why = f"more than {_INSTALLED_PACKAGES} packages under node_modules"
        if why is not None:
            refused = FileScript(shown, view.name, True, True, None)
            refused.refused = why
            return refused
    return found


def _selectors(manager: str, value: str) -> list[str]:
    """The workspaces an `-w`/`--filter` value names: npm's is a name or a directory; pnpm's
    a name or `./dir`, else a filter expression (`{dir}`, `name...`, `!name`, `@scope/*`):
    every workspace (reading more only fails closed)."""
    if manager == "pnpm" and (any(c in value for c in "{}!*?[^") or "..." in value):
        return [_EVERY]
    return [value]


_EVERY = ""  # a selector that picks every workspace


def _unresolved(view: View, selector: str) -> FileScript:
    """A refusal: a workspace selector this layer cannot resolve (what runs is unknown)."""
    refused = FileScript(f"the workspace '{selector}'", view.name, True, True, None)
    refused.refused = f"the workspace '{selector}' is not one this layer can resolve"
    return refused


def _declares_workspaces(walk: Walk, view: View, directory: str) -> bool:
    """Does the package at `directory` declare workspaces (package.json `workspaces`, or a
    pnpm-workspace.yaml)? (read as `_workspaces` reads them)"""
    base = "" if directory == "." else directory.rstrip("/") + "/"
    text = _text(walk, view, base + "package.json", FILE_BYTES)
    if isinstance(text, str) and '"workspaces"' in text:
        return True
    return view.name == "pnpm" and isinstance(_text(walk, view, base + "pnpm-workspace.yaml", FILE_BYTES), str)


def _workspaces(walk: Walk, view: View, directory: str, selected: list[str]) -> list[str] | FileScript:
    """The directories of the workspaces `selected` picks (every one when empty), spelled from
    where the command runs: the root package's `workspaces` globs (package.json, or
    `{"packages": […]}`; pnpm-workspace.yaml's `packages` list; pnpm without one: every
    package under the root), matched by directory (a workspace, or a directory above some)
    or by package name. A selector that picks none, or files that cannot be read within
    bounds, refuse (what runs is unknown)."""
    import json  # only a workspace run needs it

    base = "" if directory == "." else directory.rstrip("/") + "/"
    root = walk.absolute(directory, view.cwd)
    if root is None or walk.disk is None:
        return _unresolved(view, selected[0] if selected else "*")
    patterns: list[str] = []
    text = _read_file(walk, view, base + "package.json")
    if isinstance(text, FileScript):
        return text
    if text is not None:
        try:
            declared = json.loads(text).get("workspaces")
        except (ValueError, AttributeError):
            declared = None
        if isinstance(declared, dict):
            declared = declared.get("packages")
        if isinstance(declared, list):
            patterns.extend(p for p in declared if isinstance(p, str))
    if view.name == "pnpm":
        text = _read_file(walk, view, base + "pnpm-workspace.yaml")
        if isinstance(text, FileScript):
            return text
        patterns.extend(m.group(1) for m in _PNPM_PACKAGE().finditer(text or ""))
        if text is None:
            patterns.append("**")
    places = _workspace_directories(walk, root, patterns)
    if isinstance(places, Refused):
        refused = FileScript(f"the workspaces of {base}package.json", view.name, True, True, None)
        refused.refused = places.reason
        return refused
    if not selected or _EVERY in selected:
        return [base + "/".join(p[len(root):]) if p != root else directory for p in places]
    picked: list[tuple[str, ...]] = []
    for selector in selected:
        at = walk.absolute(selector, root)
        hits = [p for p in places if at is not None and p[: len(at)] == at]
        if not hits:
            for p in places:
                manifest = _text(walk, view, "/" + "/".join((*p, "package.json")), FILE_BYTES)
                try:
                    if isinstance(manifest, str) and json.loads(manifest).get("name") == selector:
                        hits.append(p)
                except (ValueError, AttributeError):
                    continue
        if not hits:
            return _unresolved(view, selector)
        picked.extend(p for p in hits if p not in picked)
    return [base + "/".join(p[len(root):]) if p != root else directory for p in picked]


_PNPM_PACKAGE = LazyPattern(r"""(?m)^[ \t]*-[ \t]*['"]?([^'"#\n]+?)['"]?[ \t]*(?:#.*)?$""")
_WORKSPACES = 256  # workspace directories looked at per command


def _workspace_directories(walk: Walk, root: tuple[str, ...], patterns: list[str]) -> list[tuple[str, ...]] | Refused:
    """The directories under `root` that the workspace globs match and that hold a
    package.json (a `!` pattern excludes nothing here: reading more only fails closed)."""
    import fnmatch
    import re

    disk = walk.disk
    found: list[tuple[str, ...]] = []
    for pattern in patterns:
        parts = [p for p in pattern.strip().split("/") if p not in ("", ".")]
        if not parts or pattern.startswith("!") or ".." in parts:
            continue
        level: list[tuple[str, ...]] = [root]
        for at, part in enumerate(parts):
            if part == "**":
                # every package under here (not in node_modules), whatever the rest says
                rest = LazyPattern(r"(?:[^/]+/)*package\.json")
                more: list[tuple[str, ...]] = []
                for place in level:
                    files = disk.test_files(list(place), _WORKSPACES, files=rest, skip=_NOT_WORKSPACES)
                    if isinstance(files, Refused):
                        return files
                    more.extend(tuple(f.strip("/").split("/")[:-1]) for f in files)
                level = more
                break
            if not any(c in part for c in "*?["):
                level = [(*place, part) for place in level]
                continue
            matcher = re.compile(fnmatch.translate(part))
            more = []
            for place in level:
                names = disk.links_in(list(place), lambda n: bool(matcher.match(n)) and n != "node_modules",
                                      directories=True)
                if isinstance(names, Refused):
                    return names
                more.extend((*place, n) for n in sorted(names))
            level = more
            if len(level) > _WORKSPACES:
                return Refused(f"more than {_WORKSPACES} workspaces")
        for place in level:
            if place not in found and disk.kind([*place, "package.json"]) == "file":
                found.append(place)
        if len(found) > _WORKSPACES:
            return Refused(f"more than {_WORKSPACES} workspaces")
    return found


_NOT_WORKSPACES = LazyPattern(r"node_modules|\.git")
# npm's and pnpm's default `start` (no "start" script): `node server.js` (npm-start, pnpm-start).
_DEFAULT_START = "node server.js"


def _scripts_of(walk: Walk, view: View, directory: str, words: Sequence[Arg], script_name: str,
                lifecycle: tuple[str, ...] | None, binary: bool = True) -> FileScript | None:
    """The scripts of the package at `directory` that the call runs (see `_package_scripts`)."""
    name = view.name
    spelled = "package.json" if directory == "." else directory.rstrip("/") + "/package.json"
    text = _read_file(walk, view, spelled)
    if text is None or isinstance(text, FileScript):
        return text if text is not None or not binary else _package_binary(walk, view, words, script_name,
                                                                                lifecycle is None)
    import json  # only a package runner whose package.json is there needs it

    try:
        scripts = json.loads(text).get("scripts")
    except (ValueError, AttributeError):
        refused = FileScript(spelled, name, True, True, None)
        refused.refused = f"'{spelled}' is not a JSON object"
        return refused
    if not isinstance(scripts, dict):
        scripts = {}  # (no scripts: `yarn NAME` may still run the package's binary)
    if name in ("npm", "pnpm") and not isinstance(scripts.get("start"), str) \
            and script_name in ("start", "restart"):
        # (round 6) with no "start" script, npm and pnpm run `node server.js`
        scripts = {**scripts, "start": _DEFAULT_START}
    names = [f"pre{script_name}", script_name, f"post{script_name}"]
    if lifecycle is not None:
        names = list(lifecycle)
    elif script_name == "restart" and not isinstance(scripts.get("restart"), str):
        names = ["prestop", "stop", "poststop", "prestart", "start", "poststart"]
    names = [n for n in names if isinstance(scripts.get(n), str)]
    gyp = None
    if lifecycle is not None and lifecycle[0] == _INSTALL[0] \
            and not any(isinstance(scripts.get(n), str) for n in ("install", "preinstall")):
        # (round 6) a package with a binding.gyp and no install script: `node-gyp rebuild`
        gyp = _binding_gyp(walk, view, directory)
        if isinstance(gyp, FileScript):
            return gyp
    if not names and gyp is None:
        return _package_binary(walk, view, words, script_name, lifecycle is None) if binary else None
    lines = [scripts[n] for n in names]
    if lifecycle is None:
        shown = f"the '{script_name}' script"
    elif names:
        shown = "the " + ", ".join(f"'{n}'" for n in names) + (" scripts" if len(names) > 1 else " script")
    else:
        shown = "the binding.gyp"
    script = FileScript(f"{shown} of {spelled}", name, True, True, None)
    script.node_bin = True
    parts = [(f"the '{n}' script of {spelled}", scripts[n]) for n in names]
    if gyp is not None:
        gyp_path, gyp_text, gyp_lines = gyp
        parts.append((gyp_path, gyp_text))
        lines.extend(gyp_lines)
    if gyp is not None or len(names) > 1 and lifecycle is not None:
        script.parts = parts
    if directory != ".":
        script.directory = walk.absolute(directory, view.cwd)  # the scripts run in the package's
    prefix = "" if directory == "." else directory.rstrip("/") + "/"
    npmrc_files = npm_config_files(walk, view, view.args[view.inner + 1 :], directory) \
        if name in ("npm", "pnpm", "yarn") else ()
    for rc, setting in [*((rc, _SCRIPT_SHELL) for rc in npmrc_files),
                        *((prefix + own, setting) for own, setting in _OWN_SHELL_FILES.get(name, ()))]:
        shell = npmrc_script_shell(walk, view, rc, setting)
        if isinstance(shell, FileScript):
            return shell
        if shell is not None:
            # `.npmrc`'s `script-shell=./s.sh` (`.yarnrc`'s `script-shell`, pnpm-workspace.yaml's
            # `scriptShell`): the package manager runs every script as `./s.sh -c SCRIPT`
            lines = [*lines, f"{shell} -c ''"]
    options = _npmrc_node_options(walk, view, directory) if name in ("npm", "pnpm", "yarn") else None
    if options is not None:
        # `.npmrc`'s `node-options=--require ./e.js` is NODE_OPTIONS of every script: each
        # `node` it starts loads e.js (red-team round 2, X)
        lines = [*lines, f"node {options} -e 0"]
    script.text = "\n".join(lines)
    script.lines = lines
    return script


# binding.gyp's command expansions (`<!(cmd)`, `<!@(cmd)`), run by gyp as it reads the file.
_GYP_COMMAND = LazyPattern(r"<!@?\(([^)\n]*)\)")
# Keys whose values are commands the build runs (actions, rules, postbuilds).
_GYP_RUNS = LazyPattern(r"""['"](?:actions|rules|postbuilds)['"]\s*:""")


def _binding_gyp(walk: Walk, view: View, directory: str) -> tuple[str, str, list[str]] | FileScript | None:
    """The package's binding.gyp, which `node-gyp rebuild` builds on install: (path, text,
    the command lines its `<!(…)` expansions run), read for mentions; one whose actions,
    rules or postbuilds run commands refuses (this layer does not follow a build's steps)."""
    spelled = "binding.gyp" if directory == "." else directory.rstrip("/") + "/binding.gyp"
    text = _read_file(walk, view, spelled)
    if text is None or isinstance(text, FileScript):
        return text
    if _GYP_RUNS().search(text):
        refused = FileScript(spelled, "node-gyp", True, True, None)
        refused.refused = "its actions, rules or postbuilds run commands this layer does not follow"
        return refused
    return spelled, text, [m.group(1) for m in _GYP_COMMAND().finditer(text)]


_SCRIPT_SHELL = LazyPattern(r"(?m)^[ \t]*script-shell[ \t]*=[ \t]*(.*?)[ \t]*$")
# (round 6) The package managers' own files that name the script shell, besides the npmrc
# files all three read (yarn 1 reads .npmrc too): yarn 1's `.yarnrc` (`script-shell "./s.sh"`,
# a key and a value apart, the key quoted or not) and pnpm 10's `pnpm-workspace.yaml`
# (`scriptShell: ./s.sh`), each in the package's directory.
_OWN_SHELL_FILES = {
    "yarn": ((".yarnrc", LazyPattern(r"(?m)^[ \t]*\"?script-shell\"?[ \t]+(.*?)[ \t]*$")),),
    "pnpm": (("pnpm-workspace.yaml", LazyPattern(r"(?m)^[ \t]*['\"]?scriptShell['\"]?[ \t]*:[ \t]*(.*?)[ \t]*$")),),
}


_NODE_OPTIONS_RC = LazyPattern(r"(?m)^[ \t]*node-options[ \t]*=[ \t]*(.*?)[ \t]*$")


def _npmrc_node_options(walk: Walk, view: View, directory: str) -> str | None:
    """The `node-options` a project's .npmrc sets (npm exports it as NODE_OPTIONS to its
    scripts), as words for a `node` command line; None without one (a .npmrc that cannot be
    read refuses already, `_npmrc_script_shell`)."""
    spelled = ".npmrc" if directory == "." else directory.rstrip("/") + "/.npmrc"
    text = _read_file(walk, view, spelled)
    if not isinstance(text, str):
        return None
    m = _NODE_OPTIONS_RC().search(text)
    if m is None or not m.group(1):
        return None
    return m.group(1).strip("'\"")


# (round 6) Code pnpm and yarn load from the project whatever the command: pnpm's pnpmfile
# (`.pnpmfile.cjs`, `.pnpmfile.mjs`, or the file `--pnpmfile`, `.npmrc`'s `pnpmfile=` or
# pnpm-workspace.yaml's `pnpmfile:` names: its hooks run as pnpm reads its configuration and
# resolves packages), and the yarn binary a project pins (`.yarnrc.yml`'s `yarnPath:`, yarn
# 1's `.yarnrc` `yarn-path`: yarn runs that file instead of itself) and its plugins
# (`.yarnrc.yml`'s `plugins:` paths).
_PNPMFILE_SETTING = LazyPattern(r"(?m)^[ \t]*['\"]?pnpmfile['\"]?[ \t]*[=:][ \t]*(.*?)[ \t]*$")
_YARN_PATH = LazyPattern(r"(?m)^[ \t]*['\"]?(?:yarnPath|yarn-path)['\"]?[ \t]*:?[ \t]+(.*?)[ \t]*$")
_YARN_PLUGIN = LazyPattern(r"(?m)^[ \t]*-[ \t]+(?:path[ \t]*:[ \t]*)?([^\s#'\"]*\.c?js|['\"][^'\"\n]*\.c?js['\"])[ \t]*$"
                           r"|^[ \t]+path[ \t]*:[ \t]*([^\s#]+)[ \t]*$")
# (round 7) The options that run a package manager in another directory (`yarn --cwd DIR`,
# `pnpm -C DIR` / `--dir DIR`, `npm --prefix DIR`): its configuration, pnpmfile and scripts
# are DIR's.
MANAGER_DIRECTORY = frozenset({"--prefix", "-C", "--dir", "--cwd"})
# (round 7) yarn's configuration files, read in the directory it runs in and in every
# directory above it up to `/`, and in the home directory (berry's `.yarnrc.yml`; yarn 1's
# `.yarnrc`, and yarn 1.22 defers to a `.yarnrc.yml`'s `yarnPath` too): a `yarnPath` or
# plugin in any of them runs. YARN_RC_FILENAME names berry's file instead; YARN_YARN_PATH
# sets `yarnPath` itself.
_YARN_CONFIGS = (".yarnrc.yml", ".yarnrc")


def manager_directory(args: Sequence[Arg]) -> str | None:
    """The directory `--prefix`, `-C`, `--dir` or `--cwd` (`=DIR` too) runs a package
    manager in, as spelled ("." without one); None when it is of unknown value."""
    directory = "."
    for k, a in enumerate(args):
        option, equals, value = a.text.partition("=")
        if option in MANAGER_DIRECTORY:
            word = a if equals else args[k + 1] if k + 1 < len(args) else None
            if word is None:
                continue
            if word.opaque or word.pattern is not None:
                return None
            directory = value if equals else word.text
    return directory


def _manager_refusal(view: View, spelled: str, why: str = "the directory it runs in is unknown") -> FileScript:
    """A package manager's refusal: the file it runs or reads is `spelled`, which cannot be
    read for `why` (`yarn --cwd "$D"`, `YARN_RC_FILENAME="$F"`)."""
    refused = FileScript(spelled, view.name, True, True, None)
    refused.refused = why
    return refused


def package_manager_code(walk: Walk, view: View, tool: str, args: Sequence[Arg]) -> list[str] | FileScript:
    """The node command lines that run the code pnpm or yarn (`tool`) loads for any command
    (`_PNPMFILE_SETTING`, `_YARN_PATH`, `_YARN_PLUGIN`), in the directory its `--cwd`/`-C`/
    `--dir` names; a refusal when that directory is of unknown value. A configuration file
    that cannot be read within bounds is such a program itself (its reading refuses). Each
    file named is read as the program it is (round 7: a pinned yarn release or plugin on disk
    too, which the line need not write), except one that is a protected path or inside one:
    the user's, which the agent cannot have written (docs/shell-axis.md)."""
    import shlex  # only a pnpm or yarn command needs it

    directory = manager_directory(args)
    start = None if directory is None else walk.absolute(directory, view.cwd)
    if start is None:
        if directory is not None and view.cwd_glob is not None:
            return []  # (`cd s?b && pnpm i`: the package's files are read in each match, `_in_glob_directory`)
        return _manager_refusal(view, ".pnpmfile.cjs" if tool == "pnpm" else ".yarnrc.yml")
    here = walk.context.cwd  # (the lines are walked where the line runs: `pnpm -C sub exec x`)
    files: list[str] = []
    if tool == "pnpm":
        for k, a in enumerate(args):
            option, equals, value = a.text.partition("=")
            if option == "--pnpmfile" and not a.opaque:
                files.append(value if equals else args[k + 1].text if k + 1 < len(args) else "")
        # (pnpm loads the pnpmfile of the package's directory, and in a workspace the one of the
        # workspace's root: the nearest directory above with a pnpm-workspace.yaml)
        places = [start]
        disk = walk.disk
        for n in range(len(start) - 1, -1, -1) if disk is not None else ():
            if disk.kind([*start[:n], "pnpm-workspace.yaml"]) != "missing":
                places.append(start[:n])  # (a refusal too: read there, it refuses)
                break
        for place in places:
            files += [_shown_from(place + (name,), here) for name in (".pnpmfile.cjs", ".pnpmfile.mjs")]
            for name in (".npmrc", "pnpm-workspace.yaml"):
                config = _shown_from(place + (name,), here)
                text = _read_file(walk, view, "/" + "/".join(place + (name,)))
                if isinstance(text, FileScript):
                    return [f"node {shlex.quote(config)}"]  # (read again as code: it refuses, naming the file)
                if text is not None and "pnpmfile" in text:
                    files.extend(_shown_from(place + (m.group(1).strip("'\""),), here)
                                 for m in _PNPMFILE_SETTING().finditer(text) if m.group(1).strip("'\""))
        return [f"node {shlex.quote(f)}" for f in files if f]
    names = list(_YARN_CONFIGS)
    rc_filename = _make_environment(walk, view, "YARN_RC_FILENAME")
    if rc_filename is not None:
        if "$" in rc_filename:
            return _manager_refusal(view, rc_filename, "its name is not known")
        names[0] = rc_filename
    yarn_path = _make_environment(walk, view, "YARN_YARN_PATH")
    if yarn_path is not None:
        files.append(_shown_from(start + (yarn_path,), here) if not yarn_path.startswith("/") else yarn_path)
    # (yarn runs the `yarnPath` of the directory the process starts in and loads the plugins of
    # both it and the `--cwd` directory: both chains are read)
    directories = list(dict.fromkeys(place[:n] for place in (start, here) if place is not None
                                     for n in range(len(place), -1, -1)))
    home = walk.home_now()
    assigned = _make_environment(walk, view, "HOME")
    if assigned is not None:
        # (`HOME=d yarn`: d's .yarnrc.yml)
        if "$" in assigned:
            return _manager_refusal(view, "~/" + names[0], "its name is not known")
        home = walk.absolute(assigned, view.cwd)
    if home is not None and home not in directories:
        directories.append(home)
    for place in directories:
        for name in names:
            config = _shown_from(place + (name,), here)
            text = _read_file(walk, view, "/" + "/".join(place + (name,)))
            if isinstance(text, FileScript):
                return [f"node {shlex.quote(config)}"]
            if text is None or "yarn" not in text and "path" not in text and "plugins" not in text:
                continue
            named = [m.group(1).strip("'\"") for m in _YARN_PATH().finditer(text)]
            if name != ".yarnrc" and "plugins" in text:
                named += [(m.group(1) or m.group(2)).strip("'\"") for m in _YARN_PLUGIN().finditer(text)]
            # (a name in a configuration file is relative to the file's directory)
            files.extend(f if f.startswith("/") else _shown_from(place + (f,), here) for f in named if f)
    return [f"node {shlex.quote(f)}" for f in files
            if f and (walk.names_entry is None or not walk.names_entry(f, here))]


def _shown_from(path: tuple[str, ...], cwd: tuple[str, ...] | None) -> str:
    """A path as a command line run in `cwd` spells it: relative when under it, or when both
    share a directory below the first two (`../x.cjs` from the project's `sub`); else absolute.
    (A segment may hold a relative name as a configuration file spells it, `../x.cjs`.)"""
    if any(".." in segment for segment in path):
        import posixpath  # only a name that climbs needs it (`d/../x.cjs` is shown as `x.cjs`)

        path = tuple(s for s in posixpath.normpath("/" + "/".join(path)).split("/") if s)
    if cwd is not None and path[: len(cwd)] == cwd and len(path) > len(cwd):
        return "/".join(path[len(cwd) :])
    if cwd is not None and len(cwd) > 2 and path[:2] == cwd[:2]:
        import posixpath  # only a file above the directory a package manager runs in needs it

        return posixpath.relpath("/" + "/".join(path), "/" + "/".join(cwd))
    return "/" + "/".join(path).lstrip("/")


# (round 8) The JVM's own launch options that run a command line or read more options:
# `-XX:OnError=CMD` (a fatal error) and `-XX:OnOutOfMemoryError=CMD` run CMD through `/bin/sh
# -c`, each `;`-separated command, `%p` the pid (`%%` a `%`); `@FILE` (the java launcher, up to
# the main class), `-XX:VMOptionsFile=FILE` and `-XX:Flags=FILE` (the `.hotspotrc` format, flags
# without their `-XX:`) are files of more options. JDK tools and JVM languages pass `-J<option>`
# to their JVM (analysis.JVM_OPTION_PREFIXES). Checked with OpenJDK 17.0.15.
_JVM_COMMANDS = ("-XX:OnError=", "-XX:OnOutOfMemoryError=")
_JVM_OPTION_FILES = ("-XX:VMOptionsFile=", "-XX:Flags=")
_JVM_OPTION_BYTES = 1 << 16  # an options file read, at most (more fails closed)


def _jvm_tokens(text: str, flags: bool) -> list[str] | None:
    """The options a JVM options file holds: words split as the launcher's argfile parser and
    HotSpot's options-file parser split them (blanks, `'…'` and `"…"` quoting, `#` comments);
    a `.hotspotrc` (`flags`) names flags without their `-XX:`. None when its quoting is not closed."""
    import shlex  # (only an options file needs it)

    try:
        words = shlex.split(text, comments=True, posix=True)
    except ValueError:
        return None
    return ["-XX:" + w if flags and not w.startswith("-") else w for w in words]


def jvm_option_lines(walk: Walk, view: View, args: Sequence[Arg]) -> list[str] | FileScript:
    """The lines that java's launch options among `args` (its words after its name; a JDK
    tool's `-J…` words) make the JVM run: the commands of `-XX:OnError=`/`-XX:OnOutOfMemoryError=`,
    and `java` with the options files (`@FILE`, `-XX:VMOptionsFile=`, `-XX:Flags=`) put in place
    of their words, so that what they hold is judged as the same options on the line would be;
    a refusal for an options file of unknown name, one the line writes with content not
    computed, or one that cannot be read within bounds."""
    name = view.name
    if name != "java":
        prefixes = JVM_OPTION_PREFIXES[name]
        options = [Arg(a.text[2:], None, a.opaque, 1, a.word) for a in args if a.text.startswith(prefixes)]
        return [_command_line_of("java", [*options, Arg("-version", None, False, 1, None)])] if options else []
    lines: list[str] = []
    expanded: list[Arg] = []
    read = False
    k = 0
    while k < len(args):
        a = args[k]
        t = a.text
        if t == "--disable-@files":
            expanded.extend(args[k:])
            break
        option_file = t.startswith(_JVM_OPTION_FILES)
        if t.startswith("@") and not t.startswith("@@") or option_file:
            spelled = t.split("=", 1)[1] if option_file else t[1:]
            if not spelled and not a.opaque:
                k += 1  # (`java @`: no file; java stops there)
                continue
            refused = FileScript(spelled, "java", False, True, None)
            if a.opaque:
                refused.refused = "its name is not known"
                return refused
            path = walk.absolute(spelled, view.cwd)
            if path is not None and walk.written().get(path, "") is None:
                refused.refused = "its content is not known"  # (the line writes it: `> f`)
                return refused
            content = _read_file(walk, view, spelled)
            if isinstance(content, FileScript):
                return content
            tokens = _jvm_tokens(content or "", t.startswith("-XX:Flags="))
            if tokens is None or len(content or "") > _JVM_OPTION_BYTES:
                refused.refused = "its options cannot be read" if tokens is None \
                    else f"it holds more than {_JVM_OPTION_BYTES >> 10} KiB of options"
                return refused
            # (a file's own `@FILE` and options files are not expanded again: the launcher
            # expands one level, HotSpot refuses an options file in an options file)
            expanded.extend(Arg(w, None, False, 1, None) for w in tokens
                            if not w.startswith("@") and not w.startswith(_JVM_OPTION_FILES))
            read = True
            k += 1
            continue
        if t.startswith(_JVM_COMMANDS) and not a.opaque:
            command = t.split("=", 1)[1].replace("%p", "1").replace("%%", "%")
            if command.strip():
                lines.append(command)  # (a value of unknown text runs what this layer cannot know)
        expanded.append(a)
        if t in _JAVA_VALUES and k + 1 < len(args):
            expanded.append(args[k + 1])
            k += 2
            continue
        if t == "-jar" or not t.startswith("-"):
            expanded.extend(args[k + 1 :])  # (the main class or file: what follows is its argv)
            break
        k += 1
    if read:
        lines.append(_command_line_of("java", expanded))
    return lines


def _command_line_of(program: str, args: Sequence[Arg]) -> str:
    from polydeukes.stdlib.shell.analysis import _command_line

    return _command_line(program, args, quote_program=False, unknown=True)


# (round 7) `ip -batch FILE` (`-b`, `-batch -` for stdin) runs each line of FILE as an ip
# command: the lines of an object whose `exec` runs a command (`netns exec n1 CMD`) are walked
# as `ip LINE`, at most this many.
_IP_BATCH_LINES = 64


def ip_batch_lines(walk: Walk, view: View, args: Sequence[Arg]) -> list[str] | FileScript:
    """The `ip …` command lines the batch files of ip's `args` (its words after its name) run
    that may run a command of their own; a refusal for a batch file of unknown name, stdin, one
    the line writes with content not computed, or one that cannot be read within bounds."""
    from polydeukes.stdlib.shell.analysis import _IP_EXEC_OBJECTS, ip_option

    lines: list[str] = []
    k = 0
    while k < len(args) and args[k].text.startswith("-"):
        option = ip_option(args[k].text)
        if option is not None and option[0] == "-batch" and k + 1 < len(args):
            word = args[k + 1]
            refused = FileScript(word.text, "ip", True, True, None)
            if word.opaque or word.text == "-":
                refused.refused = "its name is not known" if word.opaque else "it reads its commands from stdin"
                return refused
            path = walk.absolute(word.text, view.cwd)
            written = walk.written()
            content = written.get(path, "") if path in written else walk.read_file(path, SCRIPT_BYTES) \
                if path is not None else None
            if content is None and (path is None or path in written):
                refused.refused = "its content is not known"
                return refused
            if isinstance(content, (Refused, Binary)):
                refused.refused = content.reason if isinstance(content, Refused) else "it is not a text file"
                return refused
            for line in content.splitlines() if isinstance(content, str) else ():
                first = line.split(None, 1)[0] if line.strip() else ""
                if first in _IP_EXEC_OBJECTS or first.startswith("-"):
                    lines.append("ip " + line)
            if len(lines) > _IP_BATCH_LINES:
                refused.refused = f"it runs more than {_IP_BATCH_LINES} commands of its own"
                return refused
        k += 2 if option is not None and option[1] else 1
    return lines


_SQLITE_COMPUTED_EDITOR = "the editor of its edit() is computed in SQL"


def sqlite_refusal() -> FileScript:
    """sqlite3's program on the line calls edit() with an editor this layer cannot read."""
    refused = FileScript("the editor of edit()", "sqlite3", True, True, None)
    refused.refused = "it is computed in SQL"
    return refused


def npm_config_files(walk: Walk, view: View, args: Sequence[Arg], directory: str) -> list[str]:
    """The npmrc files npm reads that the line names: the project's .npmrc (in the package's
    directory), and those `--userconfig F`, `--globalconfig F` (`=F`) or npm_config_userconfig,
    npm_config_globalconfig in its environment name; one of unknown name is `-`, which
    refuses (`_read_file` on a name no file has is not judged, so it is spelled apart)."""
    files = [".npmrc" if directory == "." else directory.rstrip("/") + "/.npmrc"]
    for k, a in enumerate(args):
        option, equals, value = a.text.partition("=")
        if option in _NPM_CONFIG_OPTIONS:
            word = a if equals else args[k + 1] if k + 1 < len(args) else None
            if word is not None:
                files.append("\0" if word.opaque else value if equals else word.text)
    for variable in _NPM_CONFIG_OPTIONS.values():
        for spelled in (variable, variable.upper()):
            value = _make_environment(walk, view, spelled)
            if value is not None:
                files.append("\0" if "$" in value else value)
    return files


_NPM_CONFIG_OPTIONS = {"--userconfig": "npm_config_userconfig", "--globalconfig": "npm_config_globalconfig"}


def npmrc_script_shell(walk: Walk, view: View, spelled: str, setting: LazyPattern = _SCRIPT_SHELL
                       ) -> str | FileScript | None:
    """The `script-shell` an npmrc file (or `setting` in another file) sets for npm, pnpm
    and yarn scripts, quoted as a command word; a refusal when it cannot be read within
    bounds or its name is unknown (`\0`)."""
    if spelled == "\0":
        refused = FileScript("npmrc", view.name if view.name in ("npm", "pnpm") else "npm", True, True, None)
        refused.refused = "its name is not known"
        return refused
    text = _read_file(walk, view, spelled)
    if text is None or isinstance(text, FileScript):
        return text
    m = setting().search(text)
    if m is None or not m.group(1).strip("'\""):
        return None
    return "'" + m.group(1).strip("'\"").replace("'", "'\\''") + "'"


def _directory_entry(walk: Walk, view: View, script: FileScript) -> str | None:
    """The file an interpreter runs for a directory operand (`script.path`), spelled from
    where the command runs, or None (not a directory, another interpreter, nothing there)."""
    from polydeukes.stdlib.shell.imports import family  # (python3.12 -> python, node -> js)

    language = family(script.runner)
    path = walk.absolute(script.path, view.cwd)
    if language not in ("python", "js") or path is None or walk.disk is None \
            or walk.disk.kind(list(path)) != "dir":
        return None
    base = script.path.rstrip("/") + "/"
    if language == "python":
        return base + "__main__.py"
    from polydeukes.stdlib.shell.imports import _JS_SUFFIXES, main_of

    manifest = _text(walk, view, base + "package.json", FILE_BYTES)
    if isinstance(manifest, Refused):
        return base + "package.json"  # (read again as the program: it refuses, naming the file)
    main = main_of(manifest) if manifest is not None else None
    if main is not None:
        import posixpath  # only a directory run by node with a `main` needs it

        # (node's LOAD_AS_DIRECTORY: the `main` as a file, with node's suffixes, as a directory)
        written = walk.written()
        for suffix in _JS_SUFFIXES:
            spelled = posixpath.normpath(base + main + suffix) if not main.startswith("/") else main + suffix
            entry = walk.absolute(spelled, view.cwd)
            if entry is not None and (entry in written or walk.disk.kind(list(entry)) == "file"):
                return spelled
    return base + "index.js"


def _package_binary(walk: Walk, view: View, words: Sequence[Arg], name: str, runs_binary: bool
                    ) -> FileScript | None:
    """`yarn jest`, `yarn run jest`, `pnpm vitest run`: with no script of that name, yarn and
    pnpm run the package's binary of that name (`pnpm run` only scripts). For a test runner, a
    tool that runs the project's files (`yarn eslint`: eslint.config.js, projectfiles.py) or a
    binary in node_modules/.bin (read as the file it is), the rest of the call is walked as that
    command; any other binary is not followed (an unknown program)."""
    if view.name not in ("yarn", "pnpm") or not runs_binary:
        return None
    if name not in TEST_RUNNERS and name not in PROJECT_TOOLS and walk._node_binary(name, view.cwd) is None:
        return None
    via_run = words[0].text == "run"  # (a test runner's name is a word of the call: `words` has it)
    if via_run and view.name == "pnpm":
        return None
    import shlex  # only a test runner run as a package binary needs it

    args = view.args
    binary = words[1] if via_run else words[0]
    at = next(k for k, a in enumerate(args) if a is binary)
    line = " ".join(a.text if a.opaque else shlex.quote(a.text) for a in args[at:])
    script = FileScript(f"the {name} binary", view.name, True, True, None)
    script.text = line
    script.lines = [line]
    script.node_bin = True  # (the name is the package's binary: node_modules/.bin first)
    return script
