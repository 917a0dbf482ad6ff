"""What greedy search, sampling and beam search share: the result type, prompts, length limits,
the rules for special tokens, eval mode.

A decodable model follows the protocol of ``aiayn.model.cache``; ``aiayn.Transformer`` and
``aiayn.LanguageModel`` are two, and the tests drive the searches with a hand-written fake.
``src`` is what the model conditions on: source sentences (B, S) for the encoder-decoder, classes
(B,) or nothing for a decoder-only model.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field

import numpy as np
import torch
from torch import Tensor


@dataclass
class Hypothesis:
    """One output: target ids (no BOS, no EOS, no prompt), its search score, and its total log-probability."""

    tokens: list[int]
    score: float
    log_prob: float
    token_log_probs: list[float] = field(default_factory=list, repr=False)  # one per token, then EOS


def prompt_batch(primers: list[list[int]], bos_id: int, pad_id: int, device=None) -> Tensor:
    """BOS + each primer, left-padded with ``pad_id`` to one (B, P) tensor: the first decoding step's input."""
    rows = [[bos_id] + list(p) for p in primers]
    longest = max(map(len, rows))
    return torch.tensor([[pad_id] * (longest - len(r)) + r for r in rows], dtype=torch.long, device=device)


def next_log_probs(model, tokens: Tensor, state) -> Tensor:
    """(N, V) float32 log-probabilities of each row's next token after feeding ``tokens`` (N, T). A step that
    computes them itself (``log_probs``: the compiled one, in its graph) is asked for them directly."""
    step = model.decode_step
    if hasattr(step, "log_probs"):
        return step.log_probs(tokens, state)
    return step(tokens, state)[:, -1].float().log_softmax(dim=-1)


def argmax(log_probs: Tensor) -> Tensor:
    """(N, V) -> (N,) each row's index of its first largest value, as ``Tensor.argmax``. On the CPU numpy's, which is
    vectorised: PyTorch's took about 8% of a greedy step at 64 sentences (over 10x numpy's at 64 x 8,000 values)."""
    if log_probs.device.type == "cpu" and log_probs.dtype == torch.float32 and log_probs.dim() == 2:
        return torch.from_numpy(log_probs.detach().contiguous().numpy().argmax(axis=-1)).long()
    return log_probs.argmax(dim=-1)


def length_limits(src_lengths: Tensor, max_len_a: float, max_len_b: int, max_positions: int) -> Tensor:
    """§6.1's output-length limit of each sentence, EOS included: ⌊a x |source|⌋ + b (|source| with its
    EOS), between 1 and ``max_positions``: (B,) long. The exports' runners call it too, so that every
    engine stops a sentence where aiayn does (the product is float32: one rounding everywhere)."""
    return ((max_len_a * src_lengths).floor().long() + max_len_b).clamp(1, max_positions)


def start(model, src: Tensor | None, prompt: Tensor | None, beam_size: int, max_len_a: float, max_len_b: int,
          max_len: int | None) -> tuple[object, Tensor, np.ndarray]:
    """Begins a search: the model's decoding state, the first step's input (the prompt, BOS by
    default; B x beam rows) and each sentence's output-length limit (B,), EOS included, on the host (numpy: the
    searches' bookkeeping is there).

    With a source sentence (B, S) the limit is §6.1's a x (source length) + b, at most ``max_len``
    (default: the model's positions); without one (a decoder-only model), ``max_len`` new tokens.
    """
    cfg = model.config
    if src is not None and src.dim() == 2:
        limits = length_limits((src != cfg.pad_id).sum(dim=1), max_len_a, max_len_b, max_len or cfg.max_positions)
    elif max_len is None or max_len < 1:
        raise ValueError("decoding without a source sentence needs max_len >= 1 (how many tokens to generate)")
    else:
        batch = src.size(0) if src is not None else (prompt.size(0) if prompt is not None else 1)
        limits = torch.full((batch,), max_len, dtype=torch.long)
    batch = limits.size(0)
    if prompt is None:
        device = src.device if src is not None else next(model.parameters()).device
        prompt = torch.full((batch, 1), cfg.bos_id, dtype=torch.long, device=device)
    elif prompt.size(0) != batch:
        raise ValueError(f"{prompt.size(0)} prompts for {batch} inputs")
    capacity = prompt.size(1) + int(limits.max()) - 1  # the last token is output, never fed back
    if src is None:
        state = model.start_decoding(None, beam_size=beam_size, capacity=capacity, batch=batch)
    else:
        state = model.start_decoding(src, beam_size=beam_size, capacity=capacity)
    return state, prompt.repeat_interleave(beam_size, dim=0), limits.cpu().numpy()


