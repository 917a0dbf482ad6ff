"""Does it sound like Bach? A grade for four-part chorales: part-writing counts and distances to Bach's
distributions (issue 29), computed the same way for samples and for Bach's held-out chorales.

Input: tokens of ``aiayn.data.music`` (S A T B per sixteenth; BOS dropped, cut at EOS). On that grid
of sixteenths, with p[v, t] the MIDI pitch of voice v (S A T B) at sixteenth t:

Part-writing counts (every pair of the four voices where a pair is meant):
  * parallel 5ths / 8ves per 100 quarters: steps t -> t + 1 where two voices both sound at t and t + 1,
    both change pitch, in the same direction, and stand a fifth apart at both (interval mod 12 = 7; a
    fifth to a twelfth counts) or an octave apart at both (mod 12 = 0: unisons, octaves, double octaves).
    The interval is the one that sounds, whichever voice is on top (until VERSION 2 it was read from the
    upper voice down, so a fifth between crossed voices counted as a fourth, and a crossed fourth as a fifth).
    Contrary ("antiparallel") and oblique motion do not count; a rest breaks the motion. By pitch, not
    spelling: the tokens have none (music21's VoiceLeadingQuartet reads spelling, so a MIDI fifth
    G♯–E♭ is a diminished sixth to it, and it counts contrary fifths too; it agrees on spelled
    similar motion, which the tests check);
  * crossings: % of sixteenths where a lower voice sounds above the voice just above it (S<A, A<T, T<B);
    realigned: the same with each bar read 0-3 tokens later, whichever crosses least (a sample that
    drops one token has every later voice read one place off);
  * out of range: % of sounding voice-sixteenths outside the voice's choir range (``RANGES``);
  * longest held: the longest note (a run of one pitch in one voice), in quarters;
  * in one key: % of 2-bar windows whose key (music21's Krumhansl-Schmuckler analysis) is the piece's;
  * rests: % of voice-sixteenths that rest.

Distances to Bach, in the spirit of "Bach or Mock?" (Fang et al. 2020): each piece's histogram of a
feature against the pooled histogram of Bach's training chorales, as a 1-D Wasserstein distance
(scipy) over the bins' values; lower is closer, 0 is Bach's distribution exactly:
  * pitch: each note's pitch class above the tonic of the piece's key (0..11 semitones);
  * rhythm: note lengths in quarters (1/4 .. 8; longer counted as 8);
  * intervals S, A, T, B: each voice's melodic steps in semitones between successive notes (rests
    skipped), clipped to ±12;
  * errors: every step where a pair of sounding voices moves, as clean 0, parallel 5th 1, parallel 8ve
    2 or crossed 3.
``grade``: their sum (Fang et al.'s overall grade is a weighted sum of such distances; ours weighs
all alike).
"""

from __future__ import annotations

import json
import statistics
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import torch

from ..data import music
from ..data.errors import DataError
from ..progress import bar as progress_bar

RANGES = ((60, 79), (55, 74), (48, 67), (40, 60))  # S C4-G5, A G3-D5, T C3-G4, B E2-C4 (MIDI)
PAIRS = tuple((a, b) for a in range(4) for b in range(a + 1, 4))
PERFECT = {"5ths": 7, "8ves": 0}  # the sounding interval mod 12 (whichever voice is on top)
BAR = 16  # sixteenths in a 4/4 bar
KEY_WINDOW = 2 * BAR  # sixteenths per key window
VERSION = 2  # of the statistics: bump when a definition changes (the cached Bach grade is then redone)
FEATURES = ("pitch", "rhythm", "intervals_S", "intervals_A", "intervals_T", "intervals_B", "errors")
SUPPORT = {"pitch": np.arange(12), "rhythm": np.arange(1, 33) / 4, "errors": np.arange(4),
           **{f"intervals_{v}": np.arange(-12, 13) for v in "SATB"}}


# ---- the grid ----------------------------------------------------------------------------------

def pitches(tokens: Sequence[int]) -> np.ndarray:
    """(4, T) MIDI pitches of S A T B, −1 where a voice rests; ValueError for a PAD or BOS inside."""
    rows = music.voice_rows(tokens)
    if ((rows < music.REST) | (rows >= music.VOCAB_SIZE)).any():
        raise ValueError("a chorale's tokens are pitches and rests only (PAD, BOS or an unknown id inside)")
    return np.where(rows == music.REST, -1, rows - 4 + music.MIN_PITCH)


