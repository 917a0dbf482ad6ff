"""The paper's Table 1 measured: per-layer time and memory against sequence length n for each layer type.

Table 1 of the paper ("Maximum path lengths, per-layer complexity and minimum number of sequential
operations for different layer types") gives O() bounds; this measures one layer of each type at
d = 512 on this machine, forward and backward, for n = 64, 128, ..., 4096:

  self_attention  aiayn MultiHeadAttention(512, 8 heads, d_k = d_v = 64), full (non-causal), fused SDPA
  recurrent       torch.nn.GRU(512, 512), one layer, batch_first
  convolutional   torch.nn.Conv1d(512, 512, k, padding k//2)                       (k = --kernel, 3)
  separable       depthwise Conv1d(512, 512, k, groups=512) + pointwise Conv1d(512, 512, 1)
  restricted      MultiHeadAttention with LocalAttention(block=r, memory=r, causal=False): each query
                  sees at most 3r keys (its block of r and r on either side)       (r = --radius, 64)
  relative        MultiHeadAttention with RelativePositions(8, 64, 64, max_distance=n, causal=True),
                  causal: the Music Transformer's skewed form (not in the paper's table)

``restricted`` needs aiayn.model.attention.local; where it is missing the kind is skipped and
the output says so.

Time: all kinds at one n are built in ONE process and called A B C ... then ... C B A after warm-up
(``common.interleave``); the figure is the median of --repeats forward+backward steps (gradients
of the input and the weights, set to None before each step). Memory: each (kind, n) alone in a
subprocess: one warm-up step, then the peak resident memory of one more step above what the process
held just before it (Linux: the high-water mark is reset through /proc/self/clear_refs and freed heap
returned with malloc_trim; where that is impossible, one cold step as in relative_attention.py).
It counts saved activations, the gradients and temporaries, not Python, torch or the weights.

A kind stops at the first n where its step would pass --time-cap seconds or --memory-cap-gib (its
last two measurements extrapolated, exponent clamped to [1, 2]) or already did; the JSON records
where and why. From the medians: the least-squares slope of log(time) on log(n) per kind, over all
measured n and over the upper half; achieved GFLOP/s from nominal FLOP counts (forward + backward
= 3 x forward); the n where self-attention becomes slower than the recurrent layer (log-log
interpolation; the paper: self-attention is faster while n < d); and the "sequential operations"
column measured: the GRU's time per position at batch 1 (n dependent steps, O(n)) against
self-attention's time (one parallel step, O(1)).

Maximum path length (not measured; it is a property of the masks). Let M be a layer's
connectivity mask (M[i, j]: output i reads input j). The path between positions i and j through a
stack is the least number of layers l with (M^l)[i, j] != 0 (boolean matrix power). Self-attention:
M is all ones (lower-triangular when causal, still one step to any earlier position): O(1).
Restricted self-attention: M is a band of half-width ~r (here a block band: a query block of r plus
r keys on either side), each layer extends the reach by r: O(n/r). Recurrent: the state carries
position t to t+1 only, M is the identity plus the sub-diagonal seen n times in sequence: O(n).
Convolution: a band of width k, O(n/k) layers; with dilations k^0, k^1, ... the reach multiplies by
k per layer: O(log_k n), the paper's entry.

Full run (quiet machine; writes benchmarks/results/table1.json and docs/table1.png):

    python -m benchmarks.table1

Smoke run (seconds; figures meaningless):

    python -m benchmarks.table1 --lengths 64 128 --repeats 2 --results /tmp/t1 --png /tmp/t1/table1.png

The Markdown tables go to stdout, progress to stderr.
"""

from __future__ import annotations

import argparse
import ctypes
import gc
import json
import math
import sys
from pathlib import Path

from .common import add_common_args, interleave, median, own_peak_rss_mib, peak_rss_of, set_threads, write_result
from .relative_attention import own_rss_mib

