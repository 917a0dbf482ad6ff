"""What the attention family's views (issue 45: ``music``, ``images``, ``family``) share: ``View``, one
view as a record (a module may hold several), and the checks of their request fields. Every bad field is
a ``RequestError`` 422 in one line that names the field and what it takes; a value is never echoed whole
(it may be a megabyte of text).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..requests import RequestError, _check_fields, _json_type


@dataclass(frozen=True)
class View:
    """A studio view with the protocol of ``serve.views`` (``NAME``, ``FIELDS``, ``offered``, ``parse``,
    ``compute``); ``MEDIA_TYPE``: the view answers bytes of that type (a file) instead of JSON,
    ``FILENAME`` its name. ``offered``'s docstring's first line is what a refusal says it is for."""

    NAME: str
    FIELDS: tuple[str, ...]
    offered: Callable[[Any], bool]
    parse: Callable[..., tuple[str, dict[str, Any]]]
    compute: Callable[..., Any]
    MEDIA_TYPE: str | None = None
    FILENAME: str = ""


def fields(data: dict[str, Any], allowed: tuple[str, ...]) -> None:
    """A 422 for a key outside ``allowed``."""
    _check_fields(data, allowed)


def _shown(value: Any) -> str:
    return repr(value) if isinstance(value, (int, float)) and len(repr(value)) <= 30 else _json_type(value)


def integer(data: dict[str, Any], name: str, lo: int, hi: int, default: Any = None, optional: bool = False) -> Any:
    """``data[name]``, an integer in lo..hi (``default`` when absent; null allowed when ``optional``)."""
    value = data.get(name, default)
    if value is None and (optional or name not in data):
        return value
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise RequestError(422, f"{name} must be an integer from {lo} to {hi}"
                                f"{', or null' if optional else ''}, not {_shown(value)}")
    return value


def number(data: dict[str, Any], name: str, lo: float, hi: float, default: float, lo_open: bool = False) -> float:
    """``data[name]``, a finite number in [lo, hi] ((lo, hi] when ``lo_open``), or ``default``."""
    value = data.get(name, default)
    ok = (isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)
          and (value > lo if lo_open else value >= lo) and value <= hi)
    if not ok:
        raise RequestError(422, f"{name} must be a number {'>' if lo_open else '>='} {lo:g} and <= {hi:g}, "
                                f"not {_shown(value)}")
    return float(value)


def id_list(data: dict[str, Any], name: str, lo: int, hi: int, most: int, least: int = 1,
            what: str = "ids") -> list[int]:
    """``data[name]``, a list of ``least``..``most`` integers each in lo..hi (``what`` names them)."""
    value = data.get(name)
    if not isinstance(value, list):
        raise RequestError(422, f"{name} must be a list of {what} ({lo}..{hi}), not {_shown(value) if value is not None else 'missing'}")
    if not least <= len(value) <= most:
        raise RequestError(413 if len(value) > most else 422,
                           f"{name} has {len(value)} entries; this view takes {least} to {most}")
    for i, x in enumerate(value):
        if isinstance(x, bool) or not isinstance(x, int) or not lo <= x <= hi:
            raise RequestError(422, f"{name}[{i}] must be one of the {what} {lo}..{hi}, not {_shown(x)}")
    return value


def grid(data: dict[str, Any], name: str, side: int, hi: int, default: Any = None) -> Any:
    """``data[name]``: ``side`` × ``side`` integers 0..hi, as rows or flat (returned as rows)."""
    value = data.get(name, default)
    if value is None and name not in data:
        return default
    flat = value
    if isinstance(value, list) and value and all(isinstance(row, list) for row in value):
        if len(value) != side or any(len(row) != side for row in value):
            raise RequestError(422, f"{name} must be {side} rows of {side} intensities (or {side * side} in a row)")
        flat = [x for row in value for x in row]
    ids = id_list({name: flat}, name, 0, hi, side * side, side * side, "intensities")
    return [ids[r * side:(r + 1) * side] for r in range(side)]
