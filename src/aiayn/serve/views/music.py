"""The Music Transformer in the studio (issue 45; Huang et al. 2018, arXiv 1809.04281), over
``inference.music_views`` and ``inference.relative_views``: five views of a music model (a ``Generator``).

POST /api/primers {}  -> {"primers": [{"index", "name", "tokens"}], "tokens", "bach": Bach's grade is cached,
     "missing": why there are none (no chorale cache yet), or null}
POST /api/chorale {"primer": 0 | null, "primer_tokens": 64, "length": 128, "temperature": 0.6, "top_p": 0.9,
     "seed": 1}  -> {"tokens", "primer_length", "ended", "primer": {"index", "name"} | null, "roll": piano_roll,
     "grade": grade_marks (Bach's medians beside the piece's only when his grade is cached), ...}
POST /api/note_attention {"tokens", "position", "layer", "head"} -> note_attention's answer
POST /api/skewing {"tokens", "layer", "head", "window": 6, "end": null} -> skewing_steps' answer
POST /api/midi {"tokens"} -> audio/midi bytes (a file download)

Tokens are the chorale's pitch and rest tokens (3..61; no BOS, EOS or PAD), at most ``MAX_TOKENS``.
Nothing here parses music21's corpus or grades Bach: the primers and Bach's medians come from the caches
that ``aiayn train --task music`` and ``aiayn grade`` write; without them the views say so.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ...data import music
from ...data.binarized import cache_root
from ...inference.generator import Generator
from ...inference.music_views import bach_reference, continue_chorale, grade_marks, held_out_primers, midi_bytes, piano_roll
from ...inference.relative_views import note_attention, skewing_steps
from ...metrics import chorales as grade
from ..requests import RequestError
from .fields import View, fields, id_list, integer, number

MAX_TOKENS = 1024  # 256 sixteenths, 16 bars of 4/4
MAX_LENGTH = 512  # tokens sampled per request
MAX_PRIMER = 256
MAX_WINDOW = 16  # the skewing's matrices are drawn one number per cell
MISSING = ("no chorale cache yet: it is written the first time a music model trains (make music, or aiayn train "
           "--task music), under AIAYN_CACHE/chorales")


def offered(subject) -> bool:
    """Music models (decoder-only, over the chorales' tokens)."""
    return isinstance(subject, Generator)


def offered_relative(subject) -> bool:
    """Music models with relative self-attention (the skewing acts on their relative embeddings)."""
    return offered(subject) and subject.model.config.attention == "relative"


def chorale_folder() -> Path | None:
    """The chorale cache (``music.load_chorales``' folder) if it is written and current, else None."""
    folder = cache_root() / "chorales"
    try:
        meta = json.loads((folder / "chorales.json").read_text())
        import music21

        if (meta["encoding_version"], meta["music21_version"]) == (music.ENCODING_VERSION, music21.__version__):
            return folder
    except (OSError, ValueError, KeyError):
        pass
    return None


def cached_bach(folder: Path | None) -> dict | None:
    """Bach's reference and medians (``bach_reference``) when ``metrics.chorales.bach_baseline`` has cached
    them for this chorale cache; None otherwise (grading his chorales takes a minute: never in a request)."""
    if folder is None:
        return None
    try:
        meta = json.loads((folder / "chorales.json").read_text())
        saved = json.loads((folder / "grade-bach.json").read_text())
        stamp = {"version": grade.VERSION, "encoding": meta["encoding_version"], "music21": meta["music21_version"],
                 "test": meta["splits"]["test"]["names"]}
    except (OSError, ValueError, KeyError):
        return None
    return bach_reference(str(folder)) if saved.get("stamp") == stamp else None


def tokens_field(data: dict[str, Any], name: str = "tokens") -> list[int]:
    return id_list(data, name, music.REST, music.VOCAB_SIZE - 1, MAX_TOKENS, what="pitch and rest tokens")


# /api/primers
def parse_primers(data, defaults, limits):
    fields(data, ("tokens",))
    return "", {"tokens": integer(data, "tokens", 4, MAX_PRIMER, 64)}


def compute_primers(subject, text: str, tokens: int = 64) -> dict[str, Any]:
    folder = chorale_folder()
    primers = [] if folder is None else held_out_primers(folder, tokens)
    return {"primers": [{"index": i, **p} for i, p in enumerate(primers)], "tokens": tokens - tokens % 4,
            "bach": cached_bach(folder) is not None, "missing": None if folder else MISSING}


# /api/chorale
CHORALE_FIELDS = ("primer", "primer_tokens", "length", "temperature", "top_p", "seed")


def parse_chorale(data, defaults, limits):
    fields(data, CHORALE_FIELDS)
    return "", {"primer": integer(data, "primer", 0, 10_000, optional=True),
                "primer_tokens": integer(data, "primer_tokens", 4, MAX_PRIMER, 64),
                "length": integer(data, "length", 1, MAX_LENGTH, 128),
                "temperature": number(data, "temperature", 0, 5, 0.6, lo_open=True),
                "top_p": number(data, "top_p", 0, 1, 0.9, lo_open=True),
                "seed": integer(data, "seed", 0, 2**31 - 1, 1)}


def compute_chorale(subject: Generator, text: str, primer: int | None, primer_tokens: int, length: int,
                    temperature: float, top_p: float, seed: int) -> dict[str, Any]:
    folder = chorale_folder()
    chosen, tokens = None, []
    if primer is not None:
        if folder is None:
            raise RequestError(409, f"primer {primer} cannot be read: {MISSING}; or send primer null")
        primers = held_out_primers(folder, primer_tokens)
        if primer >= len(primers):
            raise RequestError(422, f"primer must be one of the {len(primers)} held-out chorales (0..{len(primers) - 1})")
        chosen, tokens = {"index": primer, "name": primers[primer]["name"]}, primers[primer]["tokens"]
    out = continue_chorale(subject, tokens, length, temperature, top_p, seed)
    return {**out, "primer": chosen, "temperature": temperature, "top_p": top_p, "seed": seed,
            "roll": piano_roll(out["tokens"]), "grade": grade_marks(out["tokens"], cached_bach(folder))}


# /api/note_attention
def parse_note(data, defaults, limits):
    fields(data, ("tokens", "position", "layer", "head"))
    tokens = tokens_field(data)
    return "", {"tokens": tokens, "position": integer(data, "position", 0, len(tokens) - 1, len(tokens) - 1),
                "layer": integer(data, "layer", 0, 63, 0), "head": integer(data, "head", 0, 63, 0)}


def compute_note(subject: Generator, text: str, tokens: list[int], position: int, layer: int, head: int) -> dict:
    return note_attention(subject.model, tokens, position, layer, head)


# /api/skewing
def parse_skewing(data, defaults, limits):
    fields(data, ("tokens", "layer", "head", "window", "end"))
    tokens = tokens_field(data)
    return "", {"tokens": tokens, "layer": integer(data, "layer", 0, 63, 0), "head": integer(data, "head", 0, 63, 0),
                "window": integer(data, "window", 1, MAX_WINDOW, 6),
                "end": integer(data, "end", 0, len(tokens) - 1, optional=True)}


def compute_skewing(subject: Generator, text: str, tokens: list[int], layer: int, head: int, window: int,
                    end: int | None) -> dict:
    return skewing_steps(subject.model, tokens, layer, head, window, end)


# /api/midi
def parse_midi(data, defaults, limits):
    fields(data, ("tokens",))
    return "", {"tokens": tokens_field(data)}


def compute_midi(subject, text: str, tokens: list[int]) -> bytes:
    return midi_bytes(tokens)


PRIMERS = View("primers", ("tokens",), offered, parse_primers, compute_primers)
CHORALE = View("chorale", CHORALE_FIELDS, offered, parse_chorale, compute_chorale)
NOTE = View("note_attention", ("tokens", "position", "layer", "head"), offered, parse_note, compute_note)
SKEWING = View("skewing", ("tokens", "layer", "head", "window", "end"), offered_relative, parse_skewing, compute_skewing)
MIDI = View("midi", ("tokens",), offered, parse_midi, compute_midi, MEDIA_TYPE="audio/midi", FILENAME="chorale.mid")
VIEWS = (PRIMERS, CHORALE, NOTE, SKEWING, MIDI)
