"""Decoding on another engine than aiayn's own, for the commands that take ``--engine`` (serve, distill):
CTranslate2 on an export, given or made now in a temporary folder, with the aiayn weights it computes.

CTranslate2 returns at most one layer's cross-attention, averaged over heads; the server's attention view
shows every layer, head and kind, so aiayn's model (float32) computes it by reading CTranslate2's
translation (teacher forcing): the pieces shown are the ones CTranslate2 produced.
"""

from __future__ import annotations

import contextlib
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import UsageError
from ..export import is_ctranslate2_export
from ..io.checkpoint import read_header
from ..io.rundir import model_file_of

ENGINES = ("aiayn", "ctranslate2")


@dataclass
class Engine:
    """A CTranslate2 translator (``translate_nbest``, ``translate_ids``), the aiayn weights it computes, and
    what /api/info says of it."""

    decoder: Any
    weights: Path
    info: dict[str, Any]


def check_engine(model: str | Path, engine: str) -> None:
    """A CTranslate2 export is run by --engine ctranslate2 only; an unknown engine is refused."""
    if engine not in ENGINES:
        raise UsageError(f"unknown engine {engine!r}; choose one of {', '.join(ENGINES)}")
    if engine == "aiayn" and is_ctranslate2_export(model):
        raise UsageError(f"{model} is a CTranslate2 export: add --engine ctranslate2")


@contextlib.contextmanager
def ctranslate2(model: str | Path, device: str = "cpu", dtype: str = "float32") -> Iterator[Engine]:
    """CTranslate2 on ``model``: an export folder (its aiayn.json names the weights it came from), or an aiayn
    model exported now into a temporary folder (int8 weights for ``dtype`` int8), removed afterwards."""
    from ..export import export
    from ..export.ctranslate2 import COMPUTE_TYPES, CTranslate2Translator

    if dtype not in COMPUTE_TYPES:
        raise UsageError(f"--dtype {dtype} is not available with --engine ctranslate2; choose one of "
                         f"{', '.join(COMPUTE_TYPES)}")
    about = {"name": "ctranslate2", "dtype": dtype, "attention": "aiayn's model, float32, reading CTranslate2's "
             "translation"}
    if is_ctranslate2_export(model):
        weights = _exported_from(Path(model))
        yield Engine(CTranslate2Translator(model, device, COMPUTE_TYPES[dtype]), weights,
                     {**about, "export": str(model)})
        return
    weights = model_file_of(model)
    with tempfile.TemporaryDirectory(prefix="aiayn-ct2-") as tmp:
        folder = export(weights, "ctranslate2", Path(tmp) / "ct2", "int8" if dtype == "int8" else None)
        yield Engine(CTranslate2Translator(folder, device, COMPUTE_TYPES[dtype]), weights,
                     {**about, "export": "made when the server started"})


def _exported_from(folder: Path) -> Path:
    """The aiayn weights an export was written from (its aiayn.json), checked to be there and to match."""
    from ..export.common import read_manifest

    manifest = read_manifest(folder)
    weights = Path(manifest.get("source") or "")
    if not weights.is_file():
        raise UsageError(f"{folder} was exported from {weights}, which is not there: the attention view needs "
                         "those aiayn weights; put them back, or give the run itself with --engine ctranslate2")
    if read_header(weights)[1].get("tokenizer_sha256") not in (None, manifest.get("tokenizer_sha256")):
        raise UsageError(f"{weights} is not the model {folder} was exported from (another vocabulary); export it "
                         "again with aiayn export")
    return weights
