"""Relative position self-attention: Shaw et al. (2018) and the Music Transformer's skewing (Huang et al., 2018).

Legend: B batch, H heads (or 1 when shared), T queries, S keys, R relative distances, D head width.

Each query i scores each key j with an extra term q_i · e_(j−i), e_r a learned vector per relative
distance r, so attention sees how far apart two positions are instead of where they are:

    logits = (Q Kᵀ + S_rel) / √D,   S_rel[i, j] = q_i · e_clip(j−i),   clip(r) = max(−k, min(k, r))

Distances beyond k share the outermost vector (Shaw's clipping; tensor2tensor's Music Transformer
uses zero instead). Clipping keeps one rule for the encoder and the decoder, and a model applied
beyond its training length still sees "far" for far keys rather than losing the term entirely.

* Causal (decoder) self-attention uses the **skewing** of Huang et al. §3.4.1: S_rel = skew(Q E_rᵀ),
  where column c of Q E_rᵀ holds distance c − (S−1); the intermediate is T×S per head, never
  T×S×D as in Shaw's formulation. With a key/value cache the queries are the last T of S positions
  and the same skew applies (for one query it is a plain slice).
* Non-causal (encoder) self-attention has distances on both sides: Q E_rᵀ over the 2k+1 clipped
  distances, then a gather by distance, again T×S per head.
* Optionally (``values=True``) Shaw's value term: out_i += Σ_j α_ij a^V_clip(j−i).

Two paths compute the same function. Without weights or dropout, and for more than one query, the
terms are formed tile by tile (``RelativeTiles``, run by ``blockwise.py``; FlexAttention on CUDA
without the value term, ``flex.py``): per query block P = Q E_rᵀ over the R clipped distances, read by
distance per tile, and the value term's probabilities summed by distance per tile, so memory is O(L)
and no T × S tensor exists. Otherwise (``need_weights``, attention dropout, the ``math`` kernel, one
cached query) the T × S bias below is materialised: the oracle.

Queries are always the *last* T of the S key positions (the mask convention of ``masks.causal_mask``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import torch
import torch.nn.functional as F
from torch import Tensor, nn

from .core import math_attention
from .dispatch import fast_path, tiled_attention
from .tiles import BlockTerm, TileSpec, TileVariant


def skew(rel_logits: Tensor) -> Tensor:
    """Huang et al. §3.4.1: (..., T, S) logits by relative distance → (..., T, S) logits by key.

    Input column c holds distance c − (S−1) (from −(S−1) up to 0); output [i, j] holds distance
    j − (S−T+i), the distance from query i (the last T of S positions) to key j. Entries with
    j after the query hold garbage and must be masked causally. Pad one column on the left, flatten,
    drop the first T entries, and read the rest as (T, S): row i then starts T−1−i columns later.
    """
    *lead, t, s = rel_logits.shape
    padded = F.pad(rel_logits, (1, 0))  # (..., T, S+1)
    return padded.reshape(*lead, t * (s + 1))[..., t:].reshape(*lead, t, s)


def relative_distances(n_queries: int, n_keys: int, device=None) -> Tensor:
    """(T, S) long: j − i for query i (the last T of S positions) and key j."""
    q = torch.arange(n_queries, device=device)[:, None] + (n_keys - n_queries)
    return torch.arange(n_keys, device=device)[None, :] - q


class RelativePositions(nn.Module):
    """Learned relative-distance embeddings of one attention layer and the score (and value) terms they make.

    ``causal``: distances −k..0 (k+1 vectors), scored by skewing; else −k..k (2k+1), by gather.
    ``share_heads``: one table for all heads instead of one per head.
    """

    NAME = "relative"  # LayerConfig.attention's value for this variant (the registry, variants.py)

    @classmethod
    def from_config(cls, cfg, causal: bool) -> RelativePositions:
        """From a LayerConfig's ``max_relative_distance``, ``relative_share_heads``, ``relative_values``."""
        return cls(cfg.n_heads, cfg.d_k, cfg.d_v, cfg.max_relative_distance, causal, cfg.relative_share_heads,
                   cfg.relative_values)

    @staticmethod
    def check_config(cfg) -> None:
        """k = 0 would clip every distance to 0, one vector for all pairs: no position information at all."""
        if cfg.max_relative_distance < 1:
            raise ValueError(f"max_relative_distance must be at least 1, got {cfg.max_relative_distance}")

    def __init__(self, n_heads: int, d_k: int, d_v: int, max_distance: int, causal: bool,
                 share_heads: bool = False, values: bool = False):
        super().__init__()
        self.k, self.causal = max_distance, causal
        rows, heads = (max_distance + 1) if causal else (2 * max_distance + 1), 1 if share_heads else n_heads
        self.e_k = nn.Parameter(torch.randn(heads, rows, d_k) * d_k**-0.5)  # (H, R, D_k)
        self.e_v = nn.Parameter(torch.randn(heads, rows, d_v) * d_v**-0.5) if values else None

    def _rows(self, distances: Tensor) -> Tensor:
        """Table row of each (clipped) distance."""
        return self.tiles().rows(distances)

    def bias(self, q: Tensor, n_keys: int) -> Tensor:
        """S_rel / √D for queries q (B, H, T, D) against ``n_keys`` keys: (B, H, T, S)."""
        t = q.size(-2)
        if self.causal:
            # Q E_rᵀ with column c at distance c − (S−1): clipped rows of the table, then skewed.
            rows = self._rows(torch.arange(n_keys, device=q.device) - (n_keys - 1))  # (S,)
            s_rel = skew(q @ self.e_k[:, rows].transpose(-2, -1))  # (B, H, T, S)
        else:
            by_distance = q @ self.e_k.transpose(-2, -1)  # (B, H, T, R)
            rows = self._rows(relative_distances(t, n_keys, q.device))  # (T, S)
            s_rel = by_distance.gather(-1, rows.expand(*by_distance.shape[:-1], n_keys))
        return s_rel / math.sqrt(q.size(-1))

    def value_term(self, weights: Tensor) -> Tensor:
        """Shaw's Σ_j α_ij a^V_clip(j−i): weights (B, H, T, S) → (B, H, T, D_v)."""
        t, s = weights.shape[-2:]
        rows = self._rows(relative_distances(t, s, weights.device)).expand_as(weights)
        by_distance = weights.new_zeros(*weights.shape[:-1], self.e_v.size(1)).scatter_add_(-1, rows, weights)
        return by_distance @ self.e_v  # (B, H, T, R) @ (H, R, D_v)

    def tiles(self) -> RelativeTiles:
        """This layer's rules for the tiled kernels; its params are ``tile_params()``."""
        return RelativeTiles(self.k, self.causal)

    def tile_params(self) -> tuple[Tensor, ...]:
        return (self.e_k,) if self.e_v is None else (self.e_k, self.e_v)

    def forward(self, kernel, q: Tensor, k: Tensor, v: Tensor, mask: Tensor | None, causal: bool, dropout_p: float,
                need_weights: bool) -> tuple[Tensor, Tensor | None]:
        """The variant slot of ``MultiHeadAttention``: the kernel with S_rel added (and the value term)."""
        if fast_path(kernel, q, mask, dropout_p, need_weights):
            spec = TileSpec(q.size(-2), k.size(-2), causal, self.tiles())
            return tiled_attention(q, k, v, mask, spec, *self.tile_params()), None
        bias = self.bias(q, k.size(-2))
        if self.e_v is None:
            return kernel(q, k, v, mask, causal, dropout_p, bias, need_weights)
        _, weights = math_attention(q, k, v, mask, causal, 0.0, bias)  # the value term needs the weights
        dropped = F.dropout(weights, p=dropout_p)
        return dropped @ v + self.value_term(dropped), weights


