"""One product of tiny's decoder for M rows (issue 42), compiled alone as the step compiles: see shapes.txt."""
import sys
import tempfile
import time
import warnings

import torch
from torch._inductor import aoti_compile_and_package, aoti_load_package

sys.path.insert(0, "src")
from aiayn.model.compiled import INDUCTOR_CPU  # noqa: E402

torch.set_num_threads(1)
torch.manual_seed(0)
ATEN = {**INDUCTOR_CPU, "max_autotune_gemm_backends": "ATEN"}
def timed(f, n=300):
    for _ in range(20): f()
    runs = []
    for _ in range(7):
        s = time.perf_counter()
        for _ in range(n): f()
        runs.append((time.perf_counter() - s) / n * 1e6)
    return sorted(runs)[3]
class Lin(torch.nn.Module):
    def __init__(self, w, dt):
        super().__init__(); self.w = torch.nn.Parameter(w.to(dt), requires_grad=False)
    def forward(self, x): return torch.nn.functional.linear(x, self.w).relu()
class Int8(torch.nn.Module):
    def __init__(self, w):
        super().__init__(); scale = w.abs().amax(1) / 127
        self.register_buffer("w", (w / scale[:, None]).round().to(torch.int8)); self.register_buffer("scale", scale.bfloat16())
    def forward(self, x): return torch.ops.aten._weight_int8pack_mm(x, self.w, self.scale).relu()
folder = tempfile.mkdtemp()
m = int(sys.argv[1]) if len(sys.argv) > 1 else 4
for k, n in ((256, 1024), (1024, 256), (256, 768), (256, 256), (256, 8000)):
    w = torch.randn(n, k) / 16
    row = {}
    for name, mod, dt, opts in (("fp32", Lin(w, torch.float32), torch.float32, INDUCTOR_CPU),
                                ("bf16", Lin(w, torch.bfloat16), torch.bfloat16, INDUCTOR_CPU),
                                ("bf16_aten", Lin(w, torch.bfloat16), torch.bfloat16, ATEN),
                                ("int8w", Int8(w), torch.bfloat16, INDUCTOR_CPU),
                                ("int8w_aten", Int8(w), torch.bfloat16, ATEN)):
        x = torch.randn(m, k).to(dt)
        with torch.no_grad(), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            prog = torch.export.export(mod.eval(), (x,), strict=False)
            path = aoti_compile_and_package(prog, package_path=f"{folder}/{name}{k}{n}.pt2", inductor_configs=opts)
        r = aoti_load_package(path).loader
        row[name] = round(timed(lambda r=r, x=x: r.run([x])), 1)
    print(m, k, n, row, flush=True)
