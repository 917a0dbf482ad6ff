"""The exceptions that mean "the user asked for something that cannot be done as given".

The command line prints any ``UserError`` as one line, ``error: <message>``, and exits 1; every
other exception is a bug in aiayn and keeps its traceback. Each message says what to do instead
and names the file (and line) it is about.
"""

from __future__ import annotations


class UserError(ValueError):
    """A mistake in an option, a file or a run directory; the message is one line saying what to do."""


class ConfigError(UserError):
    """A config value outside its allowed range, or a config file that cannot be read.

    ``field`` names the offending field (``d_model``, ``train.warmup``...) so a caller that knows
    where the value came from (a file and line, a --set) can say so.
    """

    def __init__(self, message: str, field: str | None = None):
        super().__init__(message)
        self.field = field


class UsageError(UserError):
    """A request that cannot be carried out as given (the message says what to do instead)."""
