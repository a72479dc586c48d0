"""git in the effect model (see effects.py): global options, then one reader per subcommand.

The reading subcommands (diff, log, show, blame, grep, status, ls-files, add, commit …) read
their operands; `--output`, `--ext-diff`, `--textconv`, `-O` and a global `-c` write or run
programs. The subcommands that rewrite the work tree from history or a patch (checkout, switch,
restore, reset --hard, rm, mv, apply, am, stash, clean, merge, pull, rebase, cherry-pick,
revert, bisect …) write their pathspecs, or the whole tree (`Extra(rule="whole-tree")`) when
they name none; a patch's targets are read by the judge (`Extra(kind="patch")`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from polydeukes.stdlib.shell.effects import (
    CHDIR,
    CREATE,
    DATA,
    DELETE,
    MOVE,
    READ,
    REDIRECTED_HOOKS,
    STAGE,
    UNKNOWN,
    WRITE,
    Effects,
    Env,
    Extra,
    Item,
    Model,
    Parsed,
    into,
    option_of,
    read_options,
    unknown_reason,
)
from polydeukes.stdlib.shell.expansion import Arg
from polydeukes.stdlib.shell.readers import patch_source

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
def git(name: str, args: Sequence[Arg], model: Model, env: Env) -> Effects:
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
                elif key == "-C" and not args[k + 1].opaque and args[k + 1].pattern is None:
                    chdirs.append(args[k + 1].text)  # (one of unknown value: analysis.py, `view.cwd`)
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
    hooks = _hooks_skipped(sub, rest) or _hooks_redirected(args[:k], sub, rest)
    if hooks is not None:
        found = Effects(found.items, (*found.extra, hooks), found.unproven)
    shifted = [Item(it.index + offset, it.text, it.role, it.whole) for it in found.items]
    # Paths git writes are relative to `-C`, or to the work tree's top with `--work-tree`.
    pathspec_base = work_tree if work_tree is not None else base
    # `--icase-pathspecs` folds case in every pathspec (`git --icase-pathspecs rm CI/GATE.SH`).
    icase = any(a.text == "--icase-pathspecs" for a in args[:k])
    extra = [
        Extra(e.kind, path=_join(pathspec_base if e.rule in _PATHSPEC_RULES else base, e.path)
              if e.path and not e.path.startswith("/") and e.rule != "whole-tree" and e.kind != "hooks" else e.path,
              pattern=_join(pathspec_base, e.pattern) if e.pattern is not None and e.rule in _PATHSPEC_RULES else e.pattern,
              tree=e.tree, rule="pathspec-icase" if icase and e.rule in _PATHSPEC_RULES else e.rule,
              source=e.source, argv=e.argv, names=e.names, what=e.what)
        for e in found.extra
    ]
    return Effects(tuple(items) + tuple(shifted), tuple(extra), unproven or found.unproven)


# -- hooks ---------------------------------------------------------------------------------------
#
# A git hook that `pdks init --git` installed (and protected) is only a gate while git runs it.
# `--no-verify` skips hooks for one command and `core.hooksPath` points git at other hooks: both
# are effects on the hook, an `Extra(kind="hooks")` the judge breaks on when a protected path is
# such a hook (`names` the hooks skipped, empty for all; `path` how). Environment variables and
# user-level configuration that do the same are outside the line (docs/security.md).

# `--no-verify` per subcommand: the hooks it skips.
_NO_VERIFY_HOOKS = {
    "commit": ("pre-commit", "commit-msg"),
    "merge": ("pre-merge-commit", "commit-msg"),
    "pull": ("pre-merge-commit", "commit-msg"),
    "push": ("pre-push",),
    "am": ("applypatch-msg", "pre-applypatch"),
    "rebase": ("pre-rebase",),
}
# commit's short options that take an argument: in a bundle (`-nm msg`), the letters after one
# of them are its argument, not options.
_COMMIT_ARGUMENT_LETTERS = frozenset("mFCctS")
_CONFIG_TAKES_VALUE = frozenset({"-f", "--file", "--blob", "--type", "--default", "--comment", "--value",
                                 "--url"})
_CONFIG_READS = frozenset({"--get", "--get-all", "--get-regexp", "--get-urlmatch", "--list", "-l",
                           "--show-origin", "--show-scope", "--name-only", "get", "list"})


def _hooks_skipped(sub: str, rest: Sequence[Arg]) -> Extra | None:
    hooks = _NO_VERIFY_HOOKS.get(sub)
    if hooks is None:
        return None
    for a in rest:
        t = a.text
        if t == "--":
            break
        key = t.split("=", 1)[0]
        # (git takes any unambiguous abbreviation of a long option: `--no-veri`)
        if len(key) >= len("--no-veri") and "--no-verify".startswith(key):
            return Extra("hooks", path="--no-verify", rule="skip-hook", names=hooks)
        if sub == "commit" and t.startswith("-") and not t.startswith("--"):
            for letter in t[1:]:
                if letter == "n":
                    return Extra("hooks", path="-n", rule="skip-hook", names=hooks)
                if letter in _COMMIT_ARGUMENT_LETTERS:
                    break
    return None


def _hooks_redirected(global_args: Sequence[Arg], sub: str, rest: Sequence[Arg]) -> Extra | None:
    """`git -c core.hooksPath=…`, `--config-env=core.hooksPath=…`, or a `git config` that sets,
    unsets or edits core.hooksPath (any scope or file): every hook git runs may change."""
    redirect = REDIRECTED_HOOKS  # (one shape for every way of moving the hooks)
    for k, a in enumerate(global_args):
        t = a.text
        if t == "-c" and k + 1 < len(global_args):
            a = global_args[k + 1]
            setting = a.text
        elif t.startswith("--config-env="):
            setting = t[len("--config-env="):]
        elif t.startswith("-c") and not t.startswith("--"):
            setting = t[2:]
        else:
            continue
        if a.opaque or setting.split("=", 1)[0].lower() == "core.hookspath":
            return redirect
    if sub != "config":
        return None
    operands: list[Arg] = []
    writes = False  # `set`/`unset` (git 2.46), `--unset`, `--add` …, or a value after the key
    k = 0
    while k < len(rest):
        t = rest[k].text
        if t in _CONFIG_READS:
            return None
        if t in ("-e", "--edit", "edit"):
            return redirect  # an editor on the file: any setting
        if t in _CONFIG_TAKES_VALUE:
            k += 2
            continue
        if t in ("set", "unset", "rename-section", "remove-section") and not operands:
            writes = True  # the key follows
        elif t.startswith(("--unset", "--add", "--replace-all", "--rename-section", "--remove-section")):
            writes = True
        elif not t.startswith("-") or rest[k].opaque:
            operands.append(rest[k])
        k += 1
    if operands and (writes or len(operands) >= 2):
        key = operands[0]
        if key.opaque or key.text.lower() == "core.hookspath" or key.text.lower() == "core":
            return redirect  # (`--remove-section core` drops it too)
    return None


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
        "difftool": "-x,--extcmd=exec:unproven -t,--tool=data -d,--dir-diff -y,--no-prompt --prompt "
                    "-g,--gui --no-gui --trust-exit-code --no-trust-exit-code --tool-help --symlinks "
                    "--no-symlinks",
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
        items = [Item(it.index, it.text, WRITE if it.role == READ and option_of(rest, it) in ("-f", "--file") else
                      (DATA if it.role == READ else it.role), it.whole) for it in items]
        if any("alias." in op or "core.pager" in op or "diff." in op or "filter." in op or "core.hooks" in op
               or "core.fsmonitor" in op or "core.sshcommand" in op.lower() for op in operands):
            unproven = "this configuration can make git run a program"
    if sub == "add" and any(a.text.startswith("--chmod") for a in rest):
        # the mode is set in the index only: the next commit records it
        items = [Item(it.index, it.text, STAGE if it.role == READ else it.role, it.whole) for it in items]
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
    # git has many harmless options; only the listed ones write or run programs, so an unknown
    # option of a reading subcommand is read as a flag (its operands stay reads). A listed one
    # is found under any unambiguous abbreviation (`--out=` is `--output=`).
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
        # (`git difftool -x PROG`: PROG is walked with the paths it gets, gitruns.path_programs;
        # a tool by name may be an editor on the work tree's file)
        if not (sub == "difftool" and any(a.text in ("-x", "--extcmd") or a.text.startswith(("-x", "--extcmd="))
                                          for a in rest)):
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


def _operands_after(parsed: Parsed, rest: Sequence[Arg]) -> tuple[list[int], list[int]]:
    """Operand indexes before and after a `--` (pathspecs come after it)."""
    dash = next((k for k, a in enumerate(rest) if a.text == "--"), None)
    if dash is None:
        return parsed.operands, []
    return [k for k in parsed.operands if k < dash], [k for k in parsed.operands if k > dash]


def _whole_tree(rule_dir: str) -> Extra:
    return Extra(WRITE, path=rule_dir, tree=True, rule="whole-tree")


# Rules of a pathspec's effect: a plain path (below it everything), a pattern git matches its
# own way (judgment: `*`, `?` and `[…]` cross `/`), either under case folding.
_PATHSPEC_RULES = frozenset({"pathspec", "pathspec-wildmatch", "pathspec-icase"})


def _pathspecs(rest: Sequence[Arg], indexes: Sequence[int], kind: str, tree_dir: str) -> list[Extra]:
    """A pathspec names everything below it (`git checkout -- .` restores the whole directory),
    and git matches its own globs (`'*.sh'` with a `*` that crosses `/`); `:/` and other
    magic reach from the top."""
    extra: list[Extra] = []
    for k in indexes:
        a = rest[k]
        text = a.text
        if a.opaque or text.startswith(":"):
            extra.append(Extra(kind, path=tree_dir, tree=True, rule="whole-tree"))
        elif any(c in text for c in "*?["):
            extra.append(Extra(kind, pattern=text, rule="pathspec-wildmatch"))
        else:
            extra.append(Extra(kind, path=text, tree=True, rule="pathspec"))
    return extra


def _roles(parsed: Parsed, roles: dict[int, str], default: str = DATA) -> tuple[Item, ...]:
    return tuple(Item(it.index, it.text, roles.get(it.index, default) if it.role == "" else it.role, it.whole)
                 for it in parsed.items)


def _git_checkout(rest: Sequence[Arg], env: Env, tree_dir: str) -> Effects:
    parsed = read_options(_CHECKOUT, rest)
    before, after = _operands_after(parsed, rest)
    creates = any(a.text in ("-b", "-B", "--orphan") or a.text.startswith(("-b", "-B", "--orphan="))
                  for a in rest)
    roles: dict[int, str] = {}
    extra: list[Extra] = []
    # `-f` without a pathspec throws away every local change: each modified tracked file gets
    # HEAD's content, which is another tree when plumbing moved HEAD (`update-ref`, `reset
    # --soft`) or `--git-dir` names another repository (round 2, J and AC).
    if _forced(rest) and not after:
        extra.append(_whole_tree(tree_dir))
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
    extra.extend(_pathspecs(rest, [k for k, role in roles.items() if role == WRITE], WRITE, tree_dir))
    return Effects(_roles(parsed, roles), tuple(extra), unknown_reason(parsed))


def _git_switch(rest: Sequence[Arg], env: Env, tree_dir: str) -> Effects:
    parsed = read_options(_SWITCH, rest)
    creates = any(a.text in ("-c", "-C", "--create", "--force-create", "--orphan") or
                  a.text.startswith(("--create=", "--force-create=", "--orphan=")) for a in rest)
    extra: list[Extra] = []
    # (`--orphan` empties the work tree of tracked files; `-f`/`--discard-changes` rewrite every
    # modified one even with `-c`: round 2, J)
    orphan = any(a.text == "--orphan" or a.text.startswith("--orphan=") for a in rest)
    if not (creates and not parsed.operands) or orphan or _forced(rest, ("--discard-changes",)):
        extra.append(_whole_tree(tree_dir))
    return Effects(_roles(parsed, {}), tuple(extra), unknown_reason(parsed))


def _forced(rest: Sequence[Arg], longs: tuple[str, ...] = ()) -> bool:
    """`-f`, `--force` (or one of `longs`) before a `--`, alone or in a bundle of short options
    (`-fq`); an opaque option may be any of them."""
    for a in rest:
        t = a.text
        if t == "--":
            break
        if a.opaque and t.startswith("-"):
            return True
        if t == "--force" or t in longs or t.startswith("-") and not t.startswith("--") and "f" in t[1:] \
                and t[1:].isalpha() and not t.startswith(("-b", "-B", "-c", "-C")):
            return True
    return False


def _git_restore(rest: Sequence[Arg], env: Env, tree_dir: str) -> Effects:
    parsed = read_options(_RESTORE, rest)
    texts = [a.text for a in rest]
    staged_only = any(t in ("-S", "--staged") for t in texts) and not any(t in ("-W", "--worktree") for t in texts)
    # (the index from another revision than HEAD: the next commit records that content)
    role = (STAGE if _source_revision(parsed, rest) not in (None, "HEAD", "@") else DATA) if staged_only else WRITE
    roles = {k: role for k in parsed.operands}
    extra = [] if staged_only else _pathspecs(rest, parsed.operands, WRITE, tree_dir)
    if not staged_only and (any(t.startswith("--pathspec-from-file") for t in texts)
                            or any(rest[k].opaque for k in parsed.operands)):
        extra.append(_whole_tree(tree_dir))
    return Effects(_roles(parsed, roles), tuple(extra), unknown_reason(parsed))


def _source_revision(parsed: Parsed, rest: Sequence[Arg]) -> str | None:
    """The revision of restore's `-s`/`--source` (None without one)."""
    for it in parsed.items:
        if it.role == DATA and option_of(rest, it) in ("-s", "--source"):
            return it.text
    return None


