"""Number formats, as a policy: float32 (exact, the oracle), bfloat16 (training and decoding on bf16 matrix
units) and int8 (decoding on the CPU); ``auto`` picks bfloat16 where the hardware multiplies it natively.

bfloat16 training is a designed path, not per-op autocast: a bf16 working copy of the model runs the
forward and backward passes (bf16 matrix products and activations; softmax, layer norm and the loss
accumulate in float32 inside their kernels), while the float32 model stays the master copy that the
optimiser updates, validation reads and checkpoints save. Casts happen once per update (master ->
working copy) and once per batch (bf16 gradients -> the float32 gradient sums), not once per use.
"""

from __future__ import annotations

import copy
import logging
import os
import warnings
from pathlib import Path

import torch
import torch.nn.functional as F
from torch import Tensor, nn

log = logging.getLogger("aiayn")

DTYPES = {"float32": torch.float32, "bfloat16": torch.bfloat16, "int8": torch.qint8}
PRECISIONS = ("auto", "fp32", "bf16")  # train.precision and --precision


def cpu_flags() -> set[str] | None:
    """The CPU's feature flags from /proc/cpuinfo; None where unknown (not Linux)."""
    lines = _cpuinfo_lines()
    return {flag for line in lines if line.startswith(("flags", "Features")) for flag in line.split(":", 1)[1].split()} \
        if lines else None


def cpu_has_native_bf16() -> bool | None:
    """Whether this CPU multiplies bfloat16 in hardware, from /proc/cpuinfo; None where unknown."""
    flags = cpu_flags()
    return None if flags is None else bool(flags & {"avx512_bf16", "amx_bf16", "bf16"})  # x86 / AMX; Arm "bf16"


# The instructions that decide the fp32 / bf16 / int8 ceilings on x86 (Arm's bf16 and i8mm too)
HOST_FLAGS = ("avx2", "fma", "avx512f", "avx512_bf16", "avx512_vnni", "avx_vnni", "amx_tile", "amx_bf16", "amx_int8",
              "bf16", "i8mm")


def host_report() -> dict:
    """What a speed figure ran on: CPU model, the instructions above that it has, threads, torch, what
    ``auto`` picks on the CPU, PyTorch's own reading of the SIMD level, and whether the compiled int8 decoder
    quantises its rows (``int8_activations``)."""
    import os
    import platform

    model = next((line.split(":", 1)[1].strip() for line in _cpuinfo_lines() if line.startswith("model name")),
                 platform.processor() or platform.machine())
    flags = cpu_flags()
    return {"cpu": model, "instructions": [f for f in HOST_FLAGS if flags and f in flags],
            "cpus": len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count(),
            "torch_threads": torch.get_num_threads(), "torch": torch.__version__,
            "torch_cpu_capability": torch.backends.cpu.get_cpu_capability(),
            "auto_precision_cpu": resolve_precision("auto", torch.device("cpu")),
            "int8_compiled_rows": "int8" if int8_activations() else "bf16"}


def _cpuinfo_lines() -> list[str]:
    try:
        return Path("/proc/cpuinfo").read_text().splitlines()
    except OSError:
        return []


def resolve_precision(precision: str, device: torch.device) -> str:
    """``auto`` -> ``bf16`` on a CUDA GPU that supports it or a CPU with bf16 instructions, else ``fp32``;
    ``fp32`` and ``bf16`` stay as asked."""
    if precision != "auto":
        return precision
    if device.type == "cuda":
        return "bf16" if torch.cuda.is_bf16_supported() else "fp32"
    return "bf16" if device.type == "cpu" and cpu_has_native_bf16() else "fp32"


# Training batches' lengths on a CPU in bf16 rounded up to a multiple of this: oneDNN makes kernels for each new
# product shape, which at exact lengths (563 shapes in tiny's 642 batches) is nearly every batch (BENCHMARKS.md)
BF16_CPU_LENGTH_MULTIPLE = 8


