"""Attention heat maps as pictures: which source pieces each target piece looked at (cf. Bahdanau et al., Fig. 3).

Legend: H heads, T target pieces (EOS included), S source pieces (EOS included).
"""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")  # files only: no display needed
import matplotlib.pyplot as plt  # noqa: E402

from ..inference.attention_maps import attention_maps  # noqa: E402
from ..inference.translator import Translator  # noqa: E402


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
    fig.savefig(out, dpi=110, format="png")  # format: written under a temporary name first
    plt.close(fig)
    return translation
