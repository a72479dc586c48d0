"""Command lines a task runner's project file holds in a configuration syntax (round r8,
r8-runners; projectfiles.py `TOOLS` rows of mode `commands`).

A Taskfile's `cmds`, tox's `commands`, pyproject.toml's pdm/poe/hatch scripts, cargo-make's
Makefile.toml, mise's tasks and hooks, a Procfile's processes, devbox.json's scripts, an
Earthfile's `LOCALLY` recipes, lefthook's `run` lines: each is a shell line the runner hands
to a shell (or to exec, which only does less). `command_lines` gives them to projectfiles.py,
which walks each one shell of its own, the file's whole text still read for mentions. Before
round r8 these files were only searched for mentions, so `bash x.sh` or `rm -f c?/gate.sh`
in a task passed.

The files are read by small readers, not general parsers where the check path would have to
load one: TOML and JSON by the standard library's parsers (imported only when such a tool
runs), YAML by indentation (`yaml_commands`), INI by sections and continuation lines. A file
whose format this cannot read (a TOML or JSON error, a YAML flow collection where commands
stand) gives a reason instead of lines: the command fails closed.

Every task of the file is walked, not only the one the call names: which one runs, and which
others it depends on, is each runner's own logic; reading one that does not run only fails
closed."""

from __future__ import annotations

import re

from polydeukes.vm.sre import LazyPattern

# A template's placeholder (`{{.VAR}}`, `{{ exec(command="…") }}`): of unknown value.
_TEMPLATE = LazyPattern(r"\{\{.*?\}\}", re.DOTALL)
# A runner's own `{name}` substitution (pdm's `{args}`, hatch's `{root}`, tox's `{posargs}`,
# lefthook's `{staged_files}`), not a shell brace expansion (`{a,b}`, `${x}`).
_PLACEHOLDER = LazyPattern(r"(?<!\$)\{[A-Za-z_][\w:.\[\]-]*(?::[^{}]*)?\}")
# mise's template function that runs a command when the configuration is loaded.
_TEMPLATE_EXEC = LazyPattern(r"""exec\(\s*command\s*=\s*(?:"((?:[^"\\]|\\.)*)"|'([^']*)')""")

# Keys whose values are not command lines (descriptions, names of other tasks, file globs a
# runner compares for freshness): not walked (a glob walked as a program would match anything).
_NOT_COMMANDS = frozenset({
    "help", "description", "desc", "summary", "alias", "aliases", "depends", "depends_post", "wait_for",
    "dependencies", "sources", "outputs", "generates", "watch", "watch_files", "files", "glob", "globs",
    "exclude", "include", "includes", "tags", "label", "labels", "category", "hide", "quiet", "silent",
    "tools", "python", "version", "type", "installer", "features", "extras", "platforms", "dir", "cwd",
    "working_dir", "workdir", "root", "env_file", "dotenv", "usage", "confirm", "interactive", "raw",
    "executor", "use", "uses", "deps", "only", "skip", "priority", "stage_fixed", "fail_text",
    "interpreter", "script_runner", "script_extension", "name", "timeout", "retry", "private", "extend",
    "workspace", "clear", "condition", "toolchain", "install_crate", "install_crate_args", "watch_paths",
})


def command_lines(tool: str, name: str, text: str) -> list[str] | str:
    """The command lines `tool` may run from its file `name` (spelled path) of text `text`,
    or why they cannot be read (a `str` reason: the command fails closed)."""
    base = name.rsplit("/", 1)[-1]
    reader = _READERS.get(tool)
    if reader is None:
        return []
    return reader(base, text)


# -- TOML ---------------------------------------------------------------------------------------------


def _toml(text: str) -> dict | str:
    import tomllib  # (only such a runner loads it)

    try:
        return tomllib.loads(text)
    except (tomllib.TOMLDecodeError, ValueError) as exc:
        return f"it is not TOML this layer reads ({exc})"


