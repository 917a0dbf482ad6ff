"""Command-line pieces that the command line (``aiayn.app.cli``) and the tasks' own options and
sub-commands (``Task.options``, ``Task.commands``) share: the decoding options, ``--device``, input
lines. Plain argparse, so a task brings its command-line surface without importing ``aiayn.app``.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
from collections.abc import Sequence
from typing import Any

from .. import checks
from ..data import decode_lines, read_text_lines
from ..decoding.options import DECODE_RANGES, DecodeOptions
from ..errors import UserError
from ..precision import DTYPES

# DecodeOptions field -> the option's dest, for the fields with a flag (a const flag sets the field itself)
DECODING_DESTS = {f.name: f.name if "const" in f.metadata else f.metadata["flag"][2:].replace("-", "_")
                  for f in dataclasses.fields(DecodeOptions) if "flag" in f.metadata}
PAPER = DecodeOptions()  # §6.1, what the help names


def shown(value: Any) -> str:
    """A default as a help text writes it: 0.6, or "0.6 0.9" for several."""
    return " ".join(map(str, value)) if isinstance(value, Sequence) and not isinstance(value, str) else str(value)


def listed(items: list[str]) -> str:
    """"a", "a and b", "a, b and c"."""
    return ", ".join(items[:-1]) + f" and {items[-1]}" if len(items) > 1 else "".join(items)


def by_task(values: dict[str, Any]) -> str:
    """A shared option's defaults (task name -> its default) as its help names them: "default 1" where the
    tasks agree, else "default: translation 250, music 100, digits and parsing 200"."""
    tasks: dict[str, list[str]] = {}
    for name, value in values.items():
        tasks.setdefault(shown(value), []).append(name)
    if len(tasks) == 1:
        return f"default {next(iter(tasks))}"
    return "default: " + ", ".join(f"{listed(names)} {value}" for value, names in tasks.items())


def device(text: str) -> str:
    """``--device``'s type: cpu, cuda, cuda:1 ... checked now, as one line."""
    try:
        return str(checks.device(text))
    except UserError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def add_decoding(p: argparse.ArgumentParser, defaults: DecodeOptions | None = PAPER,
                 title: str = "decoding (paper §6.1 defaults)", tasks: dict[str, DecodeOptions] | None = None) -> None:
    """--beam ... --dtype. ``defaults``: the values used, which the help names (a task's own, e.g.
    parsing's §6.3), or None to leave each unset (the model's task decides): the help names each of
    ``tasks``' defaults (task name -> its ``Task.decoding``) where they differ, else §6.1's."""
    g = p.add_argument_group(title)
    paper = defaults or PAPER
    for f in dataclasses.fields(DecodeOptions):  # the fields with a flag, in their order
        if f.name not in DECODING_DESTS:
            continue
        flag, text = f.metadata["flag"], f.metadata["help"]
        values = {name: getattr(d, f.name) for name, d in (tasks or {}).items()} if defaults is None else {}
        if len(set(values.values())) > 1:
            text = text.replace("default {default}", by_task(values))
        text = text.format(default=getattr(paper, f.name))
        if "const" in f.metadata:
            g.add_argument(flag, dest=f.name, action="store_const", const=f.metadata["const"], help=text)
        else:
            g.add_argument(flag, dest=DECODING_DESTS[f.name], type=DECODE_RANGES[f.name].parse, help=text)
    g.add_argument("--device", type=device, default="cpu", help="cpu, cuda, cuda:1 ... (default cpu)")
    g.add_argument("--dtype", choices=[*DTYPES, "auto"], default="float32",
                   help="bfloat16: half the memory and faster on GPUs and CPUs with bf16 instructions (AVX-512 BF16, "
                        "AMX); auto: bfloat16 where the hardware has it, else float32; "
                        "int8: linear layers in int8 on the CPU (dynamic quantisation), faster decoding; "
                        "either may change a few translations (default float32)")
    if defaults is not None:
        p.set_defaults(**{dest: getattr(defaults, name) for name, dest in DECODING_DESTS.items()})


def decoding_given(args: argparse.Namespace) -> dict:
    """The DecodeOptions fields as the options left them (None: not given, where ``add_decoding`` set no default)."""
    return {name: getattr(args, dest) for name, dest in DECODING_DESTS.items()}


def decode_options(args: argparse.Namespace, nbest: int = 1) -> DecodeOptions:
    return DecodeOptions(**{**decoding_given(args), "early_stopping": args.early_stopping is not False}, nbest=nbest)


def input_lines(path: str | None) -> list[str]:
    """The lines of ``path``, or of stdin, with the same strict UTF-8 check (line and byte)."""
    return read_text_lines(path) if path else decode_lines(sys.stdin.buffer, "stdin")
