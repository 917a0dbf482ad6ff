"""The tiled path through PyTorch's FlexAttention, on CUDA only (its backward pass runs only there;
the CPU uses ``blockwise.py``): the same ``TileSpec``, asked for FlexAttention's two hooks.

Legend: B batch, H heads, T queries, S keys, D head width.

FlexAttention computes softmax(score_mod(Q Kᵀ / √D) + mask) V by tiles in one compiled kernel:
* ``score_mod`` is the variant's score term (``TileVariant.score_mod``; relative attention forms
  P = (Q / √D) E_rᵀ (B, H, T, R) once, T × R, not T × S, and reads it at the pair's clipped distance);
* the block mask holds the causal rule, the variant's rule (``TileVariant.allows``: the local band of
  Parmar et al. 2018 §3.2) and padding, so FlexAttention skips whole tiles above the diagonal or
  outside the band.

UNTESTED in CI (no GPU there): ``tests/model/attention/test_blockwise.py`` checks the CPU kernel, and the same
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
    offset, variant = spec.offset, spec.variant

    def mask_mod(b, h, i, j):
        pos = i + offset
        ok = variant.allows(pos, j)
        if spec.causal:
            ok = ok & (j <= pos)
        if key_mask is not None:
            ok = ok & key_mask[b, j]
        return ok

    return mask_mod


def flex_attention_tiles(q: Tensor, k: Tensor, v: Tensor, mask: Tensor | None, spec: TileSpec, *params: Tensor,
                         ) -> Tensor:
    """Same contract as ``blockwise.blockwise_attention``: (B, H, T, D_v), no T × S tensor."""
    from torch.nn.attention.flex_attention import create_block_mask

    b, _, t, _ = q.shape
    s = k.size(-2)
    key_mask = None if mask is None else mask.reshape(mask.size(0), s).expand(b, s)
    block_mask = create_block_mask(_mask_mod(spec, key_mask), b if key_mask is not None else None, None, t, s,
                                   device=q.device)
    score_mod = spec.variant.score_mod(q, params, spec.offset)
    return _compiled()(q, k, v, score_mod=score_mod, block_mask=block_mask)
