"""`pdks-<host> init`: install an adapter into the project in the working directory (cold path).

Order (spec 07 §1, "Installer common behaviour"):
1. preflight: read and check every host file the installer merges, and whether the config's
   protectedPaths can take what this install adds to it (nothing is written before it clears);
2. the agent-neutral scaffold `pdks init` (config, .gitignore rule);
3. protectedPaths made to cover the host's gate and an in-project judge (adapters/protect.py),
   before the gate exists: a registration that is not yet protected is a gate left open;
4. `.polydeukes/hook-python`: the interpreter running this installer, one of the places the
   delegator looks for the judge (local state: git-ignored, and, as all of `.polydeukes/`, one
   of the judge's built-in protected entries, so an agent cannot point it elsewhere);
5. the delegator `<folder>/hooks/covenant-pretooluse.sh`, written only if absent;
6. the host's registration (merged into the host's file, never replacing it) and extras.
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
Every path through them ends in the host's "allow" or "block" (exit 0 or 2, the reason on
stderr, and for a host that reads its decision on stdout the JSON document there; a host such
as Claude Code lets a call through on 1 or 127, Copilot CLI on anything but 0).
"""

from __future__ import annotations

import copy
import json
import os
import sys
import tempfile
from typing import Callable

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


def registered_script(host: Host) -> str:
    """The script of the command a host runs for every tool call: from the host's project-root
    variable, or the working directory, up to the first delegator, which it sources."""
    start = f"${{{host.root_variable}:-$PWD}}" if host.root_variable else "$PWD"
    relative = delegator_path(host)
    lost = _shell_denial(
        host, f"covenant hook failed closed: no {relative} in {start} or any directory above "
              f"it \u2014 run {host.command} init in the project",
        f"covenant hook failed closed: no {relative} in the working directory of the hook or any "
        f"directory above it \u2014 run {host.command} init in the project")
    return (
        f"d={start}; case $d in /*) ;; *) d=$PWD/$d ;; esac; "
        f"while f=$d/{relative}; [ ! -f \"$f\" ]; do case $d in /) {lost} ;; esac; "
        "d=${d%/*}; d=${d:-/}; done; "
        ". \"$f\"; " + _ended_without_verdict(host, relative)
    )


def registered_command(host: Host) -> str:
    """The command string a host runs for every tool call (see the module docstring)."""
    return _quoted_for_any_shell(registered_script(host))


def _quoted_for_any_shell(script: str) -> str:
    assert "'" not in script  # one single-quoted argument, the same in every shell
    assert "\\\\" not in script  # fish reads a backslash pair inside single quotes as one
    return f"/bin/sh -c '{script}'"


def _ended_without_verdict(host: Host, relative: str) -> str:
    return _shell_denial(host, "covenant hook failed closed: $f ended without a verdict",
                         f"covenant hook failed closed: {relative} ended without a verdict")


def _shell_denial(host: Host, message: str, fixed: str) -> str:
    """Registered-command shell that tells the host `message` and ends the call as blocked.
    A host that reads its decision on stdout gets it there too, with the `fixed` reason (no
    shell expansion can break the JSON: the command has no room for an escaper)."""
    told = f"printf \"%s\\n\" \"{message}\" >&2; "
    document = host.deny_document(fixed)
    if document is not None:
        text = json.dumps(document, ensure_ascii=False, separators=(",", ":"))
        assert not any(c in text for c in "$`\\'")  # read literally inside double quotes
        told += "printf \"%s\\n\" \"" + text.replace('"', '\\"') + "\"; "
    return told + f"exit {host.deny_status}"


_BOOTSTRAP = """import sys
try:
    from polydeukes.stdlib.adapters.@MODULE@ import hook
except BaseException as error:
    q = chr(39)
    m = ("covenant hook failed closed: cannot use " + q + "polydeukes" + q + " from "
         + sys.argv[1] + " \\u2014 install or update it there, then try again ("
         + type(error).__name__ + ": " + str(error) + ")")
    sys.stderr.write(m + "\\n")
    t = @DENY_TEMPLATE@
    if t:
        import json
        sys.stdout.write(t.replace("@@REASON@@", json.dumps(m)[1:-1]) + "\\n")
    raise SystemExit(@DENY_STATUS@)
raise SystemExit(hook())"""

