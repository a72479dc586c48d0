"""What git itself runs (issue 11, "Reading the working tree, read-only"): hooks, `!` aliases and
the programs the repository's configuration names.

`git commit` runs `.git/hooks/pre-commit`; `git x` runs the alias `alias.x = !sh script.sh`;
`git log` runs `core.pager`; `git diff` runs `diff.external`. An agent can write each of those
(a hook with its Write tool, `git config alias.x …` in one call) and run it by an innocent
command in the next. So for every `git` command the walk reads, read-only and within the
bounds of disk.py, the repository the command works in (found from its directory, `-C` and
`--git-dir` followed, walking up to the `.git` that holds `config`; a `.git` file of a linked
worktree followed to its `gitdir:`) and hands the judges one `scripts.FileScript` whose lines
are, each run by a shell of its own in the repository's top directory:

- the hooks the subcommand may run (`_HOOKS`, from `core.hooksPath` when the configuration sets
  it, else the git directory's `hooks/`), each file's whole text (git runs a hook by its `#!`
  line, almost always a shell); a missing hook runs nothing; a hook that is itself a protected
  path (the gate `pdks init --git` installs) is the user's and is not read: the judge says which
  paths are protected (`Walk.names_entry`);
- the alias, when the subcommand is no git command of its own: `!cmd` is a shell line run with
  the call's arguments as `$1`…; any other alias is a git command line, `git VALUE ARGS…`;
- the values of the configuration keys whose value is a program or a shell line
  (`_PROGRAM_KEYS`, `_PROGRAM_PATTERNS`), whatever the subcommand: which of them a given
  command reaches is git's business (a pager for most reading commands, a filter for any
  checkout, a credential helper for any fetch), so all are read, as a superset.

The judge then reads the lines as it reads a shell script a command runs: a protected path
they mention fails closed (`git runs …, which mentions protected path …`), and their commands
are judged one level deeper. The configuration a user keeps outside the project
(`~/.gitconfig`, `/etc/gitconfig`) is not read (docs/security.md); `include.path` files of
the repository's config are (round 5). Hooks and configuration the line itself writes or sets
before the git command are read as written, or fail closed (round 5, r5-git: "configuration
and hooks the line itself writes" below).
"""

from __future__ import annotations

from itertools import islice

from polydeukes.stdlib.shell.analysis import EXTRACTED, GIT_CONFIG, MAKES_REPOSITORY, UNKNOWN_DIRECTORY, View, Walk
from polydeukes.stdlib.shell.disk import SCRIPT_BYTES, Binary, Missing, Refused
from polydeukes.stdlib.shell.git import _GIT_GLOBAL_MODEL, _GIT_READERS, _GIT_SUBCOMMANDS
from polydeukes.stdlib.shell.judgment import GIT_HOOKS, UNREADABLE_SCRIPT, WRITTEN_SCRIPT, member_paths
from polydeukes.stdlib.shell.scripts import FileScript
from polydeukes.vm.sre import LazyPattern

CONFIG_BYTES = 1 << 20  # one repository's `config` file
_UPWARD = 64  # directories climbed looking for the repository

# The hooks each subcommand may run (githooks(5)), a superset where git's choice depends on
# options or on what happens (a merge that needs a commit, `--amend`'s post-rewrite).
_INDEX = ("post-index-change",)
_REFS = ("reference-transaction",)
_COMMIT = ("pre-commit", "prepare-commit-msg", "commit-msg", "post-commit", "post-rewrite", "pre-auto-gc")
_MERGE = ("pre-merge-commit", "prepare-commit-msg", "commit-msg", "post-merge", "pre-auto-gc")
_HOOKS: dict[str, tuple[str, ...]] = {
    "commit": _COMMIT + _INDEX + _REFS,
    "merge": _MERGE + _INDEX + _REFS,
    "pull": _MERGE + ("pre-rebase", "post-rewrite", "post-checkout") + _INDEX + _REFS,
    "rebase": ("pre-rebase", "post-rewrite", "post-checkout", "prepare-commit-msg", "commit-msg",
               "pre-auto-gc") + _INDEX + _REFS,
    "cherry-pick": ("prepare-commit-msg", "commit-msg", "post-commit") + _INDEX + _REFS,
    "revert": ("prepare-commit-msg", "commit-msg", "post-commit") + _INDEX + _REFS,
    "am": ("applypatch-msg", "pre-applypatch", "post-applypatch", "pre-auto-gc") + _INDEX + _REFS,
    "push": ("pre-push",) + _REFS,
    "checkout": ("post-checkout",) + _INDEX + _REFS,
    "switch": ("post-checkout",) + _INDEX + _REFS,
    "clone": ("post-checkout",),
    "worktree": ("post-checkout",) + _REFS,
    "reset": _INDEX + _REFS,
    "restore": _INDEX,
    "add": _INDEX,
    "rm": _INDEX,
    "mv": _INDEX,
    "stash": _INDEX + _REFS,
    "apply": _INDEX,
    "update-index": _INDEX,
    "branch": _REFS,
    "tag": _REFS,
    "fetch": _REFS,
    "update-ref": _REFS,
    "gc": ("pre-auto-gc",) + _REFS,
    "maintenance": ("pre-auto-gc",) + _REFS,
    # (round 5: a command that refreshes the index writes it and runs post-index-change; one
    # that updates refs runs reference-transaction; both were found run by these)
    "status": _INDEX, "diff": _INDEX, "describe": _INDEX, "write-tree": _INDEX, "commit-tree": _REFS,
    "notes": _REFS, "replace": _REFS, "pack-refs": _REFS, "symbolic-ref": _REFS, "filter-branch": _INDEX + _REFS,
    "bisect": ("post-checkout",) + _INDEX + _REFS, "sparse-checkout": _INDEX, "read-tree": _INDEX,
    "checkout-index": _INDEX, "submodule": ("post-checkout",) + _INDEX + _REFS,
    "send-email": ("sendemail-validate",),
    "p4": ("p4-pre-submit", "p4-prepare-changelist", "p4-changelist", "p4-post-changelist"),
}
# Subcommands git runs itself: an alias of the same name is never used.
_BUILTINS = _GIT_READERS | frozenset(_GIT_SUBCOMMANDS) | frozenset(_HOOKS) | frozenset({
    "bisect", "citool", "gui", "gitk", "instaweb", "init-db", "mergetool", "difftool", "rerere",
    "request-pull", "send-email", "svn", "fast-export", "fast-import", "filter-branch", "replace",
    "pack-refs", "prune-packed", "index-pack", "pack-objects", "unpack-objects", "mktree",
    "mktag", "commit-tree", "write-tree", "symbolic-ref", "interpret-trailers", "stripspace",
    "credential", "column", "hook", "backfill", "replay", "refs", "merge-file", "merge-tree",
    "merge-index", "verify-pack", "upload-pack", "receive-pack", "daemon", "http-backend",
    "shell", "scalar", "whatchanged", "multi-pack-index", "commit-graph", "sh-i18n", "sh-setup",
})
# Configuration keys whose value is a program or a shell line git runs (git-config(1)).
_PROGRAM_KEYS = frozenset({
    "core.pager", "core.editor", "sequence.editor", "core.sshcommand", "core.fsmonitor",
    "core.askpass", "diff.external", "credential.helper", "gpg.program", "interactive.difffilter",
    "uploadpack.packobjectshook", "web.browser", "sendemail.smtpserver", "merge.tool", "diff.tool",
    "core.gitproxy", "ssh.variant",
})
# `section.<name>.key` keys of the same kind: (section, key).
_PROGRAM_PATTERNS = frozenset({
    ("diff", "textconv"), ("diff", "command"), ("merge", "driver"), ("filter", "clean"),
    ("filter", "smudge"), ("filter", "process"), ("browser", "cmd"), ("difftool", "cmd"),
    ("mergetool", "cmd"), ("gpg", "program"), ("credential", "helper"), ("pager", ""),
    ("remote", "uploadpack"), ("remote", "receivepack"),
})
_BOOLEANS = frozenset({"", "true", "false", "yes", "no", "on", "off", "1", "0"})


