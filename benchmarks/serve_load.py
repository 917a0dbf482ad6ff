"""`aiayn serve` under load: N concurrent clients on loopback, each sending one translate request
after another for a fixed time; requests per second, sentences per second, latency p50 / p99,
errors (must be 0), how the worker batched, and the server's peak memory.

The server is the real command, ``python -m aiayn serve --model MODEL``, in its own process (so its
memory is its own: Linux VmHWM from /proc/PID/status, the peak resident set over the whole run,
plus VmRSS after each level). The clients are asyncio tasks with httpx in this process, one
keep-alive connection each. Each client sends ``--lines`` sentences per request, taken in turn
from the built-in test split (English Bible verses; or --input FILE, one sentence per line), with
the server's decoding defaults (beam 4, alpha 0.6) unless --beam is given.

Levels run one after another (default 1, 8, 32 clients), each after --warmup seconds of the same
load whose requests are not counted. With --engines aiayn ctranslate2 one server per engine runs
(`aiayn serve --engine E`: CTranslate2 on an export made when it starts, or on --model if that is an
export), and each level is run on one engine, then the other, before the next level, so that both see
the same moment of a shared machine. An engine may name its own number format, ENGINE:DTYPE
(aiayn:bfloat16 ctranslate2:int8); without one it serves --dtype; aiayn:bfloat16:compiled serves with
--compile (its warm-up requests pay for the compiling). The same engine may appear twice with two formats. A request's latency is from sending to the full answer, so
it includes the wait in the server's queue. The worker's counters (/api/health) give the mean
lines per decoded batch: 1 when requests never overlap, more when waiting requests are merged.

Run:  python -m benchmarks.serve_load --model runs/tr-absolute [--clients 1 8 32] [--duration 30]
          [--warmup 5] [--lines 1] [--beam 4] [--threads N] [--engines aiayn ctranslate2] [--dtype int8]
      python -m benchmarks.serve_load --model runs/tiny --engines aiayn:bfloat16 ctranslate2:int8
Writes benchmarks/results/serve_load.json (or into --results DIR); exits 1 if any request failed.
"""

from __future__ import annotations

import argparse
import asyncio
import gzip
import itertools
import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from .common import ROOT, print_table, write_result


def sentences(path: str | None) -> list[str]:
    """One sentence per line of ``path``, or the English side of the built-in test split."""
    if path:
        return [line.strip() for line in Path(path).read_text(encoding="utf-8").splitlines() if line.strip()]
    from aiayn.corpus import builtin

    with gzip.open(builtin("test"), "rt", encoding="utf-8") as f:
        header = next(f).rstrip("\n").split("\t")
        column = header.index("en") if "en" in header else 1
        return [row.rstrip("\n").split("\t")[column] for row in f]


# The server -----------------------------------------------------------------------------------------
def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(model: str, port: int, threads: int | None, engine: str = "aiayn",
                 dtype: str = "float32", compiled: bool = False) -> subprocess.Popen:
    env = {**os.environ, **({"OMP_NUM_THREADS": str(threads)} if threads else {})}  # CTranslate2's threads too
    argv = [sys.executable, "-m", "aiayn", "serve", "--model", model, "--port", str(port),
            "--max-queue", "100000", "--timeout", "600", "--engine", engine, "--dtype", dtype,
            *(["--compile"] if compiled else [])]
    # stderr into a file, not a pipe: a server that logs more than a pipe holds would block on it
    log = tempfile.TemporaryFile("w+")
    proc = subprocess.Popen(argv, cwd=ROOT.parent, env=env, stdout=subprocess.DEVNULL, stderr=log, text=True)
    proc.log = log
    return proc


def server_log(proc: subprocess.Popen) -> str:
    proc.log.seek(0)
    return proc.log.read()


def wait_ready(proc: subprocess.Popen, url: str, timeout: float = 180) -> None:
    import httpx

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"aiayn serve exited with {proc.returncode}: {server_log(proc)}")
        try:
            if httpx.get(f"{url}/api/health", timeout=2).status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.2)
    raise RuntimeError(f"aiayn serve did not answer within {timeout:.0f} s")