_DELEGATOR = """\
# polydeukes: the @TITLE@ hook delegator, written by `@COMMAND@ init`.
#
# Not run on its own: the command registered in @REGISTRATION@
# sources it with $f naming this file. It enters the project root, finds the judge and turns
# every outcome into the host's "allow" or "block" (@ANSWERS@):
# a host may let a call through on anything else, so no path through this file ends otherwise.
#
# The judge, first found wins:
#   1. the project's virtual environment, .venv/bin/python, when @COMMAND@ is installed there;
#   2. the Python that last ran an adapter's `init` here (its path is in .polydeukes/hook-python);
#   3. @COMMAND@ on PATH.
# None found: the call is blocked with the reason (on stderr, and in the host's decision).
@DENY_FUNCTION@
@ENTER_ROOT@
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
  pdks_deny "covenant hook failed closed: cannot use 'polydeukes' from $PWD \u2014 install or update it there, then try again"
fi
pdks_status=$?
case $pdks_status in @VERDICTS@) exit "$pdks_status" ;; esac
pdks_deny "covenant hook failed closed: the judge exited with status $pdks_status before a verdict"
"""

# Entering the project root: a project's delegator lives two directories below it.
PROJECT_ROOT = (
    'cd -P -- "${f%/*}/../.." 2>/dev/null ||\n'
    '  pdks_deny "covenant hook failed closed: cannot enter the project root above $f"')


def delegator_text(host: Host, enter_root: str = PROJECT_ROOT) -> str:
    document = host.deny_document("@@REASON@@")
    template = json.dumps(json.dumps(document, separators=(",", ":"))) if document else '""'
    bootstrap = (_BOOTSTRAP.replace("@MODULE@", host.module)
                 .replace("@DENY_TEMPLATE@", template)
                 .replace("@DENY_STATUS@", str(host.deny_status)))
    assert "'" not in bootstrap  # it sits inside single quotes in the delegator
    answers = (f"exit 0 or exit {host.deny_status}" if document is None else
               f"exit {host.deny_status} with a JSON decision on stdout")
    return (_DELEGATOR.replace("@DENY_FUNCTION@", _deny_function(host))
            .replace("@ENTER_ROOT@", enter_root).replace("@BOOTSTRAP@", bootstrap)
            .replace("@ANSWERS@", answers).replace("@TITLE@", host.title)
            .replace("@COMMAND@", host.command).replace("@REGISTRATION@", host.registration)
            .replace("@VERDICTS@", "|".join(sorted({"0", str(host.deny_status)}))))


def _deny_function(host: Host) -> str:
    """`pdks_deny <reason>`: block the call in the host's terms, whatever the reason says."""
    document = host.deny_document("@@REASON@@")
    lines = ["pdks_deny() {", "  printf '%s\\n' \"$1\" >&2"]
    if document is not None:
        pieces = json.dumps(document, ensure_ascii=False, separators=(",", ":")).split(
            "@@REASON@@")
        assert not any("'" in piece for piece in pieces)
        told = []
        for index, piece in enumerate(pieces):
            if index:
                told.append('pdks_json "$1"')
            told.append(f"printf '%s' '{piece}'")
        lines.append("  { " + "; ".join(told) + "; echo; }")
    lines += [f"  exit {host.deny_status}", "}"]
    if document is not None:
        lines = _JSON_STRING.splitlines() + lines
    return "\n".join(lines)


# JSON string content for any text, in plain POSIX sh (no sed, no tr: a host may run hooks with
# a bare PATH, and a broken decision document is a call let through).
_JSON_STRING = """\
pdks_json() {
  pdks_rest=$1
  while [ -n "$pdks_rest" ]; do
    pdks_tail=${pdks_rest#?}
    pdks_char=${pdks_rest%"$pdks_tail"}
    pdks_rest=$pdks_tail
    case $pdks_char in
      '"') printf '%s' '\\"' ;;
      '\\') printf '%s' '\\\\' ;;
      [[:cntrl:]]) printf ' ' ;;
      *) printf '%s' "$pdks_char" ;;
    esac
  done
}"""


