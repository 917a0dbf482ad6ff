"""Beam search, step by step (paper §6.1: beam 4, α = 0.6): at each step the live hypotheses with their
log-probabilities, the 2K candidates considered and each one's fate (kept, finished, pruned), the GNMT
length penalty applied, then the n-best. Recorded by the real search (``decoding.beam.BeamTrace``).

POST /api/beam {"text": "God is love.", "beam": 4, "alpha": 0.6, "nbest": 4}
  -> {"source", "beam", "alpha", "steps": [{"step", "length_penalty", "beams": [{"pieces", "log_prob"}],
      "candidates": [{"parent", "piece", "log_prob", "fate", "score"?}]}], "nbest": [{"text", "pieces", "score",
      "log_prob"}], "ms"}
"""

from __future__ import annotations

import dataclasses
import math
from typing import Any

from ...decoding.options import DecodeOptions
from ...inference.translator import Translator
from ..requests import Limits, RequestError, _check_fields, _check_text, _options

NAME = "beam"
FIELDS = ("text", "beam", "alpha", "nbest")


def offered(translator: Translator) -> bool:
    """Every translation model (the Transformer, RNNsearch, RNNencdec: each searches)."""
    return isinstance(translator, Translator)  # it loads only models that search (io.registry.capabilities)


def parse(data: dict[str, Any], defaults: DecodeOptions, limits: Limits) -> tuple[str, dict[str, Any]]:
    _check_fields(data, FIELDS)
    text = data.get("text")
    if not isinstance(text, str) or not text.strip():
        raise RequestError(422, 'text must be a sentence to translate, e.g. {"text": "God is love.", "beam": 4}')
    _check_text("text", text, limits.max_attention_chars)
    options = _options(data, defaults, limits)
    if options.beam_size < 2:
        raise RequestError(422, "beam must be 2 or more: beam 1 is greedy search, which keeps no beams to show")
    return text, {"options": dataclasses.replace(options, nbest=data.get("nbest") or options.beam_size)}


def compute(translator: Translator, text: str, options: DecodeOptions) -> dict[str, Any]:
    trace, pieces = translator.beam_trace(text, options)
    tok = translator.tokenizer

    def words(ids: list[int]) -> list[str]:
        return [pieces[i] for i in ids]

    def num(x: float) -> float | None:  # -inf (a token the rules forbid) is null in JSON
        return round(x, 4) if math.isfinite(x) else None

    steps = [{"step": s["step"], "length_penalty": round(s["length_penalty"], 5),
              "beams": [{"pieces": words(b["tokens"]), "log_prob": num(b["log_prob"])} for b in s["beams"]],
              "candidates": [{"parent": c["parent"], "piece": pieces[c["token"]], "log_prob": num(c["log_prob"]),
                              "fate": c["fate"], **({"score": num(c["score"])} if "score" in c else {})}
                             for c in s["candidates"]]}
             for s in trace.steps]
    nbest = [{"text": tok.decode([h.tokens])[0], "pieces": words(h.tokens), "score": round(h.score, 4),
              "log_prob": round(h.log_prob, 4)} for h in trace.nbest[0]]
    return {"source": text, "beam": options.beam_size, "alpha": options.alpha, "steps": steps, "nbest": nbest}
