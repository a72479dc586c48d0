"""Stage 3 of the shell analysis: what a command does to the paths it names — the effect model.

`COMMANDS` is the table, one row per command, written as data: the operands' roles by position,
the options that take an argument (and that argument's role), and the options that change what
the command does (`sort -o`, `sed -i`, `rg --pre`, `cp -t`, `gzip -c` …). A few commands whose
syntax is not "options and operands" (find's expression, tar's modes, git's subcommands, dd's
`of=`, the scripts of sed and awk, patch and the archive readers) name a reader function in
`HANDLERS` instead; the functions stay small and return the same `Effects` shape.

Roles (what the command does to one operand):

    read   its bytes are read              data    not a path (pattern, message, mode, number)
    chdir  the command works in it         write   created or overwritten
    create created (mkdir, touch)          delete  removed
    move   moved away (mv's sources)       chmod   mode, owner or times changed
    link   a link to it is made            exec    run as a program or script
    code   program text run by the command unknown nothing is proven about it

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

import re
from collections.abc import Callable, Sequence
from typing import NamedTuple

import msgspec

from polydeukes.stdlib.shell.expansion import ANY, ONE, Arg

READ, DATA, CHDIR = "read", "data", "chdir"
WRITE, CREATE, DELETE, MOVE, CHMOD, LINK = "write", "create", "delete", "move", "chmod", "link"
EXEC, CODE, UNKNOWN = "exec", "code", "unknown"
HARMLESS = frozenset({READ, DATA, CHDIR})
WRITING = frozenset({WRITE, CREATE, DELETE, MOVE, CHMOD, LINK})

# What a role does, in break messages and derivation reasons.
VERBS = {
    WRITE: "writes", CREATE: "creates", DELETE: "deletes", MOVE: "moves", CHMOD: "changes the mode of",
    LINK: "links to", EXEC: "runs", CODE: "runs code naming", UNKNOWN: "uses",
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
    `extract` / `patch` (members or targets read from disk or stdin by the judge).
    `path`: a spelled path relative to the command's directory; `pattern`: a pathname pattern
    (for a path built from a glob); `tree`: the effect may reach anything below `path`;
    `rule`: names the effect in messages; `source`: for extract/patch, what to read.
    """

    kind: str
    path: str = ""
    pattern: str | None = None
    tree: bool = False
    rule: str = ""
    source: tuple = ()
    argv: tuple = ()
    names: tuple[str, ...] = ()  # find -name filters narrowing a tree effect


class Effects(msgspec.Struct, frozen=True, gc=False):
    items: tuple[Item, ...]
    extra: tuple[Extra, ...] = ()
    unproven: str | None = None


NO_EFFECTS = Effects(())


class Opt(NamedTuple):
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
})


class Model:
    """One row of the table, its option text parsed on first use."""

    __slots__ = ("layout", "option_text", "pure", "handler", "dash_operands", "_options")

    def __init__(self, layout: str, options: str = "", *, pure: bool = False,
                 handler: str | None = None, dash_operands: bool = False) -> None:
        self.layout = layout
        self.option_text = options
        self.pure = pure  # no option writes or runs anything: unknown options are harmless
        self.handler = handler
        self.dash_operands = dash_operands  # `-x` words that are no option are operands (chmod)
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
    "split": Model("read write", "-a,--suffix-length=data -b,--bytes=data -C,--line-bytes=data "
                   "-l,--lines=data -n,--number=data --additional-suffix=data "
                   "--filter=exec:unproven -t,--separator=data -d -x --numeric-suffixes=?data "
                   "--hex-suffixes=?data -e,--elide-empty-files -u,--unbuffered --verbose "
                   "--help --version"),
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
    "cp": Model("read... write", "-t,--target-directory=write:target-dir -S,--suffix=data "
                "--backup=?data --sparse=data --reflink=?data --preserve=?data "
                "--no-preserve=data --context=?data -l,--link:link-sources "
                "-s,--symbolic-link:link-sources -a -r -R -f -i -n -u -v -p -d -L -H -P -x -b "
                "-T -Z --archive --recursive --force --interactive --no-clobber --update "
                "--verbose --dereference --no-dereference --parents --attributes-only "
                "--remove-destination --strip-trailing-slashes --copy-contents "
                "--one-file-system --no-target-directory --debug --keep-directory-symlink"),
    "mv": Model("move... write", "-t,--target-directory=write:target-dir -S,--suffix=data "
                "--backup=?data --context=?data -b -f -i -n -u -v -T -Z --force --interactive "
                "--no-clobber --update --verbose --strip-trailing-slashes "
                "--no-target-directory --exchange --no-copy --debug"),
    "install": Model("read... write", "-t,--target-directory=write:target-dir "
                     "-d,--directory:dirs -m,--mode=data -o,--owner=data -g,--group=data "
                     "-S,--suffix=data --backup=?data --strip-program=exec:unproven "
                     "--context=?data -b -c -C -D -p -s -T -v -Z --compare --preserve-timestamps "
                     "--strip --no-target-directory --verbose --debug"),
    "ln": Model("link... write", "-t,--target-directory=write:target-dir -S,--suffix=data "
                "--backup=?data -b -d -F -f -i -L -n -P -r -s -T -v --force --interactive "
                "--logical --no-dereference --physical --relative --symbolic --verbose "
                "--no-target-directory --directory"),
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
                 "--no-dir-entries --no-extra --test --encrypt --latest-time --adjust-sfx"),
    "rsync": Model("read... write", "-e,--rsh=exec:unproven --rsync-path=exec:unproven "
                   "--remove-source-files:delete-sources --files-from=read --exclude-from=read "
                   "--include-from=read --exclude=data --include=data -f,--filter=data "
                   "--backup-dir=write --temp-dir=write -T=write --log-file=write "
                   "--partial-dir=write --password-file=read --chmod=data --suffix=data "
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
                   "--backup --whole-file --sparse --one-file-system --relative --stats "
                   "--ignore-existing --existing --size-only --inplace --append "
                   "--append-verify --no-motd --mkpath --safe-links --force"),
    "scp": Model("read... write", "-i=read -F=read -S=exec:unproven -o=data -P=data -c=data "
                 "-l=data -J=data -D=exec:unproven -X=data -3 -4 -6 -A -B -C -O -p -q -R -r "
                 "-T -v"),
    "dd": Model("", handler="dd"),
    "sed": Model("", handler="sed"),
    "awk": Model("", handler="awk"), "gawk": Model("", handler="awk"),
    "mawk": Model("", handler="awk"), "nawk": Model("", handler="awk"),
    "find": Model("", handler="find"),
    "tar": Model("", handler="tar"), "bsdtar": Model("", handler="tar"),
    "unzip": Model("", handler="unzip"),
    "gzip": _COMPRESSOR, "gunzip": _COMPRESSOR, "zcat": _COMPRESSOR, "bzip2": _COMPRESSOR,
    "bunzip2": _COMPRESSOR, "bzcat": _COMPRESSOR, "xz": _COMPRESSOR, "unxz": _COMPRESSOR,
    "xzcat": _COMPRESSOR, "lzma": _COMPRESSOR, "unlzma": _COMPRESSOR, "lzcat": _COMPRESSOR,
    "zstd": _COMPRESSOR, "unzstd": _COMPRESSOR, "zstdcat": _COMPRESSOR, "pigz": _COMPRESSOR,
    "unpigz": _COMPRESSOR,
    "git": Model("", handler="git"),
    "patch": Model("", handler="patch"),
    "python": _INTERPRETER, "python2": _INTERPRETER, "python3": _INTERPRETER,
    "node": _INTERPRETER, "nodejs": _INTERPRETER, "perl": _INTERPRETER, "ruby": _INTERPRETER,
    "php": _INTERPRETER, "lua": _INTERPRETER, "deno": _INTERPRETER, "bun": _INTERPRETER,
    "Rscript": _INTERPRETER, "tclsh": _INTERPRETER,
}
del COMMANDS["wc."]


