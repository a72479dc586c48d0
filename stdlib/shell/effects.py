"""Stage 3 of the shell analysis: what a command does to the paths it names — the effect model.

`COMMANDS` is the table, one row per command, written as data: the operands' roles by position,
the options that take an argument (and that argument's role), and the options that change what
the command does (`sort -o`, `sed -i`, `rg --pre`, `cp -t`, `gzip -c` …). A few commands whose
syntax is not "options and operands" (find's expression, tar's modes, git's subcommands, dd's
`of=`, the scripts of sed and awk, patch and the archive readers) name a reader instead, kept
in `readers.py` and `git.py`; they return the same `Effects` shape.

Roles (what the command does to one operand):

    read   its bytes are read              data    not a path (pattern, message, mode, number)
    chdir  the command works in it         write   created or overwritten
    create created (mkdir, touch)          delete  removed
    move   moved away (mv's sources)       chmod   mode, owner or times changed
    link   a link to it is made            exec    run as a program or script
    code   program text run by the command unknown nothing is proven about it
    stage  its index entry is given other content than the work tree's (git rm --cached,
           git update-index --chmod, git reset REV -- path): the next commit records it

`read`, `data` and `chdir` are the harmless roles: a protected path met only in harmless roles
is a read. Everything else, and every word of a command without a row, proves nothing.

`effects_of(name, args, ...)` reads one command's arguments (the expanded argv after the command
name) and returns `Effects(items, extra, unproven)`: `items` gives each argument (or the value
attached to an option, `--output=F`) its role; `extra` lists effects on paths no single word
spells (a derived name `f.gz`, `dest/basename(src)`, a whole work tree, an archive's members, a
patch's targets, a command `find -exec` runs); `unproven` says why the command's effects are not
modelled at all (an unknown option of a command that has writing options, `--pre`, `-exec` with
an unknown program …), or is None.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import msgspec

from polydeukes.stdlib.shell.expansion import ANY, Arg, escape_pattern
from polydeukes.vm.sre import LazyPattern

READ, DATA, CHDIR = "read", "data", "chdir"
WRITE, CREATE, DELETE, MOVE, CHMOD, LINK = "write", "create", "delete", "move", "chmod", "link"
EXEC, CODE, UNKNOWN = "exec", "code", "unknown"
STAGE = "stage"  # the file stays as it is; what the next commit records of it changes
HARMLESS = frozenset({READ, DATA, CHDIR})
WRITING = frozenset({WRITE, CREATE, DELETE, MOVE, CHMOD, LINK})

# What a role does, in break messages and derivation reasons.
VERBS = {
    WRITE: "writes", CREATE: "creates", DELETE: "deletes", MOVE: "moves", CHMOD: "changes the mode of",
    LINK: "links to", EXEC: "runs", CODE: "runs code naming", UNKNOWN: "uses", STAGE: "stages a change to",
}


class Item(msgspec.Struct, frozen=True, gc=False):
    """One argument, or the value attached to an option, and its role."""

    index: int  # position in the argv given to `effects_of`
    text: str  # the path-like text (the argument, or the value after `--opt=` / `-o`)
    role: str
    whole: bool = True  # `text` is the whole argument (its pattern, if any, applies)
    option: str = ""  # for an option's argument: the option (`-o`, `--output`)


class Extra(msgspec.Struct, frozen=True, gc=False):
    """An effect on something no single argument spells.

    kind: a role (write, delete, …), or `command` (a command `find -exec` runs: `argv`), or
    `extract` / `patch` (members or targets read from disk or stdin by the judge), or `list`
    (paths a lister prints, see listers.py: every path below `path`, narrowed by `names`).
    `path`: a spelled path relative to the command's directory; `pattern`: a pathname pattern
    (for a path built from a glob); `tree`: the effect may reach anything below `path`;
    `rule`: names the effect in messages; `source`: for extract/patch, what to read (for a
    `find -exec` command: the indexes in `argv` of the words that held `{}`, with `path` or
    `pattern` the start path they stand below and `names` find's `-name` filters before it;
    for a tree written `into` a directory, the directory whose contents land there, when known).
    """

    kind: str
    path: str = ""
    pattern: str | None = None
    tree: bool = False
    rule: str = ""
    source: tuple = ()
    argv: tuple = ()
    names: tuple[str, ...] = ()  # find -name filters narrowing a tree effect
    what: str = ""  # the command as break messages name it (`aws s3 sync`), when not its first word


# The `extract` kinds whose member names are written as they are, absolute or climbing with `..`
# (GNU cpio 2.13 without --no-absolute-filenames, pax 20201030, uudecode's header names): the
# judge checks them against every protected path wherever the extraction runs, and one that
# cannot be listed fails closed wherever it runs.
ANYWHERE_KINDS = frozenset({"cpio-any", "pax", "uu"})

# A command that can give git another core.hooksPath (git.py; judged by `_Judge.hooks`).
REDIRECTED_HOOKS = Extra("hooks", path="core.hooksPath", rule="redirect-hooks")


class Effects(msgspec.Struct, frozen=True, gc=False):
    items: tuple[Item, ...]
    extra: tuple[Extra, ...] = ()
    unproven: str | None = None


# (Structs rather than NamedTuples: creating a NamedTuple class costs a shell call about
# twice as much at import.)
class Env(msgspec.Struct, frozen=True, gc=False):
    """What a handler may know beyond the arguments: the command's stdin sources."""

    heredocs: tuple[str, ...] = ()  # heredoc and herestring bodies fed to the command
    stdin_file: str | None = None  # `< file`
    piped: bool = False  # stdin comes from the previous pipeline stage
    # options the line's environment gives the command before its own (`GZIP=-N gunzip`:
    # `ENVIRONMENT_OPTIONS`); ("?",) when that variable's value is not known
    options: tuple[str, ...] = ()


# Commands that read options from environment variables the line may set (gzip 1.12 still
# reads GZIP, with a warning; pigz 2.6 GZIP and then PIGZ): the walk hands the values' words to
# the reader in `Env.options`.
ENVIRONMENT_OPTIONS = {"gzip": ("GZIP",), "gunzip": ("GZIP",), "pigz": ("GZIP", "PIGZ"), "unpigz": ("GZIP", "PIGZ")}


class Opt(msgspec.Struct, frozen=True, gc=False):
    arg: int  # 0 none, 1 required (attached or the next word), 2 optional (attached only)
    role: str  # the argument's role
    effect: str  # '' or a name from `_EFFECT_NAMES`


_EFFECT_NAMES = frozenset({
    "",
    "pattern",  # the pattern comes from an option: the first `data` operand is a file after all
    "no-mode",  # chmod/chown --reference: no mode operand
    "target-dir",  # cp/mv/ln/install -t DIR: every operand is a source
    "in-place",  # the file operands are rewritten (sed -i, perl -i, yq -i)
    "stdout",  # the output goes to stdout, the operands are only read (gzip -c)
    "keep",  # the sources are kept (gzip -k)
    "remove",  # the sources are removed (zstd --rm, shred -u)
    "decompress",
    "list",  # list or test only (gzip -l, -t)
    "unproven",  # runs a program or writes in a way not modelled
    "link-sources",  # cp -l / -s: the sources get links
    "delete-sources",  # zip -m, rsync --remove-source-files, tar --remove-files
    "dirs",  # install -d: every operand is a directory to create
    "dest-tree",  # rsync --delete: anything under the destination may go
    "recursive",
    "dry-run",
    "no-target",  # cp/mv/ln/install -T: the destination is the copy itself, never a directory to enter
    "multiple",  # lz4 -m: every operand is an input
    "backup",  # cp/mv/ln/install/rsync -b: the old destination is kept at its name and a suffix
    "stored-name",  # gunzip -N: the output takes the name stored in the input
})


