"""Bach chorales as token sequences: the JSB Chorales representation of the Music Transformer
(Huang et al. 2018, the J.S. Bach chorales experiments), which takes it from Coconet (Huang et al. 2017,
"Counterpoint by Convolution"). Data card: docs/data/chorales.md.

The chorales come from music21's bundled corpus (``corpus/bach``), so nothing is downloaded.
Each chorale is four voices on a grid of sixteenth notes, serialised voice by voice at each step::

    S0 A0 T0 B0  S1 A1 T1 B1  S2 ...      token = the MIDI pitch sounding in that voice, or REST

A held or tied note simply repeats its pitch at every sixteenth it covers (as in Coconet), so the
sequence does not say where a repeated pitch is re-struck; :func:`tokens_to_score` merges such repeats
into one held note. The grid starts at the first note of any voice (a pickup bar is not padded to a
full bar) and ends with the last note. The grid samples what sounds at each sixteenth, so a note that
covers no grid point (the second of two 32nds) is dropped; grace notes (no duration) are skipped.
Where one voice sounds two notes at once (a chord, or two voices in one part) S and A keep the highest
note and T and B the lowest: the voice's outer note, the one that belongs to the four-part texture.

Token ids (fixed; a model trained on them depends on these numbers)::

    0 PAD   1 BOS   2 EOS   3 REST   4 + (pitch - MIN_PITCH) for MIDI pitch MIN_PITCH..MAX_PITCH

MIN_PITCH..MAX_PITCH is the range sung in the corpus (36..81) widened by 6 semitones on each side,
so any transposition by -6..+6 semitones (:func:`transpose`, the augmentation) stays in range.
Sequences produced here hold pitch and REST tokens only; BOS/EOS are the model's business.

Legend: N tokens in a sequence (N = 4 T), T sixteenths, V = 4 voices in the order S A T B.
Durations and offsets are in quarter notes (music21's quarterLength): one sixteenth is 1/4.
"""

from __future__ import annotations

import hashlib
import json
import logging
import math
import os
import time
from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path

import numpy as np

from ..progress import bar as progress_bar
from .errors import DataError

log = logging.getLogger("aiayn")

PAD, BOS, EOS, REST = 0, 1, 2, 3
MIN_PITCH, MAX_PITCH = 30, 87  # observed 36..81, plus a 6-semitone margin each side
VOCAB_SIZE = 4 + MAX_PITCH - MIN_PITCH + 1  # 62
VOICES = ("soprano", "alto", "tenor", "bass")
STEPS_PER_QUARTER = 4  # a sixteenth-note grid
SPLITS = ("train", "valid", "test")
ENCODING_VERSION = 1  # bump when the tokens or the selection would change; the cache is then rebuilt
NEAR_DUPLICATE = 0.95  # two chorales with this fraction of equal tokens are one harmonisation


def pitch_token(pitch: int) -> int:
    """The token of MIDI ``pitch``; DataError if the vocabulary has no token for it."""
    if not MIN_PITCH <= pitch <= MAX_PITCH:
        raise DataError(f"MIDI pitch {pitch} is outside the vocabulary's range {MIN_PITCH}..{MAX_PITCH}")
    return 4 + pitch - MIN_PITCH


def token_pitch(token: int) -> int | None:
    """The MIDI pitch of a pitch token, None for REST; ValueError for PAD, BOS, EOS or an unknown id."""
    if token == REST:
        return None
    if not 4 <= token < VOCAB_SIZE:
        raise ValueError(f"token {token} is not a pitch or REST")
    return token - 4 + MIN_PITCH


def transpose(tokens: Sequence[int] | np.ndarray, semitones: int) -> list[int] | np.ndarray | None:
    """``tokens`` with every pitch moved by ``semitones`` (rests and specials kept), or None if a pitch
    would leave MIN_PITCH..MAX_PITCH. Returns a list for a list, an int64 array otherwise."""
    arr = np.asarray(tokens, dtype=np.int64)
    pitched = arr >= 4
    out = np.where(pitched, arr + semitones, arr)
    if pitched.any() and not (4 <= out[pitched].min() and out[pitched].max() < VOCAB_SIZE):
        return None
    return out.tolist() if isinstance(tokens, list) else out


