"""One loader: a ``--model`` (a run directory or a weights file) -> the weights, their metadata,
the model, and the run's files found beside them (``aiayn.tasks.load_trained`` adds the task check).

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

from .checkpoint import CheckpointError
from .registry import load_model
from .rundir import model_file_of


def beside(model_file: Path, name: str) -> Path | None:
    """The run's file ``name`` beside the weights, or in the run directory above checkpoints/."""
    for folder in (model_file.parent, model_file.parent.parent):
        if (folder / name).is_file():
            return folder / name
    return None


@dataclass
class Loaded:
    """A model as a ``--model`` names it."""

    model_file: Path
    meta: dict[str, Any]  # the file's metadata: architecture, model_config, task (files since tasks had names)
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


def load(path: str | Path) -> Loaded:
    """The model a ``--model`` names (on the CPU, in eval mode)."""
    model_file = model_file_of(path)
    model, meta = load_model(model_file)
    return Loaded(model_file, meta, model.eval())
