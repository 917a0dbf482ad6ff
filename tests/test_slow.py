"""Slow checks, skipped by default (run with `make test-slow` or `pytest -m slow`)."""

import json

import pytest
from conftest import aiayn


@pytest.mark.slow
def test_quickstart_translates_the_builtin_corpus(tmp_path):
    """The README's main job: 10 minutes of the tiny preset on the Bible corpus (2 CPU cores)."""
    run = tmp_path / "quickstart"
    proc = aiayn("train", "--max-time", "10m", "--out", str(run), timeout=3600)
    out = proc.stdout.decode()
    assert "Validation (618 sentences, beam 4" in out and "Unseen verses" in out
    report = [json.loads(line) for line in (run / "log.jsonl").read_text().splitlines()][-1]
    assert report["event"] == "report"
    assert report["bleu"] >= 5.0 and report["chrf"] >= 18.0  # measured here: see README, "How long things take"
