"""Architectures by name: a checkpoint names its architecture, and this table rebuilds the model.

``"transformer"`` (the encoder-decoder of paper §3) is also what a checkpoint without a name holds
(runs written before architectures had names).
"""

from __future__ import annotations

from typing import Any

from torch import nn

from ..model import LanguageModel, Transformer
from ..model.rnnsearch import RNNSearch
from .checkpoint import CheckpointError, build_checked, load_model_state, read_checkpoint, read_header

ARCHITECTURES: dict[str, type[nn.Module]] = {cls.architecture: cls for cls in (Transformer, LanguageModel, RNNSearch)}
DEFAULT_ARCHITECTURE = "transformer"


def model_class(architecture: str | None) -> type[nn.Module]:
    """The model class of an architecture name (None: the encoder-decoder)."""
    name = architecture or DEFAULT_ARCHITECTURE
    if name not in ARCHITECTURES:
        raise ValueError(f"unknown architecture {name!r}; known: {', '.join(ARCHITECTURES)}")
    return ARCHITECTURES[name]


def build_model(architecture: str | None, config: dict[str, Any]) -> nn.Module:
    """The model of ``architecture`` from its config fields (unknown fields are an error)."""
    cls = model_class(architecture)
    return cls(cls.config_class.from_dict(config))


def model_for(config) -> nn.Module:
    """The model a config describes (its class names the architecture)."""
    for cls in ARCHITECTURES.values():
        if type(config) is cls.config_class:
            return cls(config)
    raise ValueError(f"no architecture takes a {type(config).__name__}")


def load_model(path) -> tuple[nn.Module, dict[str, Any]]:
    """The model in a weights file (any architecture) and the file's metadata; errors are CheckpointErrors.
    The file's config and tensor shapes are checked against each other before the model is built."""
    shapes, meta = read_header(path)
    try:
        cls = model_class(meta.get("architecture"))
        config = cls.config_class.from_dict(meta["model_config"])
    except (KeyError, TypeError, ValueError) as e:
        raise CheckpointError(f"{path} carries no usable model config ({e})") from None
    model = build_checked(lambda: cls(config), shapes, path)
    tensors, _ = read_checkpoint(path)
    load_model_state(model, tensors, path)
    return model, meta
