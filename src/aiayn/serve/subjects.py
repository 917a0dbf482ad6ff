"""What a served model is, chosen by the task its weights file names (read from the header before any
weights load): a ``Translator`` (translation: the Transformer, RNNsearch, RNNencdec), a ``Generator``
(music), an ``ImageModel`` (digits, superres) or a ``Parser`` (parsing). The worker thread owns it; the
studio's views take the subjects they can show (``views``), and ``describe`` says what it is for /api/info.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import torch
from torch import nn

from ..inference.generator import Generator
from ..inference.parser import Parser
from ..inference.translator import Translator
from ..io.checkpoint import read_header
from ..io.loader import load
from ..io.registry import capabilities, task_name
from ..io.rundir import model_file_of
from ..precision import DTYPES

CONFIG_FIELDS = ("d_model", "n_heads", "d_ff", "n_layers", "n_encoder_layers", "n_decoder_layers", "embed_dim",
                 "hidden", "vocab_size", "src_vocab_size", "tgt_vocab_size", "max_positions", "positional",
                 "attention", "block", "memory", "local_block", "local_memory", "n_classes")


@dataclass
class ImageModel:
    """A digits (decoder-only, pixel by pixel) or superres (4x4 -> 8x8 encoder-decoder) model."""

    model: nn.Module
    task: str
    device: torch.device = torch.device("cpu")


def task_of(path: str | Path) -> str:
    return task_name(read_header(model_file_of(path))[1])


def load_subject(path: str | Path, device: str = "cpu", dtype: str = "float32"):
    """The model at ``path`` as the object its task's views take (see the module's docstring)."""
    task = task_of(path)
    if task == "music":
        return Generator.load(path, device)
    if task in ("digits", "superres"):  # as tasks.images.load_image_model, whose module also draws
        return ImageModel(load(path).model.to(device).eval(), task, torch.device(device))
    if task == "parsing":
        return Parser.load(path, device)
    return Translator.load(path, device, DTYPES[dtype])


def task_of_subject(subject: Any) -> str:
    if isinstance(subject, ImageModel):
        return subject.task
    return {Generator: "music", Parser: "parsing"}.get(type(subject), "translation")


def describe(subject: Any, path: str | Path | None) -> dict[str, Any]:
    """What the page and ``GET /api/info`` show of a model that is not a translator: its task, architecture,
    sizes and the views it offers (translators: ``worker.model_info``, which adds the languages)."""
    from .views import offered

    model = subject.model
    cfg = model.config
    return {"model": str(path or ""), "weights": model_file_of(path).name if path else "",
            "task": task_of_subject(subject), "architecture": model.architecture,
            "parameters": sum(p.numel() for p in model.parameters()),
            "config": {name: getattr(cfg, name) for name in CONFIG_FIELDS if hasattr(cfg, name)},
            "device": str(next(model.parameters()).device), "dtype": str(next(model.parameters()).dtype)[6:],
            "attention_kinds": [] if not isinstance(subject, Translator) else list(capabilities(cfg).attention),
            "src": None, "tgt": None, "views": offered(subject)}
