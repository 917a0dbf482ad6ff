"""Number formats: float32 (the default everywhere), bfloat16 (training autocast, decoding) and int8
(decoding on the CPU)."""

from __future__ import annotations

import logging
import warnings
from pathlib import Path

import torch
from torch import nn

log = logging.getLogger("aiayn")

DTYPES = {"float32": torch.float32, "bfloat16": torch.bfloat16, "int8": torch.qint8}


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


def int8_model(model: nn.Module) -> nn.Module:
    """The model with every linear layer, the tied pre-softmax layer included, quantised to int8
    dynamically: weights int8 per output channel, activations quantised per batch as they come
    (PyTorch's ``quantize_dynamic``, fbgemm / x86 kernels, CPU only). Embeddings, LayerNorms and
    attention's own products stay float32.

    ``quantize_dynamic`` is deprecated upstream in favour of torchao, but torchao 0.18's int8
    dynamic path ran 40x slower than float32 on this project's CPU (no compiled CPU kernel), so
    this is the one that is fast here.
    """
    from torch.ao.quantization import per_channel_dynamic_qconfig, quantize_dynamic

    model = model.float().eval()
    embed = getattr(model, "tgt_embed", None) or getattr(model, "embed", None)
    if getattr(model, "output_proj", False) is None and embed is not None:
        # A tied projection is a plain matrix product in float32: give it a module of its own to quantise.
        model.output_proj = nn.Linear(embed.weight.size(1), embed.weight.size(0), bias=False)
        model.output_proj.weight = nn.Parameter(embed.weight.detach().clone())
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the deprecation notices of torch.ao.quantization
        return quantize_dynamic(model, {nn.Linear: per_channel_dynamic_qconfig}, inplace=True)
