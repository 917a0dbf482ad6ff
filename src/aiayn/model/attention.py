"""Scaled dot-product and multi-head attention (paper §3.2).

Legend: B batch, H heads, T query length, S key length, D_k / D_v head widths.

The attention core is a pure function ``(q, k, v, mask, causal, dropout_p) -> (out, weights)``
with two backends: ``"math"`` spells out softmax(QKᵀ/√d_k + M)V and returns the weights (for
visualisation and as the test oracle); ``"sdpa"`` is PyTorch's fused
``scaled_dot_product_attention`` and returns no weights. Both give 0, never NaN, for a query
that may attend to nothing.
"""

from __future__ import annotations

import math
from typing import Callable

import torch
import torch.nn.functional as F
from torch import Tensor, nn

from .masks import causal_mask

Attention = Callable[..., tuple[Tensor, Tensor | None]]


def math_attention(
    q: Tensor, k: Tensor, v: Tensor, mask: Tensor | None = None, causal: bool = False, dropout_p: float = 0.0
) -> tuple[Tensor, Tensor]:
    """§3.2.1, Eq. 1: Attention(Q, K, V) = softmax(Q Kᵀ / sqrt(d_k) + M) V, M = -inf where masked."""
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.size(-1))  # (B, H, T, S)
    if causal:
        future_ok = causal_mask(q.size(-2), k.size(-2), q.device)
        mask = future_ok if mask is None else mask & future_ok
    if mask is not None:
        # A finite fill keeps a fully masked row finite; the row is zeroed just below.
        scores = scores.masked_fill(~mask, torch.finfo(scores.dtype).min)
    weights = scores.softmax(dim=-1)
    if mask is not None:
        weights = weights * mask.any(dim=-1, keepdim=True)
    out = F.dropout(weights, p=dropout_p) @ v  # (B, H, T, D_v)
    return out, weights


def sdpa_attention(
    q: Tensor, k: Tensor, v: Tensor, mask: Tensor | None = None, causal: bool = False, dropout_p: float = 0.0
) -> tuple[Tensor, None]:
    """Eq. 1 through PyTorch's fused kernel (flash / memory-efficient / math, chosen by PyTorch)."""
    if causal and mask is not None:
        mask, causal = mask & causal_mask(q.size(-2), k.size(-2), q.device), False
    elif causal and q.size(-2) != k.size(-2):
        # SDPA's is_causal aligns the diagonal top-left; cached queries need it bottom-right.
        mask, causal = causal_mask(q.size(-2), k.size(-2), q.device), False
    out = F.scaled_dot_product_attention(q, k, v, attn_mask=mask, dropout_p=dropout_p, is_causal=causal)
    return out, None


ATTENTION_BACKENDS: dict[str, Attention] = {"math": math_attention, "sdpa": sdpa_attention}


class MultiHeadAttention(nn.Module):
    """§3.2.2: MultiHead(Q, K, V) = Concat(head_1, ..., head_h) W^O, head_i = Attention(Q W_i^Q, K W_i^K, V W_i^V).

    All heads' projections live in one matrix per role (W^Q of shape d_model x h·d_k, ...), and
    for self-attention Q, K and V are one fused matrix, so each is a single matmul.
    ``d_k`` and ``d_v`` are free (Table 3 rows A and B); the paper sets both to d_model / h.
    """

    def __init__(
        self, d_model: int, n_heads: int, d_k: int, d_v: int, dropout: float = 0.0, cross: bool = False, bias: bool = True
    ):
        super().__init__()
        self.n_heads, self.d_k, self.d_v, self.dropout, self.cross = n_heads, d_k, d_v, dropout, cross
        if cross:  # queries from the decoder, keys and values from the encoder output
            self.w_q = nn.Linear(d_model, n_heads * d_k, bias=bias)
            self.w_kv = nn.Linear(d_model, n_heads * (d_k + d_v), bias=bias)
        else:
            self.w_qkv = nn.Linear(d_model, n_heads * (2 * d_k + d_v), bias=bias)
        self.w_o = nn.Linear(n_heads * d_v, d_model, bias=bias)

    def _split_heads(self, x: Tensor, d: int) -> Tensor:
        b, t, _ = x.shape
        return x.view(b, t, self.n_heads, d).transpose(1, 2)  # (B, T, H*d) -> (B, H, T, d)

    def project_kv(self, memory: Tensor) -> tuple[Tensor, Tensor]:
        """K W^K and V W^V of the encoder output: (B, S, d_model) -> (B, H, S, D_k), (B, H, S, D_v)."""
        k, v = self.w_kv(memory).split([self.n_heads * self.d_k, self.n_heads * self.d_v], dim=-1)
        return self._split_heads(k, self.d_k), self._split_heads(v, self.d_v)

    def project_qkv(self, x: Tensor) -> tuple[Tensor, Tensor, Tensor]:
        """Self-attention's Q, K, V of x: (B, T, d_model) -> three (B, H, T, D)."""
        hk, hv = self.n_heads * self.d_k, self.n_heads * self.d_v
        q, k, v = self.w_qkv(x).split([hk, hk, hv], dim=-1)
        return self._split_heads(q, self.d_k), self._split_heads(k, self.d_k), self._split_heads(v, self.d_v)

    def attend(
        self, q: Tensor, k: Tensor, v: Tensor, mask: Tensor | None, causal: bool, need_weights: bool
    ) -> tuple[Tensor, Tensor | None]:
        """Runs Eq. 1 on all heads at once and applies W^O: -> (B, T, d_model), weights (B, H, T, S)."""
        backend = ATTENTION_BACKENDS["math" if need_weights else "sdpa"]
        out, weights = backend(q, k, v, mask, causal, self.dropout if self.training else 0.0)
        b, _, t, _ = out.shape
        out = out.transpose(1, 2).reshape(b, t, self.n_heads * self.d_v)  # (B, H, T, D_v) -> (B, T, H*D_v)
        return self.w_o(out), weights

    def forward(
        self,
        x: Tensor,
        mask: Tensor | None = None,
        causal: bool = False,
        kv: tuple[Tensor, Tensor] | None = None,
        need_weights: bool = False,
    ) -> tuple[Tensor, Tensor | None]:
        """Self-attention over x, or (cross) attention from x to precomputed ``kv = project_kv(memory)``."""
        if self.cross:
            if kv is None:
                raise ValueError("cross-attention needs kv = project_kv(memory)")
            q, (k, v) = self._split_heads(self.w_q(x), self.d_k), kv
        else:
            q, k, v = self.project_qkv(x)
        return self.attend(q, k, v, mask, causal, need_weights)
