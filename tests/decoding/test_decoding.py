"""Greedy and beam search (§6.1): a fake model with known answers, and the real model's invariants."""

import math
from types import SimpleNamespace

import numpy as np
import pytest
import torch

from aiayn import Transformer, TransformerConfig, beam_search, greedy_search, length_penalty

PAD, BOS, EOS, A, B = 0, 1, 2, 3, 4

# Hand-written next-token probabilities after each prefix (of target tokens, BOS excluded).
TREE = {
    (): {A: 0.6, B: 0.4},
    (A,): {EOS: 0.1, A: 0.5, B: 0.4},
    (B,): {EOS: 0.7, A: 0.15, B: 0.15},
    (A, A): {EOS: 0.9, A: 0.05, B: 0.05},
    (A, B): {EOS: 0.5, A: 0.25, B: 0.25},
}
# Complete hypotheses: "B" p = 0.4 * 0.7 = 0.28 (2 tokens with EOS); "A A" p = 0.6 * 0.5 * 0.9 = 0.27 (3 tokens);
# "A B" p = 0.6 * 0.4 * 0.5 = 0.12; "A" p = 0.06.
# α = 0: "B" wins (ln 0.28 = -1.273 > ln 0.27 = -1.309). α = 1: lp(2) = 7/6, lp(3) = 8/6, so
# "A A" wins (-1.309 / 1.333 = -0.982 > -1.273 / 1.167 = -1.091). Greedy takes "A A".


class FakeState:
    def __init__(self, rows):
        self.prefixes = [() for _ in range(rows)]
        self.pos = 0

    def reorder(self, index):
        self.prefixes = [self.prefixes[i] for i in index.tolist()]


class FakeModel:
    """A decodable model (start_decoding / decode_step) whose probabilities come from TREE."""

    config = SimpleNamespace(pad_id=PAD, bos_id=BOS, eos_id=EOS, max_positions=100)
    vocab = 5

    def __init__(self, tree=TREE):
        self.tree = tree

    def start_decoding(self, src, beam_size=1, capacity=None):
        return FakeState(src.size(0) * beam_size)

    def decode_step(self, tokens, state):
        rows = []
        for i, tok in enumerate(tokens[:, -1].tolist()):
            if tok != BOS:
                state.prefixes[i] = state.prefixes[i] + (tok,)
            probs = self.tree.get(state.prefixes[i], {EOS: 1 / 3, A: 1 / 3, B: 1 / 3})
            rows.append([math.log(probs[k]) if k in probs else float("-inf") for k in range(self.vocab)])
        state.pos += 1
        return torch.tensor(rows)[:, None, :]


SRC = torch.tensor([[7, 7, 7]])


def test_beam_finds_the_best_hypothesis_without_length_penalty():
    (best, second), = beam_search(FakeModel(), SRC, beam_size=2, alpha=0.0, nbest=2)
    assert best.tokens == [B] and best.score == pytest.approx(math.log(0.28))
    assert second.tokens == [A, A] and second.score == pytest.approx(math.log(0.27))


def test_beam_finds_the_best_hypothesis_with_length_penalty():
    (best, second), = beam_search(FakeModel(), SRC, beam_size=2, alpha=1.0, nbest=2)
    assert best.tokens == [A, A] and best.score == pytest.approx(math.log(0.27) / (8 / 6))
    assert best.log_prob == pytest.approx(math.log(0.27))
    assert best.token_log_probs == pytest.approx([math.log(0.6), math.log(0.5), math.log(0.9)])
    assert second.tokens == [B] and second.score == pytest.approx(math.log(0.28) / (7 / 6))


def test_greedy_takes_the_locally_best_path():
    (hyp,) = greedy_search(FakeModel(), SRC)
    assert hyp.tokens == [A, A] and hyp.score == pytest.approx(math.log(0.27))


@pytest.mark.parametrize("min_len", [0, 5])
def test_length_limit_forces_eos(min_len):
    # Source of length 1 with max_len = 0 * 1 + 2: at most two tokens, EOS included (the limit
    # beats a larger min_len).
    (hyp,) = greedy_search(FakeModel(), torch.tensor([[7]]), max_len_a=0, max_len_b=2, min_len=min_len)
    assert hyp.tokens == [A] and hyp.score == pytest.approx(math.log(0.6 * 0.1))
    (beam,), = beam_search(FakeModel(), torch.tensor([[7]]), beam_size=2, alpha=0.0, max_len_a=0, max_len_b=2,
                           min_len=min_len)
    assert beam.tokens == [B] and beam.score == pytest.approx(math.log(0.28))


