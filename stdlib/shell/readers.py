"""The readers of the effect model's irregular rows (see effects.py): commands whose syntax is
not "options and operands" — dd's `if=`/`of=`, the scripts of sed and awk, find's expression,
tar's modes and old-style bundles, unzip, the compressors, patch (the interpreters: interpreters.py). Each
takes the command's arguments and returns `Effects`, like the generic reader.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from polydeukes.stdlib.shell.effects import (
    CHDIR,
    CODE,
    DATA,
    DELETE,
    EXEC,
    LINK,
    MOVE,
    READ,
    UNKNOWN,
    WRITE,
    Effects,
    Env,
    Extra,
    Item,
    Model,
    assign_roles,
    backups,
    generic,
    in_place_backups,
    into,
    known_prefix,
    layout_roles,
    long_option,
    option_of,
    read_options,
    unknown_reason,
)
from polydeukes.stdlib.shell.expansion import ANY, ONE, Arg, escape_pattern
from polydeukes.stdlib.shell.tokenizer import group_end
from polydeukes.stdlib.shell.interpreters import interpreter
from polydeukes.vm.sre import LazyPattern

def _dd(name: str, args: Sequence[Arg], model: Model, env: Env) -> Effects:
    items = []
    for k, a in enumerate(args):
        key, eq, value = a.text.partition("=")
        if eq and key == "if":
            items.append(Item(k, value, READ, False))
        elif eq and key == "of":
            items.append(Item(k, value, WRITE, False))
        else:
            items.append(Item(k, a.text, DATA if not a.opaque else UNKNOWN))
    unproven = "a word of unknown value" if any(a.opaque for a in args) else None
    return Effects(tuple(items), (), unproven)


_SED_OPTIONS = ("-n,--quiet,--silent -e,--expression=data:pattern -f,--file=read:pattern "
                "-i,--in-place=?data:in-place -E,-r,--regexp-extended -s,--separate "
                "-u,--unbuffered -z,--null-data -l,--line-length=data --posix --debug "
                "--follow-symlinks --sandbox -b,--binary --help --version")
_SED_MODEL = Model("data read...", _SED_OPTIONS)


_SED_FLAGS = frozenset("nrEsuzb")  # sed letters that take no value, which may come before `i`


def _unknown_in_place(a: Arg) -> bool:
    """Is `a` sed's in-place option with a suffix of unknown value (`-i"$S"`, `-Ei$S`,
    `--in-place="$S"`)? The backup then goes to an unknown name."""
    if not a.opaque:
        return False
    prefix = known_prefix(a)
    if prefix.startswith("--"):
        spelled, eq, _ = prefix.partition("=")
        return bool(eq) and len(spelled) > 4 and "--in-place".startswith(spelled)
    if not prefix.startswith("-"):
        return False
    for letter in prefix[1:]:
        if letter == "i":
            return True
        if letter not in _SED_FLAGS:
            return False
    return False


def _sed(name: str, args: Sequence[Arg], model: Model, env: Env) -> Effects:
    unknown_suffix = any(_unknown_in_place(a) for a in args)
    if unknown_suffix:
        # Read as `--in-place` (the files are rewritten); the backup is written below.
        args = [Arg("--in-place", None, False, a.count, a.word) if _unknown_in_place(a) else a for a in args]
    parsed = read_options(_SED_MODEL, args)
    scripts = [it.text for it in parsed.items if it.option in ("-e", "--expression")]
    unproven = None
    if any(it.option in ("-f", "--file") for it in parsed.items):
        unproven = "the script comes from a file"
    operands = parsed.operands
    roles = [READ] * len(operands)
    if "pattern" not in parsed.effects and operands:
        roles[0] = DATA
        scripts.append(args[operands[0]].text)
        if args[operands[0]].opaque:
            unproven = unproven or "the script is not known"
    if "in-place" in parsed.effects:
        roles = [WRITE if r == READ else r for r in roles]
    items = assign_roles(parsed.items, dict(zip(operands, roles)))
    extra: list[Extra] = []
    for script in scripts:
        writes, executes = sed_script_effects(script, commands := [])
        for command in commands:
            # (what `e CMD` or `s/…/CMD/e` runs, walked as a command line: analysis `_follow`)
            extra.append(Extra("shell", rule="sed-e", argv=(command.replace("\\", ""),)))
        if executes:
            unproven = "the script runs a command (`e`)"
            # What `e` runs is text the script builds: its code, read with sed's escapes
            # dropped (`s/x/rm ci\/gate.sh/e` runs `rm ci/gate.sh`).
            items = tuple(Item(it.index, it.text.replace("\\", ""), CODE, it.whole, it.option)
                          if it.role == DATA and it.text == script else it for it in items)
        if writes is None:
            unproven = unproven or "the script is not read"
        for path in writes or ():
            extra.append(Extra(WRITE, path=path, rule="sed-script"))
    extra.extend(_sed_backups(parsed, items, args))
    if unknown_suffix:
        extra.append(Extra(WRITE, path="/", tree=True, rule="backup"))  # as `in_place_backups`
    return Effects(items, tuple(extra), unproven or unknown_reason(parsed))


def _sed_backups(parsed, items: Sequence[Item], args: Sequence[Arg]) -> list[Extra]:
    """The backups `-iSUF` / `--in-place=SUF` make (`in_place_backups`); for BSD sed, whose
    `-i` takes the next word as its suffix (`sed -i .sh s/a/b/ ci/gate`), a bare `-i`'s next
    word too when it has no `/` (else it is the script GNU sed reads there)."""
    out: list[Extra] = []
    for it in parsed.items:
        option = it.option or ""
        if not it.whole and (option == "-i" or (option.startswith("--in") and "--in-place".startswith(option))):
            out.extend(in_place_backups(args[it.index], it.text, items, args))
    for k, a in enumerate(args[:-1]):
        if a.text == "-i" and not a.opaque:
            word = args[k + 1]
            if word.opaque or (word.text and not word.text.startswith("-") and "/" not in word.text):
                out.extend(in_place_backups(word, word.text, [it for it in items if it.index != k + 1], args))
            break
    return out


def sed_script_effects(script: str, commands: list[str] | None = None,
                       runs: list[str] | None = None) -> tuple[list[str] | None, bool]:
    """The files a sed script writes (`w`, `W`, `s///w`) and whether it runs commands (`e`,
    `s///e`); None for the files when the script cannot be read. `commands` gets the command
    lines it runs that its text spells (`e CMD`; the replacement of `s///e`, which becomes the
    line the shell runs when the pattern takes the whole line). `runs` gets, per command run
    of the text it reads, `LINES` (`e` alone, `s/.*/&/e`: the line as it is) or `MADE` (a
    substitution that keeps some of the line: `s/x/ls/e`)."""
    writes: list[str] = []
    executes = False
    i, n = 0, len(script)
    while i < n:
        c = script[i]
        if c in " \t\n;{}!":
            i += 1
            continue
        if c == "#":
            j = script.find("\n", i)
            i = n if j < 0 else j + 1
            continue
        # Addresses: numbers, `$`, `first~step`, `/re/` or `\cREc`, `addr1,addr2`, `+N`, `~N`.
        i = _sed_address(script, i)
        if i < 0:
            return None, executes
        while i < n and script[i] in " \t":
            i += 1
        if i < n and script[i] == ",":
            i = _sed_address(script, i + 1)
            if i < 0:
                return None, executes
        while i < n and script[i] in " \t!":
            i += 1
        if i >= n:
            break
        cmd = script[i]
        i += 1
        if cmd in "{}=dDgGhHnNpPxzF;\n":
            continue
        if cmd in ":btTv":
            while i < n and script[i] not in ";\n":
                i += 1
            continue
        if cmd in "aic":
            j = i
            while j < n:
                if script[j] == "\\" and j + 1 < n:
                    j += 2
                    continue
                if script[j] == "\n":
                    break
                j += 1
            i = j
            continue
        if cmd in "lLqQ":
            while i < n and script[i] in " \t0123456789":
                i += 1
            continue
        if cmd in "rRwWe":
            j = script.find("\n", i)
            end = n if j < 0 else j
            arg = script[i:end].strip()
            if cmd in "wW":
                writes.append(arg)
            elif cmd == "e":
                executes = True
                if arg and commands is not None:
                    commands.append(arg)
                if not arg and runs is not None:
                    runs.append(LINES)  # (the pattern space: the line read, as edited so far)
            i = end
            continue
        if cmd in "sy":
            if i >= n:
                return None, executes
            delim = script[i]
            i += 1
            pattern_start = i
            replacement_start = -1
            for part in range(2):
                if part:
                    replacement_start = i
                i = _sed_part(script, i, delim)
                if i < 0:
                    return None, executes
            if cmd == "s":
                while i < n and script[i] in "gpiImMe0123456789":
                    if script[i] == "e":
                        executes = True
                        replacement = script[replacement_start : i - 1]
                        if commands is not None:
                            commands.append(replacement.replace("\\" + delim, delim))
                        if runs is not None:
                            runs.append(_substituted_run(script[pattern_start : replacement_start - 1],
                                                         replacement))
                    i += 1
                if i < n and script[i] == "w":
                    j = script.find("\n", i)
                    end = n if j < 0 else j
                    writes.append(script[i + 1 : end].strip())
                    i = end
            continue
        return None, executes  # a command this reader does not know
    return writes, executes


# How a command a program runs is made of the text it reads (`sed_script_effects`,
# `awk_input_runs`): the line as it is (its text is judged as a script), or a command made
# of part of it and other text (it fails closed).
LINES = "lines"
MADE = "made"
_WHOLE_LINE = frozenset({".*", "^.*", "^.*$", ".*$"})
_BACKREFERENCE = LazyPattern(r"&|\\[0-9]")


def _substituted_run(pattern: str, replacement: str) -> str | None:
    """What `s/PATTERN/REPLACEMENT/e` runs of the line: nothing of it when the pattern takes
    the whole line and the replacement spells the command (judged as code), the line itself
    for `s/.*/&/e`, else a command made of the line and the replacement."""
    if pattern in _WHOLE_LINE:
        if replacement == "&":
            return LINES
        if _BACKREFERENCE().search(replacement) is None:
            return None
    return MADE


def _sed_address(script: str, i: int) -> int:
    n = len(script)
    if i < n and script[i] in "/\\":
        delim = "/"
        if script[i] == "\\":
            if i + 1 >= n:
                return -1
            delim = script[i + 1]
            i += 1
        i = _sed_part(script, i + 1, delim)
        if i < 0:
            return -1
        while i < n and script[i] in "IM":
            i += 1
        return i
    while i < n and (script[i].isdigit() or script[i] in "$~+"):
        i += 1
    return i


def _sed_part(script: str, i: int, delim: str) -> int:
    """Index past the next unescaped `delim` (a part of `s` or `y`, or an address regex)."""
    n = len(script)
    while i < n:
        c = script[i]
        if c == "\\":
            i += 2
            continue
        if c == delim:
            return i + 1
        i += 1
    return -1


_AWK_OPTIONS = ("-f,--file=read:pattern -E,--exec=read:pattern -e,--source=code:pattern "
                "-v,--assign=data -F,--field-separator=data -i,--include=exec:unproven "
                "-l,--load=exec:unproven -o,--pretty-print=?write -p,--profile=?write "
                "-d,--dump-variables=?write -D,--debug=?read -L,--lint=?data -W=data "
                "-S,--sandbox -b,--characters-as-bytes -c,--traditional -C,--copyright "
                "-g,--gen-pot -h,--help -M,--bignum -n,--non-decimal-data -N,--use-lc-numeric "
                "-O,--optimize -P,--posix -r,--re-interval -s,--no-optimize -t,--lint-old "
                "-V,--version -I,--trace")
AWK_MODEL = Model("code read...", _AWK_OPTIONS)  # (scripts.inline_program_line reads its options too)
_AWK_DEFAULT_FILES = {"-o": "awkprof.out", "--pretty-print": "awkprof.out", "-p": "awkprof.out",
                      "--profile": "awkprof.out", "-d": "awkvars.out", "--dump-variables": "awkvars.out"}


def _awk(name: str, args: Sequence[Arg], model: Model, env: Env) -> Effects:
    parsed = read_options(AWK_MODEL, args, stop_at_operand=True)
    operands = parsed.operands
    given = "pattern" in parsed.effects
    roles = layout_roles("read..." if given else "code read...", len(operands))
    role_of = dict(zip(operands, roles))
    items = []
    for it in parsed.items:
        role = role_of.get(it.index, it.role) if it.role == "" else it.role
        if role == READ and it.index in role_of and "=" in it.text and not it.text.startswith(("/", ".")):
            role = DATA  # `var=value` operands are assignments, not files
        items.append(Item(it.index, it.text, role, it.whole))
    extra: list[Extra] = []
    unproven = None
    for k, a in enumerate(args):
        if a.text in _AWK_DEFAULT_FILES:
            extra.append(Extra(WRITE, path=_AWK_DEFAULT_FILES[a.text], rule="awk-output"))
    programs = [it.text for it in items if it.role == CODE]
    # (`-f F`, `-fF`, `-vx=1 -fF`, `--file=F`: option_of names the option in each spelling)
    if any(it.role == READ and option_of(args, it) in ("-f", "--file", "-E", "--exec") for it in items):
        unproven = "the program comes from a file"
    sandbox = any(a.text in ("-S", "--sandbox") for a in args)
    for program in programs:
        writes, executes = awk_program_effects(program)
        if executes and not sandbox:
            unproven = "the program runs commands"
        if writes is None and not sandbox:
            unproven = unproven or "the program writes to a computed file name"
        for path in writes or ():
            if not sandbox:
                extra.append(Extra(WRITE, path=path, rule="awk-output"))
    if any(args[k].opaque for k in operands[:1]) and not given:
        unproven = unproven or "the program is not known"
    if "unproven" in parsed.effects:
        unproven = "an option that loads code"
    if parsed.unknown:
        unproven = unproven or f"option {parsed.unknown[0]} is not in the model"
    return Effects(tuple(items), tuple(extra), unproven)


_AWK_TOKEN = LazyPattern(r'"(?:[^"\\\n]|\\.)*"|#[^\n]*|\b(?:print|printf|getline|system|close)\b|\|&|\||>>?|[;{}\n()]|/(?:[^/\\\n]|\\.)+/')


def awk_program_effects(program: str) -> tuple[list[str] | None, bool]:
    """The files an awk program writes (`print > "f"`) and whether it runs commands
    (`system()`, pipes, `|&`); None for the files when a redirection target is computed."""
    writes: list[str] = []
    executes = False
    unknown_target = False
    in_print = False
    depth = 0
    tokens = _AWK_TOKEN().findall(program)
    k = 0
    while k < len(tokens):
        tok = tokens[k]
        if tok.startswith("#") or (tok.startswith("/") and len(tok) > 1):
            k += 1
            continue
        if tok in ("print", "printf"):
            in_print = True
            depth = 0
        elif tok == "system" or tok == "|&":
            executes = True
        elif tok == "|":
            # `cmd | getline` and `print | "cmd"` both run a command.
            executes = True
        elif tok == "(":
            depth += 1
        elif tok == ")":
            depth = max(0, depth - 1)
        elif tok in (";", "{", "}", "\n"):
            in_print = False
        elif tok in (">", ">>") and in_print and depth == 0:
            target = tokens[k + 1] if k + 1 < len(tokens) else ""
            if target.startswith('"') and target.endswith('"') and len(target) >= 2:
                writes.append(target[1:-1].encode().decode("unicode_escape", errors="replace")
                              if "\\" in target else target[1:-1])
                k += 1
            else:
                unknown_target = True
            in_print = False
        k += 1
    return (None if unknown_target else writes), executes


_AWK_STRING = LazyPattern(r'"(?:[^"\\\n]|\\.)*"')
_AWK_LITERAL = LazyPattern(r'(?:\s*"(?:[^"\\\n]|\\.)*")+\s*')  # (literals joined: `"rm c" "i"`)
_AWK_RUNS = LazyPattern(r"\bsystem\s*\(|\|&?|\bgetline\b")
_AWK_STATEMENT_END = LazyPattern(r"[;{}\n]|\)\s*$")
# Programs that run what they read on stdin, or take operands from it: text printed into them
# from awk's input makes commands (`print | "sh"`, `print | "xargs rm"`).
_STDIN_COMMANDS = frozenset({"sh", "bash", "dash", "zsh", "ksh", "mksh", "ash", "yash", "posh", "rbash", "ksh93",
                             "pdksh", "oksh", "loksh", "lksh", "bosh", "osh", "oil", "busybox", "xargs", "parallel",
                             "python", "python3", "perl", "ruby", "node", "php", "awk", "gawk", "mawk", "nawk",
                             "env", "source", "eval", "tclsh", "lua"})


def awk_input_runs(program: str) -> str | None:
    """What the commands an awk program runs make of the text it reads: `LINES` when each is
    the record as it is (`system($0)`, `print | "sh"` of `$0`), `MADE` when one is built of
    anything else than a string literal (`system("rm " $2)`, `$0 | getline`, `print $1 | "xargs
    rm"`, a command of unknown text), None when it runs only commands its text spells."""
    masked = _AWK_STRING().sub(lambda m: '"' + "x" * (len(m.group(0)) - 2) + '"', program)
    found: str | None = None
    for m in _AWK_RUNS().finditer(masked):
        if m.group(0).startswith("system"):
            end = group_end(masked, m.end() - 1, "(", ")")
            argument = program[m.end() : end - 1].strip()
            kind = None if _AWK_LITERAL().fullmatch(argument) else LINES if argument == "$0" else MADE
        elif m.group(0) == "getline":
            continue  # (judged at its `|`; `getline < FILE` reads, `getline` alone reads input)
        elif m.start() > 0 and masked[m.start() - 1] == "|" or masked.startswith("||", m.start()):
            continue  # `||`: a condition
        else:
            kind = _awk_pipe(program, masked, m.start(), m.end())
        if kind == MADE:
            return MADE
        found = found or kind
    return found


_AWK_BEGIN_RULE = LazyPattern(r"\s*(?:BEGIN\s*\{|function\s+\w+\s*\([^)]*\)\s*\{)")
_AWK_NAME = LazyPattern(r"[A-Za-z_]\w*")
_AWK_SYSTEM_PIECE = LazyPattern(r'\s*(?:"((?:[^"\\\n]|\\.)*)"|([A-Za-z_]\w*))')
_AWK_ESCAPES = {"n": "\n", "t": "\t", '"': '"', "/": "/", "\\": "\\"}


def awk_begin_commands(program: str, values: dict[str, str]) -> list[str] | None:
    """The command lines a program of only `BEGIN` rules (and functions) runs, when each is
    `system(…)` of string literals and variables `-v` gives (`awk -v x='make' 'BEGIN{system(x
    " all")}'`): such a program reads no input, so no command is made of its text. None for
    any other program: a main or `END` rule (they read input), `getline`, a pipe, another
    expression as the command, a variable not given, an escape it would decode."""
    masked = _AWK_STRING().sub(lambda m: '"' + "x" * (len(m.group(0)) - 2) + '"', program)
    if "getline" in masked or "|" in masked.replace("||", "") or "/" in masked:
        return None  # (a regular expression may hold braces: not read)
    at = 0
    while at < len(masked):  # (only BEGIN rules and functions at the top)
        m = _AWK_BEGIN_RULE().match(masked, at)
        if m is None:
            if masked[at:].strip(" \t\n;"):
                return None
            break
        at = group_end(masked, m.end() - 1, "{", "}")
        if at > len(masked) or masked[at - 1 : at] != "}":
            return None
    commands: list[str] = []
    outside = masked  # (the program without its commands' arguments)
    for m in _AWK_RUNS().finditer(masked):
        end = group_end(masked, m.end() - 1, "(", ")")
        argument = program[m.end() : end - 1]
        outside = outside[: m.end()] + " " * (end - 1 - m.end()) + outside[end - 1 :]
        pieces: list[str] = []
        k = 0
        while argument[k:].strip():
            piece = _AWK_SYSTEM_PIECE().match(argument, k)
            if piece is None:
                return None
            literal, name = piece.group(1), piece.group(2)
            if name is not None and (name not in values or "\\" in values[name]):
                return None  # (another variable; a value awk would decode escapes of)
            text = values[name] if name is not None else _awk_literal(literal)
            if text is None:
                return None
            pieces.append(text)
            k = piece.end()
        commands.append("".join(pieces))
    if values and not values.keys().isdisjoint(_AWK_NAME().findall(outside)):
        return None  # (the program may give the variable another value before it runs it)
    return commands


def _awk_literal(literal: str) -> str | None:
    """A string literal's text, None for an escape other than the plain ones."""
    if "\\" not in literal:
        return literal
    out: list[str] = []
    k = 0
    while k < len(literal):
        c = literal[k]
        if c == "\\":
            decoded = _AWK_ESCAPES.get(literal[k + 1 : k + 2])
            if decoded is None:
                return None
            out.append(decoded)
            k += 2
            continue
        out.append(c)
        k += 1
    return "".join(out)


