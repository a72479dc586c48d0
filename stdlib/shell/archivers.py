"""Effect-model readers for the archivers besides tar and unzip (readers.py): 7-Zip, RAR, cpio,
ar, jar and pax; and the decoders whose outputs are named by their input (uudecode, munpack,
ripmime, uudeview).

Each returns the shape every reader returns (`Effects`). What they extract is an `extract`
extra, as for tar and unzip: the judge lists the members from disk when it can (`jar` is a zip
file, `pax` reads tar formats, `ar` and cpio have their own small formats, uudecode's names are
its `begin` lines, see disk.py) and otherwise — a 7-Zip or RAR archive, whose formats are not
read — the extraction fails closed when its directory holds a protected path
(`UNLISTED_ARCHIVE`); cpio's, pax's and uudecode's names may be absolute or climb with `..`
(`effects.ANYWHERE_KINDS`), so theirs are checked, or fail closed, wherever they run. Before
these rows the programs had no row at all, so `7z x evil.7z` in the project root passed unless
it spelled an entry.
"""

from __future__ import annotations

from collections.abc import Sequence

from polydeukes.stdlib.shell.effects import (
    CHDIR, CREATE, DATA, DELETE, MOVE, READ, UNKNOWN, WRITE, Effects, Env, Extra, Item, Model, into, read_options,
    unknown_reason,
)
from polydeukes.stdlib.shell.expansion import Arg

# The archive kinds whose members disk.py does not read: an extraction of one cannot be listed.
UNLISTED_KINDS = {"7z": "7-Zip", "rar": "RAR"}


def _extract(directory: str, kind: str, archive: str | None, flat: bool = False) -> Extra:
    """Members of `archive` written below `directory` (source as the judge's `deferred` reads it:
    kind, archive, components stripped, names transformed, flattened to their last segment)."""
    return Extra("extract", path=directory or ".", tree=True, rule="archive-extract",
                 source=(kind, archive, 0, False, flat))


def _archive_written(items: Sequence[Item], archive_index: int, files_role: str | None) -> list[Item]:
    """The roles of a command that rewrites its archive operand: that word is written, and the
    data words after it (the files it adds) take `files_role` (read, or delete when the command
    moves them in), or keep theirs when it is None."""
    return [Item(it.index, it.text, WRITE) if it.index == archive_index
            else Item(it.index, it.text, files_role)
            if files_role is not None and it.index > archive_index >= 0 and it.role == DATA else it
            for it in items]


def suffixed_archive(args: Sequence[Arg], index: int, suffix: str) -> list[Extra]:
    """An archiver given an archive name whose last segment has no `.` adds its own suffix
    (`zip gate x` writes gate.zip, Info-ZIP 3.0; `7z a gate x` gate.7z; `rar a gate` gate.rar)."""
    if index < 0 or args[index].text == "-":
        return []
    a = args[index]
    if a.opaque:
        return [Extra(WRITE, path=a.text, pattern=a.pattern, rule="suffix")]
    if "." in a.text.rpartition("/")[2]:
        return []
    pattern = a.pattern + suffix if a.pattern is not None else None
    return [Extra(WRITE, path=a.text + suffix, pattern=pattern, rule="suffix")]


def _unknown_word(args: Sequence[Arg]) -> str | None:
    return "a word of unknown value" if any(a.opaque for a in args) else None


# -- 7-Zip -------------------------------------------------------------------------------------

_7Z_READ = frozenset({"l", "t", "h", "i", "b"})  # list, test, hash, info, benchmark
_7Z_WRITE = frozenset({"a", "u", "d", "rn"})  # add, update, delete, rename: the archive changes


