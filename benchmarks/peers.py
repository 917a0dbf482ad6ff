"""The comparison systems, each built from the same ``aiayn.TransformerConfig`` with random weights.

  * ``TorchNNTransformer``: ``torch.nn.Transformer`` (batch_first, post-norm, ReLU) plus, written
    here, a shared embedding scaled by sqrt(d_model), sinusoidal positions and the tied output
    projection. One structural difference it cannot avoid: ``nn.Transformer`` always ends each
    stack with a LayerNorm (2 extra LayerNorms; negligible FLOPs).
  * ``marian_config``: Hugging Face ``MarianConfig`` of the same sizes (ReLU, scaled and shared
    embeddings, tied output, sinusoidal positions, post-norm), random initialisation. Marian's own
    convention is kept so that CTranslate2's converter accepts the model: the LAST id (V - 1) is
    <pad> and the decoder starts from it; EOS is aiayn's id 2. ``to_marian_ids`` maps aiayn's pad
    id 0 to V - 1.
  * ``bucketed_batches``: the aiayn trainer's own token-bucketed batches of the built-in corpus.

``transformers`` is imported only inside functions: this module is importable without it.
"""

from __future__ import annotations

import math

import numpy as np
import torch
import torch.nn.functional as F
from torch import Tensor, nn

from aiayn import TransformerConfig

from .common import CACHE


def model_config(size: str, vocab: int | None = None) -> TransformerConfig:
    """The tiny (V = 8000) or base (V = 37000) model; dropout as the paper's 0.1."""
    vocab = vocab or {"tiny": 8000, "base": 37000}[size]
    return TransformerConfig.preset(size, src_vocab_size=vocab)


# torch.nn.Transformer --------------------------------------------------------------------------------
class TorchNNTransformer(nn.Module):
    """Same architecture as aiayn.Transformer, on ``torch.nn.Transformer``."""

    def __init__(self, cfg: TransformerConfig):
        super().__init__()
        self.config, d = cfg, cfg.d_model
        self.embed = nn.Embedding(cfg.src_vocab_size, d)
        nn.init.normal_(self.embed.weight, 0.0, d**-0.5)  # as aiayn: N(0, d^-0.5)
        position = torch.arange(cfg.max_positions)[:, None]
        freq = torch.exp(torch.arange(0, d, 2) * (-math.log(10000.0) / d))
        pe = torch.zeros(cfg.max_positions, d)
        pe[:, 0::2], pe[:, 1::2] = torch.sin(position * freq), torch.cos(position * freq)
        self.register_buffer("pe", pe, persistent=False)
        self.dropout = nn.Dropout(cfg.dropout)
        self.core = nn.Transformer(
            d_model=d, nhead=cfg.n_heads, num_encoder_layers=cfg.n_encoder_layers,
            num_decoder_layers=cfg.n_decoder_layers, dim_feedforward=cfg.d_ff, dropout=cfg.dropout,
            activation="relu", layer_norm_eps=cfg.layer_norm_eps, batch_first=True, norm_first=False,
        )

    def _embed(self, tokens: Tensor) -> Tensor:
        return self.dropout(self.embed(tokens) * math.sqrt(self.config.d_model) + self.pe[: tokens.size(1)])

    def forward(self, src: Tensor, tgt_in: Tensor) -> Tensor:
        src_pad = src == self.config.pad_id
        causal = nn.Transformer.generate_square_subsequent_mask(tgt_in.size(1), device=src.device)
        hidden = self.core(
            self._embed(src), self._embed(tgt_in), tgt_mask=causal, src_key_padding_mask=src_pad,
            memory_key_padding_mask=src_pad, tgt_is_causal=True,
        )
        return F.linear(hidden, self.embed.weight)  # tied pre-softmax layer


# Hugging Face Marian -------------------------------------------------------------------------------------
def marian_config(cfg: TransformerConfig):
    from transformers import MarianConfig

    v = cfg.src_vocab_size
    return MarianConfig(
        vocab_size=v, d_model=cfg.d_model,
        encoder_layers=cfg.n_encoder_layers, decoder_layers=cfg.n_decoder_layers,
        encoder_attention_heads=cfg.n_heads, decoder_attention_heads=cfg.n_heads,
        encoder_ffn_dim=cfg.d_ff, decoder_ffn_dim=cfg.d_ff,
        activation_function="relu", scale_embedding=True, share_encoder_decoder_embeddings=True,
        tie_word_embeddings=True, max_position_embeddings=cfg.max_positions,
        dropout=cfg.dropout, attention_dropout=0.0, activation_dropout=0.0,
        pad_token_id=v - 1, decoder_start_token_id=v - 1, eos_token_id=cfg.eos_id, bos_token_id=None,
        forced_eos_token_id=None,  # else generate() would force EOS as the last token
    )


def build_marian(cfg: TransformerConfig, seed: int = 0):
    from transformers import MarianMTModel

    torch.manual_seed(seed)
    model = MarianMTModel(marian_config(cfg))
    with torch.no_grad():  # decoding starts from the pad embedding; CTranslate2 starts from zeros
        model.get_input_embeddings().weight[cfg.src_vocab_size - 1].zero_()
    return model


def to_marian_ids(ids: Tensor, cfg: TransformerConfig) -> Tensor:
    """aiayn pads with id 0; Marian with its last id."""
    return ids.masked_fill(ids == cfg.pad_id, cfg.src_vocab_size - 1)


def marian_vocabulary(cfg: TransformerConfig) -> list[str]:
    """Token strings for ids 0..V-1 (no tokenizer exists: the model reads ids)."""
    special = {cfg.pad_id: "<blank>", cfg.bos_id: "<s>", cfg.eos_id: "</s>", 3: "<unk>"}
    tokens = [special.get(i, f"t{i}") for i in range(cfg.src_vocab_size)]
    tokens[-1] = "<pad>"  # Marian's pad, which CTranslate2's Marian loader drops
    return tokens


# The trainer's own batches --------------------------------------------------------------------------------
def bucketed_batches(n: int, seed: int = 0, max_tokens: int | None = None):
    """``n`` batches (seeded choice) of the built-in train split, tokenized and cut exactly as
    ``aiayn train --preset tiny`` does (joint BPE of 8000, ``max_tokens`` padded tokens per side)."""
    from aiayn import corpus
    from aiayn.data import Tokenizer, open_parallel, read_parallel
    from aiayn.data import binarized as B
    from aiayn.tasks.translation import TASK, batch_corpus

    train_cfg = TASK.train_config("tiny", {"max_tokens": max_tokens} if max_tokens else {})
    vocab_size = train_cfg.task_settings.vocab_size
    data = read_parallel(corpus.builtin("train"))
    spm_path = CACHE / f"spm-{vocab_size}.model"
    if not spm_path.is_file():
        CACHE.mkdir(parents=True, exist_ok=True)
        Tokenizer.train(data.src + data.tgt, spm_path, vocab_size=vocab_size, seed=train_cfg.seed)
    tok = Tokenizer.load(spm_path)
    pairs = B.prepare(open_parallel(corpus.builtin("train")), tok)  # the ids aiayn train maps (in AIAYN_CACHE)
    encoded = batch_corpus(pairs, train_cfg, TransformerConfig().max_positions, "train")
    chosen = np.random.default_rng(seed).choice(len(encoded.batches), size=n, replace=False)
    return [encoded.batch(encoded.batches[i], tok) for i in chosen], train_cfg.max_tokens
