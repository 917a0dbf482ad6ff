"""checks/cuda_check.py's CPU mode: the checks the GPU sessions run, exercised here so that they still run there."""

from checks import cuda_check


def test_cpu_mode_runs_every_check_and_passes(capsys):
    assert cuda_check.main(["--cpu"]) == 0
    out = capsys.readouterr().out
    assert "beam 4, 2-best" in out and "greedy" in out and "FAIL" not in out


def test_a_search_that_differs_fails(monkeypatch):
    """The searches' check can fail: outputs that differ from the CPU's are caught."""
    real = cuda_check._search
    calls = []

    def skewed(model, src, beam, nbest=1):
        calls.append(1)
        out = real(model, src, beam, nbest)
        return [(tokens + [3], score) for tokens, score in out] if len(calls) % 3 == 2 else out  # the "device" run

    monkeypatch.setattr(cuda_check, "_search", skewed)
    rows = cuda_check.compare_searches("cpu")
    assert rows and not any(r["ok"] for r in rows) and all(r["identical"] == 0 for r in rows)