def awk_assignments(args: Sequence[Arg]) -> dict[str, str] | None:
    """The variables `-v NAME=VALUE` (`-vNAME=VALUE`, `--assign`) give awk, None when one is
    of unknown value."""
    out: dict[str, str] = {}
    for k, a in enumerate(args):
        t = a.text
        if t in ("-v", "--assign") and k + 1 < len(args):
            a = args[k + 1]
            t = a.text
        elif t.startswith("--assign="):
            t = t[len("--assign="):]
        elif t.startswith("-v") and len(t) > 2:
            t = t[2:]
        else:
            continue
        name, eq, value = t.partition("=")
        if a.opaque or not eq:
            return None
        out[name] = value
    return out


def _awk_pipe(program: str, masked: str, start: int, end: int) -> str | None:
    """What `EXPR | getline` or `print … | CMD` (`|&`) runs of the text it reads."""
    stop = _AWK_STATEMENT_END().search(masked, end)
    right = program[end : stop.start() if stop is not None else len(program)].strip()
    starts = [masked.rfind(c, 0, start) for c in ";{}\n("]
    left = program[max(starts) + 1 : start].strip()
    if right.startswith("getline"):
        return None if _AWK_LITERAL().fullmatch(left) else MADE
    if not _AWK_LITERAL().fullmatch(right):
        return MADE  # a command of text the program makes
    words = right.strip().strip('"').split()
    if not words or words[0].rsplit("/", 1)[-1] not in _STDIN_COMMANDS:
        return None  # (`print | "sort"`: its command is judged as code)
    printed = left.split(None, 1)[1].strip() if len(left.split(None, 1)) > 1 else ""
    if left.split(None, 1)[:1] in (["print"], ["printf"]) and printed in ("", "$0") and words[0] != "xargs":
        return LINES
    return MADE


