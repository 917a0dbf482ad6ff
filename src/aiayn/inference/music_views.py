"""A chorale as the studio draws and plays it (issue 45; the Music Transformer, Huang et al. 2018): plain
JSON-able dicts and lists, read from the tokens of ``aiayn.data.music`` (S A T B per sixteenth) and the
grade of ``aiayn.metrics.chorales``. Nothing is drawn here.

Legend: N tokens (BOS left out, cut at EOS), T = ⌈N / 4⌉ sixteenths, voice 0..3 = S A T B; token k sounds
at sixteenth k // 4 in voice k % 4; a note runs [start, end) in sixteenths.

* ``piano_roll(tokens)``: {"steps": T, "voices", "notes": [{voice, pitch, start, end, first_token}],
  "token_step", "token_voice", "token_note" (each of N entries: the note a token belongs to, None for a rest),
  "pitch_range" (the vocabulary's MIDI pitches), "seconds_per_step" (the tempo ``midi_bytes`` plays at)};
* ``grade_marks(tokens, bach)``: the grade's findings placed in time ({"parallels": [{kind, voices, step}],
  "crossings": [{voices, start, end}], "out_of_range": [{voice, pitch, start, end, range}]}), the piece's
  grade ("grade") and Bach's held-out medians beside it ("bach", None without ``bach_reference``), the
  statistics' names ("labels") and the parallels' ("kinds");
* ``bach_reference(cache_dir)``: Bach's reference histograms and his test chorales' medians (cached);
* ``continue_chorale(model, primer, length, ...)``: {"tokens", "primer_length", "ended"};
* ``held_out_primers(cache_dir, tokens)``: [{"name", "tokens"}] cut from the held-out (test) chorales;
* ``midi_bytes(tokens)``: a standard MIDI file, one track per voice, as bytes.
"""

from __future__ import annotations

import functools
import math
import tempfile
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from ..data import music
from ..data.binarized import cache_root
from ..metrics import chorales as grade
from .generator import Generator

VOICE_LETTERS = ("S", "A", "T", "B")
QUARTER_SECONDS = 0.5  # the tempo write_midi's files play at (music21's default, 120 quarters a minute)
PARALLELS = {"5ths": "parallel fifth", "8ves": "parallel octave"}  # a parallel mark's kind, named


def body(tokens: Sequence[int]) -> list[int]:
    """Pitch and REST tokens only (a leading BOS dropped, cut at EOS); ValueError for PAD or BOS inside."""
    out = music._body(tokens)
    grade.pitches(out)  # refuses what is no pitch or rest
    return out


def _runs(row: np.ndarray) -> list[tuple[int, int, int]]:
    """(start, end, value) of each run of equal values in one voice's (T,) pitches."""
    edges = np.flatnonzero(np.diff(row)) + 1
    starts, ends = np.concatenate([[0], edges]), np.concatenate([edges, [len(row)]])
    return [(int(s), int(e), int(row[s])) for s, e in zip(starts, ends)]