def model_for(name: str) -> Model | None:
    """The row of `name`; a versioned interpreter (`python3.12`) reads as its family."""
    model = COMMANDS.get(name)
    if model is None and name[-1:].isdigit():
        versioned = _VERSIONED.fullmatch(name)
        if versioned is not None:
            model = COMMANDS.get(versioned.group(1))
    return model


_VERSIONED = re.compile(r"(python[23]?|perl|ruby|node|lua|php)[0-9.]*")

# Names whose command has effects besides its mentions (they can write, run, or change what
# later commands mean): everything in the table that is not a pure reader. A plain line under
# any other name can only matter through a mention it spells (see tokenizer.PlainRun).
def names_with_effects() -> frozenset[str]:
    return frozenset(name for name, model in COMMANDS.items() if not model.pure)


# -- reading options and operands (the generic case) ------------------------------------------


class _Parsed:
    """The result of reading one command's arguments against its options."""

    __slots__ = ("items", "operands", "effects", "unknown", "opaque_option")

    def __init__(self) -> None:
        self.items: list[Item] = []
        self.operands: list[int] = []  # indexes of operand arguments, in order
        self.effects: set[str] = set()
        self.unknown: list[str] = []  # options the row does not list
        self.opaque_option = False  # an unknown-valued word stood where an option may be


def read_options(model: Model, args: Sequence[Arg], start: int = 0,
                 stop_at_operand: bool = False) -> _Parsed:
    """GNU-style reading: `--` ends the options, `-` is an operand, long options may be
    abbreviated and take `=value` or the next word, short options cluster (`-xzf a.tgz`);
    options may follow operands (GNU permutes) unless `stop_at_operand`."""
    options = model.options
    parsed = _Parsed()
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
                opt = _long_option(options, name)
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


def _long_option(options: dict[str, Opt], name: str) -> Opt | None:
    """GNU accepts any unambiguous prefix of a long option (`--out` for `--output`)."""
    if len(name) < 3:
        return None
    found = {spelling: opt for spelling, opt in options.items() if spelling.startswith(name) and spelling.startswith("--")}
    if len(found) == 1:
        return next(iter(found.values()))
    if found and len(set(found.values())) == 1:
        return next(iter(found.values()))
    return None


_MODE_WORD = re.compile(r"[-+=][rwxXstugoa0-7,+=-]*")


def _mode_word(text: str) -> bool:
    return _MODE_WORD.fullmatch(text) is not None


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
    items = _assign(parsed.items, role_of)
    extra: list[Extra] = []
    unproven = None
    if "unproven" in effects:
        unproven = "an option that runs a program"
    elif parsed.unknown and not model.pure:
        unproven = f"option {parsed.unknown[0]} is not in the model"
    elif parsed.opaque_option and not model.pure:
        unproven = "a word of unknown value stands where an option may be"
    # A destination that is a directory receives each source under its own name.
    if tokens and tokens[-1] == WRITE and len(operands) >= 2 and not target_dir:
        dest = args[operands[-1]].text
        for k in operands[:-1]:
            extra.extend(_into(dest, args[k], WRITE))
    if target_dir:
        for it in items:
            if it.role == WRITE and it.option in ("-t", "--target-directory"):
                for k in operands:
                    extra.extend(_into(it.text, args[k], WRITE))
    if "dest-tree" in effects and operands:
        extra.append(Extra(DELETE, path=args[operands[-1]].text, tree=True, rule="dest-tree"))
    return Effects(tuple(items), tuple(extra), unproven)


def _assign(items: Sequence[Item], role_of: dict[int, str], default: str = DATA) -> tuple[Item, ...]:
    """Give the operand items (role '') their roles from the layout."""
    return tuple(it if it.role else Item(it.index, it.text, role_of.get(it.index, default), it.whole, it.option)
                 for it in items)


def _into(directory: str, source: Arg, kind: str) -> list[Extra]:
    """`directory/basename(source)`: where cp/mv/ln put a source inside a directory."""
    text = source.text.rstrip("/")
    base = text.rsplit("/", 1)[-1]
    if source.pattern is not None:
        base_pattern = source.pattern.rstrip("/").rsplit("/", 1)[-1]
        return [Extra(kind, pattern=directory.rstrip("/") + "/" + base_pattern, rule="into")]
    if source.opaque or base in ("", ".", ".."):
        # `cp -r src/. dest`, an unknown name: anything may land in the directory.
        return [Extra(kind, path=directory, tree=True, rule="into")]
    return [Extra(kind, path=directory.rstrip("/") + "/" + base, rule="into")]


# -- special readers ---------------------------------------------------------------------------


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


def _sed(name: str, args: Sequence[Arg], model: Model, env: Env) -> Effects:
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
    items = _assign(parsed.items, dict(zip(operands, roles)))
    extra: list[Extra] = []
    for script in scripts:
        writes, executes = sed_script_effects(script)
        if executes:
            unproven = "the script runs a command (`e`)"
        if writes is None:
            unproven = unproven or "the script is not read"
        for path in writes or ():
            extra.append(Extra(WRITE, path=path, rule="sed-script"))
    return Effects(items, tuple(extra), unproven or _unknown(parsed))


def sed_script_effects(script: str) -> tuple[list[str] | None, bool]:
    """The files a sed script writes (`w`, `W`, `s///w`) and whether it runs commands (`e`,
    `s///e`); None for the files when the script cannot be read."""
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
            i = end
            continue
        if cmd in "sy":
            if i >= n:
                return None, executes
            delim = script[i]
            i += 1
            for _ in range(2):
                i = _sed_part(script, i, delim)
                if i < 0:
                    return None, executes
            if cmd == "s":
                while i < n and script[i] in "gpiImMe0123456789":
                    if script[i] == "e":
                        executes = True
                    i += 1
                if i < n and script[i] == "w":
                    j = script.find("\n", i)
                    end = n if j < 0 else j
                    writes.append(script[i + 1 : end].strip())
                    i = end
            continue
        return None, executes  # a command this reader does not know
    return writes, executes


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
        if c == "\n" and delim != "\n":
            pass
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
_AWK_MODEL = Model("code read...", _AWK_OPTIONS)
_AWK_DEFAULT_FILES = {"-o": "awkprof.out", "--pretty-print": "awkprof.out", "-p": "awkprof.out",
                      "--profile": "awkprof.out", "-d": "awkvars.out", "--dump-variables": "awkvars.out"}