def _git_reset(rest: Sequence[Arg], env: Env, tree_dir: str) -> Effects:
    parsed = read_options(_RESET, rest)
    hard = any(a.text in ("--hard", "--merge", "--keep") for a in rest)
    extra = [_whole_tree(tree_dir)] if hard else []
    # `git reset REV -- paths` (or `REV path…`) gives the paths' index entries REV's content:
    # the next commit records it. From HEAD (or without a revision) it only unstages.
    before, after = _operands_after(parsed, rest)
    if not after and len(before) >= 2:
        before, after = before[:1], before[1:]
    roles = {}
    if after and before and rest[before[0]].text not in ("HEAD", "@"):
        roles = {k: STAGE for k in after}
    return Effects(_roles(parsed, roles), tuple(extra), unknown_reason(parsed))


def _git_rm(rest: Sequence[Arg], env: Env, tree_dir: str) -> Effects:
    parsed = read_options(_GIT_RM, rest)
    cached = any(a.text == "--cached" for a in rest)
    harmless = cached or "dry-run" in parsed.effects
    # `--cached` keeps the file but stages its removal (the next commit deletes it)
    roles = {k: DATA if "dry-run" in parsed.effects else STAGE if cached else DELETE for k in parsed.operands}
    extra = [] if harmless else _pathspecs(rest, parsed.operands, DELETE, tree_dir)
    if cached and "dry-run" not in parsed.effects:
        # (a pattern git matches: `git rm --cached '*.sh'` stages the removal of ci/gate.sh)
        extra = [e for e in _pathspecs(rest, parsed.operands, STAGE, tree_dir) if e.rule == "pathspec-wildmatch"]
    if not harmless and any(a.text.startswith("--pathspec-from-file") for a in rest):
        extra.append(Extra(DELETE, path=tree_dir, tree=True, rule="whole-tree"))
    return Effects(_roles(parsed, roles), tuple(extra), unknown_reason(parsed))