def git_script(walk: Walk, view: View) -> FileScript | None:
    """What `view` (a `git` command) makes git run, as one script of shell lines, or None when
    it runs nothing this layer can read (no repository found, an unknown directory)."""
    args = view.args[view.inner + 1 :]
    options = _GIT_GLOBAL_MODEL.options
    directory: tuple[str, ...] | None = view.cwd
    git_dir: tuple[str, ...] | None = None
    overrides: dict[str, list[str]] = {}  # `-c key=value`, after the files' values
    # A setting of unknown value, earlier on the line or on the command (`UNKNOWN_SETTINGS`)
    unknown = next(iter(walk.file_scripts.get(UNKNOWN_SETTINGS, ())), None)
    # Why the repository git works in is unknown (`cd "$D"`, `-C "$D"`, `GIT_DIR="$D"`), or None
    unplaced = UNKNOWN_DIRECTORY if directory is None and view.cwd_glob is None else None
    k = 0
    while k < len(args) and args[k].text.startswith("-"):
        a = args[k]
        key, eq, value = a.text.partition("=")
        option = options.get(key)
        takes = option is not None and option.arg == 1 and not eq
        if takes and k + 1 < len(args):
            k += 1
            a, value = args[k], args[k].text
        if key == "-c" and not a.opaque:
            name, eq, setting = value.partition("=")
            overrides.setdefault(_normal_key(name), []).append(setting if eq else "true")
        elif key == "-c":  # (`-c "$k=$v"`, `-c core.pager="$P"`: round 6)
            name = value.partition("=")[0]
            if _unknown_key(name) or consequential(_normal_key(name)):
                unknown = unknown or "-c " + value
        elif key == "--config-env":
            name, _, variable = value.partition("=")
            setting = walk.environment(view, variable) if not a.opaque else None
            if setting is not None:
                overrides.setdefault(_normal_key(name), []).append(setting)
            elif _unknown_key(name) or consequential(_normal_key(name)):
                unknown = unknown or "--config-env " + value
        if key == "-C" or key == "--git-dir" or key == "--work-tree":
            place = walk.absolute(value, directory) if not a.opaque else None
            if place is None:
                if view.cwd_glob is None:  # (`-C c?`: the walk's `cwd_glob`, judged as after `cd c?`)
                    unplaced = unplaced or f"{key} {value} names a directory of unknown value"
            elif key == "-C":
                directory = place
                unplaced = None  # (`cd "$D" && git -C /x/repo log`: an absolute one places it again)
            elif key == "--git-dir":
                git_dir = place
        k += 1
    if k < len(args) and args[k].text == "config" and not args[k].opaque:
        _record_setting(walk, args[k + 1 :])
    if unknown is not None:
        view.runs_unknown = WRITTEN_SCRIPT.format(head=view.head, path="the programs of " + unknown)
        return None
    if walk.disk is None:
        return None
    scope = walk.context.scope.values
    if unplaced is None and (view.inner or "GIT_DIR" in scope or "GIT_WORK_TREE" in scope):
        unplaced = _unknown_variable(walk, view, directory)
    if walk.context.writers and MAKES_REPOSITORY in walk.file_scripts:
        walk.written()  # (records the line's extractions so far, `EXTRACTED`: `_may_make_repository`)
    if EXTRACTED in walk.file_scripts and (members := _unplaced_members(walk)) is not None:
        view.runs_written = members  # (the judge fails closed: WRITTEN_SCRIPT)
        return None
    if unplaced is not None and k < len(args) and (args[k].opaque or args[k].text not in _RUNS_NOTHING):
        # A repository outside the project may hold any hook and configuration (an earlier
        # call can write them there), and none of its files is read (round r7); judged last,
        # so the command's own words name an entry first (`git -C "$D" rm gate.sh`)
        view.runs_unknown = UNREADABLE_SCRIPT.format(runner=view.head, path=_UNPLACED_REPOSITORY, why=unplaced)
        return None
    if k >= len(args) or args[k].opaque or directory is None:
        return None
    sub = args[k].text
    if _ENVIRONMENT_SETTINGS & scope.keys() \
            or view.inner and any(a.text.startswith("GIT_CONFIG_") for a in view.args[: view.inner]):
        _environment_settings(walk, view, overrides)
    if git_dir is None and (view.inner or "GIT_DIR" in scope):
        spelled = walk.environment(view, "GIT_DIR")  # (as `--git-dir`)
        git_dir = walk.absolute(spelled, directory) if spelled else None
    found = _repository(walk, git_dir, directory)
    context = walk.context
    wrote = context.writers or context.written or context.trees_written
    # (outside a repository on disk, the writes are worked out only when one may make one:
    # working them out costs every line that writes there)
    written = walk.written() if wrote and (found is not None or MAKES_REPOSITORY in walk.file_scripts) else None
    extracted = _extracted(walk, directory, git_dir) if written is not None and EXTRACTED in walk.file_scripts \
        else _NOTHING
    if written is not None and git_dir is None:
        found = _line_repository(walk, view, directory, found, written, extracted)
        if found is _UNKNOWN:
            return None  # (`view.runs_written` says which `.git`: the judge fails closed)
    settings = walk.file_scripts.get(SETTINGS)
    if sub in ("init", "clone"):
        _record_templates(walk, view, args[k + 1 :], overrides, settings, found, directory)
    templates = walk.file_scripts.get(TEMPLATES)
    values: dict[str, list[str]] = {}
    common = None
    if found is not None:
        top, git_dir = found
        common = _common_dir(walk, view, top, git_dir, written, extracted)
        if isinstance(common, FileScript) or common is _UNKNOWN:
            return common if isinstance(common, FileScript) else None
        read = _config(walk, common)
        if isinstance(read, FileScript):
            return read
        values.update(read)
    elif not overrides and not settings and not templates:
        return None
    else:
        top, git_dir = directory, None
    for more in (settings or {}, overrides):
        for name, items in more.items():
            values[name] = [*values.get(name, ()), *items]
    origins = {name: "the line's git config" for name in settings or ()}  # (else `config`, or -c)
    if written is None and wrote:
        written = walk.written()
    if written is not None or overrides or settings or CONFIG_VARIABLES & scope.keys() \
            or view.inner and any(a.text.startswith("GIT_CONFIG") for a in view.args[: view.inner]):
        # Configuration the line writes or names (round 5, r5-git): merged, or failed closed.
        refused = _line_config(walk, view, top, git_dir, common, values, written, origins, extracted)
        if refused is not None:
            return refused if isinstance(refused, FileScript) else None
    lines: list[str] = []
    sources: list[str] = []
    # Every hooks directory the configuration names (the line's `git config` and the files'
    # order is not followed: each is read), else the git directory's own.
    hooks_paths = values.get("core.hookspath")
    directories = [walk.absolute(spelled, top) for spelled in hooks_paths] if hooks_paths \
        else [common + ("hooks",)] if common else []
    directories += [template + ("hooks",) for template in templates or ()]
    for hook in _HOOKS.get(sub, ()) if sub != "hook" else _hook_run(args[k + 1 :]):
        for hooks in directories:
            if hooks is None:
                continue
            path = hooks + (hook,)
            spelled = "/" + "/".join(path)
            if walk.names_entry is not None and walk.names_entry(spelled, view.cwd):
                continue  # a protected hook (the gate): the user's, not the agent's
            text = _written_text(walk, written, path, top, extracted=extracted) if written is not None \
                else _NOT_WRITTEN
            if text is None:
                view.runs_written = _shown(path, view.cwd)  # (the judge fails closed: WRITTEN_SCRIPT)
                return None
            if text is _NOT_WRITTEN:
                text = _read(walk, path, SCRIPT_BYTES)
            if isinstance(text, FileScript):
                return text
            if text:  # (an empty hook, or one the line removed, runs nothing)
                lines.append(text)
                sources.append(_shown(path, view.cwd))
    config = _shown(common + ("config",), view.cwd) if common is not None else "-c"
    alias = values.get("alias." + sub) if sub not in _BUILTINS else None
    arguments = args[k + 1 :]
    if alias:
        value = alias[-1]
        if value.startswith("!"):
            lines.append(value[1:] + ' "$@"')  # (git runs it with the call's arguments after it)
        else:
            lines.append("git " + value + ' "$@"')
        sources.append(f"the alias '{sub}' of {'-c' if 'alias.' + sub in overrides else config}")
    foreach = _submodule_command(arguments) if sub == "submodule" else None
    if foreach is not None:
        # `git submodule foreach CMD`: CMD runs in each submodule's directory (.gitmodules'
        # paths; with none listed, it runs nowhere).
        listed = _read(walk, top + (".gitmodules",), SCRIPT_BYTES)
        if isinstance(listed, FileScript):
            return listed
        for path in _SUBMODULE_PATH().findall(listed or ""):
            lines.append("cd '" + path.strip().replace("'", "'\\''") + "' && " + foreach)
        if listed and lines:
            sources.append("git submodule foreach")
    configured: list[str] = []
    configured_sources: list[str] = []
    for key, found_values in values.items():
        if _runs_program(key):
            # (`!cmd`, a credential helper's form for a shell line)
            programs = [with_paths(key, value.removeprefix("!")) for value in found_values
                        if _program_value(key, value)]
            if programs:
                configured.extend(programs)
                configured_sources.append(f"{key} of {'-c' if key in overrides else origins.get(key, config)}")
    # The same programs of the same repository are walked once per walk: the `git ls-files`
    # of `PATHS` is a git command too, which would read them again without end.
    seen = ("git programs walked", top, tuple(configured))
    if configured and seen not in walk.file_scripts:
        walk.file_scripts[seen] = True
        lines.extend(configured)
        sources.extend(configured_sources)
    if not lines:
        return None
    script = FileScript(" and ".join(sources), "git", True, True, arguments if alias else ())
    script.directory = top  # (hooks and aliases run in the work tree's top directory)
    script.text = "\n".join(lines)
    script.lines = lines
    return script