def _awk(name: str, args: Sequence[Arg], model: Model, env: Env) -> Effects:
    parsed = read_options(_AWK_MODEL, args, stop_at_operand=True)
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
    if any(it.role == READ and args[it.index - 1].text in ("-f", "--file", "-E", "--exec")
           for it in items if it.index > 0) or any(a.text.startswith(("--file=", "--exec=")) for a in args):
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


_AWK_STRING = re.compile(r'"(?:[^"\\\n]|\\.)*"')
_AWK_TOKEN = re.compile(r'"(?:[^"\\\n]|\\.)*"|#[^\n]*|\b(?:print|printf|getline|system|close)\b|\|&|\||>>?|[;{}\n()]|/(?:[^/\\\n]|\\.)+/')


def awk_program_effects(program: str) -> tuple[list[str] | None, bool]:
    """The files an awk program writes (`print > "f"`) and whether it runs commands
    (`system()`, pipes, `|&`); None for the files when a redirection target is computed."""
    writes: list[str] = []
    executes = False
    unknown_target = False
    in_print = False
    depth = 0
    tokens = _AWK_TOKEN.findall(program)
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
        starts = [Arg(".", None, False, ONE, args[0].word if args else None)]  # type: ignore[arg-type]
    extra: list[Extra] = []
    unproven = None
    names: list[str] = []
    narrowing = True
    deletes = False
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
            for start in starts:
                argv = tuple(_placeholder(w, start) for w in command)
                if argv:
                    extra.append(Extra("command", rule="find-exec", argv=argv, path=start.text))
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
            extra.append(Extra(DELETE, path=start.text, pattern=start.pattern, tree=True,
                               rule="find-delete", names=tuple(names) if narrowing else ()))
    return Effects(tuple(items), tuple(extra), unproven)


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
    "--transform,--xform=data -g,--listed-incremental=write -N,--newer,--after-date=data "
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
    "--check-links --force-local -M,--multi-volume -G,--incremental --ignore-case "
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
    for a in argv:
        t = a.text
        if t.startswith("--"):
            key = t.split("=", 1)[0]
            if key in _TAR_MODES:
                modes.add(_TAR_MODES[key])
            opt = _long_option(_TAR_MODEL.options, key) if key not in _TAR_MODEL.options else _TAR_MODEL.options[key]
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
        if t.startswith("--strip-components="):
            try:
                strip = int(t.split("=", 1)[1])
            except ValueError:
                transformed = True
        if t.startswith(("--transform", "--xform")):
            transformed = True
        if t in ("-P", "--absolute-names"):
            absolute = True
        if t.startswith("--checkpoint-action=") and "exec" in t:
            unproven = "a checkpoint action runs a program"
    for it in parsed.items:
        if it.role == READ and _option_of(argv, it) in ("-f", "--file"):
            archive = it.text
        elif it.role == CHDIR:
            dirs.append(it.text)
        elif it.role == EXEC and _option_of(argv, it) in ("-I", "--use-compress-program"):
            if it.text.split()[:1] and it.text.split()[0].rsplit("/", 1)[-1] not in COMPRESSORS:
                unproven = "the compression program is not a known compressor"
    stdout = "stdout" in parsed.effects
    items: list[Item] = list(prefix)
    mode = next(iter(modes)) if len(modes) == 1 else ""
    extra: list[Extra] = []
    for it in parsed.items:
        role = it.role
        if role == "":
            role = READ if mode in ("c", "r", "u", "A") else DATA
            if "delete-sources" in parsed.effects and mode in ("c", "r", "u"):
                role = DELETE
        elif role == READ and _option_of(argv, it) in ("-f", "--file") and mode in ("c", "r", "u", "A", "D"):
            role = WRITE
        elif role == EXEC:
            role = DATA if unproven is None else EXEC
        items.append(Item(_orig_index(args, argv, it.index), it.text, role, it.whole))
    if "unproven" in parsed.effects:
        unproven = "an option that runs a program"
    if not mode:
        unproven = unproven or "no single operation mode (-c, -x, -t …) is given"
    if mode == "x" and not stdout:
        source = ("tar", archive if archive not in (None, "-") else None, strip, transformed, absolute)
        for directory in dirs[-1:] or ["."]:
            extra.append(Extra("extract", path=directory, tree=True, rule="archive-extract", source=source))
    if parsed.unknown:
        unproven = unproven or f"option {parsed.unknown[0]} is not in the model"
    return Effects(tuple(items), tuple(extra), unproven)


def _option_of(argv: Sequence[Arg], item: Item) -> str:
    """The option an argument item belongs to: the word itself (`--file=x`, `-fx`) or the
    word before it (`-f x`)."""
    word = argv[item.index].text
    if not item.whole:
        return word.split("=", 1)[0] if word.startswith("--") else word[:2]
    if item.index > 0:
        prev = argv[item.index - 1].text
        return prev if prev.startswith("--") else ("-" + prev[-1] if prev.startswith("-") else prev)
    return ""


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
             "xz": (".xz", ".txz"), "lzma": (".lzma", ".tlz"), "zstd": (".zst", ".tzst")}
_FAMILY = {"gzip": "gzip", "gunzip": "gzip", "zcat": "gzip", "pigz": "gzip", "unpigz": "gzip",
           "bzip2": "bzip2", "bunzip2": "bzip2", "bzcat": "bzip2", "xz": "xz", "unxz": "xz",
           "xzcat": "xz", "lzma": "lzma", "unlzma": "lzma", "lzcat": "lzma", "zstd": "zstd",
           "unzstd": "zstd", "zstdcat": "zstd"}
_DECOMPRESSORS = frozenset({"gunzip", "zcat", "unpigz", "bunzip2", "bzcat", "unxz", "xzcat", "unlzma",
                            "lzcat", "unzstd", "zstdcat"})
_COMPRESS_OPTIONS = ("-c,--stdout,--to-stdout:stdout -d,--decompress,--uncompress:decompress "
                     "-k,--keep:keep --rm:remove -t,--test:list -l,--list:list -S,--suffix=data "
                     "-o=write -r,--recursive:recursive -f,--force -q,--quiet -v,--verbose -n,--no-name "
                     "-N,--name -1 -2 -3 -4 -5 -6 -7 -8 -9 --fast --best -T,--threads=data "
                     "-z,--compress -e,--extreme -M,--memory=data --format=data -F=data -C,--check=data "
                     "-b,--blocksize=data -p,--processes=data --long=?data -D=read --ultra --no-progress "
                     "--sparse --no-sparse --rsyncable -s --small -Q --single-stream --no-sync -L")
