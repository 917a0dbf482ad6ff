"""Tasks: what a model learns from and how it is judged and used. The trainer is the same for all.

A task module defines one ``Task`` (``tasks/spec.py``): presets, data, the training objective
(batches, ``loss``, ``validate``, ``metric``, ``describe``), and what ``aiayn evaluate``,
``aiayn generate`` and the end-of-training report do with its models. ``registry()`` maps names to
tasks; the command line builds its choices and help from it.
"""

from __future__ import annotations

from .language_model import LanguageModelTask, SequenceBatch, cut_windows, nll_by_position
from .requests import GENERATE_RANGES, EvaluateRequest, GenerateRequest
from .spec import Setup, Task
from .translation import TranslationTask

DEFAULT = "translation"  # a new run's task when none is named


def registry() -> dict[str, Task]:
    """Every task by name, translation first (imported here, so translation alone needs no music21)."""
    from .images import DIGITS, SUPERRES
    from .music import TASK as music
    from .parsing import TASK as parsing
    from .translation import TASK as translation

    return {task.name: task for task in (translation, music, DIGITS, SUPERRES, parsing)}


def get(name: str) -> Task:
    """The task called ``name``; an unknown name is a one-line error listing the known ones."""
    from ..errors import UsageError

    known = registry()
    if name not in known:
        raise UsageError(f"unknown task {name!r}; choose one of {', '.join(known)}")
    return known[name]


def task_for(model, command: str) -> Task:
    """The task of ``model``'s weights (read from the file's header), refused in one line when
    ``aiayn command`` is not one of its commands (``Task.uses``)."""
    from ..errors import UsageError
    from .spec import model_task_name

    task = get(model_task_name(model))
    if f"aiayn {command}" not in task.uses:
        raise UsageError(f"{model} holds a {task.name} model; `aiayn {command}` does not take it: use {task.uses}")
    return task


__all__ = ["DEFAULT", "GENERATE_RANGES", "EvaluateRequest", "GenerateRequest", "LanguageModelTask", "Setup",
           "SequenceBatch", "Task", "TranslationTask", "cut_windows", "get", "nll_by_position", "registry",
           "task_for"]
