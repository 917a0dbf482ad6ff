"""Before and after b768b7b's two changes to training (issue 42), each timed alone in one process, interleaved:
the bf16 label-smoothed loss (forward and backward of `_SmoothedCrossEntropy` as of efd48fe against now, and the
float32 log_softmax form they replace) on the tiny (2,048 x 8,000) and base (1,500 x 37,000) logits, and one Adam
update (the for-loop form against PyTorch's fused one) over the tiny and base models' parameters. Run from the
repository root (needs git, for the old loss):
    python benchmarks/results/2026-11-29/fused-loss-adam/ab.py THREADS > benchmarks/results/2026-11-29/fused-loss-adam/ab_THREADSt.json
"""
import json
import subprocess
import sys
import types

import torch

sys.path.insert(0, ".")
from aiayn import Transformer  # noqa: E402
from aiayn.training.loss import _SmoothedCrossEntropy, label_smoothed_cross_entropy  # noqa: E402
from benchmarks.common import interleave, median, median_ratio, provenance  # noqa: E402
from benchmarks.peers import model_config  # noqa: E402

BEFORE = "efd48fecf3a330388040c5427b24a6e957e45812"
old = types.ModuleType("loss_before")
exec(compile(subprocess.run(["git", "show", f"{BEFORE}:src/aiayn/training/loss.py"], capture_output=True,
                            text=True, check=True).stdout, "loss_before", "exec"), old.__dict__)


def loss_call(fn, logits, target):
    def call():
        x = logits.detach().requires_grad_()
        loss, nll = fn(x, target, 0.1, 0)
        (loss + 0.5 * nll).backward()
        return loss.detach(), x.grad
    return call


def adam(size: str, fused: bool):
    torch.manual_seed(0)
    model = Transformer(model_config(size))
    for p in model.parameters():
        p.grad = torch.randn_like(p) * 1e-3
    return torch.optim.Adam(model.parameters(), lr=1e-4, betas=(0.9, 0.98), eps=1e-9, fused=fused or None).step


torch.set_num_threads(int(sys.argv[1]))
out = {**provenance(0), "before": BEFORE, "threads": torch.get_num_threads(), "loss": {}, "adam": {}}
for size, (n, vocab) in {"tiny": (2048, 8000), "base": (1500, 37000)}.items():
    torch.manual_seed(0)
    logits, target = (torch.randn(n, vocab) * 3).bfloat16(), torch.randint(1, vocab, (n,))
    target[::7] = 0  # padding
    calls = {"log_softmax_fp32": loss_call(lambda x, t, e, p: label_smoothed_cross_entropy(x.float(), t, e, p)[:2],
                                           logits, target),
             "fused_before": loss_call(old._SmoothedCrossEntropy.apply, logits, target),
             "fused_now": loss_call(_SmoothedCrossEntropy.apply, logits, target)}
    ref = calls["log_softmax_fp32"]()
    err = {k: {"loss": abs(c()[0].item() - ref[0].item()), "grad_max_abs": (c()[1].float() - ref[1]).abs().max().item()}
           for k, c in calls.items() if k != "log_softmax_fp32"}
    t = interleave(calls, repeats=9)
    out["loss"][size] = {"shape": [n, vocab], "ms": {k: 1e3 * median(v) for k, v in t.items()},
                         "before_over_now": median_ratio(t["fused_before"], t["fused_now"]),
                         "log_softmax_over_now": median_ratio(t["log_softmax_fp32"], t["fused_now"]),
                         "against_log_softmax_fp32": err}
    t = interleave({"for_loop": adam(size, False), "fused": adam(size, True)}, repeats=9)
    out["adam"][size] = {"ms": {k: 1e3 * median(v) for k, v in t.items()},
                         "loop_over_fused": median_ratio(t["for_loop"], t["fused"])}
print(json.dumps(out, indent=1))
