"""The aggregates of `pdks stats`: folded chunk by chunk, then shaped into one `Report`.

`Summary` keeps only what the report shows, keyed by label, event, hour and subject, so its
size follows the variety of the log rather than its length. `Report` is the one structure every
output renders: the terminal table, the HTML report and `--json` (which prints it as it is).
"""

from __future__ import annotations

import time
from collections import Counter

import msgspec

from polydeukes.cli.roi.read import NOT_A_ROW, event_of, extra_of, hour_index, split_fields
from polydeukes.vm.verdict import ADVISED, BLOCKED, PASSED, SKIPPED, UNATTRIBUTED, WITNESSED

# Table order: what the call did, from harmless to stopped, then the non-verdicts.
EVENT_ORDER = (PASSED, ADVISED, BLOCKED, WITNESSED, SKIPPED, UNATTRIBUTED)
TOP_SUBJECTS = 10
HOURLY_SPAN_LIMIT = 48  # data spanning at most this many hours is bucketed per hour, else per day
_MEMO_LIMIT = 200_000  # distinct field texts remembered; cleared when full (bounded memory)


class Selection(msgspec.Struct, frozen=True):
    """Rows to keep besides the time window: None keeps every label / event."""

    labels: frozenset[str] | None = None
    events: frozenset[str] | None = None

    def keeps(self, event: str, label: str) -> bool:
        return (self.labels is None or label in self.labels) and (
            self.events is None or event in self.events)


# What a fields text counts for, besides a real target's index: no row, or a row the selection
# leaves out.
NO_ROW = -1
LEFT_OUT = -2


class _CellIds(dict):
    """fields text -> the index of the counters it feeds (or NO_ROW / LEFT_OUT); a text not yet
    seen is parsed by `parse` on lookup, so `count_rows` can map its lines through
    `__getitem__` at C level. Cleared when full: a log of ever-new texts keeps bounded memory."""

    def __init__(self, parse) -> None:
        super().__init__()
        self._parse = parse

    def __missing__(self, fields: bytes) -> int:
        if len(self) >= _MEMO_LIMIT:
            self.clear()
        cell = self[fields] = self._parse(fields)
        return cell


class Summary:
    """Rows per (label, event) per hour, blocked rows per subject, skips per reason.

    Each distinct fields text is parsed once (`cell_of`, the key `count_rows` counts by) into
    the index of a *target*: the hour counter of its (label, event) and, for a blocked or
    skipped row, the (subject or reason, label) counter and key it also feeds. Lines that feed
    the same target are counted together, so a chunk costs one or two Counter updates per
    target and hour, however many subjects the rows name; the per-label and per-event views
    are derived once, when the report is built.
    """

    def __init__(self, selection: Selection) -> None:
        self.selection = selection
        self.unreadable = 0
        self.cells: dict[tuple[str, str], Counter[int]] = {}  # (label, event) -> hour -> rows
        self.skips: Counter[tuple[str, str]] = Counter()  # (reason, "" when none; label)
        self.blocked: Counter[tuple[str, str]] = Counter()  # (subject, label)
        self.cell_of = _CellIds(self._cell).__getitem__
        # target index -> (its hour counter, its extra counter or None, the extra key)
        self._targets: list[tuple[Counter[int], Counter | None, object]] = []
        self._target_index: dict[tuple[str, str, object], int] = {}  # (label, event, key)
        self._heads: dict[tuple[bytes, bytes], object] = {}  # (event, label) words
        self._extras: dict[tuple[bool, bytes], object] = {}  # (skipped?, fifth field)
        self._hours: dict[bytes, int | None] = {}

    def add(self, groups: list[tuple[bytes, Counter[int]]], unreadable: int) -> None:
        """Fold one chunk's [(hour prefix, `cell_of` value -> lines)] into the aggregates."""
        self.unreadable += unreadable
        targets, hours = self._targets, self._hours
        for hour, counts in groups:
            index = hours.get(hour, False)
            if index is False:
                index = hours[hour] = hour_index(hour)
            if index is None:
                self.unreadable += sum(counts.values())
                continue
            for cell, n in counts.items():
                if cell < 0:
                    if cell == NO_ROW:
                        self.unreadable += n
                    continue
                by_hour, extra, key = targets[cell]
                by_hour[index] += n
                if extra is not None:
                    extra[key] += n

    def _cell(self, fields: bytes) -> int:
        """What one distinct fields text (with its line feed) feeds. The (event, label) part and
        a fifth field are remembered on their own too: a log with many subjects repeats them
        far more often."""
        parts = split_fields(fields[:-1])
        if parts is None:
            return NO_ROW
        heads = self._heads
        head = heads.get((parts[0], parts[1]), False)
        if head is False:
            if len(heads) > _MEMO_LIMIT:  # a log of ever-new labels must not grow it forever
                heads.clear()
            head = heads[parts[0], parts[1]] = self._head(parts[0], parts[1])
        if head is None:
            return NO_ROW
        if head is LEFT_OUT:
            return LEFT_OUT
        event, label, plain = head
        reason = ""
        if len(parts) == 4:
            extras = self._extras
            extra = extras.get((event == SKIPPED, parts[3]), False)
            if extra is False:
                if len(extras) > _MEMO_LIMIT:
                    extras.clear()
                extra = extras[event == SKIPPED, parts[3]] = extra_of(event, parts[3])
            if extra is NOT_A_ROW:
                return NO_ROW
            reason = extra
        if event == SKIPPED:
            return self._target(label, event, self.skips, (reason, label))
        if event == BLOCKED:
            return self._target(label, event, self.blocked,
                                (parts[2].decode("utf-8", "replace"), label))
        return plain

    def _head(self, word: bytes, label_bytes: bytes) -> object:
        """(event, label, the target of its rows when they feed no other counter)."""
        event = event_of(word)
        if event is None:
            return None
        label = label_bytes.decode("utf-8", "replace")
        if not self.selection.keeps(event, label):
            return LEFT_OUT
        plain = None if event in (SKIPPED, BLOCKED) else self._target(label, event, None, None)
        return event, label, plain

    def _target(self, label: str, event: str, extra: Counter | None, key: object) -> int:
        """The index of the counters a row of (label, event) feeds, made on first use. There
        are as many as the report has (label, event) cells, reasons and blocked subjects."""
        index = self._target_index.get((label, event, key))
        if index is None:
            by_hour = self.cells.get((label, event))
            if by_hour is None:
                by_hour = self.cells[label, event] = Counter()
            index = self._target_index[label, event, key] = len(self._targets)
            self._targets.append((by_hour, extra, key))
        return index


