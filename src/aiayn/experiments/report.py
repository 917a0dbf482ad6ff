"""An experiment's table (markdown) and pictures, made from its records alone, so they can be remade anywhere
from the committed ``results.json``. Rows with the paper's figures get a verdict against the seeds' noise that can
fail: the paper's direction, the opposite, or cannot tell at this noise (never "reproduced" for no change)."""

from __future__ import annotations

import math
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
    text += _paper_table(exp, done) if any(r.paper for r in exp.runs) else _table(exp, done) + _best_of_rows(exp, done)
    text += _against(exp, done, folder)
    changes = _paper_changes(exp, done)
    if changes:
        with atomic_path(folder / "variations.png") as tmp:
            plots.variations(changes[0], tmp, f"{exp.title}\n(each row against the base of its seed; "
                             f"{exp.evaluate.split} split)")
        text += "\n![each row's change against the base, here and in the paper](variations.png)\n"
    budget = _budget_changes(exp, done, folder)
    if budget:  # Table 3 with training: each variation against its base at each scored budget
        text += "\n" + _budget_table(*budget)
        with atomic_path(folder / "by_budget.png") as tmp:
            plots.by_budget(budget[0], budget[1], tmp, f"{exp.title}\n(each row against the base of its seed, by "
                            f"updates; {exp.evaluate.split} BLEU)")
        text += "\n![each row's change against the base by training budget](by_budget.png)\n"
    if missing:
        text += f"\nNot yet run: {', '.join(missing)}.\n"
    if exp.evaluate.valid_curve and any(len(r.get("valid_curve", [])) > 1 for r in done):
        with atomic_path(folder / "validation.png") as tmp:
            plots.valid_curves(done, tmp, f"{exp.title}\n(validation NLL as each run trained)")
        text += "\n![validation NLL against training time](validation.png)\n"
    if any(r.get("by_position") for r in done):  # the Music Transformer's test past the training length
        with atomic_path(folder / "nll_by_position.png") as tmp:
            plots.nll_by_position([r for r in done if r.get("by_position")], tmp, exp.title)
        text += "\n![NLL by position, test chorales whole and chained two by two](nll_by_position.png)\n"
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
    if any(r.get("alignments") for r in done):  # Bahdanau et al.'s Figure 3, beside the Transformer's
        with atomic_path(folder / "alignments.png") as tmp:
            plots.alignments([r for r in done if r.get("alignments")], tmp)
        text += "\n![each run's encoder-decoder attention on its own translation](alignments.png)\n"
    with atomic_path(folder / "table.md") as tmp:
        tmp.write_text(text, encoding="utf-8")
    return text


def _evaluation(exp: Experiment) -> str:
    ev = exp.evaluate
    if all(tasks.get(r.task).figures for r in exp.runs):  # tasks that score their own models (music, parsing, ...)
        texts = dict.fromkeys(tasks.get(r.task).figures_text.format(split=ev.split) for r in exp.runs)
        return f"{'; '.join(texts)}, {_checkpoint(ev)}"
    search = "greedy" if ev.beam == 1 else f"beam {ev.beam}, α {ev.alpha}"
    metric = "exact-match accuracy" if ev.metric == "exact" else "sacreBLEU BLEU and chrF"
    return f"{metric} on the {ev.split} split, {search}, {_checkpoint(ev)}"


def _checkpoint(ev) -> str:
    """Which weights were scored. The trainer keeps as best its best development BLEU where it validates with
    BLEU (translation), else its lowest validation NLL."""
    best = "the trainer's best checkpoint (by development BLEU where it validates with BLEU, else by validation NLL)"
    if ev.checkpoint == "best":
        return best
    return "the last checkpoint (no averaging)" + (f"; and {best}, as early stopping would keep" if ev.best_too else "")


def _hours(seconds: float) -> str:
    return f"{seconds / 60:.0f} min" if seconds < 5400 else f"{seconds / 3600:.1f} h"


