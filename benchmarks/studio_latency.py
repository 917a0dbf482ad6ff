"""How long each studio view takes to answer (issue 44: under a second for a 30-piece sentence on the tiny
model): the app in process (FastAPI's TestClient, no network), one model, each view called --repeats times
after one warm-up; reported: the median milliseconds per view and the sentence's length in pieces.

Run:  python -m benchmarks.studio_latency --model runs/tiny [--repeats 5] [--beam 4]
Writes a new dated record under benchmarks/results/ (or --results DIR). The checkpoints view reads every
step checkpoint of the run (at most 24): its time grows with their number, recorded beside it.
"""

from __future__ import annotations

import argparse
import time

from .common import add_common_args, median, print_table, set_threads, write_result

# 30 pieces of the tiny preset's vocabulary (checked when run: the result records the count)
SENTENCE = "And God said unto Moses, I AM THAT I AM: and he said, Thus shalt thou say unto the children of Israel."


def main(argv: list[str] | None = None) -> dict:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--model", required=True, help="a run directory (its best model)")
    p.add_argument("--repeats", type=int, default=5)
    p.add_argument("--beam", type=int, default=4)
    p.add_argument("--text", default=SENTENCE)
    add_common_args(p)
    args = p.parse_args(argv)
    threads = set_threads(args.threads)
    from fastapi.testclient import TestClient

    from aiayn.decoding.options import DecodeOptions
    from aiayn.inference.translator import Translator
    from aiayn.serve import Limits
    from aiayn.serve.app import create_app
    from aiayn.serve.worker import ModelWorker, model_info

    translator = Translator.load(args.model)
    worker = ModelWorker(translator, DecodeOptions(beam_size=args.beam))
    calls = {
        "translate": ("post", "/api/translate", {"lines": [args.text], "beam": args.beam}),
        "attention": ("post", "/api/attention", {"text": args.text, "beam": args.beam}),
        "beam": ("post", "/api/beam", {"text": args.text, "beam": args.beam}),
        "walkthrough": ("post", "/api/walkthrough", {"text": args.text, "beam": args.beam, "layer": 0}),
        "checkpoints": ("post", "/api/checkpoints", {"text": args.text, "beam": args.beam}),
        "positions": ("get", "/api/positions?n=64", None),
        "schedule": ("get", "/api/schedule", None),
        "smoothing": ("get", "/api/smoothing", None),
        "curves": ("get", "/api/curves", None),
        "models": ("get", "/api/models", None),
    }
    times: dict[str, list[float]] = {name: [] for name in calls}
    sizes = {}
    try:
        with TestClient(create_app(worker, Limits(), model_info(translator, args.model))) as client:
            for name, (method, path, body) in calls.items():
                for i in range(args.repeats + 1):
                    start = time.perf_counter()
                    r = client.post(path, json=body) if method == "post" else client.get(path)
                    spent = time.perf_counter() - start
                    if r.status_code != 200:
                        raise SystemExit(f"{path} answered {r.status_code}: {r.text[:200]}")
                    if i:
                        times[name].append(spent)
                sizes[name] = len(r.content)
    finally:
        worker.close()
    pieces = len(translator.tokenizer.encode([args.text])[0])
    from aiayn.io.rundir import RunDir

    result = {"model": args.model, "threads": threads, "checkpoints": len(RunDir(args.model).list_checkpoints()), "repeats": args.repeats, "beam": args.beam,
              "sentence": args.text, "source_pieces": pieces,
              "views": {name: {"median_ms": round(1000 * median(ts), 1), "bytes": sizes[name]} for name, ts in times.items()}}
    print_table([{"view": n, "median ms": v["median_ms"], "bytes": v["bytes"]} for n, v in result["views"].items()],
                ["view", "median ms", "bytes"])
    write_result("studio_latency", result, args.results)
    return result


if __name__ == "__main__":
    main()
