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
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch

from ..data import digits
from ..data.batching import Batch
from ..decoding import greedy_search, prompt_batch, sample
from ..errors import UsageError
from ..inference.image_views import ImageModel
from ..io.atomic import atomic_path
from ..model.config import LanguageModelConfig, TransformerConfig
from ..training import distributed as D
from ..training.loss import label_smoothed_cross_entropy
from .declared import filled, option
from .language_model import SequenceBatch
from .requests import EvaluateRequest, GenerateRequest
from .spec import Setup, Task, load_trained, task_name

SHAPE = dict(pad_id=digits.PAD, bos_id=digits.BOS, eos_id=digits.EOS, d_model=128, n_heads=4, d_ff=512, dropout=0.1)
SCHEMES = {  # Parmar et al.'s 1D local attention against full attention, everything else equal
    "local": dict(attention="local", local_block=digits.SIDE, local_memory=2 * digits.SIDE),
    "full": dict(attention="full"),
}
DIGITS_TRAIN = dict(max_tokens=64 * 64, warmup=200, lr_scale=0.5, label_smoothing=0.0, max_steps=100_000,
                    log_every=20, valid_every=100, save_every=100, keep_last=5)


def digits_model_config(attention: str = "local", conditional: bool = False, **overrides) -> LanguageModelConfig:
    return LanguageModelConfig.from_dict({**SHAPE, "vocab_size": digits.VOCAB_SIZE, "n_layers": 4,
                                          "max_positions": digits.N_PIXELS + 1, "n_classes": digits.N_CLASSES * conditional,
                                          **SCHEMES[attention], **overrides})


def superres_model_config(attention: str = "local", **overrides) -> TransformerConfig:
    return TransformerConfig.from_dict({**SHAPE, "src_vocab_size": digits.VOCAB_SIZE, "n_encoder_layers": 2,
                                        "n_decoder_layers": 4, "max_positions": digits.N_PIXELS + 1,
                                        **SCHEMES[attention], **overrides})


class ImageObjective:
    """Fixed-size pixel sequences of one split pair: batches, loss, and NLL per pixel (bits/dim)
    (an ``aiayn.training.objective.Objective``)."""

    train_batches: list[list[int]]
    has_valid: bool
    prefetch = False  # a batch is one indexing of tensors in memory: nothing to overlap
    fingerprint = None  # pixel intensities are their own tokens: no vocabulary file
    summary = ""

    def __init__(self, train: str | None, valid: str | None, max_tokens: int, super_resolution: bool = False,
                 conditional: bool = False):
        self.super_resolution, self.conditional = super_resolution, conditional
        self.train = self._encode(train) if train else None
        self.valid = self._encode(valid) if valid else None
        self.has_valid = self.valid is not None
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


# Using a trained model ----------------------------------------------------------------------
END = digits.N_PIXELS + 1  # 64 pixels, then the end the search must reach


def load_image_model(path: str | Path, device: str = "cpu") -> tuple[torch.nn.Module, str]:
    """The model of a digits or superres run (directory or weights file) in eval mode, and its task."""
    loaded = load_trained(path, ("digits", "superres"))
    return loaded.model.to(device), task_name(loaded.meta)


def _pixels(tokens: list[int]) -> np.ndarray:
    return digits.tokens_image(tokens[: digits.N_PIXELS])


@torch.no_grad()
def upsample(model, low: np.ndarray, device: str = "cpu") -> np.ndarray:
    """The model's most probable 8×8 image (greedy, pixel by pixel) for each (4, 4) image: (N, 8, 8)."""
    if low.ndim != 3 or low.shape[1:] != (digits.LOW_SIDE, digits.LOW_SIDE):
        raise UsageError(f"super-resolution takes {digits.LOW_SIDE}x{digits.LOW_SIDE} images, not {low.shape[1:]}")
    src = torch.from_numpy(low.reshape(len(low), -1) + digits.FIRST_PIXEL).to(device)
    hyps = greedy_search(model, src, max_len_a=0, max_len_b=END, max_len=END, min_len=digits.N_PIXELS)
    return np.stack([_pixels(h.tokens) for h in hyps])


