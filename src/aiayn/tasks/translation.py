"""Translation (paper §5-6): parallel text, label-smoothed loss, validation loss, perplexity and BLEU.

Legend: B sentences, S source length, T target length.
"""

from __future__ import annotations

import logging
import math

import numpy as np
import torch

from ..data import Batches, DataError, ParallelCorpus, Tokenizer, collate_arrays, filter_mask, token_batches
from ..inference.translator import Translator
from ..metrics.bleu import corpus_scores
from ..training import distributed as D
from ..training.loss import LossSums, label_smoothed_cross_entropy

log = logging.getLogger("aiayn")


class MemoryPairs:
    """Token ids of a small corpus held in memory, with ``Binarized``'s interface (validation sets)."""

    def __init__(self, src: list[list[int]], tgt: list[list[int]]):
        self._src = [np.asarray(s, dtype=np.int64) for s in src]
        self._tgt = [np.asarray(t, dtype=np.int64) for t in tgt]
        self.src_lengths = np.fromiter(map(len, src), np.int64, count=len(src))
        self.tgt_lengths = np.fromiter(map(len, tgt), np.int64, count=len(tgt))

    def __len__(self) -> int:
        return len(self._src)

    def src(self, i: int) -> np.ndarray:
        return self._src[i]

    def tgt(self, i: int) -> np.ndarray:
        return self._tgt[i]


class EncodedCorpus:
    """Tokenized pairs (a mapped ``Binarized`` file, or ``MemoryPairs``) and the batches they are cut into.

    ``batches`` hold indices into ``pairs``; the pairs dropped by the filters are in no batch.
    """

    def __init__(self, pairs, batches: Batches, n_kept: int):
        self.pairs, self.batches, self.n_kept = pairs, batches, n_kept

    def __len__(self) -> int:
        """Pairs used: those the filters kept."""
        return self.n_kept

    def batch(self, indices: list[int], tok: Tokenizer):
        return collate_arrays([self.pairs.src(i) for i in indices], [self.pairs.tgt(i) for i in indices],
                              tok.pad_id, tok.bos_id, tok.eos_id)


def batch_corpus(pairs, cfg, max_positions: int, name: str) -> EncodedCorpus:
    """Drops empty and over-long pairs (saying how many) and batches the rest by tokens, from the length
    arrays alone: for a mapped corpus, nothing per pair but its index is held in memory."""
    keep, n_empty, n_long = filter_mask(pairs.src_lengths, pairs.tgt_lengths, max_positions)
    if n_empty or n_long:
        log.warning("%s: dropped %d pairs with an empty side and %d longer than %d tokens", name, n_empty, n_long,
                    max_positions - 1)
    if not len(keep):
        raise DataError(f"{name}: no usable sentence pairs (all empty or too long)")
    batches = token_batches(pairs.src_lengths, pairs.tgt_lengths, cfg.max_tokens, cfg.max_sentences, indices=keep)
    return EncodedCorpus(pairs, batches, len(keep))


def encode_corpus(corpus: ParallelCorpus, tok: Tokenizer, cfg, max_positions: int, name: str) -> EncodedCorpus:
    """Tokenizes a corpus held in memory (validation data), then ``batch_corpus``."""
    return batch_corpus(MemoryPairs(tok.encode(corpus.src), tok.encode(corpus.tgt)), cfg, max_positions, name)


class TranslationTask:
    """Batches of sentence pairs; validation loss, perplexity, and greedy BLEU / chrF on the first
    ``bleu_sentences`` validation pairs ("best" is the BLEU, or the loss when there is none)."""

    def __init__(self, tokenizer: Tokenizer, train: EncodedCorpus, valid: ParallelCorpus | None, cfg,
                 max_positions: int):
        """``cfg``: the ``TrainConfig`` (label smoothing, batch sizes, validation BLEU sentences)."""
        self.tok, self.train, self.valid, self.epsilon = tokenizer, train, valid, cfg.label_smoothing
        self.bleu_sentences = cfg.valid_bleu_sentences
        self.valid_encoded = encode_corpus(valid, tokenizer, cfg, max_positions, "validation") if valid else None
        self.train_batches = train.batches
        self.prefetch = True  # batch() is pure (no random numbers): the trainer may collate ahead in a thread

    def batch(self, indices: list[int]):
        return self.train.batch(indices, self.tok)

    def loss(self, model, batch, epsilon: float) -> LossSums:
        return label_smoothed_cross_entropy(model(batch.src, batch.tgt_in), batch.tgt_out, epsilon, self.tok.pad_id)

    @torch.no_grad()
    def validate(self, model, device, world: D.World | None = None) -> dict[str, float]:
        """With ``world``, each process takes every world.size-th batch and sentence; all get the totals."""
        world = world or D.World(device=torch.device(device))
        sums = torch.zeros(3, dtype=torch.float64)
        for indices in self.valid_encoded.batches[world.rank::world.size]:
            batch = self.valid_encoded.batch(indices, self.tok).to(device)
            out = self.loss(model, batch, self.epsilon)
            sums += torch.tensor([out.loss.item(), out.nll.item(), out.n_tokens.item()], dtype=torch.float64)
        loss, nll, n = D.sum_across(sums.tolist(), world)
        result = {"valid_loss": loss / n, "valid_nll": nll / n, "valid_ppl": math.exp(min(nll / n, 50))}
        n_bleu = min(self.bleu_sentences, len(self.valid))
        if n_bleu:
            mine = range(world.rank, n_bleu, world.size)
            hyps = Translator(model, self.tok, device).translate([self.valid.src[i] for i in mine], beam_size=1)
            everyone = dict(pair for share in D.all_gather(list(zip(mine, hyps)), world) for pair in share)
            scores = corpus_scores([everyone[i] for i in range(n_bleu)], self.valid.tgt[:n_bleu])
            result.update(valid_bleu=scores.bleu, valid_chrf=scores.chrf)
        return result

    @staticmethod
    def metric(figures: dict[str, float]) -> float:
        return figures.get("valid_bleu", -figures["valid_loss"])

    @staticmethod
    def describe(figures: dict[str, float]) -> str:
        text = f"valid loss {figures['valid_loss']:.3f}, ppl {figures['valid_ppl']:.2f}"
        if "valid_bleu" in figures:
            text += f", BLEU {figures['valid_bleu']:.2f}, chrF {figures['valid_chrf']:.2f}"
        return text