_ALL_HOOKS = frozenset(hook for hooks in _HOOKS.values() for hook in hooks)

# -- configuration and hooks the line itself writes (round 5, r5-git) ----------------------------
#
# `cp e.sh .git/hooks/pre-commit; git commit`, `git config core.hooksPath h; … h/pre-commit`,
# `echo 'fsmonitor = ./e.sh' >> .git/config; git status`: what git runs is written by the line
# before git reads it, so the disk does not show it. A `git config` that sets a value (any
# scope, `-f FILE` too) is kept for the walk as a setting every later git command of the line
# reads, as a superset (which file it went to, and whether git reads that file, is not
# followed). A hook, or a configuration file git reads (the repository's `config` and
# `config.worktree`, the files `include.path` names, the home directory's, and those
# `GIT_CONFIG_GLOBAL`, `GIT_CONFIG_SYSTEM` and `GIT_CONFIG` name), that the line writes is
# read as written when the walk computes its content, and fails closed when it does not.
SETTINGS = ("git settings of the line",)  # (a key of `walk.file_scripts`)
_NOT_WRITTEN = object()
CONFIG_VARIABLES = frozenset({"GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM", "GIT_CONFIG"})
LINE_VARIABLES = CONFIG_VARIABLES | {"GIT_TEMPLATE_DIR", "GIT_DIR", "GIT_WORK_TREE", "GIT_CONFIG_COUNT",
                                     "GIT_CONFIG_PARAMETERS"}  # (a git command after one is always read)
_CONFIG_TAKES_VALUE = frozenset({"-f", "--file", "--blob", "--type", "--default", "--comment", "--value", "--url"})
_CONFIG_READS = frozenset({"--get", "--get-all", "--get-regexp", "--get-urlmatch", "--list", "-l", "--unset",
                           "--unset-all", "--remove-section", "--rename-section", "-e", "--edit", "get", "list",
                           "unset", "edit", "rename-section", "remove-section", "--get-color", "--get-colorbool"})


_ENVIRONMENT_SETTINGS = frozenset({"GIT_CONFIG_COUNT", "GIT_CONFIG_PARAMETERS"})
_COUNTED = 64  # GIT_CONFIG_KEY_<n> read at most


# Subcommands that run no hook and no configured program whatever the repository holds (no
# pager either: git pages only commands that set up a repository, `pager.<cmd>`), so a
# repository of unknown place does not matter to them.
_RUNS_NOTHING = frozenset({"rev-parse", "version", "check-ref-format"})
_UNPLACED_REPOSITORY = "the hooks and configured programs of its repository"
_PLACE_VARIABLES = ("GIT_DIR", "GIT_WORK_TREE")


def _unknown_variable(walk: Walk, view: View, directory: tuple[str, ...] | None) -> str | None:
    """Why `GIT_DIR` or `GIT_WORK_TREE`, given to the command or set on the line, names a
    directory of unknown value (`GIT_DIR="$D" git log`), or None."""
    for name in _PLACE_VARIABLES:
        given = any(a.text.startswith(name + "=") for a in view.args[: view.inner]) \
            or name in walk.context.scope.values
        if not given:
            continue
        value = walk.environment(view, name)
        if value is None or value and walk.absolute(value, directory) is None:
            return f"{name} names a directory of unknown value"
    return None


