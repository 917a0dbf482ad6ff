"""Levers tried against the missed speed targets, each measured against plain aiayn in one run,
with whether it changes results. The evidence behind BENCHMARKS.md's "tried" lines; none of these
levers is part of the library.

  decode (greedy and beam search of decode_throughput: 64 sentences x 50 forced tokens)
    compile         torch.compile(model.decode_step, dynamic=True), Inductor with weight freezing
    packed_linear   decoder nn.Linear layers through MKL's packed GEMM and the output projection
                    through oneDNN's prepacked weights (PyTorch private ops: torch.ops.mkl /
                    torch.ops.mkldnn), so weights are not re-packed at every call
    math_attention  the explicit softmax(QK^T / sqrt(d_k))V for <= 4 queries instead of the fused
                    scaled_dot_product_attention, which runs one tiny GEMM per (row, head)
  train (train_throughput's fixed 64 x 32 batch: forward, label-smoothed loss, backward, Adam;
         --dtype bf16: aiayn's bf16 path, a bf16 working copy with float32 master weights)
    compile         torch.compile(model) (in bf16: of the working copy) for forward and backward

Timing: plain and levers interleaved after warm-up (common.interleave); reported are medians and
the median paired speed-up over plain (> 1: the lever is faster). first_call_s is the first call;
for ``compile`` that includes tracing and C++ compilation (Inductor's on-disk cache turned off).
Decode also reports how many of the 64 outputs are token-identical to plain aiayn's; train, the
largest logit difference between the compiled and eager forward of one model, dropout off.

Run:  python -m benchmarks.levers decode --size tiny [--beams 1 4] [--repeats 5]
      python -m benchmarks.levers train --size tiny [--dtype bf16] [--steps 10]
Writes benchmarks/results/levers_<what>_<size>[_bf16].json (or --results DIR).
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import time
from unittest import mock

import torch

import aiayn.model.attention as attention
from aiayn import Transformer, build_optimizer, label_smoothed_cross_entropy
from aiayn.precision import BF16Training

from .common import add_common_args, interleave, median, median_ratio, print_table, set_threads, write_result
from .decode_throughput import N_SENTENCES, OUT_LEN, aiayn_search, prepare
from .peers import model_config
from .train_throughput import fixed_batch, model_flops


# Decode levers: each a context manager that patches one model and restores it --------------------------
@contextlib.contextmanager
def plain(model, rows):
    yield


@functools.cache  # one compiled step per model, kept across calls
def _compiled_step(model):
    torch._inductor.config.freezing = True  # weights become constants (prepacked for the CPU GEMMs)
    return torch.compile(model.decode_step, dynamic=True)


def compiled(model, rows):
    return mock.patch.object(model, "decode_step", _compiled_step(model))


@functools.cache  # weights packed once per model and row count
def _packed_forwards(model, rows):
    forwards = {}
    for layer in model.decoder_layers:
        for m in layer.modules():
            if isinstance(m, torch.nn.Linear):
                w = torch.ops.mkl._mkl_reorder_linear_weight(m.weight.detach(), rows)
                forwards[m] = (lambda m, w: lambda x: torch.ops.mkl._mkl_linear(x, w, m.weight, m.bias, rows))(m, w)
    out = torch.ops.mkldnn._reorder_linear_weight(model.tgt_embed.weight.detach(), rows)
    return forwards, lambda h: torch.ops.mkldnn._linear_pointwise(h, out, None, "none", [], "")


def packed_linear(model, rows):
    forwards, project = _packed_forwards(model, rows)
    stack = contextlib.ExitStack()
    for m, f in forwards.items():
        stack.enter_context(mock.patch.object(m, "forward", f))
    stack.enter_context(mock.patch.object(model, "project", project))
    return stack


def math_attention(model, rows):
    fused = attention.ATTENTION_KERNELS["sdpa"]

    def few_queries_explicit(q, k, v, mask=None, causal=False, dropout_p=0.0, bias=None, need_weights=False):
        if q.size(-2) <= 4 and not causal:
            return attention.math_attention(q, k, v, mask, causal, dropout_p, bias)
        return fused(q, k, v, mask, causal, dropout_p, bias, need_weights)

    return mock.patch.dict(attention.ATTENTION_KERNELS, sdpa=few_queries_explicit)


DECODE_LEVERS = {"plain": plain, "compile": compiled, "packed_linear": packed_linear, "math_attention": math_attention}


def decode_levers(args) -> dict:
    prepare(args.size)
    runs = {}
    for beam in args.beams:
        model, search = aiayn_search(args.size, beam)
        outputs, first_call = {}, {}

        def call(name, beam=beam):
            def run():
                with DECODE_LEVERS[name](model, N_SENTENCES * beam):
                    start = time.perf_counter()
                    outputs[name] = search()
                    first_call.setdefault(name, time.perf_counter() - start)
            return run

        times = interleave({name: call(name) for name in DECODE_LEVERS}, args.repeats, args.warmup)
        runs[f"beam{beam}"] = {name: {
            "seconds": ts, "median_s": median(ts), "tokens_per_s": N_SENTENCES * OUT_LEN / median(ts),
            "speedup_over_plain": median_ratio(times["plain"], ts),
            "first_call_s": first_call[name],
            "identical_outputs": sum(a == b for a, b in zip(outputs[name], outputs["plain"])),
        } for name, ts in times.items()}
    return runs


# Train lever ------------------------------------------------------------------------------------------------
def train_levers(args) -> dict:
    cfg = model_config(args.size)
    batch = fixed_batch(cfg)
    steps, models, first_call = {}, {}, {}
    for name in ("plain", "compile"):
        torch.manual_seed(0)
        master = Transformer(cfg).train()
        mixed = BF16Training(master) if args.dtype == "bf16" else None
        model = mixed.work.train() if mixed else master  # the module that runs forward and backward
        forward = torch.compile(model) if name == "compile" else model
        optimizer, scheduler = build_optimizer(master, cfg.d_model, warmup=4000)
        models[name] = (model, forward)

        def step(forward=forward, optimizer=optimizer, scheduler=scheduler, mixed=mixed, name=name) -> None:
            start = time.perf_counter()
            out = label_smoothed_cross_entropy(forward(batch.src, batch.tgt_in), batch.tgt_out, 0.1, cfg.pad_id)
            (out.loss / batch.n_tokens).backward()
            if mixed:
                mixed.accumulate()
            optimizer.step()
            scheduler.step()
            optimizer.zero_grad(set_to_none=True)
            if mixed:
                mixed.refresh()
            first_call.setdefault(name, time.perf_counter() - start)

        steps[name] = step
    times = interleave(steps, args.steps, args.warmup)
    with torch.no_grad():  # one model, dropout off: how far its compiled forward is from its eager one
        model, forward = models["compile"]
        model.eval()
        gap = float((forward(batch.src, batch.tgt_in) - model(batch.src, batch.tgt_in)).float().abs().max())
    flops = model_flops(cfg, [batch])
    return {"fixed": {name: {
        "seconds": ts, "median_s": median(ts), "tgt_tokens_per_s": batch.n_tokens / median(ts),
        "model_gflops_per_s": flops / median(ts) / 1e9, "speedup_over_plain": median_ratio(times["plain"], ts),
        "first_call_s": first_call[name],
        **({"max_logit_difference_eval": gap} if name == "compile" else {}),
    } for name, ts in times.items()}}


def main(argv: list[str] | None = None) -> dict:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("what", choices=["decode", "train"])
    p.add_argument("--size", choices=["tiny", "base"], default="tiny")
    p.add_argument("--beams", type=int, nargs="+", default=[1, 4], help="decode: beam sizes, 1 = greedy (default 1 4)")
    p.add_argument("--repeats", type=int, default=5, help="decode: timed calls per lever (default 5)")
    p.add_argument("--steps", type=int, default=10, help="train: timed steps per lever (default 10)")
    p.add_argument("--warmup", type=int, default=2, help="untimed calls per lever first (default 2)")
    p.add_argument("--dtype", choices=["fp32", "bf16"], default="fp32",
                   help="train: fp32 (default) or aiayn's bf16 path (aiayn train --precision bf16)")
    add_common_args(p)
    args = p.parse_args(argv)
    threads = set_threads(args.threads)
    torch._inductor.config.fx_graph_cache = False  # first_call_s of compile: a full compile, not a cache hit
    runs = decode_levers(args) if args.what == "decode" else train_levers(args)
    rows = [{"run": run, "lever": name, "median s": r["median_s"], "speedup": r["speedup_over_plain"],
             "first call s": r["first_call_s"], "same outputs": r.get("identical_outputs", "-")}
            for run, levers in runs.items() for name, r in levers.items()]
    print_table(rows, list(rows[0]))
    bf16 = args.what == "train" and args.dtype == "bf16"
    payload = {"what": args.what, "size": args.size, "threads": threads, "warmup": args.warmup, "runs": runs,
               **({"dtype": args.dtype} if args.what == "train" else {})}
    write_result(f"levers_{args.what}_{args.size}{'_bf16' if bf16 else ''}", payload, args.results)
    return payload


if __name__ == "__main__":
    main()