def memory_mib(pid: int) -> dict[str, float]:
    """The process's current (VmRSS) and peak (VmHWM) resident memory, MiB."""
    out = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key = line.split(":")[0]
        if key in ("VmRSS", "VmHWM"):
            out[key] = round(int(line.split()[1]) / 1024, 1)
    return {"rss_mib": out.get("VmRSS"), "peak_rss_mib": out.get("VmHWM")}


# The clients ----------------------------------------------------------------------------------------
async def load(url: str, clients: int, seconds: float, bodies) -> dict:
    """``clients`` tasks, each posting the next body as soon as its last answer came, for ``seconds``."""
    import httpx

    latencies: list[float] = []
    errors: list[str] = []
    limits = httpx.Limits(max_connections=clients, max_keepalive_connections=clients)
    async with httpx.AsyncClient(base_url=url, timeout=600, limits=limits) as http:
        end = time.perf_counter() + seconds

        async def client() -> None:
            while time.perf_counter() < end:
                body = next(bodies)
                start = time.perf_counter()
                try:
                    r = await http.post("/api/translate", json=body)
                    if r.status_code != 200:
                        errors.append(f"{r.status_code}: {r.text[:200]}")
                        continue
                    r.json()
                except httpx.HTTPError as e:
                    errors.append(f"{type(e).__name__}: {e}")
                    continue
                latencies.append(time.perf_counter() - start)

        start = time.perf_counter()
        await asyncio.gather(*(client() for _ in range(clients)))
        elapsed = time.perf_counter() - start
    return {"latencies": latencies, "errors": errors, "elapsed": elapsed}


def percentile(xs: list[float], q: float) -> float | None:
    """Nearest-rank percentile ``q`` (0..100) of ``xs``."""
    if not xs:
        return None
    ordered = sorted(xs)
    return ordered[max(0, min(len(ordered) - 1, round(q / 100 * len(ordered) + 0.5) - 1))]


def health(url: str) -> dict:
    import httpx

    return httpx.get(f"{url}/api/health", timeout=10).json()["stats"]


def run_level(url: str, pid: int, clients: int, args, bodies) -> dict:
    asyncio.run(load(url, clients, args.warmup, bodies))  # warm-up: same load, not counted
    before = health(url)
    result = asyncio.run(load(url, clients, args.duration, bodies))
    after = health(url)
    lat, n = result["latencies"], len(result["latencies"])
    batches = after["batches"] - before["batches"]
    return {
        "clients": clients, "requests": n, "errors": len(result["errors"]), "error_samples": result["errors"][:5],
        "seconds": round(result["elapsed"], 3), "requests_per_s": n / result["elapsed"],
        "sentences_per_s": n * args.lines / result["elapsed"],
        "latency_p50_ms": 1000 * percentile(lat, 50) if lat else None,
        "latency_p99_ms": 1000 * percentile(lat, 99) if lat else None,
        "latency_max_ms": 1000 * max(lat) if lat else None,
        "batches": batches, "lines_per_batch": (after["lines"] - before["lines"]) / batches if batches else None,
        "server_memory": memory_mib(pid),
    }


