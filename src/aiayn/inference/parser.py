"""Parse sentences with a trained parsing model (paper §6.3): words in, beam search over the linearised
tree, trees out (repaired where the prediction is not well-formed; see ``delinearise``).

Legend: B sentences in a decoding batch, S source length (words + EOS).

The paper's decoding for parsing (``PAPER_DECODING``): beam 21, length penalty α = 0.3, output up
to input length + 300. A model's vocabularies (words, tree symbols) are recorded in its run's
config.json, beside the weights or one folder up.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import torch

from .. import checks
from ..data import pad_right
from ..data.treebank import EOS, Tree, Vocab, delinearise
from ..decoding.options import DecodeOptions
from ..decoding.search import length_batches, search
from ..io.checkpoint import CheckpointError
from ..io.loader import load
from ..progress import bar as progress_bar

# §6.3; stopping only when no live beam can still win is ours: with 23 symbols and K = 21, early
# junk endings fill the K places within a few steps and end the search before the real parses
PAPER_DECODING = DecodeOptions(beam_size=21, alpha=0.3, max_len_a=1.0, max_len_b=300, early_stopping=False)


@dataclass
class Parse:
    """One sentence's tree, how many repairs its prediction needed (0: a well-formed tree as predicted),
    and the linearised tree the model emitted, from which the tree was read."""

    tree: Tree
    repairs: int
    symbols: list[str] = field(default_factory=list)


class Parser:
    """A parsing model and its vocabularies. ``Parser.load("runs/parsing").parse([["she", "slept", "."]])``."""

    def __init__(self, model, words: Vocab, symbols: Vocab, device: str | torch.device = "cpu"):
        cfg = model.config
        if (cfg.src_vocab_size, cfg.tgt_vocab_size) != (len(words), len(symbols)):
            raise CheckpointError(f"the model expects {cfg.src_vocab_size} words and {cfg.tgt_vocab_size} tree "
                                  f"symbols; the vocabularies have {len(words)} and {len(symbols)}")
        self.model, self.words, self.symbols, self.device = model, words, symbols, torch.device(device)

    @classmethod
    def load(cls, path: str | Path, device: str | torch.device = "cpu") -> Parser:
        """``path``: a parsing run directory (its best model) or a weights file of one."""
        device = checks.device(device)
        loaded = load(path)
        data = loaded.data_settings()
        if not (isinstance(data.get("words"), str) and isinstance(data.get("symbols"), str)):
            if loaded.run_config() is not None:  # a run of another task: its config.json has no tree vocabularies
                raise CheckpointError(f"{loaded.model_file} is not a parsing model (its run has no tree vocabularies): "
                                      "train one with `aiayn train --task parsing`")
            raise CheckpointError(f"no config.json with the parsing vocabularies (data.words, data.symbols) beside "
                                  f"{loaded.model_file} or in its run directory: copy the run's config.json there")
        return cls(loaded.model.to(device), Vocab.from_str(data["words"]), Vocab.from_str(data["symbols"]), device)

    def parse(self, sentences: list[list[str]], options: DecodeOptions = PAPER_DECODING,
              tags: list[list[str]] | None = None, progress=None) -> list[Parse]:
        """A tree per sentence (each a non-empty word list), in input order; ``tags``: POS tags to
        put on the leaves (the model predicts none: ``XX`` without them)."""
        if any(not words for words in sentences):
            raise ValueError("every sentence needs at least one word")
        results: list[Parse | None] = [None] * len(sentences)
        bar = progress_bar(progress, total=len(sentences), unit="sent", leave=False)
        for batch in length_batches([len(words) for words in sentences], options):
            src = pad_right([self.words.encode(sentences[i]) + [EOS] for i in batch], self.model.config.pad_id)
            for i, (hyp, *_) in zip(batch, search(self.model, src.to(self.device), options)):
                symbols = self.symbols.decode(hyp.tokens)
                results[i] = Parse(*delinearise(symbols, sentences[i], tags[i] if tags else None), symbols)
            bar.update(len(batch))
        bar.close()
        return results