def evaluate_images(model: str | Path, split: str = "test", device: str = "cpu") -> dict[str, float]:
    """Bits per dimension on ``split``; for super-resolution also the mean absolute and squared error
    per pixel (intensity 0..16) of the greedy output and of bicubic upsampling, the baseline."""
    net, task = load_image_model(model, device)
    data = ImageObjective(None, split, 0, super_resolution=task == "superres",
                     conditional=getattr(net.config, "n_classes", 0) > 0)
    figures = data.validate(net, device)
    result = {"task": task, "split": split, "images": figures["valid_images"], "nll": figures["valid_nll"],
              "bits_per_dim": figures["valid_bits_per_dim"]}
    if task == "superres":
        images, _ = digits.load_digits_split(split)
        low = digits.downsample(images)
        for name, guess in (("model", upsample(net, low, device)), ("bicubic", digits.bicubic_upsample(low))):
            result[f"mae_{name}"] = float(np.abs(guess - images).mean())
            result[f"mse_{name}"] = float(((guess - images) ** 2).mean())
    return result


def generate_images(model: str | Path, out: str | Path, samples: int = 10, classes: list[str] | None = None,
                    temperature: float = 1.0, top_k: int = 0, top_p: float = 1.0, seed: int = 1,
                    device: str = "cpu") -> Path:
    """A PNG grid: ``samples`` sampled digits (per class, one row each, for a class-conditional model;
    ``classes`` picks the rows, default all ten). For super-resolution: the first ``samples`` test
    digits as rows of (4×4 input, bicubic, model, truth)."""
    from ..plots.images import plot_digit_grid, plot_super_resolution  # matplotlib: only this verb needs it

    net, task = load_image_model(model, device)
    out = Path(out)
    if out.suffix.lower() != ".png":
        raise UsageError(f"--out {out}: image models write one PNG grid; give a file name ending in .png")
    out.parent.mkdir(parents=True, exist_ok=True)
    if task == "superres":
        if classes:
            raise UsageError("--class is for class-conditional digits models; super-resolution takes test digits")
        truth, _ = digits.load_digits_split("test")
        truth = truth[:samples]
        low = digits.downsample(truth)
        with atomic_path(out) as tmp:
            plot_super_resolution(low, upsample(net, low, device), truth, digits.bicubic_upsample(low), tmp,
                                  title=f"super-resolution, first {len(truth)} test digits (greedy)")
        return out
    conditional = net.config.n_classes > 0
    if classes and not conditional:
        raise UsageError(f"{model} is unconditional; --class needs a model trained with a -class preset")
    labels = [digits.parse_class(c) for c in classes] if classes else list(range(digits.N_CLASSES))
    rows = labels if conditional else [None]
    cond = torch.tensor([c for c in labels for _ in range(samples)], device=device) if conditional else None
    prompt = prompt_batch([[]] * (samples * len(rows)), digits.BOS, digits.PAD, device) if cond is None else None
    hyps = sample(net, cond, max_len=END, temperature=temperature, top_k=top_k, top_p=top_p, seed=seed,
                  prompt=prompt, min_len=digits.N_PIXELS)
    names = [digits.CLASS_NAMES[c] for c in labels] if conditional else None
    title = (f"{'class-conditional' if conditional else 'unconditional'} samples, {net.config.attention} attention "
             f"(seed {seed}, T={temperature})")
    with atomic_path(out) as tmp:  # a full disk leaves no half-written picture
        plot_digit_grid([_pixels(h.tokens) for h in hyps], tmp, rows_labels=names, title=title,
                        cols=None if conditional else min(samples, 10))
    return out

@dataclass
class DigitsGenerate:
    """`aiayn generate`'s option for class-conditional digits models."""

    classes: list[str] | None = option(None, "class-conditional digits: a row of this class, 0..9 or its name "
                                       "(repeatable; default all)", "--class", audience="class-conditional digits "
                                       "models", action="append", metavar="DIGIT")