def seven_zip(name: str, args: Sequence[Arg], model: Model, env: Env) -> Effects:
    """`7z <command> [-switches] <archive> [files]`: `x`/`e` extract (e: flat) into `-oDIR`
    or the directory; `a`/`u`/`d`/`rn` rewrite the archive (`-sdel` deletes the files added);
    `l`/`t`/`h`/`i`/`b` only read. Switches start with `-`; `--` ends them."""
    items: list[Item] = []
    command: str | None = None
    archive_index = -1
    output = "."
    to_stdout = delete_sources = False
    unproven = _unknown_word(args)
    switches = True
    for k, a in enumerate(args):
        t = a.text
        if switches and t == "--":
            switches = False
            items.append(Item(k, t, DATA))
        elif switches and t.startswith("-") and len(t) > 1:
            items.append(Item(k, t, DATA))
            lower = t.lower()
            if lower.startswith("-o") and not lower.startswith("-ou"):
                output = t[2:] or "."
                items[-1] = Item(k, output, CHDIR, False, "-o")
            elif lower == "-so":
                to_stdout = True
            elif lower == "-sdel":
                delete_sources = True
        elif command is None:
            command = t.lower()
            items.append(Item(k, t, DATA))
        elif archive_index < 0:
            archive_index = k
            items.append(Item(k, t, READ))
        else:
            items.append(Item(k, t, DATA))  # member names or files to add, settled below
    extra: list[Extra] = []
    archive = args[archive_index].text if archive_index >= 0 else None
    if command in ("x", "e"):
        if not to_stdout:
            extra.append(_extract(output, "7z", archive, flat=command == "e"))
    elif command in _7Z_WRITE:
        items = _archive_written(items, archive_index,
                                 (DELETE if delete_sources else READ) if command in ("a", "u") else None)
        extra.extend(suffixed_archive(args, archive_index, ".7z"))
    elif command not in _7Z_READ:
        unproven = unproven or f"command {command or '(none)'} is not in the model"
    return Effects(tuple(items), tuple(extra), unproven)


# -- RAR ---------------------------------------------------------------------------------------

_RAR_READ = frozenset({"l", "lt", "lb", "lta", "v", "vt", "vb", "vta", "t", "p", "i"})


def rar(name: str, args: Sequence[Arg], model: Model, env: Env) -> Effects:
    """`unrar|rar <command> [-switches] <archive> [files] [path/]`: `x`/`e` extract (e: flat)
    into the trailing `path/` (or `-opDIR`, or the directory); rar's `a`/`u`/`f` write the
    archive and read the files, `m` moves them in (deletes them), `-df` deletes them after
    archiving; `l`/`v`/`t`/`p` only read."""
    items: list[Item] = []
    command: str | None = None
    archive_index = -1
    output = "."
    delete_sources = False
    unproven = _unknown_word(args)
    switches = True
    for k, a in enumerate(args):
        t = a.text
        if switches and t in ("--", "-"):
            switches = False
            items.append(Item(k, t, DATA))
        elif switches and t.startswith("-") and len(t) > 1:
            items.append(Item(k, t, DATA))
            if t.lower().startswith("-op"):
                output = t[3:] or "."
                items[-1] = Item(k, output, CHDIR, False, "-op")
            elif t.lower() == "-df":
                delete_sources = True
        elif command is None:
            command = t.lower()
            items.append(Item(k, t, DATA))
        elif archive_index < 0:
            archive_index = k
            items.append(Item(k, t, READ))
        elif t.endswith("/") and command in ("x", "e"):
            output = t  # a trailing path with a separator is the destination
            items.append(Item(k, t, CHDIR))
        else:
            items.append(Item(k, t, DATA))
    archive = args[archive_index].text if archive_index >= 0 else None
    extra: list[Extra] = []
    if command in ("x", "e"):
        extra.append(_extract(output, "rar", archive, flat=command == "e"))
    elif name == "rar" and command in ("a", "u", "f", "m", "d", "c", "k", "r", "s"):
        moving = command == "m" or delete_sources
        items = _archive_written(items, archive_index,
                                 (DELETE if moving else READ) if command in ("a", "u", "f", "m") else None)
        extra.extend(suffixed_archive(args, archive_index, ".rar"))
    elif command not in _RAR_READ:
        unproven = unproven or f"command {command or '(none)'} is not in the model"
    return Effects(tuple(items), tuple(extra), unproven)


# -- cpio --------------------------------------------------------------------------------------

_CPIO_ARGS = frozenset({"-F", "-O", "-I", "-D", "-H", "-C", "-E", "-M", "-R", "--file", "--format",
                        "--io-size", "--pattern-file", "--message", "--owner", "--directory",
                        "--block-size", "--rsh-command"})


