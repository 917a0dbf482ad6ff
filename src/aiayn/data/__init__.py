"""Data of paper §5.1: parallel corpora, a joint subword vocabulary, and token-budget batches."""

from .batching import Batch, BatchSampler, batch_by_tokens, collate, filter_pairs
from .errors import DataError
from .parallel import ParallelCorpus, read_parallel, read_text_lines
from .tokenizer import Tokenizer

__all__ = [
    "Batch", "BatchSampler", "DataError", "ParallelCorpus", "Tokenizer", "batch_by_tokens", "collate",
    "filter_pairs", "read_parallel", "read_text_lines",
]