# perl's and ruby's switches that read their input line by line (`-n`, `-p`) and code that
# runs a command (`system`, `exec`, backquotes, `qx`, a piped `open`, ruby's `%x`, `spawn`).
_LINE_LOOP = LazyPattern(r"-[a-zA-Z0-9]*[np][a-zA-Z0-9]*")
_RUNS_COMMAND_CODE = LazyPattern(r"\b(?:system|exec|qx|spawn|popen|readpipe)\b|`|%x|\bopen\b[^;]*\|")


def line_loop_runs(args: Sequence[Arg]) -> bool:
    """Does `perl -n`/`-p` (ruby's too) code run commands, which it may make of the lines it
    reads (`perl -ne 'system $_' x.txt`)?"""
    loops = False
    for a in args:
        t = a.text
        if t == "--" or not t.startswith("-") or t.startswith("--"):
            break
        switches = t[1:]
        for letter in switches:
            if letter in "np":
                loops = True
            if letter in "eEiIMmdDxCF":
                break  # (the rest is the switch's value; `-l` and `-0` take digits only)
    return loops and any(_RUNS_COMMAND_CODE().search(a.text) is not None for a in args)


WRITES = "writes"  # (`awk_program_effects`: a file named by text the program makes)
_AWKS = frozenset({"awk", "gawk", "mawk", "nawk"})


def input_runs(name: str, args: Sequence[Arg]) -> tuple[str | None, list[int]]:
    """What a program that reads text runs or writes of it (`LINES`, `MADE`, `WRITES`, or
    None), and the indexes of its input files (none: it reads stdin). awk and sed read their
    program from the line (a program file is read as code instead: scripts `_program_files`);
    perl's and ruby's `-n`/`-p` loops that run commands make them of their input."""
    if name in _AWKS:
        parsed = read_options(AWK_MODEL, args, stop_at_operand=True)
        if "pattern" in parsed.effects or not parsed.operands or any(a.text in ("-S", "--sandbox") for a in args):
            return None, []
        program = args[parsed.operands[0]].text
        kind = awk_input_runs(program)
        if kind == MADE and "BEGIN" in program and (values := awk_assignments(args)) is not None \
                and awk_begin_commands(program, values) is not None:
            kind = None  # (`BEGIN{system(x)}` with x from `-v`: walked as a command line)
        if kind is None and awk_program_effects(program)[0] is None:
            kind = WRITES
        inputs = [k for k in parsed.operands[1:] if "=" not in args[k].text or args[k].text.startswith(("/", "."))]
        return kind, inputs
    if name in ("sed", "gsed"):
        parsed = read_options(_SED_MODEL, args)
        scripts = [it.text for it in parsed.items if it.option in ("-e", "--expression")]
        operands = parsed.operands
        if "pattern" not in parsed.effects and operands:
            scripts.append(args[operands[0]].text)
            operands = operands[1:]
        runs: list[str] = []
        for script in scripts:
            sed_script_effects(script, None, runs)
        kind = MADE if MADE in runs else LINES if LINES in runs else None
        return kind, operands
    if not line_loop_runs(args):
        return None, []
    inputs: list[int] = []
    k = 0
    while k < len(args):
        t = args[k].text
        if t == "--":
            inputs.extend(range(k + 1, len(args)))
            break
        if not t.startswith("-") or t == "-":
            inputs.extend(range(k, len(args)))
            break
        k += 2 if t[-1:] in ("e", "E") and not t.startswith("--") else 1
    if not any(t.text[-1:] in ("e", "E") and t.text.startswith("-") for t in args):
        inputs = inputs[1:]  # (the first operand is the script file)
    return MADE, inputs


_FIND_ARG_TESTS = frozenset({
    "-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename", "-regex", "-iregex",
    "-lname", "-ilname", "-type", "-xtype", "-size", "-perm", "-user", "-group", "-uid", "-gid",
    "-mtime", "-atime", "-ctime", "-mmin", "-amin", "-cmin", "-used", "-links", "-inum",
    "-fstype", "-maxdepth", "-mindepth", "-context", "-regextype", "-printf", "-D",
})
_FIND_READ_TESTS = frozenset({"-newer", "-anewer", "-cnewer", "-samefile", "-files0-from"})
_FIND_WRITE_ACTIONS = frozenset({"-fprint", "-fprint0", "-fls"})
_FIND_EXEC = frozenset({"-exec", "-execdir", "-ok", "-okdir"})
_FIND_OPERATORS = frozenset({"-o", "-or", "-not", "!", ",", "(", ")"})


def _find(name: str, args: Sequence[Arg], model: Model, env: Env) -> Effects:
    items: list[Item] = []
    k = 0
    n = len(args)
    while k < n and args[k].text in ("-H", "-L", "-P") or (k < n and args[k].text.startswith(("-O", "-D")) and not args[k].opaque):
        items.append(Item(k, args[k].text, DATA))
        if args[k].text == "-D" and k + 1 < n:
            items.append(Item(k + 1, args[k + 1].text, DATA))
            k += 1
        k += 1
    starts: list[Arg] = []
    while k < n and not (args[k].text.startswith("-") and len(args[k].text) > 1) and args[k].text not in ("(", "!", ")", ","):
        items.append(Item(k, args[k].text, READ))
        starts.append(args[k])
        k += 1
    if not starts:
        # `find` alone, or only an expression: the directory (`find | xargs rm -f` passed, its
        # start was none when no word was left to carry it)
        starts = [Arg(".", None, False, ONE, args[0].word if args else None)]
    # (round 9) Where a start of unknown value is below, for `-delete` and `-exec` narrowed by
    # `-name`: any directory (`find "$D" -name gate.sh -delete` passed). Without a name filter it
    # is a write to a value known only at run time, as `rm -rf "$D"` is: not judged.
    below = {id(start): "/" if start.opaque else start.text for start in starts}
    extra: list[Extra] = []
    unproven = None
    names: list[str] = []
    narrowing = True
    deletes = False
    formatted = False  # `-printf`: what it prints need not be the paths it visits
    while k < n:
        a = args[k]
        t = a.text
        if a.opaque:
            unproven = "a word of unknown value in the expression"
            items.append(Item(k, t, UNKNOWN))
            k += 1
            continue
        if t in _FIND_OPERATORS:
            narrowing = narrowing and t not in ("-o", "-or", "-not", "!", ",")
            items.append(Item(k, t, DATA))
            k += 1
        elif t == "-delete":
            deletes = True
            items.append(Item(k, t, DATA))
            k += 1
        elif t in ("-name", "-iname") and k + 1 < n:
            items.append(Item(k, t, DATA))
            items.append(Item(k + 1, args[k + 1].text, DATA))
            names.append(("i:" if t == "-iname" else "") + args[k + 1].text)
            k += 2
        elif t in _FIND_ARG_TESTS and k + 1 < n:
            formatted = formatted or t == "-printf"
            items.append(Item(k, t, DATA))
            items.append(Item(k + 1, args[k + 1].text, DATA))
            k += 2
        elif (t in _FIND_READ_TESTS or t.startswith("-newer")) and k + 1 < n:
            items.append(Item(k, t, DATA))
            items.append(Item(k + 1, args[k + 1].text, READ))
            k += 2
        elif t in _FIND_WRITE_ACTIONS and k + 1 < n:
            items.append(Item(k, t, DATA))
            items.append(Item(k + 1, args[k + 1].text, WRITE))
            k += 2
        elif t == "-fprintf" and k + 2 < n:
            items.append(Item(k, t, DATA))
            items.append(Item(k + 1, args[k + 1].text, WRITE))
            items.append(Item(k + 2, args[k + 2].text, DATA))
            k += 3
        elif t in _FIND_EXEC:
            items.append(Item(k, t, DATA))
            j = k + 1
            while j < n and args[j].text not in (";", "+"):
                j += 1
            command = args[k + 1 : j]
            for index in range(k + 1, j):
                items.append(Item(index, args[index].text, DATA))  # judged in the command below
            if j < n:
                items.append(Item(j, args[j].text, DATA))
            # `{}` is every path find visits below a start path that passed the tests before
            # `-exec`: the judge reads it as `-delete`'s (`source`: the words holding `{}`).
            placeholders = tuple(i for i, w in enumerate(command) if "{}" in w.text)
            for start in starts:
                argv = tuple(_placeholder(w, start) for w in command)
                if argv:
                    narrowed = narrowing and names
                    extra.append(Extra("command", rule="find" + t, argv=argv,
                                       path=below[id(start)] if narrowed else start.text,
                                       pattern=start.pattern, names=tuple(names) if narrowing else (),
                                       source=placeholders))
            k = j + 1
        else:
            items.append(Item(k, t, DATA))
            k += 1
    if deletes:
        if not (narrowing and names):
            # The start paths are what `-delete` removes (and everything below them); with
            # `-name` filters only matching names go, which the judge checks on disk.
            items = [Item(it.index, it.text, DELETE) if it.role == READ and args[it.index] in starts else it
                     for it in items]
        for start in starts:
            extra.append(Extra(DELETE, path=below[id(start)] if narrowing and names else start.text,
                               pattern=start.pattern, tree=True, rule="find-delete",
                               names=tuple(names) if narrowing else ()))
    # What it prints, for a stage it feeds (`find … | xargs rm`: see listers.py).
    for start in starts:
        if formatted or start.opaque or unproven is not None:
            extra.append(Extra("list", path="/", rule="find"))  # any path at all
            break
        extra.append(Extra("list", path=start.text, pattern=start.pattern, rule="find",
                           names=tuple(names) if narrowing else ()))
    return Effects(tuple(items), tuple(extra), unproven)


