"""Pictures of an experiment's results, drawn from its records alone (``results.json``): curves of a score
against training time and FLOPs, validation NLL against time, scores by source length (Bahdanau et al. 2015, Figure 2),
alignments side by side (their Figure 3), and each variation's change against its base beside the paper's (Table 3)."""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")  # files only: no display needed
import matplotlib.pyplot as plt  # noqa: E402


def _name(record: dict[str, Any]) -> str:
    return record.get("label") or record["name"]


def curves(records: list[dict[str, Any]], out: Path, title: str, ylabel: str = "test BLEU") -> None:
    """BLEU against minutes of training (left) and training FLOPs (right), one line per run."""
    fig, (by_time, by_flops) = plt.subplots(1, 2, figsize=(10, 4), sharey=True)
    for record in records:
        points = record.get("curve") or []
        x_min = [p["minutes"] for p in points]
        x_flops = [p["flops"] for p in points]
        bleu = [p["bleu"] for p in points]
        by_time.plot(x_min, bleu, marker="o", label=_name(record))
        by_flops.plot(x_flops, bleu, marker="o", label=_name(record))
    by_time.set_xlabel("training time (minutes, one CPU thread)")
    by_time.set_ylabel(ylabel)
    by_flops.set_xlabel("training FLOPs (matrix products, forward + backward)")
    spans = [p["flops"] for r in records for p in r.get("curve") or []]
    if spans and max(spans) > 20 * min(spans):  # a log axis only where the runs' FLOPs span decades
        by_flops.set_xscale("log")
        _log_labels(by_flops, lambda x: f"{x:.0e}".replace("e+", "e"))
    _finish(fig, (by_time, by_flops), title, out)


