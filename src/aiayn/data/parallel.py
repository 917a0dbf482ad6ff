"""Reading parallel corpora: a TSV file with a header (``ref\\ten\\tes``) or one file per language.

Every problem becomes a one-line :class:`DataError` naming the file and line. Empty lines are kept
here; dropping empty or over-long pairs is :func:`aiayn.data.filter_pairs`' job, after tokenizing.
"""

from __future__ import annotations

import contextlib
import gzip
import itertools
import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

import numpy as np

from .errors import DataError

_GZIP_MAGIC = b"\x1f\x8b"
_ID_COLUMNS = ("ref", "id")  # TSV columns that are never a language
_CHUNK = 1 << 24  # bytes per read of the quick check


@dataclass
class ParallelCorpus:
    """Line-aligned source and target sentences: ``src[i]`` translates to ``tgt[i]``."""

    src: list[str]
    tgt: list[str]
    src_lang: str
    tgt_lang: str

    def __len__(self) -> int:
        return len(self.src)


def read_text_lines(path: str | os.PathLike) -> list[str]:
    """The lines of a UTF-8 text file (gzip if it starts with gzip's magic bytes), without their "\\n" or "\\r\\n".

    Decoded line by line so that bad bytes are reported as ``FILE: line N, byte B`` (both 1-based).
    A UTF-8 byte-order mark at the start of the file is dropped.
    """
    return list(iter_text_lines(path))


def iter_text_lines(path: str | os.PathLike, position: list[int] | None = None) -> Iterator[str]:
    """``read_text_lines`` streamed: one line at a time, so a corpus of any size costs one line of memory.

    ``position``, if given, is a one-item list kept at the number of bytes of the file read so far
    (compressed bytes for gzip), for a progress bar.
    """
    path = Path(path)
    with open_bytes(path) as (raw, f):
        try:
            first = True
            for line in decode_iter(f, str(path)):
                if first:
                    line, first = line.removeprefix("\ufeff"), False
                if position is not None:
                    position[0] = raw.tell()
                yield line
        except (OSError, EOFError) as e:  # gzip.BadGzipFile is an OSError; EOFError: truncated gzip
            raise DataError(f"{path}: cannot read: {e}") from None


@contextlib.contextmanager
def open_bytes(path: Path) -> Iterator[tuple[BinaryIO, BinaryIO]]:
    """(the raw file, its byte lines: the file itself or a gzip reader over it); errors are one-line DataErrors."""
    try:
        raw = open(path, "rb")
    except FileNotFoundError:
        raise DataError(f"no such file: {path}") from None
    except IsADirectoryError:
        raise DataError(f"{path} is a directory, not a text file") from None
    except OSError as e:
        raise DataError(f"{path}: cannot read: {e.strerror or e}") from None
    with raw:
        try:
            is_gzip = raw.read(2) == _GZIP_MAGIC
            raw.seek(0)
        except OSError as e:
            raise DataError(f"{path}: cannot read: {e.strerror or e}") from None
        yield raw, (gzip.GzipFile(fileobj=raw, mode="rb") if is_gzip else raw)


def decode_lines(raw_lines: Iterable[bytes], name: str) -> list[str]:
    """Strict UTF-8 decoding of byte lines; bad bytes are a DataError naming ``name``, line and byte."""
    lines = list(decode_iter(raw_lines, name))
    if lines and lines[0].startswith("\ufeff"):
        lines[0] = lines[0][1:]
    return lines


def decode_iter(raw_lines: Iterable[bytes], name: str) -> Iterator[str]:
    """``decode_lines`` one line at a time (the byte-order mark is the caller's)."""
    for number, line in enumerate(raw_lines, start=1):
        line = line[:-2] if line.endswith(b"\r\n") else line[:-1] if line.endswith(b"\n") else line
        try:
            yield line.decode("utf-8")
        except UnicodeDecodeError as e:
            raise DataError(
                f"{name}: line {number}, byte {e.start + 1}: not valid UTF-8 (0x{line[e.start]:02x}); "
                "re-encode the file as UTF-8"
            ) from None


