"""The interpreters' row of the effect model: which words are code, a script, a preloaded file.

An interpreter runs code: nothing it touches is proven (`unproven` is always set). What this
reader decides is *which words hold the program*, so that the judges can read it: the
`-c`/`-e` text (role `code`), the script operand and every file loaded before it (`node -r
./x.js`, `--import`, `--loader`: role `exec`, read from disk by scripts.py), a module
(`python3 -m mod`: `exec` with option `-m`, not a file). The rest are the program's arguments
(`unknown`), or files rewritten in place (`perl -pi`, `ruby -i`: `write`).

Each family has its own options (`-I` is isolation to python but an include directory to
perl), written as data in `FAMILIES`: the options that take a value, which of them hold code or
a file to load, and the words that pick a mode (`deno run`, `bun run`, `coverage run`). An
option the table does not know may take the next word as its value or not: both that word and
the one after it are then candidate scripts (each read if it is a file), so a guess can only
read more.
"""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from polydeukes.stdlib.shell.effects import (
    CODE, DATA, EXEC, UNKNOWN, WRITE, VERSIONED, Effects, Env, Extra, Item, Model, in_place_backups, known_prefix,
)
from polydeukes.stdlib.shell.expansion import Arg


class Family(msgspec.Struct, frozen=True):
    code: frozenset[str] = frozenset()  # options whose value is program text
    loads: frozenset[str] = frozenset()  # options whose value is a file or module run first
    values: frozenset[str] = frozenset()  # other options that take the next word as their value
    module: frozenset[str] = frozenset()  # options whose value is a module run as the program
    getopt: bool = False  # short options cluster, a value may be attached (`-Wignore`, `-cCODE`)
    cluster_values: str = ""  # with getopt: the letters that take a value
    code_ends: bool = False  # the code (or module) ends the options: what follows is its argv
    in_place: bool = False  # `-i` in a cluster rewrites the file operands (perl, ruby)
    modes: frozenset[str] = frozenset()  # a first word that picks the run mode and is skipped
    eval_mode: str = ""  # a first word whose next word is code (`deno eval CODE`)
    other_modes: frozenset[str] = frozenset()  # first words that run no script operand
    module_flag: str = ""  # a flag that makes the script operand a module (`coverage run -m`)
    stdin: bool = True  # with no script operand the program is read from stdin
    writes: frozenset[str] = frozenset()  # options whose value is a file written (`cProfile -o`)
    commands: bool = False  # its code options run beside the script, not instead of it (`pdb -c`)
    operand_module: bool = False  # its first operand is a module, not a file (`-m runpy mod`)


_PYTHON = Family(code=frozenset({"-c"}), module=frozenset({"-m"}),
                 values=frozenset({"-W", "-X", "--check-hash-based-pycs"}),
                 getopt=True, cluster_values="cmWX", code_ends=True)
_NODE_VALUES = frozenset({
    "--input-type", "-C", "--conditions", "--env-file", "--env-file-if-exists", "--inspect-port",
    "--debug-port", "--title", "--redirect-warnings", "--diagnostic-dir", "--report-dir",
    "--report-directory", "--report-filename", "--report-signal", "--icu-data-dir", "--openssl-config",
    "--tls-cipher-list", "--tls-keylog", "--test-reporter", "--test-reporter-destination",
    "--test-name-pattern", "--test-skip-pattern", "--test-concurrency", "--test-shard", "--test-timeout",
    "--experimental-policy", "--policy-integrity", "--heapsnapshot-signal", "--heapsnapshot-near-heap-limit",
    "--cpu-prof-dir", "--cpu-prof-name", "--cpu-prof-interval", "--heap-prof-dir", "--heap-prof-name",
    "--heap-prof-interval", "--secure-heap", "--secure-heap-min", "--max-http-header-size", "--watch-path",
    "--disable-warning", "--unhandled-rejections", "--dns-result-order", "--experimental-default-type",
    "--es-module-specifier-resolution", "--experimental-sea-config", "--stack-trace-limit",
    "--localstorage-file", "--run", "--trace-event-categories", "--trace-event-file-pattern",
    "--snapshot-blob", "--build-snapshot-config", "--experimental-config-file",
})
_NODE_LOADS = frozenset({"-r", "--require", "--import", "--loader", "--experimental-loader"})
_NODE = Family(code=frozenset({"-e", "--eval", "-p", "--print"}), loads=_NODE_LOADS, values=_NODE_VALUES)
_TS_NODE = Family(code=frozenset({"-e", "--eval", "-p", "--print"}), loads=_NODE_LOADS,
                  values=_NODE_VALUES | {"-P", "--project", "-O", "--compiler-options", "-C", "--compiler",
                                         "-D", "--ignore-diagnostics", "-I", "--ignore", "--cwd", "--dir",
                                         "--scope-dir", "--project-search-dir", "--tsconfig"})
_DENO = Family(code=frozenset({"--eval"}), loads=frozenset({"--preload", "--require"}),
               values=frozenset({"-c", "--config", "--import-map", "--cert", "--location", "--seed", "--ext",
                                 "--node-modules-dir", "--frozen", "--env-file", "--unstable-features"}),
               modes=frozenset({"run"}), eval_mode="eval", stdin=False,
               other_modes=frozenset({"test", "bench", "task", "install", "uninstall", "compile", "bundle",
                                      "check", "fmt", "lint", "doc", "info", "cache", "repl", "serve",
                                      "upgrade", "add", "remove", "init", "jupyter", "publish", "coverage",
                                      "types", "completions", "lsp", "vendor", "outdated", "clean", "x"}))
