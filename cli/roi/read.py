"""Which logs, which rows, and reading them: streamed, read-only, never trusting a line.

A log is read in chunks of whole lines (constant memory whatever its size) through
`vm.safeio.open_regular`, so a FIFO, a device or a directory named as a log is refused instead of
hanging the command. A line is a row when it has the spec 06 §2 shape — a timestamp in
`toISOString` form (`YYYY-MM-DDTHH:MM:SS.mmmZ`), then the fields spec 06 §11's reader accepts
(an event of the six, `bypassed` read as `witnessed`; a skip reason token or a JSON array in the
optional fifth field). Anything else — a torn line, a foreign line, a line longer than
`MAX_LINE_BYTES` — is counted as unreadable and skipped, never fatal. Empty lines are not
counted (spec 06 §11).

Speed: `pdks stats` must summarize a 1 GB log in seconds, which a Python loop over ten million
lines cannot do. `count_rows` therefore works on a whole chunk with C-level operations only
(split, slicing maps, one translate of the chunk's joined timestamps, bisection and counting
for the runs of one hour, a Counter per hour), and the caller reads each *distinct* fields text
once (`split_fields`, `event_of`, `extra_of`) into what it counts for.
`read_rows` is the plain per-line reader `pdks log export` uses (`parse_fields`, built from the
same three pieces); a property test holds both readers to the spec's.
"""

from __future__ import annotations

import calendar
import datetime as dt
import functools
import io
import os
import re
import time
from bisect import bisect_left
from collections import Counter
from itertools import compress
from operator import itemgetter
from typing import Callable, Hashable, Iterator

import msgspec

from polydeukes.vm.safeio import UnsafeFile, open_regular, refusal_text
from polydeukes.vm.verdict import EVENTS, SKIP_REASONS, SKIPPED

# Measured (bench/bench_stats.py): a chunk's lines, timestamps and counters then stay in the
# processor's cache; 1 MiB chunks ran slower, 64 KiB no faster.
CHUNK_BYTES = 1 << 17
# A line this long is no row the writer produces (witness values are capped at 200 characters
# each, eight a row): it is counted unreadable and skipped without being held.
MAX_LINE_BYTES = 1 << 20

STAMP_WIDTH = 24  # 2026-09-05T12:00:00.000Z
FIELDS_AT = STAMP_WIDTH + 1  # the event starts after the timestamp and its TAB
HOUR_WIDTH = 13  # 2026-09-05T12

_DIGITS_TO_ZERO = bytes.maketrans(b"0123456789", b"0000000000")
_STAMP_SHAPE = b"0000-00-00T00:00:00.000Z\t"
# (Open-ended slices: each bound given costs a conversion per line.)
_stamp_of = itemgetter(slice(None, FIELDS_AT))  # the timestamp and its TAB
_fields_of = itemgetter(slice(FIELDS_AT, None))

_EVENT_WORDS = {event.encode(): event for event in EVENTS} | {b"bypassed": "witnessed"}
_REASON_WORDS = {reason.encode(): reason for reason in SKIP_REASONS}
_json_decode = msgspec.json.Decoder().decode


class LogError(Exception):
    """A named log cannot be read, or a glob names no file."""


class Row(msgspec.Struct, frozen=True):
    """The fields of one row after its timestamp, as spec 06 §11 reads them."""

    event: str  # one of the six (a legacy `bypassed` is read as `witnessed`)
    label: str
    subject: str
    reason: str | None  # a `skipped` row's token
    witnesses: str | None  # another row's fifth field: a JSON array, kept as its text


def split_fields(fields: bytes) -> list[bytes] | None:
    """The three or four fields after a timestamp, None for any other count (spec 06 §11)."""
    parts = fields.split(b"\t")
    return parts if len(parts) in (3, 4) else None


def event_of(word: bytes) -> str | None:
    """One of the six events (a legacy `bypassed` read as `witnessed`), else None."""
    return _EVENT_WORDS.get(word)


NOT_A_ROW = object()  # `extra_of`'s answer for a fifth field that makes the line no row


