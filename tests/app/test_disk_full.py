"""A full disk during any write (issue 18), through the real command line on a small tmpfs.

Each test fills the tmpfs (``posix_fallocate``) until only a given number of bytes are free, runs a
command that writes there, and checks the three promises: one line ``error: cannot write PATH: no
space left on the device ...`` (no traceback), no partial file under a real name (nor a temporary
one left behind), and what was there before is intact and loadable. Mounting needs root (as here
and in CI); where the mount is refused, the tests skip and say why.
"""

from __future__ import annotations

import errno
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import Disk, aiayn, assert_no_partial_files, small_tmpfs, snapshot, train_args
from test_generate import music_run  # noqa: F401 (a fixture, used by name)

from aiayn.data import music
from aiayn.io.checkpoint import DiskFull, atomic_folder, atomic_path, is_disk_full, read_header

SIZE = "8m"  # room for a copy of the micro run (about 1.2 MB) and an export of it


@pytest.fixture
def disk(tmp_path) -> Disk:
    with small_tmpfs(tmp_path / "disk", SIZE) as mount:
        yield Disk(mount)


def assert_disk_full(proc: subprocess.CompletedProcess, path: str | Path) -> str:
    """Exit 1 and one error line naming ``path`` (a regular expression) and the lack of space; returns it."""
    err = proc.stderr.decode()
    assert proc.returncode == 1 and "Traceback" not in err, err
    lines = [line for line in err.splitlines() if line.startswith("error:")]
    assert len(lines) == 1, err
    assert re.match(rf"error: cannot write {path}: no space left on the device \(", lines[0]), lines[0]
    assert "free some space or write elsewhere" in lines[0]
    return lines[0]


def copy_run(trained: Path, disk: Disk) -> Path:
    run = disk.path / "run"
    shutil.copytree(trained, run, ignore=shutil.ignore_patterns(".lock", "hyp.*", "average-*"))
    return run


# Training: the best model, a step checkpoint, the training state ---------------------------------------
def test_train_best_model(data, disk):
    """A new run's first weights file is its best model (the last step validates before it saves)."""
    run = disk.path / "run"
    disk.fill(leave=64_000)  # the vocabulary, config and log fit; a 128 kB weights file does not
    proc = aiayn(*train_args(data, run, "--max-steps", "1"), check=False)
    assert "nothing was written" in assert_disk_full(proc, re.escape(str(run / "best.safetensors")))
    assert not (run / "best.safetensors").exists() and not (run / "state.safetensors").exists()
    assert_no_partial_files(run)


@pytest.mark.parametrize("leave", [0, 2_000], ids=["no-space", "2kB"])
def test_train_on_an_almost_full_disk(data, disk, leave):
    """The first writes of a new run (the lock's owner, the vocabulary) fail in one line too."""
    run = disk.path / "run"
    disk.fill(leave)
    proc = aiayn(*train_args(data, run, "--max-steps", "1"), check=False)
    err = proc.stderr.decode()
    lines = [line for line in err.splitlines() if line.startswith("error:")]
    assert proc.returncode == 1 and "Traceback" not in err and len(lines) == 1, err
    assert re.match(rf"error: cannot (write|create run directory) {re.escape(str(run))}", lines[0]), lines[0]
    assert "no space left" in lines[0].lower(), lines[0]
    assert_no_partial_files(run) if run.exists() else None


@pytest.mark.parametrize("leave,fails", [
    (16_000, r"(best|checkpoints/step-00000009)\.safetensors"),  # best when step 9 validates better
    (300_000, r"state\.safetensors"),  # both 128 kB weights files fit, not a second 390 kB state
], ids=["checkpoint", "state"])
def test_train_resume(trained, data, disk, leave, fails):
    run = copy_run(trained, disk)
    before = snapshot(run)
    disk.fill(leave)
    proc = aiayn(*train_args(data, run, "--max-steps", "9", "--resume"), check=False)
    assert_disk_full(proc, re.escape(str(run)) + "/" + fails)
    assert_no_partial_files(run)
    after = snapshot(run)
    assert after["state.safetensors"] == before["state.safetensors"]  # the state of step 8, whole
    assert read_header(run / "state.safetensors")[1]["step"] == 8
    for name in [n for n in before if n.endswith(".safetensors")]:  # step 8's weights: all there (best may
        assert name in after and (after[name] == before[name] or name == "best.safetensors"), name  # be better)
    disk.free()
    aiayn(*train_args(data, run, "--max-steps", "9", "--resume"))  # with space again, it goes on
    assert read_header(run / "state.safetensors")[1]["step"] == 9


