"""sacreBLEU's paired bootstrap through ``metrics.bleu.paired_bootstrap``: the difference is the corpus scores',
a system against itself shows nothing, a clearly better one is told apart, mismatched lengths are refused."""

from __future__ import annotations

import pytest

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