_BUN = Family(code=frozenset({"-e", "--eval", "-p", "--print"}), loads=frozenset({"-r", "--require", "--preload"}),
              values=frozenset({"--cwd", "-c", "--config", "--env-file", "--tsconfig-override", "--define", "-d",
                                "--loader", "-l", "--jsx-factory", "--jsx-fragment", "--jsx-import-source",
                                "--port", "--conditions", "--main-fields", "--extension-order", "--filter",
                                "-F", "--elide-lines", "--shell"}),
              modes=frozenset({"run"}), stdin=False,
              other_modes=frozenset({"test", "x", "repl", "exec", "install", "i", "add", "a", "remove", "rm",
                                     "update", "outdated", "link", "unlink", "pm", "build", "init", "create",
                                     "c", "upgrade", "publish", "patch", "patch-commit", "audit", "info",
                                     "why", "completions", "discord", "help"}))
_COVERAGE = Family(values=frozenset({"--rcfile", "--source", "--include", "--omit", "--data-file", "--context",
                                     "--concurrency", "--debug", "--save-signal"}),
                   modes=frozenset({"run"}), module_flag="-m", stdin=False, code_ends=True,
                   other_modes=frozenset({"report", "html", "xml", "json", "lcov", "annotate", "combine", "erase",
                                          "debug", "help"}))
_IPYTHON = Family(code=frozenset({"-c"}), module=frozenset({"-m"}), code_ends=True)
_PERL = Family(code=frozenset({"-e", "-E"}), values=frozenset({"-I", "-M", "-m", "-x"}), in_place=True)
_RUBY = Family(code=frozenset({"-e"}), loads=frozenset({"-r"}), values=frozenset({"-I", "-C", "-x"}), in_place=True)

# Standard-library and tool modules that run a script, a module or code of their own command
# line (`python3 -m cProfile x.py`, `-m pdb -c continue x.py`, `-m coverage run -m pytest`):
# their words after `-m NAME` are read as that family's (round 5; before, x.py was no program).
# pdb's `-c` commands are Python statements too (a command it does not know is run as one).
_PROFILER = Family(values=frozenset({"-s"}), writes=frozenset({"-o"}), module_flag="-m", stdin=False, code_ends=True)
_PYINSTRUMENT = Family(code=frozenset({"-c"}), values=frozenset({"-r", "--renderer", "-p", "--render-option",
                                                                 "-i", "--interval", "--show", "--show-regex",
                                                                 "--show-all", "--target-description",
                                                                 "--load", "--from-path"}),
                       writes=frozenset({"-o", "--outfile"}), module_flag="-m", stdin=False, code_ends=True)
MODULE_RUNNERS: dict[str, Family] = {
    "cProfile": _PROFILER, "profile": _PROFILER,
    "trace": Family(values=frozenset({"-C", "--coverdir", "--ignore-module", "--ignore-dir"}),
                    writes=frozenset({"-f", "--file"}), getopt=True, cluster_values="fC", module_flag="--module",
                    stdin=False, code_ends=True),
    "pdb": Family(code=frozenset({"-c", "--command"}), module_flag="-m", commands=True),
    "runpy": Family(operand_module=True, stdin=False),
    "pydoc": Family(values=frozenset({"-k", "-p", "-n"}), operand_module=True, stdin=False),
    "coverage": _COVERAGE, "pyinstrument": _PYINSTRUMENT,
    "memory_profiler": Family(values=frozenset({"--precision", "--backend", "--pdb-mmem"}), writes=frozenset({"-o"}),
                              module_flag="-m", stdin=False, code_ends=True),
}

# Interpreters of other languages (round 7, 2026-12-03): their script operand, the files they
# load first and their code options are read as a program's are (a mention fails closed);
# before, `julia x.jl` ran a file nothing read. A word after an option the row does not list is
# read as a candidate script either way (the module docstring), so a missing value only reads more.
def _f(code: str = "", loads: str = "", values: str = "", *, modes: str = "", other_modes: str = "",
       eval_mode: str = "", stdin: bool = False) -> Family:
    return Family(code=frozenset(code.split()), loads=frozenset(loads.split()), values=frozenset(values.split()),
                  modes=frozenset(modes.split()), other_modes=frozenset(other_modes.split()),
                  eval_mode=eval_mode, stdin=stdin)


