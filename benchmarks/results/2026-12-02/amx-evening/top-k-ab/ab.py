"""Beam search's top 2K through the blocks' maxima in the compiled step (issue 42), in one process: ``before`` is the
bf16 compiled decoder with ``TopCandidates`` taking PyTorch's topk over all K x V candidates, ``after`` the same with
``beam.top_k`` (a top-k over the maxima of 64-value blocks, then one over the k blocks chosen). Two models with the same
random weights (benchmarks.decode_throughput's tiny model, bf16, compiled), each compiled with its top-k in an untimed
first pass; CTranslate2 int8 beside them; beam 4, one sentence at a time and 64 a batch; one thread; 5 rounds
interleaved. Checks that both sides give the same tokens. From the repository root:
    python benchmarks/results/2026-12-02/amx-evening/top-k-ab/ab.py > benchmarks/results/2026-12-02/amx-evening/top-k-ab/ab.json
"""
import json
import sys
import time

import torch

sys.path.insert(0, ".")
from aiayn.decoding import beam  # noqa: E402
from benchmarks.common import interleave, median, median_ratio, provenance  # noqa: E402
from benchmarks.decode_throughput import N_SENTENCES, OUT_LEN, aiayn_search, make_decoder, prepare  # noqa: E402

BLOCKWISE = beam.top_k


def side(after: bool, search):
    def run():
        beam.top_k = BLOCKWISE if after else (lambda x, k: x.topk(k, dim=1))  # read when a family compiles
        return search()
    return run


torch.set_num_threads(1)
prepare("tiny")
out = {**provenance(None), "repeats": 5, "runs": {}}
for batch in (1, N_SENTENCES):
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
