"""The verbs behind the command line, as plain functions: train, translate, evaluate, average."""

from __future__ import annotations

import contextlib
import dataclasses
import logging
from pathlib import Path
from typing import Any

from .. import tasks
from ..checks import Allowed
from ..data import DataError
from ..decoding.options import DecodeOptions
from ..errors import UsageError
from ..inference.translator import Translator
from ..io.checkpoint import CheckpointError, atomic_path, average_checkpoints, check_writable
from ..io.registry import model_class
from ..io.rundir import RunDir
from ..precision import DTYPES
from ..tasks import Setup, Task
from ..training import distributed as D
from ..training.config import RESUMABLE, TrainConfig, read_settings
from ..training.trainer import Interrupted, Trainer, stop_on_signals

log = logging.getLogger("aiayn")
AVERAGE_LAST = Allowed(int, 1)  # checkpoints to average


@dataclasses.dataclass
class TrainRequest:
    """What ``aiayn train`` is asked to do. ``out``: the run directory (see ``RunDir``).

    ``task``: a name of ``aiayn.tasks.registry()`` (default ``aiayn.tasks.DEFAULT``); a resumed run
    keeps its own. ``train``/``valid``/``src_lang``/``tgt_lang``/``vocab``: data options, for the tasks
    whose ``Task.data_options`` name them. ``preset`` < ``config_file`` < ``overrides``
    ({"model.FIELD" or "train.FIELD": value}) make the settings.
    ``progress``: a tqdm-like factory for the progress bar (``aiayn.progress``); None shows nothing.
    ``data``: data settings of a built-in task that differ from its defaults (``Task.data``).
    ``arch``: the model family, for a task with several (``Task.archs``; default: its first).
    """

    out: str | Path
    train: str | None = None
    valid: str | None = None
    src_lang: str | None = None
    tgt_lang: str | None = None
    preset: str | None = None
    config_file: str | None = None
    overrides: dict[str, Any] = dataclasses.field(default_factory=dict)
    resume: bool = False
    vocab: str | None = None
    device: str | None = None
    task: str | None = None
    progress: Any = None
    data: dict[str, Any] | None = None
    arch: str | None = None


def train(request: TrainRequest | str | Path, **fields: Any) -> RunDir:
    """Trains a model as ``request`` says (or ``TrainRequest(out, **fields)``); returns its run directory.

    Settings and data are checked before anything is written; one process at a time owns the run.
    SIGINT or SIGTERM saves the training state after the current step and raises ``Interrupted``.
    """
    r = request if isinstance(request, TrainRequest) else TrainRequest(request, **fields)
    run, world = RunDir(r.out), D.init_world(r.device)
    if r.resume and not run.path.is_dir():
        raise UsageError(f"nothing to resume: {r.out} does not exist; train without --resume to start a run there")
    task = tasks.get(_resumed_task(run, r.task) if r.resume else r.task or tasks.DEFAULT)
    given = _data_options(task, r)
    plan = None if r.resume else _plan(task, r, given)  # everything checked before anything is written
    with run.owned() if world.is_main else contextlib.nullcontext():
        try:
            _check_resumable(run) if r.resume else _claim_new(run, world)
            setup = Setup(run, world, r.progress, r.resume)
            trainer, record = _resume(setup, task, r, given) if r.resume else _start(setup, task, plan)
            if world.is_main:  # written once the whole run is known to be consistent
                run.write_config(record)
            with stop_on_signals(trainer):
                trainer.fit()
        finally:
            D.shutdown(world)
    if trainer.stop_signal is not None:
        raise Interrupted(trainer.stop_signal, trainer.step, run.path)
    return run


@dataclasses.dataclass
class Plan:
    """A new run, checked: its preset, model family, settings and data settings."""

    preset: str
    arch: str | None
    model_fields: dict[str, Any]  # the user's model fields and those the data fixes
    model: Any  # the model config they make
    train: TrainConfig
    data: dict[str, Any]


def _data_options(task: Task, r: TrainRequest) -> dict[str, Any]:
    """The data options given (--train ... --vocab), refused where ``task`` does not read them; --arch too."""
    options = {"train": r.train, "valid": r.valid, "src": r.src_lang, "tgt": r.tgt_lang, "vocab": r.vocab}
    given = {name: value for name, value in options.items() if value is not None}
    for name in given:
        if name not in task.data_options:
            readers = " and ".join(t.name for t in tasks.registry().values() if name in t.data_options)
            raise UsageError(f"--{name} is for {readers}; --task {task.name} trains on its built-in data: "
                             f"drop --{name}")
    if r.arch is not None and (r.resume or r.arch not in task.archs):
        families = " / ".join(t.name for t in tasks.registry().values() if t.archs)
        raise UsageError(f"--arch chooses the model of a new {families} run; drop --arch {r.arch}"
                         + (" (a resumed run keeps its own)" if r.resume else
                            f" for --task {task.name}" if not task.archs else
                            f": choose one of {', '.join(task.archs)}"))
    return given


