"""Block-by-block attention (issue 21) against two independent computations in float64: Shaw's naive
form (the T x S x D tensor of e_clip(j-i), hand-written loops) and the materialising path (skewed /
gathered T x S bias, the ``math`` kernel). Outputs and gradients of q, k, v and the table; causal
and not, clipped and not, shared table, padding, lengths that are and are not multiples of the
block, queries that are the last T of S keys (a cache); local attention's band; the kernel's own
block sizes at L = 600; whole models (language model, encoder-decoder), every parameter's gradient
included; cached decoding against the full pass, left-padded primers too; and the largest tensor
the kernel ever makes is one tile."""

import math

import pytest
import torch
from torch.utils._python_dispatch import TorchDispatchMode

from aiayn import LanguageModel, LanguageModelConfig, Transformer, TransformerConfig, prompt_batch
from aiayn.model.attention import LocalAttention, RelativePositions, math_attention, sdpa_attention
from aiayn.model.attention.blockwise import blockwise_attention
from aiayn.model.attention.local import BandTiles
from aiayn.model.attention.relative import RelativeTiles
from aiayn.model.attention.tiles import BlockTerm, TileSpec, TileVariant

F64 = torch.float64


def naive_relative(q, k, v, table, clip, causal, rel_causal, mask, values=None):
    """Shaw et al. written out: logits[i, j] = q_i · (k_j + e_clip(j - i)) / √D, loops over pairs;
    with ``values``: out_i = Σ_j α_ij (v_j + a^V_clip(j - i))."""
    t, s, d = q.size(-2), k.size(-2), q.size(-1)
    rows = [[max(-clip, min(0 if rel_causal else clip, j - (s - t + i))) + clip for j in range(s)] for i in range(t)]
    e = table[:, torch.tensor(rows)]  # (H, T, S, D): one vector per pair
    logits = (q @ k.transpose(-2, -1) + torch.einsum("bhtd,htsd->bhts", q, e.expand(q.size(1), -1, -1, -1))) / math.sqrt(d)
    allowed = torch.ones(t, s, dtype=torch.bool)
    if causal:
        allowed = torch.arange(s)[None, :] <= torch.arange(t)[:, None] + (s - t)
    if mask is not None:
        allowed = allowed & mask
    logits = logits.masked_fill(~allowed, -math.inf)
    weights = torch.nan_to_num(logits.softmax(-1))  # a row with no key: 0
    if values is None:
        return weights @ v
    a_v = values[:, torch.tensor(rows)].expand(q.size(1), -1, -1, -1)  # (H, T, S, D_v)
    return weights @ v + torch.einsum("bhts,htsd->bhtd", weights, a_v)


def inputs(t, s, d=4, heads=2, batch=2, seed=0):
    torch.manual_seed(seed)
    q = torch.randn(batch, heads, t, d, dtype=F64, requires_grad=True)
    k, v = (torch.randn(batch, heads, s, d, dtype=F64, requires_grad=True) for _ in range(2))
    return q, k, v


def grads(out, tensors):
    torch.manual_seed(99)
    return torch.autograd.grad((out * torch.randn_like(out)).sum(), tensors)


# (T, S, k): multiples of the 4 x 8 tiles and not, k clipping inside a tile and k past the length, T < S (a cache)
CASES = [(16, 16, 2), (19, 19, 3), (19, 19, 40), (13, 21, 5), (1, 9, 2), (24, 24, 8)]


