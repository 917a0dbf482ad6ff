"""The compiled decoding step (``aiayn.model.compiled``, issue 42) against the model's own ``decode_step``:
the same logits at every step of a search (float32), the same greedy and beam outputs, the model's own step
where the compiled one does not apply, and the models it leaves alone or refuses."""

from __future__ import annotations

import copy

import pytest
import torch

from aiayn import precision
from aiayn.data import pad_right
from aiayn.decoding import greedy_search
from aiayn.decoding.beam import beam_search
from aiayn.model import LanguageModel, Transformer
from aiayn.model.attention.core import math_attention, one_query_attention
from aiayn.model.compiled import CompiledDecodeStep, compilable, compile_decoding
from aiayn.model.config import LanguageModelConfig, TransformerConfig
from aiayn.precision import Int8Linear, bf16_decoding_model, int8_compiled_model, int8_model

SMALL = dict(d_model=32, n_heads=4, d_ff=64, n_encoder_layers=2, n_decoder_layers=2, max_positions=64)


def small_transformer(**fields) -> Transformer:
    torch.manual_seed(0)
    return Transformer(TransformerConfig(src_vocab_size=40, tgt_vocab_size=40, **{**SMALL, **fields})).eval()


@pytest.fixture(scope="module")
def pair() -> tuple[Transformer, Transformer]:
    eager = small_transformer(norm_first=True)
    return eager, compile_decoding(copy.deepcopy(eager))


def sources() -> torch.Tensor:
    """Three sources of different lengths, right-padded: the searches drop finished rows as they go."""
    g = torch.Generator().manual_seed(1)
    return pad_right([torch.randint(4, 40, (n,), generator=g).tolist() + [2] for n in (5, 9, 3)], 0)


def checking(compiled: Transformer, eager: Transformer, tolerance: float) -> list[float]:
    """Makes every step of ``compiled`` also run ``eager``'s own step on a copy of the state; returns the
    largest log-probability difference per step (and asserts each within ``tolerance``)."""
    step, diffs = compiled.decode_step, []
    calls = {"compiled": 0}
    inner = step._compiled

    def counted(*args):
        out = inner(*args)
        calls["compiled"] += out is not None  # a step the compiled library answered
        return out

    def both(tokens, state):
        reference = copy.deepcopy(state)
        reference.self_kv.settle(reference.pos)  # beams' columns copied into their rows, as the model's own step reads
        # the compiled step's logits come normalized: compared as log-probabilities
        out, ref = (z.float().log_softmax(dim=-1) for z in (step(tokens, state),
                                                            type(eager).decode_step(eager, tokens, reference)))
        diffs.append(float((out - ref).abs().max()))
        assert diffs[-1] <= tolerance * float(ref.abs().max()), diffs
        assert state.pos == reference.pos
        return out

    step._compiled = counted
    compiled.decode_step = both
    return diffs, calls, lambda: (setattr(compiled, "decode_step", step), vars(step).pop("_compiled"))


def test_one_query_attention_is_eq1():
    """The sums the compiled step attends with equal Eq. 1 spelled out as matrix products (float64), a row with no
    key allowed included, for one query per row and for a sentence's beams querying its memory together."""
    g = torch.Generator().manual_seed(0)
    q, k, v = (torch.randn(3, 2, 5, 4, generator=g, dtype=torch.float64) for _ in range(3))  # (B, H, T = S, D)
    mask = torch.rand(3, 1, 1, 5, generator=g) < 0.6
    mask[1] = False  # a row that may attend to nothing
    ours = one_query_attention(q.transpose(1, 2), k[:, None], v[:, None], mask)  # (B, T, H, D) against (B, 1, H, S, D)
    expected = math_attention(q, k, v, mask)[0].transpose(1, 2)  # (B, T, H, D)
    assert ours.shape == expected.shape and torch.allclose(ours, expected, atol=1e-12)
    assert torch.equal(ours[1], torch.zeros_like(ours[1]))
    one = one_query_attention(q[:, :, 0], k, v, mask[:, 0])  # one query a row: (B, H, D)
    assert torch.allclose(one, math_attention(q[:, :, :1], k, v, mask)[0][:, :, 0], atol=1e-12)


