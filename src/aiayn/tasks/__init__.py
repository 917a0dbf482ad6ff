"""Tasks: what a model learns from and how it is judged and used. The trainer is the same for all.

A task module subclasses ``Task`` (``tasks/spec.py``): its presets, data and commands, the objective
it builds for the trainer (``aiayn.training.objective.Objective``: batches, ``loss``, ``validate``,
``metric``, ``describe``), what ``aiayn evaluate``, ``aiayn generate`` and the end-of-training report
do with its models, and the options it reads (dataclasses, ``tasks/declared.py``). ``registry()`` maps
names to tasks; the command line builds its choices, options and help from it.
"""

from __future__ import annotations

import functools
from typing import Any

from ..errors import UsageError
from .declared import Option
from .language_model import LanguageModelObjective, SequenceBatch, cut_windows, nll_by_position
from .options import by_task, listed
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
    known = registry()
    if name not in known:
        raise UsageError(f"unknown task {name!r}; choose one of {', '.join(known)}")
    return known[name]


def readers(command: str) -> list[tuple[str, list[Option]]]:
    """(task name, the options it declares for ``aiayn command``) of every task, in registry order."""
    return [(task.name, task.options_for(command)) for task in registry().values()]


def defaults(command: str, field: str) -> str:
    """The help's words for the defaults of a shared option of ``aiayn command`` (a ``GenerateRequest``
    field), from each task's ``Task.defaults`` (the tasks that declare none for it take no part)."""
    return by_task({name: task.defaults[command][field] for name, task in registry().items()
                    if field in task.defaults.get(command, {})})


def given_options(command: str, values: dict[str, Any]) -> dict[str, Any]:
    """The tasks' own options of ``aiayn command`` from parsed ``values`` (argparse's, by dest), by
    name; None: not given. Train settings (--vocab-size, dest train.vocab_size) travel as settings."""
    return {o.name: values.get(o.dest) for _, options in readers(command) for o in options
            if o.flag is not None and o.dest == o.name}


# What a verb needs of the model's architecture beyond its task's verbs (``io.registry.Capabilities``):
# verb -> (the test, what a refused model lacks, the models that pass), in the refusal's words
ARCHITECTURE_NEEDS = {
    "attention": (lambda caps: bool(caps.attention), "no attention (RNNencdec), its source being one fixed vector",
                  "models with attention to show"),
    "export": (lambda caps: bool(caps.export), "architecture={architecture!r}, which no exporter writes",
               "encoder-decoder Transformer models (architecture 'transformer')"),
}


def gate(model, verb: str, role: str = "") -> Task:
    """The one answer to "can ``model`` do ``aiayn verb``?": from its task's verbs (``Task.verbs``), then
    from its architecture's capabilities (``ARCHITECTURE_NEEDS``), read from the weights file's header
    before any weights load. A refusal is one line in one format, naming the models that can and what
    this one is for; ``role`` names the model in it ("teacher ")."""
    from ..io.checkpoint import read_header
    from ..io.registry import capabilities_of
    from ..io.rundir import model_file_of
    from .spec import task_name

    _, meta = read_header(model_file_of(model))
    task = get(task_name(meta))
    use = f"use {task.uses}" if task.verbs else f"no command takes {task.name} models"
    if not task.supports(verb):
        takers = [t.name for t in registry().values() if t.supports(verb)]
        takes = f"{', '.join(takers[:-1])} or {takers[-1]}" if len(takers) > 1 else "".join(takers) or "no"
        raise UsageError(f"{role}{model} holds a {task.name} model; `aiayn {verb}` takes {takes} models: {use}")
    test, lacks, takers = ARCHITECTURE_NEEDS.get(verb, (None, "", ""))
    if test is not None and not test(capabilities_of(meta)):
        lacks = lacks.format(architecture=meta.get("architecture") or "transformer")
        raise UsageError(f"{role}{model} holds a {task.name} model with {lacks}; `aiayn {verb}` takes {takers}")
    return task


task_for = gate  # its earlier name


def subject(model, device: str = "cpu", dtype: str = "float32", compiled: bool = False):
    """The model at ``model`` as ``aiayn serve`` holds it, asked of its task (``Task.subject``) through the gate;
    ``compiled``: its decoding step compiled where the model is an encoder-decoder (``compile_decoding``)."""
    task = gate(model, "serve")
    held = task.subject(model, device, dtype)
    held.task = task.name  # what the page says the model is for (``serve.subjects.describe``)
    if compiled:
        from ..model.compiled import compile_decoding

        compile_decoding(held.model)
    return held


def flag(command: str, name: str) -> str:
    """How refusals name an option some task declares for ``aiayn command``: its flag (primers ->
    --primer), or its ``--set`` key (train.valid_bleu_sentences)."""
    found = (o for t in registry().values() for o in t.options_for(command) if o.name == name)
    return next(found).shown


def check_options(task: Task, command: str, given: dict, why: str = "") -> None:
    """Refuses in one line the options in ``given`` (name -> value, None: not given) that ``task`` does
    not read for ``aiayn command`` (``Task.options``), naming the tasks that read them; ``why``: what
    to say instead of "a TASK model does not take it". The one place an option is refused for a task;
    an option no task declares for the command is every task's."""
    mine, known = task.reads_for(command), registry().values()
    declared = {name for t in known for name in t.reads_for(command)}
    refused = [name for name, value in given.items() if value is not None and name in declared and name not in mine]
    if not refused:
        return
    readers = [t for t in known if refused[0] in t.reads_for(command)]
    group = [name for name in readers[0].group_of(command, refused[0]) if name not in mine]
    takers = [t for t in readers if set(group) <= set(t.reads_for(command))]
    shown = functools.partial(flag, command)
    text = f"{listed([shown(d) for d in group])} {'is' if len(group) == 1 else 'are'} for "
    text += " and ".join(t.audience(command, group[0]) for t in takers)
    others = [t.name for t in readers if t not in takers]
    if others:
        text += f" ({shown(refused[0])} also for {' and '.join(others)})"
    why = why or f"a {task.name} model does not take {'it' if len(refused) == 1 else 'them'}"
    raise UsageError(f"{text}; {why}: drop {listed([shown(d) for d in refused])}")


__all__ = ["DEFAULT", "GENERATE_RANGES", "EvaluateRequest", "GenerateRequest", "LanguageModelObjective", "Setup",
           "SequenceBatch", "Task", "TranslationObjective", "check_options", "cut_windows", "gate", "get", "nll_by_position",
           "given_options", "readers", "registry", "task_for"]
