"""Checkpoints in safetensors, written atomically, and checkpoint averaging (paper §6.1).

Two kinds of file, both plain safetensors (nothing is ever unpickled):
  * weights: ``model.*`` tensors plus metadata (model config, step, tokenizer fingerprint);
    used to translate, to average, and kept one per save in ``checkpoints/``.
  * training state: the weights plus Adam's moments, the schedule, the step, the data
    sampler's position and every RNG, so ``--resume`` continues bit for bit.
A file is written to a temporary name in the same folder and renamed over the target, so a
crash or a kill leaves either the old file or the new one, never half of one.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

import torch
from safetensors import SafetensorError
from safetensors.torch import load_file, safe_open, save_file


FORMAT = "aiayn-1"


class CheckpointError(ValueError):
    """A checkpoint that is missing, corrupt, or does not fit the model or vocabulary."""


def atomic_save(tensors: dict[str, torch.Tensor], metadata: dict[str, Any], path: Path) -> None:
    """Writes a safetensors file via a temporary file and a rename (atomic on POSIX)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    os.close(fd)
    try:
        meta = {"format": FORMAT, **{k: json.dumps(v) for k, v in metadata.items()}}
        save_file({k: v.detach().contiguous().cpu() for k, v in tensors.items()}, tmp, metadata=meta)
        with open(tmp, "rb") as f:
            os.fsync(f.fileno())
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


def read_checkpoint(path: Path) -> tuple[dict[str, torch.Tensor], dict[str, Any]]:
    """Loads tensors and decoded metadata; a missing or damaged file is a CheckpointError."""
    path = Path(path)
    if not path.is_file():
        raise CheckpointError(f"no checkpoint at {path}")
    try:
        with safe_open(str(path), framework="pt") as f:
            raw = f.metadata() or {}
        tensors = load_file(str(path))
    except (SafetensorError, OSError, ValueError) as e:
        raise CheckpointError(f"{path} is not a readable checkpoint ({e}); it may be truncated or corrupt") from None
    if raw.get("format") != FORMAT:
        raise CheckpointError(f"{path} is not an aiayn checkpoint (format {raw.get('format')!r})")
    return tensors, {k: json.loads(v) for k, v in raw.items() if k != "format"}


def _prefixed(prefix: str, tensors: dict[str, torch.Tensor]) -> dict[str, torch.Tensor]:
    return {f"{prefix}{k}": v for k, v in tensors.items()}


def _unprefixed(prefix: str, tensors: dict[str, torch.Tensor]) -> dict[str, torch.Tensor]:
    return {k[len(prefix):]: v for k, v in tensors.items() if k.startswith(prefix)}


def model_tensors(model: torch.nn.Module) -> dict[str, torch.Tensor]:
    """The model's parameters and persistent buffers; a tied matrix is stored once."""
    seen, out = set(), {}
    for name, tensor in model.state_dict().items():
        if tensor.data_ptr() not in seen:
            seen.add(tensor.data_ptr())
            out[name] = tensor
    return out


def save_weights(model: torch.nn.Module, config, path: Path, **metadata: Any) -> None:
    """The model's weights, its config and its architecture's name, and ``metadata``."""
    meta = {"architecture": model.architecture, "model_config": config.to_dict(), **metadata}
    atomic_save(_prefixed("model.", model_tensors(model)), meta, path)


def load_model_state(model: torch.nn.Module, tensors: dict[str, torch.Tensor], path: Path) -> None:
    """Copies ``model.*`` tensors into the model; a shape or name mismatch is a CheckpointError."""
    weights = _unprefixed("model.", tensors)
    expected = model_tensors(model)
    if set(weights) != set(expected) or any(weights[k].shape != expected[k].shape for k in expected):
        raise CheckpointError(f"{path} was built for a different model configuration")
    model.load_state_dict(weights, strict=False)  # tied copies are absent from the file by design


def save_training_state(path: Path, model, optimizer, scheduler, extra: dict[str, Any]) -> None:
    """Weights, optimiser moments, schedule, RNG, and ``extra`` (step, sampler, config...) in one file."""
    tensors = _prefixed("model.", model_tensors(model))
    optim = optimizer.state_dict()
    for idx, state in optim["state"].items():
        for name, value in state.items():
            tensors[f"optim.{idx}.{name}"] = value if torch.is_tensor(value) else torch.tensor(value)
    tensors["rng.torch"] = torch.get_rng_state()
    if torch.cuda.is_available():  # dropout on a GPU draws from the CUDA generators
        tensors.update({f"rng.cuda.{i}": state for i, state in enumerate(torch.cuda.get_rng_state_all())})
    meta = {"param_groups": optim["param_groups"], "scheduler": scheduler.state_dict(), **extra}
    atomic_save(tensors, meta, path)


def load_training_state(path: Path, model, optimizer, scheduler) -> dict[str, Any]:
    """Restores what ``save_training_state`` wrote and returns its ``extra`` metadata."""
    tensors, meta = read_checkpoint(path)
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
    torch.set_rng_state(tensors["rng.torch"])
    cuda = [tensors[f"rng.cuda.{i}"] for i in range(torch.cuda.device_count()) if f"rng.cuda.{i}" in tensors]
    if cuda:
        torch.cuda.set_rng_state_all(cuda)
    return meta


def average_checkpoints(paths: list[Path], out: Path) -> None:
    """§6.1: the element-wise mean of several checkpoints' weights (float64 sum, then cast back)."""
    if not paths:
        raise CheckpointError("no checkpoints to average")
    total: dict[str, torch.Tensor] = {}
    for path in paths:
        tensors, meta = read_checkpoint(path)
        if total and set(tensors) != set(total):
            raise CheckpointError(f"{path} holds different tensors from {paths[0]}; cannot average")
        for k, v in tensors.items():
            total[k] = total.get(k, 0) + v.double()
    dtypes = {k: v.dtype for k, v in read_checkpoint(paths[0])[0].items()}
    averaged = {k: (v / len(paths)).to(dtypes[k]) for k, v in total.items()}
    meta = {**meta, "averaged_from": [Path(p).name for p in paths]}
    atomic_save(averaged, meta, out)
