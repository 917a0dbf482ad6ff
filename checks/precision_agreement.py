"""A trained translation model decoded in float32, bfloat16 and int8 on the whole test split: BLEU, chrF, the
lines identical to float32's, and a paired bootstrap of each BLEU difference (issue 42: "outputs against float32:
the share identical and test BLEU within 0.2"). Each number format runs through `aiayn evaluate`'s own function
(``aiayn.tasks.translation.evaluate``), which writes its hypotheses beside the model as the command does.

Run:  python -m checks.precision_agreement --model runs/quality-60m-1t-bf16 [--beams 4 1] [--threads 1]
Writes benchmarks/results/<today>/precision_agreement.json.
"""

from __future__ import annotations

import argparse
import time

from benchmarks.common import add_common_args, set_threads, write_result

DTYPES = ("float32", "bfloat16", "int8")


def main(argv: list[str] | None = None) -> dict:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--model", required=True, help="a translation run directory or .safetensors file")
    p.add_argument("--beams", type=int, nargs="+", default=[4, 1], help="beam sizes (default 4 1; 1 = greedy)")
    p.add_argument("--dtypes", nargs="+", choices=DTYPES, default=list(DTYPES), help="number formats (float32 first)")
    add_common_args(p)
    args = p.parse_args(argv)
    threads = set_threads(args.threads)
    from aiayn.decoding.options import DecodeOptions
    from aiayn.metrics.bleu import paired_bootstrap
    from aiayn.tasks.translation import evaluate

    rows = {}
    for beam in args.beams:
        hyps, rows[f"beam{beam}"] = {}, {}
        for dtype in args.dtypes:
            start = time.perf_counter()
            scores, path, data, hyps[dtype] = evaluate(args.model, None, None, None, DecodeOptions(beam_size=beam),
                                                       dtype=dtype)
            row = {"bleu": scores.bleu, "chrf": scores.chrf, "seconds": time.perf_counter() - start,
                   "hypotheses": str(path)}
            if dtype != args.dtypes[0]:
                first = hyps[args.dtypes[0]]
                row["identical_lines"] = sum(a == b for a, b in zip(first, hyps[dtype]))
                row["bootstrap_against_" + args.dtypes[0]] = paired_bootstrap(first, hyps[dtype], data.tgt)
            rows[f"beam{beam}"][dtype] = row
            print(f"beam {beam} {dtype:9s} BLEU {scores.bleu:6.2f}  chrF {scores.chrf:6.2f}  "
                  f"identical {row.get('identical_lines', len(data.tgt))}/{len(data.tgt)}")
    payload = {"model": args.model, "threads": threads, "lines": len(data.tgt), "runs": rows}
    write_result("precision_agreement", payload, args.results)
    return payload


if __name__ == "__main__":
    main()
