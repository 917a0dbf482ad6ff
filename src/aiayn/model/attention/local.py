"""Local self-attention, 1D (Image Transformer, Parmar et al. 2018, §3.2 "Local Self-Attention").

Legend: B batch, H heads, T queries, S keys, L sequence length, D head width,
l_q query block length, l_m memory length, N = ⌈L / l_q⌉ blocks, W keys per block.

The sequence (an image in raster order) is cut into non-overlapping query blocks of l_q positions.
Each block attends to a memory of the l_m positions before it and to itself, causally masked, so a
query sees at most l_m + l_q keys however long the sequence: time and memory O(L · (l_m + l_q))
instead of O(L²). Non-causal (encoder) layers also see the l_m positions after the block.

Equivalently, query i may attend to key j iff start(i) ≤ j ≤ i (causal) or start(i) ≤ j < end(i)
(non-causal), with start(i) = ⌊i / l_q⌋ · l_q − l_m and end(i) = start(i) + 2 l_m + l_q: a block-band
mask (:meth:`LocalAttention.band`). The full pass cuts keys into overlapping windows (``unfold``)
and runs the kernel per block; cached decoding, whose queries are the last T of S positions, scores
them against the few keys their blocks can reach, under the band mask. Positions are counted from
each row's first real token, so left-padded prompts keep their blocks.

Without weights or dropout, and when no row is left-padded, the band is run tile by tile instead
(``BandTiles``, run by ``blockwise.py``; FlexAttention on CUDA): one query block of l_q against its
l_m + l_q keys, read in place, never copied into windows, so memory is that of fused full attention
or less. The windowed kernels below stay for the weights, for dropout, for the ``math`` kernel (the
oracle) and for left-padded prompts.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch
import torch.nn.functional as F
from torch import Tensor, nn

from .dispatch import fast_path, tiled_attention
from .tiles import TileSpec, TileVariant


class LocalAttention(nn.Module):
    """The variant slot of ``MultiHeadAttention`` for 1D local attention (no parameters of its own)."""

    NAME = "local"  # LayerConfig.attention's value for this variant (the registry, variants.py)

    @classmethod
    def from_config(cls, cfg, causal: bool) -> LocalAttention:
        """From a LayerConfig's ``local_block`` (l_q) and ``local_memory`` (l_m)."""
        return cls(cfg.local_block, cfg.local_memory, causal)

    @staticmethod
    def check_config(cfg) -> None:
        """A block as long as the longest sequence is full attention at local's cost: refused as a mistake."""
        if cfg.local_block > cfg.max_positions:
            raise ValueError(f"local_block={cfg.local_block} is longer than max_positions={cfg.max_positions}: "
                             "one block would be full attention; lower local_block")

    def __init__(self, block: int, memory: int, causal: bool = True):
        super().__init__()
        if block < 1 or memory < 0:
            raise ValueError(f"local attention needs block >= 1 and memory >= 0, got {block} and {memory}")
        self.block, self.memory, self.causal = block, memory, causal

    def extra_repr(self) -> str:
        return f"block={self.block}, memory={self.memory}, causal={self.causal}"

    def tiles(self) -> BandTiles:
        """This layer's band for the tiled kernels (no params)."""
        return BandTiles(self.block, self.memory, self.causal)

    def band(self, query_pos: Tensor, key_pos: Tensor) -> Tensor:
        """May query (position ``query_pos[..., i]``) attend to key (``key_pos[..., j]``)? (..., T, S) bool."""
        j = key_pos[..., None, :]
        return self.tiles().allows(query_pos[..., :, None], j) & (j >= 0)

    def forward(self, kernel, q: Tensor, k: Tensor, v: Tensor, mask: Tensor | None, causal: bool, dropout_p: float,
                need_weights: bool) -> tuple[Tensor, Tensor | None]:
        # ``causal`` is the caller's hint (False for one cached query); the band already holds the layer's rule.
        t, s = q.size(-2), k.size(-2)
        first = _first_real(mask, s, q.device)  # (B,) position 0 of each row
        if fast_path(kernel, q, mask, dropout_p, need_weights) and not bool(first.any()):
            spec = TileSpec(t, s, variant=self.tiles())
            # Query blocks of at most 64 (l_q or part of it) against tiles of up to 320 keys: two or three
            # tiles per block, each small enough that fused full attention's memory is never passed.
            width = self.memory + self.block + (0 if self.causal else self.memory)
            return tiled_attention(q, k, v, mask, spec, q_block=min(self.block, 64), k_block=min(width, 320)), None
        if t == s and not need_weights and not bool(first.any()):
            return self._blocked(kernel, q, k, v, mask, dropout_p), None
        return self._windowed(kernel, q, k, v, mask, first, dropout_p, need_weights)

    def _blocked(self, kernel, q: Tensor, k: Tensor, v: Tensor, mask: Tensor | None, dropout_p: float) -> Tensor:
        """All L queries: N blocks of l_q queries, each against its W = l_m + l_q (+ l_m) keys."""
        b, h, length, _ = q.shape
        lq, lm = self.block, self.memory
        n = -(-length // lq)
        width = lm + lq + (0 if self.causal else lm)
        right = n * lq - length + (0 if self.causal else lm)

        def windows(x: Tensor) -> Tensor:  # (..., L, D) -> (..., N, W, D); key c of block n is n·l_q − l_m + c
            return F.pad(x, (0, 0, lm, right)).unfold(-2, width, lq).transpose(-1, -2)

        blocks = F.pad(q, (0, 0, 0, n * lq - length)).unflatten(-2, (n, lq))  # (B, H, N, l_q, D)
        query_pos = torch.arange(n * lq, device=q.device).view(n, lq)
        key_pos = query_pos[:, :1] - lm + torch.arange(width, device=q.device)  # (N, W)
        allowed = self.band(query_pos, key_pos) & (key_pos < length)[:, None, :]  # (N, l_q, W)
        if mask is not None:  # (B, 1, 1, L) real keys -> (B, 1, N, 1, W)
            real = F.pad(mask.reshape(b, length), (lm, right)).unfold(-1, width, lq)
            allowed = allowed & real[:, None, :, None, :]
        out, _ = kernel(blocks, windows(k), windows(v), allowed, False, dropout_p, None, False)
        return out.flatten(-3, -2)[..., :length, :]  # (B, H, L, D_v)

    def _windowed(self, kernel, q: Tensor, k: Tensor, v: Tensor, mask: Tensor | None, first: Tensor, dropout_p: float,
                  need_weights: bool) -> tuple[Tensor, Tensor | None]:
        """Queries that are the last T of S positions, against keys from the earliest their blocks reach."""
        t, s = q.size(-2), k.size(-2)
        low = max(0, s - t - (self.block - 1) - self.memory)  # a lower bound of start(i) for every row's offset
        index = torch.arange(s, device=q.device)
        query_pos = (index[s - t:] - first[:, None])[:, None]  # (B, 1, T)
        key_pos = (index[low:] - first[:, None])[:, None]  # (B, 1, S - low)
        allowed = self.band(query_pos, key_pos)  # (B, 1, T, S - low)
        if mask is not None:
            allowed = allowed & mask[..., low:]
        out, weights = kernel(q, k[..., low:, :], v[..., low:, :], allowed, False, dropout_p, None, need_weights)
        return out, (None if weights is None else F.pad(weights, (low, 0)))


@dataclass(frozen=True)
class BandTiles(TileVariant):
    """The block band by tiles: a query block reaches keys from start(first) on, up to itself (causal)
    or end(last); only the tiles the band edges cross get a mask. No score term, no params."""

    l_q: int  # query block length
    l_m: int  # memory length
    causal: bool

    def _start(self, pos: int) -> int:
        return (pos // self.l_q) * self.l_q - self.l_m

    def _width(self) -> int:
        return 2 * self.l_m + self.l_q  # keys of a non-causal block: l_m + l_q + l_m

    def key_range(self, first: int, last: int, n_keys: int) -> tuple[int, int]:
        hi = last + 1 if self.causal else self._start(last) + self._width()
        return max(0, self._start(first)), min(n_keys, hi)

    def cuts(self, first: int, last: int, j0: int, j1: int) -> bool:
        # Left edge: the last query's start; right edge: the first query itself, or the first query's end.
        right = first + 1 if self.causal else self._start(first) + self._width()
        return j0 < self._start(last) or j1 > right

    def allows(self, i: Tensor, j: Tensor) -> Tensor:
        start = torch.div(i, self.l_q, rounding_mode="floor") * self.l_q - self.l_m
        return (j >= start) & (j <= (i if self.causal else start + self._width() - 1))


def _first_real(mask: Tensor | None, n_keys: int, device) -> Tensor:
    """Index of each row's first real key (leading keys are left padding), from a (B, 1, 1, S) mask."""
    if mask is None or mask.dim() != 4 or mask.size(-2) != 1:
        return torch.zeros(1 if mask is None else mask.size(0), dtype=torch.long, device=device)
    real = mask.reshape(mask.size(0), n_keys)
    return torch.where(real.any(-1), real.int().argmax(-1), 0)