def valid_curves(records: list[dict[str, Any]], out: Path, title: str) -> None:
    """The trainer's validation NLL against minutes of training, one line per run (where a run overfits, the
    line turns up); beside it, where every record counts them, against the target tokens read (runs of
    different batch sizes compared by how much music they have seen)."""
    by_tokens = all("tokens" in p for r in records for p in r.get("valid_curve") or [])
    rows = -(-len(records) // 2)  # two panels share one legend below them, two runs a row: it hides no line
    fig, axes = plt.subplots(1, 2 if by_tokens else 1, figsize=(12, 4 + 0.2 * rows) if by_tokens else (6.5, 4),
                             sharey=True, squeeze=False)
    styles = _styles(records)
    for record, style in zip(records, styles):
        points = record.get("valid_curve") or []
        nll = [p["valid_nll"] for p in points]
        axes[0][0].plot([p["minutes"] for p in points], nll, label=_name(record), **style)
        if by_tokens:
            axes[0][1].plot([p["tokens"] / 1e6 for p in points], nll, label=_name(record), **style)
    # the CPU experiments' pictures keep their label; runs that count tokens may have trained on a GPU
    axes[0][0].set_xlabel("training time (minutes)" if by_tokens else "training time (minutes, one CPU thread)")
    axes[0][0].set_ylabel("validation NLL (nats per token)")
    if by_tokens:
        axes[0][1].set(xscale="log", xlabel="target tokens read (millions, log scale)")
        _log_labels(axes[0][1], lambda x: f"{x:g}")  # 0.5, 1, 2, not 10^0 and 2x10^0
        fig.legend(*axes[0][0].get_legend_handles_labels(), loc="lower center", ncol=2, fontsize=8)
    _finish(fig, axes[0], title, out, legend=not by_tokens, room=0.2 * rows + 0.2)


def _log_labels(ax, form) -> None:
    """A log x axis labelled at 1, 2 and 5 times each power of ten only, by ``form``: every minor tick labelled
    runs the labels into each other."""
    def label(x: float, _) -> str:
        return form(x) if f"{x:.0e}"[0] in "125" else ""

    ax.xaxis.set_major_formatter(matplotlib.ticker.FuncFormatter(label))
    ax.xaxis.set_minor_formatter(matplotlib.ticker.FuncFormatter(label))


def _styles(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each line's look: matplotlib's ten colours in turn; past ten runs (the colours would repeat) one colour per
    row of the table and a line style and marker per run within it, so that no two lines look alike."""
    if len(records) <= 10:
        return [{"marker": "."} for _ in records]
    row_of = [r.get("row", r["name"]) for r in records]
    rows = list(dict.fromkeys(row_of))
    looks = [("-", "o"), ("--", "s"), (":", "^"), ("-.", "v"), ((0, (5, 1, 1, 1)), "D"), ((0, (1, 3)), "x")]
    count: dict[str, int] = {}
    out = []
    for row in row_of:
        line, marker = looks[count.get(row, 0) % len(looks)]
        count[row] = count.get(row, 0) + 1
        out.append({"color": f"C{rows.index(row) % 10}", "linestyle": line, "marker": marker, "markersize": 4})
    return out


SMALL_BIN = 20  # sentences: below this a bin's BLEU is noise, drawn apart from the line


def by_length(records: list[dict[str, Any]], out: Path, metric: str, title: str) -> None:
    """``metric`` (bleu or accuracy) by source-length bin, one line per run, each bin at its mean length; a bin
    of fewer than ``SMALL_BIN`` sentences is a hollow marker off the line (too few to read a trend from); a bin's
    95% bootstrap interval, where its record has one, is an error bar."""
    fig, ax = plt.subplots(figsize=(6.5, 4))
    small_seen = False
    for i, record in enumerate(records):
        shown = [b for b in record.get("by_length") or [] if "bleu_ci95" in b and metric == "bleu"]
        if shown:
            ax.errorbar([b.get("mean_length", (b["lo"] + b["hi"]) / 2) for b in shown], [b["bleu"] for b in shown],
                        yerr=[b["bleu_ci95"] for b in shown], fmt="none", ecolor=f"C{i}", alpha=0.5, capsize=3)
        points = [(b.get("mean_length", (b["lo"] + b["hi"]) / 2), 100 * b[metric] if metric == "accuracy"
                   else b[metric], b.get("n", SMALL_BIN)) for b in record.get("by_length") or []]
        big = [(x, y) for x, y, n in points if n >= SMALL_BIN]
        small = [(x, y) for x, y, n in points if n < SMALL_BIN]
        if big:
            ax.plot(*zip(*big), marker="o", color=f"C{i}", label=_name(record))
        if small:
            ax.scatter(*zip(*small), facecolors="none", edgecolors=f"C{i}", label=None if big else _name(record))
            small_seen = True
    if small_seen:
        ax.scatter([], [], facecolors="none", edgecolors="0.4", label=f"bin of fewer than {SMALL_BIN} sentences")
    ax.set_xlabel("source length (words)")
    ax.set_ylabel("exact-match accuracy (%)" if metric == "accuracy" else "BLEU")
    _finish(fig, (ax,), title, out)


def alignments(records: list[dict[str, Any]], out: Path) -> None:
    """One column per run, one row per sentence: the encoder-decoder attention its record keeps (target pieces
    down, source pieces across), titled with the run and its translation."""
    rows = max(len(r["alignments"]) for r in records)
    fig, axes = plt.subplots(rows, len(records), figsize=(6.5 * len(records), 5.2 * rows), squeeze=False)
    for column, record in enumerate(records):
        for ax, shown in zip(axes[:, column], record["alignments"]):
            ax.imshow(shown["weights"], cmap="gray_r", vmin=0.0, vmax=1.0, aspect="auto")
            ax.set_xticks(range(len(shown["keys"])), shown["keys"], rotation=90, fontsize=7)
            ax.set_yticks(range(len(shown["queries"])), shown["queries"], fontsize=7)
            ax.set_title(f"{_name(record)}\n" + textwrap.fill(f"→ {shown['translation']}", 90), fontsize=8)
    fig.tight_layout()
    fig.savefig(out, dpi=110, format="png")
    plt.close(fig)


def nll_by_position(records: list[dict[str, Any]], out: Path, title: str) -> None:
    """NLL by position, a panel per way of reading the test chorales (whole; chained two by two), a line per run,
    dashed lines at the runs' training windows."""
    kinds = [k for k in ("whole", "chained") if any(k in r["by_position"] for r in records)]
    fig, axes = plt.subplots(1, len(kinds), figsize=(6 * len(kinds), 4), sharey=True, squeeze=False)
    windows = {r["options"]["window"] for r in records if "window" in r.get("options", {})}
    for ax, kind in zip(axes[0], kinds):
        for record in records:
            if kind in record["by_position"]:
                ax.plot(*record["by_position"][kind], label=_name(record))
        for x in sorted(windows):
            ax.axvline(x, color="grey", linestyle="--", linewidth=0.8)
        ax.set(xlabel="position (tokens; 32-token means, ≥ 3 sequences)",
               title="test chorales, each whole from its start" if kind == "whole" else
               "test chorales chained two by two")
    axes[0][0].set_ylabel("NLL (nats per token)")
    _finish(fig, axes[0], title, out)


def variations(rows: list[dict[str, Any]], out: Path, title: str) -> None:
    """Table 3 as a picture: each variation's change against the base of its own seed, here (dots, with the noise
    margin inside which the change cannot be told from noise) and in the paper (crosses), for BLEU (points) and
    perplexity (% of the base's). ``rows``: name, bleu, ppl, bleu_margin, ppl_margin (ours), paper_bleu, paper_ppl."""
    fig, axes = plt.subplots(1, 2, figsize=(10, 0.32 * len(rows) + 1.6), sharey=True)
    y = list(range(len(rows)))[::-1]
    for ax, key, label in ((axes[0], "bleu", "change in dev BLEU (points)"),
                           (axes[1], "ppl", "change in dev perplexity (% of the base)")):
        ax.axvline(0, color="0.5", linewidth=0.8)
        ax.errorbar([r[key] for r in rows], y, xerr=[r[f"{key}_margin"] for r in rows], fmt="o", color="C0",
                    ecolor="0.6", capsize=3, zorder=3, label="aiayn, tiny (± the noise margin)")
        ax.scatter([r[f"paper_{key}"] for r in rows], y, color="C3", marker="x", zorder=4, label="paper, base")
        ax.set_xlabel(label)
    axes[0].set_yticks(y, [r["name"] for r in rows], fontsize=8)
    fig.legend(*axes[0].get_legend_handles_labels(), loc="lower center", ncol=3, fontsize=8)
    _finish(fig, axes, title, out, legend=False)


def by_budget(rows: list[dict[str, Any]], steps: list[int], out: Path, title: str) -> None:
    """Table 3 with training: each variation's BLEU against the base of its seed at each budget (a line through
    the seeds' mean, each seed a small dot, the noise margin as a bar), one panel a variation, the paper's
    difference as a dashed line. ``rows``: name, paper_bleu, points (step, bleu, seeds, margin)."""
    width = max(7.0, 2.6 * len(rows) + 0.8)  # room for the two-line title and the legend while rows are few
    fig, axes = plt.subplots(1, len(rows), figsize=(width, 3.6), sharey=True, squeeze=False)
    for ax, row in zip(axes[0], rows):
        xs = [p["step"] for p in row["points"]]
        ax.axhline(0, color="0.5", linewidth=0.8)
        ax.axhline(row["paper_bleu"], color="C3", linestyle="--", linewidth=1, label="paper (100k updates)")
        ax.errorbar(xs, [p["bleu"] for p in row["points"]], yerr=[p["margin"] or 0 for p in row["points"]],
                    fmt="o-", color="C0", ecolor="0.6", capsize=3, label="aiayn, tiny (mean ± noise margin)")
        for p in row["points"]:
            ax.scatter([p["step"]] * len(p["seeds"]), p["seeds"], s=10, color="C0", alpha=0.4)
        ax.set_title(textwrap.fill(row["name"], 30), fontsize=9)
        ax.set_xticks(steps, [f"{s // 1000}k" if s % 1000 == 0 else str(s) for s in steps])
        ax.set_xlabel("updates")
    axes[0][0].set_ylabel("BLEU against the base (points)")
    fig.legend(*axes[0][0].get_legend_handles_labels(), loc="lower center", ncol=2, fontsize=8)
    _finish(fig, axes[0], title, out, legend=False)


def _finish(fig, axes, title: str, out: Path, legend: bool = True, room: float = 0.4) -> None:
    """Grid (and legend) on each panel, the title over them, written as PNG (``out`` may be a temporary name);
    without a legend per panel, ``room`` inches at the bottom for the figure's."""
    for ax in axes:
        ax.grid(alpha=0.3)
        if legend:
            ax.legend(fontsize=8)
    width = int(fig.get_figwidth() * 13)  # characters of a 10-point title that fit the figure's width
    fig.suptitle("\n".join(textwrap.fill(line, width) for line in title.split("\n")), fontsize=10)
    fig.tight_layout(rect=(0, 0 if legend else room / fig.get_figheight(), 1, 1))  # room for a figure legend
    fig.savefig(out, dpi=110, format="png")
    plt.close(fig)
