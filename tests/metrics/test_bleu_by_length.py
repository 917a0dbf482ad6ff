"""``metrics.bleu.by_length``, the one score by source length (Bahdanau et al.'s Figure 2) that the experiments
and the RNNsearch benchmark share, against figures worked out by hand."""

from __future__ import annotations

import pytest

from aiayn.metrics.bleu import by_length


def test_bins_count_sentences_and_exact_matches_by_hand():
    sources = ["a b", "a b c d", "a", "a b c d e f", "a b c d e f g h i j"]  # the last lies past the edges
    refs, hyps = ["x", "y", "z", "w", "v"], ["x", "n", "z", "w", "v"]
    bins = by_length(sources, refs, hyps, (1, 3, 5, 10))
    assert [(b["lo"], b["hi"], b["n"], b["accuracy"]) for b in bins] == [(1, 3, 2, 1.0), (3, 5, 1, 0.0), (5, 10, 1, 1.0)]
    assert [b["mean_length"] for b in bins] == [1.5, 4, 6]


def test_bleu_of_a_bin_by_hand():
    """"the cat sat on the mat" against "the cat sat on a mat": clipped n-gram precisions 5/6, 3/5, 2/4 and 1/3,
    the same length (no brevity penalty), so BLEU = 100 (5/6 · 3/5 · 1/2 · 1/3)^(1/4) = 53.73; an empty bin is
    left out, and a perfect bin scores 100."""
    sources = ["one two", "one two three four five"]
    refs = ["the cat sat on a mat", "a dog ran past the house"]
    hyps = ["the cat sat on the mat", "a dog ran past the house"]
    bins = by_length(sources, refs, hyps, (1, 3, 5, 6))
    assert [b["lo"] for b in bins] == [1, 5]
    assert bins[0]["bleu"] == pytest.approx(100 * (5 / 6 * 3 / 5 * 1 / 2 * 1 / 3) ** 0.25)
    assert round(bins[0]["bleu"], 2) == 53.73 and bins[1]["bleu"] == pytest.approx(100)


def test_a_bins_bootstrap_interval_against_a_naive_resampling():
    """The interval sacreBLEU's bootstrap gives a bin (half the width of its central 95%) against resampling the
    bin's sentences by hand with another generator and rescoring each sample: the same within the resampling
    noise; a bin translated perfectly has no spread at all."""
    import numpy as np
    import sacrebleu

    rng = np.random.default_rng(0)
    words = "the a cat dog sat ran on over mat house red big".split()
    refs = [" ".join(rng.choice(words, 8)) for _ in range(40)]
    hyps = [" ".join(w if rng.random() < 0.6 else rng.choice(words) for w in ref.split()) for ref in refs]
    sources = ["x " * 5] * 40
    (scored,) = by_length(sources, refs, hyps, (1, 10), bootstrap=1000)
    samples = []
    for _ in range(1000):
        pick = rng.integers(0, 40, 40)
        samples.append(sacrebleu.corpus_bleu([hyps[i] for i in pick], [[refs[i] for i in pick]]).score)
    lo, hi = np.percentile(samples, [2.5, 97.5])
    assert scored["bleu_ci95"] == pytest.approx((hi - lo) / 2, rel=0.15) and scored["bleu_ci95"] > 1
    (perfect,) = by_length(sources, refs, refs, (1, 10), bootstrap=200)
    assert perfect["bleu"] == pytest.approx(100) and perfect["bleu_ci95"] == pytest.approx(0)
    assert "bleu_ci95" not in by_length(sources, refs, hyps, (1, 10))[0]
