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