# fd (fdfind): `fd [OPTIONS] [PATTERN] [PATH…] -x|-X CMD… [;]` runs CMD once per path found
# (`--exec`) or once with all of them (`--exec-batch`), `{}` the path, or appended when CMD has no
# placeholder. Its options that take a value; the others are flags.
_FD_VALUES = frozenset({"-e", "--extension", "-t", "--type", "-E", "--exclude", "-d", "--max-depth",
                        "--min-depth", "--exact-depth", "-S", "--size", "--changed-within", "--changed-before",
                        "--change-newer-than", "--change-older-than", "--newer", "--older", "-o", "--owner",
                        "--ignore-file", "-c", "--color", "-j", "--threads", "--max-results",
                        "--base-directory", "--path-separator", "--search-path", "--format",
                        "--max-buffer-time", "--batch-size", "--hyperlink", "--and"})
_FD_EXEC = {"-x": "fd -x", "--exec": "fd --exec", "-X": "fd -X", "--exec-batch": "fd --exec-batch"}
# `{}` the path; `{/}` its base name, `{//}` its directory, `{.}` and `{/.}` without the extension.
_FD_PLACEHOLDER = LazyPattern(r"\{(?:/|//|\.|/\.)?\}")


def fd_commands(args: Sequence[Arg]) -> list[Extra]:
    """The commands `fd … -x|-X CMD` runs (the walk judges each as `find -exec`'s: `Extra("command",
    …)`, `{}` every path below a search path), or none. The search paths are the operands after
    the pattern (`--search-path`), or `.`; with `--base-directory DIR`, below DIR. Hidden and
    ignored files, which fd skips by default, are not told apart (fail-closed); a single `-e EXT`
    or a `-g` glob narrows the names as find's `-name` does; `{/}`, `{/.}` (a base name, taken in
    the directory fd runs in), `{.}` and `{//}` do not narrow."""
    words: list[Arg] = []
    commands: list[tuple[str, list[Arg]]] = []
    extensions: list[str] = []
    searches: list[Arg] = []
    base = None
    glob = full = False
    k = 0
    n = len(args)
    while k < n:
        a = args[k]
        t = a.text
        option, equals, value = t.partition("=")
        if t in _FD_EXEC or not a.opaque and t[:2] in ("-x", "-X") and len(t) > 2 and not t.startswith("--"):
            j = k + 1
            first = [] if t in _FD_EXEC else [Arg(t[2:], None, a.opaque, a.count, a.word)]
            while j < n and args[j].text != ";":
                j += 1
            commands.append((_FD_EXEC.get(t, "fd " + t[:2]), [*first, *args[k + 1 : j]]))
            k = j + 1
            continue
        if t == "--":
            words.extend(args[k + 1 :])
            break
        if t.startswith("-") and t != "-" and not a.opaque:
            if option in _FD_VALUES:
                v = value if equals else (args[k + 1].text if k + 1 < n else "")
                if option in ("-e", "--extension"):
                    extensions.append(v)
                elif option == "--base-directory":
                    base = args[k + 1] if not equals and k + 1 < n else Arg(value, None, a.opaque, a.count, a.word)
                elif option == "--search-path" and k + 1 < n:
                    searches.append(args[k + 1] if not equals else Arg(value, None, a.opaque, a.count, a.word))
                k += 1 if equals else 2
                continue
            if not t.startswith("--") and len(t) > 2 and t[-1] in "etEdSoc" and t[1:-1].isalpha():
                k += 2  # (a bundle ending in an option that takes the next word: `-He sh`)
                if t[-1] == "e" and k - 1 < n:
                    extensions.append(args[k - 1].text)
                glob = glob or "g" in t
                full = full or "p" in t
                continue
            glob = glob or option in ("-g", "--glob") or not t.startswith("--") and "g" in t[1:]
            full = full or option in ("-p", "--full-path") or not t.startswith("--") and "p" in t[1:]
            k += 1
            continue
        words.append(a)
        k += 1
    if not commands:
        return []
    pattern, paths = (words[0], words[1:]) if words else (None, [])
    starts = [*paths, *searches] or [Arg(".", None, False, ONE, args[0].word if args else None)]
    if base is not None:
        starts = [Arg(s.text if s.text.startswith("/") else base.text.rstrip("/") + "/" + s.text, None,
                      s.opaque or base.opaque, s.count, s.word) for s in starts]
    names: list[str] = []
    if len(extensions) == 1 and extensions[0]:
        names.append("i:*." + extensions[0].lstrip("."))
    if glob and pattern is not None and not full and not pattern.opaque and "/" not in pattern.text:
        names.append(pattern.text)
    out: list[Extra] = []
    for rule, command in commands:
        if not command:
            continue
        if not any(_FD_PLACEHOLDER().search(w.text) for w in command):
            command = [*command, Arg("{}", None, False, ONE, command[-1].word)]
        placeholders = tuple(i for i, w in enumerate(command) if _FD_PLACEHOLDER().search(w.text))
        exact = all(m.group(0) == "{}" for w in command for m in _FD_PLACEHOLDER().finditer(w.text))
        basenames = any(m.group(0) in ("{/}", "{/.}") for w in command for m in _FD_PLACEHOLDER().finditer(w.text))
        here = [Arg(".", None, False, ONE, command[0].word)] if basenames else []
        for start in [*starts, *here]:
            argv = tuple(Arg(_FD_PLACEHOLDER().sub(lambda _m: start.text, w.text), None, w.opaque or start.opaque,
                             w.count, w.word) if _FD_PLACEHOLDER().search(w.text) else w for w in command)
            out.append(Extra("command", rule=rule, argv=argv, path=start.text, pattern=start.pattern,
                             names=tuple(names) if exact else (), source=placeholders))
    return out


def _placeholder(word: Arg, start: Arg) -> Arg:
    """A `find -exec` word with `{}` standing for the start path (and what lies below it)."""
    if "{}" not in word.text:
        return word
    text = word.text.replace("{}", start.text)
    pattern = None
    if start.pattern is not None:
        pattern = word.text.replace("{}", start.pattern)
    return Arg(text, pattern, word.opaque or start.opaque, word.count, word.word)


_TAR_OPTIONS = (
    "-f,--file=read -C,--directory=chdir --strip-components=data -T,--files-from=read "
    "-X,--exclude-from=read --exclude=data --include=data -I,--use-compress-program=exec "
    "--to-command=exec:unproven --checkpoint-action=data --info-script,--new-volume-script,-F=exec:unproven "
    "--rsh-command=exec:unproven --remove-files:delete-sources -O,--to-stdout:stdout "
    "--transform,--xform=data -g,--listed-incremental=write:dest-tree -N,--newer,--after-date=data "
    "--newer-mtime=data --owner=data --group=data --mode=data --mtime=data -b,--blocking-factor=data "
    "-H,--format=data -V,--label=data -L,--tape-length=data -K,--starting-file=data "
    "--checkpoint=?data --exclude-vcs --exclude-vcs-ignores --exclude-caches --anchored "
    "--wildcards --no-wildcards --occurrence=?data --record-size=data --sort=data --xattrs "
    "--no-xattrs --acls --selinux --numeric-owner --one-file-system --sparse --totals=?data "
    "--warning=data --index-file=write --backup=?data --suffix=data --atime-preserve=?data "
    "--delete:list -c,--create -x,--extract,--get -t,--list -r,--append -u,--update "
    "-A,--catenate,--concatenate -d,--diff,--compare -z,--gzip,--gunzip -j,--bzip2 -J,--xz "
    "--zstd --lzma --lzip --lzop -Z,--compress -a,--auto-compress -v,--verbose -k,--keep-old-files "
    "--keep-newer-files --overwrite --overwrite-dir -P,--absolute-names -h,--dereference "
    "-p,--preserve-permissions -s,--same-order --no-same-owner --same-owner "
    "--no-same-permissions -m,--touch -W,--verify -S -w,--interactive -o -U,--unlink-first "
    "--recursive-unlink -B,--read-full-records -i,--ignore-zeros --ignore-failed-read "
    "--no-recursion --recursion --null -n,--seek --skip-old-files --show-transformed-names "
    "--utc --full-time -R,--block-number --quoting-style=data --no-auto-compress -l "
    "--check-links --force-local -M,--multi-volume -G,--incremental:dest-tree --ignore-case "
    "--no-ignore-case --version --help --usage --show-defaults -?"
)
_TAR_MODEL = Model("data...", _TAR_OPTIONS)
_TAR_MODES = {"-c": "c", "--create": "c", "-x": "x", "--extract": "x", "--get": "x",
              "-t": "t", "--list": "t", "-r": "r", "--append": "r", "-u": "u", "--update": "u",
              "-A": "A", "--catenate": "A", "--concatenate": "A", "-d": "d", "--diff": "d",
              "--compare": "d", "--delete": "D"}
# Old-style bundles (`tar xzf a.tgz`): the letters that take the next words, in order.
_TAR_OLD_ARGS = frozenset("fbCTXgKNVLH")
COMPRESSORS = frozenset({"gzip", "gunzip", "bzip2", "bunzip2", "xz", "unxz", "zstd", "unzstd",
                         "lz4", "lzip", "lzop", "pigz", "unpigz", "pbzip2", "pixz", "brotli", "lzma"})


