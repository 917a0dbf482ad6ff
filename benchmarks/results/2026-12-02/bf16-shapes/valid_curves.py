"""The validation events of `aiayn experiment bf16_shapes`'s two runs (their log.jsonl, which stays out of git with
the runs), kept as a record: python benchmarks/results/2026-12-02/bf16-shapes/valid_curves.py"""
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[4]))
from benchmarks.common import write_result  # noqa: E402

RUNS = Path("runs/experiments/bf16_shapes")
payload = {"runs": {}}
for run in ("tiny-bf16", "tiny-bf16-exact"):
    events = [json.loads(line) for line in (RUNS / run / "log.jsonl").read_text().splitlines()]
    config = json.loads((RUNS / run / "config.json").read_text())
    payload["runs"][run] = {
        "length_multiple": config["data"]["length_multiple"], "precision": next(e["precision"] for e in events if e["event"] == "train"),
        "valid": {str(e["step"]): {k: e[k] for k in ("valid_loss", "valid_nll", "valid_ppl", "valid_bleu")}
                  for e in events if e["event"] == "valid"},
        "train_tgt_tok_s_last": next(e["tgt_tok_s"] for e in reversed(events) if e["event"] == "train")}
write_result("bf16_shapes_valid_curves", payload, path=Path(__file__).with_name("valid_curves.json"))
