"""The walk-through (paper §3, in its order): one sentence through the model, every step's shape and
numbers, read from the real forward pass (``inference.inspect.walk_through``), then the top next pieces.

POST /api/walkthrough {"text": "God is love.", "beam": 4, "layer": 0}
  -> {"source", "translation", "source_pieces", "target_pieces" (BOS first), "layer",
      "steps": [{"key", "label", "section", "shape", "values"}], "next": [{"piece", "p"}],
      "decoding": [{"fed", "cache", "cross", "next": [{"piece", "p"}]}], "ms"}
Steps of one encoder layer and one decoder layer (``layer``, 0-based) besides the embeddings and the output;
then the decoder as search runs it, one piece at a time with its cache (``inspect.decode_steps``): the piece
fed, the shape of the first layer's cached keys and of the encoder-decoder keys, and the top next pieces.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import torch

from ...decoding.options import DecodeOptions
from ...inference.inspect import decode_steps, walk_through
from ...inference.translator import Translator
from ..requests import Limits, RequestError, parse_attention

NAME = "walkthrough"
FIELDS = ("text", "beam", "layer")
DIGITS = 3


def offered(translator: Translator) -> bool:
    """The encoder-decoder Transformer (its modules are what the hooks read)."""
    return isinstance(translator, Translator) and translator.model.architecture == "transformer"


def parse(data: dict[str, Any], defaults: DecodeOptions, limits: Limits) -> tuple[str, dict[str, Any]]:
    layer = data.get("layer", 0)
    if not isinstance(layer, int) or isinstance(layer, bool) or not 0 <= layer < 64:
        raise RequestError(422, "layer must be an integer from 0 (the first layer of each stack)")
    text, beam = parse_attention({k: v for k, v in data.items() if k != "layer"}, defaults, limits)
    return text, {"options": dataclasses.replace(defaults, beam_size=beam, nbest=1), "layer": layer}


def compute(translator: Translator, text: str, options: DecodeOptions, layer: int = 0) -> dict[str, Any]:
    cfg, tok = translator.model.config, translator.tokenizer
    if layer >= min(cfg.n_encoder_layers, cfg.n_decoder_layers):
        raise RequestError(422, f"layer {layer} does not exist: this model has {cfg.n_encoder_layers} encoder and "
                                f"{cfg.n_decoder_layers} decoder layers (0-based)")
    src_ids = tok.encode([text])[0][: cfg.max_positions - 1] + [cfg.eos_id]
    src = torch.tensor([src_ids], device=translator.device)
    target = translator.search(src, options)[0][0].tokens
    tgt_in = [cfg.bos_id] + target
    steps, _, top = walk_through(translator.model, src_ids, tgt_in)
    keep = ("encoder.embed", "encoder.positions", "encoder.input", "decoder.embed", "decoder.input", "output.logits")
    shown = [s for s in steps if s.key in keep or s.key.startswith((f"encoder.{layer}.", f"decoder.{layer}."))]
    scale = 10.0 ** DIGITS
    return {"source": text, "translation": tok.decode([target])[0], "layer": layer,
            "source_pieces": tok.pieces(src_ids), "target_pieces": tok.pieces(tgt_in),
            "steps": [{"key": s.key, "label": s.label, "section": s.section, "shape": s.shape,
                       "values": (s.values.double() * scale).round().div(scale).tolist()}
                      for s in shown if s.key != "output.logits"],
            "logits_shape": next(s.shape for s in steps if s.key == "output.logits"),
            "next": [{"piece": tok.pieces([i])[0], "p": round(p, 5)} for i, p in top],
            "decoding": [{"fed": tok.pieces([d["fed"]])[0], "cache": d["cache"], "cross": d["cross"],
                          "next": [{"piece": tok.pieces([i])[0], "p": round(p, 5)} for i, p in d["top"]]}
                         for d in decode_steps(translator.model, src_ids, target)]}
