"""The one training path of every task: a new run is checked, claimed, started and built; a resumed
run is rebuilt from its recorded settings. Then the trainer fits, and ``report`` says what to do next."""

from __future__ import annotations

import contextlib
import dataclasses
import logging
from pathlib import Path
from typing import Any

from .. import tasks
from ..errors import UsageError
from ..io.checkpoint import read_header
from ..io.rundir import RunDir, model_file_of
from ..tasks import Setup, Task
from ..tasks.spec import load_trained, task_name
from ..training import distributed as D
from ..training.config import TrainConfig
from ..training.trainer import Interrupted, Trainer, stop_on_signals
from . import plan as P

log = logging.getLogger("aiayn")
REGULARISATION = ("dropout", "attention_dropout", "activation_dropout")  # what --init's model may change


@dataclasses.dataclass
class TrainRequest:
    """What ``aiayn train`` is asked to do. ``out``: the run directory (see ``RunDir``).

    ``task``: a name of ``aiayn.tasks.registry()`` (default ``aiayn.tasks.DEFAULT``); a resumed run
    keeps its own. ``options``: the task's own train options by name (None: not given), its data:
    translation's train, valid, src, tgt, vocab; parsing's train, valid (``Task.options["train"]``);
    refused for a task that does not read them. ``preset`` < ``config_file`` < ``overrides``
    ({"model.FIELD" or "train.FIELD": value}) make the settings.
    ``progress``: a tqdm-like factory for the progress bar (``aiayn.progress``); None shows nothing.
    ``data``: data settings of a built-in task that differ from its defaults (``Task.data``).
    ``arch``: the model family, for a task with several (``Task.archs``; default: its first).
    ``init``: a trained model of the same task and shape (a ``--model``) whose weights a new run starts
    from, with a fresh optimizer and schedule: fine-tuning.
    """

    out: str | Path
    preset: str | None = None
    config_file: str | None = None
    overrides: dict[str, Any] = dataclasses.field(default_factory=dict)
    resume: bool = False
    device: str | None = None
    task: str | None = None
    progress: Any = None
    data: dict[str, Any] | None = None
    arch: str | None = None
    init: str | Path | None = None
    options: dict[str, Any] = dataclasses.field(default_factory=dict)  # the task's own: train=, valid= ...


def train(request: TrainRequest | str | Path, **fields: Any) -> RunDir:
    """Trains a model as ``request`` says (or ``TrainRequest(out, **fields)``, where a field that is not
    TrainRequest's is a task option: ``train(out, train="data/train.tsv", valid=...)``); returns its run
    directory.

    Settings and data are checked before anything is written; one process at a time owns the run.
    SIGINT or SIGTERM saves the training state after the current step and raises ``Interrupted``.
    """
    r = request if isinstance(request, TrainRequest) else _request(request, fields)
    run, world = RunDir(r.out), D.init_world(r.device)
    if r.resume and r.init:
        raise UsageError("--init starts a new run from a model's weights; drop it to resume the run in --out")
    if r.resume and not run.path.is_dir():
        raise UsageError(f"nothing to resume: {r.out} does not exist; train without --resume to start a run there")
    task = tasks.get(P.resumed_task(run, r.task) if r.resume else r.task or tasks.DEFAULT)
    given = P.data_options(task, r.options, r.arch, r.resume)
    new = None if r.resume else P.plan(task, r.preset, r.config_file, r.overrides, r.data, given, r.arch)
    if r.init:  # checked before anything is written; the fields the data fixes (a vocabulary's size) once known
        _check_init(r.init, task, new.model.to_dict(), unknown=task.fixed_by_start)
    with run.owned() if world.is_main else contextlib.nullcontext():  # everything above was checked, nothing written
        try:
            P.check_resumable(run) if r.resume else P.claim_new(run, world, log)
            setup = Setup(run, world, r.progress, r.resume)
            trainer, record = _resume(setup, task, r, given) if r.resume else _start(setup, task, new, r.init)
            if world.is_main:  # written once the whole run is known to be consistent
                run.write_config(record)
            with stop_on_signals(trainer):
                trainer.fit()
        finally:
            D.shutdown(world)
    if trainer.stop_signal is not None:
        raise Interrupted(trainer.stop_signal, trainer.step, run.path)
    return run


def _request(out: str | Path, fields: dict[str, Any]) -> TrainRequest:
    """``TrainRequest(out, **fields)``, the fields that are not its own being the task's options."""
    own = {f.name for f in dataclasses.fields(TrainRequest)}
    options = {k: v for k, v in fields.items() if k not in own}
    return TrainRequest(out, **{k: v for k, v in fields.items() if k in own},
                        options={**fields.get("options", {}), **options})