class Model:
    """One row of the table, its option text parsed on first use."""

    __slots__ = ("layout", "option_text", "pure", "handler", "dash_operands", "contents", "_options")

    def __init__(self, layout: str, options: str = "", *, pure: bool = False,
                 handler: str | None = None, dash_operands: bool = False, contents: str = "") -> None:
        self.layout = layout
        self.option_text = options
        self.pure = pure  # no option writes or runs anything: unknown options are harmless
        self.handler = handler
        self.dash_operands = dash_operands  # `-x` words that are no option are operands (chmod)
        # When a directory source gives the destination its contents rather than itself:
        # "slash" for a source ending in `/` (rsync), "always" (ditto); "" never (cp)
        self.contents = contents
        self._options: dict[str, Opt] | None = None

    @property
    def options(self) -> dict[str, Opt]:
        if self._options is None:
            self._options = parse_options(self.option_text)
        return self._options


def parse_options(text: str) -> dict[str, Opt]:
    """`-o,--output=write -i,--in-place=?data:in-place -n` → {spelling: Opt}."""
    out: dict[str, Opt] = {}
    for token in text.split():
        spec, _, effect = token.partition(":")
        spellings, eq, role = spec.partition("=")
        arg = 0
        if eq:
            arg = 2 if role.startswith("?") else 1
            role = role.lstrip("?")
        if effect not in _EFFECT_NAMES:
            raise ValueError(f"unknown option effect {effect!r} in {token!r}")
        for spelling in spellings.split(","):
            out[spelling] = Opt(arg, role or DATA, effect)
    return out


def reader(options: str = "", layout: str = "read...") -> Model:
    return Model(layout, options, pure=True)


# -- the table ---------------------------------------------------------------------------------

_CHECKSUM = reader()
_COMPRESSOR = Model("", handler="compress")
_INTERPRETER = Model("", handler="interpreter")
_INSTALLER = Model("", handler="pip")
_DATA = Model("data...", pure=True)