_COMPRESS_MODEL = Model("read...", _COMPRESS_OPTIONS)


def _compress(name: str, args: Sequence[Arg], model: Model, env: Env) -> Effects:
    parsed = read_options(_COMPRESS_MODEL, args)
    family = _FAMILY.get(name, "gzip")
    effects = parsed.effects
    stdout = "stdout" in effects or "list" in effects or name.endswith("cat")
    decompress = "decompress" in effects or name in _DECOMPRESSORS
    keep = "keep" in effects or (family == "zstd" and "remove" not in effects)
    suffixes = _SUFFIXES[family]
    custom = [it.text for it in parsed.items if it.role == DATA and _option_of(args, it) in ("-S", "--suffix")]
    if custom:
        suffixes = (custom[-1],) + suffixes
    output = [it.text for it in parsed.items if it.role == WRITE]
    items: list[Item] = []
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
        if decompress:
            for suffix in suffixes:
                if a.text.endswith(suffix) and len(a.text) > len(suffix):
                    stem = a.text[: -len(suffix)] + (".tar" if suffix.startswith(".t") and suffix not in (".tar",) and len(suffix) > 3 else "")
                    extra.append(Extra(WRITE, path=stem, rule="compress"))
                    break
            else:
                if a.pattern is not None or a.opaque:
                    extra.append(Extra(WRITE, path=a.text, pattern=a.pattern, rule="compress"))
        else:
            pattern = a.pattern + escape_suffix(suffixes[0]) if a.pattern is not None else None
            extra.append(Extra(WRITE, path=a.text + suffixes[0], pattern=pattern, rule="compress"))
    unproven = f"option {parsed.unknown[0]} is not in the model" if parsed.unknown else None
    return Effects(tuple(items), tuple(extra), unproven)


def escape_suffix(text: str) -> str:
    return "".join("\\" + c if c in "*?[]\\(){}|!@+" else c for c in text)


class Env(NamedTuple):
    """What a handler may know beyond the arguments: the command's stdin sources."""

    heredocs: tuple[str, ...] = ()  # heredoc and herestring bodies fed to the command
    stdin_file: str | None = None  # `< file`
    piped: bool = False  # stdin comes from the previous pipeline stage


def _interpreter(name: str, args: Sequence[Arg], model: Model, env: Env) -> Effects:
    """An interpreter runs code: nothing it touches is proven. Its code (`-c`/`-e` text, a
    script file, stdin) is collected for the judges' mention checks; `-i` (perl, ruby)
    rewrites its file operands in place."""
    items: list[Item] = []
    extra: list[Extra] = []
    family = _VERSIONED.fullmatch(name).group(1) if _VERSIONED.fullmatch(name) else name
    code_flags = {"python": ("-c",), "python2": ("-c",), "python3": ("-c",), "node": ("-e", "--eval", "-p", "--print"),
                  "nodejs": ("-e", "--eval", "-p", "--print"), "perl": ("-e", "-E"), "ruby": ("-e",),
                  "php": ("-r",), "lua": ("-e",), "deno": ("eval",), "bun": ("-e", "--eval"),
                  "Rscript": ("-e",), "tclsh": ()}.get(family, ("-c", "-e"))
    arg_flags = {"-W", "-X", "-m", "-r", "--require", "-I", "-M", "--import", "--loader",
                 "--check-hash-based-pycs", "-F", "-C", "--input-type", "-x"}
    in_place = False
    script_seen = False
    k = 0
    n = len(args)
    while k < n:
        a = args[k]
        t = a.text
        if script_seen:
            items.append(Item(k, t, UNKNOWN))
            k += 1
            continue
        if t in code_flags and k + 1 < n:
            items.append(Item(k, t, DATA))
            items.append(Item(k + 1, args[k + 1].text, CODE))
            k += 2
            script_seen = family in ("python", "python2", "python3")  # the rest are sys.argv
            continue
        if family in ("perl", "ruby") and t.startswith("-") and not t.startswith("--") and len(t) > 1:
            cluster = t[1:]
            if "i" in cluster:
                in_place = True
            if cluster[-1:] in ("e", "E") and k + 1 < n:
                items.append(Item(k, t, DATA))
                items.append(Item(k + 1, args[k + 1].text, CODE))
                k += 2
                continue
            items.append(Item(k, t, DATA))
            k += 1
            continue
        if t in arg_flags and k + 1 < n:
            items.append(Item(k, t, DATA))
            items.append(Item(k + 1, args[k + 1].text, EXEC if t in ("-m", "-r", "--require", "-M", "--import", "--loader") else DATA))
            k += 2
            if t == "-m":
                script_seen = True
            continue
        if t.startswith("-") and t != "-":
            items.append(Item(k, t, DATA))
            k += 1
            continue
        # The first operand is the script (or `-`: stdin); the rest are its arguments.
        if not any(it.role == CODE for it in items):
            items.append(Item(k, t, EXEC if t != "-" else DATA))
            script_seen = True
        else:
            items.append(Item(k, t, WRITE if in_place else UNKNOWN))
        k += 1
    if in_place:
        items = [Item(it.index, it.text, WRITE, it.whole) if it.role == UNKNOWN else it for it in items]
    return Effects(tuple(items), tuple(extra), "an interpreter runs code")


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
        option = _option_of(args, it)
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
    if not operands:
        extra.append(Extra("patch", path=directory, tree=True, rule="patch",
                           source=_patch_source(input_file, env, strip, "")))
    return Effects(tuple(items), tuple(extra), unproven)


def _patch_source(input_file: str | None, env: Env, strip: int | None, prefix: str) -> tuple:
    """Where a patch comes from: ('file', path) or ('text', body) or ('stdin',) (unknown)."""
    if input_file is not None and input_file != "-":
        return ("file", input_file, strip, prefix)
    if env.heredocs and len(env.heredocs) == 1 and env.stdin_file is None:
        return ("text", env.heredocs[0], strip, prefix)
    if env.stdin_file is not None and not env.heredocs:
        return ("file", env.stdin_file, strip, prefix)
    return ("stdin", None, strip, prefix)


# -- git ---------------------------------------------------------------------------------------

_GIT_GLOBAL = ("-C=chdir -c=data:unproven --config-env=data:unproven --exec-path=?data "
               "--git-dir=chdir --work-tree=chdir --namespace=data --super-prefix=data "
               "--attr-source=data --list-cmds=data -p,--paginate -P,--no-pager --bare "
               "--no-replace-objects --literal-pathspecs --glob-pathspecs --noglob-pathspecs "
               "--icase-pathspecs --no-optional-locks --version --help --html-path "
               "--man-path --info-path --no-lazy-fetch --no-advice")
