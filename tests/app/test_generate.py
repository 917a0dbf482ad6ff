"""Generation end to end: a micro music model trained by the shared trainer, sampled through the real
``aiayn generate`` command (MIDI + piano roll), reproducible by seed, primers continued, bad input refused."""

from __future__ import annotations

import pytest
from conftest import aiayn, scale_chorale

from aiayn.data import music
from aiayn.io.rundir import RunDir
from aiayn.tasks import LanguageModelObjective
from aiayn.tasks.music import music_model_config
from aiayn.training import distributed as D
from aiayn.training.config import TrainConfig
from aiayn.training.trainer import Trainer


@pytest.fixture(scope="module")
def music_run(tmp_path_factory):
    run = RunDir(tmp_path_factory.mktemp("music") / "run")
    run.path.mkdir()
    train = [scale_chorale(40, i) for i in range(12)]
    task = LanguageModelObjective(train, train[:2], 32, 512, music.BOS, music.EOS, music.PAD)
    cfg = music_model_config("relative", max_relative_distance=32, d_model=32, n_heads=2, d_ff=64, n_layers=1)
    train_cfg = TrainConfig.from_dict({"max_steps": 6, "warmup": 2, "valid_every": 3, "save_every": 3,
                                       "log_every": 1, "label_smoothing": 0.0, "valid_bleu_sentences": 0})
    Trainer(run, cfg, train_cfg, task, D.init_world("cpu")).fit()
    return run.path


def test_generate_writes_midi_and_piano_rolls_reproducibly(music_run, tmp_path):
    out = aiayn("generate", "--model", str(music_run), "--samples", "2", "--length", "24", "--seed", "5",
                "--out", str(tmp_path / "a")).stdout.decode()
    assert out.count(".mid") == 2
    aiayn("generate", "--model", str(music_run), "--samples", "2", "--length", "24", "--seed", "5",
          "--out", str(tmp_path / "b"))
    for name in ("sample-seed5-1", "sample-seed5-2"):
        a, b = tmp_path / "a" / f"{name}.mid", tmp_path / "b" / f"{name}.mid"
        assert music.read_primer(a) == music.read_primer(b)  # same seed, same music
        assert (tmp_path / "a" / f"{name}.png").stat().st_size > 10_000


def test_generate_continues_a_primer_file(music_run, tmp_path):
    primer = music.write_midi(scale_chorale(8, 99), tmp_path / "primer.mid")
    aiayn("generate", "--model", str(music_run), "--primer", str(primer), "--samples", "1", "--length", "16",
          "--out", str(tmp_path / "c"))
    piece = music.read_primer(tmp_path / "c" / "primer-seed1-1.mid")
    assert piece[:32] == music.read_primer(primer)  # the primer's 8 sixteenths come back first


def test_generate_under_the_no_parallels_rule(music_run, tmp_path):
    from aiayn.metrics import chorales

    def parallels(folder: str, *rule: str) -> list[int]:
        aiayn("generate", "--model", str(music_run), "--samples", "3", "--length", "200", "--temperature", "2.0",
              *rule, "--out", str(tmp_path / folder))
        pieces = [music.read_primer(tmp_path / folder / f"sample-seed1-{i}.mid") for i in (1, 2, 3)]
        return [sum(chorales.parallel_counts(chorales.pitches(p)).values()) for p in pieces]

    assert sum(parallels("free")) > 0 and parallels("ruled", "--rule", "no-parallels") == [0, 0, 0]


@pytest.mark.parametrize("args, message", [
    (["--primer", "{tmp}/nothing.mid"], "nothing.mid"),
    (["--primer", "{tmp}/garbage.mid"], "garbage.mid"),
    (["--primer", "test:x"], "the test split has chorales"),
])  # option ranges (--length 0, --top-p 1.5 ...) are refused by the parser: tests/app/test_cli_errors.py
def test_generate_refuses_bad_input_in_one_line(music_run, chorale_cache, tmp_path, args, message):
    (tmp_path / "garbage.mid").write_bytes(b"not a midi file at all")
    args = [a.replace("{tmp}", str(tmp_path)) for a in args]
    proc = aiayn("generate", "--model", str(music_run), "--out", str(tmp_path / "o"), *args, check=False,
                 AIAYN_CACHE=str(chorale_cache))
    err = proc.stderr.decode()
    assert proc.returncode == 1 and "Traceback" not in err and message in err, err
    assert len([line for line in err.splitlines() if line.strip()]) == 1, err
    assert not (tmp_path / "o").exists()  # nothing is created before the inputs are checked


def test_generate_refuses_a_translation_model(trained, tmp_path):
    proc = aiayn("generate", "--model", str(trained), "--out", str(tmp_path), check=False)
    assert proc.returncode == 1 and "`aiayn generate` takes music, digits or superres models" in proc.stderr.decode()
