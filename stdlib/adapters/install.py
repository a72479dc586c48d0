"""`pdks-<host> init`: install an adapter into the project in the working directory (cold path).

Order (spec 07 §1, "Installer common behaviour"):
1. preflight: read and check every host file the installer merges (nothing is written before
   it clears);
2. the agent-neutral scaffold `pdks init` (config, .gitignore rule);
3. `.polydeukes/hook-python`: the interpreter running this installer, one of the places the
   delegator looks for the judge (local state: git-ignored, and, as all of `.polydeukes/`, one
   of the judge's built-in protected entries, so an agent cannot point it elsewhere);
4. the delegator `<folder>/hooks/covenant-pretooluse.sh`, written only if absent;
5. the host's registration (merged into the host's file, never replacing it) and extras.
Each artifact is reported `created <path>` or `skipped <path> (already present)`; a preflight
failure exits 2 with nothing written; a later write failure exits 2 and may leave a partial tree.

Three pieces of shell, generated here, stand between the host and Python:
- the registered command: `/bin/sh -c '…'`, finding the delegator from the host's project-root
  variable, or from the working directory upwards (Codex runs hooks from the call's cwd). One
  argument to /bin/sh in single quotes, with no single quote and no backslash pair inside, reads
  the same in sh, bash, zsh and fish, so the host's choice of shell cannot change it. It is
  byte-identical on every run: it is the idempotence key of every registration (and Codex's
  trust hash);
- the delegator, sourced by that command: enters the root, picks the judge, maps the status;
- a tiny Python bootstrap, so an interpreter that cannot import polydeukes says so and blocks.
Every path through them ends in exit 0 or 2 (a host such as Claude Code lets a call through on
1 or 127), with the reason on stderr.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile

from polydeukes.cli import write_stderr
from polydeukes.stdlib.adapters.runner import Host
from polydeukes.vm.safeio import MiB, read_regular

DELEGATOR = "covenant-pretooluse.sh"
INTERPRETER_RECORD = ".polydeukes/hook-python"
HOST_FILE_LIMIT = 16 * MiB


class InstallError(Exception):
    pass


# -- the shell between the host and Python ----------------------------------------------------


def delegator_path(host: Host) -> str:
    return f"{host.folder}/hooks/{DELEGATOR}"


def registered_command(host: Host) -> str:
    """The command string a host runs for every tool call (see the module docstring)."""
    start = f"${{{host.root_variable}:-$PWD}}" if host.root_variable else "$PWD"
    relative = delegator_path(host)
    script = (
        f"d={start}; case $d in /*) ;; *) d=$PWD/$d ;; esac; "
        f"while f=$d/{relative}; [ ! -f \"$f\" ]; do case $d in /) "
        f"printf \"%s\\n\" \"covenant hook failed closed: no {relative} in {start} or any "
        f"directory above it \u2014 run {host.command} init in the project\" >&2; exit 2 ;; esac; "
        "d=${d%/*}; d=${d:-/}; done; "
        ". \"$f\"; "
        "printf \"%s\\n\" \"covenant hook failed closed: $f ended without a verdict\" >&2; exit 2"
    )
    assert "'" not in script  # one single-quoted argument, the same in every shell
    return f"/bin/sh -c '{script}'"


_BOOTSTRAP = """import sys
try:
    from polydeukes.stdlib.adapters.@MODULE@ import hook
except BaseException as error:
    q = chr(39)
    sys.stderr.write("covenant hook failed closed: cannot use " + q + "polydeukes" + q
                     + " from " + sys.argv[1] + " \\u2014 install or update it there, then try"
                     + " again (" + type(error).__name__ + ": " + str(error) + ")\\n")
    raise SystemExit(2)