def _tar(name: str, args: Sequence[Arg], model: Model, env: Env) -> Effects:
    argv = list(args)
    prefix: list[Item] = []
    # Old style: a first word without a dash is a bundle of option letters.
    if argv and not argv[0].text.startswith("-") and not argv[0].opaque and argv[0].text.isalpha():
        letters = argv[0].text
        rebuilt: list[Arg] = []
        rest = argv[1:]
        taken = 0
        for letter in letters:
            rebuilt.append(Arg("-" + letter, None, False, ONE, argv[0].word))
            if letter in _TAR_OLD_ARGS and taken < len(rest):
                rebuilt.append(rest[taken])
                taken += 1
        argv = rebuilt + rest[taken:]
        prefix = []
    parsed = read_options(_TAR_MODEL, argv)
    modes = set()
    archive: str | None = None
    dirs: list[str] = []
    strip = 0
    transformed = False
    absolute = False
    unproven = None
    for k, a in enumerate(argv):
        t = a.text
        if t.startswith("--"):
            key = t.split("=", 1)[0]
            if key in _TAR_MODES:
                modes.add(_TAR_MODES[key])
            opt = long_option(_TAR_MODEL.options, key) if key not in _TAR_MODEL.options else _TAR_MODEL.options[key]
            if opt is not None and key not in _TAR_MODES:
                for mode_key, mode in _TAR_MODES.items():
                    if mode_key.startswith("--") and _TAR_MODEL.options.get(mode_key) is opt and mode_key.startswith(key):
                        modes.add(mode)
        elif t.startswith("-") and not a.opaque:
            for letter in t[1:]:
                if "-" + letter in _TAR_MODES:
                    modes.add(_TAR_MODES["-" + letter])
                opt = _TAR_MODEL.options.get("-" + letter)
                if opt is not None and opt.arg:
                    break
        key, eq, value = t.partition("=")
        if len(key) >= 5 and "--strip-components".startswith(key):  # (`--strip 1`, `--str=1`)
            if not eq and k + 1 < len(argv):
                value = argv[k + 1].text if not argv[k + 1].opaque else ""
            try:
                strip = int(value)
            except ValueError:
                transformed = True
        if len(key) > 3 and ("--transform".startswith(key) or "--xform".startswith(key)):
            transformed = True  # (tar takes any unambiguous abbreviation: `--trans=…`)
        elif name == "bsdtar" and t.startswith("-s") and not t.startswith("--"):
            transformed = True  # bsdtar's `-s /old/new/` renames members
        if t in ("-P", "--absolute-names"):
            absolute = True
        if t.startswith("--checkpoint-action=") and "exec" in t:
            unproven = "a checkpoint action runs a program"
    for it in parsed.items:
        if it.role == READ and option_of(argv, it) in ("-f", "--file"):
            archive = it.text
        elif it.role == CHDIR:
            dirs.append(it.text)
        elif it.role == EXEC and option_of(argv, it) in ("-I", "--use-compress-program"):
            if it.text.split()[:1] and it.text.split()[0].rsplit("/", 1)[-1] not in COMPRESSORS:
                unproven = "the compression program is not a known compressor"
    stdout = "stdout" in parsed.effects
    if "unproven" in parsed.effects:  # (before the roles: a program it runs keeps its `exec` role)
        unproven = unproven or "an option that runs a program"
    items: list[Item] = list(prefix)
    mode = next(iter(modes)) if len(modes) == 1 else ""
    extra: list[Extra] = []
    for it in parsed.items:
        role = it.role
        if role == "":
            role = READ if mode in ("c", "r", "u", "A") else DATA
            if "delete-sources" in parsed.effects and mode in ("c", "r", "u"):
                role = DELETE
        elif role == READ and option_of(argv, it) in ("-f", "--file") and mode in ("c", "r", "u", "A", "D"):
            role = WRITE
        elif role == EXEC:
            role = DATA if unproven is None else EXEC
        items.append(Item(_orig_index(args, argv, it.index), it.text, role, it.whole))
    if "unproven" in parsed.effects:
        unproven = "an option that runs a program"
    if not mode:
        unproven = unproven or "no single operation mode (-c, -x, -t …) is given"
    if mode == "x" and not stdout:
        if archive in (None, "-") and env.stdin_file is not None and not env.heredocs and not env.piped:
            archive = env.stdin_file  # (round 9) `tar -xf - -C "$D" < a.tar`: the archive is a.tar
        source = ("tar", archive if archive not in (None, "-") else None, strip, transformed, absolute)
        for directory in dirs[-1:] or ["."]:
            extra.append(Extra("extract", path=directory, tree=True, rule="archive-extract", source=source))
            if "dest-tree" in parsed.effects:
                # `-G`/`-g`: an incremental extraction deletes what a directory member's listing
                # lacks, below any directory of the archive (`./` is the directory itself).
                extra.append(Extra(DELETE, path=directory, tree=True, rule="dest-tree"))
    if "delete-sources" in parsed.effects and mode in ("c", "r", "u") and any(
            option_of(argv, it) in ("-T", "--files-from") and it.text != "-"
            for it in parsed.items if it.role == READ):
        # `--remove-files -T LIST` removes the files the list names, which are not read here
        # (`-T -` takes them from stdin: the pipeline's lister is judged, "Listers").
        for directory in dirs or ["."]:
            extra.append(Extra(DELETE, path=directory, tree=True, rule="dest-tree"))
    if parsed.unknown:
        unproven = unproven or f"option {parsed.unknown[0]} is not in the model"
    return Effects(tuple(items), tuple(extra), unproven)


def _orig_index(args: Sequence[Arg], argv: Sequence[Arg], index: int) -> int:
    """Map an index in a rebuilt argv (tar's old style) back to the caller's argv."""
    target = argv[index]
    for k, a in enumerate(args):
        if a is target:
            return k
    return 0


_UNZIP_LIST = frozenset("lvtzZpc")


def _unzip(name: str, args: Sequence[Arg], model: Model, env: Env) -> Effects:
    items: list[Item] = []
    archive: str | None = None
    directory = "."
    listing = False
    junk = False
    excluding = False
    unproven = None
    k = 0
    n = len(args)
    while k < n:
        a = args[k]
        t = a.text
        if a.opaque and archive is None:
            unproven = "a word of unknown value"
        if t == "-d" and k + 1 < n:
            items.append(Item(k, t, DATA))
            items.append(Item(k + 1, args[k + 1].text, CHDIR))
            directory = args[k + 1].text
            k += 2
            continue
        if t.startswith("-d") and len(t) > 2:
            items.append(Item(k, t[2:], CHDIR, False))
            directory = t[2:]
            k += 1
            continue
        if t == "-x":
            excluding = True
            items.append(Item(k, t, DATA))
        elif t in ("-P",) and k + 1 < n:
            items.append(Item(k, t, DATA))
            items.append(Item(k + 1, args[k + 1].text, DATA))
            k += 1
        elif t.startswith("-") and len(t) > 1 and not excluding:
            letters = t[1:]
            if set(letters) & _UNZIP_LIST:
                listing = True
            if "j" in letters:
                junk = True
            items.append(Item(k, t, DATA))
        elif archive is None:
            archive = t
            items.append(Item(k, t, READ))
        else:
            items.append(Item(k, t, DATA))  # member names or exclusions
        k += 1
    extra: list[Extra] = []
    if not listing:
        extra.append(Extra("extract", path=directory, tree=True, rule="archive-extract",
                           source=("zip", archive, 0, False, junk)))
    return Effects(tuple(items), tuple(extra), unproven)


_SUFFIXES = {"gzip": (".gz", ".tgz", ".taz", "-gz", ".z", "-z", "_z"), "bzip2": (".bz2", ".tbz", ".tbz2", ".bz"),
             "xz": (".xz", ".txz"), "lzma": (".lzma", ".tlz"), "zstd": (".zst", ".tzst"),
             "lz4": (".lz4",), "compress": (".Z", ".taZ"),
             # (round r8: lzip 1.23, lzop 1.04 and brotli 1.0.9 had no row: `cd ci && lzip -d
             # gate.sh.lz` passed and wrote ci/gate.sh)
             "lzip": (".lz", ".tlz"), "lzop": (".lzo", ".tzo"), "brotli": (".br",)}
_FAMILY = {"gzip": "gzip", "gunzip": "gzip", "zcat": "gzip", "pigz": "gzip", "unpigz": "gzip",
           "bzip2": "bzip2", "bunzip2": "bzip2", "bzcat": "bzip2", "xz": "xz", "unxz": "xz",
           "xzcat": "xz", "lzma": "lzma", "unlzma": "lzma", "lzcat": "lzma", "zstd": "zstd",
           "unzstd": "zstd", "zstdcat": "zstd", "lz4": "lz4", "unlz4": "lz4", "lz4cat": "lz4",
           "compress": "compress", "uncompress": "compress", "lzip": "lzip", "plzip": "lzip", "lunzip": "lzip",
           "clzip": "lzip", "lzop": "lzop", "brotli": "brotli", "pbzip2": "bzip2", "lbzip2": "bzip2"}
_DECOMPRESSORS = frozenset({"gunzip", "zcat", "unpigz", "bunzip2", "bzcat", "unxz", "xzcat", "unlzma",
                            "lzcat", "unzstd", "zstdcat", "unlz4", "lz4cat", "uncompress", "lunzip"})
_COMPRESS_OPTIONS = ("-c,--stdout,--to-stdout:stdout -d,--decompress,--uncompress:decompress "
                     "-k,--keep:keep --rm:remove -t,--test:list -l,--list:list -S,--suffix=data "
                     "-o=write -r,--recursive:recursive -f,--force -q,--quiet -v,--verbose -n,--no-name "
                     "-N,--name:stored-name -1 -2 -3 -4 -5 -6 -7 -8 -9 --fast --best -T,--threads=data "
                     "-z,--compress -e,--extreme -M,--memory=data --format=data -F=data -C,--check=data "
                     "-b,--blocksize=data -p,--processes=data --long=?data -D=read --ultra --no-progress "
                     "--sparse --no-sparse --rsyncable -s --small -Q --single-stream --no-sync -L "
                     "-m,--multiple:multiple")
_COMPRESS_MODEL = Model("read...", _COMPRESS_OPTIONS + " -j:remove")
# lzop keeps its input (`-U` removes it), writes below `-pDIR` (`-p`: the directory it runs
# in), and restores the name (`-N`) or path (`-P`; `-x` is `-dPp`) its header stores.
_LZOP_MODEL = Model("read...", "-c,--stdout,--to-stdout:stdout -d,--decompress,--uncompress:decompress "
                    "-x,--extract:decompress -t,--test:list -l,--list:list -o,--output=write -p=?chdir "
                    "-P:stored-name -N,--name:stored-name -n,--no-name -S,--suffix=data -U,--delete:remove "
                    "-k,--keep:keep -f,--force -q,--quiet -v,--verbose -1 -2 -3 -4 -5 -6 -7 -8 -9 -I -V -h -L "
                    "--no-checksum --no-mode --no-time --fast --best")


