"""How long each studio view takes to answer (issue 44: under a second for a 30-piece sentence on the tiny
model): the app in process (FastAPI's TestClient, no network), one model, each view called --repeats times
after one warm-up; reported: the median milliseconds per view and the sentence's length in pieces.

Run:  python -m benchmarks.studio_latency --model runs/tiny [--repeats 5] [--beam 4] [--family RUN ...]
``--family``: runs of the other tasks (music, digits, superres, an RNNsearch, parsing), each served beside the
first, and each family view it offers timed the same way (a 128-token chorale, its last note's attention, the
skew over 6 tokens, a digit and one pixel's attention, super-resolution of test digit 0, the alignment of the
sentence, a parse of PARSE).
Writes a new dated record under benchmarks/results/ (or --results DIR). The checkpoints view reads every
step checkpoint of the run (at most 24): its time grows with their number, recorded beside it.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from .common import add_common_args, median, print_table, set_threads, write_result

# 30 pieces of the tiny preset's vocabulary (checked when run: the result records the count)
PARSE = "the old man saw a dog with a telescope ."
SENTENCE = "And God said unto Moses, I AM THAT I AM: and he said, Thus shalt thou say unto the children of Israel."


def main(argv: list[str] | None = None) -> dict:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--model", required=True, help="a run directory (its best model)")
    p.add_argument("--repeats", type=int, default=5)
    p.add_argument("--beam", type=int, default=4)
    p.add_argument("--text", default=SENTENCE)
    p.add_argument("--family", nargs="*", default=[], metavar="RUN", help="runs of the other tasks to time too")
    p.add_argument("--parse", default=PARSE, help="the sentence the parse view parses")
    add_common_args(p)
    args = p.parse_args(argv)
    threads = set_threads(args.threads)
    from fastapi.testclient import TestClient

    from aiayn import tasks
    from aiayn.decoding.options import DecodeOptions
    from aiayn.inference.translator import Translator
    from aiayn.serve import Limits
    from aiayn.serve.app import create_app
    from aiayn.serve.catalog import Served, names
    from aiayn.serve.subjects import describe
    from aiayn.serve.worker import ModelWorker, model_info

    translator = Translator.load(args.model)
    served = [Served("main", ModelWorker(translator, DecodeOptions(beam_size=args.beam)),
                     model_info(translator, args.model), Path(args.model))]
    for name, path in zip(names([Path(r) for r in args.family]), args.family):
        subject = tasks.subject(path)
        info = model_info(subject, path) if isinstance(subject, Translator) else describe(subject, path)
        served.append(Served(name, ModelWorker(subject, DecodeOptions(beam_size=args.beam)), info, Path(path)))
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
    times: dict[str, list[float]] = {}
    sizes = {}

    def timed(client, label: str, method: str, path: str, body) -> dict:
        times[label] = []
        for i in range(args.repeats + 1):
            start = time.perf_counter()
            r = client.post(path, json=body) if method == "post" else client.get(path)
            spent = time.perf_counter() - start
            if r.status_code != 200:
                raise SystemExit(f"{label}: {path} answered {r.status_code}: {r.text[:200]}")
            if i:
                times[label].append(spent)
        sizes[label] = len(r.content)
        return r.json() if r.headers.get("content-type", "").startswith("application/json") else {}

    try:
        with TestClient(create_app(served, Limits())) as client:
            for name, (method, path, body) in calls.items():
                timed(client, name, method, path, body)
            for s in served[1:]:
                said: dict[str, dict] = {}  # each view's answer: a later view's request may read it
                for label, path, body in family_calls(s.info, said, args.text, args.parse):
                    said[label] = timed(client, f"{s.name}: {label}", "post", path, {**body(), "model": s.name})
    finally:
        for s in served:
            s.worker.close()
    pieces = len(translator.tokenizer.encode([args.text])[0])
    from aiayn.io.rundir import RunDir

    result = {"model": args.model, "family": {s.name: str(s.path) for s in served[1:]}, "threads": threads, "checkpoints": len(RunDir(args.model).list_checkpoints()), "repeats": args.repeats, "beam": args.beam,
              "sentence": args.text, "source_pieces": pieces,
              "views": {name: {"median_ms": round(1000 * median(ts), 1), "bytes": sizes[name]}
                        for name, ts in times.items()}}
    print_table([{"view": n, "median ms": v["median_ms"], "bytes": v["bytes"]} for n, v in result["views"].items()],
                ["view", "median ms", "bytes"])
    write_result("studio_latency", result, args.results)
    return result


def family_calls(info: dict, said: dict, text: str, parse: str):
    """(label, path, body()) of each family view a model (``info``) offers; a body may read an earlier answer."""
    views = info["views"]
    tokens = lambda: said["chorale"]["tokens"]  # noqa: E731
    pixels = lambda: said["digit"]["pixels"] if "digit" in said else said["superres"]["output"]  # noqa: E731
    label = 7 if (info.get("config") or {}).get("n_classes") else None
    table = [
        ("chorale", "/api/chorale", lambda: {"primer": None, "length": 128, "seed": 1}),
        ("note_attention", "/api/note_attention", lambda: {"tokens": tokens(), "position": len(tokens()) - 1,
                                                          "layer": 0, "head": 0}),
        ("skewing", "/api/skewing", lambda: {"tokens": tokens(), "layer": 0, "head": 0, "window": 6}),
        ("digit", "/api/digit", lambda: {"label": label, "seed": 1}),
        ("superres", "/api/superres", lambda: {"index": 0}),
        ("pixel_attention", "/api/pixel_attention", lambda: {"pixels": pixels(), "index": 21, "layer": 0, "head": 0,
                                                             "label": label}),
        ("alignment", "/api/alignment", lambda: {"text": text}),
        ("parse", "/api/parse", lambda: {"text": parse}),
    ]
    return [(name, path, body) for name, path, body in table if name in views]


if __name__ == "__main__":
    main()
