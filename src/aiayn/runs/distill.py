"""Sequence-level knowledge distillation (Kim & Rush 2016) on the ordinary trainer: a data step, then a run.

The data step translates the teacher's training sources with its beam search into a parallel corpus
cached beside the teacher::

    TEACHER/distilled/KEY/distill.json      what the corpus is: teacher weights, decoding, source text; the
                                            seconds each chunk took to translate
    TEACHER/distilled/KEY/chunks/NNNNNN.TGT the targets of source lines [N x chunk, (N+1) x chunk)
    TEACHER/distilled/KEY/train.SRC, .TGT   the whole corpus (``--train TEACHER/distilled/KEY/train``)

KEY hashes the teacher's weights, the decoding options (the search's, not its batching), the engine
and dtype, and the source text, so a cache is reused only for the same outputs. Chunks are written
whole (renamed into place), so a killed step loses at most the chunk under way and the same call
continues after the last whole one. The student is then an ordinary ``train`` run on that corpus,
with the teacher's vocabulary and validation split: resume, checkpoints and reports are the trainer's.
"""

from __future__ import annotations

import contextlib
import dataclasses
import fcntl
import hashlib
import itertools
import json
import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from .. import tasks
from ..checks import Allowed
from ..data import open_parallel
from ..decoding.options import DecodeOptions
from ..errors import UsageError
from ..io.checkpoint import atomic_path, remove_stale_temp_files
from ..io.loader import beside, run_config
from ..io.rundir import CONFIG, TOKENIZER, RunDir, RunInUse, model_file_of
from ..progress import bar
from .engines import ENGINES, ctranslate2
from .launch import TrainRequest, train

CHUNK_LINES = Allowed(int, 1)  # source lines translated and written together
FORMAT = 1  # of distill.json


@dataclasses.dataclass
class DistillRequest:
    """What ``aiayn distill`` is asked to do: ``teacher`` (a translation run directory, or a weights file
    in one) translates its training sources with ``options`` on ``engine`` (aiayn, or ctranslate2 on an
    export made for the purpose) in ``dtype``; then a ``preset`` student is trained into ``out``.
    ``config_file``/``overrides`` ({"model.F" / "train.F": value}) change the student as for ``train``.
    ``corpus_only``: stop after the data step. ``progress``: a tqdm-like factory (None: nothing shown)."""

    teacher: str | Path
    out: str | Path | None = None
    options: DecodeOptions = dataclasses.field(default_factory=DecodeOptions)
    engine: str = "aiayn"
    dtype: str = "float32"
    device: str | None = None
    chunk_lines: int = 1000
    preset: str = "student"
    config_file: str | None = None
    overrides: dict[str, Any] = dataclasses.field(default_factory=dict)
    resume: bool = False
    corpus_only: bool = False
    progress: Any = None


@dataclasses.dataclass
class Teacher:
    """A translation model with its run's files: weights, vocabulary, and training data settings."""

    model_file: Path
    folder: Path  # the run directory: the distilled corpora go under it
    vocab: Path
    train: str  # the training text (a TSV or a prefix) whose sources are translated
    valid: str | None
    src: str
    tgt: str
    task: str  # the student's too


def check_teacher(path: str | Path) -> Teacher:
    """The teacher ``path`` names, refused in one line when it is no translation model with its run's files."""
    model_file = model_file_of(path)
    task = tasks.gate(path, "translate", role="the teacher ")  # a teacher is a model `aiayn translate` takes
    config_file = beside(model_file, CONFIG)
    if config_file is None:
        raise UsageError(f"no {CONFIG} beside {model_file}: the teacher's training data is read from its run; "
                         "pass the run directory as --teacher")
    vocab = beside(model_file, TOKENIZER)
    if vocab is None:
        raise UsageError(f"the teacher's vocabulary is missing: no {TOKENIZER} in {config_file.parent}; the "
                         f"student learns in the teacher's vocabulary: restore the run's {TOKENIZER}")
    data = run_config(model_file).get("data") or {}
    return Teacher(model_file, config_file.parent, vocab, _training_text(data, config_file), data.get("valid"),
                   data["src"], data["tgt"], task.name)


def _training_text(data: dict, config_file: Path) -> str:
    """The teacher's training text: its --train, or a preprocess folder's original text (it keeps ids only)."""
    from ..tasks.translation_data import is_prepared, read_prepared

    train = data.get("train")
    if is_prepared(train):
        train = read_prepared(train).meta.get("train_source")
    if not train:
        raise UsageError(f"{config_file} names no training text; distillation translates the teacher's "
                         "training sources: pass a teacher trained by `aiayn train`")
    return str(train)