def parse(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--model", required=True, help="run directory or .safetensors file of a translation model (or a "
                   "CTranslate2 export, with --engines ctranslate2)")
    p.add_argument("--clients", type=int, nargs="+", default=[1, 8, 32], help="concurrent clients per level "
                   "(default 1 8 32)")
    p.add_argument("--duration", type=float, default=30.0, help="counted seconds per level (default 30)")
    p.add_argument("--warmup", type=float, default=5.0, help="uncounted seconds of load before each level (default 5)")
    p.add_argument("--lines", type=int, default=1, help="sentences per request (default 1)")
    p.add_argument("--beam", type=int, default=None, help="beam size of every request (default: the server's, 4)")
    p.add_argument("--input", help="sentences to send, one per line (default: the built-in test split, English)")
    p.add_argument("--threads", type=int, default=None, help="the servers' threads (OMP_NUM_THREADS, which torch "
                   "and CTranslate2 both read; default: theirs)")
    p.add_argument("--engines", nargs="+", type=engine_spec, default=["aiayn"], metavar="ENGINE[:DTYPE]",
                   help="one server per entry, levels interleaved: aiayn or ctranslate2, each with its own --dtype "
                   "after a colon if given, and aiayn with :compiled after that for --compile (default aiayn)")
    p.add_argument("--dtype", default="float32", help="the servers' --dtype where an engine names none: float32, "
                   "bfloat16 (aiayn) or int8 (default float32)")
    p.add_argument("--results", default=None, help="folder for the JSON result (default benchmarks/results)")
    return p.parse_args(argv)


ENGINES = ("aiayn", "ctranslate2")


def engine_spec(text: str) -> str:
    """ENGINE, ENGINE:DTYPE or aiayn:DTYPE:compiled (``aiayn serve --compile``), checked (argparse type):
    the entry as given."""
    engine, _, rest = text.partition(":")
    dtype, _, how = rest.partition(":")
    if engine not in ENGINES:
        raise argparse.ArgumentTypeError(f"unknown engine {engine!r}: choose from {', '.join(ENGINES)}")
    if ":" in text and not dtype:
        raise argparse.ArgumentTypeError(f"{text!r}: name a dtype after the colon, or leave the colon out")
    if how and (how != "compiled" or engine != "aiayn"):
        raise argparse.ArgumentTypeError(f"{text!r}: the only third part is 'compiled', for aiayn (aiayn:bfloat16:compiled)")
    return text


def stop(proc: subprocess.Popen) -> None:
    proc.terminate()
    try:
        proc.wait(30)
    except subprocess.TimeoutExpired:
        proc.kill()


def main(argv: list[str] | None = None) -> dict:
    args = parse(argv)
    pool = sentences(args.input)
    groups = [pool[i:i + args.lines] for i in range(0, len(pool) - args.lines + 1, args.lines)]
    bodies = itertools.cycle([{"lines": g, **({"beam": args.beam} if args.beam else {})} for g in groups])
    servers = {}
    try:
        for entry in args.engines:  # all started first: each level then runs on every engine in turn
            engine, _, rest = entry.partition(":")
            dtype, _, how = rest.partition(":")
            port = free_port()
            servers[entry] = (f"http://127.0.0.1:{port}", start_server(args.model, port, args.threads, engine,
                                                                      dtype or args.dtype, how == "compiled"))
        for url, proc in servers.values():
            wait_ready(proc, url)
        levels = [{"engine": engine, **run_level(url, proc.pid, clients, args, bodies)}
                  for clients in args.clients for engine, (url, proc) in servers.items()]
        peak = {engine: memory_mib(proc.pid)["peak_rss_mib"] for engine, (_, proc) in servers.items()}
    finally:
        for _, proc in servers.values():
            stop(proc)
    payload = {"model": args.model, "engines": args.engines, "dtype": args.dtype, "server_threads": args.threads,
               "lines_per_request": args.lines, "beam": args.beam or "server default (4)", "duration_s": args.duration,
               "warmup_s": args.warmup, "sentences": "input file" if args.input else "built-in test split, English",
               "server_peak_rss_mib": peak, "levels": levels}
    rows = [{"engine": lv["engine"], "clients": lv["clients"], "requests": lv["requests"], "req/s": lv["requests_per_s"],
             "sent/s": lv["sentences_per_s"], "p50 ms": lv["latency_p50_ms"], "p99 ms": lv["latency_p99_ms"],
             "lines/batch": lv["lines_per_batch"], "errors": lv["errors"],
             "server RSS MiB": lv["server_memory"]["rss_mib"]} for lv in levels]
    print_table(rows, list(rows[0]))
    print(f"server peak RSS: {peak} MiB", file=sys.stderr)
    name = "" if args.engines == ["aiayn"] else "_" + "_".join(e.replace(":", "-") for e in args.engines)
    write_result("serve_load" + name, payload, args.results)
    if any(lv["errors"] for lv in levels):
        print("errors: " + "; ".join(e for lv in levels for e in lv["error_samples"]), file=sys.stderr)
        raise SystemExit(1)
    return payload


if __name__ == "__main__":
    main()
