"""The chorale grade (issue 29): each statistic on hand-built passages whose answer is known, the
parallels against music21's VoiceLeadingQuartet where both definitions apply, Bach's own test
chorales near zero on parallels, the cached Bach baseline, and the score files a grade reads."""

import json
import random

import numpy as np
import pytest
import torch
from conftest import walk_chorale

from aiayn.data import music
from aiayn.data.errors import DataError
from aiayn.metrics import chorales as C

R = -1  # a rest


def tokens(*voices):
    """Tokens of four voices given as lists of MIDI pitches (R: rest), one entry per sixteenth."""
    return [music.REST if p == R else music.pitch_token(p) for step in zip(*voices) for p in step]


def test_exactly_one_parallel_fifth():
    s, a, t, b = [67, 67, 69, 69], [64] * 4, [60] * 4, [48, 48, 50, 50]  # S–B: G4/C3 -> A4/D3, a twelfth
    p = C.pitches(tokens(s, a, t, b))
    assert C.parallel_counts(p) == {"5ths": 1, "8ves": 0}  # A and T hold: oblique motion is no parallel
    assert C.parallels(p) == {"5ths": 100.0, "8ves": 0.0}  # one in a piece of one quarter


def test_octaves_and_what_is_not_a_parallel():
    assert C.parallel_counts(C.pitches(tokens([72, 74], [R, R], [60, 62], [R, R]))) == {"5ths": 0, "8ves": 1}
    contrary = tokens([67, 74], [R, R], [R, R], [48, 43])  # a twelfth to a 5th + 2 octaves, contrary motion
    assert C.parallel_counts(C.pitches(contrary)) == {"5ths": 0, "8ves": 0}
    broken = tokens([67, R, 69], [R] * 3, [R] * 3, [48, 49, 50])  # a rest breaks the motion
    assert C.parallel_counts(C.pitches(broken)) == {"5ths": 0, "8ves": 0}
    different = tokens([67, 69], [R, R], [R, R], [48, 53])  # a 5th to a 4th (mod 12), similar motion
    assert C.parallel_counts(C.pitches(different)) == {"5ths": 0, "8ves": 0}


