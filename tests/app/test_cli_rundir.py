"""A run directory under careless and hostile use: two owners, kills at bad moments, a full disk,
a diverging loss, leftovers of killed writers, and checkpoints that lie about their size."""

from __future__ import annotations

import errno
import json
import os
import re
import resource
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import torch
from conftest import aiayn, train_args
from safetensors import safe_open
from safetensors.torch import load_file, save_file


def start(*args: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "aiayn", *args], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            env={**os.environ, "PYTHONWARNINGS": "ignore"})


def wait_for(proc: subprocess.Popen, log: Path, event: str, count: int = 1) -> None:
    """Until ``log`` holds ``count`` events of kind ``event`` (the process must still be running)."""
    deadline = time.time() + 120
    while time.time() < deadline and proc.poll() is None:
        if log.exists() and log.read_text().count(f'"event": "{event}"') >= count:
            return
        time.sleep(0.01)
    raise AssertionError(f"no {event} event in {log}: {proc.stderr.read().decode() if proc.poll() is not None else ''}")


def kill(proc: subprocess.Popen, sig: int = signal.SIGKILL) -> subprocess.CompletedProcess:
    proc.send_signal(sig)
    stderr = proc.communicate(timeout=120)[1]
    return subprocess.CompletedProcess(proc.args, proc.returncode, b"", stderr)


def error_line(proc: subprocess.CompletedProcess) -> str:
    """The last line on stderr, checked to be an error without a traceback."""
    err = proc.stderr.decode()
    assert proc.returncode == 1 and "Traceback" not in err, err
    return err.replace("\r", "\n").strip().splitlines()[-1]


def test_a_run_directory_has_one_owner_and_a_kill_frees_it(data, tmp_path):
    out = tmp_path / "run"
    owner = start(*train_args(data, out, "--max-steps", "100000"))
    wait_for(owner, out / "log.jsonl", "checkpoint")
    for extra in ([], ["--resume"]):
        began = time.time()
        second = aiayn(*train_args(data, out, "--max-steps", "100000", *extra), check=False)
        assert f"{out} is in use by another training (process {owner.pid})" in error_line(second)
        assert time.time() - began < 30  # at once, not after training
    assert owner.poll() is None  # the owner kept training
    kill(owner)
    log = (out / "log.jsonl").read_text().splitlines()
    saved = max(json.loads(line)["step"] for line in log if '"checkpoint"' in line)
    aiayn(*train_args(data, out, "--max-steps", str(saved + 1), "--resume"))  # the kill left no stuck lock


def test_a_run_killed_before_its_first_save_starts_again_cleanly(data, tmp_path):
    out, fresh = tmp_path / "run", tmp_path / "fresh"
    never_saves = ["--max-steps", "100000", "--set", "train.save_every=100000", "--set", "train.valid_every=100000"]
    proc = start(*train_args(data, out, *never_saves))
    wait_for(proc, out / "log.jsonl", "train", count=2)
    kill(proc)
    assert (out / "config.json").exists() and not (out / "state.safetensors").exists()
    msg = error_line(aiayn(*train_args(data, out, "--resume"), check=False))
    assert "stopped before its first save; run the same command without --resume to start it again" in msg
    aiayn(*train_args(data, out, "--max-steps", "4"))
    aiayn(*train_args(data, fresh, "--max-steps", "4"))
    for step in (3, 4):  # as if the first attempt never was
        a, b = (load_file(run / f"checkpoints/step-{step:08d}.safetensors") for run in (out, fresh))
        assert a.keys() == b.keys() and all(torch.equal(a[k], b[k]) for k in a)
    events = [json.loads(line)["event"] for line in (out / "log.jsonl").read_text().splitlines()]
    assert events.count("train") == 4  # the first attempt's log went with it


