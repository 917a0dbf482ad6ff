"""Training throughput per number format, side by side in one run: aiayn in float32 and in its bf16 path
(``aiayn train --precision bf16``: a bf16 working copy, float32 master weights, fused loss) against
torch.nn.Transformer and HF Marian, each peer in float32 and under torch.autocast(bfloat16), the best
way each allows without changing its code.

Every entry trains the same architecture on the same batches with the same loss and optimiser
(``benchmarks.train_throughput``: model, batches and step are its ``build``/``get_batches``/``make_step``).
Entries are interleaved A B C ... after --warmup untimed calls (``common.interleave``). Reported: median
target tokens/s per entry and the median paired speed-up over aiayn float32 (> 1: faster than it).

Run:  python -m benchmarks.train_precision --size tiny [--batch fixed|bucketed] [--steps 5]
          [--entries aiayn:fp32 aiayn:bf16 torch_nn:fp32 torch_nn:autocast marian:fp32 marian:autocast]
Writes benchmarks/results/train_precision_<size>_<batch>.json (or into --results DIR), with the host report.
"""

from __future__ import annotations

import argparse

from .common import add_common_args, interleave, median, median_ratio, print_table, set_threads, write_result
from .peers import model_config
from .train_throughput import get_batches, make_step, model_flops

ENTRIES = ("aiayn:fp32", "aiayn:bf16", "aiayn:autocast", "torch_nn:fp32", "torch_nn:autocast", "marian:fp32",
           "marian:autocast")
DEFAULT = ("aiayn:fp32", "aiayn:bf16", "torch_nn:fp32", "torch_nn:autocast", "marian:fp32", "marian:autocast")


def main(argv: list[str] | None = None) -> dict:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--size", choices=["tiny", "base"], default="tiny")
    p.add_argument("--batch", choices=["fixed", "bucketed"], default="bucketed",
                   help="fixed: one 64 x 32 batch; bucketed: --batches of the trainer's own batches (default)")
    p.add_argument("--batches", type=int, default=6, help="bucketed batches per timed call (default 6)")
    p.add_argument("--steps", type=int, default=5, help="timed calls per entry (default 5)")
    p.add_argument("--warmup", type=int, default=1, help="untimed calls per entry first (default 1)")
    p.add_argument("--entries", nargs="+", choices=ENTRIES, default=list(DEFAULT), help="SYSTEM:FORMAT to compare")
    add_common_args(p)
    args = p.parse_args(argv)
    threads = set_threads(args.threads)
    cfg = model_config(args.size)
    batches = get_batches(args.batch, cfg, args.batches)
    steps = {}
    for entry in args.entries:
        system, fmt = entry.split(":")
        steps[entry] = make_step(system, cfg, batches, fmt)[0]
    times = interleave(steps, args.steps, args.warmup)
    tokens, flops = sum(b.n_tokens for b in batches), model_flops(cfg, batches)
    baseline = times.get("aiayn:fp32")
    result = {"size": args.size, "batch": args.batch, "batches": len(batches), "threads": threads,
              "steps": args.steps, "warmup": args.warmup, "target_tokens_per_call": tokens,
              "model_flops_per_call": flops, "entries": {}}
    for entry, ts in times.items():
        result["entries"][entry] = {
            "seconds": ts, "median_s": median(ts), "median_tgt_tokens_per_s": median([tokens / t for t in ts]),
            "model_gflops_per_s": flops / median(ts) / 1e9,
            # paired per round: aiayn fp32 seconds / this entry's seconds
            "speedup_over_aiayn_fp32": median_ratio(baseline, ts) if baseline else None}
    rows = [{"entry": e, "tgt tok/s": r["median_tgt_tokens_per_s"], "x aiayn fp32": r["speedup_over_aiayn_fp32"]}
            for e, r in result["entries"].items()]
    print_table(rows, ["entry", "tgt tok/s", "x aiayn fp32"])
    write_result(f"train_precision_{args.size}_{args.batch}", result, args.results)
    return result


if __name__ == "__main__":
    main()
