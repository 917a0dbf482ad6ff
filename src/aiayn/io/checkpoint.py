"""Checkpoints in safetensors, written atomically (``io/atomic.py``), and checkpoint averaging (paper §6.1).

Two kinds of file, both plain safetensors (nothing is ever unpickled):
  * weights: ``model.*`` tensors plus metadata (model config, step, tokenizer fingerprint);
    used to translate, to average, and kept one per save in ``checkpoints/``.
  * training state: the weights plus Adam's moments, the schedule, the step, the data
    sampler's position and every RNG, so ``--resume`` continues bit for bit.
A file is written to a temporary name and renamed over the target (``aiayn.io.atomic``), so a crash,
a kill or a full disk leaves either the old file or the new one; a full disk is one ``DiskFull`` line.
Nothing in a file is trusted: names, shapes and the config's sizes are checked against each other
before a model of that size is built.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import torch
from safetensors import SafetensorError
from safetensors.torch import load_file, safe_open, save_file

from ..errors import UserError
from .atomic import (  # noqa: F401 (the writers' names, imported from here by earlier callers too)
    DiskFull,
    WriteError,
    atomic_folder,
    atomic_path,
    check_writable,
    disk_full,
    is_disk_full,
    remove_stale_temp_files,
)

FORMAT = "aiayn-1"
_CPU = torch.device("cpu")


class CheckpointError(UserError):
    """A checkpoint that is missing, corrupt, or does not fit the model or vocabulary (writes: ``WriteError``)."""


def atomic_save(tensors: dict[str, torch.Tensor], metadata: dict[str, Any], path: Path) -> None:
    """Writes a safetensors file via a temporary file and a rename (atomic on POSIX)."""
    meta = {"format": FORMAT, **{k: json.dumps(v) for k, v in metadata.items()}}
    with atomic_path(path) as tmp:
        save_file({k: v.detach().contiguous().cpu() for k, v in tensors.items()}, str(tmp), metadata=meta)


def read_header(path: Path) -> tuple[dict[str, tuple[int, ...]], dict[str, Any]]:
    """Tensor shapes and decoded metadata, without reading any tensor data; a missing or damaged
    file is a CheckpointError."""
    path = Path(path)
    if not path.is_file():
        raise CheckpointError(f"no checkpoint at {path}")
    try:
        with safe_open(str(path), framework="pt") as f:
            raw = f.metadata() or {}
            shapes = {k: tuple(f.get_slice(k).get_shape()) for k in f.keys()}
    except (SafetensorError, OSError, ValueError) as e:
        raise CheckpointError(f"{path} is not a readable checkpoint ({e}); it may be truncated or corrupt") from None
    if raw.get("format") != FORMAT:
        raise CheckpointError(f"{path} is not an aiayn checkpoint (format {raw.get('format')!r})")
    try:
        return shapes, {k: json.loads(v) for k, v in raw.items() if k != "format"}
    except ValueError:
        raise CheckpointError(f"{path} has damaged metadata (not JSON); it may be corrupt") from None


def read_checkpoint(path: Path) -> tuple[dict[str, torch.Tensor], dict[str, Any]]:
    """Loads tensors and decoded metadata; a missing or damaged file is a CheckpointError."""
    _, meta = read_header(path)
    try:
        return load_file(str(path)), meta
    except (SafetensorError, OSError, ValueError) as e:
        raise CheckpointError(f"{path} is not a readable checkpoint ({e}); it may be truncated or corrupt") from None


def _prefixed(prefix: str, tensors: dict[str, torch.Tensor]) -> dict[str, torch.Tensor]:
    return {f"{prefix}{k}": v for k, v in tensors.items()}


def _unprefixed(prefix: str, tensors: dict[str, torch.Tensor]) -> dict[str, torch.Tensor]:
    return {k[len(prefix):]: v for k, v in tensors.items() if k.startswith(prefix)}


def model_tensors(model: torch.nn.Module) -> dict[str, torch.Tensor]:
    """The model's parameters and persistent buffers; a tied matrix is stored once (under its first name)."""
    params = dict(model.named_parameters(remove_duplicate=False))
    seen, out = set(), {}
    for name, tensor in model.state_dict().items():
        identity = id(params[name]) if name in params else name  # tied names share one Parameter
        if identity not in seen:
            seen.add(identity)
            out[name] = tensor
    return out


def save_weights(model: torch.nn.Module, config, path: Path, **metadata: Any) -> None:
    """The model's weights, its config and its architecture's name, and ``metadata``."""
    meta = {"architecture": model.architecture, "model_config": config.to_dict(), **metadata}
    atomic_save(_prefixed("model.", model_tensors(model)), meta, path)


def check_shapes(model: torch.nn.Module, shapes: dict[str, tuple[int, ...]], path: Path) -> None:
    """The file's ``model.*`` tensors must be exactly the model's, shape for shape."""
    expected = {k: tuple(v.shape) for k, v in model_tensors(model).items()}
    found = _unprefixed("model.", shapes)
    for name in [*expected, *(n for n in found if n not in expected)]:
        if expected.get(name) != found.get(name):
            raise CheckpointError(f"{path} was built for a different model configuration ({name}: the file has "
                                  f"{found.get(name, 'nothing')}, its config needs {expected.get(name, 'nothing')})")


