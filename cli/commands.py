"""Every command except `covenant check`, as a click group (cold path).

Usage errors of any kind end in the one usage line and exit 2 (spec 05 §1), not click's own
message, so hosts and SDKs see the same answer whatever was mistyped.
"""

from __future__ import annotations

import os
import subprocess
import sys

import click

from polydeukes.cli import USAGE, usage_error, write_stderr
from polydeukes.vm import ENGINE_VERSION


class _Group(click.Group):
    def get_usage(self, ctx: click.Context) -> str:
        return USAGE


@click.group(cls=_Group, context_settings={"help_option_names": ["--help", "-h"]})
@click.version_option(ENGINE_VERSION, "--version", prog_name="pdks", message="%(prog)s %(version)s")
def cli() -> None:
    """pdks — deterministic edit- and command-time covenants for AI coding agents.

    `pdks covenant check` judges one proposed agent action (JSON on stdin, or a unified diff
    with --diff) against polydeukes.config.yaml: exit 0 lets it happen, exit 2 blocks it.
    """


@cli.group()
def covenant() -> None:
    """Judge observations (see `pdks covenant check --help`)."""


@covenant.command("check", context_settings={"ignore_unknown_options": True})
def covenant_check() -> None:
    """Judge one observation from stdin.

    \b
    pdks covenant check [--diff] [--enforce advise|block] [--unattended]
                        [--config-layer <path>] [--telemetry-path <path>]
    Exit 0: nothing blocked. Exit 2: a block, or a fail-closed run. Says why on stderr.
    """
    # Reached only for `--help` handling: main() routes real checks to the hot path.


@cli.command("compile")
def compile_cmd() -> None:
    """Compile the config into .polydeukes/plan.bin (done automatically when stale)."""
    from polydeukes.cli.planning import PlanUnavailable, compile_to_disk
    from polydeukes.vm.explain import located_faults, surface_rows

    try:
        plan, path = compile_to_disk(os.getcwd())
    except PlanUnavailable as exc:
        write_stderr(f"pdks compile: {exc}\n")
        raise SystemExit(2) from None
    faults = located_faults(plan)
    for line in faults:
        write_stderr(f"pdks compile: {line}\n")
    session = len(surface_rows(plan, plan.session, session=True))
    change_set = len(surface_rows(plan, plan.change_set, session=False))
    click.echo(
        f"compiled {plan.config_name} \u2192 {path} · session {session} registrations · "
        f"change set {change_set} registrations · config faults {len(faults)}"
    )


@cli.command("explain")
@click.option("--code", is_flag=True, help="List each registration's instructions.")
@click.option("--json", "as_json", is_flag=True, help="The whole plan as JSON.")
@click.option("--source", is_flag=True, help="Every declaration in the textual form.")
def explain_cmd(code: bool, as_json: bool, source: bool) -> None:
    """Print the registration table of both surfaces, without judging."""
    if code + as_json + source > 1:
        raise click.UsageError("--code, --json and --source exclude each other")
    form = "code" if code else "json" if as_json else "source" if source else None
    from polydeukes.cli.planning import PlanUnavailable, obtain_plan
    from polydeukes.vm import explain

    try:
        plan = obtain_plan(os.getcwd())
    except PlanUnavailable as exc:
        write_stderr(f"pdks explain: {exc}\n")
        raise SystemExit(2) from None
    if form is None:
        for line in explain.located_faults(plan):
            write_stderr(line + "\n")
    render = {None: explain.render, "code": explain.render_code, "json": explain.render_json,
              "source": explain.render_source}[form]
    text = render(plan)  # rendered whole before writing: never a partial answer
    sys.stdout.write(text)
    sys.stdout.flush()


def _log_selection(command):
    """The flags `pdks stats` and `pdks log export` share: which logs, which rows."""
    options = [
        click.option("--log", "logs", multiple=True, metavar="FILE|GLOB",
                     help="A log to read (repeatable; a quoted glob is expanded). "
                          "Default: the configured log."),
        click.option("--since", metavar="WHEN", help="Rows at or after WHEN: 7d, 12h, 30m, 2w "
                     "before now, or a UTC date/time such as 2026-11-01."),
        click.option("--until", metavar="WHEN", help="Rows before WHEN (same forms)."),
        click.option("--label", "labels", multiple=True, metavar="LABEL",
                     help="Only this label (repeatable)."),
        click.option("--event", "events", multiple=True, metavar="EVENT",
                     help="Only this event (repeatable): passed, advised, blocked, witnessed, "
                          "skipped, unattributed."),
    ]
    for option in reversed(options):
        command = option(command)
    return command


@cli.command("stats")
@_log_selection
@click.option("--json", "as_json", is_flag=True, help="Print the aggregates as JSON.")
@click.option("--html", "html_path", metavar="FILE",
              help="Write a self-contained HTML report with charts to FILE.")
def stats_cmd(logs, since, until, labels, events, as_json: bool, html_path: str | None) -> None:
    """Summarize the telemetry log: what each rule passed, advised and blocked, over time."""
    from polydeukes.cli.roi.command import Choice, run_stats

    raise SystemExit(run_stats(Choice(logs, since, until, labels, events), as_json=as_json,
                               html_path=html_path))


