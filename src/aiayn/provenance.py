"""Where a figure came from: the commit the code ran at, the date and the host (DESIGN.md §4, issue 46).
Every results record carries it: the benchmarks' files (``benchmarks.common.write_result``) and each run an
experiment scores (``experiments.runner.score``)."""

from __future__ import annotations

import subprocess
import time
from pathlib import Path

from .precision import host_report

CHECKOUT = Path(__file__).resolve().parents[2]  # src/aiayn/ -> the repository, when run from a checkout


def git_commit() -> dict:
    """The commit the code ran at, and whether tracked files differed from it (then the figure is not exactly
    that commit's); None for both outside a git checkout (an installed wheel)."""
    def git(*args: str) -> str | None:
        try:
            out = subprocess.run(["git", *args], cwd=CHECKOUT, capture_output=True, text=True, timeout=30)
        except (OSError, subprocess.TimeoutExpired):
            return None
        return out.stdout.strip() if out.returncode == 0 else None

    sha = git("rev-parse", "HEAD")
    changed = git("status", "--porcelain", "--untracked-files=no")
    return {"commit": sha, "uncommitted_changes": None if changed is None else bool(changed)}


def stamp() -> dict:
    """The commit, the date and the host report of a figure made now."""
    return {**git_commit(), "date": time.strftime("%Y-%m-%dT%H:%M:%S%z"), "host": host_report()}
