"""Number formats: float32 (the default everywhere) and bfloat16 (training autocast, decoding)."""

from __future__ import annotations

import logging
from pathlib import Path

import torch

log = logging.getLogger("aiayn")

DTYPES = {"float32": torch.float32, "bfloat16": torch.bfloat16}


def cpu_has_native_bf16() -> bool | None:
    """Whether this CPU multiplies bfloat16 in hardware, from /proc/cpuinfo; None where unknown."""
    try:
        flags = set(Path("/proc/cpuinfo").read_text().split())
    except OSError:
        return None
    return bool(flags & {"avx512_bf16", "amx_bf16", "bf16"})  # x86 AVX-512 BF16 / AMX; Arm's is "bf16"


def warn_if_emulated_bf16(device: torch.device, what: str) -> None:
    """bfloat16 on a CPU without bfloat16 instructions works, but many times slower than float32."""
    if device.type == "cpu" and cpu_has_native_bf16() is False:
        log.warning("%s: this CPU has no bfloat16 instructions (AVX-512 BF16, AMX or Arm BF16), so bfloat16 "
                    "matrix products are emulated and run many times slower than float32; use float32 here", what)
