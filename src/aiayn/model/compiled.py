"""The encoder-decoder's one-token decoding step, compiled (issue 42). At one sentence at a time a step is about
500 small operator calls from Python, and their cost, not the arithmetic, bounds decoding on the CPU
(BENCHMARKS.md). ``torch.compile`` (Inductor: weights frozen in as constants, kernels called from C++) traces the
step once per family of shapes instead.

The compiled step is §3.1's decoder for one new position, assembled from the model's own sub-layers (its
projections, norms and feed-forward layers; Eq. 1 itself as ``one_query_attention``'s sums). It takes
the position as a tensor and attends over the whole preallocated cache with a mask of the columns written, so
no shape changes from one step to the next and nothing is traced again. It ends with the searches' float32
log-softmax (``log_probs``, which ``next_log_probs`` asks for), fused with the output projection instead of two
more passes over the logits outside. Every other step (a prompt of several tokens, left-padded prompts, a full
cache, gradients) runs the model's own ``decode_step``; models with attention variants (relative, local) or
without an encoder are left as they are.

Usage: ``compile_decoding(model)`` before decoding. Frozen weights: decode with it, do not train it further.
"""

from __future__ import annotations

import logging
import warnings

import torch
from torch import Tensor, nn

from .attention.core import one_query_attention
from .cache import DecoderState

# Inductor options: the weights become constants (it lays them out for its kernels once), and a C++ wrapper
# calls the kernels (the Python one would put back part of the per-call cost this is here to remove)
INDUCTOR = {"freezing": True, "cpp_wrapper": True}
# ... and on the CPU, each product of the step timed as Inductor's own C++ kernel (for these frozen weights and
# shapes) against oneDNN's, the faster kept: its kernels won for one sentence at a time (BENCHMARKS.md), at the
# cost of about 20 s more per family compiled (its tables of timings not printed)
INDUCTOR_CPU = {**INDUCTOR, "max_autotune": True, "max_autotune_gemm_backends": "CPP,ATEN",
                "autotune_num_choices_displayed": 0, "max_autotune_report_choices_stats": False}
# A server meets a few families of shapes (one sentence or several, for each beam size): room for them all,
# where Dynamo's default of 8 would stop it mid-request
RECOMPILES = 32
# --compile's help, for every command that takes it (translate, evaluate, serve)
HELP = ("compile the decoder's step for this machine (torch.compile; needs a C++ compiler): faster per sentence once "
        "compiled, which takes tens of seconds on a CPU (it times its kernels) at the first sentences and again at the "
        "first of a new shape; with --dtype int8 the int8 weights stay and the activations are bfloat16 (BENCHMARKS.md "
        "measures it)")

log = logging.getLogger("aiayn")