def _git_mv(rest: Sequence[Arg], env: Env, tree_dir: str) -> Effects:
    parsed = read_options(_GIT_MV, rest)
    if "dry-run" in parsed.effects:
        return Effects(_roles(parsed, {k: READ for k in parsed.operands}), (), unknown_reason(parsed))
    operands = parsed.operands
    roles = {k: MOVE for k in operands[:-1]}
    if operands:
        roles[operands[-1]] = WRITE
    extra = []
    if len(operands) >= 2:
        for k in operands[:-1]:
            extra.extend(into(rest[operands[-1]].text, rest[k], WRITE))
    return Effects(_roles(parsed, roles), tuple(extra), unknown_reason(parsed))


def _git_apply(rest: Sequence[Arg], env: Env, tree_dir: str) -> Effects:
    parsed = read_options(_APPLY, rest)
    texts = [a.text for a in rest]
    index_only = "--cached" in texts
    checking = any(t in ("--stat", "--numstat", "--summary", "--check") for t in texts) and "--apply" not in texts
    roles = {k: READ for k in parsed.operands}
    extra: list[Extra] = []
    # (`--cached` applies to the index only: its targets are judged all the same, since the next
    # commit records them; `rule="index-patch"` keeps them out of the work tree's evidence)
    rule = "index-patch" if index_only else "patch"
    if not checking:
        strip = 1
        prefix = ""
        for it in parsed.items:
            option = option_of(rest, it)
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
                extra.append(Extra("patch", path=tree_dir, tree=True, rule=rule,
                                   source=patch_source(path, env, strip, prefix)))
        else:
            extra.append(Extra("patch", path=tree_dir, tree=True, rule=rule,
                               source=patch_source(None, env, strip, prefix)))
    return Effects(_roles(parsed, roles), tuple(extra), unknown_reason(parsed))


