"""Translation (paper §5-6): parallel text, label-smoothed loss, validation loss, perplexity and BLEU.

Legend: B sentences, S source length, T target length.
"""

from __future__ import annotations

import functools
import logging
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

import torch

from .. import corpus
from ..checks import Allowed, check_fields
from ..data import (
    Batches,
    DataError,
    ParallelCorpus,
    Tokenizer,
    collate_arrays,
    filter_mask,
    open_parallel,
    read_parallel,
    token_batches,
)
from ..decoding.options import DecodeOptions
from ..errors import UsageError
from ..inference.translator import Translator
from ..io.atomic import atomic_path, check_writable
from ..io.rundir import JsonLog, hypotheses
from ..metrics.bleu import Scores, corpus_scores
from ..model import compiled
from ..model.config import PRESETS, RNNSearchConfig, TransformerConfig
from ..precision import DTYPES, few_onednn_kernels, length_multiple, resolve_precision
from ..progress import bar as progress_bar
from ..training import distributed as D
from ..training.loss import LossSums, label_smoothed_cross_entropy
from .declared import filled, option
from .requests import EvaluateRequest
from .spec import Setup, Task
from .translation_data import check_data, check_unchanged, first_pairs, mapped_pairs, training_source, write_vocabulary

log = logging.getLogger("aiayn")


@dataclass
class TranslationTraining:
    """Translation's own train settings, in a run's train section beside ``TrainConfig``'s
    (``--set train.vocab_size=16000``); declared as options, so other tasks refuse them by name."""

    # joint sub-word vocabulary learned for a new run (paper En-De: ~37k BPE)
    vocab_size: int = option(37000, "size of the joint BPE vocabulary to learn")
    valid_bleu_sentences: int = option(500, "validation sentences translated for BLEU (0: none)", flag=None)

    RESUMABLE: ClassVar[tuple[str, ...]] = ("valid_bleu_sentences",)  # what --resume may change
    RANGES: ClassVar[dict[str, Allowed]] = {"vocab_size": Allowed(int, 8, 1 << 24),
                                            "valid_bleu_sentences": Allowed(int, 0)}

    def __post_init__(self) -> None:
        check_fields(self, self.RANGES, prefix="train.")


TRAIN_PRESETS: dict[str, dict[str, Any]] = {  # train settings by preset (the model's are model.config.PRESETS)
    # CPU-sized: small batches and a short warm-up, so minutes of training make a translator.
    "tiny": {"vocab_size": 8000, "max_tokens": 1536, "warmup": 250, "lr_scale": 0.35, "max_steps": 20000,
             "log_every": 20, "valid_every": 500, "save_every": 250, "keep_last": 5, "valid_bleu_sentences": 200},
    "base": {},  # the paper's: 25k tokens, warmup 4000, 100k steps
    "big": {"max_steps": 300_000},
}
TRAIN_PRESETS["student"] = dict(TRAIN_PRESETS["tiny"])  # a distillation student trains on tiny's CPU schedule


class EncodedCorpus:
    """Tokenized pairs (a mapped ``Binarized`` file) and the batches they are cut into.

    ``batches`` hold indices into ``pairs``; the pairs dropped by the filters are in no batch.
    """

    def __init__(self, pairs, batches: Batches, n_kept: int, length_multiple: int = 1):
        self.pairs, self.batches, self.n_kept, self.length_multiple = pairs, batches, n_kept, length_multiple

    def __len__(self) -> int:
        """Pairs used: those the filters kept."""
        return self.n_kept

    def batch(self, indices: list[int], tok: Tokenizer):
        return collate_arrays([self.pairs.src(i) for i in indices], [self.pairs.tgt(i) for i in indices],
                              tok.pad_id, tok.bos_id, tok.eos_id, self.length_multiple)


