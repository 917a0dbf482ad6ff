"""`aiayn serve --engine ctranslate2` (issue 31): the same API, limits and hardening, translations from
CTranslate2, and the attention view drawn by aiayn's model reading CTranslate2's translation."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time

import httpx
import pytest
from conftest import aiayn
from fastapi.testclient import TestClient
from test_serve import ATTENTION_ERRORS, DEFAULTS, LIMITS, SENTENCES, TRANSLATE_ERRORS, _post, assert_refused

from aiayn.decoding.options import DecodeOptions
from aiayn.errors import UsageError
from aiayn.export import export
from aiayn.export.ctranslate2 import CTranslate2Translator
from aiayn.inference.attention_maps import all_attention_maps
from aiayn.inference.translator import Translator
from aiayn.runs import engines
from aiayn.serve.app import create_app
from aiayn.serve.worker import ModelWorker, model_info

pytest.importorskip("ctranslate2")


@pytest.fixture(scope="module")
def exported(trained, tmp_path_factory):
    return export(trained, "ctranslate2", tmp_path_factory.mktemp("ct2") / "micro-ct2")


@pytest.fixture(scope="module")
def decoder(exported):
    return CTranslate2Translator(exported)


@pytest.fixture(scope="module")
def client(trained, decoder):
    translator = Translator.load(trained)
    worker = ModelWorker(translator, DEFAULTS, max_queue=LIMITS.max_queue, max_batch_lines=LIMITS.max_batch_lines,
                         decoder=decoder)
    with TestClient(create_app(worker, LIMITS, {**model_info(translator, trained), "engine": {"name": "ctranslate2"}})) as c:
        yield c, translator
    worker.close()


def test_translations_are_ctranslate2s(client, decoder):
    c, translator = client
    lines = [SENTENCES[0], "", SENTENCES[1]]
    for body in ({"lines": lines, "beam": 1}, {"lines": lines, "beam": 3, "nbest": 2, "alpha": 0.8}):
        r = c.post("/api/translate", json=body)
        assert r.status_code == 200, r.text
        options = DecodeOptions(**{**DEFAULTS.__dict__, "beam_size": body["beam"], "nbest": body.get("nbest", 1),
                                   "alpha": body.get("alpha", DEFAULTS.alpha)})
        want = decoder.translate_nbest(lines, options)
        got = r.json()["translations"]
        assert [[h["text"] for h in t["nbest"]] for t in got] == [[text for text, _ in hyps] for hyps in want]
        assert [h["score"] for h in got[0]["nbest"]] == pytest.approx([s for _, s in want[0]], abs=1e-3)
    greedy = c.post("/api/translate", json={"lines": lines, "beam": 1}).json()["translations"]
    assert [t["text"] for t in greedy] == translator.translate(lines, DecodeOptions(**{**DEFAULTS.__dict__,
                                                                                      "beam_size": 1}))


def test_attention_reads_ctranslate2s_translation(client, decoder):
    c, translator = client
    text = SENTENCES[3]
    body = c.post("/api/attention", json={"text": text, "beam": 2}).json()
    ids = decoder.translate_ids([text], DecodeOptions(beam_size=2))[0][0][0]
    assert body["translation"] == decoder.translate([text], DecodeOptions(beam_size=2))[0]
    assert body["kinds"]["cross"]["queries"] == translator.tokenizer.pieces(ids + [2])  # its pieces, then EOS
    _, maps = all_attention_maps(translator, text, 2, target=ids)
    assert body["kinds"]["cross"]["weights"][0][0][0] == pytest.approx(maps["cross"][0][0][0][0].tolist(), abs=1e-4)
    assert set(body["kinds"]) == {"cross", "encoder", "decoder_self"}
    assert c.get("/api/info").json()["engine"]["name"] == "ctranslate2"


@pytest.mark.parametrize("body,status,fragment", TRANSLATE_ERRORS)
def test_the_same_translate_refusals(client, body, status, fragment):
    assert_refused(_post(client[0], "/api/translate", body), status, fragment)


@pytest.mark.parametrize("body,status,fragment", ATTENTION_ERRORS)
def test_the_same_attention_refusals(client, body, status, fragment):
    assert_refused(_post(client[0], "/api/attention", body), status, fragment)


def test_engines_find_the_weights_or_say_what_is_missing(trained, exported, tmp_path):
    with engines.ctranslate2(exported) as engine:
        assert engine.weights == trained / "best.safetensors" and engine.info["export"] == str(exported)
    with engines.ctranslate2(trained, dtype="int8") as engine:  # exported into a temporary folder, int8
        assert engine.weights == trained / "best.safetensors" and engine.info["dtype"] == "int8"
        assert len(engine.decoder.translate(SENTENCES[:2], DecodeOptions(beam_size=1, max_len_b=5))) == 2
    moved = shutil.copytree(exported, tmp_path / "moved")
    manifest = json.loads((moved / "aiayn.json").read_text())
    (moved / "aiayn.json").write_text(json.dumps({**manifest, "source": str(tmp_path / "gone.safetensors")}))
    with pytest.raises(UsageError, match="which is not there: the attention view needs those aiayn weights"):
        with engines.ctranslate2(moved):
            pass
    with pytest.raises(UsageError, match="is a CTranslate2 export: add --engine ctranslate2"):
        engines.check_engine(exported, "aiayn")
    with pytest.raises(UsageError, match="--dtype int16 is not available"):
        with engines.ctranslate2(exported, dtype="int16"):
            pass


def test_the_command_serves_an_export(exported, decoder):
    """`aiayn serve --model EXPORT --engine ctranslate2`, a real process; without --engine, one line."""
    err = aiayn("serve", "--model", str(exported), "--port", "1", check=False).stderr.decode()
    assert err == f"error: {exported} is a CTranslate2 export: add --engine ctranslate2\n"
    port = _free_port()
    proc = subprocess.Popen([sys.executable, "-m", "aiayn", "serve", "--model", str(exported), "--engine",
                             "ctranslate2", "--port", str(port), "--max-len-b", "12"],
                            env={**os.environ, "PYTHONWARNINGS": "ignore"}, stderr=subprocess.PIPE)
    try:
        url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 120
        while True:
            assert proc.poll() is None and time.monotonic() < deadline, proc.stderr.read().decode()
            try:
                if httpx.get(f"{url}/api/health", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                time.sleep(0.2)
        r = httpx.post(f"{url}/api/translate", json={"lines": SENTENCES[:2], "beam": 1}, timeout=60)
        want = decoder.translate(SENTENCES[:2], DecodeOptions(beam_size=1, max_len_b=12))
        assert [t["text"] for t in r.json()["translations"]] == want
        assert httpx.get(f"{url}/api/info").json()["engine"]["name"] == "ctranslate2"
    finally:
        proc.terminate()
        proc.wait(30)


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]
