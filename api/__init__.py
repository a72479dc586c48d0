"""polydeukes — deterministic edit- and command-time covenants for AI coding agents.

The stable in-process API is `Judge` (polydeukes.judge); it is imported on first use, so
`import polydeukes.cli` (the hook's hot path) costs nothing here.
"""

from __future__ import annotations

__all__ = ["Judge", "Row", "Verdict"]


def __getattr__(name: str):
    if name in __all__:
        from polydeukes import judge

        return getattr(judge, name)
    raise AttributeError(f"module 'polydeukes' has no attribute {name!r}")