# ---- score -> tokens ---------------------------------------------------------------------------

def voice_parts(score) -> list:
    """The four parts S A T B of a music21 score; DataError (one line) if it has not four voices.

    Parts named Soprano/Alto/Tenor/Bass (first word of the part name) are taken when there is one of
    each, which drops the horns, strings and continuo of the orchestrated chorales; otherwise a score
    with exactly four parts that hold pitched notes is taken in score order (top staff = soprano).
    """
    from music21 import chord, note

    pitched = [p for p in score.parts if any(isinstance(n, (note.Note, chord.Chord)) for n in p.recurse().notes)]
    by_voice = {v: [p for p in pitched if _voice_name(p.partName) == v] for v in VOICES}
    if all(len(ps) == 1 for ps in by_voice.values()):
        return [by_voice[v][0] for v in VOICES]
    if len(pitched) == 4:
        return pitched
    names = ", ".join(str(p.partName or "unnamed") for p in pitched)
    raise DataError(f"{len(pitched)} parts with notes ({names}), not the four voices soprano, alto, tenor, bass")


def _voice_name(part_name: str | None) -> str | None:
    """'soprano' for 'Soprano', 'Soprano\\rOboe 1,2' or 'Bass Continuo' -> 'bass'; None otherwise."""
    words = (part_name or "").lower().split()
    return words[0] if words and words[0] in VOICES else None


def _voice_events(part) -> list[tuple[Fraction, Fraction, list[int]]]:
    """(onset, end, MIDI pitches) of the sounding notes and chords of one part, grace notes skipped."""
    from music21 import chord, note

    events = []
    for n in part.flatten().notes:
        if not isinstance(n, (note.Note, chord.Chord)) or n.duration.isGrace:
            continue
        onset = Fraction(n.offset)
        events.append((onset, onset + Fraction(n.quarterLength), [p.midi for p in n.pitches]))
    return events


def encode_score(score) -> list[int]:
    """The token sequence (N = 4 T) of a four-voice music21 score; DataError if it has none or a pitch
    is out of range."""
    if not score.recurse().notes:
        raise DataError("the score has no notes")
    voices = [_voice_events(p) for p in voice_parts(score)]  # S A T B
    if not any(voices):
        raise DataError("the score has only grace notes")
    start = min(on for ev in voices for on, _, _ in ev)  # the first note: a pickup bar is not padded
    end = max(e for ev in voices for _, e, _ in ev)
    n_steps = math.ceil((end - start) * STEPS_PER_QUARTER)
    grid = np.full((n_steps, 4), REST, dtype=np.int64)  # (T, V)
    for v, events in enumerate(voices):
        pick = max if v < 2 else min  # S, A keep the top note; T, B the bottom one
        for onset, stop, pitches in events:
            # the sixteenths t with start + t/4 in [onset, stop): the grid points the note sounds at
            first = math.ceil((onset - start) * STEPS_PER_QUARTER)
            last = math.ceil((stop - start) * STEPS_PER_QUARTER)
            for t in range(first, last):
                old = token_pitch(grid[t, v]) if grid[t, v] != REST else None
                pitch = pick(pitches + ([old] if old is not None else []))
                grid[t, v] = _voice_token(pitch, VOICES[v], t)
    return grid.reshape(-1).tolist()


def _voice_token(pitch: int, voice: str, step: int) -> int:
    try:
        return pitch_token(pitch)
    except DataError as e:
        raise DataError(f"{voice} at sixteenth {step}: {e}") from None