@dataclass(frozen=True)
class RelativeTiles(TileVariant):
    """Shaw's terms by tiles (Eq. 5; Huang et al. 2018 §3.4 without the skew). For a query block the
    products P = Q_s E_rᵀ over the R clipped distances are formed once, and a tile reads them by
    distance: S_rel[i, j] = P[i, clip(j − i) + k]. A tile whose keys are all at least k before (or
    after) its queries reads one column: one scalar per query. Params: (E_r,) or (E_r, E_V)."""

    k: int  # Shaw's clipping distance
    causal: bool  # the table holds distances −k..0 (else −k..k)

    @property
    def n_rows(self) -> int:
        return self.k + 1 if self.causal else 2 * self.k + 1

    def rows(self, distances: Tensor) -> Tensor:
        """Table row of each distance j − i: clip(j − i) + k."""
        return distances.clamp(-self.k, 0 if self.causal else self.k) + self.k

    def tile_rows(self, first: int, last: int, j0: int, j1: int, device) -> int | Tensor:
        """Table row of each pair's clipped distance: an int when the whole tile shares one row
        (keys all ≥ k away: Shaw's clipping makes the term one scalar per query), else (b_q, b_k)."""
        k, top = self.k, self.n_rows - 1
        if j1 - 1 - first <= -k:  # the nearest pair is k or more before: every distance clips to −k
            return 0
        if j0 - last >= top - k:  # the farthest-left pair is already at the top row (0, or +k)
            return top
        return self.rows(torch.arange(j0, j1, device=device)[None, :] - torch.arange(first, last + 1, device=device)[:, None])

    def block(self, qs: Tensor, first: int, last: int, params: tuple[Tensor, ...], do: Tensor | None = None,
              ) -> BlockTerm:
        return _RelativeBlock(self, qs, first, last, params, do)

    def score_mod(self, q: Tensor, params: tuple[Tensor, ...], offset: int):
        p_rel = (q * q.size(-1) ** -0.5) @ params[0].transpose(-2, -1)  # (B, H, T, R): differentiable, tiny

        def score_mod(score, b, h, i, j):
            return score + p_rel[b, h, i, self.rows(j - (i + offset))]

        return score_mod

    def flex_ok(self, params: tuple[Tensor, ...]) -> bool:
        return len(params) == 1  # FlexAttention has no slot for the value term


