"""The voice and metre embeddings of the decoder-only model (issue 29): they follow the real token
position (a window cut from inside a sequence, cached decoding, left-padded primers) and are off by
default, so old configs and checkpoints load unchanged."""

import torch

from aiayn import LanguageModel, LanguageModelConfig, prompt_batch, sample

VOCAB = 20
GRID = {"attention": "relative", "positional": "none", "max_relative_distance": 8, "voice_embedding": 4,
        "metre_embedding": 4}


def lm(**overrides):
    torch.manual_seed(0)
    base = dict(vocab_size=VOCAB, d_model=32, n_heads=4, d_ff=64, n_layers=2, dropout=0.0, max_positions=64)
    return LanguageModel(LanguageModelConfig.from_dict({**base, **overrides})).eval()


def test_off_by_default_so_old_configs_and_weights_load():
    old = lm()
    assert old.config.voice_embedding == 0 and old.grid is None
    assert not any("grid" in k for k in old.state_dict())
    config = {k: v for k, v in old.config.to_dict().items() if k not in ("voice_embedding", "metre_embedding")}
    again = LanguageModel(LanguageModelConfig.from_dict(config))
    again.load_state_dict(old.state_dict())  # strict: no missing or unexpected keys


def test_a_window_from_inside_a_sequence_reads_the_voices_of_its_real_positions():
    model = lm(**GRID)
    x = torch.randint(3, VOCAB, (2, 24))
    whole = model._inputs(x, None)  # no absolute positions (relative model): the grid is all they add
    torch.testing.assert_close(model._inputs(x[:, 9:], None, 0, 9), whole[:, 9:])
    torch.testing.assert_close(model._inputs(x[:, 9:], None, 0, torch.tensor([9, 9])), whole[:, 9:])
    assert not torch.allclose(model._inputs(x[:, 9:], None), whole[:, 9:]), "the window's voices were not shifted"


def test_the_voice_changes_the_prediction():
    model = lm(**GRID)
    x = torch.randint(3, VOCAB, (1, 12))
    assert not torch.allclose(model(x), model(x, grid_start=1))
    torch.testing.assert_close(model(x), model(x, grid_start=16))  # 4 voices x 4 steps: period 16


def test_left_padding_never_moves_a_real_position():
    model = lm(**GRID)
    primers = [[5, 6, 7, 8, 9], [10, 11], []]
    together = sample(model, None, max_len=9, temperature=1e-4, seed=0, prompt=prompt_batch(primers, 1, 0))
    for i, primer in enumerate(primers):
        alone = sample(model, None, max_len=9, temperature=1e-4, seed=0, prompt=prompt_batch([primer], 1, 0))
        assert together[i].tokens == alone[0].tokens


def test_a_padded_prompt_decodes_with_its_own_positions():
    model = lm(**GRID)
    prompt = prompt_batch([[5, 6, 7], [8]], 1, 0)  # row 1 is left-padded by 2
    state = model.start_decoding(capacity=8, batch=2)
    cached = model.decode_step(prompt, state)
    torch.testing.assert_close(cached[1, 2:], model(prompt[1:, 2:])[0], rtol=1e-5, atol=1e-5)
    torch.testing.assert_close(cached[0], model(prompt[:1])[0], rtol=1e-5, atol=1e-5)
