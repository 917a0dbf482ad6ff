"""aiayn export: the Hugging Face Marian and CTranslate2 models compute aiayn's function.

Checked: teacher-forced logits (HF) and log-probabilities (CTranslate2) against aiayn's, for the
paper's model and every variant a target expresses; identical greedy outputs; beam 4 identical at
α = 0 (with α > 0 the scores differ by design: GNMT's ((5+|Y|)/6)^α against |Y|^α); the tokenizer
files give aiayn's ids offline with no aiayn importable; refusals name their field.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import warnings
from pathlib import Path
from types import SimpleNamespace

import pytest
import torch
from conftest import aiayn, corpus_slice
from synthetic import copy_reverse_batch

from aiayn import Transformer, TransformerConfig, beam_search, build_optimizer, greedy_search, label_smoothed_cross_entropy
from aiayn.data import Tokenizer, pad_right
from aiayn.decoding.common import start
from aiayn.decoding.options import DecodeOptions
from aiayn.errors import UsageError
from aiayn.export import export
from aiayn.export.common import Exportable, require
from aiayn.export.ctranslate2 import CTranslate2Translator, check_ctranslate2, export_ctranslate2, output_limits
from aiayn.export.marian import aiayn_length_limit, check_marian, sinusoid_permutation, to_marian
from aiayn.inference.translator import Translator
from aiayn.io.checkpoint import save_weights
from aiayn.model import LanguageModel
from aiayn.model.config import LanguageModelConfig, RNNSearchConfig
from aiayn.model.rnnsearch import RNNSearch

transformers = pytest.importorskip("transformers")
ctranslate2 = pytest.importorskip("ctranslate2")
PAD, BOS, EOS = 0, 1, 2
SENTENCES = corpus_slice("valid", 12)


@pytest.fixture(autouse=True, scope="module")
def quiet_transformers():
    """No loading bars or generation warnings in this module's output; restored afterwards."""
    hf_logging = transformers.utils.logging
    verbosity, bars = hf_logging.get_verbosity(), hf_logging.is_progress_bar_enabled()
    hf_logging.set_verbosity_error()
    hf_logging.disable_progress_bar()
    yield
    hf_logging.set_verbosity(verbosity)
    if bars:
        hf_logging.enable_progress_bar()


def tiny_config(vocab: int, **overrides) -> TransformerConfig:
    return TransformerConfig.tiny(src_vocab_size=vocab, d_model=32, n_heads=2, d_ff=64, n_encoder_layers=2,
                                  n_decoder_layers=2, dropout=0.0, max_positions=64, **overrides)


def random_model(vocab: int, seed: int = 0, **overrides) -> Transformer:
    """Random weights, with random LayerNorm gains and biases too (their init is 1 and 0)."""
    torch.manual_seed(seed)
    model = Transformer(tiny_config(vocab, **overrides)).eval()
    with torch.no_grad():
        for module in model.modules():
            if isinstance(module, torch.nn.LayerNorm):
                module.weight.uniform_(0.5, 1.5)
                module.bias.normal_(0.0, 0.1)
    return model


@pytest.fixture(scope="module")
def tokenizer(tmp_path_factory) -> Tokenizer:
    rows = corpus_slice("train", 300)
    path = tmp_path_factory.mktemp("spm") / "spm.model"
    return Tokenizer.train([en for en, _ in rows] + [es for _, es in rows], path, vocab_size=300)


@pytest.fixture(scope="module")
def copy_run(tokenizer, tmp_path_factory) -> Path:
    """A run folder whose model learnt (partly: 100 steps) copy and reverse: outputs of varied
    lengths that end with EOS, as beam search needs, in seconds."""
    torch.manual_seed(0)
    model = Transformer(tiny_config(tokenizer.vocab_size))
    optimizer, scheduler = build_optimizer(model, model.config.d_model, warmup=50, lr_scale=0.5)
    rng = torch.Generator().manual_seed(0)
    for _ in range(100):
        src, tgt = copy_reverse_batch(32, 8, 6, rng)
        tgt_in = torch.cat([torch.full((32, 1), BOS), tgt[:, :-1]], dim=1)
        out = label_smoothed_cross_entropy(model(src, tgt_in), tgt, epsilon=0.1, pad_id=PAD)
        optimizer.zero_grad()
        (out.loss / out.n_tokens).backward()
        optimizer.step()
        scheduler.step()
    run = tmp_path_factory.mktemp("copy-run")
    tokenizer.save(run / "spm.model")
    save_weights(model, model.config, run / "best.safetensors", tokenizer_sha256=tokenizer.fingerprint())
    return run


