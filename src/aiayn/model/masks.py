"""The one mask convention (paper §3.2.3): boolean, ``True`` = this query may attend to this key.

Masks broadcast against attention scores of shape (B, H, T, S).
Padding is always on the right of a sequence (the batching guarantees it).
"""

from __future__ import annotations

import torch
from torch import Tensor


def padding_mask(tokens: Tensor, pad_id: int) -> Tensor:
    """Keys that are real tokens: (B, S) ids -> (B, 1, 1, S) bool."""
    return (tokens != pad_id)[:, None, None, :]


def causal_mask(n_queries: int, n_keys: int, device: torch.device | None = None) -> Tensor:
    """Query i (the last ``n_queries`` of ``n_keys`` positions) sees keys <= its own position: (T, S).

    With a key/value cache the queries are the newest positions, so the diagonal is offset by
    ``n_keys - n_queries``.
    """
    offset = n_keys - n_queries
    q = torch.arange(n_queries, device=device)[:, None] + offset
    k = torch.arange(n_keys, device=device)[None, :]
    return k <= q
