import json, sys, time
import torch
sys.path.insert(0, ".")
from aiayn.model import compiled
from benchmarks.common import interleave, median, median_ratio, provenance
from benchmarks.decode_throughput import N_SENTENCES, OUT_LEN, aiayn_search, make_decoder, prepare

FLAG = sys.argv[3]
def side(after, search):
    def run():
        setattr(compiled, FLAG, after)
        return search()
    return run
torch.set_num_threads(1)
prepare("tiny")
out = {**provenance(None), "repeats": 5, "runs": {}}
for batch in [int(b) for b in sys.argv[2].split(",")]:
  for beamk in [int(b) for b in sys.argv[4].split(",")]:
    family = f"batch{batch}_beam{beamk}"
    sides = {name: side(name == "after", aiayn_search("tiny", beamk, "aiayn_bf16_compiled", batch=batch)[1]) for name in ("before", "after")}
    start = time.perf_counter()
    first = {name: f() for name, f in sides.items()}
    out.setdefault("first_pass_seconds", {})[family] = round(time.perf_counter() - start, 1)
    times = interleave({**sides, "ct2_int8": make_decoder("ct2_int8", "tiny", beamk, 1, batch=batch)}, int(sys.argv[1]), 0)
    row = out["runs"][family] = {k: {"seconds": v, "median_tokens_per_s": median([N_SENTENCES * OUT_LEN / t for t in v])} for k, v in times.items()}
    row["after_equals_before"] = first["after"] == first["before"]
    row["after_over_before"] = median_ratio(times["before"], times["after"])
    row["after_over_ct2_int8"] = median_ratio(times["ct2_int8"], times["after"])
    row["before_over_ct2_int8"] = median_ratio(times["ct2_int8"], times["before"])
    print(family, {k: round(v["median_tokens_per_s"]) for k, v in row.items() if isinstance(v, dict)}, row["after_over_before"], row["after_over_ct2_int8"], row["after_equals_before"], file=sys.stderr, flush=True)
print(json.dumps(out, indent=2))
