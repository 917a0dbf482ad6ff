"""bf16 translation of many batch shapes (``benchmarks.translator_memory``) with ideep keeping its default 1,024
computations and keeping 32 (LRU_CACHE_CAPACITY), oneDNN's own cache at its default on both sides. The record was
taken at d15d8e6, before aiayn set either variable (the sides then left the default unset). From the repository root:
    python benchmarks/results/2026-11-28/ideep-cache-ab/ab.py runs/experiments/table3_budget/D-drop0-s1 \
        > benchmarks/results/2026-11-28/ideep-cache-ab/ab.json
"""
import json
import sys

sys.path.insert(0, ".")
from benchmarks.translator_memory import alternate  # noqa: E402

OTHER = {"ONEDNN_PRIMITIVE_CACHE_CAPACITY": "1024"}
print(json.dumps(alternate(sys.argv[1], {"default": {"LRU_CACHE_CAPACITY": "1024", **OTHER},
                                         "lru_32": {"LRU_CACHE_CAPACITY": "32", **OTHER}}), indent=2))