def extra_of(event: str, extra: bytes) -> str | object:
    """A fifth field read for its event: a `skipped` row's reason token, another row's JSON
    array (kept as its text), or NOT_A_ROW."""
    if event == SKIPPED:
        return _REASON_WORDS.get(extra, NOT_A_ROW)
    text = extra.decode("utf-8", "replace")
    try:
        return text if isinstance(_json_decode(text), list) else NOT_A_ROW
    except msgspec.DecodeError:
        return NOT_A_ROW


def parse_fields(fields: bytes) -> Row | None:
    """The row behind a timestamp, or None when the line is no row (spec 06 §11)."""
    parts = split_fields(fields)
    if parts is None:
        return None
    event = event_of(parts[0])
    if event is None:
        return None
    reason = witnesses = None
    if len(parts) == 4:
        extra = extra_of(event, parts[3])
        if extra is NOT_A_ROW:
            return None
        if event == SKIPPED:
            reason = extra
        else:
            witnesses = extra
    return Row(event, parts[1].decode("utf-8", "replace"), parts[2].decode("utf-8", "replace"),
               reason, witnesses)


@functools.lru_cache(maxsize=1 << 16)
def hour_index(hour: bytes) -> int | None:
    """Hours since the epoch for a `YYYY-MM-DDTHH` prefix, None when it is no real hour."""
    try:
        year, month, day, h = int(hour[0:4]), int(hour[5:7]), int(hour[8:10]), int(hour[11:13])
        dt.datetime(year, month, day, h)
    except ValueError:
        return None
    return calendar.timegm((year, month, day, h, 0, 0)) // 3600


def stamp_shaped(line: bytes) -> bool:
    """Digits where `toISOString` puts digits, its punctuation elsewhere, then a TAB."""
    return line[:FIELDS_AT].translate(_DIGITS_TO_ZERO) == _STAMP_SHAPE


def epoch_ms(stamp: str) -> int:
    """Milliseconds since the epoch of a row timestamp whose hour `hour_index` accepted."""
    hour = hour_index(stamp[:HOUR_WIDTH].encode())
    return (hour * 3600 + int(stamp[14:16]) * 60 + int(stamp[17:19])) * 1000 + int(stamp[20:23])


# -- the selection ------------------------------------------------------------------------------

_DURATION = re.compile(r"(\d+)([mhdw])")
_UNIT_MS = {"m": 60_000, "h": 3_600_000, "d": 86_400_000, "w": 604_800_000}
_WHEN = re.compile(r"(\d{4})-(\d\d)-(\d\d)(?:T(\d\d):(\d\d)(?::(\d\d)(?:\.(\d{3}))?)?Z?)?")
WHEN_HELP = "a duration before now (30m, 12h, 7d, 2w) or a UTC date or time (2026-11-01, 2026-11-01T09:30)"


def parse_when(text: str, now_ms: int) -> str:
    """`--since` / `--until` as a row timestamp: a duration before now, or a UTC date/time.

    A date alone is the start of that day, so `--since 2026-11-01 --until 2026-11-08` is the
    seven days from the 1st to the 7th. Raises ValueError for anything else.
    """
    duration = _DURATION.fullmatch(text)
    if duration is not None:
        ms = now_ms - int(duration.group(1)) * _UNIT_MS[duration.group(2)]
        return format_stamp(max(ms, 0))
    when = _WHEN.fullmatch(text)
    if when is None:
        raise ValueError(text)
    year, month, day, hour, minute, second, millis = (int(g or 0) for g in when.groups())
    moment = dt.datetime(year, month, day, hour, minute, second, tzinfo=dt.timezone.utc)
    return moment.strftime("%Y-%m-%dT%H:%M:%S") + f".{millis:03d}Z"


def format_stamp(ms: int) -> str:
    seconds, millis = divmod(ms, 1000)
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(seconds)) + f".{millis:03d}Z"


