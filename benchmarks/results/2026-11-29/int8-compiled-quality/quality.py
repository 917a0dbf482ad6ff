"""Quality of the number formats on a trained model (issue 42): the Bible test split (1,266 verses) translated by
`aiayn evaluate` in float32, bfloat16 and int8, eager and with `--compile`, greedy and beam 4; sacreBLEU BLEU and
chrF, and how many translations differ from float32's. The model: `runs/experiments/distillation/teacher-3h`
(a tiny Transformer trained for three hours: `aiayn experiment distillation`). One thread. Run from the
repository root:
    python benchmarks/results/2026-11-29/int8-compiled-quality/quality.py > benchmarks/results/2026-11-29/int8-compiled-quality/quality.json
"""
import json
import sys
import time

import torch

sys.path.insert(0, ".")
from aiayn.decoding.options import DecodeOptions  # noqa: E402
from aiayn.tasks.translation import evaluate  # noqa: E402
from benchmarks.common import provenance  # noqa: E402

MODEL = "runs/experiments/distillation/teacher-3h"
WAYS = [("float32", False), ("bfloat16", False), ("bfloat16", True), ("int8", False), ("int8", True)]

torch.set_num_threads(1)
out = {**provenance(None), "model": MODEL, "runs": {}}
for beam in (1, 4):
    reference = None
    for dtype, compiled in WAYS:
        start = time.perf_counter()
        scores, _, _, hyps = evaluate(MODEL, None, None, None, DecodeOptions(beam_size=beam), dtype=dtype,
                                      compile=compiled)
        reference = hyps if reference is None else reference
        out["runs"][f"beam{beam}_{dtype}" + ("_compiled" if compiled else "")] = {
            "bleu": scores.bleu, "chrf": scores.chrf, "sentences": len(hyps),
            "differing_from_float32": sum(a != b for a, b in zip(hyps, reference)),
            "seconds": round(time.perf_counter() - start, 1)}
        print(beam, dtype, compiled, scores.bleu, file=sys.stderr, flush=True)
print(json.dumps(out, indent=2))
