"""The roi.log line format (golden), writer semantics, reader, and concurrent appends."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import golden

from polydeukes.vm import telemetry as T
from polydeukes.vm.values import UNDEFINED

GOLDEN = Path(__file__).parent / "golden" / "telemetry" / "rows.txt"
STAMP = "2026-09-05T12:00:00.000Z"


def _rows() -> list[str]:
    witnesses = T.witnesses_field
    failure = T.relate_failure
    return [
        T.format_record(STAMP, "passed", "covenant-check", "src/index.ts"),
        T.format_record(STAMP, "blocked", "self-mod", ".claude/hooks"),
        T.format_record(STAMP, "advised", "docs-stay-bilingual", "docs/a.md", witnesses=witnesses(
            [failure("ko-follows", [("docs/a", "docs/a.md", None)], 1)])),
        T.format_record(STAMP, "skipped", "manifest-needs-npm-view", "package.json",
                        reason="supply-pass"),
        T.format_record(STAMP, "skipped", "shell-unjudgeable", "-", reason="no-observation"),
        T.format_record(STAMP, "unattributed", "baseline", ".claude/hooks"),
        T.format_record(STAMP, "blocked", "covenant-check", "-"),
        # TAB, LF and CR in label, subject and witnesses become spaces: one line, five fields.
        T.format_record(STAMP, "advised", "tabs\tin\na label", "sub\r\nject".replace("\r\n", "\r"),
                        witnesses=witnesses([failure("x", [("k", "v\tw", None)], 1)])),
        # At most eight witnesses; the true total.
        T.format_record(STAMP, "advised", "capped", "f.txt", witnesses=witnesses(
            [failure("many", [(str(i), i, None) for i in range(11)], 11)])),
        T.format_record(STAMP, "advised", "shapes", "f.txt", witnesses=witnesses([failure("e", [
            ("a", {"k": "x", "v": 1}, "left"),
            ("u", UNDEFINED, None),
            ("long", "x" * 250, None),
            ("ü", "한국어", None),
        ], 4)])),
    ]


def test_golden_rows():
    golden.check(GOLDEN, "".join(_rows()))


def test_four_fields_without_extras_and_no_trailing_tab():
    line = T.format_record(STAMP, "passed", "a", "b")
    assert line == f"{STAMP}\tpassed\ta\tb\n"


@pytest.mark.parametrize("kwargs", [
    {"event": "passed", "reason": "supply-pass"},
    {"event": "skipped", "reason": "no-observation", "witnesses": "[]"},
    {"event": "bypassed"},
])
def test_writer_refuses_malformed_rows(kwargs):
    event = kwargs.pop("event")
    with pytest.raises(ValueError):
        T.format_record(STAMP, event, "a", "b", **kwargs)


def test_timestamp_is_iso_with_milliseconds():
    assert T.timestamp(0) == "1970-01-01T00:00:00.000Z"
    assert T.timestamp(1700000000123) == "2023-11-14T22:13:20.123Z"


def test_writer_creates_directories_and_appends(tmp_path):
    path = tmp_path / "deep" / "er" / "roi.log"
    writer = T.TelemetryWriter(str(path))
    writer.record("passed", "covenant-check", "a")
    writer.record("skipped", "x", "-", reason="config-fault")
    lines = path.read_text().splitlines()
    assert [line.split("\t")[1:] for line in lines] == [
        ["passed", "covenant-check", "a"], ["skipped", "x", "-", "config-fault"]]


def test_writer_fails_open_and_says_so_once(tmp_path, capsys):
    blocker = tmp_path / "file"
    blocker.write_text("")
    writer = T.TelemetryWriter(str(blocker / "roi.log"))  # a file where a directory must be
    writer.record("passed", "a", "b")
    writer.record("passed", "a", "b")
    err = capsys.readouterr().err
    assert err.count("pdks: telemetry could not be written to") == 1
    assert err.endswith("— verdicts are unaffected\n")


def test_reader_round_trip_and_legacy_word(tmp_path):
    log = tmp_path / "roi.log"
    log.write_text("".join(_rows()) + f"{STAMP}\tbypassed\tx\t-\n" + "garbage\n"
                   + f"{STAMP}\tskipped\tx\t-\t[1]\n" + f"{STAMP}\tadvised\tx\t-\tnot-json\n",
                   encoding="utf-8")
    records, corrupt = T.read_records(str(log))
    assert corrupt == 3
    assert records[-1]["event"] == "witnessed"
    assert "reason" not in records[0] and "witnesses" not in records[0]
    assert records[3]["reason"] == "supply-pass"
    gain = T.run_gain(str(log))
    assert gain.startswith("total 11\ncovenant-check: passed=1 blocked=1 witnessed=0 advised=0")
    assert gain.endswith("corrupt lines skipped=3")
    assert T.run_gain(str(tmp_path / "absent")) == "no telemetry collected"


WRITER = """
import sys
from polydeukes.vm.telemetry import TelemetryWriter
w = TelemetryWriter(sys.argv[1])
for i in range(int(sys.argv[3])):
    w.record("advised", "writer-" + sys.argv[2], "subject-%d" % i,
             witnesses='[{"id":"pad","witnesses":[{"key":"k","value":"%s"}],"total":1}]' % ("x" * 3000))
"""


def test_concurrent_processes_never_interleave_or_lose_lines(tmp_path):
    log = tmp_path / ".polydeukes" / "roi.log"
    processes, per_process = 32, 40
    children = [
        subprocess.Popen([sys.executable, "-c", WRITER, str(log), str(n), str(per_process)])
        for n in range(processes)
    ]
    assert all(child.wait(timeout=120) == 0 for child in children)
    lines = log.read_text(encoding="utf-8").split("\n")
    assert lines[-1] == ""
    lines = lines[:-1]
    assert len(lines) == processes * per_process
    seen = set()
    for line in lines:
        fields = line.split("\t")
        assert len(fields) == 5 and fields[1] == "advised" and len(fields[4]) > 3000
        seen.add((fields[2], fields[3]))
    assert len(seen) == processes * per_process
    assert os.path.getsize(log) == sum(len(line.encode()) + 1 for line in lines)
