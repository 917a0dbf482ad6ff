import collections

import numpy as np

from aiayn import TransformerConfig, corpus
from aiayn.data import Tokenizer, open_parallel
from aiayn.data import binarized as B
from aiayn.tasks.translation import TASK, batch_corpus
from benchmarks.common import CACHE

cfg = TASK.train_config("tiny", {})
print("max_tokens", cfg.max_tokens, "max_sentences", cfg.max_sentences)
tok = Tokenizer.load(CACHE / "spm-8000.model")
pairs = B.prepare(open_parallel(corpus.builtin("train")), tok)
enc = batch_corpus(pairs, cfg, TransformerConfig().max_positions, "train")
sl, tl = np.asarray(pairs.src_lengths) + 1, np.asarray(pairs.tgt_lengths) + 1
def up(x, m): return -(-x // m) * m
for ms, mb in [(1, 1), (8, 1), (8, 8), (16, 8), (16, 16), (8, 16), (32, 16)]:
    shapes = collections.Counter(); real = padded = 0
    for b in enc.batches:
        b = np.asarray(b); S, T, n = sl[b].max(), tl[b].max(), len(b)
        S2, T2, n2 = up(S, ms), up(T, ms), up(n, mb)
        shapes[(n2, S2, T2)] += 1; real += tl[b].sum() + sl[b].sum(); padded += n2 * (S2 + T2)
    print(f"len x{ms} rows x{mb}: {len(shapes)} shapes in {len(enc.batches)} batches, padded/real {padded/real:.3f}, top {shapes.most_common(3)}")
print("--- batcher on rounded lengths")
from aiayn.data.batching import filter_mask, token_batches

keep, _, _ = filter_mask(pairs.src_lengths, pairs.tgt_lengths, TransformerConfig().max_positions)
for ms, mb in [(1, 1), (4, 1), (8, 1), (8, 4), (8, 8), (16, 8), (16, 16)]:
    rs, rt = up(sl, ms) - 1, up(tl, ms) - 1   # token_batches adds the +1 itself
    bs = token_batches(rs, rt, cfg.max_tokens, None, mb, indices=keep)
    shapes = collections.Counter(); real = padded = 0
    for b in bs:
        b = np.asarray(b); S, T, n = up(sl[b].max(), ms), up(tl[b].max(), ms), up(len(b), mb)
        shapes[(n, S, T)] += 1; real += tl[b].sum() + sl[b].sum(); padded += n * (S + T)
    print(f"len x{ms} rows x{mb}: {len(shapes)} shapes in {len(bs)} batches, padded/real {padded/real:.3f}, once-only {sum(1 for v in shapes.values() if v == 1)}")
