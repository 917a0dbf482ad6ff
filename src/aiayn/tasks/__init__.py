"""Tasks: what a model learns from and how it is judged. The trainer is the same for all.

A task provides the training batches (index lists a ``BatchSampler`` replays), ``batch(indices)``,
``loss(model, batch, epsilon)`` (summed ``LossSums``), ``validate(model, device)`` (a dict of
figures), ``metric(figures)`` (higher is better: what "best" means), and ``describe(figures)``.
"""

from .language_model import LanguageModelTask, SequenceBatch, cut_windows, nll_by_position
from .translation import TranslationTask

__all__ = ["LanguageModelTask", "SequenceBatch", "TranslationTask", "cut_windows", "nll_by_position"]
