"""Attention weights of one translation, as numbers: which source pieces each target piece looked
at (cf. Bahdanau et al., Fig. 3). The server and the plots share it; it needs no matplotlib.

Legend: H heads, T target pieces (EOS included), S source pieces (EOS included).
"""

from __future__ import annotations

import torch

from ..decoding.options import DecodeOptions
from ..errors import UsageError
from ..model.transformer import AttentionMaps
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
    _, maps = translator.model(src, tgt_in, return_attention=True)
    if maps is None:
        return translation, {}
    if not isinstance(maps, AttentionMaps):  # RNNsearch: one additive attention α (B, T, S)
        maps = AttentionMaps([], [], [maps[:, None]])
    src_pieces, tgt_pieces = tok.pieces(src_ids), tok.pieces(tgt_ids + [cfg.eos_id])
    # The decoder's queries are the inputs BOS + target; label each row by the piece it predicts.
    labels = {"cross": (tgt_pieces, src_pieces), "encoder": (src_pieces, src_pieces),
              "decoder_self": (tgt_pieces, tgt_pieces)}
    return translation, {kind: ([w[0].float().cpu() for w in getattr(maps, kind)], *labels[kind])
                         for kind in KINDS if getattr(maps, kind)}


def attention_maps(translator: Translator, source: str, kind: str = "cross", beam_size: int = 4):
    """Translates ``source`` and returns (translation, per-layer weights (H, T, S), query pieces, key pieces)."""
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {', '.join(KINDS)}, not {kind!r}")
    translation, maps = all_attention_maps(translator, source, beam_size)
    if kind not in maps:
        raise UsageError(f"this {translator.model.architecture} model has "
                         + ("no attention (RNNencdec)" if not maps else "only cross attention: use --kind cross"))
    return (translation, *maps[kind])
