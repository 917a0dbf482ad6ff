"""Argument types of the command line shared by several commands (train, distill): a duration and a
``--set`` setting, each one line of argparse error when malformed."""

from __future__ import annotations

import argparse
import re

from ..training.config import RANGES as TRAIN_RANGES
from ..training.config import load_yaml


def duration(text: str) -> float:
    """'90s', '10m', '1.5h', '600' (seconds) -> seconds, more than 0."""
    match = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([smh]?)\s*", text)
    seconds = float(match[1]) * {"": 1, "s": 1, "m": 60, "h": 3600}[match[2]] if match else None
    if seconds is None or not TRAIN_RANGES["max_time"].fits(seconds):
        raise argparse.ArgumentTypeError(f"{text!r} is not a duration above 0 such as 90s, 10m or 2h")
    return seconds


def setting(text: str) -> tuple[str, object]:
    key, sep, value = text.partition("=")
    if not sep or not re.fullmatch(r"(model|train|data)\.\w+", key):
        raise argparse.ArgumentTypeError(f"{text!r} is not model.FIELD=VALUE, train.FIELD=VALUE or data.NAME=VALUE")
    return key, load_yaml(value)