def length_multiple(precision: str, device: torch.device) -> int:
    """What a training batch's lengths are rounded up to, for a resolved ``precision`` on ``device``: bf16 on a CPU
    pads to ``BF16_CPU_LENGTH_MULTIPLE`` so that batch shapes repeat; elsewhere exact lengths (1)."""
    return BF16_CPU_LENGTH_MULTIPLE if precision == "bf16" and torch.device(device).type == "cpu" else 1


def decoding_dtype(name: str, device: str | torch.device) -> str:
    """``--dtype`` for decoding: ``auto`` -> bfloat16 where ``resolve_precision`` picks bf16, else float32."""
    if name != "auto":
        return name
    return "bfloat16" if resolve_precision("auto", torch.device(device)) == "bf16" else "float32"


def warn_if_emulated_bf16(device: torch.device, what: str) -> None:
    """bfloat16 on a CPU without bfloat16 instructions works, but many times slower than float32."""
    if device.type == "cpu" and cpu_has_native_bf16() is False:
        log.warning("%s: this CPU has no bfloat16 instructions (AVX-512 BF16, AMX or Arm BF16), so bfloat16 "
                    "matrix products are emulated and run many times slower than float32; use float32 here", what)


class BF16Training:
    """The bf16 working copy of a float32 ``master`` model (see the module docstring).

    Call ``accumulate()`` after each backward pass (the working copy's bf16 gradients are added, in
    float32, to the master's) and ``refresh()`` after each optimiser step and after loading weights
    into the master (one cast of each parameter). Tied weights stay tied in the copy.
    """

    def __init__(self, master: nn.Module):
        # oneDNN's kernel caches stay at PyTorch's 1,024: batches padded to a few dozen shapes (``length_multiple``)
        # meet their kernels again, which 64 kept could not hold (an epoch 1.19x as long on AMX: BENCHMARKS.md);
        # translation on exact lengths keeps few (``few_onednn_kernels``), as before
        self.master = master
        self.work = copy.deepcopy(master).to(torch.bfloat16)
        self.pairs = list(zip(master.parameters(), self.work.parameters(), strict=True))

    def accumulate(self) -> None:
        for m, w in self.pairs:
            if w.grad is None:
                continue
            if m.grad is None:
                m.grad = w.grad.float()
            else:
                m.grad.add_(w.grad)
            w.grad = None

    @torch.no_grad()
    def refresh(self) -> None:
        for m, w in self.pairs:
            w.copy_(m)


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


# bf16 and int8-compiled decoding, bf16 training on exact lengths
CACHE_SIZES = {"LRU_CACHE_CAPACITY": "32", "ONEDNN_PRIMITIVE_CACHE_CAPACITY": "64"}


class PackedLinear(nn.Module):
    """A bfloat16 linear layer for decoding on the CPU, its weight reordered once into oneDNN's blocked
    layout. ``F.linear`` in bf16 reorders the weight on every call, which costs more than the product
    itself when a decoding step has few rows; outputs are bit-identical to ``F.linear``. Inference only
    (no gradient); any other input type falls back to ``F.linear`` on ``weight``."""

    def __init__(self, weight: Tensor, bias: Tensor | None):
        super().__init__()
        self.weight = nn.Parameter(weight.detach(), requires_grad=False)
        self.bias = None if bias is None else nn.Parameter(bias.detach(), requires_grad=False)
        # not a buffer: .to() leaves it; None where oneDNN's bf16 kernels do not run (``F.linear`` then)
        self.packed = torch.ops.mkldnn._reorder_linear_weight(self.weight, None) if packed_bf16_possible() else None

    def forward(self, x: Tensor) -> Tensor:
        if self.packed is None or x.dtype != torch.bfloat16 or self.weight.dtype != torch.bfloat16 or x.device.type != "cpu" \
                or torch.is_grad_enabled() or torch.compiler.is_compiling():  # compiled: Inductor lays weights out itself
            return F.linear(x, self.weight, self.bias)
        return torch.ops.mkldnn._linear_pointwise(x, self.packed, self.bias, "none", [], "")


