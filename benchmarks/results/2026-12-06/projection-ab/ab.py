"""The int8 compiled decoder's output projection one sentence at a time (issue 42), in one process: ``int8_all`` is
``--dtype int8 --compile`` as shipped on this CPU (no AMX: beam 4's four rows multiply the int8 weights,
``precision.int8_rows()`` 8), ``proj_bf16`` the same but for the output projection (256 x 8,000, the widest product),
which multiplies its bf16 copy, packed, for more than one row; eager, that product is 2.2x faster in bf16 at four
rows (146 against 326 us). Two models with the same random weights (decode_throughput's tiny), each compiled in an
untimed first pass; bf16 compiled and CTranslate2 int8 beside them; beam 4 then greedy (the control: one row, the
same kernels either way); one thread; 7 rounds interleaved. From the repository root:
    python benchmarks/results/2026-12-06/projection-ab/ab.py > benchmarks/results/2026-12-06/projection-ab/ab.json
"""
import json
import sys

import torch

sys.path.insert(0, ".")
from aiayn.precision import Int8Linear  # noqa: E402
from benchmarks.common import interleave, median, median_ratio, provenance  # noqa: E402
from benchmarks.decode_throughput import N_SENTENCES, OUT_LEN, aiayn_search, make_decoder, prepare  # noqa: E402


def projection_on_bf16(model) -> list[int]:
    """Makes the widest Int8Linear of ``model`` take the int8 weights for one row only; returns its weight's shape."""
    proj = max((m for m in model.modules() if isinstance(m, Int8Linear)), key=lambda m: m.weight_int8.size(0))

    def forward(x, self=proj):
        rows = x.numel() // x.size(-1)
        if torch.compiler.is_compiling() and x.dtype == torch.bfloat16 and isinstance(rows, int) and rows == 1:
            y = torch.ops.aten._weight_int8pack_mm(x.reshape(rows, -1), self.weight_int8, self.scale)
            y = y.reshape(*x.shape[:-1], -1)
            return y if self.rows.bias is None else y + self.rows.bias
        return self.rows(x)

    proj.forward = forward  # an instance attribute: torch.export traces it
    return list(proj.weight_int8.shape)


torch.set_num_threads(1)
prepare("tiny")
out = {**provenance(None), "repeats": 7, "runs": {}}
for beam in (4, 1):
    family = f"batch1_beam{beam}"
    changed, b = aiayn_search("tiny", beam, "aiayn_int8_compiled", batch=1)
    out["projection_shape"] = projection_on_bf16(changed)
    sides = {"int8_all": aiayn_search("tiny", beam, "aiayn_int8_compiled", batch=1)[1], "proj_bf16": b,
             "bf16": aiayn_search("tiny", beam, "aiayn_bf16_compiled", batch=1)[1]}
    first = {k: f() for k, f in sides.items()}  # compiles each side's family (untimed)
    times = interleave({**sides, "ct2_int8": make_decoder("ct2_int8", "tiny", beam, 1, batch=1)}, 7, 0)
    row = out["runs"][family] = {
        k: {"seconds": v, "median_tokens_per_s": median([N_SENTENCES * OUT_LEN / t for t in v])} for k, v in times.items()}
    row["outputs_proj_bf16_differing_from_int8_all"] = sum(x != y for x, y in zip(first["int8_all"], first["proj_bf16"]))
    # paired ratios of times: > 1 means the first named is faster
    row["proj_bf16_over_int8_all"] = median_ratio(times["int8_all"], times["proj_bf16"])
    for k in ("int8_all", "proj_bf16", "bf16"):
        row[f"{k}_over_ct2_int8"] = median_ratio(times["ct2_int8"], times[k])
    print(family, {k: round(v["median_tokens_per_s"]) for k, v in row.items() if isinstance(v, dict)},
          row["proj_bf16_over_int8_all"], file=sys.stderr, flush=True)
print(json.dumps(out, indent=2))