@pytest.fixture(scope="module")
def copy_exports(copy_run, tmp_path_factory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("exports")
    return {"hf": export(copy_run, "hf", root / "hf"), "ct2": export(copy_run, "ctranslate2", root / "ct2")}


def copy_sources(n: int = 64, seed: int = 5) -> torch.Tensor:
    return copy_reverse_batch(n, 8, 6, torch.Generator().manual_seed(seed))[0]


def real_ids(tokenizer: Tokenizer, side: int) -> list[list[int]]:
    """The sentences' ids, cut to 40 tokens (a vocabulary of 300 cuts words small; 64 positions)."""
    return [ids[:40] for ids in tokenizer.encode([pair[side] for pair in SENTENCES])]


def real_batch(tokenizer: Tokenizer) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """Source ids + EOS, BOS + target ids, and where the decoder input is real (not padding)."""
    src = pad_right([ids + [EOS] for ids in real_ids(tokenizer, 0)], PAD)
    tgt_in = pad_right([[BOS] + ids for ids in real_ids(tokenizer, 1)], PAD)
    return src, tgt_in, tgt_in != PAD


@torch.no_grad()
def marian_logits(marian, src: torch.Tensor, tgt_in: torch.Tensor) -> torch.Tensor:
    return marian(input_ids=src, attention_mask=(src != PAD).long(), decoder_input_ids=tgt_in).logits


def set_layer_norm_eps(marian, eps: float) -> None:
    for module in marian.modules():
        if isinstance(module, torch.nn.LayerNorm):
            module.eps = eps


# Hugging Face Marian: the same function --------------------------------------------------------------------
@pytest.mark.parametrize("overrides", [{}, {"activation": "gelu", "attention_bias": False, "scale_embeddings": False}],
                         ids=["paper", "gelu-nobias-unscaled"])
def test_marian_teacher_forced_logits_equal_aiayn(tokenizer, overrides):
    model = random_model(tokenizer.vocab_size, **overrides)
    marian = to_marian(model)
    src, tgt_in, real = real_batch(tokenizer)
    with torch.no_grad():
        ours = model(src, tgt_in)
    assert ours.abs().max() > 1  # logits worth comparing
    assert (marian_logits(marian, src, tgt_in) - ours).abs()[real].max() < 1e-4  # Marian's LayerNorm ε 1e-5
    set_layer_norm_eps(marian, model.config.layer_norm_eps)
    assert (marian_logits(marian, src, tgt_in) - ours).abs()[real].max() < 1e-5  # the rest: float32 rounding


def test_marian_positions_are_aiayn_sinusoids_permuted(copy_run, copy_exports):
    """Marian regenerates its [sin | cos] table at load; the d_model permutation maps ours onto it."""
    model = Translator.load(copy_run).model
    marian = transformers.MarianMTModel.from_pretrained(copy_exports["hf"])
    table = model.positions.table[: model.config.max_positions]
    perm = sinusoid_permutation(model.config.d_model)
    assert torch.allclose(marian.model.encoder.embed_positions.weight, table[:, perm], atol=1e-6)
    assert torch.allclose(marian.model.decoder.embed_positions.weight, table[:, perm], atol=1e-6)
    assert sorted(perm.tolist()) == list(range(model.config.d_model))


def test_hf_folder_loads_offline_without_aiayn(tokenizer, copy_run, copy_exports):
    """A fresh Python that cannot import aiayn: MarianTokenizer and AutoTokenizer give aiayn's ids
    (+ EOS), decode them back, and generate (greedy) matches aiayn's greedy search."""
    lines = [en for en, _ in SENTENCES] + ["An unseen character: ☃, and <unk>-like text."]
    src = copy_sources(16)
    script = """
import json, sys
sys.modules["aiayn"] = None  # importing aiayn now fails
from transformers import AutoTokenizer, MarianMTModel, MarianTokenizer
import torch
folder, lines, src = sys.argv[1], json.loads(sys.argv[2]), torch.tensor(json.loads(sys.argv[3]))
tok, auto = MarianTokenizer.from_pretrained(folder), AutoTokenizer.from_pretrained(folder)
model = MarianMTModel.from_pretrained(folder).eval()
ids = [tok(line)["input_ids"] for line in lines]
out = model.generate(input_ids=src, attention_mask=(src != 0).long(), num_beams=1, max_new_tokens=20)
default = model.generate(**tok(["God is love.", "Amen."], return_tensors="pt", padding=True))  # beam 4, as configured
print(json.dumps({"ids": ids, "auto_ids": [auto(line)["input_ids"] for line in lines], "auto": type(auto).__name__,
                  "decoded": tok.batch_decode([i[:-1] for i in ids]), "greedy": out.tolist(),
                  "default_shape": list(default.shape)}))
"""
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "PYTHONWARNINGS": "ignore",
           "OMP_NUM_THREADS": "1"}
    proc = subprocess.run([sys.executable, "-c", script, str(copy_exports["hf"]), json.dumps(lines),
                           json.dumps(src.tolist())], capture_output=True, text=True, env=env, timeout=300)
    assert proc.returncode == 0, proc.stderr
    got = json.loads(proc.stdout.strip().splitlines()[-1])
    expected = [ids + [EOS] for ids in tokenizer.encode(lines)]
    assert got["ids"] == expected and got["auto_ids"] == expected and got["auto"] == "MarianTokenizer"
    assert tokenizer.unk_id in expected[-1]  # the unseen character
    assert got["decoded"][:-1] == lines[:-1]  # the text round-trips (unk aside)
    ours = greedy_search(Translator.load(copy_run).model, src, max_len_a=0, max_len_b=20)
    theirs = [[t for t in row[1:] if t not in (PAD, EOS)] for row in got["greedy"]]
    assert theirs == [h.tokens for h in ours]
    assert got["default_shape"][0] == 2