_OTHER_LANGUAGES: dict[str, Family] = {
    "julia": _f("-e --eval -E --print", "-L --load", "-J --sysimage -t --threads -p --procs --project -O "
                "--optimize -C --cpu-target --machine-file -g --color --history-file --startup-file "
                "--compiled-modules --pkgimages --check-bounds -i", stdin=True),
    "elixir": _f("-e --eval", "-r -pr", "--erl --name --sname --cookie --boot --boot-var --vm-args --pa --pz "
                 "--logger-otp-reports --logger-sasl-reports"),
    "escript": _f(values="-s -d -c -i"),
    "groovy": _f("-e", "", "-cp -classpath --classpath -D --define -c --encoding -l -p --configscript "
                 "--indy --parameters"),
    "kotlin": _f("-e -expression", "", "-cp -classpath -J -howtorun"),
    "kotlinc": _f("-e -expression", "-script", "-cp -classpath -d -jdk-home -jvm-target -language-version "
                  "-api-version -module-name -kotlin-home -J -P -Xplugin"),
    "swift": _f("-e", "", "-I -L -l -F -module-name -sdk -target -Xcc -Xlinker -D -swift-version", stdin=True),
    "guile": _f("-c", "-s -l -x", "-L -C -e --listen --language"),
    "sbcl": _f("--eval", "--script --load", "--core --dynamic-space-size --control-stack-size "
               "--tls-limit --userinit --sysinit --merge-core-pages"),
    "racket": _f("-e --eval", "-f --load -t --require -r --require-script -u --require-script-then", "-l --lib "
                 "-k -Y -S --search -A --addon -U --compiled --collects -G --config -X", stdin=True),
    "scala": _f("-e", "", "-cp -classpath -J -deprecation -language -release -encoding"),
    # (`-M`, `-X`, `-A` carry their aliases attached, `-M:dev`; `-m NS` runs a namespace)
    "clojure": Family(code=frozenset({"-e", "--eval"}), loads=frozenset({"-i", "--init"}),
                      values=frozenset({"-Sdeps", "-Scp"}), module=frozenset({"-m", "--main"})),
    "bb": _f("-e --eval", "-i -f --file -cp --classpath", "--config --deps-root -m --main -x --exec "
             "--nrepl-server --socket-repl --prepl"),
    "dart": _f("", "", "--packages -D --define --enable-experiment --observe --verbosity",
               modes="run", other_modes="pub test compile create analyze format fix doc info devtools "
               "language-server build install uninstall"),
    "crystal": _f("", "", "-D --define -o --output --error-trace --release --link-flags --prelude --cross-compile",
                  modes="run", eval_mode="eval", other_modes="build init docs env play spec tool version deps"),
    "pwsh": _f("-c -Command -EncodedCommand -e -ec", "-f -File", "-ExecutionPolicy -ep -WorkingDirectory -wd "
               "-ConfigurationName -OutputFormat -of -InputFormat -if -WindowStyle -CustomPipeName "
               "-SettingsFile", stdin=True),
    "powershell": _f("-c -Command -EncodedCommand -e -ec", "-f -File", "-ExecutionPolicy -ep "
                     "-WindowStyle -OutputFormat -InputFormat -ConfigurationName", stdin=True),
    "osascript": _f("-e", "", "-l -s", stdin=True),
    "R": _f("-e", "-f --file", "--encoding --args -d --debugger", stdin=True),
    "octave": _f("--eval", "", "--path -p --exec-path --image-path --info-file --info-program --texi-macros-file "
                 "--doc-cache-file"),
    "runghc": _f("", "", "-f --ghc-arg"), "runhaskell": _f("", "", "-f --ghc-arg"),
    "ocaml": _f("", "-init", "-I -open -ppx -w -warn-error"),
    "raku": _f("-e", "-M", "-I"), "perl6": _f("-e", "-M", "-I"),
    "luajit": _f("-e", "-l", "-b -j -O"),
    # (gnuplot 5: `-e CMDS` runs before the files that follow it, and `-c FILE ARGS` runs FILE)
    "gnuplot": Family(code=frozenset({"-e"}), loads=frozenset({"-c"}), values=frozenset({"-d"}), commands=True),
    # (fish's `-C`/`--init-command` is code run first, not a file: round 8)
    "fish": _f("-c --command -C --init-command", "", "-d --debug -o --debug-output --features", stdin=True),
    # (round 8) Shells of another syntax: their script and `-c` code are read as programs'
    # (`tcsh x.csh` and `csh -c 'source x'` passed as programs of unknown effects)
    "csh": _f("-c", "", "", stdin=True), "tcsh": _f("-c", "", "", stdin=True),
    "rc": _f("-c", "", "", stdin=True), "es": _f("-c", "", "", stdin=True),
    "elvish": _f("-c", "", "-rc -norc -i -sock -daemon", stdin=True),
    "ysh": _f("-c", "", "-o +o -O +O", stdin=True),
    "nu": _f("-c --commands", "--config --env-config", "--log-level --log-target --table-mode --plugin-config "
             "--include-path -I", stdin=True),
    "xonsh": _f("-c", "--rc", "-D -i", stdin=True),
    "wish": _f(), "expectk": _f(), "gforth": _f("-e --evaluate"), "pike": _f("-e"),
    # (round 8) expect's Tcl (`exec`, `spawn`, `system` run commands): `-c` code, `-f`/`-b` the
    # command file, else the first operand; stdin otherwise (effects.STDIN_PROGRAMS)
    "expect": _f("-c", "-f -b", "-D", stdin=True),
    # Emacs Lisp: `--eval`, `-f` (a function called), `-l`/`--load` and `--script`/`-x` files
    # loaded; the files it visits are read as its program too (a file-local `eval:` runs code).
    # Each option has a one-dash spelling as well (`-eval`, `-load`, `-funcall`, `-script`).
    "emacs": Family(code=frozenset({"--eval", "-eval", "-f", "--funcall", "-funcall"}),
                    loads=frozenset({"-l", "--load", "-load", "--script", "-script", "-x"}),
                    values=frozenset({"-L", "--directory", "-directory", "--chdir", "-chdir", "-t", "--terminal",
                                      "-d", "--display", "-display", "-u", "--user", "-user", "--init-directory",
                                      "--insert", "-insert", "--file", "--find-file", "--visit", "-bg", "-fg",
                                      "--name", "--title", "-T", "--fg-daemon", "--bg-daemon", "--daemon"}),
                    stdin=False, commands=True),
}

