"""Issue 31: which student shape. Decoding speed of candidate shapes (tiny's width, E encoder + D decoder
layers, greedy) against the tiny teacher (3 + 3, beam 4, alpha 0.6), before training any of them: random
weights, 64 sentences of --src-len tokens (random ids + EOS), every output forced to --out-len tokens
(min_len out-len - 1, limit out-len) so that every system does the same work. Speed does not depend on the
weights; quality does, and is measured after training (benchmarks.distill).

The lengths matter: the encoder runs once per source token, the decoder once per output token (times the
beam), so a deep encoder costs more next to the decoder as sources get longer. The built-in test verses
average 37 source and 38 target pieces (EOS included) in the 8,000-piece vocabulary: --src-len 37 --out-len 38.

Reported per system: the matrix-product FLOPs of one call (PyTorch's FlopCounterMode, 2 per multiply-add:
exact, and independent of the machine's load) and their ratio to the teacher's; then, unless --repeats 0,
the timing (common.interleave: one warm-up round, then --repeats rounds), median seconds per call and the
median paired ratio teacher time / shape time (> 1: faster than the teacher).

Run:  python -m benchmarks.student_shapes [--shapes 6-1 6-2 4-1 3-1 8-1] [--src-len 25 --out-len 50]
      [--repeats 3] [--threads 1]
Writes benchmarks/results/student_shapes.json (--name to keep another).
"""

from __future__ import annotations

import argparse

from .common import add_common_args, interleave, median, median_ratio, print_table, set_threads, write_result

N_SENTENCES, VOCAB = 64, 8000


def main(argv: list[str] | None = None) -> dict:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--shapes", nargs="+", default=["6-1", "6-2", "4-1", "3-1", "8-1"],
                   help="ENCODER-DECODER layer counts, decoded greedily (default 6-1 6-2 4-1 3-1 8-1)")
    p.add_argument("--src-len", type=int, default=25, help="source tokens per sentence, EOS included (default 25)")
    p.add_argument("--out-len", type=int, default=50, help="output tokens per sentence, EOS included (default 50)")
    p.add_argument("--repeats", type=int, default=3, help="timed rounds (default 3; 0: FLOPs only)")
    p.add_argument("--name", default="student_shapes", help="the results file's name (default student_shapes)")
    add_common_args(p)
    args = p.parse_args(argv)
    threads = set_threads(args.threads or 1)
    import torch
    from torch.utils.flop_counter import FlopCounterMode

    from aiayn import Transformer
    from aiayn.decoding.beam import beam_search
    from aiayn.decoding.greedy import greedy_search
    from aiayn.model.config import TransformerConfig

    g = torch.Generator().manual_seed(0)
    src = torch.cat([torch.randint(4, VOCAB - 1, (N_SENTENCES, args.src_len - 1), generator=g),
                     torch.full((N_SENTENCES, 1), 2)], 1)
    limits = dict(max_len_a=0, max_len_b=args.out_len, min_len=args.out_len - 1)

    def model(enc: int, dec: int):
        torch.manual_seed(0)
        return Transformer(TransformerConfig.tiny(src_vocab_size=VOCAB, n_encoder_layers=enc,
                                                  n_decoder_layers=dec)).eval()

    teacher = model(3, 3)
    teacher_name = "teacher 3-3 beam4"
    fns = {teacher_name: lambda: beam_search(teacher, src, beam_size=4, alpha=0.6, **limits)}
    for shape in args.shapes:
        m = model(*map(int, shape.split("-")))
        fns[f"{shape} greedy"] = lambda m=m: greedy_search(m, src, **limits)
    flops = {}
    for name, fn in fns.items():
        with torch.inference_mode(), FlopCounterMode(display=False) as counter:
            fn()
        flops[name] = counter.get_total_flops()
    results = {name: {"flops": f, "flops_ratio_vs_teacher_beam4": flops[teacher_name] / f} for name, f in flops.items()}
    columns = ["system", "GFLOPs", "x teacher beam4 (FLOPs)"]
    if args.repeats > 0:
        with torch.inference_mode():
            times = interleave(fns, args.repeats, warmup=1)
        for name, ts in times.items():
            results[name] |= {"seconds": ts, "median_s": median(ts),
                              "speedup_vs_teacher_beam4": median_ratio(times[teacher_name], ts)}
        columns += ["median s", "x teacher beam4 (time)"]
    print_table([{"system": k, "GFLOPs": r["flops"] / 1e9, "x teacher beam4 (FLOPs)": r["flops_ratio_vs_teacher_beam4"],
                  "median s": r.get("median_s"), "x teacher beam4 (time)": r.get("speedup_vs_teacher_beam4")}
                 for k, r in results.items()], columns)
    payload = {"threads": threads, "sentences": N_SENTENCES, "source_tokens": args.src_len,
               "output_tokens": args.out_len, "repeats": args.repeats, "systems": results}
    write_result(args.name, payload, args.results)
    return payload


if __name__ == "__main__":
    main()
