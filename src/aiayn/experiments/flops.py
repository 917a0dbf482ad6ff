"""Training FLOPs of a run: PyTorch's ``FlopCounterMode`` counts the matrix products (2 FLOPs per multiply-add)
of a forward and backward pass over batches cut from the run's own training data exactly as the trainer cuts
them; a run's training FLOPs are its updates times that mean. Element-wise work (softmax, GRU gates, layer
norm) is not counted: it is small next to the products, for every model alike."""

from __future__ import annotations

import random

import numpy as np
import torch
from torch.utils.flop_counter import FlopCounterMode

from ..data.batching import collate, token_batches
from ..data.parallel import read_parallel
from ..data.tokenizer import Tokenizer
from ..io.rundir import RunDir
from ..training.loss import label_smoothed_cross_entropy

SAMPLE_PAIRS, SAMPLE_BATCHES = 4000, 8


def flops_per_update(run: RunDir, model: torch.nn.Module, seed: int = 0) -> float:
    """Mean FLOPs of one update (forward, loss and backward) of ``model`` over batches of ``run``'s data."""
    config = run.read_config()
    data, train = config["data"], config["train"]
    tok = Tokenizer.load(run.path / "spm.model")
    pairs = read_parallel(data["train"], data["src"], data["tgt"])
    picked = random.Random(seed).sample(range(len(pairs.src)), min(SAMPLE_PAIRS, len(pairs.src)))
    src, tgt = tok.encode([pairs.src[i] for i in picked]), tok.encode([pairs.tgt[i] for i in picked])
    lengths = np.array([len(s) + 1 for s in src]), np.array([len(t) + 1 for t in tgt])  # + EOS / BOS
    batches = list(token_batches(*lengths, train["max_tokens"], train.get("max_sentences")))
    chosen = random.Random(seed).sample(batches, min(SAMPLE_BATCHES, len(batches)))
    model.train()
    total = 0
    for indices in chosen:
        batch = collate([src[i] for i in indices], [tgt[i] for i in indices], tok.pad_id, tok.bos_id, tok.eos_id)
        with FlopCounterMode(display=False) as counter:
            out = label_smoothed_cross_entropy(model(batch.src, batch.tgt_in), batch.tgt_out,
                                               train["label_smoothing"], tok.pad_id)
            out.loss.backward()
        total += counter.get_total_flops()
        model.zero_grad(set_to_none=True)
    model.eval()
    return total / len(chosen)
