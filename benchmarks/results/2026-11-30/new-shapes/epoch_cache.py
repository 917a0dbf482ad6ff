"""bf16 training, tiny, two epochs of the trainer's own batches: the second epoch's time with oneDNN/ideep caches as set."""
import json
import os
import resource
import sys
import time

cap = sys.argv[1]
if cap != "default":
    os.environ["LRU_CACHE_CAPACITY"] = cap
    os.environ["ONEDNN_PRIMITIVE_CACHE_CAPACITY"] = cap
import numpy as np
import torch

from aiayn import TransformerConfig, corpus
from aiayn.data import Tokenizer, open_parallel
from aiayn.data import binarized as B
from aiayn.tasks.translation import TASK, batch_corpus
from benchmarks.common import CACHE
from benchmarks.peers import model_config
from benchmarks.train_throughput import make_step

torch.set_num_threads(2)
train_cfg = TASK.train_config("tiny", {})
tok = Tokenizer.load(CACHE / "spm-8000.model")
pairs = B.prepare(open_parallel(corpus.builtin("train")), tok)
enc = batch_corpus(pairs, train_cfg, TransformerConfig().max_positions, "train")
n = int(sys.argv[2]) if len(sys.argv) > 2 else len(enc.batches)
batches = [enc.batch(b, tok) for b in enc.batches[:n]]
lst = []
step = make_step("aiayn", model_config("tiny"), lst, sys.argv[3] if len(sys.argv) > 3 else "bf16")[0]
times = []
for epoch in range(int(os.environ.get("EPOCHS", "2"))):
    order = np.random.default_rng([0, epoch]).permutation(len(batches))
    lst[:] = [batches[i] for i in order]
    t = time.perf_counter(); step(); times.append(time.perf_counter() - t)
    print(cap, "epoch", epoch, "%.1f s" % times[-1], "maxrss MiB %.0f" % (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024), flush=True)
json.dump({"cap": cap, "times": times, "tokens": sum(b.n_tokens for b in batches)}, open(f"/tmp/s20/epoch_cache_{cap}_{sys.argv[3] if len(sys.argv) > 3 else 'bf16'}.json", "w"))
