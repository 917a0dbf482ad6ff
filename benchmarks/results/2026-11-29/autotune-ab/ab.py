"""The compiled decoding step before and after this change, in one process (issue 42): ``before`` attends with
matrix products (which Inductor leaves to batched ``bmm`` calls once the rows are a dynamic size) and compiles
with oneDNN's products; ``after`` attends with ``one_query_attention``'s sums and lets Inductor time its own C++
products against oneDNN's (``INDUCTOR_CPU``: max_autotune). bf16 and int8 (``--dtype int8 --compile``) models,
benchmarks.decode_throughput's random tiny model and 64 sentences (50 forced tokens), one sentence at a time and
64 a batch, greedy and beam 4, one thread; CTranslate2 int8 beside them. Each model compiles its families in an
untimed first call; then 5 rounds interleaved. Counts the outputs that differ from float32's. From the repository root:
    TORCHINDUCTOR_FORCE_DISABLE_CACHES=1 python benchmarks/results/2026-11-29/autotune-ab/ab.py > benchmarks/results/2026-11-29/autotune-ab/ab.json
"""
import json
import sys
import time

import torch
from torch import Tensor

sys.path.insert(0, ".")
from aiayn.model import compiled  # noqa: E402
from benchmarks.common import interleave, median, median_ratio, provenance  # noqa: E402
from benchmarks.decode_throughput import N_SENTENCES, OUT_LEN, aiayn_search, make_decoder, prepare  # noqa: E402


class BeforeStep(compiled.OneTokenStep):
    """The step as it was at 0126820: attention through the model's own ``attend`` (matrix products)."""

    def forward(self, tokens: Tensor, pos: Tensor, keys: list[Tensor], values: list[Tensor],
                cross_kv: list[tuple[Tensor, Tensor]], src_mask: Tensor, beams: int) -> Tensor:
        m = self.model
        x = m.tgt_embed(tokens)
        if m.positions is not None:
            x = x + m.positions.table[pos].to(x.dtype)
        written = (torch.arange(keys[0].size(2), device=x.device) <= pos).view(1, 1, 1, -1)
        n, _, d = x.shape
        for layer, k_cache, v_cache, kv in zip(m.decoder_layers, keys, values, cross_kv):
            q, k, v = layer.self_attn.project_qkv(layer.res_self.input(x))
            k_cache.index_copy_(2, pos, k)
            v_cache.index_copy_(2, pos, v)
            x = layer.res_self.output(x, layer.self_attn.attend(q, k_cache, v_cache, written, False)[0])
            grouped = layer.res_cross.input(x).reshape(n // beams, beams, d)
            x = layer.res_cross.output(x, layer.cross_attn(grouped, mask=src_mask, kv=kv)[0].reshape(n, 1, d))
            x = layer.res_ffn.output(x, layer.ffn(layer.res_ffn.input(x)))
        return m.project(m.decoder_norm(x))


class Before(compiled.CompiledDecodeStep):
    """The compiled step as it was at 0126820: ``BeforeStep``, compiled without max_autotune."""

    def __init__(self, model):
        super().__init__(model)
        self.step = torch.compile(BeforeStep(model), fullgraph=True)

    def _compile(self, args):
        after, compiled.INDUCTOR_CPU = compiled.INDUCTOR_CPU, compiled.INDUCTOR
        try:
            return super()._compile(args)
        finally:
            compiled.INDUCTOR_CPU = after


torch.set_num_threads(1)
prepare("tiny")
out = {**provenance(None), "repeats": 5, "compile_seconds": {}, "runs": {}}
for batch in (1, N_SENTENCES):
    for beam in (1, 4):
        family = f"batch{batch}_beam{beam}"
        reference = aiayn_search("tiny", beam, "aiayn", batch=batch)[1]()  # float32, eager
        searches, first = {}, {}
        for dtype in ("bf16", "int8"):
            for side in ("before", "after"):
                model, search = aiayn_search("tiny", beam, f"aiayn_{dtype}_compiled", batch=batch)
                if side == "before":
                    model.decode_step = Before(model)
                start = time.perf_counter()
                first[f"{dtype}_{side}"] = search()  # compiles this family (untimed)
                out["compile_seconds"][f"{family}_{dtype}_{side}"] = round(time.perf_counter() - start, 1)
                searches[f"{dtype}_{side}"] = search
        times = interleave({**searches, "ct2_int8": make_decoder("ct2_int8", "tiny", beam, 1, batch=batch)}, 5, 0)
        row = out["runs"][family] = {
            k: {"seconds": v, "median_tokens_per_s": median([N_SENTENCES * OUT_LEN / t for t in v])} for k, v in times.items()}
        for name, outputs in first.items():
            row[name]["differing_from_fp32"] = sum(a != b for a, b in zip(outputs, reference))
        # speeds as paired ratios of times: > 1 means the first named is faster
        for dtype in ("bf16", "int8"):
            row[f"{dtype}_after_over_before"] = median_ratio(times[f"{dtype}_before"], times[f"{dtype}_after"])
            row[f"{dtype}_after_over_ct2_int8"] = median_ratio(times["ct2_int8"], times[f"{dtype}_after"])
            row[f"{dtype}_before_over_ct2_int8"] = median_ratio(times["ct2_int8"], times[f"{dtype}_before"])
        print(family, {k: round(v["median_tokens_per_s"]) for k, v in row.items() if isinstance(v, dict)},
              file=sys.stderr, flush=True)
print(json.dumps(out, indent=2))
