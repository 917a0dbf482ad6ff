"""Attention heat maps: which source pieces each target piece looked at (cf. Bahdanau et al., Fig. 3).

Legend: H heads, T target pieces (EOS included), S source pieces (EOS included).
"""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")  # files only: no display needed
import matplotlib.pyplot as plt  # noqa: E402
import torch  # noqa: E402

from .errors import UsageError  # noqa: E402
from .model.transformer import AttentionMaps  # noqa: E402
from .translator import DecodeOptions, Translator  # noqa: E402

KINDS = ("cross", "encoder", "decoder_self")


@torch.no_grad()
def all_attention_maps(translator: Translator, source: str, beam_size: int = 4):
    """Translates ``source`` once and returns (translation, {kind: (per-layer weights (H, T, S),
    query pieces, key pieces)}) for every kind of attention the model has (RNNsearch: cross only;
    RNNencdec: none)."""
    tok, cfg = translator.tokenizer, translator.model.config
    src_ids = tok.encode([source])[0][: cfg.max_positions - 1] + [cfg.eos_id]
    src = torch.tensor([src_ids], device=translator.device)
    tgt_ids = translator.search(src, DecodeOptions(beam_size=beam_size))[0][0].tokens
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


def plot_attention(translator: Translator, source: str, out: str | Path, kind: str = "cross",
                   layer: int = -1, beam_size: int = 4) -> str:
    """Writes a PNG with one heat map per head of ``layer`` and their mean; returns the translation."""
    translation, layers, queries, keys = attention_maps(translator, source, kind, beam_size)
    weights = layers[layer]  # (H, T, S)
    panels = [("mean of heads", weights.mean(0))] + [(f"head {h + 1}", w) for h, w in enumerate(weights)] \
        if len(weights) > 1 else [("attention", weights[0])]
    cols = min(len(panels), 3)
    rows = -(-len(panels) // cols)
    size = 0.28 * max(len(keys), len(queries)) + 2
    fig, axes = plt.subplots(rows, cols, figsize=(cols * size, rows * size), squeeze=False)
    for ax, (title, w) in zip(axes.flat, panels):
        ax.imshow(w.numpy(), cmap="viridis", vmin=0.0, aspect="auto")
        ax.set_title(title, fontsize=9)
        ax.set_xticks(range(len(keys)), keys, rotation=90, fontsize=7)
        ax.set_yticks(range(len(queries)), queries, fontsize=7)
    for ax in axes.flat[len(panels):]:
        ax.axis("off")
    n_layers = len(layers)
    fig.suptitle(f"{kind} attention, layer {layer % n_layers + 1} of {n_layers}\n{source}\n→ {translation}", fontsize=9)
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    plt.close(fig)
    return translation
