"""Translation's training data: text -> cached binarized ids that every rank maps, or a folder written
once by ``preprocess`` (``aiayn preprocess``) for runs and machines that share it.

A preprocess folder holds::

    aiayn-data.json   what the folder is: languages, file names, fingerprints (format version 1)
    spm.model         the vocabulary the ids are in (given with --vocab, or learned from the training text)
    train.bin         the training pairs' ids (aiayn.data.binarized)
    valid.SRC/.TGT    the validation pairs as text, if --valid was given (small: a run binarizes them into
                      its cache and reads the first few as text for BLEU)

``aiayn train --train FOLDER`` takes it as is: its vocabulary, its ids, its validation text.
"""

from __future__ import annotations

import itertools
import json
import logging
import os
import shutil
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from ..corpus import builtin
from ..data import DataError, ParallelCorpus, ParallelSource, Tokenizer, open_parallel, read_parallel
from ..data import binarized as B
from ..errors import UsageError
from ..training import distributed as D
from .spec import Setup

log = logging.getLogger("aiayn")
FOLDER_META = "aiayn-data.json"
FOLDER_FORMAT = 1


@dataclass
class Prepared:
    """A preprocess folder, read: its training ids, vocabulary and validation prefix (or None)."""

    path: Path
    meta: dict
    tokenizer: Tokenizer

    @property
    def train(self) -> Path:
        return self.path / self.meta["train"]

    @property
    def valid(self) -> str | None:
        return str(self.path / self.meta["valid"]) if self.meta.get("valid") else None


def is_prepared(path: str | None) -> bool:
    return path is not None and (Path(path) / FOLDER_META).is_file()


def read_prepared(path: str | os.PathLike) -> Prepared:
    """The preprocess folder at ``path``; a damaged or foreign one is a one-line DataError."""
    path = Path(path)
    try:
        meta = json.loads((path / FOLDER_META).read_text(encoding="utf-8"))
        if meta["format"] != FOLDER_FORMAT:
            raise DataError(f"{path} was written by another version of aiayn preprocess (folder format "
                            f"{meta['format']}, this aiayn reads {FOLDER_FORMAT}); run aiayn preprocess again")
        meta["train"], meta["src"], meta["tgt"]  # noqa: B018  (present, or KeyError below)
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise DataError(f"{path / FOLDER_META} is missing or damaged ({e}); run aiayn preprocess again") from None
    return Prepared(path, meta, Tokenizer.load(path / "spm.model"))


def training_source(data: dict) -> Prepared | ParallelSource:
    """The training data a run's data settings name: a preprocess folder, or text opened for streaming."""
    return read_prepared(data["train"]) if is_prepared(data["train"]) else open_parallel(data["train"], data["src"],
                                                                                          data["tgt"])


def check_data(data: dict) -> tuple[dict, dict]:
    """A new run's data settings (--train, --valid, --src, --tgt, --vocab), checked and completed before
    anything is written: the built-in Bible without --train; a preprocess folder's languages, validation
    text and vocabulary; text read once, so that misaligned files or bad UTF-8 are one line now. The
    vocabulary's size is known only once it is in the run (``write_vocabulary``): no model field yet."""
    train, valid, src, tgt, vocab = (data[k] for k in ("train", "valid", "src", "tgt", "vocab"))
    if data.get("length_multiple") is not None and not (isinstance(data["length_multiple"], int)
                                                        and 1 <= data["length_multiple"] <= 64):
        raise UsageError(f"--length-multiple must be a whole number from 1 to 64, not {data['length_multiple']}")
    if train is None:
        train, valid = str(builtin("train")), valid or str(builtin("valid"))
    given = Tokenizer.load(vocab) if vocab else None  # a missing or foreign file is one line now
    if is_prepared(train):
        folder = read_prepared(train)
        for option, value, lang in (("--src", src, folder.meta["src"]), ("--tgt", tgt, folder.meta["tgt"])):
            if value not in (None, lang):
                raise UsageError(f"{train} was preprocessed for {folder.meta['src']} -> {folder.meta['tgt']}; "
                                 f"drop {option} {value}")
        if given and given.fingerprint() != folder.tokenizer.fingerprint():
            raise UsageError(f"{vocab} is not the vocabulary {train} was preprocessed with; drop --vocab")
        src, tgt, valid = folder.meta["src"], folder.meta["tgt"], valid or folder.valid
    else:
        source = open_parallel(train, src, tgt)
        source.check()
        src, tgt = source.src_lang, source.tgt_lang
    if valid:
        read_parallel(valid, src, tgt)  # small: read whole when the run starts, checked now
    return {**data, "train": train, "valid": valid, "src": src, "tgt": tgt}, {}


def write_vocabulary(setup: Setup, data: dict, train_cfg) -> dict:
    """A new run's joint BPE vocabulary (§5.1), written once into its directory: the one given (--vocab),
    the preprocess folder's, or one learned from the training text (a bounded sample of a large corpus).
    Returns the model-config fields it fixes."""
    if setup.world.is_main:
        if data["vocab"]:
            Tokenizer.load(data["vocab"]).save(setup.run.tokenizer)
        elif is_prepared(data["train"]):
            read_prepared(data["train"]).tokenizer.save(setup.run.tokenizer)
        else:
            learn_vocabulary(training_source(data), setup.run.tokenizer, train_cfg.task_settings.vocab_size,
                              train_cfg.seed)
    D.barrier(setup.world)
    tok = Tokenizer.load(setup.run.tokenizer)
    return dict(src_vocab_size=tok.vocab_size, pad_id=tok.pad_id, bos_id=tok.bos_id, eos_id=tok.eos_id)


