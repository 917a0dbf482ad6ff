"""A lever measured before it is built (issue 42): the compiled bf16 decoding step with its linear layers' weights in
int8 (per output channel, symmetric; bf16 activations; PyTorch's ``aten._weight_int8pack_mm``) against the same
step with bf16 weights (aiayn's ``--dtype bfloat16 --compile``), on ``benchmarks.decode_throughput``'s random tiny
model and 64 sentences (50 forced tokens each), one thread; CTranslate2 int8 beside them. Each model compiles its
families in an untimed first call; then 5 rounds interleaved. Also counts the outputs that differ from float32's.
Run from the repository root:
    python benchmarks/results/2026-11-29/int8-weights-ab/ab.py > benchmarks/results/2026-11-29/int8-weights-ab/ab.json
"""
import json
import sys

import torch
from torch import nn

sys.path.insert(0, ".")
from aiayn import Transformer, beam_search, greedy_search  # noqa: E402
from aiayn.model.compiled import compile_decoding  # noqa: E402
from aiayn.precision import PackedLinear, bf16_decoding_model  # noqa: E402
from benchmarks.common import interleave, median, median_ratio, provenance  # noqa: E402
from benchmarks.decode_throughput import N_SENTENCES, OUT_LEN, cache_dir, chunks, make_decoder, prepare  # noqa: E402
from benchmarks.peers import model_config  # noqa: E402


class Int8Weights(nn.Module):
    """A linear layer with int8 weights, one bf16 scale per output channel (max |w| / 127), bf16 activations."""

    def __init__(self, linear: nn.Module):
        super().__init__()
        w = linear.weight.detach().float()
        scale = w.abs().amax(dim=1).clamp(min=1e-12) / 127
        self.register_buffer("weight", (w / scale[:, None]).round().to(torch.int8))
        self.register_buffer("scale", scale.to(torch.bfloat16))
        self.bias = linear.bias

    def forward(self, x):
        y = torch.ops.aten._weight_int8pack_mm(x.reshape(-1, x.size(-1)), self.weight, self.scale)
        y = y.reshape(*x.shape[:-1], -1)
        return y if self.bias is None else y + self.bias


def model(kind: str):
    torch.manual_seed(0)  # the same random model as decode_throughput's
    m = Transformer(model_config("tiny")).eval()
    if kind == "fp32":
        return m
    m = bf16_decoding_model(m)
    if kind == "int8_weights":
        for parent in list(m.modules()):
            for name, child in parent.named_children():
                if isinstance(child, PackedLinear):
                    setattr(parent, name, Int8Weights(child))
    return compile_decoding(m)


def searcher(m, beam: int, batch: int):
    sources = [torch.tensor(ids) for ids in chunks(json.loads((cache_dir("tiny") / "sources.json").read_text())["ids"],
                                                   batch)]
    limits = dict(max_len_a=0, max_len_b=OUT_LEN, min_len=OUT_LEN - 1)
    if beam == 1:
        return lambda: [h.tokens for src in sources for h in greedy_search(m, src, **limits)]
    return lambda: [h[0].tokens for src in sources for h in beam_search(m, src, beam_size=beam, alpha=0.6, **limits)]


torch.set_num_threads(1)
prepare("tiny")
models = {kind: model(kind) for kind in ("fp32", "bf16", "int8_weights")}
out = {**provenance(None), "repeats": 5, "runs": {}}
for batch in (1, N_SENTENCES):
    for beam in (1, 4):
        searches = {kind: searcher(m, beam, batch) for kind, m in models.items()}
        reference = searches.pop("fp32")()
        first = {kind: s() for kind, s in searches.items()}  # compiles this family of shapes (untimed)
        times = interleave({**searches, "ct2_int8": make_decoder("ct2_int8", "tiny", beam, 1, batch=batch)}, 5, 0)
        row = out["runs"][f"batch{batch}_beam{beam}"] = {
            k: {"seconds": v, "median_tokens_per_s": median([N_SENTENCES * OUT_LEN / t for t in v])} for k, v in times.items()}
        for kind, outputs in first.items():
            row[kind]["differing_from_fp32"] = sum(a != b for a, b in zip(outputs, reference))
        # speeds as paired ratios of times: > 1 means the first named is faster
        row["int8_weights_over_bf16"] = median_ratio(times["bf16"], times["int8_weights"])
        row["int8_weights_over_ct2_int8"] = median_ratio(times["ct2_int8"], times["int8_weights"])
        row["bf16_over_ct2_int8"] = median_ratio(times["ct2_int8"], times["bf16"])
print(json.dumps(out, indent=2))
