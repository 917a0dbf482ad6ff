"""The studio's alignment and parse views (issue 45): α is RNNsearch's own additive attention (checked
against e_ij = v_aᵀ tanh(W_a s_(i−1) + U_a h_j) in float64 from the states it was given), RNNencdec says
it has none, and the parse's tree is read from exactly the symbols the search emitted."""

from __future__ import annotations

import json

import numpy as np
import pytest
import torch
from conftest import corpus_slice

from aiayn import Transformer, TransformerConfig
from aiayn.data import Tokenizer
from aiayn.data.treebank import EOS, Vocab, delinearise
from aiayn.decoding.options import DecodeOptions
from aiayn.decoding.search import search
from aiayn.errors import UsageError
from aiayn.inference.alignment_views import alignment, parse_tree, tree_dict
from aiayn.inference.parser import Parser
from aiayn.inference.translator import Translator
from aiayn.model.config import RNNSearchConfig
from aiayn.model.rnnsearch import RNNSearch

SENTENCE = "In the beginning God created the heaven and the earth."


@pytest.fixture(scope="module")
def tokenizer(tmp_path_factory) -> Tokenizer:
    rows = corpus_slice("train", 300)
    return Tokenizer.train([en for en, _ in rows] + [es for _, es in rows],
                           tmp_path_factory.mktemp("spm") / "spm.model", vocab_size=300)


def rnn(tokenizer, attention: bool) -> Translator:
    torch.manual_seed(0)
    model = RNNSearch(RNNSearchConfig(src_vocab_size=tokenizer.vocab_size, embed_dim=16, hidden=24, maxout_dim=8,
                                      attention=attention))
    for p in model.parameters():  # the paper's initialisation makes α uniform (v_a = 0): shake it
        torch.nn.init.normal_(p, 0.0, 0.5)
    return Translator(model.eval(), tokenizer)  # float32, as Translator keeps it


def test_the_alignment_is_rnnsearchs_own_alpha(tokenizer):
    translator = rnn(tokenizer, attention=True)
    att = translator.model.attention
    seen = []
    handle = att.register_forward_hook(lambda m, args, out: seen.append((args[0], args[2], args[3], out[1])))
    try:
        view = alignment(translator, SENTENCE, target="En el principio creó Dios los cielos y la tierra.")
    finally:
        handle.remove()
    alpha = np.array(view["alpha"])
    src_ids = tokenizer.encode([SENTENCE])[0] + [tokenizer.eos_id]
    tgt_ids = tokenizer.encode(["En el principio creó Dios los cielos y la tierra."])[0] + [tokenizer.eos_id]
    assert view["source"] == tokenizer.pieces(src_ids) and view["target"] == tokenizer.pieces(tgt_ids)
    assert alpha.shape == (len(tgt_ids), len(src_ids)) and (view["layers"], view["heads"]) == (1, 1)
    np.testing.assert_allclose(alpha.sum(1), 1.0, rtol=0, atol=1e-6)  # attention_maps hands float32 on
    assert alpha.std(1).min() > 1e-3  # not uniform: something to see
    # Bahdanau's appendix A.1.2 by hand, from the states the step was given: e_ij = v_aᵀ tanh(W_a s + U_a h_j + b)
    assert len(seen) == len(tgt_ids)
    for i, (state, h, _, weights) in enumerate(seen):
        w_a, u_a, b, v_a = (x.detach().double() for x in (att.query.weight, att.key.weight, att.key.bias, att.score.weight[0]))
        energy = torch.tanh(state.double() @ w_a.T + h.double() @ u_a.T + b) @ v_a  # (1, S), float64
        np.testing.assert_allclose(alpha[i], energy[0].softmax(-1).detach().numpy(), rtol=0, atol=1e-6)
        np.testing.assert_allclose(alpha[i], weights[0].float().numpy(), rtol=0, atol=0)
    json.dumps(view)