def test_min_len_bans_an_early_eos_in_beam_search_and_keeps_true_probabilities():
    # With two tokens required, "B" (p = 0.28) cannot end after one token: "A A" (0.27) and
    # "A B" (0.12) are the best two, scored with their unconstrained probabilities.
    (best, second), = beam_search(FakeModel(), SRC, beam_size=2, alpha=0.0, nbest=2, min_len=2)
    assert best.tokens == [A, A] and best.score == pytest.approx(math.log(0.27))
    assert second.tokens == [A, B] and second.score == pytest.approx(math.log(0.12))


def test_length_penalty_formula():
    assert length_penalty(1, 0.6) == pytest.approx(1.0)
    assert length_penalty(10, 0.6) == pytest.approx((15 / 6) ** 0.6)
    assert length_penalty(10, 0.0) == 1.0


# The real model ----------------------------------------------------------------------------
@pytest.fixture(scope="module")
def model():
    torch.manual_seed(0)
    cfg = TransformerConfig.from_dict(dict(src_vocab_size=40, d_model=32, n_heads=4, d_ff=64, n_encoder_layers=2,
                                           n_decoder_layers=2, dropout=0.0, max_positions=128))
    model = Transformer(cfg).eval()
    with torch.no_grad():  # sharpen the random model so hypotheses end at varied lengths
        model.src_embed.weight.mul_(4.0)
    return model


@pytest.fixture(scope="module")
def src():
    g = torch.Generator().manual_seed(3)
    rows = [torch.randint(3, 40, (n,), generator=g).tolist() + [2] for n in (3, 9, 5, 1, 12, 7)]
    width = max(map(len, rows))
    return torch.tensor([r + [0] * (width - len(r)) for r in rows])


def test_beam_size_one_is_exactly_greedy(model, src):
    greedy = greedy_search(model, src, max_len_b=10)
    beam = beam_search(model, src, beam_size=1, alpha=0.6, max_len_b=10)
    assert [h.tokens for h in greedy] == [b[0].tokens for b in beam]
    for g, (b,) in zip(greedy, beam):
        assert b.log_prob == pytest.approx(g.log_prob, abs=1e-4)


@pytest.mark.parametrize("alpha", [0.0, 0.6])
def test_reported_scores_equal_a_recomputation(model, src, alpha):
    results = beam_search(model, src, beam_size=4, alpha=alpha, max_len_b=10, nbest=4)
    for i, hyps in enumerate(results):
        assert len(hyps) == 4 and [h.score for h in hyps] == sorted((h.score for h in hyps), reverse=True)
        for h in hyps:
            target = torch.tensor([h.tokens + [EOS]])
            tgt_in = torch.tensor([[BOS] + h.tokens])
            with torch.no_grad():
                log_probs = model(src[i : i + 1], tgt_in).log_softmax(-1)
            total = log_probs.gather(-1, target[..., None]).sum().item()
            assert h.log_prob == pytest.approx(total, abs=1e-4)
            assert h.score == pytest.approx(total / length_penalty(len(h.tokens) + 1, alpha), abs=1e-4)


def test_batched_decoding_equals_one_sentence_at_a_time(model, src):
    batched = beam_search(model, src, beam_size=3, max_len_b=10)
    for i in range(src.size(0)):
        row = src[i : i + 1]
        row = row[:, : int((row != PAD).sum())]
        (alone,) = beam_search(model, row, beam_size=3, max_len_b=10)
        assert alone[0].tokens == batched[i][0].tokens
        assert alone[0].score == pytest.approx(batched[i][0].score, abs=1e-4)


def test_output_never_exceeds_source_length_plus_b(model, src):
    src_len = (src != PAD).sum(1)
    for b in (0, 2):
        for hyp, n in zip(greedy_search(model, src, max_len_b=b), src_len.tolist()):
            assert len(hyp.tokens) + 1 <= n + b
        for (hyp,), n in zip(beam_search(model, src, max_len_b=b), src_len.tolist()):
            assert len(hyp.tokens) + 1 <= n + b


