"""Item 2, training throughput: target tokens/s and model FLOPs utilisation (MFU) of one training
step (forward, label-smoothed loss, backward, Adam + schedule), aiayn against two peers:

  aiayn     aiayn.Transformer
  torch_nn  the same architecture on torch.nn.Transformer (benchmarks/peers.py)
  marian    Hugging Face transformers' MarianMTModel configured to the same sizes, random weights

All three use the same loss (aiayn.label_smoothed_cross_entropy, eps 0.1, divided by the real target
tokens) and the same optimiser (aiayn.build_optimizer: Adam 0.9/0.98/1e-9 with the warm-up schedule),
on the same batches:
  fixed     64 x 32 random source and 64 x 32 random target tokens (no padding)
  bucketed  a fixed seeded set of --batches of the trainer's own token-bucketed batches of the
            built-in corpus (tiny preset: at most 1536 padded tokens per side); one timed call runs
            all of them
--dtype autocast runs forward and loss under torch.autocast(bfloat16); --dtype bf16 runs aiayn on its bf16
path (`aiayn train --precision bf16`: a bf16 working copy, float32 master weights) and the peers on autocast.

Timing: the systems are interleaved A B C A B C after --warmup untimed calls (common.interleave);
each call is one step (fixed) or one pass over the bucketed set. Reported: median target tokens/s
(real, non-pad tokens of tgt_out) per system, and the median paired ratio aiayn/peer (> 1: aiayn is
faster). Peak RSS: each system alone in a subprocess (--system NAME), unless --no-memory.

Model FLOPs per step (same formula for all systems; padded shapes, i.e. the work actually done;
B sentences, S source and T target positions, d = d_model, f = d_ff, L_e / L_d layers, V vocab):
  forward = B * [ L_e * (2 S (4d^2 + 2 d f) + 4 S^2 d)                       encoder linears, QK^T and AV
                + L_d * (2 T (8d^2 + 2 d f) + 2 S (2d^2) + 4 T^2 d + 4 T S d)  decoder: self-attn, cross-attn
                                                                               (Q, O on T; K, V on S), FFN
                + 2 T d V ]                                                  output projection
  training step = 3 x forward (backward = 2 x forward): the usual "6 x params x tokens" plus the
  attention and output-projection terms. Embedding lookups, softmax, LayerNorm and Adam are not
  counted. MFU = (model FLOPs per step / median step seconds) / matmul ceiling of the same dtype
  from benchmarks/results/ceilings.json (run `python -m benchmarks.ceilings` first).

Run:  python -m benchmarks.train_throughput --size tiny --dtype fp32 [--batch fixed|bucketed|both]
          [--steps 10] [--warmup 2] [--systems aiayn torch_nn marian]
Writes benchmarks/results/train_<size>_<dtype>.json (train_<size>_<dtype>_<batch>.json with --batch
fixed or bucketed), or into --results DIR.
"""

from __future__ import annotations

import argparse
import json
import sys
import time

import torch

from aiayn import Transformer, TransformerConfig, build_optimizer, label_smoothed_cross_entropy
from aiayn.data import Batch
from aiayn.precision import BF16Training

from .common import (
    add_common_args,
    interleave,
    load_ceilings,
    median,
    median_ratio,
    own_peak_rss_mib,
    peak_rss_of,
    print_table,
    set_threads,
    write_result,
)
from .peers import TorchNNTransformer, bucketed_batches, build_marian, model_config, to_marian_ids

SYSTEMS = ("aiayn", "torch_nn", "marian")


# Batches ------------------------------------------------------------------------------------------------
def fixed_batch(cfg: TransformerConfig, batch: int = 64, length: int = 32, seed: int = 0) -> Batch:
    g = torch.Generator().manual_seed(seed)
    src = torch.randint(4, cfg.src_vocab_size - 1, (batch, length), generator=g)
    tgt = torch.randint(4, cfg.src_vocab_size - 1, (batch, length), generator=g)
    tgt_in = torch.cat([torch.full((batch, 1), cfg.bos_id), tgt[:, :-1]], dim=1)
    return Batch(src, tgt_in, tgt, n_tokens=batch * length)


