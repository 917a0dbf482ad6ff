"""The Transformer (§3): configuration, parameter counts, and properties that must hold."""

import copy
import dataclasses

import pytest
import torch

from aiayn import Transformer, TransformerConfig, greedy_search
from aiayn.decoding import DecoderState

VOCAB = 50


def small(**overrides):
    base = dict(src_vocab_size=VOCAB, d_model=32, n_heads=4, d_ff=64, n_encoder_layers=2, n_decoder_layers=2,
                dropout=0.0, max_positions=64)
    return Transformer(TransformerConfig.from_dict({**base, **overrides})).eval()


def tokens(*rows, pad=0):
    width = max(map(len, rows))
    return torch.tensor([list(r) + [pad] * (width - len(r)) for r in rows])


VARIANTS = [{}, {"norm_first": True}, {"activation": "gelu"}, {"positional": "learned"},
            {"share_embeddings": False, "tie_output": False}, {"d_k": 5, "d_v": 3}, {"attention_bias": False},
            {"attention_kernel": "math"},
            {"attention": "relative", "positional": "none", "max_relative_distance": 3},
            {"attention": "relative", "relative_values": True, "relative_share_heads": True, "max_relative_distance": 2},
            {"attention": "local", "local_block": 2, "local_memory": 1}]


# Configuration ---------------------------------------------------------------------------
def test_presets_are_table_3_rows():
    base, big, tiny = TransformerConfig.base(), TransformerConfig.big(), TransformerConfig.tiny()
    assert (base.n_encoder_layers, base.d_model, base.d_ff, base.n_heads, base.d_k, base.d_v, base.dropout) == (
        6, 512, 2048, 8, 64, 64, 0.1)
    assert (big.n_encoder_layers, big.d_model, big.d_ff, big.n_heads, big.d_k, big.d_v, big.dropout) == (
        6, 1024, 4096, 16, 64, 64, 0.3)
    assert (tiny.d_model, tiny.n_heads, tiny.d_ff, tiny.n_encoder_layers, tiny.n_decoder_layers) == (256, 4, 1024, 3, 3)
    # The paper's choices are the defaults.
    assert (base.activation, base.positional, base.norm_first, base.share_embeddings, base.tie_output) == (
        "relu", "sinusoidal", False, True, True)
    assert TransformerConfig.big(dropout=0.1).dropout == 0.1  # En-Fr big


def test_unknown_config_fields_are_errors():
    with pytest.raises(ValueError, match="unknown model config key.*d_modle"):
        TransformerConfig.from_dict({"d_modle": 512})
    with pytest.raises(TypeError):
        TransformerConfig(heads=8)
    with pytest.raises(ValueError, match="unknown preset"):
        TransformerConfig.preset("huge")
    with pytest.raises(ValueError, match="not divisible"):
        TransformerConfig(d_model=100, n_heads=8)
    with pytest.raises(ValueError, match="share_embeddings"):
        TransformerConfig(src_vocab_size=10, tgt_vocab_size=12)


@pytest.mark.parametrize("row", [
    {"n_heads": 1}, {"n_heads": 32},  # A
    {"d_k": 16}, {"d_k": 32},  # B
    {"n_encoder_layers": 2, "n_decoder_layers": 2}, {"d_model": 256}, {"d_ff": 4096},  # C
    {"dropout": 0.0}, {"dropout": 0.2},  # D (ε_ls is the loss's argument)
    {"positional": "learned"},  # E
])
def test_every_table_3_row_is_a_config(row):
    cfg = TransformerConfig.base(src_vocab_size=100, n_encoder_layers=1, n_decoder_layers=1, **{
        k: v for k, v in row.items() if k not in ("n_encoder_layers", "n_decoder_layers")})
    cfg = dataclasses.replace(cfg, **{k: v for k, v in row.items() if k in ("n_encoder_layers", "n_decoder_layers")})
    model = Transformer(cfg)
    assert model(tokens([5, 6, 7]), tokens([1, 8])).shape == (1, 2, 100)
    for key, value in row.items():
        assert getattr(cfg, key) == value


