"""End to end through the real `aiayn` command on a slice of the built-in corpus."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import torch
from conftest import aiayn, snapshot, train_args
from safetensors import safe_open
from safetensors.torch import load_file


# The happy path ----------------------------------------------------------------------------
def test_train_writes_a_complete_run(trained):
    names = set(snapshot(trained))
    assert {"config.json", "spm.model", "log.jsonl", "state.safetensors", "best.safetensors"} <= names
    assert {"checkpoints/step-00000003.safetensors", "checkpoints/step-00000006.safetensors",
            "checkpoints/step-00000008.safetensors"} <= names
    events = [json.loads(line) for line in (trained / "log.jsonl").read_text().splitlines()]
    train = [e for e in events if e["event"] == "train"]
    valid = [e for e in events if e["event"] == "valid"]
    assert [e["step"] for e in train] == list(range(1, 9))
    assert all(e["loss"] > 0 and e["lr"] > 0 and e["tgt_tok_s"] > 0 for e in train)
    assert [e["step"] for e in valid] == [4, 8] and all("valid_bleu" in e and e["valid_ppl"] > 1 for e in valid)
    assert not list(trained.rglob("*.tmp"))


def test_the_report_draws_a_bar_only_when_asked(trained, tmp_path, capsys):
    """The end-of-training report of a library caller shows nothing; with tqdm it draws its bar."""
    import shutil

    from tqdm import tqdm

    from aiayn import runs

    run = shutil.copytree(trained, tmp_path / "run")  # the report appends to the run's log
    text = runs.report(run)
    assert "Validation (" in text and capsys.readouterr().err == ""
    assert runs.report(run, progress=tqdm) == text and "validation, beam 4" in capsys.readouterr().err


def test_translate_keeps_order_empty_lines_and_survives_long_lines(trained):
    long_line = " ".join(["word"] * 400)
    lines = ["In the beginning God created the heavens and the earth.", "", long_line, "Amen."]
    proc = aiayn("translate", "--model", str(trained), "--beam", "2", "--max-len-b", "5", input="\n".join(lines) + "\n")
    out = proc.stdout.decode().split("\n")
    assert len(out) == 5 and out[1] == "" and out[4] == ""
    assert "warning: line 3 has" in proc.stderr.decode()
    nbest = aiayn("translate", "--model", str(trained), "--nbest", "2", "--beam", "3", "--max-len-b", "3",
                  input="Amen.\n").stdout.decode().splitlines()
    assert [row.split("\t")[0] for row in nbest] == ["0", "0"]
    assert float(nbest[0].split("\t")[1]) >= float(nbest[1].split("\t")[1])


@pytest.mark.parametrize("dtype", ["bfloat16", "int8"])
def test_translate_in_a_smaller_number_format(trained, dtype):
    lines = ["In the beginning God created the heavens and the earth.", "", "Amen."]
    proc = aiayn("translate", "--model", str(trained), "--beam", "2", "--max-len-b", "5", "--dtype", dtype,
                 input="\n".join(lines) + "\n")
    out = proc.stdout.decode().split("\n")
    assert len(out) == 4 and out[0] and out[1] == "" and out[3] == ""
    # The number format is used: the same model scores its best translation a little differently.
    scores = {}
    for kind in ("float32", dtype):
        rows = aiayn("translate", "--model", str(trained), "--beam", "2", "--nbest", "2", "--max-len-b", "5",
                     "--dtype", kind, input=lines[0] + "\n").stdout.decode().splitlines()
        scores[kind] = [float(row.split("\t")[1]) for row in rows]
    assert scores[dtype] != scores["float32"], scores
    assert abs(scores[dtype][0] - scores["float32"][0]) < 0.5, scores


def test_translate_compiled_gives_the_same_translations(trained):
    """--compile (the decoding step through torch.compile) translates as the model's own step does; refused,
    in one line, where it cannot apply; with --dtype int8 it translates with the int8 weights."""
    lines = "In the beginning God created the heavens and the earth.\n\nAmen.\n"
    args = ["translate", "--model", str(trained), "--beam", "2", "--nbest", "2", "--max-len-b", "6"]
    plain, compiled = (aiayn(*args, *extra, input=lines).stdout.decode().splitlines() for extra in ([], ["--compile"]))
    assert [row.split("\t")[2] for row in compiled] == [row.split("\t")[2] for row in plain] and len(plain) == 5
    assert [float(row.split("\t")[1]) for row in compiled] == pytest.approx(
        [float(row.split("\t")[1]) for row in plain], abs=1e-3)
    proc = aiayn(*args, "--compile", "--engine", "ctranslate2", input=lines, check=False)
    err = proc.stderr.decode()
    assert proc.returncode != 0 and "--compile compiles aiayn's own decoder" in err and "Traceback" not in err, err
    int8 = aiayn(*args, "--compile", "--dtype", "int8", input=lines).stdout.decode().splitlines()  # int8 weights kept
    assert len(int8) == 5 and all(len(row.split("\t")) == 3 for row in int8)


def test_evaluate_prints_sacrebleu_scores_with_signatures(trained, data):
    proc = aiayn("evaluate", "--model", str(trained), "--test", str(data / "valid.tsv.gz"), "--beam", "1",
                 "--max-len-b", "5")
    text = proc.stdout.decode()
    assert "BLEU" in text and "tok:13a" in text and "chrF" in text and "nc:6" in text
    assert (trained / "hyp.valid.beam1.es").read_text().count("\n") == 20


def test_evaluate_compiled_scores_the_same_translations(trained, data, monkeypatch):
    """aiayn evaluate's --compile decodes the test set with the compiled step (counted): the same hypotheses and
    scores as the model's own step."""
    from aiayn import runs
    from aiayn.model.compiled import CompiledDecodeStep

    calls, compiled = [], CompiledDecodeStep._compiled  # counts the steps its compiled graph answered

    def counted(self, *a):
        out = compiled(self, *a)
        calls.extend([] if out is None else [1])
        return out

    monkeypatch.setattr(CompiledDecodeStep, "_compiled", counted)
    texts, hyps = [], []
    for compile in (None, True):
        request = runs.EvaluateRequest(str(trained), {"beam_size": 2, "max_len_b": 5},
                                       task_options={"test": str(data / "valid.tsv.gz"), "compile": compile})
        texts.append(runs.evaluate(request))
        hyps.append((trained / "hyp.valid.beam2.es").read_text())
        assert bool(calls) == bool(compile)
    assert texts[0] == texts[1] and hyps[0] == hyps[1] and hyps[0].count("\n") == 20


