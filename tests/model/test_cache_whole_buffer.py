"""bf16 decoding on the CPU attends one query to the whole cache buffer, its unwritten columns masked
(``KVCache.update(whole=True)``): that must give what the prefix of written columns gives, with beams
reordered, left-padded prompts and a capacity far beyond the output."""

from __future__ import annotations

import pytest
import torch

from aiayn import (
    LanguageModel,
    LanguageModelConfig,
    Transformer,
    TransformerConfig,
    beam_search,
    greedy_search,
    prompt_batch,
)
from aiayn.model.cache import KVCache

PREFIX_ONLY = KVCache.update


@pytest.fixture(autouse=True)
def spelled_out_attention(monkeypatch):
    """The whole buffer is for the spelled-out bf16 kernel; these small models would otherwise take the fused one
    (``CPU_BF16_FUSED_WORK``), whose different summation order hides what is compared here."""
    import aiayn.model.attention.core as core

    monkeypatch.setattr(core, "CPU_BF16_FUSED_WORK", 0)


def prefix_only(self, pos, k, v, mask=None, whole=False):
    return PREFIX_ONLY(self, pos, k, v, mask, False)


def bf16(model):
    return model.to(torch.bfloat16).eval()


def translation_model():
    torch.manual_seed(0)
    cfg = dict(src_vocab_size=40, d_model=32, n_heads=4, d_ff=64, n_encoder_layers=2, n_decoder_layers=2, dropout=0.0,
               max_positions=128)
    return bf16(Transformer(TransformerConfig.from_dict(cfg)))


def test_whole_buffer_steps_equal_prefix_steps(monkeypatch):
    model = translation_model()
    src = torch.tensor([[5, 6, 7, 8, 9, 2], [10, 11, 12, 2, 0, 0]])
    tgt = torch.tensor([[1, 12, 13, 14, 15, 16], [1, 18, 19, 20, 21, 22]])

    def steps(capacity):
        state = model.start_decoding(src, capacity=capacity)
        with torch.no_grad():
            return torch.cat([model.decode_step(tgt[:, t:t + 1], state) for t in range(tgt.size(1))], dim=1)

    whole = steps(100)  # 94 columns beyond the last step
    monkeypatch.setattr(KVCache, "update", prefix_only)
    torch.testing.assert_close(whole.float(), steps(100).float(), rtol=0.02, atol=0.02)
    torch.testing.assert_close(whole.float(), steps(tgt.size(1)).float(), rtol=0.02, atol=0.02)


def test_searches_find_the_same_outputs_either_way(monkeypatch):
    model = translation_model()
    src = torch.randint(3, 40, (8, 9))
    limits = dict(max_len_a=2, max_len_b=20, min_len=5)
    whole = ([h.tokens for h in greedy_search(model, src, **limits)],
             [h[0].tokens for h in beam_search(model, src, beam_size=4, **limits)])
    monkeypatch.setattr(KVCache, "update", prefix_only)
    assert whole == ([h.tokens for h in greedy_search(model, src, **limits)],
                     [h[0].tokens for h in beam_search(model, src, beam_size=4, **limits)])


def test_left_padded_prompts_keep_their_padding_masked(monkeypatch):
    torch.manual_seed(0)
    cfg = dict(vocab_size=30, d_model=32, n_heads=4, d_ff=64, n_layers=2, dropout=0.0, max_positions=64)
    model = bf16(LanguageModel(LanguageModelConfig.from_dict(cfg)))
    prompt = prompt_batch([[5, 6, 7, 8, 9, 10], [11], []], 1, 0)
    whole = [(h.tokens, h.score) for h in greedy_search(model, None, max_len=12, prompt=prompt)]
    monkeypatch.setattr(KVCache, "update", prefix_only)
    prefix = [(h.tokens, h.score) for h in greedy_search(model, None, max_len=12, prompt=prompt)]
    assert [t for t, _ in whole] == [t for t, _ in prefix]
    assert [s for _, s in whole] == pytest.approx([s for _, s in prefix], abs=0.05)