COMMANDS: dict[str, Model] = {
    # coreutils and friends that only read their operands
    "cat": reader(), "tac": reader(), "nl": reader(), "head": reader(), "tail": reader(),
    "more": reader(), "wc": reader(), "cut": reader(), "od": reader(), "hexdump": reader(),
    "strings": reader(), "fold": reader(), "fmt": reader(), "pr": reader(), "rev": reader(),
    "paste": reader(), "join": reader(), "comm": reader(), "cmp": reader(), "diff": reader(),
    "diff3": reader(), "expand": reader(), "unexpand": reader(), "column": reader(),
    "look": reader(), "stat": reader(), "ls": reader(), "du": reader(), "df": reader(),
    "realpath": reader(), "readlink": reader(), "wc.": reader(), "jq": reader(),
    "md5sum": _CHECKSUM, "sha1sum": _CHECKSUM, "sha224sum": _CHECKSUM, "sha256sum": _CHECKSUM,
    "sha384sum": _CHECKSUM, "sha512sum": _CHECKSUM, "b2sum": _CHECKSUM, "cksum": _CHECKSUM,
    "sum": _CHECKSUM, "shasum": _CHECKSUM,
    # A highlighting pager and a linter: they read their operands. bat's pager is a program, so
    # (like less) an option bat's row does not list is unproven.
    "bat": Model("read...", "--pager=exec:unproven -l,--language=data -m,--map-syntax=data --theme=data "
                  "--style=data --paging=data --color=data --decorations=data -r,--line-range=data "
                  "-H,--highlight-line=data --file-name=data --tabs=data --wrap=data "
                  "--terminal-width=data --diff-context=data --italic-text=data "
                  "--ignored-suffix=data --nonprintable-notation=data --strip-ansi=data "
                  "--squeeze-limit=data -n,--number -p,--plain -P -A,--show-all -u,--unbuffered "
                  "-s,--squeeze-blank -S,--chop-long-lines -d,--diff -f,--force-colorization "
                  "-v,--show-nonprintable -V,--version -h --help --list-languages --list-themes "
                  "-L --binary=data"),
    # A pipe viewer: it copies its operands (or stdin) to stdout; an option its row does not
    # list is unproven (`-o FILE` writes, `-U FILE` stores, `-P FILE` writes a pid).
    "pv": Model("read...", "-o,--output=write -U,--store-and-forward=write -P,--pidfile=write "
                "-L,--rate-limit=data -s,--size=data -N,--name=data -i,--interval=data "
                "-w,--width=data -H,--height=data -B,--buffer-size=data -d,--watchfd=data "
                "-R,--remote=data -F,--format=data -D,--delay-start=data -A,--last-written=data "
                "-m,--average-rate-window=data -p,--progress -t,--timer -e,--eta -I,--fineta "
                "-r,--rate -a,--average-rate -b,--bytes -T,--buffer-percent -n,--numeric "
                "-q,--quiet -f,--force -c,--cursor -W,--wait -C,--no-splice -E,--skip-errors "
                "-S,--stop-at-size -l,--line-mode -0,--null -Y,--sync -K,--direct-io -h,--help "
                "-V,--version"),
    "shellcheck": reader("-f,--format=data -o,--enable=data -s,--shell=data -S,--severity=data "
                         "-e,--exclude=data -i,--include=data -P,--source-path=data "
                         "-W,--wiki-link-count=data --rcfile=read -C,--color=?data "
                         "--extended-analysis=data"),
    "grep": reader("-e,--regexp=data:pattern -f,--file=read:pattern -m,--max-count=data "
                   "-A,--after-context=data -B,--before-context=data -C,--context=data "
                   "--exclude=data --include=data --exclude-dir=data --exclude-from=read "
                   "--label=data -d,--directories=data -D,--devices=data --binary-files=data "
                   "--color=?data --colour=?data", "data read..."),
    "egrep": reader("-e,--regexp=data:pattern -f,--file=read:pattern", "data read..."),
    "fgrep": reader("-e,--regexp=data:pattern -f,--file=read:pattern", "data read..."),
    "zgrep": reader("-e,--regexp=data:pattern -f,--file=read:pattern", "data read..."),
    # Text-only commands: every operand is data, never a path.
    "echo": _DATA, "printf": _DATA, "basename": _DATA, "dirname": _DATA, "tr": _DATA,
    "true": _DATA, "false": _DATA, "test": _DATA, "[": _DATA, "[[": _DATA, "]]": _DATA,
    "pwd": _DATA, "type": _DATA, "which": _DATA, "whoami": _DATA, "id": _DATA, "seq": _DATA,
    "sleep": _DATA, "expr": _DATA, "yes": _DATA,
    # Loop headers and declarations: their words are values the walk follows into later
    # commands (`for f in src/*; do rm "$f"; done` is judged at the `rm`).
    "for": _DATA, "select": _DATA, "case": _DATA, "in": _DATA, "export": _DATA,
    "done": _DATA, "fi": _DATA, "esac": _DATA, "}": _DATA, "read": _DATA, "shift": _DATA,
    # The directory a command changes into is no write (the walk follows it).
    "cd": Model("chdir...", pure=True), "pushd": Model("chdir...", pure=True),
    "popd": Model("data...", pure=True),
    "declare": _DATA, "typeset": _DATA, "local": _DATA, "readonly": _DATA, "unset": _DATA, "date": reader("-s,--set=data:unproven "
                                                               "-r,--reference=read -f,--file=read", "data..."),
    "file": Model("read...", "-C,--compile:unproven -m,--magic-file=read -f,--files-from=read "
                  "-e,--exclude=data -F,--separator=data -P,--parameter=data -b,--brief "
                  "-c,--checking-printout -E -h,--no-dereference -i,--mime -I -k,--keep-going "
                  "-l,--list -L,--dereference -n,--no-buffer -N,--no-pad -p,--preserve-date "
                  "-r,--raw -s,--special-files -S,--no-sandbox -v,--version -z,--uncompress "
                  "-Z,--uncompress-noreport -0,--print0 --mime-type --mime-encoding --apple "
                  "--extension --exclude-quiet=data --help"),
    "less": Model("read...", "-o,--log-file=write -O,--LOG-FILE=write -k,--lesskey-file=read "
                  "--lesskey-src=read -T,--tag-file=read -t,--tag=data -x,--tabs=data "
                  "-z,--window=data -b,--buffers=data -h,--max-back-scroll=data "
                  "-y,--max-forw-scroll=data -j,--jump-target=data -P,--prompt=data "
                  "-p,--pattern=data -#,--shift=data -D,--color=data --rscroll=data "
                  "--line-num-width=data --status-col-width=data --wheel-lines=data "
                  "-a -A -B -c -C -d -e -E -f -F -g -G -i -I -J -K -L -m -M -n -N -q -Q -r -R -s -S "
                  "-u -U -V -w -W -X -~ --search-skip-screen --SEARCH-SKIP-SCREEN "
                  "--auto-buffers --clear-screen --CLEAR-SCREEN --dumb --quit-at-eof "
                  "--QUIT-AT-EOF --force --quit-if-one-screen --hilite-search --HILITE-SEARCH "
                  "--ignore-case --IGNORE-CASE --status-column --no-keypad --long-prompt "
                  "--LONG-PROMPT --line-numbers --LINE-NUMBERS --quiet --QUIET --silent "
                  "--SILENT --raw-control-chars --RAW-CONTROL-CHARS --squeeze-blank-lines "
                  "--chop-long-lines --underline-special --UNDERLINE-SPECIAL --version "
                  "--hilite-unread --HILITE-UNREAD --no-init --tilde --mouse --MOUSE "
                  "--no-histdups --save-marks --incsearch --use-color --follow-name --help"),
    "tree": Model("read...", "-o=write --fromfile -L=data -P=data -I=data --charset=data "
                  "-H=data -T=data --filelimit=data --timefmt=data --sort=data -a -d -l -f -x "
                  "-q -N -Q -p -u -g -s -h -D -F -v -t -c -U -r -C -n -J -X -i -A -S --du "
                  "--si --prune --noreport --dirsfirst --filesfirst --matchdirs --ignore-case "
                  "--inodes --device --gitignore --info --metafirst --version --help"),
    "sort": Model("read...", "-o,--output=write -T,--temporary-directory=write "
                  "--compress-program=exec:unproven --files0-from=read --random-source=read "
                  "-k,--key=data -t,--field-separator=data -S,--buffer-size=data "
                  "--parallel=data --batch-size=data --sort=data -b -d -f -g -i -M -h -n -R -r "
                  "-V -c -C -m -s -u -z --ignore-leading-blanks --dictionary-order "
                  "--ignore-case --general-numeric-sort --ignore-nonprinting --month-sort "
                  "--human-numeric-sort --numeric-sort --random-sort --reverse --version-sort "
                  "--check=?data --merge --stable --unique --zero-terminated --debug --help "
                  "--version"),
    "shuf": Model("read...", "-o,--output=write --random-source=read -n,--head-count=data "
                  "-i,--input-range=data -e,--echo -r,--repeat -z,--zero-terminated --help "
                  "--version"),
    "uniq": Model("read write", "-f,--skip-fields=data -s,--skip-chars=data "
                  "-w,--check-chars=data --all-repeated=?data --group=?data -c,--count "
                  "-d,--repeated -D -i,--ignore-case -u,--unique -z,--zero-terminated --help "
                  "--version"),
    "xxd": Model("read write", "-c,-cols=data -g,-groupsize=data -l,-len=data -o,-offset=data "
                 "-s,-seek=data -n,-name=data -R=data -C -a -autoskip -b -bits -e -E -EBCDIC "
                 "-i -include -p -ps -postscript -plain -r -revert -u -d -h -help -v -version"),
    # Encoders: they read their operand and print. GNU base64 has no output option; BSD's has
    # `-o FILE` and `-i FILE`, so both spellings are in the row (GNU's `-i` is a flag: read
    # either way). iconv writes with `-o`.
    "base64": Model("read...", "-o,--output=write -i,--input=read -w,--wrap=data -b,--break=data "
                    "-d,--decode -D -e,--encode --ignore-garbage -h,--help --version"),
    "base32": Model("read...", "-w,--wrap=data -d,--decode -i,--ignore-garbage --help --version"),
    "basenc": Model("read...", "-w,--wrap=data -d,--decode -i,--ignore-garbage --base64 --base64url "
                    "--base32 --base32hex --base16 --base2msbf --base2lsbf --z85 --help --version"),
    "iconv": Model("read...", "-o,--output=write -f,--from-code=data -t,--to-code=data -c -s,--silent "
                   "-l,--list --verbose --help --version -?,--usage"),
    # openssl SUBCOMMAND: its operands are files it reads (`dgst -sha256 f`, `sha256 f`); `-in`
    # reads, `-out` and `-keyout` write; an option this row does not list proves nothing.
    "openssl": Model("data read...", "-in=read -out=write -keyout=write -CAfile=read -CApath=read "
                     "-cert=read -key=read -inkey=read -signature=read -verify=read -prverify=read "
                     "-config=read -extfile=read -passin=data -passout=data -pass=data -inform=data "
                     "-outform=data -md=data -cipher=data -iter=data -days=data -subj=data "
                     "-newkey=data -extensions=data -set_serial=data -nameopt=data -connect=data "
                     "-servername=data -k=data -K=data -iv=data -S=data -md5 -sha1 -sha224 -sha256 "
                     "-sha384 -sha512 -sha3-256 -sha3-512 -blake2b512 -blake2s256 -hex -binary -r "
                     "-c -noout -text -subject -issuer -dates -enddate -startdate -serial "
                     "-fingerprint -pubkey -modulus -check -d -e -a -A -base64 -pbkdf2 -salt "
                     "-nosalt -p -P -pubin -pubout -nodes -noenc -req -x509 -new -batch -showcerts "
                     "-brief -help"),
    "split": Model("read write", "-a,--suffix-length=data -b,--bytes=data -C,--line-bytes=data "
                   "-l,--lines=data -n,--number=data --additional-suffix=data "
                   "--filter=exec:unproven -t,--separator=data -d -x --numeric-suffixes=?data "
                   "--hex-suffixes=?data -e,--elide-empty-files -u,--unbuffered --verbose "
                   "--help --version", handler="split"),
    "csplit": Model("read data...", "-f,--prefix=write -b,--suffix-format=data -n,--digits=data "
                    "-k,--keep-files -s,-q,--quiet,--silent -z,--elide-empty-files "
                    "--suppress-matched --help --version", handler="split"),
    "rg": Model("data read...", "-e,--regexp=data:pattern -f,--file=read:pattern "
                "--pre=exec:unproven --pre-glob=data --hostname-bin=exec:unproven "
                "-g,--glob=data --iglob=data -t,--type=data -T,--type-not=data "
                "--type-add=data --type-clear=data -m,--max-count=data -A,--after-context=data "
                "-B,--before-context=data -C,--context=data -M,--max-columns=data "
                "-r,--replace=data --ignore-file=read --colors=data --color=data "
                "-j,--threads=data -d,--max-depth=data --max-filesize=data "
                "-E,--encoding=data --sort=data --sortr=data --path-separator=data "
                "--context-separator=data --field-match-separator=data "
                "--field-context-separator=data --engine=data --dfa-size-limit=data "
                "--regex-size-limit=data --files:pattern --type-list:pattern -z --search-zip "
                "-i -s -S -w -x -v -c -l -n -N -o -p -u -uu -uuu -L -U -H -I -F -P -a -0 "
                "--hidden --no-ignore --json --vimgrep --count --files-with-matches "
                "--files-without-match --line-number --no-line-number --only-matching "
                "--follow --fixed-strings --ignore-case --smart-case --case-sensitive "
                "--word-regexp --line-regexp --invert-match --multiline --multiline-dotall "
                "--no-heading --heading --with-filename --no-filename --text --binary "
                "--stats --trim --passthru --null --null-data --pcre2 --auto-hybrid-regex "
                "--no-messages --quiet --unrestricted --no-config --debug --trace "
                "--column --no-column --byte-offset --block-buffered --line-buffered "
                "--crlf --no-unicode --one-file-system --glob-case-insensitive "
                "--include-zero --no-ignore-vcs --no-ignore-parent --no-ignore-dot "
                "--no-ignore-global --no-ignore-exclude --no-ignore-files --max-columns-preview "
                "--sort-files --version --help -h -V"),
    "ag": Model("data read...", "--pager=exec:unproven -G,--file-search-regex=data "
                "--ignore=data --ignore-dir=data -p,--path-to-ignore=read -A,--after=data "
                "-B,--before=data -C,--context=data -m,--max-count=data --depth=data "
                "-g=data:pattern"),
    "yq": Model("data read...", "-i,--inplace:in-place --in-place:in-place "
                "-s,--split-exp=data:unproven --from-file=read:pattern -o,--output-format=data "
                "-p,--input-format=data -I,--indent=data --expression=data:pattern "
                "--front-matter=data --xml-attribute-prefix=data --xml-content-name=data "
                "--lua-prefix=data --properties-separator=data --csv-separator=data "
                "-w,--width=data --arg=data --argjson=data -n,--null-input -e,--exit-status "
                "-r,--unwrapScalar,--raw-output -j,--tojson -y,--yaml-output -Y,--yaml-roundtrip "
                "-C,--colors -M,--no-colors -P,--prettyPrint -N,--no-doc -0,--nul-output "
                "--header-preprocess -v,--verbose --no-diff -V,--version -h,--help "
                "--explode-anchors --shell-completion=data"),
    # writers
    "cp": Model("read... write", "-t,--target-directory=write:target-dir -S,--suffix=data:backup "
                "--backup=?data:backup --sparse=data --reflink=?data --preserve=?data "
                "--no-preserve=data --context=?data -l,--link:link-sources "
                "-s,--symbolic-link:link-sources -a -r -R -f -i -n -u -v -p -d -L -H -P -x -b:backup "
                "-T,--no-target-directory:no-target -Z --archive --recursive --force --interactive "
                "--no-clobber --update --verbose --dereference --no-dereference --parents "
                "--attributes-only --remove-destination --strip-trailing-slashes --copy-contents "
                "--one-file-system --debug --keep-directory-symlink"),
    "mv": Model("move... write", "-t,--target-directory=write:target-dir -S,--suffix=data:backup "
                "--backup=?data:backup --context=?data -b:backup -f -i -n -u -v -T,--no-target-directory:no-target "
                "-Z --force --interactive --no-clobber --update --verbose --strip-trailing-slashes "
                "--exchange --no-copy --debug"),
    "install": Model("read... write", "-t,--target-directory=write:target-dir "
                     "-d,--directory:dirs -m,--mode=data -o,--owner=data -g,--group=data "
                     "-S,--suffix=data:backup --backup=?data:backup --strip-program=exec:unproven "
                     "--context=?data -b:backup -c -C -D -p -s -T,--no-target-directory:no-target -v -Z "
                     "--compare --preserve-timestamps --strip --verbose --debug"),
    "ln": Model("link... write", "-t,--target-directory=write:target-dir -S,--suffix=data:backup "
                "--backup=?data:backup -b:backup -d -F -f -i -L -n -P -r -s -T,--no-target-directory:no-target -v "
                "--force --interactive --logical --no-dereference --physical --relative "
                "--symbolic --verbose --directory", handler="ln"),
    # macOS: copies each source's contents into the destination, merging (`-c`/`-k`: archives)
    "ditto": Model("read... write", "-V -v -X -c -k -x -z -j --rsrc --norsrc --extattr "
                   "--noextattr --qtn --noqtn --acl --noacl --nocache --hfsCompression "
                   "--nohfsCompression --sequesterRsrc --keepParent --zlibCompressionLevel=data "
                   "--arch=data --bom=read --password", contents="always"),
    "rm": Model("delete...", "--interactive=?data -f -i -I -r -R -d -v --force --recursive "
                "--dir --verbose --one-file-system --preserve-root=?data --no-preserve-root"),
    "rmdir": Model("delete...", "-p -v --parents --verbose --ignore-fail-on-non-empty"),
    "unlink": Model("delete..."),
    "shred": Model("write...", "-u:remove --remove=?data:remove -n,--iterations=data "
                   "-s,--size=data --random-source=read -f -v -x -z --force --verbose "
                   "--exact --zero"),
    "mkdir": Model("create...", "-m,--mode=data --context=?data -p -v -Z --parents --verbose"),
    "mkfifo": Model("create...", "-m,--mode=data --context=?data -Z"),
    "mktemp": Model("create...", "-p,--tmpdir=?write --suffix=data -d -q -u -t --directory "
                    "--quiet --dry-run:dry-run"),
    "touch": Model("write...", "-r,--reference=read -d,--date=data -t=data --time=data "
                   "-a -c -f -h -m --no-create --no-dereference"),
    "truncate": Model("write...", "-s,--size=data -r,--reference=read -c -o --no-create "
                      "--io-blocks"),
    "chmod": Model("data chmod...", "--reference=read:no-mode -R -c -f -v --recursive "
                   "--changes --silent --quiet --verbose --preserve-root --no-preserve-root "
                   "-H -L -P", dash_operands=True),
    "chown": Model("data chmod...", "--reference=read:no-mode --from=data -R -c -f -v -h "
                   "-H -L -P --recursive --changes --silent --quiet --verbose "
                   "--dereference --no-dereference --preserve-root --no-preserve-root"),
    "chgrp": Model("data chmod...", "--reference=read:no-mode -R -c -f -v -h -H -L -P "
                   "--recursive --changes --silent --quiet --verbose --dereference "
                   "--no-dereference --preserve-root --no-preserve-root"),
    "tee": Model("write...", "-a -i -p --append --ignore-interrupts --output-error=?data"),
    "zip": Model("write read...", "-m,--move:delete-sources -O,--output-file=write "
                 "-b,--temp-path=write -TT,--unzip-command=exec:unproven -x,--exclude=data "
                 "-i,--include=data -n,--suffixes=data -P,--password=data -t,--from-date=data "
                 "-tt,--before-date=data -Z,--compression-method=data -s,--split-size=data "
                 "-sp,--split-pause -d,--delete -r -R -q -v -j -y -u -f -F -FS -g -D -X -T -@ "
                 "-0 -1 -2 -3 -4 -5 -6 -7 -8 -9 -e -k -l -ll -A -J -L -o -c -z --recurse-paths "
                 "--quiet --verbose --junk-paths --symlinks --update --freshen --fix --grow "
                 "--no-dir-entries --no-extra --test --encrypt --latest-time --adjust-sfx", handler="zip"),
    "rsync": Model("read... write", contents="slash", options="-e,--rsh=exec:unproven --rsync-path=exec:unproven "
                   "--remove-source-files:delete-sources --files-from=read --exclude-from=read "
                   "--include-from=read --exclude=data --include=data -f,--filter=data "
                   "--backup-dir=write --temp-dir=write -T=write --log-file=write "
                   "--partial-dir=write --password-file=read --chmod=data --suffix=data:backup "
                   "--compare-dest=read --copy-dest=read --link-dest=read --only-write-batch=write "
                   "--write-batch=write --read-batch=read --bwlimit=data --timeout=data "
                   "--max-size=data --min-size=data --port=data --out-format=data "
                   "--log-file-format=data --usermap=data --groupmap=data --chown=data "
                   "--info=data --debug=data --modify-window=data -M,--remote-option=data "
                   "--delete:dest-tree --delete-before:dest-tree --delete-during:dest-tree "
                   "--delete-after:dest-tree --delete-excluded:dest-tree "
                   "-a -r -v -z -P -n --dry-run:dry-run -u -c -l -L -p -o -g -t -D -H -A -X -q -h "
                   "-i -b -W -S -x -R -k -K -O -J -m -C -y -4 -6 --archive --recursive "
                   "--verbose --compress --progress --partial --update --checksum --links "
                   "--copy-links --perms --owner --group --times --devices --specials "
                   "--hard-links --acls --xattrs --quiet --human-readable --itemize-changes "
                   "--backup:backup --whole-file --sparse --one-file-system --relative --stats "
                   "--ignore-existing --existing --size-only --inplace --append "
                   "--append-verify --no-motd --mkpath --safe-links --force"),
    "scp": Model("read... write", "-i=read -F=read -S=exec:unproven -o=data -P=data -c=data "
                 "-l=data -J=data -D=exec:unproven -X=data -3 -4 -6 -A -B -C -O -p -q -R -r "
                 "-T -v"),
    "dd": Model("", handler="dd"),
    # util-linux's and perl's rename (readers.py): new names worked out, or anywhere
    "rename": Model("", handler="rename"), "rename.ul": Model("", handler="rename"),
    "rename.util-linux": Model("", handler="rename"), "prename": Model("", handler="rename"),
    "file-rename": Model("", handler="rename"), "perl-rename": Model("", handler="rename"),
    "sed": Model("", handler="sed"),
    "awk": Model("", handler="awk"), "gawk": Model("", handler="awk"),
    "mawk": Model("", handler="awk"), "nawk": Model("", handler="awk"),
    "find": Model("", handler="find"),
    "tar": Model("", handler="tar"), "bsdtar": Model("", handler="tar"),
    "unzip": Model("", handler="unzip"),
    # archivers.py: extractions listed from disk where the format is read, else fail closed
    "7z": Model("", handler="7z"), "7za": Model("", handler="7z"), "7zr": Model("", handler="7z"),
    "7zz": Model("", handler="7z"), "rar": Model("", handler="rar"), "unrar": Model("", handler="rar"),
    "cpio": Model("", handler="cpio"), "ar": Model("", handler="ar"), "jar": Model("", handler="jar"),
    "pax": Model("", handler="pax"),
    # (archivers.py) the file a uuencoded input's `begin` line names
    "uudecode": Model("", handler="uudecode"),
    # (archivers.py) decoders that write a message's parts under the names the parts give
    "munpack": Model("", handler="mime-decoder"), "ripmime": Model("", handler="mime-decoder"),
    "uudeview": Model("", handler="mime-decoder"),
    # compilers and linkers (readers.py; their response files and programs: scripts.py)
    "gcc": Model("", handler="compiler"), "cc": Model("", handler="compiler"),
    "g++": Model("", handler="compiler"), "c++": Model("", handler="compiler"),
    "clang": Model("", handler="compiler"), "clang++": Model("", handler="compiler"),
    "ld": Model("", handler="compiler"), "ld.bfd": Model("", handler="compiler"),
    "ld.gold": Model("", handler="compiler"), "ld.lld": Model("", handler="compiler"),
    "as": Model("", handler="compiler"), "cpp": Model("", handler="compiler"),
    "gfortran": Model("", handler="compiler"), "javac": Model("", handler="compiler"),
    "cmake": Model("", handler="cmake"), "dpkg-deb": Model("", handler="dpkg-deb"),
    # downloads.py: the files they write are named by the URL or the server
    "curl": Model("", handler="curl"), "wget": Model("", handler="wget"),
    # remotes.py: programs that copy a remote tree (a bucket, a repository, a backup) into a
    # local directory; the names in it are not on the line
    **dict.fromkeys(("aws", "gsutil", "gcloud", "rclone", "s3cmd", "mc", "azcopy", "az", "b2", "svn", "hg",
                     "bzr", "brz", "fossil", "kubectl", "oc", "lxc", "incus", "restic", "borg", "duplicity",
                     "rdiff-backup", "unison", "git-svn", "git-lfs"), Model("", handler="remote-copy")),
    "tarsnap": Model("", handler="tarsnap"),
    "lftp": Model("", handler="lftp"),
    # (readers.py) FILE.gpg, FILE without .gpg, -o's file
    "gpg": Model("", handler="gpg"), "gpg2": Model("", handler="gpg"),
    # (readers.py) -f FILE and FILE.pub, NAME-cert.pub, FILE.sig
    "ssh-keygen": Model("", handler="ssh-keygen"),
    "gzip": _COMPRESSOR, "gunzip": _COMPRESSOR, "zcat": _COMPRESSOR, "bzip2": _COMPRESSOR,
    "bunzip2": _COMPRESSOR, "bzcat": _COMPRESSOR, "xz": _COMPRESSOR, "unxz": _COMPRESSOR,
    "xzcat": _COMPRESSOR, "lzma": _COMPRESSOR, "unlzma": _COMPRESSOR, "lzcat": _COMPRESSOR,
    "zstd": _COMPRESSOR, "unzstd": _COMPRESSOR, "zstdcat": _COMPRESSOR, "pigz": _COMPRESSOR,
    "unpigz": _COMPRESSOR, "lz4": _COMPRESSOR, "unlz4": _COMPRESSOR, "lz4cat": _COMPRESSOR,
    "compress": _COMPRESSOR, "uncompress": _COMPRESSOR,
    **dict.fromkeys(("lzip", "plzip", "lunzip", "clzip", "lzop", "brotli", "pbzip2", "lbzip2"), _COMPRESSOR),
    "git": Model("", handler="git"),
    # installers: the directories pip writes below (pymodules.pip_command)
    "pip": _INSTALLER, "pip3": _INSTALLER, "uv": _INSTALLER,
    "patch": Model("", handler="patch"),
    # Codex's V4A patch tool, called through the shell (readers.py)
    "apply_patch": Model("", handler="apply_patch"), "applypatch": Model("", handler="apply_patch"),
    "python": _INTERPRETER, "python2": _INTERPRETER, "python3": _INTERPRETER,
    "node": _INTERPRETER, "nodejs": _INTERPRETER, "perl": _INTERPRETER, "ruby": _INTERPRETER,
    "php": _INTERPRETER, "lua": _INTERPRETER, "deno": _INTERPRETER, "bun": _INTERPRETER,
    "Rscript": _INTERPRETER, "tclsh": _INTERPRETER, "pypy": _INTERPRETER, "pypy3": _INTERPRETER,
    "ipython": _INTERPRETER, "ipython3": _INTERPRETER, "coverage": _INTERPRETER, "coverage3": _INTERPRETER,
    "tsx": _INTERPRETER, "ts-node": _INTERPRETER, "ts-node-esm": _INTERPRETER,
    # profilers that run a Python script, module or code (interpreters.MODULE_RUNNERS)
    "pyinstrument": _INTERPRETER, "mprof": _INTERPRETER,
    # unittest's discovery as commands (testrunners.py)
    "nose2": _INTERPRETER, "green": _INTERPRETER, "green3": _INTERPRETER,
    # test runners import the files they are given or collect (testrunners.py): pytest's, with the
    # conftest.py files around them
    "pytest": _INTERPRETER, "py.test": _INTERPRETER, "pytest-3": _INTERPRETER,
    # (and JavaScript's: the test files they collect, their configuration and setup files)
    "jest": _INTERPRETER, "vitest": _INTERPRETER, "mocha": _INTERPRETER, "_mocha": _INTERPRETER,
    # other languages' interpreters (interpreters.py, `_OTHER_LANGUAGES`)
    **dict.fromkeys(("julia", "elixir", "escript", "groovy", "kotlin", "kotlinc", "swift", "guile", "sbcl",
                     "racket", "scala", "clojure", "bb", "dart", "crystal", "pwsh", "powershell", "osascript",
                     "R", "octave", "runghc", "runhaskell", "ocaml", "raku", "perl6", "luajit", "gnuplot",
                     "fish", "nu", "xonsh", "wish", "expectk", "gforth", "pike", "csh", "tcsh", "rc", "es",
                     "elvish", "ysh", "expect", "emacs"), _INTERPRETER),
}
del COMMANDS["wc."]
COMMANDS["batcat"] = COMMANDS["bat"]  # Debian's name for bat
# A shell's syntax check (`bash -n x.sh`, `sh -n -c CODE`, the walk's name for a shell whose
# options leave noexec set: analysis.noexec): nothing runs, so every word is at most read and
# no option can write (`--rcfile F` is not even sourced).
for _shell in ("bash", "sh", "dash", "rbash"):
    COMMANDS[_shell + " -n"] = Model("read...", "-o=data -O=data --rcfile=read --init-file=read", pure=True)


