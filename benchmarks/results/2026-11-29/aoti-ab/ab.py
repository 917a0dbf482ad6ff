"""The compiled decoding step before and after it moved from torch.compile to AOTInductor (issue 42), in one
process: ``before`` is ``aiayn.model.compiled`` as at 5e666a0 (Dynamo guards and wrappers around each call),
loaded from git; ``after`` is the package's (each family exported and compiled into a library, called directly).
benchmarks.decode_throughput's random tiny model in bf16, its 64 sentences (50 forced tokens), one sentence at a
time and 64 a batch, greedy and beam 4, one thread; CTranslate2 int8 beside them. Each model compiles its families
in an untimed first call; then 5 rounds interleaved. Counts the outputs that differ from float32's. From the
repository root:
    TORCHINDUCTOR_FORCE_DISABLE_CACHES=1 python benchmarks/results/2026-11-29/aoti-ab/ab.py > benchmarks/results/2026-11-29/aoti-ab/ab.json
"""
import importlib.util
import json
import subprocess
import sys
import time

import torch

sys.path.insert(0, ".")
from benchmarks.common import interleave, median, median_ratio, provenance  # noqa: E402
from benchmarks.decode_throughput import N_SENTENCES, OUT_LEN, aiayn_search, make_decoder, prepare  # noqa: E402

BEFORE = "5e666a0"


def module_before():
    """``aiayn.model.compiled`` as at BEFORE, imported beside the current one."""
    source = subprocess.check_output(["git", "show", f"{BEFORE}:src/aiayn/model/compiled.py"], text=True)
    module = importlib.util.module_from_spec(importlib.util.spec_from_loader("aiayn.model._compiled_before", None))
    module.__package__ = "aiayn.model"
    exec(compile(source, f"compiled.py@{BEFORE}", "exec"), module.__dict__)
    return module


torch.set_num_threads(1)
prepare("tiny")
before = module_before()
out = {**provenance(None), "before": BEFORE, "repeats": 5, "compile_seconds": {}, "runs": {}}
for batch in (1, N_SENTENCES):
    for beam in (1, 4):
        family = f"batch{batch}_beam{beam}"
        reference = aiayn_search("tiny", beam, "aiayn", batch=batch)[1]()  # float32, eager
        searches, first = {}, {}
        for side in ("before", "after"):
            model, search = aiayn_search("tiny", beam, "aiayn_bf16_compiled", batch=batch)
            if side == "before":
                model.decode_step = before.CompiledDecodeStep(model)
            start = time.perf_counter()
            first[f"bf16_{side}"] = search()  # compiles this family (untimed)
            out["compile_seconds"][f"{family}_bf16_{side}"] = round(time.perf_counter() - start, 1)
            searches[f"bf16_{side}"] = search
        times = interleave({**searches, "ct2_int8": make_decoder("ct2_int8", "tiny", beam, 1, batch=batch)}, 5, 0)
        row = out["runs"][family] = {
            k: {"seconds": v, "median_tokens_per_s": median([N_SENTENCES * OUT_LEN / t for t in v])} for k, v in times.items()}
        for name, outputs in first.items():
            row[name]["differing_from_fp32"] = sum(a != b for a, b in zip(outputs, reference))
        row["bf16_after_equals_before"] = first["bf16_after"] == first["bf16_before"]
        # speeds as paired ratios of times: > 1 means the first named is faster
        row["bf16_after_over_before"] = median_ratio(times["bf16_before"], times["bf16_after"])
        row["bf16_after_over_ct2_int8"] = median_ratio(times["ct2_int8"], times["bf16_after"])
        row["bf16_before_over_ct2_int8"] = median_ratio(times["ct2_int8"], times["bf16_before"])
        print(family, {k: round(v["median_tokens_per_s"]) for k, v in row.items() if isinstance(v, dict)},
              row["bf16_after_over_before"], row["bf16_after_equals_before"], file=sys.stderr, flush=True)
print(json.dumps(out, indent=2))
