"""Block-by-block attention in O(L) extra memory (the online softmax of Milakov & Gimelshein 2018, as in
FlashAttention, Dao et al. 2022, Alg. 1 and 2), asking the variant (``tiles.TileVariant``) for its tiles.

Legend: B batch, H heads, T queries, S keys, D_k / D_v head widths, b_q × b_k one tile.

Eq. 1 of the paper with the variant's score term, softmax(Q Kᵀ / √d_k + S_var + M) V, computed
one query block at a time: each block visits only the key tiles its queries can reach
(``TileSpec.key_range``: tiles above the causal diagonal or outside a local band are skipped),
keeping per row the running maximum m and sum ℓ of exp(score − m) and rescaling the output
accumulator when m grows. Only Q, K, V, the output, the row log-sum-exp (T values per head) and the
variant's params are saved; the backward pass recomputes each tile's probabilities from the
log-sum-exp, so no T × S tensor ever exists (the largest is one block's b_q × b_k tile, and what the
variant keeps per block: relative attention's P = Q E_rᵀ of b_q × R).

The variant's part is asked per query block (``TileVariant.block``: its score term per tile, and an
output term linear in the probabilities such as Shaw's values, rescaled with the output) and per tile
(``TileSpec.mask``); the kernel knows no variant by name.

Rows with no allowed key give 0 (as ``core.math_attention``). No dropout on the weights: callers
with attention dropout take the materialising path.
"""

from __future__ import annotations

import math

import torch
from torch import Tensor

from .tiles import BlockTerm, TileSpec

Q_BLOCK, K_BLOCK = 256, 512  # large enough that Python's per-tile cost vanishes behind the matmuls


def _scores(spec: TileSpec, term: BlockTerm, qs: Tensor, k: Tensor, mask: Tensor | None,
            i0: int, i1: int, j0: int, j1: int) -> Tensor:
    """One tile's scaled logits (B, H, b_q, b_k) with the variant's term, −∞ where not allowed."""
    s = qs @ k[..., j0:j1, :].transpose(-2, -1)
    extra = term.scores(j0, j1)
    if extra is not None:
        s += extra
    allowed = spec.mask(i0, i1, j0, j1, s.device)
    if mask is not None:  # (B, 1, 1, S) real keys
        key_ok = mask[..., j0:j1]
        allowed = key_ok if allowed is None else allowed & key_ok
    if allowed is not None:
        s.masked_fill_(~allowed, -math.inf)
    return s


def _tiles(spec: TileSpec, i0: int, i1: int, k_block: int):
    lo, hi = spec.key_range(i0, i1)
    for j0 in range(lo, hi, k_block):
        yield j0, min(j0 + k_block, hi)


