"""The encoder-decoder's one-token decoding step, compiled ahead of time (issue 42). At one sentence at a time a step
is about 500 small operator calls from Python, and their cost, not the arithmetic, bounds decoding on the CPU
(BENCHMARKS.md). The step is exported once per family of shapes (``torch.export``) and compiled by AOTInductor into
a shared library (weights frozen in as constants, kernels called from C++); each call then goes straight to it, with
none of ``torch.compile``'s guard checks and wrappers, which cost as much as the kernels one sentence at a time.

The compiled step is §3.1's decoder for one new position, assembled from the model's own sub-layers (its
projections, norms and feed-forward layers; Eq. 1 itself as ``one_query_attention``'s sums). It takes
the position as a tensor, read in the graph as the number of cache columns written: attention reads those
columns of the preallocated cache and no more, and no input's shape changes from one step to the next. In beam
search's families it reads each beam's past through the cache's lineage (``LayerCaches.follow``): beams that
change parents then cost no copying of keys and values. It ends with the searches' float32 log-softmax (``log_probs``, which
``next_log_probs`` asks for), fused with the output projection, or with a search's decision itself (``with_head``:
beam search's top candidates, greedy's choice), so that a step returns a few numbers instead of (N, V) for Python to
rank. A family is a beam size, whether the batch is one sentence and the head; the rows, the cache's capacity and
the source length vary within it. Every other step (a prompt of
several tokens, left-padded prompts, a full cache, gradients, a one-token source) runs the model's own
``decode_step``; models with attention variants (relative, local) or without an encoder are left as they are.

Usage: ``compile_decoding(model)`` before decoding. Frozen weights: decode with it, do not train it further.
"""

from __future__ import annotations

import logging
import tempfile
import warnings

import torch
from torch import Tensor, nn

from .attention.core import one_query_attention
from .cache import DecoderState

# Inductor options: the weights become constants (it lays them out for its kernels once)
INDUCTOR = {"freezing": True}
# ... and on the CPU, each product of the step timed as Inductor's own C++ kernel (for these frozen weights and
# shapes) against oneDNN's, the faster kept: its kernels won for one sentence at a time (BENCHMARKS.md), at the
# cost of about 20 s more per family compiled (its tables of timings not printed)
INDUCTOR_CPU = {**INDUCTOR, "max_autotune": True, "max_autotune_gemm_backends": "CPP,ATEN",
                "autotune_num_choices_displayed": 0, "max_autotune_report_choices_stats": False}
# A server meets a few families of shapes (one sentence or several, for each beam size): room for them all
RECOMPILES = 32
# beam search's families read each beam's past where its ancestors wrote it (``LayerCaches.follow``), so that no
# step copies the cache into place: 1.32x at 64 sentences a batch, beam 4, on AMX (BENCHMARKS.md); False: copied
LINEAGE = True
# --compile's help, for every command that takes it (translate, evaluate, serve)
HELP = ("compile the decoder's step for this machine (torch.export and AOTInductor; needs a C++ compiler): faster per "
        "sentence once compiled, which takes tens of seconds on a CPU (it times its kernels) at the first sentences and "
        "again at the first of a new beam size or batch kind; with --dtype int8 the int8 weights stay, and the "
        "activations are bfloat16, or int8 too where the CPU has VNNI and no AMX (BENCHMARKS.md measures it)")

log = logging.getLogger("aiayn")