raise SystemExit(hook())"""

_DELEGATOR = """\
# polydeukes: the @TITLE@ hook delegator, written by `@COMMAND@ init`.
#
# Not run on its own: the command registered in @REGISTRATION@ sources it with $f naming this
# file. It enters the project root (two directories above this file), finds the judge and turns
# every outcome into exit 0 (allow) or exit 2 (block): a host may let a call through on any
# other status, so no path through this file ends otherwise.
#
# The judge, first found wins:
#   1. the project's virtual environment, .venv/bin/python, when @COMMAND@ is installed there;
#   2. the Python that last ran an adapter's `init` here (its path is in .polydeukes/hook-python);
#   3. @COMMAND@ on PATH.
# None found: the call is blocked with the reason on stderr.
cd -P -- "${f%/*}/../.." 2>/dev/null || {
  printf '%s\\n' "covenant hook failed closed: cannot enter the project root above $f" >&2
  exit 2
}
pdks_boot='@BOOTSTRAP@'
pdks_python=
if [ -x .venv/bin/python ] && [ -f .venv/bin/@COMMAND@ ]; then
  pdks_python=.venv/bin/python
elif [ -f .polydeukes/hook-python ]; then
  { IFS= read -r pdks_python || :; } < .polydeukes/hook-python
  [ -x "$pdks_python" ] || pdks_python=
fi
if [ -n "$pdks_python" ]; then
  # -P: the project root (the working directory) is not on sys.path, so nothing an agent
  # writes there can stand in for the judge's modules.
  "$pdks_python" -P -c "$pdks_boot" "$PWD"
elif command -v @COMMAND@ >/dev/null 2>&1; then
  @COMMAND@ hook
else
  printf '%s\\n' "covenant hook failed closed: cannot use 'polydeukes' from $PWD \u2014 install or update it there, then try again" >&2
  exit 2
fi
pdks_status=$?
case $pdks_status in 0|2) exit "$pdks_status" ;; esac
printf '%s\\n' "covenant hook failed closed: the judge exited with status $pdks_status before a verdict" >&2
exit 2
"""


def delegator_text(host: Host) -> str:
    bootstrap = _BOOTSTRAP.replace("@MODULE@", host.module)
    assert "'" not in bootstrap  # it sits inside single quotes in the delegator
    return (_DELEGATOR.replace("@BOOTSTRAP@", bootstrap).replace("@TITLE@", host.title)
            .replace("@COMMAND@", host.command).replace("@REGISTRATION@", host.registration))


# -- the installer ------------------------------------------------------------------------------


def install(host: Host) -> int:
    root = os.getcwd()
    lines: list[str] = []
    try:
        interpreter = _interpreter()
        state = host.preflight(root)
        from polydeukes.cli.scaffold import InitError, run_init

        try:
            lines += run_init(root)
        except InitError as exc:
            write_stderr(f"pdks init failed: {exc}\n")
            raise InstallError(f"'pdks init' failed in {root} (exit 2) \u2014 fix what it "
                               "reported and re-run") from None
        _emit(lines)
        _emit([record_interpreter(root, interpreter),
               write_new(root, delegator_path(host), delegator_text(host))])
        _emit(host.register(root, state, registered_command(host)))
    except InstallError as exc:
        write_stderr(f"{host.command} init failed: {exc}\n")
        return 2
    except OSError as exc:
        where = f" {_shown(root, exc.filename)}" if exc.filename else ""
        write_stderr(f"{host.command} init failed: cannot write{where}: {exc.strerror or exc}\n")
        return 2
    _emit(host.notes())
    return 0


def _emit(lines: list[str]) -> None:
    for line in lines:
        sys.stdout.write(line + "\n")
    sys.stdout.flush()


def _shown(root: str, path) -> str:
    path = os.fsdecode(path)
    return os.path.relpath(path, root) if os.path.isabs(path) else path


def _interpreter() -> str:
    """The interpreter running `init`: the judge of last resort before PATH. Kept as spelled
    (a virtual environment is recognized by the path its python is started through)."""
    executable = sys.executable
    if not executable or not os.path.isabs(executable) or not os.access(executable, os.X_OK):
        raise InstallError(
            f"cannot use 'polydeukes' from {os.getcwd()} \u2014 install or update it there first "
            "(e.g. 'pip install polydeukes'), then run this command again: the running Python "
            f"has no usable path ({executable!r})")
    return executable


def record_interpreter(root: str, interpreter: str) -> str:
    """Write `.polydeukes/hook-python` unless it already names this interpreter. Local state
    (git-ignored) rather than a line in the committed delegator: the path is this machine's."""
    text = interpreter + "\n"
    path = os.path.join(root, INTERPRETER_RECORD)
    try:
        current = read_regular(path, limit=1 << 16).decode("utf-8", errors="replace")
    except OSError:
        current = None
    if current == text:
        return f"skipped {INTERPRETER_RECORD} (already present)"
    os.makedirs(os.path.dirname(path), exist_ok=True)
    _replace(path, text)
    return f"created {INTERPRETER_RECORD}"