class OneTokenStep(nn.Module):
    """(N, 1) new tokens at position ``pos`` (a (1,) tensor) -> (N, 1, V) log-probabilities (float32: the searches'
    log-softmax in the graph, fused with the output projection), writing each layer's key and
    value into column ``pos`` of its cache. ``beams`` consecutive rows share a sentence's encoder keys."""

    def __init__(self, model: nn.Module):
        super().__init__()
        self.model = model

    def forward(self, tokens: Tensor, pos: Tensor, keys: list[Tensor], values: list[Tensor],
                cross_kv: list[tuple[Tensor, Tensor]], src_mask: Tensor, beams: int) -> Tensor:
        x = self.decoder(tokens, pos, keys, values, cross_kv, src_mask, beams)
        return self.model.project(self.model.decoder_norm(x)).float().log_softmax(dim=-1)  # fused: one pass

    def decoder(self, tokens: Tensor, pos: Tensor, keys: list[Tensor], values: list[Tensor],
                cross_kv: list[tuple[Tensor, Tensor]], src_mask: Tensor, beams: int) -> Tensor:
        """The decoder layers' output (N, 1, d_model) for the new position, before the final norm."""
        m = self.model
        x = m.tgt_embed(tokens)
        if m.positions is not None:
            x = x + m.positions.table[pos].to(x.dtype)
        written = torch.arange(keys[0].size(2), device=x.device) <= pos  # (L,) the cache columns filled
        n = x.size(0)
        for layer, k_cache, v_cache, (k_mem, v_mem) in zip(m.decoder_layers, keys, values, cross_kv):
            attn = layer.self_attn
            q, k, v = attn.project_qkv(layer.res_self.input(x))  # (N, H, 1, D) each
            k_cache.index_copy_(2, pos, k)
            v_cache.index_copy_(2, pos, v)
            out = one_query_attention(q.squeeze(2), k_cache, v_cache, written)  # (N, H, D_v)
            x = layer.res_self.output(x, attn.w_o(out.reshape(n, 1, -1)))
            attn = layer.cross_attn  # a sentence's beams query its memory together: (B, beams, H, D) against (B, 1, H, S, D)
            q = attn.w_q(layer.res_cross.input(x)).view(n // beams, beams, attn.n_heads, attn.d_k)
            out = one_query_attention(q, k_mem.unsqueeze(1), v_mem.unsqueeze(1), src_mask)  # mask (B, 1, 1, S)
            x = layer.res_cross.output(x, attn.w_o(out.reshape(n, 1, -1)))
            x = layer.res_ffn.output(x, layer.ffn(layer.res_ffn.input(x)))
        return x


class CompiledDecodeStep:
    """Stands in for ``model.decode_step``: the compiled ``OneTokenStep`` where it applies, else the model's own."""

    def __init__(self, model: nn.Module):
        self.model = model
        self.eager = type(model).decode_step.__get__(model)
        import torch._dynamo
        from torch._inductor import config  # imported here: it costs a second at start-up

        self.dynamo, self.inductor = torch._dynamo.config.patch, config.patch  # read as a new shape compiles;
        self.step = torch.compile(OneTokenStep(model), fullgraph=True)  # compile's options= loses freezing here
        self.failed = False
        # set by a server once warm: a family not compiled by then runs the model's own step, never compiling under
        # load; ``uncompiled`` remembers those families so that each fails Dynamo's guards once
        self.settled, self.uncompiled = False, set()

    def __call__(self, tokens: Tensor, state: DecoderState) -> Tensor:
        """``decode_step``: (N, T, V) logits; from the compiled graph, normalized (float32 log-probabilities)."""
        out = self._compiled(tokens, state)
        return self.eager(tokens, state) if out is None else out

    def log_probs(self, tokens: Tensor, state: DecoderState) -> Tensor:
        """(N, V) float32 log-probabilities of the next token, as the searches take them (``next_log_probs``)."""
        out = self._compiled(tokens, state)
        return self.eager(tokens, state)[:, -1].float().log_softmax(dim=-1) if out is None else out[:, -1]

    def _compiled(self, tokens: Tensor, state: DecoderState) -> Tensor | None:
        """The compiled step's (N, 1, V) log-probabilities, or None where the model's own step must run."""
        caches = state.self_kv
        if (self.failed or tokens.size(1) != 1 or state.offset is not None or state.pos >= caches[0].capacity
                or torch.is_grad_enabled() or self.model.training):
            return None
        if self.model.positions is not None:
            self.model.positions._extend(state.pos + 1, tokens.device)  # sinusoids past the table: grown once
        pos = torch.tensor([state.pos], device=tokens.device)
        tokens = tokens.contiguous()  # a column of the search's history, its row stride changing every step
        _vary(tokens, caches, state)
        family = (state.beams, tokens.size(0) == 1, state.src_mask.size(0) == 1)  # what Dynamo specialises on
        if family in self.uncompiled:
            return None
        args = (tokens, pos, [c.k for c in caches], [c.v for c in caches], state.cross_kv, state.src_mask, state.beams)
        try:  # the kernels at hand, without the config patches (entering them cost 12-18% of a one-sentence step)
            with torch.compiler.set_stance("fail_on_recompile"):
                out = self.step(*args)
        except RuntimeError as e:  # set_stance's refusal, raised before the step ran: the state is untouched
            if not str(e).startswith("Detected recompile"):
                raise
            if self.settled:
                self.uncompiled.add(family)
                return None
            out = self._compile(args)
            if out is None:
                return None
        state.pos += 1
        return out

    def _compile(self, args: tuple) -> Tensor | None:
        """The step of a new family of shapes, compiled under Inductor's options; None past RECOMPILES families."""
        try:
            options = INDUCTOR_CPU if args[0].device.type == "cpu" else INDUCTOR
            with self.inductor(options), self.dynamo(recompile_limit=RECOMPILES), warnings.catch_warnings():
                warnings.filterwarnings("ignore", "TypedStorage is deprecated")  # Inductor's own, as it times kernels
                return self.step(*args)
        except torch._dynamo.exc.FailOnRecompileLimitHit:  # raised before the step ran, as above
            self.failed = True
            log.warning("the compiled decoding step stops here: more than %d families of shapes met; the model's "
                        "own step runs from now on", RECOMPILES)
            return None


def _vary(tokens: Tensor, caches: list, state: DecoderState) -> None:
    """Marks the sizes that change from batch to batch (rows, cache capacity, source length) as such before
    the first trace, so that one dynamic family serves them instead of a static one compiled first (sizes 0
    and 1 stay specialised: one sentence keeps its own family)."""
    mark = torch._dynamo.maybe_mark_dynamic
    mark(tokens, 0)
    for tensor in [t for c in caches for t in (c.k, c.v)] + [t for kv in state.cross_kv for t in kv]:
        mark(tensor, [0, 2])  # (N or B, H, L or S, D)
    mark(state.src_mask, [0, 3])  # (B, 1, 1, S)


def is_compiled(model: nn.Module) -> bool:
    """Whether ``compile_decoding`` compiled the model's decoding step."""
    return isinstance(model.__dict__.get("decode_step"), CompiledDecodeStep)


def compilable(model: nn.Module) -> bool:
    """Whether ``compile_decoding`` covers the model: an encoder-decoder whose decoder uses plain attention."""
    layers = getattr(model, "decoder_layers", None)
    return bool(layers) and hasattr(model, "encode") and all(
        layer.cross_attn is not None and layer.self_attn.variant is None for layer in layers)


def compile_decoding(model: nn.Module) -> nn.Module:
    """The model with its one-token decoding steps compiled (in place; returned for chaining); a model it does
    not cover (``compilable``) is returned unchanged. The first steps of each new family of shapes compile
    (tens of seconds each on a CPU); later ones reuse the kernels. float32 and bfloat16 models, and
    ``int8_model``'s: its int8 weights kept, its activations in bf16 (``precision.Int8Linear``)."""
    if not compilable(model):
        return model
    if any(type(m).__module__.startswith("torch.ao.nn.quantized") for m in model.modules()):
        from ..precision import int8_compiled_model

        int8_compiled_model(model)
    model.decode_step = CompiledDecodeStep(model)  # an instance attribute: shadows the class's method
    return model
