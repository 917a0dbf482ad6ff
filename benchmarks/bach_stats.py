"""Does it sound like Bach? Part-writing statistics of generated chorales next to the same statistics of
the Bach test chorales (issue 21).

  python -m benchmarks.bach_stats runs/wc-abs2048 runs/wc-rel2048 runs/wc-rel256 --samples 10 --length 1024 \
      --temperature 0.9 --seed 1 --threads 1

Each run's best model samples ``--samples`` pieces unconditionally (up to ``--length`` tokens, fewer
where it ends the piece: 1,024 tokens = 16 bars, a whole chorale; the median test chorale has 768).
Statistics, on the S A T B grid of sixteenths (``data.music.voice_rows``), averaged over pieces:
  * crossings: % of sixteenths where a lower voice sounds above the voice above it (S<A, A<T or T<B);
  * out of range: % of sounding notes outside the voice's usual range (choir ranges: S C4–G5,
    A G3–D5, T C3–G4, B E2–C4);
  * parallel 5ths / 8ves: per 100 quarter notes, two voices moving the same way from a perfect
    fifth (or octave / unison, modulo the octave) to another one;
  * longest held: the longest run of one held pitch in any voice, in quarter notes;
  * in one key: % of 2-bar windows whose key (music21's Krumhansl–Schmuckler analysis, duration
    weighted) is the key of the whole piece;
  * rests: % of voice-sixteenths that are rests.
Writes benchmarks/results/bach_stats.json (the samples' tokens too) and prints a Markdown table.
"""

from __future__ import annotations

import argparse
import json
import statistics
from pathlib import Path

import numpy as np

from .common import set_threads, write_result

RANGES = [(60, 79), (55, 74), (48, 67), (40, 60)]  # S A T B, MIDI
PERFECT = {0: "8ves", 7: "5ths"}
WINDOW_STEPS = 32  # two 4/4 bars of sixteenths


def pitches(tokens) -> np.ndarray:
    """(4, T) MIDI pitches, −1 for a rest."""
    from aiayn.data import music

    rows = music.voice_rows(tokens)
    out = np.full(rows.shape, -1, dtype=np.int64)
    for v in range(rows.shape[0]):
        for t, token in enumerate(rows[v]):
            p = music.token_pitch(int(token))
            out[v, t] = -1 if p is None else p
    return out


def crossings(p: np.ndarray) -> float:
    upper, lower = p[:-1], p[1:]
    crossed = ((upper >= 0) & (lower >= 0) & (lower > upper)).any(0)
    return 100 * crossed.mean()


def out_of_range(p: np.ndarray) -> float:
    sounding = outside = 0
    for v, (low, high) in enumerate(RANGES):
        row = p[v][p[v] >= 0]
        sounding += row.size
        outside += ((row < low) | (row > high)).sum()
    return 100 * outside / max(sounding, 1)


def parallels(p: np.ndarray) -> dict[str, float]:
    """Consecutive perfect intervals: both voices move, in the same direction, between two steps."""
    counts = {name: 0 for name in PERFECT.values()}
    for a in range(4):
        for b in range(a + 1, 4):
            x, y = p[a], p[b]
            ok = (x[:-1] >= 0) & (x[1:] >= 0) & (y[:-1] >= 0) & (y[1:] >= 0)
            dx, dy = x[1:] - x[:-1], y[1:] - y[:-1]
            moving = ok & (dx != 0) & (dy != 0) & (np.sign(dx) == np.sign(dy))
            before, after = (x[:-1] - y[:-1]) % 12, (x[1:] - y[1:]) % 12
            for interval, name in PERFECT.items():
                counts[name] += int((moving & (before == interval) & (after == interval)).sum())
    quarters = p.shape[1] / 4
    return {name: 100 * n / max(quarters, 1) for name, n in counts.items()}


def longest_held(p: np.ndarray) -> float:
    best = 0
    for row in p:
        run = 1
        for t in range(1, len(row)):
            run = run + 1 if row[t] == row[t - 1] and row[t] >= 0 else 1
            best = max(best, run)
    return best / 4


def key_stability(tokens) -> float:
    from aiayn.data import music

    body = [t for t in tokens if t not in (music.BOS, music.EOS, music.PAD)]
    whole = music.tokens_to_score(body).analyze("key")
    same = total = 0
    for start in range(0, len(body) - 4 * WINDOW_STEPS // 2, 4 * WINDOW_STEPS):
        window = body[start:start + 4 * WINDOW_STEPS]
        if sum(t != music.REST for t in window) < 16:
            continue
        total += 1
        key = music.tokens_to_score(window).analyze("key")
        same += key.tonic.name == whole.tonic.name and key.mode == whole.mode
    return 100 * same / max(total, 1)


def statistics_of(pieces: list[list[int]]) -> dict[str, float]:
    rows = []
    for tokens in pieces:
        p = pitches(tokens)
        if p.shape[1] < 8:
            continue
        par = parallels(p)
        rows.append({"sixteenths": p.shape[1], "crossings_pct": crossings(p), "out_of_range_pct": out_of_range(p),
                     "parallel_5ths_per_100q": par["5ths"], "parallel_8ves_per_100q": par["8ves"],
                     "longest_held_q": longest_held(p), "in_one_key_pct": key_stability(tokens),
                     "rests_pct": 100 * (p < 0).mean()})
    return {k: statistics.mean(r[k] for r in rows) for k in rows[0]} | {"pieces": len(rows)}


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
    args = p.parse_args()
    set_threads(args.threads)

    from aiayn.inference.generator import Generator
    from aiayn.tasks.music import chorale_sequences

    _, test = chorale_sequences("test")
    table = {"Bach (test chorales)": statistics_of(test)}
    samples = {}
    for run in args.runs:
        config = json.loads((Path(run) / "config.json").read_text())
        label = f"{config.get('positions') or config['preset']}, L = {config['data']['window']}"
        gen = Generator.load(run)
        samples[label] = gen.generate([[]] * args.samples, args.length, temperature=args.temperature, seed=args.seed)
        table[label] = statistics_of(samples[label])
        if args.rolls:
            write_roll(samples[label][0], Path(args.rolls), label, args)
        print(label, json.dumps(table[label]), flush=True)
    columns = list(table["Bach (test chorales)"])
    print("| | " + " | ".join(columns) + " |")
    print("| --- " * (len(columns) + 1) + "|")
    for label, row in table.items():
        print(f"| {label} | " + " | ".join(f"{row[c]:.1f}" if isinstance(row[c], float) else str(row[c])
                                          for c in columns) + " |")
    write_result("bach_stats", {"args": vars(args), "table": table, "samples": samples}, args.results)


if __name__ == "__main__":
    main()
