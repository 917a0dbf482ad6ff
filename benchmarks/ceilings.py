"""Item 1, machine ceilings: fp32 and bf16 matmul GFLOP/s and memory-copy GB/s, in one run.

Every other figure can then be read as a fraction of what this machine can do:
  * matmul: ``torch.mm`` of two n x n matrices (2 n^3 FLOPs), median over repeats, per dtype;
    the best n of a few sizes is the ceiling (small n is overhead-bound, large n cache-bound).
  * memory copy: ``dst.copy_(src)`` of a buffer far larger than the last-level cache; each byte
    is read once and written once, so GB/s = 2 x bytes / seconds (the STREAM "copy" convention).
The dtypes and the copy are interleaved round by round (see ``common.interleave``).

Run:  python -m benchmarks.ceilings [--sizes 512 1024] [--copy-mib 256] [--repeats 10]
Writes benchmarks/results/ceilings.json (or --results DIR).
"""

from __future__ import annotations

import argparse

from .common import add_common_args, interleave, median, print_table, set_threads, write_result


def measure(sizes: list[int], copy_mib: int, repeats: int, warmup: int) -> dict:
    import torch

    fns, flops = {}, {}
    for dtype_name, dtype in (("fp32", torch.float32), ("bf16", torch.bfloat16)):
        for n in sizes:
            a, b = torch.randn(n, n).to(dtype), torch.randn(n, n).to(dtype)
            out = torch.empty(n, n, dtype=dtype)
            fns[f"matmul_{dtype_name}_{n}"] = lambda a=a, b=b, out=out: torch.mm(a, b, out=out)
            flops[f"matmul_{dtype_name}_{n}"] = 2.0 * n**3
    numel = copy_mib * 2**20 // 4
    src, dst = torch.randn(numel), torch.empty(numel)
    fns["copy"] = lambda: dst.copy_(src)

    times = interleave(fns, repeats, warmup)
    result: dict = {"matmul": {}, "copy": {}}
    for name, f in flops.items():
        result["matmul"][name] = {"median_s": median(times[name]), "gflops": f / median(times[name]) / 1e9}
    copy_bytes = 2 * numel * 4  # read + write
    result["copy"] = {"mib": copy_mib, "median_s": median(times["copy"]),
                      "gb_per_s": copy_bytes / median(times["copy"]) / 1e9}
    for dtype_name in ("fp32", "bf16"):
        best = max((k for k in flops if f"_{dtype_name}_" in k), key=lambda k: result["matmul"][k]["gflops"])
        result[f"{dtype_name}_matmul_gflops"] = result["matmul"][best]["gflops"]
        result[f"{dtype_name}_matmul_best_n"] = int(best.rsplit("_", 1)[1])
    result["copy_gb_per_s"] = result["copy"]["gb_per_s"]
    return result


def main(argv: list[str] | None = None) -> dict:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--sizes", type=int, nargs="+", default=[512, 1024], help="matmul sizes n (default 512 1024)")
    p.add_argument("--copy-mib", type=int, default=256, help="copy buffer size in MiB (default 256)")
    p.add_argument("--repeats", type=int, default=10)
    p.add_argument("--warmup", type=int, default=2)
    add_common_args(p)
    args = p.parse_args(argv)
    threads = set_threads(args.threads)
    result = measure(args.sizes, args.copy_mib, args.repeats, args.warmup)
    rows = [{"what": k, "GFLOP/s": v["gflops"]} for k, v in result["matmul"].items()]
    rows.append({"what": f"copy {args.copy_mib} MiB", "GB/s": result["copy_gb_per_s"]})
    print_table(rows, ["what", "GFLOP/s", "GB/s"])
    payload = {"threads": threads, "repeats": args.repeats, "warmup": args.warmup, **result}
    write_result("ceilings", payload, args.results)
    return payload


if __name__ == "__main__":
    main()