# -- the installer ------------------------------------------------------------------------------


def install(host: Host, *, scaffold: bool = True) -> int:
    """`pdks-<host> init` in the working directory (with `scaffold=False` when `pdks init`
    has just written the scaffold itself)."""
    root = os.getcwd()
    lines: list[str] = []
    try:
        interpreter = _interpreter()
        state = host.preflight(root)
        from polydeukes.stdlib.adapters import protect

        gate = gate_entries(host, root, interpreter)
        protect.preflight(root, gate, host.command)
        from polydeukes.cli.scaffold import InitError, run_init

        try:
            lines += run_init(root) if scaffold else []
        except InitError as exc:
            write_stderr(f"pdks init failed: {exc}\n")
            raise InstallError(f"'pdks init' failed in {root} (exit 2) \u2014 fix what it "
                               "reported and re-run") from None
        _emit(lines)
        # Protection first: a registration that is not yet protected is a gate left open.
        _emit(protect.apply(root, gate, host.command))
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


# -- Claude Code: the same registration as a plugin ---------------------------------------------

PLUGIN_MANIFEST = ".claude-plugin/plugin.json"
PLUGIN_HOOKS = "hooks/hooks.json"
PLUGIN_DELEGATOR = "hooks/covenant-pretooluse.sh"
# A plugin's delegator lives in the plugin, not in the project: the project is the host's.
PLUGIN_PROJECT = (
    'cd -P -- "${CLAUDE_PROJECT_DIR:-$PWD}" 2>/dev/null ||\n'
    '  pdks_deny "covenant hook failed closed: cannot enter the project ${CLAUDE_PROJECT_DIR:-$PWD}"')


def plugin_command(host: Host) -> str:
    """The plugin's registered command: its own delegator, found through CLAUDE_PLUGIN_ROOT
    (which Claude Code both substitutes in the command and sets in the environment)."""
    missing = _shell_denial(host, "covenant hook failed closed: no $f \u2014 reinstall the "
                                  "polydeukes plugin",
                            f"covenant hook failed closed: the plugin has no {PLUGIN_DELEGATOR}"
                            " \u2014 reinstall the polydeukes plugin")
    return _quoted_for_any_shell(
        f'f="${{CLAUDE_PLUGIN_ROOT}}/{PLUGIN_DELEGATOR}"; [ -f "$f" ] || {{ {missing}; }}; '
        '. "$f"; ' + _ended_without_verdict(host, PLUGIN_DELEGATOR))


def package_plugin(host: Host, directory: str) -> int:
    """`pdks-claude-code init --plugin DIR`: the registration as a Claude Code plugin layout in
    DIR (each file only when absent). Nothing is installed into the project; but when DIR lies
    inside it, protectedPaths is made to cover DIR, which is then part of the gate."""
    from polydeukes.stdlib.adapters import protect
    from polydeukes.vm import ENGINE_VERSION

    root = os.getcwd()
    inside = _inside(root, os.path.abspath(directory))
    gate = [inside] if inside else []
    matcher = "|".join(host.roster["mutating"] + host.roster["shell"])
    manifest = {"name": "polydeukes", "version": ENGINE_VERSION,
                "description": "Deterministic edit- and command-time covenants: every edit and "
                               "shell command is judged by pdks against the project's "
                               "polydeukes.config.yaml before it runs.",
                "license": "MIT"}
    hooks = {"description": f"polydeukes: {matcher.replace('|', ', ')} calls are judged before "
                            "they run", "hooks": {"PreToolUse": [{"matcher": matcher, "hooks": [
                                {"type": "command", "command": plugin_command(host),
                                 "timeout": CLAUDE_TIMEOUT_SECONDS}]}]}}
    try:
        protect.preflight(root, gate, host.command)
        _emit([write_new(root, os.path.join(directory, name), text) for name, text in (
            (PLUGIN_MANIFEST, json_text(manifest)), (PLUGIN_HOOKS, json_text(hooks)),
            (PLUGIN_DELEGATOR, delegator_text(host, enter_root=PLUGIN_PROJECT)))])
        _emit(protect.apply(root, gate, host.command))
    except InstallError as exc:
        write_stderr(f"{host.command} init --plugin failed: {exc}\n")
        return 2
    except OSError as exc:
        where = f" {_shown(root, exc.filename)}" if exc.filename else ""
        write_stderr(f"{host.command} init --plugin failed: cannot write{where}: "
                     f"{exc.strerror or exc}\n")
        return 2
    _emit(["next: add the plugin to a marketplace (or try it with `claude --plugin-dir "
           f"{directory}`); `pdks docs claude-code` explains the plugin"])
    return 0


