"""aiayn.allocator: freed blocks stay in the process, so a repeated step stops faulting its pages back in."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from aiayn.allocator import keep_freed_memory

# One "step" as a training step makes it: many 2 MB activations alive at once (20 MB) and one 64 MB block (as
# float32 log-probabilities are), all freed at its end.
STEP = """
import resource, sys, torch
from aiayn.allocator import keep_freed_memory
applied = keep_freed_memory() if sys.argv[1] == "keep" else None
def step():
    activations = [torch.randn(64, 32, 256) for _ in range(10)] + [torch.randn(2048, 8000)]
    return sum(a.sum() for a in activations)
for _ in range(30):
    step()
before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
for _ in range(20):
    step()
print(applied, (resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before) / 20)
"""

glibc_linux = pytest.mark.skipif(not sys.platform.startswith("linux") or os.confstr("CS_GNU_LIBC_VERSION") is None,
                                 reason="glibc's mallopt only")


def faults_per_step(mode: str) -> tuple[str, float]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("MALLOC_", "GLIBC_TUNABLES"))}
    out = subprocess.run([sys.executable, "-c", STEP, mode], capture_output=True, text=True, check=True,
                         env={**env, "OMP_NUM_THREADS": "1"}).stdout.split()
    return out[0], float(out[1])


@glibc_linux
def test_a_repeated_step_stops_faulting_its_pages_in():
    applied, kept = faults_per_step("keep")
    assert applied == "True"
    assert kept < 50, kept  # 84 MB of fresh pages would be ~21,000 faults a step
    _, plain = faults_per_step("plain")
    assert plain > 10 * kept + 10_000, (plain, kept)  # glibc's own thresholds unmap and trim them each time


@glibc_linux
def test_the_users_own_malloc_settings_win(monkeypatch):
    monkeypatch.setenv("GLIBC_TUNABLES", "glibc.malloc.trim_threshold=0")
    assert keep_freed_memory() is False
