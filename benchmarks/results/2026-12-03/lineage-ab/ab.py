"""Beam search's caches followed through their lineage in the compiled step (issue 42), in one process: ``before`` is
the bf16 compiled decoder with ``compiled.LINEAGE = False`` (every step's reordering copies each beam's keys and values
into its row), ``after`` the same with ``LINEAGE = True`` (the step reads each beam's past in its ancestors' rows).
Two models with the same random weights (benchmarks.decode_throughput's tiny model, bf16, compiled), each compiled in
an untimed first pass; CTranslate2 int8 beside them; beam 4, 64 sentences a batch and one at a time; one thread; 5
rounds interleaved. Checks that both sides give the same tokens. From the repository root:
    python benchmarks/results/2026-12-03/lineage-ab/ab.py > benchmarks/results/2026-12-03/lineage-ab/ab.json
"""
import json
import sys
import time

import torch

sys.path.insert(0, ".")
from aiayn.model import compiled  # noqa: E402
from benchmarks.common import interleave, median, median_ratio, provenance  # noqa: E402
from benchmarks.decode_throughput import N_SENTENCES, OUT_LEN, aiayn_search, make_decoder, prepare  # noqa: E402


def side(after: bool, search):
    def run():
        compiled.LINEAGE = after  # read when a family compiles and at every step
        return search()
    return run


torch.set_num_threads(1)
prepare("tiny")
out = {**provenance(None), "repeats": 5, "runs": {}}
for batch in (N_SENTENCES, 1):
    family = f"batch{batch}_beam4"
    sides = {name: side(name == "after", aiayn_search("tiny", 4, "aiayn_bf16_compiled", batch=batch)[1])
             for name in ("before", "after")}
    start = time.perf_counter()
    first = {name: f() for name, f in sides.items()}  # the first compiles each side's family (untimed)
    out.setdefault("first_pass_seconds", {})[family] = round(time.perf_counter() - start, 1)
    times = interleave({**sides, "ct2_int8": make_decoder("ct2_int8", "tiny", 4, 1, batch=batch)}, 5, 0)
    row = out["runs"][family] = {
        k: {"seconds": v, "median_tokens_per_s": median([N_SENTENCES * OUT_LEN / t for t in v])} for k, v in times.items()}
    row["after_equals_before"] = first["after"] == first["before"]
    # speeds as paired ratios of times: > 1 means the first named is faster
    row["after_over_before"] = median_ratio(times["before"], times["after"])
    row["after_over_ct2_int8"] = median_ratio(times["ct2_int8"], times["after"])
    row["before_over_ct2_int8"] = median_ratio(times["ct2_int8"], times["before"])
    print(family, {k: round(v["median_tokens_per_s"]) for k, v in row.items() if isinstance(v, dict)},
          row["after_over_before"], row["after_equals_before"], file=sys.stderr, flush=True)
print(json.dumps(out, indent=2))