_GIT_GLOBAL_MODEL = Model("", _GIT_GLOBAL)
# Options of the reading subcommands that write a file or run a program.
_GIT_READ_EXTRA = ("--output=write --ext-diff:unproven --textconv:unproven "
                   "-O,--open-files-in-pager=?exec:unproven --contents=read -S=data -G=data "
                   "--author=data --committer=data --grep=data --format=data --pretty=?data "
                   "-L=data -n,--max-count=data --since=data --until=data --after=data "
                   "--before=data --skip=data -U,--unified=data --stat=?data --color=?data "
                   "--word-diff=?data --diff-filter=data --relative=?data -e=data -f=read "
                   "-A,--after-context=data -B,--before-context=data -C,--context=data "
                   "--max-depth=data -m,--max-count=data --abbrev=?data --date=data "
                   "--decorate=?data --encoding=data --notes=?data -M,--find-renames=?data "
                   "--find-copies=?data -l=data --src-prefix=data --dst-prefix=data "
                   "--line-prefix=data --exclude=data --ignore-submodules=?data "
                   "--submodule=?data --ws-error-highlight=data --anchored=data "
                   "--diff-algorithm=data --stat-width=data --stat-count=data "
                   "--dirstat=?data --inter-hunk-context=data -x,--exclude=data "
                   "-X,--exclude-from=read --exclude-per-directory=data --with-tree=data "
                   "--format=data --sort=data --points-at=data --contains=?data "
                   "--merged=?data --no-merged=?data --ignore-rev=data --ignore-revs-file=read "
                   "--path-format=data --short=?data --default=data --git-path=data "
                   "--show-prefix --show-toplevel --pathspec-from-file=read --batch=?data "
                   "--filters --path=data --open-files-in-pager=?exec:unproven")
_GIT_READERS = frozenset({
    "status", "diff", "log", "show", "blame", "annotate", "grep", "ls-files", "ls-tree",
    "rev-parse", "rev-list", "cat-file", "describe", "shortlog", "reflog", "whatchanged",
    "diff-tree", "diff-files", "diff-index", "show-ref", "for-each-ref", "name-rev",
    "merge-base", "count-objects", "check-ignore", "check-attr", "var", "version", "help",
    "branch", "tag", "remote", "fetch", "push", "ls-remote", "range-diff", "cherry",
    "show-branch", "verify-commit", "verify-tag", "fsck", "gc", "prune", "repack",
    "maintenance", "notes", "bugreport", "config", "archive", "format-patch", "bundle",
    "add", "commit", "hash-object", "update-index", "worktree", "init", "clone", "submodule",
    "sparse-checkout", "mergetool", "difftool",
})
# Subcommands that rewrite the work tree from history (or from a patch).
_GIT_TREE_WRITERS = frozenset({
    "checkout", "switch", "restore", "reset", "rm", "mv", "apply", "am", "stash", "clean",
    "merge", "pull", "rebase", "cherry-pick", "revert", "bisect", "read-tree",
    "checkout-index",
})


def _git(name: str, args: Sequence[Arg], model: Model, env: Env) -> Effects:
    items: list[Item] = []
    unproven = None
    k = 0
    n = len(args)
    chdirs: list[str] = []
    work_tree: str | None = None
    global_options = _GIT_GLOBAL_MODEL.options
    # Global options come before the subcommand; their `-c` is config (a program may run).
    while k < n and args[k].text.startswith("-") and not args[k].opaque:
        t = args[k].text
        key, eq, value = t.partition("=")
        opt = global_options.get(key)
        if opt is None:
            unproven = f"global option {key} is not in the model"
            items.append(Item(k, t, UNKNOWN))
            k += 1
            continue
        if opt.effect == "unproven":
            unproven = f"git {key} sets configuration, which may run a program"
        if key == "--exec-path" and eq:
            unproven = "git --exec-path chooses the programs git runs"
        if opt.arg == 1 and not eq and k + 1 < n:
            items.append(Item(k, t, DATA))
            items.append(Item(k + 1, args[k + 1].text, opt.role))
            if opt.role == CHDIR:
                if key == "--work-tree":
                    work_tree = args[k + 1].text
                elif key == "-C":
                    chdirs.append(args[k + 1].text)
            k += 2
            continue
        if eq:
            items.append(Item(k, value, opt.role, False))
            if key == "--work-tree":
                work_tree = value
        else:
            items.append(Item(k, t, DATA))
        k += 1
    if k >= n:
        return Effects(tuple(items), (), unproven)
    sub_arg = args[k]
    sub = sub_arg.text
    items.append(Item(k, sub, DATA if not sub_arg.opaque else UNKNOWN))
    rest = list(args[k + 1 :])
    offset = k + 1
    base = "/".join(chdirs) if chdirs else "."
    tree_dir = work_tree if work_tree is not None else base
    if sub_arg.opaque:
        return Effects(tuple(items), (), "the git subcommand is not known")
    handler = _GIT_SUBCOMMANDS.get(sub)
    if handler is not None:
        found = handler(rest, env, tree_dir)
    elif sub in _GIT_READERS:
        found = _git_reader(sub, rest)
    else:
        found = Effects(tuple(Item(j, a.text, UNKNOWN) for j, a in enumerate(rest)), (),
                        f"git {sub} is not in the model")
    shifted = [Item(it.index + offset, it.text, it.role, it.whole) for it in found.items]
    extra = [
        Extra(e.kind, path=_join(base, e.path) if e.path and not e.path.startswith("/") and e.rule != "whole-tree" else e.path,
              pattern=e.pattern, tree=e.tree, rule=e.rule, source=e.source, argv=e.argv, names=e.names)
        for e in found.extra
    ]
    return Effects(tuple(items) + tuple(shifted), tuple(extra), unproven or found.unproven)


def _join(base: str, path: str) -> str:
    if base in ("", "."):
        return path
    return base.rstrip("/") + "/" + path


_GIT_READER_MODELS: dict[str, Model] = {}


