"""Every experiment shipped in src/aiayn/experiments/ loads, names each run once, and gives each run a budget."""

from __future__ import annotations

import pytest

from aiayn.experiments import spec


@pytest.mark.parametrize("name", spec.names())
def test_a_shipped_experiment_loads(name):
    experiment = spec.load(name)
    runs = [r.name for r in experiment.runs]
    assert runs and len(runs) == len(set(runs)), runs
    assert all(r.updates or r.time for r in experiment.runs)


def test_the_tuning_grid_gives_each_model_the_same_settings():
    runs = spec.load("recurrent_tuning").runs
    by_arch: dict[str, list] = {}
    for r in runs:
        by_arch.setdefault(r.arch, []).append((r.set["train.lr_scale"], r.set["train.clip_norm"], r.time))
    assert set(by_arch) == {"transformer", "rnnsearch", "rnnencdec"}
    grids = list(by_arch.values())
    assert all(g == grids[0] for g in grids) and len(grids[0]) == 6


def test_the_fair_comparison_trains_two_seeds_of_every_tuned_model():
    tuning, fair = spec.load("recurrent_tuning"), spec.load("recurrent_fair")
    assert {(r.row, r.arch) for r in fair.runs} == {(r.row, r.arch) for r in tuning.runs}
    assert all(r.tuned == "recurrent_tuning" for r in fair.runs)
    assert sorted((r.row, r.seed) for r in fair.runs) == sorted((row, s) for row in {r.row for r in tuning.runs}
                                                                for s in (1, 2))
    assert fair.evaluate.bins == (1, 10, 20, 30, 40, 50, 60, 200) and fair.evaluate.split == "test"
