"""The decoder-only model and decoding without a source: causality, padding, cached = full, prompts
of different lengths in one batch, sampling, and the special tokens that are never output."""

import math

import pytest
import torch

from aiayn import LanguageModel, LanguageModelConfig, beam_search, greedy_search, prompt_batch, sample
from aiayn.decoding.sampling import filter_logits
from aiayn.io.registry import model_class

VOCAB = 30
VARIANTS = [{}, {"attention": "relative", "positional": "none", "max_relative_distance": 4},
            {"attention": "relative", "max_relative_distance": 2, "relative_values": True},
            {"norm_first": True, "positional": "learned"}, {"n_classes": 3},
            {"attention": "local", "local_block": 3, "local_memory": 2}, {"attention": "local", "local_block": 4,
                                                                            "local_memory": 0, "n_classes": 3},
            {"attention": "relative", "positional": "none", "max_relative_distance": 4, "voice_embedding": 4,
             "metre_embedding": 3}, {"voice_embedding": 3, "n_classes": 3}]


def lm(**overrides):
    torch.manual_seed(0)
    base = dict(vocab_size=VOCAB, d_model=32, n_heads=4, d_ff=64, n_layers=2, dropout=0.0, max_positions=64)
    return LanguageModel(LanguageModelConfig.from_dict({**base, **overrides})).eval()


def classes_for(model, batch):
    return torch.arange(batch) % model.config.n_classes if model.config.n_classes else None


@pytest.mark.parametrize("variant", VARIANTS)
def test_changing_a_future_token_never_changes_earlier_logits(variant):
    model = lm(**variant)
    x = torch.randint(3, VOCAB, (2, 10))
    y = x.clone()
    y[:, 6:] = torch.randint(3, VOCAB, (2, 4))
    c = classes_for(model, 2)
    torch.testing.assert_close(model(x, c)[:, :6], model(y, c)[:, :6])


