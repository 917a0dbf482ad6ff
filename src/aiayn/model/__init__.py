"""The Transformer model of paper §3."""

from .attention import ATTENTION_BACKENDS, MultiHeadAttention, math_attention, sdpa_attention
from .embeddings import PositionalEncoding, TokenEmbedding, sinusoidal_positions
from .layers import DecoderLayer, EncoderLayer, FeedForward
from .masks import causal_mask, padding_mask
from .transformer import AttentionMaps, Encoded, Transformer

__all__ = [
    "ATTENTION_BACKENDS", "AttentionMaps", "DecoderLayer", "Encoded", "EncoderLayer", "FeedForward",
    "MultiHeadAttention", "PositionalEncoding", "TokenEmbedding", "Transformer", "causal_mask",
    "math_attention", "padding_mask", "sdpa_attention", "sinusoidal_positions",
]
