"""Protected-path normalization (spec 01 §10): pure string work, no filesystem access."""

from __future__ import annotations

from collections.abc import Iterable


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