def analytic_parameter_count(v, d, d_ff, h, d_k, n_enc, n_dec):
    """Shared V x d embedding; per attention W^Q, W^K (d x h·d_k), W^V (d x h·d_k) and W^O with
    biases; FFN two layers with biases; 2 LayerNorms per encoder layer, 3 per decoder layer."""
    attention = 3 * (d * h * d_k + h * d_k) + (h * d_k * d + d)
    ffn = d * d_ff + d_ff + d_ff * d + d
    norm = 2 * d
    return v * d + n_enc * (attention + ffn + 2 * norm) + n_dec * (2 * attention + ffn + 3 * norm)


def test_parameter_counts_match_the_paper_and_the_analytic_count():
    base = Transformer(TransformerConfig.base(src_vocab_size=37000)).num_parameters()
    big = Transformer(TransformerConfig.big(src_vocab_size=37000)).num_parameters()
    assert base == analytic_parameter_count(37000, 512, 2048, 8, 64, 6, 6) == 63_082_496
    assert big == analytic_parameter_count(37000, 1024, 4096, 16, 64, 6, 6) == 214_245_376
    assert abs(base / 65e6 - 1) < 0.03 and abs(big / 213e6 - 1) < 0.03


# Properties ------------------------------------------------------------------------------
@pytest.mark.parametrize("variant", VARIANTS)
def test_changing_a_future_target_token_never_changes_earlier_logits(variant):
    torch.manual_seed(0)
    model = small(**variant)
    src, tgt = tokens([5, 6, 7, 8]), tokens([1, 9, 10, 11, 12, 13])
    before = model(src, tgt)
    for t in range(1, tgt.size(1)):
        changed = tgt.clone()
        changed[0, t] = 40
        after = model(src, changed)
        torch.testing.assert_close(after[:, :t], before[:, :t], rtol=0, atol=1e-6)
        assert not torch.allclose(after[:, t], before[:, t])


@pytest.mark.parametrize("variant", VARIANTS)
def test_padding_never_changes_real_positions(variant):
    torch.manual_seed(0)
    model = small(**variant)
    src, tgt = tokens([5, 6, 7, 8]), tokens([1, 9, 10])
    alone = model(src, tgt)
    padded = model(tokens([5, 6, 7, 8, 0, 0, 0]), tokens([1, 9, 10, 0, 0]))
    torch.testing.assert_close(padded[:, :3], alone, rtol=1e-5, atol=1e-5)
    # In a batch beside a longer sentence, too.
    batch = model(tokens([5, 6, 7, 8], [11, 12, 13, 14, 15, 16, 17, 18]), tokens([1, 9, 10], [1, 2, 3, 4, 5, 6]))
    torch.testing.assert_close(batch[:1, :3], alone, rtol=1e-5, atol=1e-5)


def test_attention_weights_come_back_without_changing_the_output():
    torch.manual_seed(0)
    model = small()
    src, tgt = tokens([5, 6, 7, 8], [5, 6, 0, 0]), tokens([1, 9, 10], [1, 9, 0])
    logits, maps = model(src, tgt, return_attention=True)
    torch.testing.assert_close(logits, model(src, tgt), rtol=1e-5, atol=1e-5)
    assert len(maps.encoder) == len(maps.decoder_self) == len(maps.cross) == 2
    assert maps.encoder[0].shape == (2, 4, 4, 4) and maps.cross[1].shape == (2, 4, 3, 4)
    assert torch.all(maps.cross[0][1, :, :, 2:] == 0)  # padding gets no attention
    assert torch.all(maps.decoder_self[0].triu(diagonal=1) == 0)  # nor does the future
    torch.testing.assert_close(maps.encoder[1].sum(-1), torch.ones(2, 4, 4))


