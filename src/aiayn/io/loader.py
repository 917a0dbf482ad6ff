"""One loader: a ``--model`` (a run directory or a weights file) -> the weights, their metadata,
the task they were trained for, the model, and the run's files found beside them.

A run directory holds best.safetensors, checkpoints/step-N.safetensors, config.json and, for
translation, spm.model; a weights file copied out of a run may carry those files beside it. The
search "beside the weights, else the run directory above checkpoints/" is written here only.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from torch import nn

from .checkpoint import CheckpointError, read_header
from .registry import load_model
from .rundir import model_file_of


def beside(model_file: Path, name: str) -> Path | None:
    """The run's file ``name`` beside the weights, or in the run directory above checkpoints/."""
    for folder in (model_file.parent, model_file.parent.parent):
        if (folder / name).is_file():
            return folder / name
    return None


def task_of(meta: dict[str, Any]) -> str:
    """The task a weights file was trained for; files written before tasks had names hold translation,
    or music when decoder-only (the only decoder-only task then)."""
    return meta.get("task") or ("music" if meta.get("architecture") == "decoder_only" else "translation")


def model_task(path: str | Path) -> str:
    """The task of the model a ``--model`` names, read from the file's header (no weights loaded)."""
    _, meta = read_header(model_file_of(path))
    return task_of(meta)


@dataclass
class Loaded:
    """A model as a ``--model`` names it."""

    model_file: Path
    meta: dict[str, Any]
    task: str
    model: nn.Module

    def run_config(self) -> dict[str, Any] | None:
        """The run's config.json (model, train and data settings), or None for a lone weights file."""
        path = beside(self.model_file, "config.json")
        if path is None:
            return None
        try:
            config = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as e:
            raise CheckpointError(f"{path} is damaged ({e}); restore it from the run it came from") from None
        return config if isinstance(config, dict) else None

    def data_settings(self) -> dict[str, Any]:
        """The ``data`` section of the run's config.json ({} when there is none)."""
        data = (self.run_config() or {}).get("data")
        return data if isinstance(data, dict) else {}


def load(path: str | Path, tasks: tuple[str, ...] | None = None, use: str | None = None) -> Loaded:
    """The model a ``--model`` names (on the CPU, in eval mode). ``tasks``: the tasks the caller can
    serve; another is a CheckpointError that says ``use`` (what to do instead) when given."""
    model_file = model_file_of(path)
    _, meta = read_header(model_file)
    task = task_of(meta)
    if tasks is not None and task not in tasks:
        raise CheckpointError(f"{model_file} holds a {task} model, not a {' or '.join(tasks)} model"
                              + (f": {use}" if use else ""))
    model, meta = load_model(model_file)
    return Loaded(model_file, meta, task, model.eval())