def distill(r: DistillRequest) -> RunDir | Path:
    """The data step, then the student's run (see the module's docstring); returns the student's run
    directory, or with ``corpus_only`` the corpus prefix for ``--train``."""
    if r.engine not in ENGINES:
        raise UsageError(f"unknown engine {r.engine!r}; choose one of {', '.join(ENGINES)}")
    CHUNK_LINES.check("--chunk", r.chunk_lines)
    teacher = check_teacher(r.teacher)
    prefix, about = corpus_prefix(teacher, r.options, r.engine, r.dtype)
    if r.resume:  # before hours of decoding: the student must be the one these options started
        _check_student(r.out, prefix)
    build_corpus(teacher, prefix, about, r)
    if r.corpus_only:
        return prefix
    if r.out is None:
        raise UsageError("give --out, the student's run directory (or --corpus-only to stop after the corpus)")
    data = {"train": str(prefix), "valid": teacher.valid, "src": teacher.src, "tgt": teacher.tgt,
            "vocab": str(teacher.vocab)}  # translation's train options (Task.options)
    return train(TrainRequest(
        out=r.out, preset=None if r.resume else r.preset, config_file=r.config_file, overrides=r.overrides,
        resume=r.resume, device=r.device, task=teacher.task, progress=r.progress, options=data))


def _check_student(out: str | Path | None, prefix: Path) -> None:
    run = RunDir(out or "")
    try:
        trained_on = run.read_config()["data"]["train"]
    except (OSError, ValueError, KeyError, TypeError):
        return  # the trainer says what is wrong with the run
    if Path(trained_on).resolve() != prefix.resolve():
        raise UsageError(f"{out} was trained on {trained_on}, not on {prefix} (these decoding options): give --resume "
                         "the options it started with (its corpus's distill.json), or choose another --out")


# The corpus ----------------------------------------------------------------------------------------
def source_hash(source) -> tuple[str, int]:
    """sha256 of the source side, line by line, and its number of lines."""
    digest, n = hashlib.sha256(), 0
    for src, _ in source.pairs():
        digest.update(src.encode("utf-8") + b"\n")
        n += 1
    return digest.hexdigest(), n