def read_primer(path: str | os.PathLike) -> list[int]:
    """The tokens of a four-voice MusicXML, MIDI or Humdrum (kern) file; a one-line DataError naming the
    file, the formats a primer may have and how to check it, if music21 cannot parse it (empty,
    another format, truncated), it has not four voices, or it holds no notes."""
    from music21 import converter, stream

    path = Path(path)
    accepted = "a primer is a four-voice score as MIDI (.mid), MusicXML (.musicxml, .xml, .mxl) or Humdrum (.krn)"
    check = (f"check that it opens in a score editor such as MuseScore, or with python -c \"import music21; "
             f"music21.converter.parse('{path}').show('text')\"")
    if not path.is_file():
        raise DataError(f"{path}: no such file; {accepted}")
    if path.stat().st_size == 0:  # music21's own message for this names no cause
        raise DataError(f"{path} is empty (0 bytes); {accepted}: write or export the file again")
    try:  # forceSource/storePickle: never read or write music21's pickled parse cache
        score = converter.parseFile(path, forceSource=True, storePickle=False)
    except Exception as e:  # music21 raises many types; any of them means "cannot read this file"
        reason = (str(e).strip().splitlines() or [type(e).__name__])[0]
        raise DataError(f"{path}: music21 cannot parse it ({reason}): it is not one of the formats read, "
                        f"or it is truncated; {accepted}; {check}") from None
    if not isinstance(score, stream.Score):
        raise DataError(f"{path}: not a score with parts (music21 read a {type(score).__name__}); {accepted}; {check}")
    try:
        tokens = encode_score(score)
    except DataError as e:
        raise DataError(f"{path}: {e}; {accepted}; {check}") from None
    return tokens


# ---- tokens -> score, MIDI ---------------------------------------------------------------------

def _body(tokens: Sequence[int]) -> list[int]:
    """Pitch and REST tokens only: a leading BOS dropped, cut at the first EOS."""
    tokens = [int(t) for t in tokens]
    if tokens[:1] == [BOS]:
        tokens = tokens[1:]
    return tokens[: tokens.index(EOS)] if EOS in tokens else tokens


def voice_rows(tokens: Sequence[int]) -> np.ndarray:
    """(V, T) tokens, one row per voice S A T B; an incomplete last step is filled with REST."""
    body = _body(tokens)
    body += [REST] * (-len(body) % 4)
    return np.asarray(body, dtype=np.int64).reshape(-1, 4).T


def tokens_to_score(tokens: Sequence[int]):
    """A music21 Score with four parts S A T B; equal consecutive pitches of a voice become one held note."""
    from music21 import note, stream

    score = stream.Score()
    for name, row in zip(VOICES, voice_rows(tokens)):
        part = stream.Part(id=name)
        part.partName = name.capitalize()
        t = 0
        while t < len(row):  # one run of equal tokens -> one note or rest
            run = 1
            while t + run < len(row) and row[t + run] == row[t]:
                run += 1
            pitch = token_pitch(row[t])
            element = note.Rest() if pitch is None else note.Note(pitch)
            element.quarterLength = Fraction(run, STEPS_PER_QUARTER)
            part.append(element)
            t += run
        score.insert(0, part)
    return score


def write_midi(tokens: Sequence[int], path: str | os.PathLike) -> Path:
    """Writes ``tokens`` as a four-track MIDI file (one track per voice); returns the path."""
    path = Path(path)
    tokens_to_score(tokens).write("midi", fp=path)
    return path


# ---- the corpus: split, prepare, load ----------------------------------------------------------

def movement(name: str) -> str:
    """The cantata movement a corpus file belongs to: 'bwv248.9-1.mxl' -> 'bwv248.9'.

    Versions of one movement (with/without instruments, kern and MusicXML) share it, and so a split.
    """
    return name.rsplit(".", 1)[0].split("-")[0]


