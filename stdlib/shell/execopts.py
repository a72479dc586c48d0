"""Options and configuration files that make a common tool run a local command line (round 8).

`ssh -o ProxyCommand='sh x.sh' h` runs `sh x.sh` here before it connects (whether or not the
host answers); `man -P 'sh x.sh' ls` runs its pager, `apt-get -o APT::Update::Pre-Invoke::=CMD
update` its hook, `psql -c '\\! CMD'` and `mysql -e 'system CMD'` their client's shell escape,
`nodemon --exec CMD`, `onchange GLOB -- CMD` and `chokidar GLOB -c CMD` the command they watch
with, `terraform plan` the programs of the `external` data sources in the directory's .tf files
(and `apply` its `local-exec` provisioners). Each such value is a command line the walk follows
as a script of the tool's (`PROGRAMS`: per program, its options that take a value and what the
value of each is); a file the tool reads them from (`ssh -F FILE`, `apt-get -c FILE`,
nodemon.json, *.tf) is read within the scripts' bounds, its command lines walked and its text
read for mentions; one that cannot be read, or that pulls in files not read here (ssh's
`Include`, apt's `#include`, a terraform module of a local directory), fails closed.

An option's value of unknown value is not followed (as a command of unknown value is not);
a configuration file of unknown value fails closed.
"""

from __future__ import annotations

from typing import NamedTuple

from polydeukes.stdlib.shell.analysis import View, Walk
from polydeukes.stdlib.shell.scripts import FileScript, _read_file
from polydeukes.vm.sre import LazyPattern

# What an option's value is:
LINE = "line"  # a command line a shell runs (`man -P`, `sftp -S`, `nodemon --exec`)
SSH = "ssh"  # an ssh_config option (`-o ProxyCommand=CMD`)
SSH_CONFIG = "ssh-config"  # an ssh_config file (`-F FILE`)
CODE = "code"  # the client's own commands (`psql -c`, `mysql -e`): walked as its stdin
CODE_FILE = "code-file"  # a file of them (`psql -f FILE`, `sftp -b FILE`)
APT = "apt"  # an apt configuration option (`-o KEY=VALUE`)
APT_CONFIG = "apt-config"  # an apt configuration file (`-c FILE`)
BROWSER = "browser"  # man's `-H`/`--html` value attached only: a browser run on a file
DPKG = "dpkg"  # one of dpkg's options, handed on by apt (`DPkg::Options::=--pre-invoke=CMD`)
SSHFS = "sshfs"  # sshfs's `-o` list (`ssh_command=CMD`, `ProxyCommand=CMD`)


class Program(NamedTuple):
    short: str  # short options that take a value (attached or the next word)
    long: frozenset[str]  # long options that take one (unless written `--opt=value`)
    values: dict[str, str]  # option -> what its value is (above)
    after_dashes: bool = False  # the words after `--` are a command's argv (`onchange GLOB -- CMD`)
    operands: str = ""  # "node": the first operand is a script nodemon runs with node


def _program(short: str, long: str, values: dict[str, str], **kw) -> Program:
    return Program(short, frozenset(long.split()), values, **kw)


_SSH_OPTIONS = {"-o": SSH, "-F": SSH_CONFIG}
_APT = _program("ocqt", "--option --config-file --target-release --default-release",
                {"-o": APT, "--option": APT, "-c": APT_CONFIG, "--config-file": APT_CONFIG})