def _compress(name: str, args: Sequence[Arg], model: Model, env: Env) -> Effects:
    family = _FAMILY.get(name, "gzip")
    parsed = read_options(_LZOP_MODEL if family == "lzop" else _COMPRESS_MODEL, args)
    effects = parsed.effects
    stdout = "stdout" in effects or "list" in effects or name.endswith("cat")
    decompress = "decompress" in effects or name in _DECOMPRESSORS
    keep = "keep" in effects or (family in ("zstd", "lz4", "lzop", "brotli") and "remove" not in effects)
    # lzop's output directory (`-pDIR`, `-p`, `-x`): derived names land there
    into_dir = next((it.text or "." for it in parsed.items if it.role == CHDIR and it.option == "-p"), None)
    lzop_names = False  # (lzop 1.04 restores a stored path below the output directory, `/` and `..` dropped)
    if family == "lzop":
        letters = "".join(a.text[1:] for a in args if a.text[:1] == "-" and a.text[1:2] != "-" and not a.opaque)
        lzop_names = "stored-name" in effects or "x" in letters
        if into_dir is None and ("x" in letters or any(a.text == "-p" for a in args)):
            into_dir = "."
    if family == "lz4" and len(parsed.operands) == 2 and "multiple" not in effects and not stdout:
        # `lz4 [-d] IN OUT`: the second operand is the output
        first, second = parsed.operands
        roles = {first: READ if keep else DELETE, second: WRITE}
        return Effects(assign_roles(parsed.items, roles), (), unknown_reason(parsed))
    suffixes = _SUFFIXES[family]
    custom = [it.text for it in parsed.items if it.role == DATA and option_of(args, it) in ("-S", "--suffix")]
    if custom:
        suffixes = (custom[-1],) + suffixes
    output = [it.text for it in parsed.items if it.role == WRITE]
    items: list[Item] = []
    # `-N`/`--name`, or GZIP's options (`Env.options`; "?": of unknown value) holding one
    stored_name = family == "gzip" and ("stored-name" in effects or any(
        o == "?" or o[:1] == "-" and o[1:2] != "-" and "N" in o or len(o) > 3 and "--name".startswith(o)
        for o in env.options))
    extra: list[Extra] = []
    for it in parsed.items:
        if it.role != "":
            items.append(it)
            continue
        a = args[it.index]
        if stdout or a.text == "-":
            items.append(Item(it.index, it.text, READ))
            continue
        items.append(Item(it.index, it.text, READ if keep else DELETE))
        if "recursive" in effects:
            extra.append(Extra(WRITE, path=a.text, pattern=a.pattern, tree=True, rule="compress"))
            continue
        if output:
            continue
        if lzop_names and decompress:
            # (the header's name or path: not read; `-P` may hold directories)
            head = a.text.rpartition("/")[0] or "."
            extra.append(Extra(WRITE, path=into_dir or head, tree=True, rule="named-by-data"))
        if into_dir is not None:
            # `lzop -d -pDIR x.lzo`: the derived name, in DIR
            base = (a.pattern or escape_pattern(a.text)).rpartition("/")[2]
            if decompress:
                derived = decompressed_pattern(base, suffixes)
            else:
                derived = base + escape_suffix(suffixes[0])
            extra.append(Extra(WRITE, path=into_dir, pattern=escape_pattern(into_dir.rstrip("/")) + "/" + derived,
                               rule="compress"))
            continue
        if decompress:
            if stored_name and not a.opaque and a.pattern is None:
                # `gunzip -N` (or with GZIP=-N on the line) names the output as the gzip header
                # says, in the input's directory (disk._gzip_name)
                head, slash, _ = a.text.rpartition("/")
                extra.append(Extra("extract", path=(head + slash) or ".", tree=True, rule=f"{name} -N",
                                   source=("gz", a.text, 0, False, False)))
            elif stored_name and a.pattern is not None:
                head, slash, _ = a.pattern.rpartition("/")
                extra.append(Extra(WRITE, path=a.text, pattern=head + slash + "*", rule=f"{name} -N"))
            for suffix in suffixes:
                if a.text.endswith(suffix) and len(a.text) > len(suffix):
                    stem = a.text[: -len(suffix)] + (".tar" if suffix.startswith(".t") and suffix not in (".tar",) and len(suffix) > 3 else "")
                    extra.append(Extra(WRITE, path=stem, rule="compress"))
                    break
            else:
                if a.pattern is not None or a.opaque:
                    extra.append(Extra(WRITE, path=a.text, pattern=a.pattern, rule="compress"))
            if a.pattern is not None:
                extra.append(Extra(WRITE, path=a.text, pattern=decompressed_pattern(a.pattern, suffixes),
                                   rule="compress"))
        else:
            pattern = a.pattern + escape_suffix(suffixes[0]) if a.pattern is not None else None
            extra.append(Extra(WRITE, path=a.text + suffixes[0], pattern=pattern, rule="compress"))
    unproven = f"option {parsed.unknown[0]} is not in the model" if parsed.unknown else None
    return Effects(tuple(items), tuple(extra), unproven)


def decompressed_pattern(pattern: str, suffixes: Sequence[str]) -> str:
    """What a decompressor writes for each match of a glob operand: the glob without the
    suffix (`gunzip ci/*.gz` writes `ci/*`, which can be ci/gate.sh), or, for a glob that
    does not end in one, any name in its directory."""
    for suffix in suffixes:
        escaped = escape_suffix(suffix)
        if pattern.endswith(escaped) and len(pattern) > len(escaped):
            stem = pattern[: -len(escaped)]
            return stem + ".tar" if suffix.startswith(".t") and len(suffix) > 3 else stem
    head, slash, _ = pattern.rpartition("/")
    return head + slash + "*"


def escape_suffix(text: str) -> str:
    return "".join("\\" + c if c in "*?[]\\(){}|!@+" else c for c in text)


_PATCH_OPTIONS = ("-p,--strip=data -i,--input=read -o,--output=write -d,--directory=chdir "
                  "-r,--reject-file=write -B,--prefix=data -Y,--basename-prefix=data "
                  "-z,--suffix=data -D,--ifdef=data -F,--fuzz=data -V,--version-control=data "
                  "--read-only=data --quoting-style=data -g,--get=data --dry-run:dry-run "
                  "-R,--reverse -N,--forward -f,--force -t,--batch -s,--quiet,--silent "
                  "-b,--backup --backup-if-mismatch --no-backup-if-mismatch -E,--remove-empty-files "
                  "-l,--ignore-whitespace -u,--unified -c,--context -e,--ed -n,--normal "
                  "--binary --follow-symlinks --posix --merge=?data -Z,--set-utc -T,--set-time "
                  "--verbose -x,--debug=data")
_PATCH_MODEL = Model("write read", _PATCH_OPTIONS)


def _patch(name: str, args: Sequence[Arg], model: Model, env: Env) -> Effects:
    parsed = read_options(_PATCH_MODEL, args)
    operands = parsed.operands
    items: list[Item] = []
    input_file = None
    directory = "."
    strip = None
    for it in parsed.items:
        option = option_of(args, it)
        if it.role == READ and option in ("-i", "--input"):
            input_file = it.text
        if it.role == CHDIR:
            directory = it.text
        if it.role == DATA and option in ("-p", "--strip"):
            try:
                strip = int(it.text)
            except ValueError:
                strip = None
        role = it.role
        if role == "":
            role = WRITE if operands and it.index == operands[0] else READ
            if len(operands) >= 2 and it.index == operands[1]:
                input_file = it.text
        items.append(Item(it.index, it.text, role, it.whole))
    extra: list[Extra] = []
    unproven = f"option {parsed.unknown[0]} is not in the model" if parsed.unknown else None
    if "dry-run" in parsed.effects:
        items = [Item(it.index, it.text, READ if it.role == WRITE else it.role, it.whole) for it in items]
        return Effects(tuple(items), (), unproven)
    spec = _patch_backup_spec(parsed, args)
    if spec == (None,):
        extra.append(Extra(WRITE, path="/", tree=True, rule="backup"))
    # (round 9) `patch $O -p0 < p.diff`: a first operand of unknown value may be no word at all
    # (or an option, `-dci`: the walk's `unknown_directory`), and the patch comes from stdin
    if not operands or args[operands[0]].opaque and args[operands[0]].count == ANY:
        extra.append(Extra("patch", path=directory, tree=True, rule="patch",
                           source=(*patch_source(input_file, env, strip, ""),
                                   *((spec,) if _patch_backup_option(args) else ()))))
    elif not args[operands[0]].opaque:
        a = args[operands[0]]
        if not _patch_backup_option(args):
            # no backup option: FILE.orig when the patch applies with a mismatch
            if a.pattern is None:
                extra.append(Extra(WRITE, path=a.text + ".orig", rule="backup"))
        else:
            name = a.pattern if a.pattern is not None else escape_pattern(a.text)
            extra.extend(Extra(WRITE, path=a.text, pattern=pattern, rule="backup")
                         for pattern in patch_backups(name, spec))
    return Effects(tuple(items), tuple(extra), unproven)


_PATCH_BACKUPS = frozenset({"-b", "--backup", "-z", "--suffix", "-B", "--prefix", "-Y", "--basename-prefix",
                            "-V", "--version-control", "--backup-if-mismatch"})


def _patch_backup_option(args: Sequence[Arg]) -> bool:
    """Does patch's command line choose how backups are made (`-b`, `-z .sh`, `-B ci/` …)?"""
    for a in args:
        t = a.text
        if t == "--":
            return False
        if t.startswith("--"):
            name = t.split("=", 1)[0]
            if len(name) > 3 and any(option.startswith(name) for option in _PATCH_BACKUPS if option.startswith("--")):
                return True
        elif t.startswith("-"):
            for letter in t[1:]:
                if letter in "bzBYV":
                    return True
                if letter in "pidorDFgx":
                    break
    return False


def _patch_backup_spec(parsed, args: Sequence[Arg]) -> tuple:
    """What names patch's backups of a file take: `-B PREFIX` (PREFIX + the name as given),
    `-Y PREFIX` (PREFIX before the base name), else the name and a suffix (`-z`'s,
    `SIMPLE_BACKUP_SUFFIX`'s, `.orig`, numbered `.~N~`: patch makes one on a mismatch even
    without `-b`). A prefix of unknown value: None (anywhere)."""
    prefixes = []
    for it in parsed.items:
        option = option_of(args, it)
        if it.role == DATA and option in ("-B", "--prefix", "-Y", "--basename-prefix"):
            if args[it.index].opaque:
                return (None,)
            prefixes.append(("B" if option in ("-B", "--prefix") else "Y", it.text))
    return tuple(prefixes)


def patch_backups(name: str, spec: tuple) -> list[str]:
    """The patterns of the backups patch may make of the file `name` (a pattern), after
    `_patch_backup_spec` (a prefix of unknown value is judged as a write of every path)."""
    if spec[:1] == (None,):
        return []
    out = [name + "*"]
    for kind, prefix in spec:
        if kind == "B":
            out.append(escape_pattern(prefix) + name)
        else:
            head, slash, base = name.rpartition("/")
            out.append(head + slash + escape_pattern(prefix) + base)
    return out


def patch_source(input_file: str | None, env: Env, strip: int | None, prefix: str) -> tuple:
    """Where a patch comes from: ('file', path) or ('text', body) or ('stdin',) (unknown)."""
    if input_file is not None and input_file != "-":
        return ("file", input_file, strip, prefix)
    if env.heredocs and len(env.heredocs) == 1 and env.stdin_file is None:
        return ("text", env.heredocs[0], strip, prefix)
    if env.stdin_file is not None and not env.heredocs:
        return ("file", env.stdin_file, strip, prefix)
    return ("stdin", None, strip, prefix)