def piano_roll(tokens: Sequence[int]) -> dict:
    """The notes of each voice (a run of one pitch is one held note, as ``tokens_to_score`` writes it)
    and where each token sits on the roll (see the module's docstring)."""
    tokens = body(tokens)
    p = grade.pitches(tokens)  # (4, T), -1 where a voice rests
    notes = sorted(({"voice": v, "pitch": q, "start": s, "end": e, "first_token": 4 * s + v}
                    for v, row in enumerate(p) for s, e, q in _runs(row) if q >= 0),
                   key=lambda n: (n["start"], n["voice"]))
    token_note: list[int | None] = [None] * len(tokens)
    for i, n in enumerate(notes):
        for step in range(n["start"], n["end"]):  # an incomplete last sixteenth rests where it has no token
            token_note[4 * step + n["voice"]] = i
    return {"steps": int(p.shape[1]), "voices": list(VOICE_LETTERS), "notes": notes,
            "token_step": [k // 4 for k in range(len(tokens))], "token_voice": [k % 4 for k in range(len(tokens))],
            "token_note": token_note, "pitch_range": [music.MIN_PITCH, music.MAX_PITCH],
            "seconds_per_step": QUARTER_SECONDS / music.STEPS_PER_QUARTER}


def marks(p: np.ndarray) -> dict[str, list[dict]]:
    """The grade's findings in time: each parallel 5th / 8ve (the step t -> t + 1 of a pair of voices,
    as ``pair_motion`` counts it), each run of sixteenths where a voice sounds above the one above it,
    each note out of its voice's choir range (``RANGES``)."""
    parallels = []
    for a, b in grade.PAIRS:
        motion = grade.pair_motion(p, a, b)
        for kind in grade.PERFECT:
            parallels += [{"kind": kind, "voices": [a, b], "step": int(t)} for t in np.flatnonzero(motion[kind])]
    parallels.sort(key=lambda m: (m["step"], m["voices"]))
    crossings = []
    for v in range(3):
        upper, lower = p[v], p[v + 1]
        above = (upper >= 0) & (lower >= 0) & (lower > upper)
        crossings += [{"voices": [v, v + 1], "start": s, "end": e} for s, e, x in _runs(above.astype(int)) if x]
    out_of_range = []
    for v, (low, high) in enumerate(grade.RANGES):
        out_of_range += [{"voice": v, "pitch": q, "start": s, "end": e, "range": [low, high]}
                         for s, e, q in _runs(p[v]) if q >= 0 and not low <= q <= high]
    return {"parallels": parallels, "crossings": crossings, "out_of_range": out_of_range}


def _plain(row: dict) -> dict:
    """Numbers as JSON takes them: NaN (a distance of an empty histogram) as None."""
    return {k: (None if isinstance(v, float) and math.isnan(v) else v) for k, v in row.items()}


def grade_marks(tokens: Sequence[int], bach: dict | None = None, min_sixteenths: int = 8) -> dict:
    """``marks`` of the piece, its grade (``grade_piece``: distances to Bach too when ``bach`` is
    ``bach_reference``'s answer) and Bach's test chorales' medians beside it. A piece shorter than
    ``min_sixteenths`` gets its marks and length only (no key to find)."""
    tokens = body(tokens)
    p = grade.pitches(tokens)
    short = p.shape[1] < min_sixteenths
    row = {"sixteenths": int(p.shape[1])} if short else grade_piece(tokens, bach)
    return {**marks(p), "grade": row, "bach": None if bach is None else bach["medians"],
            "labels": {k: grade.LABELS[k] for k in row if k in grade.LABELS}, "kinds": PARALLELS,
            "version": grade.VERSION}


def grade_piece(tokens: list[int], bach: dict | None) -> dict:
    reference = None if bach is None else {k: np.asarray(v) for k, v in bach["reference"].items()}
    return _plain(grade.grade_piece(tokens, reference))


@functools.lru_cache(maxsize=4)
def bach_reference(cache_dir: str | None = None) -> dict:
    """{"reference": Bach's pooled training histograms, "medians": each statistic's median over his
    test chorales, "pieces": how many}: ``metrics.chorales.bach_baseline``, cached on disk beside the
    encoded chorales (the first call parses music21's corpus, a minute or two) and in this process."""
    folder = Path(cache_dir) if cache_dir else cache_root() / "chorales"
    reference, names, rows = grade.bach_baseline(folder)
    summary = grade.summarise(rows)
    medians = {k: v["median"] for k, v in summary.items() if isinstance(v, dict)}
    return {"reference": {k: v.tolist() for k, v in reference.items()}, "medians": medians, "pieces": len(names)}


def held_out_primers(cache_dir: str | Path | None = None, tokens: int = 64) -> list[dict]:
    """The held-out (test) chorales' openings, ``tokens`` long (whole sixteenths), by name."""
    folder = Path(cache_dir) if cache_dir else cache_root() / "chorales"
    keep = tokens - tokens % 4
    return [{"name": Path(name).stem, "tokens": seq[:keep].tolist()}
            for name, seq in music.load_chorales(folder, "test").items()]


def continue_chorale(model, primer: Sequence[int], length: int, temperature: float = 0.6, top_p: float = 0.9,
                     seed: int = 1, top_k: int = 0) -> dict:
    """The primer and up to ``length`` tokens sampled after it by ``Generator.generate`` (``aiayn
    generate``'s sampling; its defaults, T 0.6 and top-p 0.9). ``ended``: the model wrote EOS
    before ``length``."""
    generator = model if isinstance(model, Generator) else Generator(model)
    primer = body(primer)
    out = generator.generate([primer], length, temperature, top_k, top_p, seed)[0]
    return {"tokens": out, "primer_length": len(primer), "ended": len(out) - len(primer) < length}


def midi_bytes(tokens: Sequence[int]) -> bytes:
    """A standard MIDI file of ``tokens`` (``aiayn.data.music.write_midi``: one track per voice)."""
    with tempfile.TemporaryDirectory() as folder:
        return music.write_midi(body(tokens), Path(folder) / "chorale.mid").read_bytes()
