"""Architectures by name: a checkpoint names its architecture, and this table rebuilds the model;
and what each can do (``capabilities``), which callers ask instead of testing a model's class.

``"transformer"`` (the encoder-decoder of paper §3) is also what a checkpoint without a name holds
(runs written before architectures had names).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
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


def architecture_of(config) -> str:
    """The architecture a model config belongs to (its class names it)."""
    for name, cls in ARCHITECTURES.items():
        if type(config) is cls.config_class:
            return name
    raise ValueError(f"no architecture takes a {type(config).__name__}")


def model_for(config) -> nn.Module:
    """The model a config describes (its class names the architecture)."""
    return ARCHITECTURES[architecture_of(config)](config)


@dataclass(frozen=True)
class Capabilities:
    """What a model can do. ``search``: it maps a source to a target (an encoder-decoder), so greedy
    and beam search, translation, parsing and super-resolution take it. ``generate``: it samples a
    sequence from nothing or a primer (decoder-only). ``attention``: the attention it can show, kind
    (cross, encoder, decoder_self) -> its layers; the order is the one to list them in. ``export``:
    the runtimes ``aiayn export --to`` can write it for (the exporters still check its config)."""

    search: bool = False
    generate: bool = False
    attention: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}))
    export: tuple[str, ...] = ()


def _transformer(cfg) -> Capabilities:
    layers = {"cross": cfg.n_decoder_layers, "encoder": cfg.n_encoder_layers, "decoder_self": cfg.n_decoder_layers}
    return Capabilities(search=True, attention=MappingProxyType(layers), export=("hf", "ctranslate2"))


def _rnnsearch(cfg) -> Capabilities:
    """RNNsearch shows its one additive attention; RNNencdec (attention off) has none."""
    return Capabilities(search=True, attention=MappingProxyType({"cross": 1} if cfg.attention else {}))


CAPABILITIES: dict[str, Callable[[Any], Capabilities]] = {  # architecture -> its model config -> what it can do
    "transformer": _transformer, "decoder_only": lambda cfg: Capabilities(generate=True), "rnnsearch": _rnnsearch,
}


def capabilities(config) -> Capabilities:
    """What the model of ``config`` (any architecture's config) can do."""
    return CAPABILITIES[architecture_of(config)](config)


def capabilities_of(meta: dict[str, Any]) -> Capabilities:
    """What the model of a weights file can do, from its header's metadata (no weights loaded)."""
    cls = model_class(meta.get("architecture"))
    try:
        return capabilities(cls.config_class.from_dict(meta["model_config"]))
    except (KeyError, TypeError, ValueError) as e:
        raise CheckpointError(f"the weights file carries no usable model config ({e})") from None


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