def get_batches(kind: str, cfg: TransformerConfig, n_bucketed: int) -> list[Batch]:
    if kind == "fixed":
        return [fixed_batch(cfg)]
    return bucketed_batches(n_bucketed)[0]


# Systems ----------------------------------------------------------------------------------------------------
def build(system: str, cfg: TransformerConfig, seed: int = 0):
    """(model, forward(batch) -> logits (B, T, V)), random weights."""
    torch.manual_seed(seed)
    if system == "aiayn":
        model = Transformer(cfg)
        return model, lambda b: model(b.src, b.tgt_in)
    if system == "torch_nn":
        model = TorchNNTransformer(cfg)
        return model, lambda b: model(b.src, b.tgt_in)
    if system == "marian":
        model = build_marian(cfg, seed)

        def forward(b: Batch) -> torch.Tensor:
            return model(input_ids=to_marian_ids(b.src, cfg), attention_mask=b.src != cfg.pad_id,
                         decoder_input_ids=to_marian_ids(b.tgt_in, cfg), use_cache=False).logits

        return model, forward
    raise ValueError(f"unknown system {system!r}; choose from {', '.join(SYSTEMS)}")


def make_step(system: str, cfg: TransformerConfig, batches: list[Batch], dtype: str):
    """A callable doing one training step per batch in ``batches`` (the work of one timed call).

    ``dtype``: fp32; autocast (forward and loss under torch.autocast(bfloat16)); bf16: aiayn's own path
    (``aiayn.precision.BF16Training``: a bf16 working copy, float32 master weights), which the peers
    have not, so they run autocast for it (the best way each allows).
    """
    model, forward = build(system, cfg)
    model.train()
    optimizer, scheduler = build_optimizer(model, cfg.d_model, warmup=4000)
    mixed = BF16Training(model) if dtype == "bf16" and system == "aiayn" else None
    if mixed:
        work = mixed.work.train()
        forward = lambda b: work(b.src, b.tgt_in)  # noqa: E731
    autocast = dtype == "autocast" or (dtype == "bf16" and mixed is None)

    def step() -> None:
        for b in batches:
            with torch.autocast("cpu", torch.bfloat16, enabled=autocast):
                out = label_smoothed_cross_entropy(forward(b), b.tgt_out, 0.1, cfg.pad_id)
            (out.loss / b.n_tokens).backward()
            if mixed:
                mixed.accumulate()
            optimizer.step()
            scheduler.step()
            optimizer.zero_grad(set_to_none=True)
            if mixed:
                mixed.refresh()

    return step, sum(p.numel() for p in model.parameters())


def model_flops(cfg: TransformerConfig, batches: list[Batch]) -> float:
    """Training FLOPs of one pass over ``batches`` (formula in the module docstring)."""
    d, f, v = cfg.d_model, cfg.d_ff, cfg.tgt_vocab_size
    total = 0.0
    for b in batches:
        n, s = b.src.shape
        t = b.tgt_in.size(1)
        enc = cfg.n_encoder_layers * (2 * s * (4 * d * d + 2 * d * f) + 4 * s * s * d)
        dec = cfg.n_decoder_layers * (2 * t * (8 * d * d + 2 * d * f) + 2 * s * 2 * d * d + 4 * t * t * d + 4 * t * s * d)
        total += 3 * n * (enc + dec + 2 * t * d * v)
    return total


# Running -------------------------------------------------------------------------------------------------
def compare(args, cfg: TransformerConfig, kind: str, ceiling_gflops: float | None) -> dict:
    batches = get_batches(kind, cfg, args.batches)
    steps, params = {}, {}
    for system in args.systems:
        steps[system], params[system] = make_step(system, cfg, batches, args.dtype)
    times = interleave(steps, args.steps, args.warmup)
    tokens = sum(b.n_tokens for b in batches)
    flops = model_flops(cfg, batches)
    result = {"batches": len(batches), "target_tokens_per_call": tokens,
              "padded_target_positions_per_call": sum(b.tgt_out.numel() for b in batches),
              "model_flops_per_call": flops, "systems": {}}
    for system, ts in times.items():
        achieved = flops / median(ts)
        result["systems"][system] = {
            "parameters": params[system],
            "seconds": ts,
            "median_s": median(ts),
            "median_tgt_tokens_per_s": median([tokens / t for t in ts]),
            "model_gflops_per_s": achieved / 1e9,
            "mfu": achieved / (ceiling_gflops * 1e9) if ceiling_gflops else None,
            # > 1: aiayn is faster than this system (paired per round: peer seconds / aiayn seconds)
            "aiayn_speedup_median": median_ratio(ts, times["aiayn"]) if "aiayn" in times else None,
        }
    return result