def _git_reader(sub: str, rest: Sequence[Arg]) -> Effects:
    """A subcommand that does not touch the work tree: its operands are revisions or paths it
    reads; `--output`, `--ext-diff`, `--textconv` and `-O` write or run programs."""
    extra_options = {
        "grep": "-c,--count -O,--open-files-in-pager=?exec:unproven -e=data -f=read",
        "config": "-f,--file=read --blob=data --get --get-all --get-regexp --get-urlmatch "
                  "--list -l --show-origin --show-scope --name-only --type=data --default=data",
        "archive": "-o,--output=write --remote=data --exec=exec:unproven --prefix=data "
                   "--format=data --add-file=read --add-virtual-file=data",
        "format-patch": "-o,--output-directory=write --stdout -N --cover-letter --to=data "
                        "--cc=data --subject-prefix=data -v,--reroll-count=data --base=data "
                        "--signature=data --signature-file=read --in-reply-to=data",
        "commit": "-m,--message=data -F,--file=read -C,--reuse-message=data "
                  "-c,--reedit-message=data -t,--template=read --author=data --date=data "
                  "--fixup=data --squash=data --cleanup=data -a,--all --amend -q -v -s -n "
                  "--no-verify --allow-empty --no-edit -e --edit -S=?data --trailer=data",
        "add": "--chmod=data --pathspec-from-file=read -A,--all -u,--update -f,--force -n "
               "--dry-run -v -p -i -N --intent-to-add --renormalize --ignore-errors "
               "--ignore-missing --sparse",
        "fetch": "--upload-pack=exec:unproven", "pull": "--upload-pack=exec:unproven",
        "push": "--receive-pack=exec:unproven --exec=exec:unproven",
        "ls-remote": "--upload-pack=exec:unproven", "clone": "--upload-pack=exec:unproven "
                     "-u=exec:unproven --template=read --separate-git-dir=write "
                     "-b,--branch=data --depth=data -o,--origin=data --reference=read",
        "init": "--template=read --separate-git-dir=write -b,--initial-branch=data",
        "bundle": "--progress",
        "worktree": "-b=data -B=data --reason=data",
    }.get(sub, "")
    model = _GIT_READER_MODELS.get(sub)
    if model is None:
        model = _GIT_READER_MODELS[sub] = Model("read...", _GIT_READ_EXTRA + " " + extra_options)
    parsed = read_options(model, rest)
    items = [Item(it.index, it.text, READ if it.role == "" else it.role, it.whole) for it in parsed.items]
    extra: list[Extra] = []
    unproven = None
    if "unproven" in parsed.effects:
        unproven = "an option that runs a program"
    operands = [rest[k].text for k in parsed.operands]
    if sub == "config" and not any(a.text in ("--get", "--get-all", "--get-regexp", "--list", "-l",
                                               "--get-urlmatch", "--show-origin", "--name-only")
                                   for a in rest) and len(operands) >= 2:
        # Setting a value writes the config file: `--file F` names it.
        items = [Item(it.index, it.text, WRITE if it.role == READ and _option_of(rest, it) in ("-f", "--file") else
                      (DATA if it.role == READ else it.role), it.whole) for it in items]
        if any("alias." in op or "core.pager" in op or "diff." in op or "filter." in op or "core.hooks" in op
               or "core.fsmonitor" in op or "core.sshcommand" in op.lower() for op in operands):
            unproven = "this configuration can make git run a program"
    if sub in ("format-patch",) and not any(a.text == "--stdout" for a in rest):
        if not any(it.role == WRITE for it in items):
            extra.append(Extra(WRITE, pattern="[0-9][0-9][0-9][0-9]-*.patch", rule="format-patch"))
    if sub in ("init", "clone", "worktree", "submodule", "sparse-checkout", "mergetool", "difftool"):
        return _git_other(sub, rest, items, extra, unproven)
    if sub == "bundle" and operands[:1] == ["create"] and len(operands) >= 2:
        items = [Item(it.index, it.text, WRITE if it.text == operands[1] and it.role == READ else it.role, it.whole)
                 for it in items]
    if sub in ("branch", "tag", "remote", "notes", "reflog", "bundle", "fetch", "push", "gc", "prune",
               "repack", "maintenance", "ls-remote"):
        items = [Item(it.index, it.text, DATA if it.role == READ else it.role, it.whole) for it in items]
    if parsed.unknown:
        # git has many harmless options; only the listed ones write or run programs. An unknown
        # option of a reading subcommand is read as a flag (its operands stay reads).
        pass
    return Effects(tuple(items), tuple(extra), unproven)


def _git_other(sub: str, rest: Sequence[Arg], items: list[Item], extra: list[Extra],
               unproven: str | None) -> Effects:
    operands = [(it.index, it.text) for it in items if it.role == READ and it.whole]
    if sub == "init":
        items = [Item(it.index, it.text, CREATE if it.role == READ else it.role, it.whole) for it in items]
    elif sub == "clone":
        # `git clone URL [DIR]`: the directory is created (the URL is data).
        roles = {index: (DATA if k == 0 else CREATE) for k, (index, _) in enumerate(operands)}
        items = [Item(it.index, it.text, roles.get(it.index, it.role) if it.role == READ else it.role, it.whole)
                 for it in items]
    elif sub == "worktree":
        action = operands[0][1] if operands else ""
        roles = {}
        for k, (index, _) in enumerate(operands):
            roles[index] = DATA if k == 0 else (CREATE if action == "add" and k == 1 else
                                                DELETE if action in ("remove", "prune") and k == 1 else DATA)
        items = [Item(it.index, it.text, roles.get(it.index, it.role) if it.role == READ else it.role, it.whole)
                 for it in items]
    else:
        # submodule, sparse-checkout, mergetool, difftool: they check files out or run tools.
        action = operands[0][1] if operands else ""
        if sub == "submodule" and action in ("", "status", "summary", "foreach"):
            if action == "foreach":
                unproven = "git submodule foreach runs a command"
            items = [Item(it.index, it.text, DATA if it.role == READ else it.role, it.whole) for it in items]
            return Effects(tuple(items), tuple(extra), unproven)
        if sub == "sparse-checkout" and action == "list":
            return Effects(tuple(items), tuple(extra), unproven)
        extra.append(Extra(WRITE, path=".", tree=True, rule="whole-tree"))
        unproven = unproven or (f"git {sub} runs a tool" if sub in ("mergetool", "difftool") else None)
    return Effects(tuple(items), tuple(extra), unproven)


def _git_options(text: str) -> Model:
    return Model("read...", text)


_CHECKOUT = _git_options("-b=data -B=data --orphan=data -t,--track=?data --no-track -f,--force "
                         "-m,--merge --ours --theirs -p,--patch --detach -q,--quiet --progress "
                         "--no-progress --conflict=data --overlay --no-overlay "
                         "--ignore-other-worktrees --recurse-submodules --no-recurse-submodules "
                         "--pathspec-from-file=read --pathspec-file-nul --guess --no-guess "
                         "-l --ignore-skip-worktree-bits")
_SWITCH = _git_options("-c,--create=data -C,--force-create=data --orphan=data -d,--detach "
                       "--discard-changes -f,--force -m,--merge -t,--track=?data --no-track "
                       "--guess --no-guess -q,--quiet --progress --no-progress --conflict=data "
                       "--ignore-other-worktrees --recurse-submodules --no-recurse-submodules")
_RESTORE = _git_options("-s,--source=data -S,--staged -W,--worktree -p,--patch --ours --theirs "
                        "-m,--merge --conflict=data --ignore-unmerged --overlay --no-overlay "
                        "--pathspec-from-file=read --pathspec-file-nul -q,--quiet --progress "
                        "--no-progress --recurse-submodules --no-recurse-submodules "
                        "--ignore-skip-worktree-bits")
_RESET = _git_options("--hard --merge --keep --soft --mixed -q,--quiet -p,--patch -N "
                      "--pathspec-from-file=read --pathspec-file-nul --recurse-submodules "
                      "--no-recurse-submodules --refresh --no-refresh")
