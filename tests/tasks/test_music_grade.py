"""`aiayn grade` (issue 29) on the made-up chorale cache: a (untrained) voices-preset model grades its
fresh samples next to Bach's, and the folder of MIDI it wrote grades the same way; bad input is one
line. The grades run in this process (argparse from the task's own parser); the command line once."""

from __future__ import annotations

import argparse
import json

import pytest
import torch
from conftest import aiayn

from aiayn import LanguageModel
from aiayn.errors import UserError
from aiayn.io.checkpoint import save_weights
from aiayn.tasks import get


@pytest.fixture
def env(chorale_cache, monkeypatch):
    monkeypatch.setenv("AIAYN_CACHE", str(chorale_cache))
    return {"AIAYN_CACHE": str(chorale_cache)}


def grade(*argv: str) -> str:
    """`aiayn grade ARGV` in this process: its parser and run function, as the command line wires them."""
    add, run = get("music").commands["grade"]
    parser = argparse.ArgumentParser(prog="aiayn")
    add(parser.add_subparsers(dest="command"))
    return run(parser.parse_args(["grade", *argv]))


def test_grade_a_models_samples_then_their_midi(env, tmp_path):
    task = get("music")
    config = task.model_config(**task.presets["voices"], d_model=32, n_heads=2, d_ff=64, n_layers=1)
    assert (config.voice_embedding, config.metre_embedding) == (4, 16)
    torch.manual_seed(0)  # the weights, hence the samples, do not depend on the tests run before this one
    model = tmp_path / "voices.safetensors"  # untrained: the grade, not the music, is under test
    save_weights(LanguageModel(config), config, model, task="music")
    out = grade("--model", str(model), "--samples", "3", "--length", "64", "--out", str(tmp_path / "s"),
                "--json", str(tmp_path / "grade.json"))
    assert "| parallel 5ths / 100 quarters |" in out and "Bach (" in out and "| ended by itself |" in out
    saved = json.loads((tmp_path / "grade.json").read_text())
    label = next(k for k in saved["table"] if k.startswith(str(model)))
    assert saved["table"][label]["pieces"] == 3 and len(saved["samples"][label]) == 3
    grade(str(tmp_path / "s"), str(tmp_path / "grade.json"), "--json", str(tmp_path / "again.json"))
    again, folder = json.loads((tmp_path / "again.json").read_text()), str(tmp_path / "s")
    assert again["table"][folder]["pieces"] == 3 and "sample-seed1-1.mid" in again["per_piece"][folder]
    # the MIDI and the tokens saved in the first --json grade alike
    assert again["per_piece"][folder]["sample-seed1-1.mid"] == again["per_piece"][label]["sample 1"]


@pytest.mark.parametrize("make, expected", [
    (lambda d: (d / "x.txt").write_text("la"), "is not a score file"),
    (lambda d: (d / "empty").mkdir(), "holds no MIDI"),
    (lambda d: (d / "bad.mid").write_bytes(b"MThd nonsense"), "music21 cannot parse it"),
])
def test_bad_input_is_one_line(env, tmp_path, make, expected):
    make(tmp_path)
    with pytest.raises(UserError, match=expected) as e:
        grade(str(next(tmp_path.iterdir())))
    assert "\n" not in str(e.value)


def test_the_command_line_says_what_to_grade(env):
    proc = aiayn("grade", check=False, **env)
    err = proc.stderr.decode().strip()
    assert proc.returncode != 0 and "nothing to grade" in err and len(err.splitlines()) == 1, err


def test_continuations_graded_beside_bachs_own_with_a_column_per_setting(env, tmp_path):
    """--primer valid: the first valid chorales' opening bar (64 tokens; 66 asked, cut to whole sixteenths)
    continued by the model and only what it wrote graded; Bach's own continuations of the same primers
    beside them, up to --length; a column per sampling setting, the same seed in each."""
    from aiayn.tasks.music import chorale_sequences

    task = get("music")
    config = task.model_config(**task.presets["voices"], d_model=32, n_heads=2, d_ff=64, n_layers=1)
    model = tmp_path / "voices.safetensors"
    save_weights(LanguageModel(config), config, model, task="music")
    grade("--model", str(model), "--primer", "valid", "--primer-tokens", "66", "--length", "192", "--samples", "2",
          "--temperature", "0.5", "2.0", "--top-p", "1.0", "--out", str(tmp_path / "s"), "--json", str(tmp_path / "g.json"))
    saved = json.loads((tmp_path / "g.json").read_text())
    columns = list(saved["samples"])
    assert len(columns) == 2 and "T 0.5" in columns[0] and "T 2.0" in columns[1]
    assert saved["samples"][columns[0]] != saved["samples"][columns[1]]
    for label in columns:  # what follows the primer only: at most --length less the primer
        assert [len(p) <= 192 - 64 for p in saved["samples"][label]] == [True, True]
    _, seqs = chorale_sequences("valid")
    expected = [(min(len(s), 192) - 64) // 4 for s in seqs if len(s) > 64][:2]
    bach = next(k for k in saved["per_piece"] if k.startswith("Bach's own continuations"))
    assert [row["sixteenths"] for row in saved["per_piece"][bach].values()] == expected
    assert sorted(p.parent.name for p in (tmp_path / "s").rglob("*.mid")) == ["T0.5-p1.0"] * 2 + ["T2.0-p1.0"] * 2


def test_the_no_parallels_rule_leaves_none_in_the_samples(env, tmp_path):
    """--rule none no-parallels: two columns from the same seed; every sample drawn under the rule has no
    parallel 5th or 8ve by the grade's own count, while the same untrained model writes them without it."""
    from aiayn.metrics import chorales

    task = get("music")
    config = task.model_config(**task.presets["voices"], d_model=32, n_heads=2, d_ff=64, n_layers=1)
    torch.manual_seed(0)
    model = tmp_path / "voices.safetensors"
    save_weights(LanguageModel(config), config, model, task="music")
    grade("--model", str(model), "--samples", "6", "--length", "400", "--temperature", "0.5", "--rule", "none",
          "no-parallels", "--json", str(tmp_path / "g.json"))
    saved = json.loads((tmp_path / "g.json").read_text())["samples"]
    free, ruled = saved.values()
    counts = [[sum(chorales.parallel_counts(chorales.pitches(p[: len(p) - len(p) % 4])).values()) for p in pieces]
              for pieces in (free, ruled)]
    assert sum(counts[0]) > 0 and counts[1] == [0] * 6
    assert sum(map(len, ruled)) > 6 * 100  # the rule left music to write: the samples are not cut short


def test_nothing_left_to_write_is_one_line(env, tmp_path):
    with pytest.raises(UserError, match="leaves nothing to write") as e:
        grade("--model", "x.safetensors", "--primer", "valid", "--primer-tokens", "256", "--length", "256")
    assert "\n" not in str(e.value)
