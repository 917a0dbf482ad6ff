"""Results files carry their provenance and a rerun never overwrites the record a page quotes (DESIGN.md §4,
issue 46): ``benchmarks.common.write_result`` writes a new file each time."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from benchmarks import common
from benchmarks.common import latest_record, record_path, write_result


def test_a_rerun_writes_a_new_record_and_keeps_the_quoted_one(tmp_path):
    first = write_result("speed", {"tokens_per_s": 100.0}, tmp_path, seeds=[1])
    quoted = first.read_bytes()
    second = write_result("speed", {"tokens_per_s": 90.0}, tmp_path, seeds=[1])
    assert first == tmp_path / "speed.json" and second == tmp_path / "speed-2.json"
    assert first.read_bytes() == quoted  # the figure a page quotes is still there, as it was
    assert json.loads(second.read_text())["tokens_per_s"] == 90.0
    assert record_path("speed", tmp_path) == tmp_path / "speed-3.json"


def test_a_record_says_where_its_figures_came_from(tmp_path, monkeypatch):
    monkeypatch.setattr(common, "GIVEN", {})  # as if run with none of the settings below
    record = json.loads(write_result("speed", {"x": 1}, tmp_path, seeds=[1, 2]).read_text())
    for field in ("command", "commit", "uncommitted_changes", "date", "host", "threads", "device", "seeds", "machine"):
        assert field in record, field
    assert record["seeds"] == [1, 2]
    assert {"cpu", "instructions", "torch_threads", "torch"} <= set(record["host"])  # aiayn.precision.host_report
    assert record["command"].startswith("python -m ")


def test_the_command_names_the_settings_it_was_given(tmp_path):
    """Thread counts and kernel-cache sizes change a measurement: the recorded command carries those the user set,
    not those aiayn sets for itself later in the process (bf16 decoding's cache sizes)."""
    script = ("import os, sys; from benchmarks.common import write_result; os.environ['LRU_CACHE_CAPACITY'] = '32'; "
              f"write_result('speed', {{}}, {str(tmp_path)!r})")
    env = {k: v for k, v in os.environ.items() if k not in common.SETTINGS} | {"ONEDNN_PRIMITIVE_CACHE_CAPACITY": "1024"}
    subprocess.run([sys.executable, "-c", script], env=env, check=True, cwd=common.ROOT.parent, capture_output=True)
    record = json.loads((tmp_path / "speed.json").read_text())
    assert record["command"].startswith("ONEDNN_PRIMITIVE_CACHE_CAPACITY=1024 python -m ")
    assert "LRU_CACHE_CAPACITY" not in record["command"]


def test_the_latest_record_is_found_by_its_date(tmp_path):
    (tmp_path / "speed.json").write_text(json.dumps({"date": "2026-11-22T10:00:00+0000"}))
    (tmp_path / "2026-11-27").mkdir()
    (tmp_path / "2026-11-27" / "speed.json").write_text(json.dumps({"date": "2026-11-27T10:00:00+0000"}))
    (tmp_path / "2026-11-27" / "speed-2.json").write_text(json.dumps({"date": "2026-11-27T11:00:00+0000"}))
    assert latest_record("speed", tmp_path) == tmp_path / "2026-11-27" / "speed-2.json"
    assert latest_record("other", tmp_path) is None
