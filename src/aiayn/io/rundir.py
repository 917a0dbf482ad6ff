"""The layout of a run directory, in one place::

    RUN/config.json               model and training configuration, data sources
    RUN/spm.model                 the joint sentencepiece vocabulary
    RUN/log.jsonl                 every figure the trainer printed, one JSON object per line
    RUN/state.safetensors         full training state for --resume (weights, Adam, RNG, data position)
    RUN/best.safetensors          weights with the best validation BLEU (or loss)
    RUN/checkpoints/step-N.safetensors   weights every save_every steps (the last keep_last kept)
    RUN/average-last-K.safetensors       written by `aiayn average`
    RUN/hyp.[WEIGHTS.]TEST.beamB.LANG   `aiayn evaluate`'s hypotheses, beside the model (``hypotheses``)
    RUN/.lock                     held (flock) by the one process that trains into RUN

A run exists once its state exists: a folder with a config or a vocabulary but no state (a run
stopped before its first save) is started afresh by ``aiayn train``.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import logging
import math
import os
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ..errors import UsageError
from .atomic import atomic_path, disk_full, is_disk_full, remove_stale_temp_files
from .checkpoint import CheckpointError

log = logging.getLogger("aiayn")
CONFIG, TOKENIZER = "config.json", "spm.model"  # the run's settings and its vocabulary, by file name


class JsonLog:
    """Appends one JSON object per line to a run's log (``RunDir.events`` reads them back); ``enabled``:
    False in every process but the main one."""

    def __init__(self, path: Path, enabled: bool = True):
        self.path, self.enabled = path, enabled

    def write(self, event: str, **fields: Any) -> None:
        if self.enabled:
            record = _finite({"event": event, "time": round(time.time(), 3), **fields})
            with open(self.path, "a", encoding="utf-8") as f:
                f.write(json.dumps(record, allow_nan=False) + "\n")


def _finite(value: Any) -> Any:
    """JSON has no NaN or infinity: such numbers become null."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_finite(v) for v in value]
    return value


def read_config(path: str | Path) -> dict[str, Any]:
    """A run's config.json as a mapping: the one place it is parsed. OSError if unreadable,
    ValueError if it is not a JSON object; each caller says what that means for it."""
    config = json.loads(Path(path).read_text(encoding="utf-8"))
    if not isinstance(config, dict):
        raise ValueError("not a JSON object")
    return config


class RunInUse(UsageError):
    """Another live process trains into this run (holds its lock)."""


