"""Decoding options (paper §6.1): beam size, length penalty, output length limits, batching."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from .. import checks
from ..checks import Allowed
from ..errors import ConfigError


def _flag(default: Any, flag: str, help: str, **const: Any) -> Any:
    """A field with its command-line flag and help ("{default}": the default the command uses, which
    ``aiayn.tasks.options.add_decoding`` fills in); ``const``: a flag that sets this value."""
    return dataclasses.field(default=default, metadata={"flag": flag, "help": help, **const})


@dataclass(frozen=True)
class DecodeOptions:
    """Paper §6.1 defaults: beam 4, α = 0.6, output up to input length + 50.

    Frozen, so one value is one way of decoding: the server batches requests whose options are
    equal (every field, a new one too); ``dataclasses.replace`` makes a changed copy. A field with a
    flag is an option of every command that decodes (``aiayn.tasks.options.add_decoding``).
    """

    beam_size: int = _flag(4, "--beam", "beam size; 1 decodes greedily (default {default})")
    alpha: float = _flag(0.6, "--alpha", "length penalty α of ((5+|Y|)/6)^α (default {default})")
    max_len_a: float = _flag(1.0, "--max-len-a", "output length limit: a x source length + b (a={default:g})")
    max_len_b: int = _flag(50, "--max-len-b", "... + b (default {default})")
    min_len: int = _flag(0, "--min-len", "tokens each output has before its end (default {default})")
    nbest: int = 1  # no flag here: the commands that print several add --nbest
    max_tokens: int = _flag(6000, "--max-tokens", "source tokens x beam per decoding batch")
    # stop a sentence at K finished hypotheses (False: when none can still win)
    early_stopping: bool = _flag(True, "--exact-beam", "keep searching a sentence until no live beam can still beat "
                                 "its best finished hypothesis (slower; default: stop at beam-size finished hypotheses, "
                                 "as fairseq; parsing: exact)", const=False)

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
