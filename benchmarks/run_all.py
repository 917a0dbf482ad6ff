"""Runs every benchmark in order and writes benchmarks/results/*.json (see BENCHMARKS.md):

  1. ceilings            python -m benchmarks.ceilings
  2. training throughput python -m benchmarks.train_throughput --size {tiny,base} --dtype {fp32,bf16}
  3. decoding throughput python -m benchmarks.decode_throughput --size {tiny,base}
  4. peak memory         part of 2 and 3 (one subprocess per system)
  5. quality             python -m benchmarks.quality --minutes 60   (only with --quality: an hour)
  6. attention layers    python -m benchmarks.relative_attention; python -m benchmarks.table1
  +  levers tried         python -m benchmarks.levers {decode,train} --size tiny   (only with --levers)

Each part runs alone with its own command. The ceilings run first so that training MFU has a
denominator. Parts run one after another in separate processes, never side by side.

Run:  python -m benchmarks.run_all [--quick] [--quality] [--levers] [--sizes tiny base] [--results DIR]
--quick: few repeats and tiny only, to check that everything runs (figures are not meaningful).
"""

from __future__ import annotations

import argparse
import subprocess
import sys

from .common import ROOT


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--sizes", nargs="+", choices=["tiny", "base"], default=["tiny", "base"])
    p.add_argument("--dtypes", nargs="+", choices=["fp32", "bf16"], default=["fp32", "bf16"])
    p.add_argument("--quick", action="store_true", help="smoke run: tiny, fp32, 2 repeats")
    p.add_argument("--quality", action="store_true", help="also run item 5 (60 minutes of training)")
    p.add_argument("--levers", action="store_true", help="also measure the levers tried (benchmarks/levers.py)")
    p.add_argument("--minutes", type=float, default=60, help="quality training budget (default 60)")
    p.add_argument("--results", default=None, help="folder for the JSON results (default benchmarks/results)")
    p.add_argument("--threads", type=int, default=None)
    p.add_argument("--dry-run", action="store_true", help="print the commands, run nothing")
    args = p.parse_args(argv)

    results = ["--results", args.results] if args.results else []
    threads = ["--threads", str(args.threads)] if args.threads else []
    sizes, dtypes = (["tiny"], ["fp32"]) if args.quick else (args.sizes, args.dtypes)
    quick_ceil = ["--sizes", "256", "512", "--copy-mib", "64", "--repeats", "3"] if args.quick else []
    quick_train = ["--steps", "2", "--warmup", "1", "--batches", "2"] if args.quick else []
    quick_decode = ["--repeats", "1", "--warmup", "1"] if args.quick else []

    parts = [["benchmarks.ceilings", *quick_ceil, *threads]]
    parts += [["benchmarks.train_throughput", "--size", s, "--dtype", d, *quick_train, *threads]
              for s in sizes for d in dtypes]
    parts += [["benchmarks.decode_throughput", "--size", s, *quick_decode, *threads] for s in sizes]
    quick_layers = ["--lengths", "64", "128", "--repeats", "2"]
    parts += [["benchmarks.relative_attention", *(["--lengths", "128", "256", "--repeats", "2"] if args.quick else []),
               *threads], ["benchmarks.table1", *(quick_layers if args.quick else []), *threads]]
    if args.levers:
        quick_levers = ["--repeats", "1", "--steps", "1", "--warmup", "1"] if args.quick else []
        parts += [["benchmarks.levers", what, "--size", "tiny", *quick_levers, *threads] for what in ("decode", "train")]
    if args.quality:
        quick_quality = ["--out", "runs/bench-quality-quick", "--test-lines", "20", "--set", "train.save_every=2",
                         "--set", "train.valid_every=4", "--set", "train.valid_bleu_sentences=20"] if args.quick else []
        parts.append(["benchmarks.quality", "--minutes", f"{args.minutes:g}", *quick_quality])
    for part in parts:
        print(f"\n== python -m {' '.join(part + results)}", file=sys.stderr, flush=True)
        if args.dry_run:
            continue
        subprocess.run([sys.executable, "-m", *part, *results], cwd=ROOT.parent, check=True)


if __name__ == "__main__":
    main()
