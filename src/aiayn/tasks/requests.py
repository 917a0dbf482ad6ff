"""What ``evaluate`` and ``generate`` are asked to do, as one dataclass each: the command line fills
one from its options and hands it to the model's task. Only what every task reads is a field; a
task's own options (``Task.options``: translation's --test, music's --primer) travel in
``task_options``, by name, and ``aiayn.tasks.check_options`` refuses those the model's task does not read."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..checks import Allowed
from ..decoding.options import DecodeOptions


@dataclass
class EvaluateRequest:
    """Score ``model`` as its task does (on its built-in test split unless its options name one).
    Decoding options left None take the task's defaults (``Task.decoding``: translation paper §6.1,
    parsing §6.3)."""

    model: str
    decoding: dict[str, Any] = field(default_factory=dict)  # DecodeOptions fields the user gave
    device: str = "cpu"
    dtype: str = "float32"
    progress: Callable | None = None  # a tqdm-like factory
    task_options: dict[str, Any] = field(default_factory=dict)  # the task's own (--test ...), None: not given

    def options(self, defaults: DecodeOptions) -> DecodeOptions:
        given = {k: v for k, v in self.decoding.items() if v is not None}
        return dataclasses.replace(defaults, **given)


GENERATE_RANGES = {  # the command line parses generate's options with these too (a task's own: in its RANGES)
    "samples": Allowed(int, 1, 1024), "top_k": Allowed(int, 0),
    "temperature": Allowed(float, 0, 100, lo_open=True), "top_p": Allowed(float, 0, 1, lo_open=True),
    "seed": Allowed(int, 0, 2**63 - 1),
}


@dataclass
class GenerateRequest:
    """Sample from ``model`` into ``out``; None means the task's default."""

    model: str
    out: str = "samples"
    samples: int | None = None
    temperature: float | None = None
    top_k: int | None = None
    top_p: float | None = None
    seed: int = 1
    device: str = "cpu"
    task_options: dict[str, Any] = field(default_factory=dict)  # the task's own (--primer ...), None: not given

    def given_or(self, defaults: dict[str, Any]) -> GenerateRequest:
        """This request with the task's ``defaults`` (``Task.defaults["generate"]``) where a field is None."""
        return dataclasses.replace(self, **{k: v for k, v in defaults.items() if getattr(self, k) is None})

    def sampling(self) -> tuple[float | None, int | None, float | None]:
        """(temperature, top-k, top-p), after ``given_or`` the task's defaults for those not asked for."""
        return self.temperature, self.top_k, self.top_p

    def __post_init__(self) -> None:
        for name, allowed in GENERATE_RANGES.items():
            if getattr(self, name) is not None:  # None: the task's default
                allowed.check(f"--{name.replace('_', '-')}", getattr(self, name))