def _environment_settings(walk: Walk, view: View, overrides: dict[str, list[str]]) -> None:
    """The settings git takes from its environment as it takes `-c` (git-config(1)):
    `GIT_CONFIG_COUNT` pairs of `GIT_CONFIG_KEY_<n>`/`GIT_CONFIG_VALUE_<n>`, and
    `GIT_CONFIG_PARAMETERS` (`'key'='value' …`, the form git hands a child git), each where the
    line gives it a known value."""
    count = walk.environment(view, "GIT_CONFIG_COUNT")
    if count is not None and count.strip().isdigit():
        for n in range(min(int(count), _COUNTED)):
            key = walk.environment(view, f"GIT_CONFIG_KEY_{n}")
            if key is not None:
                overrides.setdefault(_normal_key(key), []).append(walk.environment(view, f"GIT_CONFIG_VALUE_{n}") or "")
    parameters = walk.environment(view, "GIT_CONFIG_PARAMETERS")
    if parameters:
        import shlex  # (git writes it shell-quoted: `'key'='value'` or `'key=value'`)

        try:
            words = shlex.split(parameters)
        except ValueError:
            words = [parameters]  # (git would refuse it; read as one setting, a superset)
        for word in words:
            name, eq, value = word.partition("=")
            overrides.setdefault(_normal_key(name), []).append(value if eq else "true")


def config_setting(arguments) -> tuple[str, str] | None:
    """The (key, value) a `git config ARGUMENTS…` sets (`KEY VALUE`, `set KEY VALUE`, `--add`,
    `--replace-all KEY VALUE [PATTERN]`, any scope or file), None for a command that reads,
    unsets or edits, or whose key or value is of unknown value."""
    operands = _config_operands(arguments)
    if operands is None or operands[0].opaque or operands[1].opaque:
        return None
    return _normal_key(operands[0].text), operands[1].text


def unknown_setting(arguments) -> str | None:
    """The words of a `git config ARGUMENTS…` that sets a key of unknown value (it may be
    `core.pager`, `alias.*`, …), or a value of unknown value to a key git runs or reads
    (`consequential`); None for any other (`git config user.name "$N"` is harmless)."""
    operands = _config_operands(arguments)
    if operands is None or not operands[0].opaque and not (operands[1].opaque and consequential(
            _normal_key(operands[0].text))):
        return None
    return "git config " + " ".join(a.text for a in operands[:2])


def consequential(key: str) -> bool:
    """Is `key` (as `_normal_key` spells it) one whose value names what git runs or reads
    configuration from: an alias, a program, an include, the hooks path, a template?"""
    return key.startswith("alias.") or _runs_program(key) or key in ("core.hookspath", "init.templatedir") \
        or bool(_INCLUDE_KEY().fullmatch(key))


def _unknown_key(name: str) -> bool:
    """Is a key spelled in a word of unknown value itself of unknown value (`$k`, `core.$X`)?"""
    return not name or any(c in name for c in "$`*?[\\")


def _config_operands(arguments) -> list | None:
    """The key and value words of a `git config` that sets one, else None."""
    operands = []
    k = 0
    while k < len(arguments):
        a = arguments[k]
        t = a.text
        if t in _CONFIG_READS and not operands:
            return None
        if t in _CONFIG_TAKES_VALUE:
            k += 2
            continue
        if t == "set" and not operands:
            pass
        elif a.opaque or not t.startswith("-"):
            operands.append(a)
        k += 1
    return operands if len(operands) >= 2 else None


def sets_config(view: View) -> bool:
    """Is `view` a `git config` that sets a value (kept by `_record_setting`, so the file it
    writes is not taken as written with unknown content)?"""
    args = view.args[view.inner + 1 :]
    options = _GIT_GLOBAL_MODEL.options
    k = 0
    while k < len(args) and args[k].text.startswith("-"):
        option = options.get(args[k].text)
        k += 2 if option is not None and option.arg == 1 else 1
    return k < len(args) and args[k].text == "config" and config_setting(args[k + 1 :]) is not None


def _record_setting(walk: Walk, arguments) -> None:
    setting = config_setting(arguments)
    if setting is not None:
        walk.file_scripts.setdefault(SETTINGS, {}).setdefault(setting[0], []).append(setting[1])
    else:
        unknown = unknown_setting(arguments)
        if unknown is not None:
            walk.file_scripts.setdefault(UNKNOWN_SETTINGS, []).append(unknown)


# A `git config` whose key, or whose consequential key's value, is of unknown value (round 6,
# r6-git): every later git command of the line may run anything (`core.pager`, `alias.st`,
# `core.fsmonitor`), so it fails closed; as does `-c` with such a setting on the command itself.
UNKNOWN_SETTINGS = ("git settings of unknown value",)  # (a key of `walk.file_scripts`: the words)


# `git init --template=T` and `git clone --template=T` (or `init.templateDir`, `GIT_TEMPLATE_DIR`)
# copy T/hooks into the new repository: clone runs its post-checkout at once, and any git
# command after them may run the rest. Each template directory named on the line is kept for
# the walk, and its hooks are read beside the repository's for every git command after it
# (a superset: which repository a later command works in is not followed).
TEMPLATES = ("git templates of the line",)  # (a key of `walk.file_scripts`)


def _record_templates(walk: Walk, view: View, arguments, overrides: dict[str, list[str]],
                      settings: dict[str, list[str]] | None, found, directory: tuple[str, ...]) -> None:
    spelled: list[tuple[str, tuple[str, ...] | None]] = []  # (a directory, the one it is relative to)
    for k, a in enumerate(arguments):
        t = a.text
        if t == "--template" and k + 1 < len(arguments):
            spelled.append((arguments[k + 1].text, directory))
        elif t.startswith("--template="):
            spelled.append((t[len("--template="):], directory))
    for name in ("GIT_TEMPLATE_DIR",):
        value = walk.environment(view, name)
        if value:
            spelled.append((value, directory))
    configured = [*overrides.get("init.templatedir", ()), *(settings or {}).get("init.templatedir", ())]
    if found is not None:
        read = _config(walk, found[1])
        configured += read.get("init.templatedir", []) if isinstance(read, dict) else []
    spelled += [(value, directory) for value in configured]
    if spelled:
        kept = walk.file_scripts.setdefault(TEMPLATES, [])
        for value, base in spelled:
            place = walk.absolute(value, base)
            if place is not None and place not in kept:
                kept.append(place)


