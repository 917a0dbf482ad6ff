"""Greedy decoding: the most probable next token at every step, batched, with a KV cache.

Legend: B sentences, N sentences still decoding, V vocabulary.
"""

from __future__ import annotations

import torch
from torch import Tensor

from .common import Hypothesis, constrain_eos, in_eval_mode, max_target_lengths


@in_eval_mode
def greedy_search(
    model, src: Tensor, max_len_a: float = 1.0, max_len_b: int = 50, max_len: int | None = None, min_len: int = 0
) -> list[Hypothesis]:
    """Decodes each source sentence in (B, S) ``src``; finished sentences leave the batch.

    Outputs have at most max_len_a x (source length) + max_len_b tokens, EOS included, and at
    least ``min_len`` tokens before the EOS (unless the limit comes first).

    ``score`` is the total log-probability (greedy has no length penalty).
    """
    cfg = model.config
    limits = max_target_lengths(src, cfg.pad_id, max_len_a, max_len_b, max_len or cfg.max_positions)
    state = model.start_decoding(src, beam_size=1, capacity=int(limits.max()))
    batch = src.size(0)
    active = torch.arange(batch, device=src.device)  # (N,) sentence of each row
    tokens = torch.full((batch, 1), cfg.bos_id, dtype=torch.long, device=src.device)
    out = torch.full((batch, int(limits.max())), cfg.pad_id, dtype=torch.long, device=src.device)
    token_lp = torch.zeros(batch, int(limits.max()), device=src.device)
    lengths = torch.zeros(batch, dtype=torch.long, device=src.device)
    for t in range(int(limits.max())):
        log_probs = model.decode_step(tokens, state)[:, -1].float().log_softmax(dim=-1)  # (N, V)
        log_probs = constrain_eos(log_probs, t, limits[active], min_len, cfg.eos_id)
        best_lp, best = log_probs.max(dim=-1)
        out[active, t], token_lp[active, t], lengths[active] = best, best_lp, t + 1
        going = best != cfg.eos_id
        if not going.all():
            keep = going.nonzero().squeeze(1)
            if keep.numel() == 0:
                break
            state.reorder(keep)
            active, best = active[keep], best[keep]
        tokens = best[:, None]
    return [_hypothesis(out[b, : lengths[b]], token_lp[b, : lengths[b]]) for b in range(batch)]


def _hypothesis(ids: Tensor, log_probs: Tensor) -> Hypothesis:
    total = float(log_probs.sum())
    return Hypothesis(ids[:-1].tolist(), total, total, log_probs.tolist())
