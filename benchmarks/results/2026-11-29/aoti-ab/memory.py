"""The memory of a process that decodes with the compiled step, before (torch.compile, as at 5e666a0) and after
(AOTInductor): each side in a fresh process builds benchmarks.decode_throughput's random tiny model in bf16, compiles
two families at beam 4 (one sentence, then 64 a batch) by decoding the benchmark's sentences, and reports its
resident set (Linux VmRSS) before compiling and after, and its peak (VmHWM). From the repository root:
    python benchmarks/results/2026-11-29/aoti-ab/memory.py > benchmarks/results/2026-11-29/aoti-ab/memory.json
"""
import importlib.util
import json
import subprocess
import sys

sys.path.insert(0, ".")


def mib(field: str) -> float:
    line = next(x for x in open("/proc/self/status") if x.startswith(field + ":"))
    return round(int(line.split()[1]) / 1024, 1)


def side(name: str) -> dict:
    import torch

    from benchmarks.decode_throughput import N_SENTENCES, aiayn_search, prepare

    torch.set_num_threads(1)
    prepare("tiny")
    before = None
    if name == "before":  # the module as at 5e666a0, imported beside the current one (as ab.py does)
        source = subprocess.check_output(["git", "show", "5e666a0:src/aiayn/model/compiled.py"], text=True)
        before = importlib.util.module_from_spec(importlib.util.spec_from_loader("aiayn.model._compiled_before", None))
        before.__package__ = "aiayn.model"
        exec(compile(source, "compiled.py@5e666a0", "exec"), before.__dict__)
    row = {}
    for batch in (1, N_SENTENCES):
        model, search = aiayn_search("tiny", 4, "aiayn_bf16_compiled", batch=batch)
        if before is not None:
            model.decode_step = before.CompiledDecodeStep(model)
        row.setdefault("rss_mib_before_compiling", mib("VmRSS"))
        search()
        row[f"rss_mib_after_batch{batch}"] = mib("VmRSS")
    row["peak_rss_mib"] = mib("VmHWM")
    return row


if __name__ == "__main__":
    if len(sys.argv) > 1:
        print(json.dumps(side(sys.argv[1])))
    else:
        from benchmarks.common import provenance

        out = {**provenance(None), "sides": {}}
        for name in ("before", "after"):
            text = subprocess.check_output([sys.executable, __file__, name], text=True, stderr=subprocess.DEVNULL)
            out["sides"][name] = json.loads(text.strip().splitlines()[-1])
        print(json.dumps(out, indent=2))