# Greedy and beam outputs: aiayn, HF generate, CTranslate2 -------------------------------------------------------------
def ctranslate2_ids(folder: Path, tokenizer: Tokenizer, src: torch.Tensor, **options) -> list[list[list[int]]]:
    """CTranslate2's hypotheses (ids) and scores for (B, S) source ids (EOS and padding dropped: it adds EOS)."""
    pieces = tokenizer.pieces(range(tokenizer.vocab_size))
    index = {piece: i for i, piece in enumerate(pieces)}
    sources = [[pieces[t] for t in row.tolist() if t not in (PAD, EOS)] for row in src]
    translator = ctranslate2.Translator(str(folder), intra_threads=1)
    results = translator.translate_batch(sources, min_decoding_length=0, return_scores=True,
                                         suppress_sequences=[[pieces[PAD]], [pieces[BOS]]], **options)
    return [([[index[p] for p in h] for h in r.hypotheses], r.scores) for r in results]


def hf_ids(folder: Path, src: torch.Tensor, **options):
    marian = transformers.MarianMTModel.from_pretrained(folder).eval()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        out = marian.generate(input_ids=src, attention_mask=(src != PAD).long(), output_scores=True,
                              return_dict_in_generate=True, **options)
    rows = [[t for t in row[1:] if t not in (PAD, EOS)] for row in out.sequences.tolist()]
    return rows, out.get("sequences_scores")


@pytest.mark.parametrize("limit", [20, 4], ids=["natural-eos", "at-the-limit"])
def test_greedy_outputs_identical(tokenizer, copy_run, copy_exports, limit):
    """aiayn's limit L counts the EOS and forces it at step L: HF's max_new_tokens = L with
    forced_eos_token_id (in the exported config), CTranslate2's max_decoding_length = L - 1."""
    model, src = Translator.load(copy_run).model, copy_sources()
    ours = [h.tokens for h in greedy_search(model, src, max_len_a=0, max_len_b=limit)]
    assert len({len(t) for t in ours}) > 2  # outputs of varied lengths
    if limit == 4:
        assert max(map(len, ours)) == limit - 1  # some reach the limit
    hf, _ = hf_ids(copy_exports["hf"], src, num_beams=1, max_new_tokens=limit)
    ct2 = ctranslate2_ids(copy_exports["ct2"], tokenizer, src, beam_size=1, max_decoding_length=limit - 1)
    assert hf == ours
    assert [h[0][0] for h in ct2] == ours