def _written_text(walk: Walk, written: dict, path: tuple[str, ...], top: tuple[str, ...],
                  configuration: bool = False, extracted: frozenset | set = frozenset()) -> str | None | object:
    """What the line wrote at `path` (None: content not computed), or `_NOT_WRITTEN`. A directory
    above it, below the work tree's top, that the line writes (`cp -r t .git/hooks`, `mv h2 h`)
    or extracts an archive into (`tar xf h.tar -C .git/hooks`) counts as a write of unknown
    content (outside the work tree, only the file's own directory does). A `configuration` file
    only `git config` wrote is read as not written: its settings are the line's (`SETTINGS`);
    a script so written is not (`git config -f x.sh 'a.$(…).b' v; sh x.sh` runs its header).
    A path an archive's member lands on, or below (`_extracted`), is written with unknown
    content wherever the archive was extracted."""
    if extracted and any(path[:end] in extracted for end in range(len(path), 0, -1)):
        return None
    if path in written:
        if path in walk.context.removed:
            return ""  # (removed last, or moved away: nothing runs)
        return _NOT_WRITTEN if walk.context.written_by.get(path) == GIT_CONFIG and configuration else written[path]
    trees = walk.context.trees_written
    if path in trees:
        return None
    stop = len(top) + 1 if path[: len(top)] == top else len(path) - 1
    for end in range(len(path) - 1, stop - 1, -1):
        if path[:end] in written and path[:end] not in walk.context.removed or path[:end] in trees:
            return None
    return _NOT_WRITTEN


def _line_config(walk: Walk, view: View, top: tuple[str, ...], git_dir: tuple[str, ...] | None,
                 common: tuple[str, ...] | None, values: dict[str, list[str]], written: dict | None,
                 origins: dict[str, str], extracted: frozenset | set) -> FileScript | bool | None:
    """Merges into `values` the configuration files git reads that the line writes (their
    computed content), and those the line names (`-c include.path=F`, `GIT_CONFIG_GLOBAL=F`)
    read from disk; True when one is written with content this layer does not compute
    (`view.runs_written` then says which), a `FileScript` when one cannot be read."""
    pending: list[tuple[tuple[str, ...] | None, bool]] = []  # (path, read from disk when not written)
    if git_dir is not None:
        pending += [(common + ("config",), False), (git_dir + ("config.worktree",), False)]
    home = walk.home_now()
    if home is not None:
        pending += [(home + (".gitconfig",), False), (home + (".config", "git", "config"), False)]
    for name in CONFIG_VARIABLES:
        spelled = walk.environment(view, name)
        if spelled:
            pending.append((walk.absolute(spelled, view.cwd), True))
    base = common if common is not None else view.cwd
    for name, items in list(values.items()):
        if _INCLUDE_KEY().fullmatch(name):
            pending += [(walk.absolute(spelled, base), True) for spelled in items]
    seen: set[tuple[str, ...]] = set()
    while pending and len(seen) < 16:
        path, on_disk = pending.pop()
        if path is None or path in seen:
            continue
        seen.add(path)
        text = _written_text(walk, written, path, top, True, extracted) if written is not None else _NOT_WRITTEN
        if text is None:
            view.runs_written = "the programs of " + _shown(path, view.cwd)
            return True
        if text is _NOT_WRITTEN:
            if not on_disk:
                continue  # (read by `_config`, or the user's own, docs/security.md)
            text = _read(walk, path, CONFIG_BYTES)
            if isinstance(text, FileScript):
                return text
        for name, items in parse_config(text or "").items():
            values[name] = [*values.get(name, ()), *items]  # (a new list: `_config`'s are kept)
            origins[name] = _shown(path, view.cwd)
            if _INCLUDE_KEY().fullmatch(name):
                pending += [(walk.absolute(spelled, path[:-1]), True) for spelled in items]
    return None


# -- repositories and archive members the line writes (round 6, r6-git) ------------------------
#
# `tar xf h.tar; git status` with a member `.git/hooks/post-index-change` (or `.git/config`),
# `echo 'gitdir: evil' > .git; git status`, `git init; echo '[core] fsmonitor = …' >>
# .git/config; git status`, and a linked worktree whose hooks and configuration are its main
# repository's (`commondir`): git reads a repository the disk does not show yet, or not where
# the `.git` directory is. The members of an archive extracted where the git command works (or
# above it) are listed, and each one counts as a file the line writes with unknown content; a
# `.git` the line writes is where git finds its repository; a `commondir` is followed.
_NOTHING: frozenset = frozenset()
_UNKNOWN = object()  # (a repository the line writes in a way this layer does not follow)
_COMMON_BYTES = 4096  # a `.git` file's or a `commondir` file's one line


def _extracted(walk: Walk, directory: tuple[str, ...], git_dir: tuple[str, ...] | None) -> set[tuple[str, ...]]:
    """The paths the members of the line's archives land on, for those extracted into
    `directory` or above it (or above `git_dir`): a member that has members below it is a
    directory and not counted itself; an archive that cannot be listed counts as its whole
    extraction directory."""
    out: set[tuple[str, ...]] = set()
    for where, extra, cwd in walk.file_scripts[EXTRACTED]:
        if where is None:
            continue  # (below a directory of unknown place: `_unplaced_members`)
        if directory[: len(where)] != where and (git_dir is None or git_dir[: len(where)] != where):
            continue
        names = _archive_names(walk, extra, cwd)
        if names is None:
            out.add(where)
            continue
        above = {name[:cut] for name in names for cut in range(len(name)) if name[cut] == "/"}
        for name in names:
            if name not in above:
                path = walk.absolute(name, where)
                if path is not None:
                    out.add(path)
    return out


def _unplaced_members(walk: Walk) -> str | None:
    """An archive the line extracts below a directory of unknown place (`tar xf h.tar -C "$D"`)
    whose members may make a git directory (a `.git` segment), or that cannot be listed: the
    hooks and configuration git reads may be among them; None when there is none."""
    for where, extra, cwd in walk.file_scripts.get(EXTRACTED, ()):
        if where is not None:
            continue
        names = _archive_names(walk, extra, cwd)
        if names is None or any(".git" in name.split("/") for name in names):
            return f"the hooks and programs that {extra.source[1] or 'stdin'} may extract below a directory of unknown place"
    return None


def _archive_names(walk: Walk, extra, cwd: tuple[str, ...] | None) -> list[str] | None:
    """The names an extraction writes (`judgment.member_paths`), once per walk; None when they
    cannot be listed (an archive on stdin, renamed members, one the line writes, past a bound)."""
    kind, archive = extra.source[0], extra.source[1]
    path = walk.absolute(archive, cwd) if archive is not None and not extra.source[3] else None
    if path is None or walk.disk is None or path in walk.written():
        return None
    key = ("archive names", path, extra.source)
    cache = walk.file_scripts
    if key not in cache:
        members = walk.disk.archive_members("/" + "/".join(path), kind)
        if isinstance(members, Missing) and kind == "zip" and not archive.endswith(".zip"):
            members = walk.disk.archive_members("/" + "/".join(path) + ".zip", kind)
        cache[key] = member_paths(members, extra.source) if isinstance(members, list) else None
    return cache[key]


