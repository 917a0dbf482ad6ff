"""Atomic writes, for every file and folder aiayn writes (checkpoints, PNG and MIDI files, hypotheses,
exports), and the one-line errors of a full disk.

A file is written to a temporary name in the same folder and renamed over the target, so a crash, a
kill or a full disk leaves either the old file or the new one, never half of one. The temporary name
carries the writer's process id, so a later run can tell a kill's leftovers from a live write.
``atomic_path`` (one file) and ``atomic_folder`` (a folder, e.g. an export) are where every writer
goes through, so a full disk is one ``DiskFull`` line naming the path, wherever it happens: an
``OSError`` ENOSPC/EDQUOT, and the same error wrapped by libraries that do not raise ``OSError``
(safetensors' ``SafetensorError``, C++ runtimes' ``RuntimeError``).
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

from ..errors import UsageError, UserError

_TEMP = re.compile(r"\.(\d+)\.[^.]+\.tmp$")  # .NAME.PID.RANDOM.tmp, as atomic_path names them


class WriteError(UserError):
    """A file or folder that cannot be written: no space, no permission, no such folder."""


class DiskFull(WriteError):
    """A write that found no space left (a full disk, or the user's quota); the message names the path."""


_NO_SPACE_ERRNOS = {errno.ENOSPC, errno.EDQUOT}
_NO_SPACE_TEXT = (os.strerror(errno.ENOSPC), os.strerror(errno.EDQUOT), "os error 28", "os error 122")


def is_disk_full(exc: BaseException) -> bool:
    """Whether ``exc`` means "no space left": an OSError ENOSPC/EDQUOT, or a library's own exception
    whose text says so (safetensors: "I/O error: No space left on device (os error 28)")."""
    if isinstance(exc, OSError) and exc.errno is not None:
        return exc.errno in _NO_SPACE_ERRNOS
    return any(text in str(exc) for text in _NO_SPACE_TEXT)


def disk_full(path: Path, kept: str) -> DiskFull:
    """The one-line error for a write to ``path`` that ran out of space; ``kept``: what is still there."""
    try:
        free = f"{shutil.disk_usage(path.parent).free / 1e6:.1f} MB free"
    except OSError:
        free = "no free space"
    return DiskFull(f"cannot write {path}: no space left on the device ({free} in {path.parent}); {kept}; "
                    "free some space or write elsewhere, then run again")


def _write_failed(path: Path, exc: BaseException, kept: str) -> WriteError | None:
    """The UserError for a failed write of ``path``, or None when ``exc`` is not the disk's or the
    folder's fault (a bug, which keeps its traceback)."""
    if is_disk_full(exc):
        return disk_full(path, kept)
    if isinstance(exc, OSError):
        return WriteError(f"cannot write {path}: {exc.strerror or exc} ({kept}); free space or fix "
                               "permissions, then run again")
    return None


def check_writable(path: Path, option: str) -> None:
    """Fails now, before any decoding, if ``path`` could not be written later (``option`` names the fix)."""
    path, folder = Path(path), Path(path).parent
    if path.is_dir():
        raise UsageError(f"cannot write {path}: it is a folder; remove it or choose another {option}")
    if not folder.is_dir():
        raise UsageError(f"cannot write {path}: folder {folder} does not exist; create it or choose another {option}")
    try:
        tempfile.TemporaryFile(dir=folder).close()
    except OSError as e:
        raise UsageError(f"cannot write {path}: {e.strerror or e}; choose another {option}") from None


@contextlib.contextmanager
def atomic_path(path: Path) -> Iterator[Path]:
    """A temporary name beside ``path`` to write; renamed over ``path`` on success, removed on failure.

    A write that fails for want of space (``DiskFull``) or another OSError (no permission) is a
    WriteError that names ``path`` and says whether the old file is intact.
    """
    path = Path(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.{os.getpid()}.", suffix=".tmp")
        os.close(fd)
    except OSError as e:
        if is_disk_full(e):
            raise disk_full(path, "nothing was written") from None
        raise WriteError(f"cannot write {path}: {e.strerror or e}; check the folder's space and "
                              "permissions") from None
    try:
        yield Path(tmp)
        with open(tmp, "rb") as f:
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except Exception as e:
        error = _write_failed(path, e, "the previous one is intact" if path.exists() else "nothing was written")
        if error is None:
            raise
        raise error from None
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


@contextlib.contextmanager
def atomic_folder(path: Path) -> Iterator[Path]:
    """A fresh folder to fill, beside ``path``; renamed to ``path`` when the block succeeds and removed
    if it fails, so ``path`` is never half-written. ``path`` must not exist, or be an empty folder
    (it is replaced). Failures for want of space or permission are WriteErrors naming ``path``."""
    path = Path(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(dir=path.parent, prefix=f".{path.name}.{os.getpid()}.", suffix=".tmp"))
    except OSError as e:
        if is_disk_full(e):
            raise disk_full(path, "nothing was written") from None
        raise WriteError(f"cannot write {path}: {e.strerror or e}; choose another place") from None
    try:
        yield tmp / "out"
        if path.exists():
            path.rmdir()
        (tmp / "out").rename(path)
    except Exception as e:
        error = _write_failed(path, e, "nothing was written")
        if error is None:
            raise
        raise error from None
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def remove_stale_temp_files(folder: Path) -> int:
    """Deletes temporary files that killed writers left in ``folder``; returns the bytes freed.

    A file whose name carries the id of another live process is that process's write in progress
    and is kept; any other ``*.tmp`` (an older naming, a dead writer) is a leftover.
    """
    freed = 0
    for tmp in Path(folder).glob("*.tmp"):
        match = _TEMP.search(tmp.name)
        if match and int(match[1]) != os.getpid() and _alive(int(match[1])):
            continue
        with contextlib.suppress(FileNotFoundError):
            freed += tmp.stat().st_size
            tmp.unlink()
    return freed


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process
        return True
    return True
