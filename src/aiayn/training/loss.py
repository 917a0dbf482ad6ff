"""Label-smoothed cross-entropy (paper §5.4): q'(k|x) = (1 - ε) δ(k, y) + ε u(k), u uniform over V."""

from __future__ import annotations

from typing import NamedTuple

from torch import Tensor


class LossSums(NamedTuple):
    """Sums over the real (non-pad) target tokens; divide by ``n_tokens`` for means."""

    loss: Tensor  # label-smoothed cross-entropy: what is optimised
    nll: Tensor  # -log p(true token): exp(nll / n_tokens) is the perplexity of the true tokens
    n_tokens: Tensor


def label_smoothed_cross_entropy(logits: Tensor, target: Tensor, epsilon: float = 0.1, pad_id: int = 0) -> LossSums:
    """Cross-entropy between q' and the model's p, summed over non-pad positions.

    logits: (..., V); target: (...). H(q', p) = (1 - ε)(-log p_y) + ε · mean_k(-log p_k).
    """
    log_probs = logits.float().log_softmax(dim=-1)
    nll = -log_probs.gather(-1, target.unsqueeze(-1)).squeeze(-1)  # -log p(y)
    uniform = -log_probs.mean(dim=-1)  # cross-entropy against u(k) = 1/V
    real = target != pad_id
    nll, uniform = nll.masked_fill(~real, 0.0).sum(), uniform.masked_fill(~real, 0.0).sum()
    return LossSums((1.0 - epsilon) * nll + epsilon * uniform, nll, real.sum())
