"""One epoch of tiny training on the trainer's batches, lengths rounded up to a multiple M in the batcher and the
collated tensors padded to it; FORMAT fp32|bf16; oneDNN caches from the environment, else aiayn's (64 / 32 at
ce26355, where these records were made; since 4de83e6 PyTorch's 1,024: set ONEDNN_PRIMITIVE_CACHE_CAPACITY=64
LRU_CACHE_CAPACITY=32 for the "aiayn" rows). Writes TAG.json here (TAG-2.json ... if taken), with its provenance."""
import resource
import sys
import time
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F

from aiayn import TransformerConfig, corpus
from aiayn.data import Tokenizer, open_parallel
from aiayn.data import binarized as B
from aiayn.data.batching import Batch, filter_mask, token_batches
from aiayn.tasks.translation import TASK, EncodedCorpus
from benchmarks.common import CACHE, write_result
from benchmarks.peers import model_config
from benchmarks.train_throughput import make_step

m, fmt, tag = int(sys.argv[1]), sys.argv[2], sys.argv[3]
torch.set_num_threads(2)
cfg = TASK.train_config("tiny", {})
tok = Tokenizer.load(CACHE / "spm-8000.model")
pairs = B.prepare(open_parallel(corpus.builtin("train")), tok)
keep, _, _ = filter_mask(pairs.src_lengths, pairs.tgt_lengths, TransformerConfig().max_positions)
up = lambda x: -(-x // m) * m
sl, tl = np.asarray(pairs.src_lengths), np.asarray(pairs.tgt_lengths)
bs = token_batches(up(sl + 1) - 1, up(tl + 1) - 1, cfg.max_tokens, None, indices=keep)
enc = EncodedCorpus(pairs, bs, len(keep))
def padded(b):
    pad = lambda t: F.pad(t, (0, up(t.size(1)) - t.size(1)), value=tok.pad_id)
    return Batch(pad(b.src), pad(b.tgt_in), pad(b.tgt_out), b.n_tokens)
batches = [padded(enc.batch(b, tok)) for b in bs]
print("shapes", len({(tuple(b.src.shape), tuple(b.tgt_in.shape)) for b in batches}), "batches", len(batches), flush=True)
lst = []
step = make_step("aiayn", model_config("tiny"), lst, fmt)[0]
order = np.random.default_rng([0, 0]).permutation(len(batches))
lst[:] = [batches[i] for i in order]
t = time.perf_counter(); step(); sec = time.perf_counter() - t
rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
tokens = sum(b.n_tokens for b in batches)
print(tag, f"epoch {sec:.1f} s, {tokens / sec:.0f} tgt tok/s, maxrss {rss:.0f} MiB", flush=True)
write_result(tag, {"multiple": m, "format": fmt, "tag": tag, "seconds": sec, "tokens": tokens,
                   "batches": len(batches), "maxrss_mib": rss}, Path(__file__).parent)