def cpio(name: str, args: Sequence[Arg], model: Model, env: Env) -> Effects:
    """`cpio -i` (copy-in: extracts the archive on stdin, or `-F`/`-I FILE`, into the directory
    or `-D DIR`), `-o` (copy-out: writes an archive to stdout or `-F`/`-O FILE`, names from
    stdin), `-p DIR` (pass-through: copies the files named on stdin into DIR), `-t` (list)."""
    items: list[Item] = []
    mode = ""
    listing = False
    archive: str | None = None
    directory = "."
    unproven = _unknown_word(args)
    # GNU cpio writes absolute names and `../` as they are unless --no-absolute-filenames;
    # -r/--rename asks for each new name on the terminal, --rename-batch-file reads them
    contained = any(a.text == "--no-absolute-filenames" for a in args)
    renamed = any(a.text in ("--rename", "-r") or a.text.startswith("--rename-batch-file")
                  or a.text[:1] == "-" and a.text[1:2] != "-" and "r" in a.text[1:]
                  and not any(c in a.text[1:a.text.index("r") + 1] for c in "FOIDHCEMR") for a in args)
    k = 0
    n = len(args)
    operands: list[int] = []
    while k < n:
        t = args[k].text
        key, has_value, value = t.partition("=") if t.startswith("--") else (t, False, "")
        if key in _CPIO_ARGS or (len(t) > 2 and t[:2] in _CPIO_ARGS and not t.startswith("--")):
            if key.startswith("--"):
                option, attached = key, value if has_value else None
            else:
                option, attached = t[:2], t[2:] or None
            if attached is None and k + 1 < n:
                k += 1
                attached = args[k].text
            items.append(Item(k, attached or "", DATA))
            if option in ("-F", "--file", "-I", "-O"):
                archive = attached
                items[-1] = Item(k, attached or "", READ)  # settled by the mode below
            elif option in ("-D", "--directory"):
                directory = attached or "."
                items[-1] = Item(k, directory, CHDIR)
            elif option in ("-E", "--pattern-file"):
                items[-1] = Item(k, attached or "", READ)
            elif option == "--rsh-command":
                unproven = "a remote shell command is run"
        elif t in ("-i", "--extract"):
            mode = "i"
        elif t in ("-o", "--create"):
            mode = "o"
        elif t in ("-p", "--pass-through"):
            mode = "p"
        elif t in ("-t", "--list"):
            listing = True
        elif t.startswith("-") and not t.startswith("--") and len(t) > 1:
            letters = t[1:]
            for letter in "iop":
                if letter in letters:
                    mode = letter
            listing = listing or "t" in letters
        elif not t.startswith("-"):
            operands.append(k)
        if k < n and (not items or items[-1].index != k):
            items.append(Item(k, t, DATA))
        k += 1
    extra: list[Extra] = []
    if mode == "i" and not listing:
        extra.append(Extra("extract", path=directory or ".", tree=True, rule="archive-extract",
                           source=("cpio" if contained else "cpio-any", archive or env.stdin_file, 0, renamed,
                                   False)))
    elif mode == "o":
        items = [Item(it.index, it.text, WRITE) if it.role == READ and it.text == archive else it for it in items]
    elif mode == "p" and operands:
        destination = args[operands[-1]].text
        items = [Item(it.index, it.text, CHDIR) if it.index == operands[-1] else it for it in items]
        extra.append(Extra("extract", path=destination, tree=True, rule="archive-extract",
                           source=("cpio", None, 0, False, False)))
    elif not listing and mode not in ("i",):
        unproven = unproven or "no single mode (-i, -o, -p, -t) is given"
    return Effects(tuple(items), tuple(extra), unproven)


# -- ar ----------------------------------------------------------------------------------------


def ar(name: str, args: Sequence[Arg], model: Model, env: Env) -> Effects:
    """`ar [-]OPERATION[MODIFIERS] ARCHIVE [MEMBERS]`: `x` extracts into the directory (or
    `--output DIR`), `r`/`q`/`d`/`m`/`s` rewrite the archive (and read the members named),
    `t`/`p` only read."""
    items: list[Item] = []
    unproven = _unknown_word(args)
    operation: str | None = None
    archive_index = -1
    output = "."
    k = 0
    n = len(args)
    while k < n:
        t = args[k].text
        if t.startswith("--output"):
            if "=" in t:
                output = t.partition("=")[2] or "."
                items.append(Item(k, output, CHDIR, False, "--output"))
            elif k + 1 < n:
                items.append(Item(k, t, DATA))
                k += 1
                output = args[k].text or "."
                items.append(Item(k, output, CHDIR, True, "--output"))
            else:
                items.append(Item(k, t, DATA))
        elif t.startswith("--plugin") or t.startswith("--target"):
            items.append(Item(k, t, DATA))
            if "=" not in t and k + 1 < n:
                k += 1
                items.append(Item(k, args[k].text, DATA))
        elif operation is None:
            operation = t.lstrip("-")
            items.append(Item(k, t, DATA))
        elif archive_index < 0:
            archive_index = k
            items.append(Item(k, t, READ))
        else:
            items.append(Item(k, t, DATA))
        k += 1
    op = (operation or "")[:1]
    archive = args[archive_index].text if archive_index >= 0 else None
    extra: list[Extra] = []
    if op == "x":
        extra.append(_extract(output, "ar", archive, flat="P" not in (operation or "")))
    elif op in ("r", "q", "d", "m", "s"):
        items = _archive_written(items, archive_index, READ if op in ("r", "q") else None)
    elif op not in ("t", "p"):
        unproven = unproven or f"operation {operation or '(none)'} is not in the model"
    return Effects(tuple(items), tuple(extra), unproven)


