"""The validation plot's lines stay apart when an experiment has more runs than matplotlib has colours."""

from aiayn.plots.experiments import _styles


def test_past_ten_runs_each_line_looks_different_and_a_row_keeps_its_colour():
    records = [{"name": f"{row}-{i}", "row": row} for row in ("Transformer", "RNNsearch", "RNNencdec") for i in range(6)]
    styles = _styles(records)
    looks = {(s["color"], str(s["linestyle"]), s["marker"]) for s in styles}
    assert len(looks) == len(records)
    for row in ("Transformer", "RNNsearch", "RNNencdec"):
        assert len({s["color"] for r, s in zip(records, styles) if r["row"] == row}) == 1


def test_up_to_ten_runs_keep_the_colour_cycle():
    assert _styles([{"name": str(i)} for i in range(10)]) == [{"marker": "."}] * 10