D, HEADS = 512, 8
DOCS_PNG = Path(__file__).resolve().parent.parent / "docs" / "table1.png"
# kind: (label, complexity per layer, sequential operations, maximum path length) as in the paper's Table 1
PAPER = {
    "self_attention": ("Self-Attention", "O(n²·d)", "O(1)", "O(1)"),
    "recurrent": ("Recurrent (GRU)", "O(n·d²)", "O(n)", "O(n)"),
    "convolutional": ("Convolutional", "O(k·n·d²)", "O(1)", "O(log_k(n))"),
    "separable": ("Separable convolution", "O(k·n·d + n·d²)", "O(1)", "O(log_k(n))"),
    "restricted": ("Self-Attention (restricted)", "O(r·n·d)", "O(1)", "O(n/r)"),
    "relative": ("Relative self-attention (causal, skewed)", "O(n²·d) (not in the table)", "O(1)", "O(1)"),
}
KINDS = tuple(PAPER)


def local_attention():
    """The LocalAttention class, or None where this checkout has no local attention yet."""
    try:
        from aiayn.model.attention.local import LocalAttention
    except ImportError:
        return None
    return LocalAttention


def build(kind: str, n: int, args):
    """A function running one forward and backward pass of one ``kind`` layer on (batch, n, d) inputs."""
    import torch
    from torch import nn

    from aiayn.model.attention import MultiHeadAttention, RelativePositions

    torch.manual_seed(0)
    k, d_h = args.kernel, D // HEADS
    channels_first = kind in ("convolutional", "separable")  # Conv1d's (B, d, n): no transposes timed
    x = torch.randn(*((args.batch, D, n) if channels_first else (args.batch, n, D)), requires_grad=True)
    if kind == "recurrent":
        layer = nn.GRU(D, D, batch_first=True)
        call = lambda: layer(x)[0]  # noqa: E731
    elif kind == "convolutional":
        layer = nn.Conv1d(D, D, k, padding=k // 2)
        call = lambda: layer(x)  # noqa: E731
    elif kind == "separable":
        layer = nn.Sequential(nn.Conv1d(D, D, k, padding=k // 2, groups=D), nn.Conv1d(D, D, 1))
        call = lambda: layer(x)  # noqa: E731
    else:
        variant, causal = None, False
        if kind == "restricted":
            variant = local_attention()(block=args.radius, memory=args.radius, causal=False)
        elif kind == "relative":
            variant, causal = RelativePositions(HEADS, d_h, d_h, max_distance=n, causal=True), True
        layer = MultiHeadAttention(D, HEADS, d_h, d_h, variant=variant)
        call = lambda: layer(x, causal=causal)[0]  # noqa: E731

    def step():
        layer.zero_grad(set_to_none=True)
        x.grad = None
        call().sum().backward()
    return step


def nominal_flops(kind: str, n: int, args) -> float:
    """Forward + backward FLOPs (3 x forward, 2 per multiply-add) of the matmuls the O() column counts."""
    d, k, r = D, args.kernel, args.radius
    macs = {"self_attention": 4 * n * d * d + 2 * n * n * d,  # QKV and output projections; QKᵀ and AV
            "recurrent": 6 * n * d * d,  # W_ih and W_hh, three gates, each position
            "convolutional": k * n * d * d,
            "separable": k * n * d + n * d * d,
            "restricted": 4 * n * d * d + 2 * n * min(3 * r, n) * d,  # each query against <= 3r keys
            "relative": 4 * n * d * d + 3 * n * n * d}[kind]  # plus Q E_rᵀ (skewed)
    return 6.0 * macs * args.batch


# Memory: one (kind, n) per subprocess -------------------------------------------------------------------
def _reset_peak() -> bool:
    """Resets this process's VmHWM (Linux >= 4.0); False where the kernel does not allow it."""
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
        return True
    except OSError:
        return False


def child(kind: str, n: int, args) -> None:
    """Measures one kind at one n alone and prints its memory as JSON (read by ``common.peak_rss_of``)."""
    set_threads(args.threads)
    step = build(kind, n, args)
    warm = _reset_peak()
    if warm:  # a first step loads kernels and thread pools; then forget its peak and its freed heap
        step()
        gc.collect()
        try:
            ctypes.CDLL("libc.so.6").malloc_trim(0)
        except (OSError, AttributeError):
            pass
        _reset_peak()
    before = own_rss_mib()
    step()
    print(json.dumps({"kind": kind, "n": n, "method": "warm" if warm else "cold", "peak_rss_mib": own_peak_rss_mib(),
                      "extra_mib": round(own_peak_rss_mib() - before, 1)}))


# Analysis -------------------------------------------------------------------------------------------
def slope(points: list[tuple[float, float]]) -> float | None:
    """Least-squares slope of log(y) on log(x); None with fewer than two points."""
    pts = [(math.log(x), math.log(y)) for x, y in points if x > 0 and y and y > 0]
    if len(pts) < 2:
        return None
    mx, my = sum(p[0] for p in pts) / len(pts), sum(p[1] for p in pts) / len(pts)
    sxx = sum((p[0] - mx) ** 2 for p in pts)
    return sum((p[0] - mx) * (p[1] - my) for p in pts) / sxx if sxx else None


def predicted_over(history: list[tuple[int, float]], n: int, cap: float) -> float | None:
    """The extrapolated value at n when it passes ``cap`` (else None), from the last two measurements."""
    if not history:
        return None
    n1, y1 = history[-1]
    p = 2.0
    if len(history) >= 2:
        p = min(2.0, max(1.0, slope(history[-2:]) or 2.0))
    guess = y1 * (n / n1) ** p
    return guess if guess > cap else None


def crossover(sa: dict[int, float], rnn: dict[int, float]) -> dict:
    """Smallest n where self-attention's time passes the GRU's, interpolated in log-log between lengths."""
    ns = sorted(set(sa) & set(rnn))
    if not ns:
        return {"n": None, "note": "not measured"}
    gap = [math.log(sa[n] / rnn[n]) for n in ns]  # > 0: self-attention slower
    if gap[0] > 0:
        return {"n": None, "note": f"self-attention already slower at n = {ns[0]}"}
    for (a, ga), (b, gb) in zip(zip(ns, gap), zip(ns[1:], gap[1:])):
        if ga <= 0 < gb:
            log_n = math.log(a) + (math.log(b) - math.log(a)) * (-ga) / (gb - ga)
            return {"n": round(math.exp(log_n)), "note": f"interpolated between n = {a} and {b}"}
    return {"n": None, "note": f"self-attention faster at every measured n (up to {ns[-1]})"}


# Output ----------------------------------------------------------------------------------------------
def markdown(rows: list[dict], kinds: list[str], lengths: list[int], summary: dict, args, threads: int) -> str:
    by = {(r["kind"], r["n"]): r for r in rows}
    f = lambda v, fmt: "–" if v is None else format(v, fmt)  # noqa: E731
    out = [f"## Table 1 measured: d = {D}, batch {args.batch}, forward + backward, {threads} threads, "
           f"k = {args.kernel}, r = {args.radius}", "",
           "| Layer type | Complexity per layer (paper) | Sequential ops (paper) | Max path length (paper) "
           "| time slope, all n | time slope, upper half | memory slope | measured n | stopped |",
           "|---|---|---|---|---|---|---|---|---|"]
    for kind in kinds:
        s, ms = summary["slopes"][kind], [n for n in lengths if (kind, n) in by]
        stop = summary["stopped"].get(kind)
        measured = "–" if not ms else str(ms[0]) if len(ms) == 1 else f"{ms[0]}–{ms[-1]}"
        stop = f"at n = {stop['at_n']}: {stop['reason']}" if stop else ""
        out.append(f"| {' | '.join(PAPER[kind])} | {f(s['time_all'], '.2f')} | {f(s['time_upper'], '.2f')} | "
                   f"{f(s['memory_all'], '.2f')} | {measured} | {stop} |")
    for title, key, fmt, scale in (("Median time per step (ms)", "median_s", ".3g", 1e3),
                                   ("Peak memory above the process's (MiB)", "extra_mib", ".4g", 1),
                                   ("Achieved GFLOP/s (nominal FLOPs / median time)", "gflops", ".3g", 1)):
        out += ["", f"### {title}", "", "| n | " + " | ".join(kinds) + " |", "|---" * (len(kinds) + 1) + "|"]
        for n in lengths:
            cells = [f(by[(k, n)].get(key) * scale if by.get((k, n), {}).get(key) is not None else None, fmt)
                     for k in kinds]
            out.append(f"| {n} | " + " | ".join(cells) + " |")
    c = summary["crossover"]
    out += ["", f"Self-attention slower than the recurrent layer from n ≈ {c['n'] if c['n'] else '–'} "
            f"({c['note']}); the paper: faster while n < d = {D}."]
    if "recurrent" in kinds and "self_attention" in kinds:
        out += ["", f"### Sequential operations (batch {args.batch}): GRU O(n) dependent steps against "
                "self-attention O(1)", "",
                "| n | GRU ms | GRU µs per position | self-attention ms | GRU / self-attention |",
                "|---|---|---|---|---|"]
        for n in lengths:
            g, a = by.get(("recurrent", n)), by.get(("self_attention", n))
            if g and a:
                out.append(f"| {n} | {g['median_s'] * 1e3:.3g} | {g['median_s'] / n * 1e6:.3g} | "
                           f"{a['median_s'] * 1e3:.3g} | {g['median_s'] / a['median_s']:.3g} |")
    return "\n".join(out)


def plot(rows: list[dict], kinds: list[str], summary: dict, png: Path, args, threads: int) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(12, 4.8))
    for ax, key, scale, ylabel in ((axes[0], "median_s", 1e3, "median time per forward + backward (ms)"),
                                   (axes[1], "extra_mib", 1, "peak memory above the process's (MiB)")):
        for kind in kinds:
            pts = [(r["n"], r[key] * scale) for r in rows if r["kind"] == kind and r.get(key) and r[key] > 0]
            if not pts:
                continue
            s = slope(pts)
            ax.plot(*zip(*pts), "o-", ms=4, label=f"{kind} (slope {s:.2f})" if s is not None else kind)
        ys = [y for line in ax.get_lines() for y in line.get_ydata()]
        xs = sorted({r["n"] for r in rows})
        if ys and len(xs) > 1:  # guides: ∝ n and ∝ n², from the smallest value at the smallest n
            for p, style in ((1, ":"), (2, "--")):
                ax.plot(xs, [min(ys) * (x / xs[0]) ** p for x in xs], style, color="grey", lw=1, label=f"∝ n^{p}")
        if xs and xs[0] <= D <= xs[-1]:
            ax.axvline(D, color="lightgrey", lw=1)
        ax.set(xscale="log", yscale="log", xlabel="sequence length n", ylabel=ylabel)
        ax.set_xticks(xs, [str(x) for x in xs])
        ax.xaxis.set_minor_locator(matplotlib.ticker.NullLocator())
        ax.yaxis.set_major_formatter(matplotlib.ticker.FuncFormatter(lambda v, _: f"{v:g}"))
        if ax.get_lines():
            ax.legend(fontsize=7, loc="best")
        else:
            ax.text(0.5, 0.5, "not measured", transform=ax.transAxes, ha="center")
    c = summary["crossover"]["n"]
    if c:
        axes[0].axvline(c, color="black", lw=0.8, ls="-.")
        axes[0].annotate(f"self-attention = GRU\nat n ≈ {c}", (c, axes[0].get_ylim()[1]), fontsize=7, va="top")
    axes[0].set_title(f"time (d = {D}, batch {args.batch}, {threads} threads; grey line: n = d)", fontsize=9)
    axes[1].set_title("memory (one step alone in a subprocess)", fontsize=9)
    fig.tight_layout()
    png.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(png, dpi=120)
    plt.close(fig)
    print(f"wrote {png}", file=sys.stderr)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--lengths", type=int, nargs="+", default=[64, 128, 256, 512, 1024, 2048, 4096],
                   help="sequence lengths n, ascending (default 64 ... 4096, powers of two)")
    p.add_argument("--kinds", nargs="+", choices=KINDS, default=list(KINDS), metavar="KIND",
                   help=f"layer types, any of {', '.join(KINDS)} (default: all)")
    p.add_argument("--batch", type=int, default=1, help="batch size (default 1: the sequential-operations case)")
    p.add_argument("--kernel", type=int, default=3, help="convolution width k, odd (default 3)")
    p.add_argument("--radius", type=int, default=64, help="restricted attention's neighbourhood r (default 64)")
    p.add_argument("--repeats", type=int, default=5, help="timed steps per kind and n; the median is kept (default 5)")
    p.add_argument("--warmup", type=int, default=1, help="untimed steps per kind and n first (default 1)")
    p.add_argument("--time-cap", type=float, default=20.0,
                   help="stop a kind once one step takes (or would take) more seconds than this (default 20)")
    p.add_argument("--memory-cap-gib", type=float, default=8.0,
                   help="stop a kind once one step needs (or would need) more GiB than this (default 8)")
    p.add_argument("--png", type=Path, default=DOCS_PNG, help=f"the plot (default {DOCS_PNG})")
    p.add_argument("--child", nargs=2, metavar=("KIND", "N"), help=argparse.SUPPRESS)
    add_common_args(p)
    args = p.parse_args()
    if args.kernel % 2 == 0:
        p.error("--kernel must be odd (padding k//2 keeps the length n)")
    if args.child:
        return child(args.child[0], int(args.child[1]), args)
    threads = set_threads(args.threads)
    lengths, kinds = sorted(args.lengths), [k for k in KINDS if k in args.kinds]
    skipped = {}
    if "restricted" in kinds and local_attention() is None:
        kinds.remove("restricted")
        skipped["restricted"] = "aiayn.model.attention.local.LocalAttention not found in this checkout"
    stopped: dict[str, dict] = {}
    times_hist: dict[str, list] = {k: [] for k in kinds}
    mem_hist: dict[str, list] = {k: [] for k in kinds}
    cap_mib = args.memory_cap_gib * 1024
    rows = []
    for n in lengths:
        run = []
        for kind in (k for k in kinds if k not in stopped):
            t, m = predicted_over(times_hist[kind], n, args.time_cap), predicted_over(mem_hist[kind], n, cap_mib)
            if t or m:
                why = f"predicted {t:.3g} s > {args.time_cap:g} s" if t else f"predicted {m / 1024:.3g} GiB > " \
                      f"{args.memory_cap_gib:g} GiB"
                stopped[kind] = {"at_n": n, "reason": why}
            else:
                run.append(kind)
        memory = {}
        for kind in list(run) if not args.no_memory else []:
            extra = ["--threads", str(threads), "--batch", str(args.batch), "--kernel", str(args.kernel),
                     "--radius", str(args.radius)]
            try:
                memory[kind] = peak_rss_of(["benchmarks.table1", "--child", kind, str(n), *extra])
            except RuntimeError as e:
                stopped[kind] = {"at_n": n, "reason": f"memory subprocess failed: {e}"}
                run.remove(kind)
        if not run:
            continue
        print(f"n = {n}: timing {', '.join(run)}", file=sys.stderr)
        times = interleave({k: build(k, n, args) for k in run}, args.repeats, warmup=args.warmup)
        for kind in run:
            row = {"kind": kind, "n": n, "median_s": median(times[kind]), "times_s": times[kind],
                   "gflops": nominal_flops(kind, n, args) / median(times[kind]) / 1e9}
            times_hist[kind].append((n, row["median_s"]))
            if kind in memory:
                row.update(extra_mib=memory[kind]["extra_mib"], memory_method=memory[kind]["method"])
                mem_hist[kind].append((n, row["extra_mib"]))
            rows.append(row)
            later = [x for x in lengths if x > n]
            over = (f"{row['median_s']:.3g} s > {args.time_cap:g} s" if row["median_s"] > args.time_cap else
                    f"{row['extra_mib'] / 1024:.3g} GiB > {args.memory_cap_gib:g} GiB"
                    if row.get("extra_mib", 0) > cap_mib else None)
            if over and later:
                stopped[kind] = {"at_n": later[0], "reason": f"measured {over} at n = {n}"}

    def half(pts):
        return pts[len(pts) // 2:] if len(pts) >= 4 else pts[-2:]
    summary = {
        "slopes": {k: {"time_all": slope(times_hist[k]), "time_upper": slope(half(times_hist[k])),
                       "memory_all": slope(mem_hist[k]), "memory_upper": slope(half(mem_hist[k]))} for k in kinds},
        "crossover": crossover(dict(times_hist.get("self_attention", [])), dict(times_hist.get("recurrent", []))),
        "stopped": stopped, "skipped": skipped,
    }
    print(markdown(rows, kinds, lengths, summary, args, threads))
    for kind, why in skipped.items():
        print(f"\n{kind} not measured: {why}")
    plot(rows, kinds, summary, args.png, args, threads)
    write_result("table1", {
        "d_model": D, "heads": HEADS, "batch": args.batch, "kernel": args.kernel, "radius": args.radius,
        "repeats": args.repeats, "time_cap_s": args.time_cap, "memory_cap_gib": args.memory_cap_gib,
        "paper": {k: dict(zip(("label", "complexity", "sequential_ops", "max_path_length"), v))
                  for k, v in PAPER.items()},
        "rows": rows, **summary, "png": str(args.png)}, args.results)


if __name__ == "__main__":
    main()
