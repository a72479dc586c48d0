"""Running covenant test cases: `pdks test`, the pytest plugin and the `pdks` fixture share this.

Each case is judged in-process by the command's own core (polydeukes.judge.judge_in_process)
in a scratch working tree of its own — only the case's files, never the project's, and no
telemetry or baseline written anywhere — against a plan compiled once per config. What a case
expects is compared with the rows the check wrote; a failure reads as a diff of expected and
actual rows.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
import time
from typing import Any, Callable

from polydeukes.casefile import (
    Case,
    CaseFileError,
    LoadedCase,
    LoadedFile,
    RowExpectation,
    find_files,
    load_file,
)
from polydeukes.judge import Row, Verdict, judge_in_process
from polydeukes.shorthand import expand
from polydeukes.vm.machine import Memo


class ConfigUnusable(Exception):
    """The config the cases judge against does not load; ``str(e)`` names where."""


class Suite:
    """The plans cases are judged with: one per config, compiled once."""

    def __init__(self, root: str, default_config: str | None = None) -> None:
        self.root = os.path.abspath(root)
        self.default_config = default_config
        self._plans: dict[Any, Any] = {}
        self._memos: dict[int, Memo] = {}  # by id() of a plan, which _plans keeps alive
        self.faults: list[str] = []  # located config-fault lines, once per config
        self._scratch = os.path.realpath(tempfile.mkdtemp(prefix="pdks-test-"))
        self._sessions = os.path.join(self._scratch, "sessions")  # beside the trees, not in them
        self._count = 0

    def close(self) -> None:
        shutil.rmtree(self._scratch, ignore_errors=True)

    def plan(self, config: str | None):
        """`config` is a path relative to the root; None is the project's own config."""
        config = config if config is not None else self.default_config
        if config not in self._plans:
            self._plans[config] = self._load(config)
        return self._plans[config]

    def _load(self, config: str | None):
        from polydeukes.cli.planning import PlanUnavailable, obtain_plan, plan_from_file
        from polydeukes.vm.explain import located_faults

        try:
            if config is None:
                plan = obtain_plan(self.root, refresh=False)  # reads plan.bin, never writes it
            else:
                plan = plan_from_file(self.root, config)
        except PlanUnavailable as exc:
            raise ConfigUnusable(str(exc)) from None
        self.faults.extend(located_faults(plan))
        return plan

    def inline(self, text: str) -> tuple[str, str]:
        """The key of a config given as text (the `pdks` fixture), compiled on first use."""
        key = ("inline", text)
        if key not in self._plans:
            from polydeukes.compiler import compile_config
            from polydeukes.compiler.diagnostics import ConfigError
            from polydeukes.vm.explain import located_faults

            try:
                plan = compile_config(self.root, "polydeukes.config.yaml",
                                      text.encode("utf-8")).plan
            except ConfigError as exc:
                raise ConfigUnusable(exc.located()) from None
            self.faults.extend(located_faults(plan))
            self._plans[key] = plan
        return key

    def scratch(self) -> str:
        self._count += 1
        root = os.path.join(self._scratch, f"case-{self._count}")
        os.mkdir(root)
        return root

    def judge(self, case: Case, config: Any = None) -> tuple[Verdict, str]:
        """Judge one case; returns its verdict and the scratch root it ran in."""
        plan = self.plan(config)
        memo = self._memos.setdefault(id(plan), Memo())  # the plan's regexes, bound programs
        root = self.scratch()
        now = time.time_ns() // 1_000_000
        expanded = expand(case, root, now, sessions=self._sessions,
                          session_id=os.path.basename(root))
        verdict = judge_in_process(
            root, expanded.raw, plan_source=lambda _root, _layer: plan, enforce=case.enforce,
            diff=expanded.diff, unattended=case.unattended, clock=lambda: now,
            memo=lambda _plan: memo)
        return verdict, root


# -- comparing -------------------------------------------------------------------------------


def display_subject(subject: str, root: str) -> str:
    """A row's subject as the case names paths: repo-relative inside the scratch tree."""
    prefix = root.rstrip("/") + "/"
    return subject[len(prefix):] if subject.startswith(prefix) else subject


