"""fbgemm's int8 x int8 product (the rows quantised on each call, as CTranslate2 does) against aiayn's products
(issue 42), one thread, microseconds, medians of 7 (eager) or 9 interleaved (compiled) runs:
- ``eager``: each of tiny's decoder product shapes at 1, 4, 64 and 256 rows (one sentence greedy and beam 4, 64
  sentences greedy and beam 4), bf16 in and out: fbgemm's dynamic int8 linear, aiayn's int8 weights with bf16 rows
  (``_weight_int8pack_mm``) and bf16 weights packed for oneDNN; ``per_step`` sums them over tiny's 19 products.
- ``compiled``: the step's tail, output projection (256 x 8,000), log-softmax and top 4, compiled ahead of time as
  the decoding step is (AOTInductor, ``compiled.INDUCTOR_CPU``), the projection each way: fbgemm through a custom
  operator (the graph calls back into Python for it), int8 weights, bf16 weights; and the fbgemm tail eager.
From the repository root:
    python benchmarks/results/2026-12-06/fbgemm/fbgemm.py > benchmarks/results/2026-12-06/fbgemm/fbgemm.json
"""
import json
import statistics
import sys
import tempfile
import time
import warnings

import torch
import torch.nn.functional as F

sys.path.insert(0, ".")
from aiayn.model.compiled import INDUCTOR_CPU  # noqa: E402
from benchmarks.common import provenance, us_per_call  # noqa: E402

torch.set_num_threads(1)
torch.manual_seed(0)
warnings.filterwarnings("ignore")
SHAPES = {(256, 768): 3, (256, 256): 9, (256, 1024): 3, (1024, 256): 3, (256, 8000): 1}  # (in, out): products a step
PACKED = {}  # fbgemm's packed weights, by key: a custom operator takes tensors and numbers, not them


@torch.library.custom_op("aiayn_bench::fbgemm_linear", mutates_args=())
def fbgemm_linear(x: torch.Tensor, key: int, n: int) -> torch.Tensor:
    return torch.ops.quantized.linear_dynamic(x.float(), PACKED[key], True).to(x.dtype)


@fbgemm_linear.register_fake
def _(x, key, n):
    return x.new_empty(*x.shape[:-1], n)


def us(f, n: int) -> float:
    return round(us_per_call(f, n), 1)


def layers(k: int, n: int):
    linear = torch.nn.Linear(k, n)
    dynamic = torch.ao.quantization.quantize_dynamic(torch.nn.Sequential(linear), {torch.nn.Linear}, dtype=torch.qint8)[0]
    w = linear.weight.detach()
    scale = w.abs().amax(1) / 127
    return linear, dynamic, (w / scale[:, None]).round().to(torch.int8), scale.bfloat16()


def eager(k: int, n: int, rows: int) -> dict:
    linear, dynamic, q, scale = layers(k, n)
    packed = torch.ops.mkldnn._reorder_linear_weight(linear.weight.detach().bfloat16(), None)
    bias, x = linear.bias.detach().bfloat16(), torch.randn(rows, k).bfloat16()
    calls = 300 if rows <= 4 else 30
    return {"k": k, "n": n, "rows": rows,
            "fbgemm": us(lambda: dynamic(x.float()).bfloat16(), calls),
            "int8_weights": us(lambda: torch.ops.aten._weight_int8pack_mm(x, q, scale) + bias, calls),
            "bf16_packed": us(lambda: torch.ops.mkldnn._linear_pointwise(x, packed, bias, "none", [], ""), calls)}


class Tail(torch.nn.Module):
    def __init__(self, way: str, k: int = 256, n: int = 8000):
        super().__init__()
        linear, dynamic, q, scale = layers(k, n)
        self.way, self.n, self.key = way, n, len(PACKED)
        PACKED[self.key] = dynamic._packed_params._packed_params
        self.q, self.scale, self.bias = q, scale, linear.bias.detach().bfloat16()
        self.w = linear.weight.detach().bfloat16()

    def forward(self, x):
        if self.way == "fbgemm":
            y = fbgemm_linear(x, self.key, self.n)
        elif self.way == "int8_weights":
            y = torch.ops.aten._weight_int8pack_mm(x, self.q, self.scale) + self.bias
        else:
            y = F.linear(x, self.w, self.bias)
        return y.float().log_softmax(-1).view(-1).topk(4)[1]


def compiled(rows: int) -> dict:
    x = torch.randn(rows, 256).bfloat16()
    from torch._inductor import aoti_compile_and_package, aoti_load_package

    sides = {}
    for way in ("fbgemm", "int8_weights", "bf16"):
        program = torch.export.export(Tail(way), (x,), strict=False)
        path = f"{tempfile.mkdtemp()}/tail.pt2"
        sides[f"{way}_compiled"] = aoti_load_package(aoti_compile_and_package(program, package_path=path,
                                                                             inductor_configs=INDUCTOR_CPU))
    sides["fbgemm_eager"] = Tail("fbgemm")
    times = {k: [] for k in sides}
    for f in sides.values():
        for _ in range(50):
            f(x)
    for _ in range(9):
        for name, f in sides.items():
            start = time.perf_counter()
            for _ in range(200):
                f(x)
            times[name].append((time.perf_counter() - start) / 200 * 1e6)
    return {"rows": rows, **{k: round(statistics.median(v), 1) for k, v in times.items()}}


out = {**provenance(None), "eager": [], "per_step": {}, "compiled": []}
for rows in (1, 4, 64, 256):
    for (k, n), count in SHAPES.items():
        out["eager"].append(row := eager(k, n, rows))
        print(row, file=sys.stderr, flush=True)
        for way in ("fbgemm", "int8_weights", "bf16_packed"):
            step = out["per_step"].setdefault(str(rows), {})
            step[way] = round(step.get(way, 0) + count * row[way], 1)
for rows in (1, 4):
    out["compiled"].append(row := compiled(rows))
    print(row, file=sys.stderr, flush=True)
print(json.dumps(out, indent=1))
