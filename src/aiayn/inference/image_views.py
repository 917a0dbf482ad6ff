"""The Image Transformer (Parmar et al. 2018) on 8×8 digits as the studio shows it (issue 45): a digit
sampled pixel by pixel, super-resolution beside its input and the truth, and one pixel's local attention
with its query block and memory block (§3.2, Figure 2's 1D local attention). Everything comes from the
model's own decoding (``aiayn.decoding``) and forward pass (``return_attention``), and the blocks from the
layer's ``LocalAttention`` (``block`` = l_q, ``memory`` = l_m, ``band``). Plain JSON-able dicts and lists.

Legend: P = 64 pixels in raster order (pixel p at row p // 8, column p % 8), intensities 0..16. The model
reads BOS + pixels 0..62 (input n holds pixel n − 1; input 0 is BOS) and input n predicts pixel n, so the
query that draws pixel p is input p, and its keys are inputs, each standing for the pixel it reads.

* ``generate_digit(model, label, seed, temperature)``: {"pixels": 64 intensities in generation (raster)
  order, "probabilities": each one's probability under the model when drawn, "image": 8 × 8, "label"};
* ``super_resolve(model, index)``: {"low": 4 × 4 input, "output": 8 × 8 greedy, "truth", "bicubic",
  "mae_model", "mae_bicubic", "label"} for test digit ``index``;
* ``pixel_attention(model, pixels, index, layer, head)`` (a digits model, or a superres model's decoder):
  {"weights": 64 (the weight on each pixel read;
  0 where the query may not look), "bos", "visible": the pixels it may see (from ``band``), "query_block"
  and "memory_block": pixel index sets, each also as row "spans" [{row, start, end}] for outlining}.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import torch

from ..data import digits
from ..decoding import greedy_search, prompt_batch, sample
from ..errors import UsageError
from ..model.attention.local import LocalAttention

END = digits.N_PIXELS + 1  # 64 pixels, then the end the search must reach


@dataclass
class ImageModel:
    """A digits (decoder-only, pixel by pixel) or superres (4x4 -> 8x8 encoder-decoder) model, as served."""

    model: torch.nn.Module
    task: str
    device: torch.device = torch.device("cpu")


def _device(model) -> torch.device:
    return next(model.parameters()).device


def _need(model, architecture: str, what: str) -> None:
    """Refuse a model of another architecture; ``what``: the view and the model it needs, in words."""
    if getattr(model, "architecture", None) != architecture:
        raise UsageError(f"{what}, not a {getattr(model, 'architecture', type(model).__name__)} one")


@torch.no_grad()
def generate_digit(model, label: int | None = None, seed: int = 1, temperature: float = 1.0, top_k: int = 0,
                   top_p: float = 1.0) -> dict:
    """One digit sampled pixel by pixel (``aiayn.decoding.sample``, as ``aiayn generate`` samples digits);
    ``label``: the class to draw, for a class-conditional model (and only for one)."""
    _need(model, "decoder_only", "generating a digit needs a digits model")
    conditional = model.config.n_classes > 0
    if conditional != (label is not None):
        raise UsageError("this model is class-conditional: pick a class 0..9" if conditional else
                         "this model is unconditional: it takes no class (train a -class preset for one)")
    if conditional and not 0 <= label < model.config.n_classes:
        raise UsageError(f"class {label} is not one of 0..{model.config.n_classes - 1}")
    device = _device(model)
    cond = None if label is None else torch.tensor([label], device=device)
    prompt = prompt_batch([[]], digits.BOS, digits.PAD, device) if cond is None else None
    hyp = sample(model, cond, max_len=END, temperature=temperature, top_k=top_k, top_p=top_p, seed=seed,
                 prompt=prompt, min_len=digits.N_PIXELS)[0]
    image = digits.tokens_image(hyp.tokens[: digits.N_PIXELS])
    return {"label": label, "conditional": conditional, "side": digits.SIDE, "levels": digits.LEVELS,
            "pixels": image.reshape(-1).tolist(), "image": image.tolist(),
            "probabilities": np.exp(hyp.token_log_probs[: digits.N_PIXELS]).tolist()}


@torch.no_grad()
def super_resolve(model, index: int, split: str = "test") -> dict:
    """Test digit ``index``: its 4×4 average-pooled input, the model's greedy 8×8 output, the truth, and
    bicubic upsampling (the baseline), with each one's mean absolute error per pixel."""
    _need(model, "transformer", "super-resolution needs a superres model")
    images, labels = digits.load_digits_split(split)
    if not 0 <= index < len(images):
        raise UsageError(f"the {split} split has digits 0..{len(images) - 1}, not {index}")
    truth = images[index]
    low = digits.downsample(truth)  # (4, 4)
    src = torch.from_numpy(low.reshape(1, -1) + digits.FIRST_PIXEL).to(_device(model))
    hyp = greedy_search(model, src, max_len_a=0, max_len_b=END, max_len=END, min_len=digits.N_PIXELS)[0]
    output = digits.tokens_image(hyp.tokens[: digits.N_PIXELS])
    bicubic = digits.bicubic_upsample(low)
    return {"index": index, "split": split, "label": int(labels[index]), "low": low.tolist(),
            "output": output.tolist(), "truth": truth.tolist(), "bicubic": bicubic.tolist(),
            "mae_model": float(np.abs(output - truth).mean()), "mae_bicubic": float(np.abs(bicubic - truth).mean())}


