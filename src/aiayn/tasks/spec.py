"""What a task is: everything the command line and the trainer need to know about one kind of model,
in one record. Each task module under ``tasks/`` defines one ``Task``; ``aiayn.tasks.registry()``
lists them. Nothing outside ``tasks/`` asks for a task by name.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..decoding.options import DecodeOptions
from .requests import EvaluateRequest, GenerateRequest


def default_report(run_dir: Path, config: dict[str, Any]) -> str:
    """What to do with a finished run of a task scored by NLL and sampled by ``aiayn generate``."""
    return (f"\nModel: {run_dir}  (best: {run_dir / 'best.safetensors'})\n"
            f"Score its test NLL: aiayn evaluate --model {run_dir}\n"
            f"Write samples: aiayn generate --model {run_dir} --out samples/")


@dataclass(frozen=True)
class Task:
    """One task: its presets, its training data and objective (``build``), and what its models do.

    ``build(model_config, train_config, data, progress)`` returns the object the trainer uses
    (batches, ``loss``, ``validate``, ``metric``, ``describe``; see ``aiayn.training.trainer``);
    ``data`` holds the data settings (defaults updated by the caller; recorded in the run).
    ``prepare`` (for data that fixes part of the model, such as a vocabulary): a new run's data
    settings -> (the settings completed, recorded in the run; the model-config fields they fix).
    ``build`` None: the task reads the user's parallel text (translation; see ``aiayn.app.commands``).
    """

    name: str
    help: str  # one line for `aiayn train --task`'s help
    presets: dict[str, dict[str, Any]]  # model-config fields by preset name; the first is the default
    preset_help: str
    train: dict[str, Any]  # TrainConfig fields that differ from the paper's defaults
    model_config: Callable[..., Any]  # model-config fields -> the model's config dataclass
    build: Callable[[Any, Any, dict[str, Any], Any], Any] | None
    data: dict[str, Any]  # default data settings
    prepare: Callable[[dict[str, Any]], tuple[dict[str, Any], dict[str, Any]]] | None = None
    data_options: tuple[str, ...] = ()  # --train/--valid/--src/--tgt/--vocab: which this task reads
    evaluate: Callable[[EvaluateRequest], str] | None = None  # what `aiayn evaluate` prints
    generate: Callable[[GenerateRequest], str] | None = None  # what `aiayn generate` prints
    report: Callable[[Path, dict[str, Any]], str] = default_report  # printed after `aiayn train`
    decoding: DecodeOptions | None = None  # evaluate's decoding defaults, for tasks that search
    uses: str = "aiayn evaluate"  # the commands for this task's models, named in errors

    def config(self, preset: str | None, fields: dict[str, Any]):
        return self.model_config(**{**self.presets[preset or next(iter(self.presets))], **fields})