PROGRAMS: dict[str, Program] = {
    # OpenSSH 9 (ssh(1), scp(1), sftp(1), ssh_config(5)): `-o` and `-F` as ssh's; scp's and
    # sftp's `-S program` (ssh's own `-S` is a control socket) and `-D sftp_server_path` run a
    # local program; sftp's `-b FILE` is a batch of its commands (`!cmd` runs cmd here).
    "ssh": _program("BbcDEeFIiJLlmOoPpQRSWw", "", _SSH_OPTIONS),
    "slogin": _program("BbcDEeFIiJLlmOoPpQRSWw", "", _SSH_OPTIONS),
    # autossh hands its words to ssh (`-M PORT` its own); ssh-copy-id hands `-o`/`-F` to ssh;
    # mosh's `--ssh=COMMAND` is the ssh it runs here, `--client=PATH` its local client
    "autossh": _program("BbcDEeFIiJLlmOoPpQRSWwM", "", _SSH_OPTIONS),
    "ssh-copy-id": _program("ioptF", "", _SSH_OPTIONS),
    "mosh": _program("p", "--ssh --client --server --predict --port --family --bind-server "
                     "--experimental-remote-ip", {"--ssh": LINE, "--client": LINE}),
    # sshfs's `-o` takes a comma-separated list: `ssh_command=CMD` and ssh's own options
    "sshfs": _program("opCF", "", {"-o": SSHFS, "-F": SSH_CONFIG}),
    "scp": _program("cDFiJlOoPSX", "", {**_SSH_OPTIONS, "-S": LINE, "-D": LINE}),
    "sftp": _program("BbcDFiJloPRSs", "", {**_SSH_OPTIONS, "-S": LINE, "-D": LINE, "-b": CODE_FILE}),
    # man-db 2.x: the pager (`-P`, `--pager`), the browser of `-H`/`--html` (attached only)
    "man": _program("CMPSsempLrER", "--config-file --manpath --pager --sections --extension --systems "
                    "--preprocessor --locale --recode --encoding",
                    {"-P": LINE, "--pager": LINE, "-H": BROWSER, "--html": BROWSER}),
    # psql's `\\!`, mysql's and mariadb's `system`/`\\!` in their command options and files
    "psql": _program("cdfhLopPTUvF", "--command --dbname --file --host --log-file --output --port --pset "
                     "--table-attr --username --set --variable --field-separator --record-separator",
                     {"-c": CODE, "--command": CODE, "-f": CODE_FILE, "--file": CODE_FILE}),
    **dict.fromkeys(("mysql", "mariadb"), _program(
        "eDhPpuSTO", "--execute --database --host --port --user --socket --init-command --default-character-set "
        "--defaults-file --defaults-extra-file --login-path --tee --pager --prompt",
        {"-e": CODE, "--execute": CODE, "--pager": LINE})),
    # APT 2.x (apt.conf(5)): hooks it runs through a shell (`APT::Update::Pre-Invoke`,
    # `DPkg::Pre-Invoke`, `DPkg::Post-Invoke`, `DPkg::Pre-Install-Pkgs`, …); dpkg's own
    "apt-get": _APT, "apt": _APT, "aptitude": _APT,
    "dpkg": _program("", "--admindir --root --instdir --log --status-fd --status-logger --pre-invoke "
                     "--post-invoke --path-include --path-exclude --force --refuse --abort-after",
                     {"--pre-invoke": LINE, "--post-invoke": LINE, "--status-logger": LINE}),
    # watchers that run a command on a change (nodemon's script operand runs with node)
    "nodemon": _program("xwieds", "--exec --watch --ignore --ext --delay --signal --config --cwd",
                        {"-x": LINE, "--exec": LINE}, operands="node"),
    "onchange": _program("ekjdo", "--exclude --kill --jobs --delay --outpipe --filter --await-write-finish",
                         {"-o": LINE, "--outpipe": LINE}, after_dashes=True),
    "chokidar": _program("cdt", "--command --debounce --throttle --ignore --polling --poll-interval",
                         {"-c": LINE, "--command": LINE}),
}

