"""The search a set of options asks for, over batches of sources cut by length."""

from __future__ import annotations

import torch

from .beam import BeamTrace, Hypothesis, beam_search
from .greedy import greedy_search
from .options import DecodeOptions


def search(model, src: torch.Tensor, opts: DecodeOptions, trace: BeamTrace | None = None) -> list[list[Hypothesis]]:
    """Greedy (beam 1) or beam search over (B, S) right-padded source ids: up to ``nbest`` per row.
    ``trace`` (beam search only): receives what each step did (``beam.BeamTrace``)."""
    limits = dict(max_len_a=opts.max_len_a, max_len_b=opts.max_len_b, min_len=opts.min_len)
    if opts.beam_size == 1:
        if trace is not None:
            raise ValueError("a beam trace needs a beam of 2 or more (beam 1 is greedy search, which keeps no beams)")
        return [[h] for h in greedy_search(model, src, **limits)]
    return beam_search(model, src, beam_size=opts.beam_size, alpha=opts.alpha, nbest=opts.nbest,
                       early_stopping=opts.early_stopping, trace=trace, **limits)


def length_batches(lengths: list[int], opts: DecodeOptions) -> list[list[int]]:
    """Indices of the non-empty inputs sorted by length, cut so (longest + 1) x count x beam <= max_tokens."""
    order = sorted((i for i, n in enumerate(lengths) if n), key=lengths.__getitem__)
    batches, current = [], []
    for i in order:
        if current and (lengths[i] + 1) * (len(current) + 1) * opts.beam_size > opts.max_tokens:
            batches.append(current)
            current = []
        current.append(i)
    return batches + ([current] if current else [])