# Inside a compiled step, a product whose rows are fixed in its family (one sentence: the beam's rows) and at most
# this many multiplies the int8 weights; None: as ``int8_rows`` finds for this CPU
INT8_ROWS: int | None = None
# Inside a compiled step, whether every int8 product quantises its rows too and multiplies int8 by int8 (VNNI, as
# CTranslate2 does); None: as ``int8_activations`` finds for this CPU
INT8_ACTIVATIONS: bool | None = None


def int8_rows() -> int:
    """How many fixed rows of a compiled product multiply the int8 weights: ``INT8_ROWS`` where set, else one row on a
    CPU with AMX (there the packed bf16 products of beam 4's four rows are the faster: 0.80x with int8 weights) and
    up to 8 elsewhere (beam 4 one sentence at a time 2.19x with them on the AVX-512 BF16 EPYC of 2026-12-03, 1.08x on
    that of 2026-11-29), as BENCHMARKS.md measures."""
    if INT8_ROWS is not None:
        return INT8_ROWS
    return 1 if "amx_bf16" in (cpu_flags() or set()) else 8


def int8_activations() -> bool:
    """Whether compiled int8 products take int8 rows (``Int8Linear``): ``INT8_ACTIVATIONS`` where set, else where the
    CPU multiplies int8 with VNNI and has no AMX, where BENCHMARKS.md measured them faster than both the int8 weights
    with bf16 rows and the packed bf16 copy at every shape and row count (2026-12-07); AMX keeps the rules measured
    there, which this change was not."""
    if INT8_ACTIVATIONS is not None:
        return INT8_ACTIVATIONS
    flags = cpu_flags() or set()
    return "amx_bf16" not in flags and bool(flags & {"avx512_vnni", "avx_vnni"})