def vocabulary_lines(source: ParallelSource) -> Iterator[str]:
    """Every source line, then every target line, streamed from disk (two passes, no list of the corpus):
    the order ``Tokenizer.train`` has always been given, so the learned vocabulary is unchanged.
    sentencepiece keeps at most a 2M-line seeded sample of it (``input_sentence_size``)."""
    return itertools.chain((s for s, _ in source.pairs()), (t for _, t in source.pairs()))


def learn_vocabulary(source: ParallelSource, path: Path, vocab_size: int, seed: int) -> Tokenizer:
    log.info("learning a joint BPE vocabulary of %d tokens", vocab_size)
    return Tokenizer.train(vocabulary_lines(source), path, vocab_size=vocab_size, seed=seed)


def first_pairs(source: ParallelSource, n: int) -> ParallelCorpus:
    """The first ``n`` pairs of ``source`` as text (validation BLEU's sentences), read no further."""
    src, tgt = [], []
    for s, t in itertools.islice(source.pairs(), n):
        src.append(s)
        tgt.append(t)
    return ParallelCorpus(src, tgt, source.src_lang, source.tgt_lang)


def mapped_pairs(train, tokenizer: Tokenizer, world: D.World, progress=None,
                 data_fp: str | None = None) -> B.Binarized:
    """The ids every rank maps: a preprocess folder's training ids, or a text's (training or
    validation) from the cache.

    The first process of each machine (LOCAL_RANK 0) builds a missing cache file; the others wait
    at a barrier, then open the same file. Different machines each build their own unless the cache
    is on shared storage (then the file lock lets one build, the rest reuse it).
    ``data_fp``: the text's fingerprint if already computed (it costs a read of the text).
    """
    if isinstance(train, Prepared):
        corpus = B.Binarized(train.train)
        if corpus.header["vocab_sha256"] != tokenizer.fingerprint():
            raise DataError(f"{train.train} holds ids of another vocabulary than this run's; train with the folder's "
                            "own (drop --vocab), or run aiayn preprocess again")
        return corpus
    first_here = int(os.environ.get("LOCAL_RANK", "0")) == 0
    data_fp = data_fp or B.fingerprint(train.files)
    corpus = B.prepare(train, tokenizer, progress if world.is_main else None, data_fp) if first_here else None
    D.barrier(world)  # waits as long as the build takes, up to AIAYN_DIST_TIMEOUT (D.collective_timeout)
    return corpus or B.prepare(train, tokenizer, None, data_fp, build_here=False)


def check_unchanged(train, saved_fingerprint: str | None) -> str:
    """On --resume: the training data must be what the run started on (by content); returns its fingerprint."""
    if isinstance(train, Prepared):
        now, name = train.meta.get("train_fingerprint"), train.path
    else:
        now, name = B.fingerprint(train.files), train.name
    if saved_fingerprint is not None and now != saved_fingerprint:
        raise DataError(f"{name} changed since this run started (its content is not what the run was trained on), "
                        "so --resume cannot continue it exactly: put the original data back, or start a new run "
                        "with another --out")
    return now


def preprocess(train: str, valid: str | None, src: str | None, tgt: str | None, out: str | os.PathLike,
               vocab: str | None = None, vocab_size: int = 8000, seed: int = 1, progress=None) -> Path:
    """Writes a preprocess folder ``out`` (see the module docstring); returns its path.

    Everything is written under a temporary folder beside ``out`` and renamed at the end, so ``out``
    either does not exist or is complete.
    """
    out = Path(out)
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        raise UsageError(f"{out} already exists and is not an empty folder; choose another --out or remove it")
    source = open_parallel(train, src, tgt)
    valid_source = open_parallel(valid, source.src_lang, source.tgt_lang) if valid else None
    tmp = out.parent / f".{out.name}.{os.getpid()}.tmp"
    try:
        tmp.mkdir(parents=True)
        if vocab:
            tok = Tokenizer.load(vocab)
            tok.save(tmp / "spm.model")
        else:
            tok = learn_vocabulary(source, tmp / "spm.model", vocab_size, seed)
        data_fp = B.fingerprint(source.files)
        corpus = B.Binarized(B.build(source, tok, tmp / "train.bin", data_fp, progress,
                                     elsewhere="give --out"))
        meta = {"format": FOLDER_FORMAT, "src": source.src_lang, "tgt": source.tgt_lang, "train": "train.bin",
                "valid": None, "vocab": "spm.model", "vocab_sha256": tok.fingerprint(), "train_source": str(train),
                "train_fingerprint": data_fp, "pairs": len(corpus), "ids": corpus.header["n_ids"]}
        if valid_source is not None:
            with open(tmp / f"valid.{source.src_lang}", "w", encoding="utf-8") as fs, \
                    open(tmp / f"valid.{source.tgt_lang}", "w", encoding="utf-8") as ft:
                for s, t in valid_source.pairs():
                    fs.write(s + "\n")
                    ft.write(t + "\n")
            meta.update(valid="valid", valid_source=str(valid))
        del corpus
        (tmp / FOLDER_META).write_text(json.dumps(meta, indent=2), encoding="utf-8")
        if out.exists():
            out.rmdir()  # empty, checked above
        os.replace(tmp, out)
    except OSError as e:
        raise DataError(f"cannot write {out}: {e.strerror or e}; nothing was kept: check the space and permissions "
                        "of its folder") from None
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return out
