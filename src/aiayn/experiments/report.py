"""An experiment's table (markdown) and pictures, made from its records alone, so they can be remade anywhere
from the committed ``results.json``. Rows with the paper's figures get a verdict against the seeds' noise."""

from __future__ import annotations

import statistics
from pathlib import Path
from typing import Any

from .. import tasks
from ..io.atomic import atomic_path
from .spec import FOLDER, Experiment

SAME = 0.3  # a paper difference below this many BLEU (or 0.05 perplexity) is "no change"
UNTRAINED = 5  # a row whose perplexity is this many times the base's did not train: it is not judged


def render(exp: Experiment, records: dict[str, dict[str, Any]], folder: Path) -> str:
    """Writes ``table.md`` and the plots into ``folder``; returns the markdown."""
    from ..plots import experiments as plots  # matplotlib: only rendering needs it

    folder.mkdir(parents=True, exist_ok=True)
    rows = ["", "base", *sorted({spec.row for spec in exp.runs} - {"", "base"})]  # the base's seeds, then A, B, ...
    done = [records[r.name] for r in sorted(exp.runs, key=lambda r: rows.index(r.row)) if r.name in records]
    missing = [r.name for r in exp.runs if r.name not in records]
    given = exp.name if exp.path.parent == FOLDER else exp.path
    text = f"# {exp.title or exp.name}\n\nRemake: `aiayn experiment {given}` (trains what is missing, then " \
           f"this table). Evaluation: {_evaluation(exp)}.\n\n"
    text += _paper_table(exp, done) if any(r.paper for r in exp.runs) else _table(exp, done)
    changes = _paper_changes(exp, done)
    if changes:
        with atomic_path(folder / "variations.png") as tmp:
            plots.variations(*changes, tmp, f"{exp.title}\n(each row against the base; {exp.evaluate.split} split)")
        text += "\n![each row's change against the base, here and in the paper](variations.png)\n"
    if missing:
        text += f"\nNot yet run: {', '.join(missing)}.\n"
    if exp.evaluate.valid_curve and any(len(r.get("valid_curve", [])) > 1 for r in done):
        with atomic_path(folder / "validation.png") as tmp:
            plots.valid_curves(done, tmp, f"{exp.title}\n(validation NLL as each run trained)")
        text += "\n![validation NLL against training time](validation.png)\n"
    if any(r.get("curve") for r in done):
        with atomic_path(folder / "curves.png") as tmp:
            ev = exp.evaluate
            plots.curves(done, tmp, exp.title, f"{ev.split} BLEU ({'greedy' if ev.beam == 1 else f'beam {ev.beam}'})")
        text += "\n![score against training time and FLOPs](curves.png)\n"
    if any(r.get("by_length") for r in done):  # BLEU by length, as Bahdanau et al.'s Figure 2
        with atomic_path(folder / "length.png") as tmp:
            plots.by_length(done, tmp, "bleu", f"{exp.title}\n({exp.evaluate.split} split, by source length)")
        text += "\nBLEU by source length:\n\n" + _length_table(done, "bleu")
        if exp.evaluate.metric == "exact":
            text += "\nExact-match accuracy by source length:\n\n" + _length_table(done, "accuracy")
        text += "\n![BLEU by source length](length.png)\n"
    with atomic_path(folder / "table.md") as tmp:
        tmp.write_text(text, encoding="utf-8")
    return text


def _evaluation(exp: Experiment) -> str:
    ev = exp.evaluate
    if all(tasks.get(r.task).figures for r in exp.runs):  # tasks that score their own models (music)
        return f"NLL per token on the {ev.split} split (each token once), the last checkpoint (no averaging)"
    search = "greedy" if ev.beam == 1 else f"beam {ev.beam}, α {ev.alpha}"
    metric = "exact-match accuracy" if ev.metric == "exact" else "sacreBLEU BLEU and chrF"
    return f"{metric} on the {ev.split} split, {search}, the last checkpoint (no averaging)"


def _hours(seconds: float) -> str:
    return f"{seconds / 60:.0f} min" if seconds < 5400 else f"{seconds / 3600:.1f} h"


