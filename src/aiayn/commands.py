"""The verbs behind the command line, as plain functions: train, translate, evaluate, average."""

from __future__ import annotations

import json
import logging
import math
import os
import tempfile
from pathlib import Path
from typing import Any

from . import corpus
from .config import TransformerConfig
from .data import DataError, ParallelCorpus, Tokenizer, read_parallel
from .evaluation import Scores, corpus_scores
from .precision import DTYPES
from .rundir import RunDir
from .training import distributed as D
from .io.checkpoint import CheckpointError, average_checkpoints
from .training.config import TrainConfig, load_config
from .tasks.translation import TranslationTask, encode_corpus
from .training.trainer import Trainer
from .translator import DecodeOptions, Translator

log = logging.getLogger("aiayn")
RESUMABLE = {"max_steps", "max_time", "log_every", "valid_every", "save_every", "keep_last", "valid_bleu_sentences"}


class UsageError(ValueError):
    """A request that cannot be carried out as given (the message says what to do instead)."""


def _write_json(path: Path, data: dict[str, Any]) -> None:
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        json.dump(data, f, indent=2)
    os.replace(tmp, path)


def _data_paths(train: str | None, valid: str | None) -> tuple[str, str | None]:
    if train is None:  # the built-in Bible corpus
        return str(corpus.builtin("train")), valid or str(corpus.builtin("valid"))
    return train, valid


def _vocab_fields(tok: Tokenizer) -> dict[str, int]:
    return dict(src_vocab_size=tok.vocab_size, pad_id=tok.pad_id, bos_id=tok.bos_id, eos_id=tok.eos_id)


def _new_run(run: RunDir, world: D.World, corpus_: ParallelCorpus, preset, config_file, overrides, vocab):
    """Settings from preset < config file < overrides, and a fresh vocabulary."""
    preset, model_fields, train_cfg = load_config(preset, config_file, overrides)
    tokenizer = _make_tokenizer(run, world, corpus_, train_cfg, vocab)
    return preset, TransformerConfig.preset(preset, **{**model_fields, **_vocab_fields(tokenizer)}), train_cfg, tokenizer


def _resumed_run(run: RunDir, saved: dict, preset, config_file, overrides):
    """The saved settings; only limits and intervals may change, and the model must not."""
    tokenizer = Tokenizer.load(run.tokenizer)
    model_cfg = TransformerConfig.from_dict(saved["model"])
    if preset or config_file or any(k.startswith("model.") for k in overrides):
        _, fields, _ = load_config(preset or saved["preset"], config_file, overrides)
        asked = TransformerConfig.preset(preset or saved["preset"], **{**fields, **_vocab_fields(tokenizer)})
        if asked != model_cfg:
            raise CheckpointError(f"{run.state} was built with a different model config; drop the model options to resume")
    changed = {k.split(".", 1)[1]: v for k, v in overrides.items() if k.startswith("train.")}
    if set(changed) - RESUMABLE:
        raise UsageError(f"cannot change {', '.join(sorted(set(changed) - RESUMABLE))} when resuming")
    return saved["preset"], model_cfg, TrainConfig.from_dict({**saved["train"], **changed}), tokenizer