FAMILIES: dict[str, Family] = {
    **_OTHER_LANGUAGES,
    "python": _PYTHON, "python2": _PYTHON, "python3": _PYTHON, "pypy": _PYTHON, "pypy3": _PYTHON,
    "ipython": _IPYTHON, "ipython3": _IPYTHON, "coverage": _COVERAGE, "coverage3": _COVERAGE,
    "node": _NODE, "nodejs": _NODE, "tsx": _TS_NODE, "ts-node": _TS_NODE, "ts-node-esm": _TS_NODE,
    "deno": _DENO, "bun": _BUN,
    "perl": _PERL, "ruby": _RUBY, "php": Family(code=frozenset({"-r"})), "lua": Family(code=frozenset({"-e"})),
    "Rscript": Family(code=frozenset({"-e"})), "tclsh": Family(),
    "pyinstrument": _PYINSTRUMENT,
    "mprof": Family(values=frozenset({"--backend", "-T", "--interval"}), writes=frozenset({"-o", "--output"}), modes=frozenset({"run"}),
                    module_flag="-m", stdin=False, code_ends=True,
                    other_modes=frozenset({"plot", "list", "clean", "rm", "peak", "attach"})),
}
# nose2 and green discover as unittest does, in every directory (not only packages), their
# options `-s`, `-t`, `-p` given without `discover` (round 5, from their documentation).
NOSE2 = "nose2"
# Test runners, as commands and as modules (`python3 -m pytest`), and the runner each is (a
# row of testrunners.RUNNERS): scripts.py reads the files they import. An interpreter's own
# test mode (`node --test`, `bun test`, `deno test`) is `test_runner`'s to tell.
TEST_RUNNERS = {"pytest": "pytest", "py.test": "pytest", "pytest-3": "pytest", "nose2": NOSE2, "green": NOSE2,
                "green3": NOSE2,
                "jest": "jest", "vitest": "vitest", "mocha": "mocha", "_mocha": "mocha"}
TEST_RUNNER_MODULES = {"pytest": "pytest", "unittest": "unittest", "nose2": NOSE2, "green": NOSE2}
_TEST_MODES = {"node": "node --test", "nodejs": "node --test", "bun": "bun test", "deno": "deno test"}


def family_of(name: str) -> str:
    versioned = VERSIONED().fullmatch(name)
    return versioned.group(1) if versioned else name


def interpreter(name: str, args: Sequence[Arg], model: Model, env: Env) -> Effects:
    """The roles of an interpreter's words (see the module docstring)."""
    family_name = family_of(name)
    if family_name in TEST_RUNNERS:
        return Effects(tuple(runner_items(TEST_RUNNERS[family_name], args, 0)), (), "a test runner runs code")
    family = FAMILIES.get(family_name, Family(code=frozenset({"-c", "-e"})))
    if family_name in _TEST_MODES and _in_test_mode(family_name, args):
        # `node --test [files]`, `bun test`, `deno test`: the interpreter is a test runner
        start = 0 if family is _NODE else 1
        items = [Item(0, args[0].text, DATA)] if start else []
        items.extend(runner_items(_TEST_MODES[family_name], args, start))
        return Effects(tuple(items), (), "a test runner runs code")
    items, extra = _program_items(family, args, 0)
    return Effects(tuple(items), tuple(extra), "an interpreter runs code")