@pytest.mark.parametrize("variant", VARIANTS)
def test_right_padding_never_changes_real_positions(variant):
    model = lm(**variant)
    x = torch.randint(3, VOCAB, (1, 7))
    padded = torch.cat([x, torch.zeros(1, 5, dtype=torch.long)], dim=1)
    c = classes_for(model, 1)
    torch.testing.assert_close(model(padded, c)[:, :7], model(x, c), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("variant", VARIANTS)
def test_cached_decoding_equals_the_full_pass(variant):
    model = lm(**variant)
    x = torch.randint(3, VOCAB, (3, 12))
    c = classes_for(model, 3)
    full = model(x, c)
    state = model.start_decoding(c, capacity=12, batch=3)
    parts = [model.decode_step(x[:, :5], state)] + [model.decode_step(x[:, i:i + 1], state) for i in range(5, 12)]
    torch.testing.assert_close(torch.cat(parts, dim=1), full, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("variant", VARIANTS)
def test_left_padded_prompts_of_different_lengths_decode_as_each_alone(variant):
    model = lm(**variant)
    primers = [[5, 6, 7, 8, 9, 10], [11], []]
    c = classes_for(model, 3)
    together = greedy_search(model, c, max_len=8, prompt=prompt_batch(primers, 1, 0))
    for i, primer in enumerate(primers):
        alone = greedy_search(model, None if c is None else c[i:i + 1], max_len=8, prompt=prompt_batch([primer], 1, 0))
        assert together[i].tokens == alone[0].tokens
        assert together[i].score == pytest.approx(alone[0].score, abs=1e-4)
    beams = beam_search(model, c, beam_size=3, max_len=8, prompt=prompt_batch(primers, 1, 0))
    for i, primer in enumerate(primers):
        alone = beam_search(model, None if c is None else c[i:i + 1], beam_size=3, max_len=8,
                            prompt=prompt_batch([primer], 1, 0))
        assert beams[i][0].tokens == alone[0][0].tokens


@torch.no_grad()
def test_generation_scores_are_the_model_log_probabilities():
    model = lm()
    prompt = prompt_batch([[4, 5]], 1, 0)
    (hyp,) = sample(model, max_len=6, seed=3, prompt=prompt)
    ids = torch.tensor([[1, 4, 5] + hyp.tokens + [2]])
    log_probs = model(ids[:, :-1]).log_softmax(-1)[0, 2:]  # predictions of the generated tokens
    want = log_probs.gather(1, ids[0, 3:, None]).sum()  # a forced final EOS also counts at its true probability
    assert hyp.log_prob == pytest.approx(float(want), abs=1e-4)


def test_sampling_is_reproducible_with_a_seed_and_varies_without_one_fixed():
    model = lm()
    prompts = prompt_batch([[4], [5, 6]], 1, 0)
    a = sample(model, max_len=20, seed=7, prompt=prompts)
    b = sample(model, max_len=20, seed=7, prompt=prompts)
    c = sample(model, max_len=20, seed=8, prompt=prompts)
    assert [h.tokens for h in a] == [h.tokens for h in b]
    assert [h.tokens for h in a] != [h.tokens for h in c]


def test_top_k_1_and_a_tiny_nucleus_are_greedy():
    model = lm()
    prompts = prompt_batch([[4], [5, 6]], 1, 0)
    greedy = [h.tokens for h in greedy_search(model, None, max_len=10, prompt=prompts)]
    assert [h.tokens for h in sample(model, max_len=10, top_k=1, seed=1, prompt=prompts)] == greedy
    assert [h.tokens for h in sample(model, max_len=10, top_p=1e-6, seed=1, prompt=prompts)] == greedy
    assert [h.tokens for h in sample(model, max_len=10, temperature=1e-4, seed=1, prompt=prompts)] == greedy


def test_filter_logits_by_hand():
    log_probs = torch.tensor([[math.log(0.5), math.log(0.3), math.log(0.15), math.log(0.05)]])
    kept = filter_logits(log_probs, top_p=0.8).isfinite()[0].tolist()
    assert kept == [True, True, False, False]  # 0.5 < 0.8, 0.5 + 0.3 reaches it: the third is out
    kept = filter_logits(log_probs, top_p=0.81).isfinite()[0].tolist()
    assert kept == [True, True, True, False]
    assert filter_logits(log_probs, top_k=3).isfinite()[0].tolist() == [True, True, True, False]
    torch.testing.assert_close(filter_logits(log_probs, temperature=2.0), log_probs / 2)
    with pytest.raises(ValueError, match="temperature"):
        filter_logits(log_probs, temperature=0.0)


def test_pad_and_bos_are_never_output():
    model = lm()
    with torch.no_grad():  # make pad and BOS by far the most probable next tokens
        model.embed.weight[0] = model.embed.weight[1] = 0
        model.output_proj = None
        bias = torch.zeros(VOCAB)
        bias[:2] = 1e4
        model.project = lambda h, p=LanguageModel.project.__get__(model): p(h) + bias
    prompts = prompt_batch([[4], []], 1, 0)
    for hyps in (greedy_search(model, None, max_len=6, prompt=prompts), sample(model, max_len=6, seed=0, prompt=prompts),
                 [h[0] for h in beam_search(model, None, beam_size=2, max_len=6, prompt=prompts)]):
        for h in hyps:
            assert not {0, 1} & set(h.tokens)


def test_decoding_without_a_source_needs_a_length():
    with pytest.raises(ValueError, match="max_len"):
        greedy_search(lm(), None, prompt=prompt_batch([[4]], 1, 0))


def test_class_conditioning_changes_the_prediction_and_is_required():
    model = lm(n_classes=3)
    x = torch.randint(3, VOCAB, (1, 5))
    assert not torch.allclose(model(x, torch.tensor([0])), model(x, torch.tensor([1])))
    with pytest.raises(ValueError, match="class-conditional"):
        model(x)


def build_model(architecture, fields):
    """An architecture's model from its config fields, as a weights file's header rebuilds it."""
    cls = model_class(architecture)
    return cls(cls.config_class.from_dict(fields))


def test_the_registry_rebuilds_each_architecture():
    model = lm(attention="relative", positional="none")
    rebuilt = build_model("decoder_only", model.config.to_dict())
    assert type(rebuilt) is LanguageModel and rebuilt.config == model.config
    assert type(build_model(None, {"src_vocab_size": 20, "d_model": 16, "n_heads": 2})).__name__ == "Transformer"
    with pytest.raises(ValueError, match="unknown architecture"):
        build_model("rnn", {})
