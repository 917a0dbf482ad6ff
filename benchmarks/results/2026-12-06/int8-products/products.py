"""Why int8 activations do not pay at 64 sentences a batch on this CPU (issue 42): each of tiny's product shapes
at 64, 256 and 1,024 rows (64 sentences greedy, beam 4, and more), one thread, microseconds (median of 5 runs):
``torch._int_mm`` alone (int8 x int8, int32 sums: the host report's int8 ceiling), the same with the rows
quantised per row and the sums scaled back to bf16 (``dynamic``, compiled by ``torch.compile``), bf16 with the weight
packed for oneDNN (aiayn's eager bf16 product), and the int8 weights with bf16 activations
(``_weight_int8pack_mm``, aiayn's int8 product for few rows). From the repository root:
    python benchmarks/results/2026-12-06/int8-products/products.py > benchmarks/results/2026-12-06/int8-products/products.json
"""
import json
import sys
import warnings

import torch
import torch.nn.functional as F

sys.path.insert(0, ".")
from benchmarks.common import provenance, us_per_call  # noqa: E402

torch.set_num_threads(1)
torch.manual_seed(0)
warnings.filterwarnings("ignore")


def us(f, n: int = 30) -> float:
    return round(us_per_call(f, n, rounds=5))


def dynamic(x, weight_t, weight_scale):
    scale = x.abs().amax(-1, keepdim=True).float().clamp_min(1e-8) / 127
    return (torch._int_mm((x.float() / scale).round().to(torch.int8), weight_t).float() * scale * weight_scale).bfloat16()


torch._dynamo.config.recompile_limit = 64  # one graph for each of the 15 shapes
compiled_dynamic = torch.compile(dynamic, dynamic=False)


def timed(k: int, n: int, rows: int, w: torch.Tensor, q: torch.Tensor, scale: torch.Tensor) -> dict:
    q_t, packed = q.t().contiguous(), torch.ops.mkldnn._reorder_linear_weight(w.bfloat16(), None)
    x = torch.randn(rows, k).bfloat16()
    xq = torch.randint(-127, 128, (rows, k), dtype=torch.int8)
    exact = F.linear(x.float(), w)
    return {"k": k, "n": n, "rows": rows,
            "int_mm_alone": us(lambda: torch._int_mm(xq, q_t)),
            "dynamic_int8_compiled": us(lambda: compiled_dynamic(x, q_t, scale)),
            "bf16_packed": us(lambda: torch.ops.mkldnn._linear_pointwise(x, packed, None, "none", [], "")),
            "int8_weights_bf16_rows": us(lambda: torch.ops.aten._weight_int8pack_mm(x, q, scale.bfloat16())),
            "dynamic_max_error": round(float((compiled_dynamic(x, q_t, scale).float() - exact).abs().max()), 4)}


out = {**provenance(None), "shapes": []}
for k, n in [(256, 768), (256, 256), (256, 1024), (1024, 256), (256, 8000)]:
    w = torch.randn(n, k) / k ** 0.5
    scale = w.abs().amax(1) / 127
    q = (w / scale[:, None]).round().to(torch.int8)
    for rows in (64, 256, 1024):
        out["shapes"].append(row := timed(k, n, rows, w, q, scale))
        print(row, file=sys.stderr, flush=True)
print(json.dumps(out, indent=1))
