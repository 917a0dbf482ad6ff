"""runs/launch.py in process: the one training path, through the library, for a task registered here;
the trainer resumed mid-run ends exactly where an uninterrupted run ends."""

from __future__ import annotations

import pytest
from safetensors.torch import load_file

from aiayn import runs, tasks
from aiayn.errors import UsageError
from aiayn.io.rundir import RunDir
from aiayn.model.config import LanguageModelConfig
from aiayn.tasks import LanguageModelObjective, Task

BOS, EOS, PAD = 1, 2, 0


class Counting(Task):
    """Counting sequences a one-layer model learns at once (tests only)."""

    name, help = "counting", "counting sequences (tests only)"
    presets, preset_help = {"small": {}}, "small"
    train = dict(max_tokens=128, warmup=4, max_steps=6, log_every=1, valid_every=3, save_every=3,
                 label_smoothing=0.0, keep_last=10)
    data, objective = {"pieces": 12}, LanguageModelObjective

    def model_config(self, **fields):
        return LanguageModelConfig.from_dict(dict(vocab_size=16, pad_id=PAD, bos_id=BOS, eos_id=EOS, d_model=16,
                                                  n_heads=2, d_ff=32, n_layers=1, max_positions=64, **fields))

    def build(self, setup, model_config, train_config, data):
        seqs = [[3 + (n + i) % 13 for i in range(20)] for n in range(data["pieces"])]
        return LanguageModelObjective(seqs, seqs[:3], 16, train_config.max_tokens, BOS, EOS, PAD)


@pytest.fixture
def counting(monkeypatch):
    known = tasks.registry()
    monkeypatch.setattr(tasks, "registry", lambda: {**known, "counting": Counting()})


def test_a_resumed_run_ends_where_an_uninterrupted_one_does(tmp_path, counting):
    runs.train(tmp_path / "straight", task="counting", device="cpu")
    runs.train(tmp_path / "halves", task="counting", device="cpu", overrides={"train.max_steps": 3})
    run = runs.train(tmp_path / "halves", resume=True, device="cpu", overrides={"train.max_steps": 6})
    assert [e["changed"] for e in run.events("resume")] == [{"max_steps": [3, 6]}]
    for name in ("best.safetensors", "state.safetensors", "checkpoints/step-00000006.safetensors"):
        a, b = load_file(tmp_path / "straight" / name), load_file(tmp_path / "halves" / name)
        assert a.keys() == b.keys() and all((a[k] == b[k]).all() for k in a), name
    losses = [[e["loss"] for e in RunDir(tmp_path / r).events("train")] for r in ("straight", "halves")]
    assert losses[0] == losses[1] and len(losses[0]) == 6
    assert "aiayn evaluate" not in runs.report(run)  # the default report names only the task's verbs: none


def test_a_task_option_given_to_the_library_is_the_tasks_to_refuse(tmp_path, counting):
    """``train(out, train=...)``: a keyword that is no TrainRequest field is a task option, refused for a
    task that does not declare it, in the words of the command line, before anything is written."""
    with pytest.raises(UsageError) as error:
        runs.train(tmp_path / "run", task="counting", train="data.tsv", device="cpu")
    assert str(error.value) == ("--train is for translation and parsing; --task counting trains on its built-in "
                                "data: drop --train")
    with pytest.raises(UsageError, match="^--vocab-size is for translation; --task counting does not read it"):
        runs.train(tmp_path / "run", task="counting", overrides={"train.vocab_size": 100}, device="cpu")
    assert not (tmp_path / "run").exists()
