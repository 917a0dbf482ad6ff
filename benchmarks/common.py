"""What every benchmark shares: the machine's description, A B A B interleaved timing, medians and
ratios, JSON results, and peak resident memory measured one system per subprocess.

Not a benchmark itself. Two measurements per comparison:
  * timing: all systems in ONE process, called A B A B ... after warm-up (``interleave``), so
    that a slow patch of the machine (another job, thermal drift) hits every system alike;
    report medians and the median of the per-round ratios.
  * peak memory: each system ALONE in its own subprocess (``peak_rss_of``), because one
    process's high-water mark mixes every system it ever ran. The child's peak comes from
    ``os.wait4`` (Linux ``ru_maxrss`` of exactly that child, in KiB).

Nothing here downloads anything: HF_HUB_OFFLINE / TRANSFORMERS_OFFLINE are set before any
benchmark can import ``transformers``.
"""

from __future__ import annotations

import json
import os
import platform
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")  # peer models are built from configs, never downloaded
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

ROOT = Path(__file__).resolve().parent
RESULTS = ROOT / "results"
CACHE = ROOT / ".cache"  # generated files (tokenizer, saved random peer models); git-ignored


# Machine -----------------------------------------------------------------------------------------
def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def cpu_flags() -> list[str]:
    """The SIMD features that decide the fp32 / bf16 ceilings (AVX2, AVX-512, AMX ...)."""
    wanted = {"avx2", "fma", "avx512f", "avx512_bf16", "avx512_vnni", "amx_bf16", "amx_tile", "avx_vnni"}
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("flags"):
                return sorted(wanted & set(line.split(":", 1)[1].split()))
    except OSError:
        pass
    return []


# taken when a benchmark imports this module (its start): machine() runs when the record is written, at the end
LOAD_AT_START = os.getloadavg() if hasattr(os, "getloadavg") else None


def machine() -> dict:
    """Everything needed to read an absolute figure: CPU, cores, threads, library versions."""
    import torch

    info = {
        "cpu": cpu_model(),
        "cpu_flags": cpu_flags(),
        "logical_cpus": os.cpu_count(),
        "usable_cpus": len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count(),
        "torch_threads": torch.get_num_threads(),
        "python": platform.python_version(),
        "torch": torch.__version__,
        "platform": platform.platform(),
        "load_average_at_start": LOAD_AT_START,
    }
    try:
        import psutil

        info["memory_gib"] = round(psutil.virtual_memory().total / 2**30, 1)
    except ImportError:
        info["memory_gib"] = None
    for name in ("transformers", "ctranslate2"):
        try:
            info[name] = __import__(name).__version__
        except ImportError:
            info[name] = None
    return info


# Timing --------------------------------------------------------------------------------------------
def interleave(fns: dict[str, Callable[[], object]], repeats: int, warmup: int = 1) -> dict[str, list[float]]:
    """Calls every system ``warmup`` times (untimed), then ``repeats`` rounds of A B A B ...;
    returns each system's list of wall-clock seconds, one per round. The order within a round
    alternates (A B, then B A) so neither system always runs right after the other."""
    names = list(fns)
    for _ in range(warmup):
        for name in names:
            fns[name]()
    times: dict[str, list[float]] = {name: [] for name in names}
    for r in range(repeats):
        for name in names if r % 2 == 0 else names[::-1]:
            start = time.perf_counter()
            fns[name]()
            times[name].append(time.perf_counter() - start)
    return times


def us_per_call(f: Callable[[], object], calls: int, rounds: int = 7, warmup: int = 5) -> float:
    """Median over ``rounds`` runs of ``calls`` calls of ``f`` (after ``warmup`` untimed), microseconds a call: for
    kernels, too short to time one call at a time."""
    for _ in range(warmup):
        f()
    runs = []
    for _ in range(rounds):
        start = time.perf_counter()
        for _ in range(calls):
            f()
        runs.append((time.perf_counter() - start) / calls * 1e6)
    return statistics.median(runs)


def median(xs: list[float]) -> float:
    return statistics.median(xs)


def median_ratio(a: list[float], b: list[float]) -> float:
    """Median over rounds of a[i] / b[i]: paired, so a round that was slow for both cancels."""
    return statistics.median(x / y for x, y in zip(a, b, strict=True))


# Peak memory --------------------------------------------------------------------------------------
def own_peak_rss_mib() -> float:
    """This process's peak resident set in MiB: Linux VmHWM (the high-water mark of this process's
    own address space). Not ``ru_maxrss``: on Linux that survives fork + exec, so a child started
    from a big parent would report the parent's size."""
    try:
        for line in open("/proc/self/status"):
            if line.startswith("VmHWM:"):
                return round(int(line.split()[1]) / 1024, 1)
    except OSError:
        pass
    import resource

    kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return round((kib if sys.platform.startswith("linux") else kib / 1024) / 1024, 1)  # macOS: bytes


def peak_rss_of(argv: list[str]) -> dict:
    """Runs ``python -m <argv>`` alone; returns the JSON object it printed last on stdout, which
    must include ``peak_rss_mib`` (``own_peak_rss_mib()`` at its end). The child does the whole
    measurement of one system, so the figure is that system's alone (plus Python and torch)."""
    proc = subprocess.run([sys.executable, "-m", *argv], cwd=ROOT.parent, stdout=subprocess.PIPE, text=True)
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(argv)} exited with {proc.returncode}")
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("{")]
    return json.loads(lines[-1]) if lines else {}


