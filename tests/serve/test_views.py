"""The studio's JSON views (issue 44): each answers from the real computation, is listed in /api/info
for the models it takes, and refuses bad requests in one line like every other endpoint."""

from __future__ import annotations

from pathlib import Path

import pytest
import torch
from fastapi.testclient import TestClient

from aiayn.decoding.options import DecodeOptions
from aiayn.inference.translator import Translator
from aiayn.serve import Limits
from aiayn.serve.app import create_app
from aiayn.serve.worker import ModelWorker, model_info

TEXT = "In the beginning God created the heavens and the earth."
DEFAULTS = DecodeOptions(beam_size=3, max_len_b=6)


@pytest.fixture(scope="module")
def client(trained):
    translator = Translator.load(trained)
    worker = ModelWorker(translator, DEFAULTS)
    with TestClient(create_app(worker, Limits(), model_info(translator, trained))) as c:
        yield c, translator
    worker.close()


def test_info_lists_the_views_this_model_offers(client):
    c, _ = client
    assert c.get("/api/info").json()["views"] == ["walkthrough", "beam", "checkpoints", "alignment"]


def test_the_beam_view_is_the_search_that_translate_runs(client):
    c, translator = client
    answer = c.post("/api/beam", json={"text": TEXT, "beam": 3, "nbest": 3}).json()
    want = translator.translate_nbest([TEXT], DecodeOptions(beam_size=3, nbest=3, max_len_b=6))[0]
    assert [(h["text"], h["score"]) for h in answer["nbest"]] == [(t, round(s, 4)) for t, s in want]
    assert answer["steps"][0]["beams"] == [{"pieces": [], "log_prob": 0.0}]  # one empty beam starts
    fates = {c["fate"] for s in answer["steps"] for c in s["candidates"]}
    assert fates <= {"kept", "finished", "pruned"} and "kept" in fates and "finished" in fates
    assert all(len(s["candidates"]) == 6 for s in answer["steps"])


def test_the_walkthrough_ends_in_the_models_own_next_piece_probabilities(client):
    c, translator = client
    answer = c.post("/api/walkthrough", json={"text": TEXT, "beam": 3, "layer": 0}).json()
    keys = [s["key"] for s in answer["steps"]]
    assert keys[0] == "encoder.embed" and "encoder.0.self.weights" in keys and "decoder.0.cross.weights" in keys
    cfg, tok = translator.model.config, translator.tokenizer
    src = tok.encode([TEXT])[0] + [cfg.eos_id]
    assert answer["source_pieces"] == tok.pieces(src) and answer["target_pieces"][0] == tok.pieces([cfg.bos_id])[0]
    ids = [cfg.bos_id] + tok.encode([answer["translation"]])[0]
    with torch.no_grad():
        probs = translator.model(torch.tensor([src]), torch.tensor([ids]))[0, -1].softmax(-1)
    best = probs.topk(5)
    assert [n["piece"] for n in answer["next"]] == tok.pieces(best.indices.tolist())
    assert [n["p"] for n in answer["next"]] == pytest.approx(best.values.tolist(), abs=1e-4)
    decoding = answer["decoding"]  # BOS, then each piece of the translation, one step at a time with the cache
    assert [d["fed"] for d in decoding] == answer["target_pieces"] and len(decoding) == len(ids)
    assert [d["cache"][2] for d in decoding] == list(range(1, len(ids) + 1))
    last = decoding[-1]["next"]  # the cached last step predicts what the full pass does
    assert [n["piece"] for n in last] == [n["piece"] for n in answer["next"]]
    assert [n["p"] for n in last] == pytest.approx([n["p"] for n in answer["next"]], abs=2e-5)
    step = next(s for s in answer["steps"] if s["key"] == "encoder.0.self.q")
    assert step["shape"] == [cfg.n_heads, len(src), cfg.d_k] and len(step["values"]) == cfg.n_heads


