"""Beam search with the GNMT length penalty (paper §6.1: beam 4, α = 0.6, max length = input + 50).

Legend: B sentences still searching, K beam size, V vocabulary, N = B x K decoder rows.

The *strategy* (``BeamStep``: scores, top-k over K x V, which candidates finish) is kept apart
from the *loop* (``beam_search``: calling the model, reordering its cache, collecting results).
A sentence stops when K hypotheses have finished (each ends in EOS; fairseq's rule, Hugging Face's
``early_stopping=True``), or at its length limit; finished sentences leave the batch. With
``early_stopping=False`` it goes on until no live beam can still beat the ``nbest`` finished ones:
log-probabilities only fall, so a live beam's best possible score is its log-probability over
the largest penalty it could reach, lp(limit). Slower, never worse by the model's own score; it
matters where early junk endings fill the K places (parsing's beam 21 over 23 symbols).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import torch
import torch.nn.functional as F
from torch import Tensor

from .common import Hypothesis, RuledHead, constrain, in_eval_mode, next_log_probs, rule_classes, start


def length_penalty(length: int | np.ndarray | Tensor, alpha: float) -> float | np.ndarray | Tensor:
    """GNMT (Wu et al. 2016): lp(Y) = ((5 + |Y|) / 6)^α, |Y| counting the EOS token."""
    return ((5 + length) / 6) ** alpha


@dataclass
class BeamStep:
    """One step's decision for B sentences: the next K beams and the candidates that finished."""

    scores: np.ndarray  # (B, K) cumulative log-probabilities of the continuing beams
    parents: np.ndarray  # (B, K) which previous beam each continues
    tokens: np.ndarray  # (B, K) the token each appends
    finished: list[tuple[int, int, int, float]]  # (sentence, parent beam, token, log-prob)
    considered: tuple[np.ndarray, np.ndarray, np.ndarray]  # the top 2K candidates: (scores, parents, tokens), each (B, 2K)


@dataclass
class BeamTrace:
    """What a beam search did, recorded by the search itself when given one (``beam_search(trace=...)``):
    per step and sentence, the live beams, the 2K candidates it considered and each one's fate (kept,
    finished or pruned), and the GNMT length penalty it applied; then the n-best it returned."""

    steps: list[dict] = field(default_factory=list)
    nbest: list[list[Hypothesis]] = field(default_factory=list)

    def record(self, t: int, sentences: np.ndarray, history: np.ndarray, prompt_len: int, scores: np.ndarray, step: BeamStep,
               eos_id: int, alpha: float) -> None:
        lp = float(length_penalty(t + 1, alpha))
        k = scores.shape[1]
        top_scores, parents, tokens = (x.tolist() for x in step.considered)
        for i, sentence in enumerate(sentences.tolist()):
            kept = {(int(p), int(tok)) for p, tok in zip(step.parents[i].tolist(), step.tokens[i].tolist())}
            candidates = []
            for rank, (score, parent, token) in enumerate(zip(top_scores[i], parents[i], tokens[i])):
                if token == eos_id and rank < k and score != float("-inf"):
                    fate = "finished"
                elif token != eos_id and (parent, token) in kept:
                    fate = "kept"
                else:
                    fate = "pruned"
                candidates.append({"parent": parent, "token": token, "log_prob": score, "fate": fate,
                                   **({"score": score / lp} if fate == "finished" else {})})
            beams = [{"tokens": history[i * k + b, prompt_len:].tolist(), "log_prob": float(scores[i, b])}
                     for b in range(k) if np.isfinite(scores[i, b])]
            self.steps.append({"step": t, "sentence": sentence, "length_penalty": lp, "beams": beams,
                               "candidates": candidates})