# ssh_config keywords whose value is a command line run here (a `Match exec` criterion too).
_SSH_COMMANDS = frozenset({"proxycommand", "localcommand", "knownhostscommand"})
_SSH_LINE = LazyPattern(r"(?im)^[ \t]*(proxycommand|localcommand|knownhostscommand|include)[ \t]*(?:=[ \t]*|[ \t])(.*)$")
_SSH_MATCH_EXEC = LazyPattern(r"""(?im)^[ \t]*match[ \t].*?\bexec[ \t]+("(?:[^"\\]|\\.)*"|\S+)""")
_SSH_TOKEN = LazyPattern(r"%(.)")
# APT keys whose value is a command line (`DPkg::Pre-Invoke`, `APT::Update::Post-Invoke-Success`,
# `DPkg::Pre-Install-Pkgs`, `Acquire::http::Proxy-Auto-Detect`) or a program (`Dir::Bin::dpkg`)
_APT_COMMAND = LazyPattern(r"(?i)(?:^|::)(?:pre-invoke|post-invoke|post-invoke-success|pre-install-pkgs"
                           r"|proxy-auto-detect|proxyautodetect)(?:$|::)|^dir::bin::")
# APT keys that point it at configuration or programs elsewhere (fail closed)
_APT_ELSEWHERE = LazyPattern(r"(?i)^(?:dir(?:::etc(?:::.*)?|::bin::methods|::state|::)?|rootdir)$")
_DPKG_OPTIONS = LazyPattern(r"(?i)(?:^|::)dpkg::options(?:$|::)")
_TERRAFORM_RUNS = frozenset({"plan", "apply", "refresh", "console", "destroy", "import", "test"})
_NODEMON_EXTENSIONS = {".py": "python", ".rb": "ruby", ".pl": "perl", ".sh": "sh", ".coffee": "coffee",
                       ".ts": "ts-node"}


def _quoted(word: str) -> str:
    return "'" + word.replace("'", "'\\''") + "'"


def _refused(shown: str, runner: str, why: str) -> FileScript:
    script = FileScript(shown, runner, True, True, None)
    script.refused = why
    return script


def _options(program: Program, args) -> tuple[list[tuple[str, object]], list, int]:
    """(option, value `Arg`-like or text) pairs for the options in `program.values`, the
    operands, and the index past `--` (or -1)."""
    found: list[tuple[str, object]] = []
    operands: list = []
    k = 0
    while k < len(args):
        a = args[k]
        t = a.text
        if t == "--":
            operands.extend(args[k + 1 :])
            return found, operands, k + 1
        if a.opaque or not t.startswith("-") or t == "-":
            operands.append(a)
            k += 1
            continue
        if t.startswith("--"):
            option, eq, value = t.partition("=")
            if eq:
                if option in program.values:
                    found.append((option, value))
                k += 1
            elif option in program.long and k + 1 < len(args):
                if option in program.values:
                    found.append((option, args[k + 1]))
                k += 2
            else:
                if option in program.values and program.values[option] == BROWSER:
                    found.append((option, ""))
                k += 1
            continue
        step = 1
        for pos in range(1, len(t)):
            letter = "-" + t[pos]
            if program.values.get(letter) == BROWSER:
                found.append((letter, t[pos + 1 :]))
                break
            if t[pos] in program.short:
                if pos + 1 < len(t):
                    value = t[pos + 1 :]
                elif k + 1 < len(args):
                    value, step = args[k + 1], 2
                else:
                    break
                if letter in program.values:
                    found.append((letter, value))
                break
        k += step
    return found, operands, -1


