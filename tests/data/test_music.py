"""The chorale data layer (aiayn.data.music): the 16th-note S A T B encoding, split, cache, files, pictures.

Fast: only bwv66.6 (and two other corpus files in the cache test) is parsed.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from music21 import chord, converter, note, stream

from aiayn.data import DataError, music
from aiayn.data.music import (
    MAX_PITCH,
    MIN_PITCH,
    REST,
    SPLITS,
    VOCAB_SIZE,
    encode_score,
    load_chorales,
    movement,
    pitch_token,
    read_primer,
    similarity,
    split_of,
    tokens_to_score,
    transpose,
    voice_rows,
    write_midi,
)
from aiayn.plots.music import plot_piano_roll

R = REST


def P(pitch: int) -> int:
    return pitch_token(pitch)


def _part(name: str, elements) -> stream.Part:
    part = stream.Part()
    part.partName = name
    for e in elements:
        part.append(e)
    return part


def _score(*parts: stream.Part) -> stream.Score:
    score = stream.Score()
    for p in parts:
        score.insert(0, p)
    return score


def _n(pitch: int, ql: float) -> note.Note:
    return note.Note(pitch, quarterLength=ql)


def _tiny_score() -> stream.Score:
    """Two beats in four voices, after an eighth rest in every voice (a pickup that the grid skips)."""
    grace = _n(70, 1).getGrace()
    return _score(
        _part("Soprano", [note.Rest(quarterLength=0.5), chord.Chord([64, 72], quarterLength=1), _n(74, 0.5),
                          _n(76, 0.5)]),
        _part("Alto", [note.Rest(quarterLength=0.5), grace, _n(67, 2)]),
        _part("Tenor", [note.Rest(quarterLength=0.5), note.Rest(quarterLength=1), _n(64, 1)]),
        _part("Bass", [note.Rest(quarterLength=0.5), chord.Chord([48, 55], quarterLength=0.5),
                       note.Rest(quarterLength=0.5), _n(48, 1)]),
    )


# Per sixteenth, S A T B. Chords: S keeps its top note (72), B its bottom one (48); the grace note is skipped.
TINY = [
    P(72), P(67), R, P(48),
    P(72), P(67), R, P(48),
    P(72), P(67), R, R,
    P(72), P(67), R, R,
    P(74), P(67), P(64), P(48),
    P(74), P(67), P(64), P(48),
    P(76), P(67), P(64), P(48),
    P(76), P(67), P(64), P(48),
]


@pytest.fixture(scope="module")
def chorale_path():
    return next(p for p in music.corpus_files() if p.name == "bwv66.6.mxl")


@pytest.fixture(scope="module")
def chorale(chorale_path) -> list[int]:
    return read_primer(chorale_path)


def test_ids_and_range():
    assert (music.PAD, music.BOS, music.EOS, REST) == (0, 1, 2, 3)
    assert P(MIN_PITCH) == 4 and P(MAX_PITCH) == VOCAB_SIZE - 1
    assert MIN_PITCH <= 36 - 6 and MAX_PITCH >= 81 + 6  # the corpus range plus the transposition margin
    with pytest.raises(DataError, match="outside"):
        P(MAX_PITCH + 1)


def test_tiny_score_encodes_to_hand_made_tokens():
    assert encode_score(_tiny_score()) == TINY


def test_pitch_out_of_range_is_a_clear_error():
    score = _score(*(_part(v, [_n(p, 1)]) for v, p in zip(["Soprano", "Alto", "Tenor", "Bass"], [100, 60, 55, 48])))
    with pytest.raises(DataError, match="soprano at sixteenth 0: MIDI pitch 100 is outside"):
        encode_score(score)


def test_real_chorale_round_trips_through_a_score(chorale):
    assert len(chorale) % 4 == 0 and len(chorale) > 400
    assert set(chorale) <= {R} | set(range(4, VOCAB_SIZE))
    assert encode_score(tokens_to_score(chorale)) == chorale


def test_score_merges_held_notes_and_fills_an_incomplete_step():
    score = tokens_to_score(TINY[:-2])  # the last step lacks T and B
    soprano, alto, tenor, bass = score.parts
    assert [n.pitch.midi for n in soprano.notes] == [72, 74, 76]
    assert [n.quarterLength for n in soprano.notes] == [1.0, 0.5, 0.5]
    assert [n.quarterLength for n in alto.notes] == [2.0]
    assert bass.highestTime == tenor.highestTime == 2.0
    assert [n.quarterLength for n in tenor.notes] == [0.75]  # the missing last T became a rest


def test_midi_round_trip(chorale, tmp_path):
    path = write_midi(chorale, tmp_path / "bwv66.6.mid")
    reread = music.voice_parts(converter.parse(path, forceSource=True, storePickle=False))
    for row, part in zip(voice_rows(chorale), reread):
        held = [p for i, p in enumerate(row) if p != R and (i == 0 or row[i - 1] != p)]  # one note per run
        assert [n.pitch.midi for n in part.flatten().stripTies().notes] == [music.token_pitch(t) for t in held]
    assert read_primer(path) == chorale


def test_split_is_fixed_disjoint_and_about_80_10_10():
    names = [p.name for p in music.corpus_files()]
    splits = [split_of(n) for n in names]
    assert splits == [split_of(n) for n in names]
    # pinned: the split of a chorale must never change between machines or versions
    assert [split_of(n) for n in ("bwv66.6.mxl", "bwv175.7.mxl", "bwv248.35-3.mxl")] == ["train", "valid", "test"]
    assert set(splits) == set(SPLITS)
    shares = {s: splits.count(s) / len(splits) for s in SPLITS}
    assert 0.7 < shares["train"] < 0.9 and 0.05 < shares["valid"] < 0.15 and 0.05 < shares["test"] < 0.15
    # versions of one movement never sit in two splits
    assert movement("bwv248.9-1.mxl") == movement("bwv248.9-s.mxl") == "bwv248.9"
    by_movement = {}
    for n, s in zip(names, splits):
        assert by_movement.setdefault(movement(n), s) == s


def test_transpose(chorale):
    up = transpose(chorale, 5)
    assert isinstance(up, list) and transpose(up, -5) == chorale
    assert [t for t in up if t < 4] == [t for t in chorale if t < 4]  # rests (and specials) stay
    assert similarity(chorale, up) == 1.0
    arr = np.array([music.BOS, P(MAX_PITCH - 1), R, music.EOS])
    assert transpose(arr, 1).tolist() == [music.BOS, P(MAX_PITCH), R, music.EOS]
    assert transpose(arr, 2) is None and transpose([P(MIN_PITCH)], -1) is None


def _write(score: stream.Score, path) -> str:
    score.write("musicxml", fp=path)
    return str(path)


def test_read_primer_errors(tmp_path):
    garbage = tmp_path / "garbage.mid"
    garbage.write_bytes(b"this is not a MIDI file")
    three = _write(_score(*(_part(v, [_n(p, 1)]) for v, p in zip(["Soprano", "Alto", "Bass"], [72, 67, 48]))),
                   tmp_path / "three.musicxml")
    empty = _write(_score(*(_part(v, [note.Rest(quarterLength=4)]) for v in ["Soprano", "Alto", "Tenor", "Bass"])),
                   tmp_path / "empty.musicxml")
    for path, expected in [(garbage, "garbage.mid: music21 cannot parse it"), (three, "three.musicxml: 3 parts"),
                           (empty, "empty.musicxml: the score has no notes"), (tmp_path / "nope.mid", "no such file")]:
        with pytest.raises(DataError) as err:
            read_primer(path)
        message = str(err.value)
        assert expected in message and "\n" not in message, message


def test_cache_prepare_and_load(tmp_path, monkeypatch):
    files = [p for p in music.corpus_files() if p.name in ("bwv66.6.mxl", "bwv846.mxl", "bwv175.7.mxl")]
    monkeypatch.setattr(music, "corpus_files", lambda: files)
    train = load_chorales(tmp_path, "train")  # builds the cache
    meta = json.loads((tmp_path / "chorales.json").read_text())
    assert meta["encoding_version"] == music.ENCODING_VERSION and meta["vocab_size"] == VOCAB_SIZE
    assert meta["dropped"] == {"bwv846.mxl": "2 parts with notes (Piano, Piano), not the four voices soprano, "
                                             "alto, tenor, bass"}
    assert meta["instruments_dropped_from"] == ["bwv175.7.mxl"]  # recorders dropped, four voices kept
    assert list(train) == ["bwv66.6.mxl"] and train["bwv66.6.mxl"].dtype == np.int64
    monkeypatch.setattr(music, "prepare_chorales", lambda *a, **k: pytest.fail("cache not reused"))
    assert list(load_chorales(tmp_path, "valid")) == ["bwv175.7.mxl"]
    assert load_chorales(tmp_path, "test") == {}
    assert meta["splits"]["train"]["tokens"] == len(train["bwv66.6.mxl"]) == 4 * meta["splits"]["train"]["sixteenths"]


def test_piano_roll_png(chorale, tmp_path):
    path = plot_piano_roll(chorale, tmp_path / "roll.png", title="bwv66.6", primer_len=64)
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
