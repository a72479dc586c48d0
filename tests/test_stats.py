"""`pdks stats` and `pdks log export` (issue 14): the real process on a hand-shaped log
(tests/cases/stats/team.log, golden terminal table), every flag, empty / torn / multi-file
logs, time windows, the HTML report parsed and rendered, and the reader held to spec 06 §11's
own reader by a property.
"""

from __future__ import annotations

import csv
import io
import json
import os
import pty
import re
import shutil
import subprocess
import sys
import time
from html.parser import HTMLParser
from pathlib import Path

import pytest

from conftest import PDKS

CASES = Path(__file__).parent / "cases" / "stats"
GOLDEN = Path(__file__).parent / "golden" / "stats"
TEAM_LOG = CASES / "team.log"
EVENTS = ("passed", "advised", "blocked", "witnessed", "skipped", "unattributed")


def stats(project, *args: str, env: dict | None = None):
    # The log under test holds torn lines on purpose: read no rows back through the fixture.
    return project.run(*args, env=env, log=project.root / "no-rows-read-back")


@pytest.fixture
def pdks(monkeypatch, capsys):
    """`pdks` run in this process (for tables of flags; the process boundary has tests of its
    own): returns (exit code, stdout, stderr) for argv run in `project`'s directory."""
    from polydeukes.cli import main

    def run(project, *args: str, env: dict | None = None):
        monkeypatch.chdir(project.root)
        monkeypatch.delenv("POLYDEUKES_TELEMETRY_PATH", raising=False)
        for name, value in (env or {}).items():
            monkeypatch.setenv(name, value)
        capsys.readouterr()
        code = main(list(args))
        out, err = capsys.readouterr()
        return code, out, err

    return run


def report_of(pdks, project, *args: str, env: dict | None = None) -> dict:
    code, out, err = pdks(project, "stats", "--json", *args, env=env)
    assert (code, err) == (0, ""), err
    return json.loads(out)


@pytest.fixture
def team(project):
    project.config((CASES / "polydeukes.config.yaml").read_text(encoding="utf-8"))
    project.log.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(TEAM_LOG, project.log)
    return project


def check_golden(request, name: str, text: str) -> None:
    path = GOLDEN / name
    if request.config.getoption("--update-golden"):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8")


def cell_width(line: str) -> int:
    import unicodedata

    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in line)


def stamp(ms: int) -> str:
    seconds, millis = divmod(ms, 1000)
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(seconds)) + f".{millis:03d}Z"


# -- the terminal ---------------------------------------------------------------------------------


def test_terminal_table_golden(team, request):
    result = stats(team, "stats")
    assert (result.code, result.stderr) == (0, "")
    check_golden(request, "team.txt", result.stdout)
    assert "\x1b" not in result.stdout  # piped: plain text
    assert all(cell_width(line) <= 80 for line in result.stdout.splitlines())


def test_the_table_counts_what_the_spec_reader_counts(team, pdks):
    """An independent count of team.log with spec 06 §11's reader (vm.telemetry)."""
    from polydeukes.vm.telemetry import parse_record_line

    expected: dict[str, dict[str, int]] = {}
    corrupt = 0
    for line in TEAM_LOG.read_text(encoding="utf-8").split("\n"):
        if not line:
            continue
        record = parse_record_line(line)
        if record is None:
            corrupt += 1
            continue
        by_event = expected.setdefault(record["label"], dict.fromkeys(EVENTS, 0))
        by_event[record["event"]] += 1
    report = report_of(pdks, team)
    assert report["unreadable"] == corrupt == 3
    assert {s["label"]: {e: s[e] for e in EVENTS} for s in report["labels"]} == expected
    assert report["rows"] == sum(sum(v.values()) for v in expected.values())


def _run_on_a_terminal(project, *args: str, env: dict) -> str:
    """Run pdks with stdout on a pseudo-terminal and return what it printed."""
    controller, terminal = pty.openpty()
    full_env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "TERM")}
    full_env.update(env)
    child = subprocess.Popen([*PDKS, *args], cwd=project.root, stdout=terminal,
                             stderr=subprocess.DEVNULL, env=full_env)
    os.close(terminal)
    chunks = []
    while True:  # read while it writes: a full terminal buffer would stall the child
        try:
            data = os.read(controller, 65536)
        except OSError:  # EIO: the terminal's other end is closed and drained
            break
        if not data:
            break
        chunks.append(data)
    os.close(controller)
    assert child.wait(timeout=60) == 0
    return b"".join(chunks).decode("utf-8").replace("\r\n", "\n")


