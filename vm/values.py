"""The JavaScript value model the declarations were written against (spec 03 §12)."""

from __future__ import annotations


class _Undefined:
    """JavaScript `undefined`: distinct from `null` (None). Produced by steps, never by input."""

    __slots__ = ()
    _instance = None

    def __new__(cls) -> "_Undefined":
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "UNDEFINED"

    def __bool__(self) -> bool:
        return False

    def __reduce__(self) -> str:
        return "UNDEFINED"


UNDEFINED = _Undefined()
