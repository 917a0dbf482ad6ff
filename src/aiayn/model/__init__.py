"""The Transformer models: the encoder-decoder of paper §3 and a decoder-only language model."""

from .attention import (
    ATTENTION_BACKENDS,
    ATTENTION_KERNELS,
    MultiHeadAttention,
    RelativePositions,
    math_attention,
    sdpa_attention,
)
from .cache import DecoderState, KVCache
from .embeddings import PositionalEncoding, TokenEmbedding, sinusoidal_positions
from .layers import DecoderLayer, EncoderLayer, FeedForward
from .lm import LanguageModel
from .masks import causal_mask, padding_mask
from .transformer import AttentionMaps, Encoded, Transformer

__all__ = [
    "ATTENTION_BACKENDS", "ATTENTION_KERNELS", "AttentionMaps", "DecoderLayer", "DecoderState", "Encoded", "EncoderLayer",
    "FeedForward",
    "KVCache", "LanguageModel", "MultiHeadAttention", "PositionalEncoding", "RelativePositions", "TokenEmbedding",
    "Transformer", "causal_mask", "math_attention", "padding_mask", "sdpa_attention", "sinusoidal_positions",
]
