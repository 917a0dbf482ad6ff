"""Block-by-block attention in O(L) extra memory (the online softmax of Milakov & Gimelshein 2018, as in
FlashAttention, Dao et al. 2022, Alg. 1 and 2), with the variants' tile functions of ``tiles.py``.

Legend: B batch, H heads, T queries, S keys, D_k / D_v head widths, R relative distances,
b_q × b_k one tile.

Eq. 1 of the paper with the variant's score term, softmax(Q Kᵀ / √d_k + S_rel / √d_k + M) V, computed
one query block at a time: each block visits only the key tiles its queries can reach
(``TileSpec.key_range``: tiles above the causal diagonal or outside a local band are skipped),
keeping per row the running maximum m and sum ℓ of exp(score − m) and rescaling the output
accumulator when m grows. Only Q, K, V, the output and the row log-sum-exp (T values per head) are
saved; the backward pass recomputes each tile's probabilities from the log-sum-exp, so no T × S
tensor ever exists (the largest is one block's b_q × b_k tile, and P = Q E_rᵀ of b_q × R).

Shaw's value term (``values``: E_V), out_i += Σ_j α_ij a^V_clip(j−i), goes the same way: each
tile's probabilities are summed by distance into a b_q × R accumulator (rescaled with the output's),
multiplied by E_V once per block; its backward reads dO E_Vᵀ by distance like the score term.

Rows with no allowed key give 0 (as ``core.math_attention``). No dropout on the weights: callers
with attention dropout take the materialising path.
"""

from __future__ import annotations

import math

import torch
from torch import Tensor

from .tiles import TileSpec, by_distance, gather_tile, scatter_tile

Q_BLOCK, K_BLOCK = 256, 512  # large enough that Python's per-tile cost vanishes behind the matmuls


def _scores(spec: TileSpec, qs: Tensor, k: Tensor, mask: Tensor | None, p_rel: Tensor | None,
            i0: int, i1: int, j0: int, j1: int) -> tuple[Tensor, int | Tensor | None]:
    """One tile's scaled logits (B, H, b_q, b_k), −∞ where not allowed, and its relative rows."""
    s = qs @ k[..., j0:j1, :].transpose(-2, -1)
    rows = None
    if p_rel is not None:
        rows = spec.tile_rows(i0, i1, j0, j1, s.device)
        s += gather_tile(p_rel, rows)
    allowed = spec.mask(i0, i1, j0, j1, s.device)
    if mask is not None:  # (B, 1, 1, S) real keys
        key_ok = mask[..., j0:j1]
        allowed = key_ok if allowed is None else allowed & key_ok
    if allowed is not None:
        s.masked_fill_(~allowed, -math.inf)
    return s, rows


def _tiles(spec: TileSpec, i0: int, i1: int, k_block: int):
    lo, hi = spec.key_range(i0, i1)
    for j0 in range(lo, hi, k_block):
        yield j0, min(j0 + k_block, hi)