def child(args, cfg: TransformerConfig) -> None:
    """One system alone (for its peak RSS): warm-up + timed steps, then one JSON line on stdout."""
    batches = get_batches(args.batch, cfg, args.batches)
    step, _ = make_step(args.system, cfg, batches, args.dtype)
    for _ in range(args.warmup):
        step()
    start = time.perf_counter()
    for _ in range(args.steps):
        step()
    seconds = (time.perf_counter() - start) / args.steps
    print(json.dumps({"system": args.system, "batch": args.batch, "peak_rss_mib": own_peak_rss_mib(),
                      "alone_s_per_call": seconds, "alone_tgt_tokens_per_s": sum(b.n_tokens for b in batches) / seconds}))


def main(argv: list[str] | None = None) -> dict | None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--size", choices=["tiny", "base"], default="tiny")
    p.add_argument("--dtype", choices=["fp32", "bf16", "autocast"], default="fp32",
                   help="bf16: aiayn's bf16 path (peers: autocast); autocast: torch.autocast for all")
    p.add_argument("--batch", choices=["fixed", "bucketed", "both"], default="both")
    p.add_argument("--batches", type=int, default=20, help="bucketed batches per timed call (default 20)")
    p.add_argument("--steps", type=int, default=10, help="timed calls per system (default 10)")
    p.add_argument("--warmup", type=int, default=2, help="untimed calls per system first (default 2)")
    p.add_argument("--systems", nargs="+", choices=SYSTEMS, default=list(SYSTEMS))
    p.add_argument("--system", choices=SYSTEMS, help="(internal) run one system alone, for its peak RSS")
    add_common_args(p)
    args = p.parse_args(argv)
    threads = set_threads(args.threads)
    cfg = model_config(args.size)
    if args.system:
        return child(args, cfg)

    ceilings = load_ceilings(args.results)
    ceiling = ceilings[f"{'fp32' if args.dtype == 'fp32' else 'bf16'}_matmul_gflops"] if ceilings else None
    if ceiling is None:
        print("no ceilings.json: MFU left empty (run python -m benchmarks.ceilings first)", file=sys.stderr)
    payload = {"size": args.size, "dtype": args.dtype, "threads": threads, "steps": args.steps,
               "warmup": args.warmup, "model_config": cfg.to_dict(), "matmul_ceiling_gflops": ceiling, "runs": {}}
    kinds = ["fixed", "bucketed"] if args.batch == "both" else [args.batch]
    rows = []
    for kind in kinds:
        run = payload["runs"][kind] = compare(args, cfg, kind, ceiling)
        if not args.no_memory:
            for system in args.systems:
                argv_child = ["benchmarks.train_throughput", "--system", system, "--size", args.size,
                              "--dtype", args.dtype, "--batch", kind, "--batches", str(args.batches),
                              "--steps", str(max(1, min(args.steps, 3))), "--warmup", "1", "--threads", str(threads)]
                run["systems"][system]["memory"] = peak_rss_of(argv_child)
        for system, r in run["systems"].items():
            rows.append({"batch": kind, "system": system, "tgt tok/s": r["median_tgt_tokens_per_s"],
                         "aiayn speedup": r["aiayn_speedup_median"], "MFU": r["mfu"],
                         "peak RSS MiB": r.get("memory", {}).get("peak_rss_mib")})
    print_table(rows, ["batch", "system", "tgt tok/s", "aiayn speedup", "MFU", "peak RSS MiB"])
    suffix = "" if args.batch == "both" else f"_{args.batch}"  # a one-kind run never overwrites a full one
    write_result(f"train_{args.size}_{args.dtype}{suffix}", payload, args.results)
    return payload


if __name__ == "__main__":
    main()
