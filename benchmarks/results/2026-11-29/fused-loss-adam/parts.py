"""The kernels behind b768b7b's loss, each timed alone on one chunk of tiny's logits (131 x 8,000: 1,048,000 elements),
one thread, median of 30 calls. Run from the repository root:
    python benchmarks/results/2026-11-29/fused-loss-adam/parts.py > benchmarks/results/2026-11-29/fused-loss-adam/parts.json
"""
import json
import statistics
import sys
import time

import torch

sys.path.insert(0, ".")
from benchmarks.common import provenance  # noqa: E402

torch.set_num_threads(1)
torch.manual_seed(0)
z = (torch.randn(131, 8000) * 3).bfloat16()
f, col, rows = z.float(), torch.randn(131, 1), torch.rand(131, 1)
mask = rows > 0.5
calls = {
    "softmax": lambda: f.softmax(-1),
    "logsumexp": lambda: torch.logsumexp(f, -1),
    "exp": lambda: f.exp(),
    "masked_fill_row_mask": lambda: f.masked_fill(mask, 0.0),
    "mul_row_scale": lambda: f.mul(rows),
    "sub_bf16_minus_fp32": lambda: torch.sub(z, col),
    "float_then_sub": lambda: z.float().sub_(col),
}


def median_us(fn) -> float:
    fn()
    times = []
    for _ in range(30):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return 1e6 * statistics.median(times)


print(json.dumps({**provenance(0), "threads": 1, "us": {name: median_us(fn) for name, fn in calls.items()}}, indent=1))
