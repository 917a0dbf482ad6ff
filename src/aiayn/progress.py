"""How the library reports progress without printing: long jobs take a ``progress`` factory.

A factory is called like ``tqdm`` (``progress(iterable=None, total=..., initial=..., desc=..., unit=...)``)
and returns a bar with ``update``, ``set_postfix``, ``write`` and ``close``. The command line passes
``tqdm`` itself; library callers get :class:`Silent`, which shows nothing and sends ``write`` to the log.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterable, Iterator
from typing import Any

log = logging.getLogger("aiayn")


class Silent:
    """A bar that shows nothing: counts like tqdm (``n``, ``total``, its clock), logs what is written."""

    def __init__(self, iterable: Iterable | None = None, total: float | None = None, initial: float = 0,
                 **_: Any):
        self.iterable, self.total, self.n = iterable, total, initial
        self.start_t = self.last_print_t = time.time()

    def __iter__(self) -> Iterator:
        return iter(self.iterable or ())

    def update(self, n: float = 1) -> None:
        self.n += n

    def set_postfix(self, *_: Any, **__: Any) -> None:
        pass

    def write(self, text: str) -> None:
        log.info("%s", text)

    def close(self) -> None:
        pass


def bar(progress, iterable: Iterable | None = None, **options: Any):
    """A bar from ``progress`` (a tqdm-like factory), or a silent one when it is None."""
    return (progress or Silent)(iterable, **options)