def _plan(task: Task, r: TrainRequest, given: dict[str, Any]) -> Plan:
    """preset < config file < overrides, and the data settings, all checked; nothing written."""
    settings = read_settings(r.preset, r.config_file, r.overrides, presets=task.presets)
    preset = settings.preset or task.default_preset()
    unknown = sorted(set(r.data or {}) - set(task.data))
    if unknown:
        raise UsageError(f"unknown {task.name} data setting {unknown[0]!r}; known: {', '.join(task.data)}")
    data, fixed = (task.prepare or (lambda d: (d, {})))({**task.data, **given, **(r.data or {})})
    fields = {**settings.model, **fixed}  # what the data fixes wins
    try:
        return Plan(preset, r.arch or next(iter(task.archs), None), fields, task.config(preset, fields, r.arch),
                    task.train_config(preset, settings.train), data)
    except ValueError as e:
        raise settings.blame(e) from None


def _start(setup: Setup, task: Task, plan: Plan):
    """A new run in ``setup.run`` (claimed by now): what the task writes first, the model, the data."""
    model_cfg = plan.model
    if task.start is not None:
        fixed = task.start(setup, plan.data, plan.train)  # e.g. the vocabulary: its size fixes the embeddings
        try:
            model_cfg = task.config(plan.preset, {**plan.model_fields, **fixed}, plan.arch)
        except ValueError as e:
            raise UsageError(f"the model config does not fit the data: {e}") from None
    trainer = _trainer(setup, task, model_cfg, plan.train, plan.data)
    if setup.world.is_main:
        log.info("training %s %s (%s parameters) %sinto %s", task.name, plan.preset,
                 f"{trainer.model.num_parameters():,}", getattr(trainer.task, "summary", "") + " ", setup.run.path)
    arch = {"arch": plan.arch} if task.archs else {}
    return trainer, {"task": task.name, "preset": plan.preset, **arch, "architecture": trainer.model.architecture,
                     "model": model_cfg.to_dict(), "train": plan.train.to_dict(), "data": plan.data}


def _resume(setup: Setup, task: Task, r: TrainRequest, given: dict[str, Any]):
    """The saved run on the saved data; only limits and intervals may change (written to the log)."""
    run = setup.run
    saved = _saved_config(run)
    data = {**task.data, **saved["data"]}  # settings added since the run was written keep their defaults
    for name, value in {**given, **(r.data or {})}.items():
        if not _same(name, value, data.get(name)):
            option = f"--{name}" if name in given else f"data setting {name}"
            raise UsageError(f"{option} {value} differs from the run's {data.get(name) or '(none)'}; --resume "
                             f"continues on the run's data: drop {option}, or start a new run with another --out")
    model_cfg, train_cfg, changed = _resumed_config(run, saved, r.preset, r.config_file, r.overrides, task.presets)
    trainer = _trainer(setup, task, model_cfg, train_cfg, data)
    trainer.resume(changed)
    return trainer, {**saved, "train": train_cfg.to_dict()}


def _trainer(setup: Setup, task: Task, model_cfg, train_cfg: TrainConfig, data: dict[str, Any]) -> Trainer:
    built = task.build(setup, model_cfg, train_cfg, data)
    return Trainer(setup.run, model_cfg, train_cfg, built, setup.world, getattr(built, "fingerprint", None),
                   has_valid=getattr(built, "has_valid", True), task_name=task.name, progress=setup.progress)


def _resumed_task(run: RunDir, given: str | None) -> str:
    """The task of the run in ``run`` (runs from before tasks had names are translation)."""
    try:
        saved = run.read_config().get("task", tasks.DEFAULT)
    except (OSError, ValueError):
        return given or tasks.DEFAULT  # _resume reports the damage
    if given not in (None, saved):
        raise UsageError(f"{run.path} holds a {saved} run, not {given}: drop --task {given} to resume it")
    return saved


def _claim_new(run: RunDir, world: D.World) -> None:
    """A new run may start in ``run`` (owned by now): it holds none, or one that never saved (cleared)."""
    if run.holds_run():
        raise UsageError(f"{run.path} already holds a run; pass --resume to continue it, or choose another --out")
    if run.holds_unsaved_start() and world.is_main:
        log.warning("%s holds a run that stopped before its first save; starting it again", run.path)
        run.clear_unsaved_start()


def _check_resumable(run: RunDir) -> None:
    if not run.holds_run():
        hint = ("it stopped before its first save; run the same command without --resume to start it again"
                if run.holds_unsaved_start() else "it has no state.safetensors")
        raise UsageError(f"nothing to resume in {run.path}: {hint}")


def _saved_config(run: RunDir) -> dict:
    try:
        saved = run.read_config()
        if not all(isinstance(saved[k], dict) for k in ("model", "train", "data")):
            raise TypeError("model, train and data must be mappings")
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise CheckpointError(f"{run.config} is missing or damaged ({e}); the run cannot be resumed") from None
    return saved


