"""NLL by position of a chorale model, past what it was trained on (the Music Transformer's test of lengths never
seen in training): the test chorales each scored whole from its start in one pass, as a model sees a piece it is
writing, and chained two by two (BOS a EOS b), out past every training length. Until commit 0b6cefe this was
benchmarks/whole_chorales.py's report; the figures keep its names."""

from __future__ import annotations

from pathlib import Path
from typing import Any

KINDS = ("whole", "chained")
REGIONS = {  # kind -> (figure, first position, past the last; None: to the end)
    "whole": (("whole_nll_all", 0, None), ("whole_nll_0_256", 0, 256), ("whole_nll_256_512", 256, 512),
              ("whole_nll_512_2048", 512, 2048), ("whole_nll_2048_end", 2048, None)),
    "chained": (("chained_nll_0_2048", 0, 2048), ("chained_nll_2048_4096", 2048, 4096)),
}
SMOOTH, REACHED = 32, 3  # a drawn point: the mean of 32 positions that at least 3 sequences reach


def nll_by_position(weights: Path, kinds: tuple[str, ...]) -> dict[str, Any]:
    """The mean NLL of each region of ``REGIONS`` that some sequence reaches, for each of ``kinds``; the tokens past
    2,048 of the whole pieces; the drawn curves (``by_position``: kind -> [positions, NLL]), so that the picture
    needs no model."""
    from ..data import music
    from ..io.registry import load_model
    from ..tasks.language_model import nll_by_position as summed
    from ..tasks.music import chorale_sequences

    model, _ = load_model(weights)
    _, test = chorale_sequences("test")
    pieces = {"whole": test, "chained": [a + [music.EOS] + b for a, b in zip(test[0::2], test[1::2])]}
    out: dict[str, Any] = {"by_position": {}}
    for kind in kinds:
        nll, count = summed(model, pieces[kind], music.BOS)
        for name, lo, hi in REGIONS[kind]:
            if count[lo:hi].sum() > 0:  # no sequence reaches it: no figure
                out[name] = nll[lo:hi].sum().item() / count[lo:hi].sum().item()
        if kind == "whole":
            out["whole_tokens_2048_end"] = int(count[2048:].sum())
        points = [(i + SMOOTH / 2, nll[i:i + SMOOTH].sum().item() / count[i:i + SMOOTH].sum().item())
                  for i in range(0, len(nll), SMOOTH) if count[i:i + SMOOTH].sum().item() >= REACHED]
        out["by_position"][kind] = [[x for x, _ in points], [y for _, y in points]]
    return out