def notes(row: np.ndarray) -> list[tuple[int, int]]:
    """(pitch, length in sixteenths) of each note of one voice: runs of one pitch, rests left out."""
    edges = np.flatnonzero(np.diff(row)) + 1
    starts, ends = np.concatenate([[0], edges]), np.concatenate([edges, [len(row)]])
    return [(int(row[s]), int(e - s)) for s, e in zip(starts, ends) if row[s] >= 0]


def crossed(p: np.ndarray) -> np.ndarray:
    """(T,) bool: some voice sounds above the voice just above it."""
    upper, lower = p[:-1], p[1:]
    return ((upper >= 0) & (lower >= 0) & (lower > upper)).any(0)


def crossings(p: np.ndarray) -> float:
    return 100 * float(crossed(p).mean())


def realigned_crossings(tokens: Sequence[int]) -> float:
    """Crossings with each bar read from 0–3 tokens later, whichever crosses least."""
    body = list(music._body(tokens))
    body += [music.REST] * (-len(body) % 4)  # a last, partial sixteenth rests where it is silent, as in its MIDI
    readings = [crossed(pitches(body[shift:])) for shift in range(4)]
    n = min(map(len, readings))
    total = sum(min(int(r[s:s + BAR].sum()) for r in readings) for s in range(0, n, BAR))
    return 100 * total / max(n, 1)


def out_of_range(p: np.ndarray) -> float:
    sounding = outside = 0
    for v, (low, high) in enumerate(RANGES):
        row = p[v][p[v] >= 0]
        sounding += row.size
        outside += int(((row < low) | (row > high)).sum())
    return 100 * outside / max(sounding, 1)


def longest_held(p: np.ndarray) -> float:
    return max((length for row in p for _, length in notes(row)), default=0) / 4


# ---- parallels -------------------------------------------------------------------------------

def pair_motion(p: np.ndarray, a: int, b: int) -> dict[str, np.ndarray]:
    """(T − 1,) masks of the steps t -> t + 1 of voices a (upper) and b: both sound and one moves
    ("moving"), both move the same way ("similar"), and each perfect parallel; "crossed" after."""
    x, y = p[a], p[b]
    sound = (x[:-1] >= 0) & (x[1:] >= 0) & (y[:-1] >= 0) & (y[1:] >= 0)
    dx, dy = np.diff(x), np.diff(y)
    similar = sound & (dx != 0) & (np.sign(dx) == np.sign(dy))
    before, after = np.abs(x[:-1] - y[:-1]) % 12, np.abs(x[1:] - y[1:]) % 12  # crossed voices too
    out = {"moving": sound & ((dx != 0) | (dy != 0)), "similar": similar, "crossed": sound & (y[1:] > x[1:])}
    out.update({name: similar & (before == k) & (after == k) for name, k in PERFECT.items()})
    return out


def parallel_counts(p: np.ndarray) -> dict[str, int]:
    """How many parallel 5ths and 8ves, over all six pairs of voices."""
    counts = dict.fromkeys(PERFECT, 0)
    for a, b in PAIRS:
        motion = pair_motion(p, a, b)
        for name in PERFECT:
            counts[name] += int(motion[name].sum())
    return counts


def parallels(p: np.ndarray) -> dict[str, float]:
    """Parallel 5ths and 8ves per 100 quarter notes of the piece."""
    quarters = max(p.shape[1] / 4, 1)
    return {name: 100 * n / quarters for name, n in parallel_counts(p).items()}


def forbidden_parallels(inputs: torch.Tensor, starts: torch.Tensor, kinds: Sequence[str] = tuple(PERFECT)) -> torch.Tensor:
    """(N, T) input tokens of windows (``starts``: (N,) the sequence position of each row's first column,
    BOS = 0; negative for left pads) -> (N, T, VOCAB_SIZE) bool, True for each pitch that, as the token
    after that column, would make a parallel 5th or 8ve (as ``pair_motion`` counts them) with a voice already
    written at its sixteenth (``kinds``: of ``PERFECT``, the parallels that count). What lies before a window's
    first column is not seen: nothing is ruled out there."""
    n, t = inputs.shape
    p = torch.where((inputs >= 4) & (inputs < music.VOCAB_SIZE), inputs - 4 + music.MIN_PITCH, -1)
    past = lambda d: torch.nn.functional.pad(p, (d, 0), value=-1)[:, :t]  # noqa: E731  p[k - d] at column k
    voice = (starts.to(inputs.device)[:, None] + torch.arange(t, device=inputs.device)) % 4  # of the next token
    candidates = torch.arange(music.MIN_PITCH, music.MAX_PITCH + 1, device=inputs.device)  # token 4 + i
    out = torch.zeros(n, t, music.VOCAB_SIZE, dtype=torch.bool, device=inputs.device)
    y0 = past(3)  # the next token's voice, one sixteenth earlier
    counted = torch.tensor([PERFECT[k] for k in kinds], device=inputs.device)  # intervals mod 12
    for v in range(1, 4):
        for u in range(v):  # voice u above it: x0 -> x1 (already written) against y0 -> candidate
            x0, x1 = past(3 + v - u), past(v - u - 1)
            interval = (x0 - y0).abs() % 12
            on = (voice == v) & (x0 >= 0) & (x1 >= 0) & (y0 >= 0) & (x1 != x0) & torch.isin(interval, counted)
            same_way = torch.sign(candidates - y0[..., None]) == torch.sign(x1 - x0)[..., None]
            out[..., 4:] |= on[..., None] & same_way & ((x1[..., None] - candidates).abs() % 12 == interval[..., None])
    return out


