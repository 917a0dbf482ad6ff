"""The chorale objective (issue 29): its unlikelihood term on parallel 5ths and 8ves adds exactly α times
the term on the pitches the rule names, and training with it lowers the probability the model puts on
them at little cost in NLL; its teacher-forced count of Bach's parallels is the grade's count."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from conftest import walk_chorale  # pieces full of parallels, with rests

from aiayn import LanguageModel
from aiayn.data import music
from aiayn.metrics import chorales as C
from aiayn.tasks.music import ChoraleObjective, music_model_config
from aiayn.training.loss import unlikelihood


def _objective(alpha: float) -> ChoraleObjective:
    pieces = [walk_chorale(120, seed) for seed in range(6)]
    return ChoraleObjective(pieces[:4], pieces[4:], 256, 1024, music.BOS, music.EOS, music.PAD, unlikelihood=alpha)


def _model(seed: int = 0) -> LanguageModel:
    torch.manual_seed(seed)
    cfg = music_model_config("relative", d_model=32, n_heads=2, d_ff=64, n_layers=1, dropout=0.0,
                             voice_embedding=4, metre_embedding=16)
    return LanguageModel(cfg)


def test_the_loss_adds_alpha_times_the_unlikelihood_of_the_forbidden_pitches():
    model, plain, ruled = _model(), _objective(0.0), _objective(2.0)
    batch = plain.batch(plain.train_batches[0])
    assert batch.starts is not None and batch.starts.gt(0).any()  # windows cut from inside pieces too
    a, b = plain.loss(model, batch, 0.0), ruled.loss(model, batch, 0.0)
    with torch.no_grad():
        term = unlikelihood(batch.logits(model), C.forbidden_parallels(batch.inputs, batch.starts), batch.targets)
    assert term > 0 and torch.equal(a.nll, b.nll)
    assert b.loss.item() == pytest.approx(a.loss.item() + 2.0 * term.item(), rel=1e-5)


def _train(alpha: float, steps: int = 120) -> tuple[LanguageModel, ChoraleObjective]:
    model, objective = _model(), _objective(alpha)
    optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
    model.train()
    for step in range(steps):
        batch = objective.batch(objective.train_batches[step % len(objective.train_batches)])
        optimizer.zero_grad()
        (objective.loss(model, batch, 0.0).loss / batch.n_tokens).backward()
        optimizer.step()
    return model, objective


@torch.no_grad()
def _forbidden_mass(model: LanguageModel, objective: ChoraleObjective) -> float:
    """The probability the model puts on pitches that make a parallel, other than the data's own, per token."""
    mass = tokens = 0.0
    model.eval()
    for indices in objective.train_batches:
        batch = objective.batch(indices)
        p = batch.logits(model).softmax(-1)
        forbidden = C.forbidden_parallels(batch.inputs, batch.starts).scatter(-1, batch.targets[..., None], False)
        mass += float((p * forbidden)[batch.targets != music.PAD].sum())
        tokens += batch.n_tokens
    return mass / tokens


def test_unlikelihood_training_lowers_the_mass_on_parallels():
    """From the same start, on the same batches: what the term penalises falls, the NLL stays close."""
    (plain, objective), (ruled, _) = (_train(alpha) for alpha in (0.0, 4.0))
    assert _forbidden_mass(ruled, objective) < 0.7 * _forbidden_mass(plain, objective)  # 0.022 against 0.039
    nll = [objective.validate(m, "cpu")["valid_nll"] for m in (plain, ruled)]
    assert nll[1] < 1.1 * nll[0]


def test_bachs_teacher_forced_parallels_are_the_grades_count():
    scorer = _objective(0.0)
    figures = scorer.parallels(_model(), "cpu")
    for kind in C.PERFECT:
        steps = 0  # (step, lower voice) with a parallel against any voice above, as the rule counts
        for seq in scorer.valid:
            p = C.pitches(seq[1:-1])
            steps += sum(int(np.logical_or.reduce([C.pair_motion(p, a, low)[kind] for a in range(low)]).sum())
                         for low in range(1, 4))
        quarters = sum(len(s) - 2 for s in scorer.valid) / 16
        assert figures[f"parallel_{kind}_bach"] == pytest.approx(100 * steps / quarters) and steps > 5
        assert 0 < figures[f"parallel_{kind}_expected"]