def test_the_alignment_of_the_models_own_translation(tokenizer):
    translator = rnn(tokenizer, attention=True)
    view = alignment(translator, SENTENCE, beam_size=2)
    assert view["translation"] == translator.translate([SENTENCE], beam_size=2)[0]
    hyp = translator.search(torch.tensor([tokenizer.encode([SENTENCE])[0] + [tokenizer.eos_id]]),
                            DecodeOptions(beam_size=2))[0][0]
    assert view["target"] == tokenizer.pieces(hyp.tokens + [tokenizer.eos_id]) and len(view["alpha"]) == len(hyp.tokens) + 1


def test_rnnencdec_says_it_has_no_alignment(tokenizer):
    view = alignment(rnn(tokenizer, attention=False), SENTENCE, beam_size=2)
    assert view["alignment"] is False and "fixed vector" in view["reason"] and view["see"].startswith("docs/")
    assert "alpha" not in view and isinstance(view["translation"], str)


def test_a_transformers_cross_attention_by_layer_and_head(tokenizer):
    torch.manual_seed(0)
    cfg = TransformerConfig.tiny(src_vocab_size=tokenizer.vocab_size, n_encoder_layers=1, n_decoder_layers=2)
    model = Transformer(cfg).eval()
    translator = Translator(model, tokenizer)
    one = alignment(translator, SENTENCE, target="Dios", layer=1, head=1)
    mean = alignment(translator, SENTENCE, target="Dios")
    src = torch.tensor([tokenizer.encode([SENTENCE])[0] + [tokenizer.eos_id]])
    tgt_in = torch.tensor([[cfg.bos_id] + tokenizer.encode(["Dios"])[0]])
    cross = model.attention_maps(src, tgt_in).cross[1][0].detach()  # (H, T, S)
    np.testing.assert_allclose(one["alpha"], cross[1].numpy(), rtol=0, atol=1e-6)
    np.testing.assert_allclose(mean["alpha"], cross.mean(0).numpy(), rtol=0, atol=1e-6)
    assert mean["layer"] == 1 and mean["head"] is None and one["heads"] == cfg.n_heads
    with pytest.raises(UsageError, match="heads 0"):
        alignment(translator, SENTENCE, target="Dios", head=cfg.n_heads)


@pytest.fixture(scope="module")
def parser() -> Parser:
    words = Vocab("the dog cat saw a .".split())
    symbols = Vocab("(S )S (NP )NP (VP )VP XX".split())
    torch.manual_seed(1)
    cfg = TransformerConfig.tiny(src_vocab_size=len(words), tgt_vocab_size=len(symbols), share_embeddings=False,
                                 n_encoder_layers=1, n_decoder_layers=1)
    return Parser(Transformer(cfg).eval(), words, symbols)


def test_the_tree_is_read_from_what_the_model_emitted(parser):
    options = DecodeOptions(beam_size=3, max_len_a=1.0, max_len_b=12)
    view = parse_tree(parser, "the dog saw a cat .", options)
    src = torch.tensor([parser.words.encode(view["words"]) + [EOS]])
    emitted = parser.symbols.decode(search(parser.model, src, options)[0][0].tokens)
    assert view["linearised"] == emitted
    tree, repairs = delinearise(emitted, view["words"])
    assert view["tree"] == tree_dict(tree) and view["brackets"] == str(tree) and view["repairs"] == repairs

    def leaves(node):
        return [node["word"]] if "word" in node else [w for child in node["children"] for w in leaves(child)]
    assert leaves(view["tree"]) == "the dog saw a cat .".split()
    json.dumps(view)


def test_tree_dict_of_a_well_formed_parse():
    tree, repairs = delinearise("(S (NP XX XX )NP (VP XX )VP )S".split(), ["the", "dog", "slept"])
    assert repairs == 0 and tree_dict(tree) == {"label": "S", "children": [
        {"label": "NP", "children": [{"label": "XX", "word": "the"}, {"label": "XX", "word": "dog"}]},
        {"label": "VP", "children": [{"label": "XX", "word": "slept"}]}]}
