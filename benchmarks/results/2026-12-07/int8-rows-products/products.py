"""Each of tiny's decoder product shapes as ``Int8Linear`` runs it inside a compiled step (issue 42), compiled ahead
of time alone (AOTInductor, ``compiled.INDUCTOR_CPU``) three ways: ``rows_too`` (``precision.INT8_ACTIVATIONS``:
each row quantised to int8, Inductor's int8 x int8 kernel), ``int8_weights`` (int8 weights, bf16 rows) and ``bf16``
(the layer's bf16 copy); at 1 and 4 rows fixed in the graph (one sentence, greedy and beam 4) and at 64 rows that
vary (64 sentences a batch, greedy: there the int8 weights are not used, and ``int8_weights`` is left out). Microseconds a call (each call the library's own overhead included), median of
9 interleaved rounds; ``per_step`` sums them over tiny's 19 products a step. One thread. From the repository root:
    python benchmarks/results/2026-12-07/int8-rows-products/products.py > benchmarks/results/2026-12-07/int8-rows-products/products.json
"""
import json
import statistics
import sys
import tempfile
import time
import warnings

import torch

sys.path.insert(0, ".")
from aiayn import precision  # noqa: E402
from aiayn.model.compiled import INDUCTOR_CPU  # noqa: E402
from aiayn.precision import Int8Linear  # noqa: E402
from benchmarks.common import provenance  # noqa: E402

torch.set_num_threads(1)
warnings.filterwarnings("ignore")
SHAPES = {(256, 768): 3, (256, 256): 9, (256, 1024): 3, (1024, 256): 3, (256, 8000): 1}  # (in, out): products a step
# INT8_ACTIVATIONS, INT8_ROWS: int8 rows; as shipped before this CPU's rule (int8 weights for up to 8 fixed rows); bf16
WAYS = {"rows_too": (True, 8), "int8_weights": (False, 8), "bf16": (False, 0)}


def compiled(layer: Int8Linear, x: torch.Tensor, way: str, varying: bool):
    from torch._inductor import aoti_compile_and_package, aoti_load_package

    precision.INT8_ACTIVATIONS, precision.INT8_ROWS = WAYS[way]
    shapes = ({0: torch.export.Dim("rows", min=2)},) if varying else None
    with torch.no_grad():  # as compile_decoding exports: Inductor's int8 passes run on inference graphs only
        program = torch.export.export(layer, (x,), dynamic_shapes=shapes, strict=False)
        return aoti_load_package(aoti_compile_and_package(program, package_path=f"{tempfile.mkdtemp()}/p.pt2",
                                                          inductor_configs=INDUCTOR_CPU))


def shape(k: int, n: int, rows: int) -> dict:
    torch.manual_seed(0)
    w = torch.randn(n, k) / k ** 0.5
    scale = w.abs().amax(1) / 127
    layer = Int8Linear((w / scale[:, None]).round(), scale, torch.randn(n) / 10).eval()
    x = torch.randn(rows, 1, k).bfloat16()
    sides = {way: compiled(layer, x, way, rows > 4) for way in WAYS if rows <= 4 or way != "int8_weights"}
    exact = x.double().reshape(rows, k) @ w.double().T + layer.rows.bias.double()
    error = {way: round(float((f(x).double().reshape(rows, n) - exact).abs().max() / exact.abs().max()), 4)
             for way, f in sides.items()}
    calls, times = (300 if rows <= 4 else 30), {way: [] for way in sides}
    for f in sides.values():
        for _ in range(20):
            f(x)
    for _ in range(9):
        for way, f in sides.items():
            start = time.perf_counter()
            for _ in range(calls):
                f(x)
            times[way].append((time.perf_counter() - start) / calls * 1e6)
    return {"k": k, "n": n, "rows": rows, **{w: round(statistics.median(t), 1) for w, t in times.items()},
            "largest_error_over_largest_output": error}


out = {**provenance(None), "products": [], "per_step": {}}
for rows in (1, 4, 64):
    for (k, n), count in SHAPES.items():
        out["products"].append(row := shape(k, n, rows))
        print(row, file=sys.stderr, flush=True)
        step = out["per_step"].setdefault(str(rows), {})
        for way in (w for w in WAYS if w in row):
            step[way] = round(step.get(way, 0) + count * row[way], 1)
print(json.dumps(out, indent=1))
