"""`aiayn train --arch rnnsearch|rnnencdec`: the same trainer, data, tokenizer, checkpoints, exact resume,
translate and evaluate as the Transformer."""

from __future__ import annotations

import json
import re
from pathlib import Path

import torch
from conftest import aiayn
from safetensors.torch import load_file

from aiayn.data import read_parallel
from aiayn.decoding.options import DecodeOptions
from aiayn.inference.attention_maps import attention_maps
from aiayn.inference.translator import Translator
from aiayn.io.rundir import RunDir
from aiayn.metrics.bleu import corpus_scores

RNN_MICRO = """\
preset: tiny
model: {embed_dim: 16, hidden: 16, maxout_dim: 8, max_positions: 128}
train: {vocab_size: 300, max_tokens: 600, warmup: 20, log_every: 1, valid_every: 3, save_every: 3,
        keep_last: 10, valid_bleu_sentences: 4}
"""


def rnn_args(data, out, config, *extra):
    return ["train", "--train", str(data / "train.tsv.gz"), "--valid", str(data / "valid.tsv.gz"),
            "--config", str(config), "--out", str(out), *extra]


def test_rnnsearch_trains_resumes_exactly_and_translates(data, tmp_path):
    config = tmp_path / "rnn.yaml"
    config.write_text(RNN_MICRO)
    whole, broken = tmp_path / "whole", tmp_path / "broken"
    aiayn(*rnn_args(data, whole, config, "--arch", "rnnsearch", "--max-steps", "6"))
    aiayn(*rnn_args(data, broken, config, "--arch", "rnnsearch", "--max-steps", "3"))
    aiayn("train", "--out", str(broken), "--resume", "--max-steps", "6")
    a, b = load_file(RunDir(whole).checkpoint(6)), load_file(RunDir(broken).checkpoint(6))
    assert a.keys() == b.keys() and all((a[k] == b[k]).all() for k in a)
    saved = json.loads((whole / "config.json").read_text())
    assert (saved["arch"], saved["architecture"], saved["model"]["attention"]) == ("rnnsearch", "rnnsearch", True)
    out = aiayn("translate", "--model", str(whole), "--beam", "2", input="In the beginning.\n\nGod is love.\n")
    assert len(out.stdout.decode().split("\n")) == 4  # three lines in, three out (the empty one stays empty)
    translator = Translator.load(whole)  # the command's translations are the RNNsearch's own beam search
    expected = translator.translate(["In the beginning.", "", "God is love."], DecodeOptions(beam_size=2))
    assert out.stdout.decode().split("\n")[:3] == expected
    scores = aiayn("evaluate", "--model", str(whole), "--test", str(data / "valid.tsv.gz"), "--beam", "1").stdout
    assert b"BLEU" in scores and b"chrF" in scores
    # The figures are sacreBLEU's on the hypotheses it wrote, against the references.
    text = scores.decode()
    hyps = Path(re.search(r"hypotheses: (.+)", text)[1]).read_text(encoding="utf-8").splitlines()
    reference = corpus_scores(hyps, read_parallel(str(data / "valid.tsv.gz")).tgt)
    assert f"BLEU {reference.bleu:.2f}" in text and f"chrF {reference.chrf:.2f}" in text
    assert hyps == translator.translate(read_parallel(str(data / "valid.tsv.gz")).src, DecodeOptions(beam_size=1))
    png = tmp_path / "alpha.png"
    shown = aiayn("attention", "--model", str(whole), "--text", "God is love.", "--out", str(png))  # the α of the seed's figure
    assert png.read_bytes()[:4] == b"\x89PNG"
    # What it draws is the additive attention α: one layer, one head, each target piece's weights summing to 1.
    translation, layers, queries, keys = attention_maps(translator, "God is love.", "cross")
    assert shown.stdout.decode().splitlines()[0] == translation
    assert len(layers) == 1 and layers[0].shape == (1, len(queries), len(keys))
    assert torch.allclose(layers[0].sum(-1), torch.ones(1, len(queries)), atol=1e-5)


def test_rnnencdec_has_no_attention_and_arch_is_refused_where_it_does_not_apply(data, tmp_path):
    config = tmp_path / "rnn.yaml"
    config.write_text(RNN_MICRO)
    run = tmp_path / "encdec"
    aiayn(*rnn_args(data, run, config, "--arch", "rnnencdec", "--max-steps", "2"))
    assert json.loads((run / "config.json").read_text())["model"]["attention"] is False
    assert not any(name.startswith("model.attention.") for name in load_file(RunDir(run).checkpoint(2)))
    for args, expected in [(["train", "--out", str(run), "--resume", "--arch", "rnnsearch"], "a resumed run keeps"),
                           (["train", "--task", "music", "--arch", "rnnsearch", "--out", str(tmp_path / "m")],
                            "drop --arch rnnsearch for --task music"),
                           (rnn_args(data, tmp_path / "bad", config), "unknown model config key(s): embed_dim"),
                           (["attention", "--model", str(run), "--text", "God is love."], "no attention (RNNencdec)")]:
        proc = aiayn(*args, check=False)
        err = proc.stderr.decode()
        assert proc.returncode == 1 and expected in err and err.count("\n") == 1, err