class BlockwiseAttention(torch.autograd.Function):
    """(q, k, v, mask, spec, q_block, k_block, *params) -> out (B, H, T, D_v); gradients for q, k, v and
    the variant's params."""

    @staticmethod
    def forward(ctx, q, k, v, mask, spec: TileSpec, q_block: int, k_block: int, *params):
        scale = q.size(-1) ** -0.5
        out = q.new_empty(*q.shape[:-1], v.size(-1))
        lse = q.new_empty(*q.shape[:-1], 1)
        for i0 in range(0, q.size(-2), q_block):
            i1 = min(i0 + q_block, q.size(-2))
            qs = q[..., i0:i1, :] * scale
            term = spec.variant.block(qs, *spec.positions(i0, i1), params)
            m = qs.new_full((*qs.shape[:-1], 1), -math.inf)
            total = qs.new_zeros(*qs.shape[:-1], 1)
            acc = qs.new_zeros(*qs.shape[:-1], v.size(-1))
            for j0, j1 in _tiles(spec, i0, i1, k_block):
                s = _scores(spec, term, qs, k, mask, i0, i1, j0, j1)
                m_new = torch.maximum(m, s.amax(-1, keepdim=True))
                shift = m_new.nan_to_num(neginf=0.0)  # a row with nothing allowed yet: exp(−∞ − 0) = 0
                p = s.sub_(shift).exp_()
                rescale = (m - shift).exp_()
                total.mul_(rescale).add_(p.sum(-1, keepdim=True))
                acc.mul_(rescale).add_(p @ v[..., j0:j1, :])
                term.add_probs(p, rescale)
                m = m_new
            extra = term.output()
            if extra is not None:
                acc += extra
            empty = total == 0
            out[..., i0:i1, :] = acc / total.masked_fill(empty, 1.0)
            # An empty row's log-sum-exp is +∞, so that the backward's exp(s − lse) is 0 there.
            lse[..., i0:i1, :] = (m.nan_to_num(neginf=0.0) + total.log()).masked_fill(empty, math.inf)
        ctx.save_for_backward(q, k, v, mask, out, lse, *params)
        ctx.spec, ctx.q_block, ctx.k_block = spec, q_block, k_block
        return out

    @staticmethod
    def backward(ctx, d_out):
        q, k, v, mask, out, lse, *params = ctx.saved_tensors
        spec, scale = ctx.spec, q.size(-1) ** -0.5
        dq, dk, dv = torch.zeros_like(q), torch.zeros_like(k), torch.zeros_like(v)
        d_params = [torch.zeros_like(p) for p in params]
        for i0 in range(0, q.size(-2), ctx.q_block):
            i1 = min(i0 + ctx.q_block, q.size(-2))
            qs, do, lse_b = q[..., i0:i1, :] * scale, d_out[..., i0:i1, :], lse[..., i0:i1, :]
            # rowsum(dO ∘ O) = Σ_j p_ij dp_ij, per block: no (B, H, T, D_v) product, no contiguous copy of dO
            delta_b = (do * out[..., i0:i1, :]).sum(-1, keepdim=True)
            term = spec.variant.block(qs, *spec.positions(i0, i1), tuple(params), do)
            dqs = torch.zeros_like(qs)
            for j0, j1 in _tiles(spec, i0, i1, ctx.k_block):
                p = _scores(spec, term, qs, k, mask, i0, i1, j0, j1).sub_(lse_b).exp_()  # the forward's, recomputed
                dv[..., j0:j1, :] += p.transpose(-2, -1) @ do
                dp = do @ v[..., j0:j1, :].transpose(-2, -1)
                term.add_d_probs(dp)
                term.add_probs(p)
                ds = p.mul_(dp.sub_(delta_b))  # softmax's Jacobian, in place
                dqs += ds @ k[..., j0:j1, :]
                dk[..., j0:j1, :] += ds.transpose(-2, -1) @ qs
                term.add_d_scores(ds)
            for d_param, grad in zip(d_params, term.grads(dqs)):
                if grad is not None:
                    d_param += grad
            dq[..., i0:i1, :] = dqs * scale
        return dq, dk, dv, None, None, None, None, *d_params


def blockwise_attention(q: Tensor, k: Tensor, v: Tensor, mask: Tensor | None, spec: TileSpec, *params: Tensor,
                        q_block: int = Q_BLOCK, k_block: int = K_BLOCK) -> Tensor:
    """softmax(Q Kᵀ / √d_k + S_var + M) V (+ the variant's output term) without the T × S matrix: (B, H, T, D_v).

    ``mask``: None or a (B, 1, 1, S) bool of real keys; ``spec.variant`` says what the variant adds, and
    ``params`` are its learned tensors (relative: E_r (H or 1, R, D_k), and E_V (H or 1, R, D_v)).
    """
    if mask is not None and (mask.dim() != 4 or mask.shape[1:3] != (1, 1)):
        raise ValueError(f"blockwise attention takes a (B, 1, 1, S) key mask, got {tuple(mask.shape)}")
    if torch.is_autocast_enabled(q.device.type):
        # Under bfloat16 autocast the inputs arrive in mixed formats: run the tiles, their running
        # sums included, in float32 (the casts are differentiable; the next linear layer casts back).
        with torch.autocast(q.device.type, enabled=False):
            q, k, v = q.float(), k.float(), v.float()
            return BlockwiseAttention.apply(q, k, v, mask, spec, q_block, k_block, *(p.float() for p in params))
    return BlockwiseAttention.apply(q, k, v, mask, spec, q_block, k_block, *params)
