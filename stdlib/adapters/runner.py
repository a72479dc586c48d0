"""The hook runner every session adapter shares (spec 07 §1), and the adapters' command line.

One hook invocation = one host payload on stdin = one judgment, in this same process: the
payload becomes a CovenantInput IR (the host's part), and the IR is judged by exactly the code
path of `pdks covenant check --enforce block` (same validation, plan cache, rows, stderr and
exit code), as if it had been piped into that command. A second process would double the cost
of every tool call.

Fail-closed contract:
- a failure before the judgment (a payload the host adapter cannot translate, an unreadable
  pre-state) travels in the judgment: the judge's stdin becomes the one plain line
  `<adapter> failed before spawn: <reason>`, which is also written to stderr; the judge fails
  closed on it (exit 2, one `blocked covenant-check -` row), so the call leaves exactly one row;
- the judge answers 0 or 2; anything else is mapped to 2 with
  `covenant hook failed closed: the judge exited with status <s> before a verdict`;
- adapters write no telemetry rows themselves: every row comes from the judge.

The judge's answer is then told in the host's own terms (`Host.deny_document`,
`Host.deny_status`, `Host.allow_output`): most hosts read exit 2 and stderr, but GitHub Copilot
CLI ignores any exit but 0 (a failing hook is skipped) and reads a JSON decision on stdout, and
Cursor reads one as well. The reason in such a document is the judge's stderr, which still goes
to stderr too.

What happens before Python runs (finding an interpreter that can import polydeukes, a missing
delegator) is the registered command's and the delegator's business (adapters/install.py).

Hot path: imports nothing beyond the standard library, msgspec and what a check needs.
"""

from __future__ import annotations

import os
import sys

import msgspec

from polydeukes.cli import end_process, write_stderr

JUDGE_FLAGS = ["--enforce", "block"]  # the session surface always blocks; never --unattended
NOT_AN_ENVELOPE = "the payload is not a PreToolUse envelope this adapter translates"


class PreSpawnFailure(Exception):
    """The payload cannot become an IR; ``str(e)`` is the reason after `failed before spawn: `."""


class Host:
    """One agent host. A new host is mostly these attributes, `translate`, and the installer
    hooks `preflight` / `register` (see adapters/install.py)."""

    name = ""            # "claude-code": the console script is `pdks-<name>`
    module = ""          # "claude_code": polydeukes.stdlib.adapters.<module> holds the host
    title = ""           # "Claude Code": for messages and docs
    folder = ""          # ".claude": the host's project folder; hooks live in <folder>/hooks
    root_variable = ""   # environment variable naming the project root when the host sets one
    registration = ""    # the file the installer registers the hook in (for messages)
    roster: dict = {}    # the IR's `tools`: mutating, shell and command-argument names
    # Everything `init` writes that is part of the gate: `init` makes sure each is covered by
    # protectedPaths, so an agent cannot edit its own hook away.
    gate: tuple[str, ...] = ()
    # Project paths whose presence shows the host is used here (`pdks init --host all-detected`).
    detect: tuple[str, ...] = ()
    plugin = False  # `init --plugin DIR` packages the registration as a plugin (Claude Code)

    # -- how the host is told the verdict -----------------------------------------------------
    deny_status = 2      # the exit status of a blocked call
    allow_output = ""    # stdout of a call that may run

    def allow_text(self, raw: bytes) -> str:
        """What an allowed call writes on stdout for the payload `raw` (translated already):
        `allow_output` unless the host answers per call (Codex pins a call whose directory it
        does not show)."""
        return self.allow_output

    def deny_document(self, reason: str) -> dict | None:
        """The JSON object a blocked call writes on stdout, or None when exit 2 and stderr say
        it all. `reason` is the judge's stderr."""
        return None

    @property
    def command(self) -> str:
        return f"pdks-{self.name}"

    @property
    def adapter(self) -> str:
        return f"adapter-{self.name}"

    def translate(self, raw: bytes, root: str) -> dict:
        """The IR for one payload, judged with `root` as the project root; raises
        PreSpawnFailure with a reason the user can act on."""
        raise NotImplementedError

    # -- installer hooks (cold path; see adapters/install.py) --------------------------------

    def preflight(self, root: str) -> object:
        """Read and check every host file the installer will merge, before anything is written;
        raise install.InstallError to refuse. The result is handed to `register`."""
        return None

    def register(self, root: str, state: object, command: str) -> list[str]:
        """Write the hook registration for `command`; return the report lines."""
        raise NotImplementedError

    def notes(self) -> list[str]:
        """What the user must still do after a successful install (printed last)."""
        return []

    def is_registered(self, root: str) -> bool:
        """Whether the host's file names this adapter's command (`pdks init --list-hosts`)."""
        from polydeukes.stdlib.adapters import install

        return install.names_command(root, self.registration, install.registered_command(self))

    def entry_points(self):
        """(hook, main) for the host's module: `hook()` is what the delegator's bootstrap calls
        (it ends the process with the answer), `main(argv=None)` is the console script
        `pdks-<name>`."""

        def hook() -> int:
            hook_process(self)  # ends the process
            return 2  # never reached; were it, the bootstrap's SystemExit(2) would block

        def console_script(argv: list[str] | None = None) -> int:
            return main(self, argv)

        return hook, console_script


