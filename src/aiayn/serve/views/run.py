"""The studio's views of the run behind the served model (paper §3.5, §5.3, §5.4, and its training log),
read from the model's own tables and the run folder (``io.rundir.RunDir``); nothing is trained or decoded.

GET /api/positions?n=40&model=NAME  -> {"kind", "table" (n, d_model), "similarity" (n, n): cosine of two positions' vectors}
GET /api/schedule        -> {"d_model", "warmup", "lr_scale", "reached", "curve": [[step, lr]], "logged": [[step, lr]]}
GET /api/smoothing       -> {"epsilon", "vocab", "true_token", "every_other"}: q'(k) = (1 - ε) δ(k, y) + ε / V
GET /api/curves          -> {"train": [{"step", "loss", "ppl"}], "valid": [{"step", "valid_loss", ...}]}
The last three need the run folder (a model served from a lone weights file has none: 404 saying so); each
takes ``?model=NAME`` (one of GET /api/models; none: the first served).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import torch
from fastapi import FastAPI

from ...io.rundir import RunDir
from ...training.schedule import noam_lr
from ..requests import RequestError

MAX_POSITIONS_SHOWN = 512
VALID_FIELDS = ("valid_loss", "valid_nll", "valid_ppl", "valid_bleu", "valid_chrf")


def run_of(model: str | Path | None) -> RunDir | None:
    """The run folder of a served ``--model`` (the folder itself, or the one holding its weights), if it is one."""
    if model is None:
        return None
    path = Path(model)
    for folder in (path, path.parent, path.parent.parent):  # run/, run/best.safetensors, run/checkpoints/x
        if (folder / "config.json").is_file() and (folder / "log.jsonl").is_file():
            return RunDir(folder)
    return None


def need_run(served) -> RunDir:
    run = run_of(served.path)
    if run is None:
        raise RequestError(404, f"{served.name} was served from a weights file without its run folder: serve the run "
                                "directory (aiayn serve runs/NAME) to see its schedule and curves")
    return run


def add(app: FastAPI, catalog) -> None:
    def model_of(name: str | None):
        return getattr(catalog.pick(name).worker.translator, "model", None)

    @app.get("/api/positions")
    async def positions(n: int = 40, model: str | None = None) -> dict[str, Any]:
        served_model = model_of(model)
        if not 1 <= n <= MAX_POSITIONS_SHOWN:
            raise RequestError(422, f"n must be 1 to {MAX_POSITIONS_SHOWN} positions")
        table = getattr(getattr(served_model, "positions", None), "table", None)
        if table is None:
            return {"kind": "none", "table": [], "similarity": []}  # relative attention brings its own
        rows = table[:n].detach().float().cpu()
        unit = torch.nn.functional.normalize(rows, dim=-1)
        kind = "learned" if served_model.positions.learned else "sinusoidal"
        return {"kind": kind, "table": rows.mul(1e4).round().div(1e4).tolist(),
                "similarity": (unit @ unit.T).mul(1e4).round().div(1e4).tolist()}

    @app.get("/api/schedule")
    async def schedule(model: str | None = None) -> dict[str, Any]:
        run = need_run(catalog.pick(model))
        config, events = run.read_config(), run.events("train")
        d_model, warmup = config["model"]["d_model"], config["train"]["warmup"]
        scale = config["train"].get("lr_scale", 1.0)
        reached = events[-1]["step"] if events else 0
        last = max(2 * warmup, reached, 10)
        steps = sorted({max(1, round(last * i / 200)) for i in range(201)} | {warmup})
        return {"d_model": d_model, "warmup": warmup, "lr_scale": scale, "reached": reached,
                "curve": [[s, noam_lr(s, d_model, warmup, scale)] for s in steps],
                "logged": [[e["step"], e["lr"]] for e in events]}

    @app.get("/api/smoothing")
    async def smoothing(model: str | None = None) -> dict[str, Any]:
        served_model = model_of(model)
        config = need_run(catalog.pick(model)).read_config()
        cfg = served_model.config if served_model is not None else None
        vocab = (getattr(cfg, "tgt_vocab_size", None) or getattr(cfg, "vocab_size", None)  # decoder-only: vocab_size
                 or config["model"].get("tgt_vocab_size") or config["model"].get("src_vocab_size"))
        epsilon = config["train"].get("label_smoothing", 0.1)
        return {"epsilon": epsilon, "vocab": vocab, "true_token": 1 - epsilon + epsilon / vocab,
                "every_other": epsilon / vocab}

    @app.get("/api/curves")
    async def curves(model: str | None = None) -> dict[str, Any]:
        r = need_run(catalog.pick(model))
        return {"train": [{"step": e["step"], "loss": e["loss"], "ppl": e["ppl"]} for e in r.events("train")],
                "valid": [{"step": e["step"], **{k: e.get(k) for k in VALID_FIELDS}} for e in r.events("valid")]}
