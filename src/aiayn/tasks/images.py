"""Images pixel by pixel (Image Transformer, Parmar et al. 2018) on scikit-learn's 8×8 digits.

Legend: N images, P = 64 pixels (raster order), B images per batch.

An image is its 64 intensities (0..16) as tokens, BOS first, no EOS (every image has 64). Three
tasks, one class:
  * ``digits``: a decoder-only model, unconditional or class-conditional (a class embedding added
    at every position, as the seeds describe); local 1D attention (query blocks of one row, memory
    of the two rows above) or full attention;
  * ``superres``: an encoder-decoder from the 4×4 average-pooled image (16 tokens) to the 8×8 one.
Validation and evaluation: NLL per pixel, reported in bits per dimension (the Image Transformer's
unit; 2.90 on CIFAR-10, where a dimension is one of 3072 colour channels).
"""

from __future__ import annotations

import math

import numpy as np
import torch

from ..data import digits
from ..data.batching import Batch
from ..model.config import LanguageModelConfig, TransformerConfig
from ..training import distributed as D
from ..training.loss import label_smoothed_cross_entropy
from . import Recipe
from .language_model import SequenceBatch

SHAPE = dict(pad_id=digits.PAD, bos_id=digits.BOS, eos_id=digits.EOS, d_model=128, n_heads=4, d_ff=512, dropout=0.1)
SCHEMES = {  # Parmar et al.'s 1D local attention against full attention, everything else equal
    "local": dict(attention="local", local_block=digits.SIDE, local_memory=2 * digits.SIDE),
    "full": dict(attention="full"),
}
DIGITS_TRAIN = dict(max_tokens=64 * 64, warmup=200, lr_scale=0.5, label_smoothing=0.0, max_steps=100_000,
                    log_every=20, valid_every=100, save_every=100, keep_last=5, valid_bleu_sentences=0)


def digits_model_config(attention: str = "local", conditional: bool = False, **overrides) -> LanguageModelConfig:
    return LanguageModelConfig.from_dict({**SHAPE, "vocab_size": digits.VOCAB_SIZE, "n_layers": 4,
                                          "max_positions": digits.N_PIXELS + 1, "n_classes": digits.N_CLASSES * conditional,
                                          **SCHEMES[attention], **overrides})


def superres_model_config(attention: str = "local", **overrides) -> TransformerConfig:
    return TransformerConfig.from_dict({**SHAPE, "src_vocab_size": digits.VOCAB_SIZE, "n_encoder_layers": 2,
                                        "n_decoder_layers": 4, "max_positions": digits.N_PIXELS + 1,
                                        **SCHEMES[attention], **overrides})


class ImageTask:
    """Fixed-size pixel sequences of one split pair: batches, loss, and NLL per pixel (bits/dim)."""

    def __init__(self, train: str | None, valid: str | None, max_tokens: int, super_resolution: bool = False,
                 conditional: bool = False):
        self.super_resolution, self.conditional = super_resolution, conditional
        self.train = self._encode(train) if train else None
        self.valid = self._encode(valid) if valid else None
        if self.train is not None:
            order = np.random.default_rng(0).permutation(len(self.train[0]))  # sklearn's order groups writers
            per_batch = max(1, max_tokens // digits.N_PIXELS)
            self.train_batches = [order[i: i + per_batch].tolist() for i in range(0, len(order), per_batch)]

    def _encode(self, split: str) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        """(pixels (N, 64), labels (N,), low-resolution pixels (N, 16)) as token tensors."""
        images, labels = digits.load_digits_split(split)
        tokens = lambda imgs: torch.from_numpy(imgs.reshape(len(imgs), -1) + digits.FIRST_PIXEL)  # noqa: E731
        return tokens(images), torch.from_numpy(labels), tokens(digits.downsample(images))

    def _batch(self, data, indices) -> Batch | SequenceBatch:
        pixels, labels, low = (x[indices] for x in data)
        inputs = torch.cat([torch.full_like(pixels[:, :1], digits.BOS), pixels[:, :-1]], dim=1)
        if self.super_resolution:
            return Batch(low, inputs, pixels, pixels.numel())
        return SequenceBatch(inputs, pixels, labels if self.conditional else None, pixels.numel())

    def batch(self, indices: list[int]):
        return self._batch(self.train, torch.tensor(indices))

    def logits(self, model, batch) -> torch.Tensor:
        if self.super_resolution:
            return model(batch.src, batch.tgt_in)
        return model(batch.inputs, batch.classes)

    def loss(self, model, batch, epsilon: float):
        targets = batch.tgt_out if self.super_resolution else batch.targets
        return label_smoothed_cross_entropy(self.logits(model, batch), targets, epsilon, digits.PAD)

    @torch.no_grad()
    def validate(self, model, device, world: D.World | None = None, batch_size: int = 256) -> dict[str, float]:
        """NLL per pixel of the validation images, in nats and in bits per dimension."""
        world = world or D.World(device=torch.device(device))
        total = 0.0
        n = len(self.valid[0])
        for start in range(world.rank * batch_size, n, world.size * batch_size):
            batch = self._batch(self.valid, torch.arange(start, min(start + batch_size, n))).to(device)
            total += self.loss(model, batch, 0.0).nll.item()
        (total,) = D.sum_across([total], world)
        nll = total / (n * digits.N_PIXELS)
        return {"valid_nll": nll, "valid_bits_per_dim": nll / math.log(2), "valid_images": n}

    @staticmethod
    def metric(figures: dict[str, float]) -> float:
        return -figures["valid_nll"]

    @staticmethod
    def describe(figures: dict[str, float]) -> str:
        return f"valid {figures['valid_bits_per_dim']:.4f} bits/dim ({figures['valid_nll']:.4f} nats/pixel)"


def _presets(conditional_too: bool) -> dict[str, dict]:
    presets = {name: {"attention": name} for name in SCHEMES}
    if conditional_too:
        presets.update({f"{name}-class": {"attention": name, "conditional": True} for name in SCHEMES})
    return presets


DIGITS = Recipe("digits", presets=_presets(True), train=DIGITS_TRAIN, model_config=digits_model_config,
                data={"corpus": "scikit-learn 8x8 digits"},
                build=lambda model, train, data, progress: ImageTask("train", "valid", train.max_tokens,
                                                                     conditional=model.n_classes > 0))
SUPERRES = Recipe("superres", presets=_presets(False), train=DIGITS_TRAIN, model_config=superres_model_config,
                  data={"corpus": "scikit-learn 8x8 digits", "input": "4x4 average-pooled"},
                  build=lambda model, train, data, progress: ImageTask("train", "valid", train.max_tokens,
                                                                       super_resolution=True))