def no_parallels(history: torch.Tensor) -> torch.Tensor:
    """A sampling rule (``aiayn.decoding.greedy.Rule``): (N, L) token rows (pads, BOS, then S A T B per
    sixteenth) -> (N, VOCAB_SIZE) bool, False for each pitch that, as the next token, would make a
    parallel 5th or 8ve with a voice already written at this sixteenth (``forbidden_parallels``)."""
    last = torch.nn.functional.pad(history, (8, 0), value=music.PAD)[:, -8:]  # this sixteenth and the last
    starts = history.size(1) - 8 - (history == music.PAD).sum(dim=1)  # primers are left-padded
    return ~forbidden_parallels(last, starts)[:, -1]


# ---- keys ------------------------------------------------------------------------------------

def key_of(tokens: Sequence[int]):
    """music21's key of the piece (Krumhansl–Schmuckler, duration weighted)."""
    return music.tokens_to_score(tokens).analyze("key")


def key_consistency(tokens: Sequence[int], key=None) -> float:
    """% of 2-bar windows (with at least 16 notes' worth of sound) in the key of the whole piece."""
    body = music._body(tokens)
    key = key or key_of(body)
    size = 4 * KEY_WINDOW
    same = total = 0
    for start in range(0, len(body) - size // 2, size):  # a last window under half full is left out
        window = body[start:start + size]
        if sum(t != music.REST for t in window) < 16:
            continue
        found = key_of(window)
        total += 1
        same += found.tonic.name == key.tonic.name and found.mode == key.mode
    return 100 * same / max(total, 1)


# ---- distributions ---------------------------------------------------------------------------

def histograms(p: np.ndarray, tonic: int) -> dict[str, np.ndarray]:
    """Counts per bin of each feature (bins: ``SUPPORT``); ``tonic``: the key's pitch class."""
    played = [notes(row) for row in p]
    every = [n for voice in played for n in voice]
    out = {"pitch": np.bincount([(q - tonic) % 12 for q, _ in every], minlength=12),
           "rhythm": np.bincount([min(length, 32) - 1 for _, length in every], minlength=32)}
    for v, voice in zip("SATB", played):
        steps = np.clip(np.diff([q for q, _ in voice]), -12, 12).astype(int)
        out[f"intervals_{v}"] = np.bincount(steps + 12, minlength=25)
    errors = np.zeros(4, dtype=np.int64)
    for a, b in PAIRS:
        m = pair_motion(p, a, b)
        kinds = np.select([m["5ths"], m["8ves"], m["crossed"]], [1, 2, 3], 0)[m["moving"]]
        errors += np.bincount(kinds, minlength=4)
    out["errors"] = errors
    return out


def distance(counts: np.ndarray, reference: np.ndarray, support: np.ndarray) -> float:
    """1-D Wasserstein distance between two histograms over the same bins; nan for an empty one."""
    from scipy.stats import wasserstein_distance

    if counts.sum() == 0 or reference.sum() == 0:
        return float("nan")
    return float(wasserstein_distance(support, support, counts, reference))


def grade_piece(tokens: Sequence[int], reference: dict[str, np.ndarray] | None = None) -> dict[str, float]:
    """Every statistic of one piece (the module's docstring); distances too given Bach's ``reference``."""
    body = music._body(tokens)
    p = pitches(body)
    key = key_of(body)
    par = parallels(p)
    row = {"sixteenths": p.shape[1], "parallel_5ths_per_100q": par["5ths"], "parallel_8ves_per_100q": par["8ves"],
           "crossings_pct": crossings(p), "crossings_realigned_pct": realigned_crossings(body),
           "out_of_range_pct": out_of_range(p), "longest_held_q": longest_held(p),
           "in_one_key_pct": key_consistency(body, key), "rests_pct": 100 * float((p < 0).mean())}
    if reference is not None:
        hist = histograms(p, key.tonic.pitchClass)
        dists = {f"w_{name}": distance(hist[name], reference[name], SUPPORT[name]) for name in FEATURES}
        row |= dists | {"grade": sum(dists.values())}
    return row


def pooled_histograms(pieces: Sequence[Sequence[int]], progress=None) -> dict[str, np.ndarray]:
    """Each feature's counts summed over ``pieces`` (Bach's training chorales: the reference)."""
    total: dict[str, np.ndarray] = {}
    for tokens in progress_bar(progress, pieces, desc="Bach's distributions", unit="chorale"):
        body = music._body(tokens)
        for name, counts in histograms(pitches(body), key_of(body).tonic.pitchClass).items():
            total[name] = total.get(name, 0) + counts
    return total


def grade_pieces(pieces: Sequence[Sequence[int]], reference=None, progress=None, desc="grading",
                 min_sixteenths: int = 8) -> list[dict[str, float]]:
    """``grade_piece`` of each piece; one under ``min_sixteenths`` sixteenths gets only its length."""
    rows = []
    for tokens in progress_bar(progress, pieces, desc=desc, unit="piece"):
        steps = len(music._body(tokens)) // 4
        rows.append(grade_piece(tokens, reference) if steps >= min_sixteenths else {"sixteenths": steps})
    return rows


# ---- Bach's held-out grade, cached -------------------------------------------------------------

def bach_baseline(cache_dir: str | Path, progress=None) -> tuple[dict[str, np.ndarray], list[str], list[dict]]:
    """(reference histograms of the training chorales, test chorale names, their grades), computed once
    (~1 min: music21 finds each piece's key) and cached beside the encoded chorales."""
    cache_dir = Path(cache_dir)
    test = music.load_chorales(cache_dir, "test", progress)
    meta = json.loads((cache_dir / "chorales.json").read_text())
    stamp = {"version": VERSION, "encoding": meta["encoding_version"], "music21": meta["music21_version"],
             "test": list(test)}
    path = cache_dir / "grade-bach.json"
    saved = json.loads(path.read_text()) if path.is_file() else {}
    if saved.get("stamp") != stamp:
        train = music.load_chorales(cache_dir, "train", progress)
        reference = pooled_histograms(list(train.values()), progress)
        rows = grade_pieces(list(test.values()), reference, progress, desc="grading Bach's test chorales")
        saved = {"stamp": stamp, "reference": {k: v.tolist() for k, v in reference.items()}, "test": rows}
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps(saved) + "\n")
        tmp.replace(path)  # atomic: a half-written cache is never read
    return {k: np.asarray(v) for k, v in saved["reference"].items()}, list(test), saved["test"]