# -- writing ----------------------------------------------------------------------------------


def write_new(root: str, relative: str, text: str) -> str:
    """Create `relative` unless anything exists there (never overwritten); the report line."""
    path = os.path.join(root, relative)
    if os.path.lexists(path):
        return f"skipped {relative} (already present)"
    os.makedirs(os.path.dirname(path), exist_ok=True)
    # O_EXCL: a file that appeared since the check is never overwritten.
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
    with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
        handle.write(text)
    return f"created {relative}"


def _replace(path: str, text: str) -> None:
    """Replace the file's content atomically: a temporary file beside it, then a rename. A
    symlink is written through (the link the user made stays a link); the mode is kept."""
    target = os.path.realpath(path)
    try:
        mode = os.stat(target).st_mode & 0o7777
    except FileNotFoundError:
        mode = 0o644
    directory = os.path.dirname(target)
    fd, temporary = tempfile.mkstemp(prefix=".pdks-", dir=directory)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
        os.chmod(temporary, mode)
        os.replace(temporary, target)
    except BaseException:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        raise


def json_text(document: object) -> str:
    """Pretty-printed like JSON.stringify(value, null, 2), plus a trailing newline."""
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def _refuse_constant(name: str) -> object:
    raise ValueError(f"{name} is not JSON")


class Unparseable(Exception):
    """A host file exists but is not plain JSON (or cannot be read); ``str(e)`` says why."""


def read_json(root: str, relative: str) -> tuple[str | None, object]:
    """(text, value) of a host file, or (None, None) when it does not exist."""
    path = os.path.join(root, relative)
    try:
        raw = read_regular(path, limit=HOST_FILE_LIMIT)
    except FileNotFoundError:
        return None, None
    except OSError as exc:
        raise Unparseable(exc.strerror or str(exc)) from None
    try:
        text = raw.decode("utf-8")
        # Strict like JSON.parse: NaN and Infinity are not JSON; a repeated key keeps the last.
        return text, json.loads(text, parse_constant=_refuse_constant)
    except ValueError as exc:
        raise Unparseable(str(exc)) from None


def _nested(document: dict, key: str, empty: object) -> object:
    """document[key], created as `empty` when absent or null (its position kept)."""
    if document.get(key) is None:
        document[key] = empty
    return document[key]


# -- Claude Code: merging .claude/settings.json -----------------------------------------------

CLAUDE_UNPARSEABLE = "cannot parse {file} in {root} \u2014 fix it and re-run ({message})"
CLAUDE_NOT_TAKEN = (
    "{file} in {root} did not take the PreToolUse registration \u2014 the judge would never be "
    "spawned. Fix that file and re-run"
)
CLAUDE_TIMEOUT_SECONDS = 60  # the host's default (600 s) fails open when it expires


