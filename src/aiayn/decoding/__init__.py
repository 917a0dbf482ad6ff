"""Decoding (paper §6.1) with a key/value cache: greedy, beam search and sampling, with or without a source."""

from ..model.cache import DecoderState, KVCache
from .beam import Hypothesis, beam_search, length_penalty
from .common import prompt_batch
from .greedy import greedy_search
from .sampling import sample

__all__ = ["DecoderState", "Hypothesis", "KVCache", "beam_search", "greedy_search", "length_penalty", "prompt_batch",
           "sample"]
