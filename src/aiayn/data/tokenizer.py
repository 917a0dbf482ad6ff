"""A joint source-target subword vocabulary (paper §5.1: shared BPE), wrapping sentencepiece.

Fixed ids: pad=0, bos=1, eos=2, unk=3 (the defaults of ``TransformerConfig``). Text is not
normalised (``normalization_rule_name="identity"``), so ``decode(encode(x)) == x`` for any text
whose characters were seen in training and whose spaces are single, with none at either end.
"""

from __future__ import annotations

import errno
import hashlib
import io
import os
import re
import tempfile
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path

import sentencepiece as spm

from .errors import DataError

_MAX_TRAINING_LINES = 2_000_000  # above this, sentencepiece trains on a seeded random sample
_MODEL_TYPES = ("bpe", "unigram", "char", "word")


class Tokenizer:
    """A sentencepiece model with pad/bos/eos/unk ids; ``encode`` adds no bos/eos, ``collate`` does."""

    def __init__(self, model_proto: bytes, name: str = "the serialized model"):
        try:
            if not model_proto:  # sentencepiece would take empty bytes for "no model yet"
                raise RuntimeError
            self._sp = spm.SentencePieceProcessor(model_proto=model_proto)
        except (RuntimeError, TypeError):
            raise DataError(f"{name} is not a sentencepiece model") from None
        self._proto = bytes(model_proto)
        for special in ("pad", "bos", "eos", "unk"):
            if getattr(self._sp, f"{special}_id")() < 0:
                raise DataError(f"{name} has no <{special}> id; train it with aiayn (pad=0 bos=1 eos=2 unk=3)")

    # Building ------------------------------------------------------------------------------
    @classmethod
    def train(
        cls,
        texts: Iterable[str],
        model_path: str | os.PathLike,
        vocab_size: int = 8000,
        model_type: str = "bpe",
        character_coverage: float = 1.0,
        seed: int = 0,
    ) -> Tokenizer:
        """Train one joint model on ``texts`` (source and target lines together) and write it to ``model_path``.

        Deterministic: the same texts give a byte-identical model (one thread; up to 2M lines are
        all used, a larger input is sampled down to 2M lines with ``seed``). ``vocab_size`` is a
        hard limit: when the data cannot fill it, this raises DataError asking for a smaller one
        (rather than silently training a smaller vocabulary). Empty lines are ignored. The file is
        written atomically; no ``.vocab`` file is written.
        """
        if model_type not in _MODEL_TYPES:
            raise DataError(f"model type must be one of {', '.join(_MODEL_TYPES)}, not {model_type!r}")
        n_lines = 0

        def non_empty() -> Iterator[str]:
            nonlocal n_lines
            for text in texts:
                if text:
                    n_lines += 1
                    yield text

        spm.set_random_generator_seed(seed)  # used only by the input sampling above 2M lines
        writer = io.BytesIO()
        try:
            spm.SentencePieceTrainer.train(
                sentence_iterator=non_empty(),
                model_writer=writer,
                vocab_size=vocab_size,
                model_type=model_type,
                character_coverage=character_coverage,
                pad_id=0, bos_id=1, eos_id=2, unk_id=3,
                normalization_rule_name="identity",  # keep text as written: decode gives back the input
                input_sentence_size=_MAX_TRAINING_LINES,
                shuffle_input_sentence=True,  # reservoir-sample (seeded) only when input exceeds the size
                num_threads=1,  # recorded in the model: a fixed value keeps the bytes machine-independent
                minloglevel=2,  # errors only; the trainer's progress log is noise for aiayn users
            )
        except RuntimeError as e:
            if n_lines == 0:
                raise DataError("no text to train the vocabulary on: every line is empty") from None
            raise DataError(_training_error(str(e), vocab_size)) from None
        tokenizer = cls(writer.getvalue(), name=str(model_path))
        tokenizer.save(model_path)
        return tokenizer

    @classmethod
    def load(cls, path: str | os.PathLike) -> Tokenizer:
        """Read a sentencepiece ``.model`` file."""
        try:
            return cls(Path(path).read_bytes(), name=str(path))
        except FileNotFoundError:
            raise DataError(f"no such file: {path}") from None
        except IsADirectoryError:
            raise DataError(f"{path} is a directory, not a sentencepiece model") from None

    @classmethod
    def from_bytes(cls, model_proto: bytes) -> Tokenizer:
        """From a serialized model, e.g. one a checkpoint carries."""
        return cls(model_proto)

    def to_bytes(self) -> bytes:
        """The serialized model proto: what the ``.model`` file holds."""
        return self._proto

    def save(self, path: str | os.PathLike) -> None:
        """Write the model atomically: a temporary file in the same folder, then ``os.replace``."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name + ".", suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(self._proto)
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, path)
        except BaseException as e:
            Path(tmp).unlink(missing_ok=True)
            if isinstance(e, OSError) and e.errno in (errno.ENOSPC, errno.EDQUOT):  # the disk's fault, not a bug
                raise DataError(f"cannot write {path}: no space left on the device; nothing was written; free some "
                                "space or write elsewhere, then run again") from None
            raise

    def fingerprint(self) -> str:
        """sha256 hex of the serialized model: two tokenizers agree on every id iff this matches."""
        return hashlib.sha256(self._proto).hexdigest()

    # Ids ---------------------------------------------------------------------------------------
    @property
    def vocab_size(self) -> int:
        return self._sp.get_piece_size()

    @property
    def pad_id(self) -> int:
        return self._sp.pad_id()

    @property
    def bos_id(self) -> int:
        return self._sp.bos_id()

    @property
    def eos_id(self) -> int:
        return self._sp.eos_id()

    @property
    def unk_id(self) -> int:
        return self._sp.unk_id()

    # Text <-> ids --------------------------------------------------------------------------------
    def encode(self, lines: list[str]) -> list[list[int]]:
        """Subword ids of each line, without bos/eos."""
        return self._sp.encode(list(lines), out_type=int)

    def decode(self, ids: Sequence[Sequence[int]]) -> list[str]:
        """Text of each id sequence; pad, bos and eos ids are skipped (unk decodes as " ⁇ ")."""
        skip = {self.pad_id, self.bos_id, self.eos_id}
        return self._sp.decode([[int(i) for i in seq if int(i) not in skip] for seq in ids])

    def pieces(self, ids: Sequence[int]) -> list[str]:
        """The sub-word string of each id (for attention plots)."""
        return [self._sp.id_to_piece(int(i)) for i in ids]

    def encode_as_pieces(self, line: str) -> list[str]:
        """The subword strings of one line, e.g. ``["▁Hel", "lo"]``, to label attention plots."""
        return self._sp.encode(line, out_type=str)

    def __getstate__(self) -> bytes:  # picklable (e.g. for DataLoader workers): the model bytes suffice
        return self._proto

    def __setstate__(self, state: bytes) -> None:
        self.__init__(state)


def _training_error(message: str, vocab_size: int) -> str:
    """sentencepiece's error as one line, with what to do."""
    if m := re.search(r"Vocabulary size too high \(\d+\)\. Please set it to a value <= (\d+)", message):
        return f"vocabulary size {vocab_size} is too large for this data (at most {m[1]}); use a smaller --vocab-size"
    if m := re.search(r"Vocabulary size is smaller than required_chars\. \d+ vs (\d+)", message):
        return (
            f"vocabulary size {vocab_size} is smaller than the {m[1]} characters and special ids it must hold; "
            "use a larger --vocab-size"
        )
    # Drop sentencepiece's "INTERNAL: file.cc(1) [check]" prefix; keep its explanation, on one line.
    detail = re.sub(r"^\w+: \S+ \[.*?\]\s*", "", message.strip()) or message.strip()
    return f"sentencepiece could not train the vocabulary: {' '.join(detail.split())}"