def test_colour_only_on_a_terminal_and_never_with_no_color(team):
    coloured = _run_on_a_terminal(team, "stats", env={"TERM": "xterm"})
    assert "\x1b[31m" in coloured and "\x1b[1m" in coloured
    plain = re.sub(r"\x1b\[[0-9;]*m", "", coloured)
    assert plain == (GOLDEN / "team.txt").read_text(encoding="utf-8")  # colour only wraps
    assert "\x1b" not in _run_on_a_terminal(team, "stats", env={"TERM": "xterm", "NO_COLOR": "1"})
    assert "\x1b" not in _run_on_a_terminal(team, "stats", env={"TERM": "dumb"})


def test_no_log_an_empty_log_and_a_log_of_torn_lines(project, pdks):
    project.config("disciplines: []\n")
    absent = stats(project, "stats")
    assert absent.code == 0 and absent.stderr == ""
    assert absent.stdout.splitlines()[:4] == [
        "pdks stats — .polydeukes/roi.log", "0 rows", "", "no telemetry collected"]
    assert not project.log.exists()
    project.write("empty.log", "")
    assert "no telemetry collected" in pdks(project, "stats", "--log", "empty.log")[1]
    project.write("torn.log", "2026-11-01T09:00:00.000Z\tpassed\tx\n\n2026-11-01T09:00:00.000Z")
    torn = pdks(project, "stats", "--log", "torn.log")[1]
    assert torn.splitlines()[1] == "0 rows · 2 unreadable lines skipped"
    assert "no telemetry collected" in torn
    assert report_of(pdks, project, "--log", "torn.log")["unreadable"] == 2


def test_several_logs_and_globs(project, pdks):
    """A team that collected logs from many machines: files, globs, a file named twice."""
    project.config("disciplines: []\n")
    a = "2026-11-01T09:00:00.000Z\tblocked\tself-mod\t.claude/settings.json\n"
    b = "2026-11-02T09:00:00.000Z\tpassed\tcovenant-check\tsrc/a.ts\n"
    project.write("logs/alice/roi.log", a * 2)
    project.write("logs/bob/roi.log", b * 3)
    project.write("logs/bob/notes.txt", "not a log\n")
    report = report_of(pdks, project, "--log", "logs/*/roi.log", "--log", "logs/alice/roi.log")
    assert report["logs"] == ["logs/alice/roi.log", "logs/bob/roi.log"]
    assert (report["rows"], report["unreadable"]) == (5, 0)
    assert [(s["label"], s["blocked"], s["passed"]) for s in report["labels"]] == [
        ("self-mod", 2, 0), ("covenant-check", 0, 3)]
    recursive = report_of(pdks, project, "--log", "logs/**/*")
    assert (recursive["rows"], recursive["unreadable"]) == (5, 1)  # notes.txt: a foreign line


def test_absolute_time_windows(team, pdks):
    report = report_of(pdks, team, "--since", "2026-11-03", "--until", "2026-11-05")
    # 32 hours of rows: at most 48 hours are shown hour by hour.
    assert (report["bucket"], report["first"], report["last"]) == (
        "hour", "2026-11-03T09:00Z", "2026-11-04T16:00Z")
    assert (report["since"], report["until"]) == ("2026-11-03T00:00:00.000Z",
                                                  "2026-11-05T00:00:00.000Z")
    assert report["rows"] == 27  # the rows of days 3 and 4 in team.log (grep -c)
    # A window inside an hour keeps exactly the rows at or after --since and before --until.
    inner = report_of(pdks, team, "--since", "2026-11-05T18:02", "--until",
                      "2026-11-05T18:05:00.000Z")
    assert inner["rows"] == 3 and inner["bucket"] == "hour"
    text = pdks(team, "stats", "--since", "2026-11-03", "--until", "2026-11-05")[1]
    assert ("selection: since 2026-11-03T00:00:00.000Z · until 2026-11-05T00:00:00.000Z"
            in text.splitlines())