def option_script(walk: Walk, view: View) -> FileScript | None:
    """The command lines `view` (a program of `PROGRAMS`, or terraform) runs from its options
    and the files they name, as a script of lines; a refusal when one cannot be read."""
    args = view.args[view.inner + 1 :]
    name = view.name
    if name in ("terraform", "tofu"):
        return _terraform(walk, view, args)
    program = PROGRAMS[name]
    found, operands, dashes = _options(program, args)
    lines: list[str] = []
    texts: list[str] = []
    shown: list[str] = []
    for option, value in found:
        kind = program.values[option]
        if not isinstance(value, str):
            if value.opaque:
                if kind in (SSH_CONFIG, APT_CONFIG, CODE_FILE):
                    return _refused(f"the file {name} {option} is given", name, "its file is of unknown value")
                continue
            value = value.text
        before = len(lines)
        if kind == LINE:
            lines.append(value)
        elif kind == BROWSER:
            if value:
                lines.append(f"{value} /tmp/man.html")
        elif kind == SSH:
            key, _, rest = value.strip().replace("=", " ", 1).partition(" ")
            if key.lower() in _SSH_COMMANDS:
                lines.extend(_ssh_line(rest.strip()))
                option = f"{option} {key}"
        elif kind == SSHFS:
            for item in value.split(","):
                key, _, rest = item.strip().partition("=")
                if key.lower() in ("ssh_command", "ssh_cmd"):
                    lines.append(rest)
                elif key.lower() in _SSH_COMMANDS:
                    lines.extend(_ssh_line(rest.strip()))
                else:
                    continue
                option = f"{option} {key}"
        elif kind == CODE:
            if name == "psql":
                value = value.replace("\\", "\n\\")  # (a meta-command may follow SQL: `select 1 \g |cmd`)
            lines.append(f"{name} <<'_PDKS_CODE_'\n{value}\n_PDKS_CODE_\n")
        elif kind == CODE_FILE:
            if value not in ("-", "/dev/stdin"):
                lines.append(f"{name} < {_quoted(value)}")
        elif kind == APT:
            key, _, setting = value.partition("=")
            made = _apt_setting(key.strip(), setting)
            if isinstance(made, FileScript):
                return made
            lines.extend(made)
            option = f"{option} {key.strip()}"
        if len(lines) > before:
            shown.append(f"its {option}")
        elif kind in (SSH_CONFIG, APT_CONFIG):
            text = _read_file(walk, view, value)
            if isinstance(text, FileScript):
                return text
            if text is None:
                continue
            made = _ssh_config(value, text, name) if kind == SSH_CONFIG else _apt_config(value, text, name)
            if isinstance(made, FileScript):
                return made
            lines.extend(made)
            texts.append(text)
            shown.append(value)
    if program.after_dashes and dashes >= 0 and dashes < len(args):
        if not any(a.opaque for a in args[dashes:]):
            lines.append(" ".join(_quoted(a.text) for a in args[dashes:]))
            shown.append("the command after its --")
    if program.operands == "node":
        made = _nodemon(walk, view, found, operands)
        if isinstance(made, FileScript):
            return made
        lines.extend(made[0])
        texts.extend(made[1])
        shown.extend(made[2])
    if not lines and not texts:
        return None
    script = FileScript(" and ".join(dict.fromkeys(shown)) or f"the command {name} runs", name, True, True, None)
    script.lines = lines
    script.text = "\n".join([*texts, *lines])
    return script


def _ssh_line(value: str) -> list[str]:
    """An ssh command line with its `%` tokens (`%h`, `%p`, `%d` …) as words of their kind."""
    if not value or value.lower() == "none":
        return []
    return [_SSH_TOKEN().sub(lambda m: "%" if m.group(1) == "%" else "~" if m.group(1) == "d" else "h", value)]


def _ssh_config(spelled: str, text: str, runner: str) -> list[str] | FileScript:
    """The command lines of an ssh_config file: ProxyCommand, LocalCommand, KnownHostsCommand
    and `Match exec` criteria. An `Include` fails closed (its files are not read)."""
    lines: list[str] = []
    for m in _SSH_LINE().finditer(text):
        if m.group(1).lower() == "include":
            return _refused(spelled, runner, "it includes other configuration files, not read")
        lines.extend(_ssh_line(m.group(2).strip()))
    for m in _SSH_MATCH_EXEC().finditer(text):
        value = m.group(1)
        if value.startswith('"'):
            value = value[1:-1].replace('\\"', '"')
        lines.extend(_ssh_line(value))
    return lines


