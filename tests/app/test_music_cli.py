"""`aiayn train --task music` and `aiayn evaluate` on a music run, end to end through the command line,
on a small made-up chorale cache (so no test parses music21's corpus): the run records its task,
resumes exactly, and is scored by NLL per token."""

from __future__ import annotations

import json
import math
import re

import pytest
import torch
from conftest import aiayn

from aiayn.data import music
from aiayn.io.checkpoint import read_checkpoint
from aiayn.io.rundir import RunDir

MICRO = ["--set", "model.d_model=32", "--set", "model.n_heads=2", "--set", "model.d_ff=64", "--set", "model.n_layers=1",
         "--set", "train.max_tokens=512", "--set", "train.warmup=4", "--set", "train.log_every=1",
         "--set", "train.valid_every=2", "--set", "train.save_every=2"]


@pytest.fixture(scope="module")
def cache(chorale_cache):
    return chorale_cache


def test_train_resume_evaluate_music(cache, tmp_path):
    # one thread: a bit-for-bit comparison of two processes must not depend on how each splits its sums
    # (it failed once on CI's two cores and never in 15 local runs; the DDP resume test does the same)
    env = {"AIAYN_CACHE": str(cache), "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
    whole, broken = tmp_path / "whole", tmp_path / "broken"
    aiayn("train", "--task", "music", "--out", str(whole), "--max-steps", "6", *MICRO, **env)
    aiayn("train", "--task", "music", "--out", str(broken), "--max-steps", "4", *MICRO, **env)
    config = json.loads((broken / "config.json").read_text())
    assert (config["task"], config["preset"], config["architecture"]) == ("music", "relative", "decoder_only")
    assert config["model"]["attention"] == "relative" and config["model"]["positional"] == "none"
    aiayn("train", "--out", str(broken), "--resume", "--max-steps", "6", **env)  # the run's task, not translation
    a, meta = read_checkpoint(RunDir(whole).checkpoint(6))
    b, _ = read_checkpoint(RunDir(broken).checkpoint(6))
    assert meta["task"] == "music" and a.keys() == b.keys()
    assert all((a[k] == b[k]).all() for k in a), "resumed music run differs from the unbroken one"

    out = aiayn("evaluate", "--model", str(whole), **env).stdout.decode()
    nll, bits, ppl = map(float, re.search(r"NLL ([\d.]+) nats/token \(([\d.]+) bits\), perplexity ([\d.]+)", out).groups())
    assert math.isclose(bits, nll / math.log(2), rel_tol=1e-3) and math.isclose(ppl, math.exp(nll), rel_tol=1e-3)
    tokens = sum(len(s) + 1 for s in music.load_chorales(cache / "chorales", "test").values())  # each + EOS
    assert f"({tokens:,} tokens" in out


def test_music_options_that_do_not_apply(cache, tmp_path):
    env = {"AIAYN_CACHE": str(cache)}
    cases = [
        (["train", "--task", "music", "--train", "x.tsv"], "--train is for translation"),
        (["train", "--task", "music", "--preset", "tiny"], "unknown preset 'tiny'; choose one of relative, absolute"),
        (["train", "--preset", "absolute"], "unknown preset 'absolute'; choose one of tiny, base, big"),
        (["train", "--task", "music", "--set", "data.windw=64"], "unknown music data setting 'windw'; known: corpus"),
        (["train", "--task", "music", "--set", "data.transpose=x"], "data.transpose must be an integer >= 0 and <= 12"),
        (["train", "--task", "music", "--set", "data.in_range=maybe"], "data.in_range must be true or false, not 'maybe'"),
    ]
    for args, expected in cases:
        proc = aiayn(*args, "--out", str(tmp_path / "run"), check=False, **env)
        err = proc.stderr.decode()
        assert proc.returncode == 1 and expected in err and err.count("\n") == 1, err
    assert not (tmp_path / "run").exists()
    run = tmp_path / "music"
    aiayn("train", "--task", "music", "--preset", "absolute", "--out", str(run), "--max-steps", "2", "--set",
          "data.window=64", *MICRO, **env)
    config = json.loads((run / "config.json").read_text())
    assert config["model"]["positional"] == "sinusoidal" and config["data"]["window"] == 64
    # trained on windows shorter than the test chorales: evaluate also reads them past the window
    out = aiayn("evaluate", "--model", str(run), **env).stdout.decode()
    within, beyond = map(float, re.search(r"NLL ([\d.]+) inside the training window, ([\d.]+) past it", out).groups())
    assert within > 0 and beyond > 0 and "longer than 64 tokens read in one pass, up to 128" in out
    for args, expected in [(["train", "--task", "translation", "--resume"], "holds a music run, not translation"),
                           (["train", "--resume", "--set", "data.window=32"], "data setting window 32 differs from "
                                                                              "the run's 64"),
                           (["evaluate", "--test", "x.tsv"], "--test, --src and --tgt are for translation")]:
        flag = "--out" if args[0] == "train" else "--model"
        proc = aiayn(*args, flag, str(run), check=False, **env)
        assert proc.returncode == 1 and expected in proc.stderr.decode(), proc.stderr.decode()


def test_transposition_augments_training_only(cache):
    from aiayn.tasks.music import chorale_task

    plain = chorale_task(32, 512, cache=cache / "chorales")
    moved = chorale_task(32, 512, cache=cache / "chorales", transpose=2)
    originals = [s[1:-1] for s in plain.train]
    expected = originals + [music.transpose(s, k) for k in (-2, -1, 1, 2) for s in originals]
    assert [s[1:-1] for s in moved.train] == expected  # the scale pieces stay in range: none dropped
    assert moved.valid == plain.valid and len(moved.train_batches) > len(plain.train_batches)


def test_transposition_in_range_keeps_the_copies_no_further_out_of_the_choir_ranges(cache):
    from aiayn.tasks.music import chorale_task

    choir = [(60, 79), (55, 74), (48, 67), (40, 60)]  # S A T B as MIDI, written out here, not imported

    def outside(tokens):  # notes sung outside their voice's range, token by token
        return sum(not lo <= tok - 4 + music.MIN_PITCH <= hi for i, tok in enumerate(tokens) if tok >= 4
                   for lo, hi in [choir[i % 4]])

    originals = [s[1:-1] for s in chorale_task(32, 512, cache=cache / "chorales").train]
    kept = chorale_task(32, 512, cache=cache / "chorales", transpose=3, in_range=True)
    expected = originals + [moved for k in (-3, -2, -1, 1, 2, 3) for s in originals
                            if (moved := music.transpose(s, k)) is not None and outside(moved) <= outside(s)]
    assert [s[1:-1] for s in kept.train] == expected
    assert len(originals) < len(kept.train) < 7 * len(originals)  # the scale pieces sit high: up dropped, down kept


def test_a_state_saved_before_a_config_field_existed_still_resumes(cache, tmp_path):
    """Runs outlive releases: a state whose model config lacks a field added since resumes with its default."""
    from aiayn.io.checkpoint import atomic_save

    env = {"AIAYN_CACHE": str(cache)}
    run = tmp_path / "old"
    aiayn("train", "--task", "music", "--out", str(run), "--max-steps", "2", *MICRO, **env)
    tensors, meta = read_checkpoint(run / "state.safetensors")
    del meta["model_config"]["local_block"], meta["model_config"]["local_memory"]
    atomic_save(tensors, meta, run / "state.safetensors")
    config = json.loads((run / "config.json").read_text())
    del config["model"]["local_block"]
    (run / "config.json").write_text(json.dumps(config))
    aiayn("train", "--out", str(run), "--resume", "--max-steps", "4", **env)
    assert RunDir(run).checkpoint(4).exists()


def test_the_library_prints_nothing(cache, tmp_path, monkeypatch, capfd):
    """Progress and messages go through hooks the command line provides; called as a library, training is silent."""
    from aiayn import runs

    monkeypatch.setenv("AIAYN_CACHE", str(cache))
    overrides = {k: int(v) for k, v in (s.split("=") for s in MICRO[1::2])}
    runs.train(tmp_path / "run", task="music", overrides={**overrides, "train.max_steps": 2}, device="cpu")
    out, err = capfd.readouterr()
    assert out == "" and err == "", (out, err)
    assert RunDir(tmp_path / "run").checkpoint(2).exists()


def test_a_music_run_that_never_saved_starts_again_and_cannot_be_resumed(cache, tmp_path):
    """The same run-folder rules as translation: nothing to resume before the first save; a new start clears it."""
    env = {"AIAYN_CACHE": str(cache)}
    run = tmp_path / "unsaved"
    run.mkdir()
    (run / "config.json").write_text(json.dumps({"task": "music"}))
    (run / "log.jsonl").write_text('{"event": "train", "step": 1}\n')
    proc = aiayn("train", "--out", str(run), "--resume", check=False, **env)
    assert proc.returncode == 1 and "stopped before its first save" in proc.stderr.decode(), proc.stderr.decode()
    aiayn("train", "--task", "music", "--out", str(run), "--max-steps", "2", *MICRO, **env)
    assert '"step": 1}' not in (run / "log.jsonl").read_text().splitlines()[0]  # the old log was cleared
    assert RunDir(run).checkpoint(2).exists()


def test_evaluate_scores_in_the_runs_own_window(cache, tmp_path, monkeypatch):
    """A run trained through the Python API with a 64-token window is scored in windows of 64, the
    same figure a LanguageModelObjective with that window computes (not the task's default)."""
    from aiayn import runs
    from aiayn.inference.generator import Generator
    from aiayn.tasks import LanguageModelObjective

    monkeypatch.setenv("AIAYN_CACHE", str(cache))
    overrides = {k: yaml_value for k, yaml_value in (s.split("=") for s in MICRO[1::2])}
    overrides = {k: int(v) for k, v in overrides.items()}
    run = runs.train(tmp_path / "run", task="music", data={"window": 64}, device="cpu",
                     overrides={**overrides, "train.max_steps": 2})
    out = aiayn("evaluate", "--model", str(run.path), AIAYN_CACHE=str(cache)).stdout.decode()
    assert "windows of 64" in out, out
    nll = float(re.search(r"NLL ([\d.]+) nats/token", out)[1])
    seqs = [s.tolist() for s in music.load_chorales(cache / "chorales", "test").values()]
    model = Generator.load(run.path).model
    expected = LanguageModelObjective([], seqs, 64, 4096, music.BOS, music.EOS, music.PAD).validate(model, "cpu")
    assert math.isclose(nll, expected["valid_nll"], abs_tol=1e-4)


def test_fine_tuning_starts_from_the_given_weights(cache, tmp_path):
    env = {"AIAYN_CACHE": str(cache)}
    base, tuned = tmp_path / "base", tmp_path / "tuned"
    aiayn("train", "--task", "music", "--out", str(base), "--max-steps", "4", *MICRO, **env)
    # one update at a learning rate of ~0, with the unlikelihood term and another dropout: the base's weights
    aiayn("train", "--task", "music", "--out", str(tuned), "--init", str(base), "--max-steps", "2", *MICRO,
          "--set", "train.lr_scale=1e-12", "--set", "train.unlikelihood=1", "--set", "model.dropout=0.3", **env)
    config = json.loads((tuned / "config.json").read_text())
    assert config["init"] == str(base / "best.safetensors") and config["train"]["unlikelihood"] == 1
    a, _ = read_checkpoint(base / "best.safetensors")
    b, _ = read_checkpoint(RunDir(tuned).checkpoint(2))
    assert a.keys() == b.keys() and all(torch.allclose(a[k], b[k], atol=1e-6) for k in a)
    fresh = tmp_path / "fresh"  # the same without --init starts elsewhere
    aiayn("train", "--task", "music", "--out", str(fresh), "--seed", "2", "--max-steps", "2", *MICRO, **env)
    c, _ = read_checkpoint(RunDir(fresh).checkpoint(2))
    assert not all(torch.allclose(a[k], c[k], atol=1e-3) for k in a)

    cases = [  # refused in one line, before anything is written
        (["--init", str(base), "--set", "model.d_model=64"], "was trained with model.d_model=32, not 64"),
        (["--init", str(base), "--preset", "voices"], "model.voice_embedding=0, not 4"),
        (["--init", str(tmp_path / "nothing")], "no model at"),
    ]
    for args, expected in cases:
        proc = aiayn("train", "--task", "music", "--out", str(tmp_path / "new"), *MICRO, *args, check=False, **env)
        err = proc.stderr.decode()
        assert proc.returncode == 1 and expected in err and err.count("\n") == 1, err
        assert not (tmp_path / "new").exists()
    proc = aiayn("train", "--out", str(tuned), "--resume", "--init", str(base), check=False, **env)
    assert proc.returncode == 1 and "drop it to resume" in proc.stderr.decode()