def _git_am(rest: Sequence[Arg], env: Env, tree_dir: str) -> Effects:
    parsed = read_options(_AM, rest)
    texts = [a.text for a in rest]
    roles = {k: READ for k in parsed.operands}
    extra: list[Extra] = []
    if any(t in ("--quit",) or t.startswith("--show-current-patch") for t in texts):
        return Effects(_roles(parsed, roles), (), unknown_reason(parsed))
    if any(t in ("--abort", "--skip", "--continue", "-r", "--resolved", "--retry", "-i", "--interactive")
           for t in texts):
        extra.append(_whole_tree(tree_dir))
    else:
        files = [rest[k].text for k in parsed.operands]
        for path in files or [None]:
            extra.append(Extra("patch", path=tree_dir, tree=True, rule="patch",
                               source=patch_source(path, env, 1, "")))
    return Effects(_roles(parsed, roles), tuple(extra), unknown_reason(parsed))


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
            return Effects(items, tuple(_pathspecs(args, paths, WRITE, tree_dir)), unknown_reason(parsed))
    return Effects(items, (_whole_tree(tree_dir),), unknown_reason(parsed))


def _git_clean(rest: Sequence[Arg], env: Env, tree_dir: str) -> Effects:
    parsed = read_options(_CLEAN, rest)
    if "dry-run" in parsed.effects:
        return Effects(_roles(parsed, {}), (), unknown_reason(parsed))
    roles = {k: DELETE for k in parsed.operands}
    extra = _pathspecs(rest, parsed.operands, DELETE, tree_dir)
    if not parsed.operands or any(a.text in ("-i", "--interactive") for a in rest):
        extra.append(Extra(DELETE, path=".", tree=True, rule="whole-tree"))
    return Effects(_roles(parsed, roles), tuple(extra), unknown_reason(parsed))


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