def test_a_fully_padded_source_never_gives_nan():
    model = small()
    model.train()  # dropout paths too
    logits = model(tokens([0, 0, 0], [5, 6, 7]), tokens([1, 9], [1, 9]))
    assert torch.isfinite(logits).all()
    logits.sum().backward()
    assert all(torch.isfinite(p.grad).all() for p in model.parameters() if p.grad is not None)


@pytest.mark.parametrize("variant", VARIANTS)
def test_cached_step_by_step_decoding_equals_full_recomputation(variant):
    torch.manual_seed(0)
    model = small(**variant)
    src = tokens([5, 6, 7, 8, 9], [10, 11, 0, 0, 0])
    tgt = tokens([1, 12, 13, 14, 15, 16, 17], [1, 18, 19, 20, 21, 22, 23])
    full = model(src, tgt)
    state = model.start_decoding(src, capacity=tgt.size(1))
    steps = [model.decode_step(tgt[:, t : t + 1], state) for t in range(tgt.size(1))]
    torch.testing.assert_close(torch.cat(steps, dim=1), full, rtol=1e-5, atol=1e-5)
    # A prefill of several tokens, then single steps.
    state = model.start_decoding(src, capacity=tgt.size(1))
    chunks = [model.decode_step(tgt[:, :4], state)] + [model.decode_step(tgt[:, t : t + 1], state) for t in range(4, 7)]
    torch.testing.assert_close(torch.cat(chunks, dim=1), full, rtol=1e-5, atol=1e-5)


def test_cache_reorder_follows_the_rows():
    torch.manual_seed(0)
    model = small()
    src = tokens([5, 6, 7], [8, 9, 10, 11])
    tgt = tokens([1, 12, 13], [1, 14, 15])
    state: DecoderState = model.start_decoding(src, capacity=4)
    model.decode_step(tgt[:, :2], state)
    state.reorder(torch.tensor([1]))  # keep only the second sentence
    last = model.decode_step(tgt[1:, 2:3], state)
    torch.testing.assert_close(last[0, 0], model(src[1:], tgt[1:])[0, 2], rtol=1e-5, atol=1e-5)


def test_beams_share_one_memory_and_match_full_recomputation():
    torch.manual_seed(0)
    model = small()
    src = tokens([5, 6, 7, 8], [9, 10, 0, 0])
    beams = 3
    tgt = torch.cat([torch.full((6, 1), 1), torch.randint(4, 30, (6, 4))], dim=1)  # a different prefix per row
    full = model(src.repeat_interleave(beams, 0), tgt)
    state = model.start_decoding(src, beam_size=beams, capacity=tgt.size(1))
    assert state.cross_kv[0][0].size(0) == 2  # once per sentence, not per beam
    steps = [model.decode_step(tgt[:, t : t + 1], state) for t in range(tgt.size(1))]
    torch.testing.assert_close(torch.cat(steps, dim=1), full, rtol=1e-5, atol=1e-5)
    # Keep only the second sentence, its beams reordered: rows 5, 3, 3.
    state = model.start_decoding(src, beam_size=beams, capacity=tgt.size(1))
    model.decode_step(tgt[:, :3], state)
    rows = torch.tensor([5, 3, 3])
    state.reorder(rows)
    last = model.decode_step(tgt[rows, 3:4], state)
    torch.testing.assert_close(last[:, 0], model(src[[1, 1, 1]], tgt[rows, :4])[:, 3], rtol=1e-5, atol=1e-5)


def float32_reference():
    """A small model, a padded batch and its float32 logits: what the smaller number formats are held to."""
    torch.manual_seed(0)
    model = small()
    src = tokens([5, 6, 7, 8, 9], [10, 11, 0, 0, 0])
    tgt = tokens([1, 12, 13, 14, 15, 16, 17], [1, 18, 19, 20, 21, 22, 23])
    with torch.no_grad():
        return model, src, tgt, model(src, tgt)


