"""The walk-through reads the real forward pass: its logits are the model's, its steps agree with each
other the way the paper's equations say they must."""

from __future__ import annotations

import math

import pytest
import torch

from aiayn import Transformer, TransformerConfig
from aiayn.inference.inspect import walk_through


@pytest.mark.parametrize("overrides", [{}, {"share_embeddings": False, "tie_output": False}, {"norm_first": True}])
def test_the_walk_through_is_the_forward_pass(overrides):
    torch.manual_seed(0)
    cfg = TransformerConfig.tiny(src_vocab_size=40, tgt_vocab_size=40, n_encoder_layers=2, n_decoder_layers=2,
                                 **overrides)
    model = Transformer(cfg).train()  # walk_through switches to eval and back
    src_ids, tgt_in = [5, 9, 11, 2], [1, 7, 8]
    steps, logits, top = walk_through(model, src_ids, tgt_in, top=3)
    assert model.training
    model.eval()
    with torch.no_grad():
        want = model(torch.tensor([src_ids]), torch.tensor([tgt_in]))[0]
    torch.testing.assert_close(logits, want, rtol=0, atol=1e-5)  # the math path against the fused one
    by = {s.key: s for s in steps}
    assert len(by) == len(steps)
    h, dk = cfg.n_heads, cfg.d_k
    assert by["encoder.embed"].shape == [4, cfg.d_model] and by["encoder.0.self.q"].shape == [h, 4, dk]
    assert by["decoder.1.cross.weights"].shape == [h, 3, 4] and by["output.logits"].shape == [3, 40]
    # Eq. 1 holds between the recorded steps: softmax(scores + mask) are the weights, weights x V the heads,
    # the heads side by side the concatenation that went into W^O
    for prefix in ("encoder.0.self", "decoder.1.self", "decoder.0.cross"):
        scores = by[f"{prefix}.scores"].values.masked_fill(by[f"{prefix}.mask"].values == 0, -math.inf)
        torch.testing.assert_close(scores.softmax(-1), by[f"{prefix}.weights"].values, rtol=0, atol=1e-5)
        heads = by[f"{prefix}.heads"].values
        torch.testing.assert_close(heads.transpose(0, 1).reshape(heads.size(1), -1), by[f"{prefix}.concat"].values,
                                   rtol=0, atol=1e-5)
    assert torch.equal(by["decoder.0.self.mask"].values, torch.tril(torch.ones(3, 3)))  # causal
    probs = want[-1].softmax(-1)
    assert [i for i, _ in top] == probs.topk(3).indices.tolist()
    assert [p for _, p in top] == pytest.approx(probs.topk(3).values.tolist())
    torch.testing.assert_close(by["encoder.input"].values - by["encoder.embed"].values, by["encoder.positions"].values)


@pytest.mark.parametrize("overrides", [{}, {"norm_first": True}])
def test_decoding_step_by_step_is_the_forward_pass_with_a_growing_cache(overrides):
    """Each cached step's logits equal the full (teacher-forced) forward pass at that position, and the cache
    grows by one position per step while the encoder-decoder keys keep the source's length."""
    from aiayn.inference.inspect import decode_steps

    torch.manual_seed(0)
    cfg = TransformerConfig(src_vocab_size=40, tgt_vocab_size=40, d_model=32, n_heads=4, d_ff=64, n_encoder_layers=2,
                            n_decoder_layers=2, dropout=0.0, **overrides)
    model = Transformer(cfg).eval().double()
    src, target = [5, 9, 11, 7, cfg.eos_id], [12, 30, 8]
    steps = decode_steps(model, src, target, top=3)
    full = model(torch.tensor([src]), torch.tensor([[cfg.bos_id, *target]]))[0].float()
    assert [s["fed"] for s in steps] == [cfg.bos_id, *target]
    for t, step in enumerate(steps):
        assert torch.allclose(step["logits"], full[t], atol=1e-5)
        assert step["cache"] == [1, cfg.n_heads, t + 1, cfg.d_k] and step["cross"] == [1, cfg.n_heads, len(src), cfg.d_k]
        best = full[t].softmax(-1).topk(3)
        assert [i for i, _ in step["top"]] == best.indices.tolist()
