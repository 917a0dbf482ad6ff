"""A flag of ``aiayn.model.compiled`` off (``before``) and on (``after``) in one process (issue 42): two bf16 compiled
decoders with the same random weights (benchmarks.decode_throughput's tiny model), each compiled in an untimed first
pass, CTranslate2 int8 beside them, one thread, rounds interleaved; checks that both sides give the same tokens.
Arguments: rounds, batch sizes, the flag's name, beam sizes. ``ab.json`` came from ``3 64 PREFIX 1,4`` while the flag
``PREFIX`` existed (a2406bf with the change uncommitted; committed without the flag as 05ac950), from the repository root:
    python benchmarks/results/2026-12-03/prefix-ab/ab.py 3 64 PREFIX 1,4 > benchmarks/results/2026-12-03/prefix-ab/ab.json
"""
import json
import sys
import time

import torch

sys.path.insert(0, ".")
from aiayn.model import compiled  # noqa: E402
from benchmarks.common import interleave, median, median_ratio, provenance  # noqa: E402
from benchmarks.decode_throughput import N_SENTENCES, OUT_LEN, aiayn_search, make_decoder, prepare  # noqa: E402

ROUNDS, BATCHES, FLAG, BEAMS = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]


def side(after: bool, search):
    def run():
        setattr(compiled, FLAG, after)  # read when a family compiles
        return search()
    return run


torch.set_num_threads(1)
prepare("tiny")
out = {**provenance(None), "repeats": ROUNDS, "runs": {}}
for batch in [int(b) for b in BATCHES.split(",")]:
    for beam in [int(b) for b in BEAMS.split(",")]:
        family = f"batch{batch}_beam{beam}"
        sides = {name: side(name == "after", aiayn_search("tiny", beam, "aiayn_bf16_compiled", batch=batch)[1])
                 for name in ("before", "after")}
        start = time.perf_counter()
        first = {name: f() for name, f in sides.items()}  # the first compiles each side's family (untimed)
        out.setdefault("first_pass_seconds", {})[family] = round(time.perf_counter() - start, 1)
        times = interleave({**sides, "ct2_int8": make_decoder("ct2_int8", "tiny", beam, 1, batch=batch)}, ROUNDS, 0)
        row = out["runs"][family] = {k: {"seconds": v, "median_tokens_per_s": median([N_SENTENCES * OUT_LEN / t for t in v])}
                                     for k, v in times.items()}
        row["after_equals_before"] = first["after"] == first["before"]
        # speeds as paired ratios of times: > 1 means the first named is faster
        row["after_over_before"] = median_ratio(times["before"], times["after"])
        row["after_over_ct2_int8"] = median_ratio(times["ct2_int8"], times["after"])
        row["before_over_ct2_int8"] = median_ratio(times["ct2_int8"], times["before"])
        print(family, {k: round(v["median_tokens_per_s"]) for k, v in row.items() if isinstance(v, dict)},
              row["after_over_before"], row["after_equals_before"], file=sys.stderr, flush=True)
print(json.dumps(out, indent=2))
