"""The CUDA paths checked against the CPU in float64: run on a machine with a GPU (CI has none).

For every attention variant of both architectures (full, relative causal and not, Shaw's value term,
local), a small model with the same weights is run three ways on the same batch (with padding):
  * CPU float64: the reference;
  * CUDA float32 through the SDPA kernel (fused, chosen by PyTorch): max |logit difference|;
  * CUDA bf16 autocast: max |difference| over the logits' spread, a looser check;
and cached incremental decoding on CUDA equals the full CUDA pass; each row records how many calls
went through FlexAttention (the tiled relative and local paths on CUDA, ``model/attention/flex.py``).
Then the searches (greedy, beam 4 with 2-best) on CUDA against the same searches on the CPU: the model
runs on the GPU while the bookkeeping stays on the host, so the tokens must be the same and the scores
within float32's rounding; the bf16 search's share of identical outputs is recorded, not judged.
Then the tiled attention kernels alone (issue 21), outputs and the gradients of q, k, v and the
relative tables E_r and E_V, against the materialising path on the CPU in float64: relative causal
and not (shared table, Shaw's value term), local causal and not, L = 300 (several tiles), padded
(relative: left padding, so causal queries with no key at all; local: right padding). Two CUDA
paths each: the dispatcher's (FlexAttention where it compiles; the value term always blockwise)
with ``flex_taken`` saying whether FlexAttention really ran rather than the blockwise fallback, and
the blockwise kernel on CUDA. Then, for each call pattern the attention core makes (causal and no
mask, a padding mask, an additive bias), which of SDPA's kernels (flash, memory-efficient, math)
accept it in bf16: the flash kernel must take the causal pattern, or decoder self-attention never
runs fused on a GPU.

Run:  python -m checks.cuda_check        (exits non-zero when a check fails)
Writes benchmarks/results/cuda_check.json.
      python -m checks.cuda_check --cpu  (no GPU: the same checks with the CPU in float32 as the
                                              device, so the blockwise path; printed, nothing written)
"""

from __future__ import annotations

import argparse
import copy
import math
import sys

import torch

from aiayn import LanguageModel, LanguageModelConfig, Transformer, TransformerConfig
from aiayn.model.attention import LocalAttention, RelativePositions, dispatch, flex, math_attention
from aiayn.model.attention.blockwise import blockwise_attention
from aiayn.model.attention.tiles import TileSpec
from benchmarks.common import write_result

VOCAB, PAD = 40, 0
VARIANTS = {
    "full": {},
    "relative": {"attention": "relative", "max_relative_distance": 6},
    "relative-values": {"attention": "relative", "max_relative_distance": 3, "relative_values": True},
    "local": {"attention": "local", "local_block": 4, "local_memory": 4},
}
TOL_FP32, TOL_BF16 = 1e-4, 0.05  # absolute on logits of spread ~10; bf16 has 8 bits of mantissa
TOL_KERNEL = 1e-4  # float32 against float64, relative to the largest |reference| entry of each tensor
FLEX_CALLS = [0]  # FlexAttention calls that returned (a failed one falls back to blockwise)


def _count_flex_calls():
    """Wraps flex.flex_attention_tiles (the dispatcher imports it at each call) to count the calls that returned."""
    real = flex.flex_attention_tiles

    def counted(*args, **kwargs):
        out = real(*args, **kwargs)
        FLEX_CALLS[0] += 1
        return out

    flex.flex_attention_tiles = counted


def models(variant: dict) -> dict[str, torch.nn.Module]:
    torch.manual_seed(0)
    small = dict(d_model=64, n_heads=4, d_ff=128, dropout=0.0, max_positions=64, **variant)
    return {
        "lm": LanguageModel(LanguageModelConfig.from_dict({"vocab_size": VOCAB, "n_layers": 2, **small})),
        "transformer": Transformer(TransformerConfig.from_dict(
            {"src_vocab_size": VOCAB, "tgt_vocab_size": VOCAB, "n_encoder_layers": 2, "n_decoder_layers": 2, **small})),
    }


