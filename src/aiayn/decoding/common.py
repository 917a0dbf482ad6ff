"""What greedy and beam search share: the result type, the output-length limit, eval mode.

A decodable model has ``start_decoding(src, beam_size, capacity) -> state`` and
``decode_step(tokens (N, T), state) -> logits (N, T, V)``, and its state has ``reorder(index)``;
``aiayn.Transformer`` is one, and the tests drive the search with a hand-written fake.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field

import torch
from torch import Tensor


@dataclass
class Hypothesis:
    """One output: target ids (no BOS, no EOS), its search score, and its total log-probability."""

    tokens: list[int]
    score: float
    log_prob: float
    token_log_probs: list[float] = field(default_factory=list, repr=False)  # one per token, then EOS


def max_target_lengths(src: Tensor, pad_id: int, max_len_a: float, max_len_b: int, limit: int | None) -> Tensor:
    """§6.1: at most a x (source length) + b output tokens (EOS included), per sentence; (B,) long."""
    src_len = (src != pad_id).sum(dim=1)
    lengths = (max_len_a * src_len).floor().long() + max_len_b
    lengths = lengths.clamp(min=1)
    return lengths if limit is None else lengths.clamp(max=limit)


def constrain_eos(log_probs: Tensor, step: int, limits: Tensor, min_len: int, eos_id: int) -> Tensor:
    """EOS rules for the token at 0-based ``step`` of rows whose length limits are ``limits`` (N,):

    a row at its limit may only emit EOS (at its true log-probability); before ``min_len`` tokens
    a row may not emit EOS (fairseq's --min-len). The limit wins where the two disagree.
    Writes into ``log_probs`` (the searches pass a fresh tensor each step).
    """
    must_end = limits == step + 1
    if step < min_len:
        log_probs[:, eos_id].masked_fill_(~must_end, float("-inf"))
    if must_end.any():
        eos_only = torch.full_like(log_probs[0], float("-inf"))
        eos_only[eos_id] = 0.0
        log_probs = torch.where(must_end[:, None], log_probs + eos_only, log_probs)
    return log_probs


def in_eval_mode(search):
    """Runs a search with dropout off and no autograd, then restores the model's mode."""

    @functools.wraps(search)
    def wrapper(model, *args, **kwargs):
        was_training = getattr(model, "training", False)
        if was_training:
            model.eval()
        try:
            with torch.inference_mode():
                return search(model, *args, **kwargs)
        finally:
            if was_training:
                model.train()

    return wrapper
