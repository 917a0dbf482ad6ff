"""What the trainer trains: an ``Objective``, the one contract between a task and the trainer.

A task (``aiayn.tasks``: the record of presets, data and commands) builds an objective for a run
(``Task.build``); the trainer (``aiayn.training.trainer``) and the run orchestration (``aiayn.runs``)
use it through the members below and nothing else. fairseq's ``FairseqTask`` and torchtitan's
``ModelSpec`` play the same part.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

import torch

from . import distributed as D
from .loss import LossSums


class Objective(Protocol):
    """Batches, a loss, and how validation judges the model.

    ``train_batches``: the training batches as lists of example indices (the sampler shuffles and
    shards these, and its state is what ``--resume`` restores). ``batch(indices)``: one of them,
    collated: it has ``n_tokens`` (the target tokens the loss is normalised by), ``to(device)`` and
    ``pin_memory()``. ``loss(model, batch, epsilon)``: summed label-smoothed loss, NLL and token count.
    ``validate(model, device, world)``: the validation figures, each process scoring a share and all
    getting the totals; ``metric(figures)``: the number "best" maximises; ``describe(figures)``: one
    line of them. ``prefetch``: ``batch`` is pure (no random numbers), so a thread may collate ahead.
    ``fingerprint``: the data the model depends on (a vocabulary's hash, or None), which a resume must
    find unchanged. ``has_valid``: there is validation data. ``summary``: a few words on the data for
    the log's first line ("on 1,200 pairs (en -> es)"; "" says nothing).
    """

    train_batches: Sequence[list[int]]
    prefetch: bool
    fingerprint: str | None
    has_valid: bool
    summary: str

    def batch(self, indices: list[int]) -> Any: ...

    def loss(self, model: torch.nn.Module, batch: Any, epsilon: float) -> LossSums: ...

    def validate(self, model: torch.nn.Module, device: torch.device | str,
                 world: D.World | None = None) -> dict[str, float]: ...

    def metric(self, figures: dict[str, float]) -> float: ...

    def describe(self, figures: dict[str, float]) -> str: ...


# Its members, read from the class above: the data it declares, then its methods.
MEMBERS = (*Objective.__annotations__,
           *(name for name, value in vars(Objective).items() if callable(value) and not name.startswith("_")))


def missing_members(cls: type) -> list[str]:
    """The members of ``Objective`` that ``cls`` neither defines nor declares (a class annotation
    declares one its ``__init__`` sets); what only ``Objective`` itself declares does not count."""
    own = [klass for klass in cls.__mro__ if klass not in (Objective, Protocol, object)]
    return [name for name in MEMBERS
            if not any(name in vars(klass) or name in getattr(klass, "__annotations__", {}) for klass in own)]