def model_for(name: str) -> Model | None:
    """The row of `name`; a versioned interpreter (`python3.12`) reads as its family."""
    model = COMMANDS.get(name)
    if model is None and name[-1:].isdigit():
        versioned = VERSIONED().fullmatch(name)
        if versioned is not None:
            model = COMMANDS.get(versioned.group(1))
    return model


VERSIONED = LazyPattern(r"(python[23]?|pypy[23]?|perl|ruby|node|lua|php)[0-9.]*")

# Programs whose stdin can be a program of their own (issue 11, round 7): an editor's commands
# (ed's, ex's, vim's keys and Ex commands: `ed -s <<EOF` with `e ci/gate.sh`, `w`), the
# commands of a debugger, a database client, a mail or FTP client (`!cmd` escapes, `get` and
# `save` write local files), expect's, dc's, m4's and R's programs; awk's and sed's with `-f -`.
# A heredoc, herestring, piped text or `< file` fed to one is read as its code: a protected path
# it spells, string fragments joined, fails closed. The value: None when whatever arrives on
# stdin may be the program (a mode that reads it as text instead, `vim -`, is not told apart),
# else the options whose value `-` or `/dev/stdin` names stdin as the program file.
_EDITORS = ("ed", "red", "ex", "vi", "vim", "view", "rvim", "rview", "vimdiff", "nvim", "gvim", "gview", "evim",
            "vim.tiny", "vim.basic", "vim.nox", "vim.gtk3", "nvi", "nex", "nview", "elvis")
