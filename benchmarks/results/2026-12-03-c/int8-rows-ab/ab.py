"""int8 weights for the compiled step's products of a few rows (issue 42), in one process: ``rows1`` is the int8
compiled decoder as it was (only products of one row multiply the int8 weights; beam 4's four rows take the bf16
copy), ``rows8`` the same with ``precision.INT8_ROWS = 8`` (one sentence at beam 4: its four rows too). Two models
with the same random weights (benchmarks.decode_throughput's tiny model, int8 then compiled), each compiled with its
setting in an untimed first pass; bf16 compiled and CTranslate2 int8 beside them; one sentence at a time, greedy (a
control: one row either way) and beam 4; one thread; 5 rounds interleaved. From the repository root:
    python benchmarks/results/2026-12-03-c/int8-rows-ab/ab.py > benchmarks/results/2026-12-03-c/int8-rows-ab/ab.json
"""
import json
import sys
import time

import torch

sys.path.insert(0, ".")
from aiayn import precision  # noqa: E402
from benchmarks.common import interleave, median, median_ratio, provenance  # noqa: E402
from benchmarks.decode_throughput import N_SENTENCES, OUT_LEN, aiayn_search, make_decoder, prepare  # noqa: E402


def with_rows(rows: int, search):
    def run():
        precision.INT8_ROWS = rows  # read when a family compiles (the first pass), so each side keeps its own
        return search()
    return run


torch.set_num_threads(1)
prepare("tiny")
out = {**provenance(None), "repeats": 5, "runs": {}}
for beam in (1, 4):
    family = f"batch1_beam{beam}"
    sides = {f"int8_rows{r}": with_rows(r, aiayn_search("tiny", beam, "aiayn_int8_compiled", batch=1)[1]) for r in (1, 8)}
    sides["bf16"] = aiayn_search("tiny", beam, "aiayn_bf16_compiled", batch=1)[1]
    start = time.perf_counter()
    first = {name: f() for name, f in sides.items()}  # the first compiles each side's family (untimed)
    out.setdefault("first_pass_seconds", {})[family] = round(time.perf_counter() - start, 1)
    times = interleave({**sides, "ct2_int8": make_decoder("ct2_int8", "tiny", beam, 1, batch=1)}, 5, 0)
    row = out["runs"][family] = {
        k: {"seconds": v, "median_tokens_per_s": median([N_SENTENCES * OUT_LEN / t for t in v])} for k, v in times.items()}
    row["outputs_rows8_differing_from_rows1"] = sum(a != b for a, b in zip(first["int8_rows8"], first["int8_rows1"]))
    # speeds as paired ratios of times: > 1 means the first named is faster
    row["rows8_over_rows1"] = median_ratio(times["int8_rows1"], times["int8_rows8"])
    for k in ("int8_rows1", "int8_rows8", "bf16"):
        row[f"{k}_over_ct2_int8"] = median_ratio(times["ct2_int8"], times[k])
    print(family, {k: round(v["median_tokens_per_s"]) for k, v in row.items() if isinstance(v, dict)},
          row["rows8_over_rows1"], file=sys.stderr, flush=True)
print(json.dumps(out, indent=2))