def _table(exp: Experiment, done: list[dict[str, Any]]) -> str:
    """One row per run: its budget as spent and the scores its records hold (accuracy, BLEU, NLL, FLOPs)."""
    values = [_derived(exp, r) for r in done]
    columns = [(key, head, form) for key, head, form in (
        ("accuracy", "accuracy", lambda v: f"{100 * v:.1f}%"), ("bleu", "BLEU", "{:.2f}".format),
        ("chrf", "chrF", "{:.2f}".format), ("best_step", "the trainer's best checkpoint (dev BLEU)", "{:,}".format),
        ("best_bleu", "BLEU there", "{:.2f}".format), ("valid_nll", "valid NLL", "{:.3f}".format),
        ("best_valid_nll", "best valid NLL", "{:.3f}".format),
        ("improving", "still improving at the end (valid NLL)", str), ("test_nll", "test NLL", "{:.3f}".format),
        ("test_nll_within", "test NLL inside the window", "{:.3f}".format),
        ("test_nll_beyond", "test NLL past the window (to 2×)", "{:.3f}".format),
        ("whole_nll_all", "whole pieces: NLL", "{:.3f}".format), ("whole_nll_0_256", "0–255", "{:.3f}".format),
        ("whole_nll_256_512", "256–511", "{:.3f}".format), ("whole_nll_512_2048", "512–2,047", "{:.3f}".format),
        ("whole_nll_2048_end", "2,048 on", "{:.3f}".format),
        ("chained_nll_0_2048", "chained pairs: 0–2,047", "{:.3f}".format),
        ("chained_nll_2048_4096", "2,048–4,095", "{:.3f}".format),
        ("test_parallel_5ths_expected", "expected parallel 5ths / 100 q", "{:.2f}".format),
        ("test_parallel_8ves_expected", "expected parallel 8ves / 100 q", "{:.2f}".format),
        ("samples_parallel_5ths", "parallel 5ths / 100 q", "{:.2f}".format),
        ("samples_parallel_8ves", "parallel 8ves / 100 q", "{:.2f}".format),
        ("samples_crossings", "crossings %", "{:.2f}".format), ("samples_out_of_range", "out of range %", "{:.2f}".format),
        ("samples_ended", "ended by itself", lambda v: f"{100 * v:.0f}%"), ("samples_grade", "grade", "{:.2f}".format),
        ("test_bits_per_dim", "test bits/dim", "{:.3f}".format),
        ("test_mae_model", "error per pixel (abs.)", "{:.2f}".format),
        ("test_mae_bicubic", "bicubic's error per pixel", "{:.2f}".format),
        ("test_precision", "precision", "{:.2f}".format), ("test_recall", "recall", "{:.2f}".format),
        ("test_f1", "F1", "{:.2f}".format), ("test_exact_match", "exact match %", "{:.2f}".format),
        ("test_repaired", "repaired", "{:,}".format), ("test_greedy_f1", "F1, greedy", "{:.2f}".format),
        ("test_greedy_exact_match", "exact match %, greedy", "{:.2f}".format),
        ("sampling", "sampling", str), ("tgt_tokens_per_s", "target tokens/s (median)", "{:,.0f}".format),
        ("corpus_sentences", "distilled sentences", "{:,}".format),
        ("corpus_seconds", "teacher's decoding time", _hours),
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
    expected = next((r for r in done if "test_parallel_5ths_bach" in r), None)
    if expected:  # the parallels a run is expected to write continuing the test chorales a token at a time
        rows.append(f"\nThe expected parallels continue each test chorale a token at a time (`aiayn evaluate`); Bach's "
                    f"own: 5ths {expected['test_parallel_5ths_bach']:.2f} and 8ves "
                    f"{expected['test_parallel_8ves_bach']:.2f} per 100 quarters.")
    bach = next((r["bach"] for r in done if "bach" in r), None)
    if bach:  # the music runs' samples are graded beside Bach's test chorales
        rows.append(f"\nThe part-writing columns grade 20 unconditional samples of each run at the task's default "
                    f"sampling when it was scored (the last column; rates pooled over the pieces; grade: the median "
                    f"sum of distances to Bach, `aiayn grade`). Bach's test chorales, graded the same way: parallel 5ths {bach['parallel_5ths']:.2f} "
                    f"and 8ves {bach['parallel_8ves']:.2f} per 100 quarters, crossings {bach['crossings']:.2f}%, "
                    f"out of range {bach['out_of_range']:.2f}%, grade {bach['grade']:.2f}.")
    return "\n".join(rows) + "\n"


def _best_of_rows(exp: Experiment, done: list[dict[str, Any]]) -> str:
    """Where runs are grouped into rows (a model's settings in a tuning budget): each row's best run by BLEU."""
    rows = sorted({r["row"] for r in done if r.get("row")})
    if not rows or exp.evaluate.metric != "bleu" or not all("bleu" in r for r in done):
        return ""
    best = [max((r for r in done if r["row"] == row), key=lambda r: r["bleu"]) for row in rows]
    return "\nBest of each row by " + exp.evaluate.split + " BLEU: " + "; ".join(
        f"{r['row']}: {r.get('label') or r['name']} ({r['bleu']:.2f})" for r in best) + ".\n"


def _against(exp: Experiment, done: list[dict[str, Any]], folder: Path) -> str:
    """With ``evaluate.against``: each other run against that row's run of the same seed, on the same sentences
    (their scored hypotheses): the BLEU difference with sacreBLEU's paired bootstrap 95% interval and p-value; at
    the last checkpoints, and at the trainer's best ones where they were scored (``best_too``)."""
    row = exp.evaluate.against
    bases = {r["seed"]: r for r in done if r["row"] == row}
    pairs = [(r, bases[r["seed"]]) for r in done if r["row"] != row and r["seed"] in bases]
    if not row or not pairs:
        return ""
    text = ""
    readings = ((lambda r: r, "the last checkpoints"), (lambda r: r.get("at_best"), "the trainer's best checkpoints"))
    for reading, title in readings:
        scored = [(reading(r), reading(b)) for r, b in pairs]
        if not all(x and y for x, y in scored):
            continue
        lines = [f"\nEach run against the {row} of the same seed at {title}, on the same {exp.evaluate.split} "
                 "sentences (BLEU difference; sacreBLEU's paired bootstrap, 1,000 resamples: the 95% interval of the "
                 "difference, and the p-value of the difference being chance):", "",
                 f"| run | its BLEU | the {row}'s | difference | 95% interval | p |", "|" + " --- |" * 6]
        for (r, base), (mine, theirs) in zip(pairs, scored):
            kept = {(x["name"], 0): y["hyps"] for x, y in ((r, mine), (base, theirs)) if y.get("hyps")}
            test = _bootstrap(folder, kept, r["name"], base["name"], 0)
            interval = "–" if test is None else f"{test['low']:+.2f} to {test['high']:+.2f}"
            p = "–" if test is None else f"{test['p_value']:.3f}"
            lines.append(f"| {r.get('label') or r['name']} | {mine['bleu']:.2f} | {theirs['bleu']:.2f} | "
                         f"{mine['bleu'] - theirs['bleu']:+.2f} | {interval} | {p} |")
        text += "\n".join(lines) + "\n"
    return text


def _derived(exp: Experiment, r: dict[str, Any]) -> dict[str, Any]:
    """A record with the figures computed from it: its training FLOPs, and its lowest validation NLL (the last
    may have risen past it) where the experiment chooses by the validation curve."""
    values = dict(r)
    if "flops_per_update" in r:
        values["flops"] = r["flops_per_update"] * r["updates"]
    if exp.evaluate.valid_curve and r.get("valid_curve"):
        best = min(r["valid_curve"], key=lambda p: p["valid_nll"])
        values["best_valid_nll"] = best["valid_nll"]
        if len(r["valid_curve"]) > 1:  # was it still learning when its budget ran out?
            values["improving"] = "yes" if best is r["valid_curve"][-1] else f"no: best at update {best['step']:,}"
    if "at_best" in r:  # early stopping: the checkpoint the trainer kept as its best, scored as the last was
        values["best_step"], values["best_bleu"] = r["at_best"]["step"], r["at_best"]["bleu"]
    if "samples_grade" in r:  # records graded before the settings were saved used the then default, T 1.0
        values["sampling"] = f"T {r.get('samples_temperature', 1.0)}, top-p {r.get('samples_top_p', 1.0)}"
    return values


def _length_table(done: list[dict[str, Any]], metric: str) -> str:
    bins = [(b["lo"], b["hi"]) for b in done[0].get("by_length", [])]
    head = "| run | " + " | ".join(f"{lo}–{hi - 1} words" for lo, hi in bins) + " |"
    rows = [head, "|" + " --- |" * (len(bins) + 1)]
    for r in done:
        values = {(b["lo"], b["hi"]): b for b in r.get("by_length", [])}
        cells = [f"{100 * values[k][metric]:.1f}%" if metric == "accuracy" else _bleu_cell(values[k])
                 if k in values else "–" for k in bins]
        rows.append(f"| {r.get('label') or r['name']} | " + " | ".join(cells) + " |")
    n = {b["lo"]: b["n"] for b in done[0].get("by_length", [])}
    intervals = " (± half the 95% bootstrap interval of the bin, sacreBLEU's)" if any(
        "bleu_ci95" in b for r in done for b in r.get("by_length", [])) and metric == "bleu" else ""
    return "\n".join(rows) + f"\n\nSentences per bin: {', '.join(str(n[lo]) for lo, _ in bins)}{intervals}.\n"


def _bleu_cell(scored: dict[str, Any]) -> str:
    return f"{scored['bleu']:.2f}" + (f" ± {scored['bleu_ci95']:.2f}" if "bleu_ci95" in scored else "")


def _paper_table(exp: Experiment, done: list[dict[str, Any]]) -> str:
    """Table 3's layout: each run beside the paper's row and its difference from the base of its own seed, then
    one verdict per variation (its seeds together) on whether the paper's direction shows here."""
    noise = _noise(done)
    bases = {r["seed"]: r for r in done if r["row"] == "base"}
    rows = ["| row | run | change | parameters | updates | time | dev PPL | dev BLEU | paper PPL | paper BLEU | "
            "against the same-seed base |", "|" + " --- |" * 11]
    for r in done:
        change = _change(exp, r) or f"seed {r['seed']}"
        diagnostic = _diagnostic(exp, r)
        paper = ("–", "–") if diagnostic else (_paper(exp, r).get("ppl", ""), _paper(exp, r).get("bleu", ""))
        base = bases.get(r["seed"])
        against = "" if r["row"] == "base" else (
            f"BLEU {r['bleu'] - base['bleu']:+.2f}, PPL {r['valid_ppl'] - base['valid_ppl']:+.2f} (seed {r['seed']})"
            if base else f"no base of seed {r['seed']} yet")
        rows.append(f"| {r['row']} | {r['name']} | {change} | {r['parameters'] / 1e6:.2f}M | {r['updates']:,} | "
                    f"{_hours(r['train_seconds'])} | {r.get('valid_ppl', float('nan')):.2f} | {r['bleu']:.2f} | "
                    f"{paper[0]} | {paper[1]} | {against}{' (a diagnostic, not judged)' if diagnostic else ''} |")
    text = "\n".join(rows) + "\n"
    if noise["bleu"] is None:
        return text + "\nFewer than two seeds of the base so far: the noise is not measured yet, so no row is judged.\n"
    n = sum(r["row"] == "base" for r in done)
    text += (f"\nThe noise: the base's {n} seeds have a standard deviation of {noise['bleu']:.2f} BLEU and "
             f"{noise['valid_ppl']:.2f} perplexity. A row is judged on its difference from the base of the same seed "
             "(the mean over its seeds, k of them); a difference inside twice its standard error, 2 × √2 × sd / √k "
             "(the runs taken as independent), is \"cannot tell at this noise\". The paper's difference counts as "
             f"none below {SAME} BLEU or 0.05 perplexity.\n\n")
    verdicts = ["| variation | seeds | paper BLEU | here BLEU (± noise) | BLEU | paper PPL | here PPL (± noise) | PPL |",
                "|" + " --- |" * 8]
    for group in _groups(exp, done):
        verdicts.append(_verdict_row(exp, group, bases, noise))
    return text + "\n".join(verdicts) + "\n"


def _change(exp: Experiment, r: dict[str, Any]) -> str:
    """What sets a run apart: its ``set`` fields, less those every run of the experiment shares (its defaults)."""
    shared = {k: v for k, v in exp.runs[0].set.items() if all(spec.set.get(k) == v for spec in exp.runs)}
    return ", ".join(f"{k.split('.')[1]}={v}" for k, v in r["set"].items() if shared.get(k, object()) != v)


def _noise(done: list[dict[str, Any]]) -> dict[str, float | None]:
    """The standard deviation of the base's seeds, BLEU and perplexity (None while there are fewer than two)."""
    base = [r for r in done if r["row"] == "base"]
    return {m: statistics.stdev(r[m] for r in base) if len(base) > 1 else None for m in ("bleu", "valid_ppl")}


def _diagnostic(exp: Experiment, r: dict[str, Any]) -> bool:
    return any(spec.name == r["name"] and spec.diagnostic for spec in exp.runs)


def _paper(exp: Experiment, r: dict[str, Any]) -> dict[str, float]:
    """The paper's figures for a run: the spec's (the YAML is their authority), else those its record kept."""
    return next((spec.paper for spec in exp.runs if spec.name == r["name"] and spec.paper), r["paper"])


def _groups(exp: Experiment, done: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    """The variations, each with its seeds (runs of one row and one change), in the table's order; the base and
    the diagnostic runs are not variations of the paper."""
    groups: dict[str, list[dict[str, Any]]] = {}
    for r in done:
        if r["row"] != "base" and not _diagnostic(exp, r):
            groups.setdefault(r["row"] + repr(sorted(r["set"].items())), []).append(r)
    return list(groups.values())


def _paired(group: list[dict[str, Any]], bases: dict[int, dict], metric: str) -> list[float]:
    return [r[metric] - bases[r["seed"]][metric] for r in group if r["seed"] in bases]


def _judge(theirs: float, ours: float, margin: float, same: float) -> str:
    """The verdict on one figure: it can fail, and no change here is never a reproduction."""
    if abs(ours) <= margin:
        return "cannot tell at this noise"
    if abs(theirs) < same:
        return "a change the paper did not see"
    return "the paper's direction" if (ours > 0) == (theirs > 0) else "the opposite"


def _verdict_row(exp: Experiment, group: list[dict[str, Any]], bases: dict[int, dict], noise: dict) -> str:
    first = group[0]
    change = _change(exp, first)
    seeds = ", ".join(str(r["seed"]) for r in group if r["seed"] in bases)
    base = next(iter(bases.values()))
    untrained = [r for r in group if _untrained(r, {"valid_ppl": statistics.mean(b["valid_ppl"] for b in bases.values())})]
    if untrained or not seeds:
        why = (f"did not train (perplexity {untrained[0]['valid_ppl']:.0f}): no verdict" if untrained
               else "no base of the same seed yet")
        return f"| {first['row']}: {change} | {seeds or '–'} | | | {why} | | | |"
    cells = []
    for metric, key, same in (("bleu", "bleu", SAME), ("valid_ppl", "ppl", 0.05)):
        theirs = round(_paper(exp, first)[key] - _paper(exp, base)[key], 2)
        diffs = _paired(group, bases, metric)
        ours, margin = statistics.mean(diffs), 2 * math.sqrt(2) * noise[metric] / math.sqrt(len(diffs))
        cells += [f"{theirs:+.2f}", f"{ours:+.2f} (± {margin:.2f})", _judge(theirs, ours, margin, same)]
    return f"| {first['row']}: {change} | {seeds} | " + " | ".join(cells) + " |"


def _paper_changes(exp: Experiment, done: list[dict[str, Any]]) -> tuple[list[dict], dict] | None:
    """What ``plots.variations`` draws: each judged variation's change against the same-seed base (the mean over
    its seeds, with its noise margin) here and in the paper; diagnostics and rows that did not train are left
    out; None until two seeds of the base are scored."""
    noise = _noise(done)
    bases = {r["seed"]: r for r in done if r["row"] == "base"}
    if noise["bleu"] is None:
        return None
    mean_ppl = statistics.mean(b["valid_ppl"] for b in bases.values())
    rows = []
    for group in _groups(exp, done):
        paired = [r for r in group if r["seed"] in bases]
        if not paired or any(_untrained(r, {"valid_ppl": mean_ppl}) for r in paired):
            continue
        first, base, k = paired[0], bases[paired[0]["seed"]], len(paired)
        rows.append({"name": f"{first['row']}: {_change(exp, first)}",
                     "bleu": statistics.mean(_paired(paired, bases, "bleu")),
                     "ppl": 100 * statistics.mean(r["valid_ppl"] / bases[r["seed"]]["valid_ppl"] - 1 for r in paired),
                     "bleu_margin": 2 * math.sqrt(2) * noise["bleu"] / math.sqrt(k),
                     "ppl_margin": 100 * 2 * math.sqrt(2) * noise["valid_ppl"] / mean_ppl / math.sqrt(k),
                     "paper_bleu": _paper(exp, first)["bleu"] - _paper(exp, base)["bleu"],
                     "paper_ppl": 100 * (_paper(exp, first)["ppl"] / _paper(exp, base)["ppl"] - 1)})
    return (rows, noise) if rows else None


def _budget_changes(exp: Experiment, done: list[dict[str, Any]], folder: Path | None = None,
                    ) -> tuple[list[dict], list[int]] | None:
    """For an experiment that scores its paper rows at several budgets (``curve_updates``): each variation's BLEU
    against the base of the same seed at each budget (the mean over its seeds, each seed's too), the noise
    margin there from the base seeds' spread at that budget, and each seed's paired bootstrap p-value where both
    runs' hypotheses were kept (``folder/hyps``); None without such scores or before a pair exists."""
    if not exp.evaluate.curve_updates or not any(r.paper for r in exp.runs):
        return None
    at = {r["name"]: {p["step"]: p["bleu"] for p in r.get("curve", [])} for r in done}
    kept = {(r["name"], p["step"]): p["hyps"] for r in done for p in r.get("curve", []) if "hyps" in p}
    bases = {r["seed"]: r for r in done if r["row"] == "base"}
    steps = sorted({s for r in done for s in at[r["name"]] if s in exp.evaluate.curve_updates})
    rows = []
    for group in _groups(exp, done):
        name = f"{group[0]['row']}: {_change(exp, group[0])}"
        points = []
        for step in steps:
            pairs = [at[r["name"]][step] - at[bases[r["seed"]]["name"]][step] for r in group
                     if r["seed"] in bases and step in at[r["name"]] and step in at[bases[r["seed"]]["name"]]]
            base_scores = [at[b["name"]][step] for b in bases.values() if step in at[b["name"]]]
            if not pairs:
                continue
            sd = statistics.stdev(base_scores) if len(base_scores) > 1 else None
            margin = 2 * math.sqrt(2) * sd / math.sqrt(len(pairs)) if sd is not None else None
            tests = [_bootstrap(folder, kept, r["name"], bases[r["seed"]]["name"], step) for r in group
                     if r["seed"] in bases]
            points.append({"step": step, "bleu": statistics.mean(pairs), "seeds": pairs, "margin": margin,
                           "p_values": [t["p_value"] for t in tests if t is not None]})
        if points:
            paper = _paper(exp, group[0])["bleu"] - _paper(exp, next(iter(bases.values())))["bleu"]
            rows.append({"name": name, "points": points, "paper_bleu": paper})
    return (rows, steps) if rows else None


def _bootstrap(folder: Path | None, kept: dict, name: str, base: str, step: int) -> dict | None:
    """sacreBLEU's paired bootstrap of run ``name`` against ``base`` at ``step``, from their kept hypotheses."""
    from ..metrics.bleu import paired_bootstrap
    from .runner import HYPS, REFERENCES, read_lines

    if folder is None or (name, step) not in kept or (base, step) not in kept:
        return None
    hyps = folder / HYPS
    paths = [hyps / kept[base, step], hyps / kept[name, step], hyps / REFERENCES]
    if not all(p.is_file() for p in paths):
        return None
    return paired_bootstrap(*(read_lines(p) for p in paths))


def _budget_table(rows: list[dict], steps: list[int]) -> str:
    """One line per variation: its BLEU against the same-seed base at each budget (± the noise margin there) and
    the verdict at that budget."""
    lines = ["BLEU against the base of the same seed, by training budget (the mean over the seeds; ± the margin "
             "inside which the change cannot be told from noise, from the base's seeds at that budget; and, per "
             "seed, sacreBLEU's paired bootstrap p-value of the difference on the same sentences, 1,000 samples):",
             "",
             "| variation | paper | " + " | ".join(f"{s:,} updates" for s in steps) + " |",
             "|" + " --- |" * (len(steps) + 2)]
    for row in rows:
        by = {p["step"]: p for p in row["points"]}
        cells = []
        for s in steps:
            p = by.get(s)
            if p is None:
                cells.append("–")
            elif p["margin"] is None:
                cells.append(f"{p['bleu']:+.2f} (one base seed: not judged)")
            else:
                verdict = _judge(round(row["paper_bleu"], 2), p["bleu"], p["margin"], SAME)
                seeds = f"{len(p['seeds'])} seed{'s' if len(p['seeds']) > 1 else ''}"
                tested = (f"; paired bootstrap p {', '.join(f'{v:.3f}' for v in p['p_values'])}"
                          if p.get("p_values") else "")
                cells.append(f"{p['bleu']:+.2f} (± {p['margin']:.2f}, {seeds}{tested}): {verdict}")
        lines.append(f"| {row['name']} | {row['paper_bleu']:+.2f} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def _untrained(r: dict[str, Any], mean: dict) -> bool:
    return r["valid_ppl"] > UNTRAINED * mean["valid_ppl"]
