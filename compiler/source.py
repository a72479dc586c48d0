"""Source positions: where in the config file a piece of data came from.

The loader turns YAML into plain data and, beside it, a SourceMap from data paths to file
positions. A *path* is the tuple of mapping keys and sequence indices that leads from the
document root to a value, e.g. ``("disciplines", 3, "declare", "extract", "added", 0)``.
Positions travel beside messages, never inside their normative text (conventions rule 6).
"""

from __future__ import annotations

from typing import NamedTuple


class Span(NamedTuple):
    file: str
    line: int  # 1-based
    col: int  # 1-based

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"


class _ScalarText(NamedTuple):
    """How a literal block scalar's characters map back onto the file (for text_position)."""

    start: Span
    # One (file line, indentation) pair per content line, both 0-based.
    line_starts: tuple[tuple[int, int], ...]
    line_lengths: tuple[int, ...]


class SourceMap:
    """Positions of values and keys by data path, for one file."""

    def __init__(self, file: str) -> None:
        self.file = file
        self._values: dict[tuple, Span] = {}
        self._keys: dict[tuple, Span] = {}
        self._scalars: dict[tuple, _ScalarText] = {}

    # -- recording (loader side) -----------------------------------------------------------
    def record_value(self, path: tuple, line0: int, col0: int) -> None:
        self._values[path] = Span(self.file, line0 + 1, col0 + 1)

    def record_key(self, path: tuple, line0: int, col0: int) -> None:
        self._keys[path] = Span(self.file, line0 + 1, col0 + 1)

    def record_block_scalar(
        self, path: tuple, value: str, line_starts: tuple[tuple[int, int], ...]
    ) -> None:
        start = self._values.get(path)
        if start is not None:
            lengths = tuple(len(line) for line in value.split("\n"))
            self._scalars[path] = _ScalarText(start, line_starts, lengths)

    def graft(self, path: tuple, spans: dict[tuple, Span]) -> None:
        """Add positions for data that did not come from YAML nodes (a parsed text form)."""
        for sub, span in spans.items():
            self._values[tuple(path) + tuple(sub)] = span

    # -- queries ---------------------------------------------------------------------------
    def span(self, path: tuple) -> Span | None:
        """Position of the value at ``path``; the nearest recorded ancestor when unknown."""
        path = tuple(path)
        while True:
            found = self._values.get(path)
            if found is not None or not path:
                return found
            path = path[:-1]

    def key_span(self, path: tuple) -> Span | None:
        """Position of the key of the last path element (falls back to the value's span)."""
        path = tuple(path)
        return self._keys.get(path) or self.span(path)

    def text_position(self, path: tuple, offset: int) -> Span | None:
        """Position of character ``offset`` inside the string scalar at ``path``.

        Exact for literal block scalars (``|``), whose content lines are the file's lines;
        for every other style the scalar's own start is the best honest answer.
        """
        path = tuple(path)
        scalar = self._scalars.get(path)
        if scalar is None:
            return self.span(path)
        remaining = offset
        for index, length in enumerate(scalar.line_lengths):
            if remaining <= length:
                if index >= len(scalar.line_starts):
                    break
                file_line0, indent = scalar.line_starts[index]
                return Span(self.file, file_line0 + 1, indent + remaining + 1)
            remaining -= length + 1  # the line and its newline
        return scalar.start
