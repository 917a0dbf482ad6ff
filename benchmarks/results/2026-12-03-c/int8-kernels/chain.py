"""One tiny decoder step's 19 products (3 layers of 6, then the output projection) in a chain, eager, one thread,
random weights: microseconds per chain for 1 and 4 rows (greedy's and beam 4's one sentence), each way PyTorch
2.13 offers on the CPU: fp32, bf16 weights packed for oneDNN, int8 weights with bf16 activations
(``_weight_int8pack_mm``, aiayn's int8 path), fbgemm's dynamic int8, oneDNN's int8 x int8 product with the rows
quantised on each call, and ``torch._int_mm`` (rows padded to 17, the least it takes). Median of 7 runs of 200
chains. Each kernel's error against fp32 is beside it. From the repository root:
    python benchmarks/results/2026-12-03-c/int8-kernels/chain.py > benchmarks/results/2026-12-03-c/int8-kernels/chain.json
"""
import json
import statistics
import sys
import time

import torch
import torch.nn.functional as F

sys.path.insert(0, ".")
from benchmarks.common import provenance  # noqa: E402

torch.set_num_threads(1)
torch.manual_seed(0)
SHAPES = [(256, 768), (256, 256), (256, 256), (256, 256), (256, 1024), (1024, 256)] * 3 + [(256, 8000)]  # (in, out)
WEIGHTS = [torch.randn(n, k) / k ** 0.5 for k, n in SHAPES]
INS = [k for k, _ in SHAPES]


def us_per_chain(chain, n: int = 200) -> float:
    for _ in range(20):
        chain()
    runs = []
    for _ in range(7):
        start = time.perf_counter()
        for _ in range(n):
            chain()
        runs.append((time.perf_counter() - start) / n * 1e6)
    return round(statistics.median(runs), 1)


def per_channel(w: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    scale = w.abs().amax(1) / 127
    return (w / scale[:, None]).round().to(torch.int8), scale


def ways(rows: int) -> dict:
    x = {k: torch.randn(rows, k) for k in (256, 1024)}
    xb = {k: v.bfloat16() for k, v in x.items()}
    q = [per_channel(w) for w in WEIGHTS]
    packed = [torch.ops.mkldnn._reorder_linear_weight(w.bfloat16(), None) for w in WEIGHTS]
    dynamic = []
    for w in WEIGHTS:
        linear = torch.nn.Linear(w.shape[1], w.shape[0], bias=False)
        linear.weight.data = w
        dynamic.append(torch.ao.quantization.quantize_dynamic(torch.nn.Sequential(linear), {torch.nn.Linear},
                                                               dtype=torch.qint8)[0])
    onednn = [(torch.ops.onednn.qlinear_prepack(a, [rows, a.shape[1]]), s, torch.zeros(s.shape, dtype=torch.int64))
              for a, s in q]

    def qlinear(k, pack, scale, zero):
        sx = float(x[k].abs().amax()) / 127
        xq = (x[k] / sx + 128).round_().clamp_(0, 255).to(torch.uint8)
        return torch.ops.onednn.qlinear_pointwise.default(xq, sx, 128, pack, scale, zero, None, 1.0, 0, torch.float32,
                                                          "none", [], "")

    padded = {k: F.pad((v / (v.abs().amax() / 127)).round().to(torch.int8), (0, 0, 0, max(0, 17 - rows)))
              for k, v in x.items()}
    int_t = [a.t().contiguous() for a, _ in q]
    chains = {
        "fp32": lambda: [F.linear(x[k], w) for k, w in zip(INS, WEIGHTS)],
        "bf16_packed": lambda: [torch.ops.mkldnn._linear_pointwise(xb[k], p, None, "none", [], "")
                                for k, p in zip(INS, packed)],
        "int8pack_mm": lambda: [torch.ops.aten._weight_int8pack_mm(xb[k], a, s.bfloat16()) for k, (a, s) in zip(INS, q)],
        "fbgemm_dynamic": lambda: [m(x[k]) for k, m in zip(INS, dynamic)],
        "onednn_qlinear_u8": lambda: [qlinear(k, *o) for k, o in zip(INS, onednn)],
        "int_mm_padded_17": lambda: [torch._int_mm(padded[k], b) for k, b in zip(INS, int_t)],
    }
    exact = chains["fp32"]()[-1]
    out = {}
    with torch.no_grad():
        for name, chain in chains.items():
            last = chain()[-1][:rows].float()
            scale = 1.0 if name != "int_mm_padded_17" else None
            error = float((last - exact).abs().max() / exact.abs().max()) if scale else None  # _int_mm's is unscaled
            out[name] = {"us": us_per_chain(chain), "max_error_of_projection": error}
    return out


print(json.dumps({**provenance(None), "rows": {str(r): ways(r) for r in (1, 4)}}, indent=1))