def _apply_patch(name: str, args: Sequence[Arg], model: Model, env: Env) -> Effects:
    """Codex's `apply_patch` (and `applypatch`): a V4A patch, given as its first operand or on
    stdin (a heredoc, a herestring, `< file`); the files it adds, deletes, updates or moves are
    read by the judge from the patch (`Extra(kind="patch", rule="v4a")`), relative to the
    command's directory. Any other operand proves nothing."""
    if args:
        source = ("refused", "its text is not known", None, "") if args[0].opaque else ("text", args[0].text, None, "")
    else:
        source = patch_source(None, env, None, "")
    items = tuple(Item(k, a.text, DATA if k == 0 else UNKNOWN) for k, a in enumerate(args))
    return Effects(items, (Extra("patch", path=".", tree=True, rule="v4a", source=source),))


# The prefix split and csplit give their pieces when the line names none (GNU coreutils 9.1,
# BusyBox): in the directory the command runs in.
_SPLIT_PREFIX = {"split": "x", "csplit": "xx"}


def _split(name: str, args: Sequence[Arg], model: Model, env: Env) -> Effects:
    """`split IN PREFIX`, `csplit -f PREFIX`: the output names are PREFIX and a suffix it
    chooses (`split -a1 x ci/gate.s` writes ci/gate.sa … ci/gate.sz), so the prefix is the
    pattern `PREFIX*` for a writer. Without a prefix it is `x` (split) or `xx` (csplit) in
    the command's directory: `cd .claude/hooks && split -b1 f` writes .claude/hooks/xaa."""
    found = generic(model, args)
    extra = [Extra(WRITE, path=it.text, rule="prefix",
                   pattern=(args[it.index].pattern or escape_pattern(it.text)) + "*")
             for it in found.items if it.role == WRITE and not args[it.index].opaque]
    if not any(it.role in (WRITE, UNKNOWN) for it in found.items):
        prefix = _SPLIT_PREFIX.get(name, "x")
        extra.append(Extra(WRITE, path=prefix, pattern=prefix + "*", rule="prefix"))
    return Effects(found.items, (*found.extra, *extra), found.unproven) if extra else found


def _ln(name: str, args: Sequence[Arg], model: Model, env: Env) -> Effects:
    """ln's row, and its second form: `ln [OPTION]... TARGET` with one operand makes the link in
    the command's directory, named as TARGET's last segment (`cd ci && ln -s /x/gate.sh` writes
    ci/gate.sh; GNU coreutils 9.1, BusyBox). The operand is then linked to, not written."""
    found = generic(model, args)
    parsed = read_options(model, args)
    if len(parsed.operands) != 1 or "target-dir" in parsed.effects:
        return found
    k = parsed.operands[0]
    a = args[k]
    extra = into(".", a, WRITE)
    if "backup" in parsed.effects:
        extra += backups((), extra, args)
    items = found.items if a.opaque else tuple(Item(it.index, it.text, LINK, it.whole, it.option)
                                                if it.index == k and not it.option else it for it in found.items)
    return Effects(items, (*found.extra, *extra), found.unproven)


# GnuPG 2.2's options that take a value (the next word, or `--opt=value`), and those whose value
# is a file it writes; `--homedir` (a directory it writes its keyrings in) stays a mention.
_GPG_VALUES = frozenset({
    "-r", "--recipient", "-R", "--hidden-recipient", "-u", "--local-user", "-o", "--output", "--homedir",
    "--passphrase", "--passphrase-file", "--passphrase-fd", "--pinentry-mode", "--default-key", "--trust-model",
    "--keyring", "--secret-keyring", "--primary-keyring", "--keyserver", "--keyserver-options", "--cipher-algo",
    "--digest-algo", "--compress-algo", "-z", "--compress-level", "--bzip2-compress-level", "--s2k-mode",
    "--s2k-count", "--s2k-digest-algo", "--s2k-cipher-algo", "--status-fd", "--logger-fd", "--status-file",
    "--logger-file", "--log-file", "--attribute-fd", "--attribute-file", "--command-fd", "--command-file",
    "--trusted-key", "--set-filename", "--comment", "--set-notation", "--sig-notation", "--cert-notation",
    "--default-recipient", "--encrypt-to", "--hidden-encrypt-to", "--group", "--agent-program",
    "--dirmngr-program", "--display", "--ttyname", "--ttytype", "--lc-ctype", "--lc-messages", "--weak-digest",
    "--compliance", "--faked-system-time", "--max-output", "--recipient-file", "-f", "--hidden-recipient-file",
    "-F", "--export-options", "--import-options", "--list-options", "--verify-options", "--auto-key-locate",
    "--default-cert-level", "--min-cert-level", "--completes-needed", "--marginals-needed", "--max-cert-depth",
    "--personal-cipher-preferences", "--personal-digest-preferences", "--personal-compress-preferences",
    "--default-preference-list", "--tofu-default-policy", "--request-origin", "--default-new-key-algo",
    "--options", "--default-sig-expire", "--default-cert-expire", "--ask-sig-expire", "--sig-policy-url",
    "--cert-policy-url", "--sig-keyserver-url", "--set-policy-url", "--sender",
})
_GPG_WRITES = frozenset({"-o", "--output", "--status-file", "--logger-file", "--log-file", "--attribute-file"})
_GPG_READS = frozenset({"--passphrase-file", "--recipient-file", "-f", "--hidden-recipient-file", "-F",
                        "--command-file", "--keyring", "--secret-keyring", "--primary-keyring", "--options"})
# Commands that write FILE and a suffix for each FILE operand (`-c x` writes x.gpg), and those
# that write FILE without its suffix (`--decrypt-files x.gpg`, and gpg with no command, which
# guesses: decrypting x.gpg writes x).
_GPG_PRODUCE = frozenset({"-e", "--encrypt", "-c", "--symmetric", "-s", "--sign", "--clear-sign", "--clearsign",
                          "-b", "--detach-sign", "--detach-sig", "--encrypt-files", "--store"})
_GPG_STRIP = (".gpg", ".pgp", ".sig", ".asc")
_GPG_SHORT = {"e": "-e", "c": "-c", "s": "-s", "b": "-b", "d": "-d", "a": "-a", "k": "-k", "K": "-K"}


def _gpg(name: str, args: Sequence[Arg], model: Model, env: Env) -> Effects:
    """gpg (GnuPG 2.2.40): `-o FILE` is written; without it, `-e`/`-c`/`-s`/`--clear-sign`/
    `-b`/`--encrypt-files` on FILE write FILE.gpg (`.asc` with `-a`, `.sig` for a detached
    signature), `--decrypt-files` and a command line with no command (gpg guesses: it decrypts
    an encrypted FILE) write FILE without `.gpg`/`.pgp`/`.sig`/`.asc`, and
    `--use-embedded-filename` the name inside the encrypted data (not read: anywhere). gpg has
    far more options than this reader knows, so nothing else is proven (a mention fails
    closed)."""
    items: list[Item] = []
    commands: set[str] = set()
    operands: list[int] = []
    output = False
    embedded = False
    k = 0
    n = len(args)
    done = False
    while k < n:
        a = args[k]
        t = a.text
        if done or not t.startswith("-") or t == "-":
            operands.append(k)
            k += 1
            continue
        if t == "--":
            items.append(Item(k, t, DATA))
            done = True
            k += 1
            continue
        key, eq, value = t.partition("=") if t.startswith("--") else (t[:2], "", t[2:])
        if key in _GPG_VALUES:
            role = WRITE if key in _GPG_WRITES else READ if key in _GPG_READS else DATA
            output = output or key in ("-o", "--output")
            if eq or value:
                items.append(Item(k, value, role, False, key))
            elif k + 1 < n:
                items.append(Item(k, t, DATA))
                items.append(Item(k + 1, args[k + 1].text, role, True, key))
                k += 1
            k += 1
            continue
        items.append(Item(k, t, DATA))
        if t.startswith("--"):
            commands.add(key)
            embedded = embedded or key == "--use-embedded-filename"
        else:
            for letter in t[1:]:
                commands.add(_GPG_SHORT.get(letter, "-" + letter))
        k += 1
    extra: list[Extra] = []
    if embedded and not output:
        extra.append(Extra(WRITE, path="/", tree=True, rule="named-by-data"))
    produce = bool(commands & _GPG_PRODUCE)
    armor = bool(commands & {"-a", "--armor", "--armour", "--clear-sign", "--clearsign"})
    detached = bool(commands & {"-b", "--detach-sign", "--detach-sig"})
    strip = "--decrypt-files" in commands or not commands & (_GPG_PRODUCE | _GPG_OTHER_COMMANDS)
    for j in operands:
        a = args[j]
        items.append(Item(j, a.text, READ))
        if output or a.text == "-":
            continue
        if produce and not strip:
            suffix = ".asc" if armor else ".sig" if detached else ".gpg"
            pattern = a.pattern + escape_pattern(suffix) if a.pattern is not None else None
            extra.append(Extra(WRITE, path=a.text + suffix, pattern=pattern, rule="gpg"))
        elif strip and not produce:
            if a.opaque or a.pattern is not None:
                head = (a.pattern or "").rpartition("/")[0]
                extra.append(Extra(WRITE, path=a.text, pattern=(head + "/*") if head else "*", rule="gpg"))
                continue
            for suffix in _GPG_STRIP:
                if a.text.endswith(suffix) and len(a.text) > len(suffix):
                    extra.append(Extra(WRITE, path=a.text[: -len(suffix)], rule="gpg"))
                    break
    items.sort(key=lambda it: it.index)
    return Effects(tuple(items), tuple(extra), "gpg's options are not all modelled")


# Commands that neither make FILE.gpg nor strip a suffix: what they write is stdout, the
# keyrings (below --homedir) or -o's file.
_GPG_OTHER_COMMANDS = frozenset({
    "-d", "--decrypt", "--verify", "--verify-files", "-k", "--list-keys", "--list-public-keys", "-K",
    "--list-secret-keys", "--fingerprint", "--list-packets", "--import", "--export", "--export-secret-keys",
    "--export-secret-subkeys", "--recv-keys", "--receive-keys", "--search-keys", "--refresh-keys", "--send-keys",
    "--gen-key", "--generate-key", "--full-gen-key", "--full-generate-key", "--quick-gen-key",
    "--quick-generate-key", "--edit-key", "--delete-keys", "--delete-secret-keys", "--delete-secret-and-public-key",
    "--print-md", "--print-mds", "--gen-random", "--card-status", "--card-edit", "--version", "--help", "-h",
    "--check-sigs", "--list-sigs", "--list-config", "--dump-options", "--gen-revoke", "--generate-revocation",
    "--sign-key", "--lsign-key", "--quick-sign-key", "--quick-add-uid", "--quick-set-expire", "--update-trustdb",
    "--check-trustdb", "--export-ownertrust", "--import-ownertrust", "--enarmor", "--dearmor", "--show-keys",
    "--locate-keys", "--locate-external-keys", "--fetch-keys", "--with-colons", "--list-trustdb", "--batch-import",
})