def _program_items(family: Family, args: Sequence[Arg], start: int) -> tuple[list[Item], list[Extra]]:
    """The roles of `args[start:]`, the words of a program of `family` (or of a module runner
    of `MODULE_RUNNERS`, whose words follow `python3 -m NAME`)."""
    items: list[Item] = []
    extra: list[Extra] = []
    n = len(args)
    k = start
    if k < n and family.modes | family.other_modes and not args[k].opaque:
        first = args[k].text
        if first in family.other_modes:
            return [Item(j, args[j].text, UNKNOWN) for j in range(start, n)], []
        if first in family.modes:
            items.append(Item(k, first, DATA))
            k += 1
        elif first == family.eval_mode and family.eval_mode and k + 1 < n:
            items.append(Item(k, first, DATA))
            items.append(Item(k + 1, args[k + 1].text, CODE))
            items.extend(Item(j, args[j].text, UNKNOWN) for j in range(k + 2, n))
            return items, []
    in_place = False
    backup_suffixes: list[tuple[Arg, str]] = []  # `perl -i.bak`, `-i'old/*'`
    program_seen = False  # code, a module or the script: the words after it are its argv
    as_module = family.operand_module
    guessed = 0  # words after an unknown option that may be its value or the script
    while k < n:
        a = args[k]
        t = a.text
        if program_seen:
            items.append(Item(k, t, UNKNOWN))
            k += 1
            continue
        if guessed and not t.startswith("-"):
            # After an unknown option: this word may be its value or the script; read it as a
            # script (if it is a file), and the next one too.
            items.append(Item(k, t, EXEC, option="?"))
            guessed -= 1
            k += 1
            if not guessed:
                program_seen = True
            continue
        guessed = 0
        if t == "--" and family is not _PERL and family is not _RUBY:
            items.append(Item(k, t, DATA))
            k += 1
            if k < n and (family.commands or not any(it.role == CODE for it in items)):
                items.append(Item(k, args[k].text, EXEC, option="-m" if as_module else ""))
                k += 1
                program_seen = True
            continue
        if a.opaque and family.in_place and (prefix := known_prefix(a)).startswith("-") \
                and not prefix.startswith("--") and _in_place_suffix(prefix[1:]) is not None:
            in_place = True  # `perl -i"$S"`, `-pi$S`: a backup suffix of unknown value
            backup_suffixes.append((a, ""))
            items.append(Item(k, t, DATA))
            k += 1
            continue
        if t == "-" or not t.startswith("-") or a.opaque:
            # The first operand is the script (`-`: stdin); the rest are its arguments.
            if not family.commands and any(it.role == CODE for it in items):
                items.append(Item(k, t, WRITE if in_place else UNKNOWN))
                k += 1
                continue
            if a.opaque:
                # `python3 $OPTS x.py`: options or the script, unknown; the next words may be it.
                items.append(Item(k, t, EXEC, option="-m" if as_module else ""))
                guessed = 2
                k += 1
                continue
            items.append(Item(k, t, DATA if t == "-" else EXEC, option="-m" if as_module else ""))
            program_seen = True
            k += 1
            continue
        name_part, eq, value = t.partition("=")
        if t.startswith("--") or not family.getopt:
            option = name_part if t.startswith("--") and eq else t
            attached = value if t.startswith("--") and eq else None
            if family.in_place and not t.startswith("--") and len(t) > 1:
                cluster = t[1:]
                if "i" in cluster:
                    in_place = True
                    suffix = _in_place_suffix(cluster)
                    if suffix is not None:
                        backup_suffixes.append((a, suffix))
                if cluster[-1:] in ("e", "E") and k + 1 < n:
                    items.append(Item(k, t, DATA))
                    items.append(Item(k + 1, args[k + 1].text, CODE))
                    k += 2
                    continue
                if option[:2] in family.values and len(option) > 2:
                    items.append(Item(k, t, DATA))  # `-Ilib`, `-MData::Dumper`
                    k += 1
                    continue
                if option[:2] in family.loads and len(option) > 2:
                    items.append(Item(k, t[2:], EXEC, False, option[:2]))  # `ruby -r./x.rb`
                    k += 1
                    continue
            if option == family.module_flag:
                as_module = True
                items.append(Item(k, t, DATA))
                k += 1
                continue
            role = _value_role(family, option)
            if role is None:
                items.append(Item(k, t, DATA))
                if not eq and t.startswith("--") and option not in _FLAGS:
                    guessed = 2  # an option the table does not know: maybe with a value
                k += 1
                continue
            if attached is not None:
                items.append(Item(k, attached, role, False, option))
                k += 1
            elif k + 1 < n:
                items.append(Item(k, t, DATA))
                items.append(Item(k + 1, args[k + 1].text, role, True, option))
                k += 2
            else:
                items.append(Item(k, t, DATA))
                k += 1
            if role == CODE and family.code_ends or option in family.module:
                program_seen = True
            continue
        # A getopt cluster (python): `-IBc CODE`, `-Wignore`, `-mpytest`.
        items.append(Item(k, t, DATA))
        j = 1
        took_next = False
        while j < len(t):
            letter = t[j]
            if letter in family.cluster_values:
                option = "-" + letter
                role = _value_role(family, option) or DATA
                if j + 1 < len(t):
                    items.append(Item(k, t[j + 1 :], role, False, option))
                elif k + 1 < n:
                    items.append(Item(k + 1, args[k + 1].text, role, True, option))
                    took_next = True
                if role == CODE or option in family.module:
                    program_seen = True
                break
            j += 1
        k += 2 if took_next else 1
    if in_place:
        items = [Item(it.index, it.text, WRITE, it.whole) if it.role == UNKNOWN else it for it in items]
        for word, suffix in backup_suffixes:
            extra.extend(in_place_backups(word, suffix, items, args))
    module = next((it for it in items if it.option == "-m" and it.role == EXEC), None)
    if module is not None and module.text in MODULE_RUNNERS and not args[module.index].opaque:
        # `python3 -m cProfile x.py`, `-m coverage run -m pytest`: a module that runs a script,
        # a module or code of its own words (round 5)
        items = [it for it in items if it.index <= module.index]
        more, more_extra = _program_items(MODULE_RUNNERS[module.text], args, module.index + 1)
        items.extend(more)
        extra.extend(more_extra)
    elif module is not None and module.text in TEST_RUNNER_MODULES and not args[module.index].opaque:
        # `python3 -m pytest tests/`, `coverage run -m pytest`, `python3 -m unittest`: the
        # runner's own words follow
        items = [it for it in items if it.index <= module.index]
        items.extend(runner_items(TEST_RUNNER_MODULES[module.text], args, module.index + 1))
    elif module is not None and not args[module.index].opaque:
        # a standard-library module whose command line writes (pymodules.py)
        from polydeukes.stdlib.shell.pymodules import module_effects

        known = module_effects(module.text, args, module.index + 1)
        if known is not None:
            items = [it for it in items if it.index <= module.index]
            items.extend(known[0])
            extra.extend(known[1])
    return items, extra