def test_only_a_bf16_cache_on_the_cpu_hands_out_the_whole_buffer():
    cache = KVCache(2, 4, 10, 8, 8, torch.zeros(1))
    k, v, mask = cache.update(0, torch.ones(2, 4, 1, 8), torch.ones(2, 4, 1, 8), whole=True)
    assert k.size(2) == 1 and mask is None  # float32: PyTorch's kernels read the prefix view without a copy
    cache = KVCache(2, 4, 10, 8, 8, torch.zeros(1, dtype=torch.bfloat16))
    k, v, mask = cache.update(0, torch.ones(2, 4, 1, 8), torch.ones(2, 4, 1, 8), whole=True)
    assert k.size(2) == 10 and mask.shape == (1, 1, 1, 10) and mask.sum() == 1


@pytest.mark.parametrize("rows", [[3, 3, 0, 1], [2, 0]])  # beams reordered; sentences dropped
def test_layer_caches_reorder_all_layers_as_each_would_alone(rows):
    """``LayerCaches`` gathers the keys and values of every layer at once: the same rows as each layer's own
    ``KVCache.reorder``, the caches still views of its buffers (a later update lands in them), twice in a row
    (the second gather goes into the spare buffer)."""
    from aiayn.model.cache import LayerCaches

    g = torch.Generator().manual_seed(0)
    together = LayerCaches(3, 4, 2, 6, 5, 5, torch.zeros(1))
    apart = [KVCache(4, 2, 6, 5, 5, torch.zeros(1)) for _ in range(3)]
    for pos in range(3):
        for a, b in zip(together, apart):
            k, v = torch.randn(4, 2, 1, 5, generator=g), torch.randn(4, 2, 1, 5, generator=g)
            a.update(pos, k, v)
            b.update(pos, k, v)
    index = torch.tensor(rows)
    for _ in range(2):
        together.reorder(index if together.k.size(1) == 4 else torch.arange(len(rows)), 3)
        for b in apart:
            b.reorder(index if b.k.size(0) == 4 else torch.arange(len(rows)), 3)
        for i, (a, b) in enumerate(zip(together, apart)):
            assert torch.equal(a.k[:, :, :3], b.k[:, :, :3]) and torch.equal(a.v[:, :, :3], b.v[:, :, :3])
            assert a.k.data_ptr() == together.k[i].data_ptr()
    together[1].update(3, torch.ones(len(rows), 2, 1, 5), torch.ones(len(rows), 2, 1, 5))
    assert torch.equal(together.k[1, :, :, 3], torch.ones(len(rows), 2, 5))


def test_followed_caches_hold_what_copied_ones_hold():
    """Beam search with ``LayerCaches.follow``: reordering moves only the lineage, each step writes its column into
    the row's own, and settling copies every row's past into place. Through steps that reorder beams, a step that
    drops a sentence and a second ``follow``, the settled buffers equal those of caches reordered by copying."""
    from aiayn.model.cache import LayerCaches

    g = torch.Generator().manual_seed(0)
    followed, copied = (LayerCaches(2, 6, 2, 8, 3, 3, torch.zeros(1)) for _ in range(2))
    plan = [[0, 0, 1, 3, 3, 5], [1, 0, 2, 2, 4, 4], [5, 4, 3, 2, 1, 0], [0, 1, 2, 2], [3, 0, 1, 1], None]
    for pos, rows in enumerate(plan):
        n = followed.k.size(1)
        lineage = followed.follow()
        assert lineage.shape == (n, 8) and torch.equal(lineage[:, pos], torch.arange(n))  # this column: the row's own
        k, v = torch.randn(2, n, 2, 1, 3, generator=g), torch.randn(2, n, 2, 1, 3, generator=g)
        for caches in (followed, copied):
            for layer, cache in enumerate(caches):
                cache.update(pos, k[layer], v[layer])
        if rows is not None:
            for caches in (followed, copied):
                caches.reorder(torch.tensor(rows), pos + 1)
            assert (followed.lineage is None) == (len(rows) < n)  # a drop copies into place at once
    followed.settle(len(plan))
    assert followed.lineage is None
    length = len(plan)
    assert torch.equal(followed.k[..., :length, :], copied.k[..., :length, :])
    assert torch.equal(followed.v[..., :length, :], copied.v[..., :length, :])
    for i, cache in enumerate(followed):  # the layers' caches are views of the settled buffers
        assert cache.k.data_ptr() == followed.k[i].data_ptr()
