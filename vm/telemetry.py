"""`.polydeukes/roi.log`: the append-only ROI record (spec 06). The one fail-open component.

Every row is one line written by one `write` on a descriptor opened with O_APPEND, so rows from
concurrent `pdks` processes never interleave or tear.
"""

from __future__ import annotations

import os
import sys
import time
from typing import Any, Callable

from polydeukes.vm.safeio import append_regular, follows_symlinks, open_regular, refusal_text
from polydeukes.vm.values import js_json_stringify
from polydeukes.vm.verdict import EVENTS, SKIP_REASONS, SKIPPED

LEGACY_EVENTS = {"bypassed": "witnessed"}  # read back only; the writer never emits it
MAX_WITNESSES = 8
MAX_VALUE_JSON = 200

_SANITIZE = str.maketrans({"\t": " ", "\n": " ", "\r": " "})


def timestamp(now_ms: int | None = None) -> str:
    """ECMAScript toISOString form: `YYYY-MM-DDTHH:MM:SS.mmmZ`."""
    if now_ms is None:
        now_ms = time.time_ns() // 1_000_000
    seconds, millis = divmod(now_ms, 1000)
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(seconds)) + f".{millis:03d}Z"


def format_record(
    stamp: str,
    event: str,
    label: str,
    subject: str,
    *,
    reason: str | None = None,
    witnesses: str | None = None,
) -> str:
    """One row, LF-terminated. A reason off `skipped`, or both extras at once, is a bug: raise."""
    if event not in EVENTS:
        raise ValueError(f"unknown telemetry event {event!r}")
    if reason is not None and witnesses is not None:
        raise ValueError("a telemetry row carries a reason or witnesses, never both")
    if reason is not None and event != SKIPPED:
        raise ValueError(f"a reason belongs only on a skipped row, not on {event!r}")
    fields = [stamp, event, label.translate(_SANITIZE), subject.translate(_SANITIZE)]
    if reason is not None:
        fields.append(reason)
    elif witnesses is not None:
        fields.append(witnesses.translate(_SANITIZE))
    return "\t".join(fields) + "\n"


def witnesses_field(failures: list[dict[str, Any]]) -> str:
    """The fifth field of a break row: exactly what JSON.stringify writes (spec 06 §7)."""
    return js_json_stringify(failures)


def relate_failure(
    relate_id: str, witnesses: list[tuple[str, Any, str | None]], total: int
) -> dict[str, Any]:
    """One failed relate entry of the fifth field: at most eight witnesses, the true total.

    Each witness is (key, value, side) with `value` a JS value; a value whose JSON exceeds 200
    characters becomes the string of its first 200 characters plus `truncated`; UNDEFINED
    drops the value key, as JSON.stringify does; `side` is written for `equal` witnesses only.
    """
    shown = []
    for key, value, side in witnesses[:MAX_WITNESSES]:
        item: dict[str, Any] = {"key": key}
        text = js_json_stringify(value)
        if text is not None:
            if len(text) > MAX_VALUE_JSON:
                item["value"] = text[:MAX_VALUE_JSON]
                item["truncated"] = len(text)
            else:
                item["value"] = value
        if side is not None:
            item["side"] = side
        shown.append(item)
    return {"id": relate_id, "witnesses": shown, "total": total}


def append_line(path: str, line: str) -> OSError | None:
    """Exactly one append write of the whole line; an OS error is returned, never raised.

    Only to a regular file, opened without blocking (a FIFO planted as the log must not hang
    the check), and never through a final symlink under `.polydeukes/` (vm/safeio.py)."""
    try:
        append_regular(path, line.encode("utf-8"), follow_symlinks=follows_symlinks(path))
    except OSError as exc:
        return exc
    return None