@pytest.mark.parametrize("t, s, clip", CASES)
@pytest.mark.parametrize("causal", [True, False])
@pytest.mark.parametrize("share", [False, True])
@pytest.mark.parametrize("padded", [False, True])
def test_relative_equals_naive_and_materialising(t, s, clip, causal, share, padded):
    q, k, v = inputs(t, s, seed=t + s + clip)
    rel = RelativePositions(2, 4, 4, clip, causal=causal, share_heads=share).double()
    mask = None
    if padded:
        mask = torch.ones(2, 1, 1, s, dtype=torch.bool)
        mask[1, ..., s - 3:] = False  # right padding
        mask[0, ..., :2] = False  # left padding: with T < S and causal, a query may see no key at all
    spec = TileSpec(t, s, causal, RelativeTiles(clip, causal))
    got = blockwise_attention(q, k, v, mask, spec, rel.e_k, q_block=4, k_block=8)
    oracle, _ = rel(math_attention, q, k, v, mask, causal, 0.0, False)
    naive = naive_relative(q, k, v, rel.e_k, clip, causal, causal, None if mask is None else mask[:, :, 0:1, :])
    torch.testing.assert_close(got, naive, rtol=0, atol=1e-12)
    torch.testing.assert_close(got, oracle, rtol=0, atol=1e-12)
    params = (q, k, v, rel.e_k)
    for g, o, n in zip(grads(got, params), grads(oracle, params), grads(naive, params)):
        torch.testing.assert_close(g, n, rtol=0, atol=1e-11)
        torch.testing.assert_close(g, o, rtol=0, atol=1e-11)


@pytest.mark.parametrize("t, s, clip", CASES)
@pytest.mark.parametrize("causal", [True, False])
@pytest.mark.parametrize("share", [False, True])
@pytest.mark.parametrize("padded", [False, True])
def test_relative_value_term_equals_naive_and_materialising(t, s, clip, causal, share, padded):
    """Shaw's value term block by block: the same outputs and gradients (E_V's included)."""
    q, k, v = inputs(t, s, seed=t + s + clip)
    rel = RelativePositions(2, 4, 4, clip, causal=causal, share_heads=share, values=True).double()
    mask = None
    if padded:
        mask = torch.ones(2, 1, 1, s, dtype=torch.bool)
        mask[1, ..., s - 3:] = False
        mask[0, ..., :2] = False
    spec = TileSpec(t, s, causal, RelativeTiles(clip, causal))
    got = blockwise_attention(q, k, v, mask, spec, rel.e_k, rel.e_v, q_block=4, k_block=8)
    oracle, _ = rel(math_attention, q, k, v, mask, causal, 0.0, False)
    naive = naive_relative(q, k, v, rel.e_k, clip, causal, causal, None if mask is None else mask[:, :, 0:1, :],
                           values=rel.e_v)
    torch.testing.assert_close(got, naive, rtol=0, atol=1e-12)
    torch.testing.assert_close(got, oracle, rtol=0, atol=1e-12)
    params = (q, k, v, rel.e_k, rel.e_v)
    for g, o, n in zip(grads(got, params), grads(oracle, params), grads(naive, params)):
        torch.testing.assert_close(g, n, rtol=0, atol=1e-11)
        torch.testing.assert_close(g, o, rtol=0, atol=1e-11)