def test_the_no_parallels_rule_forbids_exactly_what_the_grade_counts():
    # S C5 -> D5 over B C4 (an octave): B may not go up to D4 (8ve) nor to any D above it; down is contrary
    body = tokens([72, 74], [R, R], [R, R], [60, 60])[:-1]  # the bass of the second sixteenth is next
    allowed = C.no_parallels(torch.tensor([[music.PAD, music.PAD, music.BOS, *body]]))[0]
    banned = {music.token_pitch(i) for i in range(4, music.VOCAB_SIZE) if not allowed[i]}
    assert banned == {62, 74, 86}
    assert allowed[music.REST] and allowed[music.EOS] and allowed[music.pitch_token(60)]  # rest, end, hold
    # every pitch agrees with the grade's own count of the finished sixteenth
    for pitch in range(music.MIN_PITCH, music.MAX_PITCH + 1):
        counted = C.parallel_counts(C.pitches([*body, music.pitch_token(pitch)]))
        assert (sum(counted.values()) > 0) == (pitch in banned), pitch
    # fifths against an inner voice: A F4 -> G4 over T Bb3 (a fifth); T may not go up to C4, nor cross above A to
    # D5 or D6 (a fifth and a twelfth above G4: they sound as fifths); C5 above G4 is a fourth; down is contrary
    body = tokens([R, R], [65, 67], [58, 58], [R, R])[:-2]
    allowed = C.no_parallels(torch.tensor([[music.BOS, *body]]))[0]
    assert {music.token_pitch(i) for i in range(4, music.VOCAB_SIZE) if not allowed[i]} == {60, 74, 86}
    # the first sixteenth, the soprano, and a voice above that rests or holds rule nothing out
    for body in ([music.pitch_token(60)] * 3, tokens([72, 74], [R, R], [R, R], [60, 60])[:4],
                 tokens([72, R], [R, R], [R, R], [60, 60])[:-1], tokens([72, 72], [R, R], [R, R], [60, 60])[:-1]):
        assert C.no_parallels(torch.tensor([[music.BOS, *body]])).all()


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_forbidden_parallels_at_every_position_agree_with_the_grade(seed):
    """Training's mask (``forbidden_parallels``, every position at once) rules out each drawn token that
    makes a parallel, just where the grade counts one (against any voice above); windows cut from inside the
    piece, and left-padded rows, see the same from their eighth column on."""
    body = walk_chorale(300, seed)
    seq = torch.tensor([music.BOS, *body, music.EOS])
    full = C.forbidden_parallels(seq[None, :-1], torch.tensor([0]))[0]  # (T, V): the token after each column
    drawn = full[torch.arange(len(seq) - 1), seq[1:]]
    p = C.pitches(body)  # the grade's count, as (step, lower voice) with a parallel against any voice above
    motions = {(a, b): C.pair_motion(p, a, b) for a, b in C.PAIRS}
    counted = {(t, b) for (a, b), m in motions.items() for t in np.flatnonzero(m["5ths"] | m["8ves"])}
    assert {divmod(int(k) - 4, 4) for k in torch.nonzero(drawn)} == counted and len(counted) > 50
    for start in (1, 2, 7, 400, 401, 803):  # any window, not only whole sixteenths
        window = C.forbidden_parallels(seq[None, start:start + 256], torch.tensor([start]))[0]
        assert torch.equal(window[7:], full[start + 7:start + 256])
        assert not (window[:7] & ~full[start:start + 7]).any()  # before it: less seen, less ruled out
    padded = torch.cat([torch.full((5,), music.PAD), seq[:-1]])[None]
    assert torch.equal(C.forbidden_parallels(padded, torch.tensor([-5]))[0, 5:], full)
    rule = C.no_parallels(padded[:, :5 + 401])[0]  # decoding's rule is the last column's mask
    assert torch.equal(~rule, full[400])


def test_parallels_agree_with_music21_on_similar_motion():
    from music21 import note
    from music21.voiceLeading import VoiceLeadingQuartet

    rng = random.Random(3)
    white = [48, 50, 52, 53, 55, 57, 59, 60, 62, 64, 65, 67, 69, 71, 72]  # spelled alike by MIDI and music21
    p = np.array([[rng.choice(white[i:i + 8]) for _ in range(200)] for i in (7, 5, 2, 0)])
    ours = mine = 0
    for a, b in C.PAIRS:
        motion = C.pair_motion(p, a, b)
        for t in np.flatnonzero(motion["similar"]):
            q = VoiceLeadingQuartet(*(note.Note(midi=int(x)) for x in (p[a, t], p[a, t + 1], p[b, t], p[b, t + 1])))
            apart = abs(int(p[a, t]) - int(p[b, t])), abs(int(p[a, t + 1]) - int(p[b, t + 1]))
            octave = apart[0] == apart[1] and q.parallelUnisonOrOctave()  # music21: 8ve to 15th is no parallel
            ours += int(motion["5ths"][t]) + int(motion["8ves"][t] and apart[0] == apart[1])
            mine += int(q.parallelFifth()) + int(octave)
    assert ours == mine > 10


def test_parallels_between_crossed_voices_are_read_as_they_sound():
    """The alto a fifth above the soprano, both rising a step: a parallel fifth; a fourth above: none. The
    training mask rules out that alto note and the one an octave higher, and only those."""
    fifth = tokens([60, 62], [67, 69], [55, 55], [48, 48])
    fourth = tokens([62, 64], [67, 69], [55, 55], [48, 48])
    assert C.parallel_counts(C.pitches(fifth)) == {"5ths": 1, "8ves": 0}
    assert C.parallel_counts(C.pitches(fourth)) == {"5ths": 0, "8ves": 0}
    for seq, banned in ((fifth, {69, 81}), (fourth, set())):  # A5: a twelfth above D5
        body = torch.tensor([music.BOS, *seq])
        mask = C.forbidden_parallels(body[None, :-1], torch.tensor([0]))[0, 5]  # the token after S of step 2
        assert {t - 4 + music.MIN_PITCH for t in torch.nonzero(mask).flatten().tolist()} == banned


