"""Keep freed memory in the process instead of handing it back to the kernel after every step.

A training step allocates and frees the same few hundred MB each time (activations, the logits and their
gradient, the float32 chunks of the loss). glibc hands large freed blocks back to the kernel (blocks above
its mmap threshold are unmapped when freed, and the heap's top is trimmed), so the next step faults every
page in again: a tiny training step on one thread faulted about 17,600 pages in bf16 and 88,000 in float32
(its 65 MB log-probabilities and their gradient), costing 35 and 165 ms of system time a step. Serving
every block from the heap and never trimming it keeps the pages for reuse, the way PyTorch's CUDA allocator
caches GPU memory: the process holds on to its peak, which it reaches every step anyway.

``keep_freed_memory()`` is called once by the command line (``aiayn.app.cli.main``) and by the speed
benchmarks, so that both measure the same process. It changes no result, only where memory comes from.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import sys

M_TRIM_THRESHOLD, M_MMAP_MAX = -1, -4  # glibc's mallopt parameters (malloc.h)
TRIM_THRESHOLD = 2**30  # hand the heap's top back only when a GiB of it is free
USER_SETTINGS = ("MALLOC_TRIM_THRESHOLD_", "MALLOC_MMAP_THRESHOLD_", "MALLOC_MMAP_MAX_", "GLIBC_TUNABLES")


def keep_freed_memory() -> bool:
    """Every block from the heap (no mmap; glibc still maps one when the heap cannot grow) and the heap
    trimmed only past a GiB free; True if set. Does nothing off glibc (macOS, Windows, musl) or where the
    user tuned malloc through the environment."""
    if not sys.platform.startswith("linux") or any(v in os.environ for v in USER_SETTINGS):
        return False
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        mallopt = libc.mallopt
    except (OSError, AttributeError):  # not glibc
        return False
    return bool(mallopt(M_MMAP_MAX, 0)) and bool(mallopt(M_TRIM_THRESHOLD, TRIM_THRESHOLD))
