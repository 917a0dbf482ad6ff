"""bf16 decoding one sentence at a time, with and without the fused attention kernel for small inference calls
(aiayn.model.attention.core.CPU_BF16_FUSED_WORK 1024 against 0, the spelled-out form as before d687e45), in one
process, the two sides interleaved call by call; then CTranslate2 int8 beside them. Run from the repository root:
    python benchmarks/results/2026-11-28/fused-small-ab/ab.py > benchmarks/results/2026-11-28/fused-small-ab/ab.json
"""
import json
import sys

import torch

sys.path.insert(0, ".")
import aiayn.model.attention.core as core  # noqa: E402
from benchmarks.common import interleave, median, median_ratio, provenance  # noqa: E402
from benchmarks.decode_throughput import N_SENTENCES, OUT_LEN, make_decoder, prepare  # noqa: E402

torch.set_num_threads(1)
prepare("tiny")
out = {**provenance(None), "batch": 1, "repeats": 5, "runs": {}}
for beam in (1, 4):
    bf16 = make_decoder("aiayn_bf16", "tiny", beam, 1, batch=1)
    ct2 = make_decoder("ct2_int8", "tiny", beam, 1, batch=1)

    def side(work, decode=bf16):
        def call():
            core.CPU_BF16_FUSED_WORK = work
            return decode()
        return call

    times = interleave({"spelled_out": side(0), "fused_small": side(1024), "ct2_int8": ct2}, 5, 1)
    row = out["runs"][f"beam{beam}"] = {k: {"seconds": v, "median_tokens_per_s": median([N_SENTENCES * OUT_LEN / t for t in v])}
                                        for k, v in times.items()}
    # speeds as paired ratios of times: > 1 means the first named is faster
    row["fused_small_over_spelled_out"] = median_ratio(times["spelled_out"], times["fused_small"])
    row["fused_small_over_ct2_int8"] = median_ratio(times["ct2_int8"], times["fused_small"])
    row["spelled_out_over_ct2_int8"] = median_ratio(times["ct2_int8"], times["spelled_out"])
print(json.dumps(out, indent=2))