def _strings(value, out: list[str], key: str = "") -> None:
    """The command lines under a TOML or JSON value: a string; a list of strings as one script
    of several lines (cargo-make's `script`, hatch's and devbox's lists: each a line); a table
    with `command` (or `cmd`) and `args` as that argv; any other table's values, but those of
    `_NOT_COMMANDS` keys."""
    if key in _NOT_COMMANDS:
        return
    if isinstance(value, str):
        out.append(value)
        for m in _TEMPLATE_EXEC().finditer(value):
            out.append(m.group(1) if m.group(1) is not None else m.group(2))
    elif isinstance(value, list):
        if key in ("cmd", "args") and all(isinstance(v, str) for v in value):
            out.append(_argv(value))  # (pdm's `cmd = ["pytest", "-x"]`: one argv)
            return
        for item in value:
            if isinstance(item, list) and all(isinstance(v, str) for v in item):
                out.append(_argv(item))  # (tox.toml's `commands = [["pytest", "x"]]`)
            else:
                _strings(item, out)
    elif isinstance(value, dict):
        command = value.get("command")
        args = value.get("args")
        if isinstance(command, str) and isinstance(args, list) and all(isinstance(a, str) for a in args):
            out.append(_argv([command, *args]))  # (cargo-make's `command = "rm"`, `args = [...]`)
            value = {k: v for k, v in value.items() if k not in ("command", "args")}
        for k, v in value.items():
            if k == "file" and isinstance(v, str):
                out.append("source " + _quoted(v))  # (cargo-make's `script = { file = "x.sh" }`, mise's `file`)
            elif k in ("_.source", "source") and key in ("_", "env", ""):
                for f in v if isinstance(v, list) else [v]:
                    spelled = f.get("path") if isinstance(f, dict) else f
                    if isinstance(spelled, str):
                        out.append("source " + _quoted(spelled))  # (mise's `[env] _.source = "x.sh"`)
            else:
                _strings(v, out, k)


def _argv(words: list[str]) -> str:
    return " ".join(_quoted(w) for w in words)


def _quoted(word: str) -> str:
    return "'" + word.replace("'", "'\\''") + "'"


def _under(table: dict, path: tuple[str, ...]) -> list:
    """The values at `path` in `table` (`*`: every key)."""
    values = [table]
    for part in path:
        values = [v[k] for v in values if isinstance(v, dict) for k in (v if part == "*" else [part]) if k in v]
    return values


def _toml_roots(*roots: tuple[str, ...]):
    def read(base: str, text: str) -> list[str] | str:
        table = _toml(text)
        if isinstance(table, str):
            return table
        out: list[str] = []
        for root in roots:
            for value in _under(table, root):
                _strings(value, out)
        return [_substituted(line) for line in out]
    return read


def _substituted(line: str) -> str:
    """A runner's templates and placeholders as values of unknown value."""
    if "{" not in line:
        return line
    return _PLACEHOLDER().sub("${RUNNER}", _TEMPLATE().sub("${RUNNER}", line))


# -- YAML (by indentation) -------------------------------------------------------------------------------

_YAML_LINE = LazyPattern(r"( *)(?:(- +)(?:([A-Za-z_][\w-]*)[ \t]*:(?:[ \t]+(.*?))?|(.*?))"
                         r"|([A-Za-z_][\w-]*)[ \t]*:(?:[ \t]+(.*?))?)[ \t]*")


def yaml_commands(text: str, list_keys: frozenset[str], scalar_keys: frozenset[str]) -> list[str] | str:
    """The command lines of a YAML file read by indentation: a value of a key in
    `scalar_keys` (`cmd: …`, `run: …`), and an item of a list under a key in `list_keys`
    (`cmds:` then `- …`), a block scalar (`|`, `>`) taken whole. A flow collection (`[…]`,
    `{…}`) where a command stands is not read: a reason."""
    lines = text.split("\n")
    out: list[str] = []
    parents: list[tuple[int, str]] = []  # (column, key) of the keys enclosing a line
    k = 0
    while k < len(lines):
        line = lines[k]
        k += 1
        stripped = line.strip()
        if not stripped or stripped.startswith("#") or stripped in ("---", "..."):
            continue
        m = _YAML_LINE().fullmatch(line)
        if m is None:
            continue
        indent = len(m.group(1))
        dash = m.group(2)
        if dash:
            key, value, item = m.group(3), m.group(4), m.group(5)
            column = indent + len(dash)
        else:
            key, value, item = m.group(6), m.group(7), None
            column = indent
        while parents and parents[-1][0] >= (indent if dash else column):
            parents.pop()
        parent = parents[-1][1] if parents else ""
        if dash and key is None:
            # `- item`: a command when its list is one of `list_keys`
            if parent not in list_keys:
                continue
            got = _yaml_value(item or "", lines, k, indent)
        elif key in scalar_keys:
            got = _yaml_value(value or "", lines, k, column)
        else:
            parents.append((column, key))
            continue
        if isinstance(got, str):
            return got  # (a reason: not read)
        command, k = got
        if command is not None:
            out.append(command)
    return [_substituted(line) for line in out]


