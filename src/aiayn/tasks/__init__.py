"""Tasks: what a model learns from and how it is judged and used. The trainer is the same for all.

A task module defines one ``Task`` (``tasks/spec.py``), the record of presets, data and commands,
and the objective it builds for the trainer (``aiayn.training.objective.Objective``: batches,
``loss``, ``validate``, ``metric``, ``describe``), and what ``aiayn evaluate``, ``aiayn generate``
and the end-of-training report do with its models. ``registry()`` maps names to
tasks; the command line builds its choices and help from it.
"""

from __future__ import annotations

from ..errors import UsageError
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
    known = registry()
    if name not in known:
        raise UsageError(f"unknown task {name!r}; choose one of {', '.join(known)}")
    return known[name]


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


# option dests given otherwise than as --DEST (a train setting without a flag: with --set)
FLAGS = {"primers": "--primer", "classes": "--class", "valid_bleu_sentences": "train.valid_bleu_sentences"}


def flag(dest: str) -> str:
    """The command-line flag of an option's dest: primer_tokens -> --primer-tokens."""
    return FLAGS.get(dest, "--" + dest.replace("_", "-"))


def _listed(items: list[str]) -> str:
    return ", ".join(items[:-1]) + f" and {items[-1]}" if len(items) > 1 else "".join(items)


def check_options(task: Task, command: str, given: dict, why: str = "") -> None:
    """Refuses in one line the options in ``given`` (dest -> value, None: not given) that ``task`` does
    not read for ``aiayn command`` (``Task.reads``), naming the tasks that read them; ``why``: what
    to say instead of "a TASK model does not take it". The one place an option is refused for a task."""
    mine, known = task.reads_for(command), registry().values()
    declared = {dest for t in known for dest in t.reads_for(command)}  # the others are every task's
    refused = [dest for dest, value in given.items() if value is not None and dest in declared and dest not in mine]
    if not refused:
        return
    readers = [t for t in known if refused[0] in t.reads_for(command)]
    group = [dest for dest in readers[0].group_of(command, refused[0]) if dest not in mine]
    takers = [t for t in readers if set(group) <= set(t.reads_for(command))]
    text = f"{_listed([flag(d) for d in group])} {'is' if len(group) == 1 else 'are'} for "
    text += " and ".join(t.audience.get(group[0], t.name) for t in takers)
    others = [t.name for t in readers if t not in takers]
    if others:
        text += f" ({flag(refused[0])} also for {' and '.join(others)})"
    why = why or f"a {task.name} model does not take {'it' if len(refused) == 1 else 'them'}"
    raise UsageError(f"{text}; {why}: drop {_listed([flag(d) for d in refused])}")


__all__ = ["DEFAULT", "GENERATE_RANGES", "EvaluateRequest", "GenerateRequest", "LanguageModelObjective", "Setup",
           "SequenceBatch", "Task", "TranslationObjective", "check_options", "cut_windows", "gate", "get", "nll_by_position",
           "registry", "task_for"]
