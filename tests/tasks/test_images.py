"""The image tasks end to end: bits/dim against a hand-computed value, `aiayn train --task digits|superres`,
`aiayn evaluate` and `aiayn generate` on micro models, and their bad input."""

from __future__ import annotations

import math
import re

import numpy as np
import pytest
import torch
from conftest import aiayn

from aiayn.data import digits
from aiayn.tasks.images import ImageObjective, digits_model_config, load_image_model, upsample

MICRO = ["--set", "model.d_model=16", "--set", "model.n_heads=2", "--set", "model.d_ff=32", "--max-steps", "3",
         "--set", "train.valid_every=3", "--set", "train.save_every=3", "--set", "train.max_tokens=2048"]


class Uniform(torch.nn.Module):
    """Every pixel equally likely among the 20 tokens."""

    def forward(self, inputs, classes=None):
        return torch.zeros(*inputs.shape, digits.VOCAB_SIZE)


def test_bits_per_dim_of_a_uniform_model_is_log2_of_the_vocabulary():
    figures = ImageObjective(None, "valid", 0).validate(Uniform(), "cpu")
    assert figures["valid_images"] == len(digits.load_digits_split("valid")[0])
    assert figures["valid_bits_per_dim"] == pytest.approx(math.log2(digits.VOCAB_SIZE), rel=1e-6)  # float32 logits


def test_batches_hold_whole_images_bos_first():
    task = ImageObjective("train", None, 64 * 5, conditional=True)
    assert sum(map(len, task.train_batches)) == len(digits.load_digits_split("train")[0])
    batch = task.batch(task.train_batches[0])
    assert batch.inputs.shape == batch.targets.shape == (5, 64) and batch.classes.shape == (5,)
    assert (batch.inputs[:, 0] == digits.BOS).all() and (batch.inputs[:, 1:] == batch.targets[:, :-1]).all()
    images, labels = digits.load_digits_split("train")
    i = task.train_batches[0][0]
    assert batch.targets[0].tolist() == digits.image_tokens(images[i]) and batch.classes[0] == labels[i]


def test_a_block_longer_than_the_model_is_refused():
    with pytest.raises(ValueError, match="local_block=100 is longer than max_positions=65"):
        digits_model_config("local", local_block=100)


def test_digits_train_evaluate_generate(tmp_path, monkeypatch):
    from aiayn.app.cli import main
    from aiayn.tasks import images

    run = tmp_path / "digits"
    aiayn("train", "--task", "digits", "--preset", "local-class", "--out", str(run), *MICRO,
          "--max-steps", "40", "--set", "train.warmup=10", "--set", "train.save_every=40", "--set", "train.valid_every=40")
    out = aiayn("evaluate", "--model", str(run)).stdout.decode()
    bits = float(re.search(r"([\d.]+) bits/dim", out).group(1))
    assert 0 < bits < 2 * math.log2(digits.VOCAB_SIZE)
    # The score is the model's own on the test digits, and 40 updates beat a uniform guess by far.
    model, _ = load_image_model(run)
    figures = ImageObjective(None, "test", 0, conditional=True).validate(model, "cpu")
    assert bits == pytest.approx(figures["valid_bits_per_dim"], abs=1e-4)
    assert bits < math.log2(digits.VOCAB_SIZE) - 1, bits
    assert images.DIGITS.figures(run, "test")["test_bits_per_dim"] == pytest.approx(bits, abs=1e-4)  # as experiments record it
    png = tmp_path / "grid.png"
    aiayn("generate", "--model", str(run), "--class", "3", "--class", "seven", "--samples", "2", "--out", str(png))
    assert png.read_bytes()[:4] == b"\x89PNG"
    conditioned, sample = [], images.sample  # what the sampler is given, through the command line
    monkeypatch.setattr(images, "sample", lambda net, cond, **kw: conditioned.append(cond.tolist()) or sample(
        net, cond, **kw))
    assert main(["generate", "--model", str(run), "--class", "3", "--class", "seven", "--samples", "2",
                 "--out", str(png)]) == 0
    assert conditioned == [[3, 3, 7, 7]]  # two samples of each class asked for, in order
    for args, expected in [(["--class", "eleven"], "'eleven' is not a digit class"),
                           (["--primer", "test:0"], "--primer, --primer-tokens and --length are for music")]:
        proc = aiayn("generate", "--model", str(run), "--out", str(png), *args, check=False)
        err = proc.stderr.decode()
        assert proc.returncode == 1 and expected in err and err.count("\n") == 1, err


def test_superres_train_evaluate_generate(tmp_path):
    run = tmp_path / "superres"
    aiayn("train", "--task", "superres", "--out", str(run), *MICRO)
    out = aiayn("evaluate", "--model", str(run)).stdout.decode()
    mae, mse = map(float, re.search(r"bicubic: .* absolute ([\d.]+), squared ([\d.]+)", out).groups())
    images, _ = digits.load_digits_split("test")
    error = digits.bicubic_upsample(digits.downsample(images)) - images
    assert mae == pytest.approx(np.abs(error).mean(), abs=1e-3) and mse == pytest.approx((error**2).mean(), abs=1e-3)
    aiayn("generate", "--model", str(run), "--samples", "3", "--out", str(tmp_path))
    assert (tmp_path / "superres.png").read_bytes()[:4] == b"\x89PNG"
    proc = aiayn("generate", "--model", str(run), "--class", "3", "--out", str(tmp_path), check=False)
    assert proc.returncode == 1 and "--class is for class-conditional" in proc.stderr.decode()
    from aiayn.tasks.images import load_image_model

    model, _ = load_image_model(run)
    with pytest.raises(Exception, match="takes 4x4 images"):
        upsample(model, np.zeros((2, 8, 8), dtype=np.int64))
