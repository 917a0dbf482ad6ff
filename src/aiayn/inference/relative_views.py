"""Relative attention as the studio shows it (issue 45; Huang et al. 2018, "Music Transformer", §3.4 and
Figure 1; "Visualizing Music Transformer", 2018): a note's attention over what came before, and the
skewing trick step by step, on a decoder-only model's own numbers (forward hooks and the model's own
modules; nothing of the model is recomputed another way). Plain JSON-able dicts and lists.

Legend: N tokens (BOS left out), L = N + 1 model inputs (BOS + tokens: token k is read at input k + 1),
H heads, D head width, w the skewing window, R relative distances, k the clipping distance.

* ``note_attention(model, tokens, position, layer, head)``: {"weights": N floats, the attention of the query
  that reads token ``position`` over every token (0 after ``position``: the causal mask), "bos": its
  weight on BOS, and the model's shape ("layers", "heads", "attention", "positional")};
* ``skewing_steps(model, tokens, layer, head, window, end)``: the layer's own Q (w × D) of the last w
  inputs up to token ``end`` and its relative embeddings E (w × D, distances −(w−1)..0, clipped at k),
  then each step of the skew: "qe" = Q Eᵀ (w × w, column c at distance c − (w−1)), "padded" (w × w+1),
  "reshaped" (w+1 × w), "sliced" (w × w: S_rel, with garbage above the diagonal), "mask" (j ≤ i), "s_rel"
  (None where masked), "naive" (q_i · e_clip(j−i), None where masked) and "bias" (the model's own
  ``RelativePositions.bias``: S_rel / √D as it enters the logits, None where masked).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import torch
import torch.nn.functional as F

from ..errors import UsageError
from ..model.attention.relative import RelativePositions, skew
from .music_views import body


def _inputs(model, tokens: Sequence[int]) -> torch.Tensor:
    device = next(model.parameters()).device
    return torch.tensor([[model.config.bos_id] + list(tokens)], device=device)


def _check(model, layer: int, head: int) -> None:
    cfg = model.config
    if getattr(model, "architecture", None) != "decoder_only":
        raise UsageError(f"this {getattr(model, 'architecture', type(model).__name__)} model is not decoder-only: "
                         "note attention needs a music model")
    if not 0 <= layer < cfg.n_layers or not 0 <= head < cfg.n_heads:
        raise UsageError(f"the model has layers 0..{cfg.n_layers - 1} and heads 0..{cfg.n_heads - 1}, "
                         f"not layer {layer}, head {head}")


def _shape(model) -> dict:
    cfg = model.config
    return {"layers": cfg.n_layers, "heads": cfg.n_heads, "attention": cfg.attention, "positional": cfg.positional}


@torch.no_grad()
def note_attention(model, tokens: Sequence[int], position: int, layer: int, head: int) -> dict:
    """The self-attention weights of one layer and head, from the model's forward pass over BOS + all
    of ``tokens`` (``return_attention``), for the query that reads token ``position``."""
    _check(model, layer, head)
    tokens = body(tokens)
    if not 0 <= position < len(tokens):
        raise UsageError(f"position {position} is not a token of this piece (0..{len(tokens) - 1})")
    was_training = model.training
    model.eval()
    try:
        _, weights = model(_inputs(model, tokens), return_attention=True)
    finally:
        model.train(was_training)
    row = weights[layer][0, head, position + 1].double().cpu()  # (L,): BOS, then the tokens
    return {"position": position, "layer": layer, "head": head, "bos": float(row[0]), "weights": row[1:].tolist(),
            "step": position // 4, "voice": position % 4, **_shape(model)}


def _queries(model, inputs: torch.Tensor, layer: int) -> tuple[RelativePositions, torch.Tensor]:
    """The layer's relative-position module and the queries (H, L, D) it took in one forward pass."""
    variant = model.layers[layer].self_attn.variant
    if not isinstance(variant, RelativePositions) or not variant.causal:
        raise UsageError(f"layer {layer} of this model has {model.config.attention} attention, not relative "
                         "self-attention: skewing needs a model trained with relative positions")
    seen = {}

    def hook(module, args):  # the variant's call: (kernel, q, k, v, mask, causal, dropout_p, need_weights)
        seen["q"] = args[1].detach()

    handle = variant.register_forward_pre_hook(hook)
    was_training = model.training
    model.eval()
    try:
        model(inputs)
    finally:
        handle.remove()
        model.train(was_training)
    return variant, seen["q"][0]


def _masked(values: torch.Tensor, mask: torch.Tensor) -> list[list[float | None]]:
    return [[float(x) if ok else None for x, ok in zip(row, keep)] for row, keep in zip(values.tolist(), mask.tolist())]


@torch.no_grad()
def skewing_steps(model, tokens: Sequence[int], layer: int, head: int, window: int = 6, end: int | None = None) -> dict:
    """Huang et al.'s skewing on the model's own Q and E for the last ``window`` inputs up to token
    ``end`` (default: the last token), step by step, beside the naive S_rel (the module's docstring)."""
    _check(model, layer, head)
    tokens = body(tokens)
    end = len(tokens) - 1 if end is None else end
    if not 0 <= end < len(tokens) or window < 1:
        raise UsageError(f"end must be a token of this piece (0..{len(tokens) - 1}) and the window at least 1")
    rel, q = _queries(model, _inputs(model, tokens[: end + 1]), layer)  # causal: later tokens change nothing
    hi = end + 2  # inputs 0..end+1 (BOS, tokens 0..end)
    w = min(window, hi)
    lo = hi - w
    table = rel.e_k[0 if rel.e_k.size(0) == 1 else head].detach()  # (R, D): one per head, or shared
    qs = q[head, lo:hi].double()  # (w, D)
    distances = torch.arange(w, device=q.device) - (w - 1)  # column c of Q Eᵀ: distance c − (w−1)
    rows = rel.tiles().rows(distances)
    e = table[rows].double()  # (w, D)
    qe = qs @ e.T  # (w, w)
    padded = F.pad(qe, (1, 0))  # (w, w+1): one column of zeros on the left
    reshaped = padded.reshape(w + 1, w)  # the same w (w+1) numbers read as w+1 rows of w
    sliced = reshaped[1:]  # (w, w): drop the first row
    mask = torch.ones(w, w, dtype=torch.bool).tril()  # j ≤ i: the keys a causal query sees
    pairs = torch.arange(w)[None, :] - torch.arange(w)[:, None]  # (w, w): j − i
    naive = torch.einsum("id,ijd->ij", qs, table[rel.tiles().rows(pairs)].double())  # q_i · e_clip(j−i)
    bias = rel.bias(q[None], q.size(1))[0, head, lo:hi, lo:hi].double()  # the model's S_rel / √D
    return {"layer": layer, "head": head, "end": end, "window": w, "k": rel.k, "scale": math.sqrt(q.size(-1)),
            "inputs": list(range(lo, hi)), "tokens": [i - 1 for i in range(lo, hi)],  # -1: BOS
            "distances": distances.tolist(), "table_rows": rows.tolist(), "q": qs.tolist(), "e": e.tolist(),
            "qe": qe.tolist(), "padded": padded.tolist(), "reshaped": reshaped.tolist(), "sliced": sliced.tolist(),
            "skew": skew(qe).tolist(), "mask": mask.tolist(), "s_rel": _masked(sliced, mask),
            "naive": _masked(naive, mask), "bias": _masked(bias, mask), **_shape(model)}
