"""The post-hoc protected-state comparison and `unattributed` rows (spec 06 §8).

Judging sees only the calls a host declares; a write nobody declared leaves no row at all. The
baseline answers from the other end: it remembers one hash per protected entry and, at the
start of the next session call, names every entry whose on-disk state moved with no
`witnessed` or `advised` verdict explaining it. It records, never blocks: `compare` and
`update` swallow every error (observability is the one fail-open kind), so they can never
change a verdict or an exit code.

(Beyond 0.8) What explains a change is the guard's own record, never the log: `update` writes
beside the hashes the entries this run let through (`admitted`: a `witnessed` or `advised`
verdict whose subject is the entry), and `compare` accepts a change of exactly those. A row
an agent appends to roi.log (or a log it swaps) explains nothing. The upstream rule read
`witnessed`/`advised` rows at or after `cutAt` from the log; it also could not attribute the
change a call admitted, which lands after that call's own `cutAt`.

The guard's own state (`.polydeukes/`, a configured log) is protected but not watched here:
the guard rewrites it on every run (stdlib/protected.py `watched_by_baseline`).

State file `<root>/.polydeukes/baseline.json`:
`{"entries": {entry: sha256 hex}, "cutAt": ts, "admitted": [entry, ...]}`; a baseline written
before `admitted` existed reads as admitting nothing.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
from collections.abc import Iterable, Sequence

from polydeukes.vm.safeio import MiB, UnsafeFile, open_regular, read_regular
from polydeukes.vm.telemetry import TelemetryWriter, timestamp
from polydeukes.vm.verdict import ADVISED, UNATTRIBUTED, WITNESSED

__all__ = ["BASELINE_LABEL", "baseline_path", "compare", "snapshot", "update"]

BASELINE_LABEL = "baseline"
# `passed`, `blocked`, `skipped` and `unattributed` explain no change: only a break that was let
# through (a human's witness, an advise-level record) accounts for the write that followed.
_ATTRIBUTING = frozenset({WITNESSED, ADVISED})
_CHUNK = 1 << 16
_STATE_LIMIT = 16 * MiB  # baseline.json: one hash per entry is a few KB
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)


def baseline_path(root: str) -> str:
    """The absolute path of the state file (the subject of an absent-baseline row)."""
    return os.path.abspath(os.path.join(root, ".polydeukes", "baseline.json"))


def _fold_file(digest: "hashlib._Hash", full: str, key: bytes) -> None:
    """One file: its entry-relative path, then its content, or an absence marker.

    (Python design) Each file is framed as `path NUL tag [sha256(content)]`: a path holds no
    NUL and the tail has a fixed width, so no two walks can feed the same bytes, and a large
    file streams through its own digest instead of being read whole.
    """
    digest.update(key + b"\0")
    content = hashlib.sha256()
    try:
        fd = open_regular(full, os.O_RDONLY)  # a FIFO or a device is never opened for reading
    except OSError as exc:
        # Absent or unreadable: absence is a state. A FIFO, a socket or a device (directly or
        # through a symlink) is a state of its own, never read.
        digest.update(b"S" if isinstance(exc, UnsafeFile) else b"A")
        return
    try:
        with open(fd, "rb", closefd=True) as handle:
            while chunk := handle.read(_CHUNK):
                content.update(chunk)
    except OSError:
        digest.update(b"A")
        return
    digest.update(b"F" + content.digest())


def _entry_hash(root: str, entry: str) -> str:
    """A deterministic walk of one entry: directories recurse in sorted name order.

    A missing entry folds like an unreadable file (its path, then absence), so it hashes
    differently from an empty directory. Symlinks are never followed into directories, so a
    link loop cannot trap the walk.
    """
    digest = hashlib.sha256()
    stack = [entry]
    while stack:
        rel = stack.pop()
        full = os.path.join(root, rel)
        key = rel.encode("utf-8", "surrogateescape")
        try:
            is_dir = stat.S_ISDIR(os.lstat(full).st_mode)
            names = sorted(os.listdir(full)) if is_dir else None
        except OSError:
            names = None
        if names is None:
            _fold_file(digest, full, key)
        else:
            stack.extend(f"{rel}/{name}" for name in reversed(names))
    return digest.hexdigest()


def snapshot(root: str, protected: Sequence[str]) -> dict[str, str]:
    """entry -> sha256 hex of its on-disk state, in list order; deterministic."""
    return {entry: _entry_hash(root, entry) for entry in protected}


def _read_baseline(path: str) -> tuple[dict[str, str], frozenset[str]] | None:
    """(entries, admitted) from one parse, or None when absent, unparseable or misshapen.

    Read like all of the guard's state: a regular file, never through a final symlink.
    """
    try:
        data = json.loads(read_regular(path, limit=_STATE_LIMIT, follow_symlinks=False))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict):
        return None
    entries = data.get("entries")
    if not isinstance(entries, dict) or not all(isinstance(v, str) for v in entries.values()):
        return None
    admitted = data.get("admitted", [])
    if not isinstance(admitted, list) or not all(isinstance(e, str) for e in admitted):
        return None
    return entries, frozenset(admitted)


def compare(root: str, watched: Sequence[str], writer: TelemetryWriter) -> None:
    """Write the `unattributed` rows for the state the previous call left (fail-open).

    Run at the start of a session call, before any row of this run. `watched` is the
    protected list without the guard's own state (protected.watched_by_baseline).
    """
    try:
        path = baseline_path(root)
        stored = _read_baseline(path)
        if stored is None:
            # Lost or damaged state must stay legible in the log.
            writer.record(UNATTRIBUTED, BASELINE_LABEL, path)
            return
        previous, admitted = stored
        for entry, digest in snapshot(root, watched).items():
            # An entry new to the config has no previous hash: editing one's own policy is
            # not a tamper. An entry dropped from the config is no longer watched.
            if entry in previous and previous[entry] != digest and entry not in admitted:
                writer.record(UNATTRIBUTED, BASELINE_LABEL, entry)
    except Exception:  # noqa: BLE001 - observability fails open (spec 06 §8)
        return


def admitted_by(verdicts: Iterable[tuple[str, str]], watched: Sequence[str]) -> list[str]:
    """The watched entries this run let through: the subject of a `witnessed` or `advised`
    verdict (`passed`, `blocked`, `skipped` and `unattributed` explain no change)."""
    subjects = {subject for event, subject in verdicts if event in _ATTRIBUTING}
    return [entry for entry in watched if entry in subjects]


def update(root: str, watched: Sequence[str], admitted: Sequence[str] = ()) -> None:
    """Re-establish the baseline at the end of a session call, `cutAt` = now (fail-open).

    `admitted`: the entries whose change this run's own verdicts let through (`admitted_by`),
    so that the next call's `compare` does not report the change those verdicts allowed.
    Written through a temporary file and `os.replace`, so a concurrent reader sees the old
    state or the new one, never a torn file.
    """
    temporary = None
    try:
        path = baseline_path(root)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        entries = snapshot(root, watched)
        text = json.dumps({"entries": entries, "cutAt": timestamp(), "admitted": list(admitted)},
                          ensure_ascii=False, separators=(",", ":"))
        temporary = f"{path}.{os.getpid()}.tmp"
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW, 0o644)
        with open(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
        os.replace(temporary, path)
        temporary = None
    except Exception:  # noqa: BLE001 - observability fails open (spec 06 §8)
        pass
    finally:
        if temporary is not None:
            try:
                os.remove(temporary)
            except OSError:
                pass