# -- the report ---------------------------------------------------------------------------------


class Count(msgspec.Struct):
    name: str
    count: int


class LabelStats(msgspec.Struct):
    label: str
    passed: int
    advised: int
    blocked: int
    witnessed: int
    skipped: int
    unattributed: int
    total: int
    share: float  # percent of the selection's rows, one decimal
    series: list[int]  # rows per bucket, aligned with Report.buckets


class Reason(msgspec.Struct):
    reason: str  # a token of spec 06 §6, or "" for skips that gave none
    count: int
    labels: list[Count]


class Subject(msgspec.Struct):
    subject: str
    count: int
    labels: list[Count]


class Rules(msgspec.Struct):
    """What the config says beside the log: None when no config could be read."""

    config: str
    disciplines: int  # judged entries (declarations and config faults) the config lists
    dead: list[str]  # those with no row in the selection, config order
    drafts: list[str]


class Report(msgspec.Struct):
    logs: list[str]
    since: str | None
    until: str | None
    labels_selected: list[str] | None
    events_selected: list[str] | None
    rows: int
    unreadable: int
    first: str | None  # the first and last bucket holding a row (UTC)
    last: str | None
    bucket: str  # "hour" or "day"
    buckets: list[str]  # each bucket's start, `YYYY-MM-DD` or `YYYY-MM-DDTHH:00Z`
    series: list[int]  # all rows per bucket
    events: dict[str, list[int]]  # rows per bucket for each event, EVENT_ORDER
    labels: list[LabelStats]  # most blocked first, then most rows, then by name
    skip_reasons: list[Reason]
    witnessed: int
    witnessed_by: list[Count]
    most_blocked: list[Subject]  # top TOP_SUBJECTS subjects of blocked rows
    rules: Rules | None
    config_note: str | None  # why `rules` is missing, when it is


def _by_first(pairs: Counter[tuple[str, str]]) -> dict[str, Counter[str]]:
    """(reason or subject, label) -> rows, regrouped as reason or subject -> label -> rows."""
    grouped: dict[str, Counter[str]] = {}
    for (first, label), n in pairs.items():
        if first not in grouped:
            grouped[first] = Counter()
        grouped[first][label] += n
    return grouped


def plural(n: int, word: str) -> str:
    return f"{n:,} {word}" + ("" if n == 1 else "s")


def headline(report: Report) -> list[str]:
    """The facts every rendering opens with: rows, span, unreadable lines."""
    facts = [plural(report.rows, "row")]
    if report.first is not None:
        facts.append(f"{report.first} → {report.last} "
                     f"({plural(len(report.buckets), report.bucket)}, UTC)")
    if report.unreadable:
        facts.append(f"{plural(report.unreadable, 'unreadable line')} skipped")
    return facts