def spans(pixels: Sequence[int]) -> list[dict]:
    """Raster pixel indices as runs within a row: [{row, start, end}] (columns, end exclusive)."""
    out: list[dict] = []
    for p in sorted(pixels):
        row, col = divmod(p, digits.SIDE)
        if out and out[-1]["row"] == row and out[-1]["end"] == col:
            out[-1]["end"] += 1
        else:
            out.append({"row": row, "start": col, "end": col + 1})
    return out


def _region(pixels: list[int], bos: bool) -> dict:
    return {"pixels": pixels, "spans": spans(pixels), "bos": bos}


def _read(positions: Sequence[int]) -> tuple[list[int], bool]:
    """The pixels the inputs at ``positions`` read, and whether BOS is among them."""
    return [j - 1 for j in positions if j >= 1], any(j == 0 for j in positions)


def _self_attention(model, tokens: list[int], label: int | None, low) -> tuple[list[torch.Tensor], list]:
    """Each layer's self-attention weights (1, H, 64, 64) from one forward pass, and the layers: a digits
    model's, or a superres model's decoder's (reading ``low``, the 4 × 4 input)."""
    device = _device(model)
    inputs = torch.tensor([tokens], device=device)
    was_training = model.training
    model.eval()
    try:
        if model.architecture == "transformer":
            src = torch.from_numpy(np.asarray(low, dtype=np.int64).reshape(1, -1) + digits.FIRST_PIXEL).to(device)
            return model.attention_maps(src, inputs).decoder_self, model.decoder_layers
        classes = None if label is None else torch.tensor([label], device=device)
        return model(inputs, classes, return_attention=True)[1], model.layers
    finally:
        model.train(was_training)


@torch.no_grad()
def pixel_attention(model, pixels: Sequence[int] | Sequence[Sequence[int]], index: int, layer: int, head: int,
                    label: int | None = None, low: Sequence[Sequence[int]] | None = None) -> dict:
    """The self-attention of one layer and head, from the model's forward pass over BOS + ``pixels`` (64
    intensities, flat or 8 × 8), for the query that draws pixel ``index``; with local attention its query
    block (the l_q pixels its block draws) and memory block (the l_m inputs before the block, as the pixels
    they read), and the pixels it may see by ``LocalAttention.band``. ``label``: the class, for a
    class-conditional digits model; ``low``: a superres model's 4 × 4 input (default: ``pixels`` pooled)."""
    if getattr(model, "architecture", None) not in ("decoder_only", "transformer"):
        _need(model, "decoder_only", "pixel attention needs a digits or superres model")
    image = np.asarray(pixels).reshape(digits.SIDE, digits.SIDE)
    tokens = [digits.BOS] + digits.image_tokens(image)[:-1]  # inputs 0..63
    low = digits.downsample(image) if low is None else low
    weights, layers = _self_attention(model, tokens, label, low)
    heads = weights[0].size(1)
    if not 0 <= layer < len(layers) or not 0 <= head < heads or not 0 <= index < digits.N_PIXELS:
        raise UsageError(f"the model has layers 0..{len(layers) - 1}, heads 0..{heads - 1} and pixels "
                         f"0..{digits.N_PIXELS - 1}, not layer {layer}, head {head}, pixel {index}")
    row = weights[layer][0, head, index].double().cpu()  # (64,) over inputs: BOS, pixels 0..62
    local = layers[layer].self_attn.variant
    keys = torch.arange(digits.N_PIXELS)
    if isinstance(local, LocalAttention):
        allowed = local.band(torch.tensor([index]), keys)[0] & (keys <= index)
        first = index // local.block * local.block  # the block's first query
        query_block = range(first, min(first + local.block, digits.N_PIXELS))
        memory_block = range(max(0, first - local.memory), first)
        shape = {"attention": "local", "block": local.block, "memory": local.memory}
    else:  # full attention: every earlier input
        allowed, query_block, memory_block = keys <= index, range(index, index + 1), range(0, index)
        shape = {"attention": model.config.attention, "block": None, "memory": None}
    visible, bos = _read([j for j in range(digits.N_PIXELS) if allowed[j]])
    return {"index": index, "layer": layer, "head": head, "bos": float(row[0]),
            "weights": row[1:].tolist() + [0.0],  # pixel 63 is read by no query (it is the last one drawn)
            "visible": _region(visible, bos), "query_block": _region(list(query_block), False),
            "memory_block": _region(*_read(memory_block)), "layers": len(layers), "heads": heads,
            "architecture": model.architecture, **shape}