@dataclass
class ParallelSource:
    """A parallel corpus on disk, read lazily: ``pairs()`` streams it, so it is never all in memory.

    ``files`` are the files read (one TSV, or the source and target files), for fingerprints.
    """

    name: str
    src_lang: str
    tgt_lang: str
    files: tuple[Path, ...]
    _tsv_columns: tuple[int, int, int] | None = None  # source index, target index, number of fields

    def pairs(self, position: list[int] | None = None) -> Iterator[tuple[str, str]]:
        """(source, target) sentence pairs in file order; errors name the file and line.
        ``position``: see ``iter_text_lines`` (bytes of the first file read so far)."""
        if self._tsv_columns is not None:
            yield from self._tsv_pairs(position)
            return
        src_path, tgt_path = self.files
        n = 0
        src_lines, tgt_lines = iter_text_lines(src_path, position), iter_text_lines(tgt_path)
        for n, pair in enumerate(itertools.zip_longest(src_lines, tgt_lines), start=1):
            if pair[0] is None or pair[1] is None:
                long, short = (src_path, tgt_path) if pair[1] is None else (tgt_path, src_path)
                n_long = n + sum(1 for _ in (src_lines if pair[1] is None else tgt_lines))
                raise DataError(
                    f"{long} has {n_long} lines but {short} has {n - 1}: {short} has no line {n} "
                    "(the files must be line-aligned)"
                )
            yield pair

    def check(self) -> int:
        """Reads every pair once (UTF-8, fields, alignment: the first problem is a DataError naming
        the file and line) and returns how many there are; none is an error. A quick pass over large
        blocks of bytes (~0.3 s per 1M pairs of plain text) proves a good file good; only a file it
        doubts is read line by line (~2 s per 1M pairs), and that pass names the problem."""
        n = self._quick_count()
        if n is None:
            n = sum(1 for _ in self.pairs())
        if not n:
            raise DataError(f"{self.name} has no sentence pairs")
        return n

    def _quick_count(self) -> int | None:
        """The number of pairs if every line is UTF-8 with the right fields and the files align; else None."""
        if self._tsv_columns is not None:
            lines, ok = _line_stats(self.files[0], self._tsv_columns[2] - 1)
            return lines - 1 if ok else None  # the header is a line
        (n_src, src_ok), (n_tgt, tgt_ok) = (_line_stats(path, None) for path in self.files)
        return n_src if src_ok and tgt_ok and n_src == n_tgt else None

    def _tsv_pairs(self, position: list[int] | None) -> Iterator[tuple[str, str]]:
        si, ti, n_fields = self._tsv_columns
        path = self.files[0]
        lines = iter_text_lines(path, position)
        next(lines)  # the header, read by open_parallel
        for number, line in enumerate(lines, start=2):
            fields = line.split("\t")
            if len(fields) != n_fields:
                plural = "field" if len(fields) == 1 else "fields"
                raise DataError(f"{path}: line {number} has {len(fields)} {plural}, the header has {n_fields}")
            yield fields[si], fields[ti]


def _line_stats(path: Path, tabs: int | None) -> tuple[int, bool]:
    """(lines, whether every line is UTF-8 with ``tabs`` tabs, None: any) of a text file, by blocks of
    whole lines: "\n" and "\t" are ASCII, so a block decodes as UTF-8 exactly when each of its lines does."""
    lines, tail = 0, b""
    try:
        with open_bytes(path) as (_, f):
            while True:
                block = f.read(_CHUNK)
                data = tail + block
                cut = data.rfind(b"\n") + 1 if block else len(data)  # at the end: the last line, "\n" or not
                chunk, tail = data[:cut], data[cut:]
                if chunk:
                    chunk.decode("utf-8")
                    raw = np.frombuffer(chunk, np.uint8)
                    ends = np.flatnonzero(raw == 10)
                    n = len(ends) + (raw[-1] != 10)
                    if tabs is not None:
                        per_line = np.bincount(np.searchsorted(ends, np.flatnonzero(raw == 9)), minlength=n)
                        if len(per_line) != n or (per_line != tabs).any():
                            return lines, False
                    lines += int(n)
                if not block:
                    return lines, True
    except (UnicodeDecodeError, OSError, EOFError, DataError):  # the line-by-line pass says what is wrong
        return lines, False


