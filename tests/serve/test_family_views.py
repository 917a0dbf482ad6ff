"""The attention family's studio views (issue 45) over HTTP: each endpoint answers exactly what its
inference function computes for the served model (loaded as ``aiayn serve`` loads it, from a run folder),
is listed in /api/info only for the models it takes, and refuses a hostile request in one line."""

from __future__ import annotations

import json

import numpy as np
import pytest
from family_models import family_runs
from fastapi.testclient import TestClient

from aiayn.data import music
from aiayn.decoding.options import DecodeOptions
from aiayn.inference import alignment_views, image_views, music_views, relative_views
from aiayn.inference.parser import PAPER_DECODING
from aiayn.serve import Limits, _load
from aiayn.serve.app import create_app
from aiayn.tasks import subject as load_subject

PIECE = [music.pitch_token(p) for p in (72, 67, 64, 48, 74, 67, 62, 43, 76, 72, 60, 48, 74, 71, 62, 43)] * 3


def plain(x):
    """``x`` as it comes back from JSON."""
    return json.loads(json.dumps(x))


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    return family_runs(tmp_path_factory.mktemp("family"))


@pytest.fixture(scope="module")
def client(runs, chorale_cache):
    mp = pytest.MonkeyPatch()
    mp.setenv("AIAYN_CACHE", str(chorale_cache))  # the held-out primers: conftest's made-up chorales
    served = [_load(name, path, load_subject, DecodeOptions(), Limits(), "float32", None, None)
              for name, path in runs.items()]
    with TestClient(create_app(served, Limits())) as c:
        yield c
    for s in served:
        s.worker.close()
    mp.undo()


def post(client, path, model, **body):
    r = client.post(f"/api/{path}", json={"model": model, **body})
    assert r.status_code == 200, r.text
    answer = r.json()
    assert answer.pop("ms") >= 0
    return answer


def test_each_model_offers_the_views_it_can_show(client):
    views = {m["name"]: m["views"] for m in client.get("/api/models").json()["models"]}
    assert views["music-relative"] == ["primers", "chorale", "note_attention", "skewing", "midi"]
    assert views["music-absolute"] == ["primers", "chorale", "note_attention", "midi"]
    assert views["digits"] == ["digit", "pixel_attention"] and views["superres"] == ["superres", "pixel_attention"]
    assert views["rnnsearch"] == ["beam", "checkpoints", "alignment"] and "alignment" in views["transformer"]
    assert views["rnnencdec"] == ["beam", "alignment"] and views["parsing"] == ["parse"]


def test_a_chorale_is_the_generators_with_its_roll_and_grade(client, runs, chorale_cache):
    primers = post(client, "primers", "music-relative")
    want = music_views.held_out_primers(chorale_cache / "chorales", 64)
    assert [p["tokens"] for p in primers["primers"]] == [p["tokens"] for p in want] and primers["missing"] is None
    got = post(client, "chorale", "music-relative", primer=1, length=24, temperature=0.9, top_p=0.95, seed=4)
    generator = load_subject(runs["music-relative"])
    out = music_views.continue_chorale(generator, want[1]["tokens"], 24, 0.9, 0.95, 4)
    assert got["tokens"] == out["tokens"] and got["tokens"][:64] == want[1]["tokens"] and got["primer_length"] == 64
    assert got["primer"] == {"index": 1, "name": want[1]["name"]}
    assert got["roll"] == plain(music_views.piano_roll(out["tokens"]))
    # Bach's medians stand beside the grade only once they are cached (another test may have cached them)
    from aiayn.serve.views.music import cached_bach

    assert got["grade"] == plain(music_views.grade_marks(out["tokens"], cached_bach(chorale_cache / "chorales")))
    alone = post(client, "chorale", "music-absolute", primer=None, length=12, seed=2)
    assert alone["primer"] is None and alone["primer_length"] == 0 and len(alone["tokens"]) <= 12


def test_bachs_grade_appears_beside_the_pieces_once_it_is_cached(client, chorale_cache):
    bach = music_views.bach_reference(str(chorale_cache / "chorales"))  # what `aiayn grade` caches
    assert post(client, "primers", "music-relative")["bach"] is True
    got = post(client, "chorale", "music-relative", primer=0, length=16, seed=1)
    assert got["grade"] == plain(music_views.grade_marks(got["tokens"], bach)) and got["grade"]["bach"]


def test_without_a_chorale_cache_the_views_say_how_to_get_one(client, tmp_path, monkeypatch):
    monkeypatch.setenv("AIAYN_CACHE", str(tmp_path))
    primers = post(client, "primers", "music-relative")
    assert primers["primers"] == [] and "make music" in primers["missing"]
    r = client.post("/api/chorale", json={"model": "music-relative", "primer": 0})
    assert r.status_code == 409 and "no chorale cache" in r.json()["error"]
    assert post(client, "chorale", "music-relative", primer=None, length=8)["primer_length"] == 0


