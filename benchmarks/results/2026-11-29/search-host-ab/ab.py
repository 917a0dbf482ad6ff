"""The searches' bookkeeping before and after it moved to the host (numpy) with a cheaper ``constrain`` (issue 42),
in one process: ``before`` is ``aiayn.decoding`` (common, greedy, beam) as at BEFORE, loaded from git; ``after`` is
the package's. Both drive the SAME model (benchmarks.decode_throughput's random tiny model in bf16 with its step
compiled, the families compiled once in an untimed first call), one sentence at a time and 64 a batch, greedy and
beam 4, one thread; CTranslate2 int8 beside them; 5 rounds interleaved. Checks that both sides give the same tokens.
From the repository root (it needs the git history, for the ``before`` modules):
    TORCHINDUCTOR_FORCE_DISABLE_CACHES=1 python benchmarks/results/2026-11-29/search-host-ab/ab.py > benchmarks/results/2026-11-29/search-host-ab/ab.json
"""
import importlib.util
import json
import subprocess
import sys
import time

import torch

sys.path.insert(0, ".")
from benchmarks.common import interleave, median, median_ratio, provenance  # noqa: E402
from benchmarks.decode_throughput import N_SENTENCES, OUT_LEN, aiayn_search, cache_dir, chunks, make_decoder, prepare  # noqa: E402

BEFORE = sys.argv[1] if len(sys.argv) > 1 else "1c2b218"


def modules_before() -> dict:
    """``aiayn.decoding``'s common, greedy and beam as at BEFORE, imported beside the current ones."""
    loaded = {}
    for name in ("common", "greedy", "beam"):
        source = subprocess.check_output(["git", "show", f"{BEFORE}:src/aiayn/decoding/{name}.py"], text=True)
        source = source.replace("from .common import", "from aiayn.decoding._before_common import")
        full = f"aiayn.decoding._before_{name}"
        module = importlib.util.module_from_spec(importlib.util.spec_from_loader(full, None))
        module.__package__ = "aiayn.decoding"
        sys.modules[full] = module
        exec(compile(source, f"{name}.py@{BEFORE}", "exec"), module.__dict__)
        loaded[name] = module
    return loaded


torch.set_num_threads(1)
prepare("tiny")
old = modules_before()
import aiayn.decoding.beam as new_beam  # noqa: E402
import aiayn.decoding.greedy as new_greedy  # noqa: E402

out = {**provenance(None), "before": BEFORE, "repeats": 5, "runs": {}}
for batch in (1, N_SENTENCES):
    model, _ = aiayn_search("tiny", 4, "aiayn_bf16_compiled", batch=batch)
    batches = [torch.tensor(ids) for ids in chunks(json.loads((cache_dir("tiny") / "sources.json").read_text())["ids"],
                                                   batch)]
    limits = dict(max_len_a=0, max_len_b=OUT_LEN, min_len=OUT_LEN - 1)
    for beam in (1, 4):
        family = f"batch{batch}_beam{beam}"

        def search(greedy, beams, model=model, batches=batches, beam=beam, limits=limits):
            if beam == 1:
                return lambda: [h.tokens for src in batches for h in greedy.greedy_search(model, src, **limits)]
            return lambda: [h[0].tokens for src in batches for h in beams.beam_search(model, src, beam_size=beam,
                                                                                          alpha=0.6, **limits)]
        sides = {"bf16_before": search(old["greedy"], old["beam"]), "bf16_after": search(new_greedy, new_beam)}
        start = time.perf_counter()
        first = {name: f() for name, f in sides.items()}  # the first compiles this family (untimed)
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