_AWK_PROGRAM_FILES = frozenset({"-f", "--file", "-E", "--exec", "-i", "--include"})
_SED_PROGRAM_FILES = frozenset({"-f", "--file"})
STDIN_PROGRAMS: dict[str, frozenset[str] | None] = {
    **{name: None for name in _EDITORS},
    **{name: None for name in ("gdb", "expect", "dc", "m4", "R", "psql", "mysql", "mariadb", "gnuplot",
                               "octave", "mail", "mailx", "Mail", "s-nail", "ftp", "sftp", "lftp")},
    **{name: _AWK_PROGRAM_FILES for name in ("awk", "gawk", "mawk", "nawk")},
    "sed": _SED_PROGRAM_FILES, "gsed": _SED_PROGRAM_FILES,
}
# The names of stdin as a program file (`awk -f -`, `sed -f /dev/stdin`).
STDIN_FILES = frozenset({"-", "/dev/stdin", "/dev/fd/0", "/proc/self/fd/0"})


def program_on_stdin(name: str, texts: Sequence[str]) -> bool:
    """Does `name` run with `texts` (the words after it) take its program from stdin?"""
    options = STDIN_PROGRAMS.get(name, ())
    if options is None:
        return True
    if not options:
        return False
    for k, t in enumerate(texts):
        if t == "--":
            break
        if t[:1] != "-":
            continue
        if t in options or not t.startswith("--") and "-" + t[-1:] in options:
            # (`-f -`, and a bundle ending in the option: `-nf -`)
            if k + 1 < len(texts) and texts[k + 1] in STDIN_FILES:
                return True
            continue
        option, equals, value = t.partition("=")
        if equals and option in options and value in STDIN_FILES or t[:2] in options and t[2:] in STDIN_FILES:
            return True  # `--file=-`, `-f-`, `-f/dev/stdin`
    return False

