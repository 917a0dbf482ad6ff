"""Which path a variant takes: the tiled one (O(L) memory) or the materialising one (the oracle).

Legend: B batch, H heads, T queries, S keys, D head width.

The tiled path (block-by-block on the CPU, FlexAttention on CUDA) serves every call that needs
neither the weights nor dropout on them, with more than one query (one cached query costs O(S)
either way and keeps the plain path), with a key mask of the usual (B, 1, 1, S) shape and the fused
kernel (``attention_kernel="sdpa"``). ``attention_kernel="math"`` (or any other kernel) keeps the
explicit formula: that is the oracle the tests compare against.
"""

from __future__ import annotations

import logging

from torch import Tensor

from .blockwise import blockwise_attention
from .core import sdpa_attention
from .tiles import TileSpec

log = logging.getLogger("aiayn")
FLEX_FAILED: list[str] = []  # the first error of FlexAttention in this process; then blockwise for good


def use_flex(q: Tensor, spec: TileSpec, params: tuple[Tensor, ...]) -> bool:
    """FlexAttention on CUDA, where it compiles and can run the variant (it has no slot for Shaw's value term)."""
    if not q.is_cuda or not spec.variant.flex_ok(params) or FLEX_FAILED:
        return False
    from .flex import flex_available

    return flex_available()


def fast_path(kernel, q: Tensor, mask: Tensor | None, dropout_p: float, need_weights: bool) -> bool:
    """May this call take the tiled path?"""
    key_mask = mask is None or (mask.dim() == 4 and mask.shape[1:3] == (1, 1))
    return kernel is sdpa_attention and not need_weights and dropout_p == 0.0 and q.size(-2) > 1 and key_mask


def tiled_attention(q: Tensor, k: Tensor, v: Tensor, mask: Tensor | None, spec: TileSpec, *params: Tensor,
                    q_block: int | None = None, k_block: int | None = None) -> Tensor:
    """softmax(Q Kᵀ / √d_k + S_var + M) V (+ the variant's output term) by tiles, ``params`` being the
    variant's learned tensors: FlexAttention on CUDA when it is available and takes the variant, else blockwise."""
    if use_flex(q, spec, params):
        from .flex import flex_attention_tiles

        try:
            return flex_attention_tiles(q, k, v, mask, spec, *params)
        except Exception as e:  # noqa: BLE001 -- a compiler or driver that cannot build it: the CUDA blockwise path
            FLEX_FAILED.append(f"{type(e).__name__}: {e}")
            log.warning("FlexAttention failed (%s); using the blockwise kernel on CUDA from now on",
                        FLEX_FAILED[0].splitlines()[0])
    blocks = {} if q_block is None else {"q_block": q_block}
    if k_block is not None:
        blocks["k_block"] = k_block
    return blockwise_attention(q, k, v, mask, spec, *params, **blocks)
