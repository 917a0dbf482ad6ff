"""Beam search with the GNMT length penalty (paper §6.1: beam 4, α = 0.6, max length = input + 50).

Legend: B sentences still searching, K beam size, V vocabulary, N = B x K decoder rows.

The *strategy* (``BeamStep``: scores, top-k over K x V, which candidates finish) is kept apart
from the *loop* (``beam_search``: calling the model, reordering its cache, collecting results).
A sentence stops when K hypotheses have finished (each ends in EOS), or at its length limit;
finished sentences leave the batch.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch
from torch import Tensor

from .common import Hypothesis, constrain_eos, in_eval_mode, max_target_lengths


def length_penalty(length: int | Tensor, alpha: float) -> float | Tensor:
    """GNMT (Wu et al. 2016): lp(Y) = ((5 + |Y|) / 6)^α, |Y| counting the EOS token."""
    return ((5 + length) / 6) ** alpha


@dataclass
class BeamStep:
    """One step's decision for B sentences: the next K beams and the candidates that finished."""

    scores: Tensor  # (B, K) cumulative log-probabilities of the continuing beams
    parents: Tensor  # (B, K) which previous beam each continues
    tokens: Tensor  # (B, K) the token each appends
    finished: list[tuple[int, int, int, float]]  # (sentence, parent beam, token, log-prob)


def beam_step(scores: Tensor, log_probs: Tensor, eos_id: int) -> BeamStep:
    """Top 2K of the K x V extensions: EOS among the best K finish; the best K others continue.

    scores: (B, K); log_probs: (B, K, V). Each beam has one EOS extension, so at most K of the
    2K candidates are EOS and K non-EOS candidates always remain.
    """
    b, k, v = log_probs.shape
    candidates = (scores[:, :, None] + log_probs).view(b, k * v)  # (B, K*V)
    top_scores, top_index = candidates.topk(2 * k, dim=1)  # (B, 2K), best first
    parents, tokens = top_index // v, top_index % v
    is_eos = tokens == eos_id
    finished = [
        (i, int(parents[i, j]), eos_id, float(top_scores[i, j]))
        for i, j in (is_eos[:, :k] & top_scores[:, :k].isfinite()).nonzero().tolist()
    ]
    # The first K non-EOS candidates in rank order continue (a stable sort keeps the ranks).
    order = is_eos.to(torch.int8).argsort(dim=1, stable=True)[:, :k]  # (B, K)
    return BeamStep(top_scores.gather(1, order), parents.gather(1, order), tokens.gather(1, order), finished)


@in_eval_mode
def beam_search(
    model,
    src: Tensor,
    beam_size: int = 4,
    alpha: float = 0.6,
    max_len_a: float = 1.0,
    max_len_b: int = 50,
    nbest: int = 1,
    max_len: int | None = None,
    min_len: int = 0,
) -> list[list[Hypothesis]]:
    """Translates (B, S) ``src``; returns per sentence its ``nbest`` hypotheses, best first.

    A hypothesis's ``score`` is log P(Y|X) / lp(Y) with the GNMT length penalty (α = 0: the
    plain log-probability). Length limits as in ``greedy_search``.
    """
    if not 1 <= nbest <= beam_size:
        raise ValueError(f"nbest must be between 1 and beam_size={beam_size}, got {nbest}")
    cfg, batch, k = model.config, src.size(0), beam_size
    limits = max_target_lengths(src, cfg.pad_id, max_len_a, max_len_b, max_len or cfg.max_positions)
    state = model.start_decoding(src, beam_size=k, capacity=int(limits.max()))
    device = src.device
    sentences = torch.arange(batch, device=device)  # (B,) original index of each searching sentence
    scores = torch.full((batch, k), float("-inf"), device=device)
    scores[:, 0] = 0.0  # all beams start identical: expand only the first at step 0
    history = torch.full((batch * k, 1), cfg.bos_id, dtype=torch.long, device=device)  # (N, t+1)
    token_lp = torch.zeros(batch * k, 0, device=device)  # (N, t) per-token log-probabilities
    results: list[list[Hypothesis]] = [[] for _ in range(batch)]

    for t in range(int(limits.max())):
        log_probs = model.decode_step(history[:, -1:], state)[:, -1].float().log_softmax(dim=-1)  # (N, V)
        sentence_limits = limits[sentences]  # (B,)
        at_limit = sentence_limits == t + 1
        log_probs = constrain_eos(log_probs, t, sentence_limits.repeat_interleave(k), min_len, cfg.eos_id)
        step = beam_step(scores, log_probs.view(len(sentences), k, -1), cfg.eos_id)

        for i, parent, token, total in step.finished:
            row = i * k + parent
            lps = token_lp[row].tolist() + [total - float(scores[i, parent])]
            score = total / length_penalty(t + 1, alpha)
            results[int(sentences[i])].append(Hypothesis(history[row, 1:].tolist(), score, total, lps))

        done = at_limit | torch.tensor([len(results[int(s)]) >= k for s in sentences], device=device)
        rows = (torch.arange(len(sentences), device=device)[:, None] * k + step.parents)  # (B, K)
        keep = (~done).nonzero().squeeze(1)
        if keep.numel() == 0:
            break
        rows, tokens = rows[keep].view(-1), step.tokens[keep].view(-1, 1)  # (N',), (N', 1)
        new_lp = (step.scores[keep] - scores[keep].gather(1, step.parents[keep])).view(-1, 1)
        history = torch.cat([history[rows], tokens], dim=1)
        token_lp = torch.cat([token_lp[rows], new_lp], dim=1)
        state.reorder(rows)
        scores, sentences = step.scores[keep], sentences[keep]

    return [sorted(hyps, key=lambda h: h.score, reverse=True)[:nbest] for hyps in results]
