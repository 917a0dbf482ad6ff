"""Where aiayn's time goes: torch.profiler over one benchmark call, the evidence behind every
"what bounds it" line in BENCHMARKS.md.

  decode  one call of decode_throughput's aiayn decoder (64 sentences x 50 forced tokens, --batch at a time)
  train   one call of train_throughput's aiayn step (the fixed 64 x 32 batch)

After --warmup untimed calls, one call runs under the profiler (CPU activities). Reported: the
operators with the most self CPU time, their share of the total, calls and time per call.

Also reported: the call's wall-clock time unprofiled (median of 3), so that what the operators do not account for
(Python between them) shows. With --compile --kernels, the compiled step's own kernels are listed one by one
(Inductor's cpp.enable_kernel_profile), not as one opaque call.

Run:  python -m benchmarks.profile decode --size tiny --beam 4 [--dtype bf16] [--batch 1] [--compile [--kernels]]
      python -m benchmarks.profile train --size tiny [--dtype fp32]
Writes benchmarks/results/<today>/profile_<what>_<size>[_beam<K>][_<dtype>][_compiled][_batch<N>].json (or --results DIR;
decoding in fp32 at 64 sentences a batch keeps its old name, profile_decode_<size>_beam<K>).
"""

from __future__ import annotations

import argparse
import statistics
import time

import torch
from torch.profiler import ProfilerActivity, profile

from .common import add_common_args, print_table, set_threads, write_result
from .decode_throughput import N_SENTENCES, make_decoder, prepare


def target(args):
    """The callable to profile and the result's name."""
    if args.what == "decode":
        prepare(args.size)
        if args.dtype == "autocast":
            raise SystemExit("profile decode: --dtype autocast is for train; decode takes fp32, bf16 or int8")
        system = {"fp32": "aiayn", "bf16": "aiayn_bf16", "int8": "aiayn_int8"}[args.dtype] \
            + ("_compiled" if args.compile else "")
        name = f"{args.size}_beam{args.beam}" + (f"_{args.dtype}" if args.dtype != "fp32" else "") \
            + ("_compiled" if args.compile else "") + (f"_batch{args.batch}" if args.batch != N_SENTENCES else "")
        return make_decoder(system, args.size, args.beam, torch.get_num_threads(), batch=args.batch), name
    if args.dtype == "int8" or args.batch != N_SENTENCES or args.compile:
        raise SystemExit("profile train: --dtype int8, --batch and --compile are for decode; "
                         "train takes fp32, bf16 or autocast")
    from .peers import model_config
    from .train_throughput import fixed_batch, make_step

    cfg = model_config(args.size)
    step, _ = make_step("aiayn", cfg, [fixed_batch(cfg)], args.dtype)
    return step, f"{args.size}_{args.dtype}"


def main(argv: list[str] | None = None) -> dict:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("what", choices=["decode", "train"])
    p.add_argument("--size", choices=["tiny", "base"], default="tiny")
    p.add_argument("--beam", type=int, default=1, help="decode: beam size, 1 = greedy (default 1)")
    p.add_argument("--batch", type=int, default=N_SENTENCES, choices=range(1, N_SENTENCES + 1), metavar="N",
                   help=f"decode: sentences per call, 1..{N_SENTENCES} (default {N_SENTENCES}; 1: one at a time)")
    p.add_argument("--dtype", choices=["fp32", "bf16", "autocast", "int8"], default="fp32",
                   help="train: fp32 (default), bf16 (aiayn's bf16 path) or autocast (torch.autocast bfloat16); "
                   "decode: fp32, bf16 or int8 (as `aiayn translate --dtype bfloat16 / int8`)")
    p.add_argument("--compile", action="store_true",
                   help="decode: the decoding step compiled, as `aiayn translate --compile` (it compiles in the warm-up)")
    p.add_argument("--kernels", action="store_true",
                   help="decode --compile: each kernel of the compiled step in the profile (slower: a record per kernel)")
    p.add_argument("--warmup", type=int, default=2, help="untimed calls first (default 2)")
    p.add_argument("--top", type=int, default=15, help="operators listed (default 15)")
    add_common_args(p)
    args = p.parse_args(argv)
    threads = set_threads(args.threads)
    if args.kernels:
        if not args.compile:
            raise SystemExit("profile: --kernels lists the compiled step's kernels; add --compile")
        from torch._inductor import config as inductor

        inductor.cpp.enable_kernel_profile = True  # before the step compiles, in the warm-up
    fn, name = target(args)
    name += "_kernels" if args.kernels else ""
    for _ in range(args.warmup):
        fn()
    walls = []
    for _ in range(3):
        start = time.perf_counter()
        fn()
        walls.append(time.perf_counter() - start)
    wall_ms = statistics.median(walls) * 1e3
    with profile(activities=[ProfilerActivity.CPU]) as prof:
        fn()
    events = sorted(prof.key_averages(), key=lambda e: e.self_cpu_time_total, reverse=True)
    total_us = sum(e.self_cpu_time_total for e in events)
    ops = [{"op": e.key, "self_ms": e.self_cpu_time_total / 1e3, "share": e.self_cpu_time_total / total_us,
            "calls": e.count, "us_per_call": e.self_cpu_time_total / e.count} for e in events[: args.top]]
    print(f"{args.what} {name}: {total_us / 1e3:.0f} ms of self CPU time in the profiled call, {threads} threads; "
          f"{wall_ms:.0f} ms wall-clock unprofiled")
    print_table(ops, ["op", "self_ms", "share", "calls", "us_per_call"])
    payload = {"what": args.what, "name": name, "threads": threads, "total_self_ms": total_us / 1e3,
               "wall_ms_unprofiled": wall_ms, "top_ops": ops}
    write_result(f"profile_{args.what}_{name}", payload, args.results)
    return payload


if __name__ == "__main__":
    main()
