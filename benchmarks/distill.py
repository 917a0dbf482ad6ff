"""Issue 31: a distilled student against its teacher, in one run: BLEU / chrF on the whole built-in test
split, decoding speed as paired ratios on the same test sentences, and size on disk.

Systems (CPU, --threads threads each):
  teacher_beam4            the teacher, aiayn float32, beam 4, alpha 0.6 (the reference for speed)
  student_greedy           the student, aiayn float32, greedy
  student_beam4            the student, aiayn float32, beam 4
  student_int8_greedy      the student, aiayn int8 linear layers (`--dtype int8`: dynamic quantisation)
  student_ct2_greedy       the student's CTranslate2 float32 export, greedy
  student_ct2_int8_greedy  the student's CTranslate2 int8 export, greedy
  baseline_greedy, baseline_beam4   with --baseline RUN: the student's shape trained on the original targets
The CTranslate2 exports are written by `aiayn export` into a temporary folder for the run.

Quality: every system translates the whole test split once (sacreBLEU, as `aiayn evaluate`).
Speed: every system translates the first --lines test sentences once per round; rounds interleave the
systems (common.interleave) after one untimed warm-up round; reported are the median sentences/s and the
median paired ratio teacher_beam4 time / system time (> 1: faster than the teacher).
Size: the weights file (aiayn) or the export folder (CTranslate2); aiayn int8 exists in memory only.

Run:  python -m benchmarks.distill --teacher runs/distill-teacher --student runs/student
          [--baseline runs/student-orig] [--lines 500] [--repeats 3] [--threads 1] [--no-quality]
Writes benchmarks/results/distill.json (or into --results DIR).
"""

from __future__ import annotations

import argparse
import gzip
import tempfile
from pathlib import Path

from .common import add_common_args, interleave, median, median_ratio, print_table, set_threads, write_result


def test_split() -> tuple[list[str], list[str]]:
    """The built-in test split: English sources, Spanish references."""
    from aiayn.corpus import builtin

    with gzip.open(builtin("test"), "rt", encoding="utf-8") as f:
        header = next(f).rstrip("\n").split("\t")
        rows = [line.rstrip("\n").split("\t") for line in f]
    return [r[header.index("en")] for r in rows], [r[header.index("es")] for r in rows]


def folder_bytes(path: Path) -> int:
    return path.stat().st_size if path.is_file() else sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


def systems(args, tmp: Path, threads: int) -> dict[str, tuple[object, object, int | None]]:
    """name -> (translator, decoding options, bytes on disk)."""
    import torch

    from aiayn.decoding.options import DecodeOptions
    from aiayn.export import export
    from aiayn.export.ctranslate2 import CTranslate2Translator
    from aiayn.inference.translator import Translator
    from aiayn.io.rundir import model_file_of

    greedy, beam4 = DecodeOptions(beam_size=1), DecodeOptions()
    teacher, student = Translator.load(args.teacher), Translator.load(args.student)
    ct2 = {q: export(args.student, "ctranslate2", tmp / f"ct2-{q}", q) for q in ("float32", "int8")}
    out = {
        "teacher_beam4": (teacher, beam4, folder_bytes(model_file_of(args.teacher))),
        "student_greedy": (student, greedy, folder_bytes(model_file_of(args.student))),
        "student_beam4": (student, beam4, folder_bytes(model_file_of(args.student))),
        "student_int8_greedy": (Translator.load(args.student, dtype=torch.qint8), greedy, None),
        "student_ct2_greedy": (CTranslate2Translator(ct2["float32"], threads=threads), greedy,
                               folder_bytes(ct2["float32"] / "model.bin")),
        "student_ct2_int8_greedy": (CTranslate2Translator(ct2["int8"], threads=threads), greedy,
                                    folder_bytes(ct2["int8"] / "model.bin")),
    }
    if args.baseline:
        baseline = Translator.load(args.baseline)
        size = folder_bytes(model_file_of(args.baseline))
        out.update(baseline_greedy=(baseline, greedy, size), baseline_beam4=(baseline, beam4, size))
    return out


def main(argv: list[str] | None = None) -> dict:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--teacher", required=True, help="the teacher's run directory")
    p.add_argument("--student", required=True, help="the distilled student's run directory")
    p.add_argument("--baseline", help="the student's shape trained on the original targets (aiayn train --preset "
                   "student)")
    p.add_argument("--lines", type=int, default=500, help="test sentences per timed call (default 500)")
    p.add_argument("--repeats", type=int, default=3, help="timed rounds (default 3)")
    p.add_argument("--no-quality", action="store_true", help="skip BLEU / chrF on the whole test split")
    add_common_args(p)
    args = p.parse_args(argv)
    threads = set_threads(args.threads or 1)
    from aiayn.metrics.bleu import corpus_scores

    sources, references = test_split()
    timed = sources[: args.lines]
    with tempfile.TemporaryDirectory(prefix="aiayn-distill-bench-") as tmp:
        found = systems(args, Path(tmp), threads)
        fns = {name: (lambda t=t, o=o: t.translate(timed, o)) for name, (t, o, _) in found.items()}
        times = interleave(fns, args.repeats, warmup=1)
        results = {}
        for name, (translator, options, size) in found.items():
            scores = None if args.no_quality else corpus_scores(translator.translate(sources, options), references)
            results[name] = {"beam": options.beam_size, "alpha": options.alpha, "seconds": times[name],
                             "sentences_per_s": median([len(timed) / t for t in times[name]]),
                             "speedup_vs_teacher_beam4": median_ratio(times["teacher_beam4"], times[name]),
                             "bytes_on_disk": size, "bleu": scores and scores.bleu, "chrf": scores and scores.chrf,
                             "bleu_signature": scores and scores.bleu_signature}
    rows = [{"system": name, "BLEU": r["bleu"], "chrF": r["chrf"], "sent/s": r["sentences_per_s"],
             "x teacher beam4": r["speedup_vs_teacher_beam4"],
             "MB": r["bytes_on_disk"] and r["bytes_on_disk"] / 1e6} for name, r in results.items()]
    print_table(rows, list(rows[0]))
    payload = {"teacher": args.teacher, "student": args.student, "baseline": args.baseline, "threads": threads,
               "timed_sentences": len(timed), "test_sentences": len(sources), "repeats": args.repeats,
               "systems": results}
    write_result("distill", payload, args.results)
    return payload


if __name__ == "__main__":
    main()
