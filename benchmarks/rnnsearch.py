"""Bahdanau et al. (2015) on the built-in Bible: RNNencdec, RNNsearch and the Transformer at one budget.

  python -m benchmarks.rnnsearch report RUN... [--out docs/rnnsearch] [--name cpu-30m]
      For each run: updates and training throughput (target tokens/s, from its log), and the test
      split scored from the hypotheses `aiayn evaluate --model RUN` wrote beside it (beam 4):
      BLEU and chrF on the whole split and per source length (English words, buckets of 10), the
      paper's Figure 2. Writes <out>/<name>.json and <out>/<name>-length.png (<name>-2 ... when taken).

  python -m benchmarks.rnnsearch align RNNSEARCH_RUN TRANSFORMER_RUN [--verses 3] [--out FILE.png]
      Test verses side by side: RNNsearch's alignment alpha (Bahdanau et al.'s Figure 3) next to the
      Transformer's encoder-decoder attention (last layer, mean of its heads), each on its own
      translation.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from statistics import median

from .common import record_path, write_result

EDGES = (1, 11, 21, 31, 41, 51, 10**9)  # buckets of 10 words; sources longer than 50 share one


def bucket_name(lo: int, hi: int) -> str:
    return f"{lo}+" if hi == EDGES[-1] else f"{lo}-{hi - 1}"


def test_split():
    from aiayn import corpus
    from aiayn.data import read_parallel

    return read_parallel(corpus.builtin("test"), "en", "es")


def score_run(run: Path, data) -> dict:
    from sacrebleu.metrics import BLEU, CHRF

    from aiayn.io.rundir import RunDir, hypotheses
    from aiayn.metrics.bleu import by_length

    hyps = hypotheses(run, "test", "beam4", "es").read_text(encoding="utf-8").split("\n")[: len(data)]
    config = RunDir(run).read_config()
    train = RunDir(run).events("train")
    buckets = [{"bucket": bucket_name(b["lo"], b["hi"]), "sentences": b["n"], "bleu": b["bleu"]}
               for b in by_length(data.src, data.tgt, hyps, EDGES)]
    return {"run": str(run), "arch": config.get("arch", "transformer"), "updates": train[-1]["step"],
            "train_seconds": train[-1]["elapsed"], "median_tgt_tokens_per_s": median(e["tgt_tok_s"] for e in train[1:]),
            "bleu": BLEU().corpus_score(hyps, [data.tgt]).score, "chrf": CHRF().corpus_score(hyps, [data.tgt]).score,
            "by_length": buckets}


def report(args) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    data = test_split()
    rows = [score_run(Path(r), data) for r in args.runs]
    record = record_path(args.name, args.out)  # <name>.json, or <name>-2.json ...: a quoted record stays
    write_result(args.name, {"name": args.name, "runs": rows}, path=record)
    for r in rows:
        print(f"{r['arch']:12} updates {r['updates']:6}  tgt tok/s {r['median_tgt_tokens_per_s']:7.0f}  "
              f"BLEU {r['bleu']:5.2f}  chrF {r['chrf']:5.2f}  by length: "
              + " ".join(f"{b['bucket']}:{b['bleu']:.1f}" for b in r["by_length"]))
    fig, ax = plt.subplots(figsize=(6, 4))
    for r in rows:
        ax.plot([b["bucket"] for b in r["by_length"]], [b["bleu"] for b in r["by_length"]], marker="o",
                label=f"{r['arch']} ({r['bleu']:.1f} overall)")
    counts = rows[0]["by_length"]
    ax.set_xticks(range(len(counts)), [f"{b['bucket']}\n({b['sentences']})" for b in counts], fontsize=8)
    ax.set_xlabel("source length in English words (test sentences)")
    ax.set_ylabel("BLEU")
    ax.set_title(f"Test BLEU by sentence length ({args.name}; cf. Bahdanau et al. Fig. 2)", fontsize=9)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    png = record.with_name(f"{record.stem}-length.png")
    fig.savefig(png, dpi=120)
    print(f"wrote {record} and {png}")


def align(args) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from aiayn.inference.attention_maps import attention_maps
    from aiayn.inference.translator import Translator

    data = test_split()
    verses = [s for s in data.src if 8 <= len(s.split()) <= 14][: args.verses]
    systems = [("RNNsearch: alpha", Translator.load(args.rnnsearch, args.device)),
               ("Transformer: cross-attention, last layer, mean of heads", Translator.load(args.transformer, args.device))]
    fig, axes = plt.subplots(len(verses), 2, figsize=(13, 5.2 * len(verses)), squeeze=False)
    for row, verse in zip(axes, verses):
        for ax, (title, translator) in zip(row, systems):
            translation, layers, queries, keys = attention_maps(translator, verse, "cross")
            ax.imshow(layers[-1].mean(0).numpy(), cmap="gray_r", vmin=0.0, vmax=1.0, aspect="auto")
            ax.set_xticks(range(len(keys)), keys, rotation=90, fontsize=7)
            ax.set_yticks(range(len(queries)), queries, fontsize=7)
            ax.set_title(f"{title}\n→ {translation}", fontsize=8)
    fig.tight_layout()
    fig.savefig(args.out, dpi=110)
    print(f"wrote {args.out}")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="command", required=True)
    r = sub.add_parser("report")
    r.add_argument("runs", nargs="+")
    r.add_argument("--out", default="docs/rnnsearch")
    r.add_argument("--name", default="comparison")
    a = sub.add_parser("align")
    a.add_argument("rnnsearch")
    a.add_argument("transformer")
    a.add_argument("--verses", type=int, default=3)
    a.add_argument("--device", default="cpu")
    a.add_argument("--out", default="docs/rnnsearch/alignments.png")
    args = p.parse_args()
    report(args) if args.command == "report" else align(args)


if __name__ == "__main__":
    main()
