"""The microbenchmarks behind the argmax change and the int8-activation attempt (issue 42), one thread, medians of
5 rounds of µs a call: PyTorch's argmax against numpy's over float32 log-probabilities (1 and 64 rows of 8,000);
beam search's topk (2 x 4 of 4 x 8,000 candidates a sentence) against numpy's argpartition; and oneDNN's int8
``qlinear_pointwise`` with signed against unsigned int8 activations, and unsigned against packed bf16 (the
compiled step's several-row products). From the repository root:
    python benchmarks/results/2026-11-29/argmax-ab/micro.py > benchmarks/results/2026-11-29/argmax-ab/micro.json
"""
import json
import statistics
import sys
import time

import numpy as np
import torch

sys.path.insert(0, ".")
from aiayn.precision import PackedLinear  # noqa: E402
from benchmarks.common import provenance  # noqa: E402


def us(fn, calls: int, *args) -> float:
    """Median over 5 rounds of µs a call (one untimed call first)."""
    fn(*args)
    rounds = []
    for _ in range(5):
        start = time.perf_counter()
        for _ in range(calls):
            fn(*args)
        rounds.append((time.perf_counter() - start) / calls * 1e6)
    return round(statistics.median(rounds), 1)


def numpy_topk(x: torch.Tensor, k: int):
    a = x.numpy()
    part = np.argpartition(a, -k, axis=1)[:, -k:]
    order = np.argsort(-np.take_along_axis(a, part, 1), axis=1, kind="stable")
    return np.take_along_axis(part, order, 1)


def qlinear(x: torch.Tensor, packed, scales: torch.Tensor, signed: bool):
    """x (M, K) bf16 quantised per tensor (signed: symmetric int8; else unsigned with a zero point), times packed int8."""
    lo, hi = torch.aminmax(x.float())
    if signed:
        s, zp = (torch.maximum(-lo, hi) / 127).clamp(min=1e-8), torch.tensor(0, dtype=torch.int32)
        xq = (x.float() / s).round().clamp(-127, 127).to(torch.int8)
    else:
        s = ((hi.clamp(min=0) - lo.clamp(max=0)) / 255).clamp(min=1e-8)
        zp = (-lo.clamp(max=0) / s).round().int()
        xq = (x.float() / s + zp).round().clamp(0, 255).to(torch.uint8)
    return torch.ops.onednn.qlinear_pointwise.tensor(xq, s, zp, packed, scales, torch.zeros_like(scales, dtype=torch.int32),
                                                   None, 1.0, 0, torch.bfloat16, "none", [], "")


torch.set_num_threads(1)
torch.manual_seed(0)
out = {**provenance(None), "unit": "microseconds a call, median of 5 rounds", "argmax": {}, "topk": {}, "int8": {}}
for rows in (1, 64):
    x = torch.randn(rows, 8000).log_softmax(-1)
    assert np.array_equal(x.numpy().argmax(-1), x.argmax(-1).numpy())
    out["argmax"][f"{rows}x8000"] = {"torch": us(torch.argmax, 200, x, -1), "numpy": us(np.argmax, 200, x.numpy(), -1)}
x = torch.randn(64, 4 * 8000)
out["topk"]["64x32000_k8"] = {"torch": us(torch.topk, 20, x, 8, 1), "numpy": us(numpy_topk, 20, x, 8)}
for n, k in ((256, 256), (8000, 256)):
    w, scales = torch.randint(-127, 128, (n, k), dtype=torch.int8), torch.rand(n) / 1000
    packed, dense = torch.ops.onednn.qlinear_prepack(w, None), PackedLinear((w.float() * scales[:, None]).bfloat16(), None)
    x = torch.randn(64, k).bfloat16()
    row = out["int8"][f"64x{k}x{n}"] = {"bf16_packed": us(dense, 10, x), "u8_qlinear": us(qlinear, 10, x, packed, scales, False)}
    if n == 256:
        row["s8_qlinear"] = us(qlinear, 2, x, packed, scales, True)
print(json.dumps(out, indent=2))
