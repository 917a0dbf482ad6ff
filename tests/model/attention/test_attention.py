"""Scaled dot-product and multi-head attention (§3.2) against independent computations."""

import math

import pytest
import torch
from torch import nn

from aiayn.model import MultiHeadAttention, causal_mask, math_attention, padding_mask, sdpa_attention


def hand_attention(q, k, v, allowed):
    """Eq. 1 with Python loops in float64, one query at a time: the independent oracle."""
    t, s = len(q), len(k)
    out = []
    for i in range(t):
        scores = [sum(a * b for a, b in zip(q[i], k[j])) / math.sqrt(len(q[i])) for j in range(s)]
        exp = [math.exp(sc) if allowed[i][j] else 0.0 for j, sc in enumerate(scores)]
        z = sum(exp)
        w = [e / z for e in exp]
        out.append([sum(w[j] * v[j][c] for j in range(s)) for c in range(len(v[0]))])
    return out


def test_scaled_dot_product_matches_float64_hand_computation():
    g = torch.Generator().manual_seed(0)
    q, k, v = (torch.randn(1, 1, n, 4, generator=g, dtype=torch.float64) for n in (3, 5, 5))
    v = torch.randn(1, 1, 5, 6, generator=g, dtype=torch.float64)  # d_v != d_k
    allowed = torch.tensor([[1, 1, 0, 1, 0], [1, 0, 0, 0, 0], [1, 1, 1, 1, 1]], dtype=torch.bool)
    expected = torch.tensor(hand_attention(q[0, 0].tolist(), k[0, 0].tolist(), v[0, 0].tolist(), allowed.tolist()),
                            dtype=torch.float64)
    for backend in (math_attention, sdpa_attention):
        out, _ = backend(q, k, v, allowed)
        torch.testing.assert_close(out[0, 0], expected, rtol=1e-12, atol=1e-12)


def test_hand_example_on_the_seed_shapes():
    # Two keys with equal scores give equal weights; a masked key gets none.
    q = torch.tensor([[[[1.0, 0.0]]]])
    k = torch.tensor([[[[1.0, 0.0], [1.0, 0.0], [5.0, 5.0]]]])
    v = torch.tensor([[[[2.0], [4.0], [100.0]]]])
    out, w = math_attention(q, k, v, torch.tensor([True, True, False]))
    torch.testing.assert_close(w, torch.tensor([[[[0.5, 0.5, 0.0]]]]))
    torch.testing.assert_close(out, torch.tensor([[[[3.0]]]]))


def test_math_and_sdpa_backends_agree_with_masks_and_causal():
    g = torch.Generator().manual_seed(1)
    q, k, v = (torch.randn(2, 3, 6, 8, generator=g) for _ in range(3))
    mask = padding_mask(torch.tensor([[5, 5, 5, 5, 0, 0], [5, 5, 5, 5, 5, 5]]), pad_id=0)
    for kwargs in ({"mask": mask}, {"causal": True}, {"mask": mask, "causal": True}):
        a, weights = math_attention(q, k, v, **kwargs)
        b, none = sdpa_attention(q, k, v, **kwargs)
        torch.testing.assert_close(a, b, rtol=1e-5, atol=1e-5)
        assert none is None
        torch.testing.assert_close(weights.sum(-1), torch.ones(2, 3, 6))


def test_causal_mask_with_cache_offset():
    # Two new queries (positions 3 and 4) over five keys.
    expected = torch.tensor([[1, 1, 1, 1, 0], [1, 1, 1, 1, 1]], dtype=torch.bool)
    assert torch.equal(causal_mask(2, 5), expected)
    assert torch.equal(causal_mask(3, 3), torch.tril(torch.ones(3, 3, dtype=torch.bool)))


def test_fully_masked_query_gives_zeros_not_nan():
    q, k, v = (torch.randn(1, 2, 3, 4, requires_grad=True) for _ in range(3))
    nothing = torch.zeros(1, 1, 1, 3, dtype=torch.bool)
    for backend in (math_attention, sdpa_attention):
        out, _ = backend(q, k, v, nothing)
        assert torch.equal(out, torch.zeros_like(out))
        out.sum().backward()
        assert all(not t.grad.isnan().any() for t in (q, k, v))


def _load_from_torch(ours: MultiHeadAttention, ref: nn.MultiheadAttention, cross: bool) -> None:
    with torch.no_grad():
        if cross:
            e = ref.embed_dim
            ours.w_q.weight.copy_(ref.in_proj_weight[:e])
            ours.w_q.bias.copy_(ref.in_proj_bias[:e])
            ours.w_kv.weight.copy_(ref.in_proj_weight[e:])
            ours.w_kv.bias.copy_(ref.in_proj_bias[e:])
        else:
            ours.w_qkv.weight.copy_(ref.in_proj_weight)
            ours.w_qkv.bias.copy_(ref.in_proj_bias)
        ours.w_o.weight.copy_(ref.out_proj.weight)
        ours.w_o.bias.copy_(ref.out_proj.bias)