def test_int8_decoding_quantises_every_linear_layer_and_stays_near_float32():
    from torch.ao.nn.quantized.dynamic import Linear as Int8Linear

    from aiayn.precision import int8_model

    model, src, tgt, full = float32_reference()
    with torch.no_grad():
        q = int8_model(copy.deepcopy(model))
        int8 = q(src, tgt)
    assert not any(isinstance(m, torch.nn.Linear) for m in q.modules())  # the tied pre-softmax layer too
    assert isinstance(q.output_proj, Int8Linear) and q.tgt_embed.weight.dtype == torch.float32
    # 8-bit weights per output channel and 8-bit activations: logits within a few percent of their range.
    spread = float(full.max() - full.min())
    assert (int8 - full).abs().max() < 0.05 * spread and (int8 - full).abs().max() > 0  # really quantised
    assert [h.tokens for h in greedy_search(q, src, max_len_b=6)] == [h.tokens for h in greedy_search(model, src, max_len_b=6)]


def test_int8_decoding_is_refused_off_the_cpu():
    from aiayn.data import Tokenizer
    from aiayn.errors import ConfigError
    from aiayn.inference.translator import Translator

    with pytest.raises(ConfigError, match="int8 decoding runs on the CPU only"):
        Translator(small(), Tokenizer.__new__(Tokenizer), device="cuda", dtype=torch.qint8)


def test_bfloat16_decoding_keeps_the_cache_in_bfloat16_and_stays_near_float32():
    model, src, tgt, full = float32_reference()
    half = copy.deepcopy(model).to(torch.bfloat16)
    state = half.start_decoding(src, capacity=tgt.size(1))
    assert state.self_kv[0].k.dtype == state.cross_kv[0][0].dtype == torch.bfloat16
    steps = torch.cat([half.decode_step(tgt[:, t : t + 1], state) for t in range(tgt.size(1))], dim=1)
    assert steps.dtype == torch.bfloat16
    # bfloat16 keeps 8 significant bits: each logit within a few of its rounding steps of float32.
    torch.testing.assert_close(steps.float(), full, rtol=0.02, atol=0.02 * float(full.abs().max()))
    greedy = [h.tokens for h in greedy_search(half, src, max_len_b=6)]
    assert greedy == [h.tokens for h in greedy_search(model, src, max_len_b=6)]


def test_dropout_keeps_one_minus_p_of_the_elements_and_scales_them():
    """aiayn's CPU bf16 dropout (16-bit draws, four to a 64-bit word) against the definition: P(keep) = 1 - p at
    every one of the four places in a word, kept x / (1 - p), the gradient through the same mask, the same mask
    from the same seed, any element count; eval mode and p = 0 pass x through untouched."""
    from aiayn.model.layers import Dropout

    torch.manual_seed(0)
    drop = Dropout(0.1).train()
    x = torch.full((200_000,), 3.0, dtype=torch.bfloat16, requires_grad=True)
    y = drop(x)
    kept = y != 0
    assert abs(kept.float().mean().item() - 0.9) < 0.003  # 4.5 standard deviations of 200k draws
    for place in range(4):  # each 16 bits of a draw (a sign bit that never came up would keep 100% at one)
        assert abs(kept[place::4].float().mean().item() - 0.9) < 0.006  # 4.5 sd of 50k draws
    torch.manual_seed(0)
    assert torch.equal(drop(x.detach()), y.detach())
    odd = drop(torch.ones(3, 7, 5, dtype=torch.bfloat16))  # 105 elements: not a whole number of words
    assert odd.shape == (3, 7, 5) and set(odd.unique().tolist()) <= {0.0, float(torch.tensor(1 / 0.9).bfloat16())}
    torch.testing.assert_close(y[kept], torch.full_like(y[kept], 3.0 / 0.9))
    y.float().sum().backward()
    torch.testing.assert_close(x.grad, (kept / 0.9).bfloat16())
    assert drop.eval()(x) is x and Dropout(0.0).train()(x) is x and y.dtype == torch.bfloat16
    torch.manual_seed(1)  # float32 keeps F.dropout's stream
    a = drop.train()(x.detach().float())
    torch.manual_seed(1)
    assert torch.equal(a, torch.nn.functional.dropout(x.detach().float(), 0.1))
