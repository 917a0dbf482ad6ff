"""Binarized corpora: token ids on disk, memory-mapped read-only, so a corpus costs page cache, not RAM.

One file holds a tokenized parallel corpus::

    [4096-byte header][ids: uint16 (vocabulary <= 65536) or int32][pad to 8][index: one record per pair]

The header is ``AIAYNBIN``, a little-endian uint32 format version, a uint32 length and that many
bytes of JSON (dtype, counts, section offsets, languages, the vocabulary's sha256 and the source
text's fingerprint). An index record is (src_off int64, tgt_off int64, src_len int32, tgt_len int32):
pair i's source ids are ``ids[src_off:src_off + src_len]``. Every pair of the text is kept, empty
ones too: filtering depends on the model (``max_positions``) and happens when batching.

Files are built by streaming the text (``ParallelSource.pairs``) in chunks through sentencepiece
in worker processes, written in order under a temporary name and renamed when complete, so a file
with the final name is always whole. ``prepare`` keeps them in a cache keyed by the content of the
text and the vocabulary (see ``cache_dir``).
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import hashlib
import itertools
import json
import logging
import multiprocessing
import os
import re
import shutil
import socket
import struct
from collections import deque
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import sentencepiece as spm

from .errors import DataError
from .parallel import ParallelSource
from .tokenizer import Tokenizer

log = logging.getLogger("aiayn")

MAGIC = b"AIAYNBIN"
VERSION = 1
HEADER_BYTES = 4096
INDEX = np.dtype([("src_off", "<i8"), ("tgt_off", "<i8"), ("src_len", "<i4"), ("tgt_len", "<i4")])
CHUNK_PAIRS = 16_384  # pairs per worker task: large enough to amortise pickling, small enough to stream
_NO_SPACE = (errno.ENOSPC, errno.EDQUOT)
AGAIN = "delete it and binarize the text again (aiayn preprocess, or aiayn train on the text)"


def ids_dtype(vocab_size: int) -> np.dtype:
    """uint16 when every id fits (half the disk and page cache of int32), else int32."""
    return np.dtype("<u2") if vocab_size <= 1 << 16 else np.dtype("<i4")


def fingerprint(files: tuple[Path, ...] | list[Path]) -> str:
    """sha256 of every byte of ``files`` (and their sizes), streamed in 1 MiB blocks.

    The whole content, not size + mtime (a copy, ``touch`` or same-size edit would fool those) nor
    sampled blocks (an edit between samples would go unseen). sha256, because CPUs with the SHA
    extensions hash it fastest: measured on this machine, 650 MB/s against blake2b's 280, md5's 280
    (benchmarks/data_scale.py's notes in BENCHMARKS.md); 0.4 s per 1M pairs (263 MB) of text per start.
    """
    digest = hashlib.sha256()
    for path in files:
        try:
            with open(path, "rb") as f:
                digest.update(struct.pack("<Q", os.fstat(f.fileno()).st_size))
                while block := f.read(1 << 20):
                    digest.update(block)
        except OSError as e:
            raise DataError(f"{path}: cannot read: {e.strerror or e}") from None
    return digest.hexdigest()


class Binarized:
    """A binarized corpus mapped read-only: ``src(i)``/``tgt(i)`` are views into the mapping, never copies
    of the corpus. Every process that opens the same file shares its pages."""

    def __init__(self, path: str | os.PathLike):
        self.path = Path(path)
        self.header = read_header(self.path)
        h = self.header
        self.dtype = np.dtype(h["dtype"])
        self.ids = _map(self.path, self.dtype, h["ids_offset"], h["n_ids"])
        self.index = _map(self.path, INDEX, h["index_offset"], h["n_pairs"])
        _check_index(self.path, self.index, h["n_ids"])

    def __len__(self) -> int:
        return self.header["n_pairs"]

    @property
    def src_lengths(self) -> np.ndarray:
        return self.index["src_len"]

    @property
    def tgt_lengths(self) -> np.ndarray:
        return self.index["tgt_len"]

    def src(self, i: int) -> np.ndarray:
        off, n = int(self.index["src_off"][i]), int(self.index["src_len"][i])
        return self.ids[off: off + n]

    def tgt(self, i: int) -> np.ndarray:
        off, n = int(self.index["tgt_off"][i]), int(self.index["tgt_len"][i])
        return self.ids[off: off + n]


def _check_index(path: Path, index: np.ndarray, n_ids: int) -> None:
    """Every pair's ids lie inside the ids section (a damaged index would otherwise give wrong ids, or
    reads past the mapping); checked in blocks, so a corpus of millions of pairs needs no big temporaries."""
    block = 1 << 20
    for lo in range(0, len(index), block):
        part = index[lo: lo + block]
        for side in ("src", "tgt"):
            off, length = part[f"{side}_off"], part[f"{side}_len"].astype(np.int64)
            if (off < 0).any() or (length < 0).any() or (off + length > n_ids).any():
                raise DataError(f"{path} has a damaged index (pairs past the {n_ids:,} ids it holds); {AGAIN}")


def _map(path: Path, dtype: np.dtype, offset: int, count: int) -> np.ndarray:
    if count == 0:  # numpy cannot map zero bytes
        return np.zeros(0, dtype)
    return np.memmap(path, dtype=dtype, mode="r", offset=offset, shape=(count,))


def read_header(path: Path) -> dict:
    """The JSON header of a binarized corpus, after checking that the file is one, of this version, and whole."""
    try:
        with open(path, "rb") as f:
            start = f.read(HEADER_BYTES)
            size = os.fstat(f.fileno()).st_size
    except FileNotFoundError:
        raise DataError(f"no such file: {path}") from None
    except OSError as e:
        raise DataError(f"{path}: cannot read: {e.strerror or e}") from None
    if not start.startswith(MAGIC):
        raise DataError(f"{path} is not a binarized aiayn corpus (it does not start with {MAGIC.decode()}); "
                        "give the text (.tsv, .tsv.gz or a PREFIX of PREFIX.SRC/PREFIX.TGT) or an aiayn preprocess folder")
    if len(start) < 16:
        raise DataError(f"{path} is truncated ({size} bytes, less than its header); {AGAIN}")
    version, n = struct.unpack_from("<II", start, len(MAGIC))
    if version != VERSION:
        raise DataError(f"{path} was written in version {version} of aiayn's binarized format; this aiayn reads "
                        f"version {VERSION}: {AGAIN}")
    try:
        header = json.loads(start[16: 16 + n].decode("utf-8"))
        expected = header["index_offset"] + header["n_pairs"] * INDEX.itemsize
        ids_end = header["ids_offset"] + header["n_ids"] * np.dtype(header["dtype"]).itemsize
    except (ValueError, KeyError, TypeError):
        raise DataError(f"{path} has a damaged header; {AGAIN}") from None
    if size < expected or ids_end > header["index_offset"]:
        raise DataError(f"{path} is truncated ({size:,} bytes; its header promises {expected:,}); {AGAIN}")
    if size > expected:
        raise DataError(f"{path} has {size - expected:,} bytes more than its header promises; {AGAIN}")
    return header


# Building ------------------------------------------------------------------------------------------
_worker_sp: spm.SentencePieceProcessor | None = None


def _init_worker(proto: bytes) -> None:
    global _worker_sp
    _worker_sp = spm.SentencePieceProcessor(model_proto=proto)


def _encode_chunk(src: list[str], tgt: list[str], dtype: np.dtype, sp=None):
    """(src ids, src lengths, tgt ids, tgt lengths) of one chunk, as flat numpy arrays."""
    sp = sp or _worker_sp
    out = []
    for lines in (src, tgt):
        encoded = sp.encode(lines, out_type=int, num_threads=1)  # one thread: the parallelism is the processes'
        lengths = np.fromiter(map(len, encoded), np.int32, count=len(encoded))
        out += [np.fromiter(itertools.chain.from_iterable(encoded), dtype, count=int(lengths.sum())), lengths]
    return tuple(out)


def _chunks(pairs: Iterator[tuple[str, str]], size: int) -> Iterator[tuple[list[str], list[str]]]:
    while True:
        chunk = list(itertools.islice(pairs, size))
        if not chunk:
            return
        src, tgt = zip(*chunk)
        yield list(src), list(tgt)


def _encoded_chunks(source: ParallelSource, tok: Tokenizer, dtype: np.dtype, workers: int, position: list[int]):
    """The encoded chunks of ``source`` in order; at most 2 per worker in flight, so memory stays bounded."""
    chunks = _chunks(source.pairs(position), CHUNK_PAIRS)
    if workers <= 1:
        sp = spm.SentencePieceProcessor(model_proto=tok.to_bytes())
        for src, tgt in chunks:
            yield _encode_chunk(src, tgt, dtype, sp)
        return
    # fork: the workers need only sentencepiece, and start in milliseconds (spawn would import torch in each)
    with multiprocessing.get_context("fork").Pool(workers, _init_worker, (tok.to_bytes(),)) as pool:
        pending: deque = deque()
        for src, tgt in chunks:
            pending.append(pool.apply_async(_encode_chunk, (src, tgt, dtype)))
            if len(pending) >= 2 * workers:
                yield pending.popleft().get()
        while pending:
            yield pending.popleft().get()


def available_cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def build(source: ParallelSource, tok: Tokenizer, path: str | os.PathLike, data_fingerprint: str,
          progress=None, workers: int | None = None, elsewhere: str = "set AIAYN_CACHE to") -> Path:
    """Tokenizes ``source`` into the binarized file ``path`` (see the module docstring); returns ``path``.

    Written under a temporary name beside ``path`` and renamed when complete: nothing half-written
    ever has the final name. The text is hashed again at the end: if it no longer matches
    ``data_fingerprint`` (edited during the build), nothing is kept. A full disk is a one-line
    DataError naming the path and saying how to write elsewhere (``elsewhere`` + "a folder with room"):
    the cache's ``AIAYN_CACHE``, or preprocess's ``--out``. The text is only read.
    """
    path = Path(path)
    dtype, workers = ids_dtype(tok.vocab_size), workers or available_cores()
    # host and pid: builders on machines sharing the folder never write the same temporary file
    tmp, tmp_index = (path.parent / f".{path.name}.{socket.gethostname()}.{os.getpid()}.{kind}.tmp"
                      for kind in ("ids", "index"))
    position = [0]
    total = sum(os.path.getsize(f) for f in source.files[:1])
    bar = progress(total=total, unit="B", unit_scale=True, desc=f"binarizing {source.name}") if progress else None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(tmp, "wb") as out, open(tmp_index, "wb+") as index:
            out.write(bytes(HEADER_BYTES))
            n_pairs = n_ids = 0
            for src_ids, src_len, tgt_ids, tgt_len in _encoded_chunks(source, tok, dtype, workers, position):
                record = np.empty(len(src_len), INDEX)
                record["src_len"], record["tgt_len"] = src_len, tgt_len
                record["src_off"] = n_ids + np.cumsum(src_len, dtype=np.int64) - src_len
                n_ids += len(src_ids)
                record["tgt_off"] = n_ids + np.cumsum(tgt_len, dtype=np.int64) - tgt_len
                n_ids += len(tgt_ids)
                out.write(src_ids.tobytes())
                out.write(tgt_ids.tobytes())
                index.write(record.tobytes())
                n_pairs += len(record)
                if bar is not None:
                    bar.update(position[0] - bar.n)
            if n_pairs == 0:
                raise DataError(f"{source.name} has no sentence pairs")
            out.write(bytes(-out.tell() % 8))  # the index's int64 offsets start aligned
            index_offset = out.tell()
            index.seek(0)
            shutil.copyfileobj(index, out, 1 << 20)
            header = {"dtype": dtype.str, "n_pairs": n_pairs, "n_ids": n_ids, "ids_offset": HEADER_BYTES,
                      "index_offset": index_offset, "vocab_size": tok.vocab_size, "vocab_sha256": tok.fingerprint(),
                      "data_fingerprint": data_fingerprint, "src_lang": source.src_lang,
                      "tgt_lang": source.tgt_lang, "source": source.name}
            text = json.dumps(header).encode("utf-8")
            out.seek(0)
            out.write(MAGIC + struct.pack("<II", VERSION, len(text)) + text)
            out.flush()
            os.fsync(out.fileno())
        if fingerprint(source.files) != data_fingerprint:  # the key was hashed before the build read the text
            raise DataError(f"{source.name} changed while it was being binarized, so nothing was kept; "
                            "run again once it no longer changes")
        os.replace(tmp, path)
    except OSError as e:
        if e.errno in _NO_SPACE:
            raise DataError(f"cannot write {path}: no space left on the device while binarizing {source.name}; "
                            f"nothing was kept and the text is untouched: free some space or {elsewhere} a folder "
                            "with room, then run again") from None
        raise DataError(f"cannot write {path}: {e.strerror or e}; check the folder's permissions or "
                        f"{elsewhere} another folder") from None
    finally:
        if bar is not None:
            bar.close()
        for name in (tmp, tmp_index):
            with contextlib.suppress(OSError):
                os.unlink(name)
    return path


# The cache -------------------------------------------------------------------------------------------
def cache_dir() -> Path:
    """Binarized corpora in aiayn's cache folder: shared by every run on the
    machine, so a second run on the same text reuses its ids; it is never inside the data's folder,
    which may be read-only or shared."""
    return cache_root() / "corpora"


def cache_root() -> Path:
    """aiayn's cache folder (binarized corpora, encoded chorales): ``$AIAYN_CACHE``, else
    ``$XDG_CACHE_HOME/aiayn``, else ``~/.cache/aiayn``."""
    return Path(os.environ.get("AIAYN_CACHE") or Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "aiayn")


def cache_path(source: ParallelSource, tok: Tokenizer, data_fingerprint: str) -> Path:
    """The cache file for this text, vocabulary, language pair and format version."""
    key = hashlib.blake2b(f"{VERSION}|{data_fingerprint}|{tok.fingerprint()}|{source.src_lang}|{source.tgt_lang}"
                          .encode(), digest_size=10).hexdigest()
    stem = re.sub(r"[^\w.-]", "_", Path(source.name).name)[:60]
    return cache_dir() / f"{stem}.{source.src_lang}-{source.tgt_lang}.{key}.bin"


def prepare(source: ParallelSource, tok: Tokenizer, progress=None, data_fingerprint: str | None = None,
            build_here: bool = True) -> Binarized:
    """``source`` tokenized with ``tok``: from the cache, or built into it first.

    ``build_here=False`` (the ranks of a machine other than its first) only opens what another
    process built. A file lock serialises builders of the same file (two runs starting at once).
    A cached file whose header disagrees with the key (damaged, or another version) is rebuilt.
    """
    data_fingerprint = data_fingerprint or fingerprint(source.files)
    path = cache_path(source, tok, data_fingerprint)
    if not build_here:
        return _open_checked(path, tok, data_fingerprint)
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path.with_suffix(".lock"), "a") as lock:
        _lock(lock)
        try:
            return _open_checked(path, tok, data_fingerprint)
        except DataError as e:
            if path.exists():
                log.warning("rebuilding the cached ids: %s", e)
            build(source, tok, path, data_fingerprint, progress)
            return _open_checked(path, tok, data_fingerprint)


def _lock(lock_file) -> None:
    """An exclusive lock on ``lock_file``, or none where the file system has no locks (some NFS mounts):
    two processes may then build the same file at once, which is only wasted work (each renames a whole file)."""
    try:
        fcntl.flock(lock_file, fcntl.LOCK_EX)
    except OSError as e:
        if e.errno not in (errno.ENOLCK, errno.EOPNOTSUPP, errno.ENOSYS):
            raise
        log.debug("no file lock on %s (%s): building without one", lock_file.name, e.strerror)


def _open_checked(path: Path, tok: Tokenizer, data_fingerprint: str | None) -> Binarized:
    """``path`` opened, after checking that it holds ids of this vocabulary (and of this text, if given)."""
    corpus = Binarized(path)
    if corpus.header["vocab_sha256"] != tok.fingerprint():
        raise DataError(f"{path} was tokenized with another vocabulary than this run's; binarize the text again "
                        "with this vocabulary (aiayn preprocess --vocab)")
    if data_fingerprint is not None and corpus.header["data_fingerprint"] != data_fingerprint:
        raise DataError(f"{path} was built from other text than {corpus.header.get('source')} holds now; "
                        "binarize it again")
    return corpus