def split_of(name: str) -> str:
    """'train', 'valid' or 'test' for a corpus file name: about 80/10/10, from a SHA-256 of its movement.

    A hash (not Python's salted hash(), not a shuffle of the file list) so the split of a chorale never
    changes between machines, runs, or music21 versions that add files.
    """
    bucket = int.from_bytes(hashlib.sha256(movement(name).encode()).digest()[:8], "big") % 100
    return "train" if bucket < 80 else "valid" if bucket < 90 else "test"


def corpus_files() -> list[Path]:
    """The files of music21's Bach corpus, sorted by name."""
    from music21 import corpus

    return sorted(corpus.getComposer("bach"), key=lambda p: p.name)


def _encode_file(path: Path) -> tuple[list[int], int]:
    """(tokens, how many parts other than the four voices the score had)."""
    from music21 import converter, stream

    score = converter.parseFile(path, forceSource=True, storePickle=False)
    if not isinstance(score, stream.Score) or not score.parts:
        raise DataError(f"not a score with parts (a {type(score).__name__})")
    return encode_score(score), len(score.parts) - 4


def longest_silence(tokens: Sequence[int]) -> int:
    """The longest run of sixteenths in which all four voices rest."""
    longest = run = 0
    for silent in (voice_rows(tokens) == REST).all(axis=0):
        run = run + 1 if silent else 0
        longest = max(longest, run)
    return longest


def similarity(a: Sequence[int], b: Sequence[int]) -> float:
    """The fraction of equal tokens of two chorales of the same length, ``b`` transposed to fit ``a``
    best (0 for different lengths): 1.0 for the same notes in another key."""
    a, b = np.asarray(a), np.asarray(b)
    if len(a) != len(b):
        return 0.0
    both = (a >= 4) & (b >= 4)
    if not both.any():
        return 0.0
    shift = np.bincount(a[both] - b[both] + VOCAB_SIZE).argmax() - VOCAB_SIZE  # the commonest interval
    return float((a == np.where(b >= 4, b + shift, b)).mean())


def select_chorales(encoded: dict[str, tuple[list[int], int]], dropped: dict[str, str]) -> dict[str, list[int]]:
    """The chorales to keep, by name; records each one left out in ``dropped`` with the reason.

    One version per movement (a plain four-voice MusicXML score before an orchestrated one or a kern
    file), no chorale whose voices fall silent for more than a bar (an instrumental interlude), and no
    chorale whose tokens are NEAR_DUPLICATE or more equal to a kept one's, up to transposition (the same
    harmonisation filed under two BWV numbers would otherwise leak between splits).
    """
    kept: dict[str, list[int]] = {}
    for name in sorted(encoded, key=lambda n: (encoded[n][1] > 0, n.endswith(".krn"), n)):
        tokens = encoded[name][0]
        version = next((k for k in kept if movement(k) == movement(name)), None)
        twin = next((k for k in kept if similarity(kept[k], tokens) >= NEAR_DUPLICATE), None)
        if (silence := longest_silence(tokens)) > 16:
            dropped[name] = f"all voices silent for {silence} sixteenths (an instrumental interlude)"
        elif version:
            dropped[name] = f"another version of the movement of {version}"
        elif twin:
            share = similarity(kept[twin], tokens)
            dropped[name] = f"{share:.1%} of its tokens equal those of {twin}, up to transposition"
        else:
            kept[name] = tokens
    return dict(sorted(kept.items()))