def test_beam_4_identical_at_alpha_0(tokenizer, copy_run, copy_exports):
    """With α = 0 the three rank by log-probability: the same hypotheses and scores. (HF needs
    early_stopping=True, which the exported generation config sets: stop at 4 finished, as aiayn.)"""
    model, src = Translator.load(copy_run).model, copy_sources()
    ours = beam_search(model, src, beam_size=4, alpha=0.0, max_len_a=0, max_len_b=20, nbest=4)
    assert max(len(h.tokens) for hyps in ours for h in hyps) < 19  # no hypothesis reached the limit
    hf, hf_scores = hf_ids(copy_exports["hf"], src, num_beams=4, length_penalty=0.0, max_new_tokens=20)
    ct2 = ctranslate2_ids(copy_exports["ct2"], tokenizer, src, beam_size=4, length_penalty=0.0,
                          max_decoding_length=19)
    assert hf == [hyps[0].tokens for hyps in ours]
    assert [h[0][0] for h in ct2] == [hyps[0].tokens for hyps in ours]
    ours_scores = torch.tensor([hyps[0].score for hyps in ours])
    assert torch.allclose(hf_scores, ours_scores, atol=1e-4)
    # CTranslate2 renormalises the softmax over the tokens left after suppressing pad and BOS; aiayn
    # and HF mask them after it. The scores differ by that (small) mass, never in sign or much.
    assert torch.allclose(torch.tensor([h[1][0] for h in ct2]), ours_scores, atol=0.05)


def test_beam_at_the_limit(tokenizer, copy_run, copy_exports):
    """Where beams reach aiayn's limit L (counting the EOS), at α = 0. aiayn ends them with EOS at its real
    log-probability. Plain HF (the exported forced_eos_token_id: EOS free) and plain CTranslate2 (no EOS)
    agree with each other and not with aiayn, only on rows whose best beam reached the limit: the engines
    cannot be told otherwise. HF with ``aiayn_length_limit``'s arguments, and aiayn's CTranslate2 runner
    (which scores the EOS of every cut beam), rank exactly as aiayn."""
    limit = 6
    model, src = Translator.load(copy_run).model, copy_sources()
    ours = beam_search(model, src, beam_size=4, alpha=0.0, max_len_a=0, max_len_b=limit, nbest=4)
    best = [hyps[0].tokens for hyps in ours]
    hf_plain, hf_plain_scores = hf_ids(copy_exports["hf"], src, num_beams=4, length_penalty=0.0, max_new_tokens=limit)
    ct2_plain = ctranslate2_ids(copy_exports["ct2"], tokenizer, src, beam_size=4, length_penalty=0.0,
                                max_decoding_length=limit - 1)
    differ = [i for i in range(len(best)) if hf_plain[i] != best[i]]
    assert len(differ) >= 5  # the difference is real (17 of 64 rows here)
    # Plain HF and plain CTranslate2 agree but on near-ties: CTranslate2's softmax renormalised without pad
    # and BOS lifts every token's log-probability a little (a sentence's by up to 0.05 in
    # test_beam_4_identical_at_alpha_0), so two beams of different lengths within 0.1 may swap (row 37: 0.056).
    engines_differ = [i for i, h in enumerate(ct2_plain) if h[0][0] != hf_plain[i]]
    assert len(engines_differ) <= 2, engines_differ
    gaps = {i: (ct2_plain[i][0][0], ct2_plain[i][1][0], hf_plain[i], float(hf_plain_scores[i])) for i in engines_differ}
    assert all(abs(ct2 - hf) < 0.1 for _, ct2, _, hf in gaps.values()), gaps
    assert all(len(ours[i][0].tokens) == limit - 1 or len(hf_plain[i]) == limit - 1 for i in differ)

    hf, hf_scores = hf_ids(copy_exports["hf"], src, length_penalty=0.0, **aiayn_length_limit(limit, EOS, 4))
    assert hf == best
    assert torch.allclose(hf_scores, torch.tensor([hyps[0].score for hyps in ours]), atol=1e-4)
    lines = [en for en, _ in corpus_slice("valid", 64)]  # the runner takes text: real sentences, cut at 6 tokens
    # (without the EOS scoring, 4 of these 64 best hypotheses differ from aiayn's)
    options = DecodeOptions(beam_size=4, alpha=0.0, max_len_a=0, max_len_b=limit, nbest=4)
    want = Translator.load(copy_run).translate_nbest(lines, options)
    got = CTranslate2Translator(copy_exports["ct2"]).translate_nbest(lines, options)
    assert [hyps[0][0] for hyps in got] == [hyps[0][0] for hyps in want]
    # Scores: CTranslate2 renormalises its softmax after suppressing pad and BOS. (Lower in the n-best
    # the lists may differ: CTranslate2 returns the beam's last 4 hypotheses, aiayn every one it finished.)
    assert torch.allclose(torch.tensor([g[0][1] for g in got]), torch.tensor([w[0][1] for w in want]), atol=0.05)


