"""Music: Bach chorales modelled token by token (Huang et al. 2018, the Music Transformer's JSB experiments).

The model and training presets for the chorales, and the task built from music21's corpus (cached
once; see ``aiayn.data.music``). Two position schemes, everything else equal:
  * ``absolute``: the paper's sinusoids added to the embeddings, full attention;
  * ``relative``: no absolute positions; relative self-attention with skewing, distances up to
    the training window.
"""

from __future__ import annotations

import os
from pathlib import Path

from ..data import music
from ..model.config import LanguageModelConfig
from . import Recipe
from .language_model import LanguageModelTask

WINDOW = 256  # training window in tokens: 64 sixteenths = 4 bars of 4/4

MUSIC_MODEL = dict(vocab_size=music.VOCAB_SIZE, pad_id=music.PAD, bos_id=music.BOS, eos_id=music.EOS, d_model=256,
                   n_heads=8, d_ff=1024, n_layers=4, dropout=0.1, max_positions=4096)
MUSIC_TRAIN = dict(max_tokens=2048, warmup=100, lr_scale=0.3, label_smoothing=0.0, max_steps=100_000, log_every=10,
                   valid_every=50, save_every=50, keep_last=5, valid_bleu_sentences=0)


def default_cache() -> Path:
    """Where the encoded chorales live: $AIAYN_CACHE/chorales, else ~/.cache/aiayn/chorales."""
    root = os.environ.get("AIAYN_CACHE") or Path.home() / ".cache" / "aiayn"
    return Path(root) / "chorales"


SCHEMES = {  # the two position schemes compared in the README; relative is the Music Transformer's
    "relative": dict(attention="relative", positional="none", max_relative_distance=WINDOW),
    "absolute": dict(attention="full", positional="sinusoidal"),
}


def music_model_config(positions: str = "relative", **overrides) -> LanguageModelConfig:
    """The chorale model with ``absolute`` or ``relative`` positions (relative distances up to the window)."""
    if positions not in SCHEMES:
        raise ValueError(f"positions must be one of {', '.join(SCHEMES)}, not {positions!r}")
    return LanguageModelConfig.from_dict({**MUSIC_MODEL, **SCHEMES[positions], **overrides})


def chorale_sequences(split: str, cache: str | Path | None = None, progress=None) -> tuple[list[str], list[list[int]]]:
    """Names and token lists of one split (train, valid, test); ``progress`` shows the first parse."""
    chorales = music.load_chorales(cache or default_cache(), split, progress)
    return list(chorales), [seq.tolist() for seq in chorales.values()]


def chorale_task(window: int = WINDOW, max_tokens: int = MUSIC_TRAIN["max_tokens"], cache: str | Path | None = None,
                 progress=None, transpose: int = 0) -> LanguageModelTask:
    """Training windows over the train split; validation on the valid split. ``transpose`` N adds
    each training chorale moved by ±1 .. ±N semitones (where every pitch stays in the vocabulary)."""
    _, train = chorale_sequences("train", cache, progress)
    shifts = [k for k in range(-transpose, transpose + 1) if k]
    train += [moved for k in shifts for seq in train if (moved := music.transpose(seq, k)) is not None]
    _, valid = chorale_sequences("valid", cache)
    return LanguageModelTask(train, valid, window, max_tokens, music.BOS, music.EOS, music.PAD)


RECIPE = Recipe("music", presets={name: {"positions": name} for name in SCHEMES}, train=MUSIC_TRAIN,
                model_config=music_model_config, data={"corpus": "music21 Bach chorales", "window": WINDOW, "transpose": 0},
                build=lambda model, train, data, progress: chorale_task(data["window"], train.max_tokens,
                                                                        progress=progress, transpose=data["transpose"]))
