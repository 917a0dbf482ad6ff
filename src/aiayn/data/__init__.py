"""Data of paper §5.1: parallel corpora, a joint subword vocabulary, and token-budget batches."""

from .batching import (
    Batch,
    Batches,
    BatchSampler,
    batch_by_tokens,
    collate,
    collate_arrays,
    filter_mask,
    filter_pairs,
    pad_right,
    token_batches,
)
from .errors import DataError
from .parallel import (
    ParallelCorpus,
    ParallelSource,
    decode_lines,
    iter_text_lines,
    open_parallel,
    read_parallel,
    read_text_lines,
)
from .tokenizer import Tokenizer

__all__ = [
    "Batch", "BatchSampler", "DataError", "decode_lines", "ParallelCorpus", "Tokenizer", "batch_by_tokens", "collate",
    "filter_pairs", "pad_right", "read_parallel", "read_text_lines", "Batches", "collate_arrays", "filter_mask",
    "token_batches", "ParallelSource", "iter_text_lines", "open_parallel",
]
