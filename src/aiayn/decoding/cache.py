"""Decoder state for incremental decoding: a key/value cache per layer (paper §3.2.3's decoder,
one token at a time) and the encoder-decoder keys/values, computed once per source.

Legend: N rows (sentences x beams), H heads, L cache capacity, S source length, D head width.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch
from torch import Tensor


class KVCache:
    """Self-attention keys and values of the positions decoded so far, preallocated to capacity L."""

    def __init__(self, n_rows: int, n_heads: int, capacity: int, d_k: int, d_v: int, like: Tensor):
        self.k = like.new_zeros(n_rows, n_heads, capacity, d_k)
        self.v = like.new_zeros(n_rows, n_heads, capacity, d_v)
        self._spare: tuple[Tensor, Tensor] | None = None  # reorder's destination, reused while rows stay

    @property
    def capacity(self) -> int:
        return self.k.size(2)

    def update(self, pos: int, k: Tensor, v: Tensor) -> tuple[Tensor, Tensor]:
        """Writes (N, H, T, D) at positions pos..pos+T-1; returns keys and values of 0..pos+T-1."""
        end = pos + k.size(2)
        if end > self.capacity:
            raise ValueError(f"KV cache holds {self.capacity} positions; position {end - 1} does not fit")
        self.k[:, :, pos:end] = k
        self.v[:, :, pos:end] = v
        return self.k[:, :, :end], self.v[:, :, :end]

    def reorder(self, index: Tensor, length: int) -> None:
        """Keeps rows ``index`` (beam reordering or dropping finished sentences); copies only
        the ``length`` positions written so far."""
        rows = index.numel()
        if self.k.requires_grad:  # autograd records no out= gathers; decoding itself runs without grad
            self.k, self.v, self._spare = self.k[index], self.v[index], None
            return
        if self._spare is not None and self._spare[0].size(0) == rows:
            new = self._spare
        else:
            new = (self.k.new_empty(rows, *self.k.shape[1:]), self.v.new_empty(rows, *self.v.shape[1:]))
        # One gather straight into the other buffer, then swap: half the memory traffic of
        # gathering into a temporary and copying it back, and beam search does this every step.
        for old_buf, new_buf in zip((self.k, self.v), new):
            torch.index_select(old_buf[:, :, :length], 0, index, out=new_buf[:, :, :length])
        self._spare = (self.k, self.v) if rows == self.k.size(0) else None
        self.k, self.v = new


@dataclass
class DecoderState:
    """Everything a decoding step needs besides the new tokens.

    Rows come in groups of ``beams`` consecutive rows per sentence (its beams). The encoder side
    is kept once per sentence: the beams' queries attend to it together.
    """

    self_kv: list[KVCache]  # one per decoder layer, N rows
    cross_kv: list[tuple[Tensor, Tensor]]  # one (K, V) per decoder layer: (B, H, S, D), one row per sentence
    src_mask: Tensor  # (B, 1, 1, S)
    beams: int = 1  # rows per sentence
    pos: int = 0  # positions already decoded

    @property
    def n_rows(self) -> int:
        return self.src_mask.size(0) * self.beams

    def reorder(self, index: Tensor) -> None:
        """Row i of the new state is row ``index[i]`` of the old one; each group of ``beams`` new
        rows must come from one sentence (beams reordered within it, finished sentences dropped)."""
        for cache in self.self_kv:
            cache.reorder(index, self.pos)
        if index.numel() != self.n_rows:
            sentences = index.view(-1, self.beams)[:, 0] // self.beams
            self.cross_kv = [(k[sentences], v[sentences]) for k, v in self.cross_kv]
            self.src_mask = self.src_mask[sentences]
