"""What both exporters share: loading a model with its vocabulary, the architecture checks, the
lazy import of the target's library, and writing the output folder in one step.

A target that cannot express a field of the model refuses it (a one-line ``UsageError`` naming the
field) rather than writing a model that computes something else.
"""

from __future__ import annotations

import contextlib
import importlib
import json
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from .. import tasks
from ..data import Tokenizer
from ..errors import UsageError
from ..io.atomic import atomic_folder
from ..io.checkpoint import read_header
from ..io.registry import DEFAULT_ARCHITECTURE, capabilities_of
from ..io.rundir import model_file_of
from ..model.config import TransformerConfig

MANIFEST = "aiayn.json"  # written into every export: where it came from, and what the runner needs


@dataclass
class Exportable:
    """A loaded encoder-decoder Transformer, its joint vocabulary, and the weights file it came from."""

    model: object  # aiayn.Transformer, in eval mode
    tokenizer: Tokenizer
    source: Path

    @property
    def config(self) -> TransformerConfig:
        return self.model.config


def load_exportable(path: str | Path, target: str) -> Exportable:
    """A run directory (its best model) or a ``.safetensors`` weights file, with its spm.model; refused
    when its model cannot go to ``target`` (``io.registry.capabilities``)."""
    from ..inference.translator import Translator

    tasks.gate(path, "export")  # a translation model of an architecture that exports
    model_file = model_file_of(path)
    _, meta = read_header(model_file)
    if target not in capabilities_of(meta).export:  # and to this runtime in particular
        architecture = meta.get("architecture") or DEFAULT_ARCHITECTURE
        raise UsageError(f"cannot export {model_file}: architecture={architecture!r}; export takes the "
                         "encoder-decoder Transformer (architecture 'transformer') only")
    translator = Translator.load(model_file)
    return Exportable(translator.model.float().eval(), translator.tokenizer, model_file)


def refuse(target: str, field: str, value, why: str) -> None:
    raise UsageError(f"cannot export to {target}: model.{field}={value!r} {why}")


def check_common(cfg: TransformerConfig, target: str) -> None:
    """The fields neither target can express."""
    if cfg.attention != "full":
        refuse(target, "attention", cfg.attention, "(relative or local self-attention) has no equivalent there")
    if cfg.d_k * cfg.n_heads != cfg.d_model or cfg.d_v != cfg.d_k:
        refuse(target, "d_k", cfg.d_k, f"with d_v={cfg.d_v}: the target needs d_k = d_v = d_model / n_heads")
    if cfg.src_vocab_size != cfg.tgt_vocab_size:
        refuse(target, "tgt_vocab_size", cfg.tgt_vocab_size, "differs from src_vocab_size: one joint vocabulary "
               "is exported")


def require(module: str):
    """Imports the target's library, or says how to install it."""
    try:
        return importlib.import_module(module)
    except ImportError:
        raise UsageError(f"exporting needs the {module} package: pip install 'aiayn[export]'") from None


@contextlib.contextmanager
def output_folder(out: str | Path) -> Iterator[Path]:
    """A fresh temporary folder beside ``out``, renamed to ``out`` when the block succeeds (removed
    if it fails), so ``out`` is never left half-written (``atomic_folder``: a full disk is one line
    naming ``out``, whichever library was writing). ``out`` must not exist, or be empty."""
    out = Path(out)
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        raise UsageError(f"{out} already exists and is not an empty folder; remove it or choose another --out")
    with atomic_folder(out) as folder:
        yield folder
        _readable_by_all(folder)


def _readable_by_all(folder: Path) -> None:
    """Files as a plain write would make them (some writers create 0600 temporary files and rename them)."""
    umask = os.umask(0)
    os.umask(umask)
    for path in folder.rglob("*"):
        if path.is_file():
            path.chmod(0o666 & ~umask)


def write_manifest(folder: Path, exportable: Exportable, target: str, **extra) -> None:
    """aiayn.json: the source weights, the target, the model config, and the vocabulary's fingerprint."""
    manifest = {"target": target, "source": str(exportable.source), "model_config": exportable.config.to_dict(),
                "tokenizer_sha256": exportable.tokenizer.fingerprint(), **extra}
    (folder / MANIFEST).write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")


def read_manifest(folder: Path) -> dict:
    try:
        return json.loads((Path(folder) / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        raise UsageError(f"{folder} is not an aiayn export (no readable {MANIFEST}); write one with "
                         "`aiayn export`") from None
