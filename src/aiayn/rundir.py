"""The layout of a run directory, in one place::

    RUN/config.json               model and training configuration, data sources
    RUN/spm.model                 the joint sentencepiece vocabulary
    RUN/log.jsonl                 every figure the trainer printed, one JSON object per line
    RUN/state.safetensors         full training state for --resume (weights, Adam, RNG, data position)
    RUN/best.safetensors          weights with the best validation BLEU (or loss)
    RUN/checkpoints/step-N.safetensors   weights every save_every steps (the last keep_last kept)
    RUN/average-last-K.safetensors       written by `aiayn average`
"""

from __future__ import annotations

import re
from pathlib import Path

from .io.checkpoint import CheckpointError


class RunDir:
    def __init__(self, path: str | Path):
        self.path = Path(path)
        self.config = self.path / "config.json"
        self.tokenizer = self.path / "spm.model"
        self.log = self.path / "log.jsonl"
        self.state = self.path / "state.safetensors"
        self.best = self.path / "best.safetensors"
        self.checkpoints = self.path / "checkpoints"

    def checkpoint(self, step: int) -> Path:
        return self.checkpoints / f"step-{step:08d}.safetensors"

    def list_checkpoints(self) -> list[Path]:
        """Step checkpoints, oldest first."""
        found = [p for p in self.checkpoints.glob("step-*.safetensors") if re.fullmatch(r"step-\d+\.safetensors", p.name)]
        return sorted(found)

    def holds_run(self) -> bool:
        return self.config.exists() or self.state.exists()

    def model_file(self) -> Path:
        """The weights to translate with: best, else the newest step checkpoint."""
        if self.best.exists():
            return self.best
        checkpoints = self.list_checkpoints()
        if checkpoints:
            return checkpoints[-1]
        raise CheckpointError(f"{self.path} holds no model: train one with `aiayn train --out {self.path}`")


def tokenizer_for(model_file: Path) -> Path:
    """A weights file's vocabulary: spm.model beside it, or in the run directory above checkpoints/."""
    for folder in (model_file.parent, model_file.parent.parent):
        if (folder / "spm.model").exists():
            return folder / "spm.model"
    raise CheckpointError(f"no spm.model beside {model_file} or in its run directory")
