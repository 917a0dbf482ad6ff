"""Music Transformer on Bach chorales: relative against absolute positions at the same wall-clock budget.

  python -m benchmarks.music train --positions absolute --minutes 15 --threads 1 --out runs/music-absolute
  python -m benchmarks.music train --positions relative --minutes 15 --threads 1 --out runs/music-relative
  python -m benchmarks.music report runs/music-absolute runs/music-relative

``train`` trains one chorale model (``aiayn.tasks.music``; what `aiayn train --task music` does,
on 4-bar windows of 256 tokens, the task's default before whole chorales) for a budget of training seconds; the two runs above were started at the same time, each on one
of the two cores. ``report`` scores the
best checkpoint of each run on the test split (NLL per token, every token once, sliding windows of
the training length) and, to see what happens beyond the training length, the NLL of each position
0 .. 2L-1 on the test chorales of at least 2L tokens, each scored from its start in one pass.
Writes benchmarks/results/music.json and docs/music/{valid_curve,nll_by_position}.png.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from .common import set_threads, write_result

DOCS = Path(__file__).resolve().parent.parent / "docs" / "music"
WINDOW = 256  # 4-bar windows, as measured in docs/music.md (the task's default is now whole chorales)


def train(args) -> None:
    """The same as `aiayn train --task music --preset POSITIONS --max-time MINUTES`, in this process."""
    from aiayn import runs

    set_threads(args.threads)
    runs.train(args.out, preset=args.positions, task="music", device="cpu",
               data={"transpose": args.transpose, "window": WINDOW},
               overrides={"train.max_time": args.minutes * 60, "train.seed": args.seed,
                          "train.max_tokens": 2048})  # as measured; the task's default is now 8,192


def report(args) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from aiayn.data import music
    from aiayn.io.registry import load_model
    from aiayn.io.rundir import RunDir
    from aiayn.tasks.language_model import nll_by_position
    from aiayn.tasks.music import chorale_sequences, evaluate_music

    set_threads(args.threads)
    _, test = chorale_sequences("test")
    long = [s for s in test if len(s) >= 2 * WINDOW]
    results, curves = {}, {}
    for run_dir in map(Path, args.runs):
        config = RunDir(run_dir).read_config()
        label = config.get("positions") or config["preset"]  # runs from before `aiayn train --task music`
        if config.get("data", {}).get("transpose"):
            label += f", transposed ±{config['data']['transpose']}"
        model, meta = load_model(RunDir(run_dir).best)
        model.eval()
        test_fig = evaluate_music(RunDir(run_dir).best)
        nll, count = nll_by_position(model, [s[: 2 * WINDOW] for s in long], music.BOS)
        per_pos = (nll / count).tolist()
        valid = [(e["step"], e["valid_nll"]) for e in RunDir(run_dir).events("valid")]
        train_events = RunDir(run_dir).events("train")
        results[label] = {
            "run": str(run_dir), "parameters": model.num_parameters(), "best_step": meta["step"],
            "steps": train_events[-1]["step"], "train_seconds": train_events[-1]["elapsed"],
            "test_nll_per_token": test_fig["nll"], "test_tokens": test_fig["tokens"],
            "valid_nll_best": meta["valid_nll"],
            "nll_first_half": sum(nll[:WINDOW]).item() / sum(count[:WINDOW]).item(),
            "nll_second_half": sum(nll[WINDOW:]).item() / sum(count[WINDOW:]).item(),
            "chorales_at_least_2L": len(long),
        }
        curves[label] = (valid, per_pos)
        print(label, json.dumps(results[label]))
    DOCS.mkdir(parents=True, exist_ok=True)
    prefix = "" if args.name == "music" else f"{args.name}_"
    fig, ax = plt.subplots(figsize=(6, 4))
    for label, (valid, _) in curves.items():
        ax.plot(*zip(*valid), marker=".", label=label)
    ax.set(xlabel="update", ylabel="validation NLL (nats / token)", title="Bach chorales: validation NLL")
    ax.legend()
    fig.tight_layout()
    fig.savefig(DOCS / f"{prefix}valid_curve.png", dpi=120)
    fig, ax = plt.subplots(figsize=(7, 4))
    smooth = 16  # positions averaged per point: one point per 4 sixteenths
    for label, (_, per_pos) in curves.items():
        xs = [i + smooth / 2 for i in range(0, len(per_pos), smooth)]
        ys = [sum(per_pos[i:i + smooth]) / len(per_pos[i:i + smooth]) for i in range(0, len(per_pos), smooth)]
        ax.plot(xs, ys, label=label)
    ax.axvline(WINDOW, color="grey", linestyle="--", label=f"training length L = {WINDOW}")
    ax.set(xlabel="position in the chorale (tokens)", ylabel="NLL (nats / token)",
           title=f"NLL by position, {len(long)} test chorales of at least 2L tokens")
    ax.legend()
    fig.tight_layout()
    fig.savefig(DOCS / f"{prefix}nll_by_position.png", dpi=120)
    write_result(args.name, {"window": WINDOW, "results": results}, args.results)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="what", required=True)
    t = sub.add_parser("train")
    t.add_argument("--positions", choices=["absolute", "relative"], required=True)
    t.add_argument("--minutes", type=float, default=15)
    t.add_argument("--seed", type=int, default=1)
    t.add_argument("--transpose", type=int, default=0, help="add training chorales moved by ±1..±N semitones")
    t.add_argument("--out", required=True)
    t.add_argument("--threads", type=int, default=None)
    r = sub.add_parser("report")
    r.add_argument("runs", nargs="+")
    r.add_argument("--threads", type=int, default=None)
    r.add_argument("--results", default=None)
    r.add_argument("--name", default="music", help="result name: NAME.json, and NAME_*.png unless NAME is music")
    args = p.parse_args()
    train(args) if args.what == "train" else report(args)


if __name__ == "__main__":
    main()