def read_claude_settings(root: str, relative: str) -> tuple[str | None, object]:
    try:
        text, settings = read_json(root, relative)
    except Unparseable as exc:
        raise InstallError(CLAUDE_UNPARSEABLE.format(file=relative, root=root,
                                                     message=exc)) from None
    if text is None:
        return None, {}
    # A settings file the registration cannot be merged into is refused before anything is
    # written (the spec's read-back check would only find it afterwards).
    hooks = settings.get("hooks") if isinstance(settings, dict) else None
    entries = hooks.get("PreToolUse") if isinstance(hooks, dict) else None
    if (not isinstance(settings, dict) or not isinstance(hooks, (dict, type(None)))
            or not isinstance(entries, (list, type(None)))):
        raise InstallError(CLAUDE_NOT_TAKEN.format(file=relative, root=root))
    return text, settings


def _claude_registered(settings: object, command: str) -> bool:
    hooks = settings.get("hooks") if isinstance(settings, dict) else None
    entries = hooks.get("PreToolUse") if isinstance(hooks, dict) else None
    return isinstance(entries, list) and any(
        isinstance(entry, dict) and isinstance(entry.get("hooks"), list)
        and any(isinstance(h, dict) and h.get("command") == command for h in entry["hooks"])
        for entry in entries)


def merge_claude_settings(root: str, relative: str, state: tuple[str | None, object],
                          matcher: str, command: str) -> str:
    """Append the PreToolUse entry unless a handler already runs exactly `command` (then the
    file is not rewritten, not even reformatted); every other key, event, matcher and
    permission is kept. The file is read back to prove the registration took."""
    text, settings = state
    if _claude_registered(settings, command):
        return f"skipped {relative} (already present)"
    _nested(_nested(settings, "hooks", {}), "PreToolUse", []).append({"matcher": matcher, "hooks": [
        {"type": "command", "command": command, "timeout": CLAUDE_TIMEOUT_SECONDS}]})
    path = os.path.join(root, relative)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    _replace(path, json_text(settings))
    try:
        _, written = read_json(root, relative)
    except Unparseable:
        written = None
    if not _claude_registered(written, command):
        raise InstallError(CLAUDE_NOT_TAKEN.format(file=relative, root=root))
    return f"created {relative}"


def claude_rules() -> str:
    return """\
---
paths:
  - polydeukes.config.yaml
  - polydeukes.config.yml
  - polydeukes.config.json
  - .claude/**
---
# polydeukes

Edits and commands in this project are judged by polydeukes (`pdks`) before they run, against
`polydeukes.config.yaml`. A blocked call exits 2 and says why on stderr.

For anything about polydeukes (installing, the config, disciplines, covenants, the witness),
read the documentation installed with it, not the web: it matches the version that judges you.

- `pdks docs` lists the topics; `pdks docs install`, `pdks docs config`,
  `pdks docs discipline`, `pdks docs covenant`, `pdks docs witness` print one.
- `pdks docs search "<words>"` finds the sections that mention every word, best first, with
  the matching line; `pdks docs show <document-id> --section <section-id>` prints one section.
- `pdks explain` prints what the config registers, without judging anything.

Do not edit the hook files under `.claude/hooks/` or the hook registration in
`.claude/settings.json`: they are the gate, and the config protects them. A discipline you
think is wrong is a conversation with the human, not an edit.
"""


def claude_skill() -> str:
    return """\
---
name: discipline-draft
description: Turn a problem the user describes into a polydeukes discipline entry at the draft or advise rung (never enforce block), and read advised verdicts from the telemetry log.
---
# Drafting a polydeukes discipline

Use this when the user describes a practice they want the project to keep ("no focused tests in
shared code", "database files only under data/").

1. Read how disciplines are written: `pdks docs discipline`, and
   `pdks docs search "<words>"` for the step or relation you need.
2. Write the entry into `disciplines:` in `polydeukes.config.yaml` at one of the two lower
   rungs only:
   - a **draft** (`{id, why, draft: true}`): the practice in prose, registered ahead of
     promotion, never judged;
   - or a judged entry at **`enforce: advise`**: a break is recorded and reported, and the call
     still goes through.
   Never write `enforce: block`: promoting a discipline to a gate is the human's decision.
3. Check it loads and landed where you meant: `pdks explain` (a `declare` row for a judged
   entry, a `draft` row for a draft).
4. At task boundaries, read what the advised entries caught: the `advised` rows of
   `.polydeukes/roi.log` (tab-separated: time, verdict, label, subject, witnesses), e.g.
   `grep -P '\\tadvised\\t' .polydeukes/roi.log | tail`. Report them to the user; they decide
   whether an entry is promoted, changed or dropped.
"""


