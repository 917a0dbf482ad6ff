"""A distilled run in an experiment (``teacher:``): it waits for its teacher, learns the teacher's beam outputs on
the training sources through ``aiayn distill``, and its record says how large the corpus was and how long the
teacher took to translate it; the spec refuses a teacher it cannot train first."""

from __future__ import annotations

import json

import pytest
from conftest import aiayn

from aiayn.errors import UsageError
from aiayn.experiments import load
from aiayn.io.rundir import RunDir

SPEC = """\
experiment: kd
title: distillation
data: {task: copy, symbols: 6, min_len: 2, max_len: 8, train_pairs: 60, valid_pairs: 10, test_pairs: 10}
defaults: {preset: tiny, seed: 1, budget: {updates: 3},
           set: {train.vocab_size: 17, train.valid_bleu_sentences: 0, train.save_every: 3, train.max_tokens: 300,
                 train.log_every: 1, train.valid_every: 3, model.d_model: 16, model.n_heads: 2, model.d_ff: 32}}
evaluate: {split: test, beam: 1}
runs:
  - {name: teacher, label: teacher}
  - {name: student, preset: student, teacher: teacher, label: student}
"""


def test_a_student_learns_its_teachers_outputs(tmp_path):
    (tmp_path / "kd.yaml").write_text(SPEC)
    args = ("experiment", str(tmp_path / "kd.yaml"), "--runs", str(tmp_path / "runs"), "--results", str(tmp_path / "r"))
    listing = aiayn(*args, "--list").stdout.decode()
    assert "waits for its teacher teacher" in listing
    out = aiayn(*args, OMP_NUM_THREADS="1").stdout.decode()
    records = json.loads((tmp_path / "r" / "kd" / "results.json").read_text())
    student = RunDir(tmp_path / "runs" / "kd" / "student")
    corpus = student.read_config()["data"]["train"]  # under the teacher: TEACHER/distilled/KEY/train
    assert corpus.startswith(str(tmp_path / "runs" / "kd" / "teacher" / "distilled"))
    assert student.read_config()["model"]["n_decoder_layers"] == 1  # the student preset's shape
    about = json.loads((tmp_path / "runs" / "kd" / "teacher" / "distilled" / corpus.split("/")[-2] /
                        "distill.json").read_text())
    assert records["student"]["corpus_sentences"] == about["lines"] == 60
    assert records["student"]["corpus_seconds"] == pytest.approx(sum(about["chunk_seconds"].values()), abs=0.1)
    assert records["student"]["corpus_seconds"] > 0 and "corpus_sentences" not in records["teacher"]
    assert records["student"]["updates"] == 3 and "| 60 |" in out and "distilled sentences" in out


def test_a_corpus_another_command_is_writing_is_skipped(tmp_path):
    """Two commands side by side: while one translates the teacher's sources (the corpus folder's lock held),
    the other skips the student and goes on, as it skips a run another command trains."""
    import fcntl
    import os

    from aiayn.decoding.options import DecodeOptions
    from aiayn.runs.distill import check_teacher, corpus_prefix

    (tmp_path / "kd.yaml").write_text(SPEC)
    args = ("experiment", str(tmp_path / "kd.yaml"), "--runs", str(tmp_path / "runs"), "--results", str(tmp_path / "r"))
    aiayn(*args, "--only", "teacher", OMP_NUM_THREADS="1")
    prefix, _ = corpus_prefix(check_teacher(tmp_path / "runs" / "kd" / "teacher"), DecodeOptions(), "aiayn", "float32")
    prefix.parent.mkdir(parents=True)
    fd = os.open(prefix.parent / ".lock", os.O_RDWR | os.O_CREAT)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)  # as the other command's data step holds it
        out = aiayn(*args, OMP_NUM_THREADS="1")
    finally:
        os.close(fd)
    assert "student: skipped, another command is training it" in out.stderr.decode()
    assert set(json.loads((tmp_path / "r" / "kd" / "results.json").read_text())) == {"teacher"}


def test_a_teacher_trained_again_retrains_its_student(tmp_path):
    path = tmp_path / "kd.yaml"
    path.write_text(SPEC)
    before = load(path).run("student")
    path.write_text(SPEC.replace("- {name: teacher, label: teacher}", "- {name: teacher, label: t, seed: 2}"))
    assert load(path).run("student").key != before.key
    assert load(path).run("student").teacher_key == load(path).run("teacher").key


@pytest.mark.parametrize("runs, words", [
    ("  - {name: student, teacher: teacher}\n  - {name: teacher}\n", ":9: run 'student': its teacher 'teacher' is "
     "not a run listed before it"),
    ("  - {name: teacher}\n  - {name: student, teacher: teacher, init: runs/x}\n", ":10: run 'student': teacher names"),
    ("  - {name: teacher}\n  - {name: student, teacher: teacher, arch: rnnsearch}\n", ":10: run 'student': teacher names"),
])
def test_a_teacher_that_cannot_be_trained_first_is_refused(tmp_path, runs, words):
    path = tmp_path / "kd.yaml"
    path.write_text(SPEC.split("runs:\n")[0] + "runs:\n" + runs)
    with pytest.raises(UsageError) as e:
        load(path)
    assert words in str(e.value) and str(path) in str(e.value)