def grade_sets(sets: dict[str, list[list[int]]], cache_dir: str | Path, ended: dict[str, int | None] | None = None,
               names: dict[str, list[str]] | None = None, progress=None) -> dict:
    """Grades each set of pieces next to Bach's test chorales (the first column): the summaries
    ("table"), each piece's statistics with its name ("per_piece") and what the reference was."""
    reference, bach_names, bach_rows = bach_baseline(cache_dir, progress)
    label = f"Bach ({len(bach_rows)} test chorales)"
    table, per_piece = {label: summarise(bach_rows)}, {label: dict(zip(bach_names, bach_rows))}
    for name, pieces in sets.items():
        rows = grade_pieces(pieces, reference, progress, desc=f"grading {name}")
        table[name] = summarise(rows, (ended or {}).get(name))
        keys = (names or {}).get(name) or [f"sample {i + 1}" for i in range(len(pieces))]
        per_piece[name] = dict(zip(keys, rows))
    return {"reference": "pooled histograms of Bach's training chorales", "version": VERSION,
            "table": table, "per_piece": per_piece}


# ---- summaries ---------------------------------------------------------------------------------

LABELS = {  # statistic -> its row in the table; rates also get a pooled figure (all pieces together)
    "parallel_5ths_per_100q": "parallel 5ths / 100 quarters", "parallel_8ves_per_100q": "parallel 8ves / 100 quarters",
    "crossings_pct": "voice crossings (% of sixteenths)", "crossings_realigned_pct": "crossings, bars realigned (%)",
    "out_of_range_pct": "out of range (% of voice-sixteenths)", "longest_held_q": "longest held note (quarters)",
    "in_one_key_pct": "2-bar windows in the piece's key (%)", "rests_pct": "rests (%)",
    "grade": "grade: sum of the distances below (lower: closer to Bach)",
    **{f"w_{name}": f"distance: {name.replace('_', ' ')}" for name in FEATURES}, "sixteenths": "length (sixteenths)",
}
RATES = ("parallel_5ths_per_100q", "parallel_8ves_per_100q", "crossings_pct", "crossings_realigned_pct",
         "out_of_range_pct", "rests_pct")