def _start(setup: Setup, task: Task, plan: P.Plan, init: str | Path | None = None):
    """A new run in ``setup.run`` (claimed by now): what the task writes first, the model (from ``init``'s
    weights, if given), the data."""
    model_cfg = plan.model
    if task.fixed_by_start:
        fixed = task.start(setup, plan.data, plan.train)  # e.g. the vocabulary: its size fixes the embeddings
        try:
            model_cfg = task.config(plan.preset, {**plan.model_fields, **fixed}, plan.arch)
        except ValueError as e:
            raise UsageError(f"the model config does not fit the data: {e}") from None
    trainer = _trainer(setup, task, model_cfg, plan.train, plan.data)
    start = {"init": str(_load_init(trainer, task, init))} if init else {}
    if setup.world.is_main:
        summary = trainer.objective.summary
        log.info("training %s %s (%s parameters) %sinto %s", task.name, plan.preset,
                 f"{trainer.model.num_parameters():,}", f"{summary} " if summary else "", setup.run.path)
    arch = {"arch": plan.arch} if task.archs else {}
    return trainer, {"task": task.name, "preset": plan.preset, **arch, "architecture": trainer.model.architecture,
                     "model": model_cfg.to_dict(), "train": plan.train.to_dict(), "data": plan.data, **start}


def _check_init(init: str | Path, task: Task, model: dict[str, Any], unknown: tuple[str, ...] = ()) -> Path:
    """The weights file ``init`` names, if it holds a model of ``task`` with the config ``model`` (dropout and the
    fields ``unknown`` yet aside); a UsageError otherwise. Reads the file's header only."""
    model_file = model_file_of(init)
    meta = read_header(model_file)[1]
    if task_name(meta) != task.name:
        raise UsageError(f"--init {init} holds a {task_name(meta)} model, not a {task.name} model")
    theirs = meta.get("model_config") or {}
    differ = [f"model.{k}={theirs.get(k)!r}, not {v!r}" for k, v in model.items()
              if k not in REGULARISATION + unknown and theirs.get(k) != v]
    if differ:
        raise UsageError(f"--init {init} was trained with {'; '.join(differ)}: set those (--set) or drop --init")
    return model_file


def _load_init(trainer: Trainer, task: Task, init: str | Path) -> Path:
    """Copies the weights of the model ``init`` names into the trainer's model; returns its weights file."""
    model_file = _check_init(init, task, trainer.model_cfg.to_dict())
    trainer.model.load_state_dict(load_trained(model_file, (task.name,)).model.state_dict())
    log.info("starting from the weights of %s", model_file)
    return model_file


def _resume(setup: Setup, task: Task, r: TrainRequest, given: dict[str, Any]):
    """The saved run on the saved data; only limits and intervals may change (written to the log)."""
    saved = P.saved_config(setup.run)
    data = {**task.data, **saved["data"]}  # settings added since the run was written keep their defaults
    P.check_same_data(data, given, r.data or {})
    model_cfg, train_cfg, changed = P.resumed_config(setup.run, saved, task, r.preset, r.config_file, r.overrides)
    trainer = _trainer(setup, task, model_cfg, train_cfg, data)
    trainer.resume(changed)
    return trainer, {**saved, "train": train_cfg.to_dict()}


def _trainer(setup: Setup, task: Task, model_cfg, train_cfg: TrainConfig, data: dict[str, Any]) -> Trainer:
    return Trainer(setup.run, model_cfg, train_cfg, task.build(setup, model_cfg, train_cfg, data), setup.world,
                   task_name=task.name, progress=setup.progress)


def report(run: RunDir | str | Path, progress=None) -> str:
    """What to do with the finished run in ``run``, in its task's words (translation scores it first,
    with a bar from ``progress``, a tqdm-like factory; None shows nothing)."""
    run = run if isinstance(run, RunDir) else RunDir(run)
    config = run.read_config()
    return training_summary(run) + tasks.get(config.get("task", tasks.DEFAULT)).report(run.path, config, progress)


def training_summary(run: RunDir) -> str:
    """One line: the updates made, in how much training time, in which precision, at what speed."""
    steps = run.events("train")
    if not steps:
        return ""
    last = steps[-1]
    speed = f", {last['tgt_tok_s']:,.0f} target tokens/s at the end" if last.get("tgt_tok_s") else ""
    return (f"\nTrained {last['step']:,} updates in {last.get('elapsed', 0) / 60:.1f} min of training "
            f"({last.get('precision', 'fp32')}{speed})\n")
