"""The one exception type for bad input data: files, corpora, tokenizer models."""

from __future__ import annotations

from ..errors import UserError


class DataError(UserError):
    """Bad input data; the message is one line naming the file and line, fit to print as ``error: ...``."""