@pytest.mark.parametrize("name", ["music-relative", "music-absolute"])
def test_a_notes_attention_is_the_models(client, runs, name):
    model = load_subject(runs[name]).model
    for position, layer, head in ((0, 0, 0), (21, 1, 1), (len(PIECE) - 1, 1, 0)):
        got = post(client, "note_attention", name, tokens=PIECE, position=position, layer=layer, head=head)
        assert got == plain(relative_views.note_attention(model, PIECE, position, layer, head))
        assert got["weights"][position + 1:] == [0.0] * (len(PIECE) - position - 1)


def test_the_skewing_steps_are_the_models_and_equal_the_naive_s_rel(client, runs):
    model = load_subject(runs["music-relative"]).model
    got = post(client, "skewing", "music-relative", tokens=PIECE, layer=1, head=1, window=5, end=30)
    assert got == plain(relative_views.skewing_steps(model, PIECE, 1, 1, 5, 30))
    for i, row in enumerate(got["s_rel"]):
        for j, value in enumerate(row):
            assert (value is None) == (j > i)
            assert value is None or value == pytest.approx(got["naive"][i][j], abs=1e-9)
    refused = client.post("/api/skewing", json={"model": "music-absolute", "tokens": PIECE})
    assert refused.status_code == 422 and "offered for Music models with relative self-attention" in refused.json()["error"]


def test_the_midi_is_a_file_of_the_tokens(client):
    r = client.post("/api/midi", json={"model": "music-relative", "tokens": PIECE})
    assert r.status_code == 200 and r.headers["content-type"] == "audio/midi"
    assert 'filename="chorale.mid"' in r.headers["content-disposition"]
    assert r.content == music_views.midi_bytes(PIECE)


def test_the_image_views_are_the_models(client, runs):
    digits_model, superres_model = (load_subject(runs[n]).model for n in ("digits", "superres"))
    digit = post(client, "digit", "digits", label=3, seed=5, temperature=0.9)
    assert digit == plain(image_views.generate_digit(digits_model, 3, 5, 0.9))
    sr = post(client, "superres", "superres", index=7)
    assert sr == plain(image_views.super_resolve(superres_model, 7))
    got = post(client, "pixel_attention", "digits", pixels=digit["image"], index=20, layer=1, head=1, label=3)
    assert got == plain(image_views.pixel_attention(digits_model, digit["pixels"], 20, 1, 1, label=3))
    weights = np.array(got["weights"])
    hidden = np.ones(64, dtype=bool)
    hidden[got["visible"]["pixels"]] = False
    assert (weights[hidden] == 0).all() and (weights[~hidden] > 0).all()  # nothing where the pixel may not look
    got = post(client, "pixel_attention", "superres", pixels=sr["output"], low=sr["low"], index=40, layer=1, head=0)
    assert got == plain(image_views.pixel_attention(superres_model, sr["output"], 40, 1, 0, low=sr["low"]))


def test_the_alignment_is_rnnsearchs_and_rnnencdec_has_none(client, runs):
    text = "In the beginning God created the heaven and the earth."
    got = post(client, "alignment", "rnnsearch", text=text, beam=2)
    assert got["alignment"] is True
    want = alignment_views.alignment(load_subject(runs["rnnsearch"]), text, beam_size=2)
    assert got == plain(want)
    assert np.allclose(np.array(got["alpha"]).sum(1), 1.0, atol=1e-5)
    forced = post(client, "alignment", "transformer", text=text, target="Dios creó", layer=0, head=1)
    assert forced["head"] == 1 and forced["layer"] == 0
    none = post(client, "alignment", "rnnencdec", text=text, beam=2)
    assert none["alignment"] is False and "fixed vector" in none["reason"] and none["see"].startswith("docs/")


def test_the_parse_is_read_from_what_the_model_emitted(client, runs):
    got = post(client, "parse", "parsing", text="the dog saw a cat .", beam=3)
    options = DecodeOptions(**{**PAPER_DECODING.__dict__, "beam_size": 3})
    assert {k: v for k, v in got.items() if k not in ("beam", "alpha")} == \
        plain(alignment_views.parse_tree(load_subject(runs["parsing"]), "the dog saw a cat .", options))
    assert got["beam"] == 3 and got["alpha"] == PAPER_DECODING.alpha


