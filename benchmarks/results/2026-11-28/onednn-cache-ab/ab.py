"""bf16 translation of many batch shapes, as a server meets them, with oneDNN keeping its default 1,024 kernels
(ONEDNN_PRIMITIVE_CACHE_CAPACITY=1024) and keeping 64 (the variable unset, so that aiayn sets it), ideep's cache at
aiayn's 32 on both sides: each side in its own process (the variables are read once a process; memory is per
process), the sides alternating, one thread. Each process translates the same 150
batches of 1 to 32 test verses (beam 4) and reports seconds, sentences/s, RSS and the heap in use (glibc mallinfo2).
Needs a trained tiny translation model, here the table3_budget experiment's D-drop0-s1 run. From the repository root:
    python benchmarks/results/2026-11-28/onednn-cache-ab/ab.py runs/experiments/table3_budget/D-drop0-s1 \
        > benchmarks/results/2026-11-28/onednn-cache-ab/ab.json
"""
import ctypes
import json
import os
import random
import statistics
import subprocess
import sys
import time

SIDES = {"default": "1024", "aiayn_64": None}


def one(model: str) -> dict:
    import torch

    sys.path.insert(0, ".")
    from aiayn.allocator import keep_freed_memory
    from aiayn.inference.translator import Translator
    from benchmarks.serve_load import sentences

    torch.set_num_threads(1)
    keep_freed_memory()  # as `aiayn serve` runs
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


if __name__ == "__main__":
    if sys.argv[1] == "--side":
        print(json.dumps(one(sys.argv[2])))
        sys.exit()
    sys.path.insert(0, ".")
    from benchmarks.common import provenance

    runs = {side: [] for side in SIDES}
    for r in range(3):
        for side in (list(SIDES) if r % 2 == 0 else list(SIDES)[::-1]):
            env = {k: v for k, v in os.environ.items() if k not in ("LRU_CACHE_CAPACITY", "ONEDNN_PRIMITIVE_CACHE_CAPACITY")}
            env.update({} if SIDES[side] is None else {"ONEDNN_PRIMITIVE_CACHE_CAPACITY": SIDES[side]})
            out = subprocess.run([sys.executable, __file__, "--side", sys.argv[1]], env=env,
                                 capture_output=True, text=True, check=True).stdout
            runs[side].append(json.loads(out.strip().splitlines()[-1]))
            print(side, runs[side][-1], file=sys.stderr, flush=True)
    result = {**provenance(None), "model": sys.argv[1], "runs": runs}
    for field in ("sentences_per_s", "rss_mib", "heap_in_use_mib"):
        result[f"median_{field}"] = {s: statistics.median(x[field] for x in v) for s, v in runs.items()}
    result["speedup_median"] = statistics.median(
        a["seconds"] / b["seconds"] for a, b in zip(runs["default"], runs["aiayn_64"]))
    print(json.dumps(result, indent=2))
