"""Item 5, quality on real data: the tiny preset trained on the built-in Bible train split (en -> es)
for a fixed wall-clock budget, then BLEU and chrF (sacreBLEU) on its test split with
  * greedy (beam 1) and beam 4 (α 0.6), on the run's best checkpoint (by validation BLEU, what
    `aiayn evaluate --model RUN` uses), and
  * beam 4 on the average of the last 5 checkpoints (`aiayn average --last 5`),
plus the validation curve (loss and BLEU against step, from RUN/log.jsonl) as a PNG.

Every step is the aiayn command line, run as a subprocess; the exact commands are saved in the
JSON result. The issue's figure is 60 minutes on 2 cores:

    python -m benchmarks.quality --minutes 60

A smoke test (1 minute, frequent checkpoints so that 5 exist, 20 test sentences):

    python -m benchmarks.quality --minutes 1 --out runs/bench-quality-smoke --test-lines 20 \\
        --set train.save_every=10 --set train.valid_every=20

Writes a new record, benchmarks/results/<today>/quality.json and quality_valid_curve.png (or in --results DIR;
-2, -3 ... when taken: a record a page quotes is never overwritten).
"""

from __future__ import annotations

import argparse
import gzip
import os
import re
import subprocess
import sys
import time
from pathlib import Path

from aiayn.io.rundir import RunDir

from .common import RESULTS, ROOT, record_path, write_result


def aiayn(*args: str, log: list[str], threads: int | None = None) -> str:
    """Runs ``python -m aiayn ARGS`` from the repository root (on ``threads`` threads); returns its stdout."""
    cmd = [sys.executable, "-m", "aiayn", *args]
    log.append(("" if threads is None else f"OMP_NUM_THREADS={threads} ") + "aiayn " + " ".join(args))
    print("$ " + log[-1], file=sys.stderr)
    env = {**os.environ, **({"OMP_NUM_THREADS": str(threads)} if threads else {})}
    done = subprocess.run(cmd, cwd=ROOT.parent, stdout=subprocess.PIPE, text=True, env=env)
    if done.returncode != 0:
        raise RuntimeError(f"{log[-1]} exited with {done.returncode}")
    return done.stdout


def scores(stdout: str) -> dict[str, float]:
    """BLEU and chrF from `aiayn evaluate`'s output (sacreBLEU's 'BLEU 6.94 (...)' lines)."""
    bleu = re.search(r"^BLEU\s*=?\s*([\d.]+)", stdout, re.M)
    chrf = re.search(r"^chrF\d*\+*\s*=?\s*([\d.]+)", stdout, re.M)
    if not bleu or not chrf:
        raise RuntimeError(f"cannot find BLEU / chrF in:\n{stdout}")
    return {"bleu": float(bleu.group(1)), "chrf": float(chrf.group(1))}


def test_subset(lines: int, out: Path) -> Path:
    """The first ``lines`` pairs of the built-in test split, as a TSV with its header (smoke tests)."""
    from aiayn import corpus

    with gzip.open(corpus.builtin("test"), "rt", encoding="utf-8") as f:
        head = [next(f) for _ in range(lines + 1)]
    path = out / f"test-first-{lines}.tsv"
    path.write_text("".join(head), encoding="utf-8")
    return path


