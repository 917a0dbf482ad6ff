"""Batches of paper §5.1: "sentence pairs were batched together by approximate sequence length".

Legend: B sentences in a batch, S padded source length, T padded target length.

``batch_by_tokens`` fixes which pairs go together once; ``BatchSampler`` then replays those batches
in a seeded order per epoch, sharded across data-parallel ranks, resumable from ``(epoch, position)``.
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import numpy as np
import torch
from torch import Tensor


@dataclass
class Batch:
    """Right-padded id tensors of one batch; ``tgt_in`` is ``tgt_out`` shifted right by bos."""

    src: Tensor  # (B, S) long: ids + [eos]
    tgt_in: Tensor  # (B, T) long: [bos] + ids, the decoder's input
    tgt_out: Tensor  # (B, T) long: ids + [eos], what the decoder predicts
    n_tokens: int  # real (non-pad) tokens in tgt_out: the loss's normaliser

    def to(self, device: torch.device | str, non_blocking: bool = False) -> Batch:
        """The same batch on ``device``."""
        move = lambda t: t.to(device, non_blocking=non_blocking)  # noqa: E731
        return dataclasses.replace(self, src=move(self.src), tgt_in=move(self.tgt_in), tgt_out=move(self.tgt_out))

    def pin_memory(self) -> Batch:
        """The same batch in page-locked memory, so that ``to(cuda, non_blocking=True)`` copies asynchronously."""
        return dataclasses.replace(self, src=self.src.pin_memory(), tgt_in=self.tgt_in.pin_memory(),
                                   tgt_out=self.tgt_out.pin_memory())


def pad_right(rows: list[list[int]], pad_id: int) -> Tensor:
    """(B, longest) long tensor, each row left-aligned: the model's masks assume padding on the right."""
    out = torch.full((len(rows), max(map(len, rows))), pad_id, dtype=torch.long)
    for i, row in enumerate(rows):
        out[i, : len(row)] = torch.tensor(row, dtype=torch.long)
    return out


def collate(src_ids: list[list[int]], tgt_ids: list[list[int]], pad_id: int, bos_id: int, eos_id: int) -> Batch:
    """src = ids + [eos]; tgt_in = [bos] + ids; tgt_out = ids + [eos]; all right-padded with ``pad_id``."""
    if len(src_ids) != len(tgt_ids) or not src_ids:
        raise ValueError(f"collate needs as many targets as sources, at least one: got {len(src_ids)} and {len(tgt_ids)}")
    src = pad_right([list(s) + [eos_id] for s in src_ids], pad_id)
    tgt_in = pad_right([[bos_id] + list(t) for t in tgt_ids], pad_id)
    tgt_out = pad_right([list(t) + [eos_id] for t in tgt_ids], pad_id)
    return Batch(src, tgt_in, tgt_out, n_tokens=sum(len(t) + 1 for t in tgt_ids))