# -- every host, for `pdks init --host` -----------------------------------------------------------

# name -> module under polydeukes.stdlib.adapters, in the order hosts are listed and installed.
HOST_MODULES = {"claude-code": "claude_code", "codex": "codex", "grok": "grok",
                "gemini": "gemini", "copilot": "copilot", "cursor": "cursor",
                "opencode": "opencode"}
ALL_DETECTED = "all-detected"


def host_named(name: str) -> Host:
    import importlib

    return importlib.import_module(f"polydeukes.stdlib.adapters.{HOST_MODULES[name]}").HOST


def detected(root: str) -> list[str]:
    return [name for name in HOST_MODULES
            if any(os.path.lexists(os.path.join(root, p)) for p in host_named(name).detect)]


def unknown_host(names) -> str | None:
    """The refusal for the first name that is no host, or None."""
    unknown = [n for n in names if n != ALL_DETECTED and n not in HOST_MODULES]
    if not unknown:
        return None
    return (f"unknown host '{unknown[0]}' \u2014 one of {', '.join(HOST_MODULES)}, or "
            f"{ALL_DETECTED}")


def install_hosts(root: str, names: list[str]) -> int:
    """`pdks init --host <name>…` after the scaffold: each installer in turn, without its own
    scaffold; the first failure ends the run (exit 2)."""
    chosen: list[str] = []
    for name in names:
        found = detected(root) if name == ALL_DETECTED else [name]
        if name == ALL_DETECTED and not found:
            folders = ", ".join(p for n in HOST_MODULES for p in host_named(n).detect)
            _emit([f"skipped --host {ALL_DETECTED} (no host folder here: {folders})"])
        chosen += [n for n in found if n not in chosen]
    for name in chosen:
        code = install(host_named(name), scaffold=False)
        if code != 0:
            return code
    return 0


def list_hosts(root: str) -> str:
    """`pdks init --list-hosts`: each host, whether it is installed here, and how to install."""
    rows = []
    for name in HOST_MODULES:
        each = host_named(name)
        registered = each.is_registered(root)
        delegator = os.path.isfile(os.path.join(root, delegator_path(each)))
        if registered and delegator:
            state = "installed"
        elif registered or delegator:
            state = "incomplete (run its init again)"
        elif any(os.path.lexists(os.path.join(root, p)) for p in each.detect):
            state = "detected, not installed"
        else:
            state = "not installed"
        rows.append((name, state, f"{each.command} init"))
    widths = [max(len(row[i]) for row in rows) for i in range(2)]
    return "".join(f"{n.ljust(widths[0])}  {s.ljust(widths[1])}  {how}\n" for n, s, how in rows)


def gate_entries(host: Host, root: str, interpreter: str) -> list[str]:
    """What protectedPaths must cover after this install: the host's gate, and the judge's own
    runtime when it lives inside the project (a virtual environment the delegator will use)."""
    entries = list(host.gate)
    for venv in judge_environments(host, root, interpreter):
        if venv not in entries:
            entries.append(venv)
    return entries


