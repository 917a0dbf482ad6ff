"""Attention variants as tile functions (DESIGN §3): what a variant adds to one (query block × key block) tile.

Legend: B batch, H heads (H' = 1 when a relative table is shared), T queries, S keys, D head width,
R relative distances (k + 1 causal, 2k + 1 not), b_q × b_k one tile, o = S − T (queries are the
last T of S positions, so query i sits at position o + i).

A ``TileSpec`` answers three questions for the block-by-block kernel (``blockwise.py``) and for
FlexAttention (``flex.py``):

* ``key_range(i0, i1)``: the keys that queries i0..i1−1 can reach at all (causal: none after the
  last query; local: Parmar et al. 2018 §3.2's block band), so tiles outside it are never visited;
* ``mask(i0, i1, j0, j1)``: the (b_q, b_k) boolean mask of one tile, or None when the whole tile is
  allowed (most tiles: the mask is then never built);
* the relative score term (Shaw et al. 2018, Eq. 5; Huang et al. 2018 §3.4): for a query block the
  products P = Q_s E_rᵀ over the R clipped distances are formed once (``by_distance``), and a tile
  reads them by distance (``tile_rows``): S_rel[i, j] = P[i, clip(j − i) + k]. A tile whose keys are
  all at least k before (or after) its queries reads one column: one scalar per query.

Padding (a (B, 1, 1, S) key mask) is applied by the kernel on top of ``mask``.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch
from torch import Tensor


@dataclass(frozen=True)
class TileSpec:
    """The positional rules of one attention call. ``clip``: Shaw's k (None: no relative term);
    ``rel_causal``: the table holds distances −k..0 (else −k..k); ``band``: (l_q, l_m, causal) of
    local attention (None: no band)."""

    n_queries: int
    n_keys: int
    causal: bool = False
    clip: int | None = None
    rel_causal: bool = True
    band: tuple[int, int, bool] | None = None

    @property
    def offset(self) -> int:
        return self.n_keys - self.n_queries

    def _band_start(self, pos: int) -> int:
        lq, lm, _ = self.band
        return (pos // lq) * lq - lm

    def key_range(self, i0: int, i1: int) -> tuple[int, int]:
        """[lo, hi): the only keys queries i0..i1−1 may attend to."""
        lo, hi = 0, self.n_keys
        first, last = self.offset + i0, self.offset + i1 - 1  # positions of the block's queries
        if self.causal:
            hi = min(hi, last + 1)
        if self.band is not None:
            lq, lm, band_causal = self.band
            lo = max(lo, self._band_start(first))
            hi = min(hi, last + 1 if band_causal else self._band_start(last) + 2 * lm + lq)
        return lo, max(lo, hi)

    def mask(self, i0: int, i1: int, j0: int, j1: int, device) -> Tensor | None:
        """(b_q, b_k) bool: may query i attend to key j, by position alone? None: every pair may."""
        first, last = self.offset + i0, self.offset + i1 - 1
        needs_causal = self.causal and j1 - 1 > first
        needs_band = False
        if self.band is not None:
            lq, lm, band_causal = self.band
            lo_first, lo_last = self._band_start(first), self._band_start(last)
            needs_band = j0 < lo_last or (band_causal and j1 - 1 > first) or \
                (not band_causal and j1 - 1 >= lo_first + 2 * lm + lq)
        if not (needs_causal or needs_band):
            return None
        i = torch.arange(first, last + 1, device=device)[:, None]
        j = torch.arange(j0, j1, device=device)[None, :]
        allowed = torch.ones(i1 - i0, j1 - j0, dtype=torch.bool, device=device)
        if self.causal:
            allowed &= j <= i
        if self.band is not None:
            lq, lm, band_causal = self.band
            start = torch.div(i, lq, rounding_mode="floor") * lq - lm
            allowed &= (j >= start) & (j <= (i if band_causal else start + 2 * lm + lq - 1))
        return allowed

    # Relative term ------------------------------------------------------------------------------
    @property
    def n_rows(self) -> int:
        return self.clip + 1 if self.rel_causal else 2 * self.clip + 1

    def tile_rows(self, i0: int, i1: int, j0: int, j1: int, device) -> int | Tensor:
        """Table row of each pair's clipped distance: an int when the whole tile shares one row
        (keys all ≥ k away: Shaw's clipping makes the term one scalar per query), else (b_q, b_k)."""
        k, first, last = self.clip, self.offset + i0, self.offset + i1 - 1
        top = self.n_rows - 1
        if j1 - 1 - first <= -k:  # the nearest pair is k or more before: every distance clips to −k
            return 0
        if j0 - last >= top - k:  # the farthest-left pair is already at the top row (0, or +k)
            return top
        distance = torch.arange(j0, j1, device=device)[None, :] - torch.arange(first, last + 1, device=device)[:, None]
        return distance.clamp(-k, top - k) + k


def by_distance(q_scaled: Tensor, table: Tensor) -> Tensor:
    """P = Q_s E_rᵀ for one query block: (B, H, b_q, D) @ (H', R, D)ᵀ -> (B, H, b_q, R)."""
    return q_scaled @ table.transpose(-2, -1)


def gather_tile(p: Tensor, rows: int | Tensor) -> Tensor:
    """S_rel of one tile from P: (B, H, b_q, 1) when the tile shares one row, else (B, H, b_q, b_k)."""
    if isinstance(rows, int):
        return p[..., rows:rows + 1]
    return p.gather(-1, rows.expand(*p.shape[:-1], rows.size(-1)))


def scatter_tile(dp: Tensor, rows: int | Tensor, ds: Tensor) -> None:
    """The adjoint of ``gather_tile``: adds the tile's score gradient (B, H, b_q, b_k) into dP by row."""
    if isinstance(rows, int):
        dp[..., rows] += ds.sum(-1)
    else:
        dp.scatter_add_(-1, rows.expand_as(ds), ds)
