"""`pdks log export`: every row as an object with named fields, for a team's log pipeline.

JSON lines: one object a row, keys always present, in this order —
`timestamp` (as written, ISO 8601 UTC), `epoch_ms` (the same instant in milliseconds), `event`
(a legacy `bypassed` already read as `witnessed`), `label`, `subject` (`-` is "no subject", as
in the log), `reason` (a `skipped` row's token, else null), `witnesses` (the fifth field parsed:
the JSON array itself, else null), `log` (the file it came from) and `line` (its line number).
CSV: the same columns under a header row; `witnesses` is the array's JSON text.
"""

from __future__ import annotations

import csv
import io
from typing import BinaryIO, Callable

import msgspec

from polydeukes.cli.roi.read import Line, epoch_ms

COLUMNS = ("timestamp", "epoch_ms", "event", "label", "subject", "reason", "witnesses", "log",
           "line")
FORMATS = ("jsonl", "csv")
_BATCH = 2000


class JsonRow(msgspec.Struct):
    timestamp: str
    epoch_ms: int
    event: str
    label: str
    subject: str
    reason: str | None
    witnesses: msgspec.Raw | None  # the log's own JSON text, validated when read
    log: str
    line: int


def writer_for(fmt: str, stream: BinaryIO) -> Callable[[Line | None], None]:
    """A function taking rows in order and None at the end; output is written in batches."""
    batch: list[bytes] = []

    def flush() -> None:
        stream.write(b"".join(batch))
        batch.clear()

    if fmt == "jsonl":
        encode = msgspec.json.Encoder().encode

        def write(line: Line | None) -> None:
            if line is not None:
                row = line.row
                batch.append(encode(JsonRow(
                    line.stamp, epoch_ms(line.stamp), row.event, row.label, row.subject,
                    row.reason,
                    msgspec.Raw(row.witnesses.encode()) if row.witnesses is not None else None,
                    line.log, line.number)) + b"\n")
            if line is None or len(batch) >= _BATCH:
                flush()
                if line is None:
                    stream.flush()
        return write

    text = io.StringIO()
    table = csv.writer(text, lineterminator="\n")
    table.writerow(COLUMNS)

    def write(line: Line | None) -> None:  # noqa: F811 - one writer per format
        if line is not None:
            row = line.row
            table.writerow((line.stamp, epoch_ms(line.stamp), row.event, row.label, row.subject,
                            row.reason or "", row.witnesses or "", line.log, line.number))
        if line is None or text.tell() > 1 << 16:
            batch.append(text.getvalue().encode("utf-8"))
            text.seek(0)
            text.truncate()
            flush()
            if line is None:
                stream.flush()
    return write