# Names whose command has effects besides its mentions (they can write, run, or change what
# later commands mean): everything in the table that is not a pure reader. A plain line under
# any other name can only matter through a mention it spells (see tokenizer.PlainRun).
def names_with_effects() -> frozenset[str]:
    return frozenset(name for name, model in COMMANDS.items() if not model.pure)


# -- reading options and operands (the generic case) ------------------------------------------


class Parsed:
    """The result of reading one command's arguments against its options."""

    __slots__ = ("items", "operands", "effects", "unknown", "opaque_option")

    def __init__(self) -> None:
        self.items: list[Item] = []
        self.operands: list[int] = []  # indexes of operand arguments, in order
        self.effects: set[str] = set()
        self.unknown: list[str] = []  # options the row does not list
        self.opaque_option = False  # an unknown-valued word stood where an option may be


def read_options(model: Model, args: Sequence[Arg], start: int = 0,
                 stop_at_operand: bool = False) -> Parsed:
    """GNU-style reading: `--` ends the options, `-` is an operand, long options may be
    abbreviated and take `=value` or the next word, short options cluster (`-xzf a.tgz`);
    options may follow operands (GNU permutes) unless `stop_at_operand`."""
    options = model.options
    parsed = Parsed()
    items = parsed.items
    k = start
    n = len(args)
    done = False
    while k < n:
        a = args[k]
        t = a.text
        if not done and a.opaque and a.count == ANY:
            parsed.opaque_option = True  # its value may be any option
            items.append(Item(k, t, UNKNOWN if not model.pure else READ))
            parsed.operands.append(k)
            k += 1
            continue
        if done or t == "-" or not t.startswith("-") or (model.dash_operands and _mode_word(t)):
            items.append(Item(k, t, ""))  # role assigned by the layout below
            parsed.operands.append(k)
            k += 1
            if stop_at_operand:
                done = True
            continue
        if t == "--":
            items.append(Item(k, t, DATA))
            done = True
            k += 1
            continue
        opt = options.get(t)
        if opt is not None or t.startswith("--"):
            name, eq, value = t.partition("=")
            if opt is None:
                opt = long_option(options, name)
            if opt is None:
                parsed.unknown.append(name)
                items.append(Item(k, value if eq else t, DATA if model.pure else UNKNOWN, not eq))
                k += 1
                continue
            parsed.effects.add(opt.effect)
            if eq and opt.arg:
                items.append(Item(k, value, opt.role, False, name))
            elif opt.arg == 1 and k + 1 < n:
                items.append(Item(k, t, DATA))
                items.append(Item(k + 1, args[k + 1].text, opt.role, True, name))
                k += 1
            else:
                items.append(Item(k, t, DATA))
            k += 1
            continue
        # A cluster of short options: each letter in turn; one that takes an argument takes
        # the rest of the word or, when it ends the word, the next word.
        j = 1
        took_next = False
        while j < len(t):
            letter = "-" + t[j]
            opt = options.get(letter)
            if opt is None:
                parsed.unknown.append(letter)
                if not model.pure:
                    items.append(Item(k, t[j + 1 :] if j + 1 < len(t) else t, UNKNOWN, j + 1 >= len(t)))
                j += 1
                continue
            parsed.effects.add(opt.effect)
            if opt.arg:
                if j + 1 < len(t):
                    items.append(Item(k, t[j + 1 :], opt.role, False, letter))
                elif opt.arg == 1 and k + 1 < n:
                    items.append(Item(k + 1, args[k + 1].text, opt.role, True, letter))
                    took_next = True
                break
            j += 1
        items.append(Item(k, t, DATA))
        k += 2 if took_next else 1
    return parsed


