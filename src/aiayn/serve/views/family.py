"""Bahdanau's alignment and the parser's tree in the studio (issue 45), over ``inference.alignment_views``.

POST /api/alignment {"text": "God is love.", "target": null, "beam": 4, "layer": -1, "head": null}
     -> {"alignment": true, "source", "target" (pieces, EOS included), "alpha" (T × S, rows sum to 1),
         "translation", "architecture", "layers", "heads", "layer", "head"}
     an RNNencdec model: {"alignment": false, "translation", "architecture", "reason", "see"} (no error: it
     has no attention, by design; Bahdanau et al. 2015, arXiv 1409.0473, Figure 3 shows RNNsearch's α)
POST /api/parse {"text": "the dog saw a cat .", "beam": 12, "alpha": 0.3}
     -> {"words", "linearised" (the symbols the model emitted), "tree" (nested {label, children} / {label, word}),
         "brackets", "repairs", "beam"} (Vinyals et al. 2015, arXiv 1412.7449; the paper's §6.3)
"""

from __future__ import annotations

import dataclasses
from typing import Any

from ...decoding.options import DecodeOptions
from ...inference.alignment_views import alignment, parse_tree
from ...inference.parser import PAPER_DECODING, Parser
from ...inference.translator import Translator
from ..requests import Limits, RequestError, _check_text, _options
from .fields import View, fields, integer, number

MAX_WORDS = 60


def offered_alignment(subject) -> bool:
    """Translation models (RNNsearch's α, a Transformer's encoder-decoder attention; RNNencdec says it has none)."""
    return isinstance(subject, Translator)


def offered_parse(subject) -> bool:
    """Parsing models (a sentence in, its linearised tree out)."""
    return isinstance(subject, Parser)


def _text(data: dict[str, Any], name: str, limits: Limits, example: str) -> str:
    text = data.get(name)
    if not isinstance(text, str) or not text.strip():
        raise RequestError(422, f"{name} must be a sentence, e.g. {example}")
    _check_text(name, text, limits.max_attention_chars)
    return text


ALIGNMENT_FIELDS = ("text", "target", "beam", "layer", "head")


def parse_alignment(data, defaults: DecodeOptions, limits: Limits):
    fields(data, ALIGNMENT_FIELDS)
    text = _text(data, "text", limits, '{"text": "God is love."}')
    target = None if data.get("target") is None else _text(data, "target", limits, '{"target": "Dios es amor."}')
    beam = _options({k: v for k, v in data.items() if k == "beam"}, defaults, limits).beam_size
    return text, {"target": target, "beam": beam, "layer": integer(data, "layer", -64, 63, -1),
                  "head": integer(data, "head", 0, 63, optional=True)}


def compute_alignment(translator: Translator, text: str, target: str | None, beam: int, layer: int,
                      head: int | None) -> dict[str, Any]:
    return alignment(translator, text, target, beam, layer, head)


def parse_parse(data, defaults: DecodeOptions, limits: Limits):
    fields(data, ("text", "beam", "alpha"))
    text = _text(data, "text", limits, '{"text": "the dog saw a cat ."}')
    if len(text.split()) > MAX_WORDS:
        raise RequestError(413, f"text has {len(text.split())} words; this view parses at most {MAX_WORDS}")
    beam = integer(data, "beam", 1, limits.max_beam, min(PAPER_DECODING.beam_size, limits.max_beam))
    alpha = number(data, "alpha", 0, 10, PAPER_DECODING.alpha)
    return text, {"options": dataclasses.replace(PAPER_DECODING, beam_size=beam, alpha=alpha)}


def compute_parse(parser: Parser, text: str, options: DecodeOptions) -> dict[str, Any]:
    return {**parse_tree(parser, text, options), "beam": options.beam_size, "alpha": options.alpha}


ALIGNMENT = View("alignment", ALIGNMENT_FIELDS, offered_alignment, parse_alignment, compute_alignment)
PARSE = View("parse", ("text", "beam", "alpha"), offered_parse, parse_parse, compute_parse)
VIEWS = (ALIGNMENT, PARSE)
