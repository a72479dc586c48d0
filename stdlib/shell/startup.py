"""Start-up files a program reads from the directory it runs in and runs as code (round r8).

R reads `.Rprofile` where it runs (and restores the saved workspace `.RData`, whose `.First`
function runs), irb `.irbrc`, pry `.pryrc`, GNU Octave `.octaverc`, bun `bunfig.toml` (whose
`preload` scripts run before the program), Python's pdb `.pdbrc`: each before (or instead of)
the program the line names, so `Rscript x.R` beside a `.Rprofile` that deletes a protected file
runs that code though no word of the line names it. Each program's files are a row of
`STARTUP` (data): the files read where the command runs, the options that leave them out, the
options that name another file instead, the files of saved state that cannot be read as text
(they fail closed when there), and the variables a settings file may set that point the program
at other files (they fail closed too). judgment.py's `Judge.startup` reads the files within the
scripts' bounds and judges their text as the program's code, with the project's files it imports
or names; a file not there is nothing, one that cannot be read fails closed. Looked up by the command's name only: the other
commands pay one dictionary lookup.
"""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from polydeukes.stdlib.shell.expansion import Arg
from polydeukes.vm.sre import LazyPattern


class Startup(msgspec.Struct, frozen=True):
    files: tuple[str, ...]  # read where the program runs, as its code, in the order it reads them
    skip: frozenset[str] = frozenset()  # options that leave them out (`--vanilla`, `--norc`)
    instead: frozenset[str] = frozenset()  # options whose value is the file read in their place (`bun -c F`)
    state: tuple[str, ...] = ()  # saved state it restores, not text: fails closed when there (`.RData`)
    state_skip: frozenset[str] = frozenset()  # options that leave the state out
    state_on: frozenset[str] = frozenset()  # with these only (Rscript restores with `--restore` alone)
    settings: tuple[str, ...] = ()  # files of `NAME=value` lines read first (R's `.Renviron`)
    settings_skip: frozenset[str] = frozenset()  # options that leave them out
    redirects: frozenset[str] = frozenset()  # names set there that point the program at other code
    no_modes: frozenset[str] = frozenset()  # first words that run no program of the project (`bun install`)
    directory: frozenset[str] = frozenset()  # options whose value is where it runs (`bun --cwd DIR`)
    # The home's files, read too (an earlier call may have written one outside the project); the
    # same options leave them out. (R reads `~/.Rprofile` only when there is none where it runs:
    # both are read here, which only reads more.)
    home: tuple[str, ...] = ()
    # Read only when a word of the command holds one of these (gdb declines `./.gdbinit` unless
    # its auto-load safe path is widened first: `-iex 'set auto-load safe-path /'`, or an `-ix`
    # file, which may do it); empty: always.
    needs: tuple[str, ...] = ()
    values: frozenset[str] = frozenset()  # its other options that take the next word as their value
    language: str = ""  # the files' language, for the modules they import (imports.family); "": none


_R_SKIP = frozenset({"--vanilla", "--no-init-file"})
_R_STATE_SKIP = frozenset({"--vanilla", "--no-restore", "--no-restore-data"})
_R_ENVIRON_SKIP = frozenset({"--vanilla", "--no-environ"})
# (R reads `.Renviron` where it runs, unless `--no-environ`: `R_PROFILE_USER=p.R` there makes
# p.R the profile; the library paths and the site profile load code of their own)
_R_REDIRECTS = frozenset({"R_PROFILE_USER", "R_PROFILE", "R_ENVIRON_USER", "R_ENVIRON", "R_LIBS", "R_LIBS_USER",
                          "R_LIBS_SITE", "R_HOME", "R_DEFAULT_PACKAGES", "R_SHARE_DIR", "LD_PRELOAD",
                          "LD_LIBRARY_PATH", "R_BATCHSAVE", "R_TESTS"})
_R = Startup(files=(".Rprofile",), skip=_R_SKIP, state=(".RData",), state_skip=_R_STATE_SKIP,
             settings=(".Renviron",), settings_skip=_R_ENVIRON_SKIP, redirects=_R_REDIRECTS, home=(".Rprofile",))
