"""`aiayn grade` (issue 29): chorales graded next to Bach's held-out ones, part-writing and distances to
Bach (definitions: ``aiayn.metrics.chorales``). The pieces are score files, saved tokens, or a music
model's fresh samples: unconditional, or continuations of held-out chorales (``--primer valid``), with
a column per sampling setting so that the settings can be chosen by the grade."""

from __future__ import annotations

import argparse
import functools
import itertools
import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

from ..checks import Allowed
from ..data import music
from ..errors import UsageError
from ..inference.generator import Generator
from ..io.atomic import atomic_path
from ..metrics.chorales import no_parallels
from .chorales import LENGTHS, SAMPLING, WINDOW
from .declared import Command, option
from .options import device as device_type
from .requests import GENERATE_RANGES

RULES = {"none": None, "no-parallels": no_parallels}  # `--rule` of grade and generate: what sampling may not draw
RULE_HELP = ("none (default): the model's choice alone; no-parallels: a note that would make a parallel 5th or 8ve "
             "with a voice above it is never drawn")

GRADE_HELP = """Grade four-part chorales the way Bach's own held-out (test) chorales are graded, and print a table
with a column per set of pieces, Bach's first: median (min–max) over the pieces, and for rates the pooled
value (all pieces together) before it.

  part-writing: parallel 5ths and 8ves per 100 quarters (two voices moving the same way from a perfect
  fifth, or octave/unison, to another one), voice crossings (% of sixteenths; "realigned" forgives a
  sample that slipped one token in the S A T B order), notes out of the voice's choir range, the longest
  held note, 2-bar windows in the piece's key (music21), rests;
  distances to Bach ("Bach or Mock?", Fang et al. 2020): per piece, the Wasserstein distance of its
  histograms of pitch (above the tonic), note lengths, each voice's melodic intervals and voice-leading
  errors to those of Bach's training chorales; "grade" is their sum (Bach's test chorales: about 2.5).

With --model, the model's samples are graded: unconditional pieces, or with --primer SPLIT continuations
of that split's chorales (only what the model wrote is graded, beside Bach's own continuations of the
same primers). Several --temperature or --top-p values give a column per combination, the same seeds
in each: that is how the music task's default sampling settings were chosen (docs/music.md).

Definitions: aiayn.metrics.chorales. The first run grades Bach's chorales (about a minute; cached)."""
GRADE_EPILOG = """examples:
  aiayn grade samples/                                       # the MIDI files aiayn generate wrote there
  aiayn grade --model runs/music --out samples/graded        # 20 fresh samples at the defaults, kept as MIDI
  aiayn grade --model runs/music --primer valid --temperature 0.8 0.9 1.0 --top-p 0.95 1.0   # choose settings
  aiayn grade --model runs/music --rule none no-parallels    # the model alone, and under the no-parallels rule
  aiayn grade docs/music/samples docs/music/samples/ir-ul64 --json g.json  # two folders, two columns; every figure as JSON"""


SAMPLED = "sampling (with --model)"  # the help's section of the options that sample