def test_crossings_range_held_notes_and_rests():
    p = C.pitches(tokens([72, 72, 65, 72], [67, 67, 69, 67], [60] * 4, [48, 48, 48, R]))  # A above S once
    assert C.crossings(p) == 25.0
    assert C.out_of_range(C.pitches(tokens([84, 72, 72, 72], [67] * 4, [60] * 4, [48] * 4))) == 100 / 16
    assert C.longest_held(p) == 1.0  # the tenor's four sixteenths
    assert C.notes(p[3]) == [(48, 3)]


def test_realigned_crossings_forgive_a_dropped_token():
    good = tokens([72] * 128, [67] * 128, [60] * 128, [48] * 128)  # 8 bars
    slipped = good[:97] + good[98:]  # the alto's token of sixteenth 24 (bar 2) dropped
    assert C.crossings(C.pitches(slipped)) > 75
    # only the bar of the slip crosses: half of it at any one reading
    assert C.realigned_crossings(slipped) == pytest.approx(100 * 8 / 128) and C.realigned_crossings(good) == 0


@pytest.mark.parametrize("cut", [1, 2, 3])
def test_realigned_crossings_of_a_partial_last_sixteenth_equal_its_midis(cut):
    """A piece that stops inside a sixteenth is written to MIDI with the silent voices resting: both grade alike."""
    good = tokens([72] * 16, [67] * 16, [60] * 16, [48] * 16)
    slipped = (good[:21] + good[22:])[:-cut]  # a slip in the second sixteenth, then a partial last one
    padded = slipped + [music.REST] * (-len(slipped) % 4)  # the rest token, as the MIDI reads back
    assert C.realigned_crossings(slipped) == C.realigned_crossings(padded) > 0


def cadences(rounds: int = 10) -> list[int]:
    """I IV V I, a bar at a time in C major, a chord per quarter, every voice moving at every chord."""
    chords = [(72, 67, 64, 48), (77, 69, 65, 53), (74, 71, 62, 55), (76, 72, 67, 60)] * rounds + [(72, 67, 64, 48)]
    return [music.pitch_token(x) for chord in chords for _ in range(4) for x in chord]


def test_key_and_distributions():
    piece = cadences()
    key = C.key_of(piece)
    assert (key.tonic.name, key.mode) == ("C", "major")
    assert C.key_consistency(piece) == 100.0
    hist = C.histograms(C.pitches(piece), key.tonic.pitchClass)
    assert set(np.flatnonzero(hist["pitch"])) <= {0, 2, 4, 5, 7, 9, 11}  # scale degrees of C major
    assert hist["rhythm"][3] == hist["rhythm"].sum()  # every note a quarter (4 sixteenths, bin 3)
    row = C.grade_piece(piece, hist)
    assert row["grade"] == 0.0 and row["w_pitch"] == 0.0  # its own distributions: distance 0
    other = C.grade_piece(piece, {**hist, "rhythm": np.eye(32, dtype=int)[7]})  # reference: all half notes
    assert other["w_rhythm"] == pytest.approx(1.0)  # a quarter note moved to a half note: 1 quarter


def test_bach_scores_near_zero_on_parallels():
    """The first three test chorales by name, parsed alone (not the corpus)."""
    from music21 import converter, corpus

    for name in ("bwv110.7", "bwv126.6", "bwv135.6"):
        assert music.split_of(f"{name}.mxl") == "test"
        score = converter.parseFile(corpus.getWork(name), forceSource=True, storePickle=False)
        par = C.parallels(C.pitches(music.encode_score(score)))
        assert par["5ths"] + par["8ves"] < 1.0, name