def constrain(log_probs: Tensor, step: int, limits: np.ndarray, min_len: int, cfg) -> Tensor:
    """The rules for the token at 0-based ``step`` of rows whose length limits are ``limits`` (N,), on the host:

    pad and BOS are never output; a row at its limit may only emit EOS (at its true
    log-probability); before ``min_len`` tokens a row may not emit EOS (fairseq's --min-len).
    The limit wins where the two disagree. Writes into ``log_probs`` (a fresh tensor each step); a column or a
    few rows at a time, since one sentence at a time these few writes are a step's bookkeeping.
    """
    log_probs[:, cfg.pad_id] = float("-inf")
    log_probs[:, cfg.bos_id] = float("-inf")
    must_end = limits == step + 1
    if not must_end.any():
        if step < min_len:
            log_probs[:, cfg.eos_id] = float("-inf")
        return log_probs
    rows = torch.from_numpy(np.flatnonzero(must_end)).to(log_probs.device)
    if step < min_len:
        log_probs[torch.from_numpy(np.flatnonzero(~must_end)).to(log_probs.device), cfg.eos_id] = float("-inf")
    eos = log_probs[rows, cfg.eos_id]
    log_probs[rows] = float("-inf")
    log_probs[rows, cfg.eos_id] = eos
    return log_probs


# ``rule_classes``'s kinds of row: each has one row of ``rule_table``
FREE, MUST_END, NO_EOS = 0, 1, 2


@dataclass(frozen=True)
class RuledHead:
    """``constrain``'s rules in the form a compiled step's graph takes them (``CompiledDecodeStep.with_head``): the
    host says which kind each row is (``rule_classes``), and the graph adds that kind's row of ``rule_table``, 0 or
    -inf, to the row's log-probabilities: one load and one add a value (with the rules as comparisons of column
    indices, Inductor's CPU kernel took 30 us more a step for beam 4's 4 x 8,000 values on AMX). A head's
    ``__call__`` takes (N, V) log-probabilities, the table and the classes, then its own inputs."""

    pad_id: int
    bos_id: int
    eos_id: int

    def rule_table(self, vocab_size: int, device=None) -> Tensor:
        """(3, V) float32: what each kind of row adds to each token's log-probability, 0 (allowed) or -inf."""
        table = torch.zeros(3, vocab_size, device=device)
        table[:, [self.pad_id, self.bos_id]] = float("-inf")  # never output
        table[MUST_END] = float("-inf")  # a row at its limit may only end
        table[MUST_END, self.eos_id] = table[FREE, self.eos_id]
        table[NO_EOS, self.eos_id] = float("-inf")  # before min_len: may not end
        return table

    def ruled(self, log_probs: Tensor, table: Tensor, classes: Tensor) -> Tensor:
        """(N, V) log-probabilities with each row's rules applied (-inf where ruled out)."""
        return log_probs + table[classes]


def rule_classes(limits: np.ndarray, step: int, min_len: int, device) -> Tensor:
    """(N,) int64 kind of each row (``FREE``, ``MUST_END``, ``NO_EOS``) whose length limit is ``limits`` (N,) at
    0-based ``step``: the limit wins over min_len, as in ``constrain``."""
    must_end = limits == step + 1
    classes = np.where(must_end, MUST_END, NO_EOS if step < min_len else FREE).astype(np.int64)
    return torch.from_numpy(classes).to(device)


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