def decode_payload(raw: bytes) -> object:
    """The payload as plain JSON values; a duplicate key keeps its last value (as JSON.parse)."""
    try:
        return msgspec.json.decode(raw)
    except msgspec.DecodeError as exc:
        raise PreSpawnFailure(f"the payload is not JSON ({exc})") from None


def envelope(raw: bytes, names: tuple[str, ...] = ("tool_name",),
             inputs: tuple[str, ...] = ("tool_input",),
             input_types: tuple[type, ...] = (dict,)) -> tuple[dict, str, object]:
    """(payload, tool name, tool input) of a hook payload, each read from the first of its
    spellings present; NOT_AN_ENVELOPE unless the payload is an object with a string tool name
    and a tool input of one of `input_types`."""
    payload = decode_payload(raw)
    if not isinstance(payload, dict):
        raise PreSpawnFailure(NOT_AN_ENVELOPE)
    name, args = first_present(payload, *names), first_present(payload, *inputs)
    if not isinstance(name, str) or not isinstance(args, input_types):
        raise PreSpawnFailure(NOT_AN_ENVELOPE)
    return payload, name, args


def first_present(payload: dict, *keys: str) -> object:
    """The value under the first of `keys` the payload has, or None."""
    return next((payload[key] for key in keys if key in payload), None)


def _read_stdin() -> bytes:
    stream = sys.stdin.buffer if sys.stdin is not None else None
    if stream is None:
        return b""
    chunks = []
    while True:
        chunk = stream.read(1 << 16)
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)


def failure_line(host: Host, reason: str) -> bytes:
    """The one line that replaces the IR when the payload cannot become one; also on stderr."""
    line = f"{host.adapter} failed before spawn: {reason}\n"
    write_stderr(line)
    return line.encode("utf-8")


def judge_input(host: Host, raw: bytes, root: str) -> bytes:
    """What the judge reads for this payload: the IR's JSON, or the pre-spawn failure line."""
    try:
        return msgspec.json.encode(host.translate(raw, root))
    except PreSpawnFailure as exc:
        return failure_line(host, str(exc))
    except Exception as exc:  # noqa: BLE001 - a translation bug is a failure before the judgment
        return failure_line(host, f"internal error: {type(exc).__name__}: {exc}")


def run_hook(host: Host) -> int:
    """`pdks-<host> hook`: judge the payload on stdin with the working directory as the project
    root (the delegator enters the root first). Returns 0 (allow) or `host.deny_status` (block)
    after telling the host on stdout when it reads its decisions there; nothing else."""
    import gc

    gc.disable()  # one short-lived judgment: cyclic GC would only re-walk the plan's objects
    stderr = _Tee(sys.stderr) if host.deny_document("") is not None else None
    if stderr is not None:
        sys.stderr = stderr  # the reason a stdout decision carries is what the judge said
    try:
        code, raw = _judgment(host)
    finally:
        if stderr is not None:
            sys.stderr = stderr.stream
    # A hook's stdout is a decision channel for several hosts (Codex reads any output there as
    # a decision document and proceeds when it is not one); the judge never speaks there. The
    # host's own decision document is written to the stdout saved before it was silenced.
    if code == 0:
        _tell(host.allow_text(raw))
        return 0
    document = host.deny_document(stderr.text().rstrip("\n") if stderr is not None else "")
    if document is not None:
        _tell(msgspec.json.encode(document).decode("utf-8") + "\n")
    return host.deny_status


