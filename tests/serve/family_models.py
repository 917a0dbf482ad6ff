"""Tiny random-weight models of the attention family (issue 45), saved as run folders the way training
saves them, for the studio's tests: a server loads them with ``tasks.subject`` (its task's served object).

``family_runs(root)`` -> {name: run folder} for music-relative, music-absolute (a Music Transformer with
relative attention, and one with sinusoids and full attention), digits (class-conditional, local
attention), superres (local), rnnsearch, rnnencdec, transformer (translation, sharing one small
sentencepiece vocabulary) and parsing (a tiny Transformer with its vocabularies in config.json).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import torch
from conftest import corpus_slice

from aiayn import LanguageModel, Transformer, TransformerConfig
from aiayn.data import Tokenizer, music
from aiayn.data.treebank import Vocab
from aiayn.io.checkpoint import save_weights
from aiayn.model.config import LanguageModelConfig, RNNSearchConfig
from aiayn.model.rnnsearch import RNNSearch
from aiayn.tasks.images import digits_model_config, superres_model_config

SMALL = dict(d_model=32, n_heads=2, d_ff=64, dropout=0.0)
WORDS = "the dog cat saw a .".split()
SYMBOLS = "(S )S (NP )NP (VP )VP XX".split()


def music_model(attention: str) -> LanguageModel:
    scheme = ({"attention": "relative", "positional": "none", "max_relative_distance": 16} if attention == "relative"
              else {"attention": "full", "positional": "sinusoidal"})
    cfg = LanguageModelConfig.from_dict({"vocab_size": music.VOCAB_SIZE, "pad_id": music.PAD, "bos_id": music.BOS,
                                         "eos_id": music.EOS, "n_layers": 2, "max_positions": 1100, **SMALL, **scheme})
    return LanguageModel(cfg)


def _save(model, folder: Path, task: str, config: dict | None = None) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    save_weights(model, model.config, folder / "best.safetensors", task=task)  # a run folder: its config.json too
    (folder / "config.json").write_text(json.dumps({"task": task, "model": model.config.to_dict(), **(config or {})}))
    return folder


def family_runs(root: Path) -> dict[str, Path]:
    torch.manual_seed(0)
    runs = {"music-relative": _save(music_model("relative"), root / "music-relative", "music"),
            "music-absolute": _save(music_model("full"), root / "music-absolute", "music"),
            "digits": _save(LanguageModel(digits_model_config("local", True, n_layers=2, **SMALL)), root / "digits",
                            "digits"),
            "superres": _save(Transformer(superres_model_config("local", n_encoder_layers=1, n_decoder_layers=2,
                                                                **SMALL)), root / "superres", "superres")}
    rows = corpus_slice("train", 300)
    (root / "spm").mkdir(parents=True, exist_ok=True)
    tokenizer = Tokenizer.train([en for en, _ in rows] + [es for _, es in rows], root / "spm" / "spm.model",
                                vocab_size=300)
    for name, attention in (("rnnsearch", True), ("rnnencdec", False)):
        model = RNNSearch(RNNSearchConfig(src_vocab_size=tokenizer.vocab_size, embed_dim=16, hidden=24, maxout_dim=8,
                                          attention=attention))
        for p in model.parameters():  # the paper's initialisation makes α uniform (v_a = 0): shake it
            torch.nn.init.normal_(p, 0.0, 0.5)
        runs[name] = _save(model, root / name, "translation")
    cfg = TransformerConfig.tiny(src_vocab_size=tokenizer.vocab_size, d_model=32, n_heads=2, d_ff=64,
                                 n_encoder_layers=1, n_decoder_layers=2)
    runs["transformer"] = _save(Transformer(cfg), root / "transformer", "translation")
    for name in ("rnnsearch", "rnnencdec", "transformer"):
        shutil.copy(root / "spm" / "spm.model", runs[name] / "spm.model")
    words, symbols = Vocab(WORDS), Vocab(SYMBOLS)
    cfg = TransformerConfig.tiny(src_vocab_size=len(words), tgt_vocab_size=len(symbols), share_embeddings=False,
                                 n_encoder_layers=1, n_decoder_layers=1, d_model=32, n_heads=2, d_ff=64)
    runs["parsing"] = _save(Transformer(cfg), root / "parsing", "parsing",
                            {"data": {"words": str(words), "symbols": str(symbols)}})
    return runs
