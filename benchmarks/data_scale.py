"""Issue 20's data-scale table: peak memory and time to a first training step, by corpus size.

Corpora of N pairs repeat the built-in Bible train split with numbered ids; a 2,000-piece vocabulary
is given with --vocab; each run is ``aiayn train --max-steps 1`` (no validation data) under
``/usr/bin/time -v``: first run (builds the cached ids), second run (a new run on the same data),
and ``--resume`` of the first. Corpora, runs and the cache go under --work (default /tmp), deleted
at the end unless --keep.

    python -m benchmarks.data_scale --pairs 5000 1000000 --repeat 3   # the table: medians of 3, cache cleared each time
    python -m benchmarks.data_scale --pairs 10000000 --runs first      # the 10M-pair corpus
    python -m benchmarks.data_scale --pairs 100000 --torchrun 2         # per-rank memory, 2 processes
    python -m benchmarks.data_scale --pairs 200000 --runs --torchrun 2  # only that
    python -m benchmarks.data_scale --pairs 10000000 --runs --preprocess   # aiayn preprocess, then train on it

``--preprocess``: ``aiayn preprocess`` learning an 8,000-piece vocabulary from the text (sentencepiece
samples 2M lines) and binarizing it, then ``aiayn train --max-steps 1`` on the folder and a
``--resume`` of that run, each timed the same way.
"""

from __future__ import annotations

import argparse
import gzip
import os
import re
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

from aiayn.corpus import builtin

from .common import write_result


def make_corpus(path: Path, n_pairs: int) -> None:
    """N pairs: the built-in train split repeated, each copy's ids numbered, as a plain TSV."""
    with gzip.open(builtin("train"), "rt", encoding="utf-8") as f:
        header, *rows = f.read().splitlines()
    rows = [r.split("\t", 1)[1] for r in rows]
    with open(path, "w", encoding="utf-8") as out:
        out.write(header + "\n")
        for i in range(n_pairs):
            out.write(f"X.{i}\t{rows[i % len(rows)]}\n")


def make_vocab(path: Path) -> None:
    from aiayn.data import read_parallel
    from aiayn.data.tokenizer import Tokenizer

    corpus = read_parallel(builtin("train"))
    Tokenizer.train(corpus.src + corpus.tgt, path, vocab_size=2000)


def timed(cmd: list[str], env: dict[str, str]) -> tuple[float, float]:
    """(wall seconds, peak RSS MiB) of ``cmd`` under /usr/bin/time -v."""
    start = time.perf_counter()
    proc = subprocess.run(["/usr/bin/time", "-v", *cmd], capture_output=True, text=True, env=env)
    wall = time.perf_counter() - start
    if proc.returncode:
        sys.exit(f"{' '.join(cmd)} failed:\n{proc.stderr[-3000:]}")
    rss_kb = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", proc.stderr)[1])
    return wall, rss_kb / 1024


def mapped_file_memory(pid: str, folder: Path) -> list[tuple[int, float, float]]:
    """(file offset, Rss MiB, Pss MiB) of each mapping by process ``pid`` of a file under ``folder``, from
    /proc/PID/smaps. A binarized corpus is mapped twice, ids (offset 4096) then index: a page both ranks
    touched counts fully in each one's Rss but half in each Pss, so Pss ~ Rss / 2 shows the pages are shared."""
    out, current = [], None
    for line in Path(f"/proc/{pid}/smaps").read_text().splitlines():
        head = re.match(r"[0-9a-f]+-[0-9a-f]+ \S+ ([0-9a-f]+) \S+ \d+\s+(.*)$", line)
        if head:
            current = [int(head[1], 16), 0.0, 0.0] if head[2].startswith(str(folder)) else None
            if current:
                out.append(current)
        elif current and line.startswith(("Rss:", "Pss:")):
            current[1 if line.startswith("Rss:") else 2] += int(line.split()[1]) / 1024
    return sorted(tuple(m) for m in out)


def per_rank_memory(agent: int, cache: Path) -> list[str]:
    """Each worker process of the torchrun agent ``agent``: its RSS and PSS in all (smaps_rollup), and the Rss
    and Pss of its mappings of the binarized corpus in ``cache`` (the ids, then the index). Empty until every
    worker has mapped the corpus (and again once one has let it go, at the end)."""
    out = []
    for pid in subprocess.run(["pgrep", "-P", str(agent)], capture_output=True, text=True).stdout.split():
        try:
            text = Path(f"/proc/{pid}/smaps_rollup").read_text()
            mapped = mapped_file_memory(pid, cache)
        except OSError:
            return []
        if not mapped:
            return []
        f = {k: int(v) / 1024 for k, v in re.findall(r"^(\w+):\s+(\d+) kB", text, re.M)}
        parts = ", ".join(f"{name} Rss {rss:.1f} / Pss {pss:.1f}" for name, (_, rss, pss) in zip(("ids", "index"), mapped))
        out.append(f"pid {pid}: RSS {f['Rss']:.0f} MiB, PSS {f['Pss']:.0f} MiB; mapped corpus (MiB): {parts}")
    return out