def test_hf_takes_aiayns_limit_per_sentence(tokenizer, copy_run, copy_exports):
    """aiayn's limit a x |source| + b differs per sentence: ``aiayn_length_limit`` takes one per row."""
    model, src = Translator.load(copy_run).model, copy_sources()
    ours = beam_search(model, src, beam_size=4, alpha=0.0, max_len_a=0.5, max_len_b=1)
    limits = ((0.5 * (src != PAD).sum(dim=1)).floor().long() + 1).tolist()  # |source| with its EOS
    assert len(set(limits)) > 1 and sum(len(h[0].tokens) == n - 1 for h, n in zip(ours, limits)) > 5
    hf, _ = hf_ids(copy_exports["hf"], src, length_penalty=0.0, **aiayn_length_limit(limits, EOS, 4))
    assert hf == [hyps[0].tokens for hyps in ours]


def test_beam_alpha_scores_differ_by_the_length_penalty_only(tokenizer, copy_run, copy_exports):
    """α = 0.6: aiayn divides log P by ((5+|Y|)/6)^α (GNMT), HF and CTranslate2 by |Y|^α (|Y| with
    EOS in both). Where the best hypothesis is the same, undoing each penalty gives one log P."""
    model, src = Translator.load(copy_run).model, copy_sources()
    ours = beam_search(model, src, beam_size=4, alpha=0.6, max_len_a=0, max_len_b=20)
    hf, hf_scores = hf_ids(copy_exports["hf"], src, num_beams=4, length_penalty=0.6, max_new_tokens=20)
    same = [i for i, hyps in enumerate(ours) if hyps[0].tokens == hf[i]]
    assert len(same) >= len(ours) // 2
    for i in same:
        h, n = ours[i][0], len(ours[i][0].tokens) + 1
        assert h.score == pytest.approx(h.log_prob / ((5 + n) / 6) ** 0.6, abs=1e-5)
        assert float(hf_scores[i]) * n**0.6 == pytest.approx(h.log_prob, abs=1e-4)


# CTranslate2: the same function, every variant it expresses ---------------------------------------------------------
CT2_VARIANTS = {
    "paper": {},
    "pre-norm": {"norm_first": True},
    "learned-positions": {"positional": "learned"},
    "no-positions": {"positional": "none"},
    "gelu-nobias-unscaled": {"activation": "gelu", "attention_bias": False, "scale_embeddings": False},
    "untied-separate-embeddings": {"tie_output": False, "share_embeddings": False},
    "eps-1e-2": {"layer_norm_eps": 1e-2},
}


@pytest.mark.parametrize("overrides", CT2_VARIANTS.values(), ids=CT2_VARIANTS.keys())
def test_ctranslate2_teacher_forced_log_probs_equal_aiayn(tokenizer, tmp_path, overrides):
    model = random_model(tokenizer.vocab_size, **overrides)
    folder = export_ctranslate2(Exportable(model, tokenizer, tmp_path / "weights"), tmp_path / "ct2")
    src, tgt_in, _ = real_batch(tokenizer)
    target = real_ids(tokenizer, 1)
    sources = [tokenizer.pieces([t for t in row if t not in (PAD, EOS)]) for row in src.tolist()]
    scored = ctranslate2.Translator(str(folder), intra_threads=1).score_batch(
        sources, [tokenizer.pieces(ids) for ids in target])
    with torch.no_grad():
        log_probs = model(src, tgt_in).log_softmax(dim=-1)
    for i, ids in enumerate(target):  # each target token, then EOS
        ours = log_probs[i, : len(ids) + 1].gather(1, torch.tensor(ids + [EOS])[:, None])[:, 0]
        assert (torch.tensor(scored[i].log_probs) - ours).abs().max() < 1e-4


