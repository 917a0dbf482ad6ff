"""1D local self-attention (Image Transformer) against full attention under the block-band mask written
out by hand, in float64: causal and not, lengths that are and are not multiples of the block, shorter
than one block, with padding; gradients; and the kernel never sees more than l_m + l_q (+ l_m) keys."""

import pytest
import torch

from aiayn.model.attention import LocalAttention, MultiHeadAttention, math_attention, sdpa_attention

CASES = [(10, 4, 3), (3, 4, 2), (17, 5, 0), (16, 4, 8), (1, 2, 1), (12, 1, 1), (9, 3, 100)]


def hand_band(length: int, block: int, memory: int, causal: bool) -> torch.Tensor:
    """Parmar et al.: query i's block starts at b = (i // block) * block; it sees keys b - memory .. i
    (causal), or b - memory .. b + block - 1 + memory (non-causal)."""
    allowed = torch.zeros(length, length, dtype=torch.bool)
    for i in range(length):
        b = (i // block) * block
        last = i if causal else b + block - 1 + memory
        for j in range(max(0, b - memory), min(length - 1, last) + 1):
            allowed[i, j] = True
    return allowed


@pytest.mark.parametrize("causal", [True, False])
@pytest.mark.parametrize("length,block,memory", CASES)
@pytest.mark.parametrize("kernel", [math_attention, sdpa_attention])
def test_local_equals_full_attention_under_the_band_mask(length, block, memory, causal, kernel):
    torch.manual_seed(length + block)
    q, k, v = (torch.randn(2, 3, length, 5, dtype=torch.float64, requires_grad=True) for _ in range(3))
    local = LocalAttention(block, memory, causal)
    out, _ = local(kernel, q, k, v, None, causal, 0.0, False)
    ref, _ = math_attention(q, k, v, hand_band(length, block, memory, causal), False, 0.0, None)
    torch.testing.assert_close(out, ref, rtol=1e-12, atol=1e-12)
    grads = torch.autograd.grad(out.square().sum(), (q, k, v))
    ref_grads = torch.autograd.grad(ref.square().sum(), (q, k, v))
    for g, r in zip(grads, ref_grads):
        torch.testing.assert_close(g, r, rtol=1e-10, atol=1e-10)


@pytest.mark.parametrize("causal", [True, False])
def test_padded_keys_are_ignored_and_weights_match(causal):
    torch.manual_seed(0)
    length, block, memory = 11, 3, 2
    q, k, v = (torch.randn(2, 2, length, 4, dtype=torch.float64) for _ in range(3))
    real = torch.ones(2, length, dtype=torch.bool)
    real[1, 7:] = False  # row 1: 7 real tokens, right-padded
    mask = real[:, None, None, :]
    local = LocalAttention(block, memory, causal)
    out, _ = local(math_attention, q, k, v, mask, causal, 0.0, False)
    allowed = hand_band(length, block, memory, causal) & mask
    ref, ref_weights = math_attention(q, k, v, allowed, False, 0.0, None)
    torch.testing.assert_close(out[1, :, :7], ref[1, :, :7])  # real queries; padded ones are never read
    torch.testing.assert_close(out[0], ref[0])
    _, weights = local(sdpa_attention, q, k, v, mask, causal, 0.0, True)  # weights asked: same function
    torch.testing.assert_close(weights[:, :, :7], ref_weights[:, :, :7])


def test_cached_queries_see_the_same_band():
    """The last T of S positions (a KV cache), scored against only the keys their blocks reach."""
    torch.manual_seed(1)
    length, block, memory = 23, 4, 5
    q, k, v = (torch.randn(1, 2, length, 4, dtype=torch.float64) for _ in range(3))
    local = LocalAttention(block, memory, True)
    full, _ = local(math_attention, q, k, v, None, True, 0.0, False)
    for t in (1, 3, 7):
        tail, _ = local(math_attention, q[:, :, -t:], k, v, None, True, 0.0, False)
        torch.testing.assert_close(tail, full[:, :, -t:])


@pytest.mark.parametrize("causal", [True, False])
@pytest.mark.parametrize("t", [11, 4])
def test_left_padded_rows_keep_their_blocks(causal, t):
    """Left-padded prompts (the generator's batches) leave the tiled path for the windowed kernel: each
    row's blocks count from its first real token, as if the row were alone; with gradients."""
    torch.manual_seed(t)
    length, block, memory, pads = 11, 3, 2, (0, 4, 10)
    q = torch.randn(3, 2, t, 4, dtype=torch.float64, requires_grad=True)
    k, v = (torch.randn(3, 2, length, 4, dtype=torch.float64, requires_grad=True) for _ in range(2))
    allowed = torch.zeros(3, 1, length, length, dtype=torch.bool)
    for row, pad in enumerate(pads):  # the band of the real tokens alone; padding attends and is attended to by nothing
        allowed[row, 0, pad:, pad:] = hand_band(length - pad, block, memory, causal)
    mask = allowed.any(-2, keepdim=True)  # (B, 1, 1, S) real keys
    out, _ = LocalAttention(block, memory, causal)(sdpa_attention, q, k, v, mask, causal, 0.0, False)
    out = out * mask[:, :, 0, -t:, None]  # padding queries are never read (non-causal ones may see real keys)
    ref, _ = math_attention(q, k, v, allowed[..., -t:, :], False, 0.0, None)
    torch.testing.assert_close(out, ref, rtol=0, atol=1e-12)
    for g, r in zip(torch.autograd.grad(out.square().sum(), (q, k, v)), torch.autograd.grad(ref.square().sum(), (q, k, v))):
        torch.testing.assert_close(g, r, rtol=0, atol=1e-11)


@pytest.mark.parametrize("causal", [True, False])
def test_the_kernel_never_sees_the_whole_sequence(causal):
    """Cost that is really local: every kernel call gets at most l_m + l_q (+ l_m) keys per query block."""
    block, memory, length = 8, 16, 512
    seen = []

    def spy(q, k, v, mask, is_causal, dropout_p, bias, need_weights):
        seen.append((q.shape[-2], k.shape[-2], None if mask is None else mask.shape[-1]))
        return sdpa_attention(q, k, v, mask, is_causal, dropout_p, bias, need_weights)

    attention = MultiHeadAttention(32, 4, 8, 8, variant=LocalAttention(block, memory, causal))
    attention.attention_kernel = "spy"
    from aiayn.model.attention import core

    core.ATTENTION_KERNELS["spy"] = spy
    try:
        attention(torch.randn(2, length, 32), causal=causal)
    finally:
        del core.ATTENTION_KERNELS["spy"]
    width = memory + block + (0 if causal else memory)
    assert seen == [(block, width, width)]


def test_bad_blocks_are_refused():
    with pytest.raises(ValueError, match="block >= 1"):
        LocalAttention(0, 4)
