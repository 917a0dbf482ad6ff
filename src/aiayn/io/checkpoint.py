"""Checkpoints in safetensors, written atomically, and checkpoint averaging (paper §6.1).

Two kinds of file, both plain safetensors (nothing is ever unpickled):
  * weights: ``model.*`` tensors plus metadata (model config, step, tokenizer fingerprint);
    used to translate, to average, and kept one per save in ``checkpoints/``.
  * training state: the weights plus Adam's moments, the schedule, the step, the data
    sampler's position and every RNG, so ``--resume`` continues bit for bit.
A file is written to a temporary name in the same folder and renamed over the target, so a
crash, a kill or a full disk leaves either the old file or the new one, never half of one. The
temporary name carries the writer's process id, so a later run can tell a kill's leftovers from a
live write. ``atomic_path`` (one file) and ``atomic_folder`` (a folder, e.g. an export) are where
every writer of aiayn goes through, so a full disk is one ``DiskFull`` line naming the path, wherever
it happens: an ``OSError`` ENOSPC/EDQUOT, and the same error wrapped by libraries that do not raise
``OSError`` (safetensors' ``SafetensorError``, C++ runtimes' ``RuntimeError``).
Nothing in a file is trusted: names, shapes and the config's sizes are checked against each other
before a model of that size is built.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import re
import shutil
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import torch
from safetensors import SafetensorError
from safetensors.torch import load_file, safe_open, save_file

from ..errors import UsageError, UserError

FORMAT = "aiayn-1"
_CPU = torch.device("cpu")
_TEMP = re.compile(r"\.(\d+)\.[^.]+\.tmp$")  # .NAME.PID.RANDOM.tmp, as atomic_path names them


class CheckpointError(UserError):
    """A checkpoint that is missing, corrupt, cannot be written, or does not fit the model or vocabulary."""


class DiskFull(CheckpointError):
    """A write that found no space left (a full disk, or the user's quota); the message names the path."""


_NO_SPACE_ERRNOS = {errno.ENOSPC, errno.EDQUOT}
_NO_SPACE_TEXT = (os.strerror(errno.ENOSPC), os.strerror(errno.EDQUOT), "os error 28", "os error 122")


def is_disk_full(exc: BaseException) -> bool:
    """Whether ``exc`` means "no space left": an OSError ENOSPC/EDQUOT, or a library's own exception
    whose text says so (safetensors: "I/O error: No space left on device (os error 28)")."""
    if isinstance(exc, OSError) and exc.errno is not None:
        return exc.errno in _NO_SPACE_ERRNOS
    return any(text in str(exc) for text in _NO_SPACE_TEXT)


def disk_full(path: Path, kept: str) -> DiskFull:
    """The one-line error for a write to ``path`` that ran out of space; ``kept``: what is still there."""
    try:
        free = f"{shutil.disk_usage(path.parent).free / 1e6:.1f} MB free"
    except OSError:
        free = "no free space"
    return DiskFull(f"cannot write {path}: no space left on the device ({free} in {path.parent}); {kept}; "
                    "free some space or write elsewhere, then run again")


def _write_failed(path: Path, exc: BaseException, kept: str) -> CheckpointError | None:
    """The UserError for a failed write of ``path``, or None when ``exc`` is not the disk's or the
    folder's fault (a bug, which keeps its traceback)."""
    if is_disk_full(exc):
        return disk_full(path, kept)
    if isinstance(exc, OSError):
        return CheckpointError(f"cannot write {path}: {exc.strerror or exc} ({kept}); free space or fix "
                               "permissions, then run again")
    return None


def check_writable(path: Path, option: str) -> None:
    """Fails now, before any decoding, if ``path`` could not be written later (``option`` names the fix)."""
    path, folder = Path(path), Path(path).parent
    if path.is_dir():
        raise UsageError(f"cannot write {path}: it is a folder; remove it or choose another {option}")
    if not folder.is_dir():
        raise UsageError(f"cannot write {path}: folder {folder} does not exist; create it or choose another {option}")
    try:
        tempfile.TemporaryFile(dir=folder).close()
    except OSError as e:
        raise UsageError(f"cannot write {path}: {e.strerror or e}; choose another {option}") from None


@contextlib.contextmanager
def atomic_path(path: Path) -> Iterator[Path]:
    """A temporary name beside ``path`` to write; renamed over ``path`` on success, removed on failure.

    A write that fails for want of space (``DiskFull``) or another OSError (no permission) is a
    CheckpointError that names ``path`` and says whether the old file is intact.
    """
    path = Path(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.{os.getpid()}.", suffix=".tmp")
        os.close(fd)
    except OSError as e:
        if is_disk_full(e):
            raise disk_full(path, "nothing was written") from None
        raise CheckpointError(f"cannot write {path}: {e.strerror or e}; check the folder's space and "
                              "permissions") from None
    try:
        yield Path(tmp)
        with open(tmp, "rb") as f:
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except Exception as e:
        error = _write_failed(path, e, "the previous one is intact" if path.exists() else "nothing was written")
        if error is None:
            raise
        raise error from None
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


@contextlib.contextmanager
def atomic_folder(path: Path) -> Iterator[Path]:
    """A fresh folder to fill, beside ``path``; renamed to ``path`` when the block succeeds and removed
    if it fails, so ``path`` is never half-written. ``path`` must not exist, or be an empty folder
    (it is replaced). Failures for want of space or permission are CheckpointErrors naming ``path``."""
    path = Path(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(dir=path.parent, prefix=f".{path.name}.{os.getpid()}.", suffix=".tmp"))
    except OSError as e:
        if is_disk_full(e):
            raise disk_full(path, "nothing was written") from None
        raise CheckpointError(f"cannot write {path}: {e.strerror or e}; choose another place") from None
    try:
        yield tmp / "out"
        if path.exists():
            path.rmdir()
        (tmp / "out").rename(path)
    except Exception as e:
        error = _write_failed(path, e, "nothing was written")
        if error is None:
            raise
        raise error from None
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def remove_stale_temp_files(folder: Path) -> int:
    """Deletes temporary files that killed writers left in ``folder``; returns the bytes freed.

    A file whose name carries the id of another live process is that process's write in progress
    and is kept; any other ``*.tmp`` (an older naming, a dead writer) is a leftover.
    """
    freed = 0
    for tmp in Path(folder).glob("*.tmp"):
        match = _TEMP.search(tmp.name)
        if match and int(match[1]) != os.getpid() and _alive(int(match[1])):
            continue
        with contextlib.suppress(FileNotFoundError):
            freed += tmp.stat().st_size
            tmp.unlink()
    return freed


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process
        return True
    return True


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
