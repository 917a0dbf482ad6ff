"""Chorale runs side by side by how much music they have read: validation NLL against target tokens seen.

  python -m benchmarks.chorale_batches "GPU, 2,048 tokens per update=runs/gpu/g2k" \\
      "GPU, 8,192=runs/gpu/g8k" "CPU, 2,048=runs/experiments/chorales/voices-aug" ...

Each argument is LABEL=RUN_DIR (a run of `aiayn train --task music`). The tokens seen are summed from the
run's own log: each logged rate (target tokens per second) times the training seconds since the line
before. Writes benchmarks/results/chorale_batches.json (each run's curve, its best validation NLL and its
settings) and docs/music/batch_tokens.png (the curves against tokens, and against updates).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from aiayn.io.rundir import RunDir

from .common import write_result

DOCS = Path(__file__).resolve().parent.parent / "docs" / "music"


def curve(run: Path) -> list[dict[str, float]]:
    """[{step, tokens, minutes, valid_nll}] at each validation of the run, tokens summed from the logged rates."""
    tokens = clock = 0.0
    out = []
    for event in RunDir(run).events():
        if event.get("event") == "train":
            if event["elapsed"] < clock:  # a resumed run whose clock went back: count from where it is now
                clock = event["elapsed"]
            tokens += event["tgt_tok_s"] * (event["elapsed"] - clock)
            clock = event["elapsed"]
        elif event.get("event") == "valid":
            out.append({"step": event["step"], "tokens": tokens, "minutes": clock / 60, "valid_nll": event["valid_nll"]})
    return out


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("runs", nargs="+", metavar="LABEL=RUN_DIR")
    args = p.parse_args()
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    result = {}
    fig, (by_tokens, by_steps) = plt.subplots(1, 2, figsize=(12, 4.5), sharey=True)
    for item in args.runs:
        label, _, path = item.rpartition("=")
        run = Path(path)
        config = RunDir(run).read_config()
        points = curve(run)
        best = min(points, key=lambda q: q["valid_nll"])
        result[label] = {"run": str(run), "max_tokens": config["train"]["max_tokens"],
                         "n_layers": config["model"]["n_layers"], "preset": config["preset"], "data": config["data"],
                         "bf16": config["train"]["bf16"], "best": best, "curve": points}
        style = "-" if config["train"]["bf16"] else "--"  # bf16: the GPU runs
        by_tokens.plot([q["tokens"] / 1e6 for q in points], [q["valid_nll"] for q in points], style, label=label)
        by_steps.plot([q["step"] for q in points], [q["valid_nll"] for q in points], style, label=label)
    by_tokens.set(xscale="log", xlabel="target tokens read (millions, log scale)", ylabel="validation NLL (nats/token)",
                  title="the same tokens teach more in bigger updates")
    by_steps.set(xscale="log", xlabel="updates (log scale)", title="validation NLL by update")
    by_tokens.set_ylim(0.3, 3.0)
    by_tokens.legend(fontsize=8)
    for ax in (by_tokens, by_steps):
        ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(DOCS / "batch_tokens.png", dpi=110)
    print(write_result("chorale_batches", result))
    for label, r in result.items():
        b = r["best"]
        print(f"{label}: best valid NLL {b['valid_nll']:.3f} at update {b['step']:,}, "
              f"{b['tokens'] / 1e6:.1f}M tokens, {b['minutes']:.0f} min")


if __name__ == "__main__":
    main()
