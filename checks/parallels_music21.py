"""Parallel fifths and octaves counted a second way, outside aiayn's grade (issue 29).

``aiayn grade`` counts parallels on the token grid (``aiayn.metrics.chorales``). This script reads the
MIDI files themselves with music21, and Bach's held-out chorales straight from music21's corpus with
their own spellings. At each pair of consecutive onsets or note ends (in any voice), every pair of voices that
both sound at both and do not both hold is one motion. music21's ``VoiceLeadingQuartet`` says whether it is
similar motion and whether it is a parallel fifth, octave or unison. Spelled intervals cannot be trusted
in a MIDI file (A#–F is a diminished sixth to music21, a fifth to the ear), so a second count takes
similar motion between two intervals of 7 semitones (or 0 mod 12) at both onsets.

  python -m checks.parallels_music21 docs/music/samples/sample-*.mid \\
      --set docs/music/samples/earlier/whole-*.mid

Each ``--set`` (and the first list of files) is a row; Bach's 37 test chorales are the first row.
"""

from __future__ import annotations

import argparse
import itertools
from pathlib import Path

from benchmarks.common import write_result


def _notes(part):
    """(onset, end, note) of each note of one voice, in quarters; a chord stands for its top note."""
    out = []
    for n in part.flatten().notes:
        note = max(n.notes, key=lambda x: x.pitch.ps) if n.isChord else n
        out.append((n.offset, n.offset + n.quarterLength, note))
    return out


def count(score) -> dict:
    from music21.voiceLeading import VoiceLeadingQuartet

    from aiayn.data import music

    voices = [_notes(p) for p in music.voice_parts(score)]  # S A T B, whatever the file calls them
    onsets = sorted({t for v in voices for on, end, _ in v for t in (on, end)})  # an end starts a rest: it breaks the motion

    def sounding(v, t):
        return next((n for on, end, n in v if on <= t < end), None)

    c = dict(motions=0, similar=0, m21_5ths=0, m21_8ves=0, st_5ths=0, st_8ves=0)
    for t0, t1 in itertools.pairwise(onsets):
        now = [(sounding(v, t0), sounding(v, t1)) for v in voices]
        for (a0, a1), (b0, b1) in itertools.combinations(now, 2):
            if None in (a0, a1, b0, b1) or (a0 is a1 and b0 is b1):
                continue
            c["motions"] += 1
            q = VoiceLeadingQuartet(a0, a1, b0, b1)
            if not q.similarMotion():
                continue
            c["similar"] += 1
            c["m21_5ths"] += bool(q.parallelFifth())
            c["m21_8ves"] += bool(q.parallelOctave() or q.parallelUnison())
            i0, i1 = (round(abs(x.pitch.ps - y.pitch.ps)) % 12 for x, y in ((a0, b0), (a1, b1)))
            c["st_5ths"] += i0 == i1 == 7  # similar motion: both voices moved, the same way
            c["st_8ves"] += i0 == i1 == 0
    c["quarters"] = float(max((end for v in voices for _, end, _ in v), default=0))
    return c


def summarise(counts: list[dict]) -> dict:
    tot = {k: sum(c[k] for c in counts) for k in counts[0]}
    q, s = tot["quarters"], max(tot["similar"], 1)
    return {"pieces": len(counts), **tot,
            "5ths_per_100q (semitones)": 100 * tot["st_5ths"] / q, "8ves_per_100q (semitones)": 100 * tot["st_8ves"] / q,
            "5ths_per_100q (music21 spelled)": 100 * tot["m21_5ths"] / q,
            "8ves_per_100q (music21 spelled)": 100 * tot["m21_8ves"] / q,
            "parallel 5ths or 8ves per 100 similar motions (semitones)": 100 * (tot["st_5ths"] + tot["st_8ves"]) / s}


def bach_test():
    """The 37 test chorales of the music task (names from its split), parsed from music21's corpus files."""
    from music21 import converter

    from aiayn.data import music
    from aiayn.tasks.music import chorale_sequences

    names = set(chorale_sequences("test")[0])
    return [converter.parse(f) for f in music.corpus_files() if f.name in names]


def main() -> None:
    from music21 import converter

    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("files", nargs="+", help="MIDI files: the first set")
    p.add_argument("--set", nargs="+", action="append", default=[], help="another set of MIDI files (a row)")
    p.add_argument("--results", default=None, help="folder for parallels_music21.json (default benchmarks/results)")
    args = p.parse_args()
    rows = {"Bach (37 test chorales, music21's corpus)": [count(s) for s in bach_test()]}
    for files in [args.files, *args.set]:
        label = f"{Path(files[0]).parent} ({len(files)} files, {Path(files[0]).name} …)"
        rows[label] = [count(converter.parse(f)) for f in files]
    out = {label: summarise(c) for label, c in rows.items()}
    keys = list(next(iter(out.values())))[-5:]
    print("| set | pieces | " + " | ".join(keys) + " |")
    print("| --- " * (len(keys) + 2) + "|")
    for label, r in out.items():
        print(f"| {label} | {r['pieces']} | " + " | ".join(f"{r[k]:.2f}" for k in keys) + " |")
    write_result("parallels_music21", {"results": out}, args.results)


if __name__ == "__main__":
    main()