def test_min_len_makes_greedy_go_on_past_a_likely_eos():
    eager = {(): {EOS: 0.5, A: 0.3, B: 0.2}, (A,): {EOS: 0.6, B: 0.4}, (A, B): {EOS: 1.0}}
    (hyp,) = greedy_search(FakeModel(eager), SRC)
    assert hyp.tokens == [] and hyp.score == pytest.approx(math.log(0.5))
    (hyp,) = greedy_search(FakeModel(eager), SRC, min_len=2)
    assert hyp.tokens == [A, B] and hyp.score == pytest.approx(math.log(0.3 * 0.4))


def test_decoding_leaves_the_model_in_training_mode_if_it_was(model, src):
    model.train()
    try:
        greedy_search(model, src[:1], max_len_b=2)
        assert model.training
    finally:
        model.eval()


# A live beam overtakes the finished ones after K have ended: "A" (0.3) and "A B" (0.1) end by step 2
# while "A A" (0.36 so far) is still alive, and "A A A" ends with p = 0.36.
LATE_TREE = {(): {A: 0.8, B: 0.2}, (A,): {A: 0.5, EOS: 0.375, B: 0.125}, (B,): {EOS: 0.6, B: 0.4},
             (A, A): {A: 0.9, EOS: 0.1}, (A, B): {EOS: 1.0}, (A, A, A): {EOS: 1.0}}


def test_exact_beam_stops_only_when_no_live_beam_can_still_win():
    (early,), = beam_search(FakeModel(LATE_TREE), SRC, beam_size=2, alpha=0.0)
    assert early.tokens == [A] and early.score == pytest.approx(math.log(0.3))  # K = 2 ended: stop
    (exact,), = beam_search(FakeModel(LATE_TREE), SRC, beam_size=2, alpha=0.0, early_stopping=False)
    assert exact.tokens == [A, A, A] and exact.score == pytest.approx(math.log(0.36))


@pytest.mark.parametrize("alpha", [0.0, 0.6])
def test_exact_beam_is_never_worse_by_the_models_own_score(alpha):
    torch.manual_seed(5)
    model = Transformer(TransformerConfig(src_vocab_size=8, tgt_vocab_size=8, d_model=32, n_heads=4, d_k=8, d_v=8,
                                          d_ff=64, n_encoder_layers=2, n_decoder_layers=2, dropout=0.0)).eval()
    with torch.no_grad():  # sharper distributions, so that hypotheses end at many different lengths
        for p in model.parameters():
            p.mul_(3)
    src = torch.randint(3, 8, (16, 6))
    early = beam_search(model, src, beam_size=3, alpha=alpha, nbest=2)
    exact = beam_search(model, src, beam_size=3, alpha=alpha, nbest=2, early_stopping=False)
    for e, x in zip(early, exact):
        # the same search, continued (float32 noise aside: batches shrink at other steps)
        assert all(xi.score >= ei.score - 1e-6 * max(1.0, abs(ei.score)) for ei, xi in zip(e, x))
    assert any(e[0].tokens != x[0].tokens for e, x in zip(early, exact))  # the rule matters on a random model


def test_argmax_is_torchs_first_largest_value():
    """Greedy's argmax (numpy's on the CPU) picks what Tensor.argmax picks: the first of tied values, a NaN over
    any number, index 0 in a row of -inf; in float32, on views and in other dtypes alike."""
    from aiayn.decoding.common import argmax

    x = torch.randn(64, 8000).log_softmax(-1)
    x[1, [5, 9, 7000]] = 3.0  # ties: the first wins
    x[2] = float("-inf")
    x[3, 17] = float("nan")
    x[4, [40, 41]] = float("inf")
    for rows in (x, x[::2], x[:, :5000], x.double(), x.bfloat16()):
        got = argmax(rows)
        assert got.dtype == torch.long and torch.equal(got, rows.argmax(dim=-1))
    assert argmax(x)[1:5].tolist() == [5, 0, 17, 40]


