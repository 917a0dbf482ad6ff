"""Tasks: what a model learns from and how it is judged and used. The trainer is the same for all.

A task module defines one ``Task`` (``tasks/spec.py``), the record of presets, data and commands,
and the objective it builds for the trainer (``aiayn.training.objective.Objective``: batches,
``loss``, ``validate``, ``metric``, ``describe``), and what ``aiayn evaluate``, ``aiayn generate``
and the end-of-training report do with its models. ``registry()`` maps names to
tasks; the command line builds its choices and help from it.
"""

from __future__ import annotations

from .language_model import LanguageModelObjective, SequenceBatch, cut_windows, nll_by_position
from .requests import GENERATE_RANGES, EvaluateRequest, GenerateRequest
from .spec import Setup, Task
from .translation import TranslationObjective

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
    ``aiayn command`` does not take it (``Task.verbs``), naming the tasks whose models it takes."""
    from ..errors import UsageError
    from .spec import model_task_name

    task = get(model_task_name(model))
    if not task.supports(command):
        takers = [t.name for t in registry().values() if t.supports(command)]
        takes = f"{', '.join(takers[:-1])} or {takers[-1]}" if len(takers) > 1 else "".join(takers) or "no"
        use = f"use {task.uses}" if task.verbs else f"no command takes {task.name} models"
        raise UsageError(f"{model} holds a {task.name} model; `aiayn {command}` takes {takes} models: {use}")
    return task


__all__ = ["DEFAULT", "GENERATE_RANGES", "EvaluateRequest", "GenerateRequest", "LanguageModelObjective", "Setup",
           "SequenceBatch", "Task", "TranslationObjective", "cut_windows", "get", "nll_by_position", "registry",
           "task_for"]
