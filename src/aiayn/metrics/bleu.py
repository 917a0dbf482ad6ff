"""Corpus BLEU and chrF through sacreBLEU (paper §6.1 reports BLEU).

sacreBLEU scores detokenized text with its own standard tokenizer and prints a signature that
pins every option, so numbers are comparable across papers. The paper's 27.3 / 28.4 are
*tokenized* BLEU (multi-bleu.perl on tokenized, compound-split text) and run higher than
sacreBLEU on the same output; the two must not be compared directly.
"""

from __future__ import annotations

from dataclasses import dataclass

import sacrebleu


@dataclass
class Scores:
    bleu: float
    chrf: float
    bleu_signature: str
    chrf_signature: str

    def __str__(self) -> str:
        return f"BLEU {self.bleu:.2f}  ({self.bleu_signature})\nchrF {self.chrf:.2f}  ({self.chrf_signature})"


def corpus_scores(hypotheses: list[str], references: list[str]) -> Scores:
    """sacreBLEU corpus BLEU (13a tokenizer, exp smoothing) and chrF2 against one reference each."""
    if len(hypotheses) != len(references):
        raise ValueError(f"{len(hypotheses)} hypotheses but {len(references)} references")
    bleu, chrf = sacrebleu.metrics.BLEU(), sacrebleu.metrics.CHRF()
    b, c = bleu.corpus_score(hypotheses, [references]), chrf.corpus_score(hypotheses, [references])
    return Scores(b.score, c.score, str(bleu.get_signature()), str(chrf.get_signature()))


def by_length(sources: list[str], references: list[str], hypotheses: list[str], edges: tuple[int, ...],
              bootstrap: int = 0) -> list[dict]:
    """Scores per bin of source length in words (Bahdanau et al.'s Figure 2): [lo, hi) for consecutive ``edges``;
    each bin's sentence count ``n``, ``mean_length``, corpus ``bleu`` and exact-match ``accuracy``; with
    ``bootstrap`` resamples, ``bleu_ci95`` too: half the width of the bin's 95% bootstrap interval (sacreBLEU's, its
    fixed seed), for telling bins of a few dozen sentences apart. Empty bins and sources outside the edges are left
    out."""
    out = []
    for lo, hi in zip(edges, edges[1:]):
        picked = [i for i, s in enumerate(sources) if lo <= len(s.split()) < hi]
        if not picked:
            continue
        h, r = [hypotheses[i] for i in picked], [references[i] for i in picked]
        mean = sum(len(sources[i].split()) for i in picked) / len(picked)
        out.append({"lo": lo, "hi": hi, "n": len(picked), "mean_length": mean, "bleu": corpus_scores(h, r).bleu,
                    "accuracy": sum(a == b for a, b in zip(h, r)) / len(picked)})
        if bootstrap > 1:
            out[-1]["bleu_ci95"] = sacrebleu.metrics.BLEU().corpus_score(h, [r], n_bootstrap=bootstrap)._ci
    return out


def paired_bootstrap(baseline: list[str], system: list[str], references: list[str], samples: int = 1000) -> dict:
    """sacreBLEU's paired bootstrap resampling (Koehn, 2004) of ``system`` against ``baseline`` on the same
    references: {"delta": BLEU(system) - BLEU(baseline), "p_value": how often resampled test sets show no
    improvement of the size seen, "low"/"high": the 95% interval of the difference over the same resamples};
    sacreBLEU's fixed seed (12345), so the same files give the same figures."""
    from sacrebleu.significance import PairedTest

    if not len(baseline) == len(system) == len(references):
        raise ValueError(f"{len(baseline)}, {len(system)} and {len(references)} lines: a paired test needs one "
                         "hypothesis per reference from each system")
    test = PairedTest([("baseline", baseline), ("system", system)], {"BLEU": sacrebleu.metrics.BLEU()}, [references],
                      test_type="bs", n_samples=samples)
    base, other = test()[1]["BLEU"]
    delta = other.score - base.score
    low, high = _difference_interval(baseline, system, references, samples)
    # sacreBLEU counts resampled differences strictly beyond the observed one: with no difference at all it
    # would report its smallest p; no difference is no evidence of one
    return {"delta": delta, "p_value": 1.0 if delta == 0 else float(other.p_value), "low": low, "high": high}


def _difference_interval(baseline: list[str], system: list[str], references: list[str], samples: int) -> tuple[float, float]:
    """The 95% interval of BLEU(system) - BLEU(baseline) over sacreBLEU's resampled test sets: its own resampling
    (each call re-seeds, so both systems get the same sentences: paired) and its rule for the bounds (the
    samples // 40-th from each end, as its ``estimate_ci``). sacreBLEU reports intervals per system only."""
    import numpy as np
    from sacrebleu.significance import _bootstrap_resample

    metric = sacrebleu.metrics.BLEU()
    scores = [np.array([s.score for s in _bootstrap_resample(metric._extract_corpus_statistics(h, [references]),
                                                             metric, samples)[1]]) for h in (baseline, system)]
    diffs, cut = np.sort(scores[1] - scores[0]), samples // 40
    return float(diffs[cut]), float(diffs[samples - cut - 1])
