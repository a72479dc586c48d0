"""The post-hoc protected-state comparison and `unattributed` rows (spec 06 §8).

Judging sees only the calls a host declares; a write nobody declared leaves no row at all. The
baseline answers from the other end: it remembers one hash per protected entry and, at the
start of the next session call, names every entry whose on-disk state moved with no
`witnessed` or `advised` row explaining it. It records, never blocks: `compare` and `update`
swallow every error (observability is the one fail-open kind), so they can never change a
verdict or an exit code.

State file `<root>/.polydeukes/baseline.json`: `{"entries": {entry: sha256 hex}, "cutAt": ts}`.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
from collections.abc import Sequence

from polydeukes.vm.telemetry import TelemetryWriter, read_records, timestamp
from polydeukes.vm.verdict import ADVISED, UNATTRIBUTED, WITNESSED

__all__ = ["BASELINE_LABEL", "baseline_path", "compare", "snapshot", "update"]

BASELINE_LABEL = "baseline"
# `passed`, `blocked`, `skipped` and `unattributed` explain no change: only a break that was let
# through (a human's witness, an advise-level record) accounts for the write that followed.
_ATTRIBUTING = frozenset({WITNESSED, ADVISED})
_CHUNK = 1 << 16


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
        with open(full, "rb") as handle:
            while chunk := handle.read(_CHUNK):
                content.update(chunk)
    except OSError:
        digest.update(b"A")  # absent or unreadable: absence is a state
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


def _read_baseline(path: str) -> tuple[dict[str, str], str | None] | None:
    """(entries, cutAt) from one parse, or None when absent, unparseable or misshapen.

    A `cutAt` that is not a string degrades to None, which admits every row of the log.
    """
    try:
        with open(path, encoding="utf-8") as handle:
            data = json.load(handle)
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict):
        return None
    entries = data.get("entries")
    if not isinstance(entries, dict) or not all(isinstance(v, str) for v in entries.values()):
        return None
    cut_at = data.get("cutAt")
    return entries, cut_at if isinstance(cut_at, str) else None


def compare(root: str, protected: Sequence[str], log_path: str | None, writer: TelemetryWriter) -> None:
    """Write the `unattributed` rows for the state the previous call left (fail-open).

    Run at the start of a session call, before any row of this run: the log is read first so
    this run's own rows cannot explain away the change they would follow.
    """
    try:
        records = read_records(log_path)[0] if log_path else []
        path = baseline_path(root)
        stored = _read_baseline(path)
        if stored is None:
            # The baseline is not itself protected, so its loss must stay legible in the log.
            writer.record(UNATTRIBUTED, BASELINE_LABEL, path)
            return
        previous, cut_at = stored
        attributed = {
            r["subject"]
            for r in records
            if r["event"] in _ATTRIBUTING and (cut_at is None or r["timestamp"] >= cut_at)
        }
        for entry, digest in snapshot(root, protected).items():
            # An entry new to the config has no previous hash: editing one's own policy is
            # not a tamper. An entry dropped from the config is no longer watched.
            if entry in previous and previous[entry] != digest and entry not in attributed:
                writer.record(UNATTRIBUTED, BASELINE_LABEL, entry)
    except Exception:  # noqa: BLE001 - observability fails open (spec 06 §8)
        return


def update(root: str, protected: Sequence[str]) -> None:
    """Re-establish the baseline at the end of a session call, `cutAt` = now (fail-open).

    Written through a temporary file and `os.replace`, so a concurrent reader sees the old
    state or the new one, never a torn file.
    """
    temporary = None
    try:
        path = baseline_path(root)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        entries = snapshot(root, protected)
        text = json.dumps({"entries": entries, "cutAt": timestamp()}, ensure_ascii=False, separators=(",", ":"))
        temporary = f"{path}.{os.getpid()}.tmp"
        with open(temporary, "w", encoding="utf-8") as handle:
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
