"""Per-step split of a one-sentence search (issue 42): the compiled step's graph (its runners' ``run``), the compiled
encoder's, and the host's share (the rest), in us per output token, the middle of 3 passes over the 64 benchmark
sentences after one that compiles. From the repository root:
    python benchmarks/results/2026-12-03-b/split.py aiayn_bf16_compiled 4
"""
import sys
import time

import torch

sys.path[:0] = [".", "src"]
from benchmarks.decode_throughput import aiayn_search  # noqa: E402

torch.set_num_threads(1)
system, beam = sys.argv[1], int(sys.argv[2])
model, search = aiayn_search("tiny", beam, system, batch=1)
search()  # compiles
step = model.decode_step
acc = {"step": 0.0, "source": 0.0}
class Timed:
    def __init__(self, r, key): self.r, self.key = r, key
    def run(self, x):
        s = time.perf_counter(); out = self.r.run(x); acc[self.key] += time.perf_counter() - s; return out
for d, key in ((step.runners, "step"), (step.sources, "source")):
    for f in list(d): d[f] = Timed(d[f], key)
walls = []
for _ in range(3):
    for k in acc: acc[k] = 0.0
    s = time.perf_counter(); out = search(); wall = time.perf_counter() - s
    steps = sum(len(t) + 1 for t in out)
    walls.append((wall / steps * 1e6, acc["step"] / steps * 1e6, acc["source"] / steps * 1e6))
walls.sort()
w, g, e = walls[1]
print(f"{system} beam {beam}: wall {w:.0f} us/token, step graph {g:.0f}, encoder {e:.0f}, host {w-g-e:.0f}")
