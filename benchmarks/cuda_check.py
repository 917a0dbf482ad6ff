"""The CUDA paths checked against the CPU in float64: run on a machine with a GPU (CI has none).

For every attention variant of both architectures (full, relative causal and not, Shaw's value term,
local), a small model with the same weights is run three ways on the same batch (with padding):
  * CPU float64: the reference;
  * CUDA float32 through the SDPA kernel (fused, chosen by PyTorch): max |logit difference|;
  * CUDA bf16 autocast: max |difference| over the logits' spread, a looser check;
and cached incremental decoding on CUDA equals the full CUDA pass. Then, for each call pattern the
attention core makes (causal and no mask, a padding mask, an additive bias), which of SDPA's
kernels (flash, memory-efficient, math) accept it in bf16: the flash kernel must take the causal
pattern, or decoder self-attention never runs fused on a GPU.

Run:  python -m benchmarks.cuda_check        (exits non-zero when a check fails)
Writes benchmarks/results/cuda_check.json.
"""

from __future__ import annotations

import sys

import torch

from aiayn import LanguageModel, LanguageModelConfig, Transformer, TransformerConfig

from .common import write_result

VOCAB, PAD = 40, 0
VARIANTS = {
    "full": {},
    "relative": {"attention": "relative", "max_relative_distance": 6},
    "relative-values": {"attention": "relative", "max_relative_distance": 3, "relative_values": True},
    "local": {"attention": "local", "local_block": 4, "local_memory": 4},
}
TOL_FP32, TOL_BF16 = 1e-4, 0.05  # absolute on logits of spread ~10; bf16 has 8 bits of mantissa


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
                fp32 = logits(gpu, s, t).double().cpu()
                step = cached(gpu, s, t).double().cpu()
                with torch.autocast(torch.device(device).type, dtype=torch.bfloat16):
                    bf16 = logits(gpu, s, t).double().cpu()
            spread = (ref[real].max() - ref[real].min()).item()
            rows.append({
                "variant": name, "model": arch,
                "fp32_max_abs": (fp32 - ref)[real].abs().max().item(),
                "cached_vs_full_max_abs": (step - fp32)[real].abs().max().item(),
                "bf16_max_abs_over_spread": (bf16 - ref)[real].abs().max().item() / spread,
            })
            r = rows[-1]
            r["ok"] = r["fp32_max_abs"] < TOL_FP32 and r["cached_vs_full_max_abs"] < TOL_FP32 and \
                r["bf16_max_abs_over_spread"] < TOL_BF16
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


def main() -> int:
    if not torch.cuda.is_available():
        print("no CUDA device here: run this on a machine with a GPU", file=sys.stderr)
        return 2
    rows, backends = compare_models(), sdpa_backends()
    for r in rows:
        print(f"{r['variant']:16} {r['model']:12} fp32 {r['fp32_max_abs']:.2e}  cached {r['cached_vs_full_max_abs']:.2e}"
              f"  bf16/spread {r['bf16_max_abs_over_spread']:.4f}  {'ok' if r['ok'] else 'FAIL'}")
    for b in backends:
        print(b)
    flash_causal = backends[0]["flash_attention"]
    write_result("cuda_check", {"device": torch.cuda.get_device_name(), "models": rows, "sdpa_backends": backends})
    return 0 if all(r["ok"] for r in rows) and flash_causal else 1


if __name__ == "__main__":
    sys.exit(main())
