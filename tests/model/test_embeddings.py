"""Positional encoding (§3.5) against its formula, and the embedding scale (§3.4)."""

import math

import pytest
import torch

from aiayn.model import PositionalEncoding, TokenEmbedding, sinusoidal_positions


@pytest.mark.parametrize("pos", [0, 1, 17, 511, 5000])
def test_sinusoid_matches_the_formula(pos):
    d_model = 16
    table = sinusoidal_positions(pos + 1, d_model)
    for i in range(d_model // 2):
        angle = pos / 10000 ** (2 * i / d_model)
        assert table[pos, 2 * i].item() == pytest.approx(math.sin(angle), abs=1e-6)
        assert table[pos, 2 * i + 1].item() == pytest.approx(math.cos(angle), abs=1e-6)


def test_sinusoids_extend_past_the_training_length():
    pe = PositionalEncoding(d_model=8, max_positions=10)
    x = torch.zeros(1, 4, 8)
    out = pe(x, start=30)  # positions 30..33, beyond the 10 precomputed
    torch.testing.assert_close(out[0], sinusoidal_positions(34, 8)[30:])


def test_learned_positions_refuse_positions_they_never_learned():
    pe = PositionalEncoding(d_model=8, max_positions=10, learned=True)
    assert pe(torch.zeros(1, 10, 8)).shape == (1, 10, 8)
    with pytest.raises(ValueError, match="learned positions"):
        pe(torch.zeros(1, 11, 8))


def test_embeddings_are_scaled_by_sqrt_d_model():
    emb = TokenEmbedding(vocab_size=10, d_model=64)
    torch.testing.assert_close(emb(torch.tensor([3])), emb.weight[3:4] * 8.0)