def _zip(name: str, args: Sequence[Arg], model: Model, env: Env) -> Effects:
    """zip's row; an archive name whose last segment has no `.` gets `.zip` (Info-ZIP 3.0:
    `cd ci && zip gate x` writes ci/gate.zip)."""
    from polydeukes.stdlib.shell.archivers import suffixed_archive

    found = generic(model, args)
    archive = next((it.index for it in found.items if it.role == WRITE and not it.option and it.whole), -1)
    extra = suffixed_archive(args, archive, ".zip")
    return Effects(found.items, (*found.extra, *extra), found.unproven) if extra else found


# ssh-keygen's getopt letters (OpenSSH 9.2p1): those that take a value, and those that do not.
_SSH_KEYGEN_VALUES = frozenset("CDEFIMNOPRVYZabfgmnrstwz")
_SSH_KEYGEN_FLAGS = frozenset("ABHKLQUXceghiklopquvy")
# the modes whose -f file is only read (fingerprint, print, convert, bubblebabble, DNS record,
# find, certificate print, KRL query, PKCS#11, certify with -s, the -Y signature modes)
_SSH_KEYGEN_READS = frozenset("lyeiBrFLQDsY")


def _ssh_keygen(name: str, args: Sequence[Arg], model: Model, env: Env) -> Effects:
    """ssh-keygen (OpenSSH 9.2p1): `-f FILE` is the key (or known_hosts, KRL) it writes or
    rewrites, with FILE.pub beside it and FILE.old (`-R`, `-H`); `-s CA` certifies each public
    key operand as NAME-cert.pub (`.pub` dropped), `-Y sign` writes FILE.sig, `-M` writes its
    operand, `-K` writes `id_*` keys in the directory it runs in, `-A -f PREFIX` the host keys
    below PREFIX. Its operands are otherwise read."""
    items: list[Item] = []
    operands: list[int] = []
    letters: dict[str, str] = {}
    unproven = None
    k = 0
    while k < len(args):
        a = args[k]
        t = a.text
        if a.opaque and t.startswith("-") or t == "--" or not t.startswith("-") or t == "-":
            if t != "--":
                operands.append(k)
            else:
                items.append(Item(k, t, DATA))
            k += 1
            continue
        items.append(Item(k, t, DATA))
        for j in range(1, len(t)):
            letter = t[j]
            if letter in _SSH_KEYGEN_VALUES:
                value = t[j + 1 :]
                if not value and k + 1 < len(args):
                    k += 1
                    value = args[k].text
                    items.append(Item(k, value, WRITE if letter == "f" else READ if letter == "s" else DATA, True,
                                      "-" + letter))
                elif value:
                    items.append(Item(k, value, WRITE if letter == "f" else READ if letter == "s" else DATA, False,
                                      "-" + letter))
                letters[letter] = value
                break
            if letter not in _SSH_KEYGEN_FLAGS:
                unproven = f"option -{letter} is not in the model"
            letters[letter] = ""
        k += 1
    extra: list[Extra] = []
    key = next((it for it in items if it.option == "-f"), None)
    if key is not None and not _SSH_KEYGEN_READS.isdisjoint(letters):
        # (a mode that only reads the key: -l, -y, -e, -s's certificates, -Y …)
        items = [Item(it.index, it.text, READ, it.whole, it.option) if it is key else it for it in items]
        key = None
    if key is not None and "A" in letters:
        extra.append(Extra(WRITE, path=key.text, tree=True, rule="ssh-keygen"))
    elif key is not None and not args[key.index].opaque:
        for suffix in (".pub", ".old"):
            extra.append(Extra(WRITE, path=key.text + suffix, rule="ssh-keygen"))
    if "K" in letters:
        extra.append(Extra(WRITE, path="id_", pattern="id_*", rule="ssh-keygen"))
    for j in operands:
        a = args[j]
        role = WRITE if "M" in letters else READ
        items.append(Item(j, a.text, role))
        if a.opaque or a.pattern is not None:
            if "s" in letters or letters.get("Y") == "sign":
                extra.append(Extra(WRITE, path=a.text, pattern=(a.pattern or "") + "*", rule="ssh-keygen"))
            continue
        if "s" in letters:
            stem = a.text[:-4] if a.text.endswith(".pub") else a.text
            extra.append(Extra(WRITE, path=stem + "-cert.pub", rule="ssh-keygen"))
        elif letters.get("Y") == "sign":
            extra.append(Extra(WRITE, path=a.text + ".sig", rule="ssh-keygen"))
    items.sort(key=lambda it: it.index)
    return Effects(tuple(items), tuple(extra), unproven)


_PERL_RENAME = LazyPattern(r"s(?P<d>[/|#,:!])(?P<a>(?:\\\.|[A-Za-z0-9_~+=-])+)(?P<end>\$?)(?P=d)"
                           r"(?P<b>[A-Za-z0-9_.~+=-]*)(?P=d)[gi]*")
_PERL_LOOKING = LazyPattern(r"(s|y|tr)[^A-Za-z0-9\s].*|.*\$_.*")
_RENAME_FLAGS = frozenset({"-v", "--verbose", "-n", "--no-act", "--nono", "-o", "--no-overwrite",
                           "-i", "--interactive", "-f", "--force", "-l", "--last", "-a", "--all",
                           "--path", "--fullpath", "-h", "--help", "-V", "--version"})


def _rename(name: str, args: Sequence[Arg], model: Model, env: Env) -> Effects:
    """util-linux `rename FROM TO FILES` (`rename.ul`) and perl's `rename EXPR FILES`
    (`prename`, `file-rename`; Debian's `rename`): each file is moved to its name with FROM
    replaced by TO, or with EXPR applied. For FROM/TO, or a plain `s/LITERAL/LITERAL/`, with
    no `/` in either and the files' directories spelled without glob characters or FROM, the
    new names stay in those directories (`rename .bak '' ci/*.bak` writes `ci/*`); a literal
    file is renamed exactly. Anything else (an expression perl runs, a `/` that can move the
    file elsewhere, an option this reader does not know) may write any path."""
    operands = []
    items: list[Item] = []
    anywhere = None
    done = False
    for k, a in enumerate(args):
        if not done and a.text == "--":
            done = True
            items.append(Item(k, a.text, DATA))
        elif not done and a.text.startswith("-") and a.text != "-" and not a.opaque:
            items.append(Item(k, a.text, DATA))
            if a.text not in _RENAME_FLAGS:
                anywhere = f"option {a.text} is not in the model"
        else:
            operands.append(k)
    if not operands:
        return Effects(tuple(items), (), anywhere)
    first = args[operands[0]]
    perl = name in ("prename", "file-rename", "perl-rename") or (
        name == "rename" and _PERL_LOOKING().fullmatch(first.text) is not None)
    take = 1 if perl else 2
    for k in operands[:take]:
        items.append(Item(k, args[k].text, DATA if not args[k].opaque else UNKNOWN))
    files = operands[take:]
    for k in files:
        items.append(Item(k, args[k].text, MOVE))
    src = dst = None
    if any(args[k].opaque for k in operands[:take]):
        anywhere = anywhere or "the renaming is not known"
    elif perl:
        simple = _PERL_RENAME().fullmatch(first.text)
        if simple is None:
            anywhere = anywhere or "perl code computes the new names"
        else:
            src, dst = simple.group("a").replace("\\", ""), simple.group("b")
    else:
        src, dst = first.text, args[operands[1]].text if len(operands) > 1 else ""
        if "/" in src or "/" in dst:
            anywhere = "the new names may be in another directory"
    extra: list[Extra] = []
    if anywhere is None:
        for k in files:
            a = args[k]
            directory, slash, _ = a.text.rpartition("/")
            if a.opaque or (a.pattern is not None and _has_glob(a.pattern.rpartition("/")[0])) or src in directory:
                anywhere = "the new names may be in another directory"
                break
            if a.pattern is None:
                extra.append(Extra(WRITE, path=a.text.replace(src, dst, 1) if src else a.text, rule="rename"))
            else:
                extra.append(Extra(WRITE, path=a.text, pattern=escape_pattern(directory) + slash + "*", rule="rename"))
    if anywhere is not None:
        extra = [Extra(WRITE, path="/", tree=True, rule="rename")]
    return Effects(tuple(sorted(items, key=lambda it: it.index)), tuple(extra), anywhere)


def _has_glob(pattern: str) -> bool:
    """Does a pattern hold an unescaped glob character?"""
    k = 0
    while k < len(pattern):
        if pattern[k] == "\\":
            k += 2
            continue
        if pattern[k] in "*?[":
            return True
        k += 1
    return False


def _compiler(name: str, args: Sequence[Arg], model: Model, env: Env) -> Effects:
    """gcc, clang, ld and friends: `-o FILE` (`-oFILE`) is written; `@FILE` and `-specs=FILE`
    are read, as are the programs `-wrapper` and `-B` name (their texts are read as code by
    scripts.py, `_option_files`); every other word proves nothing (a compiler runs programs)."""
    items: list[Item] = []
    k = 0
    while k < len(args):
        a = args[k]
        t = a.text
        if t == "-o" and k + 1 < len(args):
            items += [Item(k, t, DATA), Item(k + 1, args[k + 1].text, WRITE, True, "-o")]
            k += 2
            continue
        if t.startswith("-o") and len(t) > 2 and name not in ("objcopy",):
            items.append(Item(k, t[2:], WRITE, False, "-o"))
        elif t.startswith("@"):
            items.append(Item(k, t[1:], READ, False, "@"))
        else:
            items.append(Item(k, t, UNKNOWN))
        k += 1
    return Effects(tuple(items), (), "a compiler runs programs")


# -- git ---------------------------------------------------------------------------------------


HANDLERS: dict[str, Callable[[str, Sequence[Arg], Model, Env], Effects]] = {
    "dd": _dd, "sed": _sed, "awk": _awk, "find": _find, "tar": _tar, "unzip": _unzip,
    "compress": _compress, "patch": _patch, "interpreter": interpreter, "split": _split,
    "rename": _rename, "compiler": _compiler, "ln": _ln, "gpg": _gpg, "zip": _zip, "ssh-keygen": _ssh_keygen, "apply_patch": _apply_patch,
}