@pytest.mark.parametrize("beam", [1, 4])
def test_every_step_equals_the_models_own(pair, beam):
    eager, compiled = pair
    diffs, calls, restore = checking(compiled, eager, 1e-5)
    try:
        with torch.no_grad():
            if beam == 1:
                greedy_search(compiled, sources(), max_len_a=0, max_len_b=12)
            else:
                beam_search(compiled, sources(), beam_size=beam, alpha=0.6, max_len_a=0, max_len_b=12)
    finally:
        restore()
    assert len(diffs) >= 3 and calls["compiled"] == len(diffs)  # every step went through the compiled one


def test_the_compiled_encoder_equals_the_models_own(pair):
    """``encode_for_decoding`` from the compiled ``SourceStep``: the model's own keys, values and mask for one sentence
    and for batches of several lengths, padded; sources of one token, longer than the position table, or with
    gradients take the model's own."""
    eager, compiled = pair
    g = torch.Generator().manual_seed(3)
    padded = sources()
    batches = [padded, padded[:2, :7], padded[1:2], torch.randint(4, 40, (5, 30), generator=g), padded[:1, :1]]
    with torch.inference_mode():
        for src in batches:
            (kv, mask), (kv_ref, mask_ref) = compiled.encode_for_decoding(src), eager.encode_for_decoding(src)
            assert torch.equal(mask, mask_ref) and len(kv) == len(kv_ref) == 2
            for got, want in zip((t for pair in kv for t in pair), (t for pair in kv_ref for t in pair)):
                assert got.shape == want.shape and torch.allclose(got, want, atol=1e-5), float((got - want).abs().max())
    families = set(compiled.decode_step.sources)
    assert families == {("source", False, 64), ("source", True, 64)}  # one sentence, several; the 1-token source: own
    calls = []
    step = compiled.decode_step
    eager_encode, step.eager_encode = step.eager_encode, lambda src: calls.append(src.shape) or eager_encode(src)
    try:
        with torch.inference_mode():
            compiled.encode_for_decoding(torch.randint(4, 40, (2, 70), generator=g))  # past the 64 positions
        compiled.encode_for_decoding(padded)  # gradients on
    finally:
        step.eager_encode = eager_encode
    assert calls == [(2, 70), padded.shape] and set(compiled.decode_step.sources) == families


def test_greedy_and_beam_outputs_equal_the_models_own(pair):
    eager, compiled = pair
    with torch.no_grad():
        for search in (lambda m: [[h] for h in greedy_search(m, sources(), max_len_a=0, max_len_b=15)],
                       lambda m: beam_search(m, sources(), beam_size=3, nbest=2, alpha=0.6, max_len_a=0, max_len_b=15),
                       # limits by source length: sentences leave the batch, their beams' caches copied into place
                       lambda m: beam_search(m, sources(), beam_size=3, alpha=0.6, max_len_a=1, max_len_b=2)):
            ours, theirs = search(compiled), search(eager)
            assert [[h.tokens for h in hyps] for hyps in ours] == [[h.tokens for h in hyps] for hyps in theirs]
            for a, b in zip(ours, theirs):
                assert [h.score for h in a] == pytest.approx([h.score for h in b], abs=1e-4)


def answered_in_the_graph(step, monkeypatch, n_outputs: int) -> list[bool]:
    """Records, per step of ``step`` (a CompiledDecodeStep), whether its graph answered with the head's ``n_outputs``
    tensors; a step that asks for the log-probabilities instead fails the test."""
    answered, real = [], step.with_head

    def counted(*args):
        out = real(*args)
        answered.append(out is not None and len(out) == n_outputs)
        return out

    monkeypatch.setattr(step, "with_head", counted)
    monkeypatch.setattr(step, "log_probs", lambda *args: pytest.fail("a step asked for the log-probabilities"))
    return answered


