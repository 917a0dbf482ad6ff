"""Where one sentence's beam-4 step spends its time (issue 42): tiny's random model, ``--dtype int8 --compile`` as
decode_throughput runs it, one thread, with Inductor's per-kernel timers on (``cpp.enable_kernel_profile``).
After an untimed pass that compiles the family, the 64 benchmark sentences under ``torch.profiler``: self CPU time
of each kernel and operator per decoding step (a step: one new token for the beam's rows), the 25 largest, and the
search's wall time with and without the profiler. From the repository root:
    python benchmarks/results/2026-12-06/step-profile/step.py > benchmarks/results/2026-12-06/step-profile/step.json
"""
import json
import sys
import time

import torch
from torch.profiler import ProfilerActivity, profile

sys.path.insert(0, ".")
from aiayn.model import compiled  # noqa: E402
from benchmarks.common import provenance  # noqa: E402
from benchmarks.decode_throughput import N_SENTENCES, OUT_LEN, aiayn_search, prepare  # noqa: E402

torch.set_num_threads(1)
compiled.INDUCTOR_CPU = {**compiled.INDUCTOR_CPU, "cpp.enable_kernel_profile": True}
prepare("tiny")
_, search = aiayn_search("tiny", 4, "aiayn_int8_compiled", batch=1)
search()  # compiles the family
start = time.perf_counter()
search()
plain = time.perf_counter() - start
with profile(activities=[ProfilerActivity.CPU]) as prof:
    start = time.perf_counter()
    search()
    profiled = time.perf_counter() - start
steps = N_SENTENCES * OUT_LEN
rows = sorted(prof.key_averages(), key=lambda e: -e.self_cpu_time_total)
total = sum(e.self_cpu_time_total for e in rows)
out = {**provenance(None), "steps": steps, "wall_us_per_step": round(plain / steps * 1e6, 1),
       "wall_us_per_step_profiled": round(profiled / steps * 1e6, 1),
       "self_us_per_step_all": round(total / steps, 1),
       "top": [{"name": e.key, "self_us_per_step": round(e.self_cpu_time_total / steps, 1),
                "share": round(e.self_cpu_time_total / total, 3), "calls_per_step": round(e.count / steps, 2)}
               for e in rows[:25]]}
print(json.dumps(out, indent=1))