def long_option(options: dict[str, Opt], name: str) -> Opt | None:
    """GNU accepts any unambiguous prefix of a long option (`--out` for `--output`); a name
    spelled whole is that option even where a longer one starts with it (round 10: rg's
    `--pre=CMD` was ambiguous with `--pre-glob`, read as an unknown option, and CMD not run)."""
    exact = options.get(name)
    if exact is not None:
        return exact
    if len(name) < 3:
        return None
    found = {spelling: opt for spelling, opt in options.items() if spelling.startswith(name) and spelling.startswith("--")}
    if len(found) == 1:
        return next(iter(found.values()))
    if found and len(set(found.values())) == 1:
        return next(iter(found.values()))
    return None


_MODE_WORD = LazyPattern(r"[-+=][rwxXstugoa0-7,+=-]*")


def _mode_word(text: str) -> bool:
    return _MODE_WORD().fullmatch(text) is not None


def layout_roles(layout: str, count: int) -> list[str]:
    """Roles of `count` operands under a layout such as `read... write` or `data chmod...`.

    Leading fixed roles take the first operands, trailing fixed roles the last ones, the
    repeating role (`…`) the middle; operands past a layout with no repeating role are
    `unknown` (extra operands make the command fail or mean something else)."""
    tokens = layout.split()
    repeat_at = next((k for k, tok in enumerate(tokens) if tok.endswith("...")), -1)
    if repeat_at < 0:
        return [tokens[k] if k < len(tokens) else UNKNOWN for k in range(count)]
    lead = tokens[:repeat_at]
    trail = tokens[repeat_at + 1 :]
    middle = tokens[repeat_at][:-3]
    roles = [middle] * count
    for k, role in enumerate(lead[:count]):
        roles[k] = role
    room = count - min(len(lead), count)
    for k, role in enumerate(trail[-room:] if room else []):
        roles[count - min(len(trail), room) + k] = role
    return roles


def generic(model: Model, args: Sequence[Arg]) -> Effects:
    """Roles from the row's layout and options."""
    parsed = read_options(model, args)
    effects = parsed.effects
    layout = model.layout
    tokens = layout.split()
    if "pattern" in effects or "no-mode" in effects:
        if tokens and tokens[0] == DATA:
            tokens = tokens[1:]
    target_dir = "target-dir" in effects
    if target_dir and tokens and not tokens[-1].endswith("..."):
        tokens = tokens[:-1]
        if not tokens[-1:] or not tokens[-1].endswith("..."):
            tokens.append("read...")
    if "dirs" in effects:
        tokens = ["create..."]
    layout = " ".join(tokens)
    operands = parsed.operands
    roles = layout_roles(layout, len(operands))
    if "link-sources" in effects:
        roles = [LINK if r == READ else r for r in roles]
    if "delete-sources" in effects:
        roles = [DELETE if r == READ else r for r in roles]
    if "remove" in effects:
        roles = [DELETE if r == WRITE else r for r in roles]
    if "in-place" in effects:
        roles = [WRITE if r == READ else r for r in roles]
    role_of = dict(zip(operands, roles))
    # An unknown word in last place may be no word at all: the destination role (cp's last
    # operand) may then fall on the word before it.
    last = tokens[-1] if tokens else ""
    if last and not last.endswith("...") and len(operands) > 1 and args[operands[-1]].count == ANY:
        if role_of[operands[-2]] in HARMLESS:
            role_of[operands[-2]] = last
    items = assign_roles(parsed.items, role_of)
    extra: list[Extra] = []
    unproven = None
    if "unproven" in effects:
        unproven = "an option that runs a program"
    elif parsed.unknown and not model.pure:
        unproven = f"option {parsed.unknown[0]} is not in the model"
    elif parsed.opaque_option and not model.pure:
        unproven = "a word of unknown value stands where an option may be"
    # A destination that is a directory receives each source under its own name; with `-T`
    # (or, for rsync, a source ending in `/`) it receives the source's contents instead.
    if tokens and tokens[-1] == WRITE and len(operands) >= 2 and not target_dir:
        dest = args[operands[-1]].text
        for k in operands[:-1]:
            source = args[k]
            if "no-target" in effects or model.contents == "always" or (
                    model.contents == "slash" and source.text.endswith(("/", "/."))):
                extra.append(Extra(WRITE, path=dest, tree=True, rule="into",
                                   source=() if source.opaque else (source.text,)))
            else:
                extra.extend(into(dest, source, WRITE))
    if target_dir:
        for it in items:
            if it.role == WRITE and it.option in ("-t", "--target-directory"):
                for k in operands:
                    extra.extend(into(it.text, args[k], WRITE))
    if "dest-tree" in effects and operands:
        extra.append(Extra(DELETE, path=args[operands[-1]].text, tree=True, rule="dest-tree"))
    if "backup" in effects:
        extra.extend(backups(items, extra, args))
    return Effects(tuple(items), tuple(extra), unproven)


