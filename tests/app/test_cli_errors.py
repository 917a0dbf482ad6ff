"""Bad input through the real command: one clear line on stderr, exit 1, no traceback, nothing lost."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from conftest import MICRO, aiayn, snapshot, train_args, write_tsv


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


# Every command, bad input by bad input (in-process: the same main() as the console script) ---------
@pytest.fixture(scope="module")
def inputs(tmp_path_factory, trained, data) -> dict[str, str]:
    """Files the bad commands below point at, made once: copies of a run, damaged in different ways."""
    root = tmp_path_factory.mktemp("inputs")
    run = root / "run"
    shutil.copytree(trained, run)
    weights_only = root / "weights-only"
    shutil.copytree(trained, weights_only)
    shutil.copy(trained / "best.safetensors", weights_only / "state.safetensors")
    mixed = root / "mixed"
    shutil.copytree(trained, mixed)
    aiayn(*train_args(data, root / "wide", "--max-steps", "1", "--set", "model.d_ff=80"))
    shutil.copy(root / "wide/checkpoints/step-00000001.safetensors", mixed / "checkpoints/step-00000009.safetensors")
    (run / "hyp.valid.beam1.es").unlink(missing_ok=True)  # evaluate's test may have written it
    (run / "hyp.valid.beam1.es").mkdir()  # evaluate cannot write its hypotheses there
    (root / "a-file").write_text("not a folder\n")
    (root / "lines.txt").write_text("Amen.\n")
    files = {"syntax.yaml": "model: {d_model: 32\ntrain: {}\n", "syntax.toml": "[model]\nd_model = = 3\n",
             "type.yaml": "preset: tiny\nmodel:\n  d_model: big\n", "type.toml": "[train]\nwarmup = 'soon'\n",
             "section.yaml": "model: 5\n", "heads.yaml": "model: {n_heads: 0}\n",
             "change.yaml": MICRO.replace("warmup: 20", "warmup: 40"), "model.yaml": MICRO.replace("d_ff: 64", "d_ff: 96")}
    for name, text in files.items():
        (root / name).write_text(text)
    return {"root": str(root), "run": str(run), "weights_only": str(weights_only), "mixed": str(mixed),
            "train": str(data / "train.tsv.gz"), "valid": str(data / "valid.tsv.gz"), "micro": str(data / "micro.yaml"),
            "new": str(root / "new-run")}


TRAIN = "train --train {train} --valid {valid} --config {micro} --out {new} --max-steps 2"
RESUME = "train --train {train} --valid {valid} --config {micro} --out {run} --resume --max-steps 20"
TRANSLATE = "translate --model {run} --input {root}/lines.txt"
BAD = [  # (command line, exit status, what the one line must say)
    # train: options (exit 2, from the option's own range) ...
    (TRAIN + " --seed -1", 2, "argument --seed: must be an integer >= 0 and <= 4294967295, not '-1'"),
    (TRAIN + " --max-time 0", 2, "argument --max-time: '0' is not a duration above 0"),
    (TRAIN + " --max-time soon", 2, "argument --max-time: 'soon' is not a duration above 0 such as 90s, 10m or 2h"),
    (TRAIN + " --max-tokens many", 2, "argument --max-tokens: must be an integer >= 1, not 'many'"),
    (TRAIN + " --lr-scale nan", 2, "argument --lr-scale: must be a number > 0, not 'nan'"),
    (TRAIN + " --warmup 0", 2, "argument --warmup: must be an integer >= 1"),
    (TRAIN + " --device gpu", 2, "argument --device: unknown device 'gpu'; use cpu, cuda or cuda:N"),
    (TRAIN + " --device cuda:99", 2, "device 'cuda:99'"),
    (TRAIN + " --set model.dropout", 2, "is not model.FIELD=VALUE, train.FIELD=VALUE or data.NAME=VALUE"),
    (TRAIN + " --preset huge", 2, "argument --preset: invalid choice: 'huge'"),
    # ... config values (exit 1, naming where the value came from) ...
    (TRAIN + " --set model.n_heads=0", 1, "--set model.n_heads: n_heads must be an integer >= 1 and <= 1024, not 0"),
    (TRAIN + " --set model.dropout=1.5", 1, "dropout must be a number >= 0 and < 1, not 1.5"),
    (TRAIN + " --set train.max_tokens=abc", 1, "--set train.max_tokens: train.max_tokens must be an integer >= 1"),
    (TRAIN + " --set model.d_model=33", 1, "d_model=33 is not divisible by n_heads=2"),
    (TRAIN + " --set train.adam_betas=[0.9]", 1, "train.adam_betas must be two numbers >= 0 and < 1"),
    (TRAIN + " --config {root}/heads.yaml", 1, "heads.yaml, line 1: n_heads must be an integer >= 1"),
    (TRAIN + " --config {root}/syntax.yaml", 1, "syntax.yaml, line 2: YAML syntax error"),
    (TRAIN + " --config {root}/syntax.toml", 1, "syntax.toml: TOML syntax error: Invalid value (at line 2, column 11)"),
    (TRAIN + " --config {root}/type.yaml", 1, "type.yaml, line 3: d_model must be an integer >= 1 and <= 65536, not 'big'"),
    (TRAIN + " --config {root}/type.toml", 1, "type.toml, line 2: train.warmup must be an integer >= 1, not 'soon'"),
    (TRAIN + " --config {root}/section.yaml", 1, "section.yaml, line 1: model must be a mapping of field: value"),
    (TRAIN + " --config {root}/none.yaml", 1, "no such config file"),
    # ... where it writes and what it reads
    ("train --train {train} --config {micro} --out {root}/a-file/run", 1, "cannot create run directory"),
    (TRAIN + " --vocab {root}/missing.model", 1, "no such file"),
    # resume: the same run on the same data, or a refusal naming what differs
    (RESUME.replace("{run}", "{new}"), 1, "nothing to resume"),
    (RESUME + " --train {valid}", 1, "--train {valid} differs from the run's {train}; --resume continues on the run's data"),
    (RESUME + " --valid {train}", 1, "--valid {train} differs from the run's {valid}"),
    (RESUME + " --src es --tgt en", 1, "--src es differs from the run's en"),
    (RESUME + " --set train.warmup=5", 1, "cannot change train.warmup when resuming (the run has 20)"),
    (RESUME.replace("{micro}", "{root}/change.yaml"), 1, "cannot change train.warmup when resuming"),
    (RESUME.replace("{micro}", "{root}/model.yaml"), 1, "different model config: model.d_ff is 64, not 96"),
    (RESUME + " --preset base", 1, "was trained with preset tiny, not base"),
    (RESUME.replace("{run}", "{weights_only}"), 1, "holds weights only, not a training state"),
    # translate
    (TRANSLATE + " --beam 0", 2, "argument --beam: must be an integer >= 1 and <= 1024, not '0'"),
    (TRANSLATE + " --alpha nan", 2, "argument --alpha: must be a number >= 0 and <= 10, not 'nan'"),
    (TRANSLATE + " --max-len-b -1", 2, "argument --max-len-b: must be an integer >= 0"),
    (TRANSLATE + " --max-len-a -0.5", 2, "argument --max-len-a: must be a number >= 0"),
    (TRANSLATE + " --min-len -3", 2, "argument --min-len: must be an integer >= 0"),
    (TRANSLATE + " --max-tokens 1e3", 2, "argument --max-tokens: must be an integer >= 1, not '1e3'"),
    (TRANSLATE + " --nbest 5", 1, "nbest (5) cannot exceed the beam size (4): raise the beam or lower nbest"),
    (TRANSLATE + " --max-len-a 0 --max-len-b 0", 1, "allows no output"),
    (TRANSLATE + " --device tpu", 2, "unknown device 'tpu'"),
    (TRANSLATE + " --dtype float16", 2, "argument --dtype: invalid choice"),
    ("translate --model {root}/nothing --input {root}/lines.txt", 1, "no model at"),
    ("translate --model {run} --input {root}/missing.txt", 1, "no such file"),
    # evaluate: refuses before decoding when it could not write the hypotheses
    ("evaluate --model {run} --test {valid} --beam 1", 1, "hyp.valid.beam1.es: it is a folder"),
    ("evaluate --model {run} --test {root}/missing.tsv", 1, "no such file"),
    ("evaluate --model {run} --test {root}/lines.txt", 1, "is one file; a translation test set is a .tsv"),
    ("evaluate --model {run} --beam -2", 2, "argument --beam: must be an integer >= 1"),
    # average
    ("average --model {run} --last 0", 2, "argument --last: must be an integer >= 1, not '0'"),
    ("average --model {run} --last -1", 2, "argument --last: must be an integer >= 1, not '-1'"),
    ("average --model {run} --last 9", 1, "has 3 step checkpoints; cannot average the last 9"),
    ("average --model {run} --last 1000", 1, "average at most --last 3, or train longer"),
    ("average --model {root}/nothing --last 2", 1, "no run at"),
    ("average --model {mixed} --last 2", 1, "holds different tensors from"),
    # attention
    ("attention --model {run} --text Amen. --layer 7 --out {root}/a.png", 1, "--layer 7 is out of range: this model has 1"),
    ("attention --model {run} --text Amen. --layer 0 --out {root}/a.png", 1, "choose 1 to 1, or -1 for the last"),
    ("attention --model {run} --text Amen. --out {root}/missing/a.png", 1, "folder {root}/missing does not exist"),
    ("attention --model {run} --text Amen. --kind self", 2, "argument --kind: invalid choice"),
    ("attention --model {run} --text Amen. --beam 0", 2, "argument --beam: must be an integer >= 1"),
    # generate (its options; its model and primers are the music tests')
    ("generate --model {run} --samples 0", 2, "argument --samples: must be an integer >= 1 and <= 1024, not '0'"),
    ("generate --model {run} --length -5", 2, "argument --length: must be an integer >= 1"),
    ("generate --model {run} --temperature 0", 2, "argument --temperature: must be a number > 0 and <= 100"),
    ("generate --model {run} --top-p 1.5", 2, "argument --top-p: must be a number > 0 and <= 1, not '1.5'"),
    ("generate --model {run} --top-k -1", 2, "argument --top-k: must be an integer >= 0"),
    ("generate --model {run} --seed -1", 2, "argument --seed: must be an integer >= 0"),
    ("generate --model {run} --out {root}/samples", 1, "holds a translation model; `aiayn generate` takes music, "
     "digits or superres models: use aiayn translate / aiayn evaluate / aiayn attention / aiayn serve / aiayn export"),
]


@pytest.mark.parametrize("line, status, message", BAD, ids=[f"{n}:{c.split()[0]}" for n, (c, _, _) in enumerate(BAD)])
def test_bad_input_is_one_line_before_any_work_and_changes_nothing(inputs, trained, data, line, status, message,
                                                                   capsys, monkeypatch):
    from aiayn.app.cli import main
    from aiayn.inference.translator import Translator
    from aiayn.training.trainer import Trainer

    def no_work(*args, **kwargs):
        raise AssertionError("the error should have been found before any decoding or training")

    monkeypatch.setattr(Translator, "search", no_work)
    monkeypatch.setattr(Trainer, "fit", no_work)
    before = [snapshot(Path(inputs["root"])), snapshot(trained), snapshot(data)]
    assert main(line.format(**inputs).split()) == status
    out, err = capsys.readouterr()
    lines = [text for text in err.splitlines() if text.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: ") and "Traceback" not in err, err
    assert message.format(**inputs) in lines[0]
    assert out == ""
    assert [snapshot(Path(inputs["root"])), snapshot(trained), snapshot(data)] == before
    assert not Path(inputs["new"]).exists()


@pytest.mark.parametrize("bug", [ValueError("a bug"), KeyError("a bug"), OSError("a bug without a file")])
def test_a_bug_keeps_its_traceback(trained, monkeypatch, bug):
    """Only user errors become one line: anything else in aiayn is a bug and must show where it is."""
    from aiayn import runs
    from aiayn.app.cli import main

    def buggy(*args, **kwargs):
        raise bug

    monkeypatch.setattr(runs, "average", buggy)
    with pytest.raises(type(bug)):
        main(["average", "--model", str(trained), "--last", "1"])


def test_attention_of_nothing_is_refused(trained, tmp_path, capsys):
    """An empty --text has no translation to draw (the server refuses the same input)."""
    from aiayn.app.cli import main

    assert main(["attention", "--model", str(trained), "--text", " ", "--out", str(tmp_path / "a.png")]) == 1
    assert "--text is empty" in capsys.readouterr().err and not (tmp_path / "a.png").exists()
