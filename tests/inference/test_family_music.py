"""The studio's music views (issue 45): the piano roll and the grade's marks agree with the grade's own
counts, the MIDI is the project's writer's, continuations are the generator's, a note's attention is
the model's causal forward pass, and the skew step by step equals the naive S_rel and the model's bias."""

from __future__ import annotations

import json

import numpy as np
import pytest
import torch
from conftest import walk_chorale

from aiayn import LanguageModel, LanguageModelConfig
from aiayn.data import music
from aiayn.errors import UsageError
from aiayn.inference.generator import Generator
from aiayn.inference.music_views import continue_chorale, grade_marks, held_out_primers, marks, midi_bytes, piano_roll
from aiayn.inference.relative_views import note_attention, skewing_steps
from aiayn.metrics import chorales as grade

# S A T B per sixteenth: a parallel fifth S/A from 0 to 1, then the alto above the soprano and out of
# its range at 2, the bass below its range at 2
HAND = [music.pitch_token(p) for p in (72, 65, 60, 48, 74, 67, 60, 43, 74, 76, 60, 36)]


def tiny(attention: str = "relative", dtype=torch.float64, **overrides) -> LanguageModel:
    torch.manual_seed(0)
    scheme = ({"attention": "relative", "positional": "none", "max_relative_distance": 5} if attention == "relative"
              else {"attention": "full", "positional": "sinusoidal"})
    cfg = LanguageModelConfig.from_dict({"vocab_size": music.VOCAB_SIZE, "pad_id": music.PAD, "bos_id": music.BOS,
                                         "eos_id": music.EOS, "d_model": 32, "n_heads": 2, "d_ff": 64, "n_layers": 2,
                                         "dropout": 0.0, "max_positions": 512, **scheme, **overrides})
    return LanguageModel(cfg).to(dtype).eval()


def test_the_piano_roll_of_a_hand_made_piece():
    roll = piano_roll([music.BOS] + HAND + [music.EOS])  # BOS and what follows EOS are not the piece
    assert roll["steps"] == 3 and roll["voices"] == ["S", "A", "T", "B"]
    assert [(n["voice"], n["pitch"], n["start"], n["end"]) for n in roll["notes"]] == [
        (0, 72, 0, 1), (1, 65, 0, 1), (2, 60, 0, 3), (3, 48, 0, 1), (0, 74, 1, 3), (1, 67, 1, 2), (3, 43, 1, 2),
        (1, 76, 2, 3), (3, 36, 2, 3)]
    assert roll["token_step"] == [0] * 4 + [1] * 4 + [2] * 4 and roll["token_voice"] == [0, 1, 2, 3] * 3
    assert roll["token_note"] == [0, 1, 2, 3, 4, 5, 2, 6, 4, 7, 2, 8]  # held notes own every token they cover
    assert all(n["first_token"] == 4 * n["start"] + n["voice"] for n in roll["notes"])
    json.dumps(roll)


def test_rests_belong_to_no_note():
    roll = piano_roll([music.REST, *HAND[1:4], music.REST, *HAND[5:]])
    assert roll["token_note"][0] is None and roll["token_note"][4] is None
    assert not any(n["voice"] == 0 and n["start"] < 2 for n in roll["notes"])


def test_the_marks_of_a_hand_made_piece():
    found = grade_marks(HAND)
    assert found["parallels"] == [{"kind": "5ths", "voices": [0, 1], "step": 0}]
    assert found["crossings"] == [{"voices": [0, 1], "start": 2, "end": 3}]
    assert found["out_of_range"] == [{"voice": 1, "pitch": 76, "start": 2, "end": 3, "range": [55, 74]},
                                     {"voice": 3, "pitch": 36, "start": 2, "end": 3, "range": [40, 60]}]
    assert found["grade"] == {"sixteenths": 3} and found["bach"] is None  # too short to grade


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_marks_are_the_grades_counts(seed):
    """Each mark is one of the grade's findings: the same parallels, crossed sixteenths and voice-sixteenths
    out of range that ``metrics.chorales`` counts."""
    tokens = walk_chorale(48, seed)
    p = grade.pitches(tokens)
    found = marks(p)
    counts = grade.parallel_counts(p)
    assert counts["5ths"] + counts["8ves"] > 0
    for kind in grade.PERFECT:
        assert sum(m["kind"] == kind for m in found["parallels"]) == counts[kind]
    crossed = np.zeros(p.shape[1], dtype=bool)
    for m in found["crossings"]:
        crossed[m["start"]:m["end"]] = True
    assert np.array_equal(crossed, grade.crossed(p))
    outside = sum(m["end"] - m["start"] for m in found["out_of_range"])
    assert 100 * outside / (p >= 0).sum() == pytest.approx(grade.out_of_range(p))
    row = grade_marks(tokens)["grade"]
    assert row == pytest.approx(grade.grade_piece(tokens))
    json.dumps(grade_marks(tokens))


def test_the_grade_beside_bachs(chorale_cache):
    from aiayn.inference.music_views import bach_reference

    bach = bach_reference(str(chorale_cache / "chorales"))
    found = grade_marks(walk_chorale(48, 1), bach)
    assert found["grade"]["grade"] > 0 and set(found["bach"]) >= {"grade", "parallel_5ths_per_100q"}
    reference, _, _ = grade.bach_baseline(chorale_cache / "chorales")
    assert found["grade"]["grade"] == pytest.approx(grade.grade_piece(walk_chorale(48, 1), reference)["grade"])
    json.dumps(found)


def test_held_out_primers(chorale_cache):
    primers = held_out_primers(chorale_cache / "chorales", tokens=18)
    test = music.load_chorales(chorale_cache / "chorales", "test")
    assert [p["name"] + ".mxl" for p in primers] == list(test)
    assert all(p["tokens"] == seq[:16].tolist() for p, seq in zip(primers, test.values()))


