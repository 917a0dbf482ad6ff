"""What a task is: everything the command line and the trainer need to know about one kind of model,
in one record. Each task module under ``tasks/`` defines one ``Task``; ``aiayn.tasks.registry()``
lists them. Nothing outside ``tasks/`` asks for a task by name.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..decoding.options import DecodeOptions
from ..io.checkpoint import CheckpointError, read_header
from ..io.loader import Loaded, load
from ..io.registry import task_name
from ..io.rundir import RunDir, model_file_of
from ..training.config import RESUMABLE, TrainConfig
from ..training.distributed import World
from ..training.objective import Objective, missing_members
from .requests import EvaluateRequest, GenerateRequest


def model_task_name(path: str | Path) -> str:
    """The task of the model a ``--model`` names, read from the file's header (no weights loaded)."""
    return task_name(read_header(model_file_of(path))[1])


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


def default_report(run_dir: Path, config: dict[str, Any], progress=None) -> str:
    """What to do with a finished run: the commands its task's models take (``Task.verbs``), no others."""
    from . import DEFAULT, get  # the registry sits above this module

    verbs = get(config.get("task", DEFAULT)).verbs
    return "\n".join([f"\nModel: {run_dir}  (best: {run_dir / 'best.safetensors'})",
                      *(NEXT_STEPS[v].format(run=run_dir) for v in verbs if v in NEXT_STEPS)])


@dataclass(frozen=True)
class Setup:
    """Where a run's data is built: its directory, the processes training it, a progress-bar factory
    (None: nothing shown), and whether the run is resumed (its directory holds what it wrote first)."""

    run: RunDir
    world: World
    progress: Any = None
    resume: bool = False


@dataclass(frozen=True)
class Task:
    """One task: its presets, its training data and objective, and what its models do.

    The one training path (``aiayn.runs.train``) calls, for a new run: ``prepare(data)``
    before anything is written (the data settings checked and completed, and the model-config fields
    the data fixes, such as a vocabulary's size); ``start(setup, data, train_config)`` once the run
    directory is claimed (fields it fixes from what it writes there: translation's vocabulary); and
    ``build(setup, model_config, train_config, data)`` for what the trainer trains: an instance of
    ``objective``, a class with every member of ``aiayn.training.objective.Objective`` (checked here,
    when the task is made). A resumed run calls ``build`` alone, with its recorded data settings.
    ``build`` may add to ``data`` what a resume must find unchanged (translation: the training text's
    fingerprint).
    What its models are for is data too: ``verbs``, the commands that take them (``aiayn VERB``),
    in the order errors name them; ``evaluate`` and ``generate``, when given, and each of
    ``commands`` are among them whether listed or not, and a listed one of these must be given.
    ``archs``: model families by name (``--arch``), each ``(preset, **fields) -> config``; without
    them the model is ``model_config(**preset_fields, **fields)``.
    On the command line the options every task shares stay in ``aiayn.app.cli``; ``options`` adds
    those only this task reads (music: --primer), ``commands`` the sub-commands it brings (parsing:
    parse), both written with ``aiayn.tasks.options``. Which of the options of a shared command it
    reads is ``reads``; ``aiayn.tasks.check_options`` refuses the others, naming who takes them.
    """

    name: str
    help: str  # one line for `aiayn train --task`'s help
    presets: dict[str, dict[str, Any]]  # model-config fields by preset name; the first is the default
    preset_help: str
    train: dict[str, Any]  # train fields that differ from the paper's defaults
    build: Callable[[Setup, Any, Any, dict[str, Any]], Objective]
    data: dict[str, Any]  # default data settings (recorded in the run)
    objective: type  # the class ``build`` returns an instance of (an ``Objective``)
    model_config: Callable[..., Any] | None = None  # model-config fields -> the model's config dataclass
    archs: dict[str, Callable[..., Any]] = field(default_factory=dict)
    arch_help: str = ""
    train_presets: dict[str, dict[str, Any]] = field(default_factory=dict)  # train fields by preset
    # a dataclass of the train settings only this task reads (translation's vocabulary size), in the run's
    # train section beside TrainConfig's; its RESUMABLE names those --resume may change
    train_settings: type | None = None
    prepare: Callable[[dict[str, Any]], tuple[dict[str, Any], dict[str, Any]]] | None = None
    start: Callable[[Setup, dict[str, Any], Any], dict[str, Any]] | None = None
    # the options this task reads, per command: groups of option dests that go together (a test set is
    # --test, --src and --tgt); an option no task reads for a command is every task's (``check_options``)
    reads: dict[str, tuple[tuple[str, ...], ...]] = field(default_factory=dict)
    audience: dict[str, str] = field(default_factory=dict)  # option dest -> words for the models that read it
    evaluate: Callable[[EvaluateRequest], str] | None = None  # what `aiayn evaluate` prints
    generate: Callable[[GenerateRequest], str] | None = None  # what `aiayn generate` prints
    # printed after `aiayn train`: (run directory, its config, a tqdm-like factory or None) -> text
    report: Callable[[Path, dict[str, Any], Any], str] = default_report
    # a trained model's figures on a split, as numbers (``aiayn experiment`` records them); None: the runner
    # scores the model by translating the split (BLEU, chrF)
    figures: Callable[[Path, str], dict[str, float]] | None = None
    decoding: DecodeOptions | None = None  # decoding defaults of evaluate and the task's commands, if it searches
    verbs: tuple[str, ...] = ()  # the commands that take this task's models (see above): translation's translate ...
    # (command, its argparse parser or group) -> adds the options this task reads to that command, if any
    options: Callable[[str, Any], None] | None = None
    # sub-commands this task brings: name -> (adds its parser to argparse's sub-parsers and returns it,
    # runs it: parsed arguments -> the text for stdout); e.g. parsing's `aiayn parse`
    commands: dict[str, tuple[Callable[[Any], Any], Callable[[Any], str]]] = field(default_factory=dict)
    default_out: str = ""  # `aiayn train`'s run directory without --out ("": runs/NAME)

    def __post_init__(self) -> None:
        if not self.default_out:
            object.__setattr__(self, "default_out", f"runs/{self.name}")  # frozen: set once, here
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
        object.__setattr__(self, "verbs", tuple(dict.fromkeys([*self.verbs, *found])))

    @property
    def uses(self) -> str:
        """The commands for this task's models, as errors name them: "aiayn evaluate / aiayn generate"."""
        return " / ".join(f"aiayn {verb}" for verb in self.verbs)

    def supports(self, verb: str) -> bool:
        """Whether ``aiayn VERB`` takes this task's models."""
        return verb in self.verbs

    def reads_for(self, command: str) -> tuple[str, ...]:
        """The option dests this task reads for ``aiayn command``."""
        return tuple(dest for group in self.reads.get(command, ()) for dest in group)

    def group_of(self, command: str, dest: str) -> tuple[str, ...]:
        """The options read together with ``dest`` for ``aiayn command`` (``dest`` alone if none)."""
        return next((group for group in self.reads.get(command, ()) if dest in group), (dest,))

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
