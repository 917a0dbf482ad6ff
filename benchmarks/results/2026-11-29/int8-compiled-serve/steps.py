"""Why did the int8 compiled server lose to the bf16 one on the distilled student (issue 42)? The student has one
decoder layer, so its one-row step is mostly the 256 x 8,000 output projection, where the int8 kernel was thought
slower. This times the decoder alone: a random student model (``--preset student``'s shape, seed 0) in
``--dtype bfloat16 --compile`` and ``--dtype int8 --compile``, greedy over decode_throughput's 64 sources with 50
forced tokens, one sentence at a time and four a batch, one thread; each family compiled in an untimed first call,
then 5 rounds interleaved. Run from the repository root:
    python benchmarks/results/2026-11-29/int8-compiled-serve/steps.py > benchmarks/results/2026-11-29/int8-compiled-serve/steps.json
"""
import json
import sys

import torch

sys.path.insert(0, ".")
from aiayn import Transformer, TransformerConfig, greedy_search  # noqa: E402
from aiayn.model.compiled import compile_decoding  # noqa: E402
from aiayn.precision import bf16_decoding_model, int8_model  # noqa: E402
from benchmarks.common import interleave, median, median_ratio, provenance  # noqa: E402
from benchmarks.decode_throughput import N_SENTENCES, OUT_LEN, cache_dir, chunks, prepare  # noqa: E402


def model(kind: str):
    torch.manual_seed(0)
    m = Transformer(TransformerConfig.preset("student", src_vocab_size=8000)).eval()
    return compile_decoding(bf16_decoding_model(m) if kind == "bf16" else int8_model(m))


def searcher(m, batch: int):
    ids = json.loads((cache_dir("tiny") / "sources.json").read_text())["ids"]  # the tiny benchmark's sources
    sources = [torch.tensor(rows) for rows in chunks(ids, batch)]
    return lambda: [h.tokens for src in sources for h in greedy_search(m, src, max_len_a=0, max_len_b=OUT_LEN,
                                                                         min_len=OUT_LEN - 1)]


torch.set_num_threads(1)
prepare("tiny")
models = {kind: model(kind) for kind in ("bf16", "int8")}
out = {**provenance(None), "repeats": 5, "runs": {}}
for batch in (1, 4):
    searches = {kind: searcher(m, batch) for kind, m in models.items()}
    for s in searches.values():
        s()  # compiles this family of shapes (untimed)
    times = interleave(searches, 5, 0)
    out["runs"][f"batch{batch}_greedy"] = {
        **{k: {"seconds": v, "median_tokens_per_s": median([N_SENTENCES * OUT_LEN / t for t in v])} for k, v in times.items()},
        "int8_over_bf16": median_ratio(times["bf16"], times["int8"])}  # > 1: int8 faster
print(json.dumps(out, indent=2))