# Averaging, export, evaluation --------------------------------------------------------------------------
def test_average_keeps_the_previous_average(trained, disk):
    run = copy_run(trained, disk)
    aiayn("average", "--model", str(run), "--last", "2")
    average = run / "average-last-2.safetensors"
    old = average.read_bytes()
    disk.fill(leave=16_000)
    proc = aiayn("average", "--model", str(run), "--last", "2", check=False)
    assert "the previous one is intact" in assert_disk_full(proc, re.escape(str(average)))
    assert average.read_bytes() == old
    assert_no_partial_files(run)


@pytest.mark.parametrize("target", ["hf", "ctranslate2"])
def test_export(trained, disk, target):
    pytest.importorskip("transformers" if target == "hf" else "ctranslate2")
    out = disk.path / "export"
    disk.fill(leave=64_000)
    proc = aiayn("export", "--model", str(trained), "--to", target, "--out", str(out), check=False)
    assert_disk_full(proc, re.escape(str(out)))
    assert sorted(p.name for p in disk.path.iterdir()) == ["filler"]  # no export, no temporary folder
    disk.free()
    aiayn("export", "--model", str(trained), "--to", target, "--out", str(out))  # the same command, with space
    assert (out / "aiayn.json").is_file()


def test_evaluate_keeps_the_previous_hypotheses(trained, data, disk):
    run = copy_run(trained, disk)
    hyps = run / "hyp.valid.beam1.es"
    hyps.write_text("the hypotheses of an earlier evaluation\n")
    disk.fill(leave=0)
    proc = aiayn("evaluate", "--model", str(run), "--test", str(data / "valid.tsv.gz"), "--beam", "1",
                 "--max-len-b", "8", check=False)
    assert "the previous one is intact" in assert_disk_full(proc, re.escape(str(hyps)))
    assert hyps.read_text() == "the hypotheses of an earlier evaluation\n"
    assert_no_partial_files(run)


# Generation: a MIDI file and its piano roll per sample ----------------------------------------------------
@pytest.mark.parametrize("leave", [0, 12_000], ids=["midi", "png"])  # a MIDI file is ~1 kB, a piano roll ~40 kB
def test_generate(music_run, disk, leave):  # noqa: F811 (the fixture imported above)
    out = disk.path / "gen"
    out.mkdir()
    disk.fill(leave)
    proc = aiayn("generate", "--model", str(music_run), "--samples", "1", "--length", "24", "--seed", "5",
                 "--out", str(out), check=False)
    assert_disk_full(proc, re.escape(str(out / "sample-seed5-1.")) + "(mid|png)")
    assert_no_partial_files(out)
    for path in out.iterdir():  # what is there is whole
        assert path.suffix == ".mid" and music.read_primer(path), path


# Without a mount: what counts as a full disk, and a bug stays a bug -------------------------------------------
def test_what_counts_as_a_full_disk():
    from safetensors import SafetensorError

    assert is_disk_full(OSError(errno.ENOSPC, "No space left on device"))
    assert is_disk_full(OSError(errno.EDQUOT, "Disk quota exceeded"))
    assert is_disk_full(SafetensorError("Error while serializing: I/O error: No space left on device (os error 28)"))
    assert not is_disk_full(OSError(errno.EACCES, "Permission denied"))
    assert not is_disk_full(RuntimeError("index out of range"))


@pytest.mark.parametrize("raised,caught", [
    (OSError(errno.ENOSPC, "No space left on device"), DiskFull),  # without a file name, as CTranslate2's
    (RuntimeError("I/O error: No space left on device (os error 28)"), DiskFull),  # a library's own type
    (RuntimeError("a bug in the writer"), RuntimeError),  # not the disk's fault: raised as it is
])
def test_atomic_writers_translate_a_full_disk_only(tmp_path, raised, caught):
    old = tmp_path / "old.bin"
    old.write_bytes(b"before")

    def write(path: Path) -> None:
        path.write_bytes(b"half")
        raise raised

    with pytest.raises(caught) as e:
        with atomic_path(old) as tmp:
            write(tmp)
    assert old.read_bytes() == b"before" and sorted(p.name for p in tmp_path.iterdir()) == ["old.bin"]
    if caught is DiskFull:
        assert str(e.value).startswith(f"cannot write {old}: no space left on the device (")
        assert "the previous one is intact" in str(e.value)
    with pytest.raises(caught):
        with atomic_folder(tmp_path / "export") as folder:
            folder.mkdir()
            write(folder / "model.bin")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["old.bin"]  # no export, no temporary folder