@pytest.mark.parametrize("need_weights", [False, True])
def test_self_attention_matches_torch_multihead_attention(need_weights):
    torch.manual_seed(0)
    d_model, heads = 32, 4
    ref = nn.MultiheadAttention(d_model, heads, batch_first=True).eval()
    ours = MultiHeadAttention(d_model, heads, d_model // heads, d_model // heads).eval()
    _load_from_torch(ours, ref, cross=False)
    x = torch.randn(2, 7, d_model)
    tokens = torch.tensor([[4, 4, 4, 4, 4, 0, 0], [4] * 7])
    expected, ref_w = ref(x, x, x, key_padding_mask=tokens == 0, need_weights=True, average_attn_weights=False)
    out, weights = ours(x, mask=padding_mask(tokens, 0), need_weights=need_weights)
    torch.testing.assert_close(out[0, :5], expected[0, :5], rtol=1e-5, atol=1e-5)
    torch.testing.assert_close(out[1], expected[1], rtol=1e-5, atol=1e-5)
    if need_weights:
        torch.testing.assert_close(weights, ref_w, rtol=1e-5, atol=1e-6)

    causal_ref, _ = ref(x, x, x, attn_mask=~causal_mask(7, 7), need_weights=False)
    causal_out, _ = ours(x, causal=True)
    torch.testing.assert_close(causal_out, causal_ref, rtol=1e-5, atol=1e-5)


def test_cross_attention_matches_torch_multihead_attention():
    torch.manual_seed(1)
    d_model, heads = 24, 3
    ref = nn.MultiheadAttention(d_model, heads, batch_first=True).eval()
    ours = MultiHeadAttention(d_model, heads, 8, 8, cross=True).eval()
    _load_from_torch(ours, ref, cross=True)
    x, memory = torch.randn(2, 4, d_model), torch.randn(2, 6, d_model)
    src = torch.tensor([[9, 9, 9, 0, 0, 0], [9] * 6])
    expected, _ = ref(x, memory, memory, key_padding_mask=src == 0)
    out, _ = ours(x, mask=padding_mask(src, 0), kv=ours.project_kv(memory))
    torch.testing.assert_close(out, expected, rtol=1e-5, atol=1e-5)


def test_d_k_and_d_v_are_independent_of_d_model():
    # Table 3 row B: d_k = 16 with d_model = 64 and 8 heads; d_v = 4.
    mha = MultiHeadAttention(d_model=64, n_heads=8, d_k=16, d_v=4)
    assert mha.w_qkv.weight.shape == (8 * (16 + 16 + 4), 64)
    assert mha.w_o.weight.shape == (64, 8 * 4)
    out, w = mha(torch.randn(2, 5, 64), need_weights=True)
    assert out.shape == (2, 5, 64) and w.shape == (2, 8, 5, 5)


@pytest.mark.parametrize("shape, fused", [((1, 4, 1, 51), True), ((4, 4, 2, 60), True), ((8, 4, 1, 51), False)])
def test_bf16_cpu_kernel_choice_and_both_choices_match_float64(monkeypatch, shape, fused):
    """In bf16 on the CPU, inference over batch x heads x keys <= CPU_BF16_FUSED_WORK (one sentence decoded)
    takes PyTorch's fused kernel, larger calls and anything with gradients the formula spelled out; both
    agree with float64 to bf16's precision, masks and cached causal queries included."""
    import aiayn.model.attention.core as core

    b, h, t, s = shape
    g = torch.Generator().manual_seed(5)
    q, k, v = (torch.randn(b, h, n, 16, generator=g, dtype=torch.float64) for n in (t, s, s))
    mask = torch.ones(b, 1, 1, s, dtype=torch.bool)
    mask[0, ..., s - 7:] = False  # one row's padding
    expected, _ = math_attention(q, k, v, mask, causal=True)
    calls = []
    monkeypatch.setattr(core, "math_attention", lambda *a, **kw: calls.append("math") or math_attention(*a, **kw))
    bf = [x.to(torch.bfloat16) for x in (q, k, v)]
    with torch.no_grad():
        out, _ = sdpa_attention(*bf, mask, causal=True)
    assert calls == ([] if fused else ["math"])
    torch.testing.assert_close(out.double(), expected, rtol=0.02, atol=0.02)
    with torch.enable_grad():  # training keeps the spelled-out kernel whatever the shape
        sdpa_attention(*(x.requires_grad_() for x in bf), mask, causal=True)
    assert calls[-1] == "math"