# -- jar ---------------------------------------------------------------------------------------


def jar(name: str, args: Sequence[Arg], model: Model, env: Env) -> Effects:
    """`jar {c|u|x|t}[vfm0Me…] [jarfile] …` (or `--extract --file=F`): a jar is a zip file, so
    `x` lists its members as unzip's are listed; without `f` the jar arrives on stdin; `c`/`u`
    write the jar file and read the files; `t` lists. `-C DIR` (and `--dir`) names where an
    extraction lands."""
    items: list[Item] = []
    unproven = _unknown_word(args)
    mode = ""
    takes_file = False
    archive: str | None = None
    archive_index = -1
    output = "."
    k = 0
    n = len(args)
    while k < n:
        t = args[k].text
        if t.startswith("--"):
            key, _eq, value = t.partition("=")
            if key in ("--extract", "--create", "--update", "--list"):
                mode = {"--extract": "x", "--create": "c", "--update": "u", "--list": "t"}[key]
                items.append(Item(k, t, DATA))
            elif key in ("--file", "--dir"):
                if not _eq and k + 1 < n:
                    items.append(Item(k, t, DATA))
                    k += 1
                    value = args[k].text
                if key == "--file":
                    archive, archive_index = value, k
                    items.append(Item(k, value, READ, not _eq, key))
                else:
                    output = value or "."
                    items.append(Item(k, output, CHDIR, not _eq, key))
            else:
                items.append(Item(k, t, DATA))
        elif k == 0 or (t.startswith("-") and not mode):
            letters = t.lstrip("-")
            mode = next((c for c in letters if c in "cuxt"), mode)
            takes_file = takes_file or "f" in letters
            items.append(Item(k, t, DATA))
        elif t == "-C" and k + 1 < n:
            items.append(Item(k, t, DATA))
            k += 1
            output = args[k].text
            items.append(Item(k, output, CHDIR if mode == "x" else READ))
        elif takes_file and archive_index < 0:
            archive, archive_index = t, k
            items.append(Item(k, t, READ))
        else:
            items.append(Item(k, t, READ if mode in ("c", "u") else DATA))
        k += 1
    extra: list[Extra] = []
    if mode == "x":
        extra.append(_extract(output, "zip", archive))
    elif mode in ("c", "u"):
        items = _archive_written(items, archive_index, None)
    elif mode != "t":
        unproven = unproven or "no mode (c, u, x, t) is given"
    return Effects(tuple(items), tuple(extra), unproven)


# -- pax ---------------------------------------------------------------------------------------