class BlockwiseAttention(torch.autograd.Function):
    """(q, k, v, mask, table, values, spec, q_block, k_block) -> out (B, H, T, D_v); gradients for q, k, v
    and the tables."""

    @staticmethod
    def forward(ctx, q, k, v, mask, table, values, spec: TileSpec, q_block: int, k_block: int):
        scale = q.size(-1) ** -0.5
        out = q.new_empty(*q.shape[:-1], v.size(-1))
        lse = q.new_empty(*q.shape[:-1], 1)
        for i0 in range(0, q.size(-2), q_block):
            i1 = min(i0 + q_block, q.size(-2))
            qs = q[..., i0:i1, :] * scale
            p_rel = None if table is None else by_distance(qs, table)
            m = qs.new_full((*qs.shape[:-1], 1), -math.inf)
            total = qs.new_zeros(*qs.shape[:-1], 1)
            acc = qs.new_zeros(*qs.shape[:-1], v.size(-1))
            by_dist = None if values is None else qs.new_zeros(*qs.shape[:-1], values.size(-2))  # Σ_j p_ij per distance
            for j0, j1 in _tiles(spec, i0, i1, k_block):
                s, rows = _scores(spec, qs, k, mask, p_rel, i0, i1, j0, j1)
                m_new = torch.maximum(m, s.amax(-1, keepdim=True))
                shift = m_new.nan_to_num(neginf=0.0)  # a row with nothing allowed yet: exp(−∞ − 0) = 0
                p = s.sub_(shift).exp_()
                rescale = (m - shift).exp_()
                total.mul_(rescale).add_(p.sum(-1, keepdim=True))
                acc.mul_(rescale).add_(p @ v[..., j0:j1, :])
                if by_dist is not None:
                    scatter_tile(by_dist.mul_(rescale), rows, p)
                m = m_new
            if by_dist is not None:
                acc += by_dist @ values
            empty = total == 0
            out[..., i0:i1, :] = acc / total.masked_fill(empty, 1.0)
            # An empty row's log-sum-exp is +∞, so that the backward's exp(s − lse) is 0 there.
            lse[..., i0:i1, :] = (m.nan_to_num(neginf=0.0) + total.log()).masked_fill(empty, math.inf)
        ctx.save_for_backward(q, k, v, mask, table, values, out, lse)
        ctx.spec, ctx.q_block, ctx.k_block = spec, q_block, k_block
        return out

    @staticmethod
    def backward(ctx, d_out):
        q, k, v, mask, table, values, out, lse = ctx.saved_tensors
        spec, scale = ctx.spec, q.size(-1) ** -0.5
        dq, dk, dv = torch.zeros_like(q), torch.zeros_like(k), torch.zeros_like(v)
        d_table = None if table is None else torch.zeros_like(table)
        d_values = None if values is None else torch.zeros_like(values)
        for i0 in range(0, q.size(-2), ctx.q_block):
            i1 = min(i0 + ctx.q_block, q.size(-2))
            qs, do, lse_b = q[..., i0:i1, :] * scale, d_out[..., i0:i1, :], lse[..., i0:i1, :]
            # rowsum(dO ∘ O) = Σ_j p_ij dp_ij, per block: no (B, H, T, D_v) product, no contiguous copy of dO
            delta_b = (do * out[..., i0:i1, :]).sum(-1, keepdim=True)
            p_rel = None if table is None else by_distance(qs, table)
            d_rel = None if table is None else torch.zeros_like(p_rel)
            dqs = torch.zeros_like(qs)
            do_values = None if values is None else do @ values.transpose(-2, -1)  # dO · a^V by distance: (.., b_q, R)
            by_dist = None if values is None else torch.zeros_like(do_values)
            for j0, j1 in _tiles(spec, i0, i1, ctx.k_block):
                s, rows = _scores(spec, qs, k, mask, p_rel, i0, i1, j0, j1)
                p = s.sub_(lse_b).exp_()  # the forward's probabilities, recomputed
                dv[..., j0:j1, :] += p.transpose(-2, -1) @ do
                dp = do @ v[..., j0:j1, :].transpose(-2, -1)
                if values is not None:
                    dp += gather_tile(do_values, rows)
                    scatter_tile(by_dist, rows, p)
                ds = p.mul_(dp.sub_(delta_b))  # softmax's Jacobian, in place
                dqs += ds @ k[..., j0:j1, :]
                dk[..., j0:j1, :] += ds.transpose(-2, -1) @ qs
                if d_rel is not None:
                    scatter_tile(d_rel, rows, ds)
            if d_rel is not None:  # P = Q_s E_rᵀ: dQ_s += dP E_r, dE_r += dPᵀ Q_s (summed over B, and H if shared)
                dqs += d_rel @ table
                grad = (d_rel.transpose(-2, -1) @ qs).sum(0)
                d_table += grad.sum(0, keepdim=True) if table.size(0) == 1 else grad
            if values is not None:  # out += W E_V with W = Σ_j p_ij by distance: dE_V += Wᵀ dO
                grad = (by_dist.transpose(-2, -1) @ do).sum(0)
                d_values += grad.sum(0, keepdim=True) if values.size(0) == 1 else grad
            dq[..., i0:i1, :] = dqs * scale
        return dq, dk, dv, None, d_table, d_values, None, None, None


def blockwise_attention(q: Tensor, k: Tensor, v: Tensor, mask: Tensor | None, spec: TileSpec, table: Tensor | None = None,
                        q_block: int = Q_BLOCK, k_block: int = K_BLOCK, values: Tensor | None = None) -> Tensor:
    """softmax((Q Kᵀ + S_rel) / √d_k + M) V without the T × S matrix: (B, H, T, D_v).

    ``mask``: None or a (B, 1, 1, S) bool of real keys; ``table``: the relative table E_r (H or 1, R, D_k)
    when ``spec.clip`` is set (Shaw's k), read by distance per tile; ``values``: Shaw's E_V (H or 1, R, D_v)
    for the value term, or None.
    """
    if values is not None and table is None:
        raise ValueError("the relative value term needs the relative table (spec.clip and table)")
    if mask is not None and (mask.dim() != 4 or mask.shape[1:3] != (1, 1)):
        raise ValueError(f"blockwise attention takes a (B, 1, 1, S) key mask, got {tuple(mask.shape)}")
    if torch.is_autocast_enabled(q.device.type):
        # Under bfloat16 autocast the inputs arrive in mixed formats: run the tiles, their running
        # sums included, in float32 (the casts are differentiable; the next linear layer casts back).
        with torch.autocast(q.device.type, enabled=False):
            q, k, v = q.float(), k.float(), v.float()
            table = None if table is None else table.float()
            values = None if values is None else values.float()
            return BlockwiseAttention.apply(q, k, v, mask, table, values, spec, q_block, k_block)
    return BlockwiseAttention.apply(q, k, v, mask, table, values, spec, q_block, k_block)
