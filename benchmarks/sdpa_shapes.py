"""What a new shape costs each of SDPA's CUDA kernels: PyTorch's own choice against the choice without cuDNN.

Training batches and decoding steps change shape all the time (bucketed lengths, a growing cache), and cuDNN's
attention builds a graph for each new shape. This times, in bfloat16, forward and backward of one attention call
at each of --lengths new lengths (tiny's shape: 32 sentences, 4 heads of 64), once at a length never seen
(``first``) and then again (``again``), for the two call patterns of a Transformer (a padding mask; causal, no
mask). The restricted choice runs first, so that cuDNN meets every shape new.

Run:  python -m benchmarks.sdpa_shapes          (a CUDA GPU; writes benchmarks/results/<today>/sdpa_shapes.json)
"""

from __future__ import annotations

import argparse
import contextlib
import statistics
import sys
import time

import torch
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel

from aiayn.model.attention.core import CUDA_SDPA_BACKENDS
from benchmarks.common import write_result

CHOICES = {"without cuDNN (aiayn)": CUDA_SDPA_BACKENDS, "PyTorch's choice": None}


def _chosen(q, k, v, **options) -> str:
    """The backend PyTorch's dispatcher picks for this call (its private chooser; 'unknown' if it moved)."""
    try:
        index = torch._fused_sdp_choice(q, k, v, **options)
        return next(b.name for b in SDPBackend.__members__.values() if int(b.value) == index)
    except (AttributeError, RuntimeError, StopIteration, TypeError, ValueError):
        return "unknown"


def _time(fn) -> float:
    torch.cuda.synchronize()
    start = time.perf_counter()
    fn()
    torch.cuda.synchronize()
    return (time.perf_counter() - start) * 1e3


def measure(lengths: list[int], batch: int, heads: int, dim: int) -> list[dict]:
    rows = []
    for pattern in ("padding mask", "causal"):
        for name, backends in CHOICES.items():
            first, again, picked = [], [], set()
            for length in lengths:
                q, k, v = (torch.randn(batch, heads, length, dim, device="cuda", dtype=torch.bfloat16,
                                       requires_grad=True) for _ in range(3))
                options = {"is_causal": True} if pattern == "causal" else \
                    {"attn_mask": torch.ones(batch, 1, 1, length, dtype=torch.bool, device="cuda")}

                def call(q=q, k=k, v=v, options=options):
                    F.scaled_dot_product_attention(q, k, v, **options).sum().backward()

                with sdpa_kernel(backends) if backends else contextlib.nullcontext():
                    picked.add(_chosen(q, k, v, **options) if backends is None else "restricted")
                    first.append(_time(call))
                    again.append(statistics.median(_time(call) for _ in range(3)))
            rows.append({"pattern": pattern, "choice": name, "backend": sorted(picked),
                         "first_ms_median": statistics.median(first), "again_ms_median": statistics.median(again),
                         "first_ms": first, "again_ms": again})
            print(f"{pattern:13} {name:24} {'/'.join(sorted(picked)):22} new shape {rows[-1]['first_ms_median']:8.2f} ms"
                  f"   seen shape {rows[-1]['again_ms_median']:6.2f} ms")
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lengths", type=int, nargs="+", default=list(range(21, 61, 3)),
                        help="sequence lengths, each new to both choices (default 21, 24, ... 60)")
    parser.add_argument("--batch", type=int, default=32)
    parser.add_argument("--results", default=None, help="folder for the record (default benchmarks/results)")
    args = parser.parse_args(argv)
    if not torch.cuda.is_available():
        print("no CUDA device here: this benchmark times CUDA kernels", file=sys.stderr)
        return 2
    torch.manual_seed(0)
    warm = torch.randn(2, 2, 8, 64, device="cuda", dtype=torch.bfloat16)
    with sdpa_kernel(CUDA_SDPA_BACKENDS):
        F.scaled_dot_product_attention(warm, warm, warm)  # CUDA context and the library loads, before any timing
    rows = measure(args.lengths, args.batch, 4, 64)
    write_result("sdpa_shapes", {"device": torch.cuda.get_device_name(), "dtype": "bfloat16", "batch": args.batch,
                                 "heads": 4, "head_dim": 64, "lengths": args.lengths, "rows": rows}, args.results)
    return 0


if __name__ == "__main__":
    sys.exit(main())