class RunDir:
    def __init__(self, path: str | Path):
        self.path = Path(path)
        self.config = self.path / CONFIG
        self.tokenizer = self.path / TOKENIZER
        self.log = self.path / "log.jsonl"
        self.state = self.path / "state.safetensors"
        self.best = self.path / "best.safetensors"
        self.checkpoints = self.path / "checkpoints"
        self.lock = self.path / ".lock"

    def read_config(self) -> dict[str, Any]:
        """config.json (see ``read_config``)."""
        return read_config(self.config)

    def events(self, kind: str | None = None) -> list[dict[str, Any]]:
        """The log's records (of one ``kind``: train, valid, checkpoint, resume, ...), oldest first; a line
        cut short by a kill is skipped."""
        if not self.log.is_file():
            return []
        records = []
        for line in self.log.read_text(encoding="utf-8").splitlines():
            with contextlib.suppress(json.JSONDecodeError):
                record = json.loads(line)
                if kind is None or record.get("event") == kind:
                    records.append(record)
        return records

    def write_config(self, config: dict[str, Any]) -> None:
        with atomic_path(self.config) as tmp:
            tmp.write_text(json.dumps(config, indent=2), encoding="utf-8")

    def checkpoint(self, step: int) -> Path:
        return self.checkpoints / f"step-{step:08d}.safetensors"

    def list_checkpoints(self) -> list[Path]:
        """Step checkpoints, oldest first."""
        found = [p for p in self.checkpoints.glob("step-*.safetensors") if re.fullmatch(r"step-\d+\.safetensors", p.name)]
        return sorted(found)

    def holds_run(self) -> bool:
        """A run that can be resumed: its state exists."""
        return self.state.exists()

    def holds_unsaved_start(self) -> bool:
        """Files of a run that stopped before its first save (nothing to resume)."""
        return not self.state.exists() and any(p.exists() for p in (self.config, self.tokenizer, self.log))

    def clear_unsaved_start(self) -> None:
        """Removes what a run that never saved its state left, so a new one starts clean."""
        for path in [self.config, self.log, self.best, *self.list_checkpoints()]:
            path.unlink(missing_ok=True)

    @contextlib.contextmanager
    def owned(self) -> Iterator[None]:
        """Creates the folder and holds its lock while training; another live owner is a UsageError.

        ``flock`` belongs to the open file: the kernel drops it when the process ends, however it
        ends (a kill included), so a lock is never left stuck. Temporary files that killed writers
        left are removed once the lock is held, as nobody else is writing here.
        """
        try:
            self.path.mkdir(parents=True, exist_ok=True)
            fd = os.open(self.lock, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as e:
            raise UsageError(f"cannot create run directory {self.path}: {e.strerror or e}; "
                             "choose another --out") from None
        try:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                owner = os.pread(fd, 32, 0).decode(errors="replace").strip() or "unknown"
                raise RunInUse(f"{self.path} is in use by another training (process {owner}); wait for it to end, "
                               "or choose another --out") from None
            try:
                os.ftruncate(fd, 0)
                os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)  # who holds it, for the message above
            except OSError as e:
                if is_disk_full(e):
                    raise disk_full(self.lock, "nothing was written") from None
                raise
            freed = sum(remove_stale_temp_files(folder) for folder in (self.path, self.checkpoints))
            if freed:
                log.info("removed %.1f MB of temporary files that killed runs left in %s", freed / 1e6, self.path)
            yield
        finally:
            os.close(fd)  # releases the lock

    def in_use(self) -> bool:
        """Whether a live process holds the lock (trains into this run now)."""
        try:
            fd = os.open(self.lock, os.O_RDONLY)
        except OSError:
            return False
        try:
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)  # released with the descriptor just below
            return False
        except BlockingIOError:
            return True
        finally:
            os.close(fd)

    def last_checkpoint(self) -> Path:
        """The newest step checkpoint (a CheckpointError names the run when there is none)."""
        checkpoints = self.list_checkpoints()
        if not checkpoints:
            raise CheckpointError(f"{self.path} holds no checkpoint: train one with `aiayn train --out {self.path}`")
        return checkpoints[-1]

    def model_file(self) -> Path:
        """The weights to translate with: best, else the newest step checkpoint."""
        if self.best.exists():
            return self.best
        if self.list_checkpoints():
            return self.last_checkpoint()
        raise CheckpointError(f"{self.path} holds no model: train one with `aiayn train --out {self.path}`")


def model_file_of(path: str | Path) -> Path:
    """The weights a ``--model`` names: a run directory's model (``RunDir.model_file``) or the file itself."""
    path = Path(path)
    if not path.exists():
        raise CheckpointError(f"no model at {path}")
    return RunDir(path).model_file() if path.is_dir() else path


def hypotheses(model: str | Path, test: str, kind: str, lang: str) -> Path:
    """Where ``aiayn evaluate`` writes a model's hypotheses, beside it: ``hyp.TEST.KIND.LANG`` in a run folder,
    ``hyp.STEM.TEST.KIND.LANG`` beside a weights file (``kind``: beam4, beam4.int8, ...)."""
    model = Path(model)
    folder, which = (model, "") if model.is_dir() else (model.parent, f"{model.stem}.")
    return folder / f"hyp.{which}{test}.{kind}.{lang}"
