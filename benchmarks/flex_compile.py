"""Which ``torch.compile`` setting lets FlexAttention take relative attention at changing lengths (CUDA only)?

Relative causal attention (B 2, H 8, D 64, clipping distance 256, float32) through ``flex_attention_tiles``,
forward and backward, at lengths 256, 512, 1,024, 640, 2,048 and 1,152 in turn, under three compiles of
``flex_attention``: the default (what aiayn uses), ``dynamic=False`` and ``dynamic=True``. Each call's output
and the gradients of q, k, v and E_r are compared with the blockwise kernel; a failed compile is printed, not
raised. The 2026-11-26 H200 figures are in BENCHMARKS.md ("Training on one GPU").

Run:  python -m benchmarks.flex_compile       (prints one line per compile and length; writes nothing)
"""

from __future__ import annotations

import time

import torch


def main() -> None:
    from torch.nn.attention.flex_attention import flex_attention

    import aiayn.model.attention.flex as flex
    from aiayn.model.attention.blockwise import blockwise_attention
    from aiayn.model.attention.relative import RelativeTiles
    from aiayn.model.attention.tiles import TileSpec

    torch.manual_seed(0)
    for mode in ("default", "static", "dynamic"):
        torch._dynamo.reset()
        compiled = torch.compile(flex_attention, **({} if mode == "default" else {"dynamic": mode == "dynamic"}))
        flex._compiled = lambda c=compiled: c  # the layer's cached compile, swapped for this one
        for length in (256, 512, 1024, 640, 2048, 1152):
            try:
                q, k, v = (torch.randn(2, 8, length, 64, device="cuda", requires_grad=True) for _ in range(3))
                e = torch.randn(8, 257, 64, device="cuda", requires_grad=True)
                spec = TileSpec(length, length, True, RelativeTiles(256, True))
                torch.cuda.synchronize()
                start = time.perf_counter()
                out = flex.flex_attention_tiles(q, k, v, None, spec, e)
                out.sum().backward()
                torch.cuda.synchronize()
                seconds = time.perf_counter() - start
                grads = [x.grad.clone() for x in (q, k, v, e)]
                for x in (q, k, v, e):
                    x.grad = None
                ref = blockwise_attention(q, k, v, None, spec, e)
                ref.sum().backward()
                err = max((out - ref).abs().max().item(),
                          *[(g - x.grad).abs().max().item() for g, x in zip(grads, (q, k, v, e))])
                print(f"{mode:8s} L={length:5d} ok  max|diff| {err:.1e}  first call {seconds:.2f}s", flush=True)
            except Exception as ex:  # noqa: BLE001 -- a compile that fails is the finding, printed
                print(f"{mode:8s} L={length:5d} FAIL {type(ex).__name__}: {str(ex).splitlines()[0][:150]}", flush=True)


if __name__ == "__main__":
    main()
