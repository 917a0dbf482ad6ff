"""The models one server holds (``aiayn serve RUN [RUN ...]``, or a folder of runs): each has its own worker
thread, its description (``/api/info``) and, when it was served from a run folder, its run. A request names
its model by ``model`` (a field of a POST body, a query parameter of a GET); none names the first.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import UsageError
from .requests import RequestError
from .worker import ModelWorker


@dataclass
class Served:
    """One served model: ``name`` is what requests call it (its run folder's name, made unique)."""

    name: str
    worker: ModelWorker
    info: dict[str, Any] = field(default_factory=dict)
    path: Path | None = None  # what was served: a run folder or a weights file (None in tests' fakes)

    def summary(self) -> dict[str, Any]:
        keys = ("architecture", "task", "src", "tgt", "parameters", "config", "views", "attention_kinds")
        return {"name": self.name, "model": str(self.path or ""), **{k: self.info.get(k) for k in keys}}


class Catalog:
    """The served models in the order given; ``pick(name)`` the one a request names."""

    def __init__(self, served: list[Served]):
        self.served = {s.name: s for s in served}
        if len(self.served) != len(served):
            raise ValueError(f"two served models share a name: {[s.name for s in served]}")

    @property
    def first(self) -> Served:
        if not self.served:
            raise RequestError(404, "no model is served yet: train one from the page (Training), or restart the "
                                    "server with a run: aiayn serve runs/NAME")
        return next(iter(self.served.values()))

    def add(self, served: Served) -> None:
        """Adds ``served``, or replaces (and closes) the model of that name."""
        old = self.served.get(served.name)
        self.served[served.name] = served
        if old is not None:
            old.worker.close()

    def pick(self, name: Any) -> Served:
        if name is None or name == "":
            return self.first
        if not isinstance(name, str) or name not in self.served:
            shown = name if isinstance(name, str) and len(name) <= 80 else "that"
            raise RequestError(404, f"no model called {shown!r} is served here; GET /api/models lists them: "
                                    f"{', '.join(self.served)}")
        return self.served[name]

    def listing(self) -> list[dict[str, Any]]:
        return [s.summary() for s in self.served.values()]

    def close(self) -> None:
        for s in self.served.values():
            s.worker.close()


def pop_model(data: dict[str, Any]) -> Any:
    """The ``model`` field of a request body, taken out so that the request's own parser never sees it."""
    return data.pop("model", None)


def expand(paths: list[str | Path]) -> list[Path]:
    """The models named on the command line, a folder that holds runs (and is none itself) standing for its runs."""
    out: list[Path] = []
    for given in map(Path, paths):
        if given.is_dir() and not _is_run(given):
            runs = sorted(p for p in given.iterdir() if p.is_dir() and _is_run(p))
            if not runs:
                raise UsageError(f"{given} is neither a run folder (with best.safetensors or checkpoints/) nor a folder "
                                 "of runs: pass a run directory that `aiayn train` wrote, or a .safetensors file")
            out.extend(runs)
        else:
            out.append(given)
    return out


def _is_run(folder: Path) -> bool:
    return (folder / "config.json").is_file() and ((folder / "best.safetensors").is_file()
                                                    or any((folder / "checkpoints").glob("step-*.safetensors")))


def names(paths: list[Path]) -> list[str]:
    """A short, unique name per model: the run folder's name (a weights file: its folder's and its own)."""
    def short(p: Path) -> str:
        return p.name if p.is_dir() else f"{p.parent.name}/{p.stem}" if p.parent.name else p.stem

    out: list[str] = []
    for p in paths:
        name, n = short(p), 2
        while name in out:
            name, n = f"{short(p)}-{n}", n + 1
        out.append(name)
    return out
