"""Data parallelism on torch.distributed (NCCL on GPUs, gloo on CPU), started by torchrun.

Kept out of the model: the trainer wraps the plain model here and always saves the plain one.
"""

from __future__ import annotations

import datetime
import os
from dataclasses import dataclass
from typing import Any

import numpy as np
import torch
import torch.distributed as dist

from .. import checks
from ..errors import UsageError


@dataclass
class World:
    rank: int = 0
    size: int = 1
    device: torch.device = torch.device("cpu")

    @property
    def is_main(self) -> bool:
        return self.rank == 0


def init_world(device: str | None = None) -> World:
    """Reads torchrun's RANK / WORLD_SIZE / LOCAL_RANK; one process without them."""
    size = int(os.environ.get("WORLD_SIZE", "1"))
    local = int(os.environ.get("LOCAL_RANK", "0"))
    if device is None:
        device = f"cuda:{local}" if torch.cuda.is_available() else "cpu"
    dev = checks.device(device)
    if dev.type == "cuda":
        if dev.index is None:  # plain "cuda": each torchrun process takes its own GPU, not all GPU 0
            dev = torch.device("cuda", local)
        torch.cuda.set_device(dev)
    if size > 1 and not dist.is_initialized():
        dist.init_process_group("nccl" if dev.type == "cuda" else "gloo", timeout=collective_timeout())
    return World(int(os.environ.get("RANK", "0")), size, dev)


def collective_timeout() -> datetime.timedelta:
    """How long a collective may wait: ``$AIAYN_DIST_TIMEOUT`` minutes, default 4 hours.

    Long, because the ranks of a machine wait at a barrier while its first process binarizes the
    corpus (tens of minutes for WMT-sized text on few cores), far past gloo's 30 and NCCL's 10 minutes.
    """
    value = os.environ.get("AIAYN_DIST_TIMEOUT", "240")
    try:
        minutes = float(value)
        if not 0 < minutes < 1e7:  # nan and inf fail too (timedelta cannot hold inf)
            raise ValueError
    except ValueError:
        raise UsageError(f"AIAYN_DIST_TIMEOUT={value!r} is not a number of minutes above 0; "
                         "set it to e.g. 240") from None
    return datetime.timedelta(minutes=minutes)


def wrap(model: torch.nn.Module, world: World) -> torch.nn.Module:
    if world.size == 1:
        return model
    ids = [world.device.index] if world.device.type == "cuda" else None
    return torch.nn.parallel.DistributedDataParallel(model, device_ids=ids)


def sum_across(values: list[float], world: World) -> list[float]:
    """Element-wise sum of a few numbers over all processes (identity on one)."""
    if world.size == 1:
        return values
    t = torch.tensor(values, dtype=torch.float64, device=world.device)
    dist.all_reduce(t)
    return t.tolist()


def rank_seed(seed: int, rank: int) -> int:
    """A seed of rank ``rank``'s own random stream, derived from the run's seed (numpy's SeedSequence)."""
    return int(np.random.SeedSequence([seed, rank]).generate_state(1)[0])


def gather_to_main(obj: Any, world: World) -> list[Any] | None:
    """Every process's ``obj``, by rank, on the main process (None elsewhere)."""
    if world.size == 1:
        return [obj]
    out = [None] * world.size if world.is_main else None
    dist.gather_object(obj, out, dst=0)
    return out


def all_gather(obj: Any, world: World) -> list[Any]:
    """Every process's ``obj``, by rank, on every process."""
    if world.size == 1:
        return [obj]
    out = [None] * world.size
    dist.all_gather_object(out, obj)
    return out


def barrier(world: World) -> None:
    if world.size > 1:
        dist.barrier()


def shutdown(world: World) -> None:
    if world.size > 1 and dist.is_initialized():
        dist.destroy_process_group()
