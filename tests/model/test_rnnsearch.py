"""RNNsearch and RNNencdec (Bahdanau et al. 2015): against a step-by-step reference written here from
the paper's equations, and the properties padding, decoding and checkpoints must keep."""

import math

import pytest
import torch

from aiayn import beam_search, greedy_search
from aiayn.errors import ConfigError
from aiayn.io.checkpoint import save_weights
from aiayn.io.registry import ARCHITECTURES, load_model
from aiayn.model.config import RNNSearchConfig, TransformerConfig
from aiayn.model.rnnsearch import RNNSearch

PAD, BOS, EOS = 0, 1, 2
VOCAB, EMBED, HIDDEN, MAXOUT = 23, 7, 16, 5


def small(seed=0, **overrides):
    """A float64 model with weights drawn wide: the paper's initialisation (v_a = 0, N(0, 0.01²))
    starts with uniform attention and near-constant outputs, which would test little."""
    cfg = RNNSearchConfig.from_dict({"src_vocab_size": VOCAB, "embed_dim": EMBED, "hidden": HIDDEN,
                                     "maxout_dim": MAXOUT, "max_positions": 64, **overrides})
    torch.manual_seed(seed)
    model = RNNSearch(cfg).double().eval()
    with torch.no_grad():
        for p in model.parameters():
            p.normal_(0.0, 0.6)
    return model


def tokens(*rows, pad=PAD):
    width = max(map(len, rows))
    return torch.tensor([list(r) + [pad] * (width - len(r)) for r in rows])


SOURCES = [[5, 9, 11, 4, 17, EOS], [8, 3, EOS], [13, 6, 6, 21, EOS]]
TARGETS = [[BOS, 7, 12, 3], [BOS, 19], [BOS, 4, 4, 15, 9]]


# The reference: one sentence at a time, no padding, no nn.GRU, float64 ---------------------
def gru_cell(x, h, w_ih, w_hh, b_ih, b_hh):
    """PyTorch's GRU (gates r, z, n stacked in that order): n = tanh(W_n x + b + r ∘ (U_n h + b')),
    h' = (1 − z) ∘ n + z ∘ h."""
    xr, xz, xn = (w_ih @ x + b_ih).chunk(3)
    hr, hz, hn = (w_hh @ h + b_hh).chunk(3)
    r, z = torch.sigmoid(xr + hr), torch.sigmoid(xz + hz)
    n = torch.tanh(xn + r * hn)
    return (1 - z) * n + z * h


def run_gru(gru, inputs):
    h, out = torch.zeros(gru.hidden_size, dtype=torch.float64), []
    for x in inputs:
        h = gru_cell(x, h, gru.weight_ih_l0, gru.weight_hh_l0, gru.bias_ih_l0, gru.bias_hh_l0)
        out.append(h)
    return out


