"""Greedy's choice in the compiled graph or on the host, 64 sentences a batch (issue 42), in one process: ``in_graph``
is the bf16 compiled decoder with ``greedy.HEAD_ROWS = 64`` (the ``Greedy`` head decides every step in the graph, as
before 0b276cd), ``on_host`` the same with ``HEAD_ROWS = 1`` (as shipped: for more than one row the graph returns the
log-probabilities and numpy's argmax chooses). Two models with the same random weights (benchmarks.decode_throughput's
tiny model), each compiled in an untimed first pass; CTranslate2 int8 beside them; greedy, one thread, 5 rounds
interleaved; checks that both give the same tokens. From the repository root:
    python benchmarks/results/2026-12-03/greedy-head-ab/ab.py > benchmarks/results/2026-12-03/greedy-head-ab/ab.json
"""
import json
import sys

import torch

sys.path.insert(0, ".")
from aiayn.decoding import greedy  # noqa: E402
from benchmarks.common import interleave, median, median_ratio, provenance  # noqa: E402
from benchmarks.decode_throughput import N_SENTENCES, OUT_LEN, aiayn_search, make_decoder, prepare  # noqa: E402


def side(rows: int, search):
    def run():
        greedy.HEAD_ROWS = rows
        return search()
    return run


torch.set_num_threads(1)
prepare("tiny")
out = {**provenance(None), "repeats": 5, "runs": {}}
sides = {name: side(rows, aiayn_search("tiny", 1, "aiayn_bf16_compiled")[1])
         for name, rows in (("in_graph", N_SENTENCES), ("on_host", 1))}
first = {name: f() for name, f in sides.items()}  # the first compiles each side's family (untimed)
times = interleave({**sides, "ct2_int8": make_decoder("ct2_int8", "tiny", 1, 1)}, 5, 0)
row = out["runs"]["batch64_beam1"] = {
    k: {"seconds": v, "median_tokens_per_s": median([N_SENTENCES * OUT_LEN / t for t in v])} for k, v in times.items()}
row["on_host_equals_in_graph"] = first["on_host"] == first["in_graph"]
# speeds as paired ratios of times: > 1 means the first named is faster
row["on_host_over_in_graph"] = median_ratio(times["in_graph"], times["on_host"])
row["on_host_over_ct2_int8"] = median_ratio(times["ct2_int8"], times["on_host"])
row["in_graph_over_ct2_int8"] = median_ratio(times["ct2_int8"], times["in_graph"])
print({k: round(v["median_tokens_per_s"]) for k, v in row.items() if isinstance(v, dict)},
      row["on_host_over_in_graph"], row["on_host_equals_in_graph"], file=sys.stderr)
print(json.dumps(out, indent=2))
