"""Relative attention (Shaw et al. 2018; Huang et al. 2018): the skewed and gathered logits against a
naive L x L x D gather in float64, the value term, gradients, and both kernels."""

import math

import pytest
import torch

from aiayn.model.attention import ATTENTION_KERNELS, RelativePositions, math_attention, skew
from aiayn.model.masks import causal_mask


def naive_embeddings(table: torch.Tensor, n_queries: int, n_keys: int, k: int, causal: bool) -> torch.Tensor:
    """Shaw's formulation: the (H, T, S, D) tensor of e_clip(j-i), one vector per query-key pair."""
    out = torch.empty(table.size(0), n_queries, n_keys, table.size(-1), dtype=table.dtype)
    for i in range(n_queries):
        pos = n_keys - n_queries + i
        for j in range(n_keys):
            r = max(-k, min(k, j - pos))
            out[:, i, j] = table[:, r + k] if not causal else table[:, min(r, 0) + k]
    return out


def naive_bias(q, table, n_keys, k, causal):
    e = naive_embeddings(table, q.size(-2), n_keys, k, causal)  # (H, T, S, D)
    return torch.einsum("bhtd,htsd->bhts", q, e) / math.sqrt(q.size(-1))


CASES = [(1, 1, 1), (5, 5, 2), (5, 5, 10), (7, 7, 1), (3, 8, 2), (1, 9, 4), (6, 6, 5)]  # (T, S, k)


@pytest.mark.parametrize("t, s, k", CASES)
@pytest.mark.parametrize("share", [False, True])
def test_skewed_causal_logits_equal_the_naive_gather(t, s, k, share):
    torch.manual_seed(0)
    rel = RelativePositions(3, 4, 4, k, causal=True, share_heads=share).double()
    q = torch.randn(2, 3, t, 4, dtype=torch.float64)
    allowed = causal_mask(t, s)  # the skew leaves garbage where a key is in the future
    table = rel.e_k.detach().expand(3, -1, -1)
    # The causal table holds distances -k..0: pad it to -k..k so the naive oracle indexes one way.
    full = torch.cat([table, torch.zeros(3, k, 4, dtype=torch.float64)], dim=1)
    want = naive_bias(q, full, s, k, causal=True)
    got = rel.bias(q, s)
    torch.testing.assert_close(got[..., allowed], want[..., allowed], rtol=0, atol=1e-12)


@pytest.mark.parametrize("t, s, k", CASES)
def test_gathered_non_causal_logits_equal_the_naive_gather(t, s, k):
    torch.manual_seed(1)
    rel = RelativePositions(2, 4, 4, k, causal=False).double()
    q = torch.randn(2, 2, t, 4, dtype=torch.float64)
    torch.testing.assert_close(rel.bias(q, s), naive_bias(q, rel.e_k.detach(), s, k, causal=False), rtol=0, atol=1e-12)


def test_skew_on_a_hand_example():
    # Column c holds distance c - 2 for 3 keys; row i is query i. Entry [i, j] must hold distance j - i.
    by_distance = torch.tensor([[-2.0, -1.0, 0.0]] * 3)
    got = skew(by_distance)
    for i in range(3):
        for j in range(i + 1):
            assert got[i, j] == j - i


@pytest.mark.parametrize("causal", [True, False])
def test_value_term_equals_the_naive_sum(causal):
    torch.manual_seed(2)
    k, t, s = 2, 5, 5
    rel = RelativePositions(2, 4, 3, k, causal=causal, values=True).double()
    weights = torch.rand(1, 2, t, s, dtype=torch.float64)
    table = rel.e_v.detach()
    if causal:
        table = torch.cat([table, torch.zeros(2, k, 3, dtype=torch.float64)], dim=1)
    e = naive_embeddings(table, t, s, k, causal)  # (H, T, S, D_v)
    want = torch.einsum("bhts,htsd->bhtd", weights, e)
    torch.testing.assert_close(rel.value_term(weights), want, rtol=0, atol=1e-12)


@pytest.mark.parametrize("causal", [True, False])
def test_gradients_match_the_naive_form(causal):
    torch.manual_seed(3)
    k, t = 3, 6
    rel = RelativePositions(2, 4, 4, k, causal=causal).double()
    q = torch.randn(1, 2, t, 4, dtype=torch.float64, requires_grad=True)
    kk, v = torch.randn(1, 2, t, 4, dtype=torch.float64), torch.randn(1, 2, t, 4, dtype=torch.float64)
    out, _ = rel(math_attention, q, kk, v, None, causal, 0.0, False)
    out.square().sum().backward()
    got_q, got_e = q.grad.clone(), rel.e_k.grad.clone()

    q.grad = None
    table = rel.e_k.detach().clone().requires_grad_(True)
    full = torch.cat([table, torch.zeros(2, k, 4, dtype=torch.float64)], dim=1) if causal else table
    bias = naive_bias(q, full, t, k, causal)
    out, _ = math_attention(q, kk, v, None, causal, 0.0, bias)
    out.square().sum().backward()
    torch.testing.assert_close(got_q, q.grad, rtol=0, atol=1e-10)
    torch.testing.assert_close(got_e, table.grad, rtol=0, atol=1e-10)


@pytest.mark.parametrize("causal", [True, False])
def test_kernels_agree_with_a_bias_and_a_padding_mask(causal):
    torch.manual_seed(4)
    rel = RelativePositions(2, 8, 8, 3, causal=causal)
    q, k, v = (torch.randn(2, 2, 7, 8) for _ in range(3))
    mask = torch.ones(2, 1, 1, 7, dtype=torch.bool)
    mask[1, ..., 5:] = False
    (out_m, w_m), (out_s, w_s) = (rel(ATTENTION_KERNELS[n], q, k, v, mask, causal, 0.0, True) for n in ("math", "sdpa"))
    torch.testing.assert_close(out_m, out_s, rtol=1e-5, atol=1e-6)
    torch.testing.assert_close(w_m, w_s)
    assert w_m[1, ..., 5:].abs().max() == 0  # padding keys get no weight