def plot_curve(run: Path, png: Path) -> list[dict]:
    """Validation loss and BLEU against step (training loss too), from the run's log.jsonl."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    events = RunDir(run).events()
    train = [e for e in events if e["event"] == "train"]
    valid = [e for e in events if e["event"] == "valid"]
    fig, (ax_loss, ax_bleu) = plt.subplots(1, 2, figsize=(10, 4))
    ax_loss.plot([e["step"] for e in train], [e["loss"] for e in train], label="train (label-smoothed)", alpha=0.6)
    ax_loss.plot([e["step"] for e in valid], [e["valid_loss"] for e in valid], "o-", label="validation")
    ax_loss.set(xlabel="step", ylabel="loss", title="loss")
    ax_loss.legend()
    ax_bleu.plot([e["step"] for e in valid], [e["valid_bleu"] for e in valid], "o-", label="BLEU")
    ax_bleu.plot([e["step"] for e in valid], [e["valid_chrf"] for e in valid], "s--", label="chrF")
    ax_bleu.set(xlabel="step", title="validation (greedy)")
    ax_bleu.legend()
    fig.tight_layout()
    fig.savefig(png, dpi=120)
    plt.close(fig)
    return [{k: e.get(k) for k in ("step", "valid_loss", "valid_ppl", "valid_bleu", "valid_chrf")} for e in valid]


def main(argv: list[str] | None = None) -> dict:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--minutes", type=float, default=60, help="training budget in minutes (default 60)")
    p.add_argument("--out", default="runs/bench-quality", help="run directory (default runs/bench-quality)")
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", help="passed to `aiayn train --set`")
    p.add_argument("--average-last", type=int, default=5, help="checkpoints to average (default 5)")
    p.add_argument("--test-lines", type=int, default=None, help="score only the first N test pairs (smoke tests)")
    p.add_argument("--skip-train", action="store_true", help="evaluate an existing run in --out")
    p.add_argument("--results", default=None,
                   help=f"folder for the JSON and PNG (default {RESULTS}/<today>; never overwrites)")
    p.add_argument("--precision", choices=["fp32", "bf16", "auto"], default=None,
                   help="passed to `aiayn train --precision` (default: train's own, fp32)")
    p.add_argument("--threads", type=int, default=None,
                   help="threads for every command (two runs sharing 2 cores: 1 each, side by side)")
    p.add_argument("--name", default="quality",
                   help="results file stem: RESULTS/NAME.json and NAME_valid_curve.png (default quality)")
    args = p.parse_args(argv)
    out, commands = Path(args.out), []
    record = record_path(args.name, args.results)  # a new record, never one a page quotes

    started = time.time()
    if not args.skip_train:
        if RunDir(out).log.exists():
            raise SystemExit(f"{out} already holds a run; choose another --out or pass --skip-train")
        aiayn("train", "--preset", "tiny", "--max-time", f"{args.minutes:g}m", "--out", str(out),
              *(("--precision", args.precision) if args.precision else ()),
              *(x for s in args.set for x in ("--set", s)), log=commands, threads=args.threads)
    trained_s = time.time() - started

    test = ["--test", str(test_subset(args.test_lines, out)), "--src", "en", "--tgt", "es"] if args.test_lines else []
    figures = {
        "greedy": scores(aiayn("evaluate", "--model", str(out), "--beam", "1", *test, log=commands,
                               threads=args.threads)),
        "beam4": scores(aiayn("evaluate", "--model", str(out), "--beam", "4", "--alpha", "0.6", *test, log=commands,
                              threads=args.threads)),
    }
    aiayn("average", "--model", str(out), "--last", str(args.average_last), log=commands, threads=args.threads)
    averaged = out / f"average-last-{args.average_last}.safetensors"
    figures[f"beam4_average_last_{args.average_last}"] = scores(
        aiayn("evaluate", "--model", str(averaged), "--beam", "4", "--alpha", "0.6", *test, log=commands,
              threads=args.threads))

    record.parent.mkdir(parents=True, exist_ok=True)
    png = record.with_name(f"{record.stem}_valid_curve.png")
    curve = plot_curve(out, png)
    events = RunDir(out).events()
    payload = {"budget_minutes": args.minutes, "run": str(out), "commands": commands, "test_lines": args.test_lines,
               "wall_seconds_training": round(trained_s, 1), "threads": args.threads,
               "precision": next((e.get("precision") for e in events if e.get("event") == "train"), None),
               "steps": max((e["step"] for e in events if "step" in e), default=None), "scores": figures,
               "validation_curve": curve, "curve_png": str(png)}
    for name, s in figures.items():
        print(f"{name:>24}: BLEU {s['bleu']:.2f}  chrF {s['chrf']:.2f}", file=sys.stderr)
    seeds = [RunDir(out).read_config().get("train", {}).get("seed")]
    write_result(args.name, payload, seeds=seeds, path=record)
    return payload


if __name__ == "__main__":
    main()