def test_bach_baseline_is_computed_once_and_summarised(chorale_cache):
    folder = chorale_cache / "chorales"
    reference, names, rows = C.bach_baseline(folder)
    assert len(names) == len(rows) >= 3 and set(reference) == set(C.FEATURES)
    stamp = (folder / "grade-bach.json").stat().st_mtime_ns
    assert C.bach_baseline(folder)[2] == rows and (folder / "grade-bach.json").stat().st_mtime_ns == stamp
    table = {"Bach": C.summarise(rows), "short": C.summarise([{"sixteenths": 3}], ended=1)}
    assert table["short"]["graded"] == 0
    text = C.markdown(table)
    assert "| ended by itself | – | 1 of 1 |" in text and "parallel 5ths / 100 quarters" in text
    json.dumps(table)  # the command writes it as JSON


def test_summary_pools_rates_by_length():
    rows = [{"sixteenths": 100, "crossings_pct": 10.0}, {"sixteenths": 300, "crossings_pct": 0.0}]
    s = C.summarise(rows)["crossings_pct"]
    assert (s["pooled"], s["median"], s["min"], s["max"]) == (2.5, 5.0, 0.0, 10.0)


def test_score_files_and_their_errors(tmp_path):
    piece = cadences(2)
    midi = music.write_midi(piece, tmp_path / "a.mid")
    assert music.read_primer(midi) == piece  # a MIDI file grades as its tokens
    assert C.score_files([tmp_path]) == [midi]
    (tmp_path / "notes.txt").write_text("not music")
    with pytest.raises(DataError, match="not a score file"):
        C.score_files([tmp_path / "notes.txt"])
    (tmp_path / "empty").mkdir()
    with pytest.raises(DataError, match="holds no MIDI"):
        C.score_files([tmp_path / "empty"])
    with pytest.raises(DataError, match="no such file"):
        C.score_files([tmp_path / "missing.mid"])


def test_token_files(tmp_path):
    piece = cadences(2)
    (tmp_path / "list.json").write_text(json.dumps([piece, piece[:64]]))
    assert C.token_sets(tmp_path / "list.json") == {"list.json": [piece, piece[:64]]}
    (tmp_path / "saved.json").write_text(json.dumps({"samples": {"a": [piece], "b": [piece]}, "table": {}}))
    assert list(C.token_sets(tmp_path / "saved.json")) == ["a", "b"]
    assert C.score_files([tmp_path / "list.json"]) == [tmp_path / "list.json"]
    for text, expected in (("{", "not readable as JSON"), ('{"x": 1}', "expected a list of token lists"),
                           ("[[5, 0, 6, 7]]", "piece 1: a chorale's tokens")):
        (tmp_path / "bad.json").write_text(text)
        with pytest.raises(DataError, match=expected) as e:
            C.token_sets(tmp_path / "bad.json")
        assert "\n" not in str(e.value)


def test_music21_count_of_a_midi_file_equals_the_grade(tmp_path):
    """checks.parallels_music21 reads the MIDI file with music21 and counts at note onsets and ends; on a
    passage with held notes and rests it finds the grade's parallels, one for one."""
    from music21 import converter

    from checks.parallels_music21 import count

    rng = random.Random(5)
    ranges = [(67, 79), (60, 69), (53, 62), (41, 52)]  # S A T B
    p = np.array([[rng.randint(lo, hi) for _ in range(240)] for lo, hi in ranges])
    p[:, rng.sample(range(240), 24)] = R  # rests, which break a motion
    p = np.repeat(p, 2, axis=1)  # eighth notes, so held notes and moves both occur
    grid = C.parallel_counts(p)
    path = music.write_midi(tokens(*p.tolist()), tmp_path / "passage.mid")
    c = count(converter.parse(path))
    assert (c["st_5ths"], c["st_8ves"]) == (grid["5ths"], grid["8ves"])
    assert min(grid.values()) > 3 and c["quarters"] == p.shape[1] / 4
