"""Issue 31: which student shape. Decoding speed of candidate shapes (tiny's width, E encoder + D decoder
layers, greedy) against the tiny teacher (3 + 3, beam 4, alpha 0.6), before training any of them: random
weights, 64 sentences of 25 tokens (24 random ids + EOS), every output forced to 50 tokens (min_len 49,
limit 50) so that every system does the same work. Speed does not depend on the weights; quality does,
and is measured after training (benchmarks.distill).

Timing: common.interleave (one warm-up round, then --repeats rounds); reported: median seconds per call
and the median paired ratio teacher time / shape time (> 1: faster than the teacher).

Run:  python -m benchmarks.student_shapes [--shapes 6-1 6-2 4-1 3-1 8-1] [--repeats 3] [--threads 1]
Writes benchmarks/results/student_shapes.json.
"""

from __future__ import annotations

import argparse

from .common import add_common_args, interleave, median, median_ratio, print_table, set_threads, write_result

N_SENTENCES, SRC_LEN, OUT_LEN, VOCAB = 64, 25, 50, 8000


def main(argv: list[str] | None = None) -> dict:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--shapes", nargs="+", default=["6-1", "6-2", "4-1", "3-1", "8-1"],
                   help="ENCODER-DECODER layer counts, decoded greedily (default 6-1 6-2 4-1 3-1 8-1)")
    p.add_argument("--repeats", type=int, default=3, help="timed rounds (default 3)")
    add_common_args(p)
    args = p.parse_args(argv)
    threads = set_threads(args.threads or 1)
    import torch

    from aiayn import Transformer
    from aiayn.decoding.beam import beam_search
    from aiayn.decoding.greedy import greedy_search
    from aiayn.model.config import TransformerConfig

    g = torch.Generator().manual_seed(0)
    src = torch.cat([torch.randint(4, VOCAB - 1, (N_SENTENCES, SRC_LEN - 1), generator=g),
                     torch.full((N_SENTENCES, 1), 2)], 1)
    limits = dict(max_len_a=0, max_len_b=OUT_LEN, min_len=OUT_LEN - 1)

    def model(enc: int, dec: int):
        torch.manual_seed(0)
        return Transformer(TransformerConfig.tiny(src_vocab_size=VOCAB, n_encoder_layers=enc,
                                                  n_decoder_layers=dec)).eval()

    teacher = model(3, 3)
    fns = {"teacher 3-3 beam4": lambda: beam_search(teacher, src, beam_size=4, alpha=0.6, **limits)}
    for shape in args.shapes:
        m = model(*map(int, shape.split("-")))
        fns[f"{shape} greedy"] = lambda m=m: greedy_search(m, src, **limits)
    with torch.inference_mode():
        times = interleave(fns, args.repeats, warmup=1)
    results = {name: {"seconds": ts, "median_s": median(ts),
                      "speedup_vs_teacher_beam4": median_ratio(times["teacher 3-3 beam4"], ts)}
               for name, ts in times.items()}
    print_table([{"system": k, "median s": r["median_s"], "x teacher beam4": r["speedup_vs_teacher_beam4"]}
                 for k, r in results.items()], ["system", "median s", "x teacher beam4"])
    payload = {"threads": threads, "sentences": N_SENTENCES, "source_tokens": SRC_LEN, "output_tokens": OUT_LEN,
               "repeats": args.repeats, "systems": results}
    write_result("student_shapes", payload, args.results)
    return payload


if __name__ == "__main__":
    main()
