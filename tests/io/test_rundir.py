"""io/rundir.py in process: the run folder's layout, its log written and read back, its lock."""

from __future__ import annotations

import json

import pytest

from aiayn.io.checkpoint import CheckpointError
from aiayn.io.rundir import JsonLog, RunDir, RunInUse, hypotheses, model_file_of


def test_the_log_is_read_back_by_kind_and_survives_a_cut_line(tmp_path):
    run = RunDir(tmp_path)
    log = JsonLog(run.log)
    log.write("train", step=1, loss=float("nan"))  # JSON has no NaN: null
    log.write("valid", step=1, valid_loss=2.5)
    with open(run.log, "a", encoding="utf-8") as f:
        f.write('{"event": "train", "step": 2, "lo')  # a kill mid-line
    JsonLog(run.log, enabled=False).write("train", step=3)  # another rank: writes nothing
    assert [(e["event"], e["step"]) for e in run.events()] == [("train", 1), ("valid", 1)]
    assert run.events("train")[0]["loss"] is None and run.events("valid")[0]["valid_loss"] == 2.5
    assert RunDir(tmp_path / "none").events("train") == []


def test_the_model_of_a_run_is_its_best_else_its_newest_checkpoint(tmp_path):
    run = RunDir(tmp_path)
    with pytest.raises(CheckpointError, match=f"^{tmp_path} holds no model: train one with"):
        run.model_file()
    with pytest.raises(CheckpointError, match=f"^{tmp_path} holds no checkpoint: train one with"):
        run.last_checkpoint()
    run.checkpoints.mkdir()
    for step in (20, 3, 100):
        run.checkpoint(step).write_bytes(b"")
    (run.checkpoints / "step-7.safetensors.tmp").write_bytes(b"")  # a writer's leftover is no checkpoint
    assert [p.name for p in run.list_checkpoints()] == [f"step-{s:08d}.safetensors" for s in (3, 20, 100)]
    assert run.model_file() == run.checkpoint(100) and model_file_of(tmp_path) == run.checkpoint(100)
    run.best.write_bytes(b"")
    assert run.model_file() == run.best and model_file_of(run.best) == run.best
    assert run.last_checkpoint() == run.checkpoint(100)  # the best does not count
    with pytest.raises(CheckpointError, match="^no model at"):
        model_file_of(tmp_path / "missing")


def test_hypotheses_lie_beside_the_model_they_came_from(tmp_path):
    run = RunDir(tmp_path)
    run.checkpoints.mkdir()
    assert hypotheses(tmp_path, "test", "beam4", "es") == tmp_path / "hyp.test.beam4.es"
    assert hypotheses(run.checkpoint(5), "valid", "beam1.int8", "de") == \
        run.checkpoints / "hyp.step-00000005.valid.beam1.int8.de"


def test_a_run_exists_once_its_state_does(tmp_path):
    run = RunDir(tmp_path)
    run.write_config({"task": "translation"})
    JsonLog(run.log).write("train", step=1)
    assert run.read_config() == {"task": "translation"} and json.loads(run.config.read_text())["task"] == "translation"
    assert run.holds_unsaved_start() and not run.holds_run()
    run.clear_unsaved_start()
    assert not run.config.exists() and not run.log.exists() and not run.holds_unsaved_start()
    run.state.write_bytes(b"")
    assert run.holds_run() and not run.holds_unsaved_start()


def test_one_process_owns_a_run(tmp_path):
    """The lock is flock's, per open file: a second owner, even in this process, is refused in one line."""
    run = RunDir(tmp_path / "run")
    assert not run.in_use()
    with run.owned():
        assert run.in_use() and run.lock.read_text().strip().isdigit()
        with pytest.raises(RunInUse, match=f"^{run.path} is in use by another training \\(process \\d+\\)"):
            with run.owned():
                pass
    assert not run.in_use()
