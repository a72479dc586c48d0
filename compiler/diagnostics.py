"""The two fates of a config problem (conventions rule 5).

A ConfigValidationError stops the load at the first failure in spec order; a CompileFault is
returned (never raised) by the compiler and becomes a ``config-fault`` skip registration.
"""

from __future__ import annotations

import msgspec

from polydeukes.compiler.source import Span


class ConfigError(Exception):
    """A config that cannot be used: missing, ambiguous, unreadable, unparseable, invalid.

    ``message`` is the spec's text verbatim; ``span`` (when known) travels beside it.
    """

    def __init__(self, message: str, span: Span | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.span = span

    def located(self) -> str:
        """The one-line form printed on stderr: the message, then where it points."""
        if self.span is None:
            return self.message
        return f"{self.message} (at {self.span})"

    def wrapped(self, prefix: str) -> "ConfigError":
        """The same error (same type, same span) with the loader's prefix in front."""
        return type(self)(prefix + self.message, self.span)


class ConfigValidationError(ConfigError):
    """Validation failed (spec 02 §1.4): the message is wrapped as `invalid config in …: …`."""


class CompileFault(msgspec.Struct, frozen=True):
    location: str  # the spec's fault location, e.g. "no-todo extract added"
    reason: str  # the spec's reason text verbatim
    span: Span | None = None

    def text(self) -> str:
        return f"{self.location}: {self.reason}"