def test_average_the_last_checkpoints(trained):
    aiayn("average", "--model", str(trained), "--last", "2")
    averaged = load_file(trained / "average-last-2.safetensors")
    a = load_file(trained / "checkpoints/step-00000006.safetensors")
    b = load_file(trained / "checkpoints/step-00000008.safetensors")
    for name, value in averaged.items():
        torch.testing.assert_close(value, (a[name].double() + b[name].double()).div(2).float())
    proc = aiayn("translate", "--model", str(trained / "average-last-2.safetensors"), "--max-len-b", "2", input="Amen.\n")
    assert proc.stdout.decode().count("\n") == 1


def test_attention_plot(trained, tmp_path):
    out = tmp_path / "attention.png"
    proc = aiayn("attention", "--model", str(trained), "--text", "God is love.", "--out", str(out), "--beam", "1")
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and "wrote" in proc.stdout.decode()


def test_attention_maps_match_the_translation(trained):
    from aiayn.inference.attention_maps import attention_maps
    from aiayn.inference.translator import Translator

    translation, layers, queries, keys = attention_maps(Translator.load(trained), "God is love.", beam_size=1)
    assert translation == Translator.load(trained).translate(["God is love."], beam_size=1)[0]
    assert len(layers) == 1 and layers[0].shape == (2, len(queries), len(keys))
    torch.testing.assert_close(layers[0].sum(-1), torch.ones(2, len(queries)))


