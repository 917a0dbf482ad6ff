"""Allowed values of options and config fields, written once for the configs and the command line.

A dataclass checks its fields in ``__post_init__`` with ``check_fields(self, RANGES)``; the command
line parses the same fields' options with ``RANGES[name].parse``, so both give the same range in
the same words. Sizes have upper bounds too: a checkpoint's config is untrusted input, and a model
is only built once its sizes are sane (see ``aiayn.training.checkpoint.build_checked``).
"""

from __future__ import annotations

import argparse
import dataclasses
import math
from dataclasses import dataclass
from typing import Any

import torch

from .errors import ConfigError


@dataclass(frozen=True)
class Allowed:
    """Values of one field: ``kind`` int, float or bool; numbers finite and within ``lo``/``hi``
    (``lo_open``/``hi_open`` exclude the bound itself); ``optional`` also allows None."""

    kind: type
    lo: float | None = None
    hi: float | None = None
    lo_open: bool = False
    hi_open: bool = False
    optional: bool = False

    def __str__(self) -> str:
        bounds = [f"{op} {_number(bound)}" for op, bound in ((">" if self.lo_open else ">=", self.lo),
                                                      ("<" if self.hi_open else "<=", self.hi)) if bound is not None]
        text = {int: "an integer", float: "a number", bool: "true or false"}[self.kind]
        return " ".join([text, " and ".join(bounds)]).strip() + (", or null" if self.optional else "")

    def fits(self, value: Any) -> bool:
        if value is None:
            return self.optional
        if self.kind is bool or isinstance(value, bool):  # True is an int to Python, not to a config
            return self.kind is bool and isinstance(value, bool)
        if not isinstance(value, int if self.kind is int else (int, float)) or not math.isfinite(value):
            return False
        low_ok = self.lo is None or (value > self.lo if self.lo_open else value >= self.lo)
        high_ok = self.hi is None or (value < self.hi if self.hi_open else value <= self.hi)
        return low_ok and high_ok

    def check(self, name: str, value: Any) -> Any:
        """``value`` if allowed, else a ConfigError naming ``name`` and the range."""
        if not self.fits(value):
            raise ConfigError(f"{name} must be {self}, not {value!r}", field=name)
        return value

    def parse(self, text: str) -> Any:
        """An argparse ``type``: the option's text as a number in range."""
        try:
            value = self.kind(text)
        except ValueError:
            value = text
        if not self.fits(value):
            raise argparse.ArgumentTypeError(f"must be {self}, not {text!r}")
        return value


def _number(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else f"{x:g}"


def check_fields(config: Any, ranges: dict[str, Allowed], prefix: str = "") -> None:
    """Checks every dataclass field of ``config`` that ``ranges`` names."""
    for field in dataclasses.fields(config):
        if field.name in ranges:
            ranges[field.name].check(prefix + field.name, getattr(config, field.name))


def device(name: str | torch.device) -> torch.device:
    """``name`` as a device this machine has: cpu, cuda, cuda:N (or mps where there is one)."""
    try:
        dev = torch.device(name)
    except (RuntimeError, TypeError):
        raise ConfigError(f"unknown device {name!r}; use cpu, cuda or cuda:N") from None
    if dev.type == "cuda" and not torch.cuda.is_available():
        raise ConfigError(f"device {name!r}: this machine has no CUDA GPU that torch can use; use cpu")
    if dev.type == "cuda" and dev.index is not None and dev.index >= torch.cuda.device_count():
        raise ConfigError(f"device {name!r}: this machine has {torch.cuda.device_count()} GPU(s), "
                          f"cuda:0 to cuda:{torch.cuda.device_count() - 1}")
    if dev.type == "mps" and not torch.backends.mps.is_available():
        raise ConfigError(f"device {name!r}: this machine has no Apple GPU; use cpu")
    if dev.type not in ("cpu", "cuda", "mps"):
        raise ConfigError(f"device {name!r} is not supported; use cpu or cuda[:N]")
    return dev