def _yaml_value(value: str, lines: list[str], k: int, column: int) -> tuple[str | None, int] | str:
    """A scalar's text (None: none, a mapping or list follows), and where reading goes on."""
    from polydeukes.stdlib.shell.projectfiles import _yaml_scalar

    value = value.split(" #", 1)[0].rstrip() if value[:1] not in ("'", '"') else value
    if value[:1] in ("[", "{"):
        return "a command stands in a YAML flow collection, which this layer does not read"
    if value[:1] in ("|", ">"):
        block: list[str] = []
        while k < len(lines) and (not lines[k].strip() or len(lines[k]) - len(lines[k].lstrip(" ")) > column):
            block.append(lines[k])
            k += 1
        while block and not block[-1].strip():
            block.pop()
        if not block:
            return None, k
        cut = min(len(b) - len(b.lstrip(" ")) for b in block if b.strip())
        body = [b[cut:] for b in block]
        return ("\n".join(body) if value[0] == "|" else " ".join(b.strip() for b in body)), k
    if not value:
        return None, k
    return _yaml_scalar(value), k


def _taskfile(base: str, text: str) -> list[str] | str:
    # go-task: `cmds:` items (a string, or `- cmd: …`), `status:` and `preconditions:` checks,
    # `sh:` of dynamic variables and preconditions (run when the file is read), `defer:`.
    if re.search(r"(?m)^includes[ \t]*:", text):
        return "it includes other Taskfiles, which this layer does not read"
    return yaml_commands(text, frozenset({"cmds", "status", "preconditions"}), frozenset({"cmd", "sh", "defer"}))


def _lefthook(base: str, text: str) -> list[str] | str:
    if re.search(r"(?m)^[ \t]+scripts[ \t]*:", text):
        return "its hooks run script files of .lefthook/, which this layer does not read"
    if re.search(r"(?m)^(?:extends|remotes)[ \t]*:", text):
        return "it takes hooks from other configuration files, which this layer does not read"
    return yaml_commands(text, frozenset(), frozenset({"run"}))


# -- INI: tox ------------------------------------------------------------------------------------------

_TOX_COMMANDS = frozenset({"commands", "commands_pre", "commands_post", "install_command",
                           "list_dependencies_command"})


def _tox(base: str, text: str) -> list[str] | str:
    if base == "pyproject.toml":
        table = _toml(text)
        if isinstance(table, str):
            return table
        tox = table.get("tool", {}).get("tox") if isinstance(table.get("tool"), dict) else None
        if not isinstance(tox, dict):
            return []
        legacy = tox.get("legacy_tox_ini")
        out = _tox_ini(legacy) if isinstance(legacy, str) else []
        _tox_toml(tox, out)
        return [_substituted(line) for line in out]
    if base.endswith(".toml"):
        table = _toml(text)
        if isinstance(table, str):
            return table
        out = []
        _tox_toml(table, out)
        return [_substituted(line) for line in out]
    return [_substituted(line) for line in _tox_ini(text)]


def _tox_toml(table: dict, out: list[str]) -> None:
    for key, value in table.items():
        if key in _TOX_COMMANDS and isinstance(value, list):
            for command in value:
                if isinstance(command, list):
                    out.append(_argv([c if isinstance(c, str) else "${RUNNER}" for c in command]))
                elif isinstance(command, str):
                    out.append(command)
        elif isinstance(value, dict):
            _tox_toml(value, out)


def _tox_ini(text: str) -> list[str]:
    """tox.ini's (or setup.cfg's) command settings, one command a line (a line ending in `\\`
    goes on), their `-` and `!` prefixes dropped."""
    settings: list[list[str]] = []
    current: list[str] | None = None
    for line in text.split("\n"):
        if not line.strip() or line.lstrip().startswith(("#", ";")):
            continue
        if line[:1] in (" ", "\t"):
            if current is not None:
                current.append(line.strip())
            continue
        current = None
        if line.startswith("["):
            continue
        key, eq, value = line.partition("=")
        if eq and key.strip() in _TOX_COMMANDS:
            current = [value.strip()] if value.strip() else []
            settings.append(current)
    commands: list[str] = []
    for setting in settings:
        pending = ""
        for piece in setting:
            if piece.endswith("\\"):
                pending += piece[:-1] + " "
                continue
            piece = (pending + piece).lstrip("-! ")
            pending = ""
            if piece:
                commands.append(piece)
        if pending.strip():
            commands.append(pending.strip())
    return commands


