"""Data of paper §5.1: parallel corpora, a joint subword vocabulary, and token-budget batches."""

from .batching import Batch, BatchSampler, batch_by_tokens, collate, filter_pairs, pad_right
from .errors import DataError
from .parallel import ParallelCorpus, decode_lines, read_parallel, read_text_lines
from .tokenizer import Tokenizer

__all__ = [
    "Batch", "BatchSampler", "DataError", "decode_lines", "ParallelCorpus", "Tokenizer", "batch_by_tokens", "collate",
    "filter_pairs", "pad_right", "read_parallel", "read_text_lines",
]
