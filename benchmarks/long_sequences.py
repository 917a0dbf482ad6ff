"""Long sequences (issue 21): relative and local attention block by block against fused full attention and
against their materialising paths, through the public API.

``aiayn.LanguageModel``: 2 layers, d_model 256, 4 heads, d_ff 1024, vocabulary 128, dropout 0, batch 1,
one forward + backward of the summed logits (no optimiser). Five systems:
  * ``full``: sinusoidal positions, fused causal SDPA (the reference);
  * ``relative-old`` / ``relative``: relative attention clipped at k = 512, materialising an L x L
    bias per head (the path kept for ``need_weights``) / block by block (``attention.blockwise``);
  * ``local-old`` / ``local``: 1D local attention, blocks of 256 with a memory of 512, with unfolded
    key windows / block by block.
Time: the systems of one L in ONE process, interleaved A B A B, medians and paired ratios to
``full``. Memory: each system and L alone in a subprocess: peak resident memory above the RSS
just before the step (``extra_mib``). ``--old-max`` skips timing the old paths past that L (at
8,192 the old relative step alone takes half a minute); their memory is still measured.

Run:  python -m benchmarks.long_sequences --threads 1 [--lengths 1024 4096 8192] [--repeats 3] [--no-time]
Writes benchmarks/results/long_sequences.json.
"""

from __future__ import annotations

import argparse
import json

from .common import (
    add_common_args,
    interleave,
    median,
    median_ratio,
    own_peak_rss_mib,
    peak_rss_of,
    print_table,
    set_threads,
    write_result,
)

SYSTEMS = ("full", "relative-old", "relative", "local-old", "local")
VARIANTS = {"full": {"attention": "full", "positional": "sinusoidal"},
            "relative": {"attention": "relative", "positional": "none", "max_relative_distance": 512},
            "local": {"attention": "local", "positional": "sinusoidal", "local_block": 256, "local_memory": 512}}


def build(system: str, length: int):
    """One forward + backward of ``system`` at ``length``, as a function."""
    import torch

    from aiayn import LanguageModel, LanguageModelConfig
    from aiayn.model.attention import local, relative

    old = system.endswith("-old")  # the materialising paths: never take the tiled one
    tiled = relative.fast_path, local.fast_path
    torch.manual_seed(0)
    config = dict(vocab_size=128, d_model=256, n_heads=4, d_ff=1024, n_layers=2, dropout=0.0, max_positions=length)
    model = LanguageModel(LanguageModelConfig.from_dict({**config, **VARIANTS[system.removesuffix("-old")]}))
    tokens = torch.randint(4, 128, (1, length))

    def step():
        # Per step, not per process: the timing process holds old and new systems side by side.
        relative.fast_path, local.fast_path = (lambda *args: False,) * 2 if old else tiled
        try:
            model.zero_grad(set_to_none=True)
            model(tokens).sum().backward()
        finally:
            relative.fast_path, local.fast_path = tiled
    return step


def child(system: str, length: int, threads: int | None) -> None:
    set_threads(threads)
    step = build(system, length)
    before = own_rss_mib()
    step()
    print(json.dumps({"system": system, "length": length, "extra_mib": round(own_peak_rss_mib() - before, 1)}))


def own_rss_mib() -> float:
    for line in open("/proc/self/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--lengths", type=int, nargs="+", default=[1024, 4096, 8192])
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--old-max", type=int, default=4096, help="time the old paths only up to this L")
    p.add_argument("--no-time", action="store_true", help="peak memory only (each system alone in a subprocess)")
    p.add_argument("--child", nargs=2, metavar=("SYSTEM", "L"), help=argparse.SUPPRESS)
    add_common_args(p)
    args = p.parse_args()
    if args.child:
        return child(args.child[0], int(args.child[1]), args.threads)
    threads = set_threads(args.threads)
    rows = []
    for length in args.lengths:
        timed = [] if args.no_time else [s for s in SYSTEMS if not s.endswith("-old") or length <= args.old_max]
        times = interleave({s: build(s, length) for s in timed}, args.repeats, warmup=1)
        for s in SYSTEMS:
            row = {"L": length, "system": s}
            if s in times:
                row.update(median_s=median(times[s]), time_vs_full=median_ratio(times[s], times["full"]))
            if not args.no_memory:
                row["extra_mib"] = peak_rss_of(["benchmarks.long_sequences", "--child", s, str(length),
                                                "--threads", str(threads)])["extra_mib"]
            rows.append(row)
            print(json.dumps(row), flush=True)
    if not args.no_memory:
        full = {r["L"]: r["extra_mib"] for r in rows if r["system"] == "full"}
        for r in rows:
            r["memory_vs_full"] = r["extra_mib"] / max(full[r["L"]], 1e-9)
    print_table(rows, ["L", "system", "median_s", "time_vs_full", "extra_mib", "memory_vs_full"])
    write_result("long_sequences", {"model": "LanguageModel 2 x 256, 4 heads, d_ff 1024, batch 1", "threads": threads,
                                    "rows": rows}, args.results)


if __name__ == "__main__":
    main()
