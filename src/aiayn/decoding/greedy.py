"""Greedy decoding: the most probable next token at every step, batched, with a KV cache.

Legend: B sentences, N sentences still decoding, V vocabulary, P prompt length.

``one_path_search`` is the loop that greedy search and sampling share: one output per input, a
``choose`` function picks each next token from the step's log-probabilities.
"""

from __future__ import annotations

from typing import Callable

import torch
from torch import Tensor

from .common import Hypothesis, argmax, constrain, in_eval_mode, next_log_probs, start

Chooser = Callable[[Tensor], Tensor]  # (N, V) log-probabilities -> (N,) token ids
Rule = Callable[[Tensor], Tensor]  # (N, P + t) each row's tokens so far, prompt first -> (N, V) bool: may come next


def one_path_search(model, src: Tensor | None, choose: Chooser, max_len_a: float = 1.0, max_len_b: int = 50,
                    max_len: int | None = None, min_len: int = 0, prompt: Tensor | None = None,
                    rule: Rule | None = None) -> list[Hypothesis]:
    """Decodes each input, feeding back the chosen token; finished rows leave the batch. ``rule``, given
    each row's tokens so far, says which tokens may come next (the others are never chosen).

    ``score`` is the total log-probability of the output under the model.
    """
    cfg = model.config
    state, tokens, limits = start(model, src, prompt, 1, max_len_a, max_len_b, max_len)
    batch, steps, device = limits.size(0), int(limits.max()), tokens.device
    active = torch.arange(batch, device=device)  # (N,) input of each row
    out = torch.full((batch, steps), cfg.pad_id, dtype=torch.long, device=device)
    token_lp = torch.zeros(batch, steps, device=device)
    lengths = torch.zeros(batch, dtype=torch.long, device=device)
    history = tokens  # (N, P + t): the prompt and the tokens chosen so far, for the rule
    for t in range(steps):
        log_probs = next_log_probs(model, tokens, state)  # (N, V)
        log_probs = constrain(log_probs, t, limits[active], min_len, cfg)
        if rule is not None:  # the model's own log-probabilities stay the score: only the choice is ruled
            best = choose(log_probs.masked_fill(~rule(history), float("-inf")))
        else:
            best = choose(log_probs)
        out[active, t], token_lp[active, t], lengths[active] = best, log_probs.gather(1, best[:, None])[:, 0], t + 1
        going = best != cfg.eos_id
        if not going.all():
            keep = going.nonzero().squeeze(1)
            if keep.numel() == 0:
                break
            state.reorder(keep)
            active, best, history = active[keep], best[keep], history[keep]
        tokens = best[:, None]
        if rule is not None:
            history = torch.cat([history, tokens], dim=1)
    return [_hypothesis(out[b, : lengths[b]], token_lp[b, : lengths[b]], cfg.eos_id) for b in range(batch)]


def _hypothesis(ids: Tensor, log_probs: Tensor, eos_id: int) -> Hypothesis:
    total = float(log_probs.sum())
    ids = ids.tolist()
    return Hypothesis(ids[:-1] if ids and ids[-1] == eos_id else ids, total, total, log_probs.tolist())


@in_eval_mode
def greedy_search(model, src: Tensor | None, max_len_a: float = 1.0, max_len_b: int = 50, max_len: int | None = None,
                  min_len: int = 0, prompt: Tensor | None = None) -> list[Hypothesis]:
    """The most probable token at every step, for each input in ``src`` (see ``start`` for the
    length limits); ``prompt`` (B, P), left-padded, continues a given beginning (default BOS)."""
    return one_path_search(model, src, argmax, max_len_a, max_len_b, max_len, min_len, prompt)