# The trained run, through the command line --------------------------------------------------------------------------
def test_trained_run_exports_and_translates_the_same(trained, tmp_path):
    """``aiayn export`` of a run trained by ``aiayn train``; logits on real sentences, and
    ``aiayn translate --engine ctranslate2`` prints what ``aiayn translate`` prints (greedy,
    aiayn's default length limits)."""
    env = {"OMP_NUM_THREADS": "1"}
    aiayn("export", "--model", str(trained), "--to", "hf", "--out", str(tmp_path / "hf"), **env)
    out = aiayn("export", "--model", str(trained), "--to", "ctranslate2", "--out", str(tmp_path / "ct2"), **env)
    assert "aiayn translate --engine ctranslate2" in out.stdout.decode()
    translator = Translator.load(trained)
    src, tgt_in, real = real_batch(translator.tokenizer)
    marian = transformers.MarianMTModel.from_pretrained(tmp_path / "hf")
    with torch.no_grad():
        assert (marian_logits(marian, src, tgt_in) - translator.model(src, tgt_in)).abs()[real].max() < 1e-4

    lines = [en for en, _ in SENTENCES] + [""]
    text = "".join(line + "\n" for line in lines)
    ours = aiayn("translate", "--model", str(trained), "--beam", "1", input=text, **env).stdout.decode()
    theirs = aiayn("translate", "--engine", "ctranslate2", "--model", str(tmp_path / "ct2"), "--beam", "1",
                   input=text, **env).stdout.decode()
    assert theirs == ours and len(ours.splitlines()) == len(lines)
    wrong = aiayn("translate", "--model", str(tmp_path / "ct2"), input=text, check=False)
    assert wrong.returncode == 1 and "--engine ctranslate2" in wrong.stderr.decode()


def test_ctranslate2_runner_matches_aiayn_options(copy_run, copy_exports):
    """The runner maps aiayn's options: greedy is identical under every length limit and min_len;
    beam at α = 0 too; nbest lists come back best first."""
    lines = [en for en, _ in SENTENCES]
    ours, theirs = Translator.load(copy_run), CTranslate2Translator(copy_exports["ct2"])
    for options in [DecodeOptions(beam_size=1), DecodeOptions(beam_size=1, max_len_a=0.5, max_len_b=3, min_len=2),
                    DecodeOptions(beam_size=1, max_len_a=0, max_len_b=1), DecodeOptions(beam_size=4, alpha=0.0)]:
        assert theirs.translate(lines, options) == ours.translate(lines, options)
    greedy = DecodeOptions(beam_size=1)
    scores = [[hyps[0][1] for hyps in t.translate_nbest(lines, greedy)] for t in (ours, theirs)]
    assert torch.allclose(torch.tensor(scores[1]), torch.tensor(scores[0]), atol=0.05)  # log P (renormalised)
    nbest = theirs.translate_nbest(lines, DecodeOptions(beam_size=4, nbest=3, alpha=0.0))
    assert all(len(hyps) == 3 and hyps[0][1] >= hyps[1][1] >= hyps[2][1] for hyps in nbest)


@pytest.mark.parametrize("a,b", [(1.0, 50), (0.7, 0), (1.3, 2), (0.5, 1), (0.0, 3), (2.0, 200)])
def test_ctranslate2_runner_stops_each_sentence_where_aiayn_does(a, b):
    """One length limit for both (a x 90 at a = 0.7 is 63 in aiayn's float32, 62 in Python's float64)."""
    lengths = [1, 2, 10, 89, 90, 169, 170, 255]  # with the EOS
    src = pad_right([[5] * (n - 1) + [EOS] for n in lengths], PAD)
    model = SimpleNamespace(config=SimpleNamespace(pad_id=PAD, bos_id=BOS, max_positions=256),
                            start_decoding=lambda *args, **kwargs: None)
    _, _, aiayns = start(model, src, None, 1, a, b, None)
    sources = [["x"] * (n - 1) for n in lengths]  # CTranslate2 appends the EOS
    assert output_limits(sources, DecodeOptions(max_len_a=a, max_len_b=b), 256) == aiayns.tolist()


def test_int8_export_is_smaller_and_runs(copy_run, tmp_path):
    folder = export(copy_run, "ctranslate2", tmp_path / "int8", quantization="int8")
    assert json.loads((folder / "aiayn.json").read_text())["quantization"] == "int8"
    float32 = export(copy_run, "ctranslate2", tmp_path / "float32")
    assert (folder / "model.bin").stat().st_size < 0.6 * (float32 / "model.bin").stat().st_size
    translations = CTranslate2Translator(folder).translate([en for en, _ in SENTENCES[:3]])
    assert len(translations) == 3


