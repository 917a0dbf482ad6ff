"""Teaching the chorale model Bach's rule against parallel fifths and octaves (issue 29): the GPU-trained
model (runs/gpu/g8k, from benchmarks/gpu_chorales.sh) fine-tuned for 300 updates with the unlikelihood
term at weight α (``train.unlikelihood``). α = 0 is the control: the same fine-tuning without the term.
Every run starts from the same weights and reads the same batches (seed 1), on one CPU thread each:

  aiayn train --task music --preset voices --init runs/gpu/g8k --set data.transpose=5 \\
      --set train.lr_scale=0.03 --set train.valid_every=50 --set train.save_every=50 --max-steps 300 \\
      --set train.unlikelihood=ALPHA --out runs/ft/NAME
  aiayn grade --model runs/ft/NAME/checkpoints/step-00000300.safetensors --samples 20 --json logs/grade/ft-NAME.json
  aiayn grade --model runs/ft/NAME/checkpoints/step-00000300.safetensors --samples 60 --seed 2 --json logs/grade/ft-NAME-60.json
  aiayn grade --model runs/ft/NAME/checkpoints/step-N.safetensors --primer valid --samples 45 \\
      --temperature 0.7 0.8 0.9 1.0 --top-p 0.9 --json logs/grade/ft-NAME-sweep.json
  python -m benchmarks.chorale_unlikelihood runs/ft/ctl runs/ft/ul1 runs/ft/ul8 runs/ft/ul32 --grades logs/grade

Longer runs: ul32-600 (--max-steps 600), and ir32 / ir64 (--max-steps 1200 --set data.in_range=true, α 32 and 64:
only the transposed copies that stay in the choir ranges).

For each run's last checkpoint (and the model it started from, ``--base``): validation NLL from its log,
test NLL and the parallels it is expected to write continuing the test chorales a token at a time
(``aiayn evaluate``), and where ``--grades`` holds them the grades of its 20 (seed 1) and 60 (seed 2)
unconditional samples at the default sampling. Writes benchmarks/results/chorale_unlikelihood.json and docs/music/unlikelihood.png.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from .common import latest_record, set_threads, write_result

DOCS = Path(__file__).resolve().parent.parent / "docs" / "music"
GRADED = ("parallel_5ths_per_100q", "parallel_8ves_per_100q", "crossings_pct", "out_of_range_pct")


def _column(column: dict, path: Path) -> dict:
    return {"pieces": column["pieces"], "ended": column["ended"], "grade": column["grade"]["median"],
            "longest_held_q": column["longest_held_q"]["median"], **{name: column[name]["pooled"] for name in GRADED},
            "file": str(path)}


def _grades(folder: Path | None, name: str) -> dict:
    """Pooled rates, pieces ended and median grade of the model's columns in each `aiayn grade --json` file of
    run ``name`` in ``folder``: ft-NAME.json (20 samples, seed 1), ft-NAME-60.json (60 samples, seed 2) and
    ft-NAME-60-T0.8.json (the same at temperature 0.8) and ft-NAME-sweep.json (continuations of valid chorales,
    a column per sampling setting)."""
    out = {}
    for label, file in (("20", f"ft-{name}.json"), ("60", f"ft-{name}-60.json"), ("60-T0.8", f"ft-{name}-60-T0.8.json"),
                        ("sweep", f"ft-{name}-sweep.json")):
        path = folder / file if folder else None
        if path and path.is_file():
            table = json.loads(path.read_text())["table"]  # Bach's columns first, then the model's
            models = {k: _column(c, path) for k, c in table.items() if not k.startswith("Bach")}
            out[label] = models if label == "sweep" else next(iter(models.values()))
    return out


def measure(run: Path, grades: Path | None, known: dict, base: bool = False) -> dict:
    """The figures of a run's last checkpoint (``base``: its best), taken from ``known`` (by run and weights)
    when scored before; the grade is read again each time."""
    from aiayn.io.rundir import RunDir
    from aiayn.tasks.music import evaluate_music

    weights = RunDir(run).best if base else RunDir(run).last_checkpoint()
    samples = {"samples": _grades(grades, run.name)}
    if (str(run), str(weights)) in known:
        return known[(str(run), str(weights))] | samples
    config = RunDir(run).read_config()
    valid = RunDir(run).events("valid")
    f = evaluate_music(weights)
    return {"run": str(run), "weights": str(weights), "alpha": config["train"].get("unlikelihood", 0.0),
            "init": config.get("init"), "in_range": config["data"].get("in_range", False), "updates": valid[-1]["step"],
            "valid_nll": min(e["valid_nll"] for e in valid) if base else valid[-1]["valid_nll"], "valid_curve": [[e["step"], e["valid_nll"]] for e in valid],
            "test_nll": f["nll"], **{k: v for k, v in f.items() if k.startswith("parallel_")}, **samples}


def plot(rows: list[dict], base: dict, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    length = min(r["updates"] for r in rows)  # the curve: the runs of one length; longer ones are stars
    longer = [r for r in rows if r["updates"] != length]
    rows = sorted([r for r in rows if r["updates"] == length], key=lambda r: r["alpha"])
    style = lambda r: {"marker": "D", "ms": 8} if r.get("in_range") else {"marker": "*", "ms": 11}  # noqa: E731
    seen = set()

    def how(r: dict, kind: str = "") -> str:  # each kind of longer run in the legend once
        text = kind + f"{r['updates']} updates" + (", in-range transposition" if r.get("in_range") else "")
        return "_nolegend_" if text in seen or seen.add(text) else text
    xs = [r["alpha"] for r in rows]
    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 5))
    for kind, colour in (("5ths", "tab:blue"), ("8ves", "tab:red")):
        left.plot(xs, [r[f"parallel_{kind}_expected"] for r in rows], "o-", color=colour,
                  label=f"{kind}, fine-tuned {length} updates")
        # sampled: the 60-piece grade where a run has one (the page's table), else its 20-piece grade (hollow)
        graded = [(r["alpha"], r["samples"][n][f"parallel_{kind}_per_100q"], n) for r in rows
                  for n in [next((n for n in ("60", "20") if n in r["samples"]), None)] if n]
        if graded:
            left.plot([a for a, _, _ in graded], [v for _, v, _ in graded], "--", color=colour)
            for n, fill in (("60", colour), ("20", "none")):
                points = [(a, v) for a, v, m in graded if m == n]
                if points:
                    left.plot(*zip(*points), "s", color=colour, mfc=fill, ls="none",
                              label=f"{kind}, sampled at the defaults: {n} pieces")
        for r in longer:
            left.plot(r["alpha"], r[f"parallel_{kind}_expected"], **style(r), ls="none", color=colour,
                      label=how(r, f"{kind}, "))
        left.axhline(base[f"parallel_{kind}_expected"], color=colour, ls=":", label=f"{kind}, the model it started from")
        left.axhline(base[f"parallel_{kind}_bach"], color=colour, ls="--", label=f"{kind}, Bach")
    for ax in (left, right):
        ax.set_xscale("symlog", linthresh=1)
        ax.set_xlim(-0.3, 1.5 * max(xs))
    left.set(xlabel="unlikelihood weight α (0: the control)", ylabel="per 100 quarters",
             title="parallels: expected continuing the test chorales, and sampled")
    left.set_ylim(0, 1.1 * max(base["parallel_8ves_expected"], base["parallel_5ths_expected"]))
    left.legend(fontsize=7, ncol=2, loc="upper center", bbox_to_anchor=(0.5, -0.2))
    right.plot(xs, [r["test_nll"] for r in rows], "o-", color="black", label=f"fine-tuned {length} updates")
    for r in longer:
        right.plot(r["alpha"], r["test_nll"], **style(r), ls="none", color="black", label=how(r))
    right.axhline(base["test_nll"], color="black", ls=":", label="the model it started from")
    right.set(xlabel="unlikelihood weight α (0: the control)", ylabel="nats per token",
              title="test NLL")
    right.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=120)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("runs", nargs="*", type=Path, help="fine-tuned music runs (their last checkpoint is scored)")
    p.add_argument("--base", type=Path, default=Path("runs/gpu/g8k"), help="the run they started from (its best)")
    p.add_argument("--grades", type=Path, help="folder of `aiayn grade --json` files named ft-RUN.json")
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--replot", action="store_true", help="draw and print the saved results again, scoring nothing")
    p.add_argument("--again", action="store_true", help="score every checkpoint, even those the results hold")
    args = p.parse_args()
    last = latest_record("chorale_unlikelihood")  # the newest record: its scores are reused, never overwritten
    if args.replot:
        saved = json.loads(last.read_text())
        base, rows = saved["base"], saved["runs"]
    else:
        set_threads(args.threads)
        saved = json.loads(last.read_text()) if last and not args.again else {"runs": []}
        known = {(r["run"], r["weights"]): r for r in [*saved["runs"], *([saved["base"]] if "base" in saved else [])]}
        base = measure(args.base, args.grades, known, base=True)
        rows = [measure(run, args.grades, known) for run in args.runs]
        write_result("chorale_unlikelihood", {"base": base, "runs": rows,
                                              "recipe": __doc__.split("\n\n")[1].strip()})
    plot(rows, base, DOCS / "unlikelihood.png")
    for r in [base, *rows]:
        print(f"{r['run']:<16} α {r['alpha']:<4g} valid {r['valid_nll']:.4f} test {r['test_nll']:.4f} "
              f"5ths {r['parallel_5ths_expected']:.2f} 8ves {r['parallel_8ves_expected']:.2f} (Bach "
              f"{r['parallel_5ths_bach']:.2f} {r['parallel_8ves_bach']:.2f})")
        for n, s in r["samples"].items():
            if n == "sweep":
                continue
            print(f"    {n} samples: 5ths {s['parallel_5ths_per_100q']:.2f} 8ves {s['parallel_8ves_per_100q']:.2f} "
                  f"crossings {s['crossings_pct']:.2f}% range {s['out_of_range_pct']:.2f}% ended {s['ended']}/"
                  f"{s['pieces']} longest held {s['longest_held_q']:g} q grade {s['grade']:.2f}")

if __name__ == "__main__":
    main()