class Window:
    """Rows at or after `since` and before `until` (timestamps compared as text, which orders
    `toISOString` forms correctly)."""

    def __init__(self, since: str | None = None, until: str | None = None) -> None:
        self.since = since
        self.until = until
        # A line starts with its timestamp, so comparing whole lines with the bound compares
        # timestamps: an equal timestamp makes the longer line the greater.
        self._since = since.encode() if since else None
        self._until = until.encode() if until else None

    def admits(self, stamp: str) -> bool:
        return (self.since is None or stamp >= self.since) and (
            self.until is None or stamp < self.until)

    def keep(self, lines: list[bytes]) -> list[bytes]:
        """The lines inside the window (every line already starts with a well-shaped stamp)."""
        if self._since is not None and lines and min(lines) < self._since:
            lines = list(compress(lines, map(self._since.__le__, lines)))
        if self._until is not None and lines and max(lines) >= self._until:
            lines = list(compress(lines, map(self._until.__gt__, lines)))
        return lines


# -- files --------------------------------------------------------------------------------------

_GLOB_MAGIC = re.compile(r"[*?[]")


def expand_logs(specs: list[str]) -> list[str]:
    """Each `--log` value as files: a glob expands (sorted), a plain path stays as given.
    A glob that names no file is an error; a file named twice is read once."""
    import glob

    found: list[str] = []
    for spec in specs:
        if _GLOB_MAGIC.search(spec):
            matches = sorted(m for m in glob.glob(spec, recursive=True) if not os.path.isdir(m))
            if not matches:
                raise LogError(f"no file matches '{spec}'")
            found.extend(matches)
        else:
            found.append(spec)
    unique: dict[str, str] = {}
    for path in found:
        unique.setdefault(os.path.realpath(path), path)
    return list(unique.values())


class LogFile:
    """One log, opened read-only and safely, read as chunks of whole lines.

    `overlong` counts lines longer than MAX_LINE_BYTES, which are skipped without being held
    in memory (so a log with no line feed cannot exhaust it).
    """

    def __init__(self, path: str, name: str | None = None) -> None:
        self.path = path
        self.name = path if name is None else name  # as a person reads it, for export rows
        self.overlong = 0
        try:
            self._fd = open_regular(path, os.O_RDONLY)
        except FileNotFoundError:
            raise LogError(f"cannot read {path}: no such file") from None
        except (UnsafeFile, IsADirectoryError) as exc:
            raise LogError(f"will not read {path}: {refusal_text(exc)}") from None
        except OSError as exc:
            raise LogError(f"cannot read {path}: {exc.strerror or exc}") from None

    def chunks(self) -> Iterator[bytes]:
        """Chunks of whole lines without their final LF; a last line with no LF ends a chunk.

        An overlong line is dropped and stands as one empty chunk, so line numbers stay right.
        """
        carry = b""
        skipping = False  # inside an overlong line: drop bytes up to its LF
        try:
            while True:
                data = os.read(self._fd, CHUNK_BYTES)
                if not data:
                    if carry:
                        yield carry
                    return
                if skipping:
                    lf = data.find(b"\n")
                    if lf < 0:
                        continue
                    data, skipping = data[lf + 1:], False
                cut = data.rfind(b"\n")
                if cut < 0:
                    carry += data
                    if len(carry) > MAX_LINE_BYTES:
                        carry, skipping = b"", True
                        self.overlong += 1
                        yield b""
                    continue
                chunk, carry = carry + data[:cut], data[cut + 1:]
                # Only a chunk's first line can outgrow one read (it began in the carry).
                first = chunk.find(b"\n")
                if first > MAX_LINE_BYTES or (first < 0 and len(chunk) > MAX_LINE_BYTES):
                    self.overlong += 1
                    yield b""
                    if first < 0:
                        continue
                    chunk = chunk[first + 1:]
                yield chunk
        except OSError as exc:
            raise LogError(f"cannot read {self.path}: {exc.strerror or exc}") from None
        finally:
            os.close(self._fd)


# -- counting (stats) and rows (export) ----------------------------------------------------------


