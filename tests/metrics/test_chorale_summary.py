"""One chorale summary: ``checks.bach_stats`` prints the library's (``metrics.chorales``: ``grade_pieces``,
``summarise``). The figures below are what bach_stats' own code (statistics_of, summarise, markdown; removed after
commit 933ee9d) gave for the first sample of each model saved in benchmarks/results/bach_stats.json, so the
tables quoted from it in docs/music.md come out the same."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from aiayn.metrics.chorales import grade_pieces, summarise
from checks.bach_stats import COLUMNS, markdown

SAVED = Path(__file__).resolve().parents[2] / "benchmarks" / "results" / "bach_stats.json"
OLD_ROWS = [  # per piece, in COLUMNS' order
    (256, 67.578125, 32.8125, 33.59375, 3.125, 32.8125, 6.0, 62.5, 0.0),
    (147, 1.3605442176870748, 1.3605442176870748, 0.3401360544217687, 0.0, 5.442176870748299, 7.0, 60.0, 0.0),
    (256, 0.78125, 0.78125, 0.8426966292134831, 1.5625, 7.8125, 4.25, 0.0, 65.234375),
]
OLD_ROW = ("| three | 3 | 1 of 3 | 219.7 (256.0; 147.0–256.0) | 23.2 (1.4; 0.8–67.6) | 11.7 (1.4; 0.8–32.8) | "
           "11.6 (0.8; 0.3–33.6) | 1.6 (1.6; 0.0–3.1) | 15.4 (7.8; 5.4–32.8) | 5.8 (6.0; 4.2–7.0) | "
           "40.8 (60.0; 0.0–62.5) | 21.7 (0.0; 0.0–65.2) |")


def test_bach_stats_summary_is_the_librarys_and_unchanged():
    pieces = [samples[0] for samples in json.loads(SAVED.read_text())["samples"].values()]
    rows = grade_pieces(pieces)
    assert [tuple(r[c] for c in COLUMNS) for r in rows] == [pytest.approx(old, abs=1e-12) for old in OLD_ROWS]
    summary = summarise(rows, ended=1)
    for i, column in enumerate(COLUMNS):
        values = [old[i] for old in OLD_ROWS]
        assert summary[column]["mean"] == pytest.approx(sum(values) / 3, abs=1e-12)
        assert (summary[column]["min"], summary[column]["max"]) == (min(values), max(values))
    assert markdown({"three": summary}).splitlines()[-1] == OLD_ROW