def hand_band(t, s, block, memory, causal):
    allowed = torch.zeros(t, s, dtype=torch.bool)
    for i in range(t):
        pos = s - t + i
        start = (pos // block) * block - memory
        last = pos if causal else start + 2 * memory + block - 1
        allowed[i, max(0, start):min(s - 1, last) + 1] = True
    return allowed


@pytest.mark.parametrize("t, s, block, memory", [(17, 17, 4, 3), (16, 16, 4, 8), (12, 12, 5, 0), (9, 23, 3, 4)])
@pytest.mark.parametrize("causal", [True, False])
@pytest.mark.parametrize("q_block", [None, 2])
def test_local_band_equals_the_hand_written_mask(t, s, block, memory, causal, q_block):
    q, k, v = inputs(t, s, seed=block * memory + t)
    mask = torch.ones(2, 1, 1, s, dtype=torch.bool)
    mask[0, ..., s - 2:] = False
    spec = TileSpec(t, s, variant=BandTiles(block, memory, causal))
    got = blockwise_attention(q, k, v, mask, spec, q_block=q_block or block, k_block=5)
    want, _ = math_attention(q, k, v, hand_band(t, s, block, memory, causal) & mask, False, 0.0, None)
    torch.testing.assert_close(got, want, rtol=0, atol=1e-12)
    for g, w in zip(grads(got, (q, k, v)), grads(want, (q, k, v))):
        torch.testing.assert_close(g, w, rtol=0, atol=1e-11)


@pytest.mark.parametrize("variant", [RelativePositions(1, 2, 2, 300, causal=True, values=True),
                                     RelativePositions(1, 2, 2, 100, causal=False, share_heads=True),
                                     LocalAttention(256, 512, causal=True), LocalAttention(256, 512, causal=False)],
                         ids=["relative-causal-values", "relative-shared", "local-causal", "local"])
def test_default_blocks_above_one_block_equal_materialising(variant):
    """L = 600 with the kernel's own block sizes (256 queries x 512 keys; local: its config defaults), so
    tiles split at the real boundaries: outputs and gradients against the materialising path."""
    causal = getattr(variant, "causal", True)
    variant = variant.double()
    q, k, v = inputs(600, 600, d=2, heads=1, batch=2, seed=6)
    mask = torch.ones(2, 1, 1, 600, dtype=torch.bool)
    mask[1, ..., 550:] = False  # right padding in the last tile
    got, _ = variant(sdpa_attention, q, k, v, mask, causal, 0.0, False)
    want, _ = variant(math_attention, q, k, v, mask, causal, 0.0, False)
    torch.testing.assert_close(got, want, rtol=0, atol=1e-12)
    params = (q, k, v, *variant.parameters())
    for g, w in zip(grads(got, params), grads(want, params)):
        torch.testing.assert_close(g, w, rtol=0, atol=1e-10)


def test_the_variants_take_the_tiled_path_only_without_weights(monkeypatch):
    from aiayn.model.attention import blockwise

    calls = []
    real = blockwise.BlockwiseAttention.apply
    monkeypatch.setattr(blockwise.BlockwiseAttention, "apply", lambda *a: calls.append(1) or real(*a))
    q, k, v = inputs(10, 10)
    for variant in (RelativePositions(2, 4, 4, 3, causal=True).double(), LocalAttention(4, 2)):
        fast, _ = variant(sdpa_attention, q, k, v, None, True, 0.0, False)
        assert len(calls) == 1
        slow, weights = variant(sdpa_attention, q, k, v, None, True, 0.0, True)  # weights: the oracle path
        assert len(calls) == 1 and weights is not None
        torch.testing.assert_close(fast, slow, rtol=0, atol=1e-12)
        calls.clear()


class ALiBiTiles(TileVariant):
    """A third variant written against ``tiles.py`` alone, to show the plug-in: ALiBi's linear distance
    penalty (Press et al. 2022), −m_h (i − j) on the scaled scores, its slopes m (H,) a learned param."""

    def block(self, qs, first, last, params, do=None):
        return ALiBiBlock(first, last, params[0])

    def score_mod(self, q, params, offset):
        return lambda score, b, h, i, j: score - params[0][h] * (i + offset - j)


class ALiBiBlock(BlockTerm):
    def __init__(self, first, last, slopes):
        self.first, self.last, self.slopes, self.d_slopes = first, last, slopes, torch.zeros_like(slopes)

    def scores(self, j0, j1):
        self.distance = torch.arange(self.first, self.last + 1, dtype=F64)[:, None] - torch.arange(j0, j1)[None, :]
        return -self.slopes[:, None, None] * self.distance.to(self.slopes.dtype)

    def add_d_scores(self, ds):
        self.d_slopes -= (ds * self.distance.to(ds.dtype)).sum((0, 2, 3))

    def grads(self, dqs):
        return (self.d_slopes,)


@pytest.mark.parametrize("t, s", [(19, 19), (13, 21)])
@pytest.mark.parametrize("causal", [True, False])
def test_a_new_variant_is_one_plug_in_and_equals_its_materialised_bias(t, s, causal):
    q, k, v = inputs(t, s, seed=t + s)
    slopes = torch.tensor([0.5, 0.125], dtype=F64, requires_grad=True)
    mask = torch.ones(2, 1, 1, s, dtype=torch.bool)
    mask[1, ..., s - 3:] = False
    got = blockwise_attention(q, k, v, mask, TileSpec(t, s, causal, ALiBiTiles()), slopes, q_block=4, k_block=8)
    distance = (torch.arange(t)[:, None] + s - t - torch.arange(s)[None, :]).to(F64)  # i − j, queries the last T
    want, _ = math_attention(q, k, v, mask, causal, 0.0, -slopes[:, None, None] * distance)
    torch.testing.assert_close(got, want, rtol=0, atol=1e-12)
    for g, w in zip(grads(got, (q, k, v, slopes)), grads(want, (q, k, v, slopes))):
        torch.testing.assert_close(g, w, rtol=0, atol=1e-11)


@pytest.mark.filterwarnings("ignore:flex_attention called without torch.compile")
@pytest.mark.parametrize("causal", [True, False])
def test_a_new_variants_score_mod_equals_its_tiles(causal, monkeypatch):
    """The same plug-in through FlexAttention's eager CPU reference (forward only)."""
    from torch.nn.attention.flex_attention import flex_attention

    from aiayn.model.attention import flex

    monkeypatch.setattr(flex, "_compiled", lambda: flex_attention)
    torch.manual_seed(1)
    q, k, v = (torch.randn(2, 2, n, 8) for n in (7, 19, 19))
    slopes, spec = torch.tensor([0.5, 0.125]), TileSpec(7, 19, causal, ALiBiTiles())
    want = blockwise_attention(q, k, v, None, spec, slopes, q_block=4, k_block=8)
    torch.testing.assert_close(flex.flex_attention_tiles(q, k, v, None, spec, slopes), want, rtol=1e-5, atol=1e-5)


class LargestTensor(TorchDispatchMode):
    """Records the largest tensor any operator returns."""

    def __init__(self):
        super().__init__()
        self.largest = 0

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        out = func(*args, **(kwargs or {}))
        for x in out if isinstance(out, (tuple, list)) else (out,):
            if isinstance(x, torch.Tensor):
                self.largest = max(self.largest, x.numel())
        return out


@pytest.mark.parametrize("variant", ["relative", "local"])
def test_no_tensor_is_ever_as_large_as_t_by_s(variant):
    length, heads, d = 128, 2, 8
    q, k, v = (torch.randn(1, heads, length, d, requires_grad=True) for _ in range(3))
    table = torch.randn(heads, 17, d, requires_grad=True)
    spec = TileSpec(length, length, True, RelativeTiles(16, True)) if variant == "relative" else \
        TileSpec(length, length, variant=BandTiles(16, 16, True))
    params = (table,) if variant == "relative" else ()
    with LargestTensor() as probe:
        out = blockwise_attention(q, k, v, None, spec, *params, q_block=16, k_block=32)
        out.sum().backward()
    # One tile or one (L, D) input: O(L), never T x S (16x larger here).
    assert probe.largest <= max(heads * 16 * 32, heads * length * d) <= heads * length * length / 16


def model(**overrides):
    torch.manual_seed(0)
    base = dict(vocab_size=30, d_model=32, n_heads=4, d_ff=64, n_layers=2, dropout=0.0, max_positions=64)
    return LanguageModel(LanguageModelConfig.from_dict({**base, **overrides})).double().eval()


LM_VARIANTS = [{"attention": "relative", "positional": "none", "max_relative_distance": 5},
               {"attention": "relative", "positional": "none", "max_relative_distance": 40, "relative_share_heads": True},
               {"attention": "relative", "positional": "none", "max_relative_distance": 6, "relative_values": True},
               {"attention": "local", "local_block": 4, "local_memory": 3}]


@pytest.mark.parametrize("variant", LM_VARIANTS)
def test_model_tiled_equals_materialising_and_cached_decoding_equals_full(variant, monkeypatch):
    from aiayn.model.attention import blockwise

    monkeypatch.setattr(blockwise, "Q_BLOCK", 4)  # several tiles even at these short lengths
    monkeypatch.setattr(blockwise, "K_BLOCK", 8)
    tiled, oracle = model(**variant), model(**variant, attention_kernel="math")
    oracle.load_state_dict(tiled.state_dict())
    x = torch.randint(3, 30, (3, 23))
    full = tiled(x)
    torch.testing.assert_close(full, oracle(x), rtol=0, atol=1e-12)
    state = tiled.start_decoding(None, capacity=23, batch=3)  # a prompt of 9 (tiled), chunks of 5, then one at a time
    parts = [tiled.decode_step(x[:, :9], state), tiled.decode_step(x[:, 9:14], state)]
    parts += [tiled.decode_step(x[:, i:i + 1], state) for i in range(14, 23)]
    torch.testing.assert_close(torch.cat(parts, dim=1), full, rtol=0, atol=1e-12)


def param_grads(net, logits):
    """d(logits · r)/dθ for a fixed random r: every parameter's gradient, in a fixed order."""
    params = [p for p in net.parameters() if p.requires_grad]
    return dict(zip([n for n, p in net.named_parameters() if p.requires_grad], grads(logits, params)))


def assert_same_grads(got, want):
    assert got.keys() == want.keys()
    for name in got:
        torch.testing.assert_close(got[name], want[name], rtol=0, atol=1e-11, msg=name)


@pytest.mark.parametrize("variant", LM_VARIANTS)
def test_model_gradients_tiled_equal_materialising(variant, monkeypatch):
    """Every parameter's gradient through the tiled path (the relative tables and E_V included)."""
    from aiayn.model.attention import blockwise

    monkeypatch.setattr(blockwise, "Q_BLOCK", 4)
    monkeypatch.setattr(blockwise, "K_BLOCK", 8)
    tiled, oracle = model(**variant), model(**variant, attention_kernel="math")
    oracle.load_state_dict(tiled.state_dict())
    x = torch.randint(3, 30, (3, 23))
    x[1, 17:] = 0  # right padding: the causal mask hides it
    assert_same_grads(param_grads(tiled, tiled(x)), param_grads(oracle, oracle(x)))


def seq2seq(**overrides):
    torch.manual_seed(0)
    base = dict(src_vocab_size=30, d_model=32, n_heads=4, d_ff=64, n_encoder_layers=2, n_decoder_layers=2,
                dropout=0.0, max_positions=64)
    return Transformer(TransformerConfig.from_dict({**base, **overrides})).double().eval()


@pytest.mark.parametrize("variant", [{"attention": "relative", "positional": "none", "max_relative_distance": 5},
                                     {"attention": "relative", "max_relative_distance": 4, "relative_values": True},
                                     {"attention": "local", "local_block": 4, "local_memory": 3}])
def test_encoder_decoder_tiled_equals_materialising_with_gradients(variant, monkeypatch):
    """The encoder's non-causal variant under a source padding mask, and the decoder's causal one."""
    from aiayn.model.attention import blockwise

    monkeypatch.setattr(blockwise, "Q_BLOCK", 4)
    monkeypatch.setattr(blockwise, "K_BLOCK", 8)
    tiled, oracle = seq2seq(**variant), seq2seq(**variant, attention_kernel="math")
    oracle.load_state_dict(tiled.state_dict())
    src, tgt = torch.randint(3, 30, (3, 21)), torch.randint(3, 30, (3, 18))
    src[0, 15:], src[2, 9:] = 0, 0  # right-padded sources of three lengths
    got, want = tiled(src, tgt), oracle(src, tgt)
    torch.testing.assert_close(got, want, rtol=0, atol=1e-12)
    assert_same_grads(param_grads(tiled, got), param_grads(oracle, want))


@pytest.mark.parametrize("variant", LM_VARIANTS)
def test_cached_decoding_of_left_padded_primers_equals_each_row_alone(variant, monkeypatch):
    """The generator's batches: primers of different lengths left-padded into one prompt (the prompt step
    and a chunk of 5 run tiled under the key mask), then one token at a time; each row's logits equal the
    materialising full pass of that row alone."""
    from aiayn.model.attention import blockwise

    monkeypatch.setattr(blockwise, "Q_BLOCK", 4)
    monkeypatch.setattr(blockwise, "K_BLOCK", 8)
    tiled, oracle = model(**variant), model(**variant, attention_kernel="math")
    oracle.load_state_dict(tiled.state_dict())
    torch.manual_seed(5)
    primers = [torch.randint(3, 30, (n,)).tolist() for n in (10, 4, 0)]
    prompt = prompt_batch(primers, 1, 0)  # (3, 11): BOS + primer, left-padded with 0
    more = torch.randint(3, 30, (3, 12))
    state = tiled.start_decoding(None, capacity=23, batch=3)
    parts = [tiled.decode_step(prompt, state), tiled.decode_step(more[:, :5], state)]
    parts += [tiled.decode_step(more[:, i:i + 1], state) for i in range(5, 12)]
    decoded = torch.cat(parts, dim=1)
    for row, primer in enumerate(primers):
        alone = torch.cat([torch.tensor([1] + primer), more[row]])[None]
        pad = prompt.size(1) - 1 - len(primer)
        torch.testing.assert_close(decoded[row:row + 1, pad:], oracle(alone), rtol=0, atol=1e-12)


@pytest.mark.filterwarnings("ignore:flex_attention called without torch.compile")
@pytest.mark.parametrize("spec_kw", [dict(causal=True, variant=RelativeTiles(3, True)),
                                     dict(causal=False, variant=RelativeTiles(3, False)),
                                     dict(variant=BandTiles(4, 3, True)), dict(variant=BandTiles(4, 3, False))])
@pytest.mark.parametrize("t", [19, 7])
def test_flex_score_and_mask_mods_equal_the_cpu_kernel(spec_kw, t, monkeypatch):
    """The CUDA path's score_mod / mask_mod, run by FlexAttention's eager (forward-only) CPU reference.
    The compiled CUDA kernel itself is not exercised here."""
    from torch.nn.attention.flex_attention import flex_attention

    from aiayn.model.attention import flex

    monkeypatch.setattr(flex, "_compiled", lambda: flex_attention)
    torch.manual_seed(t)
    s = 19
    q, k, v = (torch.randn(2, 2, t if i == 0 else s, 8) for i in range(3))
    spec = TileSpec(t, s, **spec_kw)
    params = (torch.randn(2, spec.variant.n_rows, 8),) if isinstance(spec.variant, RelativeTiles) else ()
    mask = torch.ones(2, 1, 1, s, dtype=torch.bool)
    mask[1, ..., -3:] = False
    want = blockwise_attention(q, k, v, mask, spec, *params, q_block=4, k_block=8)
    torch.testing.assert_close(flex.flex_attention_tiles(q, k, v, mask, spec, *params), want, rtol=1e-5, atol=1e-5)


def test_a_flex_attention_that_fails_falls_back_to_blockwise_once(monkeypatch, caplog):
    """Where FlexAttention cannot compile (a CUDA stack it does not support), the tiles run blockwise,
    with one warning; it is not tried again in that process. (CUDA stood in for by forcing the choice.)"""
    from aiayn.model.attention import dispatch, flex

    calls = []

    def broken(*args):
        calls.append(1)
        raise RuntimeError("no Triton for this GPU\nlong compiler log")

    monkeypatch.setattr(dispatch, "FLEX_FAILED", [])
    monkeypatch.setattr(dispatch, "use_flex", lambda *args: not dispatch.FLEX_FAILED)
    monkeypatch.setattr(flex, "flex_attention_tiles", broken)
    q, k, v = (torch.randn(2, 2, 19, 8) for _ in range(3))
    spec, table = TileSpec(19, 19, True, RelativeTiles(3, True)), torch.randn(2, 4, 8)
    want = blockwise_attention(q, k, v, None, spec, table)
    with caplog.at_level("WARNING", logger="aiayn"):
        for _ in range(2):
            torch.testing.assert_close(dispatch.tiled_attention(q, k, v, None, spec, table), want, rtol=0, atol=0)
    assert len(calls) == 1 and dispatch.FLEX_FAILED == ["RuntimeError: no Triton for this GPU\nlong compiler log"]
    assert [r.getMessage() for r in caplog.records] == [
        "FlexAttention failed (RuntimeError: no Triton for this GPU); using the blockwise kernel on CUDA from now on"]


@pytest.mark.parametrize("variant", LM_VARIANTS[:1] + LM_VARIANTS[2:])
def test_bf16_autocast_training_runs_the_tiles_in_float32(variant):
    net = model(**variant).float().train()
    x = torch.randint(3, 30, (2, 23))
    with torch.autocast("cpu", dtype=torch.bfloat16):
        logits = net(x)
    logits.float().sum().backward()
    reference = model(**variant).float()
    reference.load_state_dict(net.state_dict())
    torch.testing.assert_close(logits.float(), reference(x), rtol=0.05, atol=0.05)  # bfloat16 linear layers
    assert all(p.grad is not None and torch.isfinite(p.grad).all() for p in net.parameters() if p.requires_grad)
