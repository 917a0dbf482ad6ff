"""Encoder and decoder layers (paper §3.1, Figure 1) and the position-wise feed-forward network (§3.3).

Legend: B batch, T target length, S source length.
"""

from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import Tensor, nn

from .attention import VARIANTS, MultiHeadAttention
from .config import LayerConfig


def init_linear_weights(model: nn.Module) -> None:
    """Xavier-uniform projections and zero biases (Glorot & Bengio), as tensor2tensor and fairseq do."""
    for module in model.modules():
        if isinstance(module, nn.Linear):
            nn.init.xavier_uniform_(module.weight)
            if module.bias is not None:
                nn.init.zeros_(module.bias)


class Dropout(nn.Dropout):
    """Dropout (§5.4; Srivastava et al. 2014): each element zeroed with probability p, the rest scaled by
    1 / (1 - p). For bfloat16 on the CPU the mask is 16 random bits an element, four from each 64-bit draw,
    kept at or above round(p * 2^16) (P(keep) within 2^-17 of 1 - p): a third of the cost of ``torch.rand``'s
    one float draw an element. float32 keeps ``F.dropout`` and its random stream, so float32 runs stay
    bit-identical across versions (and resume exactly)."""

    def forward(self, x: Tensor) -> Tensor:
        if not self.training or self.p in (0.0, 1.0) or x.device.type != "cpu" or x.dtype != torch.bfloat16:
            return F.dropout(x, self.p, self.training)
        n = x.numel()
        bits = torch.empty((n + 3) // 4, dtype=torch.int64, device=x.device).random_(-2**63, None)  # all 64 bits
        keep = bits.view(torch.int16)[:n].view(x.shape) >= round(self.p * 2**16) - 2**15
        return x * keep.to(x.dtype).mul_(1.0 / (1.0 - self.p))


class FeedForward(nn.Module):
    """§3.3, Eq. 2: FFN(x) = max(0, x W1 + b1) W2 + b2 (GELU instead of max(0, ·) if configured)."""

    def __init__(self, d_model: int, d_ff: int, activation: str = "relu", dropout: float = 0.0):
        super().__init__()
        self.w_1, self.w_2 = nn.Linear(d_model, d_ff), nn.Linear(d_ff, d_model)
        self.activation = F.relu if activation == "relu" else F.gelu
        self.dropout = Dropout(dropout)

    def forward(self, x: Tensor) -> Tensor:
        return self.w_2(self.dropout(self.activation(self.w_1(x))))


class Residual(nn.Module):
    """§3.1 and §5.4: LayerNorm(x + Dropout(Sublayer(x))) (post-norm, the paper).

    With ``norm_first`` (pre-norm, not the paper): x + Dropout(Sublayer(LayerNorm(x))).
    Use as ``residual.output(x, sublayer(residual.input(x)))``.
    """

    def __init__(self, d_model: int, dropout: float, norm_first: bool, eps: float):
        super().__init__()
        self.norm, self.dropout, self.norm_first = nn.LayerNorm(d_model, eps=eps), Dropout(dropout), norm_first

    def input(self, x: Tensor) -> Tensor:
        return self.norm(x) if self.norm_first else x

    def output(self, x: Tensor, sublayer_out: Tensor) -> Tensor:
        y = x + self.dropout(sublayer_out)
        return y if self.norm_first else self.norm(y)


def _attention(cfg: LayerConfig, cross: bool = False, causal: bool = False) -> MultiHeadAttention:
    """One attention sub-layer with the config's kernel and, for self-attention, its variant."""
    # Variants are self-attention's: a target and a source position have no distance, so cross-attention stays full.
    variant = VARIANTS[cfg.attention].from_config(cfg, causal) if cfg.attention != "full" and not cross else None
    return MultiHeadAttention(cfg.d_model, cfg.n_heads, cfg.d_k, cfg.d_v, cfg.attention_dropout, cross,
                              cfg.attention_bias, cfg.attention_kernel, variant)


def _residual(cfg: LayerConfig) -> Residual:
    return Residual(cfg.d_model, cfg.dropout, cfg.norm_first, cfg.layer_norm_eps)


def _feed_forward(cfg: LayerConfig) -> FeedForward:
    return FeedForward(cfg.d_model, cfg.d_ff, cfg.activation, cfg.activation_dropout)


class EncoderLayer(nn.Module):
    """§3.1, Figure 1 (left): multi-head self-attention, then the feed-forward network."""

    def __init__(self, cfg: LayerConfig):
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

    With ``cross=False`` there is no encoder-decoder attention: the layer of a decoder-only model.
    The decoder's right padding needs no mask: padding sits to the right of every real token, so
    the causal mask already hides it from every real query. Left padding (prompts of different
    lengths while decoding) comes with a ``self_mask``.
    """

    def __init__(self, cfg: LayerConfig, cross: bool = True):
        super().__init__()
        self.self_attn, self.ffn = _attention(cfg, causal=True), _feed_forward(cfg)
        self.res_self, self.res_ffn = _residual(cfg), _residual(cfg)
        self.cross_attn = _attention(cfg, cross=True) if cross else None
        self.res_cross = _residual(cfg) if cross else None

    def forward(
        self,
        x: Tensor,
        memory_kv: tuple[Tensor, Tensor] | None = None,
        src_mask: Tensor | None = None,
        cache=None,
        pos: int = 0,
        need_weights: bool = False,
        beams: int = 1,
        self_mask: Tensor | None = None,
    ) -> tuple[Tensor, tuple[Tensor | None, Tensor | None]]:
        """x: (N, T, d_model) at positions pos..pos+T-1; memory_kv: this layer's project_kv(memory).

        With a ``cache`` (a KVCache), this step's keys and values are appended to it and the
        queries attend to every cached position. With ``beams`` > 1, x holds ``beams``
        consecutive rows per sentence and memory_kv / src_mask one row per sentence.
        ``self_mask``: (N, 1, 1, pos+T) keys that are real (None: all are).
        """
        q, k, v = self.self_attn.project_qkv(self.res_self.input(x))
        if cache is not None:
            one_plain_query = q.size(2) == 1 and self.self_attn.variant is None and not need_weights
            k, v, self_mask = cache.update(pos, k, v, self_mask, whole=one_plain_query)  # (N, H, pos+T or L, D)
        causal = q.size(2) > 1  # a single (newest) query sees every key so far: nothing to hide
        h, w_self = self.self_attn.attend(q, k, v, self_mask, causal, need_weights)
        x = self.res_self.output(x, h)
        w_cross = None
        if self.cross_attn is not None:
            # A sentence's beams query one memory: attend with its beams x T queries at once, so the
            # encoder keys and values are read once per sentence rather than once per beam.
            n, t, d = x.shape
            grouped = self.res_cross.input(x).reshape(n // beams, beams * t, d)
            h, w_cross = self.cross_attn(grouped, mask=src_mask, kv=memory_kv, need_weights=need_weights)
            x = self.res_cross.output(x, h.reshape(n, t, d))
        return self.res_ffn.output(x, self.ffn(self.res_ffn.input(x))), (w_self, w_cross)
