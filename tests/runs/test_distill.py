"""`aiayn distill` (issue 31): the teacher's beam outputs as a cached, chunked corpus, and a student trained
on it by the ordinary trainer; the student preset; the refusals (a teacher of another task, a missing
vocabulary, a full disk) and a step interrupted between chunks that loses nothing."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from conftest import Disk, aiayn, assert_no_partial_files, corpus_slice, write_tsv

from aiayn.decoding.options import DecodeOptions
from aiayn.inference.translator import Translator
from aiayn.io.checkpoint import atomic_save, read_checkpoint, read_header
from aiayn.model.config import RNNSearchConfig, TransformerConfig
from aiayn.runs import distill as D
from aiayn.runs.launch import TrainRequest, train
from aiayn.tasks import get

TEACHER = """\
preset: tiny
model: {d_model: 32, n_heads: 2, d_ff: 64, n_encoder_layers: 1, n_decoder_layers: 1, max_positions: 128}
train: {vocab_size: 300, max_tokens: 600, warmup: 20, log_every: 1, valid_every: 3, save_every: 3,
        valid_bleu_sentences: 0}
"""
STUDENT = """\
model: {d_model: 32, n_heads: 2, d_ff: 64, max_positions: 128}
train: {max_tokens: 600, warmup: 20, log_every: 1, valid_every: 2, save_every: 2, valid_bleu_sentences: 0}
"""
SHORT = DecodeOptions(beam_size=2, max_len_a=0, max_len_b=10)  # the micro teacher is barely trained
SHORT_ARGS = ["--beam", "2", "--max-len-a", "0", "--max-len-b", "10"]


@pytest.fixture(scope="module")
def teacher(tmp_path_factory) -> Path:
    """A micro teacher trained 3 steps on 40 pairs (through the library: no report to wait for)."""
    root = tmp_path_factory.mktemp("distill")
    write_tsv(root / "train.tsv.gz", corpus_slice("train", 40))
    write_tsv(root / "valid.tsv.gz", corpus_slice("valid", 3))  # the report after training decodes it
    (root / "teacher.yaml").write_text(TEACHER)
    (root / "student.yaml").write_text(STUDENT)
    out = root / "teacher"
    train(TrainRequest(out, config_file=str(root / "teacher.yaml"), overrides={"train.max_steps": 3}, device="cpu",
                       options={"train": str(root / "train.tsv.gz"), "valid": str(root / "valid.tsv.gz")}))
    return out


def copy_teacher(teacher: Path, where: Path) -> Path:
    shutil.copytree(teacher, where, ignore=shutil.ignore_patterns(".lock", "distilled"))
    return where


def expected_targets(teacher: Path, options: DecodeOptions = SHORT) -> list[str]:
    sources = [en for en, _ in corpus_slice("train", 40)]
    return Translator.load(teacher).translate(sources, options)


# The student preset ---------------------------------------------------------------------------------
def test_student_preset_is_a_deep_encoder_and_a_shallow_decoder():
    cfg, tiny = TransformerConfig.preset("student"), TransformerConfig.preset("tiny")
    assert (cfg.n_encoder_layers, cfg.n_decoder_layers, cfg.norm_first, tiny.norm_first) == (4, 1, True, False)
    assert (cfg.d_model, cfg.n_heads, cfg.d_ff) == (tiny.d_model, tiny.n_heads, tiny.d_ff)
    changed = get("translation").config("student", {"n_decoder_layers": 2, "src_vocab_size": 300})  # as --set does
    assert (changed.n_encoder_layers, changed.n_decoder_layers) == (4, 2)
    assert get("translation").train_config("student", {}).max_tokens == get("translation").train_config(
        "tiny", {}).max_tokens  # a CPU-sized schedule, not the paper's 25k tokens
    with pytest.raises(ValueError, match="preset student is the Transformer's"):
        RNNSearchConfig.preset("student")


# The command, end to end ------------------------------------------------------------------------------
def test_distill_then_resume(teacher, tmp_path):
    """The corpus is the teacher's own beam outputs, cached beside it; the student is an ordinary run on it
    in the teacher's vocabulary, --set shapes it, and --resume continues it without decoding again."""
    student = tmp_path / "student"
    args = ["distill", "--teacher", str(teacher), "--out", str(student), "--config",
            str(teacher.parent / "student.yaml"), "--set", "model.n_encoder_layers=2", "--chunk", "16", *SHORT_ARGS]
    aiayn(*args, "--max-steps", "2")
    corpora = list((teacher / "distilled").glob("*/train.es"))
    assert len(corpora) == 1
    prefix = corpora[0].with_suffix("")
    assert corpora[0].read_text(encoding="utf-8").splitlines() == expected_targets(teacher)
    assert Path(f"{prefix}.en").read_text(encoding="utf-8").splitlines() == [en for en, _ in corpus_slice("train", 40)]
    about = json.loads((prefix.parent / "distill.json").read_text())
    assert about["decoding"]["beam_size"] == 2 and about["lines"] == 40 and about["chunk_lines"] == 16
    assert not (prefix.parent / "chunks").exists()  # joined, then removed
    config = json.loads((student / "config.json").read_text())
    assert config["preset"] == "student" and Path(config["data"]["train"]) == prefix
    assert (config["model"]["n_encoder_layers"], config["model"]["n_decoder_layers"]) == (2, 1)
    assert (student / "spm.model").read_bytes() == (teacher / "spm.model").read_bytes()
    assert Path(config["data"]["valid"]) == teacher.parent / "valid.tsv.gz"
    stamp = corpora[0].stat().st_mtime_ns
    aiayn(*args, "--max-steps", "4", "--resume")
    assert corpora[0].stat().st_mtime_ns == stamp  # the cache was reused
    assert read_header(student / "state.safetensors")[1]["step"] == 4
    proc = aiayn(*args[:-6], "--beam", "3", "--max-steps", "5", "--resume", check=False)
    err = proc.stderr.decode()
    assert proc.returncode == 1 and err.count("\n") == 1 and "was trained on" in err and "--resume" in err, err