def _same(name: str, given: Any, saved: Any) -> bool:
    """A data setting given on --resume names the run's own (paths by where they lead)."""
    if name in ("train", "valid", "vocab") and isinstance(given, (str, Path)) and saved is not None:
        return Path(given).resolve() == Path(str(saved)).resolve()
    return given == saved


def _resumed_config(run: RunDir, saved: dict, preset, config_file, overrides, presets):
    """The saved model and train config, with the train fields the user changed, if --resume allows them."""
    settings = read_settings(preset, config_file, overrides, presets)
    if settings.preset not in (None, saved["preset"]):
        raise UsageError(f"{run.path} was trained with preset {saved['preset']}, not {settings.preset}; "
                         "drop the preset to resume it")
    for name, value in settings.model.items():
        if saved["model"].get(name) != value:
            raise UsageError(f"{run.state} was built with a different model config: model.{name} is "
                             f"{saved['model'].get(name)!r}, not {value!r}; drop the model options to resume")
    changed = {k: [saved["train"].get(k), v] for k, v in settings.train.items() if saved["train"].get(k) != v}
    refused = sorted(set(changed) - set(RESUMABLE))
    if refused:
        raise UsageError(f"cannot change train.{refused[0]} when resuming (the run has {changed[refused[0]][0]!r}); "
                         f"only {', '.join(RESUMABLE)} may change: drop the others, or start a new run")
    try:
        model_cfg = model_class(saved.get("architecture")).config_class.from_dict(saved["model"])
        train_cfg = TrainConfig.from_dict({**saved["train"], **{k: new for k, (_, new) in changed.items()}})
    except ValueError as e:
        raise settings.blame(e) from None
    return model_cfg, train_cfg, changed


def report(run: RunDir) -> str:
    """What to do with the finished run in ``run``, in its task's words (translation scores it first)."""
    config = run.read_config()
    return tasks.get(config.get("task", tasks.DEFAULT)).report(run.path, config)


def translate_lines(model: str | Path, lines: list[str], options: DecodeOptions, device: str = "cpu",
                    progress=None, dtype: str = "float32") -> list[list[tuple[str, float]]]:
    return Translator.load(model, device, DTYPES[dtype]).translate_nbest(lines, options, progress=progress)


@dataclasses.dataclass
class AttentionRequest:
    """What ``aiayn attention`` is asked to do: plot one layer's attention of ``text``'s translation
    into the PNG ``out``. ``kind``: one of ``aiayn.inference.attention_maps.KINDS``; ``layer``:
    1-based, or negative from the last."""

    model: str | Path
    text: str
    out: str | Path = "attention.png"
    kind: str = "cross"
    layer: int = -1
    beam_size: int = 4
    device: str = "cpu"


def attention(r: AttentionRequest) -> str:
    """Plots the attention ``r`` asks for; returns the translation."""
    from ..plots.attention import plot_attention  # matplotlib: only this command needs it

    if not r.text.strip():
        raise UsageError("--text is empty: give the sentence to translate, e.g. --text 'God is love.'")
    translator = Translator.load(r.model, r.device)
    cfg = translator.model.config
    n_layers = getattr(cfg, "n_encoder_layers" if r.kind == "encoder" else "n_decoder_layers", 1)  # RNNsearch: one
    if not (1 <= r.layer <= n_layers or -n_layers <= r.layer <= -1):
        raise UsageError(f"--layer {r.layer} is out of range: this model has {n_layers} {r.kind} attention layer(s); "
                         f"choose 1 to {n_layers}, or -1 for the last")
    check_writable(Path(r.out), "--out")
    with atomic_path(Path(r.out)) as tmp:  # a full disk leaves no half-written picture
        return plot_attention(translator, r.text, tmp, r.kind, r.layer - 1 if r.layer > 0 else r.layer, r.beam_size)


def average(model: str | Path, last: int) -> Path:
    """§6.1: averages the last ``last`` step checkpoints of a run into average-last-K.safetensors."""
    AVERAGE_LAST.check("--last", last)
    run = RunDir(model)
    if not run.path.is_dir():
        raise UsageError(f"no run at {model}: --model must be a run directory, e.g. runs/tiny")
    found = run.list_checkpoints()
    if len(found) < last:
        fix = (f"average at most --last {len(found)}, or train longer" if found else
               "train until a checkpoint is saved (train.save_every), then average")
        raise UsageError(f"{model} has {len(found)} step checkpoint{'s' if len(found) != 1 else ''}; cannot average "
                         f"the last {last}: {fix} (train.keep_last sets how many a run keeps)")
    out = run.path / f"average-last-{last}.safetensors"
    average_checkpoints(found[-last:], out)
    return out


__all__ = ["AttentionRequest", "DataError", "Interrupted", "TrainRequest", "UsageError", "attention", "average", "report", "train",
           "translate_lines"]