def pax(name: str, args: Sequence[Arg], model: Model, env: Env) -> Effects:
    """`pax -r [-f ARCHIVE]` extracts (tar formats are listed; stdin is not), `pax -w [-f
    ARCHIVE] files` writes an archive, `pax -rw files DIR` copies the files into DIR, plain
    `pax` lists. `-s` rewrites member names: any name."""
    items: list[Item] = []
    unproven = _unknown_word(args)
    reading = writing = renamed = False
    archive: str | None = None
    operands: list[int] = []
    k = 0
    n = len(args)
    while k < n:
        t = args[k].text
        if t.startswith("-") and len(t) > 1 and not t.startswith("--"):
            letters = t[1:]
            reading = reading or "r" in letters
            writing = writing or "w" in letters
            items.append(Item(k, t, DATA))
            taking = next((c for c in letters if c in "fsoxbpB"), None)
            if taking is not None and k + 1 < n:
                k += 1
                if taking == "f":
                    archive = args[k].text
                    items.append(Item(k, archive, READ))
                else:
                    renamed = renamed or taking == "s"
                    items.append(Item(k, args[k].text, DATA))
        else:
            operands.append(k)
            items.append(Item(k, t, DATA))
        k += 1
    extra: list[Extra] = []
    if reading and writing:
        if operands:  # copy mode: each file operand lands below DIR under its own path
            directory = args[operands[-1]].text.rstrip("/") or "/"
            items = [Item(it.index, it.text, CHDIR if it.index == operands[-1] else READ)
                     if it.index in operands else it for it in items]
            for k in operands[:-1]:
                source = args[k].text
                extra.append(Extra(WRITE, path=directory if renamed else directory + "/" + source.lstrip("/"),
                                   tree=True, rule="copy"))
    elif reading:
        extra.append(Extra("extract", path=".", tree=True, rule="archive-extract",
                           source=("pax", archive or env.stdin_file, 0, renamed, False)))
    elif writing:
        items = [Item(it.index, it.text, WRITE) if it.role == READ and it.text == archive
                 else Item(it.index, it.text, READ) if it.index in operands else it for it in items]
    return Effects(tuple(items), tuple(extra), unproven)


# -- uudecode ----------------------------------------------------------------------------------

# GNU sharutils 4.15's options, BSD's (`-cimprs`, `-o`) and BusyBox's (`-o`): `-p`/`-r` decode to
# stdout; `-r FILE`/`--load-opts` (GNU) loads options from a file, so it is not modelled.
_UUDECODE = Model("read...", "-o,--output-file=write --ignore-chmod -c -i -m -s -p:stdout -v,--version "
                  "-h,--help")


def uudecode(name: str, args: Sequence[Arg], model: Model, env: Env) -> Effects:
    """`uudecode [-o FILE] [FILE...]` writes each file whose `begin MODE NAME` (or
    `begin-base64`) header line its input holds, at NAME: relative to the directory, absolute,
    or below `~/` (GNU sharutils 4.15; BSD keeps only the last segment), unless `-o` names the
    output. The names are data: read from the files or a heredoc (disk.uu_names), as an
    archive's members are; an input that cannot be read (piped, not there yet) fails closed,
    wherever the command runs, since a name may be absolute."""
    parsed = read_options(_UUDECODE, args)
    items = [it if it.role else Item(it.index, it.text, READ) for it in parsed.items]
    unproven = unknown_reason(parsed)
    if any(it.role == WRITE for it in items) or "stdout" in parsed.effects:
        return Effects(tuple(items), (), unproven)
    sources: list[str | None] = [args[k].text if args[k].text != "-" else None for k in parsed.operands]
    extra: list[Extra] = []
    for source in sources or [None]:
        if source is None and env.heredocs and len(env.heredocs) == 1 and env.stdin_file is None:
            from polydeukes.stdlib.shell.disk import uu_names

            named = uu_names(env.heredocs[0], "the heredoc")
            if isinstance(named, list):
                extra.extend(Extra(WRITE, path=member.name, rule="uudecode") for member in named)
                continue
        elif source is None and not env.heredocs:
            source = env.stdin_file
        extra.append(Extra("extract", path=".", tree=True, rule="uudecode", source=("uu", source, 0, False, False)))
    return Effects(tuple(items), tuple(extra), unproven)


# -- MIME and uu decoders ----------------------------------------------------------------------

# Decoders that write each part of a message under the name the part gives (munpack from mpack
# 1.6, ripmime, uudeview): the names are data this layer does not read (MIME headers, several
# encodings), so what they write is anything below their output directory: `-C DIR` (munpack),
# `-d DIR` (ripmime), `-p DIR` (uudeview), else the directory the command runs in. munpack 1.6
# keeps a name's subdirectories (`../` dropped); none of them is known to write above it.
_MIME_DECODERS = {
    "munpack": (Model("read...", "-C=chdir -f -q -t -h -V"), "-C"),
    "ripmime": (Model("read...", "-i=read -d=chdir -p,--prefix=data -e=?write -v -q -V --verbose "
                      "--overwrite --no-nameless --unique_names --unique-names --name-by-type --mailbox "
                      "--formdata --paranoid --no-paranoid --disable-qmail-bounce --recursion-max=data "
                      "--no-tnef --no-uuencode --no-ole --no-doublecr --no-quotedprintable --debug "
                      "--verbose-contenttype --verbose-defects --stdout --syslog_on_error --junk-collisions "
                      "--extended-errors --save-headers --version"), "-d"),
    "uudeview": (Model("read...", "-p=chdir -e=data -i -o -a -b -c -d -f -m -n -q -s -t -v -z -V -h"), "-p"),
}


