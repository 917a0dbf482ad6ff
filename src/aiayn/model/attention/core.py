"""The attention core of paper §3.2.1, Eq. 1, with one slot for every variant's score term.

Legend: B batch, H heads, T query length, S key length, D_k / D_v head widths.

A kernel is a pure function ``(q, k, v, mask, causal, dropout_p, bias, need_weights) -> (out, weights)``:

    out = softmax(Q Kᵀ / √d_k + bias + M) V

``bias`` is the variant's additive score term (relative logits, a band, a learned bias), already
on the scale of the scaled scores; ``M`` is −∞ where the boolean ``mask`` is False or a key lies
in a query's future (``causal``). Two kernels: ``"math"`` spells the formula out (the test
oracle); ``"sdpa"`` is PyTorch's fused ``scaled_dot_product_attention``. Both give 0, never NaN,
for a query that may attend to nothing, and both return the weights when ``need_weights``.
``ATTENTION_KERNELS`` holds them by the name that ``attention_kernel`` (config and layer) gives.
"""

from __future__ import annotations

import math
from typing import Callable

import torch
import torch.nn.functional as F
from torch import Tensor
from torch.nn.attention import SDPBackend, sdpa_kernel

from ..masks import causal_mask

Kernel = Callable[..., tuple[Tensor, Tensor | None]]
CPU_BF16_MATH_KEYS = 512  # sentence lengths: the unfused form wins on the CPU in bf16 (and its S x S fits the cache)
# ... except in inference with batch x heads x keys at most this: one sentence decoded, where the unfused
# form's eight kernel calls cost more than the fused kernel's whole work (BENCHMARKS.md, one sentence at a time)
CPU_BF16_FUSED_WORK = 1024
# On CUDA every fused kernel but cuDNN's: cuDNN builds a graph for each new shape (0.13 s a call on an H200), and
# here shapes change at every batch and every decoding step (BENCHMARKS.md, "cuDNN attention and changing shapes")
CUDA_SDPA_BACKENDS = [SDPBackend.FLASH_ATTENTION, SDPBackend.EFFICIENT_ATTENTION, SDPBackend.MATH]


def full_mask(mask: Tensor | None, causal: bool, n_queries: int, n_keys: int, device) -> Tensor | None:
    """The boolean mask with the causal rule folded in (queries are the last ``n_queries`` positions)."""
    if not causal:
        return mask
    future_ok = causal_mask(n_queries, n_keys, device)
    return future_ok if mask is None else mask & future_ok


def attention_weights(q: Tensor, k: Tensor, mask: Tensor | None, bias: Tensor | None) -> Tensor:
    """softmax(Q Kᵀ / √d_k + bias + M): (B, H, T, S); a row with no allowed key is all zeros."""
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.size(-1))  # (B, H, T, S)
    if bias is not None:
        scores = scores + bias
    return masked_softmax(scores, mask)


def masked_softmax(scores: Tensor, mask: Tensor | None) -> Tensor:
    """softmax over the last axis with M: -inf where ``mask`` is False; a row with no allowed key is all zeros."""
    if mask is None:
        return scores.softmax(dim=-1)
    # A finite fill keeps a fully masked row finite; the row is zeroed just below.
    weights = scores.masked_fill(~mask, torch.finfo(scores.dtype).min).softmax(dim=-1)
    return weights * mask.any(dim=-1, keepdim=True)


def one_query_attention(q: Tensor, k: Tensor, v: Tensor, mask: Tensor) -> Tensor:
    """Eq. 1 for one query per row, written as sums: q (..., D), k and v (..., S, D), mask (..., S) True where a
    key may be attended, broadcast against each other -> (..., D_v). For the compiled decoding step: Inductor fuses
    the sums into loops of its own, where a product of matrices would call a batched ``bmm`` per attention once the
    rows are a dynamic size (about 40 µs each at one sentence's sizes, six a step at beam 4; BENCHMARKS.md)."""
    scores = (q.unsqueeze(-2) * k).sum(-1) / math.sqrt(q.size(-1))  # (..., S)
    return (masked_softmax(scores, mask).unsqueeze(-1) * v).sum(-2)


