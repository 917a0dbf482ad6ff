"""Keep freed memory in the process instead of handing it back to the kernel after every step.

A training step allocates and frees the same few hundred MB each time (activations, the float32 chunks
of the loss, gradients). glibc hands large freed blocks back to the kernel (mmap above a threshold of
128 KB to 32 MB, and trimming the heap's top above twice that), so the next step faults every page in
again: about 18,000 minor page faults a tiny bf16 step and 83,000 a float32 one, each cheap alone but
costly in a virtual machine. Raising the two thresholds keeps the blocks for reuse, the way PyTorch's
CUDA allocator caches GPU memory: the process holds on to its peak, which it reaches each step anyway.

``keep_freed_memory()`` is called once by the command line (``aiayn.app.cli.main``) and by the speed
benchmarks, so that both measure the same process. It changes no result, only where memory comes from.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import sys

M_TRIM_THRESHOLD, M_MMAP_THRESHOLD = -1, -3  # glibc's mallopt parameters (malloc.h)
MMAP_THRESHOLD = 32 * 2**20  # glibc's largest: blocks above it are still mapped and unmapped
TRIM_THRESHOLD = 2**30  # hand the heap's top back only when a GiB of it is free
USER_SETTINGS = ("MALLOC_TRIM_THRESHOLD_", "MALLOC_MMAP_THRESHOLD_", "GLIBC_TUNABLES")


def keep_freed_memory() -> bool:
    """Raise glibc's mmap and trim thresholds (see the module docstring); True if they were set. Does
    nothing off glibc (macOS, Windows, musl) or where the user tuned malloc through the environment."""
    if not sys.platform.startswith("linux") or any(v in os.environ for v in USER_SETTINGS):
        return False
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        mallopt = libc.mallopt
    except (OSError, AttributeError):  # not glibc
        return False
    return bool(mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD)) and bool(mallopt(M_TRIM_THRESHOLD, TRIM_THRESHOLD))
