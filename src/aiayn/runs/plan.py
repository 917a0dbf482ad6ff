"""What a run directory may become before anything is written: a new run's plan (preset < config file
< overrides, the data settings, the model family), or a resumed run's recorded settings with the
fields ``--resume`` lets change. Everything here checks; nothing here writes."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

from .. import tasks
from ..errors import UsageError
from ..io.checkpoint import CheckpointError
from ..io.registry import model_class
from ..io.rundir import RunDir
from ..tasks import Task
from ..training import distributed as D
from ..training.config import TrainConfig, read_settings


@dataclasses.dataclass
class Plan:
    """A new run, checked: its preset, model family, settings and data settings."""

    preset: str
    arch: str | None
    model_fields: dict[str, Any]  # the user's model fields and those the data fixes
    model: Any  # the model config they make
    train: TrainConfig
    data: dict[str, Any]


def data_options(task: Task, given: dict[str, Any], arch: str | None, resume: bool) -> dict[str, Any]:
    """The task's train options given (its data: --train ... --vocab), refused where ``task`` does not read
    them; --arch too."""
    given = {name: value for name, value in given.items() if value is not None}
    tasks.check_options(task, "train", given, why=f"--task {task.name} trains on its built-in data")
    if arch is not None and (resume or arch not in task.archs):
        families = " / ".join(t.name for t in tasks.registry().values() if t.archs)
        raise UsageError(f"--arch chooses the model of a new {families} run; drop --arch {arch}"
                         + (" (a resumed run keeps its own)" if resume else
                            f" for --task {task.name}" if not task.archs else
                            f": choose one of {', '.join(task.archs)}"))
    return given


def plan(task: Task, preset, config_file, overrides, data: dict[str, Any] | None, given: dict[str, Any],
         arch: str | None) -> Plan:
    """preset < config file < overrides, and the data settings, all checked; nothing written."""
    settings = read_settings(preset, config_file, overrides, presets=task.presets)
    tasks.check_options(task, "train", settings.train, why=f"--task {task.name} does not read it")
    preset = settings.preset or task.default_preset()
    unknown = sorted(set(data or {}) - set(task.data))
    if unknown:
        raise UsageError(f"unknown {task.name} data setting {unknown[0]!r}; known: {', '.join(task.data)}")
    data, fixed = task.prepare({**task.data, **given, **(data or {})})
    fields = {**settings.model, **fixed}  # what the data fixes wins
    try:
        return Plan(preset, arch or next(iter(task.archs), None), fields, task.config(preset, fields, arch),
                    task.train_config(preset, settings.train), data)
    except ValueError as e:
        raise settings.blame(e) from None


def resumed_task(run: RunDir, given: str | None) -> str:
    """The task of the run in ``run`` (runs from before tasks had names are translation)."""
    try:
        saved = run.read_config().get("task", tasks.DEFAULT)
    except (OSError, ValueError):
        return given or tasks.DEFAULT  # saved_config reports the damage
    if given not in (None, saved):
        raise UsageError(f"{run.path} holds a {saved} run, not {given}: drop --task {given} to resume it")
    return saved


def claim_new(run: RunDir, world: D.World, log) -> None:
    """A new run may start in ``run`` (owned by now): it holds none, or one that never saved (cleared)."""
    if run.holds_run():
        raise UsageError(f"{run.path} already holds a run; pass --resume to continue it, or choose another --out")
    if run.holds_unsaved_start() and world.is_main:
        log.warning("%s holds a run that stopped before its first save; starting it again", run.path)
        run.clear_unsaved_start()


def check_resumable(run: RunDir) -> None:
    if not run.holds_run():
        hint = ("it stopped before its first save; run the same command without --resume to start it again"
                if run.holds_unsaved_start() else "it has no state.safetensors")
        raise UsageError(f"nothing to resume in {run.path}: {hint}")


def saved_config(run: RunDir) -> dict:
    try:
        saved = run.read_config()
        if not all(isinstance(saved[k], dict) for k in ("model", "train", "data")):
            raise TypeError("model, train and data must be mappings")
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise CheckpointError(f"{run.config} is missing or damaged ({e}); the run cannot be resumed") from None
    return saved


def check_same_data(data: dict[str, Any], given: dict[str, Any], settings: dict[str, Any]) -> None:
    """Data options (``given``) and data settings given on --resume must name the run's own."""
    for name, value in {**given, **settings}.items():
        if not _same(name, value, data.get(name)):
            option = f"--{name}" if name in given else f"data setting {name}"
            raise UsageError(f"{option} {value} differs from the run's {data.get(name) or '(none)'}; --resume "
                             f"continues on the run's data: drop {option}, or start a new run with another --out")


def _same(name: str, given: Any, saved: Any) -> bool:
    """A data setting given on --resume names the run's own (paths by where they lead)."""
    if name in ("train", "valid", "vocab") and isinstance(given, (str, Path)) and saved is not None:
        return Path(given).resolve() == Path(str(saved)).resolve()
    return given == saved


def resumed_config(run: RunDir, saved: dict, task: Task, preset, config_file, overrides):
    """The saved model and train config, with the train fields the user changed, if --resume allows them."""
    settings = read_settings(preset, config_file, overrides, task.presets)
    if settings.preset not in (None, saved["preset"]):
        raise UsageError(f"{run.path} was trained with preset {saved['preset']}, not {settings.preset}; "
                         "drop the preset to resume it")
    for name, value in settings.model.items():
        if saved["model"].get(name) != value:
            raise UsageError(f"{run.state} was built with a different model config: model.{name} is "
                             f"{saved['model'].get(name)!r}, not {value!r}; drop the model options to resume")
    changed = {k: [saved["train"].get(k), v] for k, v in settings.train.items() if saved["train"].get(k) != v}
    refused = sorted(set(changed) - set(task.resumable()))
    if refused:
        raise UsageError(f"cannot change train.{refused[0]} when resuming (the run has {changed[refused[0]][0]!r}); "
                         f"only {', '.join(task.resumable())} may change: drop the others, or start a new run")
    try:
        model_cfg = model_class(saved.get("architecture")).config_class.from_dict(saved["model"])
        train_cfg = TrainConfig.from_dict({**saved["train"], **{k: new for k, (_, new) in changed.items()}},
                                          task.train_settings)
    except ValueError as e:
        raise settings.blame(e) from None
    return model_cfg, train_cfg, changed