def file_hash(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def describe(teacher: Teacher, options: DecodeOptions, engine: str, dtype: str) -> dict[str, Any]:
    """What makes the corpus: everything that changes a target, and nothing that does not (batching)."""
    search = {k: v for k, v in dataclasses.asdict(options).items() if k not in ("max_tokens", "nbest")}
    source = open_parallel(teacher.train, teacher.src, teacher.tgt)
    text_sha, lines = source_hash(source)
    return {"format": FORMAT, "teacher": str(teacher.model_file), "teacher_sha256": file_hash(teacher.model_file),
            "decoding": search, "engine": engine, "dtype": dtype, "source": teacher.train, "src": teacher.src,
            "tgt": teacher.tgt, "source_sha256": text_sha, "lines": lines}


def corpus_prefix(teacher: Teacher, options: DecodeOptions, engine: str, dtype: str) -> tuple[Path, dict]:
    """TEACHER/distilled/KEY/train, the ``--train`` prefix of the corpus these settings make, and its
    description (``describe``); nothing is written."""
    about = describe(teacher, options, engine, dtype)
    keyed = {k: about[k] for k in ("teacher_sha256", "decoding", "engine", "dtype", "source_sha256", "src", "tgt")}
    key = hashlib.sha256(json.dumps(keyed, sort_keys=True).encode()).hexdigest()[:16]
    return teacher.folder / "distilled" / key / "train", about


def build_corpus(teacher: Teacher, prefix: Path, about: dict, r: DistillRequest) -> None:
    """Translates the chunks not yet written, then joins them into PREFIX.SRC and PREFIX.TGT."""
    folder = prefix.parent
    if Path(f"{prefix}.{teacher.tgt}").is_file():
        return  # whole: written last, after every chunk
    folder.mkdir(parents=True, exist_ok=True)
    with _locked(folder):
        manifest = folder / "distill.json"
        if manifest.is_file():  # a step that stopped: its chunk size and the time its chunks took stay
            saved = json.loads(manifest.read_text(encoding="utf-8"))
            about = {**about, **{k: saved[k] for k in ("chunk_lines", "chunk_seconds") if k in saved}}
        else:
            about = {**about, "chunk_lines": r.chunk_lines}
            _write_json(manifest, about)
        chunks, size, lines = folder / "chunks", about["chunk_lines"], about["lines"]
        chunks.mkdir(exist_ok=True)
        remove_stale_temp_files(chunks)
        n_chunks = -(-lines // size)
        todo = [i for i in range(n_chunks) if not _chunk_file(chunks, i, teacher.tgt).is_file()]
        done = lines - sum(min(size, lines - i * size) for i in todo)
        progress = bar(r.progress, total=lines, initial=done, unit="sent",
                       desc=f"teacher ({r.engine}, beam {r.options.beam_size})")
        try:
            if todo:
                with _decoder(teacher, r) as decoder:
                    source = open_parallel(teacher.train, teacher.src, teacher.tgt)
                    for i, block in _chunks(source, size, set(todo)):
                        start = time.perf_counter()
                        translate_chunk(decoder, block, r.options, _chunk_file(chunks, i, teacher.tgt), progress)
                        seconds = {**about.get("chunk_seconds", {}), str(i): round(time.perf_counter() - start, 3)}
                        about = {**about, "chunk_seconds": seconds}
                        _write_json(manifest, about)
        finally:
            progress.close()
        _join(teacher, prefix, chunks, n_chunks)


def corpus_time(prefix: Path) -> dict[str, Any]:
    """The corpus's size and the seconds its chunks took to translate (summed over the calls that wrote them)."""
    about = json.loads((prefix.parent / "distill.json").read_text(encoding="utf-8"))
    seconds = about.get("chunk_seconds")  # corpora written before chunks were timed have none
    return {"corpus_sentences": about["lines"], **({"corpus_seconds": round(sum(seconds.values()), 1)} if seconds else {})}


def translate_chunk(decoder, lines: list[str], options: DecodeOptions, out: Path, progress) -> None:
    """One chunk's best translations, written whole (a rename) or not at all."""
    options = dataclasses.replace(options, nbest=1)
    hyps = decoder.translate_nbest(lines, options, progress=progress)
    texts = [(h[0][0] if h else "").replace("\n", " ") for h in hyps]
    with atomic_path(out) as tmp:
        tmp.write_text("".join(t + "\n" for t in texts), encoding="utf-8")


def _chunks(source, size: int, wanted: set[int]) -> Iterator[tuple[int, list[str]]]:
    """(chunk number, its source lines) for the chunks in ``wanted``, streamed in file order."""
    lines = (src for src, _ in source.pairs())
    for i in itertools.count():
        block = list(itertools.islice(lines, size))
        if not block:
            return
        if i in wanted:
            yield i, block


def _chunk_file(chunks: Path, i: int, tgt: str) -> Path:
    return chunks / f"{i:06d}.{tgt}"


def _join(teacher: Teacher, prefix: Path, chunks: Path, n_chunks: int) -> None:
    """PREFIX.SRC (the sources as read) then PREFIX.TGT (the chunks in order), each renamed into place."""
    source = open_parallel(teacher.train, teacher.src, teacher.tgt)
    with atomic_path(Path(f"{prefix}.{teacher.src}")) as tmp, open(tmp, "w", encoding="utf-8") as f:
        for src, _ in source.pairs():
            f.write(src + "\n")
    with atomic_path(Path(f"{prefix}.{teacher.tgt}")) as tmp, open(tmp, "w", encoding="utf-8") as f:
        for i in range(n_chunks):
            f.write(_chunk_file(chunks, i, teacher.tgt).read_text(encoding="utf-8"))
    for i in range(n_chunks):  # the corpus holds them now
        _chunk_file(chunks, i, teacher.tgt).unlink()
    chunks.rmdir()


def _write_json(path: Path, value: dict) -> None:
    with atomic_path(path) as tmp:
        tmp.write_text(json.dumps(value, indent=2) + "\n", encoding="utf-8")


@contextlib.contextmanager
def _locked(folder: Path) -> Iterator[None]:
    """One process at a time builds a corpus (flock: dropped by the kernel however the holder ends)."""
    fd = os.open(folder / ".lock", os.O_RDWR | os.O_CREAT, 0o644)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            # as a run in training: an experiment's second command skips this student and goes on
            raise RunInUse(f"{folder} is being written by another aiayn distill; wait for it to end") from None
        yield
    finally:
        os.close(fd)


@contextlib.contextmanager
def _decoder(teacher: Teacher, r: DistillRequest) -> Iterator[Any]:
    """The teacher's translator on ``r.engine``: aiayn's, or CTranslate2 on a temporary export of it (``engines``)."""
    import torch

    device = r.device or ("cuda" if torch.cuda.is_available() else "cpu")
    if r.engine == "aiayn":
        from ..inference.translator import Translator
        from ..precision import DTYPES

        yield Translator.load(teacher.model_file, device, DTYPES[r.dtype])
        return
    with ctranslate2(teacher.model_file, device, r.dtype) as engine:
        yield engine.decoder