_GIT_RM = _git_options("--cached -f,--force -r -n,--dry-run:dry-run -q,--quiet "
                       "--ignore-unmatch --sparse --pathspec-from-file=read --pathspec-file-nul")
_GIT_MV = _git_options("-f,--force -k -n,--dry-run:dry-run -v,--verbose --sparse")
_APPLY = _git_options("--stat --numstat --summary --check --index --intent-to-add -N --cached "
                      "-3,--3way --ours --theirs --union --build-fake-ancestor=write -R,--reverse "
                      "--reject -z -p=data -C=data --unidiff-zero --apply --no-add --binary "
                      "--exclude=data --include=data --ignore-space-change --ignore-whitespace "
                      "--whitespace=data --inaccurate-eof -v,--verbose -q,--quiet --recount "
                      "--directory=data --unsafe-paths --allow-empty --allow-overlap")
_AM = _git_options("-s,--signoff -k,--keep --keep-non-patch --keep-cr --no-keep-cr -c,--scissors "
                   "--no-scissors --quoted-cr=data -m,--message-id --no-message-id -q,--quiet "
                   "-u,--utf8 --no-utf8 -3,--3way --no-3way --rerere-autoupdate "
                   "--no-rerere-autoupdate --ignore-space-change --ignore-whitespace "
                   "--whitespace=data -C=data -p=data --directory=data --exclude=data "
                   "--include=data --reject --patch-format=data -i,--interactive "
                   "--committer-date-is-author-date --ignore-date --skip --continue -r,--resolved "
                   "--resolvemsg=data --abort --quit --retry --show-current-patch=?data "
                   "--allow-empty -S,--gpg-sign=?data --no-gpg-sign --empty=data")
_STASH = _git_options("-p,--patch -S,--staged -k,--keep-index --no-keep-index "
                      "-u,--include-untracked -a,--all -q,--quiet -m,--message=data "
                      "--pathspec-from-file=read --pathspec-file-nul --index --only-untracked")
_CLEAN = _git_options("-d -f,--force -i,--interactive -n,--dry-run:dry-run -q,--quiet "
                      "-e,--exclude=data -x -X")


def _operands_after(parsed: _Parsed, rest: Sequence[Arg]) -> tuple[list[int], list[int]]:
    """Operand indexes before and after a `--` (pathspecs come after it)."""
    dash = next((k for k, a in enumerate(rest) if a.text == "--"), None)
    if dash is None:
        return parsed.operands, []
    return [k for k in parsed.operands if k < dash], [k for k in parsed.operands if k > dash]


def _whole_tree(rule_dir: str) -> Extra:
    return Extra(WRITE, path=rule_dir, tree=True, rule="whole-tree")


def _roles(parsed: _Parsed, roles: dict[int, str], default: str = DATA) -> tuple[Item, ...]:
    return tuple(Item(it.index, it.text, roles.get(it.index, default) if it.role == "" else it.role, it.whole)
                 for it in parsed.items)


def _git_checkout(rest: Sequence[Arg], env: Env, tree_dir: str) -> Effects:
    parsed = read_options(_CHECKOUT, rest)
    before, after = _operands_after(parsed, rest)
    creates = any(a.text in ("-b", "-B", "--orphan") or a.text.startswith(("-b", "-B", "--orphan="))
                  for a in rest)
    roles: dict[int, str] = {}
    extra: list[Extra] = []
    if after:
        roles.update({k: DATA for k in before})
        roles.update({k: WRITE for k in after})
    elif creates:
        roles.update({k: DATA for k in before})
        if before:
            extra.append(_whole_tree(tree_dir))  # a new branch at another commit
    elif len(before) == 1:
        roles[before[0]] = WRITE  # a path to restore, or a branch to switch to
        extra.append(_whole_tree(tree_dir))
    elif before:
        roles.update({k: WRITE for k in before})
        extra.append(_whole_tree(tree_dir))
    if any(a.text.startswith("--pathspec-from-file") for a in rest) or any(rest[k].opaque for k in before + after):
        extra.append(_whole_tree(tree_dir))
    if any(a.text in ("-p", "--patch") for a in rest) and not after:
        extra.append(_whole_tree(tree_dir))
    return Effects(_roles(parsed, roles), tuple(extra), _unknown(parsed))


def _unknown(parsed: _Parsed) -> str | None:
    if parsed.unknown:
        return f"option {parsed.unknown[0]} is not in the model"
    if parsed.opaque_option:
        return "a word of unknown value stands where an option may be"
    return None


def _git_switch(rest: Sequence[Arg], env: Env, tree_dir: str) -> Effects:
    parsed = read_options(_SWITCH, rest)
    creates = any(a.text in ("-c", "-C", "--create", "--force-create", "--orphan") or
                  a.text.startswith(("--create=", "--force-create=", "--orphan=")) for a in rest)
    extra: list[Extra] = []
    if not (creates and not parsed.operands):
        extra.append(_whole_tree(tree_dir))
    return Effects(_roles(parsed, {}), tuple(extra), _unknown(parsed))


def _git_restore(rest: Sequence[Arg], env: Env, tree_dir: str) -> Effects:
    parsed = read_options(_RESTORE, rest)
    texts = [a.text for a in rest]
    staged_only = any(t in ("-S", "--staged") for t in texts) and not any(t in ("-W", "--worktree") for t in texts)
    role = DATA if staged_only else WRITE
    roles = {k: role for k in parsed.operands}
    extra = []
    if not staged_only and (any(t.startswith("--pathspec-from-file") for t in texts)
                            or any(rest[k].opaque for k in parsed.operands)):
        extra.append(_whole_tree(tree_dir))
    return Effects(_roles(parsed, roles), tuple(extra), _unknown(parsed))


def _git_reset(rest: Sequence[Arg], env: Env, tree_dir: str) -> Effects:
    parsed = read_options(_RESET, rest)
    hard = any(a.text in ("--hard", "--merge", "--keep") for a in rest)
    extra = [_whole_tree(tree_dir)] if hard else []
    return Effects(_roles(parsed, {}), tuple(extra), _unknown(parsed))


def _git_rm(rest: Sequence[Arg], env: Env, tree_dir: str) -> Effects:
    parsed = read_options(_GIT_RM, rest)
    harmless = any(a.text == "--cached" for a in rest) or "dry-run" in parsed.effects
    roles = {k: DATA if harmless else DELETE for k in parsed.operands}
    extra = []
    if not harmless and any(a.text.startswith("--pathspec-from-file") for a in rest):
        extra.append(Extra(DELETE, path=tree_dir, tree=True, rule="whole-tree"))
    return Effects(_roles(parsed, roles), tuple(extra), _unknown(parsed))


