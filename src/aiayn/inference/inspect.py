"""One sentence through the Transformer in the paper's order, as the model's own numbers: the studio's
walk-through (issue 44). Nothing here recomputes the model: forward hooks record what each module
returned during one real forward pass, and each step names its section of the paper.

Legend: S source pieces, T target pieces fed (BOS + target), H heads, d = d_model, D_k / D_v head widths,
V vocabulary.

The only arithmetic done here on top of the hooks is reading: splitting the fused Q, K, V projection
into heads, Q Kᵀ / √d_k from the recorded Q and K (the scores the attention's softmax took, shown with
the mask), and softmax over the recorded logits for the next-piece probabilities. ``walk_through``'s
final logits are the forward pass's own (a test holds it to ``model(src, tgt_in)``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import torch
from torch import Tensor

from ..model import Transformer
from ..model.masks import causal_mask


@dataclass
class Step:
    """One named tensor of the forward pass: ``key`` is stable (``encoder.0.q``), ``label`` the paper's
    notation, ``section`` the paper's section, ``values`` the tensor (for one sentence, batch dim dropped)."""

    key: str
    label: str
    section: str
    values: Tensor

    @property
    def shape(self) -> list[int]:
        return list(self.values.shape)


@torch.no_grad()
def walk_through(model: Transformer, src_ids: list[int], tgt_in_ids: list[int], top: int = 5,
                 ) -> tuple[list[Step], Tensor, list[tuple[int, float]]]:
    """The steps of one forward pass over ``src_ids`` (EOS included) and the decoder input ``tgt_in_ids``
    (BOS first), the logits (T, V), and the ``top`` most probable next pieces after the last input
    piece as (id, probability). The model runs in eval mode on the explicit attention path."""
    was_training = model.training
    model.eval()
    cfg = model.config
    device = next(model.parameters()).device
    src = torch.tensor([src_ids], device=device)
    tgt_in = torch.tensor([tgt_in_ids], device=device)
    seen: dict[str, Tensor] = {}
    handles = []

    def keep(name: str, what: str = "output"):
        def hook(module, inputs, output):
            seen[name] = (inputs[0] if what == "input" else output).detach()[0].float().cpu()
        return hook

    named = dict(model.named_modules())
    for name, module in named.items():
        if name.endswith(("w_qkv", "w_q", "w_kv", "w_o", "norm", "ffn.w_1", "ffn")) and name.count(".") >= 1:
            handles.append(module.register_forward_hook(keep(name)))
            if name.endswith("w_o"):
                handles.append(module.register_forward_hook(keep(name + ".input", "input")))
            if name.endswith("norm"):
                handles.append(module.register_forward_hook(keep(name + ".input", "input")))
    try:
        # the decoder embeds with the same module when embeddings are shared: one hook per call
        side = [model.src_embed.register_forward_hook(keep("src_embed"))]
        if model.positions is not None:
            side.append(model.positions.register_forward_hook(keep("src_input")))
        encoded, enc_w = model.encode(src, need_weights=True)
        for hook in side:
            hook.remove()
        handles.append(model.tgt_embed.register_forward_hook(keep("tgt_embed")))
        if model.positions is not None:
            handles.append(model.positions.register_forward_hook(keep("tgt_input")))
        logits, self_w, cross_w = model.decode(tgt_in, encoded, need_weights=True)
    finally:
        for h in handles:
            h.remove()
        model.train(was_training)

    steps: list[Step] = []
    add = steps.append
    h, dk, dv = cfg.n_heads, cfg.d_k, cfg.d_v

    def heads(x: Tensor, d: int) -> Tensor:  # (L, H*d) -> (H, L, d)
        return x.view(x.size(0), h, d).transpose(0, 1)

    def attention(prefix: str, q: Tensor, k: Tensor, v: Tensor, weights: Tensor, mask: Tensor, module: str,
                  section: str) -> None:
        add(Step(f"{prefix}.q", "Q = X W^Q (per head)", "3.2.2", q))
        add(Step(f"{prefix}.k", "K = X W^K (per head)", "3.2.2", k))
        add(Step(f"{prefix}.v", "V = X W^V (per head)", "3.2.2", v))
        add(Step(f"{prefix}.scores", "Q Kᵀ / √d_k", "3.2.1", q @ k.transpose(-2, -1) / math.sqrt(dk)))
        add(Step(f"{prefix}.mask", "mask (1: may attend)", section, mask.float()))
        add(Step(f"{prefix}.weights", "softmax(Q Kᵀ / √d_k + M)", "3.2.1", weights[0].float().cpu()))
        add(Step(f"{prefix}.heads", "softmax(·) V: each head's output", "3.2.1", weights[0].float().cpu() @ v))
        add(Step(f"{prefix}.concat", "Concat(head_1, …, head_h)", "3.2.2", seen[f"{module}.w_o.input"]))
        add(Step(f"{prefix}.out", "Concat(…) W^O", "3.2.2", seen[f"{module}.w_o"]))

    def residual(prefix: str, module: str, what: str) -> None:
        add(Step(f"{prefix}.sum", f"x + {what}(x)", "3.1", seen[f"{module}.norm.input"]))
        add(Step(f"{prefix}.norm", f"LayerNorm(x + {what}(x))", "3.1", seen[f"{module}.norm"]))

    def feed_forward(prefix: str, layer: str) -> None:
        add(Step(f"{prefix}.ffn.hidden", "max(0, x W_1 + b_1)", "3.3", seen[f"{layer}.ffn.w_1"].clamp(min=0)
                 if cfg.activation == "relu" else seen[f"{layer}.ffn.w_1"]))
        add(Step(f"{prefix}.ffn.out", "FFN(x) = max(0, x W_1 + b_1) W_2 + b_2", "3.3", seen[f"{layer}.ffn"]))

    s, t = len(src_ids), len(tgt_in_ids)
    src_mask = (src[0] != cfg.pad_id).cpu()
    add(Step("encoder.embed", "Embedding(x) × √d_model", "3.4", seen["src_embed"]))
    if model.positions is not None:
        add(Step("encoder.positions", "PE(pos, i)", "3.5", model.positions.table[:s].detach().float().cpu()))
        add(Step("encoder.input", "Embedding × √d_model + PE", "3.5", seen["src_input"]))
    for i in range(cfg.n_encoder_layers):
        layer = f"encoder_layers.{i}"
        q, k, v = seen[f"{layer}.self_attn.w_qkv"].split([h * dk, h * dk, h * dv], dim=-1)
        mask = src_mask[None, :].expand(s, s)
        attention(f"encoder.{i}.self", heads(q, dk), heads(k, dk), heads(v, dv), enc_w[i], mask,
                  f"{layer}.self_attn", "3.2.3")
        residual(f"encoder.{i}.self", f"{layer}.res_attn", "MultiHead")
        feed_forward(f"encoder.{i}", layer)
        residual(f"encoder.{i}.ffn", f"{layer}.res_ffn", "FFN")

    add(Step("decoder.embed", "Embedding(y) × √d_model", "3.4", seen["tgt_embed"]))
    if model.positions is not None:
        add(Step("decoder.input", "Embedding × √d_model + PE", "3.5", seen["tgt_input"]))
    for i in range(cfg.n_decoder_layers):
        layer = f"decoder_layers.{i}"
        q, k, v = seen[f"{layer}.self_attn.w_qkv"].split([h * dk, h * dk, h * dv], dim=-1)
        attention(f"decoder.{i}.self", heads(q, dk), heads(k, dk), heads(v, dv), self_w[i], causal_mask(t, t, "cpu"),
                  f"{layer}.self_attn", "3.2.3")
        residual(f"decoder.{i}.self", f"{layer}.res_self", "MaskedMultiHead")
        q = seen[f"{layer}.cross_attn.w_q"]
        k, v = seen[f"{layer}.cross_attn.w_kv"].split([h * dk, h * dv], dim=-1)
        attention(f"decoder.{i}.cross", heads(q, dk), heads(k, dk), heads(v, dv), cross_w[i],
                  src_mask[None, :].expand(t, s), f"{layer}.cross_attn", "3.2.3")
        residual(f"decoder.{i}.cross", f"{layer}.res_cross", "MultiHead")
        feed_forward(f"decoder.{i}", layer)
        residual(f"decoder.{i}.ffn", f"{layer}.res_ffn", "FFN")

    logits = logits[0].float().cpu()
    add(Step("output.logits", "logits = x Eᵀ (the tied pre-softmax layer)", "3.4", logits))
    probs = logits[-1].softmax(-1)
    best = probs.topk(min(top, probs.numel()))
    return steps, logits, list(zip(best.indices.tolist(), best.values.tolist()))