def _line_repository(walk: Walk, view: View, directory: tuple[str, ...], found, written: dict,
                     extracted: set[tuple[str, ...]]):
    """The repository git finds from `directory` when the line writes a `.git` on the way up
    (below the one on disk, or where none is): a `.git` file whose `gitdir:` line the walk
    computes leads to that directory; one of unknown content is `_UNKNOWN` (with
    `view.runs_written` set); files written below a `.git` make it the repository."""
    places = _git_places(walk, written)
    if extracted:
        places = places | {path[:end] for path in extracted for end in range(len(path)) if path[end] == ".git"}
    if not places:
        return found
    stop = found[0] if found is not None else ()
    place = directory
    for _ in range(_UPWARD):
        if place in places:
            dot_git = place + (".git",)
            if dot_git in extracted or dot_git in written and dot_git not in walk.context.removed:
                text = written.get(dot_git) if dot_git not in extracted else None
                linked = walk.absolute(text[len("gitdir:") :].strip(), place) \
                    if text is not None and text.startswith("gitdir:") else None
                if linked is not None:
                    return place, linked
                if text is None or text.startswith("gitdir:"):
                    view.runs_written = "the hooks and programs of " + _shown(dot_git, view.cwd)
                    return _UNKNOWN
                return None  # (not a `.git` file git reads: it stops there)
            return place, dot_git
        if place == stop or not place:
            break
        place = place[:-1]
    return found


def _git_places(walk: Walk, written: dict) -> set[tuple[str, ...]]:
    """The directories whose `.git` (or a file below it) the line writes, kept for the walk and
    brought up to date with the paths written since (`written` only grows, in order)."""
    kept = walk.file_scripts.get(_GIT_PLACES)
    if kept is None:
        kept = walk.file_scripts[_GIT_PLACES] = [0, set()]
    if kept[0] < len(written):
        kept[1].update(path[:end] for path in islice(written, kept[0], None) if ".git" in path
                       for end in range(len(path)) if path[end] == ".git")
        kept[0] = len(written)
    return kept[1]


_GIT_PLACES = ("directories whose .git the line writes",)  # (a key of `walk.file_scripts`)


def _common_dir(walk: Walk, view: View, top: tuple[str, ...], git_dir: tuple[str, ...], written: dict | None,
                extracted: set[tuple[str, ...]]):
    """Where git takes the hooks and the configuration of `git_dir` from: `GIT_COMMON_DIR`, else
    the directory its `commondir` file names (a linked worktree's main `.git`), else itself;
    `_UNKNOWN` (with `view.runs_written` set) for a `commondir` the line writes with content
    this layer does not compute, a `FileScript` for one that cannot be read."""
    if view.inner or "GIT_COMMON_DIR" in walk.context.scope.values:
        spelled = walk.environment(view, "GIT_COMMON_DIR")
        if spelled:
            return walk.absolute(spelled, view.cwd) or git_dir
    path = git_dir + ("commondir",)
    text = _written_text(walk, written, path, top, extracted=extracted) if written is not None else _NOT_WRITTEN
    if text is None:
        if path not in written and path not in extracted:
            return git_dir  # (a directory above it written whole: so are the hooks and config read there)
        view.runs_written = "the hooks and programs of " + _shown(path, view.cwd)
        return _UNKNOWN
    if text is _NOT_WRITTEN:
        text = _read(walk, path, _COMMON_BYTES)
        if isinstance(text, FileScript):
            return text
    return (walk.absolute(text.strip(), git_dir) or git_dir) if text and text.strip() else git_dir


_SUBMODULE_PATH = LazyPattern(r"(?m)^[ \t]*path[ \t]*=[ \t]*(.+?)[ \t]*$")


_EVERY_HOOK = tuple(sorted(GIT_HOOKS))


def _hook_run(arguments) -> tuple[str, ...]:
    """The hook `git hook run [OPTIONS] NAME [-- ARGS]` runs (any name: a hook of another name
    runs too); every hook git knows when the name is of unknown value."""
    k = 0
    while k < len(arguments) and arguments[k].text != "run":
        k += 1
    for a in arguments[k + 1 :]:
        if a.opaque:
            return _EVERY_HOOK
        if not a.text.startswith("-"):
            return (a.text,) if "/" not in a.text else ()
        if a.text == "--":
            break
    return ()


def _submodule_command(arguments) -> str | None:
    """The command of `git submodule [--quiet] foreach [--recursive] CMD…` (its words joined,
    as git joins them), or None for another submodule command or a word of unknown value
    (the command is then judged by its words alone). Nested submodules (`--recursive`) are
    not followed."""
    k = 0
    while k < len(arguments) and arguments[k].text.startswith("-"):
        k += 1
    if k >= len(arguments) or arguments[k].text != "foreach":
        return None
    rest = [a for a in arguments[k + 1 :] if a.text not in ("--recursive", "-q", "--quiet")]
    if not rest or any(a.opaque for a in rest):
        return None
    return " ".join(a.text for a in rest)


def may_run(walk: Walk, cwd: tuple[str, ...] | None, wrote: bool = False) -> bool:
    """Could a git command run in `cwd` run anything `git_script` reads: a hook file in the
    hooks directory, an alias, a configured program (or a configuration that cannot be read),
    or, when the line `wrote` files before it, any of those it may have written? False lets
    the walk judge a reading git command from its words alone; once per repository and walk."""
    if cwd is None or walk.disk is None:
        return False
    found = _repository(walk, None, cwd)
    if found is None:
        # (a repository the line makes: a `.git` written, or an archive extracted, round 6)
        return wrote and MAKES_REPOSITORY in walk.file_scripts
    if wrote:
        return True
    top, git_dir = found
    key = ("git may run", git_dir)
    cache = walk.file_scripts
    if key not in cache:
        common = _read(walk, git_dir + ("commondir",), _COMMON_BYTES)  # (a linked worktree's main `.git`)
        if isinstance(common, str) and common.strip():
            git_dir = walk.absolute(common.strip(), git_dir) or git_dir
        values = _config(walk, git_dir) if not isinstance(common, FileScript) else common
        if isinstance(values, FileScript):
            cache[key] = True
        elif any(key.startswith("alias.") or _runs_program(key) and any(_program_value(key, v) for v in found_values)
                 for key, found_values in values.items()):
            cache[key] = True
        else:
            hooks_path = values.get("core.hookspath")
            hooks = walk.absolute(hooks_path[-1], top) if hooks_path else git_dir + ("hooks",)
            cache[key] = hooks is None or walk.disk.tree_has(list(hooks), _ALL_HOOKS.__contains__) is not False
    return cache[key]


