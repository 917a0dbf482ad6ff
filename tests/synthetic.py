"""Synthetic copy/reverse task for the end-to-end learning test."""

from __future__ import annotations

import torch

PAD, BOS, EOS, COPY, REVERSE = 0, 1, 2, 3, 4
FIRST_SYMBOL = 5


def copy_reverse_batch(batch: int, n_symbols: int, max_len: int, generator: torch.Generator):
    """Sources ``[COPY|REVERSE] x1..xn EOS`` and targets ``x1..xn`` or ``xn..x1``, right-padded."""
    lengths = torch.randint(1, max_len + 1, (batch,), generator=generator)
    tasks = torch.randint(0, 2, (batch,), generator=generator)
    src = torch.full((batch, max_len + 2), PAD)
    tgt = torch.full((batch, max_len + 1), PAD)
    for i, (n, task) in enumerate(zip(lengths.tolist(), tasks.tolist())):
        seq = torch.randint(FIRST_SYMBOL, FIRST_SYMBOL + n_symbols, (n,), generator=generator)
        src[i, 0], src[i, 1 : n + 1], src[i, n + 1] = (REVERSE if task else COPY), seq, EOS
        tgt[i, :n], tgt[i, n] = (seq.flip(0) if task else seq), EOS
    return src, tgt
