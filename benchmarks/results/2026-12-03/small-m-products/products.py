"""The output projection of tiny's decoder (M x 256 x 8,000) for the few rows of one sentence (issue 42): µs a call,
one thread, of the kernels PyTorch offers on the CPU: bf16 and int8 weights (``_weight_int8pack_mm``) compiled ahead of
time as the compiled step compiles (AOTInductor with ``compiled.INDUCTOR_CPU``, a log-softmax after), and the dynamically
quantised int8 linear layer (activations quantised per call) of fbgemm and oneDNN, eager. A lead, not a shipped path.
From the repository root:
    python benchmarks/results/2026-12-03/small-m-products/products.py > benchmarks/results/2026-12-03/small-m-products/products.json
"""
import json
import sys
import tempfile
import time
import warnings

import torch
from torch._inductor import aoti_compile_and_package, aoti_load_package

sys.path.insert(0, ".")
from aiayn.model.compiled import INDUCTOR_CPU  # noqa: E402
from benchmarks.common import provenance  # noqa: E402

K, N = 256, 8000


def timed(f, n=300) -> float:
    for _ in range(20):
        f()
    runs = []
    for _ in range(7):
        start = time.perf_counter()
        for _ in range(n):
            f()
        runs.append((time.perf_counter() - start) / n * 1e6)
    return sorted(runs)[3]


class Bf16(torch.nn.Module):
    def __init__(self, w):
        super().__init__()
        self.w = torch.nn.Parameter(w.bfloat16(), requires_grad=False)

    def forward(self, x):
        return torch.nn.functional.linear(x, self.w).float().log_softmax(-1)


class Int8(torch.nn.Module):
    def __init__(self, w):
        super().__init__()
        scale = w.abs().amax(1) / 127
        self.register_buffer("w", (w / scale[:, None]).round().to(torch.int8))
        self.register_buffer("scale", scale.bfloat16())

    def forward(self, x):
        return torch.ops.aten._weight_int8pack_mm(x, self.w, self.scale).float().log_softmax(-1)


torch.set_num_threads(1)
torch.manual_seed(0)
w = torch.randn(N, K) / 16
folder = tempfile.mkdtemp()
out = {**provenance(None), "shape": f"M x {K} x {N}", "unit": "us per call, median of 7", "rows": {}}
for m in (1, 4, 16):
    x, row = torch.randn(m, K).bfloat16(), {}
    for name, module in (("bf16_aoti", Bf16(w)), ("int8_weights_aoti", Int8(w))):
        with torch.no_grad(), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            program = torch.export.export(module.eval(), (x,), strict=False)
            path = aoti_compile_and_package(program, package_path=f"{folder}/{name}{m}.pt2", inductor_configs=INDUCTOR_CPU)
        runner = aoti_load_package(path).loader
        row[name] = timed(lambda runner=runner, x=x: runner.run([x]))
    for engine in ("fbgemm", "onednn"):
        torch.backends.quantized.engine = engine
        linear = torch.nn.Linear(K, N, bias=False)
        with torch.no_grad(), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            linear.weight.copy_(w)
            q = torch.ao.quantization.quantize_dynamic(torch.nn.Sequential(linear), {torch.nn.Linear}, dtype=torch.qint8)
            xf = x.float()
            row[f"int8_dynamic_{engine}_eager"] = timed(lambda q=q, xf=xf: q(xf))
    out["rows"][str(m)] = row
    print(m, {k: round(v, 1) for k, v in row.items()}, file=sys.stderr, flush=True)
print(json.dumps(out, indent=2))
