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

    logits: (..., V); target: (...). H(q', p) = (1 - ε)(-log p_y) + ε · mean_k(-log p_k).
    """
    log_probs = logits.float().log_softmax(dim=-1)
    nll = -log_probs.gather(-1, target.unsqueeze(-1)).squeeze(-1)  # -log p(y)
    uniform = -log_probs.mean(dim=-1)  # cross-entropy against u(k) = 1/V
    real = target != pad_id
    nll, uniform = nll.masked_fill(~real, 0.0).sum(), uniform.masked_fill(~real, 0.0).sum()
    return LossSums((1.0 - epsilon) * nll + epsilon * uniform, nll, real.sum())


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
