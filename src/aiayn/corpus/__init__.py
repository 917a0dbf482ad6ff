"""The built-in corpus: verse-aligned English-Spanish Bible text (public domain; see bible-en-es/README.md)."""

from pathlib import Path

BIBLE = Path(__file__).parent / "bible-en-es"


def builtin(split: str) -> Path:
    """Path of the built-in corpus's ``train``, ``valid`` or ``test`` split (TSV: ref, en, es)."""
    if split not in ("train", "valid", "test"):
        raise ValueError(f"the built-in corpus has train, valid and test splits, not {split!r}")
    return BIBLE / f"{split}.tsv.gz"
