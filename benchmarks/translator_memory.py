"""The bf16 translator over many batch shapes, as a server meets them: its speed and its memory.

``measure`` translates the same 150 batches of 1 to 32 test verses (beam 4, one thread, freed memory kept as
``aiayn serve`` keeps it) and reports seconds, sentences/s, RSS and the heap in use (glibc ``mallinfo2``).
``alternate`` runs it in one process per side (memory is per process; the cache variables are read once a
process), the sides alternating, and gives the medians and the paired speed-up of the second side over the first.
"""

from __future__ import annotations

import ctypes
import json
import os
import random
import statistics
import subprocess
import sys
import time


def measure(model: str) -> dict:
    import torch

    from aiayn.allocator import keep_freed_memory
    from aiayn.inference.translator import Translator
    from benchmarks.serve_load import sentences

    torch.set_num_threads(1)
    keep_freed_memory()
    translator = Translator.load(model, dtype=torch.bfloat16)
    pool, rng = sentences(None), random.Random(0)
    batches = [rng.sample(pool, rng.choice([1, 2, 4, 8, 16, 32])) for _ in range(150)]
    start = time.perf_counter()
    for batch in batches:
        translator.translate(batch, beam_size=4)
    seconds = time.perf_counter() - start

    class MallInfo2(ctypes.Structure):
        _fields_ = [(n, ctypes.c_size_t) for n in
                    "arena ordblks smblks hblks hblkhd usmblks fsmblks uordblks fordblks keepcost".split()]
    libc = ctypes.CDLL("libc.so.6")
    libc.mallinfo2.restype = MallInfo2
    info = libc.mallinfo2()
    rss = next(int(line.split()[1]) for line in open("/proc/self/status") if line.startswith("VmRSS")) / 1024
    return {"seconds": seconds, "sentences_per_s": sum(map(len, batches)) / seconds, "rss_mib": rss,
            "heap_in_use_mib": (info.uordblks + info.hblkhd) / 2**20}


def alternate(model: str, sides: dict[str, dict[str, str | None]], rounds: int = 3) -> dict:
    """``sides``: name -> environment variables to set (None: unset) for that side's processes."""
    from benchmarks.common import provenance

    runs: dict[str, list[dict]] = {side: [] for side in sides}
    for r in range(rounds):
        for side in (list(sides) if r % 2 == 0 else list(sides)[::-1]):
            env = {k: v for k, v in os.environ.items() if k not in sides[side]}
            env.update({k: v for k, v in sides[side].items() if v is not None})
            out = subprocess.run([sys.executable, "-m", "benchmarks.translator_memory", model], env=env,
                                 capture_output=True, text=True, check=True).stdout
            runs[side].append(json.loads(out.strip().splitlines()[-1]))
            print(side, runs[side][-1], file=sys.stderr, flush=True)
    result = {**provenance(None), "model": model, "runs": runs}
    for field in ("sentences_per_s", "rss_mib", "heap_in_use_mib"):
        result[f"median_{field}"] = {s: statistics.median(x[field] for x in v) for s, v in runs.items()}
    first, second = runs.values()
    result["speedup_median"] = statistics.median(a["seconds"] / b["seconds"] for a, b in zip(first, second))
    return result


if __name__ == "__main__":
    print(json.dumps(measure(sys.argv[1])))