@dataclass
class MusicGrade:
    """`aiayn grade`'s options: the pieces to grade, or a model and how to sample it."""

    pieces: list[str] | None = option(None, "four-voice MIDI, MusicXML or kern files; a folder stands for the score "
                                      "files in it (a column per folder; loose files share one); a .json file holds "
                                      "tokens: a list of token lists, or the samples an earlier --json saved",
                                      "pieces", nargs="*", metavar="FILE|FOLDER")
    model: str | None = option(None, "a music run directory or .safetensors file: sample pieces from it and grade "
                               "them")
    samples: int = option(20, "how many pieces per setting (default {default}; with --primer at most the split's "
                          "chorales, taken in order)", group=SAMPLED)
    length: int = option(WINDOW, f"at most this many tokens each, primer included (default {{default}} = "
                         f"{WINDOW // 64} bars); one the model ends sooner counts as ended by itself", group=SAMPLED)
    primer: str | None = option(None, "continue this split's chorales instead of starting from nothing (choose "
                                "settings on valid, report on test)", group=SAMPLED, choices=("valid", "test"))
    primer_tokens: int = option(256, "the first N tokens of each chorale are the primer (default {default} = 4 bars)",
                                group=SAMPLED, metavar="N")
    temperature: tuple[float, ...] = option((SAMPLING["temperature"],), "one or more (default {default}, the music "
                                            "task's)", group=SAMPLED, nargs="+")
    top_k: int = option(SAMPLING["top_k"], "sample from the k likeliest tokens (0: all; default {default})",
                        group=SAMPLED)
    top_p: tuple[float, ...] = option((SAMPLING["top_p"],), "nucleus sampling, one or more (1.0: off; default "
                                      "{default})", group=SAMPLED, nargs="+")
    rule: tuple[str, ...] = option(("none",), RULE_HELP + " (one or more: a column each)", group=SAMPLED,
                                   choices=RULES, nargs="+")
    seed: int = option(1, "the same seed gives the same samples (default {default})", group=SAMPLED)
    out: str | None = option(None, "also write the samples there as MIDI (a subfolder per setting when there are "
                             "several), to listen to or grade again; continuations are named after their primer",
                             group=SAMPLED)
    device: str = option("cpu", "cpu, cuda, cuda:1 ... (default {default})", group=SAMPLED, type=device_type)
    json: str | None = option(None, "write every figure there: each piece's, the summaries, Bach's", metavar="FILE")

    RANGES: ClassVar[dict[str, Allowed]] = {**GENERATE_RANGES, **LENGTHS}


GRADE = Command("grade", "grade chorales (MIDI files, or a music model's fresh samples) against Bach's", GRADE_HELP,
                GRADE_EPILOG, MusicGrade)


def _read_sets(paths: list[str], progress) -> tuple[dict[str, list[list[int]]], dict[str, list[str]]]:
    """The pieces to grade by column: a folder per column, loose score files in one, each set of a JSON
    file of tokens its own; all read before any sampling."""
    from ..metrics.chorales import score_files, token_sets

    columns: dict[str, list[Path]] = {}
    sets: dict[str, list[list[int]]] = {}
    for path in paths:
        files = score_files([path])  # one-line errors: missing, not a score, a folder without scores
        if files == [Path(path)] and Path(path).suffix.lower() == ".json":
            sets.update(token_sets(path))
        else:
            columns.setdefault(path if Path(path).is_dir() else "files", []).extend(files)
    for label, files in columns.items():
        sets[label] = [music.read_primer(f) for f in progress(files, desc=f"reading {label}", unit="file")]
    return sets, {label: [f.name for f in files] for label, files in columns.items()}


def _primers(args) -> tuple[list[str], list[list[int]], list[list[int]]]:
    """Names, primers and Bach's own continuations: the first ``args.samples`` chorales of the split, cut
    after ``--primer-tokens`` (whole sixteenths); one empty primer per sample without --primer."""
    from .chorales import chorale_sequences

    if not args.primer:
        return [f"sample-seed{args.seed}-{i + 1}" for i in range(args.samples)], [[]] * args.samples, []
    keep = args.primer_tokens - args.primer_tokens % 4
    if keep >= args.length:
        raise UsageError(f"--primer-tokens {args.primer_tokens} leaves nothing to write within --length "
                         f"{args.length}: give a longer --length or a shorter primer")
    names, seqs = chorale_sequences(args.primer)
    chosen = [(Path(n).stem, s) for n, s in zip(names, seqs) if len(s) > keep][:args.samples]
    return ([f"{name}-seed{args.seed}" for name, _ in chosen], [s[:keep] for _, s in chosen],
            [s[keep:args.length] for _, s in chosen])


def _sample(model, args, primers: list[list[int]], temperature: float, top_p: float, progress,
            rule: str = "none") -> list[list[int]]:
    """One sample per primer (what follows the primer only), at most ``args.length`` tokens with it."""
    room = args.length - max(map(len, primers))
    bar, step = progress(total=room + 1, desc=f"sampling {len(primers)} (T {temperature}, top-p {top_p})",
                         unit="token"), model.decode_step

    def counted(tokens, state):  # the generator has no progress hook: count its decoding steps instead
        out = step(tokens, state)
        bar.update(1)
        return out

    model.decode_step = counted
    try:
        pieces = Generator(model, args.device).generate(primers, room, temperature, args.top_k, top_p, args.seed,
                                                        rule=RULES[rule])
    finally:
        del model.decode_step
        bar.close()
    return [piece[len(primer):] for primer, piece in zip(primers, pieces)]