@pytest.mark.parametrize("path, body, status, message", [
    ("/api/beam", {"text": TEXT, "beam": 1}, 422, "beam must be 2 or more"),
    ("/api/beam", {"text": "", "beam": 3}, 422, "text must be a sentence"),
    ("/api/beam", {"text": TEXT, "colour": 1}, 422, "unknown field 'colour'"),
    ("/api/walkthrough", {"text": TEXT, "layer": 1}, 422, "layer 1 does not exist: this model has 1 encoder"),
    ("/api/walkthrough", {"text": TEXT, "layer": "1"}, 422, "layer must be an integer"),
    ("/api/walkthrough", {"text": "x" * 5000}, 413, "characters; this server takes at most"),
])
def test_a_bad_view_request_is_one_line(client, path, body, status, message):
    c, _ = client
    r = c.post(path, json=body)
    assert r.status_code == status and message in r.json()["error"] and "\n" not in r.json()["error"]


def test_the_run_views_read_the_models_tables_and_its_run(client, trained):
    from aiayn.io.rundir import RunDir
    from aiayn.training.schedule import noam_lr

    c, translator = client
    pos = c.get("/api/positions?n=12").json()
    table = translator.model.positions.table[:12]
    assert pos["kind"] == "sinusoidal" and len(pos["table"]) == 12
    torch.testing.assert_close(torch.tensor(pos["table"]), table.float(), rtol=0, atol=1e-4)
    assert [row[i] for i, row in enumerate(pos["similarity"])] == pytest.approx([1.0] * 12, abs=1e-4)
    schedule = c.get("/api/schedule").json()
    config = RunDir(trained).read_config()
    assert schedule["warmup"] == config["train"]["warmup"] and schedule["reached"] == 8
    assert all(lr == pytest.approx(noam_lr(s, schedule["d_model"], schedule["warmup"], schedule["lr_scale"]))
               for s, lr in schedule["curve"])
    assert schedule["logged"] == [[e["step"], e["lr"]] for e in RunDir(trained).events("train")]
    smooth = c.get("/api/smoothing").json()
    assert smooth["true_token"] + (smooth["vocab"] - 1) * smooth["every_other"] == pytest.approx(1.0)
    curves = c.get("/api/curves").json()
    assert [e["step"] for e in curves["valid"]] == [4, 8] and len(curves["train"]) == 8
    assert c.get("/api/positions?n=0").status_code == 422


def test_a_lone_weights_file_has_no_run_to_show(trained, tmp_path):
    import shutil

    shutil.copy(trained / "best.safetensors", tmp_path / "model.safetensors")
    shutil.copy(trained / "spm.model", tmp_path / "spm.model")
    translator = Translator.load(tmp_path / "model.safetensors")
    worker = ModelWorker(translator, DEFAULTS)
    try:
        with TestClient(create_app(worker, Limits(), model_info(translator, tmp_path / "model.safetensors"))) as c:
            r = c.get("/api/schedule")
            assert r.status_code == 404 and "serve the run directory" in r.json()["error"]
            assert c.get("/api/positions").status_code == 200
    finally:
        worker.close()


def test_every_label_is_in_both_languages():
    import json

    from aiayn.serve.app import STATIC

    en, ko = (json.loads((STATIC / "locales" / f"{lang}.json").read_text(encoding="utf-8")) for lang in ("en", "ko"))
    assert set(en) == set(ko) and all(ko[key].strip() for key in ko)
    names = ("index.html", "studio.js", "studio-views.js", "family.js", "family-images.js")
    page = "".join((STATIC / name).read_text(encoding="utf-8") for name in names)
    import re

    used = set(re.findall(r'data-i18n="([\w.]+)"', page)) | set(re.findall(r'(?<![\w.])t\("([\w.]+)"\)', page))
    used |= set(re.findall(r'"((?:paper|kind|walk)\.\w+)"', page))  # the views' paper keys, KIND_KEYS
    views = set(re.findall(r"studio\.views\.(\w+) =", page)) | set(re.findall(r"^ {2,4}(\w+): \{paper:", page, re.M))
    assert {"beam", "walk", "heads", "training", "chorale", "digit", "parse"} <= views, views  # the pattern finds them
    used |= {f"studio.tab.{name}" for name in views}  # studio.js labels each view's tab studio.tab.NAME
    used |= {f"beam.{fate}" for fate in ("kept", "finished", "pruned")}  # t("beam." + c.fate)
    used |= {f"pos.kind.{kind}" for kind in ("sinusoidal", "learned", "none")}
    used |= {f"train.state.{s}" for s in ("idle", "running", "finished", "stopped", "failed")}
    assert used <= set(en), sorted(used - set(en))