def _quantized_ops():
    """PyTorch's decomposed quantisation operators (``quantized_decomposed``), which Inductor's CPU passes fuse with
    the product that follows into one int8 linear; registered on import."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # torch.ao.quantization's deprecation notice
        import torch.ao.quantization.fx._decomposed  # noqa: F401
    return torch.ops.quantized_decomposed


class Int8Linear(nn.Module):
    """``--dtype int8``'s linear layer for the compiled decoding step: int8 weights, one scale per output channel
    (the values ``int8_model`` quantised), bf16 activations. Inside a compiled step, where ``int8_activations()``,
    each row is quantised to int8 (its own scale, symmetric: CTranslate2's scheme) and multiplied by the int8 weights
    in a u8 x s8 kernel (oneDNN's, or with ``max_autotune`` Inductor's own), which Inductor builds from the
    dequantise-then-multiply form written here; else a
    product of up to ``int8_rows()`` rows multiplies the int8 weights (half the bytes of bf16, which one row is bound
    by); a product of more, or of rows that vary within the family, and every eager call, multiplies their bf16 copy,
    packed where oneDNN runs it (the faster there: BENCHMARKS.md). Holding both, it takes more memory than
    ``--dtype bfloat16``'s layer."""

    def __init__(self, weight: Tensor, scale: Tensor, bias: Tensor | None):
        super().__init__()
        self.register_buffer("weight_int8", weight.to(torch.int8))
        self.register_buffer("scale", scale.to(torch.bfloat16))
        self.register_buffer("channel_scale", scale.float(), persistent=False)  # oneDNN's: float32
        self.register_buffer("zero_points", torch.zeros(len(weight), dtype=torch.int64), persistent=False)
        copy = (weight.float() * scale.float()[:, None]).to(torch.bfloat16)
        bias = None if bias is None else bias.to(torch.bfloat16)
        self.rows = PackedLinear(copy, bias)

    def forward(self, x: Tensor) -> Tensor:
        rows = x.numel() // x.size(-1)  # a plain int where the family fixes it, else symbolic (never compared)
        if not (torch.compiler.is_compiling() and x.dtype == torch.bfloat16):
            return self.rows(x)
        if int8_activations():
            y = self._int8_by_int8(x.reshape(rows, -1))
        elif rows == 1 if not isinstance(rows, int) else rows <= int8_rows():
            y = torch.ops.aten._weight_int8pack_mm(x.reshape(rows, -1), self.weight_int8, self.scale)
        else:
            return self.rows(x)
        y = y.reshape(*x.shape[:-1], -1)
        return y if self.rows.bias is None else y + self.rows.bias

    def _int8_by_int8(self, x: Tensor) -> Tensor:
        """(M, K) bf16 -> (M, N) bf16: each row quantised to [-127, 127] by its largest magnitude, stored unsigned
        (+128, oneDNN's fast form) and dequantised with scale 1, so that the product's int32 sums times the weights'
        scales come out, and each row's own scale is applied after."""
        q = _quantized_ops()
        x = x.float()
        row_scale = x.abs().amax(-1, keepdim=True).clamp(min=torch.finfo(torch.float32).tiny) / 127
        xq = ((x / row_scale).round() + 128).to(torch.uint8)
        w = q.dequantize_per_channel.default(self.weight_int8, self.channel_scale, self.zero_points, 0, -128, 127,
                                             torch.int8)
        y = F.linear(q.dequantize_per_tensor.default(xq, 1.0, 128, 0, 255, torch.uint8), w)
        return (y * row_scale).to(torch.bfloat16)


def int8_compiled_model(model: nn.Module) -> nn.Module:
    """``int8_model``'s model made ready for the compiled step: each dynamically quantised linear layer an
    ``Int8Linear`` with the same int8 weights and scales, everything else in bf16 (in place; returned)."""
    from torch.ao.nn.quantized.dynamic import Linear as DynamicLinear

    warn_if_emulated_bf16(torch.device("cpu"), "int8 decoding with --compile (its activations are bfloat16)")
    few_onednn_kernels()  # its eager products (the encoder, prompts, families not compiled) are packed bf16 too
    model.to(torch.bfloat16)
    def convert(layer: DynamicLinear) -> Int8Linear:
        q = layer.weight()  # per output channel, symmetric: zero points 0
        return Int8Linear(q.int_repr(), q.q_per_channel_scales(), layer.bias())

    return _swap_layers(model, lambda m: isinstance(m, DynamicLinear), convert)


def _swap_layers(model: nn.Module, chosen, convert) -> nn.Module:
    """Replaces every submodule for which ``chosen`` holds with ``convert`` of it (in place; returned)."""
    for parent in list(model.modules()):
        for name, child in parent.named_children():
            if chosen(child):
                setattr(parent, name, convert(child))
    return model


def few_onednn_kernels() -> None:
    """oneDNN (and its wrapper, ideep) keep 1,024 kernels by default, one per product shape met, and a server meets
    thousands, and bf16 training on exact lengths too (563 batch shapes in tiny's 642 batches an epoch): fewer kept a
    bf16 translator's heap down at the same speed, and training's to a third (BENCHMARKS.md). Read at first use, so
    set before the first bf16 product; a value the user set stays."""
    for variable, size in CACHE_SIZES.items():
        os.environ.setdefault(variable, size)


def packed_bf16_possible() -> bool:
    """Whether this PyTorch has oneDNN's bf16 linear kernels (``PackedLinear``) and the CPU runs them."""
    mkldnn = getattr(torch.ops, "mkldnn", None)
    return bool(torch.backends.mkldnn.is_available() and hasattr(mkldnn, "_linear_pointwise")
                and mkldnn._is_mkldnn_bf16_supported())


def bf16_decoding_model(model: nn.Module) -> nn.Module:
    """The model in bfloat16 for decoding on the CPU: every linear layer, the tied pre-softmax layer
    included, a ``PackedLinear`` where oneDNN's bf16 kernels run here (a plain bf16 model elsewhere).
    The weights are shared with the bf16 model, plus one reordered copy of each matrix."""
    model = model.to(torch.bfloat16).eval()
    if not packed_bf16_possible():
        return model
    few_onednn_kernels()
    embed = getattr(model, "tgt_embed", None) or getattr(model, "embed", None)
    if getattr(model, "output_proj", False) is None and embed is not None:
        model.output_proj = PackedLinear(embed.weight, None)  # the tied projection, packed too
    return _swap_layers(model, lambda m: type(m) is nn.Linear, lambda m: PackedLinear(m.weight, m.bias))