# Refusals -------------------------------------------------------------------------------------------------------------
REFUSED = [
    ("hf", {"norm_first": True}, "norm_first"),
    ("hf", {"positional": "learned"}, "positional"),
    ("hf", {"tie_output": False}, "tie_output"),
    ("hf", {"share_embeddings": False}, "share_embeddings"),
    ("hf", {"attention": "relative", "positional": "none"}, "attention"),
    ("hf", {"attention": "local", "local_block": 8, "local_memory": 8}, "attention"),
    ("hf", {"d_k": 8, "d_v": 8}, "d_k"),
    ("ctranslate2", {"attention": "relative", "positional": "none"}, "attention"),
    ("ctranslate2", {"attention": "local", "local_block": 8, "local_memory": 8}, "attention"),
    ("ctranslate2", {"d_k": 8, "d_v": 32}, "d_k"),
    ("ctranslate2", {"share_embeddings": False, "tgt_vocab_size": 200}, "tgt_vocab_size"),
]


@pytest.mark.parametrize("target,overrides,field", REFUSED, ids=[f"{t}-{f}" for t, _, f in REFUSED])
def test_what_a_target_cannot_express_is_refused_naming_the_field(target, overrides, field):
    check = check_marian if target == "hf" else check_ctranslate2
    with pytest.raises(UsageError) as e:
        check(tiny_config(300, **overrides))
    assert f"model.{field}=" in str(e.value) and "\n" not in str(e.value)


@pytest.mark.parametrize("kind", ["lm", "rnnsearch"])
def test_other_architectures_are_refused(tmp_path, kind):
    if kind == "lm":
        model = LanguageModel(LanguageModelConfig(vocab_size=20, d_model=8, n_heads=2, d_ff=16, n_layers=1))
    else:
        model = RNNSearch(RNNSearchConfig(src_vocab_size=20, embed_dim=8, hidden=8, maxout_dim=8))
    save_weights(model, model.config, tmp_path / "model.safetensors")
    proc = aiayn("export", "--model", str(tmp_path / "model.safetensors"), "--to", "ctranslate2", "--out",
                 str(tmp_path / "out"), check=False)
    err = proc.stderr.decode()
    # the gate refuses both in one line: the decoder-only one by its task, RNNsearch by its architecture
    why = "`aiayn export` takes translation models" if kind == "lm" else "architecture='rnnsearch', which no exporter"
    assert proc.returncode == 1 and err.startswith("error: ") and why in err and err.count("\n") == 1
    assert not (tmp_path / "out").exists()


def test_export_writes_a_new_folder_only(copy_run, tmp_path):
    (tmp_path / "taken").mkdir()
    (tmp_path / "taken" / "file").write_text("keep me")
    with pytest.raises(UsageError, match="already exists"):
        export(copy_run, "hf", tmp_path / "taken")
    assert (tmp_path / "taken" / "file").read_text() == "keep me"
    (tmp_path / "empty").mkdir()
    export(copy_run, "ctranslate2", tmp_path / "empty")  # an empty folder is fine
    assert {p.name for p in tmp_path.iterdir()} == {"taken", "empty"}  # no temporary folder left
    with pytest.raises(UsageError, match="--quantization is for --to ctranslate2"):
        export(copy_run, "hf", tmp_path / "q", quantization="int8")


def test_a_missing_package_says_how_to_install_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "ctranslate2", None)
    with pytest.raises(UsageError, match=r"pip install 'aiayn\[export\]'"):
        require("ctranslate2")


def test_every_decoding_option_is_mapped_or_refused_by_the_ctranslate2_engine(copy_exports):
    """The field table: a DecodeOptions field CTranslate2 neither maps nor refuses fails here; a refused one
    (--exact-beam) is one line before any decoding, never silently ignored."""
    import dataclasses

    from aiayn.export import ctranslate2 as ct2

    fields = {f.name for f in dataclasses.fields(DecodeOptions)}
    assert fields == set(ct2.OPTION_MAP) | set(ct2.OPTION_REFUSED) and not set(ct2.OPTION_MAP) & set(ct2.OPTION_REFUSED)
    engine = CTranslate2Translator(copy_exports["ct2"])
    with pytest.raises(UsageError, match="--exact-beam: CTranslate2 always stops"):
        engine.translate_nbest(["hello"], DecodeOptions(early_stopping=False))
    assert engine.translate_nbest(["hello"], DecodeOptions(beam_size=2, max_len_b=3))[0]