# Results --------------------------------------------------------------------------------------------
def record_path(name: str, results_dir: str | Path | None = None, suffix: str = ".json") -> Path:
    """Where a new record goes: ``results/<today>/<name>.json`` (or ``<results_dir>/<name>.json``), and
    ``<name>-2.json``, ``-3`` ... when that is taken. An earlier record is never replaced: a page quotes a
    file, and a rerun must not change the figure under it (DESIGN.md §4)."""
    directory = Path(results_dir) if results_dir else RESULTS / time.strftime("%Y-%m-%d")
    path, n = directory / f"{name}{suffix}", 2
    while path.exists():
        path, n = directory / f"{name}-{n}{suffix}", n + 1
    return path


def latest_record(name: str, results_dir: str | Path | None = None) -> Path | None:
    """The newest record of ``name`` (by its "date" field) among ``results/<name>.json`` and the dated
    folders' ``<name>.json`` / ``<name>-N.json``; None if there is none."""
    root = Path(results_dir) if results_dir else RESULTS
    found = [root / f"{name}.json", *root.glob(f"*/{name}.json"), *root.glob(f"*/{name}-[0-9]*.json"),
             *root.glob(f"{name}-[0-9]*.json")]
    found = [f for f in found if f.is_file()]
    return max(found, key=lambda f: (json.loads(f.read_text()).get("date", ""), str(f))) if found else None


def provenance(seeds: object = None) -> dict:
    """What a results file says about where its figures came from: the command, the commit, the date, the
    host report (``aiayn.precision.host_report``: CPU model and instructions, threads, torch), the peers'
    versions and the seeds (``None``: the benchmark's own fixed seeds, in its code)."""
    import torch

    from aiayn.provenance import stamp

    return {"command": " ".join([*_settings(), "python -m", _module_name(), *sys.argv[1:]]), **stamp(),
            "threads": torch.get_num_threads(),
            "device": "cuda: " + torch.cuda.get_device_name() if torch.cuda.is_available() else "cpu",
            "seeds": seeds, "machine": machine()}


def write_result(name: str, payload: dict, results_dir: str | Path | None = None, *, seeds: object = None,
                 path: str | Path | None = None) -> Path:
    """Writes a new record (``record_path``, or ``path`` chosen by the caller) with its provenance, and
    returns its path. It never overwrites: a taken path is an error, so a quoted figure stays as quoted."""
    path = Path(path) if path else record_path(name, results_dir)
    path.parent.mkdir(parents=True, exist_ok=True)
    record = {"benchmark": name, **provenance(seeds), **payload}
    with open(path, "x", encoding="utf-8") as f:  # "x": fails if the file exists
        f.write(json.dumps(record, indent=2) + "\n")
    print(f"wrote {path} (earlier records are kept; a page quotes the one it names)", file=sys.stderr)
    return path


# the environment variables that change a measurement: threads, and PyTorch's and oneDNN's kernel caches
SETTINGS = ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "LRU_CACHE_CAPACITY", "ONEDNN_PRIMITIVE_CACHE_CAPACITY",
            "DNNL_PRIMITIVE_CACHE_CAPACITY", "ONEDNN_MAX_CPU_ISA", "DNNL_MAX_CPU_ISA")


# as the command was given: aiayn sets the cache sizes for bf16 decoding later, unless the user did
GIVEN = {name: os.environ[name] for name in SETTINGS if name in os.environ}


def _settings() -> list[str]:
    """``NAME=value`` for each of ``SETTINGS`` the command was given, so the recorded command repeats the run."""
    return [f"{name}={value}" for name, value in GIVEN.items()]


def _module_name() -> str:
    main = sys.modules.get("__main__")
    spec = getattr(main, "__spec__", None)
    return spec.name if spec and spec.name else Path(sys.argv[0]).stem


def add_common_args(parser) -> None:
    parser.add_argument("--results", default=None,
                        help=f"folder for the JSON result (default {RESULTS}/<today>; never overwrites)")
    parser.add_argument("--threads", type=int, default=None, help="torch / CTranslate2 threads (default: torch's)")
    parser.add_argument("--no-memory", action="store_true", help="skip the per-system subprocess peak-RSS runs")


def set_threads(n: int | None) -> int:
    """The process as `aiayn` runs it: n torch threads (None: torch's), freed memory kept (aiayn.allocator)."""
    import torch

    from aiayn.allocator import keep_freed_memory

    keep_freed_memory()
    if n:
        torch.set_num_threads(n)
    return torch.get_num_threads()


def load_ceilings(results_dir: str | Path | None = None) -> dict | None:
    """The ceilings measured by ``benchmarks.ceilings`` (if it has run), for fractions of the limit."""
    path = latest_record("ceilings", results_dir)
    return json.loads(path.read_text()) if path else None


def print_table(rows: list[dict], columns: list[str]) -> None:
    """A plain fixed-width table on stderr (stdout is kept for the JSON a child prints)."""
    widths = {c: max(len(c), *(len(_fmt(r.get(c))) for r in rows)) for c in columns}
    print("  ".join(c.ljust(widths[c]) for c in columns), file=sys.stderr)
    for r in rows:
        print("  ".join(_fmt(r.get(c)).ljust(widths[c]) for c in columns), file=sys.stderr)


def _fmt(v) -> str:
    if isinstance(v, float):
        return f"{v:.4g}"
    return "" if v is None else str(v)