@torch.no_grad()
def decode_steps(model: Transformer, src_ids: list[int], target_ids: list[int], top: int = 5) -> list[dict]:
    """The decoder as the searches run it (§3.2.3, one position at a time with a key/value cache): BOS, then
    each piece of ``target_ids``, fed one step at a time through ``start_decoding`` / ``decode_step``. Per step:
    the id fed, the keys the first layer's cache then holds ((1, H, t, D_k): one row more each step; the
    encoder-decoder keys stay (1, H, S, D_k)), the step's logits (V,) and the ``top`` next (id, probability)."""
    was_training = model.training
    model.eval()
    cfg = model.config
    device = next(model.parameters()).device
    state = model.start_decoding(torch.tensor([src_ids], device=device), 1, capacity=len(target_ids) + 1)
    steps = []
    for token in [cfg.bos_id, *target_ids]:
        logits = model.decode_step(torch.tensor([[token]], device=device), state)[0, -1].float().cpu()
        probs = logits.softmax(-1)
        best = probs.topk(min(top, probs.numel()))
        steps.append({"fed": token, "cache": list(state.self_kv[0].k[:, :, :state.pos].shape),
                      "cross": list(state.cross_kv[0][0].shape), "logits": logits,
                      "top": list(zip(best.indices.tolist(), best.values.tolist()))})
    model.train(was_training)
    return steps
