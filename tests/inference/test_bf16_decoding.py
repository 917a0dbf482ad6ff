"""bfloat16 decoding on the CPU with packed weights (``aiayn.precision.bf16_decoding_model``): the same
numbers as the plain bf16 model, bit for bit, with each weight reordered once instead of at every call."""

from __future__ import annotations

import copy
import os

import pytest
import torch
import torch.nn.functional as F

from aiayn import LanguageModel, LanguageModelConfig, Transformer, TransformerConfig, beam_search, greedy_search
from aiayn.precision import (
    CACHE_SIZES,
    PackedLinear,
    bf16_decoding_model,
    int8_compiled_model,
    int8_model,
    packed_bf16_possible,
)

needs_packing = pytest.mark.skipif(not packed_bf16_possible(), reason="oneDNN's bf16 kernels do not run on this CPU "
                                   "(the fallback is tested below)")


def transformer(tie: bool = True) -> Transformer:
    torch.manual_seed(0)
    model = Transformer(TransformerConfig(src_vocab_size=40, d_model=32, n_heads=4, d_ff=64, n_encoder_layers=2,
                                          n_decoder_layers=2, dropout=0.0, max_positions=32, tie_output=tie,
                                          share_embeddings=tie)).eval()
    with torch.no_grad():  # biases start at zero: give them values, so that a packed layer that lost one shows
        for name, p in model.named_parameters():
            if name.endswith(".bias"):
                p.normal_(0, 0.5)
    return model


def sources() -> torch.Tensor:
    return torch.tensor([[5, 6, 7, 8, 9, 2], [10, 11, 12, 2, 0, 0], [13, 2, 0, 0, 0, 0]])


@needs_packing
@pytest.mark.parametrize("shape", [(1, 24), (7, 24), (2, 5, 24)])
@pytest.mark.parametrize("bias", [True, False])
def test_packed_linear_equals_f_linear_bit_for_bit(shape, bias):
    torch.manual_seed(1)
    weight, b = torch.randn(48, 24).bfloat16(), torch.randn(48).bfloat16() if bias else None
    layer = PackedLinear(weight, b)
    x = torch.randn(*shape).bfloat16()
    with torch.inference_mode():
        assert torch.equal(layer(x), F.linear(x, weight, b))
        strided = torch.randn(24, shape[0]).bfloat16().t()  # a transposed view, not contiguous
        assert torch.equal(layer(strided), F.linear(strided, weight, b))


@needs_packing
def test_packed_linear_with_autograd_on_takes_f_linear():
    layer = PackedLinear(torch.randn(8, 4).bfloat16(), None)
    x = torch.randn(3, 4).bfloat16().requires_grad_()
    y = layer(x)
    assert y.grad_fn is not None and torch.equal(y, F.linear(x, layer.weight))


@needs_packing
@pytest.mark.parametrize("tie", [True, False])
def test_every_linear_layer_is_packed_and_decoding_is_unchanged(tie):
    plain = transformer(tie).to(torch.bfloat16)
    packed = bf16_decoding_model(copy.deepcopy(plain))
    assert not any(type(m) is torch.nn.Linear for m in packed.modules())
    assert isinstance(packed.output_proj, PackedLinear)  # the tied pre-softmax layer too
    if tie:  # the packed projection reads the embedding's own matrix
        assert packed.output_proj.weight.data_ptr() == packed.tgt_embed.weight.data_ptr()
    src = sources()
    with torch.inference_mode():
        tgt = torch.tensor([[1, 5, 6, 7], [1, 8, 9, 10], [1, 11, 12, 13]])
        assert torch.equal(packed(src, tgt), plain(src, tgt))
    greedy = [[(h.tokens, h.score) for h in greedy_search(m, src, max_len_b=8)] for m in (plain, packed)]
    assert greedy[0] == greedy[1]
    beams = [[[(h.tokens, h.score) for h in n] for n in beam_search(m, src, beam_size=3, max_len_b=8)]
             for m in (plain, packed)]
    assert beams[0] == beams[1]


@needs_packing
def test_a_decoder_only_model_is_packed_too():
    torch.manual_seed(0)
    lm = LanguageModel(LanguageModelConfig(vocab_size=30, d_model=32, n_heads=4, d_ff=64, n_layers=2, dropout=0.0,
                                           max_positions=16, tie_output=False)).eval().to(torch.bfloat16)
    packed = bf16_decoding_model(copy.deepcopy(lm))
    assert isinstance(packed.output_proj, PackedLinear)
    x = torch.tensor([[1, 4, 5, 6, 7]])
    with torch.inference_mode():
        assert torch.equal(packed(x), lm(x))


def test_without_onednn_bf16_the_model_is_plain_bfloat16(monkeypatch):
    import aiayn.precision as precision

    monkeypatch.setattr(precision, "packed_bf16_possible", lambda: False)
    model = precision.bf16_decoding_model(transformer())
    assert model.output_proj is None and not any(isinstance(m, PackedLinear) for m in model.modules())
    assert all(p.dtype == torch.bfloat16 for p in model.parameters())


def test_the_translator_decodes_bfloat16_through_it():
    from aiayn.data import Tokenizer
    from aiayn.inference.translator import Translator

    translator = Translator(transformer(), Tokenizer.__new__(Tokenizer), dtype=torch.bfloat16)
    assert next(translator.model.parameters()).dtype == torch.bfloat16
    assert isinstance(translator.model.output_proj, PackedLinear) == packed_bf16_possible()


@needs_packing
@pytest.mark.parametrize("users", [None, "256"])
@pytest.mark.parametrize("convert", ["bf16", "int8 compiled"])
def test_bf16_decoding_keeps_few_onednn_kernels_unless_the_user_said(monkeypatch, users, convert):
    # int8 compiled decoding runs its eager products in packed bf16 too: without the limit a server's RSS grew
    # to 1,321 MiB against 599 with it (serve_load, 8 clients, BENCHMARKS.md)
    for variable in CACHE_SIZES:
        if users is None:
            monkeypatch.delenv(variable, raising=False)
        else:
            monkeypatch.setenv(variable, users)
    if convert == "bf16":
        bf16_decoding_model(transformer())
    else:
        int8_compiled_model(int8_model(transformer()))
    assert {v: os.environ[v] for v in CACHE_SIZES} == (CACHE_SIZES if users is None else dict.fromkeys(CACHE_SIZES, users))