def summarise(rows: list[dict[str, float]], ended: int | None = None) -> dict:
    """Per statistic: median, min, max, mean, and for rates the pooled value (pieces weighted by length);
    pieces too short to grade are counted, not summarised; ``ended``: samples that ended by themselves."""
    graded = [r for r in rows if len(r) > 1]
    out: dict = {"pieces": len(rows), "graded": len(graded), "ended": ended}
    for key in (graded[0] if graded else {}):
        values = [r[key] for r in graded if not np.isnan(r[key])]
        if not values:
            continue
        out[key] = {"median": statistics.median(values), "min": min(values), "max": max(values),
                    "mean": statistics.mean(values)}
        if key in RATES:
            weights = [r["sixteenths"] for r in graded]
            out[key]["pooled"] = sum(r[key] * w for r, w in zip(graded, weights)) / max(sum(weights), 1)
    return out


def markdown(table: dict[str, dict]) -> str:
    """One column per set of pieces, one row per statistic: "median (min–max)", rates "pooled · median (min–max)"."""
    labels = list(table)
    lines = ["| | " + " | ".join(labels) + " |", "| --- " * (len(labels) + 1) + "|",
             "| pieces (graded) | " + " | ".join(f"{t['pieces']} ({t['graded']})" for t in table.values()) + " |"]
    if any(t["ended"] is not None for t in table.values()):
        lines.append("| ended by itself | " + " | ".join(
            "–" if t["ended"] is None else f"{t['ended']} of {t['pieces']}" for t in table.values()) + " |")
    for key, label in LABELS.items():
        cells = []
        for t in table.values():
            s = t.get(key)
            cell = "–" if s is None else f"{s['median']:.2f} ({s['min']:.2f}–{s['max']:.2f})"
            cells.append(cell if s is None or "pooled" not in s else f"{s['pooled']:.2f} · {cell}")
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


# ---- files -------------------------------------------------------------------------------------

SUFFIXES = (".mid", ".midi", ".musicxml", ".xml", ".mxl", ".krn")


def score_files(paths: Sequence[str | Path]) -> list[Path]:
    """The score files named, a folder standing for its score files (sorted); DataError (one line)
    for a missing path, a file of another kind, or a folder with no score files."""
    found: list[Path] = []
    for path in map(Path, paths):
        if path.is_dir():
            inside = sorted(f for f in path.iterdir() if f.is_file() and f.suffix.lower() in SUFFIXES)
            if not inside:
                raise DataError(f"{path} holds no MIDI, MusicXML or kern files ({', '.join(SUFFIXES)}): "
                                "name a folder of samples, such as the one `aiayn generate --out` writes")
            found += inside
        elif not path.is_file():
            raise DataError(f"{path}: no such file or folder")
        elif path.suffix.lower() not in (*SUFFIXES, ".json"):
            raise DataError(f"{path} is not a score file: grade reads MIDI, MusicXML or kern ({', '.join(SUFFIXES)}), "
                            "or tokens as JSON (.json)")
        else:
            found.append(path)
    return found


def token_sets(path: str | Path) -> dict[str, list[list[int]]]:
    """Pieces saved as tokens in JSON: a list of token lists (one set, named by the file), or an object whose
    "samples" maps labels to such lists (what `aiayn grade --json` and checks.bach_stats write)."""
    path = Path(path)
    expected = 'a list of token lists, or {"samples": {label: [token lists]}} as `aiayn grade --json` writes'
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as e:
        raise DataError(f"{path}: not readable as JSON ({str(e).splitlines()[0]}); expected {expected}") from None
    sets = data.get("samples") if isinstance(data, dict) else {path.name: data}
    pieces_ok = lambda v: isinstance(v, list) and all(  # noqa: E731
        isinstance(x, list) and all(isinstance(t, int) for t in x) for x in v)
    if not isinstance(sets, dict) or not sets or not all(map(pieces_ok, sets.values())):
        raise DataError(f"{path}: expected {expected}")
    for label, pieces in sets.items():
        for i, piece in enumerate(pieces):
            try:
                pitches(piece)
            except ValueError as e:
                raise DataError(f"{path}: {label}, piece {i + 1}: {e}") from None
    return sets
