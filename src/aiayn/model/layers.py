"""Encoder and decoder layers (paper §3.1, Figure 1) and the position-wise feed-forward network (§3.3).

Legend: B batch, T target length, S source length.
"""

from __future__ import annotations

import torch.nn.functional as F
from torch import Tensor, nn

from ..config import TransformerConfig
from .attention import MultiHeadAttention
from .masks import causal_mask


class FeedForward(nn.Module):
    """§3.3, Eq. 2: FFN(x) = max(0, x W1 + b1) W2 + b2 (GELU instead of max(0, ·) if configured)."""

    def __init__(self, d_model: int, d_ff: int, activation: str = "relu", dropout: float = 0.0):
        super().__init__()
        self.w_1, self.w_2 = nn.Linear(d_model, d_ff), nn.Linear(d_ff, d_model)
        self.activation = F.relu if activation == "relu" else F.gelu
        self.dropout = nn.Dropout(dropout)

    def forward(self, x: Tensor) -> Tensor:
        return self.w_2(self.dropout(self.activation(self.w_1(x))))


class Residual(nn.Module):
    """§3.1 and §5.4: LayerNorm(x + Dropout(Sublayer(x))) (post-norm, the paper).

    With ``norm_first`` (pre-norm, not the paper): x + Dropout(Sublayer(LayerNorm(x))).
    Use as ``residual.output(x, sublayer(residual.input(x)))``.
    """

    def __init__(self, d_model: int, dropout: float, norm_first: bool, eps: float):
        super().__init__()
        self.norm, self.dropout, self.norm_first = nn.LayerNorm(d_model, eps=eps), nn.Dropout(dropout), norm_first

    def input(self, x: Tensor) -> Tensor:
        return self.norm(x) if self.norm_first else x

    def output(self, x: Tensor, sublayer_out: Tensor) -> Tensor:
        y = x + self.dropout(sublayer_out)
        return y if self.norm_first else self.norm(y)


def _attention(cfg: TransformerConfig, cross: bool = False) -> MultiHeadAttention:
    return MultiHeadAttention(cfg.d_model, cfg.n_heads, cfg.d_k, cfg.d_v, cfg.attention_dropout, cross, cfg.attention_bias)


def _residual(cfg: TransformerConfig) -> Residual:
    return Residual(cfg.d_model, cfg.dropout, cfg.norm_first, cfg.layer_norm_eps)


def _feed_forward(cfg: TransformerConfig) -> FeedForward:
    return FeedForward(cfg.d_model, cfg.d_ff, cfg.activation, cfg.activation_dropout)


class EncoderLayer(nn.Module):
    """§3.1, Figure 1 (left): multi-head self-attention, then the feed-forward network."""

    def __init__(self, cfg: TransformerConfig):
        super().__init__()
        self.self_attn, self.ffn = _attention(cfg), _feed_forward(cfg)
        self.res_attn, self.res_ffn = _residual(cfg), _residual(cfg)

    def forward(self, x: Tensor, src_mask: Tensor, need_weights: bool = False) -> tuple[Tensor, Tensor | None]:
        """x: (B, S, d_model); src_mask: (B, 1, 1, S) real keys."""
        h, weights = self.self_attn(self.res_attn.input(x), mask=src_mask, need_weights=need_weights)
        x = self.res_attn.output(x, h)
        return self.res_ffn.output(x, self.ffn(self.res_ffn.input(x))), weights


class DecoderLayer(nn.Module):
    """§3.1, Figure 1 (right): masked self-attention, encoder-decoder attention, feed-forward.

    The decoder's own padding needs no mask: padding sits to the right of every real token,
    so the causal mask already hides it from every real query.
    """

    def __init__(self, cfg: TransformerConfig):
        super().__init__()
        self.self_attn, self.cross_attn, self.ffn = _attention(cfg), _attention(cfg, cross=True), _feed_forward(cfg)
        self.res_self, self.res_cross, self.res_ffn = _residual(cfg), _residual(cfg), _residual(cfg)

    def forward(
        self,
        x: Tensor,
        memory_kv: tuple[Tensor, Tensor],
        src_mask: Tensor,
        cache=None,
        pos: int = 0,
        need_weights: bool = False,
        beams: int = 1,
    ) -> tuple[Tensor, tuple[Tensor | None, Tensor | None]]:
        """x: (N, T, d_model) at positions pos..pos+T-1; memory_kv: this layer's project_kv(memory).

        With a ``cache`` (a KVCache), this step's keys and values are appended to it and the
        queries attend to every cached position. With ``beams`` > 1, x holds ``beams``
        consecutive rows per sentence and memory_kv / src_mask one row per sentence.
        """
        q, k, v = self.self_attn.project_qkv(self.res_self.input(x))
        if cache is not None:
            k, v = cache.update(pos, k, v)  # (B, H, pos+T, D)
        t = q.size(2)
        if cache is None or t == k.size(2):
            mask, causal = None, True
        else:  # cached: the newest t queries see every earlier key (t == 1: nothing to hide)
            mask, causal = (None if t == 1 else causal_mask(t, k.size(2), x.device)), False
        h, w_self = self.self_attn.attend(q, k, v, mask, causal, need_weights)
        x = self.res_self.output(x, h)
        # A sentence's beams query one memory: attend with its beams x T queries at once, so the
        # encoder keys and values are read once per sentence rather than once per beam.
        n, t, d = x.shape
        grouped = self.res_cross.input(x).reshape(n // beams, beams * t, d)
        h, w_cross = self.cross_attn(grouped, mask=src_mask, kv=memory_kv, need_weights=need_weights)
        x = self.res_cross.output(x, h.reshape(n, t, d))
        return self.res_ffn.output(x, self.ffn(self.res_ffn.input(x))), (w_self, w_cross)
