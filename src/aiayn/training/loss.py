"""Label-smoothed cross-entropy (paper §5.4): q'(k|x) = (1 - ε) δ(k, y) + ε u(k), u uniform over V."""

from __future__ import annotations

from typing import NamedTuple

import torch
from torch import Tensor


class LossSums(NamedTuple):
    """Sums over the real (non-pad) target tokens; divide by ``n_tokens`` for means."""

    loss: Tensor  # label-smoothed cross-entropy: what is optimised
    nll: Tensor  # -log p(true token): exp(nll / n_tokens) is the perplexity of the true tokens
    n_tokens: Tensor


def label_smoothed_cross_entropy(logits: Tensor, target: Tensor, epsilon: float = 0.1, pad_id: int = 0) -> LossSums:
    """Cross-entropy between q' and the model's p, summed over non-pad positions.

    logits: (..., V); target: (...). H(q', p) = (1 - ε)(-log p_y) + ε · mean_k(-log p_k). Computed in
    float32 whatever the logits' type. bfloat16 logits take ``fused_smoothed_cross_entropy`` (the same sums,
    several times faster there); float32 ones keep this form.
    """
    if logits.dtype in (torch.bfloat16, torch.float16):
        loss, nll = fused_smoothed_cross_entropy(logits, target, epsilon, pad_id)
        return LossSums(loss, nll, (target != pad_id).sum())
    log_probs = logits.float().log_softmax(dim=-1)
    nll = -log_probs.gather(-1, target.unsqueeze(-1)).squeeze(-1)  # -log p(y)
    uniform = -log_probs.mean(dim=-1)  # cross-entropy against u(k) = 1/V
    real = target != pad_id
    nll, uniform = nll.masked_fill(~real, 0.0).sum(), uniform.masked_fill(~real, 0.0).sum()
    return LossSums((1.0 - epsilon) * nll + epsilon * uniform, nll, real.sum())


def fused_smoothed_cross_entropy(logits: Tensor, target: Tensor, epsilon: float = 0.1, pad_id: int = 0,
                                 ) -> tuple[Tensor, Tensor]:
    """The label-smoothed loss and NLL sums from -log p_k = logsumexp(z) - z_k: per position only
    logsumexp(z), z_y and mean(z), never the (..., V) table of log-probabilities, in one pass each way."""
    return _SmoothedCrossEntropy.apply(logits, target, epsilon, pad_id)


def _row_chunks(n_rows: int, vocab: int):
    """Row ranges of about a million logits: each one's float32 copy stays in the cache."""
    step = max(1, 2**20 // vocab)
    return ((a, min(a + step, n_rows)) for a in range(0, n_rows, step))


class _SmoothedCrossEntropy(torch.autograd.Function):
    """Forward and backward of the label-smoothed sums in one pass each over the logits (in chunks of
    rows), tested equal to log_softmax, gather and their backward. The gradient is d loss / d z =
    p - (1 - ε) onehot(y) - ε / V on every real position, 0 on padding. Only PyTorch's fastest CPU kernels
    here: softmax (faster than ``logsumexp`` and than ``exp_`` alone), in-place row scaling instead of a
    broadcast ``masked_fill_`` (those are 1.4-8x slower there; BENCHMARKS.md)."""

    @staticmethod
    def forward(ctx, logits: Tensor, target: Tensor, epsilon: float, pad_id: int):
        flat, tgt = logits.reshape(-1, logits.size(-1)), target.reshape(-1, 1)
        lse, z_y, z_sum = (torch.empty(flat.size(0), device=logits.device) for _ in range(3))
        for a, b in _row_chunks(*flat.shape):
            z = flat[a:b].float()
            # logsumexp(z) = max z - log max softmax(z): the largest probability is >= 1/V, its log well conditioned
            lse[a:b] = z.amax(dim=-1).sub_(z.softmax(dim=-1).amax(dim=-1).log_())
            z_sum[a:b] = z.sum(dim=-1)
            z_y[a:b] = z.gather(-1, tgt[a:b]).squeeze(-1)
        pad = tgt.squeeze(-1) == pad_id
        nll = (lse - z_y).masked_fill(pad, 0.0).sum()
        uniform = (lse - z_sum / flat.size(-1)).masked_fill(pad, 0.0).sum()
        ctx.save_for_backward(logits, target)
        ctx.epsilon, ctx.pad_id = epsilon, pad_id
        return (1.0 - epsilon) * nll + epsilon * uniform, nll

    @staticmethod
    def backward(ctx, grad_loss: Tensor, grad_nll: Tensor):
        logits, target = ctx.saved_tensors
        eps, vocab = ctx.epsilon, logits.size(-1)
        flat, tgt = logits.reshape(-1, vocab), target.reshape(-1, 1)
        real = (tgt != ctx.pad_id).float()  # (N, 1): scaling every term by it zeroes the padding's rows
        scale, shift = real * (grad_loss + grad_nll), real * (-grad_loss * eps / vocab)
        on_target = real * -(grad_loss * (1.0 - eps) + grad_nll)  # the one-hot term of both sums
        grad = torch.empty_like(flat)
        for a, b in _row_chunks(*flat.shape):
            g = flat[a:b].float().softmax(dim=-1).mul_(scale[a:b]).add_(shift[a:b])
            grad[a:b] = g.scatter_add_(-1, tgt[a:b], on_target[a:b])
        return grad.view_as(logits), None, None, None


def unlikelihood(logits: Tensor, candidates: Tensor, target: Tensor, pad_id: int = 0) -> Tensor:
    """Token-level unlikelihood (Welleck et al. 2019, "Neural Text Generation with Unlikelihood Training"):
    -Σ_c log(1 - p_c) over the negative candidates c of each non-pad position, summed.

    logits: (..., V); candidates: (..., V) bool, the tokens to make unlikely there; target: (...). The true
    token is never a candidate: where the data itself does what the candidates forbid, only the NLL speaks.
    """
    p = logits.float().softmax(dim=-1)
    real = target != pad_id
    negative = (candidates & real.unsqueeze(-1)).scatter(-1, target.masked_fill(~real, 0).unsqueeze(-1), False)
    return -torch.log1p(-p.clamp(max=1 - 1e-6)).masked_fill(~negative, 0.0).sum()