def relate_ids(row: Row) -> list[str]:
    if row.event == "skipped" or not row.detail:
        return []
    try:
        return [failure.get("id") for failure in json.loads(row.detail)]
    except (ValueError, AttributeError):
        return []


def row_matches(row: Row, expected: str | RowExpectation, root: str) -> bool:
    if isinstance(expected, str):
        return row.event == expected
    return (row.event == expected.event
            and (expected.relate is None or expected.relate in relate_ids(row))
            and (expected.message is None or expected.message in (row.message or ""))
            and (expected.subject is None
                 or expected.subject == display_subject(row.subject, root))
            and (expected.reason is None
                 or (row.event == "skipped" and row.detail == expected.reason)))


def label_holds(rows: list[Row], expected: Any, root: str) -> bool:
    if isinstance(expected, list):
        return len(rows) == len(expected) and all(
            row_matches(row, item, root) for row, item in zip(rows, expected))
    event = expected if isinstance(expected, str) else expected.event
    if event == "not-routed":
        return not rows
    return len(rows) == 1 and row_matches(rows[0], expected, root)


def differences(case: Case, verdict: Verdict, root: str) -> list[str]:
    """The expectations the verdict breaks, as `-` (expected) / `+` (actual) lines; [] = pass."""
    lines: list[str] = []
    if not case.expect and case.exit is None:
        # A case that expects nothing would pass whatever happened: it fails, showing what
        # did happen (`--update` records it).
        lines.append("- (nothing expected)")
        lines.extend(f"+ {row.label}: {render_row(row, root)}" for row in verdict.rows)
        lines.append(f"+ exit: {verdict.exit_code}")
        return lines
    for label, expected in case.expect.items():
        rows = verdict.of(label)
        if label_holds(rows, expected, root):
            continue
        lines.append(f"- {label}: {render_expected(expected)}")
        if not rows:
            lines.append(f"+ {label}: not-routed")
        for row in rows:
            lines.append(f"+ {label}: {render_row(row, root)}")
            if row.message:
                lines.append(f"+     {row.message}")
    if case.exit is not None and case.exit != verdict.exit_code:
        lines.append(f"- exit: {case.exit}")
        lines.append(f"+ exit: {verdict.exit_code}")
        if verdict.exit_code == 2 and not any(row.event == "blocked" for row in verdict.rows):
            lines.extend(f"+     {line}" for line in verdict.stderr.splitlines()[:3])
    return lines


def render_expected(expected: Any) -> str:
    if isinstance(expected, list):
        return "[" + ", ".join(render_expected(item) for item in expected) + "]"
    if isinstance(expected, str):
        return expected
    parts = [expected.event]
    for field in ("subject", "relate", "reason"):
        value = getattr(expected, field)
        if value is not None:
            parts.append(f"{field} {value}")
    if expected.message is not None:
        parts.append(f"message {json.dumps(expected.message, ensure_ascii=False)}")
    return " · ".join(parts)


def render_row(row: Row, root: str) -> str:
    parts = [row.event, display_subject(row.subject, root)]
    ids = relate_ids(row)
    if ids:
        parts.append("relate " + ", ".join(ids))
    if row.event == "skipped" and row.detail:
        parts.append(f"reason {row.detail}")
    return " · ".join(parts)


# -- a run -----------------------------------------------------------------------------------


class CaseResult:
    def __init__(self, loaded: LoadedCase, verdict: Verdict | None, diff: list[str],
                 seconds: float, root: str) -> None:
        self.loaded = loaded
        self.verdict = verdict
        self.diff = diff
        self.seconds = seconds
        self.root = root

    @property
    def passed(self) -> bool:
        return not self.diff

    def report(self) -> str:
        head = f"{self.loaded.where}: FAIL {self.loaded.case.name}"
        return "\n".join([head, *("  " + line for line in self.diff)])


def select(files: list[LoadedFile], pattern: str | None) -> list[LoadedCase]:
    cases = [case for loaded in files for case in loaded.cases]
    if pattern is None:
        return cases
    wanted = pattern.lower()
    return [case for case in cases if wanted in case.case.name.lower()]


