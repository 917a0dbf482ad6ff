"""``aiayn info``: the host report (CPU, the instructions that decide bf16 and int8 speed, what
``--precision auto`` picks) and, with ``--ceilings``, matrix-product speed per number format."""

from __future__ import annotations

import argparse
import json
import time

import torch

from ..precision import host_report

# (M, K, N) of a training batch's projections, the output layer, a big square, and a decoding step's small M
SHAPES = ((64, 256, 1024), (64, 256, 8000), (256, 512, 2048), (1024, 1024, 1024), (4, 256, 256))


def add_parser(subparsers) -> argparse.ArgumentParser:
    p = subparsers.add_parser(
        "info", help="what this machine is: CPU, bf16 / int8 instructions, matmul speed per number format",
        description="Prints the host report that every speed figure should carry: the CPU model, the "
                    "instructions found (AVX-512 BF16 and AMX make bfloat16 fast; VNNI and AMX-INT8 make int8 "
                    "fast) and what --precision auto would choose here.",
        epilog="example:\n  aiayn info --ceilings --threads 1", formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--ceilings", action="store_true",
                   help="also time one matrix product per shape in float32, bfloat16 and int8 (a few seconds)")
    p.add_argument("--threads", type=int, help="torch threads for --ceilings (default: torch's)")
    p.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    return p


def matmul_gflops(m: int, k: int, n: int, fmt: str, repeats: int = 20) -> float:
    """Median GFLOP/s of an (M x K) @ (K x N) product; int8 through torch._int_mm (int32 sums)."""
    g = torch.Generator().manual_seed(0)
    if fmt == "int8":
        a = torch.randint(-64, 64, (m, k), dtype=torch.int8, generator=g)
        b = torch.randint(-64, 64, (k, n), dtype=torch.int8, generator=g)
        run = lambda: torch._int_mm(a, b)  # noqa: E731
    else:
        dtype = {"fp32": torch.float32, "bf16": torch.bfloat16}[fmt]
        a, b = torch.randn(m, k, generator=g).to(dtype), torch.randn(k, n, generator=g).to(dtype)
        run = lambda: a @ b  # noqa: E731
    for _ in range(3):
        run()
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return 2 * m * k * n / sorted(times)[repeats // 2] / 1e9


def ceilings() -> list[dict]:
    rows = []
    for m, k, n in SHAPES:
        row = {"shape": f"{m} x {k} x {n}"}
        for fmt in ("fp32", "bf16", "int8"):
            try:
                row[fmt] = round(matmul_gflops(m, k, n, fmt), 1)
            except RuntimeError:  # a torch build or CPU without that kernel
                row[fmt] = None
        rows.append(row)
    return rows


def run(args: argparse.Namespace) -> None:
    if args.threads:
        torch.set_num_threads(args.threads)
    report = host_report()
    if args.ceilings:
        report["matmul_gflops"] = ceilings()
    if args.json:
        print(json.dumps(report, indent=2))
        return
    print(f"CPU: {report['cpu']} ({report['cpus']} usable, torch uses {report['torch_threads']} threads)")
    print(f"instructions: {' '.join(report['instructions']) or 'none of ' + ', '.join(['AVX2', 'AVX-512', 'AMX'])}")
    print(f"torch {report['torch']}, kernels for {report['torch_cpu_capability']}; "
          f"--precision auto picks {report['auto_precision_cpu']} on this CPU; --dtype int8 --compile multiplies "
          f"{report['int8_compiled_rows']} rows by its int8 weights")
    for row in report.get("matmul_gflops", []):
        ratios = {f: row[f] / row["fp32"] for f in ("bf16", "int8") if row.get(f) and row.get("fp32")}
        cells = "  ".join(f"{f} {row[f]:7.1f}" if row.get(f) else f"{f}    n/a" for f in ("fp32", "bf16", "int8"))
        print(f"  matmul {row['shape']:>18}  GFLOP/s  {cells}  "
              + "  ".join(f"{f}/fp32 {r:.2f}x" for f, r in ratios.items()))