def batch() -> tuple[torch.Tensor, torch.Tensor]:
    g = torch.Generator().manual_seed(1)
    src, tgt = torch.randint(3, VOCAB, (3, 17), generator=g), torch.randint(3, VOCAB, (3, 13), generator=g)
    src[1, 11:], tgt[2, 9:] = PAD, PAD  # right padding in both
    return src, tgt


def logits(model, src, tgt):
    return model(tgt) if isinstance(model, LanguageModel) else model(src, tgt)


def cached(model, src, tgt):
    """The same logits one position at a time through the KV cache (after a 4-token first chunk)."""
    state = (model.start_decoding(capacity=tgt.size(1), batch=tgt.size(0)) if isinstance(model, LanguageModel)
             else model.start_decoding(src, capacity=tgt.size(1)))
    parts = [model.decode_step(tgt[:, :4], state)]
    parts += [model.decode_step(tgt[:, i:i + 1], state) for i in range(4, tgt.size(1))]
    return torch.cat(parts, dim=1)


def compare_models(device: str = "cuda") -> list[dict]:
    src, tgt = batch()
    rows = []
    for name, variant in VARIANTS.items():
        for arch, model in models(variant).items():
            model.eval()
            real = (tgt != PAD).cpu()  # padded positions' logits are not compared
            with torch.no_grad():
                ref = logits(model.double(), src, tgt)
                gpu, s, t = model.float().to(device), src.to(device), tgt.to(device)
                before = FLEX_CALLS[0]
                fp32 = logits(gpu, s, t).double().cpu()
                flex_calls = FLEX_CALLS[0] - before
                step = cached(gpu, s, t).double().cpu()
                with torch.autocast(torch.device(device).type, dtype=torch.bfloat16):
                    bf16 = logits(gpu, s, t).double().cpu()
            spread = (ref[real].max() - ref[real].min()).item()
            rows.append({
                "variant": name, "model": arch, "flex_calls_fp32": flex_calls,
                "fp32_max_abs": (fp32 - ref)[real].abs().max().item(),
                "cached_vs_full_max_abs": (step - fp32)[real].abs().max().item(),
                "bf16_max_abs_over_spread": (bf16 - ref)[real].abs().max().item() / spread,
            })
            r = rows[-1]
            r["ok"] = r["fp32_max_abs"] < TOL_FP32 and r["cached_vs_full_max_abs"] < TOL_FP32 and \
                r["bf16_max_abs_over_spread"] < TOL_BF16
    return rows


SEARCHES = {"greedy": dict(beam=0), "beam 4, 2-best": dict(beam=4, nbest=2)}


def _search(model, src, beam: int, nbest: int = 1) -> list[tuple[list[int], float]]:
    """(tokens, score) of every output, the n-best in order, for a search on ``model``'s device."""
    from aiayn.decoding import beam_search, greedy_search

    src = src.to(next(model.parameters()).device)
    if beam == 0:
        return [(h.tokens, h.score) for h in greedy_search(model, src, max_len_b=12)]
    return [(h.tokens, h.score) for hyps in beam_search(model, src, beam, nbest=nbest, max_len_b=12) for h in hyps]


def compare_searches(device: str = "cuda") -> list[dict]:
    """Each search of each variant's Transformer on ``device`` (float32, then bf16) against the CPU's."""
    src, _ = batch()
    rows = []
    for name, variant in VARIANTS.items():
        model = models(variant)["transformer"].eval()
        for search, kwargs in SEARCHES.items():
            with torch.no_grad():
                want = _search(model.float().cpu(), src, **kwargs)
                got = _search(model.to(device), src, **kwargs)
                bf16 = _search(copy.deepcopy(model).to(torch.bfloat16), src, **kwargs)  # model stays float32
            same = [a[0] == b[0] for a, b in zip(want, got, strict=True)]
            rows.append({"variant": name, "search": search, "outputs": len(want),
                         "identical": sum(same), "score_max_abs": max(abs(a[1] - b[1]) for a, b in zip(want, got)),
                         "bf16_identical": sum(a[0] == b[0] for a, b in zip(want, bf16, strict=True))})
            rows[-1]["ok"] = all(same) and rows[-1]["score_max_abs"] < TOL_FP32
    return rows


