"""One loader: a ``--model`` (a run directory or a weights file) -> the weights, their metadata,
the model, and the run's files found beside them (``aiayn.tasks.load_trained`` adds the task check).

A run directory holds best.safetensors, checkpoints/step-N.safetensors, config.json and, for
translation, spm.model; a weights file copied out of a run may carry those files beside it. The
search "beside the weights, else the run directory above checkpoints/" is written here only.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from torch import nn

from .checkpoint import CheckpointError
from .registry import load_model
from .rundir import CONFIG, TOKENIZER, model_file_of, read_config


def beside(model_file: Path, name: str) -> Path | None:
    """The run's file ``name`` beside the weights, or in the run directory above checkpoints/."""
    for folder in (model_file.parent, model_file.parent.parent):
        if (folder / name).is_file():
            return folder / name
    return None


def run_config(model_file: Path) -> dict[str, Any] | None:
    """The run's config.json (model, train and data settings) found ``beside`` the weights, or None
    for a lone weights file; a damaged one is a CheckpointError."""
    path = beside(model_file, CONFIG)
    if path is None:
        return None
    try:
        return read_config(path)
    except (OSError, ValueError) as e:
        raise CheckpointError(f"{path} is damaged ({e}); restore it from the run it came from") from None


def data_settings(model_file: Path) -> dict[str, Any]:
    """The ``data`` section of the run's config.json ({} when there is none)."""
    data = (run_config(model_file) or {}).get("data")
    return data if isinstance(data, dict) else {}


@dataclass
class Loaded:
    """A model as a ``--model`` names it."""

    model_file: Path
    meta: dict[str, Any]  # the file's metadata: architecture, model_config, task (files since tasks had names)
    model: nn.Module

    @property
    def tokenizer_file(self) -> Path | None:
        """The run's sentencepiece vocabulary ``beside`` the weights (None: the model reads no text)."""
        return beside(self.model_file, TOKENIZER)

    def run_config(self) -> dict[str, Any] | None:
        return run_config(self.model_file)

    def data_settings(self) -> dict[str, Any]:
        return data_settings(self.model_file)


def load(path: str | Path) -> Loaded:
    """The model a ``--model`` names (on the CPU, in eval mode)."""
    model_file = model_file_of(path)
    model, meta = load_model(model_file)
    return Loaded(model_file, meta, model.eval())
