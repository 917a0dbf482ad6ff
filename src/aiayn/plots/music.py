"""Piano rolls of chorale token sequences (the Music Transformer's figures of samples, Huang et al. 2018).

Legend: x = time in sixteenths (a bar line every 16, i.e. every 4/4 bar counted from the first note),
y = MIDI pitch, one colour per voice S A T B; a held note is one bar of its voice's colour.
"""

from __future__ import annotations

import math
import os
from collections.abc import Sequence
from pathlib import Path

import matplotlib

matplotlib.use("Agg")  # files only: no display needed
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.patches import Patch  # noqa: E402

from ..data.music import VOICES, token_pitch, voice_rows  # noqa: E402

COLOURS = ("#d62728", "#2ca02c", "#1f77b4", "#7f3fbf")  # S red, A green, T blue, B purple
BAR = 16  # sixteenths per 4/4 bar


def _notes(row) -> list[tuple[int, int, int]]:
    """(start, length, pitch) of each held note of one voice's (T,) tokens; rests skipped."""
    notes, t = [], 0
    while t < len(row):
        run = 1
        while t + run < len(row) and row[t + run] == row[t]:
            run += 1
        pitch = token_pitch(row[t])
        if pitch is not None:
            notes.append((t, run, pitch))
        t += run
    return notes


def plot_piano_roll(tokens: Sequence[int], path: str | os.PathLike, title: str = "",
                    primer_len: int | None = None) -> Path:
    """Writes a piano-roll PNG of ``tokens`` (S A T B per sixteenth); ``primer_len`` (in tokens) draws
    a line where the primer ends and the model's continuation begins. Returns the path."""
    rows = voice_rows(tokens)  # (V, T)
    n_steps = rows.shape[1]
    fig, ax = plt.subplots(figsize=(min(4 + n_steps / 16, 40), 5))
    for row, colour in zip(rows, COLOURS):
        for start, length, pitch in _notes(row):
            # a small gap at each end so that re-struck notes of the same pitch stay apart
            ax.broken_barh([(start + 0.08, length - 0.16)], (pitch - 0.4, 0.8), color=colour)
    handles = [Patch(color=c, label=v.capitalize()) for v, c in zip(VOICES, COLOURS)]
    if primer_len is not None:
        ax.axvline(primer_len / 4, color="black", ls="--", lw=1.2)
        handles.append(plt.Line2D([], [], color="black", ls="--", label="end of primer"))
    ax.set_axisbelow(True)  # grid lines behind the notes
    ax.set_xlim(0, max(n_steps, 1))
    ax.set_xticks(range(0, n_steps + 1, BAR))
    ax.grid(axis="x", color="0.8", lw=0.8)
    ax.set_xlabel("time in sixteenths (a line every 16: 4/4 bars counted from the first note)")
    low, high = ax.get_ylim()
    octaves = range(12 * math.ceil(low / 12), int(high) + 1, 12)  # every C
    ax.set_yticks(octaves, [f"C{c // 12 - 1} ({c})" for c in octaves])
    ax.grid(axis="y", color="0.9", lw=0.8)
    ax.set_ylabel("MIDI pitch")
    ax.legend(handles=handles, loc="lower right", bbox_to_anchor=(1, 1), fontsize=8, ncol=len(handles),
              frameon=False, borderaxespad=0.2)
    ax.set_title(title, fontsize=10, loc="left")
    fig.tight_layout()
    path = Path(path)
    fig.savefig(path, dpi=110, format="png")  # format: written under a temporary name first
    plt.close(fig)
    return path