# name: (variant, causal, shared table, Shaw's value term); clip 40 and the band (32, 48) span several tiles
KERNEL_CASES = {
    "relative causal": ("relative", True, False, False),
    "relative": ("relative", False, False, False),
    "relative causal shared": ("relative", True, True, False),
    "relative causal values": ("relative", True, False, True),
    "relative values": ("relative", False, False, True),
    "local causal": ("local", True, False, False),
    "local": ("local", False, False, False),
}
KERNEL_SHAPE = (2, 2, 300, 16)  # B, H, L, D


def _reference_variant(kind: str, causal: bool, share: bool, values: bool):
    """The materialising module of the case (its tables are the case's E_r, E_V), in float64; its
    ``tiles()`` are the tiled kernels' rules."""
    b, h, length, d = KERNEL_SHAPE
    if kind == "local":
        return LocalAttention(32, 48, causal)
    return RelativePositions(h, d, d, 40, causal, share, values).double()


def _relative_error(got: torch.Tensor, want: torch.Tensor) -> float:
    """max |got − want| / max |want|; inf where got has a NaN or an infinity."""
    got = got.detach().double().cpu()
    if not torch.isfinite(got).all():
        return math.inf
    return ((got - want).abs().max() / want.abs().max().clamp(min=1e-30)).item()


def compare_kernels(device: str = "cuda") -> list[dict]:
    """Outputs and gradients of the tiled kernels on ``device`` (float32) against the CPU float64 oracle."""
    b, h, length, d = KERNEL_SHAPE
    rows = []
    for name, (kind, causal, share, values) in KERNEL_CASES.items():
        torch.manual_seed(0)
        variant = _reference_variant(kind, causal, share, values)
        q, k, v = (torch.randn(b, h, length, d, dtype=torch.float64, requires_grad=True) for _ in range(3))
        mask = torch.ones(b, 1, 1, length, dtype=torch.bool)
        if kind == "local":
            mask[1, ..., length - 40:] = False  # right padding (left-padded rows never take the local tiles)
        else:
            mask[1, ..., :40] = False  # left padding: causal queries 0..39 of row 1 see no key at all
        tables = [p for p in variant.parameters()]  # E_r (and E_V) for relative, none for local
        ref, _ = variant(math_attention, q, k, v, mask, causal, 0.0, False)
        weights = torch.randn_like(ref)  # a fixed random upstream gradient
        names = ["q", "k", "v"] + (["E_r", "E_V"][:len(tables)])
        ref_grads = torch.autograd.grad((ref * weights).sum(), [q, k, v, *tables])
        spec = TileSpec(length, length, causal and kind == "relative", variant.tiles())  # local: the band is causal
        for path in ("dispatch", "blockwise"):
            dev = [x.detach().float().to(device).requires_grad_(True) for x in (q, k, v, *tables)]
            dq, dk, dv, *dev_tables = dev
            dev_mask = mask.to(device)
            before, taken = FLEX_CALLS[0], None
            if path == "dispatch":
                taken = dispatch.use_flex(dq, spec, tuple(dev_tables))
                out = dispatch.tiled_attention(dq, dk, dv, dev_mask, spec, *dev_tables)
                taken = taken and FLEX_CALLS[0] > before  # FlexAttention ran, and did not fall back
            else:
                out = blockwise_attention(dq, dk, dv, dev_mask, spec, *dev_tables)
            got_grads = torch.autograd.grad((out * weights.float().to(device)).sum(), dev)
            row = {"case": name, "path": path, "flex_taken": taken, "device": str(out.device),
                   "out_rel_err": _relative_error(out, ref.detach())}
            row.update({f"d{n}_rel_err": _relative_error(g, r) for n, g, r in zip(names, got_grads, ref_grads)})
            row["ok"] = all(val < TOL_KERNEL for key, val in row.items() if key.endswith("_rel_err"))
            rows.append(row)
    return rows


