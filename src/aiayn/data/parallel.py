"""Reading parallel corpora: a TSV file with a header (``ref\\ten\\tes``) or one file per language.

Every problem becomes a one-line :class:`DataError` naming the file and line. Empty lines are kept
here; dropping empty or over-long pairs is :func:`aiayn.data.filter_pairs`' job, after tokenizing.
"""

from __future__ import annotations

import gzip
import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from .errors import DataError

_GZIP_MAGIC = b"\x1f\x8b"
_ID_COLUMNS = ("ref", "id")  # TSV columns that are never a language


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
    path = Path(path)
    try:
        with open(path, "rb") as raw:
            is_gzip = raw.read(2) == _GZIP_MAGIC
    except FileNotFoundError:
        raise DataError(f"no such file: {path}") from None
    except IsADirectoryError:
        raise DataError(f"{path} is a directory, not a text file") from None
    except OSError as e:
        raise DataError(f"{path}: cannot read: {e.strerror or e}") from None
    try:
        with gzip.open(path, "rb") if is_gzip else open(path, "rb") as f:
            return decode_lines(f, str(path))
    except (OSError, EOFError) as e:  # gzip.BadGzipFile is an OSError; EOFError: truncated gzip
        raise DataError(f"{path}: cannot read: {e}") from None


def decode_lines(raw_lines: Iterable[bytes], name: str) -> list[str]:
    """Strict UTF-8 decoding of byte lines; bad bytes are a DataError naming ``name``, line and byte."""
    lines: list[str] = []
    for number, line in enumerate(raw_lines, start=1):
        line = line[:-2] if line.endswith(b"\r\n") else line[:-1] if line.endswith(b"\n") else line
        try:
            lines.append(line.decode("utf-8"))
        except UnicodeDecodeError as e:
            raise DataError(
                f"{name}: line {number}, byte {e.start + 1}: not valid UTF-8 (0x{line[e.start]:02x}); "
                "re-encode the file as UTF-8"
            ) from None
    if lines and lines[0].startswith("\ufeff"):
        lines[0] = lines[0][1:]
    return lines


def read_parallel(path: str | os.PathLike, src_lang: str | None = None, tgt_lang: str | None = None) -> ParallelCorpus:
    """A parallel corpus from a ``.tsv``/``.tsv.gz`` file, or from a prefix: files ``PREFIX.SRC`` and ``PREFIX.TGT``.

    TSV: the header names the columns; a language left None is the first header column (skipping
    ``ref``/``id`` and the other language). Prefix form: both languages are required; each file may
    also be ``PREFIX.LANG.gz``.
    """
    name = str(path)
    if name.endswith((".tsv", ".tsv.gz")):
        corpus = _read_tsv(Path(path), src_lang, tgt_lang)
    else:
        corpus = _read_prefix(name, src_lang, tgt_lang)
    if not corpus:
        raise DataError(f"{path} has no sentence pairs")
    return corpus


def _read_tsv(path: Path, src_lang: str | None, tgt_lang: str | None) -> ParallelCorpus:
    """TSV form: header line, then one tab-separated row per pair."""
    lines = read_text_lines(path)
    if not lines:
        raise DataError(f"{path} is empty: expected a header line naming the columns, like 'ref<TAB>en<TAB>es'")
    header = lines[0].split("\t")
    languages = [c for c in header if c not in _ID_COLUMNS]
    if src_lang is None:
        src_lang = next((c for c in languages if c != tgt_lang), None)
    if tgt_lang is None:
        tgt_lang = next((c for c in languages if c != src_lang), None)
    for lang in (src_lang, tgt_lang):
        if lang is None or lang not in header:
            problem = "cannot pick two language columns" if lang is None else f"no column {lang!r}"
            raise DataError(f"{path}: {problem}; the header's columns are {', '.join(header)}")
    si, ti, n_fields = header.index(src_lang), header.index(tgt_lang), len(header)
    src, tgt = [], []
    for number, line in enumerate(lines[1:], start=2):
        fields = line.split("\t")
        if len(fields) != n_fields:
            plural = "field" if len(fields) == 1 else "fields"
            raise DataError(f"{path}: line {number} has {len(fields)} {plural}, the header has {n_fields}")
        src.append(fields[si])
        tgt.append(fields[ti])
    return ParallelCorpus(src, tgt, src_lang, tgt_lang)


def _read_prefix(prefix: str, src_lang: str | None, tgt_lang: str | None) -> ParallelCorpus:
    """Prefix form: ``PREFIX.SRC`` and ``PREFIX.TGT``, line-aligned."""
    if src_lang is None or tgt_lang is None:
        found = sorted(str(p) for p in Path(prefix).parent.glob(Path(prefix).name + ".*"))
        hint = f" (found: {', '.join(found)})" if found else ""
        raise DataError(
            f"{prefix} is not a .tsv file, so it is read as a prefix PREFIX.SRC/PREFIX.TGT: "
            f"give both the source and the target language{hint}"
        )
    src_path, tgt_path = _language_file(prefix, src_lang), _language_file(prefix, tgt_lang)
    src, tgt = read_text_lines(src_path), read_text_lines(tgt_path)
    if len(src) != len(tgt):
        (short, n_short), (long, n_long) = sorted([(src_path, len(src)), (tgt_path, len(tgt))], key=lambda p: p[1])
        raise DataError(
            f"{long} has {n_long} lines but {short} has {n_short}: {short} has no line {n_short + 1} "
            "(the files must be line-aligned)"
        )
    return ParallelCorpus(src, tgt, src_lang, tgt_lang)


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