KILLED_WHILE_SAVING = """\
import os, signal, sys
import aiayn.io.checkpoint as checkpoint
from aiayn.app.cli import main

real, calls = checkpoint.save_file, []

def save_then_die(tensors, path, metadata=None):
    real(tensors, path, metadata=metadata)  # the whole temporary file is written ...
    calls.append(path)
    if len(calls) == 3:  # ... step 3's weights and state are safe; at step 6 the writer dies before its rename
        os.kill(os.getpid(), signal.SIGKILL)

checkpoint.save_file = save_then_die
sys.exit(main(sys.argv[1:]))
"""


def test_temporary_files_of_killed_writers_are_removed_and_live_ones_kept(data, tmp_path):
    out = tmp_path / "run"
    script = tmp_path / "killed_while_saving.py"
    script.write_text(KILLED_WHILE_SAVING)
    no_validation = ["--max-steps", "9", "--set", "train.valid_every=100"]  # so the third write is step 6's
    proc = subprocess.run([sys.executable, str(script), *train_args(data, out, *no_validation)],
                          capture_output=True, timeout=300)
    assert proc.returncode == -signal.SIGKILL, proc.stderr.decode()
    leftovers = list(out.rglob("*.tmp"))
    assert [p.name.startswith(".step-00000006.safetensors.") for p in leftovers] == [True]
    live = out / f".best.safetensors.{os.getpid()}.x1y2z3.tmp"  # a write in progress by a live process
    live.write_bytes(b"partial")
    aiayn(*train_args(data, out, *no_validation, "--resume"))
    assert list(out.rglob("*.tmp")) == [live]
    assert len(list((out / "checkpoints").glob("*.safetensors"))) == 3  # steps 3, 6 and 9


def test_a_full_disk_leaves_the_last_state_intact(data, tmp_path, monkeypatch, capsys):
    from aiayn.app.cli import main
    from aiayn.io import checkpoint

    out, real, calls = tmp_path / "run", checkpoint.save_file, []

    def full_disk(tensors, path, metadata=None):
        calls.append(path)
        if len(calls) == 4:  # step 6's state, after step 3's weights and state and step 6's weights
            Path(path).write_bytes(b"\0" * 1000)
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), path)
        real(tensors, path, metadata=metadata)

    monkeypatch.setattr(checkpoint, "save_file", full_disk)
    no_validation = ["--max-steps", "9", "--set", "train.valid_every=100"]  # so the fourth write is step 6's state
    assert main(train_args(data, out, *no_validation)) == 1
    err = capsys.readouterr().err.replace("\r", "\n").strip().splitlines()
    assert re.fullmatch(rf"error: cannot write {re.escape(str(out / 'state.safetensors'))}: no space left on the "
                        r"device \([\d.]+ MB free in .*\); the previous one is intact; free some space or write "
                        r"elsewhere, then run again", err[-1]), err[-1]
    with safe_open(str(out / "state.safetensors"), "pt") as f:
        assert json.loads(f.metadata()["step"]) == 3
    assert not list(out.rglob("*.tmp"))
    monkeypatch.setattr(checkpoint, "save_file", real)
    assert main(train_args(data, out, *no_validation, "--resume")) == 0


def test_a_non_finite_loss_stops_before_saving_and_the_log_stays_json(data, tmp_path):
    out = tmp_path / "run"
    proc = aiayn(*train_args(data, out, "--max-steps", "30", "--lr-scale", "1e30"), check=False)
    msg = error_line(proc)
    assert "is not finite; the step was not taken and nothing from it saved: lower --lr-scale" in msg

    def no_constants(name):
        raise AssertionError(f"log.jsonl holds {name}, which is not JSON")

    for line in (out / "log.jsonl").read_text().splitlines():
        json.loads(line, parse_constant=no_constants)
    for path in out.rglob("*.safetensors"):
        assert all(torch.isfinite(t).all() for t in load_file(path).values()), path


