"""Training from the page: one run at a time, stoppable, joined to the served models once it has weights,
and refused to any page but the studio's own (another origin, another host name, a server open to the network)."""

from __future__ import annotations

import sys
import time

import pytest
from conftest import train_args
from fastapi.testclient import TestClient

from aiayn.inference.translator import Translator
from aiayn.serve import Limits
from aiayn.serve.app import create_app
from aiayn.serve.catalog import Served
from aiayn.serve.requests import RequestError
from aiayn.serve.training import Trainer, guard
from aiayn.serve.worker import ModelWorker, model_info

HERE = "http://127.0.0.1:8000"


@pytest.mark.parametrize("host, origin, listening, refused", [
    ("127.0.0.1:8000", None, "127.0.0.1", ""),  # curl on this machine
    ("127.0.0.1:8000", HERE, "127.0.0.1", ""),  # the studio's own page
    ("localhost:8000", "http://localhost:8000", "localhost", ""),
    ("127.0.0.1:8000", "https://example.com", "127.0.0.1", "a page from https://example.com"),
    ("127.0.0.1:8000", "http://127.0.0.1:9999", "127.0.0.1", "a page from"),  # another local server's page
    ("127.0.0.1:8000", "null", "127.0.0.1", "without an origin"),
    ("attacker.example:8000", None, "127.0.0.1", "must be addressed to 127.0.0.1"),  # DNS rebinding
    ("10.0.0.5:8000", None, "0.0.0.0", "beyond this machine"),
])
def test_only_this_machines_own_page_may_start_training(host, origin, listening, refused):
    if not refused:
        guard(host, origin, listening)
        return
    with pytest.raises(RequestError, match=refused) as caught:
        guard(host, origin, listening)
    assert caught.value.status == 403


def test_a_run_started_from_the_page_trains_joins_the_models_and_stops(data, tmp_path):
    def command(preset, out, minutes):  # the micro model on the test corpus: seconds, not minutes
        return [sys.executable, "-m", "aiayn", *train_args(data, out, "--max-steps", "100000", "--set",
                                                             "train.save_every=2", "--set", "train.keep_last=1000")]

    def loader(name, path):
        translator = Translator.load(path)
        return Served(name, ModelWorker(translator), model_info(translator, path), path)

    trainer = Trainer(tmp_path / "runs", command)
    app = create_app([], Limits(), trainer=trainer, loader=loader)
    with TestClient(app, base_url=HERE) as c:
        assert c.get("/api/training").json()["state"] == "idle"
        assert c.get("/api/info").json()["served"] == []
        assert c.post("/api/translate", json={"lines": ["a"]}).status_code == 404
        assert c.post("/api/training/start", json={"minutes": 10}, headers={"Origin": "https://example.com"}
                      ).status_code == 403
        assert c.post("/api/training/start", json={"preset": "big"}).status_code == 422
        started = c.post("/api/training/start", json={"minutes": 10}, headers={"Origin": HERE}).json()
        assert started["state"] == "running" and started["run"].startswith("studio-tiny-")
        assert c.post("/api/training/start", json={}).status_code == 409
        deadline = time.monotonic() + 120
        while not (status := c.get("/api/training").json())["served"]:
            assert status["state"] == "running" and time.monotonic() < deadline, status
            time.sleep(0.5)
        assert [m["name"] for m in c.get("/api/models").json()["models"]] == [started["run"]]
        stopped = c.post("/api/training/stop", json={}).json()
        assert stopped["state"] == "stopped" and stopped["checkpoints"] >= 1
        assert c.post("/api/training/stop", json={}).status_code == 409
        final = c.get("/api/training").json()  # reloads the run as it ended
        assert final["served"] and final["state"] == "stopped"
        answer = c.post("/api/checkpoints", json={"text": "God is love.", "model": started["run"], "beam": 2})
        assert answer.status_code == 200 and answer.json()["checkpoints"], answer.text
    app.state.catalog.close()