def _table(exp: Experiment, done: list[dict[str, Any]]) -> str:
    """One row per run: its budget as spent and the scores its records hold (accuracy, BLEU, NLL, FLOPs)."""
    values = [_derived(exp, r) for r in done]
    columns = [(key, head, form) for key, head, form in (
        ("accuracy", "accuracy", lambda v: f"{100 * v:.1f}%"), ("bleu", "BLEU", "{:.2f}".format),
        ("chrf", "chrF", "{:.2f}".format), ("valid_nll", "valid NLL", "{:.3f}".format),
        ("best_valid_nll", "best valid NLL", "{:.3f}".format), ("test_nll", "test NLL", "{:.3f}".format),
        ("test_nll_within", "test NLL inside the window", "{:.3f}".format),
        ("test_nll_beyond", "test NLL past the window (to 2×)", "{:.3f}".format),
        ("samples_parallel_5ths", "parallel 5ths / 100 q", "{:.2f}".format),
        ("samples_parallel_8ves", "parallel 8ves / 100 q", "{:.2f}".format),
        ("samples_crossings", "crossings %", "{:.2f}".format), ("samples_out_of_range", "out of range %", "{:.2f}".format),
        ("samples_ended", "ended by itself", lambda v: f"{100 * v:.0f}%"), ("samples_grade", "grade", "{:.2f}".format),
        ("sampling", "sampling", str),
        ("flops", "training FLOPs", "{:.2e}".format)) if any(key in v for v in values)]
    rows = ["| run | options | parameters | updates | training time | " + " | ".join(h for _, h, _ in columns) + " |",
            "|" + " --- |" * (len(columns) + 5)]
    settings = [{**r.get("options", {}), **r.get("set", {})} for r in done]
    shared = {k: v for k, v in settings[0].items() if all(s.get(k) == v for s in settings)} if done else {}
    for r, figures, setting in zip(done, values, settings):
        change = ", ".join(f"{k}={v}" for k, v in setting.items() if k not in shared) or "–"  # what sets it apart
        cells = [r.get("label") or r["name"], change, f"{r['parameters']:,}", f"{r['updates']:,}",
                 _hours(r["train_seconds"])]
        cells += [form(figures[key]) if key in figures else "–" for key, _, form in columns]
        rows.append("| " + " | ".join(cells) + " |")
    bach = next((r["bach"] for r in done if "bach" in r), None)
    if bach:  # the music runs' samples are graded beside Bach's test chorales
        rows.append(f"\nThe part-writing columns grade 20 unconditional samples of each run at the task's default "
                    f"sampling when it was scored (the last column; rates pooled over the pieces; grade: the median "
                    f"sum of distances to Bach, `aiayn grade`). Bach's test chorales, graded the same way: parallel 5ths {bach['parallel_5ths']:.2f} "
                    f"and 8ves {bach['parallel_8ves']:.2f} per 100 quarters, crossings {bach['crossings']:.2f}%, "
                    f"out of range {bach['out_of_range']:.2f}%, grade {bach['grade']:.2f}.")
    return "\n".join(rows) + "\n"


def _derived(exp: Experiment, r: dict[str, Any]) -> dict[str, Any]:
    """A record with the figures computed from it: its training FLOPs, and its lowest validation NLL (the last
    may have risen past it) where the experiment chooses by the validation curve."""
    values = dict(r)
    if "flops_per_update" in r:
        values["flops"] = r["flops_per_update"] * r["updates"]
    if exp.evaluate.valid_curve and r.get("valid_curve"):
        values["best_valid_nll"] = min(p["valid_nll"] for p in r["valid_curve"])
    if "samples_grade" in r:  # records graded before the settings were saved used the then default, T 1.0
        values["sampling"] = f"T {r.get('samples_temperature', 1.0)}, top-p {r.get('samples_top_p', 1.0)}"
    return values


def _length_table(done: list[dict[str, Any]], metric: str) -> str:
    bins = [(b["lo"], b["hi"]) for b in done[0].get("by_length", [])]
    head = "| run | " + " | ".join(f"{lo}–{hi - 1} words" for lo, hi in bins) + " |"
    rows = [head, "|" + " --- |" * (len(bins) + 1)]
    for r in done:
        values = {(b["lo"], b["hi"]): b for b in r.get("by_length", [])}
        cells = [f"{100 * values[k][metric]:.1f}%" if metric == "accuracy" else f"{values[k][metric]:.2f}"
                 if k in values else "–" for k in bins]
        rows.append(f"| {r.get('label') or r['name']} | " + " | ".join(cells) + " |")
    n = {b["lo"]: b["n"] for b in done[0].get("by_length", [])}
    return "\n".join(rows) + f"\n\nSentences per bin: {', '.join(str(n[lo]) for lo, _ in bins)}.\n"


