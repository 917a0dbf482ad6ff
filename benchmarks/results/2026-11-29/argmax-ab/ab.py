"""Greedy search's argmax before and after it moved to numpy's (issue 42), in one process, on the same compiled
model: ``before`` picks each row's next token with ``Tensor.argmax`` (as at d179fde), ``after`` with
``decoding.common.argmax``. benchmarks.decode_throughput's random tiny model in bf16 with ``--compile`` and in
float32, its 64 sentences (50 forced tokens), one sentence at a time and 64 a batch, greedy, one thread;
CTranslate2 int8 beside them. The first call of each model (it compiles) is untimed; then 5 rounds interleaved.
From the repository root:
    TORCHINDUCTOR_FORCE_DISABLE_CACHES=1 python benchmarks/results/2026-11-29/argmax-ab/ab.py > benchmarks/results/2026-11-29/argmax-ab/ab.json
"""
import json
import sys

import torch

sys.path.insert(0, ".")
from aiayn.decoding import greedy  # noqa: E402
from benchmarks.common import interleave, median, median_ratio, provenance  # noqa: E402
from benchmarks.decode_throughput import N_SENTENCES, OUT_LEN, aiayn_search, make_decoder, prepare  # noqa: E402


def before(search):
    """``search`` with greedy's chooser set back to ``Tensor.argmax`` for the call."""
    def run():
        greedy.argmax, kept = (lambda log_probs: log_probs.argmax(dim=-1)), greedy.argmax
        try:
            return search()
        finally:
            greedy.argmax = kept
    return run


torch.set_num_threads(1)
prepare("tiny")
out = {**provenance(None), "repeats": 5, "runs": {}}
for batch in (1, N_SENTENCES):
    searches, first = {}, {}
    for system in ("aiayn", "aiayn_bf16_compiled"):
        search = aiayn_search("tiny", 1, system, batch=batch)[1]
        first[f"{system}_after"] = search()  # compiles (untimed)
        first[f"{system}_before"] = before(search)()
        searches.update({f"{system}_before": before(search), f"{system}_after": search})
    times = interleave({**searches, "ct2_int8": make_decoder("ct2_int8", "tiny", 1, 1, batch=batch)}, 5, 0)
    row = out["runs"][f"batch{batch}_greedy"] = {
        k: {"seconds": v, "median_tokens_per_s": median([N_SENTENCES * OUT_LEN / t for t in v])} for k, v in times.items()}
    for system in ("aiayn", "aiayn_bf16_compiled"):  # > 1: the first named is faster (paired ratios of times)
        row[f"{system}_after_equals_before"] = first[f"{system}_after"] == first[f"{system}_before"]
        row[f"{system}_after_over_before"] = median_ratio(times[f"{system}_before"], times[f"{system}_after"])
        row[f"{system}_after_over_ct2_int8"] = median_ratio(times["ct2_int8"], times[f"{system}_after"])
    print(batch, {k: round(v["median_tokens_per_s"]) for k, v in row.items() if isinstance(v, dict)},
          {k: v for k, v in row.items() if not isinstance(v, dict)}, file=sys.stderr, flush=True)
print(json.dumps(out, indent=2))
