"""aiayn: the Transformer of "Attention Is All You Need" (Vaswani et al., 2017), paper-faithful."""

from .config import TransformerConfig
from .decoding import Hypothesis, beam_search, greedy_search, length_penalty
from .model import AttentionMaps, Transformer
from .training import build_optimizer, label_smoothed_cross_entropy, noam_lr

__version__ = "0.1.0"

__all__ = [
    "AttentionMaps", "Hypothesis", "Transformer", "TransformerConfig", "beam_search", "build_optimizer",
    "greedy_search", "label_smoothed_cross_entropy", "length_penalty", "noam_lr",
]
