"""runs/plan.py in process: a run's recorded settings read back through its task (issue 43: options and
tasks rebuilt, old runs' config.json files still load and resume)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from aiayn import tasks
from aiayn.errors import UsageError
from aiayn.io.rundir import RunDir
from aiayn.runs import plan as P

# config.json of a tiny translation run trained before tasks declared their options (issue 43), as written
OLD_CONFIG = Path(__file__).parent / "fixtures" / "translation-config.json"


@pytest.fixture
def old_run(tmp_path) -> RunDir:
    shutil.copy(OLD_CONFIG, tmp_path / "config.json")
    return RunDir(tmp_path)


def test_an_old_config_resumes_to_the_same_settings(old_run):
    """Model and train settings come back as recorded (translation's vocab_size and valid_bleu_sentences in
    its own settings), and --resume may still change only limits and intervals."""
    saved = P.saved_config(old_run)
    task = tasks.get(P.resumed_task(old_run, None))
    model, train, changed = P.resumed_config(old_run, saved, task, None, None, {"train.max_steps": 30000})
    assert model.to_dict() == saved["model"]
    written = json.loads(json.dumps(train.to_dict()))  # as config.json holds it (a tuple is a list there)
    assert written == {**saved["train"], "max_steps": 30000} and changed == {"max_steps": [20000, 30000]}
    assert train.task_settings.vocab_size == 8000 and train.task_settings.valid_bleu_sentences == 200
    with pytest.raises(UsageError, match="^cannot change train.vocab_size when resuming"):
        P.resumed_config(old_run, saved, task, None, None, {"train.vocab_size": 100})


def test_an_old_configs_data_meets_the_options_given_on_resume(old_run):
    """The recorded data settings are what the task's train options (TranslationTrain) are checked against:
    the same --train passes, another is refused in one line; data settings added since keep their defaults."""
    saved = P.saved_config(old_run)
    task = tasks.get(saved["task"])
    given = P.data_options(task, {"train": saved["data"]["train"], "src": "en", "valid": None}, None, resume=True)
    data = {**task.data, **saved["data"]}
    P.check_same_data(data, given, {})
    with pytest.raises(UsageError, match="^--tgt de differs from the run's es; --resume continues"):
        P.check_same_data(data, P.data_options(task, {"tgt": "de"}, None, resume=True), {})
    assert set(task.reads_for("train")) >= set(saved["data"]) - {"train_fingerprint"}


def test_an_old_config_names_the_commands_its_model_takes(old_run):
    """The end-of-run report's task and options: an old run is a translation run whose --test, --src, --tgt
    and --compile are read by evaluate, as its options declare."""
    config = json.loads(OLD_CONFIG.read_text())
    task = tasks.get(config["task"])
    assert task.supports("translate") and task.reads_for("evaluate") == ("test", "src", "tgt", "compile")
    assert task.config(config["preset"], config["model"], config["arch"]).to_dict() == config["model"]