def test_beam_search_decides_each_step_in_the_compiled_graph(pair, monkeypatch):
    """The compiled beam search's steps return the top candidates from the graph (``TopCandidates``), not the
    log-probabilities: no step falls back to constraining and ranking them in Python."""
    eager, compiled = pair
    ours, theirs = beam_searches_answered_in_the_graph(eager, compiled, monkeypatch)
    assert [h[0].tokens for h in ours] == [h[0].tokens for h in theirs]


def beam_searches_answered_in_the_graph(eager, compiled, monkeypatch):
    """Beam 3 on both models, each step of the compiled one checked to come from its graph: (compiled, eager) n-bests."""
    answered = answered_in_the_graph(compiled.decode_step, monkeypatch, 3)
    with torch.no_grad():
        ours = beam_search(compiled, sources(), beam_size=3, alpha=0.6, max_len_a=0, max_len_b=15)
        theirs = beam_search(eager, sources(), beam_size=3, alpha=0.6, max_len_a=0, max_len_b=15)
    assert len(answered) >= 10 and all(answered)
    return ours, theirs


def test_the_compiled_beam_search_through_the_blocks_maxima_equals_the_eager_one(monkeypatch):
    """The graph's top 2K through ``beam.top_k``'s blocks (here of 4 values, so that 3 beams x 40 tokens take that
    path; at tiny's 64-value blocks it takes 4 x 8,000), not one topk: the same outputs as the eager model's."""
    from aiayn.decoding import beam

    monkeypatch.setattr(beam, "BLOCK", 4)
    eager = small_transformer(norm_first=True)
    ours, theirs = beam_searches_answered_in_the_graph(eager, compile_decoding(copy.deepcopy(eager)), monkeypatch)
    assert [h[0].tokens for h in ours] == [h[0].tokens for h in theirs]
    assert [h[0].score for h in ours] == pytest.approx([h[0].score for h in theirs], abs=1e-4)


def test_greedy_search_chooses_each_token_in_the_compiled_graph(pair, monkeypatch):
    """One sentence at a time, greedy's choice and its log-probability come from the graph (``Greedy``), min_len and
    the limit applied there; several rows take the graph's log-probabilities and choose on the host."""
    eager, compiled = pair
    step = compiled.decode_step
    with torch.no_grad():
        with monkeypatch.context() as patched:
            answered = answered_in_the_graph(step, patched, 2)
            ours = [h for i in range(3) for h in greedy_search(compiled, sources()[i:i + 1], max_len_a=0, max_len_b=15,
                                                               min_len=4)]
        theirs = [h for i in range(3) for h in greedy_search(eager, sources()[i:i + 1], max_len_a=0, max_len_b=15,
                                                             min_len=4)]
        monkeypatch.setattr(step, "with_head", lambda *args: pytest.fail("several rows were decided in the graph"))
        greedy_search(compiled, sources(), max_len_a=0, max_len_b=15, min_len=4)
    assert len(answered) >= 30 and all(answered)
    assert [h.tokens for h in ours] == [h.tokens for h in theirs]
    assert [h.score for h in ours] == pytest.approx([h.score for h in theirs], abs=1e-4)


def test_prompts_and_gradients_take_the_models_own_step(pair):
    """Left-padded prompts of several tokens (the first step feeds them all) and steps with gradients are the
    model's own; the outputs stay the eager model's."""
    eager, compiled = pair
    prompt = torch.tensor([[0, 1, 7, 9], [1, 5, 6, 8]])  # the first row left-padded
    with torch.no_grad():
        ours = greedy_search(compiled, sources()[:2], max_len_a=0, max_len_b=10, prompt=prompt)
        theirs = greedy_search(eager, sources()[:2], max_len_a=0, max_len_b=10, prompt=prompt)
    assert [h.tokens for h in ours] == [h.tokens for h in theirs]
    state = compiled.start_decoding(sources()[:1], 1, 8)
    logits = compiled.decode_step(torch.tensor([[1]]), state)  # gradients on: the eager step, differentiable
    assert logits.requires_grad and state.pos == 1