def test_relative_windows_count_back_from_now(project, pdks):
    project.config("disciplines: []\n")
    now = time.time_ns() // 1_000_000
    ages = {"10d": 10 * 86_400_000, "2d": 2 * 86_400_000, "3h": 3 * 3_600_000,
            "5m": 5 * 60_000}
    project.write("roi.log", "".join(f"{stamp(now - ms)}\tpassed\tage-{name}\t-\n"
                                     for name, ms in ages.items()))

    def labels(*flags: str) -> list[str]:
        report = report_of(pdks, project, "--log", "roi.log", *flags)
        return sorted(s["label"] for s in report["labels"])

    assert labels("--since", "7d") == ["age-2d", "age-3h", "age-5m"]
    assert labels("--since", "1w") == ["age-2d", "age-3h", "age-5m"]
    assert labels("--since", "4h") == ["age-3h", "age-5m"]
    assert labels("--since", "30m") == ["age-5m"]
    assert labels("--until", "1d") == ["age-10d", "age-2d"]
    assert labels("--since", "3d", "--until", "1h") == ["age-2d", "age-3h"]


def test_label_and_event_filters(team, pdks):
    report = report_of(pdks, team, "--label", "self-mod", "--label", "changelog-has-heading",
                       "--event", "witnessed")
    assert report["rows"] == 2
    assert [(s["label"], s["witnessed"], s["total"]) for s in report["labels"]] == [
        ("self-mod", 2, 2)]
    assert report["labels_selected"] == ["changelog-has-heading", "self-mod"]
    assert report["events_selected"] == ["witnessed"]
    # Dead rules are those of the selected labels that wrote no selected row.
    assert report["rules"]["dead"] == ["changelog-has-heading"]
    blocked = report_of(pdks, team, "--event", "blocked")
    assert {s["label"] for s in blocked["labels"]} == {
        "no-todo-added", "self-mod", "no-focused-tests", "shell-mod",
        "a-discipline-with-a-very-long-identifier"}
    assert blocked["rules"]["dead"] == ["changelog-has-heading"]
    code, out, _ = pdks(team, "stats", "--label", "nobody")
    assert code == 0 and "no rows in this selection" in out


@pytest.mark.parametrize(("args", "message"), [
    (["--since", "yesterday"], "pdks stats: --since takes a duration before now (30m, 12h, 7d, "
     "2w) or a UTC date or time (2026-11-01, 2026-11-01T09:30), not 'yesterday'\n"),
    (["--until", "2026-13-01"], "pdks stats: --until takes a duration before now (30m, 12h, 7d, "
     "2w) or a UTC date or time (2026-11-01, 2026-11-01T09:30), not '2026-13-01'\n"),
    (["--since", "2026-11-05", "--until", "2026-11-05"],
     "pdks stats: --since 2026-11-05 is not before --until 2026-11-05\n"),
    (["--event", "bypassed"], "pdks stats: --event takes one of passed, advised, blocked, "
     "witnessed, skipped, unattributed, not 'bypassed'\n"),
    (["--log", "missing.log"], "pdks stats: cannot read missing.log: no such file\n"),
    (["--log", "logs/*.log"], "pdks stats: no file matches 'logs/*.log'\n"),
    (["--log", ".polydeukes"], "pdks stats: will not read .polydeukes: it is a directory\n"),
])
def test_bad_values_exit_2_with_one_line_and_no_output(team, pdks, args, message):
    assert pdks(team, "stats", *args) == (2, "", message)


def test_an_unknown_flag_is_a_usage_error(team):
    for command in (["stats", "--verbose"], ["log", "export", "--format", "xml"], ["log"]):
        result = stats(team, *command)
        assert result.code == 2 and result.stdout == ""
        assert result.stderr.startswith("usage: pdks covenant check")


def test_a_fifo_is_refused_without_hanging(project):
    project.config("disciplines: []\n")
    os.mkfifo(project.root / "pipe.log")
    for command in (["stats"], ["log", "export"]):
        result = stats(project, *command, "--log", "pipe.log")
        assert result.code == 2 and result.stdout == ""
        assert result.stderr.endswith("will not read pipe.log: it is a FIFO, not a regular file\n")


def test_the_configured_log_path_and_the_environment(project, pdks):
    project.config("telemetry: { logPath: 'var/judgments.log' }\ndisciplines: []\n")
    project.write("var/judgments.log", "2026-11-01T09:00:00.000Z\tpassed\tfrom-config\t-\n")
    project.write("env.log", "2026-11-01T09:00:00.000Z\tpassed\tfrom-env\t-\n")
    configured = report_of(pdks, project)
    assert configured["logs"] == ["var/judgments.log"]
    assert [s["label"] for s in configured["labels"]] == ["from-config"]
    from_env = report_of(pdks, project, env={"POLYDEUKES_TELEMETRY_PATH": "env.log"})
    assert [s["label"] for s in from_env["labels"]] == ["from-env"]


