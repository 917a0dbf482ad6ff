"""Synthetic sequence tasks where the fixed-vector bottleneck shows in minutes (Bahdanau et al. 2015, Figure 2):
copy or reverse a random string of ``symbols`` letter-words whose length is uniform in [min_len, max_len].
A sentence of n words is n sub-words, so "length" means the same thing to every model. The files are TSVs
(columns ``in`` and ``out``) written once per spec, atomically, and reused by every run of the experiment."""

from __future__ import annotations

import json
import random
import string
from pathlib import Path
from typing import Any

from ..errors import UsageError
from ..io.atomic import atomic_folder

DEFAULTS = {"task": "copy", "symbols": 20, "min_len": 5, "max_len": 80, "train_pairs": 50000,
            "valid_pairs": 300, "test_pairs": 1000, "seed": 1}


def pairs(n: int, task: str, symbols: int, min_len: int, max_len: int, rng: random.Random) -> list[tuple[str, str]]:
    """``n`` (input, output) pairs: a random string of letters and its copy or its reverse."""
    letters = string.ascii_lowercase[:symbols]
    out = []
    for _ in range(n):
        words = [rng.choice(letters) for _ in range(rng.randint(min_len, max_len))]
        out.append((" ".join(words), " ".join(words if task == "copy" else words[::-1])))
    return out


def write_task(spec: dict[str, Any], folder: Path) -> dict[str, str]:
    """The train, valid and test TSVs of ``spec`` in ``folder`` (written unless already there for this spec)."""
    unknown = sorted(set(spec) - set(DEFAULTS))
    if unknown:
        raise UsageError(f"unknown synthetic data setting {unknown[0]!r}; known: {', '.join(DEFAULTS)}")
    s = {**DEFAULTS, **spec}
    if s["task"] not in ("copy", "reverse") or not 1 <= s["symbols"] <= 26 or not 1 <= s["min_len"] <= s["max_len"]:
        raise UsageError("synthetic data: task is copy or reverse, symbols 1 to 26, 1 <= min_len <= max_len")
    files = {split: str(folder / f"{split}.tsv") for split in ("train", "valid", "test")}
    meta = folder / "spec.json"
    if meta.exists():
        if json.loads(meta.read_text()) == s:
            return files
        raise UsageError(f"{folder} holds another version of this experiment's data; delete {folder.parent} "
                         "(its data and runs) to start the experiment again")
    rng = random.Random(s["seed"])
    with atomic_folder(folder) as tmp:
        tmp.mkdir()
        for split in ("train", "valid", "test"):
            rows = pairs(s[f"{split}_pairs"], s["task"], s["symbols"], s["min_len"], s["max_len"], rng)
            (tmp / f"{split}.tsv").write_text("id\tin\tout\n" + "".join(f"{i}\t{a}\t{b}\n" for i, (a, b) in enumerate(rows)))
        (tmp / "spec.json").write_text(json.dumps(s))
    return files