# -- line formats --------------------------------------------------------------------------------------


def _procfile(base: str, text: str) -> list[str]:
    """A Procfile's `name: command` lines (honcho, foreman, overmind, hivemind, forego)."""
    out: list[str] = []
    for line in text.split("\n"):
        m = re.match(r"[ \t]*([\w.-]+)[ \t]*:(.*)", line)
        if m and not line.lstrip().startswith("#") and m.group(2).strip():
            out.append(m.group(2).strip())
    return out


def _json_strings(*roots: tuple[str, ...]):
    def read(base: str, text: str) -> list[str] | str:
        import json  # (only such a runner loads it)

        try:
            data = json.loads("\n".join(line for line in text.split("\n") if not line.lstrip().startswith("//")))
        except ValueError as exc:
            return f"it is not JSON this layer reads ({exc})"
        out: list[str] = []
        for root in roots:
            for value in _under(data, root) if isinstance(data, dict) else ():
                _strings(value, out)
        return [_substituted(line) for line in out]
    return read


_EARTH_TARGET = LazyPattern(r"([a-z][a-zA-Z0-9.-]*)[ \t]*:[ \t]*(?:#.*)?")


def _earthfile(base: str, text: str) -> list[str] | str:
    """An Earthfile's recipes that run on the host: a target whose recipe says `LOCALLY` runs
    its `RUN` commands (and `WITH DOCKER … RUN`) in the project's directory. `RUN` in a
    container runs there; `SAVE ARTIFACT … AS LOCAL DEST` writes DEST from the container's
    files: a line copying a tree of unknown content into DEST."""
    targets: list[list[str]] = []
    logical: list[str] = []
    pending = ""
    for line in text.split("\n"):
        if line.rstrip().endswith("\\"):
            pending += line.rstrip()[:-1] + " "
            continue
        logical.append(pending + line)
        pending = ""
    if pending:
        logical.append(pending)
    out: list[str] = []
    for line in logical:
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if line[:1] not in (" ", "\t"):
            targets.append([])
            continue
        if targets:
            targets[-1].append(line.strip())
    for recipe in targets:
        local = any(step.split()[:1] == ["LOCALLY"] for step in recipe)
        for step in recipe:
            words = step.split(None, 1)
            if not words:
                continue
            if words[0] == "SAVE" and " AS LOCAL " in f" {step} ":
                destination = step.split(" AS LOCAL ", 1)[1].split()
                if destination:
                    out.append("cp -r \"${EARTHLY_ARTIFACT}\" " + _quoted(destination[0]))
                continue
            if not local or words[0] != "RUN" or len(words) < 2:
                continue
            command = words[1]
            while command.startswith("--"):
                flag, _, command = command.partition(" ")
                command = command.lstrip()
            if command.startswith("["):
                import json

                try:
                    argv = json.loads(command)
                except ValueError:
                    return "a RUN command of LOCALLY is not JSON this layer reads"
                if not isinstance(argv, list) or not all(isinstance(w, str) for w in argv):
                    return "a RUN command of LOCALLY is not JSON this layer reads"
                command = _argv(argv)
            out.append(command)
    return out


_READERS = {
    "task": _taskfile,
    "go-task": _taskfile,
    "tox": _tox,
    "pdm": _toml_roots(("tool", "pdm", "scripts")),
    "poe": _toml_roots(("tool", "poe", "tasks"), ("tasks",)),
    "hatch": _toml_roots(("tool", "hatch", "envs", "*", "scripts"), ("tool", "hatch", "envs", "*", "pre-install-commands"),
                         ("tool", "hatch", "envs", "*", "post-install-commands"), ("envs", "*", "scripts"),
                         ("envs", "*", "pre-install-commands"), ("envs", "*", "post-install-commands")),
    "cargo-make": _toml_roots(()),
    "makers": _toml_roots(()),
    "mise": _toml_roots(("tasks",), ("hooks",), ("env",)),
    "honcho": _procfile,
    "foreman": _procfile,
    "overmind": _procfile,
    "hivemind": _procfile,
    "forego": _procfile,
    "devbox": _json_strings(("shell",)),
    "earthly": _earthfile,
    "lefthook": _lefthook,
    "nx": _json_strings(("targets", "*", "options")),
}