def build_checked(build: Callable[[], torch.nn.Module], shapes: dict[str, tuple[int, ...]], path: Path,
                  ) -> torch.nn.Module:
    """``build()``, called only once the file's tensors fit what it builds. The check runs on a
    skeleton on the meta device, which allocates nothing: a small file whose config claims a huge
    model fails here, before any memory is spent."""
    with torch.device("meta"):
        skeleton = build()
    check_shapes(skeleton, shapes, path)
    return build()


def load_model_state(model: torch.nn.Module, tensors: dict[str, torch.Tensor], path: Path) -> None:
    """Copies ``model.*`` tensors into the model; a shape or name mismatch is a CheckpointError."""
    check_shapes(model, {k: tuple(v.shape) for k, v in tensors.items()}, path)
    model.load_state_dict(_unprefixed("model.", tensors), strict=False)  # tied copies are absent by design


def rng_state(device: torch.device) -> dict[str, torch.Tensor]:
    """This process's generators: the CPU one, and its GPU's when it trains on one (dropout draws there)."""
    state = {"torch": torch.get_rng_state()}
    if device.type == "cuda":
        state["cuda"] = torch.cuda.get_rng_state(device)
    return state


def save_training_state(path: Path, model, optimizer, scheduler, extra: dict[str, Any],
                        rng: list[dict[str, torch.Tensor]]) -> None:
    """Weights, optimiser moments, schedule, ``extra`` (step, sampler, config...) and each rank's
    generators (``rng[r]`` from ``rng_state``, stored as ``rng.torch.<r>``, ``rng.cuda.<r>``) in one file."""
    tensors = _prefixed("model.", model_tensors(model))
    optim = optimizer.state_dict()
    for idx, state in optim["state"].items():
        for name, value in state.items():
            tensors[f"optim.{idx}.{name}"] = value if torch.is_tensor(value) else torch.tensor(value)
    for rank, state in enumerate(rng):
        tensors.update({f"rng.{kind}.{rank}": value for kind, value in state.items()})
    meta = {"param_groups": optim["param_groups"], "scheduler": scheduler.state_dict(), "world_size": len(rng),
            **extra}
    atomic_save(tensors, meta, path)


def load_training_state(path: Path, model, optimizer, scheduler, rank: int = 0,
                        device: torch.device = _CPU) -> dict[str, Any]:
    """Restores what ``save_training_state`` wrote (``rank``'s generators) and returns its ``extra`` metadata."""
    tensors, meta = read_checkpoint(path)
    if "param_groups" not in meta or "scheduler" not in meta:
        raise CheckpointError(f"{path} holds weights only, not a training state; --resume needs the "
                              "state.safetensors that training wrote (start a new run to train from scratch)")
    load_model_state(model, tensors, path)
    state: dict[int, dict[str, torch.Tensor]] = {}
    for key, value in _unprefixed("optim.", tensors).items():
        idx, name = key.split(".", 1)
        state.setdefault(int(idx), {})[name] = value
    groups = meta.pop("param_groups")
    for group in groups:
        group["betas"] = tuple(group["betas"])
    optimizer.load_state_dict({"state": state, "param_groups": groups})
    scheduler.load_state_dict(meta.pop("scheduler"))
    _restore_rng(tensors, rank, device, path)
    return meta


def _restore_rng(tensors: dict[str, torch.Tensor], rank: int, device: torch.device, path: Path) -> None:
    if f"rng.torch.{rank}" in tensors:  # one state per rank
        torch.set_rng_state(tensors[f"rng.torch.{rank}"])
        if device.type == "cuda" and f"rng.cuda.{rank}" in tensors:
            torch.cuda.set_rng_state(tensors[f"rng.cuda.{rank}"], device)
        return
    # Files from before per-rank states: rank 0's CPU state, and every GPU's state by device index.
    if "rng.torch" not in tensors:
        raise CheckpointError(f"{path} holds no random state for process {rank}; it may be damaged")
    torch.set_rng_state(tensors["rng.torch"])
    cuda = [tensors[f"rng.cuda.{i}"] for i in range(torch.cuda.device_count()) if f"rng.cuda.{i}" in tensors]
    if cuda:
        torch.cuda.set_rng_state_all(cuda)


def average_checkpoints(paths: list[Path], out: Path) -> None:
    """§6.1: the element-wise mean of several checkpoints' weights (float64 sum, then cast back)."""
    if not paths:
        raise CheckpointError("no checkpoints to average")
    total: dict[str, torch.Tensor] = {}
    for path in paths:
        tensors, meta = read_checkpoint(path)
        if total and (set(tensors) != set(total) or any(v.shape != total[k].shape for k, v in tensors.items())):
            raise CheckpointError(f"{path} holds different tensors from {paths[0]} (another model); "
                                  "average only checkpoints of one run")
        for k, v in tensors.items():
            total[k] = total.get(k, 0) + v.double()
    dtypes = {k: v.dtype for k, v in read_checkpoint(paths[0])[0].items()}
    averaged = {k: (v / len(paths)).to(dtypes[k]) for k, v in total.items()}
    meta = {**meta, "averaged_from": [Path(p).name for p in paths]}
    atomic_save(averaged, meta, out)
