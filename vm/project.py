"""The project root and its config file (spec 02 §1.1): discovery without parsing.

Hot-path safe: the check path discovers and reads the config here, then keys the cached plan on
those bytes; only a stale plan makes it import the compiler.
"""

from __future__ import annotations

import os

from polydeukes.vm.safeio import MiB, read_regular, refusal_text

CONFIG_NAMES = ("polydeukes.config.yaml", "polydeukes.config.yml", "polydeukes.config.json")

NO_CONFIG = "no Polydeukes config found in {root} \u2014 expected one of: " + ", ".join(CONFIG_NAMES)
AMBIGUOUS_CONFIG = "ambiguous Polydeukes config in {root} \u2014 found {found}; keep exactly one"
UNREADABLE_CONFIG = "cannot read {file}: {detail}"
# (Python design) A config, or a layer, is read whole and parsed with positions: a file past this
# size is refused rather than parsed for minutes. 1,000 disciplines take about 650 KB.
CONFIG_LIMIT = 4 * MiB


class ProjectError(Exception):
    """The config cannot be found or read; ``str(e)`` is the spec's message."""


def present_config_names(root: str) -> list[str]:
    """Which of the three candidate names exist (file presence, never parse success)."""
    return [name for name in CONFIG_NAMES if os.path.lexists(os.path.join(root, name))]


def discover_config(root: str) -> str:
    found = present_config_names(root)
    if not found:
        raise ProjectError(NO_CONFIG.format(root=root))
    if len(found) > 1:
        raise ProjectError(AMBIGUOUS_CONFIG.format(root=root, found=" and ".join(found)))
    return found[0]


def read_bytes(path: str, label: str) -> bytes:
    """A config file's bytes: a regular file (a final symlink is followed to one: the config is
    the user's file), opened without blocking, at most CONFIG_LIMIT bytes."""
    try:
        return read_regular(path, limit=CONFIG_LIMIT)
    except OSError as exc:
        raise ProjectError(UNREADABLE_CONFIG.format(file=label, detail=refusal_text(exc))) from None
