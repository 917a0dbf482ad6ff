"""Relative self-attention: the Music Transformer's skewing against Shaw's naive form and plain attention.

One causal self-attention layer (d_model 512, 8 heads, batch 1), forward and backward, at L = 512
... 4096. Three systems:
  * ``plain``: aiayn's attention with absolute positions (fused SDPA, causal);
  * ``skewed``: relative attention by skewing (Huang et al. 2018: S_rel = skew(Q E_rᵀ), an L x L
    intermediate per head; one table per head, distances up to L), the materialising path;
  * ``tiled``: the same relative attention block by block (aiayn's default since issue 21: no L x L
    tensor; ``model/attention/blockwise.py``; BENCHMARKS.md §8 measures it in a whole model);
  * ``naive``: Shaw et al.'s formulation, which gathers e_(j-i) into an L x L x D_h tensor (one
    table shared by the heads, its cheapest form) and contracts it with Q.
Time: all systems in one process, interleaved, medians and paired ratios. Memory: each system
and L alone in a subprocess; the figure is the peak resident memory above what the process held
before the step (``extra_mib``), so Python and torch themselves are not counted. ``naive`` stops
where its L x L x D_h tensor (and its gradient) would pass ``--naive-cap-gib``.

Run:  python -m benchmarks.relative_attention [--lengths 512 1024 2048 4096] [--repeats 5]
Writes benchmarks/results/relative_attention.json. The paper's figure for the intermediate at
L = 2048: 8.5 GB (naive, L x L x d_model) against 4.2 MB (skewing, L x d_model).
"""

from __future__ import annotations

import argparse
import json
import math

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

D_MODEL, HEADS = 512, 8
SYSTEMS = ("plain", "skewed", "tiled", "naive")


def build(system: str, length: int, device: str = "cpu"):
    """A function running one forward and backward pass of ``system`` at ``length`` (on CUDA it waits
    for the GPU, so wall-clock timing holds)."""
    import torch

    from aiayn.model.attention import MultiHeadAttention, RelativePositions, math_attention, relative

    torch.manual_seed(0)
    d_h = D_MODEL // HEADS
    variant = RelativePositions(HEADS, d_h, d_h, length, causal=True) if system in ("skewed", "tiled") else None
    layer = MultiHeadAttention(D_MODEL, HEADS, d_h, d_h, variant=variant).to(device)
    x = torch.randn(1, length, D_MODEL, requires_grad=True, device=device)
    sync = torch.cuda.synchronize if device.startswith("cuda") else (lambda: None)
    if system != "naive":
        tiled = relative.fast_path

        def step():
            # Per step, not per process: the timing process holds every system side by side.
            relative.fast_path = (lambda *args: False) if system == "skewed" else tiled
            try:
                out, _ = layer(x, causal=True)
                out.sum().backward()
            finally:
                relative.fast_path = tiled
            sync()
        return step

    table = torch.nn.Parameter(torch.randn(length, d_h, device=device) * d_h**-0.5)  # distances -(L-1)..0, shared
    ar = torch.arange(length, device=device)
    rows = (ar[None, :] - ar[:, None]).clamp(max=0) + length - 1  # (L, L)

    def step():
        q, k, v = layer.project_qkv(x)  # (1, H, L, D_h)
        e = table[rows]  # (L, L, D_h): Shaw's materialised relative embeddings
        bias = torch.einsum("bhtd,tsd->bhts", q, e) / math.sqrt(d_h)
        out, _ = math_attention(q, k, v, None, True, 0.0, bias)
        out.sum().backward()
        sync()
    return step


def naive_fits(length: int, cap_gib: float) -> bool:
    d_h = D_MODEL // HEADS
    return 3 * length * length * d_h * 4 / 2**30 <= cap_gib  # the L x L x D_h tensor, its gradient, one temporary


def child(system: str, length: int, threads: int | None, device: str = "cpu") -> None:
    """Measures one system at one length alone and prints its memory as JSON (on CUDA: the GPU's
    peak allocated memory above what the inputs and weights held)."""
    import torch

    set_threads(threads)
    step = build(system, length, device)
    if device.startswith("cuda"):
        before = torch.cuda.memory_allocated()
        torch.cuda.reset_peak_memory_stats()
        step()
        extra = (torch.cuda.max_memory_allocated() - before) / 2**20
        print(json.dumps({"system": system, "length": length, "extra_mib": round(extra, 1)}))
        return
    before = own_rss_mib()
    step()
    print(json.dumps({"system": system, "length": length, "peak_rss_mib": own_peak_rss_mib(),
                      "extra_mib": round(own_peak_rss_mib() - before, 1)}))


def own_rss_mib() -> float:
    for line in open("/proc/self/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--lengths", type=int, nargs="+", default=[512, 1024, 2048, 4096])
    p.add_argument("--repeats", type=int, default=5)
    p.add_argument("--naive-cap-gib", type=float, default=8.0)
    p.add_argument("--device", default="cpu", help="cpu or cuda (memory is then the GPU's peak allocation)")
    p.add_argument("--child", nargs=2, metavar=("SYSTEM", "L"), help=argparse.SUPPRESS)
    add_common_args(p)
    args = p.parse_args()
    if args.child:
        return child(args.child[0], int(args.child[1]), args.threads, args.device)
    threads = set_threads(args.threads)
    rows = []
    for length in args.lengths:
        systems = [s for s in SYSTEMS if s != "naive" or naive_fits(length, args.naive_cap_gib)]
        times = interleave({s: build(s, length, args.device) for s in systems}, args.repeats, warmup=1)
        for s in systems:
            row = {"L": length, "system": s, "median_s": median(times[s]),
                   "time_vs_plain": median_ratio(times[s], times["plain"])}
            if not args.no_memory:
                extra = ["--threads", str(threads), "--device", args.device]
                row["extra_mib"] = peak_rss_of(["benchmarks.relative_attention", "--child", s, str(length), *extra])["extra_mib"]
            rows.append(row)
        for s in SYSTEMS:
            if s not in systems:
                rows.append({"L": length, "system": s, "skipped": f"over {args.naive_cap_gib} GiB"})
    if not args.no_memory:
        plain = {r["L"]: r["extra_mib"] for r in rows if r["system"] == "plain"}
        for r in rows:
            if "extra_mib" in r:
                r["memory_vs_plain"] = r["extra_mib"] / max(plain[r["L"]], 1e-9)
    print_table(rows, ["L", "system", "median_s", "time_vs_plain", "extra_mib", "memory_vs_plain", "skipped"])
    name = "relative_attention" + ("" if args.device == "cpu" else "_cuda")
    write_result(name, {"device": args.device, "d_model": D_MODEL, "heads": HEADS, "batch": 1, "rows": rows}, args.results)


if __name__ == "__main__":
    main()