def sdpa_backends() -> list[dict]:
    """Which fused kernel takes each of the attention core's call patterns (bf16, B 2, H 8, L 256, D 64)."""
    from torch.nn.attention import SDPBackend, sdpa_kernel
    from torch.nn.functional import scaled_dot_product_attention as sdpa

    q = k = v = torch.randn(2, 8, 256, 64, device="cuda", dtype=torch.bfloat16)
    keep = torch.ones(2, 1, 1, 256, dtype=torch.bool, device="cuda")
    keep[1, ..., 200:] = False
    bias = torch.randn(2, 8, 256, 256, device="cuda", dtype=torch.bfloat16)
    patterns = {"causal, no mask (decoder self-attention)": dict(is_causal=True),
                "padding mask (encoder, cross)": dict(attn_mask=keep),
                "additive bias (relative, local band)": dict(attn_mask=bias)}
    rows = []
    for pattern, kwargs in patterns.items():
        row = {"pattern": pattern}
        for backend in (SDPBackend.FLASH_ATTENTION, SDPBackend.EFFICIENT_ATTENTION, SDPBackend.MATH):
            try:
                with sdpa_kernel([backend]):
                    sdpa(q, k, v, **kwargs)
                row[backend.name.lower()] = True
            except RuntimeError:
                row[backend.name.lower()] = False
        rows.append(row)
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--results", default=None, help="folder for cuda_check.json (default benchmarks/results)")
    parser.add_argument("--cpu", action="store_true",
                        help="no GPU: the same checks with the CPU in float32 as the device (blockwise); writes nothing")
    args = parser.parse_args(argv)
    _count_flex_calls()
    if args.cpu:
        rows, searches, kernels = compare_models("cpu"), compare_searches("cpu"), compare_kernels("cpu")
        _print_models(rows)
        _print_searches(searches)
        _print_kernels(kernels)
        return 0 if all(r["ok"] for r in rows + searches + kernels) else 1
    if not torch.cuda.is_available():
        print("no CUDA device here: run this on a machine with a GPU (or --cpu for the CPU part)", file=sys.stderr)
        return 2
    rows, searches, kernels, backends = compare_models(), compare_searches(), compare_kernels(), sdpa_backends()
    _print_models(rows)
    _print_searches(searches)
    _print_kernels(kernels)
    for b in backends:
        print(b)
    flash_causal = backends[0]["flash_attention"]
    write_result("cuda_check", {"device": torch.cuda.get_device_name(), "models": rows, "searches": searches,
                                "kernels": kernels,
                                "flex_error": dispatch.FLEX_FAILED[0] if dispatch.FLEX_FAILED else None,
                                "sdpa_backends": backends}, args.results)
    return 0 if all(r["ok"] for r in rows + searches + kernels) and flash_causal else 1


def _print_models(rows: list[dict]) -> None:
    for r in rows:
        print(f"{r['variant']:16} {r['model']:12} fp32 {r['fp32_max_abs']:.2e}  cached {r['cached_vs_full_max_abs']:.2e}"
              f"  bf16/spread {r['bf16_max_abs_over_spread']:.4f}  flex calls {r['flex_calls_fp32']}"
              f"  {'ok' if r['ok'] else 'FAIL'}")


def _print_searches(rows: list[dict]) -> None:
    for r in rows:
        print(f"{r['variant']:16} {r['search']:15} identical {r['identical']}/{r['outputs']}"
              f"  score {r['score_max_abs']:.2e}  bf16 identical {r['bf16_identical']}/{r['outputs']}"
              f"  {'ok' if r['ok'] else 'FAIL'}")


def _print_kernels(rows: list[dict]) -> None:
    for r in rows:
        errs = "  ".join(f"{key[:-8]} {val:.1e}" for key, val in r.items() if key.endswith("_rel_err"))
        print(f"{r['case']:24} {r['path']:9} {r['device']:6} flex {str(r['flex_taken']):5}  {errs}  "
              f"{'ok' if r['ok'] else 'FAIL'}")


if __name__ == "__main__":
    sys.exit(main())