HOSTILE = [
    ("chorale", "music-relative", {"length": 0}, 422, "length must be an integer from 1 to 512"),
    ("chorale", "music-relative", {"length": 10**9}, 422, "length must be an integer from 1 to 512"),
    ("chorale", "music-relative", {"temperature": 0}, 422, "temperature must be a number > 0"),
    ("chorale", "music-relative", {"temperature": "hot"}, 422, "not a string"),
    ("chorale", "music-relative", {"top_p": 1.5}, 422, "top_p must be a number > 0 and <= 1"),
    ("chorale", "music-relative", {"seed": True}, 422, "seed must be an integer"),
    ("chorale", "music-relative", {"primer": 500}, 422, "primer must be one of the 3 held-out chorales"),
    ("chorale", "music-relative", {"primer": [0]}, 422, "primer must be an integer"),
    ("chorale", "music-relative", {"colour": 1}, 422, "unknown field 'colour'"),
    ("primers", "music-relative", {"tokens": 2}, 422, "tokens must be an integer from 4 to 256"),
    ("note_attention", "music-relative", {}, 422, "tokens must be a list of pitch and rest tokens"),
    ("note_attention", "music-relative", {"tokens": "x" * 5000}, 422, "tokens must be a list"),
    ("note_attention", "music-relative", {"tokens": []}, 422, "tokens has 0 entries"),
    ("note_attention", "music-relative", {"tokens": [music.BOS, 40]}, 422, "tokens[0] must be one of"),
    ("note_attention", "music-relative", {"tokens": [40, 62]}, 422, "tokens[1] must be one of the pitch and rest"),
    ("note_attention", "music-relative", {"tokens": [40, 4.5]}, 422, "tokens[1]"),
    ("note_attention", "music-relative", {"tokens": [40] * 2000}, 413, "tokens has 2000 entries"),
    ("note_attention", "music-relative", {"tokens": PIECE, "position": 48}, 422, "position must be an integer from 0 to 47"),
    ("note_attention", "music-relative", {"tokens": PIECE, "layer": 2}, 422, "layers 0..1"),
    ("skewing", "music-relative", {"tokens": PIECE, "window": 0}, 422, "window must be an integer from 1 to 16"),
    ("skewing", "music-relative", {"tokens": PIECE, "head": 7}, 422, "heads 0..1"),
    ("midi", "music-relative", {"tokens": [music.EOS]}, 422, "tokens[0]"),
    ("midi", "digits", {"tokens": PIECE}, 422, "this model has no midi view: it is offered for Music models"),
    ("digit", "digits", {}, 422, "class-conditional: pick a class"),
    ("digit", "digits", {"label": 10}, 422, "label must be an integer from 0 to 9, or null"),
    ("digit", "superres", {}, 422, "this model has no digit view: it is offered for Digits models"),
    ("superres", "superres", {"index": 100000}, 422, "the test split has digits 0.."),
    ("pixel_attention", "digits", {"label": 1}, 422, "pixels is missing"),
    ("pixel_attention", "digits", {"pixels": [0] * 63, "label": 1}, 422, "pixels has 63 entries"),
    ("pixel_attention", "digits", {"pixels": [17] * 64, "label": 1}, 422, "pixels[0] must be one of the intensities 0..16"),
    ("pixel_attention", "digits", {"pixels": [[0] * 7] * 8, "label": 1}, 422, "pixels must be 8 rows of 8"),
    ("pixel_attention", "digits", {"pixels": [0] * 64}, 422, "class-conditional: send the label"),
    ("pixel_attention", "digits", {"pixels": [0] * 64, "label": 1, "index": 64}, 422, "index must be an integer from 0 to 63"),
    ("pixel_attention", "superres", {"pixels": [0] * 64, "low": [[0] * 4] * 3}, 422, "low must be 4 rows of 4"),
    ("pixel_attention", "superres", {"pixels": [0] * 64, "label": 2}, 422, "this model takes no class"),
    ("alignment", "rnnsearch", {"text": ""}, 422, "text must be a sentence"),
    ("alignment", "rnnsearch", {"text": "x" * 5000}, 413, "text has 5000 characters"),
    ("alignment", "rnnsearch", {"text": "God is love.", "target": 7}, 422, "target must be a sentence"),
    ("alignment", "transformer", {"text": "God is love.", "head": 5}, 422, "heads 0..1"),
    ("alignment", "transformer", {"text": "God is love.", "layer": 9}, 422, "layers 0..1"),
    ("alignment", "parsing", {"text": "God is love."}, 422, "offered for Translation models"),
    ("parse", "parsing", {"text": "the dog " * 40}, 413, "this view parses at most 60"),
    ("parse", "parsing", {"text": "the dog", "beam": 0}, 422, "beam must be an integer from 1 to 16"),
    ("parse", "music-relative", {"text": "the dog"}, 422, "offered for Parsing models"),
]


@pytest.mark.parametrize("path, model, body, status, message", HOSTILE, ids=[f"{h[0]}-{h[4][:24]}" for h in HOSTILE])
def test_a_hostile_request_is_refused_in_one_line(client, path, model, body, status, message):
    r = client.post(f"/api/{path}", json={"model": model, **body})
    error = r.json()["error"]
    assert r.status_code == status and message in error and "\n" not in error and len(error) < 300, (r.status_code, error)


def test_nan_and_unknown_models_are_refused(client):
    r = client.post("/api/digit", content=b'{"model": "digits", "label": 1, "temperature": NaN}',
                    headers={"Content-Type": "application/json"})
    assert r.status_code == 422 and "temperature must be a number" in r.json()["error"]
    assert client.post("/api/chorale", json={"model": "nobody"}).status_code == 404
