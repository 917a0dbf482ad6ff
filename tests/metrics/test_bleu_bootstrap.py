"""sacreBLEU's paired bootstrap through ``metrics.bleu.paired_bootstrap``: the difference is the corpus scores',
a system against itself shows nothing, a clearly better one is told apart, mismatched lengths are refused; the
interval of the difference is the one an explicit resampling of the sentences gives."""

from __future__ import annotations

import numpy as np
import pytest
import sacrebleu

from aiayn.metrics.bleu import corpus_scores, paired_bootstrap

REFS = [f"the cat number {i} sat on the mat today" for i in range(50)]
WORSE = [f"a cat number {i} sat on a mat" for i in range(50)]


def test_the_difference_is_the_corpus_scores_difference():
    got = paired_bootstrap(WORSE, REFS, REFS)
    assert got["delta"] == pytest.approx(corpus_scores(REFS, REFS).bleu - corpus_scores(WORSE, REFS).bleu)
    assert got["p_value"] < 0.01


def test_a_system_against_itself_shows_no_difference():
    got = paired_bootstrap(WORSE, WORSE, REFS)
    assert got["delta"] == 0 and got["p_value"] > 0.5


def test_mismatched_lengths_are_refused():
    with pytest.raises(ValueError, match="one hypothesis per reference"):
        paired_bootstrap(WORSE[:-1], REFS, REFS)


def test_the_interval_is_an_explicit_paired_resampling():
    """sacreBLEU's resamples (seed 12345, all indices drawn at once) re-scored sentence list by sentence list with
    corpus BLEU: the same 95% bounds as the interval computed from its sufficient statistics."""
    mixed = [" ".join(REFS[i].split()[: 9 - i % 5]) for i in range(50)]  # 0 to 4 words short, better on most
    samples = 80
    got = paired_bootstrap(WORSE, mixed, REFS, samples=samples)
    idxs = np.random.default_rng(12345).choice(50, size=(samples, 50), replace=True)
    bleu = sacrebleu.metrics.BLEU()
    diffs = sorted(bleu.corpus_score([mixed[i] for i in row], [[REFS[i] for i in row]]).score
                   - bleu.corpus_score([WORSE[i] for i in row], [[REFS[i] for i in row]]).score for row in idxs)
    assert got["low"] == pytest.approx(diffs[samples // 40], abs=1e-3)
    assert got["high"] == pytest.approx(diffs[samples - samples // 40 - 1], abs=1e-3)
    assert 0 < got["low"] < got["delta"] < got["high"]


def test_a_system_against_itself_has_an_empty_interval():
    got = paired_bootstrap(WORSE, WORSE, REFS)
    assert got["low"] == got["high"] == 0