@torch.no_grad()
def reference(model, src, tgt_in):
    """Logits (T, V), α (T, S) and the contexts (T, 2n) of one unpadded sentence, step by step:

    h_j = [→h_j; ←h_j]; s_0 = tanh(W_s ←h_1); e_ij = v_aᵀ tanh(W_a s_(i−1) + U_a h_j + b);
    c_i = Σ_j softmax(e_i)_j h_j (RNNencdec: c = [→h_S; ←h_1]); t̃_i = U_o s_(i−1) + V_o E y_(i−1) + C_o c_i;
    t_i = pairwise max of t̃_i; logits = W_o t_i + b; s_i = GRU([E y_(i−1); c_i], s_(i−1)).
    """
    x = [model.src_embed.weight[t] for t in src]
    forward = run_gru(model.encoder_forward, x)
    backward = run_gru(model.encoder_backward, x[::-1])[::-1]
    h = torch.stack([torch.cat([f, b]) for f, b in zip(forward, backward)])  # (S, 2n)
    s = torch.tanh(model.init_state.weight @ backward[0] + model.init_state.bias)
    att, dec = model.attention, model.decoder
    logits, alphas, contexts = [], [], []
    for y in tgt_in:
        emb = model.tgt_embed.weight[y]
        if att is None:
            c = torch.cat([forward[-1], backward[0]])
        else:
            e = torch.stack([att.score.weight[0] @ torch.tanh(att.query.weight @ s + att.key.weight @ h_j + att.key.bias)
                             for h_j in h])
            alpha = torch.exp(e - e.max()) / torch.exp(e - e.max()).sum()
            c = (alpha[:, None] * h).sum(0)
            alphas.append(alpha)
        t_tilde = (model.readout_state.weight @ s + model.readout_state.bias + model.readout_embed.weight @ emb
                   + model.readout_context.weight @ c)
        t = torch.stack([max(t_tilde[2 * k], t_tilde[2 * k + 1]) for k in range(len(t_tilde) // 2)])
        logits.append(model.output.weight @ t + model.output.bias)
        contexts.append(c)
        s = gru_cell(torch.cat([emb, c]), s, dec.weight_ih, dec.weight_hh, dec.bias_ih, dec.bias_hh)
    return torch.stack(logits), (torch.stack(alphas) if alphas else None), torch.stack(contexts)


# The equations ------------------------------------------------------------------------------
@pytest.mark.parametrize("overrides", [{}, {"share_embeddings": True}, {"attention": False}])
def test_batched_forward_equals_the_step_by_step_reference(overrides):
    model = small(**overrides)
    with torch.no_grad():
        logits, alpha = model(tokens(*SOURCES), tokens(*TARGETS), return_attention=True)
    for b, (src, tgt) in enumerate(zip(SOURCES, TARGETS)):
        ref_logits, ref_alpha, _ = reference(model, src, tgt)
        torch.testing.assert_close(logits[b, : len(tgt)], ref_logits, rtol=1e-10, atol=1e-10)
        if ref_alpha is not None:
            torch.testing.assert_close(alpha[b, : len(tgt), : len(src)], ref_alpha, rtol=1e-10, atol=1e-12)
    assert (alpha is None) == (overrides.get("attention") is False)


def test_attention_sums_to_one_over_real_positions_and_is_zero_on_padding():
    model = small()
    src = tokens(*SOURCES)
    with torch.no_grad():
        _, alpha = model(src, tokens(*TARGETS), return_attention=True)
    assert alpha.shape == (len(SOURCES), max(map(len, TARGETS)), src.size(1))
    real = (src != PAD)[:, None, :].expand_as(alpha)
    torch.testing.assert_close(alpha.sum(-1), torch.ones(alpha.shape[:2], dtype=alpha.dtype), rtol=0, atol=1e-12)
    assert (alpha[~real] == 0).all() and (~real).any()
    assert (alpha[real] > 0).all()


def test_padding_and_batching_never_change_a_sentences_logits():
    model = small()
    src, tgt = SOURCES[1], TARGETS[1]
    with torch.no_grad():
        alone = model(tokens(src), tokens(tgt))[0]
        padded = model(tokens(src + [PAD] * 4), tokens(tgt + [PAD] * 3))[0, : len(tgt)]
        batched = model(tokens(SOURCES[0], src, [9] * 12 + [EOS]), tokens(TARGETS[2], tgt, TARGETS[0]))[1, : len(tgt)]
    torch.testing.assert_close(padded, alone, rtol=1e-12, atol=1e-12)
    torch.testing.assert_close(batched, alone, rtol=1e-12, atol=1e-12)


def test_the_backward_encoder_starts_at_each_sentences_real_end():
    model = small()
    src = tokens(*SOURCES)
    with torch.no_grad():
        encoded = model.encode(src)
    for b, sentence in enumerate(SOURCES):
        x = [model.src_embed.weight[t] for t in sentence]
        backward = torch.stack(run_gru(model.encoder_backward, x[::-1])[::-1])
        torch.testing.assert_close(encoded.annotations[b, : len(sentence), HIDDEN:], backward, rtol=1e-10, atol=1e-12)
        s0 = torch.tanh(model.init_state.weight @ backward[0] + model.init_state.bias)  # s_0 = tanh(W_s ←h_1)
        torch.testing.assert_close(encoded.init_state[b], s0, rtol=1e-10, atol=1e-12)


# RNNencdec ----------------------------------------------------------------------------------
def test_rnnencdec_has_no_attention_and_one_context_for_every_step():
    model = small(attention=False)
    assert model.attention is None and not any("attention" in name for name, _ in model.named_parameters())
    assert model.num_parameters() < small().num_parameters()
    fed = []  # the decoder GRU's input at each step: [E y_(i−1); c]
    hook = model.decoder.register_forward_hook(lambda module, args, out: fed.append(args[0][:, EMBED:].clone()))
    src, tgt = tokens(*SOURCES), tokens(*TARGETS)
    with torch.no_grad():
        logits, alpha = model(src, tgt, return_attention=True)
    hook.remove()
    assert alpha is None and len(fed) == tgt.size(1) - 1
    for b, sentence in enumerate(SOURCES):
        _, _, contexts = reference(model, sentence, TARGETS[b])
        summary = contexts[0]  # [→h_S; ←h_1]
        assert all(torch.equal(c[b], fed[0][b]) for c in fed)
        torch.testing.assert_close(fed[0][b], summary, rtol=1e-10, atol=1e-12)


# Decoding -----------------------------------------------------------------------------------
def score(model, src, hyp_tokens):
    """log P(hyp + EOS | src) by teacher forcing."""
    target = hyp_tokens + [EOS]
    with torch.no_grad():
        log_probs = model(tokens(src), tokens([BOS] + target[:-1]))[0].log_softmax(-1)
    return float(log_probs[torch.arange(len(target)), target].sum())


def test_cached_decode_steps_equal_the_teacher_forced_forward():
    model = small()
    src, tgt = tokens(*SOURCES), tokens(*TARGETS)
    with torch.no_grad():
        full = model(src, tgt)
        state = model.start_decoding(src, beam_size=1, capacity=tgt.size(1))
        one_by_one = torch.cat([model.decode_step(tgt[:, t: t + 1], state) for t in range(tgt.size(1))], 1)
        at_once = model.decode_step(tgt, model.start_decoding(src))
    assert state.pos == tgt.size(1)
    torch.testing.assert_close(one_by_one, full, rtol=1e-12, atol=1e-12)
    torch.testing.assert_close(at_once, full, rtol=1e-12, atol=1e-12)


def test_a_left_padded_prompt_decodes_as_the_unpadded_one():
    model = small()
    src = tokens(SOURCES[0], SOURCES[2])
    with torch.no_grad():
        full = model(src, tokens(TARGETS[0], TARGETS[2]))
        out = model.decode_step(torch.tensor([[PAD, *TARGETS[0]], TARGETS[2]]), model.start_decoding(src))
    torch.testing.assert_close(out[0, 1:], full[0, :4], rtol=1e-12, atol=1e-12)
    torch.testing.assert_close(out[1], full[1], rtol=1e-12, atol=1e-12)


def test_reordered_beams_carry_their_own_state():
    model = small()
    src, tgt = tokens(*SOURCES), tokens(*TARGETS)
    with torch.no_grad():
        full = model(src, tgt)
        state = model.start_decoding(src, beam_size=2)
        model.decode_step(tgt[:, :2].repeat_interleave(2, 0), state)
        state.reorder(torch.tensor([1, 0, 5, 4]))  # swap sentence 0's beams, drop sentence 1, swap sentence 2's
        out = model.decode_step(tgt[[0, 0, 2, 2], 2:3], state)
    torch.testing.assert_close(out[:, 0], full[[0, 0, 2, 2], 2], rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("attention", [True, False])
def test_greedy_equals_beam_1_and_both_score_what_the_model_says(attention):
    model = small(seed=3, attention=attention)
    src = tokens(*SOURCES)
    greedy = greedy_search(model, src, max_len_b=6)
    beam = beam_search(model, src, beam_size=1, alpha=0.0, max_len_b=6)
    for sentence, g, (b,) in zip(SOURCES, greedy, beam):
        assert g.tokens == b.tokens
        assert g.log_prob == pytest.approx(b.log_prob, abs=1e-5)
        assert g.log_prob == pytest.approx(score(model, sentence, g.tokens), abs=1e-5)
        # Greedy picks the argmax of the teacher-forced distribution at every step.
        with torch.no_grad():
            steps = model(tokens(sentence), tokens([BOS] + g.tokens))[0]
        steps[:, [PAD, BOS]] = -math.inf
        assert steps.argmax(-1).tolist()[: len(g.tokens)] == g.tokens


def test_beam_hypotheses_are_scored_by_the_model_they_came_from():
    model = small(seed=4)
    results = beam_search(model, tokens(*SOURCES), beam_size=3, alpha=0.0, nbest=3, max_len_b=5)
    for sentence, hyps in zip(SOURCES, results):
        assert len(hyps) == 3
        for h in hyps:
            assert h.log_prob == pytest.approx(score(model, sentence, h.tokens), abs=1e-5)


# Checkpoints and configuration --------------------------------------------------------------
@pytest.mark.parametrize("overrides", [{}, {"attention": False, "share_embeddings": True}])
def test_save_and_load_rebuild_an_identical_model(tmp_path, overrides):
    model = small(**overrides).float()
    save_weights(model, model.config, tmp_path / "model.safetensors", step=3)
    loaded, meta = load_model(tmp_path / "model.safetensors")
    assert type(loaded) is RNNSearch and meta["architecture"] == "rnnsearch" and meta["step"] == 3
    assert loaded.config == model.config
    assert loaded.state_dict().keys() == model.state_dict().keys()
    assert all(torch.equal(v, loaded.state_dict()[k]) for k, v in model.state_dict().items())
    assert (loaded.tgt_embed is loaded.src_embed) == bool(overrides.get("share_embeddings"))
    src, tgt = tokens(*SOURCES), tokens(*TARGETS)
    with torch.no_grad():
        assert torch.equal(loaded.eval()(src, tgt), model(src, tgt))


def test_config_checks_and_registry():
    assert ARCHITECTURES["rnnsearch"] is RNNSearch and RNNSearch.config_class is RNNSearchConfig
    paper = RNNSearchConfig()
    assert (paper.embed_dim, paper.hidden, paper.maxout_dim, paper.attention, paper.tgt_vocab_size) == (
        620, 1000, 500, True, paper.src_vocab_size)
    assert RNNSearchConfig.from_dict(paper.to_dict()) == paper
    with pytest.raises(ConfigError, match="unknown model config key.*hiden"):
        RNNSearchConfig.from_dict({"hiden": 10})
    with pytest.raises(ConfigError, match="attention must be true or false"):
        RNNSearchConfig(attention="full")
    with pytest.raises(ConfigError, match="maxout_dim"):
        RNNSearchConfig(maxout_dim=0)
    with pytest.raises(ValueError, match="share_embeddings"):
        RNNSearchConfig(src_vocab_size=10, tgt_vocab_size=12, share_embeddings=True)
    assert TransformerConfig(attention="relative").attention == "relative"  # the Transformer's field is untouched


def test_paper_initialisation():
    model = RNNSearch(RNNSearchConfig(src_vocab_size=VOCAB, embed_dim=EMBED, hidden=HIDDEN, maxout_dim=MAXOUT))
    assert (model.attention.score.weight == 0).all() and (model.decoder.bias_hh == 0).all()
    block = model.decoder.weight_hh[:HIDDEN]
    torch.testing.assert_close(block @ block.T, torch.eye(HIDDEN), rtol=0, atol=1e-5)
    assert model.attention.key.weight.std() < 0.002 and 0.005 < model.output.weight.std() < 0.02


def test_it_learns_copy_and_reverse_and_alpha_points_at_the_word_it_translates():
    """Trained on fresh random sequences, RNNsearch's α must learn the alignment a reader knows:
    target word i of a copy looks at source word i, of a reversal at word n + 1 − i (Bahdanau
    et al.'s Figure 3, where the truth is known). Attention starts uniform (U_a ~ N(0, 0.001²))
    and the alignment emerges after several hundred updates."""
    from synthetic import FIRST_SYMBOL, REVERSE, copy_reverse_batch

    from aiayn import label_smoothed_cross_entropy

    torch.manual_seed(0)
    model = RNNSearch(RNNSearchConfig(src_vocab_size=FIRST_SYMBOL + 8, embed_dim=32, hidden=64, maxout_dim=32))
    optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
    g = torch.Generator().manual_seed(0)
    for _ in range(2000):  # 1,300 left 84% of the words aligned with two threads (90% with one)
        src, tgt = copy_reverse_batch(32, 8, 6, g)
        out = label_smoothed_cross_entropy(model(src, torch.cat([torch.full((32, 1), BOS), tgt[:, :-1]], 1)), tgt,
                                           epsilon=0.0, pad_id=PAD)
        optimizer.zero_grad()
        (out.loss / out.n_tokens).backward()
        optimizer.step()
    src, tgt = copy_reverse_batch(200, 8, 6, torch.Generator().manual_seed(1))
    hyps = greedy_search(model, src, max_len_b=8)
    assert sum(h.tokens == [t for t in row.tolist() if t not in (PAD, EOS)] for h, row in zip(hyps, tgt)) >= 196
    _, alpha = model(src, torch.cat([torch.full((200, 1), BOS), tgt[:, :-1]], 1), return_attention=True)
    looked, right = alpha.argmax(-1), 0
    n_words = (tgt != PAD).sum(1) - 1  # the EOS is not a word
    for b in range(200):
        n = int(n_words[b])
        truth = [n - i if src[b, 0] == REVERSE else i + 1 for i in range(n)]  # source word 1..n after the task marker
        right += sum(int(looked[b, i]) == truth[i] for i in range(n))
    assert right >= 0.9 * int(n_words.sum()), f"{right} of {int(n_words.sum())} words"