def test_ctranslate2_engine_gives_the_same_corpus(teacher):
    """A slice decoded by CTranslate2 (an export made for the purpose) is aiayn's, greedy. With a beam, its
    ranking is its own (|Y|^α; a softmax renormalised without pad and BOS: docs/export-and-serve.md), which on
    this 3-step teacher changes a few degenerate outputs that run to the length limit, not the rest."""
    pytest.importorskip("ctranslate2")
    made = {}
    for beam in (1, 4):
        for engine in D.ENGINES:
            options = DecodeOptions(beam_size=beam, alpha=0.0, max_len_a=0, max_len_b=10)
            prefix = D.distill(D.DistillRequest(teacher, options=options, engine=engine, chunk_lines=32,
                                                corpus_only=True, device="cpu"))
            made[engine, beam] = Path(f"{prefix}.es").read_text(encoding="utf-8").splitlines()
    assert made["aiayn", 1] == made["ctranslate2", 1]
    same = sum(a == b for a, b in zip(made["aiayn", 4], made["ctranslate2", 4]))
    assert len(made["aiayn", 4]) == 40 and same >= 36, same


# Bad input -------------------------------------------------------------------------------------------
def one_error(proc) -> str:
    """Exit 1 and one error line (after the progress bar and warnings, if any); returns it."""
    err = proc.stderr.decode()
    lines = [line for line in err.splitlines() if line.startswith("error:")]
    assert proc.returncode == 1 and "Traceback" not in err and len(lines) == 1, err
    return lines[0]


def test_a_teacher_of_another_task_is_refused(teacher, tmp_path):
    other = copy_teacher(teacher, tmp_path / "music")
    tensors, meta = read_checkpoint(other / "best.safetensors")
    atomic_save(tensors, {**meta, "task": "music"}, other / "best.safetensors")
    err = one_error(aiayn("distill", "--teacher", str(other), "--out", str(tmp_path / "s"), check=False))
    assert "holds a music model; `aiayn translate` takes translation models: use aiayn evaluate" in err
    assert err.startswith("error: the teacher ")
    assert not (tmp_path / "s").exists() and not (other / "distilled").exists()


def test_a_teacher_without_its_vocabulary_is_refused(teacher, tmp_path):
    lost = copy_teacher(teacher, tmp_path / "lost")
    (lost / "spm.model").unlink()
    err = one_error(aiayn("distill", "--teacher", str(lost), "--out", str(tmp_path / "s"), check=False))
    assert "the teacher's vocabulary is missing: no spm.model in" in err and "restore" in err


def test_an_interrupted_step_resumes_and_loses_nothing(teacher, tmp_path, monkeypatch):
    """Stopped during its third chunk, the step kept the first two whole; run again, it translates only the
    remaining chunks, and the corpus is what an uninterrupted step makes."""
    mine = copy_teacher(teacher, tmp_path / "teacher")
    real, calls, stop = D.translate_chunk, [], [3]

    def interrupted(decoder, lines, options, out, progress):
        calls.append(out.name)
        if len(calls) == stop[0]:
            raise KeyboardInterrupt  # as Ctrl-C while the third chunk decodes
        real(decoder, lines, options, out, progress)

    monkeypatch.setattr(D, "translate_chunk", interrupted)
    request = D.DistillRequest(mine, options=SHORT, chunk_lines=8, corpus_only=True, device="cpu")
    with pytest.raises(KeyboardInterrupt):
        D.distill(request)
    kept = sorted(p.name for p in mine.glob("distilled/*/chunks/*"))
    assert kept == ["000000.es", "000001.es"]
    calls.clear()
    stop[0] = 0
    prefix = D.distill(request)
    assert calls == ["000002.es", "000003.es", "000004.es"]
    assert Path(f"{prefix}.es").read_text(encoding="utf-8").splitlines() == expected_targets(mine)


def test_a_full_disk_while_writing_targets(teacher, tmp_path):
    """One line naming the chunk; nothing partial; with space again the same command finishes the corpus."""
    from conftest import small_tmpfs

    with small_tmpfs(tmp_path / "disk", "4m") as mount:
        disk, mine = Disk(mount), copy_teacher(teacher, mount / "teacher")
        disk.fill(leave=4096)  # a page: distill.json fits, the first chunk of targets does not
        args = ["distill", "--teacher", str(mine), "--corpus-only", "--chunk", "40", *SHORT_ARGS]
        err = one_error(aiayn(*args, check=False))
        assert re.match(rf"error: cannot write {re.escape(str(mine))}/distilled/\w+/(chunks/000000\.es|distill\.json): "
                        "no space left on the device", err), err
        assert_no_partial_files(mine)
        disk.free()
        assert "distilled corpus:" in aiayn(*args).stdout.decode()
        assert next(mine.glob("distilled/*/train.es")).read_text().splitlines() == expected_targets(mine)
