"""Tasks: what a model learns from and how it is judged. The trainer is the same for all.

A task provides the training batches (index lists a ``BatchSampler`` replays), ``batch(indices)``,
``loss(model, batch, epsilon)`` (summed ``LossSums``), ``validate(model, device)`` (a dict of
figures), ``metric(figures)`` (higher is better: what "best" means), and ``describe(figures)``.

Translation learns from the user's parallel text; the tasks in ``recipes()`` bring their own data
(``aiayn train --task music|digits|superres|parsing``), with their model presets and training settings.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .language_model import LanguageModelTask, SequenceBatch, cut_windows, nll_by_position
from .translation import TranslationTask


@dataclass(frozen=True)
class Recipe:
    """A task on built-in data: model presets (model-config fields), training settings, and the task
    itself, built by ``build(model_config, train_config, data, progress)``: ``data`` holds the data settings (``data``
    updated by the caller; recorded in the run), ``progress`` is a tqdm-like factory (``aiayn.progress``)."""

    name: str
    presets: dict[str, dict[str, Any]]  # the first is the default
    train: dict[str, Any]  # TrainConfig fields
    model_config: Callable[..., Any]  # model-config fields -> the model's config dataclass
    build: Callable[[Any, Any, dict[str, Any], Any], Any]
    data: dict[str, Any]  # the default data settings
    # For data that fixes part of the model (a vocabulary): a new run's data settings -> (the settings
    # completed, e.g. with the vocabulary, recorded in the run; the model-config fields they fix).
    prepare: Callable[[dict[str, Any]], tuple[dict[str, Any], dict[str, Any]]] | None = None

    def config(self, preset: str | None, fields: dict[str, Any]):
        return self.model_config(**{**self.presets[preset or next(iter(self.presets))], **fields})


def recipes() -> dict[str, Recipe]:
    """The tasks with built-in data, by name (imported here so translation alone needs no music21)."""
    from .images import DIGITS, SUPERRES
    from .music import RECIPE as music
    from .parsing import RECIPE as parsing

    return {recipe.name: recipe for recipe in (music, DIGITS, SUPERRES, parsing)}


__all__ = ["LanguageModelTask", "Recipe", "SequenceBatch", "TranslationTask", "cut_windows", "nll_by_position",
           "recipes"]