class OneTokenStep(nn.Module):
    """(N, 1) new tokens at position ``pos`` (a (1,) tensor) -> (N, 1, V) log-probabilities (float32: the searches'
    log-softmax in the graph, fused with the output projection), writing each layer's key and
    value into column ``pos`` of its cache. ``beams`` consecutive rows share a sentence's encoder keys.

    With a ``head`` (a search's next decision, such as beam search's top candidates), the step returns
    ``head(log_probs (N, V), rules, *extra)`` instead: the decision is made in the graph, not by a dozen small calls
    from Python. A head is a hashable ``decoding.common.RuledHead``: ``rules`` is its ``rule_table``, a constant of
    the graph; its ``leading`` names each extra input's first dimension (``"batch"``: sentences, ``"rows"``:
    sentences x beams)."""

    def __init__(self, model: nn.Module, beams: int = 1, head=None):
        super().__init__()
        self.model, self.beams, self.head = model, beams, head
        if head is not None:
            vocab = model.config.tgt_vocab_size
            self.register_buffer("rules", head.rule_table(vocab, model.tgt_embed.weight.device), persistent=False)

    def forward(self, tokens: Tensor, pos: Tensor, keys: list[Tensor], values: list[Tensor],
                cross_kv: list[tuple[Tensor, Tensor]], src_mask: Tensor, lineage: list[Tensor], extra: list[Tensor]):
        x = self.decoder(tokens, pos, keys, values, cross_kv, src_mask, self.beams, *lineage)
        log_probs = self.model.project(self.model.decoder_norm(x)).float().log_softmax(dim=-1)  # fused: one pass
        return log_probs if self.head is None else self.head(log_probs[:, 0], self.rules, *extra)

    def decoder(self, tokens: Tensor, pos: Tensor, keys: list[Tensor], values: list[Tensor],
                cross_kv: list[tuple[Tensor, Tensor]], src_mask: Tensor, beams: int, lineage: Tensor | None = None,
                ) -> Tensor:
        """The decoder layers' output (N, 1, d_model) for the new position, before the final norm. ``lineage``
        (N, L): the cache row that holds each row's column j (``LayerCaches.follow``); None: the row's own."""
        m = self.model
        x = m.tgt_embed(tokens)
        if m.positions is not None:
            x = x + m.positions.table[pos].to(x.dtype)
        end = pos.item() + 1  # the columns written, this step's included: attention reads those, not the capacity
        torch._check(end >= 1)
        torch._check(end <= keys[0].size(2))
        n = x.size(0)
        if lineage is not None:  # (N, end) rows and (end,) columns of each row's past
            past = lineage[:, :end], torch.arange(end, device=x.device)
        for layer, k_cache, v_cache, (k_mem, v_mem) in zip(m.decoder_layers, keys, values, cross_kv):
            attn = layer.self_attn
            q, k, v = attn.project_qkv(layer.res_self.input(x))  # (N, H, 1, D) each
            k_cache.index_copy_(2, pos, k)
            v_cache.index_copy_(2, pos, v)
            if lineage is not None:  # each row's keys and values from its ancestors' rows: (N, H, end, D)
                k_past, v_past = (c[past[0], :, past[1]].transpose(1, 2) for c in (k_cache, v_cache))
            else:
                k_past, v_past = k_cache[:, :, :end], v_cache[:, :, :end]
            out = one_query_attention(q.squeeze(2), k_past, v_past, None)  # (N, H, D_v)
            x = layer.res_self.output(x, attn.w_o(out.reshape(n, 1, -1)))
            attn = layer.cross_attn  # a sentence's beams query its memory together: (B, beams, H, D) against (B, 1, H, S, D)
            q = attn.w_q(layer.res_cross.input(x)).view(n // beams, beams, attn.n_heads, attn.d_k)
            out = one_query_attention(q, k_mem.unsqueeze(1), v_mem.unsqueeze(1), src_mask)  # mask (B, 1, 1, S)
            x = layer.res_cross.output(x, attn.w_o(out.reshape(n, 1, -1)))
            x = layer.res_ffn.output(x, layer.ffn(layer.res_ffn.input(x)))
        return x


class SourceStep(nn.Module):
    """(B, S) source ids -> the model's ``encode_for_decoding``, flattened: each decoder layer's cross-attention keys
    and values, then the padding mask. One sentence at a time the encoder's hundred small calls from Python cost
    about a tenth of each step; compiled, its share is 3-10% (benchmarks/results/2026-12-03-b/README.md)."""

    def __init__(self, model: nn.Module):
        super().__init__()
        self.model = model

    def forward(self, src: Tensor) -> list[Tensor]:
        cross_kv, src_mask = type(self.model).encode_for_decoding(self.model, src)  # the model's own, not ours
        return [*(t for kv in cross_kv for t in kv), src_mask]


class CompiledDecodeStep:
    """Stands in for ``model.decode_step``: a family's compiled ``OneTokenStep`` where it applies, else the model's
    own; and for ``model.encode_for_decoding`` (``encode_for_decoding``: a compiled ``SourceStep``)."""

    def __init__(self, model: nn.Module):
        self.model = model
        self.eager = type(model).decode_step.__get__(model)
        self.eager_encode = type(model).encode_for_decoding.__get__(model)
        self.runners: dict[tuple, object] = {}  # family -> its loaded library's runner
        self.sources: dict[tuple, object] = {}  # the same for the encoder's families
        self.positions: dict[tuple, Tensor] = {}  # (position, device) -> the step's input ``pos``
        self.folder = tempfile.TemporaryDirectory(prefix="aiayn-step-")  # the libraries, removed with this object
        self.failed = False  # past RECOMPILES families: the model's own step from then on
        # set by a server once warm: a family not compiled by then runs the model's own step, never compiling under
        # load; ``uncompiled`` remembers those families
        self.settled, self.uncompiled = False, set()

    def __call__(self, tokens: Tensor, state: DecoderState) -> Tensor:
        """``decode_step``: (N, T, V) logits; from the compiled library, normalized (float32 log-probabilities)."""
        out = self._compiled(tokens, state)
        return self.eager(tokens, state) if out is None else out

    def log_probs(self, tokens: Tensor, state: DecoderState) -> Tensor:
        """(N, V) float32 log-probabilities of the next token, as the searches take them (``next_log_probs``)."""
        out = self._compiled(tokens, state)
        return self.eager(tokens, state)[:, -1].float().log_softmax(dim=-1) if out is None else out[:, -1]

    def with_head(self, tokens: Tensor, state: DecoderState, head, extra: list[Tensor]) -> list[Tensor] | None:
        """``head(log_probs, *extra)`` (see ``OneTokenStep``) computed in the compiled step, which decodes ``tokens``;
        None where the model's own step must run (nothing is decoded then: the caller runs its own way)."""
        return self._compiled(tokens, state, head, extra)

    def encode_for_decoding(self, src: Tensor) -> tuple[list[tuple[Tensor, Tensor]], Tensor]:
        """``encode_for_decoding``: from the compiled ``SourceStep`` of the sources' family, else the model's own."""
        out = self._encoded(src)
        if out is None:
            return self.eager_encode(src)
        return list(zip(out[:-1:2], out[1:-1:2])), out[-1]

    def _encoded(self, src: Tensor) -> list[Tensor] | None:
        positions = self.model.positions
        table = None if positions is None else positions.table.size(0)
        if (self.failed or src.dim() != 2 or src.size(1) < 2 or (table is not None and src.size(1) > table)
                or torch.is_grad_enabled() or self.model.training):
            return None
        # one sentence or several; the position table, a constant of the library
        family = ("source", src.size(0) == 1, table)
        runner = self.sources.get(family)
        if runner is None:
            if family in self.uncompiled:
                return None
            dim = torch.export.Dim
            batch = dim.STATIC if family[1] else dim("batch", min=2)
            length = dim("source", min=2, max=table) if table is not None else dim("source", min=2)
            runner = self._library(self.sources, family, SourceStep(self.model), (src.clone(),),
                                   ({0: batch, 1: length},), src.device)
            if runner is None:
                return None
        return runner.run([src.contiguous()])

    def _compiled(self, tokens: Tensor, state: DecoderState, head=None, extra: list[Tensor] = ()):
        """The compiled step's (N, 1, V) log-probabilities (or its head's outputs, a list), or None where the
        model's own step must run (the caches settled for it first)."""
        out = self._run(tokens, state, head, extra)
        if out is None:
            state.self_kv.settle(state.pos)
        return out

    def _run(self, tokens: Tensor, state: DecoderState, head=None, extra: list[Tensor] = ()):
        caches = state.self_kv
        if (self.failed or tokens.size(1) != 1 or state.offset is not None or state.pos >= caches[0].capacity
                or caches[0].capacity < 2 or state.src_mask.size(-1) < 2  # sizes of 1 broadcast: the own step's
                or torch.is_grad_enabled() or self.model.training):
            return None
        positions = self.model.positions
        if positions is not None:
            positions._extend(state.pos + 1, tokens.device)  # sinusoids past the table: grown once
        # the position table is a constant of the library: a grown one is a new family
        family = (state.beams, state.src_mask.size(0) == 1, None if positions is None else positions.table.size(0), head)
        pos = self._position(state.pos, tokens.device)
        runner = self.runners.get(family)
        if runner is None and family in self.uncompiled:
            return None  # before ``follow``: the model's own step reads the caches in place
        inputs = [tokens.contiguous(), pos, *[c.k for c in caches], *[c.v for c in caches],
                  *[t for kv in state.cross_kv for t in kv], state.src_mask,
                  *([caches.follow()] if LINEAGE and state.beams > 1 else []), *extra]  # OneTokenStep's, flattened
        if runner is None:
            runner = self._compile(family, inputs, state.beams, head, len(extra))
            if runner is None:
                return None
        out = runner.run(inputs)
        state.pos += 1
        return out[0] if head is None else out

    def _position(self, pos: int, device: torch.device) -> Tensor:
        """``pos`` as the step's (1,) input: made once per position and device (never written: safe across threads),
        since ``torch.tensor`` costs a step about 1% one sentence at a time."""
        key = (pos, device)
        if key not in self.positions:
            self.positions[key] = torch.tensor([pos], device=device)
        return self.positions[key]

    def _compile(self, family: tuple, inputs: list[Tensor], beams: int, head=None, n_extra: int = 0):
        """The loaded library of the step of a new family of shapes for ``inputs`` (as ``_compiled`` flattens them),
        or None (``_library``)."""
        followed = int(LINEAGE and beams > 1)  # the lineage input
        one, n = family[1], (len(inputs) - n_extra - followed - 3) // 4  # tokens, pos, n keys, n values, n (k, v), mask
        x = [t.clone() for t in inputs]  # a search's tensors are inference tensors, which export cannot trace
        x, lineage, extra = (x[:len(x) - n_extra - followed], x[len(x) - n_extra - followed:len(x) - n_extra],
                             x[len(x) - n_extra:])
        args = (x[0], x[1], x[2:2 + n], x[2 + n:2 + 2 * n], list(zip(x[2 + 2 * n:-1:2], x[3 + 2 * n:-1:2])), x[-1],
                lineage, extra)
        dim = torch.export.Dim
        capacity, length = dim("capacity", min=2), dim("source", min=2)
        batch = dim.STATIC if one else dim("batch", min=2)  # sentences; rows = batch x beams
        rows = dim.STATIC if one else (batch if beams == 1 else beams * batch)
        cache = {0: rows, 2: capacity}
        memory = {0: batch, 2: length}
        leading = {"batch": batch, "rows": rows}
        shapes = ({0: rows}, None, [cache] * n, [cache] * n, [(memory, memory)] * n, {0: batch, 3: length},
                  [{0: rows, 1: capacity}] * followed,
                  [{0: leading[name]} for name in (head.leading if head is not None else ())])
        return self._library(self.runners, family, OneTokenStep(self.model, beams, head), args, shapes,
                             inputs[0].device)

    def _library(self, store: dict, family: tuple, module: nn.Module, args: tuple, shapes: tuple, device):
        """Exports ``module`` for ``args`` with ``shapes`` (``torch.export``'s dynamic shapes), compiles and loads it
        into ``store[family]``; None (and the family remembered) on a settled server or past RECOMPILES families."""
        if self.settled:
            self.uncompiled.add(family)
            return None
        compiled = len(self.runners) + len(self.sources)
        if compiled >= RECOMPILES:
            self.failed = True
            log.warning("the compiled decoding step stops here: more than %d families of shapes met; the model's "
                        "own step runs from now on", RECOMPILES)
            return None
        from torch._inductor import aoti_compile_and_package, aoti_load_package  # a second at start-up: when needed

        options = INDUCTOR_CPU if device.type == "cpu" else INDUCTOR
        path = f"{self.folder.name}/family-{compiled}.pt2"
        with torch.no_grad(), warnings.catch_warnings():
            warnings.filterwarnings("ignore", "TypedStorage is deprecated")  # Inductor's own, as it times kernels
            program = torch.export.export(module.eval(), args, dynamic_shapes=shapes, strict=False)
            store[family] = aoti_load_package(aoti_compile_and_package(program, package_path=path,
                                                                       inductor_configs=options)).loader
        return store[family]


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
    model.decode_step = CompiledDecodeStep(model)  # instance attributes: they shadow the class's methods
    model.encode_for_decoding = model.decode_step.encode_for_decoding
    return model
