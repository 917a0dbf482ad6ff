"""The translator in process: it asks the weights header what a model is for (``Translator.task``),
not whether a vocabulary happens to lie beside it (issue 43)."""

from __future__ import annotations

import pytest
import torch

from aiayn.data import Tokenizer
from aiayn.inference.translator import Translator
from aiayn.io.checkpoint import CheckpointError, save_weights
from aiayn.model import Transformer
from aiayn.model.config import TransformerConfig

SMALL = dict(d_model=16, n_heads=2, d_ff=32, n_encoder_layers=1, n_decoder_layers=1, max_positions=32)


@pytest.mark.parametrize("task", ["parsing", "superres"])
def test_an_encoder_decoder_of_another_task_is_refused_by_its_task(tmp_path, task):
    """Parsing and super-resolution models search as translation models do; the header's task refuses them,
    with or without a vocabulary beside the weights."""
    cfg = TransformerConfig(src_vocab_size=20, tgt_vocab_size=20, share_embeddings=False, **SMALL)
    save_weights(Transformer(cfg), cfg, tmp_path / "best.safetensors", task=task)
    with pytest.raises(CheckpointError) as error:
        Translator.load(tmp_path / "best.safetensors")
    assert str(error.value) == (f"{tmp_path / 'best.safetensors'} holds a {task} model, not a translation model: use "
                                "it with the command its task uses (aiayn COMMAND --help)")


def test_a_translation_model_without_a_task_in_its_header_translates(tmp_path):
    """Weights written before tasks had names are translation models: loaded with the vocabulary beside them."""
    lines = [f"the {w} is here" for w in ("cat", "dog", "bird", "tree", "house", "light")] * 4
    tok = Tokenizer.train(lines, tmp_path / "spm.model", vocab_size=40)
    cfg = TransformerConfig(src_vocab_size=tok.vocab_size, tgt_vocab_size=tok.vocab_size, **SMALL)
    torch.manual_seed(0)
    save_weights(Transformer(cfg), cfg, tmp_path / "best.safetensors")  # no task, no tokenizer_sha256
    translator = Translator.load(tmp_path)
    assert translator.tokenizer.vocab_size == tok.vocab_size
    assert len(translator.translate(["the cat is here", ""], beam_size=1, max_len_b=3)) == 2