_OCTAVE = Startup(files=(".octaverc",), skip=frozenset({"--norc", "-f", "--no-init-file"}), home=(".octaverc",))
# (irb 1.4 reads the first of `.irbrc`, `irb.rc`, `_irbrc`, `$irbrc` found where it runs after
# the home's; all are read here, which only reads more)
_IRB = Startup(files=(".irbrc", "irb.rc", "_irbrc", "$irbrc"), skip=frozenset({"-f"}),
               home=(".irbrc", ".config/irb/irbrc"), language="ruby")
_PRY = Startup(files=(".pryrc",), skip=frozenset({"-f", "--no-pryrc"}), home=(".pryrc", ".config/pry/pryrc"),
               language="ruby")
_BUN_MODES = frozenset({"test", "x", "repl", "exec", "install", "i", "add", "a", "remove", "rm", "update",
                        "outdated", "link", "unlink", "pm", "build", "init", "create", "c", "upgrade", "publish",
                        "patch", "patch-commit", "audit", "info", "why", "completions", "discord", "help"})
_BUN = Startup(files=("bunfig.toml",), instead=frozenset({"-c", "--config"}), language="js",
               no_modes=_BUN_MODES, directory=frozenset({"--cwd"}), home=(".bunfig.toml", ".config/.bunfig.toml"))
_PDB = Startup(files=(".pdbrc",), home=(".pdbrc",), language="python")

# (gdb 13: `./.gdbinit` is declined by the default safe path `$debugdir:$datadir/auto-load`;
# `-iex` commands and `-ix` files run before it is looked at, and can widen the path)
_GDB = Startup(files=(".gdbinit",), skip=frozenset({"-nx", "--nx", "-n"}),
               needs=("safe-path", "auto-load", "-ix", "--ix", "-init-command", "--init-command"))

# (tmux 3.3 and screen 4.9 run their configuration file's commands when they start, and
# `run-shell`, `if-shell`, screen's `screen`/`exec` run shell commands: `tmux -f t.conf new -d`
# with `run-shell "rm -f ci/gate.sh"` deleted it; its strings that name a script are read too)
_TMUX = Startup(files=(), instead=frozenset({"-f"}), values=frozenset({"-L", "-S", "-c", "-T"}),
                home=(".tmux.conf", ".config/tmux/tmux.conf"))
_SCREEN = Startup(files=(), instead=frozenset({"-c"}), values=frozenset({"-S", "-e", "-h", "-p", "-s", "-t", "-T",
                                                                        "-X", "-Q", "-x", "-r", "-R", "-d", "-D"}),
                  home=(".screenrc",))

STARTUP: dict[str, Startup] = {
    "gdb": _GDB, "tmux": _TMUX, "screen": _SCREEN,
    "R": _R, "Rscript": Startup(files=(".Rprofile",), skip=_R_SKIP, state=(".RData",), state_skip=_R_STATE_SKIP,
                                state_on=frozenset({"--restore"}), settings=(".Renviron",),
                                settings_skip=_R_ENVIRON_SKIP, redirects=_R_REDIRECTS, home=(".Rprofile",)),
    "octave": _OCTAVE, "octave-cli": _OCTAVE,
    "irb": _IRB, "pry": _PRY,
    "bun": _BUN,
}
# Python's debugger (`python3 -m pdb x.py`): its `.pdbrc` lines are pdb commands, and a line
# pdb does not know as a command (or one after `!`) runs as a Python statement.
PDB = _PDB
PYTHONS = frozenset({"python", "python2", "python3", "pypy", "pypy3"})
# (`bundle console` and `rails console` start irb, which reads `.irbrc`)
CONSOLES = {("bundle", "console"): _IRB, ("rails", "console"): _IRB, ("rails", "c"): _IRB}


