"""Outputs of the compiled int8 decoder with int8 rows (``precision.INT8_ACTIVATIONS``) against float32 on a trained
model (issue 42), beside int8 compiled as it was (int8 weights, bf16 rows) and bf16 compiled: the built-in test split
translated with beam 4 (the task's defaults); sacreBLEU of each and the share of outputs identical to float32's. From
the repository root, with a trained tiny model in MODEL:
    python benchmarks/results/2026-12-07/outputs/compare.py MODEL > benchmarks/results/2026-12-07/outputs/compare.json
"""
import json
import sys

sys.path.insert(0, ".")
from aiayn import precision  # noqa: E402
from aiayn.decoding.options import DecodeOptions  # noqa: E402
from aiayn.tasks import translation  # noqa: E402
from benchmarks.common import provenance  # noqa: E402

model = sys.argv[1]
out = {**provenance(None), "model": model, "beam": 4, "runs": {}}
hyps = {}
for name, dtype, compile, rows_too in (("float32", "float32", False, False), ("bfloat16_compiled", "bfloat16", True, False),
                                       ("int8_compiled_weights", "int8", True, False),
                                       ("int8_compiled_rows_too", "int8", True, True)):
    precision.INT8_ACTIVATIONS = rows_too
    scores, _, data, hyps[name] = translation.evaluate(model, None, None, None, DecodeOptions(beam_size=4),
                                                       dtype=dtype, compile=compile)
    same = sum(a == b for a, b in zip(hyps[name], hyps["float32"]))
    out["runs"][name] = {"bleu": scores.bleu, "chrf": scores.chrf, "sentences": len(data),
                         "identical_to_float32": same, "share_identical": same / len(data),
                         "bleu_minus_float32": scores.bleu - out["runs"].get("float32", {"bleu": scores.bleu})["bleu"]}
    print(name, out["runs"][name], file=sys.stderr, flush=True)
print(json.dumps(out, indent=2))