def train(out: str | Path, train: str | None = None, valid: str | None = None, src_lang: str | None = None,
          tgt_lang: str | None = None, preset: str | None = None, config_file: str | None = None,
          overrides: dict[str, Any] | None = None, resume: bool = False, vocab: str | None = None,
          device: str | None = None) -> RunDir:
    """Trains a model into run directory ``out`` (see ``RunDir``); returns it."""
    overrides, run = dict(overrides or {}), RunDir(out)
    if run.holds_run() and not resume:
        raise UsageError(f"{out} already holds a run; pass --resume to continue it, or choose another --out")
    if resume and not run.state.exists():
        raise UsageError(f"nothing to resume in {out}: it has no state.safetensors")
    saved = json.loads(run.config.read_text(encoding="utf-8")) if resume else {}
    data = saved.get("data", {})
    train_path, valid_path = _data_paths(train or data.get("train"), valid or data.get("valid"))
    train_corpus = read_parallel(train_path, src_lang or data.get("src"), tgt_lang or data.get("tgt"))
    valid_corpus = read_parallel(valid_path, train_corpus.src_lang, train_corpus.tgt_lang) if valid_path else None
    world = D.init_world(device)
    if resume:
        preset, model_cfg, train_cfg, tokenizer = _resumed_run(run, saved, preset, config_file, overrides)
    else:
        preset, model_cfg, train_cfg, tokenizer = _new_run(run, world, train_corpus, preset, config_file, overrides,
                                                           vocab)
        if world.is_main:
            _write_json(run.config, {"preset": preset, "model": model_cfg.to_dict(), "train": train_cfg.to_dict(),
                                     "data": {"train": str(train_path), "valid": valid_path,
                                              "src": train_corpus.src_lang, "tgt": train_corpus.tgt_lang}})
    encoded = encode_corpus(train_corpus, tokenizer, train_cfg, model_cfg.max_positions, "training data")
    task = TranslationTask(tokenizer, encoded, valid_corpus, train_cfg, model_cfg.max_positions)
    trainer = Trainer(run, model_cfg, train_cfg, task, world, tokenizer.fingerprint(), has_valid=valid_corpus is not None)
    if resume:
        trainer.resume()
    elif world.is_main:
        log.info("training %s (%s parameters) on %d pairs (%s -> %s) into %s", preset,
                 f"{trainer.model.num_parameters():,}", len(encoded.src), train_corpus.src_lang, train_corpus.tgt_lang, out)
    try:
        trainer.fit()
    finally:
        D.shutdown(world)
    return run


def _make_tokenizer(run: RunDir, world: D.World, corpus_: ParallelCorpus, cfg: TrainConfig, vocab: str | None) -> Tokenizer:
    """A joint sentencepiece BPE vocabulary over both sides (§5.1), or the one given; written once."""
    if world.is_main:
        run.path.mkdir(parents=True, exist_ok=True)
        if vocab:
            Tokenizer.load(vocab).save(run.tokenizer)
        else:
            log.info("learning a joint BPE vocabulary of %d tokens", cfg.vocab_size)
            Tokenizer.train(corpus_.src + corpus_.tgt, run.tokenizer, vocab_size=cfg.vocab_size, seed=cfg.seed)
    D.barrier(world)
    return Tokenizer.load(run.tokenizer)


def translate_lines(model: str | Path, lines: list[str], options: DecodeOptions, device: str = "cpu",
                    progress=None, dtype: str = "float32") -> list[list[tuple[str, float]]]:
    return Translator.load(model, device, DTYPES[dtype]).translate_nbest(lines, options, progress=progress)


def evaluate(model: str | Path, test: str | None, src_lang: str | None, tgt_lang: str | None, options: DecodeOptions,
             device: str = "cpu", progress=None, dtype: str = "float32") -> tuple[Scores, Path, ParallelCorpus, list[str]]:
    """Translates a test set, writes the hypotheses next to the model, and scores them with sacreBLEU."""
    translator = Translator.load(model, device, DTYPES[dtype])
    test_path = test or str(corpus.builtin("test"))
    if src_lang is None and test is None:
        src_lang, tgt_lang = "en", "es"
    data = read_parallel(test_path, src_lang, tgt_lang)
    if progress is not None:
        progress.total = len(data)
    hyps = translator.translate(data.src, options, progress=progress)
    model = Path(model)
    folder, which = (model, "") if model.is_dir() else (model.parent, f"{model.stem}.")
    kind = f"beam{options.beam_size}" + ("" if dtype == "float32" else f".{dtype}")
    out = folder / f"hyp.{which}{Path(test_path).name.split('.')[0]}.{kind}.{data.tgt_lang}"
    out.write_text("".join(h + "\n" for h in hyps), encoding="utf-8")
    return corpus_scores(hyps, data.tgt), out, data, hyps