def math_attention(q: Tensor, k: Tensor, v: Tensor, mask: Tensor | None = None, causal: bool = False,
                   dropout_p: float = 0.0, bias: Tensor | None = None, need_weights: bool = True,
                   ) -> tuple[Tensor, Tensor]:
    """§3.2.1, Eq. 1 written out: Attention(Q, K, V) = softmax(Q Kᵀ / √d_k + bias + M) V."""
    weights = attention_weights(q, k, full_mask(mask, causal, q.size(-2), k.size(-2), q.device), bias)
    return F.dropout(weights, p=dropout_p) @ v, weights  # (B, H, T, D_v)


def sdpa_attention(q: Tensor, k: Tensor, v: Tensor, mask: Tensor | None = None, causal: bool = False,
                   dropout_p: float = 0.0, bias: Tensor | None = None, need_weights: bool = False,
                   ) -> tuple[Tensor, Tensor | None]:
    """Eq. 1 through PyTorch's fused kernel (flash / memory-efficient / math, chosen by PyTorch).

    With ``need_weights`` the weights are computed once more, explicitly, beside the fused output.
    On the CPU in bfloat16 with up to ``CPU_BF16_MATH_KEYS`` keys, the formula spelled out runs instead:
    PyTorch's fused CPU kernel is 2-4x slower there, forward and backward (BENCHMARKS.md, bf16 profile),
    but for the few rows of one sentence decoded (``small_inference``) the fused kernel is faster. Compiled
    (``model.compiled``), the formula always: Inductor fuses it, and a choice by size would recompile per size.
    """
    if q.device.type == "cpu" and q.dtype == torch.bfloat16 and (torch.compiler.is_compiling() or (
            k.size(-2) <= CPU_BF16_MATH_KEYS and not small_inference(q, k))):
        out, weights = math_attention(q, k, v, mask, causal, dropout_p, bias)
        return out, weights if need_weights else None
    weights = attention_weights(q, k, full_mask(mask, causal, q.size(-2), k.size(-2), q.device), bias) \
        if need_weights else None
    if bias is None and not (causal and (mask is not None or q.size(-2) != k.size(-2))):
        return fused(q, k, v, attn_mask=mask, dropout_p=dropout_p, is_causal=causal), weights
    # SDPA's is_causal aligns the diagonal top-left (cached queries need bottom-right) and takes no
    # bias beside a mask: fold everything into one mask or one additive term.
    mask = full_mask(mask, causal, q.size(-2), k.size(-2), q.device)
    if bias is None:
        return fused(q, k, v, attn_mask=mask, dropout_p=dropout_p), weights
    if mask is not None:
        bias = bias.masked_fill(~mask, torch.finfo(bias.dtype).min)
    out = fused(q, k, v, attn_mask=bias.to(q.dtype), dropout_p=dropout_p)
    return (out if mask is None else out * mask.any(dim=-1, keepdim=True)), weights


def fused(q: Tensor, k: Tensor, v: Tensor, **options) -> Tensor:
    """``F.scaled_dot_product_attention``; on CUDA limited to ``CUDA_SDPA_BACKENDS``."""
    if q.device.type != "cuda":
        return F.scaled_dot_product_attention(q, k, v, **options)
    with sdpa_kernel(CUDA_SDPA_BACKENDS):
        return F.scaled_dot_product_attention(q, k, v, **options)


def small_inference(q: Tensor, k: Tensor) -> bool:
    """Few enough rows x keys for the fused kernel in bf16 on the CPU; without gradients only, so that
    training keeps one kernel whatever its batch's shape (and resumes bit for bit)."""
    return not torch.is_grad_enabled() and q.size(0) * q.size(1) * k.size(-2) <= CPU_BF16_FUSED_WORK


# The attention kernels by name: ModelConfig.attention_kernel, MultiHeadAttention(attention_kernel=...).
ATTENTION_KERNELS: dict[str, Kernel] = {"math": math_attention, "sdpa": sdpa_attention}
ATTENTION_BACKENDS = ATTENTION_KERNELS  # the table's earlier name, kept for library callers
