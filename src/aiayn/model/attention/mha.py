"""Multi-head attention (paper §3.2.2) with one slot for the attention variant.

Legend: B batch, H heads, T query length, S key length, D_k / D_v head widths.

The attention kernel (fused SDPA or explicit math, ``core.ATTENTION_KERNELS``) and the variant (none,
relative positions, ...) are fixed when the layer is built, from the model's config. A variant is
a module called as ``variant(kernel, q, k, v, mask, causal, dropout_p, need_weights)``; it adds
its score term (and whatever else it changes) and runs the kernel.
"""

from __future__ import annotations

from torch import Tensor, nn

from .core import ATTENTION_KERNELS


class MultiHeadAttention(nn.Module):
    """§3.2.2: MultiHead(Q, K, V) = Concat(head_1, ..., head_h) W^O, head_i = Attention(Q W_i^Q, K W_i^K, V W_i^V).

    All heads' projections live in one matrix per role (W^Q of shape d_model x h·d_k, ...), and
    for self-attention Q, K and V are one fused matrix, so each is a single matmul.
    ``d_k`` and ``d_v`` are free (Table 3 rows A and B); the paper sets both to d_model / h.
    """

    def __init__(self, d_model: int, n_heads: int, d_k: int, d_v: int, dropout: float = 0.0, cross: bool = False,
                 bias: bool = True, attention_kernel: str = "sdpa", variant: nn.Module | None = None):
        super().__init__()
        self.n_heads, self.d_k, self.d_v, self.dropout, self.cross = n_heads, d_k, d_v, dropout, cross
        self.attention_kernel, self.variant = attention_kernel, variant
        if cross:  # queries from the decoder, keys and values from the encoder output
            self.w_q = nn.Linear(d_model, n_heads * d_k, bias=bias)
            self.w_kv = nn.Linear(d_model, n_heads * (d_k + d_v), bias=bias)
        else:
            self.w_qkv = nn.Linear(d_model, n_heads * (2 * d_k + d_v), bias=bias)
        self.w_o = nn.Linear(n_heads * d_v, d_model, bias=bias)

    def _split_heads(self, x: Tensor, d: int) -> Tensor:
        b, t, _ = x.shape
        return x.view(b, t, self.n_heads, d).transpose(1, 2)  # (B, T, H*d) -> (B, H, T, d)

    def project_kv(self, memory: Tensor) -> tuple[Tensor, Tensor]:
        """K W^K and V W^V of the encoder output: (B, S, d_model) -> (B, H, S, D_k), (B, H, S, D_v)."""
        k, v = self.w_kv(memory).split([self.n_heads * self.d_k, self.n_heads * self.d_v], dim=-1)
        return self._split_heads(k, self.d_k), self._split_heads(v, self.d_v)

    def project_qkv(self, x: Tensor) -> tuple[Tensor, Tensor, Tensor]:
        """Self-attention's Q, K, V of x: (B, T, d_model) -> three (B, H, T, D)."""
        hk, hv = self.n_heads * self.d_k, self.n_heads * self.d_v
        q, k, v = self.w_qkv(x).split([hk, hk, hv], dim=-1)
        return self._split_heads(q, self.d_k), self._split_heads(k, self.d_k), self._split_heads(v, self.d_v)

    def attend(self, q: Tensor, k: Tensor, v: Tensor, mask: Tensor | None, causal: bool, need_weights: bool = False,
               ) -> tuple[Tensor, Tensor | None]:
        """Runs Eq. 1 (and the variant) on all heads at once and applies W^O: -> (B, T, d_model), weights (B, H, T, S).

        Queries are the last T of the S key positions (a cache holds the earlier ones).
        """
        kernel = ATTENTION_KERNELS[self.attention_kernel]
        dropout_p = self.dropout if self.training else 0.0
        if self.variant is None:
            out, weights = kernel(q, k, v, mask, causal, dropout_p, None, need_weights)
        else:
            out, weights = self.variant(kernel, q, k, v, mask, causal, dropout_p, need_weights)
        b, _, t, _ = out.shape
        out = out.transpose(1, 2).reshape(b, t, self.n_heads * self.d_v)  # (B, H, T, D_v) -> (B, T, H*D_v)
        return self.w_o(out), weights

    def forward(self, x: Tensor, mask: Tensor | None = None, causal: bool = False,
                kv: tuple[Tensor, Tensor] | None = None, need_weights: bool = False) -> tuple[Tensor, Tensor | None]:
        """Self-attention over x, or (cross) attention from x to precomputed ``kv = project_kv(memory)``."""
        if self.cross:
            if kv is None:
                raise ValueError("cross-attention needs kv = project_kv(memory)")
            q, (k, v) = self._split_heads(self.w_q(x), self.d_k), kv
        else:
            q, k, v = self.project_qkv(x)
        return self.attend(q, k, v, mask, causal, need_weights)