def preprocessed(work: Path, data: Path, n: int, env: dict[str, str], rows: list[dict]) -> None:
    """``aiayn preprocess`` (vocabulary learned from the text), then a run on its folder and its resume."""
    folder, out = work / f"prep-{n}", work / f"run-{n}-prep"
    shutil.rmtree(folder, ignore_errors=True)
    shutil.rmtree(out, ignore_errors=True)
    aiayn = [sys.executable, "-m", "aiayn"]
    for label, cmd in [
        ("preprocess (learns the vocabulary)", [*aiayn, "preprocess", "--train", str(data), "--out", str(folder)]),
        ("train on the folder", [*aiayn, "train", "--train", str(folder), "--max-steps", "1", "--out", str(out)]),
        ("`--resume` of that run", [*aiayn, "train", "--out", str(out), "--resume", "--max-steps", "2"]),
    ]:
        wall, rss = timed(cmd, env)
        rows.append({"pairs": n, "run": label, "peak_rss_mib": rss, "wall_seconds": wall})
        print(f"| {n:,} pairs | {label} | {rss:,.0f} | {wall:.1f} |", flush=True)


def print_medians(rows: list[dict]) -> None:
    """Each (corpus, run)'s median peak RSS and wall time over the repetitions, the range in brackets."""
    print("\n| corpus | run | peak RSS (MiB) | wall (s) |\n| --- | --- | --- | --- |")
    for key in dict.fromkeys((r["pairs"], r["run"]) for r in rows if "repeat" in r):
        same = [r for r in rows if (r["pairs"], r["run"]) == key and "repeat" in r]
        cells = [f"{statistics.median(r[f] for r in same):,.{d}f} ({min(r[f] for r in same):,.{d}f}–"
                 f"{max(r[f] for r in same):,.{d}f})" for f, d in (("peak_rss_mib", 0), ("wall_seconds", 1))]
        print(f"| {key[0]:,} pairs | {key[1]} | {cells[0]} | {cells[1]} |")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pairs", type=int, nargs="+", default=[5000, 1_000_000])
    ap.add_argument("--runs", nargs="*", default=["first", "second", "resume"], choices=["first", "second", "resume"],
                    help="none (--runs alone): only the --torchrun measurement")
    ap.add_argument("--work", default="/tmp/aiayn-data-scale")
    ap.add_argument("--torchrun", type=int, default=0, help="also train with this many torchrun processes (gloo)")
    ap.add_argument("--preprocess", action="store_true", help="also time aiayn preprocess (vocabulary learned) "
                    "and training on its folder")
    ap.add_argument("--repeat", type=int, default=1, help="measure the runs this many times, the cache emptied "
                    "before each, and print each figure's median and range (default 1)")
    ap.add_argument("--keep", action="store_true")
    ap.add_argument("--results", default=None, help="folder for the JSON record (default benchmarks/results/<today>)")
    args = ap.parse_args()
    work = Path(args.work)
    work.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "AIAYN_CACHE": str(work / "cache"), "PYTHONWARNINGS": "ignore"}
    vocab = work / "spm2000.model"
    if not vocab.exists():
        make_vocab(vocab)
    aiayn = [sys.executable, "-m", "aiayn", "train", "--vocab", str(vocab), "--max-steps", "1"]
    print("| corpus | run | peak RSS (MiB) | wall (s) |\n| --- | --- | --- | --- |", flush=True)
    rows: list[dict] = []
    ranks: list[dict] = []
    try:
        for rep, n in ((rep, n) for rep in range(args.repeat) for n in args.pairs):
            if n == args.pairs[0]:  # a repetition starts from an empty cache: its first runs build the ids again
                shutil.rmtree(work / "cache", ignore_errors=True)
            data = work / f"train-{n}.tsv"
            if not data.exists():
                make_corpus(data, n)
            for run in args.runs:
                out = work / f"run-{n}-{run}"
                if run != "resume":
                    shutil.rmtree(out, ignore_errors=True)
                cmd = ([sys.executable, "-m", "aiayn", "train", "--out", str(work / f"run-{n}-first"), "--resume",
                        "--max-steps", "2"] if run == "resume" else [*aiayn, "--train", str(data), "--out", str(out)])
                wall, rss = timed(cmd, env)
                rows.append({"pairs": n, "bytes": data.stat().st_size, "run": run, "repeat": rep,
                             "peak_rss_mib": rss, "wall_seconds": wall})
                print(f"| {n:,} pairs ({data.stat().st_size / 1e6:,.0f} MB) | {run} | {rss:,.0f} | {wall:.1f} |",
                      flush=True)
            if args.preprocess and rep == 0:
                preprocessed(work, data, n, env, rows)
            if args.torchrun and rep == 0:
                out = work / f"run-{n}-torchrun"
                shutil.rmtree(out, ignore_errors=True)
                cmd = [sys.executable, "-m", "torch.distributed.run", "--nproc_per_node", str(args.torchrun),
                       "-m", "aiayn", "train", "--vocab", str(vocab), "--max-steps", "40", "--train", str(data),
                       "--out", str(out), "--device", "cpu"]
                proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
                samples = []
                while proc.poll() is None:
                    time.sleep(2)
                    samples = per_rank_memory(proc.pid, work / "cache") or samples
                print(f"torchrun x{args.torchrun}, {n:,} pairs, the last sample while every rank mapped the corpus:")
                for line in samples:
                    print("   ", line)
                ranks.append({"pairs": n, "processes": args.torchrun, "last_sample": samples})
        if args.repeat > 1:
            print_medians(rows)
        write_result("data_scale", {"repeats": args.repeat, "rows": rows, "torchrun": ranks, "load_average_at_end": os.getloadavg()},
                     args.results)
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