def judge_environments(host: Host, root: str, interpreter: str) -> list[str]:
    """Root-relative virtual environments inside the project that the delegator may run as the
    judge: the project's `.venv` when the host's console script is installed there (the
    delegator's first choice), and the environment of the interpreter running `init` (recorded
    in .polydeukes/hook-python). The whole environment, not only bin/python: the judge is its
    interpreter and everything it imports (site-packages, .pth files run at start-up)."""
    found = []
    if os.path.isfile(os.path.join(root, ".venv", "bin", host.command)):
        found.append(".venv")
    if sys.prefix != sys.base_prefix and os.path.dirname(os.path.dirname(interpreter)) == sys.prefix:
        relative = _inside(root, sys.prefix)
        if relative is not None and relative not in found:
            found.append(relative)
    return found


def _inside(root: str, path: str) -> str | None:
    relative = os.path.relpath(os.path.realpath(path), os.path.realpath(root))
    if relative == "." or relative == ".." or relative.startswith("../"):
        return None
    return relative


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


def read_json(root: str, relative: str, *, comments: bool = False) -> tuple[str | None, object]:
    """(text, value) of a host file, or (None, None) when it does not exist. With `comments`,
    // and /* */ comments outside strings are ignored, as the hosts that allow them do."""
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
        return text, json.loads(_uncommented(text) if comments else text,
                                parse_constant=_refuse_constant)
    except ValueError as exc:
        raise Unparseable(str(exc)) from None


def _uncommented(text: str) -> str:
    """`text` with // line comments and /* */ block comments outside JSON strings blanked out
    (to spaces, newlines kept, so a parser's line and column still point into the file)."""
    out: list[str] = []
    i, n = 0, len(text)
    while i < n:
        char = text[i]
        if char == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            out.append(text[i:j + 1])
            i = j + 1
        elif text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j == -1 else j
            out.append(" " * (j - i))
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j == -1 else j + 2
            out.append("".join(c if c == "\n" else " " for c in text[i:j]))
            i = j
        else:
            out.append(char)
            i += 1
    return "".join(out)


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


# -- merging a host's JSON hook file (Codex, Gemini CLI, Copilot CLI, Cursor) ------------------

NOT_AN_OBJECT = "{file} is not a JSON object \u2014 repair it, then run this again"
NOT_MERGEABLE = "{file} has {what} \u2014 repair it, then run this again"
HAS_COMMENTS = ("{file} has comments, which rewriting it would lose \u2014 add this yourself, "
                "then run this again:\n{entries}")


class HookFile:
    """One host file, read and merged in preflight (so a file that cannot take the registration
    is refused before anything is written) and written, when it changed, in `register`."""

    __slots__ = ("relative", "text")

    def __init__(self, relative: str, text: str | None) -> None:
        self.relative = relative
        self.text = text  # the new content, or None when the file already says it all

    def write(self, root: str) -> str:
        if self.text is None:
            return f"skipped {self.relative} (already present)"
        path = os.path.join(root, self.relative)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        _replace(path, self.text)
        return f"created {self.relative}"


# A merge adds the own registration to a document in place and returns, for a refusal message,
# the (event, entry) pairs it placed there.
Merge = Callable[[dict], "list[tuple[str, object]]"]


