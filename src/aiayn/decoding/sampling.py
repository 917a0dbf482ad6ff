"""Ancestral sampling with temperature, top-k (Fan et al. 2018) and nucleus / top-p (Holtzman et al. 2020).

Legend: N rows still decoding, V vocabulary.

The Music and Image Transformers generate by sampling: each next token is drawn from the model's
distribution, sharpened or flattened by the temperature and optionally cut to its k most probable
tokens or to the smallest set holding probability p. A seed makes the draws reproducible.
"""

from __future__ import annotations

import torch
from torch import Tensor

from .common import Hypothesis, in_eval_mode
from .greedy import Rule, one_path_search


def filter_logits(log_probs: Tensor, temperature: float = 1.0, top_k: int = 0, top_p: float = 1.0) -> Tensor:
    """(N, V) log-probabilities -> the logits to sample from: divided by the temperature, −inf
    outside the top k (0: no cut) and outside the nucleus of probability ``top_p`` (1.0: no cut)."""
    if not temperature > 0:
        raise ValueError(f"temperature must be above 0, got {temperature}")
    logits = log_probs / temperature
    if 0 < top_k < logits.size(-1):
        kth = logits.topk(top_k, dim=-1).values[:, -1:]  # (N, 1)
        logits = logits.masked_fill(logits < kth, float("-inf"))
    if top_p < 1.0:
        sorted_logits, order = logits.sort(dim=-1, descending=True)
        probs = sorted_logits.softmax(dim=-1)
        # Keep a token if the tokens ranked above it hold less than p: the most probable always stays.
        outside = probs.cumsum(dim=-1) - probs >= top_p
        logits = logits.scatter(-1, order, sorted_logits.masked_fill(outside, float("-inf")))
    return logits


@in_eval_mode
def sample(model, src: Tensor | None = None, max_len: int | None = None, temperature: float = 1.0, top_k: int = 0,
           top_p: float = 1.0, seed: int | None = None, prompt: Tensor | None = None, min_len: int = 0,
           max_len_a: float = 1.0, max_len_b: int = 50, rule: Rule | None = None) -> list[Hypothesis]:
    """One sampled output per input (``src``: classes or source sentences; None: unconditional). ``rule``:
    which tokens may come next, given each row's tokens so far (``one_path_search``).

    ``score`` is the output's log-probability under the model itself (temperature 1, no cuts).
    The same ``seed`` and inputs give the same samples.
    """
    if not 0.0 < top_p <= 1.0:
        raise ValueError(f"top_p must be in (0, 1], got {top_p}")
    if top_k < 0:
        raise ValueError(f"top_k must be 0 (no cut) or more, got {top_k}")
    device = src.device if src is not None else (prompt.device if prompt is not None else None)
    generator = torch.Generator(device=device or "cpu")
    generator.manual_seed(seed if seed is not None else torch.seed())

    def draw(log_probs: Tensor) -> Tensor:
        probs = filter_logits(log_probs, temperature, top_k, top_p).softmax(dim=-1)
        return torch.multinomial(probs, 1, generator=generator)[:, 0]

    return one_path_search(model, src, draw, max_len_a, max_len_b, max_len, min_len, prompt, rule)
