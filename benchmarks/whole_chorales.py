"""Whole chorales (issue 21): the chorale model trained on windows of L = 2,048 tokens (every chorale whole)
against today's 256-token windows, at the same wall-clock budget.

  python -m benchmarks.whole_chorales train --positions relative --window 256  --minutes 45 --valid-every 100 --threads 1 --out runs/wc-rel256
  python -m benchmarks.whole_chorales train --positions relative --window 2048 --minutes 45 --valid-every 100 --threads 1 --out runs/wc-rel2048
  python -m benchmarks.whole_chorales train --positions absolute --window 2048 --minutes 45 --valid-every 100 --threads 1 --out runs/wc-abs2048
  python -m benchmarks.whole_chorales report runs/wc-rel256 runs/wc-rel2048 runs/wc-abs2048

The three ``train`` runs are started together, one thread each, so that whatever else the machine
runs slows all alike. Relative distances are clipped at ``--max-distance`` (256) for every window,
so the runs differ in their window only. Long windows are possible because relative attention no
longer materialises L × L logits (``aiayn.model.attention.blockwise``).

``report`` scores each run's best checkpoint on the test split (NLL per token, every token once, in
sliding windows of the run's own training length), and the NLL of each position of the 37 test
chorales scored whole from their start in one pass (out to 2,048 = 8 × 256), and of test chorales
chained two by two (BOS a EOS b ..., out to ~4,096 = 2 × 2,048: beyond every training length).
Writes benchmarks/results/whole_chorales.json and docs/music/whole_chorales_nll_by_position.png.
``report`` takes any music run, ``aiayn train --task music`` ones too (docs/music.md, "The shipped model"):
  python -m benchmarks.whole_chorales report runs/cpu/ir-ul64 runs/cpu/ir-ul64-abs \
      --name chorale_positions --plot docs/music/shipped_nll_by_position.png
Chained pairs put an EOS between two chorales, which moves the second one by a token against the voice and
metre embeddings of the ``voices`` preset: for those runs only the whole pieces (three test chorales run past
2,048 tokens, to 3,088) measure what lies beyond the training length.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from .common import set_threads, write_result

DOCS = Path(__file__).resolve().parent.parent / "docs" / "music"


def train(args) -> None:
    """`aiayn train --task music --preset POSITIONS` with the window and clipping distance set."""
    from aiayn import runs

    set_threads(args.threads)
    overrides = {"train.max_time": args.minutes * 60, "train.seed": args.seed, "train.valid_every": args.valid_every,
                 "train.max_tokens": 2048}  # as measured (2026-11-24); the task's default is now 8,192
    if args.positions == "relative":
        overrides["model.max_relative_distance"] = args.max_distance
    runs.train(args.out, preset=args.positions, task="music", device="cpu", data={"window": args.window},
               overrides=overrides)


def per_position(nll, count, smooth: int = 32):
    xs, ys = [], []
    for i in range(0, len(nll), smooth):
        n, c = nll[i:i + smooth].sum().item(), count[i:i + smooth].sum().item()
        if c >= 3:  # at least 3 sequences reach here
            xs.append(i + smooth / 2)
            ys.append(n / c)
    return xs, ys


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
    chained = [a + [music.EOS] + b for a, b in zip(test[0::2], test[1::2])]
    results, curves = {}, {}
    for run_dir in map(Path, args.runs):
        config = RunDir(run_dir).read_config()
        window = config["data"]["window"]
        positions = config.get("positions") or {"full": "absolute"}.get(config["model"]["attention"], config["model"]["attention"])
        label = f"{positions}, L = {window}" + (f" ({config['preset']})" if config.get("preset") not in (None, positions) else "")
        model, meta = load_model(RunDir(run_dir).best)
        model.eval()
        test_fig = evaluate_music(run_dir)  # the run's own window, from its config.json
        whole = nll_by_position(model, test, music.BOS)
        pairs = nll_by_position(model, chained, music.BOS)
        train_events = RunDir(run_dir).events("train")

        def mean(nll_count, lo, hi):
            nll, count = nll_count
            return nll[lo:hi].sum().item() / max(count[lo:hi].sum().item(), 1)

        results[label] = {
            "run": str(run_dir), "window": window, "parameters": model.num_parameters(), "best_step": meta["step"],
            "steps": train_events[-1]["step"], "train_seconds": train_events[-1]["elapsed"],
            "test_nll_per_token": test_fig["nll"], "valid_nll_best": meta["valid_nll"],
            "whole_nll_0_256": mean(whole, 0, 256), "whole_nll_256_512": mean(whole, 256, 512),
            "whole_nll_512_2048": mean(whole, 512, 2048), "whole_nll_all": mean(whole, 0, len(whole[0])),
            "whole_nll_2048_end": mean(whole, 2048, len(whole[0])), "whole_tokens_2048_end": int(whole[1][2048:].sum()),
            "chained_nll_0_2048": mean(pairs, 0, 2048), "chained_nll_2048_4096": mean(pairs, 2048, 4096),
        }
        curves[label] = (per_position(*whole), per_position(*pairs))
        # the drawn curves, kept in the record so that the figure can be drawn again without the runs
        results[label]["by_position"] = {"whole": [list(v) for v in curves[label][0]],
                                         "chained": [list(v) for v in curves[label][1]]}
        print(label, json.dumps(results[label]), flush=True)
    DOCS.mkdir(parents=True, exist_ok=True)
    panels = 1 if args.whole_only else 2
    fig, axes = plt.subplots(1, panels, figsize=(6 * panels, 4), sharey=True, squeeze=False)
    axes = axes[0]
    for label, (whole, pairs) in curves.items():
        axes[0].plot(*whole, label=label)
        if panels == 2:
            axes[1].plot(*pairs, label=label)
    for ax, title in zip(axes, ["37 test chorales, each whole from its start",
                                "test chorales chained two by two (beyond L = 2,048)"]):
        for x in (256, 2048):
            ax.axvline(x, color="grey", linestyle="--", linewidth=0.8)
        ax.set(xlabel="position (tokens; 32-token means, ≥ 3 sequences)", title=title)
    axes[0].set_ylabel("NLL (nats / token)")
    axes[0].legend()
    fig.tight_layout()
    fig.savefig(args.plot or DOCS / "whole_chorales_nll_by_position.png", dpi=110)
    write_result(args.name, {"results": results}, args.results)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="what", required=True)
    t = sub.add_parser("train")
    t.add_argument("--positions", choices=["absolute", "relative"], required=True)
    t.add_argument("--window", type=int, required=True)
    t.add_argument("--max-distance", type=int, default=256)
    t.add_argument("--minutes", type=float, default=15)
    t.add_argument("--seed", type=int, default=1)
    t.add_argument("--valid-every", type=int, default=100, help="updates between validations (not counted in --minutes)")
    t.add_argument("--out", required=True)
    t.add_argument("--threads", type=int, default=None)
    r = sub.add_parser("report")
    r.add_argument("runs", nargs="+")
    r.add_argument("--threads", type=int, default=None)
    r.add_argument("--results", default=None, help="folder for NAME.json (default benchmarks/results)")
    r.add_argument("--name", default="whole_chorales", help="the result's name (default whole_chorales)")
    r.add_argument("--plot", default=None, help="where the NLL-by-position figure goes (default: the docs' one)")
    r.add_argument("--whole-only", action="store_true",
                   help="draw the whole chorales only, not the chained pairs (models with voice and metre embeddings: "
                        "the EOS between two chorales shifts the second against them, so that panel does not apply)")
    args = p.parse_args()
    train(args) if args.what == "train" else report(args)


if __name__ == "__main__":
    main()
