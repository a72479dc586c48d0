"""What `python -m MODULE args` writes, for the standard-library modules whose command line
writes files: an interpreter proves nothing about its own code, but these modules' code is
Python's and does what its documentation says with the arguments.

Before this table, `python3 -m zipfile -e evil.zip .` passed (the module's words were of
unknown role and `.` spells no entry) though it extracts every member into the project. Each
reader returns the extras the judge reads (`extract`, tree writes) and the roles of the
module's own arguments; the interpreter stays unproven as a whole, so a mention still breaks.
"""

from __future__ import annotations

from collections.abc import Sequence

from polydeukes.stdlib.shell.effects import CHDIR, CODE, DATA, READ, WRITE, Effects, Extra, Item
from polydeukes.stdlib.shell.expansion import Arg


def _operands(args: Sequence[Arg], start: int, takes_argument: frozenset[str] = frozenset()) -> list[int]:
    """Indexes of the words after `start` that are no option (nor an option's argument)."""
    out = []
    k = start
    while k < len(args):
        t = args[k].text
        if t.startswith("-") and t != "-":
            k += 2 if t in takes_argument else 1
            continue
        out.append(k)
        k += 1
    return out


def _archive_module(kind: str, directory_required: bool):
    """`-m zipfile` / `-m tarfile`: `-e ARCHIVE DIR` extracts (tarfile's DIR may be left out:
    the directory), listed from disk as unzip's and tar's members are; `-c ARCHIVE FILES`
    creates the archive from the files; anything else (`-l`, `-t`) only reads."""

    words_after_option = 2 if directory_required else 1  # ARCHIVE [DIR]

    def reader(args: Sequence[Arg], start: int) -> tuple[list[Item], list[Extra]]:
        texts = [a.text for a in args[start:]]
        for option in ("-e", "--extract", "-c", "--create"):
            if option not in texts:
                continue
            k = start + texts.index(option)
            if option in ("-e", "--extract") and k + words_after_option < len(args):
                archive = args[k + 1]
                items = [Item(k + 1, archive.text, READ)]
                directory = "."
                if k + 2 < len(args):
                    directory = args[k + 2].text
                    items.append(Item(k + 2, directory, CHDIR))
                return items, [Extra("extract", path=directory, tree=True, rule="archive-extract",
                                     source=(kind, None if archive.opaque else archive.text, 0, False, False))]
            if option in ("-c", "--create") and k + 1 < len(args):
                return ([Item(k + 1, args[k + 1].text, WRITE)]
                        + [Item(j, args[j].text, READ) for j in range(k + 2, len(args))], [])
        return [Item(j, args[j].text, READ) for j in range(start, len(args))], []

    return reader


def _json_tool(args: Sequence[Arg], start: int) -> tuple[list[Item], list[Extra]]:
    """`-m json.tool [INFILE [OUTFILE]]`: OUTFILE is written (`--indent N` takes a number)."""
    operands = _operands(args, start, frozenset({"--indent"}))
    roles = {k: READ for k in operands[:1]} | {k: WRITE for k in operands[1:2]}
    return [Item(j, args[j].text, roles.get(j, DATA)) for j in range(start, len(args))], []


def _venv(args: Sequence[Arg], start: int) -> tuple[list[Item], list[Extra]]:
    """`-m venv DIR…` creates (or with `--clear` empties) each directory: a tree write."""
    operands = _operands(args, start, frozenset({"--prompt"}))
    return ([Item(j, args[j].text, DATA) for j in range(start, len(args)) if j not in operands],
            [Extra(WRITE, path=args[k].text, tree=True, rule="venv") for k in operands])


# pip's options whose value is a directory it writes below (red-team round 7: the `pip`
# command as `-m pip`): where `--target` puts a package's top-level items (and, with
# `--upgrade`, removes what has their names first), the `--prefix`/`--root` trees, the
# archives `download -d`/`wheel -w` save, the checkouts of `--src`.
PIP_DIRECTORIES = frozenset({"--target", "-t", "--prefix", "--root", "-d", "--dest", "-w", "--wheel-dir", "--src"})


