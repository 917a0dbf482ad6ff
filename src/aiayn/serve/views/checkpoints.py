"""Attention as training goes (how alignment appears): one sentence's attention of one kind at every step
checkpoint the run saved, read by each checkpoint's own weights for the same translation (the served
model's), so the maps line up and a slider can walk them. A run still training gains checkpoints; asking
again shows the new ones.

POST /api/checkpoints {"text": "God is love.", "kind": "cross", "beam": 4}
  -> {"source", "translation", "kind", "queries", "keys", "layers", "heads",
      "checkpoints": [{"step", "weights" (L, H, T, S)}], "ms"}
At most ``MAX_SHOWN`` checkpoints, spread evenly over the run (the first and the last kept).
"""

from __future__ import annotations

import copy
import threading
from collections import OrderedDict
from pathlib import Path
from typing import Any

import torch

from ...decoding.options import DecodeOptions
from ...inference.attention_maps import KINDS, all_attention_maps
from ...inference.translator import Translator
from ...io.checkpoint import CheckpointError
from ...io.loader import load
from ...io.registry import capabilities
from ...io.rundir import RunDir
from ..requests import Limits, RequestError, parse_attention

NAME = "checkpoints"
FIELDS = ("text", "beam", "kind")
TAKES_RUN = True  # the app passes the served model's run folder as ``run``
MAX_SHOWN = 24
DIGITS = 3


def offered(translator: Translator) -> bool:
    """Models with attention served from their run folder (RNNsearch: cross only)."""
    return isinstance(translator, Translator) and bool(capabilities(translator.model.config).attention)


def parse(data: dict[str, Any], defaults, limits: Limits) -> tuple[str, dict[str, Any]]:
    kind = data.get("kind", "cross")
    if kind not in KINDS:
        raise RequestError(422, f"kind must be one of {', '.join(KINDS)}")
    text, beam = parse_attention({k: v for k, v in data.items() if k != "kind"}, defaults, limits)
    return text, {"kind": kind, "beam": beam}


def spread(paths: list[Path], most: int = MAX_SHOWN) -> list[Path]:
    """At most ``most`` of ``paths``, evenly spaced, the first and the last among them."""
    if len(paths) <= most:
        return paths
    return [paths[round(i * (len(paths) - 1) / (most - 1))] for i in range(most)]


def best_tokens(translator: Translator, text: str, beam: int) -> list[int]:
    """The served model's best translation of ``text``, as ids (EOS left out): what every checkpoint reads."""
    cfg = translator.model.config
    src_ids = translator.tokenizer.encode([text])[0][: cfg.max_positions - 1] + [cfg.eos_id]
    src = torch.tensor([src_ids], device=translator.device)
    return translator.search(src, DecodeOptions(beam_size=beam))[0][0].tokens


_READ: OrderedDict[tuple, list] = OrderedDict()  # (checkpoint, its mtime, sentence, target, kind) -> weights
_KEPT = 256
_LOCK = threading.Lock()


def _remember(key: tuple, weights: list) -> None:
    with _LOCK:
        _READ[key] = weights
        while len(_READ) > _KEPT:
            _READ.popitem(last=False)


def _read(translator: Translator, path: Path, text: str, beam: int, target: list[int], kind: str) -> list:
    """One checkpoint's ``kind`` attention reading ``target``, rounded: (L, H, T, S) nested lists."""
    reader = copy.copy(translator)
    reader.model = load(path).model.to(translator.device, next(translator.model.parameters()).dtype)
    weights = torch.stack(all_attention_maps(reader, text, beam, target=target)[1][kind][0]).double()
    scale = 10.0 ** DIGITS
    return (weights * scale).round().div(scale).tolist()


def compute(translator: Translator, text: str, run: RunDir, kind: str = "cross", beam: int = 4) -> dict[str, Any]:
    kinds = capabilities(translator.model.config).attention
    if kind not in kinds:
        raise RequestError(422, f"this {translator.model.architecture} model has no {kind} attention; it has "
                                f"{', '.join(kinds)}")
    target = best_tokens(translator, text, beam)
    translation, maps = all_attention_maps(translator, text, beam, target=target)
    _, queries, keys = maps[kind]
    shown = []
    for path in spread(run.list_checkpoints()):
        try:
            key = (str(path), path.stat().st_mtime_ns, text, tuple(target), kind)
            with _LOCK:  # each served model has its own worker thread
                weights = _READ.get(key)
            if weights is None:  # following a run asks again every few seconds: only new checkpoints are read
                weights = _read(translator, path, text, beam, target, kind)
                _remember(key, weights)
            shown.append({"step": int(path.stem.split("-")[-1]), "weights": weights})
        except (CheckpointError, OSError, ValueError):  # removed or half-written while training: skip it
            continue
    if not shown:
        raise RequestError(404, f"{run.path} has no step checkpoints (checkpoints/step-*.safetensors): train with "
                                "--save-every N to keep them")
    first = shown[0]["weights"]
    return {"source": text, "translation": translation, "kind": kind, "queries": queries, "keys": keys,
            "layers": len(first), "heads": len(first[0]), "checkpoints": shown}