# -- Codex: merging .codex/hooks.json ---------------------------------------------------------

CODEX_NOT_AN_OBJECT = "{file} is not a JSON object \u2014 repair it, then run this again"
CODEX_NOT_MERGEABLE = "{file} has {what} \u2014 repair it, then run this again"


def read_codex_hooks(root: str, relative: str) -> tuple[str | None, object]:
    try:
        text, document = read_json(root, relative)
    except Unparseable as exc:
        raise InstallError(f"{CODEX_NOT_AN_OBJECT.format(file=relative)} ({exc})") from None
    if text is None:
        return None, None
    if not isinstance(document, dict):
        raise InstallError(CODEX_NOT_AN_OBJECT.format(file=relative))
    hooks = document.get("hooks")
    if hooks is not None and not isinstance(hooks, dict):
        raise InstallError(CODEX_NOT_MERGEABLE.format(
            file=relative, what="a \"hooks\" value that is not an object"))
    entries = hooks.get("PreToolUse") if isinstance(hooks, dict) else None
    if entries is not None and not isinstance(entries, list):
        raise InstallError(CODEX_NOT_MERGEABLE.format(
            file=relative, what="a \"hooks.PreToolUse\" value that is not an array"))
    return text, document


def _own(handler: object, command: str) -> bool:
    return isinstance(handler, dict) and handler.get("command") == command


def merge_codex_hooks(root: str, relative: str, state: tuple[str | None, object], matcher: str,
                      command: str, timeout: int) -> str:
    """Merge the PreToolUse handler into .codex/hooks.json (spec 07 §4.6).

    Every other event, matcher, handler and unknown key is kept. The own handler is found by its
    command string (in entries with or without a matcher) and refreshed in place; if its entry
    holds sibling handlers under another matcher, the siblings keep their matcher and the own
    handler moves into an entry of its own; duplicate own handlers are dropped. The file is
    written only when its bytes change (Codex trusts a hook by the hash of its definition, so
    any change needs a new approval in /hooks)."""
    text, document = state
    own = {"type": "command", "command": command, "timeout": timeout}
    document = {} if document is None else document
    hooks = _nested(document, "hooks", {})
    merged: list = []
    placed = False
    for entry in hooks.get("PreToolUse") or []:
        handlers = entry.get("hooks") if isinstance(entry, dict) else None
        if not isinstance(handlers, list) or not any(_own(h, command) for h in handlers):
            merged.append(entry)  # a foreign entry, whatever its shape, is kept as it is
            continue
        siblings = [h for h in handlers if not _own(h, command)]
        if placed:  # a duplicate of the own handler
            if siblings:
                merged.append({**entry, "hooks": siblings})
            continue
        placed = True
        if siblings and entry.get("matcher") != matcher:
            merged.append({**entry, "hooks": siblings})
            merged.append({"matcher": matcher, "hooks": [own]})
            continue
        refreshed, kept = [], False
        for handler in handlers:
            if not _own(handler, command):
                refreshed.append(handler)
            elif not kept:
                refreshed.append({**handler, **own})
                kept = True
        merged.append({"matcher": matcher, **entry, "hooks": refreshed} if "matcher" not in entry
                      else {**entry, "matcher": matcher, "hooks": refreshed})
    if not placed:
        merged.append({"matcher": matcher, "hooks": [own]})
    hooks["PreToolUse"] = merged
    new_text = json_text(document)
    if new_text == text:
        return f"skipped {relative} (already present)"
    path = os.path.join(root, relative)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    _replace(path, new_text)
    return f"created {relative}"