# Long options known to take no value (so that the word after them is the script).
_FLAGS = frozenset({
    "--help", "--version", "--check", "--interactive", "--watch", "--inspect", "--inspect-brk",
    "--no-warnings", "--trace-warnings", "--enable-source-maps", "--experimental-vm-modules",
    "--experimental-strip-types", "--experimental-transform-types", "--no-deprecation", "--trace-uncaught",
    "--abort-on-uncaught-exception", "--preserve-symlinks", "--preserve-symlinks-main", "--test",
    "--experimental-test-coverage", "--experimental-permission", "--permission", "--allow-all",
    "--transpile-only", "--files", "--esm", "--swc", "--script-mode", "--pretty", "--emit", "--type-check",
    "--skip-project", "--skip-ignore", "--log-error", "--prefer-ts-exts", "--hot", "--smol", "--bun",
    "--no-install", "--silent", "--append", "--pylib", "--parallel-mode", "--branch", "--timid",
    "--module", "--no-check", "--quiet", "--reload", "--unstable", "--no-config", "--no-lock",
    "--cached-only", "--no-remote", "--no-npm", "--help-env", "--help-xoptions", "--help-all",
    "--no-banner", "--quick", "--classic", "--pdb", "--pylab", "--matplotlib", "--no-autoindent",
    "--no-confirm-exit", "--no-term-title", "--simple-prompt", "--nosep",
})


def _in_place_suffix(cluster: str) -> str | None:
    """The backup suffix of perl's or ruby's `-i` in a cluster of switches (`-pi.bak`: `.bak`,
    everything after the `i`), or None when the `i` is part of a switch's value (`-Mlib`)."""
    for j, letter in enumerate(cluster):
        if letter == "i":
            return cluster[j + 1 :]
        if letter in "CdDFImMVxeE":
            return None
    return None


def _value_role(family: Family, option: str) -> str | None:
    """The role of the value `option` takes, or None when it takes none."""
    if option in family.code:
        return CODE
    if option in family.loads or option in family.module:
        return EXEC
    if option in family.values:
        return DATA
    if option in family.writes:
        return WRITE
    return None


# -- test runners ------------------------------------------------------------------------------

# pytest options that take the next word as their value (`-k expr`, `--tb short`); any other
# option is a flag, so that a word after an option pytest takes with an optional value (`--cov
# src`) is still read as a test path (reading more only fails closed).
_PYTEST_VALUES = frozenset({
    "-k", "-m", "-p", "-c", "--config-file", "--rootdir", "--confcutdir", "--basetemp", "-o", "--override-ini",
    "--junitxml", "--junit-xml", "--junit-prefix", "--tb", "--maxfail", "--durations", "--durations-min", "-W",
    "--pythonwarnings", "--ignore", "--ignore-glob", "--deselect", "--log-level", "--log-format",
    "--log-date-format", "--log-cli-level", "--log-cli-format", "--log-cli-date-format", "--log-file",
    "--log-file-level", "--log-file-format", "--log-file-date-format", "--log-file-mode", "--import-mode",
    "--capture", "-r", "--color", "--code-highlight", "--pastebin", "--show-capture", "--doctest-glob",
    "--doctest-report", "--assert", "--verbosity", "--pdbcls", "-n", "--numprocesses", "--dist",
    "--maxprocesses", "--cov-report", "--cov-config", "--cov-fail-under", "--timeout", "--reruns",
    "--randomly-seed", "--hypothesis-seed", "--hypothesis-profile", "--html", "--json-report-file",
    "--max-worker-restart", "--tx", "--rsyncdir", "--lfnf", "--last-failed-no-failures",
})
_PYTEST_CLUSTER_VALUES = "kmpcoWrn"
TEST_PATH, PLUGIN = "test", "-p"  # `Item.option` of a test path operand and of a `-p` plugin
CONFIG = "--config"  # `Item.option` of a runner's configuration file (the value of `-c`, `--config`)
CONFIG_FILE = frozenset({"-c", "--config-file", CONFIG})  # options naming a runner's configuration file
OVERRIDE = frozenset({"-o", "--override-ini"})  # options setting one of its values


# -- the other test runners ---------------------------------------------------------------------


class RunnerOptions(msgspec.Struct, frozen=True):
    """A test runner's options, as data: which take a value, and what that value is."""

    values: frozenset[str] = frozenset()  # options that take the next word (or `=VALUE`)
    loads: frozenset[str] = frozenset()  # among them: a file run as code (a setup file, `--require`)
    operands: frozenset[str] = frozenset()  # among them: a test path (mocha's `--spec`)
    settings: frozenset[str] = frozenset()  # options (with a value or not) that change what is collected
    subcommands: frozenset[str] = frozenset()  # a first word that picks the mode (`vitest run`)
    cluster_values: str = ""  # short options cluster (`-xkEXPR`); these letters take a value


_JEST_LOADS = frozenset({"--setupFiles", "--setupFilesAfterEnv", "--globalSetup", "--globalTeardown",
                         "--testEnvironment", "--testRunner", "--resolver", "--testSequencer", "--reporters",
                         "--snapshotResolver", "--watchPlugins", "--testResultsProcessor", "--prettierPath"})
