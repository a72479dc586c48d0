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

What happens before Python runs (finding an interpreter that can import polydeukes, a missing
delegator) is the registered command's and the delegator's business (adapters/install.py).

Hot path: imports nothing beyond the standard library, msgspec and what a check needs.
"""

from __future__ import annotations

import os
import sys

import msgspec

from polydeukes.cli import write_stderr

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

    def entry_points(self):
        """(hook, main) for the host's module: `hook()` is what the delegator's bootstrap calls,
        `main(argv=None)` is the console script `pdks-<name>`."""

        def hook() -> int:
            return run_hook(self)

        def console_script(argv: list[str] | None = None) -> int:
            return main(self, argv)

        return hook, console_script


def decode_payload(raw: bytes) -> object:
    """The payload as plain JSON values; a duplicate key keeps its last value (as JSON.parse)."""
    try:
        return msgspec.json.decode(raw)
    except msgspec.DecodeError as exc:
        raise PreSpawnFailure(f"the payload is not JSON ({exc})") from None


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
    root (the delegator enters the root first). Returns 0 (allow) or 2 (block), nothing else."""
    import gc

    gc.disable()  # one short-lived judgment: cyclic GC would only re-walk the plan's objects
    try:
        raw = _read_stdin()
    except OSError as exc:
        stdin = failure_line(host, f"the payload could not be read ({exc.strerror or exc})")
    else:
        stdin = judge_input(host, raw, os.getcwd())
    # A hook's stdout is a decision channel for several hosts (Codex reads any output there as
    # a decision document and proceeds when it is not one); the judge never speaks there.
    _silence_stdout()
    try:
        from polydeukes.cli.check import run_check

        code = run_check(JUDGE_FLAGS, stdin=stdin)
    except BaseException as exc:  # noqa: BLE001 - never let the host read a crash as "allowed"
        write_stderr(f"covenant hook failed closed: the judge failed before a verdict "
                     f"({type(exc).__name__}: {exc})\n")
        return 2
    if code not in (0, 2):
        write_stderr(f"covenant hook failed closed: the judge exited with status {code} "
                     "before a verdict\n")
        return 2
    return code


def _silence_stdout() -> None:
    try:
        sys.stdout.flush()
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 1)
        os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass


def main(host: Host, argv: list[str] | None = None) -> int:
    """The console script `pdks-<host>`: `init` installs, `hook` judges one payload."""
    args = sys.argv[1:] if argv is None else list(argv)
    if args == ["hook"]:
        code = run_hook(host)
    elif args == ["init"]:
        from polydeukes.stdlib.adapters.install import install

        code = install(host)
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
    return f"usage: {host.command} init | {host.command} hook"


def _help(host: Host) -> str:
    return (
        f"{usage(host)}\n\n"
        f"Guards {host.title} with polydeukes: every tool call the host hands this hook is judged\n"
        f"against polydeukes.config.yaml before it runs.\n\n"
        f"  init   install into the project in the current directory: the pdks init scaffold,\n"
        f"         {host.folder}/hooks/covenant-pretooluse.sh and the hook registration in\n"
        f"         {host.registration}. Idempotent; never overwrites what you wrote.\n"
        f"  hook   judge one {host.title} hook payload from stdin, with the current directory as\n"
        f"         the project root: exit 0 allows the call, exit 2 blocks it (the reason is on\n"
        f"         stderr). The registered command runs this for you.\n\n"
        f"Documentation: pdks docs {host.name}\n"
    )
