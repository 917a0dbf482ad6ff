"""Several models in one server: each request names its model (or gets the first), an unknown name is a
404 that lists the served ones, and a folder of runs stands for its runs."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from aiayn.app.cli import main
from aiayn.decoding.options import DecodeOptions
from aiayn.errors import UsageError
from aiayn.inference.translator import Translator
from aiayn.serve import Limits
from aiayn.serve.app import create_app
from aiayn.serve.catalog import Served, expand, names
from aiayn.serve.worker import ModelWorker, model_info

TEXT = "In the beginning God created the heavens and the earth."


@pytest.fixture(scope="module")
def two(trained):
    """The micro model served twice: beam 2 as "first", beam 3 as "second" (their defaults tell them apart)."""
    translator = Translator.load(trained)
    served = [Served(name, ModelWorker(translator, DecodeOptions(beam_size=beam, max_len_b=6)),
                     model_info(translator, trained), Path(trained))
              for name, beam in (("first", 2), ("second", 3))]
    with TestClient(create_app(served, Limits())) as c:
        yield c
    for s in served:
        s.worker.close()


def test_the_models_are_listed_and_described_each(two):
    listed = two.get("/api/models").json()["models"]
    assert [m["name"] for m in listed] == ["first", "second"]
    assert all(m["architecture"] == "transformer" and "beam" in m["views"] for m in listed)
    assert two.get("/api/info").json()["defaults"]["beam"] == 2  # none named: the first
    second = two.get("/api/info", params={"model": "second"}).json()
    assert second["name"] == "second" and second["defaults"]["beam"] == 3 and second["served"] == ["first", "second"]


def test_a_request_reaches_the_model_it_names(two):
    assert two.post("/api/translate", json={"lines": [TEXT]}).json()["beam"] == 2
    assert two.post("/api/translate", json={"lines": [TEXT], "model": "second"}).json()["beam"] == 3
    beam = two.post("/api/beam", json={"text": TEXT, "model": "second", "beam": 2}).json()
    assert beam["beam"] == 2 and beam["nbest"]
    assert two.get("/api/curves", params={"model": "second"}).json()["train"]


@pytest.mark.parametrize("name", ["third", "x" * 5000, 7, ["first"]])
def test_an_unknown_model_is_a_404_naming_the_served_ones(two, name):
    for answer in (two.post("/api/translate", json={"lines": [TEXT], "model": name}),
                   two.post("/api/walkthrough", json={"text": TEXT, "model": name})):
        assert answer.status_code == 404, answer.text
        message = answer.json()["error"]
        assert message.endswith("first, second") and len(message) < 200 and "\n" not in message
    if isinstance(name, str):
        assert two.get("/api/schedule", params={"model": name}).status_code == 404


def test_a_folder_of_runs_stands_for_its_runs(trained, tmp_path):
    for name in ("b-run", "a-run"):
        shutil.copytree(trained, tmp_path / "runs" / name)
    (tmp_path / "runs" / "notes").mkdir()  # not a run: left out
    assert expand([tmp_path / "runs"]) == [tmp_path / "runs" / "a-run", tmp_path / "runs" / "b-run"]
    assert expand([trained]) == [Path(trained)]
    with pytest.raises(UsageError, match="neither a run folder"):
        expand([tmp_path / "runs" / "notes"])


def test_names_are_short_and_unique(tmp_path):
    a, b = tmp_path / "x" / "tiny", tmp_path / "y" / "tiny"
    for folder in (a, b):
        folder.mkdir(parents=True)
    assert names([a, b, a / "best.safetensors"]) == ["tiny", "tiny-2", "tiny/best"]


def test_serve_without_a_model_says_how_to_name_one(capsys):
    assert main(["serve", "--no-training"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("error: name a model to serve: aiayn serve runs/tiny") and len(err.splitlines()) == 1


def test_a_model_of_another_task_is_served_as_its_tasks_subject(tmp_path):
    """A music model loads as a Generator (``serve.subjects``): /api/info names its task, and translate refuses."""
    import torch

    from aiayn.data import music
    from aiayn.inference.generator import Generator
    from aiayn.io.checkpoint import save_weights
    from aiayn.model import LanguageModel
    from aiayn.model.config import LanguageModelConfig
    from aiayn.serve.subjects import describe
    from aiayn.tasks import subject as load_subject

    torch.manual_seed(0)
    cfg = LanguageModelConfig.from_dict({"vocab_size": music.VOCAB_SIZE, "pad_id": music.PAD, "bos_id": music.BOS,
                                         "eos_id": music.EOS, "d_model": 32, "n_heads": 2, "d_ff": 64, "n_layers": 2,
                                         "attention": "relative", "positional": "none", "max_relative_distance": 5})
    save_weights(LanguageModel(cfg), cfg, tmp_path / "best.safetensors", task="music")
    subject = load_subject(tmp_path)
    assert isinstance(subject, Generator)
    served = Served("chorales", ModelWorker(subject), describe(subject, tmp_path), tmp_path)
    with TestClient(create_app([served], Limits())) as c:
        info = c.get("/api/info").json()
        assert info["task"] == "music" and info["architecture"] == "decoder_only" and info["config"]["n_layers"] == 2
        assert "beam" not in info["views"] and info["attention_kinds"] == []
        refused = c.post("/api/translate", json={"lines": [TEXT]})
        assert refused.status_code == 422 and refused.json()["error"].startswith("chorales is a music model")
        assert c.post("/api/beam", json={"text": TEXT}).status_code == 422
    served.worker.close()