def _judgment(host: Host) -> tuple[int, bytes]:
    """0 or 2 from the judge, whatever happens on the way, and the payload read."""
    raw = b""
    try:
        raw = _read_stdin()
    except OSError as exc:
        stdin = failure_line(host, f"the payload could not be read ({exc.strerror or exc})")
    else:
        stdin = judge_input(host, raw, os.getcwd())
    _silence_stdout()
    try:
        from polydeukes.cli.check import run_check

        code = run_check(JUDGE_FLAGS, stdin=stdin)
    except BaseException as exc:  # noqa: BLE001 - never let the host read a crash as "allowed"
        write_stderr(f"covenant hook failed closed: the judge failed before a verdict "
                     f"({type(exc).__name__}: {exc})\n")
        return 2, raw
    if code not in (0, 2):
        write_stderr(f"covenant hook failed closed: the judge exited with status {code} "
                     "before a verdict\n")
        return 2, raw
    return code, raw


class _Tee:
    """sys.stderr for one judgment: written through, and kept for the host's decision."""

    def __init__(self, stream) -> None:
        self.stream = stream
        self._parts: list[str] = []

    def write(self, text: str) -> int:
        self._parts.append(text)
        return self.stream.write(text)

    def flush(self) -> None:
        self.stream.flush()

    def text(self) -> str:
        return "".join(self._parts)


_saved_stdout: int | None = None


def _silence_stdout() -> None:
    global _saved_stdout
    try:
        sys.stdout.flush()
        if _saved_stdout is None:
            _saved_stdout = os.dup(1)
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 1)
        os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass


def _tell(text: str) -> None:
    """Write the host's decision to the hook's real stdout."""
    if not text:
        return
    data = text.encode("utf-8")
    fd = _saved_stdout if _saved_stdout is not None else 1
    try:
        while data:
            data = data[os.write(fd, data):]
    except OSError:
        pass  # the host stopped reading: it can no longer be told anything


def hook_process(host: Host) -> None:
    """Judge this process's payload and end the process with the answer (the console script
    `pdks-<host> hook` and the delegator's bootstrap): judged in this process under the
    deadline (cli/deadline.py), no interpreter finalization after (cli.end_process)."""
    from polydeukes.cli import deadline

    deadline.judge_in_this_process()
    end_process(run_hook(host))


def main(host: Host, argv: list[str] | None = None) -> int:
    """The console script `pdks-<host>`: `init` installs, `hook` judges one payload."""
    args = sys.argv[1:] if argv is None else list(argv)
    if args == ["hook"]:
        if argv is None:  # the console script
            hook_process(host)
        code = run_hook(host)
    elif args == ["init"]:
        from polydeukes.stdlib.adapters.install import install

        code = install(host)
    elif host.plugin and len(args) == 3 and args[:2] == ["init", "--plugin"]:
        from polydeukes.stdlib.adapters.install import package_plugin

        code = package_plugin(host, args[2])
    elif args in (["--help"], ["-h"]):
        sys.stdout.write(_help(host))
        code = 0
    elif args == ["--version"]:
        from polydeukes.vm import ENGINE_VERSION

        sys.stdout.write(f"{host.command} {ENGINE_VERSION}\n")
        code = 0
    else:
        write_stderr(usage(host) + "\n")  # stdin is left unread
        code = 2
    if argv is None:
        sys.exit(code)
    return code


def usage(host: Host) -> str:
    init = "init [--plugin DIR]" if host.plugin else "init"
    return f"usage: {host.command} {init} | {host.command} hook"


def _help(host: Host) -> str:
    plugin = ("  init --plugin DIR\n"
              f"         write the same registration as a {host.title} plugin into DIR, to\n"
              "         distribute through a plugin marketplace.\n") if host.plugin else ""
    if host.deny_document("") is None:
        answer = (f"exit 0 allows the call, exit {host.deny_status} blocks it (the reason is on\n"
                  "         stderr)")
    else:
        answer = (f"a block is a JSON decision on stdout and exit {host.deny_status} (the\n"
                  "         reason is on stderr too)")
    return (
        f"{usage(host)}\n\n"
        f"Guards {host.title} with polydeukes: every tool call the host hands this hook is judged\n"
        f"against polydeukes.config.yaml before it runs.\n\n"
        f"  init   install into the project in the current directory: the pdks init scaffold,\n"
        f"         {host.folder}/hooks/covenant-pretooluse.sh and the hook registration in\n"
        f"         {host.registration}, with protectedPaths covering them.\n"
        f"         Idempotent; never overwrites what you wrote.\n"
        f"{plugin}"
        f"  hook   judge one {host.title} hook payload from stdin, with the current directory as\n"
        f"         the project root: {answer}. The registered command runs this for you.\n\n"
        f"Documentation: pdks docs {host.name}\n"
    )
