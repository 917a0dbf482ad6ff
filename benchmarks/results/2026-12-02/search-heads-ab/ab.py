"""The searches' decisions made in the compiled step's graph, and the layers' caches reordered as one gather (issue 42),
in one process: ``after`` is the package as it is (``TopCandidates`` / ``Greedy`` heads, ``LayerCaches``); ``before``
the same package with ``CompiledDecodeStep.with_head`` answering None (each step returns its log-probabilities and
the search constrains and ranks them in Python, as before) and the model's caches built one per layer (reordered
one layer at a time, as before). Both drive the SAME model (benchmarks.decode_throughput's random tiny model in
bf16 with its step compiled; each side's families compiled in an untimed first pass), one sentence at a time and
64 a batch, greedy and beam 4, one thread; CTranslate2 int8 beside them; 5 rounds interleaved. Checks that both
sides give the same tokens. From the repository root:
    python benchmarks/results/2026-12-02/search-heads-ab/ab.py > benchmarks/results/2026-12-02/search-heads-ab/ab.json
"""
import json
import sys
import time

import torch

sys.path.insert(0, ".")
from aiayn.model import transformer  # noqa: E402
from aiayn.model.cache import KVCache, LayerCaches  # noqa: E402
from aiayn.model.compiled import CompiledDecodeStep  # noqa: E402
from benchmarks.common import interleave, median, median_ratio, provenance  # noqa: E402
from benchmarks.decode_throughput import N_SENTENCES, OUT_LEN, aiayn_search, make_decoder, prepare  # noqa: E402

WITH_HEAD = CompiledDecodeStep.with_head


def one_per_layer(n_layers, *args):
    return [KVCache(*args) for _ in range(n_layers)]


def side(after: bool, search):
    def run():
        CompiledDecodeStep.with_head = WITH_HEAD if after else (lambda *args: None)
        transformer.LayerCaches = LayerCaches if after else one_per_layer
        return search()
    return run


torch.set_num_threads(1)
prepare("tiny")
out = {**provenance(None), "repeats": 5, "runs": {}}
for batch in (1, N_SENTENCES):
    for beam in (1, 4):
        family = f"batch{batch}_beam{beam}"
        _, search = aiayn_search("tiny", beam, "aiayn_bf16_compiled", batch=batch)
        sides = {"bf16_before": side(False, search), "bf16_after": side(True, search)}
        start = time.perf_counter()
        first = {name: f() for name, f in sides.items()}  # the first compiles each side's family (untimed)
        out.setdefault("first_pass_seconds", {})[family] = round(time.perf_counter() - start, 1)
        times = interleave({**sides, "ct2_int8": make_decoder("ct2_int8", "tiny", beam, 1, batch=batch)}, 5, 0)
        row = out["runs"][family] = {
            k: {"seconds": v, "median_tokens_per_s": median([N_SENTENCES * OUT_LEN / t for t in v])} for k, v in times.items()}
        row["bf16_after_equals_before"] = first["bf16_after"] == first["bf16_before"]
        # speeds as paired ratios of times: > 1 means the first named is faster
        row["bf16_after_over_before"] = median_ratio(times["bf16_before"], times["bf16_after"])
        row["bf16_after_over_ct2_int8"] = median_ratio(times["ct2_int8"], times["bf16_after"])
        row["bf16_before_over_ct2_int8"] = median_ratio(times["ct2_int8"], times["bf16_before"])
        print(family, {k: round(v["median_tokens_per_s"]) for k, v in row.items() if isinstance(v, dict)},
              row["bf16_after_over_before"], row["bf16_after_equals_before"], file=sys.stderr, flush=True)
print(json.dumps(out, indent=2))