def plan_hook_file(root: str, relative: str, events: tuple[str, ...], merge: Merge, *,
                   comments: bool = False, version: int | None = None) -> HookFile:
    """Read `relative` (missing: an empty document), check that `hooks.<event>` can take an
    entry, merge, and decide: unchanged (skipped, never rewritten or reformatted), the new text,
    or a refusal. With `comments` the file may carry // and /* */ comments (the host strips
    them): it is read, but when it must change it is refused with the entries to add by hand.
    With `version`, the document's "version" must be that number (set when absent)."""
    try:
        text, document = read_json(root, relative, comments=comments)
    except Unparseable as exc:
        raise InstallError(f"{NOT_AN_OBJECT.format(file=relative)} ({exc})") from None
    if text is None:
        document = {}
    if not isinstance(document, dict):
        raise InstallError(NOT_AN_OBJECT.format(file=relative))
    if version is not None and document.get("version", version) != version:
        raise InstallError(NOT_MERGEABLE.format(file=relative,
                                                what=f"a \"version\" other than {version}"))
    hooks = document.get("hooks")
    if hooks is not None and not isinstance(hooks, dict):
        raise InstallError(NOT_MERGEABLE.format(
            file=relative, what="a \"hooks\" value that is not an object"))
    for event in events:
        entries = hooks.get(event) if isinstance(hooks, dict) else None
        if entries is not None and not isinstance(entries, list):
            raise InstallError(NOT_MERGEABLE.format(
                file=relative, what=f"a \"hooks.{event}\" value that is not an array"))
    merged = copy.deepcopy(document)
    if version is not None:
        merged.setdefault("version", version)
    placed = merge(merged)
    if text is not None and merged == document:
        return HookFile(relative, None)  # registered already: never rewritten, nor reformatted
    if text is not None and comments and _uncommented(text) != text:
        entries = "\n".join(f"  in \"hooks\".\"{event}\": {json.dumps(entry)}"
                            for event, entry in placed)
        raise InstallError(HAS_COMMENTS.format(file=relative, entries=entries))
    return HookFile(relative, json_text(merged))


def names_command(root: str, relative: str, command: str) -> bool:
    """Whether any string in the JSON file `relative` is exactly `command`."""
    try:
        _, document = read_json(root, relative, comments=True)
    except Unparseable:
        return False
    stack = [document]
    while stack:
        value = stack.pop()
        if value == command:
            return True
        if isinstance(value, dict):
            stack.extend(value.values())
        elif isinstance(value, list):
            stack.extend(value)
    return False


def merge_matched(document: dict, event: str, matcher: str, own: dict) -> list:
    """The own handler in `hooks.<event>`, in the `{matcher, hooks: [handler]}` shape of Codex
    and Gemini CLI (spec 07 §4.6).

    Every other event, matcher, handler and unknown key is kept. The own handler is found by its
    command string (in entries with or without a matcher) and refreshed in place; if its entry
    holds sibling handlers under another matcher, the siblings keep their matcher and the own
    handler moves into an entry of its own; duplicate own handlers are dropped."""
    command = own["command"]

    def is_own(handler: object) -> bool:
        return isinstance(handler, dict) and handler.get("command") == command

    hooks = _nested(document, "hooks", {})
    merged: list = []
    placed = False
    for entry in hooks.get(event) or []:
        handlers = entry.get("hooks") if isinstance(entry, dict) else None
        if not isinstance(handlers, list) or not any(is_own(h) for h in handlers):
            merged.append(entry)  # a foreign entry, whatever its shape, is kept as it is
            continue
        siblings = [h for h in handlers if not is_own(h)]
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
            if not is_own(handler):
                refreshed.append(handler)
            elif not kept:
                refreshed.append({**handler, **own})
                kept = True
        merged.append({"matcher": matcher, **entry, "hooks": refreshed} if "matcher" not in entry
                      else {**entry, "matcher": matcher, "hooks": refreshed})
    if not placed:
        merged.append({"matcher": matcher, "hooks": [own]})
    hooks[event] = merged
    return [(event, {"matcher": matcher, "hooks": [own]})]


def merge_flat(document: dict, event: str, own: dict, key: str) -> list:
    """The own handler in `hooks.<event>`, in the flat `[handler]` shape of Copilot CLI and
    Cursor: found by its command (under `key`), refreshed in place (its extra keys kept),
    duplicates dropped, appended when absent; every other handler is kept in its place."""
    hooks = _nested(document, "hooks", {})
    merged: list = []
    placed = False
    for handler in hooks.get(event) or []:
        if isinstance(handler, dict) and handler.get(key) == own[key]:
            if not placed:
                merged.append({**handler, **own})
                placed = True
            continue
        merged.append(handler)
    if not placed:
        merged.append(own)
    hooks[event] = merged
    return [(event, own)]