def test_bfloat16_steps_stay_within_bf16_rounding():
    eager = bf16_decoding_model(small_transformer())  # the packed bf16 decoder, as --dtype bfloat16 builds it
    compiled = compile_decoding(bf16_decoding_model(small_transformer()))  # the same seed: the same weights
    diffs, calls, restore = checking(compiled, eager, 0.05)  # bf16 keeps 8 bits: a few hundredths of the scale
    try:
        with torch.no_grad():
            beam_search(compiled, sources(), beam_size=2, alpha=0.6, max_len_a=0, max_len_b=8)
    finally:
        restore()
    assert calls["compiled"] == len(diffs) >= 3


def test_models_it_does_not_cover_are_left_alone():
    relative = small_transformer(attention="relative", positional="none")
    lm = LanguageModel(LanguageModelConfig(vocab_size=40, d_model=32, n_heads=4, d_ff=64, n_layers=2, max_positions=32))
    for model in (relative, lm):
        assert not compilable(model)
        assert compile_decoding(model) is model and "decode_step" not in vars(model)
    plain = small_transformer()
    assert compilable(plain) and isinstance(compile_decoding(plain).decode_step, CompiledDecodeStep)


@pytest.mark.parametrize("int8_rows_too", [False, True])
def test_an_int8_model_keeps_its_int8_weights_and_its_steps_stay_within_bf16_rounding(monkeypatch, int8_rows_too):
    """--dtype int8 --compile: every linear layer keeps the int8 values and scales that int8_model quantised; one
    sentence at a time (one-row products on the int8 weights, in the compiled step) and three at a time (their bf16
    copy), or with every product's rows quantised too (``int8_activations``), each step stays within bf16 rounding
    of the same weights run eagerly."""
    from torch.ao.nn.quantized.dynamic import Linear as DynamicLinear

    monkeypatch.setattr(precision, "INT8_ACTIVATIONS", int8_rows_too)

    quantised = dict(int8_model(small_transformer()).named_modules())
    compiled = compile_decoding(int8_model(small_transformer()))
    converted = dict(compiled.named_modules())
    layers = [name for name, m in quantised.items() if isinstance(m, DynamicLinear)]
    assert len(layers) > 10 and all(isinstance(converted[name], Int8Linear) for name in layers)
    for name in layers:
        q, ours = quantised[name].weight(), converted[name]
        assert torch.equal(ours.weight_int8, q.int_repr())
        assert torch.equal(ours.rows.weight, q.dequantize().to(torch.bfloat16))
    eager = int8_compiled_model(int8_model(small_transformer()))  # the same layers, not compiled: bf16 copies
    for rows in (1, 3):
        diffs, calls, restore = checking(compiled, eager, 0.05)
        try:
            with torch.no_grad():
                greedy_search(compiled, sources()[:rows], max_len_a=0, max_len_b=8)
        finally:
            restore()
        assert calls["compiled"] == len(diffs) >= 3


