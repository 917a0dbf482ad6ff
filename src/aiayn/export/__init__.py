"""Export a trained encoder-decoder Transformer to other runtimes, computing the same function:

* ``hf``: a Hugging Face ``MarianMTModel`` folder with ``MarianTokenizer`` files (``marian.py``);
* ``ctranslate2``: a CTranslate2 model, float32 or int8 (``ctranslate2.py``), which
  ``aiayn translate --engine ctranslate2`` runs with aiayn's options.

``transformers`` and ``ctranslate2`` (``pip install 'aiayn[export]'``) are imported only when used.
"""

from __future__ import annotations

from pathlib import Path

from ..errors import UsageError

TARGETS = ("hf", "ctranslate2")
QUANTIZATIONS = ("float32", "int8", "int8_float32", "int16", "float16", "bfloat16")


def export(model: str | Path, to: str, out: str | Path, quantization: str | None = None) -> Path:
    """Writes ``model`` (a run directory or a weights file beside its spm.model) as a ``to`` model
    in the new folder ``out``; ``quantization`` (CTranslate2 only): float32 (default) or int8..."""
    from .common import load_exportable

    if to not in TARGETS:
        raise UsageError(f"unknown export target {to!r}; choose one of {', '.join(TARGETS)}")
    if quantization is not None and to != "ctranslate2":
        raise UsageError("--quantization is for --to ctranslate2; a Hugging Face export is float32")
    if quantization is not None and quantization not in QUANTIZATIONS:
        raise UsageError(f"unknown quantization {quantization!r}; choose one of {', '.join(QUANTIZATIONS)}")
    exportable = load_exportable(model, to)
    if to == "hf":
        from .marian import export_marian

        return export_marian(exportable, out)
    from .ctranslate2 import export_ctranslate2

    return export_ctranslate2(exportable, out, quantization or "float32")


def is_ctranslate2_export(path: str | Path) -> bool:
    """A folder written by ``export(..., to="ctranslate2")``."""
    path = Path(path)
    return (path / "model.bin").is_file() and (path / "aiayn.json").is_file()


__all__ = ["QUANTIZATIONS", "TARGETS", "export", "is_ctranslate2_export"]