def mime_decoder(name: str, args: Sequence[Arg], model: Model, env: Env) -> Effects:
    """munpack, ripmime, uudeview: the parts they write are named inside their input, below
    the output directory (`_MIME_DECODERS`): a write of that whole directory, so they fail
    closed where it is or holds a protected path, and pass elsewhere."""
    row, option = _MIME_DECODERS[name]
    parsed = read_options(row, args)
    items = [it if it.role else Item(it.index, it.text, READ) for it in parsed.items]
    directory = next((it.text for it in items if it.role == CHDIR and it.option in (option, "")), ".")
    unproven = unknown_reason(parsed)
    if name == "uudeview" and any(a.text.startswith(("@", "+")) for a in args):
        # (`@FILE` holds more options, `-p DIR` among them: the output directory is not known)
        unproven, directory = unproven or "an option file (@FILE) or a +option is not in the model", "/"
    return Effects(tuple(items), (Extra(WRITE, path=directory or ".", tree=True, rule="named-by-data"),), unproven)


# -- cmake -E, dpkg-deb ------------------------------------------------------------------------

# `cmake -E` commands that only read (or print) their operands.
_CMAKE_READS = frozenset({"echo", "echo_append", "cat", "compare_files", "md5sum", "sha1sum", "sha224sum",
                          "sha256sum", "sha384sum", "sha512sum", "capabilities", "environment", "sleep",
                          "true", "false", "help", "server", "-h", "--help", "--version"})
_CMAKE_COPIES = frozenset({"copy", "copy_if_different", "copy_if_newer"})
_CMAKE_TREE_COPIES = frozenset({"copy_directory", "copy_directory_if_different", "copy_directory_if_newer"})
_CMAKE_DELETES = frozenset({"rm", "remove", "remove_directory"})
_CMAKE_CREATES = frozenset({"make_directory", "touch", "touch_nocreate"})


def cmake(name: str, args: Sequence[Arg], model: Model, env: Env) -> Effects:
    """`cmake -E COMMAND ARGS` (cmake's portable file commands): `copy SRC... DEST` as cp
    (DEST or DEST/basename), `copy_directory DIR... DEST` (the contents: anything below DEST),
    `rename OLD NEW`, `rm`/`remove`/`remove_directory`, `make_directory`/`touch`,
    `create_symlink`/`create_hardlink OLD NEW` (NEW written), `tar x…` (members listed from
    disk as tar's, below the directory), `tar c… ARCHIVE FILES` (ARCHIVE written); the
    readers (`cat`, `md5sum` …) only read. Any other command (`chdir`, `env`, `time` run a
    command; an unknown one) may write anything: a write of every path. Without `-E`, cmake
    configures or builds a project (CMakeLists.txt runs code): unproven, as before."""
    if not args or args[0].text != "-E" or len(args) < 2:
        return Effects(tuple(Item(k, a.text, UNKNOWN) for k, a in enumerate(args)), (), "cmake runs a project's code")
    command = args[1].text
    items = [Item(0, "-E", DATA), Item(1, command, DATA)]
    rest = list(range(2, len(args)))
    operands = [k for k in rest if not args[k].text.startswith("-") or args[k].opaque]
    extra: list[Extra] = []
    unproven = _unknown_word(args)
    if args[1].opaque or any(args[k].opaque for k in rest) and command not in _CMAKE_READS:
        unproven = "a word of unknown value"
    if command in _CMAKE_READS:
        items += [Item(k, args[k].text, READ if command not in ("echo", "echo_append") else DATA) for k in rest]
    elif command in _CMAKE_COPIES or command in _CMAKE_TREE_COPIES:
        target = None
        for k in rest:
            if args[k].text == "-t" and k + 1 < len(args):
                target = k + 1
        sources = [k for k in operands if k != target]
        if target is None and sources:
            target = sources.pop()
        items += [Item(k, args[k].text, WRITE if k == target else READ if k in sources else DATA) for k in rest]
        if target is not None:
            dest = args[target].text
            for k in sources:
                if command in _CMAKE_TREE_COPIES:
                    extra.append(Extra(WRITE, path=dest, tree=True, rule="into"))
                else:
                    extra.extend(into(dest, args[k], WRITE))  # (DEST may be a directory)
    elif command == "rename" and len(operands) == 2:
        items += [Item(operands[0], args[operands[0]].text, MOVE), Item(operands[1], args[operands[1]].text, WRITE)]
    elif command in ("create_symlink", "create_hardlink") and len(operands) == 2:
        items += [Item(operands[0], args[operands[0]].text, READ), Item(operands[1], args[operands[1]].text, WRITE)]
    elif command in _CMAKE_DELETES:
        items += [Item(k, args[k].text, DELETE if k in operands else DATA) for k in rest]
    elif command in _CMAKE_CREATES:
        role = CREATE if command == "make_directory" else WRITE
        items += [Item(k, args[k].text, role if k in operands else DATA) for k in rest]
    elif command == "tar" and len(args) > 3:
        mode = args[2].text.lstrip("-")
        archive = args[3]
        items += [Item(2, args[2].text, DATA)]
        if "x" in mode:
            items += [Item(3, archive.text, READ)] + [Item(k, args[k].text, DATA) for k in range(4, len(args))]
            extra.append(_extract(".", "tar", None if archive.opaque else archive.text))
        elif "c" in mode:
            items += [Item(3, archive.text, WRITE)]
            items += [Item(k, args[k].text, READ if not args[k].text.startswith("--files-from=") else DATA)
                      for k in range(4, len(args))]
            for k in range(4, len(args)):
                if args[k].text.startswith("--files-from="):
                    items.append(Item(k, args[k].text.split("=", 1)[1], READ, False, "--files-from"))
        else:
            items += [Item(k, args[k].text, READ) for k in range(3, len(args))]
    else:
        items += [Item(k, args[k].text, UNKNOWN) for k in rest]
        extra.append(Extra(WRITE, path="/", tree=True, rule=f"cmake -E {command}"))
        unproven = f"cmake -E {command} is not in the model"
    return Effects(tuple(sorted(items, key=lambda it: it.index)), tuple(extra), unproven)