def test_attention_at_every_checkpoint_is_each_checkpoints_own(data, tmp_path):
    from conftest import aiayn, train_args

    from aiayn.inference.attention_maps import all_attention_maps
    from aiayn.serve.views.checkpoints import best_tokens

    run = tmp_path / "run"
    aiayn(*train_args(data, run, "--max-steps", "6", "--set", "train.save_every=2", "--set", "train.keep_last=10"))
    translator = Translator.load(run)
    worker = ModelWorker(translator, DEFAULTS)
    try:
        with TestClient(create_app(worker, Limits(), model_info(translator, run))) as c:
            answer = c.post("/api/checkpoints", json={"text": TEXT, "kind": "cross", "beam": 3}).json()
            assert [k["step"] for k in answer["checkpoints"]] == [2, 4, 6]
            target = best_tokens(translator, TEXT, 3)
            middle = Translator.load(run / "checkpoints" / "step-00000004.safetensors")
            layers = all_attention_maps(middle, TEXT, 3, target=target)[1]["cross"][0]
            got = torch.tensor(answer["checkpoints"][1]["weights"], dtype=torch.float64)
            assert torch.allclose(got, torch.stack(layers).double(), atol=6e-4)
            assert not torch.allclose(got, torch.tensor(answer["checkpoints"][2]["weights"], dtype=torch.float64))
            assert c.post("/api/checkpoints", json={"text": TEXT, "kind": "sideways"}).status_code == 422
    finally:
        worker.close()


def test_checkpoints_are_spread_over_the_run():
    from aiayn.serve.views.checkpoints import spread

    paths = [Path(f"step-{i:08d}.safetensors") for i in range(1, 101)]
    assert spread(paths[:5], 24) == paths[:5]
    shown = spread(paths, 24)
    assert len(shown) == 24 and shown[0] == paths[0] and shown[-1] == paths[-1] and shown == sorted(set(shown))


@pytest.mark.parametrize("path, body, status, says", [
    ("/api/checkpoints", b"{bad", 400, "not valid JSON"),
    ("/api/checkpoints", {"text": 5}, 422, "text must be a string"),
    ("/api/checkpoints", {"text": "a" * 5000}, 413, "characters"),
    ("/api/checkpoints", {"text": "a", "kind": "sideways"}, 422, "kind must be one of"),
    ("/api/checkpoints", {"text": "a", "colour": "red"}, 422, "unknown field 'colour'"),
    ("/api/checkpoints", {"text": "a", "beam": 10 ** 40}, 422, "digits"),
    ("/api/walkthrough", {"text": "a", "layer": -1}, 422, "layer must be"),
    ("/api/walkthrough", {"text": "a", "layer": 40}, 422, "does not exist"),
    ("/api/beam", {"text": "a", "beam": 1}, 422, "beam must be 2 or more"),
    ("/api/beam", {"text": "a", "model": {"$ne": 1}}, 404, "no model called"),
])
def test_the_views_refuse_in_one_line(client, path, body, status, says):
    c, _ = client
    r = c.post(path, content=body) if isinstance(body, bytes) else c.post(path, json=body)
    assert r.status_code == status, r.text
    message = r.json()["error"]
    assert says in message and "\n" not in message and len(message) < 300, message


@pytest.mark.parametrize("query", ["n=abc", "n=0", "n=100000", "n=" + "9" * 50])
def test_the_positions_view_refuses_a_bad_count_in_one_line(client, query):
    c, _ = client
    r = c.get(f"/api/positions?{query}")
    assert r.status_code == 422 and set(r.json()) == {"error"} and "\n" not in r.json()["error"], r.text
