"""aiayn: the Transformer of "Attention Is All You Need" (Vaswani et al., 2017), paper-faithful, and its family."""

from .decoding import Hypothesis, beam_search, greedy_search, length_penalty, prompt_batch, sample
from .model import AttentionMaps, LanguageModel, Transformer
from .model.config import LanguageModelConfig, TransformerConfig
from .training import build_optimizer, label_smoothed_cross_entropy, noam_lr

__version__ = "0.1.0"

__all__ = [
    "AttentionMaps", "Hypothesis", "LanguageModel", "LanguageModelConfig", "Transformer", "TransformerConfig",
    "beam_search", "build_optimizer", "greedy_search", "label_smoothed_cross_entropy", "length_penalty", "noam_lr",
    "prompt_batch", "sample",
]