def _config(walk: Walk, git_dir: tuple[str, ...]) -> dict[str, list[str]] | FileScript:
    """The repository's configuration values (`parse_config`), once per walk; a refusal to
    read it as a `FileScript` naming why."""
    key = ("git config", git_dir)
    cache = walk.file_scripts
    if key not in cache:
        text = _read(walk, git_dir + ("config",), CONFIG_BYTES)
        if isinstance(text, FileScript):
            cache[key] = text
            return text
        values = parse_config(text or "")
        # `include.path` and `includeIf.<condition>.path` (round 5): the files they name are
        # read as part of it (a relative path from the git directory, where config is), a
        # few deep; every condition is taken to hold.
        seen: set[tuple[str, ...]] = set()
        pending = [path for name, paths in values.items() if _INCLUDE_KEY().fullmatch(name) for path in paths]
        while pending and len(seen) < 16:
            spelled = pending.pop()
            place = walk.absolute(spelled, git_dir) if not spelled.startswith("~") else walk.absolute(spelled, None)
            if place is None or place in seen:
                continue
            seen.add(place)
            included = _read(walk, place, CONFIG_BYTES)
            if isinstance(included, FileScript):
                cache[key] = included
                return included
            for name, items in parse_config(included or "").items():
                values.setdefault(name, []).extend(items)
                if _INCLUDE_KEY().fullmatch(name):
                    pending.extend(items)
        cache[key] = values
    return cache[key]


_INCLUDE_KEY = LazyPattern(r"include\.path|includeif\..*\.path")


def _normal_key(name: str) -> str:
    """A key as `parse_config` spells it: section and key lowercased, a subsection kept."""
    section, _, rest = name.partition(".")
    middle, _, key = rest.rpartition(".")
    return f"{section.lower()}.{middle + '.' if middle else ''}{key.lower()}"


def _shown(path: tuple[str, ...], cwd: tuple[str, ...] | None) -> str:
    """A path for a reason: relative to where the command runs when under it."""
    if cwd is not None and path[: len(cwd)] == cwd:
        return "/".join(path[len(cwd) :])
    return "/" + "/".join(path)


def _repository(walk: Walk, git_dir: tuple[str, ...] | None,
                directory: tuple[str, ...]) -> tuple[tuple[str, ...], tuple[str, ...]] | None:
    """(the work tree's top, the git directory) of the repository `directory` is in, or None.
    Each directory's answer is kept for the walk, so a climb stops at the first directory
    already answered (a script that keeps `cd`-ing down looks up one `.git` per level)."""
    if git_dir is not None:
        return directory, git_dir
    cache = walk.file_scripts
    climbed: list[tuple[str, ...]] = []
    found = None
    place = directory
    for _ in range(_UPWARD):
        key = ("git repository", place)
        if key in cache:
            found = cache[key]
            break
        climbed.append(place)
        dot_git = place + (".git",)
        kind = walk.disk.kind(list(dot_git))
        if kind == "dir" or kind == "link":  # (a linked `.git` is followed by the reads)
            found = (place, dot_git)
            break
        if kind == "file":  # a linked worktree's or a submodule's `gitdir: PATH`
            text = _read(walk, dot_git, 4096)
            if isinstance(text, str) and text.startswith("gitdir:"):
                linked = walk.absolute(text[len("gitdir:") :].strip(), place)
                found = (place, linked) if linked is not None else None
            break
        if kind != "missing" or not place:
            break  # (a refusal: the repository is not looked for further)
        place = place[:-1]
    for place in climbed:
        cache[("git repository", place)] = found
    return found


def _read(walk: Walk, path: tuple[str, ...], limit: int) -> str | FileScript | None:
    """A file's text; None when it is not there; a refusal as a `FileScript` naming why."""
    content = walk.read_file(path, limit)
    if content is None or isinstance(content, (Missing, Binary)):
        return None  # (a compiled hook is not judged, as a compiled program a command runs)
    if isinstance(content, Refused):
        refused = FileScript("/" + "/".join(path), "git", True, True, None)
        refused.refused = content.reason
        return refused
    return content


def configured_lines(walk: Walk, view: View) -> list[str]:
    """The command lines a `git config KEY VALUE` on the line makes git run later (round 5):
    an alias's `!` line, a configured program's value, and those of a file `include.path`
    (or `includeIf.….path`) names, read within bounds (relative to the git directory, as git
    reads it: here, taken from where the command runs, under `.git`)."""
    args = [a for a in view.args[view.inner + 1 :]]
    k = 0
    while k < len(args) and args[k].text != "config":
        k += 1
    operands = [a for a in args[k + 1 :] if not a.text.startswith("-")]
    if k >= len(args) or len(operands) != 2 or any(a.opaque for a in operands) \
            or any(a.text in ("--get", "--get-all", "--unset", "--unset-all", "--list", "-l", "--get-regexp")
                   for a in args[k + 1 :]):
        return []
    key, value = _normal_key(operands[0].text), operands[1].text
    if key.startswith("alias."):
        return [value[1:]] if value.startswith("!") else []
    if _runs_program(key) and _program_value(key, value):
        return [with_paths(key, value)]
    if _INCLUDE_KEY().fullmatch(key) and view.cwd is not None:
        found = _repository(walk, None, view.cwd)
        place = walk.absolute(value, found[1] if found is not None else view.cwd + (".git",))
        text = _read(walk, place, CONFIG_BYTES) if place is not None else None
        if not isinstance(text, str):
            return []
        lines = []
        for name, values in parse_config(text).items():
            for item in values:
                if name.startswith("alias.") and item.startswith("!"):
                    lines.append(item[1:])
                elif _runs_program(name) and _program_value(name, item):
                    lines.append(with_paths(name, item))
        return lines
    return []


# -- programs git hands the work tree's paths (round 2, L and M) ---------------------------------
#
# `diff.external = rm` deletes the first file `git diff` compares; `diff.t.textconv`,
# `filter.x.clean = rm %f`, a merge driver's `%P`, a diff or merge tool's `$MERGED`, and the
# program of `git grep -O` get paths of the work tree the same way, protected ones included.
# Such a line is walked with those paths in place: `PATHS` stands for every file of the
# repository (`listers.py` reads `git ls-files :/` as a listing of any path), so the line is
# judged as `git ls-files | xargs PROG` is: a program not proven to only read them (`rm`,
# `sed -i`, a shell, an unknown program) reaches each protected entry; `cat`, `diff`,
# `strings` pass.
PATHS = "`git ls-files :/`"
_TOOL_PATHS = LazyPattern(r"\$\{?(?:LOCAL|REMOTE|MERGED|BASE)\b\}?")


def with_paths(key: str, value: str) -> str:
    """The line git runs for the program `value` of configuration key `key`, with the paths it
    hands the program (`PATHS`); other keys' values as they are."""
    section, _, rest = key.partition(".")
    name, _, leaf = rest.rpartition(".")
    if value.startswith(("git-lfs ", "git lfs ")) and section == "filter":
        return value  # (Git LFS's own filter: it stores the content, the file is not changed)
    if key == "diff.external" or section == "diff" and name and leaf in ("textconv", "command"):
        return f"{value} {PATHS}"
    if section == "filter" and name and leaf in ("clean", "smudge"):
        return value.replace("%f", PATHS)  # (without `%f` the content comes on stdin)
    if section == "filter" and name and leaf == "process":
        return f"{value} {PATHS}"  # (the paths come over its protocol)
    if section == "merge" and name and leaf == "driver":
        return value.replace("%P", PATHS)  # (`%O %A %B` are temporary files)
    if section in ("difftool", "mergetool") and name and leaf == "cmd":
        return _TOOL_PATHS().sub(lambda m: PATHS, value)
    return value