@cli.group("log")
def log_group() -> None:
    """The telemetry log, row by row."""


@log_group.command("export")
@click.option("--format", "fmt", type=click.Choice(["jsonl", "csv"]), default="jsonl",
              show_default=True, help="One JSON object a line, or CSV with a header row.")
@_log_selection
def log_export_cmd(fmt: str, logs, since, until, labels, events) -> None:
    """Every row with named fields on stdout, for a log pipeline. Never modifies the log."""
    from polydeukes.cli.roi.command import Choice, run_export

    raise SystemExit(run_export(Choice(logs, since, until, labels, events), fmt))


@cli.command("schema")
@click.argument("name", required=False, default="config",
                type=click.Choice(["config", "tests", "input"]))
@click.option("--path", "as_path", is_flag=True, help="Print the shipped file's path instead.")
def schema_cmd(name: str, as_path: bool) -> None:
    """Print a JSON Schema: the config (default), covenant test files, or the CovenantInput."""
    from polydeukes.stdlib import schema_path

    path = schema_path(name)
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError as exc:
        write_stderr(f"pdks schema: cannot read {path}: {exc.strerror or exc}\n")
        raise SystemExit(2) from None
    sys.stdout.buffer.write(path.encode() + b"\n" if as_path else data)
    sys.stdout.flush()


@cli.command("test")
@click.argument("paths", nargs=-1)
@click.option("--config", "config", metavar="FILE", help="Judge with this config file.")
@click.option("-k", "pattern", metavar="PATTERN", help="Only cases whose name contains it.")
@click.option("--junit-xml", "junit", metavar="FILE", help="Also write a JUnit XML report.")
@click.option("--update", is_flag=True,
              help="Rewrite failing cases' expectations from their results (asks first).")
def test_cmd(paths: tuple[str, ...], config: str | None, pattern: str | None,
             junit: str | None, update: bool) -> None:
    """Run covenant test cases (polydeukes.tests.yaml, tests/covenants/*.yaml) in-process.

    Exit 0: every case passed. 1: a case failed. 2: a test file or the config is broken.
    """
    from polydeukes.testing import main

    raise SystemExit(main(os.getcwd(), list(paths), config=config, pattern=pattern,
                          junit=junit, update=update, out=click.echo,
                          err=lambda line: write_stderr(line + "\n"), ask=_ask))


@cli.command("replay")
@click.argument("recordings", nargs=-1, required=True)
@click.option("--config", "config", metavar="FILE", help="Judge with this config file.")
@click.option("--discipline", "only", metavar="ID", help="Only this discipline (or meta label).")
@click.option("--json", "as_json", is_flag=True, help="The summary as JSON.")
def replay_cmd(recordings: tuple[str, ...], config: str | None, only: str | None,
               as_json: bool) -> None:
    """Judge recorded sessions (Claude Code transcripts, IR JSON lines) without writing anything."""
    from polydeukes.replay import main

    raise SystemExit(main(os.getcwd(), list(recordings), config=config, only=only,
                          as_json=as_json, out=click.echo,
                          err=lambda line: write_stderr(line + "\n")))


def _ask(question: str) -> bool | None:
    """A yes/no answer from the terminal; None when nobody can answer (stdin is no terminal)."""
    if not sys.stdin.isatty():
        return None
    write_stderr(question)
    return sys.stdin.readline().strip().lower() in ("y", "yes")


@cli.command("demo")
def demo_cmd() -> None:
    """Run a built-in demo: a throw-away project, one upheld and one blocked call."""
    from polydeukes.cli.demo import run_demo

    raise SystemExit(run_demo(click.echo))


@cli.command("init")
@click.option("--git", "with_git", is_flag=True,
              help="Also install a git pre-commit hook that judges the staged change set.")
@click.option("--host", "hosts", multiple=True, metavar="NAME",
              help="Also install the hook of this agent host (repeatable; all-detected: every "
                   "host whose folder is in the project).")
