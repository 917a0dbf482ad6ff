"""What ``evaluate`` and ``generate`` are asked to do, as one dataclass each: the command line fills
one from its options and hands it to the model's task, which refuses what it cannot use."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..checks import Allowed
from ..decoding.options import DecodeOptions


@dataclass
class EvaluateRequest:
    """Score ``model`` on ``test`` (None: the task's built-in test split). Decoding options left None
    take the task's defaults (``Task.decoding``: translation paper §6.1, parsing §6.3)."""

    model: str
    test: str | None = None
    src: str | None = None
    tgt: str | None = None
    decoding: dict[str, Any] = field(default_factory=dict)  # DecodeOptions fields the user gave
    device: str = "cpu"
    dtype: str = "float32"
    progress: Callable | None = None  # a tqdm-like factory

    def options(self, defaults: DecodeOptions) -> DecodeOptions:
        given = {k: v for k, v in self.decoding.items() if v is not None}
        return dataclasses.replace(defaults, **given)


GENERATE_RANGES = {  # the command line parses generate's options with these too
    "samples": Allowed(int, 1, 1024), "length": Allowed(int, 1, 1 << 20),
    "top_k": Allowed(int, 0), "primer_tokens": Allowed(int, 4, optional=True),
    "temperature": Allowed(float, 0, 100, lo_open=True), "top_p": Allowed(float, 0, 1, lo_open=True),
    "seed": Allowed(int, 0, 2**63 - 1),
}


@dataclass
class GenerateRequest:
    """Sample from ``model`` into ``out``; None means the task's default."""

    model: str
    out: str = "samples"
    samples: int | None = None
    length: int | None = None
    primers: list[str] | None = None
    primer_tokens: int | None = None
    classes: list[str] | None = None
    temperature: float | None = None
    top_k: int | None = None
    top_p: float | None = None
    rule: str | None = None
    seed: int = 1
    device: str = "cpu"

    def sampling(self, temperature: float = 1.0, top_k: int = 0, top_p: float = 1.0) -> tuple[float, int, float]:
        """(temperature, top-k, top-p): those asked for, the task's defaults (the arguments) for the rest."""
        given = (self.temperature, self.top_k, self.top_p)
        return tuple(d if g is None else g for g, d in zip(given, (temperature, top_k, top_p)))  # type: ignore

    def __post_init__(self) -> None:
        for name, allowed in GENERATE_RANGES.items():
            if getattr(self, name) is not None:  # None: the task's default
                allowed.check(f"--{name.replace('_', '-')}", getattr(self, name))
