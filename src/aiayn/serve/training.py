"""Training from the page, for a learner with no model yet: ``aiayn train --preset tiny`` as a child process,
one at a time, stoppable, writing a run folder under ``runs_dir`` that keeps a checkpoint every
``SAVE_EVERY`` updates (the studio's slider walks them). The server adds the run to its models as soon as
it has weights, and reloads it when training ends.

Starting a process is the one thing a web page must never do for a stranger, so the routes are guarded
(``guard``): the server listens on this machine only, the Host header names this machine (no DNS
rebinding), and a browser's Origin, when sent, is the page's own (no other site the learner visits can
start or stop a run: a "simple" cross-site POST carries its Origin).

    GET  /api/training             {"state": "idle|running|finished|stopped|failed", "run", "step", "minutes", ...}
    POST /api/training/start       {"preset": "tiny", "minutes": 10}  -> 409 while one runs
    POST /api/training/stop        interrupts it (the trainer saves its last step, as on Ctrl+C)
"""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable
from urllib.parse import urlsplit

from ..checks import Allowed
from ..errors import ConfigError
from ..io.rundir import RunDir
from .requests import RequestError, _check_fields

PRESETS = ("tiny",)  # what a page may start: minutes of CPU, built-in data
SAVE_EVERY = 100
MINUTES = Allowed(float, 0.5, 120)
LOOPBACK = {"127.0.0.1", "localhost", "::1", "[::1]"}


def guard(host_header: str | None, origin: str | None, listening_on: str) -> None:
    """A 403 unless the request comes from this machine's own page (see the module's docstring)."""
    if listening_on not in LOOPBACK:
        raise RequestError(403, f"training from the page is off: the server listens on {listening_on}, beyond this "
                                "machine; restart it with --host 127.0.0.1 to train from the page")
    host = urlsplit(f"//{host_header or ''}").hostname or ""
    if host not in {h.strip("[]") for h in LOOPBACK}:
        raise RequestError(403, f"requests to start or stop training must be addressed to 127.0.0.1, not {host!r}")
    if origin is not None and origin != "null":
        seen = urlsplit(origin)
        if seen.hostname not in {h.strip("[]") for h in LOOPBACK} or seen.netloc != host_header:
            raise RequestError(403, f"a page from {origin[:80]} may not start or stop training; open the studio "
                                    "itself (http://127.0.0.1:PORT)")
    elif origin == "null":
        raise RequestError(403, "a page without an origin (a file, a sandbox) may not start or stop training")


def train_command(preset: str, out: Path, minutes: float) -> list[str]:
    """``aiayn train`` on the built-in corpus, bf16 where the CPU multiplies it, a checkpoint every SAVE_EVERY."""
    return [sys.executable, "-m", "aiayn", "train", "--preset", preset, "--out", str(out),
            "--max-time", f"{minutes * 60:g}s", "--precision", "auto",
            "--set", f"train.save_every={SAVE_EVERY}", "--set", "train.keep_last=1000"]


@dataclass
class Trainer:
    """The one training child process the server may run; ``command(preset, out, minutes)`` its argv."""

    runs_dir: Path
    command: Callable[[str, Path, float], list[str]] = train_command
    process: subprocess.Popen | None = None
    run: RunDir | None = None
    started: float = 0.0
    minutes: float = 0.0
    stopped: bool = False
    history: list[str] = field(default_factory=list)

    def start(self, data: dict[str, Any]) -> dict[str, Any]:
        _check_fields(data, ("preset", "minutes"))
        preset = data.get("preset", "tiny")
        if preset not in PRESETS:
            raise RequestError(422, f"preset must be {' or '.join(PRESETS)}: the page trains small models only")
        try:
            minutes = MINUTES.check("minutes", data.get("minutes", 10))
        except ConfigError as e:
            raise RequestError(422, str(e)) from None
        if self.running:
            raise RequestError(409, f"{self.run.path.name} is training; stop it first (POST /api/training/stop)")
        name = time.strftime(f"studio-{preset}-%Y%m%d-%H%M%S")
        self.run, self.minutes, self.stopped = RunDir(self.runs_dir / name), minutes, False
        self.runs_dir.mkdir(parents=True, exist_ok=True)
        log = open(self.runs_dir / f"{name}.out", "wb")  # noqa: SIM115 -- the child writes it; closed on exit
        self.process = subprocess.Popen(self.command(preset, self.run.path, minutes), stdout=log,
                                        stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        log.close()
        self.started = time.time()
        self.history.append(name)
        return self.status()

    def stop(self) -> dict[str, Any]:
        if not self.running:
            raise RequestError(409, "no training is running")
        self.stopped = True
        self.process.send_signal(signal.SIGINT)  # the trainer saves the step it reached and exits
        try:
            self.process.wait(30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        return self.status()

    @property
    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def state(self) -> str:
        if self.process is None:
            return "idle"
        code = self.process.poll()
        return "running" if code is None else "stopped" if self.stopped else "finished" if code == 0 else "failed"

    def status(self) -> dict[str, Any]:
        out: dict[str, Any] = {"state": self.state(), "presets": list(PRESETS), "save_every": SAVE_EVERY}
        if self.run is None:
            return out
        events = self.run.events("train") if self.run.log.is_file() else []
        out.update(run=self.run.path.name, minutes=self.minutes, elapsed=round(time.time() - self.started, 1),
                   step=events[-1]["step"] if events else 0, checkpoints=len(self.run.list_checkpoints()))
        if out["state"] == "failed":
            tail = (self.runs_dir / f"{self.run.path.name}.out").read_text(errors="replace").strip().splitlines()
            out["error"] = tail[-1][:300] if tail else f"exit code {self.process.returncode}"
        return out

    def close(self) -> None:
        if self.running:
            self.stop()
