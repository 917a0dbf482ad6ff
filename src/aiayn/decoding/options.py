"""Decoding options (paper §6.1): beam size, length penalty, output length limits, batching."""

from __future__ import annotations

from dataclasses import dataclass

from .. import checks
from ..checks import Allowed
from ..errors import ConfigError


@dataclass(frozen=True)
class DecodeOptions:
    """Paper §6.1 defaults: beam 4, α = 0.6, output up to input length + 50.

    Frozen, so one value is one way of decoding: the server batches requests whose options are
    equal (every field, a new one too); ``dataclasses.replace`` makes a changed copy.
    """

    beam_size: int = 4
    alpha: float = 0.6
    max_len_a: float = 1.0
    max_len_b: int = 50
    min_len: int = 0  # tokens before EOS is allowed
    nbest: int = 1
    max_tokens: int = 6000  # source tokens x beam per batch
    early_stopping: bool = True  # stop a sentence at K finished hypotheses (False: when none can still win)

    def __post_init__(self) -> None:
        checks.check_fields(self, DECODE_RANGES)
        if self.nbest > self.beam_size:
            raise ConfigError(f"nbest ({self.nbest}) cannot exceed the beam size ({self.beam_size}): "
                              "raise the beam or lower nbest", field="nbest")
        if self.max_len_a == 0 and self.max_len_b == 0:
            raise ConfigError("max_len_a and max_len_b are both 0, which allows no output: raise one", field="max_len_b")


DECODE_RANGES = {  # the command line parses --beam, --alpha... with these too
    "beam_size": Allowed(int, 1, 1024), "alpha": Allowed(float, 0, 10), "max_len_a": Allowed(float, 0, 100),
    "max_len_b": Allowed(int, 0, 1 << 20), "min_len": Allowed(int, 0, 1 << 20), "nbest": Allowed(int, 1, 1024),
    "max_tokens": Allowed(int, 1),
}
