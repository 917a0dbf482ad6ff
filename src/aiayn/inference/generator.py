"""Generate with a trained decoder-only model: continue primers, or start from nothing (the Music and
Image Transformers' sampling).

Music comes out of ``Generator.generate`` as token lists; turning them into files is the caller's
business (``aiayn.data.music.write_midi``, ``aiayn.plots.music``). Digits are sampled by the images
task with ``aiayn.decoding.sample`` directly.
"""

from __future__ import annotations

from pathlib import Path

import torch

from ..decoding import prompt_batch, sample
from ..errors import UsageError
from ..io.checkpoint import CheckpointError
from ..io.loader import load
from ..io.registry import capabilities
from ..model import LanguageModel


class Generator:
    """A decoder-only model ready to sample. ``Generator.load(run_dir).generate([[]], length=256)``."""

    def __init__(self, model: LanguageModel, device: str | torch.device = "cpu"):
        self.device = torch.device(device)
        self.model = model.to(self.device).eval()

    @classmethod
    def load(cls, path: str | Path, device: str | torch.device = "cpu") -> Generator:
        """``path``: a run directory (its best model) or one ``.safetensors`` weights file."""
        loaded = load(path)
        model, model_file = loaded.model, loaded.model_file
        if not capabilities(model.config).generate:
            raise CheckpointError(f"{model_file} holds a {model.architecture} model; generate needs a decoder-only "
                                  "one (translate with `aiayn translate`)")
        return cls(model, device)

    def generate(self, primers: list[list[int]], length: int, temperature: float = 1.0, top_k: int = 0,
                 top_p: float = 1.0, seed: int | None = None, classes: list[int] | None = None,
                 rule=None) -> list[list[int]]:
        """Each primer followed by up to ``length`` sampled tokens (fewer where the model ends the piece);
        ``rule`` (``aiayn.decoding.greedy.Rule``) rules out tokens given what came before.

        Primers of different lengths are decoded together (left-padded). With learned positions,
        primer + length must fit in the model's positions.
        """
        cfg = self.model.config
        if length < 1:
            raise UsageError(f"length must be at least 1 token, got {length}")
        longest = max(map(len, primers)) + 1 + length
        if cfg.positional == "learned" and longest > cfg.max_positions:
            raise UsageError(f"primer + length needs {longest} positions; the model has {cfg.max_positions}: "
                             "shorten the primer or the length")
        prompt = prompt_batch(primers, cfg.bos_id, cfg.pad_id, self.device)
        cond = None if classes is None else torch.tensor(classes, device=self.device)
        hyps = sample(self.model, cond, max_len=length + 1, temperature=temperature, top_k=top_k, top_p=top_p,
                      seed=seed, prompt=prompt, rule=rule)
        return [list(p) + h.tokens for p, h in zip(primers, hyps)]
