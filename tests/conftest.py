"""Helpers and fixtures for the end-to-end tests: run the real `aiayn` command on corpus slices."""

from __future__ import annotations

import contextlib
import gzip
import hashlib
import os
import random
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from aiayn.corpus import builtin
from aiayn.data import music
from aiayn.io.checkpoint import read_checkpoint

MICRO = """\
preset: tiny
model: {d_model: 32, n_heads: 2, d_ff: 64, n_encoder_layers: 1, n_decoder_layers: 1, max_positions: 128}
train: {vocab_size: 300, max_tokens: 600, warmup: 20, log_every: 1, valid_every: 4, save_every: 3,
        keep_last: 10, valid_bleu_sentences: 4}
"""


def aiayn(*args: str, input: str | bytes | None = None, check: bool = True, timeout: float = 300,
          **env: str) -> subprocess.CompletedProcess:
    data = input.encode() if isinstance(input, str) else input
    proc = subprocess.run([sys.executable, "-m", "aiayn", *args], input=data, capture_output=True, timeout=timeout,
                          env={**os.environ, "PYTHONWARNINGS": "ignore", **env})
    if check and proc.returncode != 0:
        raise AssertionError(f"aiayn {' '.join(args)} failed:\n{proc.stderr.decode()}")
    return proc


def write_tsv(path: Path, rows: list[tuple[str, str]], header: str = "ref\ten\tes") -> Path:
    with gzip.open(path, "wt", encoding="utf-8") as f:
        f.write(header + "\n")
        for i, (en, es) in enumerate(rows):
            f.write(f"X.{i}\t{en}\t{es}\n")
    return path


def corpus_slice(split: str, n: int) -> list[tuple[str, str]]:
    with gzip.open(builtin(split), "rt", encoding="utf-8") as f:
        next(f)
        return [tuple(line.rstrip("\n").split("\t")[1:]) for _, line in zip(range(n), f)]


@pytest.fixture(scope="session", autouse=True)
def isolated_cache(tmp_path_factory) -> Iterator[Path]:
    """AIAYN_CACHE (binarized corpora, chorales) in a folder of this session, not ~/.cache/aiayn: shared by
    every test and the commands they run, so a cache built once is reused, and nothing outlives the tests."""
    folder = tmp_path_factory.mktemp("aiayn-cache")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("AIAYN_CACHE", str(folder))
        yield folder


@pytest.fixture(scope="session")
def data(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("data")
    write_tsv(root / "train.tsv.gz", corpus_slice("train", 400))
    write_tsv(root / "valid.tsv.gz", corpus_slice("valid", 20))
    (root / "micro.yaml").write_text(MICRO)
    return root


def train_args(data: Path, out: Path, *extra: str) -> list[str]:
    return ["train", "--train", str(data / "train.tsv.gz"), "--valid", str(data / "valid.tsv.gz"),
            "--config", str(data / "micro.yaml"), "--out", str(out), *extra]


@pytest.fixture(scope="session")
def trained(data, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("runs") / "micro"
    aiayn(*train_args(data, out, "--max-steps", "8"))
    return out


def snapshot(folder: Path) -> dict[str, str]:
    """Every file's hash, but .lock's: it holds the process id of the run's latest owner."""
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file() and p.name != ".lock"}


def scale_chorale(n_steps: int, seed: int) -> list[int]:
    """A made-up four-voice piece: voices walk a C major scale, a sixteenth at a time."""
    rng = random.Random(seed)
    scale = [60, 62, 64, 65, 67, 69, 71, 72]
    out = []
    for _ in range(n_steps):
        s = rng.choice(scale)
        out += [music.pitch_token(p) for p in (s + 12, s + 7, s, s - 12)]
    return out


def walk_chorale(n_steps: int, seed: int) -> list[int]:
    """Four voices a fifth or octave apart that mostly move together, with rests: parallels galore."""
    rng = random.Random(seed)
    s, out = 67, []
    for _ in range(n_steps):
        s = min(max(s + rng.choice([-2, -1, 0, 1, 2]), 55), 80)
        voices = [s, s - rng.choice([5, 7, 12]), s - 12 - rng.choice([0, 5, 7]), s - 24 + rng.choice([0, 1, 7])]
        out += [music.REST if rng.random() < 0.05 else music.pitch_token(p) for p in voices]
    return out


@pytest.fixture(scope="session")
def chorale_cache(tmp_path_factory) -> Path:
    """An AIAYN_CACHE holding a chorale cache in music.load_chorales' format: made-up pieces named so that
    every split gets some (no test parses music21's corpus, which takes ~40 s)."""
    import music21

    names = {split: [] for split in music.SPLITS}
    n = 0
    while min(map(len, names.values())) < 3:
        name = f"bwv{1000 + n}.mxl"
        if len(names[music.split_of(name)]) < 8:
            names[music.split_of(name)].append(name)
        n += 1
    kept = {name: scale_chorale(70, i) for i, name in enumerate(sorted(sum(names.values(), [])))}
    folder = tmp_path_factory.mktemp("chorale-cache")
    music._write_cache(folder / "chorales", kept, {}, [], music21.__version__, 0.0)
    return folder


@contextlib.contextmanager
def small_tmpfs(where: Path, size: str):
    """A tmpfs of ``size`` mounted at ``where`` (created), for filling a disk; unmounted afterwards.
    Mounting needs root: elsewhere the test is skipped, but where AIAYN_REQUIRE_TMPFS=1 (CI, as root)
    a failed mount fails the test, so the disk-full tests cannot be skipped there unseen."""
    where.mkdir()
    try:
        proc = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(where)],
                              capture_output=True, text=True)
        reason = (proc.stderr.strip() or f"mount exited {proc.returncode}") if proc.returncode else None
    except FileNotFoundError:
        reason = "no mount command"
    if reason:
        message = f"cannot mount a small tmpfs to fill ({reason}); the disk-full tests need root"
        if os.environ.get("AIAYN_REQUIRE_TMPFS") == "1":
            pytest.fail(message)
        pytest.skip(message)
    try:
        yield where
    finally:
        subprocess.run(["umount", str(where)], check=False)


class Disk:
    """A mounted tmpfs at ``path``; ``fill(leave)`` leaves ``leave`` bytes free, ``free()`` undoes it."""

    def __init__(self, path: Path):
        self.path = path
        self.filler = path / "filler"

    def fill(self, leave: int) -> None:
        st = os.statvfs(self.path)
        fd = os.open(self.filler, os.O_CREAT | os.O_WRONLY)
        try:
            os.posix_fallocate(fd, 0, st.f_bavail * st.f_frsize - leave)  # tmpfs allocates it: really used
        finally:
            os.close(fd)

    def free(self) -> None:
        self.filler.unlink()


def assert_no_partial_files(folder: Path) -> None:
    """No temporary file left behind, and every weights file under ``folder`` loads whole."""
    leftovers = [p for p in folder.rglob("*") if p.name.endswith(".tmp")]
    assert not leftovers, leftovers
    for path in folder.rglob("*.safetensors"):
        read_checkpoint(path)