def batch_corpus(pairs, cfg, max_positions: int, name: str, length_multiple: int = 1) -> EncodedCorpus:
    """Drops empty and over-long pairs (saying how many) and batches the rest by tokens, from the length
    arrays alone: for a mapped corpus, nothing per pair but its index is held in memory. ``length_multiple``:
    each batch's lengths rounded up to a multiple of it (``token_batches``)."""
    keep, n_empty, n_long = filter_mask(pairs.src_lengths, pairs.tgt_lengths, max_positions)
    if n_empty or n_long:
        log.warning("%s: dropped %d pairs with an empty side and %d longer than %d tokens", name, n_empty, n_long,
                    max_positions - 1)
    if not len(keep):
        raise DataError(f"{name}: no usable sentence pairs (all empty or too long)")
    batches = token_batches(pairs.src_lengths, pairs.tgt_lengths, cfg.max_tokens, cfg.max_sentences, indices=keep,
                            length_multiple=length_multiple)
    return EncodedCorpus(pairs, batches, len(keep), length_multiple)


class TranslationObjective:
    """Batches of sentence pairs; validation loss, perplexity, and greedy BLEU / chrF on the first
    ``bleu_sentences`` validation pairs ("best" is the BLEU, or the loss when there is none)
    (an ``aiayn.training.objective.Objective``)."""

    train_batches: Batches
    fingerprint: str
    has_valid: bool
    summary: str
    prefetch = True  # batch() is pure (no random numbers): the trainer may collate ahead in a thread

    def __init__(self, tokenizer: Tokenizer, train: EncodedCorpus, valid: EncodedCorpus | None,
                 valid_text: ParallelCorpus | None, cfg, summary: str = ""):
        """``valid``: the validation ids, batched; ``valid_text``: the first validation pairs as text, for
        BLEU. ``cfg``: the ``TrainConfig`` (label smoothing, validation BLEU sentences). ``summary``: the
        data in a few words, for the log's first line."""
        self.tok, self.train, self.valid_encoded, self.epsilon = tokenizer, train, valid, cfg.label_smoothing
        self.valid = valid_text
        self.bleu_sentences = min(cfg.task_settings.valid_bleu_sentences, len(valid_text) if valid_text else 0)
        self.train_batches = train.batches
        self.fingerprint = tokenizer.fingerprint()  # a resume must find the same vocabulary
        self.has_valid, self.summary = valid is not None, summary

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
        n_bleu = self.bleu_sentences
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


# Using a trained model ---------------------------------------------------------------------------
def _test_set(test: str | None, src_lang: str | None, tgt_lang: str | None) -> ParallelCorpus:
    """The test pairs: the built-in test split, a TSV, or PREFIX.SRC/PREFIX.TGT; a lone file that is
    neither (a treebank, plain text) is named as such instead of being read as a prefix."""
    if test is None:
        return read_parallel(str(corpus.builtin("test")), src_lang or "en", tgt_lang or "es")
    if Path(test).is_file() and not test.endswith((".tsv", ".tsv.gz")):
        kind = "a treebank (score a parsing model with it)" if test.endswith((".mrg", ".tree", ".trees")) else "one file"
        raise UsageError(f"--test {test} is {kind}; a translation test set is a .tsv (or .tsv.gz) whose header names "
                         "the languages, or a prefix PREFIX with files PREFIX.SRC and PREFIX.TGT (--src, --tgt)")
    return read_parallel(test, src_lang, tgt_lang)


def evaluate(model: str | Path, test: str | None, src_lang: str | None, tgt_lang: str | None,
             options: DecodeOptions, device: str = "cpu", progress=None,
             dtype: str = "float32", compile: bool = False) -> tuple[Scores, Path, ParallelCorpus, list[str]]:
    """Translates a test set, writes the hypotheses next to the model, and scores them with sacreBLEU;
    ``compile``: with the decoding step compiled (``model.compiled``)."""
    data = _test_set(test, src_lang, tgt_lang)
    kind = f"beam{options.beam_size}" + ("" if dtype == "float32" else f".{dtype}")
    out = hypotheses(model, Path(test).name.split(".")[0] if test else "test", kind, data.tgt_lang)
    translator = Translator.load(model, device, DTYPES[dtype])
    if compile:
        compiled.compile_decoding(translator.model)
    check_writable(out, "--model folder (the hypotheses are written beside the model)")
    if progress is not None:
        progress.total = len(data)
    hyps = translator.translate(data.src, options, progress=progress)
    with atomic_path(out) as tmp:
        tmp.write_text("".join(h + "\n" for h in hyps), encoding="utf-8")
    return corpus_scores(hyps, data.tgt), out, data, hyps