def round_up(n, multiple: int):
    """``n`` (an int or an integer array) rounded up to a multiple of ``multiple``."""
    return -(-n // multiple) * multiple


def collate_arrays(src_ids: Sequence[np.ndarray], tgt_ids: Sequence[np.ndarray], pad_id: int, bos_id: int,
                   eos_id: int, length_multiple: int = 1) -> Batch:
    """``collate`` for numpy id arrays (e.g. views into a mapped corpus): the same tensors, filled with numpy;
    with ``length_multiple`` > 1 each side padded on the right up to a multiple of it (see ``token_batches``)."""
    if len(src_ids) != len(tgt_ids) or not len(src_ids):
        raise ValueError(f"collate needs as many targets as sources, at least one: got {len(src_ids)} and {len(tgt_ids)}")
    b = len(src_ids)
    src = np.full((b, round_up(max(map(len, src_ids)) + 1, length_multiple)), pad_id, dtype=np.int64)
    t_len = round_up(max(map(len, tgt_ids)) + 1, length_multiple)
    tgt_in = np.full((b, t_len), pad_id, dtype=np.int64)
    tgt_out = np.full((b, t_len), pad_id, dtype=np.int64)
    n_tokens = 0
    for i, (s, t) in enumerate(zip(src_ids, tgt_ids)):
        src[i, : len(s)], src[i, len(s)] = s, eos_id
        tgt_in[i, 0], tgt_in[i, 1: len(t) + 1] = bos_id, t
        tgt_out[i, : len(t)], tgt_out[i, len(t)] = t, eos_id
        n_tokens += len(t) + 1
    return Batch(torch.from_numpy(src), torch.from_numpy(tgt_in), torch.from_numpy(tgt_out), n_tokens=n_tokens)


def batch_by_tokens(
    src_lengths: Sequence[int],
    tgt_lengths: Sequence[int],
    max_tokens: int,
    max_sentences: int | None = None,
    required_multiple: int = 1,
) -> list[list[int]]:
    """Group pair indices into batches of similar length, each within a padded-token budget per side.

    Lengths are subword counts without bos/eos; each side of a batch costs
    ``B * (longest + 1)`` padded tokens (the +1 is the eos, or the bos of ``tgt_in``), and neither
    side may exceed ``max_tokens`` (the paper's ~25000 source and ~25000 target tokens are that
    budget per GPU step, counting padding). Pairs are sorted by (target length, source length,
    index), then cut greedily. A pair whose own side exceeds ``max_tokens`` gets a batch of its own
    (drop it earlier with ``filter_pairs`` if that is unwanted). ``max_sentences`` caps B; with
    ``required_multiple`` > 1, a full batch is trimmed to a multiple of it (the rest starts the
    next batch), so B is a multiple except in batches too small to reach one.
    """
    if len(src_lengths) != len(tgt_lengths):
        raise ValueError(f"{len(src_lengths)} source lengths but {len(tgt_lengths)} target lengths")
    if max_tokens < 1 or (max_sentences is not None and max_sentences < 1) or required_multiple < 1:
        raise ValueError("max_tokens, max_sentences and required_multiple must be positive")
    src_len = np.asarray(src_lengths, dtype=np.int64) + 1
    tgt_len = np.asarray(tgt_lengths, dtype=np.int64) + 1
    order = np.lexsort((np.arange(len(src_len)), src_len, tgt_len)).tolist()  # last key sorts first
    src_len, tgt_len = src_len.tolist(), tgt_len.tolist()
    max_sentences = max_sentences or len(order) or 1

    batches: list[list[int]] = []
    batch: list[int] = []
    longest_src = longest_tgt = 0
    for i in order:
        s, t = src_len[i], tgt_len[i]
        n, ls, lt = len(batch) + 1, max(longest_src, s), max(longest_tgt, t)
        while batch and (n > max_sentences or n * ls > max_tokens or n * lt > max_tokens):
            keep = len(batch) - len(batch) % required_multiple if len(batch) >= required_multiple else len(batch)
            batches.append(batch[:keep])
            batch = batch[keep:]  # fewer than required_multiple pairs carried into the next batch
            longest_src = max((src_len[j] for j in batch), default=0)
            longest_tgt = max((tgt_len[j] for j in batch), default=0)
            n, ls, lt = len(batch) + 1, max(longest_src, s), max(longest_tgt, t)
        batch.append(i)
        longest_src, longest_tgt = ls, lt
    if batch:
        batches.append(batch)
    return batches


class Batches:
    """Batches as two arrays, not lists: batch b is ``order[bounds[b]:bounds[b + 1]]`` (pair indices).

    What ``batch_by_tokens`` returns, for corpora of millions of pairs: 8 bytes per pair plus 8 per batch.
    """

    def __init__(self, order: np.ndarray, bounds: np.ndarray):
        self.order, self.bounds = order, bounds

    def __len__(self) -> int:
        return len(self.bounds) - 1

    def __getitem__(self, b: int | slice) -> list[int] | list[list[int]]:
        if isinstance(b, slice):
            return [self[i] for i in range(len(self))[b]]
        if not -len(self) <= b < len(self):
            raise IndexError(f"batch {b} of {len(self)}")
        b %= len(self)
        return self.order[self.bounds[b]: self.bounds[b + 1]].tolist()

    def __iter__(self) -> Iterator[list[int]]:
        return (self[b] for b in range(len(self)))


def token_batches(
    src_lengths: np.ndarray,
    tgt_lengths: np.ndarray,
    max_tokens: int,
    max_sentences: int | None = None,
    required_multiple: int = 1,
    indices: np.ndarray | None = None,
    length_multiple: int = 1,
) -> Batches:
    """``batch_by_tokens`` with numpy arrays in and out: the same batches, without a Python list of the corpus.

    ``indices``: the pairs to batch (e.g. those ``filter_mask`` keeps); the batches hold these indices.
    ``length_multiple`` > 1: each side's length (with its eos or bos) counts as rounded up to a multiple of it,
    in the sort and the budget, so that a batch padded to it (``collate_arrays``) keeps within ``max_tokens``
    and the same (B, S, T) shapes come back batch after batch (oneDNN's bf16 products on the CPU make a kernel
    for each new shape: BENCHMARKS.md). The greedy cut is a Python loop, fed from the sorted arrays in blocks so
    memory stays bounded.
    """
    if len(src_lengths) != len(tgt_lengths):
        raise ValueError(f"{len(src_lengths)} source lengths but {len(tgt_lengths)} target lengths")
    if max_tokens < 1 or (max_sentences is not None and max_sentences < 1) or required_multiple < 1 \
            or length_multiple < 1:
        raise ValueError("max_tokens, max_sentences, required_multiple and length_multiple must be positive")
    if indices is None:
        indices = np.arange(len(src_lengths), dtype=np.int64)
    src_len = np.asarray(src_lengths)[indices].astype(np.int64) + 1
    tgt_len = np.asarray(tgt_lengths)[indices].astype(np.int64) + 1
    if length_multiple == 1:
        # One stable sort on (target, source) packed into an int64 == lexsort on (target, source, index)
        key = tgt_len * (int(src_len.max(initial=0)) + 1) + src_len
        order = np.argsort(key, kind="stable")
        del key
    else:
        # By the rounded lengths, then the exact ones, as above: within a rounded group pairs of near-equal length go
        # together, not neighbours in the corpus (a batch of consecutive verses trained worse)
        exact_src, exact_tgt = src_len, tgt_len
        src_len, tgt_len = round_up(src_len, length_multiple), round_up(tgt_len, length_multiple)
        order = np.lexsort((exact_src, exact_tgt, src_len, tgt_len))  # the last key sorts first; ties by index
        del exact_src, exact_tgt
    src_len, tgt_len = src_len[order], tgt_len[order]
    max_sentences = max_sentences or len(order) or 1

    cuts = [0]  # positions in ``order`` where a batch starts
    start, longest_src, longest_tgt = 0, 0, 0
    block = 1 << 16
    for lo in range(0, len(order), block):
        for pos, s, t in zip(range(lo, lo + block), src_len[lo: lo + block].tolist(), tgt_len[lo: lo + block].tolist()):
            n = pos - start + 1
            ls = s if s > longest_src else longest_src  # not max(): this loop runs once per pair
            lt = t if t > longest_tgt else longest_tgt
            while pos > start and (n > max_sentences or n * ls > max_tokens or n * lt > max_tokens):
                size = pos - start
                keep = size - size % required_multiple if size >= required_multiple else size
                start += keep
                cuts.append(start)
                longest_src = int(src_len[start:pos].max(initial=0))
                longest_tgt = int(tgt_len[start:pos].max(initial=0))
                n, ls, lt = pos - start + 1, max(longest_src, s), max(longest_tgt, t)
            longest_src, longest_tgt = ls, lt
    if len(order):
        cuts.append(len(order))
    return Batches(np.asarray(indices)[order], np.asarray(cuts, dtype=np.int64))


def filter_mask(src_lengths: np.ndarray, tgt_lengths: np.ndarray, max_positions: int) -> tuple[np.ndarray, int, int]:
    """``filter_pairs`` on length arrays: (kept indices as int64, n_empty, n_too_long)."""
    src_len, tgt_len = np.asarray(src_lengths), np.asarray(tgt_lengths)
    empty = (src_len == 0) | (tgt_len == 0)
    too_long = ~empty & ((src_len > max_positions - 1) | (tgt_len > max_positions - 1))
    return np.flatnonzero(~empty & ~too_long), int(empty.sum()), int(too_long.sum())


def filter_pairs(
    src_ids: Sequence[Sequence[int]], tgt_ids: Sequence[Sequence[int]], max_positions: int
) -> tuple[list[int], int, int]:
    """(kept indices, n_empty, n_too_long): drop pairs with a side empty or over ``max_positions - 1`` ids.

    ``max_positions - 1`` leaves room for the eos (source, ``tgt_out``) or bos (``tgt_in``).
    A pair that is both empty on one side and too long on the other counts as empty.
    """
    src_len = np.fromiter(map(len, src_ids), dtype=np.int64, count=len(src_ids))
    tgt_len = np.fromiter(map(len, tgt_ids), dtype=np.int64, count=len(tgt_ids))
    if len(src_len) != len(tgt_len):
        raise ValueError(f"{len(src_len)} sources but {len(tgt_len)} targets")
    empty = (src_len == 0) | (tgt_len == 0)
    too_long = ~empty & ((src_len > max_positions - 1) | (tgt_len > max_positions - 1))
    kept = np.flatnonzero(~empty & ~too_long).tolist()
    return kept, int(empty.sum()), int(too_long.sum())


class BatchSampler:
    """Yields batches (lists of pair indices) forever, epoch after epoch, in a seeded order per epoch.

    Epoch e's order is a permutation drawn from ``numpy.random.default_rng([seed, e])``, the same on
    every rank; rank r takes positions r, r + world_size, ... of it, after dropping the last
    ``len(batches) % world_size`` batches so that all ranks take the same number of steps. The whole
    state is ``(epoch, position)``: the epoch of the latest batch and how many of its batches this
    rank has taken (``position == batches_per_epoch`` means that epoch is done).
    """

    def __init__(self, batches: Sequence[list[int]], seed: int, shuffle: bool = True, rank: int = 0, world_size: int = 1):
        if not 0 <= rank < world_size:
            raise ValueError(f"rank must be in [0, {world_size}), not {rank}")
        if len(batches) < world_size:
            raise ValueError(f"{len(batches)} batches cannot be shared by {world_size} ranks; use smaller batches")
        self._batches, self._seed, self._shuffle = batches, seed, shuffle
        self._rank, self._world_size = rank, world_size
        self._epoch, self._position = 0, 0
        self._order = self._order_of(0)

    def _order_of(self, epoch: int) -> np.ndarray:
        """This rank's batch indices for ``epoch``."""
        n = len(self._batches)
        order = np.random.default_rng([self._seed, epoch]).permutation(n) if self._shuffle else np.arange(n)
        return order[: self.batches_per_epoch * self._world_size][self._rank :: self._world_size]

    @property
    def batches_per_epoch(self) -> int:
        """Steps per epoch on each rank."""
        return len(self._batches) // self._world_size

    @property
    def epoch(self) -> int:
        """0-based epoch of the latest batch yielded (0 before the first)."""
        return self._epoch

    @property
    def position(self) -> int:
        """Batches of ``epoch`` this rank has yielded."""
        return self._position

    def __iter__(self) -> Iterator[list[int]]:
        return self

    def __next__(self) -> list[int]:
        if self._position == self.batches_per_epoch:
            self._epoch, self._position = self._epoch + 1, 0
            self._order = self._order_of(self._epoch)
        batch = self._batches[int(self._order[self._position])]
        self._position += 1
        return list(batch)

    def clone(self) -> BatchSampler:
        """An independent sampler in the same state, sharing the (read-only) batches."""
        return copy.copy(self)

    def rewind_one(self) -> None:
        """Steps back over the batch just yielded, so the next ``__next__`` yields it again."""
        if self._position == 0:
            raise ValueError("no batch to rewind over")
        self._position -= 1

    def state_dict(self) -> dict[str, int]:
        """What ``load_state_dict`` needs to continue exactly where this sampler is."""
        return {"epoch": self._epoch, "position": self._position}

    def load_state_dict(self, state: dict[str, int]) -> None:
        """Continue from ``state``: the next batch is the one that would have followed when it was saved."""
        epoch, position = int(state["epoch"]), int(state["position"])
        if epoch < 0 or not 0 <= position <= self.batches_per_epoch:
            raise ValueError(f"sampler state {state} does not fit {self.batches_per_epoch} batches per epoch")
        self._epoch, self._position = epoch, position
        self._order = self._order_of(epoch)