def path_programs(walk: Walk, view: View) -> list[str]:
    """The lines of the programs a `git` command on the line hands paths of the work tree:
    `git grep -O<prog>`/`--open-files-in-pager[=<prog>]` (bare, the pager), `git difftool
    -x/--extcmd <prog>`, each with `PATHS` after it."""
    args = view.args[view.inner + 1 :]
    options = _GIT_GLOBAL_MODEL.options
    pager = None
    k = 0
    while k < len(args) and args[k].text.startswith("-"):
        key, eq, value = args[k].text.partition("=")
        option = options.get(key)
        if option is not None and option.arg == 1 and not eq:
            k += 1
            value = args[k].text if k < len(args) else ""
        if key == "-c" and _normal_key(value.partition("=")[0]) == "core.pager":
            pager = value.partition("=")[2]
        k += 1
    if k >= len(args) or args[k].opaque or args[k].text not in ("grep", "difftool"):
        return []
    sub = args[k].text
    programs: list[str] = []
    rest = args[k + 1 :]
    j = 0
    while j < len(rest):
        a = rest[j]
        t = a.text
        if t == "--":
            break
        if sub == "grep" and (t.startswith("-O") or t.startswith("--open-files-in-pager")
                              or t.startswith("--open-") and "--open-files-in-pager".startswith(t.split("=")[0])):
            value = t[2:] if t.startswith("-O") else t.partition("=")[2]
            if not value and "=" not in t:
                value = pager or walk.environment(view, "GIT_PAGER") or walk.environment(view, "PAGER") or "less"
            programs.append("\"$PROGRAM\"" if a.opaque else value)
        elif sub == "difftool" and (t in ("-x", "--extcmd") or t.startswith(("--extcmd=", "-x"))):
            if t in ("-x", "--extcmd"):
                j += 1
                if j >= len(rest):
                    break
                a, value = rest[j], rest[j].text
            else:
                value = t.partition("=")[2] if t.startswith("--") else t[2:]
            programs.append("\"$PROGRAM\"" if a.opaque else value)
        elif sub == "grep" and t in ("-e", "-f", "--max-depth", "-A", "-B", "-C", "-m", "--threads"):
            j += 1  # (a value, not an option)
        j += 1
    return [f"{program} {PATHS}" for program in programs]


def _runs_program(key: str) -> bool:
    if key in _PROGRAM_KEYS:
        return True
    section, _, rest = key.partition(".")
    if section == "pager":
        return True
    name, _, leaf = rest.rpartition(".")
    return bool(name) and (section, leaf) in _PROGRAM_PATTERNS


def _program_value(key: str, value: str) -> bool:
    """Is this value a program or a shell line (not a boolean, nor a git-provided helper's
    name: `credential.helper = store` runs `git credential-store`)?"""
    if value.strip().lower() in _BOOLEANS:
        return False
    if key.startswith("credential.") and not value.startswith("!") and "/" not in value:
        return False
    if key in ("merge.tool", "diff.tool", "ssh.variant"):
        return False  # a tool's name: its `cmd` is the program, read under its own key
    return True


# -- the configuration file ----------------------------------------------------------------------


def parse_config(text: str) -> dict[str, list[str]]:
    """The values of a git configuration file, by key (`section.key` or `section.sub.key`, the
    section and key lowercased, the subsection kept), each key's values in order. Never raises;
    a line it cannot read is skipped (git would refuse the whole file: then git runs nothing
    of it either)."""
    values: dict[str, list[str]] = {}
    section = ""
    lines = text.split("\n")
    k = 0
    while k < len(lines):
        line = lines[k]
        k += 1
        stripped = line.strip()
        if not stripped or stripped[0] in "#;":
            continue
        if stripped.startswith("["):
            header, rest = _section_header(stripped)
            if header is None:
                section = ""
                continue
            section = header
            stripped = rest.strip()
            if not stripped or stripped[0] in "#;":
                continue
        if not section:
            continue
        name, eq, raw = stripped.partition("=")
        name = name.strip().lower()
        if not name or not (name[0].isalpha()) or not all(c.isalnum() or c == "-" for c in name):
            continue
        if not eq:
            values.setdefault(f"{section}.{name}", []).append("true")  # `key` alone is true
            continue
        # A value continues on the next line after a backslash at its end (outside quotes).
        while True:
            value, complete = _value(raw)
            if complete or k >= len(lines):
                break
            raw = raw.rstrip(" \t")[:-1] + lines[k]  # (the backslash and the newline go)
            k += 1
        values.setdefault(f"{section}.{name}", []).append(value)
    return values


def _section_header(line: str) -> tuple[str | None, str]:
    """`[section]`, `[section "sub"]` or the old `[section.sub]`: the key prefix and the text
    after the header (a key may follow it on the same line)."""
    end = 1
    quoted = False
    while end < len(line):
        c = line[end]
        if c == "\\" and quoted:
            end += 2
            continue
        if c == '"':
            quoted = not quoted
        elif c == "]" and not quoted:
            break
        end += 1
    if end >= len(line):
        return None, ""
    inside = line[1:end].strip()
    rest = line[end + 1 :]
    name, _, sub = inside.partition(" ")
    sub = sub.strip()
    if sub:
        if len(sub) < 2 or not (sub.startswith('"') and sub.endswith('"')):
            return None, ""
        out = []
        j = 1
        while j < len(sub) - 1:
            if sub[j] == "\\" and j + 1 < len(sub) - 1:
                j += 1
            out.append(sub[j])
            j += 1
        return f"{name.lower()}.{''.join(out)}", rest
    if "." in name:
        first, _, second = name.partition(".")
        return f"{first.lower()}.{second.lower()}", rest
    return name.lower(), rest


_ESCAPES = {"n": "\n", "t": "\t", "b": "\b", '"': '"', "\\": "\\"}


def _value(raw: str) -> tuple[str, bool]:
    """A value's text (quotes removed, escapes read, a comment outside quotes dropped, outer
    blanks trimmed, inner blanks kept, as spaces outside quotes) and whether it ended (no
    continuation backslash)."""
    out: list[str] = []
    quoted = False
    pending_blank = ""  # blanks outside quotes, kept only when more text follows
    j = 0
    raw = raw.strip(" \t")
    while j < len(raw):
        c = raw[j]
        if c == "\\":
            if j + 1 >= len(raw):
                return "".join(out), False
            nxt = raw[j + 1]
            if nxt == "\n":
                j += 2
                continue
            out.append(pending_blank + _ESCAPES.get(nxt, nxt))
            pending_blank = ""
            j += 2
            continue
        if c == '"':
            quoted = not quoted
            out.append(pending_blank)
            pending_blank = ""
        elif not quoted and c in "#;":
            break
        elif not quoted and c in " \t":
            if any(out):
                pending_blank += " "  # (git keeps each blank outside quotes as a space, once the value has text: `"" sh` is `sh`)
        else:
            out.append(pending_blank + c)
            pending_blank = ""
        j += 1
    return "".join(out), True