# Exact resume ------------------------------------------------------------------------------
STEPS = 30


@pytest.fixture(scope="module")
def unbroken(data, tmp_path_factory) -> Path:
    whole = tmp_path_factory.mktemp("unbroken") / "run"
    aiayn(*train_args(data, whole, "--max-steps", str(STEPS)))
    return whole


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGINT, signal.SIGTERM], ids=lambda s: s.name)
def test_stopped_by_a_signal_then_resumed_equals_an_unbroken_run(data, unbroken, tmp_path, sig):
    """SIGKILL after a save loses only what came after it; SIGINT (Ctrl-C) and SIGTERM save the state
    at the end of the current step, here long before the first regular save, and exit 130 / 143."""
    broken = tmp_path / "broken"
    saves = [] if sig == signal.SIGKILL else ["--set", "train.save_every=1000"]
    proc = subprocess.Popen([sys.executable, "-m", "aiayn", *train_args(data, broken, "--max-steps", str(STEPS), *saves)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    log, deadline = broken / "log.jsonl", time.time() + 120
    wanted = '"checkpoint"' if sig == signal.SIGKILL else '"step": 5,'
    while time.time() < deadline and proc.poll() is None:
        if log.exists() and wanted in log.read_text():
            break
        time.sleep(0.01)
    proc.send_signal(sig)
    err = proc.communicate(timeout=120)[1].decode()
    events = [json.loads(line) for line in log.read_text().splitlines()]
    stopped_at = max(e["step"] for e in events)
    assert stopped_at < STEPS, "the run finished before it could be stopped"
    if sig != signal.SIGKILL:
        assert proc.returncode == 128 + sig, err
        assert err.strip().splitlines()[-1] == (f"interrupted: stopped by {sig.name} at step {stopped_at}; the training "
                                                f"state is saved: continue with: aiayn train --out {broken} --resume")
        assert events[-1] == {**events[-1], "event": "interrupted", "step": stopped_at}
        assert not (broken / "checkpoints").exists()  # only the state: no off-schedule checkpoint to average
        with safe_open(str(broken / "state.safetensors"), "pt") as f:
            assert json.loads(f.metadata()["step"]) == stopped_at
    aiayn(*train_args(data, broken, "--max-steps", str(STEPS), "--resume"))

    final = f"checkpoints/step-{STEPS:08d}.safetensors"
    a, b = load_file(unbroken / final), load_file(broken / final)
    assert a.keys() == b.keys()
    for name in a:
        assert torch.equal(a[name], b[name]), name
    assert any(json.loads(line)["event"] == "resume" for line in log.read_text().splitlines())


# Data parallel -------------------------------------------------------------------------------
def test_two_gloo_processes_match_one_process_with_the_same_global_batch(data, tmp_path):
    # No attention biases: the key bias's true gradient is 0, so Adam would amplify rounding noise.
    common = ["--set", "model.dropout=0.0", "--set", "model.attention_bias=false", "--max-steps", "4", "--set", "train.valid_bleu_sentences=0"]
    one = tmp_path / "one"
    aiayn("train", "--train", str(data / "train.tsv.gz"), "--config", str(data / "micro.yaml"), "--out", str(one),
          "--update-freq", "2", *common)
    two = tmp_path / "two"
    proc = subprocess.run(
        [sys.executable, "-m", "torch.distributed.run", "--nproc_per_node", "2", "--master_port", "29533",
         "-m", "aiayn", "train", "--train", str(data / "train.tsv.gz"), "--config", str(data / "micro.yaml"),
         "--out", str(two), *common],
        capture_output=True, timeout=300, env={**os.environ, "OMP_NUM_THREADS": "1"})
    assert proc.returncode == 0, proc.stderr.decode()[-3000:]
    a = load_file(one / "checkpoints/step-00000004.safetensors")
    b = load_file(two / "checkpoints/step-00000004.safetensors")
    start = load_file(one / "checkpoints/step-00000003.safetensors")
    for name in a:
        torch.testing.assert_close(b[name], a[name], rtol=1e-5, atol=1e-6)
    assert any(not torch.equal(a[n], start[n]) for n in a)  # training moved the weights


def test_two_gloo_processes_stopped_and_resumed_equal_an_unbroken_run(data, tmp_path):
    """Each rank draws dropout from its own stream, saved and restored by rank: 3 steps, then a resume
    to 6, give the weights of 6 unbroken steps bit for bit (dropout on, validation shared by both ranks)."""

    def torchrun(out: Path, port: int, *extra: str) -> None:
        proc = subprocess.run([sys.executable, "-m", "torch.distributed.run", "--nproc_per_node", "2", "--master_port",
                               str(port), "-m", "aiayn", *train_args(data, out, *extra)],
                              capture_output=True, timeout=300, env={**os.environ, "OMP_NUM_THREADS": "1"})
        assert proc.returncode == 0, proc.stderr.decode()[-3000:]

    whole, broken = tmp_path / "whole", tmp_path / "broken"
    torchrun(whole, 29534, "--max-steps", "6")
    torchrun(broken, 29535, "--max-steps", "3")
    state = load_file(broken / "state.safetensors")
    assert not torch.equal(state["rng.torch.0"], state["rng.torch.1"])  # two streams
    torchrun(broken, 29536, "--max-steps", "6", "--resume")
    a = load_file(whole / "checkpoints/step-00000006.safetensors")
    b = load_file(broken / "checkpoints/step-00000006.safetensors")
    for name in a:
        assert torch.equal(a[name], b[name]), name
    valid = [e for e in map(json.loads, (broken / "log.jsonl").read_text().splitlines()) if e["event"] == "valid"]
    assert [e["step"] for e in valid] == [3, 4, 6] and all("valid_bleu" in e for e in valid)


# Progress bar ----------------------------------------------------------------------------------
def test_max_time_bar_clock_counts_training_only(data, tmp_path, monkeypatch):
    """With --max-time the bar shows training seconds: a slow validation must not add to its
    clock, and the final validation runs after the bar has closed."""
    from tqdm import tqdm

    from aiayn import runs
    from aiayn.training.trainer import Trainer

    seen = []
    real_validate = Trainer.validate

    def slow_validate(self):
        bars = [bar for bar in list(tqdm._instances) if not bar.disable]
        seen.append([bar.format_dict["elapsed"] - self.elapsed for bar in bars])
        time.sleep(0.5)
        return real_validate(self)

    monkeypatch.setattr(Trainer, "validate", slow_validate)
    runs.train(tmp_path / "run", train=str(data / "train.tsv.gz"), valid=str(data / "valid.tsv.gz"),
               config_file=str(data / "micro.yaml"), overrides={"train.max_time": 3.0, "train.valid_every": 2},
               progress=tqdm)  # the command line's bar; the library alone shows none
    *midway, final = seen
    assert midway and final == []  # validations ran midway; the last one found no open bar
    # Each validation sleeps 0.5 s: a bar that kept counting would run 0.5 s ahead per earlier one.
    assert all(len(gaps) == 1 and abs(gaps[0]) < 0.5 for gaps in midway), midway


@pytest.mark.parametrize("native", [False, True])
def test_bf16_on_a_cpu_without_bf16_instructions_warns(data, tmp_path, monkeypatch, caplog, native):
    from aiayn import precision, runs

    monkeypatch.setattr(precision, "cpu_has_native_bf16", lambda: native)
    runs.train(tmp_path / "run", train=str(data / "train.tsv.gz"), config_file=str(data / "micro.yaml"),
               overrides={"train.precision": "bf16", "train.max_steps": 1}, device="cpu")
    warned = [r for r in caplog.records if "bfloat16 instructions" in r.getMessage()]
    assert len(warned) == (0 if native else 1)
