"""The variant registry (issue 43), walked: every registered variant builds from a config that names it,
in causal (decoder) and non-causal (encoder) self-attention, and a tiny model with it runs; a name not
registered is refused in one line that lists the registered ones. A new variant is tested here the
moment it is registered, with its config fields at their defaults."""

import pytest
import torch

from aiayn import Transformer, TransformerConfig
from aiayn.model.attention import VARIANTS
from aiayn.model.config import ATTENTION_VARIANTS

NAMES = sorted(VARIANTS)


def test_the_config_offers_full_and_exactly_the_registered_variants():
    assert ATTENTION_VARIANTS == ("full", *VARIANTS)
    assert all(variant.NAME == name for name, variant in VARIANTS.items())


@pytest.mark.parametrize("causal", [True, False])
@pytest.mark.parametrize("name", NAMES)
def test_each_variant_builds_from_a_default_config(name, causal):
    variant = VARIANTS[name].from_config(TransformerConfig(attention=name), causal)
    assert isinstance(variant, VARIANTS[name]) and isinstance(variant, torch.nn.Module)
    assert variant.causal is causal


@pytest.mark.parametrize("name", NAMES)
def test_a_tiny_model_with_each_variant_runs(name):
    """Self-attention gets the variant (causal in the decoder, not in the encoder); cross-attention stays full.
    Both paths run: the fused (or tiled) one and the materialising one that returns weights."""
    torch.manual_seed(0)
    cfg = TransformerConfig(attention=name, src_vocab_size=20, d_model=16, n_heads=2, d_ff=32, n_encoder_layers=1,
                            n_decoder_layers=1, dropout=0.0)
    model = Transformer(cfg).eval()
    encoder, decoder = model.encoder_layers[0], model.decoder_layers[0]
    assert isinstance(encoder.self_attn.variant, VARIANTS[name]) and not encoder.self_attn.variant.causal
    assert isinstance(decoder.self_attn.variant, VARIANTS[name]) and decoder.self_attn.variant.causal
    assert decoder.cross_attn.variant is None
    src, tgt = torch.randint(3, 20, (2, 7)), torch.randint(3, 20, (2, 5))
    logits = model(src, tgt)
    assert logits.shape == (2, 5, 20) and torch.isfinite(logits).all()
    with_weights, _ = model(src, tgt, return_attention=True)
    torch.testing.assert_close(with_weights, logits, rtol=1e-4, atol=1e-4)


def test_an_unknown_variant_is_refused_in_one_line_naming_the_registered_ones():
    with pytest.raises(ValueError) as caught:
        TransformerConfig(attention="sparse")
    assert str(caught.value) == f"attention must be one of {', '.join(('full', *VARIANTS))}, not 'sparse'"


@pytest.mark.parametrize("fields, message", [
    ({"attention": "relative", "max_relative_distance": 0}, "max_relative_distance must be at least 1, got 0"),
    ({"attention": "local", "local_block": 65, "max_positions": 64},
     "local_block=65 is longer than max_positions=64: one block would be full attention; lower local_block"),
])
def test_the_chosen_variant_checks_its_fields(fields, message):
    """Through the config: each variant's ``check_config``, with the messages they had before the registry."""
    with pytest.raises(ValueError) as caught:
        TransformerConfig(**fields)
    assert str(caught.value) == message
    other = {**fields, "attention": "full"}  # fields only a variant reads are not checked for another
    assert TransformerConfig(**other).attention == "full"