def average(model: str | Path, last: int) -> Path:
    """§6.1: averages the last ``last`` step checkpoints of a run into average-last-K.safetensors."""
    run = RunDir(model)
    found = run.list_checkpoints()
    if len(found) < last:
        raise UsageError(f"{model} has {len(found)} step checkpoints; cannot average the last {last}")
    out = run.path / f"average-last-{last}.safetensors"
    average_checkpoints(found[-last:], out)
    return out


__all__ = ["DataError", "UsageError", "average", "evaluate", "train", "translate_lines"]


# Music (decoder-only models on the Bach chorales) ------------------------------------------------
def generate_music(model: str | Path, out: str | Path, samples: int = 4, length: int = 512,
                   primers: list[str] | None = None, primer_tokens: int | None = None, temperature: float = 1.0,
                   top_k: int = 0, top_p: float = 1.0, seed: int = 1, device: str = "cpu") -> list[Path]:
    """Samples ``samples`` pieces per primer (none: from scratch), each ``length`` tokens past its
    primer, and writes each as MIDI and as a piano-roll PNG into ``out``; returns the MIDI paths.

    ``primers``: files music21 reads (MusicXML, MIDI, kern), or ``test:N`` for the N-th test chorale;
    ``primer_tokens`` keeps only each primer's beginning (a multiple of 4: whole sixteenths).
    """
    from .data import music
    from .generator import Generator
    from .tasks.music import chorale_sequences
    from .viz_music import plot_piano_roll

    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    named: list[tuple[str, list[int]]] = [("sample", [])] if not primers else []
    for spec in primers or []:
        if spec.startswith("test:"):
            names, seqs = chorale_sequences("test")
            index = int(spec[5:]) if spec[5:].isdigit() else -1
            if not 0 <= index < len(seqs):
                raise UsageError(f"{spec}: the test split has chorales test:0 .. test:{len(seqs) - 1}")
            named.append((Path(names[index]).stem, seqs[index]))
        else:
            named.append((Path(spec).stem, music.read_primer(spec)))
    if primer_tokens is not None:
        named = [(name, tokens[: primer_tokens - primer_tokens % 4]) for name, tokens in named]
    generator = Generator.load(model, device)
    jobs = [(name, tokens, i) for name, tokens in named for i in range(samples)]
    pieces = generator.generate([tokens for _, tokens, _ in jobs], length, temperature, top_k, top_p, seed)
    written = []
    for (name, primer, i), piece in zip(jobs, pieces):
        stem = f"{name}-seed{seed}-{i + 1}"  # chorale names hold dots (bwv110.7): no with_suffix
        written.append(music.write_midi(piece, out / f"{stem}.mid"))
        title = f"{name}, sample {i + 1} (seed {seed}, T={temperature}, top-k {top_k}, top-p {top_p})"
        plot_piano_roll(piece, out / f"{stem}.png", title=title, primer_len=len(primer) or None)
    return written


def evaluate_music(model: str | Path, split: str = "test", device: str = "cpu") -> dict[str, float]:
    """NLL per token (nats; EOS included) and perplexity of a chorale split, every token once in
    sliding windows of the training length (``aiayn.tasks.music.WINDOW``)."""
    from .data import music
    from .generator import Generator
    from .tasks.language_model import LanguageModelTask
    from .tasks.music import WINDOW, chorale_sequences

    generator = Generator.load(model, device)
    _, seqs = chorale_sequences(split)
    scorer = LanguageModelTask([], seqs, WINDOW, 4096, music.BOS, music.EOS, music.PAD)
    figures = scorer.validate(generator.model, generator.device)
    return {"nll": figures["valid_nll"], "ppl": figures["valid_ppl"], "tokens": figures["valid_tokens"],
            "bits_per_token": figures["valid_nll"] / math.log(2)}