class TelemetryWriter:
    """Appends rows to one log, creating its directory; failures are reported once, never raised.

    The one stderr line on failure is the issue's requirement (upstream stays silent): a user
    should learn that rows are missing, while the verdict and exit code stay untouched.
    """

    def __init__(self, path: str | None, *, keep: bool = False,
                 report: Callable[[str], None] | None = None) -> None:
        self.path = path
        # With `keep`, every row is also kept here as its formatted line (polydeukes.Judge
        # returns the rows a check wrote, byte for byte, whether or not they reach a file).
        self.kept: list[str] | None = [] if keep else None
        self._report_line = report  # where the one failure line goes; default sys.stderr
        self._reported = False
        self._dir_ready = False
        # (event, subject) of every row this writer recorded, written or not: the run's own
        # account of its verdicts, which the baseline trusts where it cannot trust the log.
        self.verdicts: list[tuple[str, str]] = []

    def record(
        self,
        event: str,
        label: str,
        subject: str,
        *,
        reason: str | None = None,
        witnesses: str | None = None,
    ) -> None:
        # A malformed row is a programming error and must surface, so format outside the guard.
        line = format_record(timestamp(), event, label, subject, reason=reason, witnesses=witnesses)
        if self.kept is not None:
            self.kept.append(line)
        self.verdicts.append((event, subject))
        if self.path is None:
            return
        try:
            if not self._dir_ready:
                parent = os.path.dirname(self.path)
                if parent:
                    os.makedirs(parent, exist_ok=True)
                self._dir_ready = True
            error = append_line(self.path, line)
        except OSError as exc:
            error = exc
        if error is not None:
            self._report(error)

    def _report(self, error: OSError) -> None:
        if self._reported:
            return
        self._reported = True
        line = (f"pdks: telemetry could not be written to {self.path}: {refusal_text(error)} "
                "— verdicts are unaffected")
        if self._report_line is not None:
            self._report_line(line)
            return
        try:
            sys.stderr.write(line + "\n")
        except (OSError, ValueError, AttributeError):  # a closed stderr (None) included
            pass


# -- reader (library; spec 06 §11) -----------------------------------------------------------


def parse_record_line(line: str) -> dict[str, str] | None:
    if line.endswith("\n"):
        line = line[:-1]
    if line == "":
        return None
    fields = line.split("\t")
    if len(fields) not in (4, 5):
        return None
    stamp, event, label, subject = fields[:4]
    event = LEGACY_EVENTS.get(event, event)
    if event not in EVENTS:
        return None
    record = {"timestamp": stamp, "event": event, "label": label, "subject": subject}
    if len(fields) == 5:
        extra = fields[4]
        if event == SKIPPED:
            if extra not in SKIP_REASONS:
                return None
            record["reason"] = extra
        else:
            import json  # the reader is a library function; the writer never needs json

            try:
                parsed = json.loads(extra)
            except ValueError:
                return None
            if not isinstance(parsed, list):
                return None
            record["witnesses"] = extra
    return record


def read_records(path: str) -> tuple[list[dict[str, str]], int]:
    try:
        fd = open_regular(path, os.O_RDONLY, follow_symlinks=follows_symlinks(path))
        with open(fd, encoding="utf-8", errors="replace", newline="\n") as handle:
            lines = handle.read().split("\n")
    except OSError:
        return [], 0
    records, corrupt = [], 0
    for line in lines:
        if line == "":
            continue
        record = parse_record_line(line)
        if record is None:
            corrupt += 1
        else:
            records.append(record)
    return records, corrupt


def aggregate_gain(records: list[dict[str, str]]) -> dict[str, dict[str, int]]:
    per_label: dict[str, dict[str, int]] = {}
    for record in records:
        counters = per_label.setdefault(record["label"], dict.fromkeys(EVENTS, 0))
        counters[record["event"]] += 1
    return per_label


def run_gain(path: str) -> str:
    records, corrupt = read_records(path)
    if not records and not corrupt:
        return "no telemetry collected"
    lines = [f"total {len(records)}"]
    for label, counters in aggregate_gain(records).items():
        lines.append(f"{label}: " + " ".join(f"{event}={counters[event]}" for event in EVENTS))
    if corrupt:
        lines.append(f"corrupt lines skipped={corrupt}")
    return "\n".join(lines)