def dpkg_deb(name: str, args: Sequence[Arg], model: Model, env: Env) -> Effects:
    """`dpkg-deb -x|-X|-R DEB DIR` extracts the package's files below DIR (`-R` also its
    control files in DIR/DEBIAN); `-e DEB [DIR]` its control files (DIR: `DEBIAN`); `-b DIR
    [DEB]` writes DEB (or DIR.deb); `-c`/`-I`/`-f`/`--fsys-tarfile`/`--ctrl-tarfile` only
    read. The .deb format's members are not listed from disk: an extraction fails closed when
    its directory holds a protected path."""
    items: list[Item] = []
    action = None
    operands: list[int] = []
    for k, a in enumerate(args):
        t = a.text
        if t.startswith("-") and not a.opaque:
            items.append(Item(k, t, DATA))
            key = t.split("=", 1)[0]
            if key in ("-x", "--extract", "-X", "--vextract", "-R", "--raw-extract", "-e", "--control",
                       "-b", "--build"):
                action = key
        else:
            operands.append(k)
    extra: list[Extra] = []
    unproven = _unknown_word(args)
    roles = {k: READ for k in operands}
    if action in ("-x", "--extract", "-X", "--vextract", "-R", "--raw-extract", "-e", "--control"):
        directory = args[operands[1]].text if len(operands) > 1 else ("DEBIAN" if action in ("-e", "--control") else ".")
        if len(operands) > 1:
            roles[operands[1]] = CHDIR
        extra.append(Extra(WRITE, path=directory, tree=True, rule="archive-extract"))
    elif action in ("-b", "--build") and operands:
        if len(operands) > 1:
            roles[operands[1]] = WRITE
        else:
            extra.append(Extra(WRITE, path=args[operands[0]].text.rstrip("/") + ".deb", rule="build"))
    items += [Item(k, args[k].text, roles[k]) for k in operands]
    return Effects(tuple(sorted(items, key=lambda it: it.index)), tuple(extra), unproven)


HANDLERS = {"uudecode": uudecode, "mime-decoder": mime_decoder, "cmake": cmake, "dpkg-deb": dpkg_deb, "7z": seven_zip, "rar": rar, "cpio": cpio, "ar": ar, "jar": jar, "pax": pax}
