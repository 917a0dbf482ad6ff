"""What a task is: everything the command line and the trainer need to know about one kind of model,
as a base class. Each task module under ``tasks/`` subclasses ``Task`` with its own methods (no record
of lambdas: "go to definition" from the trainer's ``task.build`` lists each task's ``build``);
``aiayn.tasks.registry()`` holds one instance of each. Nothing outside ``tasks/`` asks for a task by name.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..decoding.options import DecodeOptions
from ..io.checkpoint import CheckpointError, read_header
from ..io.loader import Loaded, load
from ..io.rundir import RunDir, model_file_of
from ..training.config import RESUMABLE, TrainConfig
from ..training.distributed import World
from ..training.objective import Objective, missing_members
from .declared import Option, declared
from .requests import EvaluateRequest, GenerateRequest


def task_name(meta: dict[str, Any]) -> str:
    """The task a weights file was trained for; files written before tasks had names hold translation,
    or music when decoder-only (the only decoder-only task then)."""
    return meta.get("task") or ("music" if meta.get("architecture") == "decoder_only" else "translation")


def load_trained(path: str | Path, names: tuple[str, ...], use: str | None = None) -> Loaded:
    """The model a ``--model`` names, if it was trained for one of the tasks ``names``; another is a
    CheckpointError that says ``use`` (what to do instead) when given. Refused before the weights load."""
    model_file = model_file_of(path)
    name = task_name(read_header(model_file)[1])
    if name not in names:
        raise CheckpointError(f"{model_file} holds a {name} model, not a {' or '.join(names)} model"
                              + (f": {use}" if use else ""))
    return load(model_file)


# what the end-of-training report suggests for each verb a task's models take
NEXT_STEPS = {"evaluate": "Score it: aiayn evaluate --model {run}", "generate": "Write samples: aiayn generate "
              "--model {run} --out samples/", "grade": "Grade its samples: aiayn grade --model {run}",
              "parse": "Parse sentences: aiayn parse --model {run}", "translate": "Translate: aiayn translate --model {run}"}


@dataclass(frozen=True)
class Setup:
    """Where a run's data is built: its directory, the processes training it, a progress-bar factory
    (None: nothing shown), and whether the run is resumed (its directory holds what it wrote first)."""

    run: RunDir
    world: World
    progress: Any = None
    resume: bool = False


class Task:
    """One task: subclass it in the task's module, setting what differs, and register one instance
    (``aiayn.tasks.registry()``). Three parts:

    What trains it. ``presets``: model-config fields by preset name (the first is the default);
    ``model_config(**fields)`` makes the model's config, or ``archs``: model families by name
    (``--arch``), each ``(preset, **fields) -> config``. ``train``: train fields that differ from the
    paper's (``train_presets``: by preset); ``train_settings``: a dataclass of the train settings only
    this task reads (translation's vocabulary size), beside ``TrainConfig``'s in the run's train
    section, its ``RESUMABLE`` naming those --resume may change. ``data``: default data settings. The
    one training path (``aiayn.runs.train``) calls, for a new run: ``prepare(data)`` before anything is
    written; ``start(setup, data, train_config)`` once the run directory is claimed, when the task
    writes something first (``fixed_by_start`` names the model fields it fixes: translation's vocabulary
    size); and ``build(setup, model_config, train_config, data)``: the ``objective`` the trainer trains (a
    class with every member of ``aiayn.training.objective.Objective``, checked when the task is made).
    A resumed run calls ``build`` alone, with its recorded data settings; ``build`` may add to ``data``
    what a resume must find unchanged (translation: the training text's fingerprint).

    What it can do. ``verbs``: the commands that take its models (``aiayn VERB``), in the order errors
    name them; ``evaluate(request)`` and ``generate(request)`` where it has them, and each of
    ``commands``, are verbs whether listed or not, and a listed one of these must be defined.
    ``report(run_dir, config, progress)``: printed after training; ``figures(model, split)``: a trained
    model's figures as numbers for ``aiayn experiment`` (None: the runner translates the split);
    ``decoding``: the decoding defaults of evaluate and the task's commands, if it searches;
    ``defaults``: command -> its defaults for the shared options every task reads (``GenerateRequest``'s
    samples, temperature, top_k, top_p), which its methods fill in and the help names by task.

    How it appears on the command line. ``help``, ``preset_help``, ``arch_help``: its words in
    ``aiayn train --help``; ``options``: command -> a dataclass of the options only this task reads
    for it (fields made with ``aiayn.tasks.declared.option``), from which the arguments, help and
    refusals are made (``aiayn.tasks.check_options``); ``train_settings`` fields made with ``option``
    are train options too; ``commands``: the sub-commands it brings, name -> (adds its parser to
    argparse's sub-parsers and returns it, runs it: parsed arguments -> the text for stdout), the parser
    made from a declared ``aiayn.tasks.declared.Command`` (``(GRADE.add, run_grade)``);
    ``default_out``: ``aiayn train``'s run directory without --out ("": runs/NAME).
    """

    # what trains it
    presets: dict[str, dict[str, Any]] = {}
    archs: dict[str, Callable[..., Any]] = {}
    train: dict[str, Any] = {}
    train_presets: dict[str, dict[str, Any]] = {}
    train_settings: type | None = None
    data: dict[str, Any] = {}
    objective: type
    fixed_by_start: tuple[str, ...] = ()
    # what it can do
    verbs: tuple[str, ...] = ()
    decoding: DecodeOptions | None = None
    defaults: dict[str, dict[str, Any]] = {}
    evaluate: Callable[[EvaluateRequest], str] | None = None  # a method where the task has it
    generate: Callable[[GenerateRequest], str] | None = None
    figures: Callable[[Path, str], dict[str, float]] | None = None
    figures_text = ""  # what ``figures`` measures, for an experiment's table: a phrase with {split}
    # how it appears on the command line
    name: str
    help: str
    preset_help: str = ""
    arch_help: str = ""
    options: dict[str, type] = {}
    commands: dict[str, tuple[Callable[[Any], Any], Callable[[Any], str]]] = {}
    default_out: str = ""

    def __init__(self) -> None:
        self.default_out = self.default_out or f"runs/{self.name}"
        missing = missing_members(self.objective)
        if missing:
            raise TypeError(f"task {self.name}: its objective {self.objective.__name__} lacks {', '.join(missing)} "
                            "(every member of aiayn.training.objective.Objective)")
        own = {"evaluate": self.evaluate, "generate": self.generate}
        lacking = [verb for verb in self.verbs if verb in own and own[verb] is None]
        if lacking:
            raise TypeError(f"task {self.name}: its verbs name {', '.join(lacking)} but it gives no "
                            f"{' or '.join(lacking)} function")
        found = [verb for verb, run in own.items() if run is not None] + list(self.commands)
        self.verbs = tuple(dict.fromkeys([*self.verbs, *found]))

    # What trains it ------------------------------------------------------------------------------
    def subject(self, path: str | Path, device: str = "cpu", dtype: str = "float32") -> Any:
        """The model at ``path`` as the studio serves it: a Translator here (the encoder-decoders that translate)."""
        from ..inference.translator import Translator
        from ..precision import DTYPES

        return Translator.load(path, device, DTYPES[dtype])

    def model_config(self, **fields: Any) -> Any:
        """The model's config dataclass from model-config fields (a task with ``archs`` has none)."""
        raise NotImplementedError(f"task {self.name} makes its models with archs")

    def prepare(self, data: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
        """A new run's data settings, checked and completed, and the model-config fields they fix."""
        return data, {}

    def start(self, setup: Setup, data: dict[str, Any], train_config: TrainConfig) -> dict[str, Any]:
        """What a new run writes first, once its directory is claimed; returns the model fields it fixes
        (``fixed_by_start``)."""
        return {}

    def build(self, setup: Setup, model_config: Any, train_config: TrainConfig, data: dict[str, Any]) -> Objective:
        """The objective the trainer trains, on the run's data (each task's module defines its own)."""
        raise NotImplementedError

    # What it can do ------------------------------------------------------------------------------
    def report(self, run_dir: Path, config: dict[str, Any], progress: Any = None) -> str:
        """What to do with a finished run: the commands its models take (``verbs``), no others."""
        return "\n".join([f"\nModel: {run_dir}  (best: {run_dir / 'best.safetensors'})",
                          *(NEXT_STEPS[v].format(run=run_dir) for v in self.verbs if v in NEXT_STEPS)])

    @property
    def uses(self) -> str:
        """The commands for this task's models, as errors name them: "aiayn evaluate / aiayn generate"."""
        return " / ".join(f"aiayn {verb}" for verb in self.verbs)

    def supports(self, verb: str) -> bool:
        """Whether ``aiayn VERB`` takes this task's models."""
        return verb in self.verbs

    # How it appears on the command line ----------------------------------------------------------
    def options_for(self, command: str) -> list[Option]:
        """The options this task reads for ``aiayn command``: its dataclass's, and for train its train
        settings declared as options (--vocab-size)."""
        own = declared(self.options.get(command))
        return own + declared(self.train_settings, "train.") if command == "train" else own

    def reads_for(self, command: str) -> tuple[str, ...]:
        """The option names this task reads for ``aiayn command``."""
        return tuple(o.name for o in self.options_for(command))

    def group_of(self, command: str, name: str) -> tuple[str, ...]:
        """The options read together with ``name`` for ``aiayn command`` (``name`` alone if none)."""
        mine = self.options_for(command)
        key = next((o.together for o in mine if o.name == name), None)
        return tuple(o.name for o in mine if o.together == key) if key else (name,)

    def audience(self, command: str, name: str) -> str:
        """The models that read option ``name`` of ``aiayn command``, as refusals name them."""
        return next((o.audience for o in self.options_for(command) if o.name == name and o.audience), self.name)

    def default_preset(self) -> str:
        return next(iter(self.presets))

    def config(self, preset: str | None, fields: dict[str, Any], arch: str | None = None):
        """The model config of ``preset`` (or the default) with ``fields`` over it; ValueError if invalid."""
        preset = preset or self.default_preset()
        if self.archs:
            return self.archs[arch or next(iter(self.archs))](preset, **fields)
        return self.model_config(**{**self.presets[preset], **fields})

    def train_config(self, preset: str | None, fields: dict[str, Any]) -> TrainConfig:
        preset = preset or self.default_preset()
        return TrainConfig.from_dict({**self.train, **self.train_presets.get(preset, {}), **fields},
                                     self.train_settings)

    def resumable(self) -> tuple[str, ...]:
        """The train fields ``--resume`` may change: limits and intervals, this task's own included."""
        return RESUMABLE + (self.train_settings.RESUMABLE if self.train_settings else ())
