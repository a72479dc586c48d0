"""`pdks stats` and `pdks log export`: flags to a selection, the config to its rule list, and
every failure to one `<command>: <message>` line and exit 2, before anything is printed."""

from __future__ import annotations

import gc
import os
import sys
import time

from polydeukes.cli import write_stderr
from polydeukes.cli.roi.read import (
    WHEN_HELP, LogError, LogFile, Window, count_rows, expand_logs, parse_when, read_rows,
)
from polydeukes.cli.roi.summary import EVENT_ORDER, Report, Selection, Summary, build_report

GENERATOR = "pdks stats"  # the HTML report's generator tag: the only file --html overwrites


class CommandError(Exception):
    """One line for stderr; the command exits 2 and prints nothing else."""


class Choice:
    """What to read: `--log` values, the window, labels and events as typed."""

    def __init__(self, logs: tuple[str, ...] = (), since: str | None = None,
                 until: str | None = None, labels: tuple[str, ...] = (),
                 events: tuple[str, ...] = ()) -> None:
        self.logs, self.since, self.until = list(logs), since, until
        self.labels, self.events = list(labels), list(events)


def selection_of(choice: Choice, now_ms: int) -> tuple[Window, Selection]:
    bounds = []
    for flag, text in (("--since", choice.since), ("--until", choice.until)):
        if text is None:
            bounds.append(None)
            continue
        try:
            bounds.append(parse_when(text, now_ms))
        except ValueError:
            raise CommandError(f"{flag} takes {WHEN_HELP}, not '{text}'") from None
    since, until = bounds
    if since is not None and until is not None and since >= until:
        raise CommandError(f"--since {choice.since} is not before --until {choice.until}")
    for event in choice.events:
        if event not in EVENT_ORDER:
            raise CommandError(f"--event takes one of {', '.join(EVENT_ORDER)}, not '{event}'")
    return Window(since, until), Selection(
        frozenset(choice.labels) if choice.labels else None,
        frozenset(choice.events) if choice.events else None)


def project_rules(root: str):
    """(plan or None, (config name, discipline ids, draft ids) or None, note when None).

    A stale plan.bin is refreshed as `pdks explain` refreshes it (best effort); the log is
    never written.
    """
    from polydeukes.cli.planning import PlanUnavailable, obtain_plan

    try:
        plan = obtain_plan(root)
    except PlanUnavailable as exc:
        return None, None, str(exc)
    disciplines = list(dict.fromkeys(entry.label for entry in plan.entries))
    return plan, (plan.config_name, disciplines, [d.id for d in plan.drafts]), None


def log_paths(root: str, choice: Choice, plan) -> tuple[list[str], bool]:
    """(paths, whether they are the configured default). Explicit logs must exist; the
    configured log may be absent (nothing was recorded yet)."""
    if choice.logs:
        try:
            return expand_logs(choice.logs), False
        except LogError as exc:
            raise CommandError(str(exc)) from None
    from polydeukes.cli.check import CheckFlags, settle_telemetry_path

    path = settle_telemetry_path(CheckFlags(), root, plan.telemetry_log_path if plan else None)
    return [path], True


def _shown(path: str, root: str) -> str:
    """A path as a person reads it: relative to the project when it lies inside it."""
    absolute = os.path.abspath(path)
    if absolute.startswith(os.path.join(root, "")):
        return os.path.relpath(absolute, root)
    return path


def collect(choice: Choice, now_ms: int) -> Report:
    """Read every selected row once and build the report (raises CommandError)."""
    root = os.getcwd()
    window, selection = selection_of(choice, now_ms)
    plan, rules, note = project_rules(root)
    paths, default = log_paths(root, choice, plan)
    summary = Summary(selection)
    for path in paths:
        if default and not os.path.lexists(path):
            continue  # nothing recorded yet: an empty report, not an error
        try:
            log = LogFile(path)
            for chunk in log.chunks():
                summary.add(*count_rows(chunk, window, summary.cell_of))
        except LogError as exc:
            raise CommandError(str(exc)) from None
        summary.unreadable += log.overlong
    return build_report(summary, logs=[_shown(p, root) for p in paths], since=window.since,
                        until=window.until, rules_config=rules, config_note=note)


def wants_color(stream) -> bool:
    """Colour only on a terminal, and never when NO_COLOR is set to anything (no-color.org) or
    the terminal is dumb."""
    if os.environ.get("NO_COLOR") or os.environ.get("TERM") == "dumb":
        return False
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