def selection_text(report: Report) -> list[str]:
    """The filters in force, as the renderings show them (empty when there are none)."""
    chosen = []
    if report.since:
        chosen.append(f"since {report.since}")
    if report.until:
        chosen.append(f"until {report.until}")
    if report.labels_selected is not None:
        chosen.append("labels " + ", ".join(report.labels_selected))
    if report.events_selected is not None:
        chosen.append("events " + ", ".join(report.events_selected))
    return chosen


def _counts(counter: Counter[str]) -> list[Count]:
    return [Count(name, n) for name, n in sorted(counter.items(), key=lambda kv: (-kv[1], kv[0]))]


def bucket_label(index: int, bucket: str) -> str:
    seconds = index * (86_400 if bucket == "day" else 3_600)
    if bucket == "day":
        return time.strftime("%Y-%m-%d", time.gmtime(seconds))
    return time.strftime("%Y-%m-%dT%H:00Z", time.gmtime(seconds))


def build_report(summary: Summary, *, logs: list[str], since: str | None, until: str | None,
                 rules_config: tuple[str, list[str], list[str]] | None,
                 config_note: str | None) -> Report:
    """Shape the aggregates: buckets chosen from the data's span, labels sorted by blocked."""
    events: dict[str, Counter[str]] = {}
    label_hours: dict[str, Counter[int]] = {}
    event_hours: dict[str, Counter[int]] = {event: Counter() for event in EVENT_ORDER}
    for (label, event), by_hour in summary.cells.items():
        if label not in events:
            events[label], label_hours[label] = Counter(), Counter()
        events[label][event] += sum(by_hour.values())
        label_hours[label].update(by_hour)
        event_hours[event].update(by_hour)
    events = {label: by_event for label, by_event in events.items() if +by_event}
    rows = sum(sum(by_event.values()) for by_event in events.values())

    bucket = "hour"
    first = last = None
    indexes: list[int] = []
    hours = {hour for by_hour in summary.cells.values() for hour in by_hour}
    if hours:
        low, high = min(hours), max(hours)
        if high - low + 1 > HOURLY_SPAN_LIMIT:
            bucket, low, high = "day", low // 24, high // 24
        indexes = list(range(low, high + 1))
        first, last = bucket_label(low, bucket), bucket_label(high, bucket)
    per_bucket = 24 if bucket == "day" else 1

    def series(counter: Counter[int]) -> list[int]:
        values = [0] * len(indexes)
        for hour, n in counter.items():
            values[hour // per_bucket - indexes[0]] += n
        return values

    labels = []
    for label, by_event in events.items():
        total = sum(by_event.values())
        labels.append(LabelStats(
            label, *(by_event[event] for event in EVENT_ORDER), total,
            round(100 * total / rows, 1), series(label_hours[label])))
    labels.sort(key=lambda s: (-s.blocked, -s.total, s.label))

    skip_reasons = sorted((Reason(reason, sum(c.values()), _counts(c)) for reason, c in
                           _by_first(summary.skips).items()), key=lambda r: (-r.count, r.reason))
    most_blocked = sorted((Subject(subject, sum(c.values()), _counts(c)) for subject, c in
                           _by_first(summary.blocked).items()),
                          key=lambda s: (-s.count, s.subject))
    witnessed = Counter({s.label: s.witnessed for s in labels if s.witnessed})

    selection = summary.selection
    rules = None
    if rules_config is not None:
        config, disciplines, drafts = rules_config
        dead = [d for d in disciplines if d not in events
                and (selection.labels is None or d in selection.labels)]
        rules = Rules(config, len(disciplines), dead, drafts)
    return Report(
        logs=logs, since=since, until=until,
        labels_selected=sorted(selection.labels) if selection.labels is not None else None,
        events_selected=[e for e in EVENT_ORDER if e in selection.events]
        if selection.events is not None else None,
        rows=rows, unreadable=summary.unreadable, first=first, last=last, bucket=bucket,
        buckets=[bucket_label(i, bucket) for i in indexes],
        series=[sum(column) for column in zip(*(s.series for s in labels))] if labels else [],
        events={event: series(event_hours[event]) for event in EVENT_ORDER},
        labels=labels, skip_reasons=skip_reasons, witnessed=sum(witnessed.values()),
        witnessed_by=_counts(witnessed), most_blocked=most_blocked[:TOP_SUBJECTS], rules=rules,
        config_note=config_note,
    )
