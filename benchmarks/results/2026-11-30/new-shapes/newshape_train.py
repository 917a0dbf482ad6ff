"""Does a batch shape never seen cost more than one seen, in bf16 and fp32 training steps (tiny, CPU)?"""
import json
import statistics
import time

import torch

from benchmarks.peers import bucketed_batches, model_config
from benchmarks.train_throughput import make_step

torch.set_num_threads(2)
cfg = model_config("tiny")
batches = bucketed_batches(70)[0]
print("distinct shapes", len({(tuple(b.src.shape), tuple(b.tgt_in.shape)) for b in batches}), "of", len(batches))
out = {}
steps = {}
lists = {}
for fmt in ("fp32", "bf16"):
    lists[fmt] = []
    steps[fmt] = make_step("aiayn", cfg, lists[fmt], fmt)[0]
def timed(fmt, bs):
    lists[fmt][:] = bs
    t = time.perf_counter(); steps[fmt](); return time.perf_counter() - t
for fmt in steps:  # warm-up on batches 0-9, twice
    timed(fmt, batches[:10]); timed(fmt, batches[:10])
rows = {f: {"new": [], "seen": []} for f in steps}
for r in range(6):
    group = batches[10 + 10 * r: 20 + 10 * r]
    for fmt in steps:  # interleaved: fp32 new, fp32 seen, bf16 new, bf16 seen
        rows[fmt]["new"].append(timed(fmt, group))
        rows[fmt]["seen"].append(timed(fmt, group))
for fmt, r in rows.items():
    print(fmt, "new %.3f s" % statistics.median(r["new"]), "seen %.3f s" % statistics.median(r["seen"]),
          "new/seen %.3f" % statistics.median(a / b for a, b in zip(r["new"], r["seen"])))
json.dump(rows, open("/tmp/s20/newshape_train.json", "w"))
