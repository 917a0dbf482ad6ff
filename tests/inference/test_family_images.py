"""The studio's Image Transformer views (issue 45): a sampled digit is the sampler's, super-resolution is
the task's own upsampling, and a pixel's attention falls only on the pixels its local block may see."""

from __future__ import annotations

import json

import numpy as np
import pytest
import torch

from aiayn import LanguageModel, Transformer
from aiayn.data import digits
from aiayn.decoding import sample
from aiayn.errors import UsageError
from aiayn.inference.image_views import generate_digit, pixel_attention, spans, super_resolve
from aiayn.tasks.images import digits_model_config, superres_model_config, upsample

SMALL = dict(d_model=32, n_heads=2, d_ff=64, n_layers=2, dropout=0.0)


def digits_model(attention="local", conditional=False, **overrides) -> LanguageModel:
    torch.manual_seed(0)
    return LanguageModel(digits_model_config(attention, conditional, **{**SMALL, **overrides})).double().eval()


@pytest.mark.parametrize("conditional", [False, True])
def test_a_digit_is_the_samplers(conditional):
    model = digits_model(conditional=conditional)
    label = 3 if conditional else None
    got = generate_digit(model, label, seed=5, temperature=0.9)
    cond = torch.tensor([3]) if conditional else None
    prompt = None if conditional else torch.tensor([[digits.BOS]])
    hyp = sample(model, cond, max_len=65, temperature=0.9, seed=5, prompt=prompt, min_len=64)[0]
    assert got["pixels"] == [t - digits.FIRST_PIXEL for t in hyp.tokens[:64]]
    assert np.array(got["image"]).reshape(-1).tolist() == got["pixels"] and len(got["probabilities"]) == 64
    assert all(0 < p <= 1 for p in got["probabilities"]) and got["label"] == label
    assert got == generate_digit(model, label, seed=5, temperature=0.9)  # the seed makes it reproducible
    json.dumps(got)
    with pytest.raises(UsageError, match="class-conditional" if conditional else "unconditional"):
        generate_digit(model, None if conditional else 3)


def test_super_resolution_is_the_tasks_upsampling():
    torch.manual_seed(0)
    model = Transformer(superres_model_config("local", d_model=32, n_heads=2, d_ff=64, n_encoder_layers=1,
                                              n_decoder_layers=1, dropout=0.0)).eval()
    got = super_resolve(model, 4)
    images, labels = digits.load_digits_split("test")
    assert got["truth"] == images[4].tolist() and got["label"] == labels[4]
    assert got["low"] == digits.downsample(images[4]).tolist()
    assert got["output"] == upsample(model, digits.downsample(images[4:5]))[0].tolist()
    assert got["mae_model"] == pytest.approx(np.abs(np.array(got["output"]) - images[4]).mean())
    json.dumps(got)
    with pytest.raises(UsageError, match="super-resolution needs a superres model"):
        super_resolve(digits_model(), 0)


def test_spans_outline_rows():
    assert spans([0, 1, 2, 7, 8, 9, 20]) == [{"row": 0, "start": 0, "end": 3}, {"row": 0, "start": 7, "end": 8},
                                             {"row": 1, "start": 0, "end": 2}, {"row": 2, "start": 4, "end": 5}]


@pytest.mark.parametrize("block, memory", [(8, 16), (5, 3), (16, 0)])
def test_a_pixel_sees_only_its_block_and_memory(block, memory):
    """Zero weight on every pixel outside the band (the memory before the query's block, and its block
    up to the pixel drawn); the blocks are l_q and l_m from the layer's own LocalAttention, and the band's
    keys are exactly the memory block and the block's inputs up to the query."""
    model = digits_model(local_block=block, local_memory=memory)
    image, _ = digits.load_digits_split("valid")
    for index in (0, 1, 13, 16, 40, 63):
        view = pixel_attention(model, image[0], index, layer=1, head=0)
        w = np.array(view["weights"])
        assert len(w) == 64 and view["bos"] + w.sum() == pytest.approx(1.0, abs=1e-12)
        first = index // block * block
        assert view["query_block"]["pixels"] == list(range(first, min(first + block, 64)))
        memory_inputs = range(max(0, first - memory), first)
        assert view["memory_block"]["pixels"] == [j - 1 for j in memory_inputs if j > 0]
        assert view["memory_block"]["bos"] == (0 in memory_inputs)
        # the band's inputs: the memory block, then the query block up to the query itself
        seen = [j for j in memory_inputs] + list(range(first, index + 1))
        assert view["visible"]["pixels"] == [j - 1 for j in seen if j > 0] and view["visible"]["bos"] == (0 in seen)
        assert all(p < index for p in view["visible"]["pixels"])  # causal: nothing at or after the pixel drawn
        outside = np.ones(64, dtype=bool)
        outside[view["visible"]["pixels"]] = False
        assert (w[outside] == 0).all() and (w[~outside] > 0).all()
        assert (view["bos"] > 0) == view["visible"]["bos"]
        assert (view["block"], view["memory"]) == (block, memory)
    json.dumps(view)


def test_a_superres_decoders_pixel_attention():
    torch.manual_seed(0)
    model = Transformer(superres_model_config("local", d_model=32, n_heads=2, d_ff=64, n_encoder_layers=1,
                                              n_decoder_layers=2, dropout=0.0, local_block=8, local_memory=8)).eval()
    images, _ = digits.load_digits_split("test")
    view = pixel_attention(model, images[2], 20, layer=1, head=1)
    src = torch.from_numpy(digits.downsample(images[2]).reshape(1, -1) + digits.FIRST_PIXEL)
    tgt_in = torch.tensor([[digits.BOS] + digits.image_tokens(images[2])[:-1]])
    want = model.attention_maps(src, tgt_in).decoder_self[1][0, 1, 20].detach()
    np.testing.assert_allclose(view["weights"][:63], want[1:].numpy(), rtol=0, atol=1e-6)
    assert view["visible"]["pixels"] == list(range(7, 20)) and view["architecture"] == "transformer"
    assert np.count_nonzero(view["weights"]) == 13 and view["bos"] == 0


def test_full_attention_sees_every_earlier_pixel():
    view = pixel_attention(digits_model("full", conditional=True), np.zeros(64, int), 20, 0, 1, label=7)
    w = np.array(view["weights"])
    assert view["visible"]["pixels"] == list(range(20)) and (w[:20] > 0).all() and (w[20:] == 0).all()
    assert view["attention"] == "full" and view["block"] is None


def test_the_views_take_models_loaded_from_run_folders(tmp_path):
    """What the studio loads: ``tasks.images.load_image_model`` for digits and superres runs."""
    from aiayn.io.checkpoint import save_weights
    from aiayn.tasks.images import load_image_model

    torch.manual_seed(0)
    lm = LanguageModel(digits_model_config("local", True, **SMALL))
    sr = Transformer(superres_model_config("local", d_model=32, n_heads=2, d_ff=64, n_encoder_layers=1,
                                           n_decoder_layers=1))
    for name, model, task in (("digits", lm, "digits"), ("superres", sr, "superres")):
        (tmp_path / name).mkdir()
        save_weights(model, model.config, tmp_path / name / "best.safetensors", task=task)
    digits_model_, task = load_image_model(tmp_path / "digits")
    assert task == "digits" and len(generate_digit(digits_model_, 2)["pixels"]) == 64
    assert pixel_attention(digits_model_, np.zeros(64, int), 9, 1, 0, label=2)["block"] == 8
    superres, task = load_image_model(tmp_path / "superres")
    assert task == "superres" and np.array(super_resolve(superres, 0)["output"]).shape == (8, 8)