def _apt_setting(key: str, value: str) -> list[str] | FileScript:
    """The command lines one APT setting makes apt run (`DPkg::Pre-Invoke::=CMD`)."""
    key = key.rstrip(":")
    if _APT_ELSEWHERE().fullmatch(key):
        return _refused(f"apt's {key}", "apt", "it points apt at configuration or programs elsewhere")
    if _DPKG_OPTIONS().search(key):
        return [f"dpkg {_quoted(value)} --version"] if value.strip() else []
    if _APT_COMMAND().search(key):
        return [value] if value.strip() else []
    return []


_APT_TOKEN = LazyPattern(r'"((?:[^"\\]|\\.)*)"|([{};])|([^\s{};"]+)')


def _apt_config(spelled: str, text: str, runner: str) -> list[str] | FileScript:
    """The command lines an apt.conf file sets (its scopes `A::B { C "v"; };`, lists `C {
    "v1"; "v2"; };`); `#include` and `#clear` fail closed."""
    stack: list[str] = []
    lines: list[str] = []
    key: str | None = None
    stripped = []
    for line in text.splitlines():
        s = line.strip()
        if s.startswith("#include") or s.startswith("#clear"):
            return _refused(spelled, runner, "it includes other configuration files, not read")
        if s.startswith("#") or s.startswith("//"):
            continue
        stripped.append(line.split("//", 1)[0] if '"' not in line else line)
    for m in _APT_TOKEN().finditer("\n".join(stripped)):
        quoted, punct, bare = m.groups()
        if bare is not None:
            key = bare if key is None else key + bare
        elif quoted is not None:
            if key is None and stack:
                full = "::".join(stack)  # a list item
            else:
                full = "::".join([*stack, key or ""])
            made = _apt_setting(full, quoted)
            if isinstance(made, FileScript):
                return made
            lines.extend(made)
            key = None
        elif punct == "{":
            stack.append(key or "")
            key = None
        elif punct == "}":
            if stack:
                stack.pop()
            key = None
        else:
            key = None
    return lines


def _nodemon(walk: Walk, view: View, found, operands) -> tuple[list[str], list[str], list[str]] | FileScript:
    """nodemon's command: `--exec CMD` with the script operand after it, else the script run
    by its extension's program (node); nodemon.json's (or `--config FILE`'s) `exec` and
    `events` command lines; with neither a script nor an exec, package.json's start script."""
    import json

    spelled = next((v if isinstance(v, str) else v.text for o, v in found if o == "--config"), "nodemon.json")
    texts: list[str] = []
    shown: list[str] = []
    lines: list[str] = []
    configured = False
    text = _read_file(walk, view, spelled)
    if isinstance(text, FileScript):
        return text
    if text is not None:
        texts.append(text)
        shown.append(spelled)
        try:
            table = json.loads(text)
        except ValueError:
            return _refused(spelled, "nodemon", "it cannot be read as JSON")
        if isinstance(table, dict):
            if isinstance(table.get("exec"), str):
                lines.append(table["exec"])
                configured = True
            events = table.get("events")
            if isinstance(events, dict):
                lines.extend(v for v in events.values() if isinstance(v, str))
    given = any(o in ("-x", "--exec") for o, _ in found)
    if any(a.opaque for a in operands):
        return lines, texts, shown
    words = " ".join(_quoted(a.text) for a in operands)
    if operands and not given and not configured:
        script = operands[0].text
        runner = next((r for ext, r in _NODEMON_EXTENSIONS.items() if script.endswith(ext)), "node")
        lines.append(f"{runner} {words}")
    elif operands and given:
        exec_value = next((v if isinstance(v, str) else v.text for o, v in found if o in ("-x", "--exec")), "")
        lines.append(f"{exec_value} {words}")
    elif not given and not configured:
        lines.append("npm start")
    return lines, texts, shown


_TF_EXTERNAL = LazyPattern(r'(?s)data[ \t]+"external"[ \t]+"[^"]*"[ \t]*\{.*?\bprogram[ \t]*=[ \t]*\[(.*?)\]')
_TF_COMMAND = LazyPattern(r'(?s)provisioner[ \t]+"local-exec"[ \t]*\{.*?\bcommand[ \t]*=[ \t]*'
                          r'(?:"((?:[^"\\]|\\.)*)"|<<-?[ \t]*(\w+)\n(.*?)\n[ \t]*\2\b)')