def test_few_fixed_rows_multiply_the_int8_weights_more_or_varying_rows_their_bf16_copy(monkeypatch):
    """What the compiled step's export sees of an Int8Linear: the int8 kernel for a product of one row, and of up to
    ``int8_rows()`` rows where the rows are fixed in the graph (a family of one sentence); its bf16 copy for more rows, or
    for rows that vary (a family of several sentences, where only one row is known to be one). Each product equals
    the float64 one of the dequantised weights within bf16's rounding."""
    torch.manual_seed(0)
    monkeypatch.setattr(precision, "INT8_ROWS", 4)
    monkeypatch.setattr(precision, "INT8_ACTIVATIONS", False)
    weight = torch.randint(-127, 128, (24, 16), dtype=torch.int8)
    layer = Int8Linear(weight, torch.rand(24) / 100, torch.randn(24)).eval()

    def int8_in_graph(rows: int, varying: bool) -> bool:
        x = torch.randn(rows, 1, 16).to(torch.bfloat16)
        shapes = ({0: torch.export.Dim("rows", min=2)},) if varying else None
        with torch.no_grad():
            program = torch.export.export(layer, (x,), dynamic_shapes=shapes, strict=False)
            expected = x.double() @ (weight.double() * layer.scale.double()[:, None]).T + layer.rows.bias.double()
            assert torch.allclose(program.module()(x).double(), expected, rtol=0.02, atol=0.02)
        return any("_weight_int8pack_mm" in str(node.target) for node in program.graph.nodes)

    assert [int8_in_graph(rows, False) for rows in (1, 3, 4, 6)] == [True, True, True, False]
    assert not int8_in_graph(3, True)


def test_how_many_rows_take_the_int8_weights_follows_the_cpu(monkeypatch):
    """One row where the CPU has AMX (its bf16 products of four rows are the faster), up to 8 elsewhere (beam 4's
    four rows gained 2.19x from the int8 weights on an AVX-512 BF16 EPYC), and what the user set over both."""
    for flags, rows in (({"avx512_bf16", "amx_bf16", "amx_tile"}, 1), ({"avx512_bf16", "avx512_vnni"}, 8), (None, 8)):
        monkeypatch.setattr(precision, "cpu_flags", lambda flags=flags: flags)
        assert precision.int8_rows() == rows
    monkeypatch.setattr(precision, "INT8_ROWS", 2)
    assert precision.int8_rows() == 2


def test_int8_rows_are_quantised_where_the_cpu_has_vnni_and_no_amx(monkeypatch):
    """int8 x int8 products where VNNI multiplies int8 and there is no AMX (measured faster there), not with AMX
    (not measured there) nor without VNNI, and what the user set over all three."""
    for flags, rows_too in (({"avx512_bf16", "avx512_vnni"}, True), ({"avx2", "avx_vnni"}, True),
                            ({"avx512_vnni", "amx_bf16", "amx_int8"}, False), ({"avx2", "fma"}, False), (None, False)):
        monkeypatch.setattr(precision, "cpu_flags", lambda flags=flags: flags)
        assert precision.int8_activations() is rows_too
    monkeypatch.setattr(precision, "INT8_ACTIVATIONS", True)
    assert precision.int8_activations()


def test_int8_rows_make_an_int8_by_int8_product_that_inductor_hands_to_onednn(monkeypatch):
    """With ``int8_activations``, the exported product quantises each row by its own largest magnitude (so a row's
    product never depends on another row's values), equals the float64 product of the row-quantised inputs and the
    dequantised weights within float32 rounding, and Inductor rewrites it into oneDNN's int8 linear (its pattern
    matched: the form written here is the one its CPU passes recognise)."""
    from torch._dynamo.utils import counters
    from torch._inductor import aoti_compile_and_package, aoti_load_package

    from aiayn.model.compiled import INDUCTOR

    monkeypatch.setattr(precision, "INT8_ACTIVATIONS", True)
    torch.manual_seed(0)
    weight, scale = torch.randint(-127, 128, (24, 16), dtype=torch.int8), torch.rand(24) / 100
    layer = Int8Linear(weight, scale, torch.randn(24)).eval()
    x = torch.randn(3, 1, 16).to(torch.bfloat16)
    x[1] *= 100  # a row far larger than the others
    xd = x.double().reshape(3, 16)
    row_scale = xd.abs().amax(-1, keepdim=True) / 127
    quantised = (xd / row_scale).round() * row_scale
    expected = quantised @ (weight.double() * scale.double()[:, None]).T + layer.rows.bias.double()
    counters.clear()
    with torch.no_grad():
        program = torch.export.export(layer, (x,), strict=False)
        for y in (program.module()(x), aoti_load_package(aoti_compile_and_package(program, inductor_configs=INDUCTOR))(x)):
            assert y.dtype == torch.bfloat16 and y.shape == (3, 1, 24)
            assert torch.allclose(y.double().reshape(3, 24), expected, rtol=0.01, atol=0.01 * float(expected.abs().max()))
    assert counters["inductor"]["qlinear_weight_prepack_matcher_count"] == 1
    alone = torch.export.export(layer, (x[:1],), strict=False).module()(x[:1])
    assert torch.equal(alone, program.module()(x)[:1])  # its row's own scale: the same alone as beside a larger row