def report(run_dir: Path, config: dict, options: DecodeOptions, progress=None) -> str:
    """After training: scores on the validation split at ``options`` (logged too) and a few unseen verses;
    ``progress`` (a tqdm-like factory, None: nothing shown) draws the translation's bar."""
    data = config["data"]
    if not data.get("valid"):
        return f"\nModel: {run_dir}\nTranslate with: aiayn translate --model {run_dir} < input.txt"
    translator = Translator.load(run_dir)
    valid = read_parallel(data["valid"], data["src"], data["tgt"])
    bar = progress_bar(progress, total=len(valid), desc=f"validation, beam {options.beam_size}", unit="sent", leave=False)
    hyps = translator.translate(valid.src, options, progress=bar)
    bar.close()
    scores = corpus_scores(hyps, valid.tgt)
    JsonLog(run_dir / "log.jsonl").write(
        "report", split="valid", beam=options.beam_size, alpha=options.alpha, bleu=scores.bleu, chrf=scores.chrf,
        bleu_signature=scores.bleu_signature)
    text = f"\nValidation ({len(valid)} sentences, beam {options.beam_size}, α {options.alpha}):\n{scores}\n"
    if Path(data["valid"]).resolve() == corpus.builtin("valid").resolve():
        test = read_parallel(str(corpus.builtin("test")), data["src"], data["tgt"])
        picks = [0, len(test) // 2, len(test) - 1]
        text += "\nUnseen verses (test split):\n"
        for i, hyp in zip(picks, translator.translate([test.src[i] for i in picks])):
            text += f"  source:    {test.src[i]}\n  reference: {test.tgt[i]}\n  aiayn:     {hyp}\n\n"
    return text + (f"Model: {run_dir}  (best: {run_dir / 'best.safetensors'})\n"
                   f"Translate more: echo 'Love your neighbor as yourself.' | aiayn translate --model {run_dir}\n"
                   f"Score a test set: aiayn evaluate --model {run_dir}")


@dataclass
class TranslationTrain:
    """`aiayn train`'s data for translation: your parallel text (default: the built-in Bible, en-es)."""

    train: str | None = option(None, "training data (default: the built-in Bible, en-es)", metavar="DATA")
    valid: str | None = option(None, "validation data (default with the built-in corpus: its valid split)",
                               metavar="DATA")
    src: str | None = option(None, "source language (a TSV column or file suffix; default: the first)")
    tgt: str | None = option(None, "target language (default: the second)")
    vocab: str | None = option(None, "use this sentencepiece model instead of learning one", metavar="SPM_MODEL")
    length_multiple: int | None = option(
        None, "pad each training batch's source and target up to a multiple of N tokens, batching by the padded "
        "lengths (default: 8 when training in bf16 on a CPU, where every new batch shape costs new kernels; else 1, "
        "exact lengths)", metavar="N", type=int)


@dataclass
class TranslationTest:
    """`aiayn evaluate`'s test set for a translation model (default: the built-in Bible's test split), and
    whether its decoder's step is compiled."""

    test: str | None = option(None, "test data (default: the built-in Bible test split)", together="test",
                              metavar="DATA")
    src: str | None = option(None, "source language", together="test")
    tgt: str | None = option(None, "target language", together="test")
    compile: bool | None = option(None, compiled.HELP, action="store_true")


# Translation models: the Transformer, and Bahdanau et al.'s RNNsearch with its no-attention control.
ARCHS = {"transformer": TransformerConfig.preset, "rnnsearch": functools.partial(RNNSearchConfig.preset, attention=True),
         "rnnencdec": functools.partial(RNNSearchConfig.preset, attention=False)}


class Translation(Task):
    """Translation (paper §5-6): the Transformer and RNNsearch on parallel text; the default task."""

    name, help = "translation", "translate your parallel text, or the built-in Bible (en-es) (default for a new run)"
    presets = {name: {} for name in PRESETS}
    preset_help = ("tiny (default), base or big, the paper's model sizes; student: tiny's width, 4 encoder + 1 "
                   "decoder layers, pre-norm (aiayn distill)")
    archs = ARCHS
    arch_help = ("transformer (default), rnnsearch (Bahdanau et al. 2015: bidirectional GRU + additive attention) or "
                 "rnnencdec (the same without attention: one fixed context vector)")
    train_presets, train_settings, objective = TRAIN_PRESETS, TranslationTraining, TranslationObjective
    data = {"train": None, "valid": None, "src": None, "tgt": None, "vocab": None, "length_multiple": None}
    fixed_by_start = ("src_vocab_size", "tgt_vocab_size")  # the vocabulary written first fixes the embeddings
    decoding = DecodeOptions()
    verbs = ("translate", "evaluate", "attention", "serve", "export")
    options = {"train": TranslationTrain, "evaluate": TranslationTest}
    default_out = "runs/tiny"

    def prepare(self, data: dict) -> tuple[dict, dict]:
        return check_data(data)

    def start(self, setup: Setup, data: dict, train_config) -> dict:
        return write_vocabulary(setup, data, train_config)

    def build(self, setup: Setup, model_config, train_config, data: dict) -> TranslationObjective:
        """The training and validation ids every rank maps (built on first use), batched, and the first
        validation pairs as text for BLEU. A resume first checks that the training data is what the run
        started on."""
        source = training_source(data)
        data_fp = check_unchanged(source, data.get("train_fingerprint")) if setup.resume else None
        tokenizer = Tokenizer.load(setup.run.tokenizer)
        pairs = mapped_pairs(source, tokenizer, setup.world, setup.progress, data_fp)
        data["train_fingerprint"] = pairs.header["data_fingerprint"]  # --resume checks it
        precision = resolve_precision(train_config.precision, setup.world.device)
        if data.get("length_multiple") is None:  # chosen once, recorded; a run saved before the setting had 1
            data["length_multiple"] = 1 if setup.resume else length_multiple(precision, setup.world.device)
        if data["length_multiple"] == 1 and precision == "bf16" and setup.world.device.type == "cpu":
            few_onednn_kernels()  # exact lengths: nearly every batch a new shape, a kept kernel rarely met again
        encoded = batch_corpus(pairs, train_config, model_config.max_positions, "training data", data["length_multiple"])
        valid, valid_text = None, None
        if data["valid"]:
            valid_source = open_parallel(data["valid"], data["src"], data["tgt"])
            valid = batch_corpus(mapped_pairs(valid_source, tokenizer, setup.world), train_config,
                                 model_config.max_positions, "validation")
            valid_text = first_pairs(valid_source, train_config.task_settings.valid_bleu_sentences)
        return TranslationObjective(tokenizer, encoded, valid, valid_text, train_config,
                                    summary=f"on {len(encoded):,} pairs ({data['src']} -> {data['tgt']})")

    def evaluate(self, request: EvaluateRequest) -> str:
        options, test = request.options(self.decoding), filled(TranslationTest, request.task_options)
        bar = request.progress(unit="sent", leave=False, desc="translating") if request.progress else None
        try:
            scores, out, data, _ = evaluate(request.model, test.test, test.src, test.tgt, options,
                                            request.device, progress=bar, dtype=request.dtype,
                                            compile=bool(test.compile))
        finally:
            if bar is not None:
                bar.close()
        return (f"{data.src_lang}->{data.tgt_lang}, {len(data)} sentences, beam {options.beam_size}, "
                f"α {options.alpha}\n{scores}\nhypotheses: {out}")

    def report(self, run_dir: Path, config: dict, progress=None) -> str:
        return report(run_dir, config, self.decoding, progress)


TASK = Translation()