@click.option("--list-hosts", is_flag=True, help="List the agent hosts and which are installed.")
def init_cmd(with_git: bool, hosts: tuple[str, ...], list_hosts: bool) -> None:
    """Create the agent-neutral scaffold: the config file and the .gitignore rule."""
    from polydeukes.cli.scaffold import InitError, run_init

    root = os.getcwd()
    if list_hosts:
        if with_git or hosts:
            raise click.UsageError("--list-hosts takes no other option")
        from polydeukes.stdlib.adapters.install import list_hosts as listing

        click.echo(listing(root), nl=False)
        return
    if hosts:
        from polydeukes.stdlib.adapters.install import unknown_host

        refusal = unknown_host(hosts)  # checked before anything is written
        if refusal:
            write_stderr(f"pdks init failed: {refusal}\n")
            raise SystemExit(2)
    try:
        from polydeukes.cli.scaffold import pinned_yarn_entries

        # A yarn release the project pins runs on every yarn command: protected, it is the
        # user's, and the shell axis does not read it as code an agent may have written.
        pinned = pinned_yarn_entries(root)
        if pinned:
            from polydeukes.stdlib.adapters import protect
            from polydeukes.stdlib.adapters.install import InstallError

            try:
                protect.preflight(root, pinned, "pdks")
            except InstallError as exc:
                raise InitError(str(exc)) from None
        gate: list[str] = []
        if with_git:
            from polydeukes.stdlib.adapters import protect
            from polydeukes.stdlib.adapters.git import GitError, hook_gate
            from polydeukes.stdlib.adapters.install import InstallError

            try:
                gate = hook_gate(root)  # preflight: nothing is written outside a git repository
                protect.preflight(root, gate, "pdks")
            except (GitError, InstallError) as exc:
                raise InitError(str(exc)) from None
        lines = run_init(root)
        if pinned:
            try:
                lines += protect.apply(root, pinned, "pdks")
            except InstallError as exc:
                raise InitError(str(exc)) from None
        if with_git:
            # Protection first: a hook that is not yet protected is a gate left open.
            try:
                lines += protect.apply(root, gate, "pdks")
            except InstallError as exc:
                raise InitError(str(exc)) from None
            lines += _install_git_hook(root)
    except InitError as exc:
        write_stderr(f"pdks init failed: {exc}\n")
        raise SystemExit(2) from None
    click.echo("\n".join(lines))
    if hosts:
        from polydeukes.stdlib.adapters.install import install_hosts

        raise SystemExit(install_hosts(root, list(hosts)))


def _install_git_hook(root: str) -> list[str]:
    from polydeukes.cli.scaffold import InitError
    from polydeukes.stdlib.adapters.git import GitError, install_hook

    try:
        status, path = install_hook(root)
    except (GitError, OSError) as exc:
        raise InitError(f"cannot install the pre-commit hook: {exc}") from None
    if status == "created":
        return [f"created {path}"]
    if status == "present":
        return [f"skipped {path} (already present)"]
    return [f"skipped {path} (another hook is installed there; add `pdks hook git` to it)"]


@cli.group()
def hook() -> None:
    """Entry points that hosts call (`pdks hook git` runs as a git pre-commit hook)."""


@hook.command("git")
@click.option("--enforce", type=click.Choice(["advise", "block"]), default="block",
              show_default=True, help="The posture of the run.")
def hook_git(enforce: str) -> None:
    """Judge the staged change set (`git diff --cached`) as `covenant check --diff` does."""
    from polydeukes.cli.check import run_check
    from polydeukes.stdlib.adapters.git import GitError, staged_diff

    root = os.getcwd()
    try:
        diff = staged_diff(root)
    except GitError as exc:
        write_stderr(f"covenant check failed closed: {exc}\n")
        raise SystemExit(2) from None
    raise SystemExit(run_check(["--diff", "--enforce", enforce], stdin=diff))


@cli.command("docs", context_settings={"ignore_unknown_options": True})
@click.argument("args", nargs=-1, type=click.UNPROCESSED)
def docs_cmd(args: tuple[str, ...]) -> None:
    """Read the bundled documentation offline (`pdks docs` lists the topics)."""
    from polydeukes.cli.docs import run_docs

    raise SystemExit(run_docs(list(args)))


@cli.command(
    "memory", context_settings={"ignore_unknown_options": True, "allow_interspersed_args": False}
)
@click.argument("args", nargs=-1, type=click.UNPROCESSED)
def memory_cmd(args: tuple[str, ...]) -> None:
    """Delegate to the pdks-memory extension executable (same arguments, stdin, cwd)."""
    raise SystemExit(run_memory(list(args)))


def find_memory_executable() -> str | None:
    """The first executable regular `pdks-memory` in an absolute PATH directory."""
    for directory in os.environ.get("PATH", "").split(os.pathsep):
        if not directory or not os.path.isabs(directory):
            continue
        candidate = os.path.join(directory, "pdks-memory")
        if os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return candidate
    return None


def run_memory(args: list[str]) -> int:
    executable = find_memory_executable()
    if executable is None:
        write_stderr(
            "pdks memory: pdks-memory is not installed — put the pdks-memory executable on PATH\n"
        )
        return 2
    try:
        completed = subprocess.run([executable, *args], check=False)
    except OSError as exc:
        write_stderr(f"pdks memory: {executable} could not be started: {exc.strerror or exc}\n")
        return 2
    # A signal death (negative return code) maps to 2; any other status passes through.
    return completed.returncode if completed.returncode >= 0 else 2


def run_click(args: list[str]) -> int:
    try:
        cli.main(args=args, prog_name="pdks", standalone_mode=False)
    except click.UsageError:
        return usage_error()
    except click.exceptions.Exit as exc:
        return exc.exit_code
    except click.exceptions.Abort:
        return 2
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else 2
    except BrokenPipeError:
        # The reader closed stdout mid-answer: never report a partial answer as success.
        _silence_stdout()
        return 2
    return 0


def _silence_stdout() -> None:
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except OSError:
        pass