def beam_step(scores: Tensor, log_probs: Tensor, eos_id: int) -> BeamStep:
    """Top 2K of the K x V extensions: EOS among the best K finish; the best K others continue.

    scores: (B, K); log_probs: (B, K, V). Each beam has one EOS extension, so at most K of the
    2K candidates are EOS and K non-EOS candidates always remain. The top 2K are taken where the
    log-probabilities are; the rest is decided on the host (``choose``).
    """
    b, k, v = log_probs.shape
    candidates = (scores[:, :, None] + log_probs).view(b, k * v)  # (B, K*V)
    top_scores, top_index = (x.cpu().numpy() for x in candidates.topk(2 * k, dim=1))  # (B, 2K), best first
    return choose(top_scores, top_index // v, top_index % v, eos_id)


@dataclass(frozen=True)
class TopCandidates(RuledHead):
    """``constrain``'s rules and ``beam_step``'s top 2K as tensor operations, with no decision on the host: the head
    the compiled step runs in its graph (``CompiledDecodeStep.with_head``; one sentence at a time the dozen small calls
    it replaces cost as much as the step's products)."""

    beams: int = 1
    leading = ("rows", "batch")  # the extra inputs' first dimensions: rule classes, scores

    def __call__(self, log_probs: Tensor, table: Tensor, classes: Tensor, scores: Tensor) -> list[Tensor]:
        """(N, V) log-probabilities, ``rule_table``, (N,) ``rule_classes``, (B, K) beam scores -> the top 2K (B, 2K):
        scores, parents, tokens."""
        v, k = log_probs.size(1), self.beams
        candidates = scores[:, :, None] + self.ruled(log_probs, table, classes).view(-1, k, v)
        top_scores, top_index = top_k(candidates.view(-1, k * v), 2 * k)
        return [top_scores, top_index // v, top_index % v]


# top_k's blocks: 64 values, so that K x V = 32,000 candidates (tiny, beam 4) make 500 block maxima
BLOCK = 64


def top_k(x: Tensor, k: int) -> tuple[Tensor, Tensor]:
    """``x.topk(k, dim=1)`` of (B, n) rows through their blocks' maxima: the k largest values lie in the k blocks
    whose maxima are largest (a value outside them has k larger maxima above it), so a top-k over n / BLOCK maxima
    and one over those k blocks replace one over n. PyTorch's CPU topk takes about 3 ns a value (90 us a step for 4 x
    8,000 candidates, 14% of the compiled beam step's operators one sentence at a time on AMX); a maximum over blocks is vectorised.
    The same values as ``topk``; the same indices unless values tie (then either may come first)."""
    b, n = x.shape
    if n < 4 * k * BLOCK:  # too few blocks to pay for the second pass
        return x.topk(k, dim=1)
    pad = -n % BLOCK
    blocks = F.pad(x, (0, pad), value=float("-inf")).view(b, -1, BLOCK)  # (B, n / BLOCK, BLOCK)
    chosen = blocks.amax(dim=2).topk(k, dim=1).indices.sort(dim=1).values  # (B, k) in index order
    pool = blocks.gather(1, chosen[:, :, None].expand(-1, -1, BLOCK)).view(b, k * BLOCK)
    values, at = pool.topk(k, dim=1)
    return values, chosen.gather(1, at // BLOCK) * BLOCK + at % BLOCK


def next_beam_step(model, fed: Tensor, state, scores: np.ndarray, t: int, limits: np.ndarray, min_len: int,
                   eos_id: int) -> BeamStep:
    """Feeds ``fed`` and decides step ``t`` for the beams of ``scores`` (B, K), rows limited to ``limits`` (N,): in
    the compiled step's graph where it offers that (``TopCandidates``), else from the model's log-probabilities."""
    cfg, k, device = model.config, scores.shape[1], fed.device
    with_head = getattr(model.decode_step, "with_head", None)
    if with_head is not None:
        extra = [rule_classes(limits, t, min_len, device), torch.from_numpy(scores).to(device)]
        top = with_head(fed, state, TopCandidates(cfg.pad_id, cfg.bos_id, cfg.eos_id, k), extra)
        if top is not None:
            return choose(*(x.cpu().numpy() for x in top), eos_id)
    log_probs = constrain(next_log_probs(model, fed, state), t, limits, min_len, cfg)  # (N, V)
    return beam_step(torch.from_numpy(scores).to(device), log_probs.view(len(scores), k, -1), eos_id)


def choose(top_scores: np.ndarray, parents: np.ndarray, tokens: np.ndarray, eos_id: int) -> BeamStep:
    """The host's half of a step, from the top 2K candidates (B, 2K) best first, in numpy (a handful of small arrays,
    where PyTorch's per-call cost would dominate one sentence at a time): the step's fields are numpy arrays."""
    k = top_scores.shape[1] // 2
    is_eos = tokens == eos_id
    finished = [(int(i), int(parents[i, j]), eos_id, float(top_scores[i, j]))
                for i, j in zip(*np.nonzero(is_eos[:, :k] & np.isfinite(top_scores[:, :k])))]
    # The first K non-EOS candidates in rank order continue (a stable sort keeps the ranks).
    order = is_eos.argsort(axis=1, kind="stable")[:, :k]  # (B, K)
    rows = np.arange(len(order))[:, None]  # indexing by hand: take_along_axis costs 5x more on arrays this small
    return BeamStep(top_scores[rows, order], parents[rows, order], tokens[rows, order], finished,
                    (top_scores, parents, tokens))


@in_eval_mode
def beam_search(
    model,
    src: Tensor | None,
    beam_size: int = 4,
    alpha: float = 0.6,
    max_len_a: float = 1.0,
    max_len_b: int = 50,
    nbest: int = 1,
    max_len: int | None = None,
    min_len: int = 0,
    prompt: Tensor | None = None,
    early_stopping: bool = True,
    trace: BeamTrace | None = None,
) -> list[list[Hypothesis]]:
    """Decodes each input in ``src``; returns per input its ``nbest`` hypotheses, best first.

    A hypothesis's ``score`` is log P(Y|X) / lp(Y) with the GNMT length penalty (α = 0: the
    plain log-probability). Length limits and ``prompt`` as in ``greedy_search``. ``trace``: a
    ``BeamTrace`` that receives what each step did and the n-best (the studio's beam view).
    The model runs where its weights are; the bookkeeping (scores, histories, which rows go on) is numpy's.
    """
    if beam_size < 1:
        raise ValueError(f"beam_size must be at least 1, got {beam_size}")
    if not 1 <= nbest <= beam_size:
        raise ValueError(f"nbest must be between 1 and beam_size={beam_size}, got {nbest}")
    cfg, k = model.config, beam_size
    state, fed, limits = start(model, src, prompt, k, max_len_a, max_len_b, max_len)  # fed: (N, P)
    batch, device, prompt_len = len(limits), fed.device, fed.size(1)
    history = fed.cpu().numpy()  # (N, P + t) the prompt and each beam's tokens
    sentences = np.arange(batch)  # (B,) original index of each searching sentence
    scores = np.full((batch, k), -np.inf, dtype=np.float32)
    scores[:, 0] = 0.0  # all beams start identical: expand only the first at step 0
    token_lp = np.zeros((batch * k, 0), dtype=np.float32)  # (N, t) per-token log-probabilities
    results: list[list[Hypothesis]] = [[] for _ in range(batch)]

    for t in range(int(limits.max())):
        sentence_limits = limits[sentences]  # (B,)
        # the whole prompt first, then one token per step
        step = next_beam_step(model, fed, state, scores, t, sentence_limits.repeat(k), min_len, cfg.eos_id)
        if trace is not None:
            trace.record(t, sentences, history, prompt_len, scores, step, cfg.eos_id, alpha)

        for i, parent, _token, total in step.finished:
            row = i * k + parent
            lps = token_lp[row].tolist() + [total - float(scores[i, parent])]
            score = total / length_penalty(t + 1, alpha)
            results[sentences[i]].append(Hypothesis(history[row, prompt_len:].tolist(), score, total, lps))

        if early_stopping:
            enough = [len(results[s]) >= k for s in sentences]
        else:  # the nbest-th finished score against the best live beam's best possible one
            reach = (step.scores[:, 0] / length_penalty(sentence_limits.astype(np.float32), alpha)).tolist()
            enough = [len(results[s]) >= nbest and sorted(h.score for h in results[s])[-nbest] >= r
                      for s, r in zip(sentences, reach)]
        keep = np.flatnonzero(~((sentence_limits == t + 1) | np.array(enough, dtype=bool)))
        if keep.size == 0:
            break
        rows = (keep[:, None] * k + step.parents[keep]).reshape(-1)  # (N',)
        tokens = step.tokens[keep].reshape(-1, 1)  # (N', 1)
        new_lp = step.scores[keep].reshape(-1) - scores.reshape(-1)[rows]  # each new token's own log-probability
        history = np.concatenate([history[rows], tokens], axis=1)
        token_lp = np.concatenate([token_lp[rows], new_lp[:, None]], axis=1)
        state.reorder(torch.from_numpy(rows).to(device))
        scores, sentences = step.scores[keep], sentences[keep]
        fed = torch.from_numpy(tokens).to(device)

    best = [sorted(hyps, key=lambda h: h.score, reverse=True)[:nbest] for hyps in results]
    if trace is not None:
        trace.nbest = best
    return best
