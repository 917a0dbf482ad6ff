"""Does it sound like Bach? Part-writing statistics of generated chorales next to the same statistics of
the Bach test chorales (issue 21).

  python -m checks.bach_stats runs/wc-abs2048 runs/wc-rel2048 runs/wc-rel256 --samples 10 --length 1024 \
      --temperature 0.9 --seed 1 --threads 1

Each run's best model samples ``--samples`` pieces unconditionally (up to ``--length`` tokens, fewer
where it ends the piece: 1,024 tokens = 16 bars, a whole chorale; the median test chorale has 768).
Statistics, on the S A T B grid of sixteenths, averaged over pieces (definitions in
``aiayn.metrics.chorales``, the library's grade, which `aiayn grade` prints with distances to Bach):
  * crossings: % of sixteenths where a lower voice sounds above the voice above it (S<A, A<T or T<B);
  * crossings, realigned: the same with each bar read from 0–3 tokens later, whichever crosses least
    (a sample that drops or repeats one token has every later voice read one place off);
  * out of range: % of sounding voice-sixteenths outside the voice's range (choir ranges: S C4–G5,
    A G3–D5, T C3–G4, B E2–C4);
  * parallel 5ths / 8ves: per 100 quarter notes, two voices moving the same way from a perfect
    fifth (or octave / unison, modulo the octave) to another one;
  * longest held: the longest run of one held pitch in any voice, in quarter notes;
  * in one key: % of 2-bar windows whose key (music21's Krumhansl–Schmuckler analysis, duration
    weighted) is the key of the whole piece;
  * rests: % of voice-sixteenths that are rests.
Each cell of the table is "mean (median; min–max)" over the pieces, and "ended" counts the samples
that ended by themselves (fewer than ``--length`` tokens) rather than at the cap.
Writes benchmarks/results/bach_stats.json (the samples' tokens and each piece's statistics too)
and prints a Markdown table.

  python -m checks.bach_stats --report benchmarks/results/bach_stats.json

recomputes the statistics and the table from the tokens saved there, without the models (the Bach
row from the test chorales), and prints each sample's statistics; writes nothing.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from benchmarks.common import set_threads, write_result

COLUMNS = ("sixteenths", "crossings_pct", "crossings_realigned_pct", "out_of_range_pct", "parallel_5ths_per_100q",
           "parallel_8ves_per_100q", "longest_held_q", "in_one_key_pct", "rests_pct")  # the table's, in its order


def markdown(table: dict[str, dict]) -> str:
    """One row per model; cells "mean (median; min–max)" over the pieces graded."""
    lines = ["| | pieces | ended | " + " | ".join(COLUMNS) + " |", "| --- " * (len(COLUMNS) + 3) + "|"]
    for label, row in table.items():
        cells = [f"{row[c]['mean']:.1f} ({row[c]['median']:.1f}; {row[c]['min']:.1f}–{row[c]['max']:.1f})"
                 for c in COLUMNS]
        ended = "–" if row["ended"] is None else f"{row['ended']} of {row['graded']}"
        lines.append(f"| {label} | {row['graded']} | {ended} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def ended_count(samples: list[list[int]], length: int) -> int:
    """Samples shorter than the cap: the model ended them (one ending exactly at the cap counts as capped)."""
    return sum(len(tokens) < length for tokens in samples)


def report(path: Path) -> None:
    """The table again from a bach_stats.json's saved tokens, without the models; each sample's statistics too."""
    from aiayn.metrics.chorales import grade_pieces, summarise
    from aiayn.tasks.music import chorale_sequences

    saved = json.loads(path.read_text())
    length = saved["args"]["length"]
    _, test = chorale_sequences("test")
    table = {"Bach (test chorales)": summarise(grade_pieces(test))}
    for label, samples in saved["samples"].items():
        rows = grade_pieces(samples)
        table[label] = summarise(rows, ended_count(samples, length))
        print(f"{label} (cap {length} tokens):")
        for i, (tokens, row) in enumerate((t, r) for t, r in zip(samples, rows) if len(r) > 1):
            stats = "  ".join(f"{k} {row[k]:.1f}" for k in COLUMNS)
            print(f"  sample {i}: {len(tokens)} tokens, {'ended' if len(tokens) < length else 'capped'}  {stats}")
    print(markdown(table))


def write_roll(tokens: list[int], folder: Path, label: str, args) -> None:
    from aiayn.data import music
    from aiayn.plots.music import plot_piano_roll

    folder.mkdir(parents=True, exist_ok=True)
    name = "whole-" + label.replace(", L = ", "-") + f"-seed{args.seed}"
    plot_piano_roll(tokens, folder / f"{name}.png", title=f"{label}: unconditional sample, "
                    f"{len(tokens)} tokens, temperature {args.temperature}, seed {args.seed}")
    music.write_midi(tokens, folder / f"{name}.mid")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("runs", nargs="*")
    p.add_argument("--samples", type=int, default=10)
    p.add_argument("--length", type=int, default=1024)
    p.add_argument("--temperature", type=float, default=0.9)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--threads", type=int, default=None)
    p.add_argument("--results", default=None)
    p.add_argument("--rolls", default=None, help="folder for the piano roll (PNG) and MIDI of each model's first sample")
    p.add_argument("--report", default=None, metavar="JSON", help="recompute the table from a bach_stats.json's tokens")
    args = p.parse_args()
    set_threads(args.threads)
    if args.report:
        report(Path(args.report))
        return

    from aiayn.inference.generator import Generator
    from aiayn.io.rundir import RunDir
    from aiayn.metrics.chorales import grade_pieces, summarise
    from aiayn.tasks.music import chorale_sequences

    _, test = chorale_sequences("test")
    per_piece = {"Bach (test chorales)": grade_pieces(test)}
    table = {"Bach (test chorales)": summarise(per_piece["Bach (test chorales)"])}
    samples = {}
    for run in args.runs:
        config = RunDir(run).read_config()
        label = f"{config.get('positions') or config['preset']}, L = {config['data']['window']}"
        gen = Generator.load(run)
        samples[label] = gen.generate([[]] * args.samples, args.length, temperature=args.temperature, seed=args.seed)
        per_piece[label] = grade_pieces(samples[label])
        table[label] = summarise(per_piece[label], ended_count(samples[label], args.length))
        if args.rolls:
            write_roll(samples[label][0], Path(args.rolls), label, args)
        print(label, json.dumps(table[label]), flush=True)
    print(markdown(table))
    write_result("bach_stats", {"args": vars(args), "table": table, "per_piece": per_piece, "samples": samples},
                 args.results)


if __name__ == "__main__":
    main()