def _git_remote(rest: Sequence[Arg], env: Env, tree_dir: str, program: str) -> Effects:
    """`git svn …`, `git lfs …` (remotes.py): the directory a clone makes, or the whole tree."""
    from polydeukes.stdlib.shell import remotes

    found = remotes.remote_copy(program, rest, None, env)  # type: ignore[arg-type]
    return Effects(found.items, tuple(Extra(WRITE, path=tree_dir, tree=True, rule="whole-tree", what=e.what)
                                      if e.rule == "whole-tree" else e for e in found.extra), found.unproven)


# update-index options that give the named paths' entries other content than the work tree's
# (a mode, a blob, a removal, or a flag that hides later changes from git).
_UPDATE_INDEX_STAGING = ("--chmod", "--force-remove", "--cacheinfo", "--assume-unchanged",
                         "--no-assume-unchanged", "--skip-worktree", "--no-skip-worktree",
                         "--info-only", "--index-info", "--stdin", "--unresolve", "--again", "-g")


def _git_update_index(rest: Sequence[Arg], env: Env, tree_dir: str) -> Effects:
    """`git update-index [options] [--] paths`: without a staging option it records the work
    tree's content (as `git add`); with one (`_UPDATE_INDEX_STAGING`) the paths' entries get
    something else. `--cacheinfo MODE,SHA,PATH` (or three words) names its path inside."""
    staging = any(a.text.split("=", 1)[0] in _UPDATE_INDEX_STAGING for a in rest)
    items: list[Item] = []
    unproven = None
    k = 0
    while k < len(rest):
        a = rest[k]
        t = a.text
        if t == "--cacheinfo":
            if k + 1 < len(rest) and "," in rest[k + 1].text:
                items.append(Item(k, t, DATA))
                items.append(Item(k + 1, rest[k + 1].text.split(",", 2)[-1], STAGE, False))
                k += 2
                continue
            items.extend(Item(j, rest[j].text, DATA) for j in range(k, min(k + 3, len(rest))))
            if k + 3 < len(rest):
                items.append(Item(k + 3, rest[k + 3].text, STAGE))
            k += 4
            continue
        if t in ("--index-info", "--stdin"):
            unproven = "the paths arrive on stdin"
        if t == "--index-version" and k + 1 < len(rest):
            items.extend((Item(k, t, DATA), Item(k + 1, rest[k + 1].text, DATA)))
            k += 2
            continue
        if t.startswith("-") and not a.opaque:
            items.append(Item(k, t, DATA))
        else:
            items.append(Item(k, t, STAGE if staging or a.opaque else READ))
        k += 1
    return Effects(tuple(items), (), unproven)


_GIT_SUBCOMMANDS: dict[str, Callable[[Sequence[Arg], Env, str], Effects]] = {
    "update-index": _git_update_index,
    "checkout": _git_checkout, "switch": _git_switch, "restore": _git_restore,
    "reset": _git_reset, "rm": _git_rm, "mv": _git_mv, "apply": _git_apply, "am": _git_am,
    "stash": _git_stash, "clean": _git_clean, "merge": _git_rewrite, "pull": _git_rewrite,
    "rebase": _git_rewrite, "cherry-pick": _git_rewrite, "revert": _git_rewrite,
    "bisect": _git_rewrite, "read-tree": _git_rewrite, "checkout-index": _git_rewrite,
    "filter-branch": _git_rewrite, "filter-repo": _git_rewrite,
    "svn": lambda rest, env, tree_dir: _git_remote(rest, env, tree_dir, "git-svn"),
    "lfs": lambda rest, env, tree_dir: _git_remote(rest, env, tree_dir, "git-lfs"),
}