def backups(items: Sequence[Item], extra: Sequence[Extra], args: Sequence[Arg]) -> list[Extra]:
    """`cp|mv|ln|install -b`, `-S SUF`, `--backup[=CONTROL]`: the old destination is moved to
    its name and a suffix: `-S`'s, `SIMPLE_BACKUP_SUFFIX`'s, `~`, or `.~N~` (numbered, from
    `VERSION_CONTROL`), which the environment may choose: the pattern `DEST*` (`cp -b -S .sh x
    ci/gate` writes ci/gate.sh)."""
    out = []
    for it in items:
        a = args[it.index]
        if it.role == WRITE and not a.opaque and it.option not in ("-t", "--target-directory") \
                and not it.text.endswith("/"):
            base = a.pattern if it.whole and a.pattern is not None else escape_pattern(it.text)
            out.append(Extra(WRITE, path=it.text, pattern=base + "*", rule="backup"))
    for ex in extra:
        if ex.kind == WRITE and ex.rule == "into" and not ex.tree:
            base = ex.pattern if ex.pattern is not None else escape_pattern(ex.path)
            out.append(Extra(WRITE, path=ex.path, pattern=base + "*", rule="backup"))
    return out


def in_place_backups(suffix: Arg | None, suffix_text: str, files: Sequence[Item],
                     args: Sequence[Arg]) -> list[Extra]:
    """`sed -i SUF`, `--in-place=SUF`, `perl -i SUF`: each rewritten file's original is kept
    at FILE+SUF or, when SUF holds `*`, at SUF with each `*` the file's name as given
    (`sed -i'ci/*' s/a/b/ gate.sh` writes ci/gate.sh; checked with GNU sed 4.8 and perl 5).
    A suffix of unknown value can put it anywhere (`sed -i"$S"`): a write of every path."""
    if not suffix_text and (suffix is None or not suffix.opaque):
        return []
    if suffix is not None and suffix.opaque:
        return [Extra(WRITE, path="/", tree=True, rule="backup")]
    out = []
    for it in files:
        a = args[it.index]
        if it.role != WRITE or a.opaque:
            continue
        name = a.pattern if it.whole and a.pattern is not None else escape_pattern(it.text)
        if "*" in suffix_text:
            pattern = escape_pattern(suffix_text).replace("\\*", name)
        else:
            pattern = name + escape_pattern(suffix_text)
        out.append(Extra(WRITE, path=it.text, pattern=pattern, rule="backup"))
    return out


def known_prefix(a: Arg) -> str:
    """The text of a word before its first expansion (`-i"$S"`: `-i`)."""
    t = a.text
    if not a.opaque:
        return t
    cuts = [i for i in (t.find("$"), t.find("`")) if i >= 0]
    return t[: min(cuts)] if cuts else t


def assign_roles(items: Sequence[Item], role_of: dict[int, str], default: str = DATA) -> tuple[Item, ...]:
    """Give the operand items (role '') their roles from the layout."""
    return tuple(it if it.role else Item(it.index, it.text, role_of.get(it.index, default), it.whole, it.option)
                 for it in items)


def into(directory: str, source: Arg, kind: str) -> list[Extra]:
    """`directory/basename(source)`: where cp/mv/ln put a source inside a directory."""
    text = source.text.rstrip("/")
    base = text.rsplit("/", 1)[-1]
    if source.pattern is not None:
        base_pattern = source.pattern.rstrip("/").rsplit("/", 1)[-1]
        return [Extra(kind, pattern=directory.rstrip("/") + "/" + base_pattern, rule="into")]
    if source.opaque or base in ("", ".", ".."):
        # `cp -r src/. dest`, an unknown name: anything may land in the directory (`source`:
        # the directory whose contents land there, when it is known)
        return [Extra(kind, path=directory, tree=True, rule="into", source=() if source.opaque else (text or "/",))]
    return [Extra(kind, path=directory.rstrip("/") + "/" + base, rule="into")]


# -- special readers ---------------------------------------------------------------------------


def option_of(argv: Sequence[Arg], item: Item) -> str:
    """The option an argument item belongs to: the word itself (`--file=x`, `-fx`) or the
    word before it (`-f x`)."""
    word = argv[item.index].text
    if not item.whole:
        if item.option:
            return item.option  # (the letter of a bundle that took the rest: `-cfX` is `-f`)
        return word.split("=", 1)[0] if word.startswith("--") else word[:2]
    if item.index > 0:
        prev = argv[item.index - 1].text
        return prev if prev.startswith("--") else ("-" + prev[-1] if prev.startswith("-") else prev)
    return ""


def unknown_reason(parsed: Parsed) -> str | None:
    if parsed.unknown:
        return f"option {parsed.unknown[0]} is not in the model"
    if parsed.opaque_option:
        return "a word of unknown value stands where an option may be"
    return None


def effects_of(name: str, args: Sequence[Arg], env: Env = Env(), offset: int = 0,
               model: Model | None = None) -> Effects | None:
    """The effects of command `name` on its arguments, or None when the table has no row;
    item indexes are shifted by `offset` (the position of the first argument in a longer argv).
    `model` is `model_for(name)` when the caller has it already.

    Memoised on what the effects depend on (the words' texts, patterns and opacity, and the
    stdin sources): scripts repeat their commands."""
    if model is None:
        model = model_for(name)
    if model is None:
        return None
    key = (name, tuple([(a.text, a.pattern, a.opaque, a.count) for a in args]), env, offset)
    found = _MEMO.get(key)
    if found is None:
        if model.handler is not None:
            found = _handlers()[model.handler](name, args, model, env)
        else:
            found = generic(model, args)
        if offset:
            found = Effects(tuple(Item(it.index + offset, it.text, it.role, it.whole, it.option)
                                  for it in found.items), found.extra, found.unproven)
        if len(_MEMO) >= 4096:
            _MEMO.clear()
        _MEMO[key] = found
    return found


_MEMO: dict[tuple, Effects] = {}


def _handlers() -> dict[str, Callable[[str, Sequence[Arg], Model, Env], Effects]]:
    """The readers of the rows whose syntax is not options and operands (readers.py, git.py),
    imported on first use: most command strings need none of them."""
    if not _HANDLERS:
        from polydeukes.stdlib.shell import archivers, downloads, git, readers

        _HANDLERS.update(readers.HANDLERS)
        _HANDLERS.update(archivers.HANDLERS)
        _HANDLERS.update(downloads.HANDLERS)
        _HANDLERS["remote-copy"] = _remote_command
        _HANDLERS["tarsnap"] = _remote_command
        _HANDLERS["lftp"] = _remote_command
        _HANDLERS["git"] = git.git
        _HANDLERS["pip"] = _pip_command
    return _HANDLERS


_HANDLERS: dict[str, Callable[[str, Sequence[Arg], Model, Env], Effects]] = {}


def _pip_command(name: str, args: Sequence[Arg], model: Model, env: Env) -> Effects:
    """pip's reader (pymodules.py), imported by a pip command only (not by every handler's)."""
    from polydeukes.stdlib.shell.pymodules import pip_command

    return pip_command(name, args, model, env)


def _remote_command(name: str, args: Sequence[Arg], model: Model, env: Env) -> Effects:
    """The readers of remotes.py (a bucket, a repository, a backup copied into a local
    directory), imported by such a command only."""
    from polydeukes.stdlib.shell import remotes

    return remotes.HANDLERS[model.handler](name, args, model, env)


# Emptied like the functools caches of the shell modules (bench/bench_shell.py clears every
# `cache_clear` it finds, so that a repetition pays what a first reading of the text pays).
effects_of.cache_clear = _MEMO.clear  # type: ignore[attr-defined]