class Read(msgspec.Struct, frozen=True):
    """What a row asks of the disk for one command: the files read as code (spelled as the
    command would name them), the state files that fail closed when there, the settings files
    whose redirecting names fail closed, and the home's files read as code."""

    files: list[str]
    state: list[str]
    settings: list[str]
    home: list[str]  # the home's files read as code (relative to the home)
    row: Startup
    directory: str | None  # where the files are looked up, when an option names it (None: where it runs)


def row_of(name: str, args: Sequence[Arg], inner: int) -> Startup | None:
    """The start-up row of the command `args[inner:]` named `name`, or None."""
    row = STARTUP.get(name)
    if row is not None:
        return row
    if name in PYTHONS or name.startswith(("python", "pypy")):  # (`python3.12 -m pdb`)
        for k in range(inner + 1, len(args) - 1):
            t = args[k].text
            if t == "-m":
                return _PDB if args[k + 1].text == "pdb" else None
            if t[:1] != "-" or t in ("-c", "-"):
                return None  # (a script, or code: no module run)
        return None
    if inner + 1 < len(args):
        return CONSOLES.get((name, args[inner + 1].text))
    return None


def reads(name: str, args: Sequence[Arg], inner: int, row: Startup) -> Read | None:
    """The files `row` makes the command read, given its words; None when it reads none (an
    option leaves them out, or its first word runs nothing of the project)."""
    start = inner + 1
    if row.needs and not any(n in a.text for a in args[start:] for n in row.needs):
        return None
    if name == "R" and start < len(args) and args[start].text == "CMD":
        if start + 1 >= len(args) or args[start + 1].text != "BATCH":
            return None  # (`R CMD INSTALL`, `R CMD check`: docs "Still open")
        start += 2  # (`R CMD BATCH [options] infile`: restores `.RData` unless told not to)
    elif name in CONSOLES_NAMES:
        start += 1
    files = list(row.files)
    options: set[str] = set()
    directory = None
    k = start
    while k < len(args):
        a = args[k]
        t = a.text
        key, equals, value = t.partition("=")
        if t in row.directory or t in row.instead:
            # (`bun --cwd DIR`, `bun -c FILE`; a value of unknown value: "$", which fails closed)
            value = args[k + 1].text if k + 1 < len(args) and not args[k + 1].opaque else "$"
            if t in row.directory:
                directory = value
            else:
                files = [value]
            k += 2
            continue
        if equals and (key in row.directory or key in row.instead):
            value = "$" if a.opaque else value
            if key in row.directory:
                directory = value
            else:
                files = [value]
        elif a.opaque:
            pass  # (`R $OPTS x.R`: an option of unknown value may leave them out; they are read anyway)
        elif t in row.values:
            options.add(t)
            k += 2  # (`tmux -L sock -f t.conf`)
            continue
        elif k == start and t in row.no_modes:
            return None
        elif t[:1] != "-" or t == "--" or t == "--args":
            break  # (the program's operand: what follows is its own)
        options.add(t)
        k += 1
    home = list(row.home)
    if options & row.skip:
        files, home = [], []
    state: list[str] = []
    if row.state and not options & row.state_skip and (not row.state_on or options & row.state_on):
        state = list(row.state)
    settings = [] if options & row.settings_skip else list(row.settings)
    if not files and not state and not settings and not home:
        return None
    return Read(files=files, state=state, settings=settings, home=home, row=row, directory=directory)


CONSOLES_NAMES = frozenset(name for name, _ in CONSOLES)
NAMES = frozenset(STARTUP) | PYTHONS | CONSOLES_NAMES  # (the judge's one lookup per command)
_ASSIGNMENT = LazyPattern(r"(?m)^[ \t]*(?:export[ \t]+)?([A-Za-z_][A-Za-z0-9_]*)[ \t]*=")


def redirecting(text: str, row: Startup) -> str | None:
    """The first name a settings file (R's `.Renviron`: `NAME=value` lines) sets that points the
    program at other code (`row.redirects`), or None."""
    for m in _ASSIGNMENT().finditer(text):
        if m.group(1) in row.redirects:
            return m.group(1)
    return None