@pytest.mark.parametrize("ids", [(0, 1, 2), (6, 9, 3)])  # pad, BOS, EOS
@pytest.mark.parametrize("t, min_len", [(0, 0), (3, 5), (7, 0), (7, 9)])
def test_the_top_candidates_in_one_pass_equal_constrain_then_beam_step(t, min_len, ids):
    """``TopCandidates`` (what the compiled step runs in its graph) against ``constrain`` and ``beam_step`` (what the
    model's own step is followed by), with rows at their limit, rows that may not end yet and dead beams (-inf)."""
    from aiayn.decoding.beam import TopCandidates, beam_step
    from aiayn.decoding.common import constrain, rule_classes

    cfg = SimpleNamespace(pad_id=ids[0], bos_id=ids[1], eos_id=ids[2])
    g = torch.Generator().manual_seed(t)
    b, k, v = 3, 4, 11
    log_probs = torch.randn(b * k, v, generator=g).log_softmax(dim=-1)
    scores = torch.randn(b, k, generator=g)
    scores[0, 1:] = float("-inf")  # a sentence's first step: one live beam
    limits = torch.tensor([8, 20, 8]).repeat_interleave(k).numpy()  # sentences 0 and 2 end at step 7
    expected = beam_step(scores, constrain(log_probs.clone(), t, limits, min_len, cfg).view(b, k, v), cfg.eos_id)
    head = TopCandidates(cfg.pad_id, cfg.bos_id, cfg.eos_id, k)
    top_scores, parents, tokens = head(log_probs, head.rule_table(v), rule_classes(limits, t, min_len, "cpu"), scores)
    assert torch.equal(top_scores, torch.from_numpy(expected.considered[0]))
    assert torch.equal(parents, torch.from_numpy(expected.considered[1]))
    assert torch.equal(tokens, torch.from_numpy(expected.considered[2]))
    assert hash(head) == hash(TopCandidates(*ids, k))  # a compiled family's key: equal heads share a library


@pytest.mark.parametrize("n", [4 * 8 * 64, 32_000, 32_001, 148_000])
def test_top_k_through_the_blocks_maxima_equals_topk(n):
    """``top_k`` (the compiled beam step's top 2K) against ``Tensor.topk``: the same values and indices on rows with no
    ties, among them rows whose best values crowd into one block, rows with most values -inf (dead beams, ruled-out
    tokens) and lengths that leave a partial last block; the same values where the ties are -inf."""
    from aiayn.decoding.beam import BLOCK, top_k

    g = torch.Generator().manual_seed(n)
    x = torch.randn(6, n, generator=g)
    x[1, 5 * BLOCK:6 * BLOCK] += 100  # the whole top 8 in one block
    x[2, : n - 20] = float("-inf")  # 20 finite values at the very end, in the partial block where there is one
    x[3, ::2] = float("-inf")
    x[4] = -x[4].abs().sort(descending=True).values  # already in order
    x[5, :] = float("-inf")
    x[5, 3] = 0.0  # one finite value, then ties of -inf
    want_values, want_index = x.topk(8, dim=1)
    values, index = top_k(x, 8)
    assert torch.equal(values, want_values)
    assert torch.equal(index[:5], want_index[:5])
    assert index[5, 0] == 3 and torch.equal(x.gather(1, index), values)


@pytest.mark.parametrize("ids", [(0, 1, 2), (6, 9, 3)])  # pad, BOS, EOS
@pytest.mark.parametrize("t, min_len", [(3, 5), (7, 0), (7, 9)])
def test_greedys_choice_in_one_pass_equals_constrain_then_argmax(t, min_len, ids):
    """``Greedy`` (the compiled step's head) against ``constrain`` then ``argmax`` and the chosen log-probability."""
    from aiayn.decoding.common import argmax, constrain, rule_classes
    from aiayn.decoding.greedy import Greedy

    cfg = SimpleNamespace(pad_id=ids[0], bos_id=ids[1], eos_id=ids[2])
    log_probs = torch.randn(5, 11, generator=torch.Generator().manual_seed(t)).log_softmax(dim=-1)
    log_probs[:, cfg.eos_id] = log_probs.max(dim=1).values + 1  # EOS would win wherever it may come
    log_probs[0, cfg.pad_id] = log_probs[1, cfg.bos_id] = 10.0  # and pad or BOS where they could
    limits = np.array([8, 20, 8, 20, 9])
    expected = constrain(log_probs.clone(), t, limits, min_len, cfg)
    head = Greedy(*ids)
    best, best_lp = head(log_probs, head.rule_table(11), rule_classes(limits, t, min_len, "cpu"))
    assert torch.equal(best, argmax(expected)) and torch.equal(best_lp, expected.gather(1, best[:, None])[:, 0])
