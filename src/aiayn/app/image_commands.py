"""The verbs for image models (``aiayn evaluate`` / ``aiayn generate`` on a digits or superres run).

Digits models sample images pixel by pixel (with a class, when class-conditional); super-resolution
models decode the 8×8 image of a 4×4 one. Bits per dimension is NLL per pixel in bits.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import torch

from ..data import digits
from ..decoding import greedy_search, prompt_batch, sample
from ..errors import UsageError
from ..io.checkpoint import CheckpointError
from ..io.registry import load_model
from ..io.rundir import model_file_of
from ..tasks.images import ImageTask

END = digits.N_PIXELS + 1  # 64 pixels, then the end the search must reach


def load_image_model(path: str | Path, device: str = "cpu") -> tuple[torch.nn.Module, str]:
    """The model of a digits or superres run (directory or weights file) in eval mode, and its task."""
    model, meta = load_model(model_file_of(path))
    if meta.get("task") not in ("digits", "superres"):
        raise CheckpointError(f"{path} holds a {meta.get('task') or model.architecture} model, not an image model")
    return model.to(device).eval(), meta["task"]


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
    data = ImageTask(None, split, 0, super_resolution=task == "superres",
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
    from ..plots.images import plot_digit_grid, plot_super_resolution

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
        return plot_super_resolution(low, upsample(net, low, device), truth, digits.bicubic_upsample(low), out,
                                     title=f"super-resolution, first {len(truth)} test digits (greedy)")
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
    return plot_digit_grid([_pixels(h.tokens) for h in hyps], out, rows_labels=names, title=title,
                           cols=None if conditional else min(samples, 10))
