"""Language modelling (music, pixels): predict each token from the ones before it.

Legend: B windows in a batch, T window length, V vocabulary.

A corpus is a list of sequences (a chorale, an image). Each becomes BOS + tokens + EOS and is cut
into windows of ``length`` + 1 tokens (overlapping by half, so every token is predicted with some
context); a window's input is its first ``length`` tokens and its target the last ``length``.
Validation slides the same windows over each whole sequence and scores every token once, with
the context of its window (at least ``length`` // 2 tokens once past the start).
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass

import torch
from torch import Tensor

from ..data import batch_by_tokens, pad_right
from ..training import distributed as D
from ..training.loss import LossSums, label_smoothed_cross_entropy


@dataclass
class SequenceBatch:
    """Right-padded windows: ``inputs`` predict ``targets`` position by position."""

    inputs: Tensor  # (B, T) long
    targets: Tensor  # (B, T) long, pad where nothing is predicted
    classes: Tensor | None  # (B,) long, for class-conditional models
    n_tokens: int
    starts: Tensor | None = None  # (B,) each window's position in its sequence (BOS = 0), for voice embeddings

    def to(self, device) -> SequenceBatch:
        move = lambda t: None if t is None else t.to(device)  # noqa: E731
        return dataclasses.replace(self, inputs=move(self.inputs), targets=move(self.targets),
                                   classes=move(self.classes), starts=move(self.starts))

    def logits(self, model) -> Tensor:
        """The model's (B, T, V) logits; a window cut from inside a sequence tells the model where it starts."""
        if self.starts is None:
            return model(self.inputs, self.classes)
        return model(self.inputs, self.classes, grid_start=self.starts)


def cut_windows(lengths: list[int], length: int) -> list[tuple[int, int]]:
    """(sequence, start) of each window of ``length`` + 1 tokens, hopping by ``length`` // 2;
    ``lengths`` count BOS and EOS. The last window of a sequence ends at its end."""
    hop = max(1, length // 2)
    windows = []
    for i, n in enumerate(lengths):
        starts = list(range(0, max(n - length - 1, 0) + 1, hop))
        if starts[-1] + length + 1 < n:
            starts.append(n - length - 1)
        windows.extend((i, s) for s in starts)
    return windows


class LanguageModelObjective:
    """Training windows, their batches and the loss; validation NLL per token and perplexity
    (an ``aiayn.training.objective.Objective``)."""

    train_batches: list[list[int]]
    has_valid: bool
    prefetch = False  # windows are cut on the training thread: small batches, little to overlap
    fingerprint = None  # the token ids are the task's own: no vocabulary file to match on resume
    summary = ""

    def __init__(self, train: list[list[int]], valid: list[list[int]] | None, length: int, max_tokens: int,
                 bos_id: int, eos_id: int, pad_id: int, train_classes: list[int] | None = None,
                 valid_classes: list[int] | None = None):
        self.length, self.pad_id = length, pad_id
        wrap = lambda seqs: [[bos_id, *s, eos_id] for s in seqs]  # noqa: E731
        self.train, self.valid = wrap(train), wrap(valid or [])
        self.train_classes, self.valid_classes = train_classes, valid_classes
        self.windows = cut_windows([len(s) for s in self.train], length)
        sizes = [min(len(self.train[i]) - s - 1, length) for i, s in self.windows]
        self.train_batches = batch_by_tokens(sizes, sizes, max_tokens)
        self.has_valid = bool(self.valid)

    def _batch(self, seqs, classes, picks: list[tuple[int, int, int]]) -> SequenceBatch:
        """Windows (sequence, start, tokens already scored at its beginning) as one batch."""
        chunks = [seqs[i][s: s + self.length + 1] for i, s, _ in picks]
        inputs = pad_right([c[:-1] for c in chunks], self.pad_id)
        targets = pad_right([[self.pad_id] * done + c[1 + done:] for c, (_, _, done) in zip(chunks, picks)],
                            self.pad_id)
        cls = None if classes is None else torch.tensor([classes[i] for i, _, _ in picks])
        starts = torch.tensor([s for _, s, _ in picks])
        return SequenceBatch(inputs, targets, cls, int((targets != self.pad_id).sum()), starts)

    def batch(self, indices: list[int]) -> SequenceBatch:
        return self._batch(self.train, self.train_classes, [(*self.windows[i], 0) for i in indices])

    def loss(self, model, batch: SequenceBatch, epsilon: float) -> LossSums:
        return label_smoothed_cross_entropy(batch.logits(model), batch.targets, epsilon, self.pad_id)

    def sliding_windows(self, seqs: list[list[int]]) -> list[tuple[int, int, int]]:
        """Every token of every sequence once: (sequence, start, targets already scored) per window."""
        picks = []
        for i, s in cut_windows([len(x) for x in seqs], self.length):
            done = 0 if not picks or picks[-1][0] != i else picks[-1][1] + self.length - s
            picks.append((i, s, done))
        return picks

    @torch.no_grad()
    def validate(self, model, device, world: D.World | None = None, batch_size: int = 16) -> dict[str, float]:
        """NLL per token (nats) and perplexity of the validation sequences (EOS included). With
        ``world``, each process takes every world.size-th batch; all get the totals."""
        world = world or D.World(device=torch.device(device))
        total, count = 0.0, 0
        picks = self.sliding_windows(self.valid)
        for b in range(world.rank * batch_size, len(picks), world.size * batch_size):
            batch = self._batch(self.valid, self.valid_classes, picks[b: b + batch_size]).to(device)
            out = label_smoothed_cross_entropy(batch.logits(model), batch.targets, 0.0, self.pad_id)
            total, count = total + out.nll.item(), count + int(out.n_tokens)
        total, count = D.sum_across([total, float(count)], world)
        count = int(count)
        nll = total / max(count, 1)
        return {"valid_nll": nll, "valid_ppl": math.exp(min(nll, 50)), "valid_tokens": count}

    @staticmethod
    def metric(figures: dict[str, float]) -> float:
        return -figures["valid_nll"]

    @staticmethod
    def describe(figures: dict[str, float]) -> str:
        return f"valid NLL {figures['valid_nll']:.4f} nats/token, ppl {figures['valid_ppl']:.3f}"


@torch.no_grad()
def nll_by_position(model, sequences: list[list[int]], bos_id: int, classes: list[int] | None = None,
                    device="cpu") -> tuple[Tensor, Tensor]:
    """Summed NLL (nats) of the token at each position over ``sequences`` (BOS prepended, no EOS)
    and how many sequences reach each position: two (P,) tensors, P the longest sequence."""
    longest = max(map(len, sequences))
    nll, count = torch.zeros(longest, dtype=torch.float64), torch.zeros(longest, dtype=torch.float64)
    model.eval()
    for i, seq in enumerate(sequences):
        ids = torch.tensor([[bos_id, *seq]], device=device)
        cls = None if classes is None else torch.tensor([classes[i]], device=device)
        log_probs = model(ids[:, :-1], cls).float().log_softmax(-1)[0]  # (P, V)
        token_nll = -log_probs.gather(1, ids[0, 1:, None])[:, 0].double().cpu()
        nll[: len(seq)] += token_nll
        count[: len(seq)] += 1
    return nll, count