_TF_INTERPRETER = LazyPattern(r'\binterpreter[ \t]*=')
_TF_STRING = LazyPattern(r'"((?:[^"\\]|\\.)*)"')
_TF_MODULE = LazyPattern(r'(?m)^[ \t]*source[ \t]*=[ \t]*"(\.{1,2}/[^"]*)"')
_TF_FILES = 64


def _terraform(walk: Walk, view: View, args) -> FileScript | None:
    """`terraform [-chdir=DIR] plan|apply|refresh|console|…`: the .tf files of the directory,
    their `external` data sources' programs (an argv) and `local-exec` provisioners' commands
    walked, their text read for mentions. A module of a local directory, an `interpreter` that
    is not a shell's, an expression in a program or command (`${…}`), a file past the bounds
    and a directory of unknown value fail closed."""
    directory = "."
    sub = None
    for a in args:
        if a.text.startswith("-chdir="):
            if a.opaque:
                return _refused("the .tf files of its directory", view.name, "its directory is of unknown value")
            directory = a.text[7:] or "."
        elif not a.text.startswith("-"):
            sub = a
            break
    if sub is None or sub.opaque or sub.text not in _TERRAFORM_RUNS:
        return None
    if view.cwd is None:
        return _refused("the .tf files of its directory", view.name, "the directory it runs in is unknown")
    place = walk.absolute(directory, view.cwd)
    if place is None or walk.disk is None:
        return _refused("the .tf files of its directory", view.name, "its directory is of unknown value")
    names = walk.disk.names_in(list(place), lambda n: n.endswith((".tf", ".tf.json")))
    if not isinstance(names, list):
        return _refused(f"the .tf files of {directory}", view.name, names.reason)
    if len(names) > _TF_FILES:
        return _refused(f"the .tf files of {directory}", view.name, "there are more than it reads")
    texts: list[str] = []
    lines: list[str] = []
    prefix = "" if directory in (".", "./") else directory.rstrip("/") + "/"
    for n in sorted(names):
        text = _read_file(walk, view, prefix + n)
        if isinstance(text, FileScript):
            return text
        if text is None:
            continue
        if n.endswith(".json") and ("external" in text or "local-exec" in text):
            return _refused(prefix + n, view.name, "its JSON syntax is not read for programs")
        if _TF_MODULE().search(text):
            return _refused(prefix + n, view.name, "it uses a module of a local directory, not read")
        texts.append(text)
        for m in _TF_EXTERNAL().finditer(text):
            words = [w.group(1) for w in _TF_STRING().finditer(m.group(1))]
            if any("${" in w for w in words):
                return _refused(prefix + n, view.name, "an external program is built by an expression")
            if words:
                lines.append(" ".join(_quoted(w.replace('\\"', '"')) for w in words))
        for m in _TF_COMMAND().finditer(text):
            command = m.group(1).replace('\\"', '"').replace("\\\\", "\\") if m.group(1) is not None else m.group(3)
            block = text[m.start() : m.end() + 400]
            if "${" in command or _TF_INTERPRETER().search(block):
                return _refused(prefix + n, view.name, "a local-exec command is built by an expression or interpreter")
            lines.append(command)
    if not texts:
        return None
    script = FileScript("the .tf files where it runs" if not prefix else f"the .tf files of {directory}",
                        view.name, True, True, None)
    script.lines = lines
    script.text = "\n".join([*texts, *lines])
    script.directory = place if prefix else False
    return script