def _write(pieces: list[list[int]], names: list[str], folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for name, piece in zip(names, pieces):
        with atomic_path(folder / f"{name}.mid") as tmp:  # a full disk leaves no half-written file
            music.write_midi(piece, tmp)


# the experiment's part-writing figures of a run: pooled rates (and the median grade) of its samples
SAMPLE_FIGURES = {"parallel_5ths": "parallel_5ths_per_100q", "parallel_8ves": "parallel_8ves_per_100q",
                  "crossings": "crossings_pct", "out_of_range": "out_of_range_pct"}


def sample_figures(model_path: str | Path, samples: int = 20, length: int = 2048, seed: int = 1,
                   device: str = "cpu") -> dict[str, dict[str, float]]:
    """``samples`` unconditional pieces of the model at the task's default sampling, graded as `aiayn grade`
    grades them: {"model": figures, "bach": the same figures of Bach's test chorales}, rates pooled."""
    from tqdm import tqdm

    from ..metrics import chorales
    from .chorales import default_cache

    args = argparse.Namespace(length=length, top_k=SAMPLING["top_k"], seed=seed, device=device)
    model = Generator.load(model_path, device).model
    pieces = _sample(model, args, [[]] * samples, SAMPLING["temperature"], SAMPLING["top_p"],
                     functools.partial(tqdm, disable=True))
    ended = sum(len(p) < length for p in pieces)
    table = chorales.grade_sets({"model": pieces}, default_cache(), {"model": ended})["table"]
    out = {}
    for who, t in zip(("bach", "model"), table.values()):  # Bach's column comes first
        out[who] = {name: t[key]["pooled"] for name, key in SAMPLE_FIGURES.items() if key in t}
        out[who]["grade"] = t["grade"]["median"] if "grade" in t else float("nan")
    out["model"] |= {"ended": ended / samples, "temperature": SAMPLING["temperature"], "top_p": SAMPLING["top_p"]}
    return out


def run_grade(args) -> str:
    """`aiayn grade`: the Markdown table for stdout; every figure into --json."""
    from tqdm import tqdm

    from ..metrics import chorales
    from . import gate
    from .chorales import default_cache

    if not args.pieces and not args.model:
        raise UsageError("nothing to grade: name MIDI files or folders of samples, or --model RUN to sample from")
    progress = functools.partial(tqdm, disable=not sys.stderr.isatty())
    sets, names = _read_sets(args.pieces, progress)
    ended, sampled = {}, {}
    if args.model:
        pieces_names, primers, bach = _primers(args)  # the settings are checked before the model is read
        gate(args.model, "grade")
        model = Generator.load(args.model, args.device).model
        if bach:
            label = f"Bach's own continuations ({args.primer}, after {len(primers[0])} tokens)"
            sets[label], names[label] = bach, pieces_names
        settings = list(itertools.product(args.temperature, args.top_p, args.rule))
        for t, p, rule in settings:
            what = f"continuing {args.primer}" if args.primer else "from scratch"
            ruled = "" if rule == "none" else f", {rule}"
            label = f"{args.model} {what} (T {t}, top-k {args.top_k}, top-p {p}{ruled}, seed {args.seed})"
            sets[label] = sampled[label] = _sample(model, args, primers, t, p, progress, rule)
            names[label] = pieces_names
            ended[label] = sum(len(q) + len(s) < args.length for q, s in zip(primers, sampled[label]))
            if args.out:
                _write(sampled[label], pieces_names,
                       Path(args.out) / (f"T{t}-p{p}{ruled.replace(', ', '-')}" if len(settings) > 1 else ""))
    result = chorales.grade_sets(sets, default_cache(), ended, names, progress)
    if args.json:
        with atomic_path(Path(args.json)) as tmp:
            Path(tmp).write_text(json.dumps({**result, "samples": sampled, "args": vars(args)}, indent=1) + "\n")
    return chorales.markdown(result["table"]) + "\n"