def _presets(conditional_too: bool) -> dict[str, dict]:
    presets = {name: {"attention": name} for name in SCHEMES}
    if conditional_too:
        presets.update({f"{name}-class": {"attention": name, "conditional": True} for name in SCHEMES})
    return presets


class Digits(Task):
    """8x8 digits, a decoder-only model over pixels, unconditional or class-conditional."""

    name, help = "digits", "8x8 digits pixel by pixel (Image Transformer; scikit-learn's digits)"
    presets, preset_help = _presets(True), "local (default: 1D local attention) or full; -class: class-conditional"
    train, objective = DIGITS_TRAIN, ImageObjective
    data = {"corpus": "scikit-learn 8x8 digits"}
    verbs = ("evaluate", "generate", "serve")
    options = {"generate": DigitsGenerate}
    # `aiayn generate`'s: samples per class (superres: test digits), sampled from the model's own distribution
    defaults = {"generate": {"samples": 10, "temperature": 1.0, "top_k": 0, "top_p": 1.0}}

    def model_config(self, **fields) -> LanguageModelConfig:
        return digits_model_config(**fields)

    def subject(self, path, device: str = "cpu", dtype: str = "float32") -> ImageModel:
        """The studio's image views take the model itself, with its task (digits or superres)."""
        model, task = load_image_model(path, device)
        return ImageModel(model.eval(), task, torch.device(device))

    def build(self, setup: Setup, model_config, train_config, data: dict) -> ImageObjective:
        return ImageObjective("train", "valid", train_config.max_tokens, conditional=model_config.n_classes > 0)

    def evaluate(self, request: EvaluateRequest) -> str:
        f = evaluate_images(request.model, "test", request.device)
        text = (f"8x8 digits, test split ({f['images']} images): {f['bits_per_dim']:.4f} bits/dim "
                f"({f['nll']:.4f} nats per pixel)")
        if f["task"] == "superres":
            for kind in ("model", "bicubic"):
                text += (f"\n{kind + (' (greedy)' if kind == 'model' else ''):>15}: per-pixel error (intensity "
                         f"0..16) absolute {f['mae_' + kind]:.3f}, squared {f['mse_' + kind]:.3f}")
        return text

    figures_text = ("bits per dimension on the {split} split (super-resolution: also the error per pixel of its "
                    "greedy output and of bicubic upsampling)")

    def figures(self, model: Path, split: str) -> dict[str, float]:
        """The experiment's figures of a run: bits per dimension on ``split`` (super-resolution: also the error
        per pixel of its greedy output and of bicubic upsampling)."""
        return {f"{split}_{k}": v for k, v in evaluate_images(model, split).items() if k not in ("task", "split")}

    def generate(self, request: GenerateRequest) -> str:
        _, task = load_image_model(request.model)  # before the output name is settled
        out = request.out if request.out.lower().endswith(".png") else str(Path(request.out) / f"{task}.png")
        classes, request = filled(DigitsGenerate, request.task_options).classes, request.given_or(self.defaults["generate"])
        return str(generate_images(request.model, out, request.samples, classes, *request.sampling(), request.seed,
                                   request.device))


class SuperResolution(Digits):
    """4x4 -> 8x8 digits: an encoder-decoder over pixels; evaluated and generated as digits are."""

    name, help = "superres", "4x4 -> 8x8 digits, an encoder-decoder over pixels (Image Transformer)"
    presets, preset_help = _presets(False), "local (default) or full"
    data = {"corpus": "scikit-learn 8x8 digits", "input": "4x4 average-pooled"}
    options = {}

    def model_config(self, **fields) -> TransformerConfig:
        return superres_model_config(**fields)

    def build(self, setup: Setup, model_config, train_config, data: dict) -> ImageObjective:
        return ImageObjective("train", "valid", train_config.max_tokens, super_resolution=True)


DIGITS, SUPERRES = Digits(), SuperResolution()