def open_parallel(path: str | os.PathLike, src_lang: str | None = None, tgt_lang: str | None = None) -> ParallelSource:
    """The parallel corpus at ``path`` (see ``read_parallel``), its languages resolved, its lines not yet read."""
    name = str(path)
    if name.endswith((".tsv", ".tsv.gz")):
        return _open_tsv(Path(path), src_lang, tgt_lang)
    return _open_prefix(name, src_lang, tgt_lang)


def read_parallel(path: str | os.PathLike, src_lang: str | None = None, tgt_lang: str | None = None) -> ParallelCorpus:
    """A parallel corpus from a ``.tsv``/``.tsv.gz`` file, or from a prefix: files ``PREFIX.SRC`` and ``PREFIX.TGT``.

    TSV: the header names the columns; a language left None is the first header column (skipping
    ``ref``/``id`` and the other language). Prefix form: both languages are required; each file may
    also be ``PREFIX.LANG.gz``.
    """
    source = open_parallel(path, src_lang, tgt_lang)
    src, tgt = [], []
    for s, t in source.pairs():
        src.append(s)
        tgt.append(t)
    if not src:
        raise DataError(f"{path} has no sentence pairs")
    return ParallelCorpus(src, tgt, source.src_lang, source.tgt_lang)


def _open_tsv(path: Path, src_lang: str | None, tgt_lang: str | None) -> ParallelSource:
    """TSV form: header line, then one tab-separated row per pair."""
    header_line = next(iter_text_lines(path), None)
    if header_line is None:
        raise DataError(f"{path} is empty: expected a header line naming the columns, like 'ref<TAB>en<TAB>es'")
    header = header_line.split("\t")
    languages = [c for c in header if c not in _ID_COLUMNS]
    if src_lang is None:
        src_lang = next((c for c in languages if c != tgt_lang), None)
    if tgt_lang is None:
        tgt_lang = next((c for c in languages if c != src_lang), None)
    for lang in (src_lang, tgt_lang):
        if lang is None or lang not in header:
            problem = "cannot pick two language columns" if lang is None else f"no column {lang!r}"
            raise DataError(f"{path}: {problem}; the header's columns are {', '.join(header)}")
    columns = (header.index(src_lang), header.index(tgt_lang), len(header))
    return ParallelSource(str(path), src_lang, tgt_lang, (path,), columns)


def _open_prefix(prefix: str, src_lang: str | None, tgt_lang: str | None) -> ParallelSource:
    """Prefix form: ``PREFIX.SRC`` and ``PREFIX.TGT``, line-aligned."""
    if src_lang is None or tgt_lang is None:
        found = sorted(str(p) for p in Path(prefix).parent.glob(Path(prefix).name + ".*"))
        hint = f" (found: {', '.join(found)})" if found else ""
        raise DataError(
            f"{prefix} is not a .tsv file, so it is read as a prefix PREFIX.SRC/PREFIX.TGT: "
            f"give both the source and the target language{hint}"
        )
    files = (_language_file(prefix, src_lang), _language_file(prefix, tgt_lang))
    return ParallelSource(prefix, src_lang, tgt_lang, files)


def _language_file(prefix: str, lang: str) -> Path:
    """``PREFIX.LANG`` or ``PREFIX.LANG.gz``, whichever exists (not both)."""
    plain, zipped = Path(f"{prefix}.{lang}"), Path(f"{prefix}.{lang}.gz")
    if plain.exists() and zipped.exists():
        raise DataError(f"both {plain} and {zipped} exist; remove one of them")
    if zipped.exists():
        return zipped
    if not plain.exists():
        raise DataError(f"no such file: {plain} (nor {zipped.name})")
    return plain