def test_the_midi_is_the_writers(tmp_path):
    data = midi_bytes([music.BOS] + HAND)
    assert data[:4] == b"MThd"
    assert data == music.write_midi(HAND, tmp_path / "a.mid").read_bytes()
    (tmp_path / "b.mid").write_bytes(data)
    assert music.read_primer(tmp_path / "b.mid") == HAND
    import music21  # the tempo the page's player and cursor follow is the file's

    midi = music21.midi.MidiFile()
    midi.readstr(data)
    tempos = [e.data for t in midi.tracks for e in t.events if e.type == music21.midi.MetaEvents.SET_TEMPO]
    quarter = {int.from_bytes(t, "big") / 1e6 for t in tempos}
    assert quarter == {4 * piano_roll(HAND)["seconds_per_step"]}


def test_a_continuation_is_the_generators():
    model = tiny(dtype=torch.float32)
    primer = walk_chorale(4, 1)
    got = continue_chorale(model, primer, 12, temperature=0.8, top_p=0.95, seed=3)
    want = Generator(model).generate([primer], 12, 0.8, 0, 0.95, 3)[0]
    assert got["tokens"] == want and got["tokens"][:16] == primer and got["primer_length"] == 16
    assert got["ended"] == (len(want) < 28)


@pytest.mark.parametrize("attention", ["relative", "full"])
def test_a_notes_attention_is_the_causal_forward_pass(attention):
    model = tiny(attention)
    tokens = walk_chorale(6, 2)
    for position in (0, 9, len(tokens) - 1):
        view = note_attention(model, tokens, position, layer=1, head=1)
        weights = np.array(view["weights"])
        assert len(weights) == len(tokens) and view["bos"] + weights.sum() == pytest.approx(1.0, abs=1e-12)
        assert (weights[position + 1:] == 0).all() and (weights[: position + 1] > 0).all()
        # the same row from a forward pass that never saw the later tokens
        with torch.no_grad():
            _, w = model(torch.tensor([[music.BOS] + tokens[: position + 1]]), return_attention=True)
        np.testing.assert_allclose(weights[: position + 1], w[1][0, 1, -1, 1:].numpy(), rtol=0, atol=1e-12)
    assert view["layers"] == 2 and view["heads"] == 2 and view["attention"] == attention
    with pytest.raises(UsageError, match="layers 0..1"):
        note_attention(model, tokens, 0, layer=2, head=0)


@pytest.mark.parametrize("overrides", [{}, {"relative_share_heads": True}, {"relative_values": True},
                                       {"voice_embedding": 4, "metre_embedding": 16}])
def test_skewing_step_by_step_is_the_naive_s_rel_and_the_models_bias(overrides):
    """Huang et al. §3.4.1 on the model's own Q and E: the steps' S_rel equals ``skew``, the naive
    q_i · e_clip(j−i) (float64) and ``RelativePositions.bias`` × √D below the diagonal; distances past
    k = 5 share the outermost vector."""
    model = tiny(**overrides)
    tokens = walk_chorale(5, 3)
    for layer, head, window, end in ((0, 0, 8, 15), (1, 1, 3, 4), (1, 0, 30, 1)):
        s = skewing_steps(model, tokens, layer, head, window, end)
        w = s["window"]
        assert w == min(window, end + 2) and s["tokens"][-1] == end and s["inputs"][-1] == end + 1
        assert np.array(s["padded"]).shape == (w, w + 1) and np.array(s["reshaped"]).shape == (w + 1, w)
        assert np.array(s["padded"])[:, 0].tolist() == [0.0] * w
        assert np.array_equal(np.array(s["reshaped"]).reshape(-1), np.array(s["padded"]).reshape(-1))
        assert s["sliced"] == s["skew"]
        assert s["table_rows"] == [max(d, -5) + 5 for d in s["distances"]]
        q, e = np.array(s["q"]), np.array(s["e"])
        np.testing.assert_allclose(np.array(s["qe"]), q @ e.T, rtol=0, atol=1e-12)
        mask = np.array(s["mask"])
        assert np.array_equal(mask, np.tril(np.ones((w, w), dtype=bool)))
        sliced = np.array(s["sliced"])
        for i in range(w):
            for j in range(w):
                if not mask[i, j]:
                    assert s["s_rel"][i][j] is s["naive"][i][j] is s["bias"][i][j] is None
                    continue
                naive = q[i] @ e[w - 1 - min(i - j, 5)]  # e's row r holds distance r − (w−1), clipped at −5
                assert s["naive"][i][j] == pytest.approx(naive, abs=1e-12)
                assert s["s_rel"][i][j] == sliced[i, j] == pytest.approx(naive, abs=1e-12)
                assert s["bias"][i][j] * s["scale"] == pytest.approx(naive, abs=1e-12)
    json.dumps(s)


def test_skewing_needs_relative_attention():
    with pytest.raises(UsageError, match="skewing needs a model trained with relative positions"):
        skewing_steps(tiny("full"), walk_chorale(3, 1), 0, 0)


def test_the_views_take_a_model_loaded_from_a_run_folder(tmp_path):
    """What the studio loads: ``Generator.load`` (its ``.model`` for the attention views)."""
    from aiayn.io.checkpoint import save_weights

    model = tiny(dtype=torch.float32)
    save_weights(model, model.config, tmp_path / "best.safetensors", task="music")
    generator = Generator.load(tmp_path)
    piece = continue_chorale(generator, HAND, 8, seed=1)["tokens"]
    assert note_attention(generator.model, piece, 5, 0, 0)["weights"][6:] == [0.0] * (len(piece) - 6)
    assert skewing_steps(generator.model, piece, 1, 1, 4)["window"] == 4
