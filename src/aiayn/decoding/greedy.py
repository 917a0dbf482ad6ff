"""Greedy decoding: the most probable next token at every step, batched, with a KV cache.

Legend: B sentences, N sentences still decoding, V vocabulary, P prompt length.

``one_path_search`` is the loop that greedy search and sampling share: one output per input, a
``choose`` function picks each next token from the step's log-probabilities.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np
import torch
from torch import Tensor

from .common import Hypothesis, RuledHead, argmax, constrain, in_eval_mode, next_log_probs, rule_classes, start

# Up to this many rows, the compiled step's graph chooses (``Greedy``); more, the host: numpy's argmax is vectorised
# where the graph's is a scalar loop (1.16x at 64 sentences a batch on AMX, BENCHMARKS.md), and one row at a time the
# graph saves the host's dozen calls
HEAD_ROWS = 1
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
    batch, steps, device = len(limits), int(limits.max()), tokens.device
    # the bookkeeping is on the host (numpy), as beam search's: limits (N,) of the rows still decoding
    active = np.arange(batch)  # (N,) input of each row
    out = np.full((batch, steps), cfg.pad_id, dtype=np.int64)
    token_lp = np.zeros((batch, steps), dtype=np.float32)
    lengths = np.zeros(batch, dtype=np.int64)
    history = tokens  # (N, P + t): the prompt and the tokens chosen so far, for the rule
    with_head = getattr(model.decode_step, "with_head", None) if choose is argmax and rule is None else None
    head = Greedy(cfg.pad_id, cfg.bos_id, cfg.eos_id)
    for t in range(steps):
        picked = None if with_head is None or len(active) > HEAD_ROWS else with_head(
            tokens, state, head, [rule_classes(limits, t, min_len, device)])
        if picked is not None:  # chosen in the compiled step's graph
            best, best_lp = picked
        else:
            log_probs = next_log_probs(model, tokens, state)  # (N, V)
            log_probs = constrain(log_probs, t, limits, min_len, cfg)
            if rule is not None:  # the model's own log-probabilities stay the score: only the choice is ruled
                best = choose(log_probs.masked_fill(~rule(history), float("-inf")))
            else:
                best = choose(log_probs)
            best_lp = log_probs.gather(1, best[:, None])[:, 0]
        chosen = best.cpu().numpy()
        out[active, t], lengths[active] = chosen, t + 1
        token_lp[active, t] = best_lp.cpu().numpy()
        going = chosen != cfg.eos_id
        if not going.all():
            keep = np.flatnonzero(going)
            if keep.size == 0:
                break
            rows = torch.from_numpy(keep).to(device)
            state.reorder(rows)
            active, best, history, limits = active[keep], best[rows], history[rows], limits[keep]
        tokens = best[:, None]
        if rule is not None:
            history = torch.cat([history, tokens], dim=1)
    return [_hypothesis(out[b, : lengths[b]], token_lp[b, : lengths[b]], cfg.eos_id) for b in range(batch)]


@dataclass(frozen=True)
class Greedy(RuledHead):
    """``constrain``'s rules and greedy's choice as tensor operations: the head the compiled step runs in its graph
    (``CompiledDecodeStep.with_head``), as beam search's ``TopCandidates``."""

    leading = ("rows",)  # the extra input's first dimension: the rows' rule classes

    def __call__(self, log_probs: Tensor, table: Tensor, classes: Tensor) -> list[Tensor]:
        """(N, V) log-probabilities, ``rule_table``, (N,) ``rule_classes`` -> each row's token (N,) (the first
        largest, as ``argmax``) and its log-probability (N,)."""
        ruled = self.ruled(log_probs, table, classes)
        best = ruled.argmax(dim=-1)
        return [best, ruled.gather(1, best[:, None])[:, 0]]


def _hypothesis(ids: np.ndarray, log_probs: np.ndarray, eos_id: int) -> Hypothesis:
    total = float(torch.from_numpy(log_probs).sum())  # PyTorch's float32 sum: the total as it always was
    ids = ids.tolist()
    return Hypothesis(ids[:-1] if ids and ids[-1] == eos_id else ids, total, total, log_probs.tolist())


@in_eval_mode
def greedy_search(model, src: Tensor | None, max_len_a: float = 1.0, max_len_b: int = 50, max_len: int | None = None,
                  min_len: int = 0, prompt: Tensor | None = None) -> list[Hypothesis]:
    """The most probable token at every step, for each input in ``src`` (see ``start`` for the
    length limits); ``prompt`` (B, P), left-padded, continues a given beginning (default BOS)."""
    return one_path_search(model, src, argmax, max_len_a, max_len_b, max_len, min_len, prompt)