_JEST_SETTINGS = frozenset({"--rootDir", "--roots", "--testMatch", "--testRegex"})
_VITEST_LOADS = frozenset({"--setupFiles", "--globalSetup"})
_VITEST_SETTINGS = frozenset({"-r", "--root", "--dir"})
_MOCHA_LOADS = frozenset({"-r", "--require", "--file"})
RUNNER_OPTIONS: dict[str, RunnerOptions] = {
    "pytest": RunnerOptions(values=_PYTEST_VALUES, loads=frozenset({PLUGIN}), cluster_values=_PYTEST_CLUSTER_VALUES),
    "jest": RunnerOptions(
        values=frozenset({"-c", "--config", "-t", "--testNamePattern", "--testPathPattern", "--testPathPatterns",
                          "--testPathIgnorePatterns", "-w", "--maxWorkers", "--coverageDirectory",
                          "--collectCoverageFrom", "--coverageProvider", "--outputFile", "--selectProjects",
                          "--shard", "--testTimeout", "--seed", "--json", "--changedSince", "--maxConcurrency",
                          "--reporter", "--testLocationInResults", "--workerIdleMemoryLimit"})
        | _JEST_LOADS | _JEST_SETTINGS,
        loads=_JEST_LOADS, settings=_JEST_SETTINGS),
    "vitest": RunnerOptions(
        values=frozenset({"-c", "--config", "-t", "--testNamePattern", "--reporter", "--outputFile", "--environment",
                          "--pool", "--project", "--shard", "--browser", "--mode", "--workspace", "--exclude",
                          "--testTimeout", "--hookTimeout", "--maxWorkers", "--minWorkers", "--sequence.seed",
                          "--coverage.provider", "--coverage.reportsDirectory", "--changed", "--retry"})
        | _VITEST_LOADS | _VITEST_SETTINGS,
        loads=_VITEST_LOADS, settings=_VITEST_SETTINGS,
        subcommands=frozenset({"run", "watch", "dev", "related", "bench", "list"})),
    "mocha": RunnerOptions(
        values=frozenset({"--config", "--package", "--extension", "--spec", "-g", "--grep", "-f", "--fgrep",
                          "-R", "--reporter", "-O", "--reporter-option", "--reporter-options", "-u", "--ui",
                          "-t", "--timeout", "--timeouts", "-s", "--slow", "--retries", "-j", "--jobs",
                          "--ignore", "--exclude", "-n", "--node-option"}) | _MOCHA_LOADS,
        loads=_MOCHA_LOADS, operands=frozenset({"--spec"}),
        settings=frozenset({"--recursive", "--extension", "--package"})),
    "node --test": RunnerOptions(values=_NODE_VALUES | _NODE_LOADS, loads=_NODE_LOADS),
    "bun test": RunnerOptions(
        values=frozenset({"--preload", "-t", "--test-name-pattern", "--timeout", "--rerun-each", "--coverage-reporter",
                          "--coverage-dir", "--reporter", "--reporter-outfile", "--seed", "--max-concurrency",
                          "-c", "--config", "--cwd", "--env-file", "--tsconfig-override"}),
        loads=frozenset({"--preload"})),
    "deno test": RunnerOptions(
        values=frozenset({"-c", "--config", "--import-map", "--filter", "--reporter", "--junit-path", "--seed",
                          "--location", "--cert", "--ext", "--env-file", "--preload"}),
        loads=frozenset({"--preload"})),
}
# The options whose value (or presence) changes what a runner collects (unittest's discovery:
# `-s`, `-p`, `-t`), read by testrunners.py.
SETTINGS = frozenset().union(*(r.settings for r in RUNNER_OPTIONS.values()), {"-s", "-p", "-t"})


class TestRun:
    """What a test runner's command line says, for testrunners.test_files: the runner (a row
    of testrunners.RUNNERS), its path operands, pytest's `-p` plugins, its configuration
    (pytest's `-c FILE` and `-o KEY=VALUE` words; another runner's `-c FILE`) and its settings
    (option, value; None: of unknown value)."""

    __slots__ = ("runner", "paths", "plugins", "configuration", "settings", "import_root")

    def __init__(self, runner: str) -> None:
        self.runner = runner
        self.paths: list[str] = []
        self.plugins: list[str] = []
        self.configuration: list[str] = []
        self.settings: list[tuple[str, str | None]] = []
        # Where the test files' absolute imports are looked up, when not the first file's
        # directory (unittest's top-level directory); set by testrunners.test_files.
        self.import_root: tuple[str, ...] | None = None


def runner_items(runner: str, args: Sequence[Arg], start: int) -> list[Item]:
    """A test runner's words from `start`: its test paths (`exec`, option `test`: files,
    directories, pytest's `path::node` ids as spelled), the files it loads as code (`exec`,
    option the loading option: pytest's `-p` plugins, mocha's `--require`), its configuration
    file (option `--config`, pytest's `--config-file`, its `-o` overrides) and the settings
    testrunners.py reads (option: the setting's)."""
    if runner == "unittest" or runner == NOSE2:
        return _unittest_items(args, start, runner == NOSE2)
    options = RUNNER_OPTIONS[runner]
    items: list[Item] = []
    n = len(args)
    k = start
    if k < n and not args[k].opaque and args[k].text in options.subcommands:
        items.append(Item(k, args[k].text, DATA))
        k += 1
    done = False
    while k < n:
        a = args[k]
        t = a.text
        if done or a.opaque or not t.startswith("-") or t == "-":
            items.append(Item(k, t, EXEC, option=TEST_PATH))
            k += 1
            continue
        if t == "--":
            items.append(Item(k, t, DATA))
            done = True
            k += 1
            continue
        if options.cluster_values and not t.startswith("--"):
            # A cluster of short options (pytest's `-xq`, `-kEXPR`, `-p NAME`): the first
            # letter that takes a value takes the rest of the word, or the next word.
            items.append(Item(k, t, DATA))
            for j in range(1, len(t)):
                if t[j] in options.cluster_values:
                    option = "-" + t[j]
                    if j + 1 < len(t):
                        items.append(Item(k, t[j + 1 :], _runner_role(options, option), False,
                                          _runner_option(options, option)))
                    elif k + 1 < n:
                        k += 1
                        items.append(Item(k, args[k].text, _runner_role(options, option), True,
                                          _runner_option(options, option)))
                    break
            k += 1
            continue
        option, eq, value = t.partition("=")
        items.append(Item(k, t, DATA, option=option if option in options.settings and not eq else ""))
        if option in options.values:
            if eq:
                items.append(Item(k, value, _runner_role(options, option), False, _runner_option(options, option)))
            elif k + 1 < n:
                k += 1
                items.append(Item(k, args[k].text, _runner_role(options, option), True, _runner_option(options, option)))
        k += 1
    return items


