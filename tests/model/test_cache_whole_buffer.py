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
