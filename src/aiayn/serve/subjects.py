"""What ``GET /api/info`` says of a served model that does not translate. Which object a model is served as
is its task's answer (``Task.subject``: a ``Translator``, a ``Generator`` for music, an ``ImageModel`` for
digits and superres, a ``Parser``); the worker thread owns it and the studio's views take those they can show.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..inference.translator import Translator
from ..io.registry import capabilities
from ..io.rundir import model_file_of

CONFIG_FIELDS = ("d_model", "n_heads", "d_ff", "n_layers", "n_encoder_layers", "n_decoder_layers", "embed_dim",
                 "hidden", "vocab_size", "src_vocab_size", "tgt_vocab_size", "max_positions", "positional",
                 "attention", "block", "memory", "local_block", "local_memory", "n_classes")


def describe(subject: Any, path: str | Path | None) -> dict[str, Any]:
    """What the page and ``GET /api/info`` show of a model that is not a translator: its task, architecture,
    sizes and the views it offers (translators: ``worker.model_info``, which adds the languages)."""
    from .views import offered

    model = subject.model
    cfg = model.config
    return {"model": str(path or ""), "weights": model_file_of(path).name if path else "",
            "task": getattr(subject, "task", None), "architecture": model.architecture,  # task: set by tasks.subject
            "parameters": sum(p.numel() for p in model.parameters()),
            "config": {name: getattr(cfg, name) for name in CONFIG_FIELDS if hasattr(cfg, name)},
            "device": str(next(model.parameters()).device), "dtype": str(next(model.parameters()).dtype)[6:],
            "attention_kinds": [] if not isinstance(subject, Translator) else list(capabilities(cfg).attention),
            "src": None, "tgt": None, "views": offered(subject)}
