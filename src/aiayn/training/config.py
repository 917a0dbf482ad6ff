"""Training configuration (paper §5) and config files.

A config file is YAML (``.yaml``/``.yml``) or TOML (``.toml``) with up to three top-level keys::

    preset: tiny            # tiny | base | big: the model and training presets below
    model: {dropout: 0.2}   # TransformerConfig fields
    train: {warmup: 8000}   # TrainConfig fields

Anything else, at any level, is an error that names the key.
"""

from __future__ import annotations

import dataclasses
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from ..config import PRESETS, TransformerConfig


@dataclass
class TrainConfig:
    """How to train; defaults are the paper's base recipe (§5), fields named as the paper names them.

    ``max_tokens`` counts padded tokens per side (source and target each) in one batch; the
    paper's batches held ~25,000 of each, over 8 GPUs (``--max-tokens 3125`` per GPU with
    ``torchrun --nproc_per_node 8``, or ``--update-freq 8`` on one).
    """

    vocab_size: int = 37000  # joint sub-word vocabulary (paper En-De: ~37k BPE)
    max_tokens: int = 25000
    max_sentences: int | None = None
    update_freq: int = 1  # batches accumulated per update
    max_steps: int = 100_000  # updates (base: 100k; big: 300k)
    max_time: float | None = None  # seconds of training in all, across resumes
    warmup: int = 4000
    lr_scale: float = 1.0  # multiplies the whole §5.3 curve
    adam_betas: tuple[float, float] = (0.9, 0.98)
    adam_eps: float = 1e-9
    label_smoothing: float = 0.1  # ε_ls
    clip_norm: float = 0.0  # 0: no clipping (the paper clips nothing)
    bf16: bool = False  # bfloat16 autocast for the forward pass
    seed: int = 1
    log_every: int = 100
    valid_every: int = 1000  # steps between validations (loss, perplexity, BLEU)
    save_every: int = 1000  # steps between checkpoints (the paper: every 10 minutes)
    keep_last: int = 20  # checkpoints kept for averaging (base averages 5, big 20)
    valid_bleu_sentences: int = 500  # validation sentences translated for BLEU (0: none)

    def __post_init__(self) -> None:
        self.adam_betas = tuple(self.adam_betas)
        for name in ("vocab_size", "max_tokens", "update_freq", "max_steps", "warmup", "log_every", "valid_every",
                     "save_every", "keep_last"):
            if getattr(self, name) < 1:
                raise ValueError(f"train.{name} must be at least 1, got {getattr(self, name)}")

    @classmethod
    def preset(cls, name: str, **overrides: Any) -> TrainConfig:
        if name not in PRESETS:
            raise ValueError(f"unknown preset {name!r}; choose one of {', '.join(PRESETS)}")
        return cls.from_dict({**TRAIN_PRESETS[name], **overrides})

    @classmethod
    def from_dict(cls, values: dict[str, Any]) -> TrainConfig:
        known = {f.name for f in dataclasses.fields(cls)}
        unknown = sorted(set(values) - known)
        if unknown:
            raise ValueError(f"unknown train config key(s): {', '.join(unknown)}; known keys: {', '.join(sorted(known))}")
        return cls(**values)

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


TRAIN_PRESETS: dict[str, dict[str, Any]] = {
    # CPU-sized: small batches and a short warm-up, so minutes of training make a translator.
    "tiny": {"vocab_size": 8000, "max_tokens": 1536, "warmup": 250, "lr_scale": 0.35, "max_steps": 20000,
             "log_every": 20, "valid_every": 500, "save_every": 250, "keep_last": 5, "valid_bleu_sentences": 200},
    "base": {},  # the paper's: 25k tokens, warmup 4000, 100k steps
    "big": {"max_steps": 300_000},
}


def load_config(preset: str | None, path: str | Path | None, overrides: dict[str, Any] | None = None,
                ) -> tuple[str, dict[str, Any], TrainConfig]:
    """Resolves preset < config file < ``overrides`` into (preset, model fields, TrainConfig).

    Model fields come back as a dict because the vocabulary size is only known once the
    tokenizer exists. ``overrides`` keys are ``model.<field>`` or ``train.<field>``.
    """
    data = read_config_file(path) if path else {}
    preset = preset or data.get("preset") or "tiny"
    model = dict(data.get("model", {}))
    train = dict(data.get("train", {}))
    for key, value in (overrides or {}).items():
        section, _, name = key.partition(".")
        {"model": model, "train": train}[section][name] = value
    TransformerConfig.preset(preset, **{"src_vocab_size": 64, **model})  # validates the model keys now
    return preset, model, TrainConfig.preset(preset, **train)


def read_config_file(path: str | Path) -> dict[str, Any]:
    """Reads YAML or TOML; unknown top-level keys are errors."""
    path = Path(path)
    if not path.is_file():
        raise ValueError(f"no such config file: {path}")
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".toml":
        data = tomllib.loads(text)
    elif path.suffix in (".yaml", ".yml"):
        data = yaml.safe_load(text) or {}
    else:
        raise ValueError(f"config file {path} must end in .yaml, .yml or .toml")
    if not isinstance(data, dict):
        raise ValueError(f"config file {path} must hold a mapping with keys preset, model, train")
    unknown = sorted(set(data) - {"preset", "model", "train"})
    if unknown:
        raise ValueError(f"unknown key(s) in {path}: {', '.join(unknown)}; allowed: preset, model, train")
    return data
