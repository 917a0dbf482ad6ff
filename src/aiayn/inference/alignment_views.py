"""Bahdanau's alignment and the parser's tree as the studio shows them (issue 45): plain JSON-able dicts.

* ``alignment(translator, source, target=None)``: the attention weights α of one sentence pair, in the
  style of Bahdanau et al. (2015), Figure 3: {"source": S pieces (EOS included), "target": T pieces (the
  translation's, or ``target``'s, EOS included), "alpha": T × S (row i: the weights of the decoder step
  that predicts target piece i over the source pieces; each row sums to 1), "translation",
  "architecture", "layers", "heads", "layer", "head"}. It is the model's own α from its forward pass
  over the pair (``inference.attention_maps``); for a Transformer the encoder–decoder attention of one
  layer and head, or the heads' mean. An RNNencdec model has none: {"alignment": False, "reason", "see"}
  says why (the fixed-vector bottleneck), with no error.
* ``parse_tree(parser, sentence)``: {"words", "linearised": the tree symbols the model emitted (beam
  search, the paper's decoding unless told), "tree": the tree read from them as nested {label, children}
  with {label, word} leaves, "brackets": the same in Penn Treebank brackets, "repairs": how many fixes
  reading it needed (0: well-formed as emitted)}.
"""

from __future__ import annotations

from ..data.treebank import Tree
from ..decoding.options import DecodeOptions
from ..errors import UsageError
from ..io.registry import capabilities
from .attention_maps import all_attention_maps
from .parser import PAPER_DECODING, Parser
from .translator import Translator

BOTTLENECK = "docs/reproductions.md#bahdanau-et-als-figure-2-in-minutes-the-fixed-vector-bottleneck"
NO_ALIGNMENT = ("RNNencdec has no attention: the encoder squeezes the whole sentence into one fixed vector "
                "c = [→h_S; ←h_1] that every decoder step reads alike, so no target word looks at any source "
                "word more than another (the bottleneck RNNsearch's alignment removes)")


def alignment(translator: Translator, source: str, target: str | None = None, beam_size: int = 4,
              layer: int = -1, head: int | None = None) -> dict:
    """α of ``source`` and its translation (beam search), or of ``target`` given (the model reads it,
    teacher forcing). ``layer``, ``head``: a Transformer's cross-attention layer and head (None: the mean
    of its heads); RNNsearch has one of each."""
    model = translator.model
    if not source.strip():
        raise UsageError("the source is empty: give a sentence to align")
    ids = None if target is None else translator.tokenizer.encode([target])[0]
    kinds = capabilities(model.config).attention
    if "cross" not in kinds:
        translation, _ = all_attention_maps(translator, source, beam_size, ids)
        return {"alignment": False, "translation": translation, "architecture": model.architecture,
                "reason": NO_ALIGNMENT, "see": BOTTLENECK}
    translation, maps = all_attention_maps(translator, source, beam_size, ids)
    layers, tgt_pieces, src_pieces = maps["cross"]  # (H, T, S) per layer, query pieces, key pieces
    if not -len(layers) <= layer < len(layers):
        raise UsageError(f"the model has encoder-decoder attention layers 0..{len(layers) - 1}, not {layer}")
    weights = layers[layer].double()  # (H, T, S)
    if head is not None and not 0 <= head < weights.size(0):
        raise UsageError(f"the model has heads 0..{weights.size(0) - 1}, not {head}")
    alpha = weights.mean(0) if head is None else weights[head]
    return {"alignment": True, "translation": translation, "architecture": model.architecture,
            "source": src_pieces, "target": tgt_pieces, "alpha": alpha.tolist(), "layers": len(layers),
            "heads": weights.size(0), "layer": layer % len(layers), "head": head}


def tree_dict(node: Tree | str) -> dict:
    """A tree as nested dicts: {label, children} per constituent, {label, word} per preterminal."""
    if node.is_preterminal:
        return {"label": node.label, "word": node.children[0]}
    return {"label": node.label, "children": [tree_dict(child) for child in node.children]}


def parse_tree(parser: Parser, sentence: str | list[str], options: DecodeOptions = PAPER_DECODING) -> dict:
    """The tree the model predicts for ``sentence`` (words split on spaces, or a word list) beside the
    linearised output it emitted (``Parser.parse``: the same search, the same reading)."""
    words = sentence.split() if isinstance(sentence, str) else list(sentence)
    if not words:
        raise UsageError("the sentence is empty: give words separated by spaces")
    result = parser.parse([words], options)[0]
    return {"words": words, "linearised": result.symbols, "tree": tree_dict(result.tree),
            "brackets": str(result.tree), "repairs": result.repairs}
