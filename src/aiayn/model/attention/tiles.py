"""The tiled attention path's plug-in point (DESIGN §3): what a variant adds to one (query block × key block) tile.

Legend: B batch, H heads, T queries, S keys, D head width, b_q × b_k one tile, o = S − T (queries are
the last T of S positions, so query i sits at position o + i; a block's queries sit at first..last).

A ``TileSpec`` holds what every call has (its lengths, the causal rule) and the ``TileVariant`` of the
attention variant, which the block-by-block kernel (``blockwise.py``) and FlexAttention (``flex.py``)
ask, and nothing else:

* ``key_range(first, last, n_keys)``: the keys a query block can reach at all (local attention's band,
  Parmar et al. 2018 §3.2), so tiles outside it are never visited;
* ``cuts(first, last, j0, j1)`` and ``allows(i, j)``: whether the variant's rule removes any pair of a
  tile, and the rule itself on position tensors (a tile's mask; FlexAttention's ``mask_mod``);
* ``block(qs, first, last, params, do)``: a ``BlockTerm``, the variant's score term for one query block
  (and a term of the output linear in the probabilities, as Shaw's value term), with the adjoints the
  backward pass needs; ``score_mod``: the same score term for FlexAttention.

``params`` are the variant's learned tensors (relative: E_r, and E_V), passed to the kernels after the
spec: they get gradients. Padding (a (B, 1, 1, S) key mask) is applied by the kernels on top. A new
variant is one module defining a ``TileVariant`` (and a ``BlockTerm`` when it adds scores), as
``relative.RelativeTiles`` and ``local.BandTiles`` do; the kernels stay as they are.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch
from torch import Tensor


class BlockTerm:
    """A variant's terms for one query block, tile by tile; this base adds nothing (a variant of masks only).

    Forward, per tile: ``scores`` (added to the scaled logits), then ``add_probs`` with the tile's
    probabilities and the running rescale; at the end ``output`` is added to the block's numerator.
    Backward, per tile: ``scores`` again, ``add_probs`` and ``add_d_probs`` before the softmax Jacobian,
    ``add_d_scores`` after it; at the end ``grads`` adds to dQ_s and returns the params' gradients.
    """

    def scores(self, j0: int, j1: int) -> Tensor | None:
        """The term added to tile [j0, j1)'s scaled logits: (B, H, b_q, b_k) or (B, H, b_q, 1); None: nothing."""
        return None

    def add_probs(self, p: Tensor, rescale: Tensor | None = None) -> None:
        """Takes the last tile's probabilities (B, H, b_q, b_k), after scaling what it holds by ``rescale``."""

    def output(self) -> Tensor | None:
        """The block's extra numerator (B, H, b_q, D_v), normalised with the attention output."""
        return None

    def add_d_probs(self, dp: Tensor) -> None:
        """Adds the output term's share of dL/dp to the last tile's ``dp`` (B, H, b_q, b_k)."""

    def add_d_scores(self, ds: Tensor) -> None:
        """Takes the last tile's dL/dscores (B, H, b_q, b_k)."""

    def grads(self, dqs: Tensor) -> tuple[Tensor | None, ...]:
        """Adds the block's share to dQ_s (in place); returns this block's gradient of each param."""
        return ()


NO_TERM = BlockTerm()


class TileVariant:
    """The tiled kernels' view of plain attention; a variant overrides what it changes (see the module)."""

    def key_range(self, first: int, last: int, n_keys: int) -> tuple[int, int]:
        """[lo, hi): the only keys queries at positions first..last may attend to."""
        return 0, n_keys

    def cuts(self, first: int, last: int, j0: int, j1: int) -> bool:
        """Does ``allows`` remove any pair of this tile? False keeps its mask from being built."""
        return False

    def allows(self, i: Tensor, j: Tensor) -> Tensor:
        """May the query at position i attend to key j, by the variant's rule? Broadcast bool tensors."""
        return j >= 0

    def block(self, qs: Tensor, first: int, last: int, params: tuple[Tensor, ...], do: Tensor | None = None,
              ) -> BlockTerm:
        """The terms of query block first..last (``qs``: its queries / √D; ``do``: dL/dout in the backward pass)."""
        return NO_TERM

    def score_mod(self, q: Tensor, params: tuple[Tensor, ...], offset: int):
        """FlexAttention's ``score_mod`` (score, b, h, i, j) -> score, or None for no score term."""
        return None

    def flex_ok(self, params: tuple[Tensor, ...]) -> bool:
        """Can FlexAttention run it (it has no slot for an output term such as Shaw's values)?"""
        return True


PLAIN = TileVariant()


@dataclass(frozen=True)
class TileSpec:
    """The positional rules of one tiled call: lengths, the causal rule, and the variant's (``variant``)."""

    n_queries: int
    n_keys: int
    causal: bool = False
    variant: TileVariant = PLAIN

    @property
    def offset(self) -> int:
        return self.n_keys - self.n_queries

    def positions(self, i0: int, i1: int) -> tuple[int, int]:
        """Positions of the first and the last of queries i0..i1−1."""
        return self.offset + i0, self.offset + i1 - 1

    def key_range(self, i0: int, i1: int) -> tuple[int, int]:
        """[lo, hi): the only keys queries i0..i1−1 may attend to."""
        first, last = self.positions(i0, i1)
        lo, hi = self.variant.key_range(first, last, self.n_keys)
        if self.causal:
            hi = min(hi, last + 1)
        return lo, max(lo, hi)

    def mask(self, i0: int, i1: int, j0: int, j1: int, device) -> Tensor | None:
        """(b_q, b_k) bool: may query i attend to key j, by position alone? None: every pair may."""
        first, last = self.positions(i0, i1)
        causal_cut = self.causal and j1 - 1 > first
        variant_cut = self.variant.cuts(first, last, j0, j1)
        if not (causal_cut or variant_cut):
            return None
        i = torch.arange(first, last + 1, device=device)[:, None]
        j = torch.arange(j0, j1, device=device)[None, :]
        allowed = self.variant.allows(i, j) if variant_cut else j <= i
        return allowed & (j <= i) if causal_cut and variant_cut else allowed
