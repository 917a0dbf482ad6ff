"""The tile functions of ``tiles.py`` through PyTorch's FlexAttention, on CUDA only (its backward pass
runs only there; the CPU uses ``blockwise.py``).

Legend: B batch, H heads, T queries, S keys, D head width, R relative distances.

FlexAttention computes softmax(score_mod(Q Kᵀ / √D) + mask) V by tiles in one compiled kernel:
* ``score_mod`` adds the relative term: P = (Q / √D) E_rᵀ (B, H, T, R) is formed once (T × R, not
  T × S) and read at the pair's clipped distance, P[b, h, i, clip(j − i) + k] (Shaw et al. 2018;
  Huang et al. 2018 §3.4 without the skew);
* the block mask holds the causal rule, the local band (Parmar et al. 2018 §3.2) and padding, so
  FlexAttention skips whole tiles above the diagonal or outside the band.

UNTESTED in CI (no GPU there): ``tests/test_blockwise.py`` checks the CPU kernel, and the same
comparison applies here when a GPU is lent. Rows with no allowed key: FlexAttention returns 0.
"""

from __future__ import annotations

import functools

import torch
from torch import Tensor

from .tiles import TileSpec


@functools.cache
def flex_available() -> bool:
    try:
        from torch.nn.attention.flex_attention import create_block_mask, flex_attention  # noqa: F401
    except ImportError:
        return False
    return True


@functools.cache
def _compiled():
    from torch.nn.attention.flex_attention import flex_attention

    return torch.compile(flex_attention)  # one compile per mask and score structure; lengths may vary


def _mask_mod(spec: TileSpec, key_mask: Tensor | None):
    """FlexAttention's mask_mod: the same predicate as ``TileSpec.mask`` plus padding, on index tensors."""
    offset = spec.offset

    def mask_mod(b, h, i, j):
        pos = i + offset
        ok = j >= 0
        if spec.causal:
            ok = ok & (j <= pos)
        if spec.band is not None:
            lq, lm, band_causal = spec.band
            start = (pos // lq) * lq - lm
            ok = ok & (j >= start) & (j <= (pos if band_causal else start + 2 * lm + lq - 1))
        if key_mask is not None:
            ok = ok & key_mask[b, j]
        return ok

    return mask_mod


def flex_attention_tiles(q: Tensor, k: Tensor, v: Tensor, mask: Tensor | None, spec: TileSpec,
                         table: Tensor | None = None) -> Tensor:
    """Same contract as ``blockwise.blockwise_attention``: (B, H, T, D_v), no T × S tensor."""
    from torch.nn.attention.flex_attention import create_block_mask

    b, h, t, d = q.shape
    s = k.size(-2)
    key_mask = None if mask is None else mask.reshape(mask.size(0), s).expand(b, s)
    block_mask = create_block_mask(_mask_mod(spec, key_mask), b if key_mask is not None else None, None, t, s,
                                   device=q.device)
    score_mod = None
    if table is not None:
        p_rel = (q * d**-0.5) @ table.transpose(-2, -1)  # (B, H, T, R): differentiable, tiny
        low, high, offset = -spec.clip, spec.n_rows - 1 - spec.clip, spec.offset

        def score_mod(score, bi, hi, i, j):
            row = torch.clamp(j - (i + offset), low, high) - low
            return score + p_rel[bi, hi, i, row]

    return _compiled()(q, k, v, score_mod=score_mod, block_mask=block_mask)
