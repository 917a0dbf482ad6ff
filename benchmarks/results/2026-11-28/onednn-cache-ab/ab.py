"""bf16 translation of many batch shapes (``benchmarks.translator_memory``) with oneDNN keeping its default 1,024
kernels (ONEDNN_PRIMITIVE_CACHE_CAPACITY=1024) and keeping 64 (the variable unset, so that aiayn sets it), ideep's
cache at aiayn's 32 on both sides. The record was taken at e758896. From the repository root:
    python benchmarks/results/2026-11-28/onednn-cache-ab/ab.py runs/experiments/table3_budget/D-drop0-s1 \
        > benchmarks/results/2026-11-28/onednn-cache-ab/ab.json
"""
import json
import sys

sys.path.insert(0, ".")
from benchmarks.translator_memory import alternate  # noqa: E402

UNSET = {"LRU_CACHE_CAPACITY": None}
print(json.dumps(alternate(sys.argv[1], {"default": {"ONEDNN_PRIMITIVE_CACHE_CAPACITY": "1024", **UNSET},
                                         "aiayn_64": {"ONEDNN_PRIMITIVE_CACHE_CAPACITY": None, **UNSET}}), indent=2))