def _paper_table(exp: Experiment, done: list[dict[str, Any]]) -> str:
    """Table 3's layout: each row beside the paper's, and whether the paper's direction shows here."""
    base, paper_base, mean, noise = _base(exp, done)
    rows = ["| row | run | change | parameters | updates | time | dev PPL | dev BLEU | paper PPL | paper BLEU | finding |",
            "|" + " --- |" * 11]
    for r in done:
        change = ", ".join(f"{k.split('.')[1]}={v}" for k, v in r["set"].items()) or (f"seed {r['seed']}")
        finding = "" if r["row"] == "base" else _finding(r, mean, noise, paper_base)
        rows.append(f"| {r['row']} | {r['name']} | {change} | {r['parameters'] / 1e6:.2f}M | {r['updates']:,} | "
                    f"{_hours(r['train_seconds'])} | {r.get('valid_ppl', float('nan')):.2f} | {r['bleu']:.2f} | "
                    f"{r['paper'].get('ppl', '')} | {r['paper'].get('bleu', '')} | {finding} |")
    spread = (f"The {len(base)} seeds of the tiny row span {noise['bleu']:.2f} BLEU and {noise['valid_ppl']:.2f} "
              "perplexity: a difference smaller than that is within noise." if noise["bleu"] is not None else
              "Fewer than two seeds of the tiny row so far: the noise is not measured yet, so no row is judged.")
    return "\n".join(rows) + f"\n\n{spread}\n"


def _base(exp: Experiment, done: list[dict[str, Any]]) -> tuple[list[dict], dict, dict, dict]:
    """The base row's scored seeds, the paper's base figures, and the seeds' mean and spread (max - min) of BLEU
    and perplexity (None while there are too few seeds)."""
    base = [r for r in done if r["row"] == "base"]
    paper_base = next((r.paper for r in exp.runs if r.row == "base"), {})
    noise = {m: (max(r[m] for r in base) - min(r[m] for r in base)) if len(base) > 1 else None
             for m in ("bleu", "valid_ppl")}
    mean = {m: statistics.mean(r[m] for r in base) if base else None for m in ("bleu", "valid_ppl")}
    return base, paper_base, mean, noise


def _paper_changes(exp: Experiment, done: list[dict[str, Any]]) -> tuple[list[dict], dict] | None:
    """What ``plots.variations`` draws: each judged row's change against the base here and in the paper (rows that
    did not train left out), and the base seeds' spread; None until two seeds of the base row are scored."""
    _, paper_base, mean, noise = _base(exp, done)
    if noise["bleu"] is None or not paper_base:
        return None
    rows = [{"name": r["name"], "bleu": r["bleu"] - mean["bleu"], "ppl": 100 * (r["valid_ppl"] / mean["valid_ppl"] - 1),
             "paper_bleu": r["paper"]["bleu"] - paper_base["bleu"],
             "paper_ppl": 100 * (r["paper"]["ppl"] / paper_base["ppl"] - 1)}
            for r in done if r["row"] != "base" and not _untrained(r, mean)]  # an untrained row is off the scale
    return (rows, {"bleu": noise["bleu"], "ppl": 100 * noise["valid_ppl"] / mean["valid_ppl"]}) if rows else None


def _untrained(r: dict[str, Any], mean: dict) -> bool:
    return r["valid_ppl"] > UNTRAINED * mean["valid_ppl"]


def _finding(r: dict[str, Any], mean: dict, noise: dict, paper_base: dict) -> str:
    """One sentence: does the paper's direction (vs. its base) show here (vs. the mean of the tiny seeds)?"""
    if noise["bleu"] is None or not paper_base:
        return "not judged yet (the tiny row needs a second seed)"
    if _untrained(r, mean):
        return (f"did not train (perplexity {r['valid_ppl']:.0f} against the base's {mean['valid_ppl']:.1f}): "
                "no verdict on the paper's direction.")
    parts = []
    for metric, paper_key, same in (("bleu", "bleu", SAME), ("valid_ppl", "ppl", 0.05)):
        theirs, ours = round(r["paper"][paper_key] - paper_base[paper_key], 2), r[metric] - mean[metric]
        paper_way = 0 if abs(theirs) < same else (1 if theirs > 0 else -1)
        our_way = 0 if abs(ours) <= noise[metric] else (1 if ours > 0 else -1)
        verdict = ("no change in either: reproduced" if paper_way == our_way == 0 else "reproduced"
                   if paper_way == our_way else "within noise" if our_way == 0 else "not reproduced")
        name = "BLEU" if metric == "bleu" else "PPL"
        parts.append(f"{name} {theirs:+.2f} in the paper, {ours:+.2f} here: {verdict}")
    return "; ".join(parts) + "."
