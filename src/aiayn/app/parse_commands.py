"""The verbs for parsing models (paper §6.3): ``aiayn evaluate`` on trees, ``aiayn parse`` on sentences.

Evaluation parses the words of each gold tree (the SYNTHETIC treebank's test split, or the user's
Penn Treebank file), writes the parsed trees beside the model, and scores them with EVALB's
COLLINS.prm rules (``aiayn.evalb``): labelled bracket precision, recall, F1, exact match, and how
many predictions needed repairs to be trees.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from ..data.synthetic_treebank import synthetic_split
from ..data.treebank import normalise, read_trees
from ..decoding.options import DecodeOptions
from ..errors import UsageError
from ..inference.parser import PAPER_DECODING, Parser
from ..io.checkpoint import atomic_path
from ..metrics.evalb import score_corpus

SYNTHETIC_TEST = "synthetic-treebank-test"  # the name of the built-in test split in file names and reports


def evaluate_parsing(model: str | Path, test: str | None = None, options: DecodeOptions = PAPER_DECODING,
                     device: str = "cpu", progress=None) -> dict:
    """Parses the test trees' words and scores the parses against them; returns the figures, the path
    of the parsed trees (``parsed.TEST.beamK.mrg`` beside the model) and the number repaired."""
    golds = [normalise(t, test) for t in read_trees(test)] if test else synthetic_split("test")
    name = Path(test).name.split(".")[0] if test else SYNTHETIC_TEST
    model = Path(model)
    folder, which = (model, "") if model.is_dir() else (model.parent, f"{model.stem}.")
    out = folder / f"parsed.{which}{name}.beam{options.beam_size}.mrg"
    parser = Parser.load(model, device)
    _check_writable(folder)
    parses = parser.parse([g.words() for g in golds], options, [g.tags() for g in golds], progress)
    with atomic_path(out) as tmp:
        tmp.write_text("".join(f"{p.tree}\n" for p in parses), encoding="utf-8")
    scores = score_corpus(golds, [p.tree for p in parses])
    return {"test": test or SYNTHETIC_TEST, "sentences": len(golds), "precision": scores.precision,
            "recall": scores.recall, "f1": scores.f1, "exact_match": scores.exact_match, "matched": scores.matched,
            "gold_brackets": scores.gold, "test_brackets": scores.test, "skipped": scores.skipped,
            "repaired": sum(p.repairs > 0 for p in parses), "out": out}


def parse_lines(model: str | Path, lines: list[str], options: DecodeOptions = PAPER_DECODING, device: str = "cpu",
                progress=None) -> tuple[list[str], int]:
    """One tree (a line of brackets, POS tags XX) per line of space-separated words, in order; an empty
    line gives an empty line. Also returns how many predictions were repaired."""
    parser = Parser.load(model, device)
    picked = [i for i, line in enumerate(lines) if line.split()]
    parses = parser.parse([lines[i].split() for i in picked], options, progress=progress)
    out = [""] * len(lines)
    for i, p in zip(picked, parses):
        out[i] = str(p.tree)
    return out, sum(p.repairs > 0 for p in parses)


def _check_writable(folder: Path) -> None:
    """Fails before any decoding if the parsed trees could not be written beside the model."""
    try:
        tempfile.TemporaryFile(dir=folder).close()
    except OSError as e:
        raise UsageError(f"cannot write the parsed trees into {folder}: {e.strerror or e}; "
                         "copy the model somewhere writable") from None