def count_rows(chunk: bytes, window: Window, key: Callable[[bytes], Hashable]
               ) -> tuple[list[tuple[bytes, Counter]], int]:
    """The chunk's rows grouped by hour: [(hour prefix, Counter of `key(fields)`)], where
    `fields` is what follows the stamp, line feed included; and the number of lines not shaped
    like a row.

    C-level operations only, per line; the caller's `key` is called per line (through `map`),
    so it should be a C-level lookup too (`Summary` passes a dict's `__getitem__` that turns a
    fields text into what it counts for, parsing each distinct text once). The caller judges
    what this cannot: an impossible hour, and (through the key) malformed fields.

    The timestamps are checked together: joined into one string of fixed-width records, whose
    digits are zeroed by one translate and compared with the expected shape. A log is written
    in time order, so its lines come in runs of one hour: each run is found by bisection and
    checked by counting its hour among the run's records (in well-shaped records an hour can
    only match at a record's start: `-` stands at offsets 4 and 7 alone, `T` at 10). When a run
    fails that check (lines out of order), the rest of the chunk is sorted, which makes every
    run exact.
    """
    # BytesIO finds line ends with memchr where bytes.split tests every byte; each line keeps
    # its LF (the last one too, given one here), so every fields text ends with one.
    lines = io.BytesIO(chunk + b"\n").readlines()
    stamps = b"".join(map(_stamp_of, lines))
    unreadable = 0
    shaped = stamps.translate(_DIGITS_TO_ZERO) == _STAMP_SHAPE * len(lines)
    if not shaped:  # a malformed, short or empty line: look at each (rare)
        kept = [line for line in lines if stamp_shaped(line)]
        unreadable = len(lines) - len(kept) - lines.count(b"\n")
        lines = kept
    selected = window.keep(lines)
    if not shaped or selected is not lines:
        lines = selected
        stamps = b"".join(map(_stamp_of, lines))
    groups: list[tuple[bytes, Counter]] = []
    start, end = 0, len(lines)
    in_order = False  # True once the lines are sorted: runs need no check
    while start < end:
        hour = lines[start][:HOUR_WIDTH]
        stop = bisect_left(lines, hour + b"\xff", start)  # b"\xff": above any line of the hour
        if not in_order and (stop == start or stamps.count(
                hour, start * FIELDS_AT, stop * FIELDS_AT) != stop - start):
            lines, start, end, in_order = sorted(lines[start:]), 0, end - start, True
            continue
        groups.append((hour, Counter(map(key, map(_fields_of, lines[start:stop])))))
        start = stop
    return groups, unreadable


class Line(msgspec.Struct, frozen=True):
    """One row of a log, for export: where it was read, its timestamp and its fields."""

    log: str
    number: int  # 1-based physical line number in its log
    stamp: str
    row: Row


def read_rows(log: LogFile, window: Window, tally: list[int]) -> Iterator[Line]:
    """Every row of one log inside the window, in file order; `tally[0]` grows by each
    unreadable line (a line dropped for its length counts there too).

    As in `count_rows`, a line whose stamp is well shaped but outside the window is left out
    before its fields are read: only lines that could be in the selection count as unreadable.
    """
    number = 0
    parsed: dict[bytes, Row | None] = {}  # rows repeat: read each fields text once
    for chunk in log.chunks():
        if len(parsed) > 100_000:
            parsed.clear()
        for raw in chunk.split(b"\n"):
            number += 1
            if not raw:
                continue
            row = None
            if stamp_shaped(raw):
                stamp = raw[:STAMP_WIDTH].decode("ascii")
                if not window.admits(stamp):
                    continue  # outside the window: left out before it is read further
                if hour_index(raw[:HOUR_WIDTH]) is not None:
                    fields = raw[FIELDS_AT:]
                    row = parsed.get(fields, False)
                    if row is False:
                        row = parsed[fields] = parse_fields(fields)
            if row is None:
                tally[0] += 1
                continue
            yield Line(log.name, number, stamp, row)
    tally[0] += log.overlong