# Ansible (2.14 checked): the controller evaluates templates here (`lookup('pipe', CMD)`,
# `query(…)`), loads plugins and modules from directories beside the playbook (callback_plugins/,
# filter_plugins/, lookup_plugins/, library/ …) and from ansible.cfg where it runs, and runs the
# tasks themselves here for a local target (`-c local`, `-i localhost,`, `hosts: localhost`,
# `connection: local`, `delegate_to: localhost`, `local_action`). Roles and included task files
# are not read. A run with any of these fails closed; otherwise the playbook's text is read for
# mentions (its tasks run on other machines).
_ANSIBLE_VALUES = frozenset({"-i", "--inventory", "--inventory-file", "-c", "--connection", "-m", "--module-name",
                             "-a", "--args", "-e", "--extra-vars", "-u", "--user", "-l", "--limit", "-t", "--tags",
                             "--skip-tags", "-f", "--forks", "-T", "--timeout", "-M", "--module-path",
                             "--vault-id", "--vault-password-file", "--private-key", "--key-file", "-B",
                             "--background", "-P", "--poll", "--become-user", "--become-method", "--start-at-task",
                             "--ssh-common-args", "--ssh-extra-args", "--scp-extra-args", "--sftp-extra-args"})
_ANSIBLE_INFO = frozenset({"--version", "--help", "-h", "--list-hosts", "--list-tasks", "--list-tags"})
_ANSIBLE_LOCAL = LazyPattern(r"(?i)\b(?:localhost|127\.0\.0\.1|::1|ansible_connection\s*[=:]\s*['\"]?local"
                             r"|connection\s*:\s*['\"]?local|local_action|delegate_to|lookup\s*\(|query\s*\("
                             r"|\bq\s*\(|roles\s*:|include|import_|pipe)")
_ANSIBLE_DIRECTORIES = ("ansible.cfg", "library", "module_utils", "callback_plugins", "filter_plugins",
                        "lookup_plugins", "action_plugins", "connection_plugins", "vars_plugins", "test_plugins",
                        "inventory_plugins", "strategy_plugins", "collections", "roles", "group_vars", "host_vars")


def ansible(walk: Walk, view: View) -> FileScript | None:
    """`ansible` and `ansible-playbook` (see above): a refusal when the run may do its work on
    this machine, else the playbooks' text read for mentions."""
    args = view.args[view.inner + 1 :]
    name = view.name
    if any(a.text in _ANSIBLE_INFO for a in args):
        return None
    operands = []
    k = 0
    local = None
    while k < len(args):
        a = args[k]
        option = a.text.split("=", 1)[0]
        if option in _ANSIBLE_VALUES:
            value = a.text.split("=", 1)[1] if "=" in a.text else args[k + 1].text if k + 1 < len(args) else ""
            if a.opaque or "=" not in a.text and k + 1 < len(args) and args[k + 1].opaque:
                local = f"its {option} is of unknown value"
            elif option in ("-c", "--connection") and value == "local":
                local = "it runs its tasks on this machine (-c local)"
            elif option in ("-i", "--inventory", "--inventory-file", "-M", "--module-path"):
                if "," in value or option in ("-M", "--module-path"):
                    if option in ("-M", "--module-path") or _ANSIBLE_LOCAL().search(value):
                        local = f"its {option} may run code on this machine"
                else:
                    text = _read_file(walk, view, value)
                    if isinstance(text, FileScript):
                        return text
                    if text is not None and _ANSIBLE_LOCAL().search(text):
                        local = f"its inventory {value} names this machine"
            elif option in ("-e", "--extra-vars") and (value.startswith("@") or "ansible_connection" in value):
                local = "its extra variables are not read"
            k += 1 if "=" in a.text else 2
            continue
        if not a.text.startswith("-"):
            operands.append(a)
        k += 1
    if local is None and view.cwd is not None and walk.disk is not None \
            and walk.disk.kind([*view.cwd, "ansible.cfg"]) != "missing":
        local = "it reads ansible.cfg where it runs (inventory, plugins), not read"
    if local is not None:
        return _refused("the tasks it is given", name, local)
    if name == "ansible":
        pattern = operands[0].text if operands else ""
        if not operands or operands[0].opaque or _ANSIBLE_LOCAL().search(pattern) or pattern in ("all", "*"):
            return _refused("the tasks it is given", name, "it may run its module on this machine (its pattern)")
        return None
    texts: list[str] = []
    shown: list[str] = []
    for a in operands:
        if a.opaque:
            return _refused(f"the playbook {name} runs", name, "its playbook is of unknown value")
        text = _read_file(walk, view, a.text)
        if isinstance(text, FileScript):
            return text
        if text is None:
            continue
        if _ANSIBLE_LOCAL().search(text):
            return _refused(a.text, name, "it may run its tasks, templates or plugins on this machine")
        directory = a.text.rsplit("/", 1)[0] + "/" if "/" in a.text else ""
        for n in _ANSIBLE_DIRECTORIES:
            place = walk.absolute(directory + n, view.cwd) if view.cwd is not None else None
            kind = walk.disk.kind(list(place)) if place is not None and walk.disk is not None else "unknown"
            if kind != "missing":
                return _refused(a.text, name, f"it loads {directory + n} (plugins, modules or settings), not read")
        texts.append(text)
        shown.append(a.text)
    if not texts:
        return None
    script = FileScript(" and ".join(shown), name, False, True, None)
    script.text = "\n".join(texts)
    return script


