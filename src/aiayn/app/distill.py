"""``aiayn distill``: translate a teacher's training sources with beam search, then train a student on them."""

from __future__ import annotations

import argparse
import os

from tqdm import tqdm

from .. import runs, tasks
from ..errors import UsageError
from ..runs.distill import CHUNK_LINES, ENGINES, DistillRequest, check_teacher, distill
from ..tasks.options import add_decoding, decode_options
from ..training.config import RANGES as TRAIN_RANGES
from .argtypes import duration, setting

EPILOG = """examples:
  aiayn train --max-time 60m --out runs/teacher                       # the teacher: tiny, one hour
  aiayn distill --teacher runs/teacher --out runs/student --max-time 60m   # its beam-4 outputs, then a 4+1 student
  aiayn distill --teacher runs/teacher --out runs/student --resume    # continue either step where it stopped
  aiayn distill --teacher runs/teacher --corpus-only                  # only the distilled corpus; prints its prefix
  aiayn distill --teacher runs/teacher --out runs/s2 --set model.n_decoder_layers=2 --engine ctranslate2

The corpus is cached in TEACHER/distilled/KEY/ (KEY: the teacher's weights, the decoding options, the
engine and dtype, the source text), written in chunks of --chunk lines: a kill loses at most one chunk,
and the same command continues after the last whole one. The student is an ordinary `aiayn train` run on
TEACHER/distilled/KEY/train with the teacher's spm.model and validation split; then int8, `aiayn export`
and `aiayn serve` take it as any other model (docs/distillation.md)."""


def add_parser(sub) -> argparse.ArgumentParser:

    p = sub.add_parser("distill", help="sequence-level distillation: a teacher's beam outputs train a small student",
                       description="Translate the teacher's training sources with its beam search (batched, cached "
                       "beside the teacher, resumable in chunks), then train a student (default preset student: "
                       "tiny's width, 4 encoder + 1 decoder layers, pre-norm) on those targets with the teacher's vocabulary "
                       "(Kim & Rush 2016).", epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--teacher", required=True, help="the teacher's run directory (a translation model)")
    p.add_argument("--out", help="the student's run directory")
    p.add_argument("--engine", choices=list(ENGINES), default="aiayn", help="what decodes the teacher: aiayn, or "
                   "ctranslate2 on an export made for the purpose (greedy outputs are aiayn's; beams rank by "
                   "|Y|^alpha instead of GNMT's length penalty) (default aiayn)")
    p.add_argument("--chunk", type=CHUNK_LINES.parse, default=1000, help="source lines translated and written "
                   "together; a kill loses at most one chunk (default 1000)")
    p.add_argument("--corpus-only", action="store_true", help="stop after the distilled corpus; print its prefix")
    add_decoding(p, title="the teacher's decoding (paper §6.1 defaults)")
    p.set_defaults(device=None)  # unset: the teacher decodes and the student trains on cuda when available
    t = p.add_argument_group("the student (as aiayn train)")
    t.add_argument("--preset", default="student", choices=list(tasks.get("translation").presets),
                   help="the student's shape (default student: tiny's width, 4 encoder + 1 decoder layers, pre-norm)")
    t.add_argument("--config", metavar="FILE", help="YAML or TOML file with preset / model / train sections")
    t.add_argument("--set", type=setting, action="append", default=[], metavar="KEY=VALUE",
                   help="override one field, e.g. model.n_decoder_layers=2 (repeatable)")
    t.add_argument("--resume", action="store_true", help="continue the student in --out where it stopped")
    t.add_argument("--max-time", dest="train.max_time", type=duration, help="stop training after 90s, 10m, 2h")
    for flag, field in (("--max-steps", "max_steps"), ("--seed", "seed")):  # --max-tokens is the decoding one
        t.add_argument(flag, dest=f"train.{field}", type=TRAIN_RANGES[field].parse, help=f"train.{field}")
    return p


def run(args: argparse.Namespace) -> None:
    if any(k.startswith("data.") for k, _ in args.set):
        raise UsageError("--set data.* is not for distill: the student trains on the teacher's distilled data")
    overrides = dict(args.set)
    overrides.update({k: v for k, v in vars(args).items() if k.startswith("train.") and v is not None})
    result = distill(DistillRequest(
        teacher=args.teacher, out=args.out, options=decode_options(args), engine=args.engine, dtype=args.dtype,
        device=args.device, chunk_lines=args.chunk, preset=args.preset, config_file=args.config,
        overrides=overrides, resume=args.resume, corpus_only=args.corpus_only, progress=tqdm))
    if args.corpus_only:
        teacher = check_teacher(args.teacher)
        print(f"distilled corpus: {result}.{teacher.src} / .{teacher.tgt}\ntrain on it with: aiayn train --train "
              f"{result} --src {teacher.src} --tgt {teacher.tgt} --vocab {teacher.vocab} --valid {teacher.valid}")
    elif int(os.environ.get("RANK", "0")) == 0:  # only the main process reports
        print(runs.report(result, progress=tqdm))