def pip_writes(args: Sequence[Arg], start: int) -> list[Extra]:
    """The directories a pip command line (`args[start:]`, after `pip` or `-m pip`) writes
    below, as tree writes; with `--target` and only local wheels (`--no-deps`: no
    requirement of the index joins them), each wheel's members as they land there
    (`judgment.member_paths` of kind `wheel`)."""
    from polydeukes.stdlib.shell.projectfiles import _pip_options  # (only pip's words need it)

    directories: list[tuple[str, str]] = []
    operands: list[Arg] = []
    others = False  # requirements from files, editables, dependencies: not listed
    for option, value in _pip_options(args[start:]):
        if option is None:
            operands.append(value)
        elif option in PIP_DIRECTORIES and value is not None:
            directories.append((option, value.text or "."))
        elif option in _PIP_MORE_REQUIREMENTS:
            others = True
    subcommand, operands = (operands[0].text if operands and not operands[0].opaque else None), operands[1:]
    # (`--no-deps`: no requirement of the index joins the wheels)
    wheels = subcommand == "install" and not others and operands \
        and any(a.text == "--no-deps" for a in args[start:]) \
        and all(not a.opaque and a.pattern is None and a.text.endswith(".whl") for a in operands)
    extra = []
    for option, directory in directories:
        if option in _ARCHIVE_DIRECTORIES:
            from polydeukes.stdlib.shell.expansion import escape_pattern
            from polydeukes.stdlib.shell.projectfiles import _ARCHIVES

            base = escape_pattern(directory.rstrip("/") or "/").rstrip("/")
            extra.extend(Extra(WRITE, path=directory, pattern=f"{base}/*{kind}", rule="pip") for kind in _ARCHIVES)
        elif wheels and option in ("--target", "-t"):
            extra.extend(Extra("extract", path=directory, tree=True, rule="pip", source=("wheel", a.text, 0, False, False))
                         for a in operands)
        else:
            extra.append(Extra(WRITE, path=directory, tree=True, rule="pip"))
    return extra


# Options whose directory gets only the archives pip saves (`pip download -d`, `pip wheel -w`).
_ARCHIVE_DIRECTORIES = frozenset({"-d", "--dest", "-w", "--wheel-dir"})
# Options that add requirements besides the operands (a requirements file, an editable project).
_PIP_MORE_REQUIREMENTS = frozenset({"-r", "--requirement", "-e", "--editable"})


def _pip(args: Sequence[Arg], start: int) -> tuple[list[Item], list[Extra]]:
    """`-m pip …`: its words are pip's (`pip_writes`)."""
    return [Item(j, args[j].text, DATA) for j in range(start, len(args))], pip_writes(args, start)


def pip_command(name: str, args: Sequence[Arg], model, env) -> Effects:
    """The `pip` command (and `uv pip`): the directories it writes below (`pip_writes`); an
    installer runs code (a build's), so nothing else is proven."""
    start = 0
    if name == "uv":  # (`uv [options] pip …`; uv's other subcommands: projectfiles.python_builder)
        from polydeukes.stdlib.shell.projectfiles import _BUILDERS

        valued = _BUILDERS["uv"][0]
        while start < len(args) and args[start].text.startswith("-") and not args[start].opaque:
            start += 2 if args[start].text in valued else 1
        if start >= len(args) or args[start].opaque or args[start].text != "pip":
            return Effects((), (), "an installer runs code")
        start += 1
    return Effects((), tuple(pip_writes(args, start)), "an installer runs code")


def _gzip(args: Sequence[Arg], start: int) -> tuple[list[Item], list[Extra]]:
    """`-m gzip [-d] FILES`: writes FILE.gz, or with `-d` FILE without `.gz` (for a glob, the
    glob without it: `*.gz` writes `*`); the inputs are kept."""
    from polydeukes.stdlib.shell.expansion import escape_pattern
    from polydeukes.stdlib.shell.readers import decompressed_pattern

    decompress = any(args[j].text in ("-d", "--decompress") for j in range(start, len(args)))
    items = [Item(j, args[j].text, DATA) for j in range(start, len(args)) if args[j].text.startswith("-")]
    extra = []
    for k in _operands(args, start):
        a = args[k]
        items.append(Item(k, a.text, READ))
        if a.text == "-":
            continue
        if a.opaque:
            extra.append(Extra(WRITE, path=a.text, pattern=a.pattern, rule="compress"))
        elif decompress:
            name = a.pattern if a.pattern is not None else escape_pattern(a.text)
            extra.append(Extra(WRITE, path=a.text, pattern=decompressed_pattern(name, (".gz",)), rule="compress"))
        else:
            extra.append(Extra(WRITE, path=a.text + ".gz", pattern=a.pattern + ".gz" if a.pattern else None,
                               rule="compress"))
    return items, extra