def run_cases(suite: Suite, files: list[LoadedFile], cases: list[LoadedCase]) -> list[CaseResult]:
    config_of = {loaded.path: loaded.config for loaded in files}
    results = []
    for loaded_case in cases:
        started = time.perf_counter()
        verdict, root = suite.judge(loaded_case.case, config_of[loaded_case.file])
        results.append(CaseResult(loaded_case, verdict, differences(loaded_case.case, verdict, root),
                                  time.perf_counter() - started, root))
    return results


def main(root: str, paths: list[str], *, config: str | None, pattern: str | None,
         junit: str | None, update: bool, out: Callable[[str], None],
         err: Callable[[str], None], ask: Callable[[str], bool | None]) -> int:
    """`pdks test`: 0 every case passed, 1 a case failed, 2 nothing could be run."""
    started = time.perf_counter()
    suite = Suite(root, config)
    try:
        try:
            files = [load_file(root, path) for path in find_files(root, paths)]
        except CaseFileError as exc:
            err(f"pdks test: {exc}")
            return 2
        if not files:
            err("pdks test: no covenant test files — write polydeukes.tests.yaml or "
                "tests/covenants/*.yaml, or name files and folders")
            return 2
        cases = select(files, pattern)
        if not cases:
            err(f"pdks test: no case matches -k {pattern}")
            return 2
        try:
            for loaded in files:
                if any(case.file == loaded.path for case in cases):
                    suite.plan(loaded.config)
        except ConfigUnusable as exc:
            err(f"pdks test: {exc}")
            return 2
        for line in suite.faults:
            err(f"pdks test: {line}")
        results = run_cases(suite, files, cases)
    finally:
        suite.close()
    failed = [result for result in results if not result.passed]
    for result in failed:
        out(result.report())
    seconds = time.perf_counter() - started
    summary = f"{len(results) - len(failed)} passed"
    out((f"{len(failed)} failed, " if failed else "") + f"{summary} in {seconds:.2f}s")
    if junit is not None:
        write_junit(junit, results, seconds)
    if update and failed:
        return _update(root, paths, files, failed, config=config, pattern=pattern, junit=junit,
                       out=out, err=err, ask=ask)
    return 1 if failed else 0


def _update(root: str, paths: list[str], files: list[LoadedFile], failed: list[CaseResult],
            **run: Any) -> int:
    """Ask, rewrite the failing cases from their results, then run again to show they pass."""
    from polydeukes.update import rewrite_expectations

    names = ", ".join(sorted({result.loaded.file for result in failed}))
    answer = run["ask"](f"pdks test: rewrite the expectations of {len(failed)} failing case(s) "
                        f"in {names} from their actual results? [y/N] ")
    if answer is None:
        run["err"]("pdks test: --update asks before rewriting a test file, and stdin is not a "
                   "terminal — nothing rewritten")
        return 2
    if not answer:
        run["err"]("pdks test: nothing rewritten")
        return 1
    for line in rewrite_expectations(root, files, failed):
        run["out"](line)
    return main(root, paths, update=False, **run)


def write_junit(path: str, results: list[CaseResult], seconds: float) -> None:
    """JUnit XML as CI systems read it: one testcase per case, a failure with the diff."""
    from xml.etree import ElementTree as ET

    failures = sum(not result.passed for result in results)
    suites = ET.Element("testsuites")
    suite = ET.SubElement(suites, "testsuite", name="pdks test", tests=str(len(results)),
                          failures=str(failures), errors="0", skipped="0", time=f"{seconds:.3f}")
    for result in results:
        loaded = result.loaded
        case = ET.SubElement(suite, "testcase", classname=loaded.file, name=loaded.case.name,
                             file=loaded.file, line=str(loaded.line), time=f"{result.seconds:.3f}")
        if not result.passed:
            failure = ET.SubElement(case, "failure", message=result.report().split("\n", 1)[0])
            failure.text = result.report()
    ET.ElementTree(suites).write(path, encoding="utf-8", xml_declaration=True)