def _runner_role(options: RunnerOptions, option: str) -> str:
    return EXEC if option in options.loads or option in options.operands else DATA


def _runner_option(options: RunnerOptions, option: str) -> str:
    if option in options.operands:
        return TEST_PATH
    if option in ("-c", "--config") and option not in options.loads:
        return CONFIG
    return option


def _in_test_mode(family: str, args: Sequence[Arg]) -> bool:
    """Is `node` run as `node --test` (the flag before any script), `bun`/`deno` as `… test`?"""
    if family not in ("node", "nodejs"):
        return bool(args) and not args[0].opaque and args[0].text == "test"
    k = 0
    while k < len(args):
        t = args[k].text
        if args[k].opaque or not t.startswith("-"):
            return False  # the script comes first
        if t == "--test":
            return True
        k += 2 if t in _NODE_VALUES or t in _NODE_LOADS else 1
    return False


def test_runner(name: str, items: Sequence[Item]) -> str | None:
    """The test runner (a row of testrunners.RUNNERS) a command is, from its words' roles."""
    family = family_of(name)
    if family in TEST_RUNNERS:
        return TEST_RUNNERS[family]
    for it in items:
        # (the last module: `python3 -m cProfile -m pytest` runs pytest under the profiler)
        if it.option == "-m" and it.role == EXEC and it.text not in MODULE_RUNNERS:
            return TEST_RUNNER_MODULES.get(it.text)
    if family in _TEST_MODES and items:
        # (`interpreter` parses the runner's words only in test mode: `bun test`, `deno test`
        # leave "test" their first word; `node --test`, a "--test" word before any script)
        if items[0].text == "test" and items[0].role == DATA or any(
                it.text == "--test" and it.role == DATA for it in items):
            return _TEST_MODES[family]
    return None


# unittest's options that take a value (`-k`: a test name pattern; discover's `-s`, `-p`, `-t`).
_UNITTEST_VALUES = frozenset({"-k", "--durations"})
_DISCOVER_VALUES = {"-s": "-s", "--start-directory": "-s", "-p": "-p", "--pattern": "-p",
                    "-t": "-t", "--top-level-directory": "-t"}


def _unittest_items(args: Sequence[Arg], start: int, discovers: bool = False) -> list[Item]:
    """`python3 -m unittest`'s words from `start`: test names (modules, `a.b.Case.test`, or a
    file path), each `exec` with option `test`; or, after `discover` (or with no name),
    discovery's start directory, pattern and top-level directory as settings `-s`, `-p`,
    `-t` (given as options or as the positional words in that order). A runner that
    `discovers` (nose2, green) takes those options without `discover`, and names as well; its
    `--plugin NAME` is a module it imports (option `-p`)."""
    items: list[Item] = []
    n = len(args)
    k = start
    discover = k < n and not args[k].opaque and args[k].text == "discover"
    if discover:
        items.append(Item(k, args[k].text, DATA))
        k += 1
    positional = 0
    while k < n:
        a = args[k]
        t = a.text
        if discovers and t in ("--plugin", "-c", "--config", "--log-capture-level") and k + 1 < n:
            items.append(Item(k, t, DATA))
            items.append(Item(k + 1, args[k + 1].text, EXEC if t == "--plugin" else DATA, True,
                              {"--plugin": PLUGIN, "-c": CONFIG, "--config": CONFIG}.get(t, "")))
            k += 2
            continue
        if a.opaque or not t.startswith("-"):
            if discover and not discovers:
                # (a fourth word is an error to unittest: data here)
                items.append(Item(k, t, DATA, True, ("-s", "-p", "-t")[positional] if positional < 3 else ""))
                positional += 1
            else:
                items.append(Item(k, t, EXEC, option=TEST_PATH))
            k += 1
            continue
        option, eq, value = t.partition("=")
        items.append(Item(k, t, DATA))
        setting = _DISCOVER_VALUES.get(option) if discover or discovers else None
        if setting is not None or option in _UNITTEST_VALUES:
            if eq:
                items.append(Item(k, value, DATA, False, setting or option))
            elif k + 1 < n:
                k += 1
                items.append(Item(k, args[k].text, DATA, True, setting or option))
        elif (discover or discovers) and len(t) > 2 and t[:2] in _DISCOVER_VALUES and t[1] != "-":
            items.append(Item(k, t[2:], DATA, False, t[:2]))  # `-stests`
        k += 1
    return items
