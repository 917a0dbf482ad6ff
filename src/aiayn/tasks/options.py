"""Command-line pieces that the command line (``aiayn.app.cli``) and the tasks' own options and
sub-commands (``Task.options``, ``Task.commands``) share: the decoding options, ``--device``, input
lines. Plain argparse, so a task brings its command-line surface without importing ``aiayn.app``.
"""

from __future__ import annotations

import argparse
import sys

from .. import checks
from ..data import decode_lines, read_text_lines
from ..decoding.options import DECODE_RANGES, DecodeOptions
from ..errors import UserError
from ..precision import DTYPES

# DecodeOptions field -> the option's dest; the fields a user sets on the command line
DECODING_DESTS = {"beam_size": "beam", "alpha": "alpha", "max_len_a": "max_len_a", "max_len_b": "max_len_b",
                  "min_len": "min_len", "max_tokens": "max_tokens", "early_stopping": "early_stopping"}
PAPER = DecodeOptions()  # §6.1, what the help names


def device(text: str) -> str:
    """``--device``'s type: cpu, cuda, cuda:1 ... checked now, as one line."""
    try:
        return str(checks.device(text))
    except UserError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def add_decoding(p: argparse.ArgumentParser, defaults: DecodeOptions | None = PAPER,
                 title: str = "decoding (paper §6.1 defaults)") -> None:
    """--beam ... --dtype. ``defaults``: the values used, which the help names (a task's own, e.g.
    parsing's §6.3), or None to leave each unset (the model's task decides; the help names §6.1's)."""
    g = p.add_argument_group(title)
    r, paper = DECODE_RANGES, defaults or PAPER
    g.add_argument("--beam", type=r["beam_size"].parse, help=f"beam size; 1 decodes greedily (default {paper.beam_size})")
    g.add_argument("--alpha", type=r["alpha"].parse, help=f"length penalty α of ((5+|Y|)/6)^α (default {paper.alpha})")
    g.add_argument("--max-len-a", type=r["max_len_a"].parse,
                   help=f"output length limit: a x source length + b (a={paper.max_len_a:g})")
    g.add_argument("--max-len-b", type=r["max_len_b"].parse, help=f"... + b (default {paper.max_len_b})")
    g.add_argument("--min-len", type=r["min_len"].parse,
                   help=f"tokens each output has before its end (default {paper.min_len})")
    g.add_argument("--max-tokens", type=r["max_tokens"].parse, help="source tokens x beam per decoding batch")
    g.add_argument("--exact-beam", dest="early_stopping", action="store_const", const=False,
                   help="keep searching a sentence until no live beam can still beat its best finished hypothesis "
                        "(slower; default: stop at beam-size finished hypotheses, as fairseq; parsing: exact)")
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
