"""aiayn: the Transformer of "Attention Is All You Need" (Vaswani et al., 2017), paper-faithful, and its family.

The public names below are imported on first use (PEP 562), so ``import aiayn.model`` loads the
model alone, not the trainer or the decoders: ``from aiayn import Transformer, beam_search`` works as ever.
"""

from __future__ import annotations

import importlib

__version__ = "0.1.0"

_LAZY = {  # public name -> the module (under aiayn) that defines it
    "AttentionMaps": "model", "LanguageModel": "model", "Transformer": "model",
    "LanguageModelConfig": "model.config", "TransformerConfig": "model.config",
    "Hypothesis": "decoding", "beam_search": "decoding", "greedy_search": "decoding", "length_penalty": "decoding",
    "prompt_batch": "decoding", "sample": "decoding",
    "build_optimizer": "training", "label_smoothed_cross_entropy": "training", "noam_lr": "training",
}

__all__ = sorted(_LAZY)


def __getattr__(name: str):
    if name not in _LAZY:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{_LAZY[name]}", __name__), name)
    globals()[name] = value  # later look-ups skip this function
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_LAZY})
