"""What the chorale task and its grade share, so neither imports the other: the training window, the
sampling defaults, and where the encoded chorales are."""

from __future__ import annotations

from pathlib import Path

from ..checks import Allowed
from ..data import music
from ..data.binarized import cache_root

WINDOW = 2048  # training window in tokens: 512 sixteenths = 32 bars of 4/4, every training chorale whole

# what `aiayn generate` and `aiayn grade` sample with unless told otherwise: graded on 135 continuations of
# valid chorales (docs/music.md), the setting furthest inside issue 29's part-writing limits among those
# where at least 80% of the pieces end by themselves (shipped model: T 0.6 ahead of T 0.7 and 0.8)
SAMPLING = dict(temperature=0.6, top_k=0, top_p=0.9)
# the lengths `aiayn generate` and `aiayn grade` take: tokens to write, tokens of a primer to keep
LENGTHS = {"length": Allowed(int, 1, 1 << 20), "primer_tokens": Allowed(int, 4, optional=True)}


def default_cache() -> Path:
    """Where the encoded chorales live: ``chorales`` in aiayn's cache folder (``AIAYN_CACHE``)."""
    return cache_root() / "chorales"


def chorale_sequences(split: str, cache: str | Path | None = None, progress=None) -> tuple[list[str], list[list[int]]]:
    """Names and token lists of one split (train, valid, test); ``progress`` shows the first parse."""
    chorales = music.load_chorales(cache or default_cache(), split, progress)
    return list(chorales), [seq.tolist() for seq in chorales.values()]
