"""Greedy and beam-search decoding with a key/value cache (paper §6.1)."""

from .beam import Hypothesis, beam_search, length_penalty
from .cache import DecoderState, KVCache
from .greedy import greedy_search

__all__ = ["DecoderState", "Hypothesis", "KVCache", "beam_search", "greedy_search", "length_penalty"]
