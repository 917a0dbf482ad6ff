"""Bad input through the real command: one clear line on stderr, exit 1, no traceback, nothing lost."""

from __future__ import annotations

import gzip
import shutil
from pathlib import Path

import pytest

from conftest import aiayn, snapshot, train_args, write_tsv


def fails(*args: str, input: bytes | None = None) -> str:
    """Runs aiayn expecting failure; returns the single error line."""
    proc = aiayn(*args, input=input, check=False)
    err = proc.stderr.decode()
    assert proc.returncode == 1, err
    assert "Traceback" not in err
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), err
    return lines[0]


@pytest.fixture
def micro(data) -> Path:
    return data / "micro.yaml"


def train_on(path: Path, out: Path, micro: Path, *extra: str) -> str:
    return fails("train", "--train", str(path), "--config", str(micro), "--out", str(out), "--max-steps", "1", *extra)


def test_parallel_files_of_different_lengths(tmp_path, micro):
    (tmp_path / "train.en").write_text("a\nb\nc\nd\ne\n")
    (tmp_path / "train.es").write_text("a\nb\nc\n")
    msg = train_on(tmp_path / "train", tmp_path / "run", micro, "--src", "en", "--tgt", "es")
    assert "train.en has 5 lines but" in msg and "train.es has no line 4" in msg
    assert not (tmp_path / "run").exists()


def test_tsv_row_with_the_wrong_number_of_fields(tmp_path, micro):
    path = tmp_path / "bad.tsv"
    path.write_text("ref\ten\tes\nA.1\thello\thola\nA.2\tonly two\n")
    assert "line 3 has 2 fields, the header has 3" in train_on(path, tmp_path / "run", micro)


def test_empty_corpus(tmp_path, micro):
    path = write_tsv(tmp_path / "empty.tsv.gz", [])
    assert "has no sentence pairs" in train_on(path, tmp_path / "run", micro)


def test_bad_utf8_names_the_line_and_byte(tmp_path, micro):
    path = tmp_path / "bad.tsv"
    path.write_bytes(b"ref\ten\tes\nA.1\thello\thola\nA.2\tab\xffc\tx\n")
    msg = train_on(path, tmp_path / "run", micro)
    assert "line 3, byte 7: not valid UTF-8 (0xff)" in msg


def test_missing_file(tmp_path, micro):
    assert "no such file" in train_on(tmp_path / "nowhere.tsv", tmp_path / "run", micro)


def test_unknown_config_keys(tmp_path, data):
    bad = tmp_path / "bad.yaml"
    bad.write_text("model: {d_modle: 64}\n")
    msg = fails("train", "--train", str(data / "train.tsv.gz"), "--config", str(bad), "--out", str(tmp_path / "r"))
    assert "unknown model config key(s): d_modle" in msg
    bad.write_text("modle: {}\n")
    msg = fails("train", "--train", str(data / "train.tsv.gz"), "--config", str(bad), "--out", str(tmp_path / "r"))
    assert "unknown key(s)" in msg and "modle" in msg
    msg = fails("train", "--train", str(data / "train.tsv.gz"), "--set", "train.warmpu=3", "--out", str(tmp_path / "r"))
    assert "unknown train config key(s): warmpu" in msg


def test_an_existing_run_is_never_overwritten(trained, data):
    before = snapshot(trained)
    msg = fails(*train_args(data, trained, "--max-steps", "2"))
    assert "already holds a run" in msg and "--resume" in msg
    assert snapshot(trained) == before


def test_resume_with_a_different_model_config(trained, data):
    before = snapshot(trained)
    msg = fails(*train_args(data, trained, "--max-steps", "20", "--resume", "--set", "model.d_model=64"))
    assert "different model config" in msg
    assert snapshot(trained) == before


def test_corrupt_checkpoint(trained, tmp_path, data):
    run = tmp_path / "run"
    shutil.copytree(trained, run)
    best = run / "best.safetensors"
    best.write_bytes(best.read_bytes()[: best.stat().st_size // 2])
    msg = fails("translate", "--model", str(run), input=b"hello\n")
    assert "not a readable checkpoint" in msg and "truncated or corrupt" in msg
    (run / "state.safetensors").write_bytes(b"garbage")
    before = snapshot(run)
    assert "not a readable checkpoint" in fails(*train_args(data, run, "--resume"))
    assert snapshot(run) == before


def test_checkpoint_with_a_different_vocabulary(trained, tmp_path, data):
    other = tmp_path / "other"
    aiayn(*train_args(data, other, "--max-steps", "1", "--set", "train.vocab_size=280", "--set", "train.seed=5"))
    mixed = tmp_path / "mixed"
    mixed.mkdir()
    shutil.copy(trained / "best.safetensors", mixed / "best.safetensors")
    shutil.copy(other / "spm.model", mixed / "spm.model")
    assert "different vocabulary" in fails("translate", "--model", str(mixed), input=b"hello\n")


def test_missing_model_and_bad_utf8_on_stdin(trained, tmp_path):
    assert "no model at" in fails("translate", "--model", str(tmp_path / "nothing"), input=b"hi\n")
    assert "stdin: line 2, byte 1: not valid UTF-8" in fails("translate", "--model", str(trained),
                                                             input=b"fine\n\xfe\n")