# Terragrunt (from its documentation; not installed here): terragrunt.hcl where it runs is
# evaluated first (its `run_cmd("cmd", "arg")` calls run then), its hooks' `execute = [argv]`
# run around the terraform command, and the terraform command runs on the directory's .tf
# files (read as terraform's). A configuration that pulls in others (`include`, `dependency`,
# `read_terragrunt_config`, a `terraform { source = … }` module), an argv built by an
# expression, `run-all`/`--all` (every directory below) and another working directory fail closed.
_TG_EXECUTE = LazyPattern(r"(?s)\bexecute[ \t]*=[ \t]*\[(.*?)\]")
_TG_RUN_CMD = LazyPattern(r"(?s)\brun_cmd[ \t]*\((.*?)\)")
_TG_ELSEWHERE = LazyPattern(r"\b(?:include|dependency|dependencies|read_terragrunt_config|source)\b")


def terragrunt(walk: Walk, view: View) -> FileScript | None:
    args = view.args[view.inner + 1 :]
    if any(a.text in ("--version", "--help", "-h", "-v", "version") for a in args):
        return None
    if any(a.opaque or a.text in ("run-all", "--all", "stack") or a.text.startswith(
            ("--terragrunt-working-dir", "--working-dir", "--terragrunt-config", "--config", "-chdir"))
           for a in args):
        return _refused("terragrunt.hcl", "terragrunt", "it runs configurations elsewhere, not read")
    text = _read_file(walk, view, "terragrunt.hcl")
    if isinstance(text, FileScript) or text is None:
        return text
    if _TG_ELSEWHERE().search(text):
        return _refused("terragrunt.hcl", "terragrunt", "it pulls in configurations or modules not read")
    lines: list[str] = []
    for m in (*_TG_EXECUTE().finditer(text), *_TG_RUN_CMD().finditer(text)):
        words = [w.group(1).replace('\\"', '"') for w in _TF_STRING().finditer(m.group(1))]
        words = [w for w in words if w not in ("--terragrunt-quiet", "--terragrunt-global-cache")]
        if "${" in m.group(1) or any("${" in w for w in words) or not words and m.group(1).strip():
            return _refused("terragrunt.hcl", "terragrunt", "a command is built by an expression")
        if words:
            lines.append(" ".join(_quoted(w) for w in words))
    texts = [text]
    shown = ["terragrunt.hcl"]
    planned = _terraform(walk, view, args)
    if planned is not None and planned.refused is not None:
        return planned
    if planned is not None:
        lines.extend(planned.lines or ())
        texts.append(planned.text or "")
        shown.append(planned.path)
    script = FileScript(" and ".join(shown), "terragrunt", True, True, None)
    script.lines = lines
    script.text = "\n".join([*texts, *lines])
    return script