def _git_mv(rest: Sequence[Arg], env: Env, tree_dir: str) -> Effects:
    parsed = read_options(_GIT_MV, rest)
    if "dry-run" in parsed.effects:
        return Effects(_roles(parsed, {k: READ for k in parsed.operands}), (), _unknown(parsed))
    operands = parsed.operands
    roles = {k: MOVE for k in operands[:-1]}
    if operands:
        roles[operands[-1]] = WRITE
    extra = []
    if len(operands) >= 2:
        for k in operands[:-1]:
            extra.extend(_into(rest[operands[-1]].text, rest[k], WRITE))
    return Effects(_roles(parsed, roles), tuple(extra), _unknown(parsed))


def _git_apply(rest: Sequence[Arg], env: Env, tree_dir: str) -> Effects:
    parsed = read_options(_APPLY, rest)
    texts = [a.text for a in rest]
    index_only = "--cached" in texts
    checking = any(t in ("--stat", "--numstat", "--summary", "--check") for t in texts) and "--apply" not in texts
    roles = {k: READ for k in parsed.operands}
    extra: list[Extra] = []
    if not index_only and not checking:
        strip = 1
        prefix = ""
        for it in parsed.items:
            option = _option_of(rest, it)
            if option == "-p" and it.role == DATA:
                try:
                    strip = int(it.text)
                except ValueError:
                    strip = 1
            if option == "--directory" and it.role == DATA:
                prefix = it.text
        files = [rest[k].text for k in parsed.operands]
        if files:
            for path in files:
                extra.append(Extra("patch", path=tree_dir, tree=True, rule="patch",
                                   source=_patch_source(path, env, strip, prefix)))
        else:
            extra.append(Extra("patch", path=tree_dir, tree=True, rule="patch",
                               source=_patch_source(None, env, strip, prefix)))
    return Effects(_roles(parsed, roles), tuple(extra), _unknown(parsed))


def _git_am(rest: Sequence[Arg], env: Env, tree_dir: str) -> Effects:
    parsed = read_options(_AM, rest)
    texts = [a.text for a in rest]
    roles = {k: READ for k in parsed.operands}
    extra: list[Extra] = []
    if any(t in ("--quit",) or t.startswith("--show-current-patch") for t in texts):
        return Effects(_roles(parsed, roles), (), _unknown(parsed))
    if any(t in ("--abort", "--skip", "--continue", "-r", "--resolved", "--retry", "-i", "--interactive")
           for t in texts):
        extra.append(_whole_tree(tree_dir))
    else:
        files = [rest[k].text for k in parsed.operands]
        for path in files or [None]:
            extra.append(Extra("patch", path=tree_dir, tree=True, rule="patch",
                               source=_patch_source(path, env, 1, "")))
    return Effects(_roles(parsed, roles), tuple(extra), _unknown(parsed))


def _git_stash(rest: Sequence[Arg], env: Env, tree_dir: str) -> Effects:
    action = rest[0].text if rest and not rest[0].text.startswith("-") else "push"
    args = rest[1:] if rest and not rest[0].text.startswith("-") else rest
    offset = 1 if rest and not rest[0].text.startswith("-") else 0
    parsed = read_options(_STASH, args)
    items = tuple(Item(it.index + offset, it.text, DATA if it.role == "" else it.role, it.whole)
                  for it in parsed.items)
    if offset:
        items = (Item(0, rest[0].text, DATA),) + items
    if action in ("list", "show", "drop", "clear", "create", "store"):
        return Effects(items, (), None)
    if action in ("push", "save") and action == "push":
        before, after = _operands_after(parsed, args)
        paths = after or (before if action == "push" else [])
        if paths and not any(args[k].opaque for k in paths):
            items = tuple(Item(it.index, it.text, WRITE if it.index - offset in paths and it.role == DATA and it.whole
                               else it.role, it.whole) for it in items)
            return Effects(items, (), _unknown(parsed))
    return Effects(items, (_whole_tree(tree_dir),), _unknown(parsed))


def _git_clean(rest: Sequence[Arg], env: Env, tree_dir: str) -> Effects:
    parsed = read_options(_CLEAN, rest)
    if "dry-run" in parsed.effects:
        return Effects(_roles(parsed, {}), (), _unknown(parsed))
    extra: list[Extra] = []
    roles = {k: DELETE for k in parsed.operands}
    if not parsed.operands or any(a.text in ("-i", "--interactive") for a in rest):
        extra.append(Extra(DELETE, path=".", tree=True, rule="whole-tree"))
    return Effects(_roles(parsed, roles), tuple(extra), _unknown(parsed))


def _git_rewrite(rest: Sequence[Arg], env: Env, tree_dir: str) -> Effects:
    """merge, pull, rebase, cherry-pick, revert, bisect …: the whole tree may change."""
    texts = [a.text for a in rest]
    if texts[:1] in (["log"], ["view"], ["visualize"], ["terms"]):
        return Effects(tuple(Item(k, t, DATA) for k, t in enumerate(texts)), (), None)
    unproven = None
    if any(t in ("-x", "--exec") or t.startswith("--exec=") for t in texts) or texts[:1] == ["run"]:
        unproven = "the command runs a program"
    items = tuple(Item(k, a.text, DATA if not a.opaque else UNKNOWN) for k, a in enumerate(rest))
    return Effects(items, (_whole_tree(tree_dir),), unproven)


_GIT_SUBCOMMANDS: dict[str, Callable[[Sequence[Arg], Env, str], Effects]] = {
    "checkout": _git_checkout, "switch": _git_switch, "restore": _git_restore,
    "reset": _git_reset, "rm": _git_rm, "mv": _git_mv, "apply": _git_apply, "am": _git_am,
    "stash": _git_stash, "clean": _git_clean, "merge": _git_rewrite, "pull": _git_rewrite,
    "rebase": _git_rewrite, "cherry-pick": _git_rewrite, "revert": _git_rewrite,
    "bisect": _git_rewrite, "read-tree": _git_rewrite, "checkout-index": _git_rewrite,
}


HANDLERS: dict[str, Callable[[str, Sequence[Arg], Model, Env], Effects]] = {
    "dd": _dd, "sed": _sed, "awk": _awk, "find": _find, "tar": _tar, "unzip": _unzip,
    "compress": _compress, "git": _git, "patch": _patch, "interpreter": _interpreter,
}

UNMODELLED = "no model of this command"


def effects_of(name: str, args: Sequence[Arg], env: Env = Env(), offset: int = 0) -> Effects | None:
    """The effects of command `name` on its arguments, or None when the table has no row;
    item indexes are shifted by `offset` (the position of the first argument in a longer argv).

    Memoised on what the effects depend on (the words' texts, patterns and opacity, and the
    stdin sources): scripts repeat their commands."""
    model = model_for(name)
    if model is None:
        return None
    key = (name, tuple([(a.text, a.pattern, a.opaque, a.count) for a in args]), env, offset)
    found = _MEMO.get(key)
    if found is None:
        if model.handler is not None:
            found = HANDLERS[model.handler](name, args, model, env)
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
