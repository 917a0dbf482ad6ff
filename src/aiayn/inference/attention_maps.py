"""Attention weights of one translation, as numbers: which source pieces each target piece looked
at (cf. Bahdanau et al., Fig. 3). The server and the plots share it; it needs no matplotlib.

Legend: H heads, T target pieces (EOS included), S source pieces (EOS included).
"""

from __future__ import annotations

import torch

from ..decoding.options import DecodeOptions
from ..errors import UsageError
from ..io.registry import capabilities
from .translator import Translator

KINDS = ("cross", "encoder", "decoder_self")


@torch.no_grad()
def all_attention_maps(translator: Translator, source: str, beam_size: int = 4, target: list[int] | None = None):
    """Translates ``source`` once and returns (translation, {kind: (per-layer weights (H, T, S),
    query pieces, key pieces)}) for every kind of attention the model has (RNNsearch: cross only;
    RNNencdec: none). ``target``: the translation's ids (EOS left out) when another engine made it;
    the model then reads it (teacher forcing) instead of searching."""
    tok, cfg = translator.tokenizer, translator.model.config
    src_ids = tok.encode([source])[0][: cfg.max_positions - 1] + [cfg.eos_id]
    src = torch.tensor([src_ids], device=translator.device)
    tgt_ids = target if target is not None else translator.search(src, DecodeOptions(beam_size=beam_size))[0][0].tokens
    translation = tok.decode([tgt_ids])[0]
    tgt_in = torch.tensor([[cfg.bos_id] + tgt_ids], device=translator.device)
    kinds = capabilities(cfg).attention
    if not kinds:
        return translation, {}
    maps = translator.model.attention_maps(src, tgt_in)
    src_pieces, tgt_pieces = tok.pieces(src_ids), tok.pieces(tgt_ids + [cfg.eos_id])
    # The decoder's queries are the inputs BOS + target; label each row by the piece it predicts.
    labels = {"cross": (tgt_pieces, src_pieces), "encoder": (src_pieces, src_pieces),
              "decoder_self": (tgt_pieces, tgt_pieces)}
    return translation, {kind: ([w[0].float().cpu() for w in getattr(maps, kind)], *labels[kind]) for kind in kinds}


def attention_maps(translator: Translator, source: str, kind: str = "cross", beam_size: int = 4):
    """Translates ``source`` and returns (translation, per-layer weights (H, T, S), query pieces, key pieces)."""
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {', '.join(KINDS)}, not {kind!r}")
    layers_of(translator.model, kind)
    translation, maps = all_attention_maps(translator, source, beam_size)
    return (translation, *maps[kind])


def layers_of(model, kind: str) -> int:
    """The layers of ``kind`` attention ``model`` has (``io.registry.capabilities``); one line if none."""
    kinds = capabilities(model.config).attention
    if kind not in kinds:
        raise UsageError(f"this {model.architecture} model has " + ("no attention (RNNencdec)" if not kinds else
                         f"only {' and '.join(kinds)} attention: use --kind {next(iter(kinds))}"))
    return kinds[kind]