def test_resume_writes_what_it_changed_to_the_log_and_the_config(trained, data, tmp_path):
    run = tmp_path / "run"
    shutil.copytree(trained, run)
    changed = tmp_path / "changed.yaml"
    changed.write_text((data / "micro.yaml").read_text().replace("save_every: 3", "save_every: 2"))
    aiayn("train", "--config", str(changed), "--out", str(run), "--resume", "--max-steps", "10")
    resume = [json.loads(line) for line in (run / "log.jsonl").read_text().splitlines() if '"resume"' in line]
    assert resume[-1]["changed"] == {"save_every": [3, 2], "max_steps": [8, 10]}
    config = json.loads((run / "config.json").read_text())
    assert config["train"]["save_every"] == 2 and config["train"]["max_steps"] == 10
    assert (run / "checkpoints/step-00000010.safetensors").exists()


BOMB = """\
import resource, subprocess, sys
proc = subprocess.run(sys.argv[1:], input=b"Amen.\\n", capture_output=True)
sys.stderr.write(proc.stderr.decode())
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)  # kilobytes on Linux
sys.exit(proc.returncode)
"""


@pytest.mark.parametrize("claim, message", [
    ({"d_model": 4096, "d_ff": 1_000_000, "n_heads": 4}, "was built for a different model configuration"),
    ({"d_ff": 10**12}, "carries no usable model config (d_ff must be an integer >= 1 and <= 1048576"),
])
def test_a_checkpoint_claiming_a_huge_model_fails_fast_in_bounded_memory(trained, tmp_path, claim, message):
    """A 128 KB file whose config claims a model of 16+ GB: the claim is checked before anything is allocated."""
    bomb = tmp_path / "bomb"
    bomb.mkdir()
    shutil.copy(trained / "spm.model", bomb / "spm.model")
    with safe_open(str(trained / "best.safetensors"), "pt") as f:
        meta = f.metadata()
    meta["model_config"] = json.dumps({**json.loads(meta["model_config"]), **claim})
    save_file(load_file(trained / "best.safetensors"), bomb / "best.safetensors", metadata=meta)
    assert (bomb / "best.safetensors").stat().st_size < 200_000
    limit = 6 << 30  # a safety net: without the checks the model alone would need far more

    def bounded():
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    proc = subprocess.run([sys.executable, "-c", BOMB, sys.executable, "-m", "aiayn", "translate", "--model", str(bomb)],
                          capture_output=True, timeout=120, preexec_fn=bounded)
    err = proc.stderr.decode()
    assert proc.returncode == 1 and "Traceback" not in err and message in err, err
    assert int(proc.stdout) < 1_000_000  # peak resident memory under 1 GB


def test_a_translation_run_starts_from_another_runs_weights(data, tmp_path):
    """--init with the preset's settings: the vocabulary (written at the start) fixes the embeddings, so the check
    leaves the vocabulary's size aside until it is written (the plan holds the preset's 37,000 until then), then
    holds it to the model's."""
    small = ["--preset", "tiny", "--max-steps", "1", "--train", str(data / "train.tsv.gz"), "--valid",
             str(data / "valid.tsv.gz"), *[a for kv in ("model.d_model=32", "model.n_heads=2", "model.d_ff=64",
                                                          "model.n_encoder_layers=1", "model.n_decoder_layers=1",
                                                          "train.valid_bleu_sentences=0") for a in ("--set", kv)]]
    aiayn("train", *small, "--set", "train.vocab_size=120", "--out", str(tmp_path / "base"))
    aiayn("train", *small, "--set", "train.vocab_size=120", "--init", str(tmp_path / "base"), "--out",
          str(tmp_path / "tuned"))
    config = json.loads((tmp_path / "tuned" / "config.json").read_text())
    assert config["init"] == str(tmp_path / "base" / "best.safetensors") and config["model"]["src_vocab_size"] == 120
    other = aiayn("train", *small, "--set", "train.vocab_size=100", "--init", str(tmp_path / "base"), "--out",
                  str(tmp_path / "other"), check=False)
    assert other.returncode == 1 and b"was trained with model.src_vocab_size=120, not 100" in other.stderr
