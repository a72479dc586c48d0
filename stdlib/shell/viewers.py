"""Pagers and editors that run commands of their own (issue 11, round 7).

`less +'!sh x.sh' f` runs `sh x.sh` (`!` is less's shell escape; `+cmd` runs a less command
when the file opens), `vim -c '!sh x.sh' f`, `vim '+!…'`, `ex -c …`, `view +…` run an Ex
command, `vim -S cmds.vim` sources a file of them, and a lesskey file (`less -k`,
`--lesskey-src`, `LESSKEY…` in the environment) binds keys to commands and sets `LESSOPEN`.
Such a command is a program of the viewer's own language, which this layer does not read: a
command that is not proven harmless fails closed. Harmless: a line number (`+10`), a search
(`+/pattern`, less's `+?pattern`), the last line (`+`, `+G`), and for an editor a quit
(`-c q`). So does a viewer given operands this layer cannot see (`lister | xargs less`, a
loop over a lister's output: a tracked file named `+!rm …` is a command to less), unless `--`
ends its options first. A glob that can expand to a name beginning with `+` is judged where
globs that expand to options are (analysis.py `_option_glob`).
"""

from __future__ import annotations

from polydeukes.vm.sre import LazyPattern

PAGERS = frozenset({"less", "more"})
EDITORS = frozenset({"vi", "vim", "view", "ex", "rvim", "rview", "vimdiff", "nvim", "gvim", "gview", "evim",
                     "vim.tiny", "vim.basic", "vim.nox", "vim.gtk3", "nvi", "nex", "nview", "elvis"})
VIEWERS = PAGERS | EDITORS
# Options whose value is a command (`-c CMD`) or a file of commands (`-S FILE`), per kind of
# viewer; a file value that turns the file off (`-u NONE`) is no command.
_COMMAND_OPTIONS = {"pager": frozenset(), "editor": frozenset({"-c", "--cmd", "--remote-send", "--remote-expr"})}
_FILE_OPTIONS = {
    "pager": frozenset({"-k", "--lesskey-file", "--lesskey-src", "--lesskey-content"}),
    "editor": frozenset({"-S", "-u", "-U", "-s"}),
}
_NO_FILE = frozenset({"NONE", "NORC", "DEFAULTS"})
# The editors' options that take the next word as a value that is no command.
_EDITOR_VALUES = frozenset({"-t", "-q", "-T", "-r", "-i", "-w", "-W", "--startuptime", "--servername",
                            "--remote-wait", "--log"})
# Harmless commands: a line number, the last line, a search; for an editor a quit too. A
# control character (a newline) would start another command; a `/` or `|` after an editor's
# search pattern could go on with one (`:/x/!sh`).
_HARMLESS = {
    "pager": LazyPattern(r"\+?(?:[0-9]*[gGpP%]?|[0-9]*[/?][^\x00-\x1f]*)"),
    "editor": LazyPattern(r"[0-9]*|\$|[/?][^\x00-\x1f/?|\\]*|q(?:uit)?!?|qa(?:ll)?!?"),
}
# The environment of less: its options (`LESS='+!sh x.sh'`), and the lesskey files it reads.
PAGER_OPTIONS = "LESS"
LESSKEY_VARIABLES = ("LESSKEY", "LESSKEYIN", "LESSKEY_SRC", "LESSKEY_CONTENT", "LESSKEY_SYSTEM",
                     "LESSKEYIN_SYSTEM")
LESS_VARIABLES = (PAGER_OPTIONS, *LESSKEY_VARIABLES)
# Ex commands vim and ex run at start-up (in place of a vimrc, an exrc).
EDITOR_VARIABLES = ("VIMINIT", "EXINIT")
# Programs that run less as their pager with the environment they get.
PAGER_USERS = frozenset({"less", "more", "man", "git", "journalctl", "systemctl", "bat", "delta", "gh"})


def kind_of(name: str) -> str:
    return "pager" if name in PAGERS else "editor"


def commands(name: str, words: list[str], opaque: list[bool]) -> str | None:
    """The first command (or file of commands) among a viewer's words `words` that is not
    proven harmless, as the message shows it; None when there is none."""
    kind = kind_of(name)
    harmless = _HARMLESS[kind]()
    command_options = _COMMAND_OPTIONS[kind]
    file_options = _FILE_OPTIONS[kind]
    ex_mode = name in ("ex", "nex") or any(w in ("-e", "-E", "-es", "-Es") for w in words)
    k = 0
    n = len(words)
    while k < n:
        w = words[k]
        if w == "--":
            return None  # (what follows is a file name, `+` and all)
        if opaque[k] and kind == "editor" and w[:1] in ("+", "-") or opaque[k] and w[:1] == "+":
            return w  # (a command or option of unknown value)
        if w[:1] == "+":
            if not harmless.fullmatch(w[1:]):
                return w
            k += 1
            continue
        option, eq, value = w.partition("=")
        if option in command_options or option in file_options:
            if option == "-s" and ex_mode:
                k += 1  # (ex's `-s` is silent mode)
                continue
            if not eq:
                if k + 1 >= n:
                    return None if option in ("-S",) else w
                value = words[k + 1]
                k += 1
            if option in file_options:
                if value not in _NO_FILE:
                    return f"the file {value} ({option})"
            elif opaque[k] or not harmless.fullmatch(value):
                return f"{option} {value}"
        elif option.startswith("-k") and kind == "pager" and len(option) > 2 and not option.startswith("--"):
            return w  # (`-klesskey`)
        elif kind == "editor" and option in _EDITOR_VALUES and not eq:
            k += 1
        k += 1
    return None


def pager_log(values: dict[str, str | None]) -> str | None:
    """A LESS value that makes less copy what it shows to a log file (`-oFILE`, `-O FILE`,
    `--log-file=FILE`): a write, to a file named relative to where less runs (round 10: `cd ci
    && LESS=-ogate.sh git -p log` is judged from the program that runs less, not less's words)."""
    options = values.get(PAGER_OPTIONS)
    if options and any(_logs(word) for word in options.split()):
        return f"{PAGER_OPTIONS}={options}"
    return None


# less's option letters that take a value (the rest of the word, or the next word).
_LESS_VALUE_LETTERS = frozenset("bhjkpPtTxyzD#")


def _logs(word: str) -> bool:
    """Does a word of less's options name a log file (`-oFILE`, `-RO FILE`, `--log-file=F`)?"""
    if word.startswith(("--log-file", "--LOG-FILE")):
        return True
    if word[:1] != "-" or word[:2] == "--":
        return False
    for letter in word[1:]:
        if letter in "oO":
            return True
        if letter in _LESS_VALUE_LETTERS:
            return False
    return False


def pager_environment(values: dict[str, str | None]) -> str | None:
    """A LESS or LESSKEY… value the line gives less that makes it run commands of its own."""
    for variable in LESSKEY_VARIABLES:
        if values.get(variable):
            return f"{variable}={values[variable]}"
    options = values.get(PAGER_OPTIONS)
    if options:
        harmless = _HARMLESS["pager"]()
        for word in options.split():
            if word[:1] == "+" and not harmless.fullmatch(word[1:]) or word.startswith(("-k", "--lesskey")):
                return f"{PAGER_OPTIONS}={options}"
    return None