class _RelativeBlock(BlockTerm):
    """One query block's terms: P = Q_s E_rᵀ (B, H, b_q, R) read by distance per tile; with E_V, the
    tiles' probabilities summed by distance (b_q × R, rescaled with the output), times E_V once."""

    def __init__(self, tiles: RelativeTiles, qs: Tensor, first: int, last: int, params: tuple[Tensor, ...],
                 do: Tensor | None):
        self.tiles, self.qs, self.first, self.last, self.do = tiles, qs, first, last, do
        self.e_k, self.e_v = params[0], (params[1] if len(params) > 1 else None)
        self.p_rel = qs @ self.e_k.transpose(-2, -1)
        self.rows: int | Tensor = 0  # the last tile's rows, read by the calls that follow its ``scores``
        self.by_dist = None if self.e_v is None else qs.new_zeros(*qs.shape[:-1], self.e_v.size(-2))
        self.do_values = None if do is None or self.e_v is None else do @ self.e_v.transpose(-2, -1)  # dO · a^V
        self.d_rel = None if do is None else torch.zeros_like(self.p_rel)

    def scores(self, j0: int, j1: int) -> Tensor:
        self.rows = self.tiles.tile_rows(self.first, self.last, j0, j1, self.qs.device)
        return gather_tile(self.p_rel, self.rows)

    def add_probs(self, p: Tensor, rescale: Tensor | None = None) -> None:
        if self.by_dist is not None:
            scatter_tile(self.by_dist if rescale is None else self.by_dist.mul_(rescale), self.rows, p)

    def output(self) -> Tensor | None:
        return None if self.by_dist is None else self.by_dist @ self.e_v

    def add_d_probs(self, dp: Tensor) -> None:
        if self.do_values is not None:
            dp += gather_tile(self.do_values, self.rows)

    def add_d_scores(self, ds: Tensor) -> None:
        scatter_tile(self.d_rel, self.rows, ds)

    def grads(self, dqs: Tensor) -> tuple[Tensor, ...]:
        # P = Q_s E_rᵀ: dQ_s += dP E_r, dE_r += dPᵀ Q_s; out += W E_V with W = Σ_j p_ij by distance: dE_V += Wᵀ dO
        dqs += self.d_rel @ self.e_k
        d_e_k = _per_table(self.d_rel.transpose(-2, -1) @ self.qs, self.e_k)
        if self.e_v is None:
            return (d_e_k,)
        return d_e_k, _per_table(self.by_dist.transpose(-2, -1) @ self.do, self.e_v)


def _per_table(grad: Tensor, table: Tensor) -> Tensor:
    """A (B, H, R, D) gradient summed to its table's (H, R, D), or (1, R, D) when the heads share it."""
    grad = grad.sum(0)
    return grad.sum(0, keepdim=True) if table.size(0) == 1 else grad


def gather_tile(p: Tensor, rows: int | Tensor) -> Tensor:
    """S_rel of one tile from P: (B, H, b_q, 1) when the tile shares one row, else (B, H, b_q, b_k)."""
    if isinstance(rows, int):
        return p[..., rows:rows + 1]
    return p.gather(-1, rows.expand(*p.shape[:-1], rows.size(-1)))


def scatter_tile(dp: Tensor, rows: int | Tensor, ds: Tensor) -> None:
    """The adjoint of ``gather_tile``: adds the tile's (B, H, b_q, b_k) values into dP by row."""
    if isinstance(rows, int):
        dp[..., rows] += ds.sum(-1)
    else:
        dp.scatter_add_(-1, rows.expand_as(ds), ds)