class _NoCyclicGC:
    """Millions of short-lived objects and no cycles among them: the cyclic collector would
    only re-walk them (measured: a third of the run on a large log). Restored on exit, so an
    in-process caller keeps its collector."""

    def __enter__(self) -> None:
        self.was_enabled = gc.isenabled()
        gc.disable()

    def __exit__(self, *exc) -> None:
        if self.was_enabled:
            gc.enable()


def run_stats(choice: Choice, *, as_json: bool = False, html_path: str | None = None) -> int:
    with _NoCyclicGC():
        try:
            return _stats(choice, as_json, html_path)
        except BrokenPipeError:
            return _reader_gone()


def _reader_gone() -> int:
    """stdout's reader went away (`| head`): exit 2 as every answering command does, with
    stdout pointed at /dev/null so that the exit flush cannot fail again. (click itself would
    turn the broken pipe into exit 1.)"""
    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError):
        pass
    return 2


def _stats(choice: Choice, as_json: bool, html_path: str | None) -> int:
    try:
        report = collect(choice, time.time_ns() // 1_000_000)
        if html_path is not None:
            from polydeukes.cli.roi.report import render_html

            write_report(html_path, render_html(report, generator=GENERATOR))
    except CommandError as exc:
        write_stderr(f"pdks stats: {exc}\n")
        return 2
    if as_json:
        import msgspec

        text = msgspec.json.format(msgspec.json.encode(report), indent=2).decode() + "\n"
    elif html_path is not None:
        text = f"wrote {html_path}\n"
    else:
        from polydeukes.cli.roi.terminal import render

        text = render(report, color=wants_color(sys.stdout))
    sys.stdout.write(text)
    sys.stdout.flush()
    return 0


def write_report(path: str, text: str) -> None:
    """Write the HTML report atomically. An existing file is replaced only when it is itself a
    report this command wrote (its generator tag says so): nothing a user wrote is lost."""
    from polydeukes.vm.safeio import UnsafeFile, open_regular, refusal_text

    try:
        fd = open_regular(path, os.O_RDONLY, follow_symlinks=False)
    except FileNotFoundError:
        pass
    except (UnsafeFile, IsADirectoryError) as exc:
        raise CommandError(f"will not overwrite {path}: {refusal_text(exc)}") from None
    except OSError as exc:
        raise CommandError(f"cannot write {path}: {exc.strerror or exc}") from None
    else:
        try:
            head = os.read(fd, 4096)
        finally:
            os.close(fd)
        if f'<meta name="generator" content="{GENERATOR}">'.encode() not in head:
            raise CommandError(f"will not overwrite {path}: it is not a report written by "
                               "pdks stats (choose another file name)")
    directory = os.path.dirname(os.path.abspath(path))
    temporary = os.path.join(directory, f".{os.path.basename(path)}.{os.getpid()}.tmp")
    try:
        with open(temporary, "x", encoding="utf-8") as handle:
            handle.write(text)
        os.replace(temporary, path)
    except OSError as exc:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        raise CommandError(f"cannot write {path}: {exc.strerror or exc}") from None


def run_export(choice: Choice, fmt: str) -> int:
    """Every selected row to stdout as JSON lines or CSV, streamed; a count of unreadable lines
    on stderr. Errors found before the first row exit 2 with nothing printed."""
    with _NoCyclicGC():
        try:
            return _export(choice, fmt)
        except BrokenPipeError:
            return _reader_gone()


def _export(choice: Choice, fmt: str) -> int:
    from polydeukes.cli.roi.export import writer_for

    root = os.getcwd()
    try:
        window, selection = selection_of(choice, time.time_ns() // 1_000_000)
        plan = project_rules(root)[0] if not choice.logs else None
        paths, default = log_paths(root, choice, plan)
        logs = [LogFile(p, _shown(p, root)) for p in paths
                if not (default and not os.path.lexists(p))]
    except (CommandError, LogError) as exc:
        write_stderr(f"pdks log export: {exc}\n")
        return 2
    write = writer_for(fmt, sys.stdout.buffer)
    unreadable = [0]
    try:
        for log in logs:
            for line in read_rows(log, window, unreadable):
                if selection.keeps(line.row.event, line.row.label):
                    write(line)
        write(None)
    except LogError as exc:
        write_stderr(f"pdks log export: {exc}\n")
        return 2
    if unreadable[0]:
        write_stderr(f"pdks log export: {unreadable[0]:,} unreadable "
                     f"line{'s' if unreadable[0] != 1 else ''} skipped\n")
    return 0