def _timeit(args: Sequence[Arg], start: int) -> tuple[list[Item], list[Extra]]:
    """`-m timeit [-s SETUP] [-n N] STATEMENT…`: the setup and every statement are Python code
    it runs (`-s 'import x'` imports x.py; round 5). getopt's `-sSETUP`, `--setup=SETUP` too."""
    items = []
    k = start
    while k < len(args):
        t = args[k].text
        if t == "--":
            items.append(Item(k, t, DATA))
            items.extend(Item(j, args[j].text, CODE) for j in range(k + 1, len(args)))
            break
        key, eq, value = t.partition("=")
        if key in ("-s", "--setup", "-n", "--number", "-r", "--repeat", "-u", "--unit") and not eq:
            items.append(Item(k, t, DATA))
            if k + 1 < len(args):
                items.append(Item(k + 1, args[k + 1].text, CODE if key in ("-s", "--setup") else DATA))
            k += 2
            continue
        if t.startswith("--") and eq:
            items.append(Item(k, value, CODE if key == "--setup" else DATA, False, key))
        elif t.startswith("-s") and len(t) > 2:
            items.append(Item(k, t[2:], CODE, False, "-s"))
        else:
            items.append(Item(k, t, DATA if t.startswith("-") else CODE))
        k += 1
    return items, []


# compileall's options that take a value (CPython 3.8-3.13): `-i LIST` names the files in LIST
# (or on stdin), so what it compiles is not known.
_COMPILEALL_VALUES = frozenset({"-r", "-d", "-s", "-p", "-x", "-i", "-j", "-o", "-e", "--invalidation-mode"})


def _bytecode(args: Sequence[Arg], start: int, module: str) -> tuple[list[Item], list[Extra]]:
    """`-m compileall [DIR|FILE]…`, `-m py_compile FILE…`: each source gets its bytecode in
    `__pycache__/` beside it (`-b`: `FILE.pyc` beside it), and a directory every directory
    below it that holds a `.py` file (rule `bytecode`: the judge counts a protected
    directory below it that holds one, or any it lies in). Without operands compileall
    compiles sys.path's directories, and `-i LIST` or py_compile's `-` read the names from a
    file or stdin: anywhere."""
    items: list[Item] = []
    extra: list[Extra] = []
    operands: list[int] = []
    anywhere = False
    k = start
    while k < len(args):
        t = args[k].text
        if t.startswith("-") and t != "-":
            items.append(Item(k, t, DATA))
            key = t.split("=", 1)[0] if t.startswith("--") else t[:2]
            if module == "compileall" and key in _COMPILEALL_VALUES:
                if key == "-i":
                    anywhere = True
                if t == key and k + 1 < len(args):
                    k += 1
                    items.append(Item(k, args[k].text, READ if key == "-i" else DATA))
            k += 1
            continue
        operands.append(k)
        k += 1
    legacy = module == "compileall" and any(it.text == "-b" for it in items)  # (FILE.pyc beside it)
    if module == "py_compile" and any(args[j].text == "-" for j in operands) or anywhere \
            or module == "compileall" and not operands:
        extra.append(Extra(WRITE, path="/", tree=True, rule="bytecode"))
    for j in operands:
        a = args[j]
        items.append(Item(j, a.text, READ))
        if a.text == "-":
            continue
        if a.opaque or a.pattern is not None or not a.text.endswith((".py", ".pyw")):
            extra.append(Extra(WRITE, path=a.text, pattern=a.pattern, tree=True, rule="bytecode"))
        else:
            head, slash, _ = a.text.rpartition("/")
            if legacy:
                extra.append(Extra(WRITE, path=a.text + "c", rule="bytecode"))
            else:
                extra.append(Extra(WRITE, path=(head + slash or "./") + "__pycache__", tree=True, rule="bytecode"))
    return items, extra


MODULES = {"timeit": _timeit,
           "compileall": lambda args, start: _bytecode(args, start, "compileall"),
           "py_compile": lambda args, start: _bytecode(args, start, "py_compile"), "gzip": _gzip, "zipfile": _archive_module("zip", directory_required=True),
           "tarfile": _archive_module("tar", directory_required=False),
           "json.tool": _json_tool, "venv": _venv, "pip": _pip}


def module_effects(module: str, args: Sequence[Arg], start: int) -> tuple[list[Item], list[Extra]] | None:
    """The module's arguments' roles and extras (`args[start:]` are the module's argv), or None
    for a module this table does not know."""
    reader = MODULES.get(module)
    return None if reader is None else reader(args, start)
