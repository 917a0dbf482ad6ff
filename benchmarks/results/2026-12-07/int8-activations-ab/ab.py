"""int8 rows for the compiled int8 decoder (issue 42), in one process: ``rows_too`` quantises every product's rows
to int8 (each row by its own largest magnitude, CTranslate2's scheme), which Inductor turns into its int8 x int8
kernels (VNNI); ``weights`` is ``--dtype int8 --compile`` as it was (int8 weights with bf16 rows for up to
``precision.int8_rows()`` fixed rows, the bf16 copy, packed, for more). Two models with the same random weights
(decode_throughput's tiny), each family compiled in an untimed first pass; bf16 compiled and CTranslate2 int8 beside
them; one sentence at a time and 64 a batch, beam 4 and greedy; one thread; 7 rounds interleaved. From the
repository root:
    python benchmarks/results/2026-12-07/int8-activations-ab/ab.py > benchmarks/results/2026-12-07/int8-activations-ab/ab.json
"""
import json
import sys

import torch

sys.path.insert(0, ".")
from aiayn import precision  # noqa: E402
from benchmarks.common import interleave, median, median_ratio, provenance  # noqa: E402
from benchmarks.decode_throughput import N_SENTENCES, OUT_LEN, aiayn_search, make_decoder, prepare  # noqa: E402


def flagged(search, rows_too: bool):
    """``search`` with ``precision.INT8_ACTIVATIONS`` set as this side asks whenever it runs (read as a family compiles)."""
    def run():
        precision.INT8_ACTIVATIONS = rows_too
        return search()

    return run


torch.set_num_threads(1)
prepare("tiny")
out = {**provenance(None), "repeats": 7, "runs": {}}
for batch in (1, N_SENTENCES):
    for beam in (4, 1):
        family = f"batch{batch}_beam{beam}"
        sides = {"rows_too": flagged(aiayn_search("tiny", beam, "aiayn_int8_compiled", batch=batch)[1], True),
                 "weights": flagged(aiayn_search("tiny", beam, "aiayn_int8_compiled", batch=batch)[1], False),
                 "bf16": aiayn_search("tiny", beam, "aiayn_bf16_compiled", batch=batch)[1]}
        first = {k: f() for k, f in sides.items()}  # compiles each side's family (untimed)
        times = interleave({**sides, "ct2_int8": make_decoder("ct2_int8", "tiny", beam, 1, batch=batch)}, 7, 0)
        row = out["runs"][family] = {
            k: {"seconds": v, "median_tokens_per_s": median([N_SENTENCES * OUT_LEN / t for t in v])} for k, v in times.items()}
        row["outputs_rows_too_differing_from_weights"] = sum(x != y for x, y in zip(first["rows_too"], first["weights"]))
        # paired ratios of times: > 1 means the first named is faster
        row["rows_too_over_weights"] = median_ratio(times["weights"], times["rows_too"])
        for k in ("rows_too", "weights", "bf16"):
            row[f"{k}_over_ct2_int8"] = median_ratio(times["ct2_int8"], times[k])
        print(family, {k: round(v["median_tokens_per_s"]) for k, v in row.items() if isinstance(v, dict)},
              row["rows_too_over_weights"], row["rows_too_over_ct2_int8"], file=sys.stderr, flush=True)
print(json.dumps(out, indent=2))
