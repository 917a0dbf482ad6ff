"""Translate text with a trained model: tokenize, batch by length, beam search, detokenize."""

from __future__ import annotations

import logging
from pathlib import Path

import torch

from .. import checks
from ..data import Tokenizer, pad_right
from ..decoding import Hypothesis
from ..decoding.beam import BeamTrace
from ..decoding.options import DecodeOptions
from ..decoding.search import length_batches, search
from ..errors import ConfigError
from ..io.checkpoint import CheckpointError
from ..io.loader import load
from ..io.registry import capabilities
from ..io.rundir import TOKENIZER
from ..model import Transformer
from ..precision import bf16_decoding_model, int8_model, warn_if_emulated_bf16

log = logging.getLogger("aiayn")


class Translator:
    """A model and its tokenizer. ``Translator.load(run_dir).translate(["Hello."])``."""

    task = "translation"  # the task its weights must be trained for (the header's ``task``)

    def __init__(self, model: Transformer, tokenizer: Tokenizer, device: str | torch.device = "cpu",
                 dtype: torch.dtype = torch.float32):
        self.tokenizer, self.device = tokenizer, torch.device(device)
        if dtype == torch.qint8:
            if self.device.type != "cpu":
                raise ConfigError(f"int8 decoding runs on the CPU only (fbgemm kernels), not on {self.device}; "
                                  "use --dtype bfloat16 on a GPU", field="dtype")
            self.model = int8_model(model.to(self.device))
        elif dtype == torch.bfloat16 and self.device.type == "cpu":
            self.model = bf16_decoding_model(model)  # weights and KV cache in bf16, the weights packed once
        else:
            self.model = model.to(device=self.device, dtype=dtype).eval()  # bfloat16: weights and KV cache alike
        if dtype == torch.bfloat16:
            warn_if_emulated_bf16(self.device, "bfloat16 decoding")

    @classmethod
    def load(cls, path: str | Path, device: str | torch.device = "cpu", dtype: torch.dtype = torch.float32,
             ) -> Translator:
        """``path``: a run directory (its best model) or one ``.safetensors`` weights file in it;
        ``dtype``: float32; bfloat16 (half the weight and cache memory; faster where the
        hardware has bfloat16 instructions); or torch.qint8, int8 linear layers on the CPU."""
        device = checks.device(device)
        loaded = load(path)
        model, model_file = loaded.model, loaded.model_file
        if not capabilities(model.config).search:
            raise CheckpointError(f"{model_file} holds a {model.architecture} model; translate needs an encoder-decoder "
                                  "(sample music or digits with `aiayn generate`)")
        task = loaded.meta.get("task")  # the header says what the model is for; none: written before tasks had names
        if task not in (None, Translator.task):
            raise CheckpointError(f"{model_file} holds a {task} model, not a {Translator.task} model: use it with the "
                                  "command its task uses (aiayn COMMAND --help)")
        vocab = loaded.tokenizer_file
        if vocab is None:
            raise CheckpointError(f"no {TOKENIZER} beside {model_file} or in its run directory: copy the run's "
                                  f"{TOKENIZER} next to the weights")
        tokenizer = Tokenizer.load(vocab)
        if loaded.meta.get("tokenizer_sha256") not in (None, tokenizer.fingerprint()):
            raise CheckpointError(f"{model_file} was trained with a different vocabulary than {vocab}")
        if model.config.src_vocab_size != tokenizer.vocab_size:
            raise CheckpointError(f"{model_file} expects {model.config.src_vocab_size} tokens; the vocabulary has "
                                  f"{tokenizer.vocab_size}")
        return cls(model, tokenizer, device, dtype)

    def translate(self, lines: list[str], options: DecodeOptions | None = None, **kwargs) -> list[str]:
        """Best translation of each line, in input order; an empty line gives an empty line."""
        return [hyps[0][0] if hyps else "" for hyps in self.translate_nbest(lines, options, **kwargs)]

    def translate_nbest(
        self, lines: list[str], options: DecodeOptions | None = None, progress=None, **kwargs
    ) -> list[list[tuple[str, float]]]:
        """Up to ``nbest`` (text, score) pairs per line, best first. ``beam_size=1`` decodes greedily."""
        opts = options or DecodeOptions(**kwargs)
        ids = self._source_ids(lines)
        results: list[list[tuple[str, float]]] = [[] for _ in lines]
        for batch in self._batches(ids, opts):
            rows = [ids[i] + [self.model.config.eos_id] for i in batch]
            src = pad_right(rows, self.model.config.pad_id).to(self.device)
            for i, hyps in zip(batch, self.search(src, opts)):
                texts = self.tokenizer.decode([h.tokens for h in hyps])
                results[i] = [(text, h.score) for text, h in zip(texts, hyps)]
            if progress is not None:
                progress.update(len(batch))
        return results

    def search(self, src: torch.Tensor, opts: DecodeOptions) -> list[list[Hypothesis]]:
        return search(self.model, src, opts)

    def beam_trace(self, line: str, options: DecodeOptions | None = None) -> tuple[BeamTrace, list[str]]:
        """One line's beam search as the search recorded it (``BeamTrace``), and the vocabulary's pieces
        to read its token ids with. The same batch of one that ``translate_nbest`` decodes for that line."""
        opts = options or DecodeOptions()
        ids = self._source_ids([line])[0]
        if not ids:
            raise ConfigError("the line is empty: give a sentence to translate", field="text")
        src = pad_right([ids + [self.model.config.eos_id]], self.model.config.pad_id).to(self.device)
        trace = BeamTrace()
        search(self.model, src, opts, trace)
        return trace, self.tokenizer.pieces(range(self.tokenizer.vocab_size))

    def _source_ids(self, lines: list[str]) -> list[list[int]]:
        """Token ids per line, cut to the model's positions (with a warning) so nothing crashes."""
        room = self.model.config.max_positions - 1  # one position for EOS
        ids = self.tokenizer.encode(lines)
        for n, row in enumerate(ids):
            if len(row) > room:
                log.warning("line %d has %d tokens; the model takes %d, so the rest is not translated", n + 1, len(row), room)
                ids[n] = row[:room]
        return ids

    def _batches(self, ids: list[list[int]], opts: DecodeOptions) -> list[list[int]]:
        return length_batches([len(row) for row in ids], opts)