def test_a_broken_config_still_reports_the_log(team, pdks):
    team.config("disciplines: [\n")
    code, out, err = pdks(team, "stats")
    assert (code, err) == (0, "")
    assert "Rules: not shown — failed to parse polydeukes.config.yaml" in out
    assert "72 rows" in out
    assert all(cell_width(line) <= 80 for line in out.splitlines())
    assert report_of(pdks, team)["rules"] is None


def test_the_log_is_never_modified(team):
    """Read-only: the log keeps its bytes, its inode and its mtime; nothing else appears but
    the report asked for and the plan cache (refreshed as `pdks explain` refreshes it)."""
    def snapshot():
        return {p: (p.read_bytes(), p.stat().st_ino, p.stat().st_mtime_ns)
                for p in team.root.rglob("*") if p.is_file()}

    before = snapshot()
    for args in (["stats"], ["log", "export", "--format", "csv"],
                 ["stats", "--html", "report.html"]):
        assert stats(team, *args).code == 0
    after = snapshot()
    assert set(after) - set(before) == {team.root / "report.html",
                                        team.root / ".polydeukes" / "plan.bin"}
    assert all(after[p] == before[p] for p in before)


# -- the HTML report ------------------------------------------------------------------------------


class _Tree(HTMLParser):
    """Every start tag with its attributes, and all the text."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str]]] = []
        self.text: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))

    def handle_startendtag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))

    def handle_data(self, data):
        self.text.append(data)

    def find(self, tag: str, **attrs: str) -> list[dict[str, str]]:
        return [a for t, a in self.tags if t == tag and all(a.get(k) == v for k, v in attrs.items())]


def _html(team, *flags: str) -> tuple[_Tree, dict, str]:
    result = stats(team, "stats", "--html", "report.html", *flags)
    assert (result.code, result.stdout, result.stderr) == (0, "wrote report.html\n", "")
    text = (team.root / "report.html").read_text(encoding="utf-8")
    tree = _Tree()
    tree.feed(text)
    report = json.loads(stats(team, "stats", "--json", *flags).stdout)
    return tree, report, text


def test_html_report_carries_the_numbers_in_svg(team):
    tree, report, text = _html(team)
    # Self-contained: no script, nothing fetched.
    assert not tree.find("script") and not tree.find("link") and not tree.find("img")
    assert "http://" not in text.replace("http://www.w3.org", "") and "https://" not in text
    assert tree.find("meta", name="generator", content="pdks stats")
    # Stacked bars: one rect per (day, event) with rows; they add up to the JSON's series.
    chart = tree.find("svg", id="events-per-bucket")
    assert chart and chart[0]["data-bucket"] == "day" and chart[0]["data-per-bar"] == "1"
    bars = tree.find("rect", **{"class": "bar", "data-chart": "events-per-bucket"})
    for event in EVENTS:
        by_day = {a["data-bucket"]: int(a["data-count"]) for a in bars
                  if a["data-event"] == event}
        assert by_day == {day: n for day, n in zip(report["buckets"], report["events"][event])
                          if n}, event
    assert sum(int(a["data-count"]) for a in bars) == report["rows"] == 72
    # The second chart: only advised, blocked and witnessed rows, on their own scale.
    attention = tree.find("rect", **{"class": "bar", "data-chart": "attention-per-bucket"})
    assert {a["data-event"] for a in attention} == {"advised", "blocked", "witnessed"}
    assert sum(int(a["data-count"]) for a in attention) == sum(
        s[e] for s in report["labels"] for e in ("advised", "blocked", "witnessed"))
    # Day 5: 16 such lines in team.log (awk), one of them torn at the end of the file.
    assert tree.find("svg", id="attention-per-bucket")[0]["data-peak"] == "15"
    # Heights are proportional: the tallest day's stack fills the plot.
    tallest = max(report["series"])
    assert int(chart[0]["data-peak"]) == tallest
    # The label table: one row per label, in the terminal's order, with its counts.
    assert [a["data-label"] for a in tree.find("tr") if "data-label" in a] == [
        s["label"] for s in report["labels"]]
    sparks = {a["data-label"]: [int(v) for v in a["data-values"].split(",")]
              for a in tree.find("svg", **{"class": "spark"})}
    assert {label: sum(v) for label, v in sparks.items()} == {
        s["label"]: s["total"] for s in report["labels"]}
    blocked_bars = {a["data-name"]: int(a["data-value"])
                    for a in tree.find("svg", **{"class": "hbar"}) if "data-name" in a}
    assert blocked_bars["no-todo-added"] == 11 and blocked_bars["self-mod"] == 5
    assert tree.find("p", id="witness", **{"data-opened": "2"})
    assert [a["data-subject"] for a in tree.find("tr") if "data-subject" in a][:3] == [
        ".claude/settings.json", "src/app/page.test.ts", "docs/설계/개요.md"]
    assert [a["data-reason"] for a in tree.find("tr") if "data-reason" in a] == [
        "no-observation", "", "config-fault", "supply-pass"]
    words = " ".join(tree.text)
    for label in ("changelog-has-heading", "adr-for-schema-changes", "unattributed",
                  "3 unreadable lines skipped"):
        assert label in words


def test_json_and_html_together(team, pdks):
    code, out, err = pdks(team, "stats", "--json", "--html", "both.html")
    assert (code, err) == (0, "")
    assert json.loads(out)["rows"] == 72  # stdout stays JSON; no "wrote" line
    assert '<meta name="generator" content="pdks stats">' in (team.root / "both.html").read_text()


def test_html_report_of_an_empty_selection(team):
    tree, report, _ = _html(team, "--label", "nobody")
    assert report["rows"] == 0 and not tree.find("svg")
    assert "no rows in this selection" in " ".join(tree.text)


def test_html_never_overwrites_a_file_it_did_not_write(team):
    notes = team.write("notes.html", "<p>my retrospective notes</p>\n")
    refused = stats(team, "stats", "--html", "notes.html")
    assert (refused.code, refused.stdout) == (2, "")
    assert refused.stderr == ("pdks stats: will not overwrite notes.html: it is not a report "
                              "written by pdks stats (choose another file name)\n")
    assert notes.read_text() == "<p>my retrospective notes</p>\n"
    os.symlink("notes.html", team.root / "link.html")
    linked = stats(team, "stats", "--html", "link.html")
    assert linked.code == 2 and "will not overwrite link.html: it is a symbolic link" in linked.stderr
    assert stats(team, "stats", "--html", "report.html").code == 0
    assert stats(team, "stats", "--html", "report.html", "--event", "blocked").code == 0
    assert 'class="bar" ' in (team.root / "report.html").read_text()
    assert 'data-event="passed" data-count' not in (team.root / "report.html").read_text()
    assert [p.name for p in team.root.iterdir() if p.name.endswith(".tmp")] == []


CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.mark.skipif(CHROMIUM is None, reason="needs Debian's chromium (apt-get install chromium) "
                    "to render the HTML report to a PNG")
def test_html_report_renders_in_headless_chromium(team, tmp_path):
    _html(team)
    png = tmp_path / "report.png"  # beside report.html: tmp_path is the project
    done = subprocess.run(
        [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
         "--no-first-run", "--disable-background-networking", "--disable-component-update",
         "--disable-sync", f"--user-data-dir={tmp_path / 'profile'}", "--hide-scrollbars",
         "--window-size=1000,1400", f"--screenshot={png}",
         (team.root / "report.html").as_uri()],
        capture_output=True, timeout=120)
    assert done.returncode == 0, done.stderr.decode(errors="replace")[-2000:]
    data = png.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert (int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")) == (1000, 1400)
    assert len(data) > 40_000  # charts and tables, not a blank page


# -- export ---------------------------------------------------------------------------------------


def test_export_jsonl_every_row_with_named_fields(team):
    result = stats(team, "log", "export")
    assert result.code == 0
    assert result.stderr == "pdks log export: 3 unreadable lines skipped\n"
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(rows) == 72
    assert rows[0] == {
        "timestamp": "2026-11-01T09:00:00.000Z", "epoch_ms": 1793523600000, "event": "passed",
        "label": "covenant-check", "subject": "src/app/page0.tsx", "reason": None,
        "witnesses": None, "log": ".polydeukes/roi.log", "line": 1}
    assert list(rows[0]) == ["timestamp", "epoch_ms", "event", "label", "subject", "reason",
                             "witnesses", "log", "line"]
    blocked = next(r for r in rows if r["event"] == "blocked" and r["witnesses"])
    assert blocked["witnesses"] == [{"id": "none", "witnesses": [
        {"key": "3", "value": 'it.only("x")'}], "total": 1}]
    assert {r["reason"] for r in rows if r["event"] == "skipped"} == {
        "no-observation", "config-fault", "supply-pass", None}
    legacy = [r for r in rows if r["event"] == "witnessed"]
    assert [r["timestamp"][:10] for r in legacy] == ["2026-11-02", "2026-11-03"]  # bypassed too
    lines = TEAM_LOG.read_text(encoding="utf-8").split("\n")
    for row in rows:  # each object points at its own line
        assert lines[row["line"] - 1].startswith(row["timestamp"])
        assert row["epoch_ms"] == int(time.mktime(time.strptime(row["timestamp"][:19],
                                      "%Y-%m-%dT%H:%M:%S")) - time.timezone) * 1000


def test_export_to_a_reader_that_stops_early_exits_2_quietly(project):
    """`pdks log export | head -1`: the broken pipe ends the export with exit 2, no traceback."""
    project.config("disciplines: []\n")
    project.write("big.log", "2026-11-01T09:00:00.000Z\tpassed\tcovenant-check\tsrc/a.ts\n" * 20000)
    child = subprocess.Popen([*PDKS, "log", "export", "--log", "big.log"], cwd=project.root,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert json.loads(child.stdout.readline())["line"] == 1
    child.stdout.close()
    assert child.wait(timeout=60) == 2
    assert child.stderr.read() == b""


def test_export_csv(team):
    result = stats(team, "log", "export", "--format", "csv", "--event", "skipped")
    table = list(csv.DictReader(io.StringIO(result.stdout)))
    assert list(table[0]) == ["timestamp", "epoch_ms", "event", "label", "subject", "reason",
                              "witnesses", "log", "line"]
    assert [(r["label"], r["reason"], r["line"]) for r in table] == [
        ("shell-unjudgeable", "no-observation", line) for line in ("9", "18", "30", "42", "55")
    ] + [("broken-rule", "config-fault", "60"), ("manifest-needs-npm-view", "supply-pass", "61"),
         ("old-skip", "", "62")]
    advised = list(csv.DictReader(io.StringIO(stats(
        team, "log", "export", "--format", "csv", "--event", "advised").stdout)))
    assert json.loads(advised[0]["witnesses"])[0]["id"] == "none"


def test_export_selection_and_several_logs(team):
    team.write("other.log", "2026-11-06T00:00:00.000Z\tblocked\tself-mod\t.claude/hooks\n")
    result = stats(team, "log", "export", "--log", ".polydeukes/roi.log", "--log", "other.log",
                   "--label", "self-mod", "--since", "2026-11-04T14:00")
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert [(r["log"], r["line"], r["event"]) for r in rows] == [
        (".polydeukes/roi.log", 43, "blocked"), (".polydeukes/roi.log", 56, "blocked"),
        ("other.log", 1, "blocked")]
    # The torn line stamped 2026-11-02 lies before the window and is not read further; the
    # foreign line (no stamp) and the one torn at the end (stamped 2026-11-05) count.
    assert result.stderr == "pdks log export: 2 unreadable lines skipped\n"
    empty = stats(team, "log", "export", "--label", "nobody", "--format", "csv")
    assert empty.stdout == ("timestamp,epoch_ms,event,label,subject,reason,witnesses,log,line\n")
    bad = stats(team, "log", "export", "--since", "soon")
    assert (bad.code, bad.stdout) == (2, "")
    assert bad.stderr.startswith("pdks log export: --since takes a duration")


# -- the reader, held to spec 06 §11's reader (in process) ---------------------------------------

from collections import Counter  # noqa: E402

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from polydeukes.cli.roi import read as R  # noqa: E402
from polydeukes.cli.roi.summary import Selection, Summary  # noqa: E402
from polydeukes.vm.telemetry import parse_record_line  # noqa: E402

_stamps = st.builds(
    "{}-{:02d}-{:02d}T{:02d}:{:02d}:{:02d}.{:03d}Z".format,
    st.sampled_from([2026, 2027]), st.sampled_from([2, 11, 12, 13]), st.sampled_from([1, 28, 29, 31]),
    st.sampled_from([0, 9, 23, 24]), st.integers(0, 59), st.integers(0, 59), st.integers(0, 999))
_events = st.sampled_from(["passed", "blocked", "witnessed", "advised", "skipped",
                           "unattributed", "bypassed", "Passed", "denied", ""])
_words = st.sampled_from(["self-mod", "no-todo", "covenant-check", "-", "", "src/a.ts",
                          "docs/설계.md", "a b", "x\r"])
_fifths = st.sampled_from([
    None, "no-observation", "config-fault", "supply-pass", "supply_pass", "",
    '[{"id":"a","witnesses":[{"key":"1","value":"x"}],"total":1}]', "[]", " [1] ", "[1,",
    "{}", '"x"', "[NaN]", "[1]\r", "\xff[1]"])


@st.composite
def _lines(draw) -> str:
    kind = draw(st.sampled_from(["row", "row", "row", "row", "junk", "torn", "empty"]))
    if kind == "empty":
        return ""
    if kind == "junk":
        return draw(st.text(st.sampled_from(list("ab\t :-0123T.Z")), max_size=30))
    fields = [draw(_stamps), draw(_events), draw(_words), draw(_words)]
    fifth = draw(_fifths)
    if fifth is not None:
        fields.append(fifth)
    if draw(st.booleans()) and kind == "row":
        fields += [draw(_words)] * draw(st.integers(0, 1))
    line = "\t".join(fields)
    if kind == "torn":
        line = line[:draw(st.integers(0, len(line)))]
    return line


def _strict_json_array(text: str) -> bool:
    def reject(constant):
        raise ValueError(constant)

    try:
        return isinstance(json.loads(text, parse_constant=reject), list)
    except ValueError:
        return False


def _oracle(text: str, since: str | None, until: str | None):
    """Spec 06 §11's parse_record_line, plus what a summary needs that it does not check: a
    timestamp in toISOString shape naming a real hour, strict JSON (as JS reads it), and the
    window (a stamped line outside it is left out before it is read further)."""
    from datetime import datetime, timezone

    cells, unreadable, numbers = Counter(), 0, []
    for number, line in enumerate(text.split("\n"), 1):
        if not line:
            continue
        if re.match(r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{3}Z\t",
                    line) is None:
            unreadable += 1
            continue
        if (since and line[:24] < since) or (until and line[:24] >= until):
            continue  # a stamped line outside the window is not read further
        record = parse_record_line(line)
        ok = record is not None
        if ok:
            try:
                hour = datetime.strptime(record["timestamp"][:13], "%Y-%m-%dT%H").replace(
                    tzinfo=timezone.utc)
            except ValueError:
                ok = False
        if ok and "witnesses" in record:
            ok = _strict_json_array(record["witnesses"])
        if not ok:
            unreadable += 1
            continue
        cells[record["label"], record["event"], int(hour.timestamp()) // 3600] += 1
        numbers.append(number)
    return cells, unreadable, numbers


def _flat(summary: Summary) -> Counter:
    return Counter({(label, event, hour): n for (label, event), by_hour in summary.cells.items()
                    for hour, n in by_hour.items() if n})


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(lines=st.lists(_lines(), max_size=40), chunk=st.integers(1, 300),
       final_newline=st.booleans(), data=st.data())
def test_the_summary_and_the_export_read_what_the_spec_reader_reads(
        tmp_path_factory, monkeypatch, lines, chunk, final_newline, data):
    text = "\n".join(lines) + ("\n" if final_newline and lines else "")
    # Window bounds: none, any stamp, or a stamp of the log itself (the boundary cases).
    own = [line[:24] for line in lines if len(line) >= 24] or ["2026-11-01T00:00:00.000Z"]
    bound = st.none() | _stamps | st.sampled_from(own)
    since, until = data.draw(bound), data.draw(bound)
    path = tmp_path_factory.mktemp("log") / "roi.log"
    path.write_bytes(text.encode("utf-8", "surrogateescape"))
    monkeypatch.setattr(R, "CHUNK_BYTES", chunk)  # chunk boundaries anywhere in a line
    monkeypatch.setattr(R, "MAX_LINE_BYTES", 1 << 20)
    window = R.Window(since, until)
    cells, unreadable, numbers = _oracle(text, since, until)

    summary = Summary(Selection())
    log = R.LogFile(str(path))
    for piece in log.chunks():
        summary.add(*R.count_rows(piece, window, summary.cell_of))
    assert (_flat(summary), summary.unreadable) == (cells, unreadable)

    tally = [0]
    exported = list(R.read_rows(R.LogFile(str(path)), window, tally))
    assert [line.number for line in exported] == numbers and tally == [unreadable]
    assert Counter((line.row.label, line.row.event, R.hour_index(line.stamp[:13].encode()))
                   for line in exported) == cells


def test_an_overlong_line_is_skipped_without_being_held(tmp_path, monkeypatch):
    monkeypatch.setattr(R, "CHUNK_BYTES", 16)
    monkeypatch.setattr(R, "MAX_LINE_BYTES", 40)
    row = "2026-11-01T09:00:00.000Z\tpassed\tx\t-"
    long = f"2026-11-01T09:00:00.000Z\tpassed\tx\t{'y' * 100}"
    for layout in ([long, row], [row, long, row], [row, long], [long], [row, long + "\n" + row]):
        path = tmp_path / "roi.log"
        path.write_text("\n".join(layout) + "\n")
        unreadable = [0]
        rows = list(R.read_rows(R.LogFile(str(path)), R.Window(), unreadable))
        numbers = [i + 1 for i, line in enumerate("\n".join(layout).split("\n")) if line == row]
        assert [r.number for r in rows] == numbers and unreadable == [1], layout
        summary = Summary(Selection())
        log = R.LogFile(str(path))
        for piece in log.chunks():
            summary.add(*R.count_rows(piece, R.Window(), summary.cell_of))
        assert sum(_flat(summary).values()) == len(numbers)
        assert summary.unreadable + log.overlong == 1


def test_lines_out_of_time_order_count_in_their_own_hours(tmp_path):
    # Bisection for the end of the 10:00 run lands past all five lines: only the check of the
    # run (and then the sort) keeps the 09:xx and 11:00 rows out of hour 10.
    from datetime import datetime, timezone

    lines = ["2026-11-01T10:00:00.000Z\tpassed\ta\t-", "2026-11-01T09:59:59.999Z\tblocked\ta\tx",
             "2026-11-01T10:30:00.000Z\tpassed\ta\t-", "2026-11-01T11:00:00.000Z\tpassed\tb\t-",
             "2026-11-01T09:00:00.000Z\tpassed\ta\t-"]
    path = tmp_path / "roi.log"
    path.write_text("\n".join(lines) + "\n")
    summary = Summary(Selection())
    for piece in R.LogFile(str(path)).chunks():
        summary.add(*R.count_rows(piece, R.Window(), summary.cell_of))

    def hour(text: str) -> int:
        return int(datetime(2026, 11, 1, int(text), tzinfo=timezone.utc).timestamp()) // 3600

    assert _flat(summary) == Counter({("a", "passed", hour("10")): 2, ("a", "blocked", hour("09")): 1,
                                      ("b", "passed", hour("11")): 1, ("a", "passed", hour("09")): 1})
    assert summary.blocked == Counter({("x", "a"): 1}) and summary.unreadable == 0


@pytest.mark.parametrize(("text", "now", "expected"), [
    ("7d", "2026-11-08T12:30:00.250Z", "2026-11-01T12:30:00.250Z"),
    ("90m", "2026-11-08T12:30:00.250Z", "2026-11-08T11:00:00.250Z"),
    ("2w", "2026-11-15T00:00:00.000Z", "2026-11-01T00:00:00.000Z"),
    ("2026-11-01", "2026-11-08T00:00:00.000Z", "2026-11-01T00:00:00.000Z"),
    ("2026-11-01T09:30", "2026-11-08T00:00:00.000Z", "2026-11-01T09:30:00.000Z"),
    ("2026-11-01T09:30:05Z", "2026-11-08T00:00:00.000Z", "2026-11-01T09:30:05.000Z"),
    ("2026-11-01T09:30:05.123Z", "2026-11-08T00:00:00.000Z", "2026-11-01T09:30:05.123Z"),
])
def test_when_forms(text, now, expected):
    from datetime import datetime

    now_ms = int(datetime.fromisoformat(now.replace("Z", "+00:00")).timestamp() * 1000)
    assert R.parse_when(text, now_ms) == expected


@pytest.mark.parametrize("text", ["7", "d", "7 d", "-7d", "2026-11-31", "2026-11-01T25:00",
                                  "2026-11-01T09:30+02:00", "2026-11-01 09:30", "yesterday"])
def test_when_refusals(text):
    with pytest.raises(ValueError):
        R.parse_when(text, 0)