def prepare_chorales(out_dir: str | os.PathLike, progress=None) -> dict:
    """Parses the corpus once and writes ``chorales-{split}.npz`` (tokens as uint8, concatenated, and
    offsets) and ``chorales.json`` (names, counts, what was dropped and why, versions); returns that JSON.

    Kept: scores with four voices (:func:`voice_parts`) that :func:`select_chorales` accepts. Dropped:
    analyses, keyboard works, five-voice chorales, second versions and near-duplicates.
    ``progress``: a tqdm-like factory for a bar over the files (``aiayn.progress``); None shows nothing.
    """
    import music21

    out_dir = Path(out_dir)
    began = time.perf_counter()
    encoded: dict[str, tuple[list[int], int]] = {}
    dropped: dict[str, str] = {}
    for path in progress_bar(progress, corpus_files(), desc="parsing chorales", unit="file"):
        try:
            encoded[path.name] = _encode_file(path)
        except DataError as e:
            dropped[path.name] = str(e)
    kept = select_chorales(encoded, dropped)
    if not kept:  # e.g. music21's no-corpus edition
        raise DataError(f"no four-voice chorales in music21's corpus ({len(dropped)} files, none usable)")
    orchestrated = sorted(n for n in kept if encoded[n][1] > 0)
    meta = _write_cache(out_dir, kept, dict(sorted(dropped.items())), orchestrated, music21.__version__,
                        time.perf_counter() - began)
    log.info("chorales: %d kept, %d dropped, in %.0f s -> %s", len(kept), len(dropped), meta["prepare_seconds"], out_dir)
    return meta


def _write_cache(out_dir: Path, kept: dict[str, list[int]], dropped: dict[str, str], orchestrated: list[str],
                 m21_version: str, seconds: float) -> dict:
    out_dir.mkdir(parents=True, exist_ok=True)
    pitches = np.concatenate([np.asarray(t) for t in kept.values()])
    pitches = pitches[pitches >= 4] - 4 + MIN_PITCH
    meta = {"encoding_version": ENCODING_VERSION, "music21_version": m21_version,
            "pad": PAD, "bos": BOS, "eos": EOS, "rest": REST, "min_pitch": MIN_PITCH, "max_pitch": MAX_PITCH,
            "vocab_size": VOCAB_SIZE, "observed_pitch_range": [int(pitches.min()), int(pitches.max())],
            "prepare_seconds": round(seconds, 1), "splits": {}, "dropped": dropped,
            "instruments_dropped_from": orchestrated}
    for split in SPLITS:
        names = [n for n in kept if split_of(n) == split]
        seqs = [np.asarray(kept[n], dtype=np.uint8) for n in names]
        lengths = np.array([len(s) for s in seqs], dtype=np.int64)
        offsets = np.concatenate([[0], np.cumsum(lengths)])  # chorale i is tokens[offsets[i]:offsets[i + 1]]
        tmp = out_dir / f"chorales-{split}.tmp.npz"
        np.savez(tmp, tokens=np.concatenate(seqs or [np.zeros(0, np.uint8)]), offsets=offsets)
        tmp.replace(out_dir / f"chorales-{split}.npz")
        meta["splits"][split] = {"chorales": len(names), "tokens": int(lengths.sum()),
                                 "sixteenths": int(lengths.sum()) // 4, "names": names}
    tmp = out_dir / "chorales.json.tmp"
    tmp.write_text(json.dumps(meta, indent=1) + "\n")
    tmp.replace(out_dir / "chorales.json")  # written last: its presence means the cache is complete
    return meta


def load_chorales(cache_dir: str | os.PathLike, split: str, progress=None) -> dict[str, np.ndarray]:
    """{corpus file name: int64 tokens (N,)} of one split, in name order; prepares the cache first if it
    is missing or was made by another encoding version or music21 version."""
    import music21

    if split not in SPLITS:
        raise ValueError(f"split must be one of {', '.join(SPLITS)}, not {split!r}")
    cache_dir = Path(cache_dir)
    meta_path = cache_dir / "chorales.json"
    meta = json.loads(meta_path.read_text()) if meta_path.is_file() else None
    if meta is None or (meta["encoding_version"], meta["music21_version"]) != (ENCODING_VERSION, music21.__version__):
        meta = prepare_chorales(cache_dir, progress=progress)
    with np.load(cache_dir / f"chorales-{split}.npz", allow_pickle=False) as f:
        tokens, offsets = f["tokens"].astype(np.int64), f["offsets"]
    names = meta["splits"][split]["names"]
    return {n: tokens[offsets[i]:offsets[i + 1]] for i, n in enumerate(names)}
