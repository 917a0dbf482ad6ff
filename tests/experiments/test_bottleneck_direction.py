"""Bahdanau et al.'s Figure 2 on a CI budget: the fixed vector of RNNencdec fails on long strings, attention does not."""

from __future__ import annotations

import json

from conftest import aiayn


def test_the_fixed_vector_fails_with_length_and_attention_does_not(tmp_path):
    """Test BLEU on 2-7 and 14-20 letters: RNNencdec loses more than half of it with length, RNNsearch keeps most.
    The built-in experiment bottleneck_ci, seed 1 (its comments say why 3,000 updates and this learning rate)."""
    aiayn("experiment", "bottleneck_ci", "--only", "encdec", "search", "--runs", str(tmp_path / "runs"), "--results",
          str(tmp_path / "results"), timeout=900, OMP_NUM_THREADS="1", MKL_NUM_THREADS="1")
    results = json.loads((tmp_path / "results" / "bottleneck_ci" / "results.json").read_text())
    (encdec_short, *_, encdec_long), (search_short, *_, search_long) = (
        [b["bleu"] for b in results[name]["by_length"]] for name in ("encdec", "search"))
    seen = f"RNNencdec {encdec_short:.1f} -> {encdec_long:.1f}, RNNsearch {search_short:.1f} -> {search_long:.1f}"
    assert encdec_short > 60, f"RNNencdec did not learn to copy short strings: {seen}"
    assert encdec_long < encdec_short / 2, f"the fixed vector did not fail with length: {seen}"
    assert search_long > 0.7 * search_short and search_long > encdec_long + 30, f"attention did not help: {seen}"