def test_a_served_translator_compiles_on_request(trained):
    """``aiayn serve --compile`` loads through ``tasks.subject(..., compiled=True)``."""
    from aiayn import tasks

    assert isinstance(tasks.subject(str(trained), compiled=True).model.decode_step, CompiledDecodeStep)
    assert "decode_step" not in vars(tasks.subject(str(trained)).model)


def test_past_its_recompile_limit_the_models_own_step_takes_over(monkeypatch, caplog):
    """A new family of shapes past the limit (a server meets many) is decoded by the model's own step, said once
    in the log, instead of failing the request."""
    from aiayn.model import compiled as module

    monkeypatch.setattr(module, "RECOMPILES", 1)
    eager, model = small_transformer(), compile_decoding(small_transformer())
    with torch.no_grad():
        for rows in (1, 3):  # one sentence, then three: a second compilation, past the limit of one
            ours = greedy_search(model, sources()[:rows], max_len_a=0, max_len_b=8)
            assert [h.tokens for h in ours] == [h.tokens for h in greedy_search(eager, sources()[:rows], max_len_a=0,
                                                                                 max_len_b=8)]
    assert model.decode_step.failed and caplog.text.count("the compiled decoding step stops here") == 1


def test_a_server_compiles_before_its_first_request_and_never_under_load(trained):
    """``aiayn serve --compile`` compiles the step's families of shapes as it loads the model (``serve._load``),
    so batches of any size and length after it (as clients make them) compile nothing new: in bf16 the
    attention's choice of kernel by size (``attention.core``) no longer splits the compiled step's shapes; a
    request with another beam size runs the model's own step."""
    import functools

    from aiayn import tasks
    from aiayn.decoding.options import DecodeOptions
    from aiayn.serve import _load
    from aiayn.serve.requests import Limits

    options = DecodeOptions(beam_size=2, max_len_b=20)
    make = functools.partial(tasks.subject, dtype="bfloat16", compiled=True)
    served = _load("micro", trained, make, options, Limits(), "bfloat16", None, None)
    try:
        step = served.worker.translator.model.decode_step
        families = lambda: set(step.runners)  # noqa: E731 -- every family the step compiled
        warmed = families()
        assert {beams for beams, *_ in warmed} == {2} and len(warmed) == 2  # one sentence, several: while loading
        translator = served.worker.translator
        words = "in the beginning was the word and the word was with god".split()
        for lines, length in ((1, 3), (1, 40), (2, 25), (8, 30), (5, 2)):
            translator.translate([" ".join(words[(i + j) % len(words)] for i in range(length)) for j in range(lines)],
                                 options)
        assert families() == warmed
        # another beam size needs new families: a settled server runs the model's own step for them, the same
        # translations as a server without --compile, and still compiles nothing
        # (the encoder's families, warmed too, serve them: the eager translator is given the same encoder)
        wider, lines = DecodeOptions(beam_size=3, max_len_b=20), [" ".join(words[:7]), " ".join(words[3:])]
        eager = tasks.subject(trained, dtype="bfloat16", compiled=False)
        eager.model.encode_for_decoding = step.encode_for_decoding
        sources = set(step.sources)
        assert translator.translate(lines, wider) == eager.translate(lines, wider)
        assert step.uncompiled
        assert families() == warmed and set(step.sources) == sources and len(sources) == 2
    finally:
        served.worker.close()
