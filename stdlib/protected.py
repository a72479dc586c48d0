"""Protected paths: normalization (spec 01 §10), the guard's own built-in entries, and whether
the project's file system folds case.

Normalization is pure string work with no filesystem access; `folds_case` is the one question
asked of the file system, once per project root and process.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from functools import lru_cache

# The guard's own state: plan.bin, roi.log, baseline.json and whatever lands there later.
GUARD_STATE_DIR = ".polydeukes"


def normalize_protected_paths(paths: Iterable[str] | None) -> list[str]:
    kept: list[str] = []
    seen: set[str] = set()
    for raw in paths or ():
        entry = raw.strip()
        while entry.startswith("./"):
            entry = entry[2:]
        while entry.endswith("/"):
            entry = entry[:-1]
        if entry and entry not in seen:
            seen.add(entry)
            kept.append(entry)
    return kept


def with_config_file(paths: list[str] | None, config_name: str) -> list[str]:
    """The loader's self-protection (spec 02 §1.5): the config file guards itself."""
    raw = list(paths or [])
    if config_name not in raw:
        raw.append(config_name)
    return raw


def guard_state_entries(log_path: str) -> list[str]:
    """The built-in entries that protect the guard's own state (beyond 0.8): `.polydeukes`
    (a forged plan.bin, a FIFO as roi.log, a rewritten baseline.json would each turn blocks
    into allows) and the configured telemetry log when it lies elsewhere."""
    entries = [GUARD_STATE_DIR]
    log = normalize_protected_paths([log_path])
    if log and not _inside_guard_state(log[0]):
        entries.append(log[0])
    return entries


def _inside_guard_state(entry: str) -> bool:
    kept: list[str] = []
    for part in entry.split("/"):
        if part == "..":
            if kept:
                kept.pop()
            else:
                return False  # it climbs out of the project root
        elif part and part != ".":
            kept.append(part)
    return bool(kept) and kept[0] == GUARD_STATE_DIR


def with_guard_state(normalized: list[str], log_path: str) -> list[str]:
    """The normalized list with the guard's entries appended after it (so no existing row's
    subject changes); an entry the user already listed keeps the user's place."""
    return normalized + [e for e in guard_state_entries(log_path) if e not in normalized]


def watched_by_baseline(protected: list[str], log_path: str) -> list[str]:
    """The entries whose on-disk state the baseline compares: all but the guard's own state,
    which the guard itself rewrites on every run."""
    own = set(guard_state_entries(log_path))
    return [entry for entry in protected if entry not in own]


# -- case-insensitive file systems ------------------------------------------------------------


@lru_cache(maxsize=8)
def folds_case(root: str, existing_name: str) -> bool:
    """Does the file system under `root` fold case (macOS and Windows by default)?

    Asked of the file system itself rather than guessed from the platform: `existing_name`
    (a file known to exist in `root`, e.g. the config file) and its case-swapped spelling are
    the same file exactly when lookups fold case. Any failure answers False, which keeps the
    plain, case-sensitive matching.
    """
    swapped = existing_name.swapcase()
    if swapped == existing_name:
        return False
    try:
        return os.path.samestat(os.stat(os.path.join(root, existing_name)),
                                os.stat(os.path.join(root, swapped)))
    except (OSError, ValueError):
        return False


def fold(text: str) -> str:
    """The one spelling two paths share on a case-folding file system.

    Full Unicode case folding: it may fold more than a given file system does (`ß` and `ss`),
    which can only make a protected path match more spellings, never fewer."""
    return text.casefold()
