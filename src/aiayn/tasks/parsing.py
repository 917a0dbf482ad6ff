"""English constituency parsing as translation (paper §6.3): words in, the linearised tree out.

The encoder reads the sentence's words (a word vocabulary from the training trees; words seen fewer
than ``min_count`` times are unknown); the decoder emits Vinyals et al.'s linearisation with POS tags
normalised to XX (``aiayn.data.treebank``). Separate source and target vocabularies, so
``share_embeddings`` is off; the target embedding stays tied to the softmax.

Data: the SYNTHETIC treebank by default (``aiayn.data.synthetic_treebank``; no treebank ships), or
the user's Penn Treebank files (``aiayn train --task parsing --train 02-21.mrg --valid 22.mrg``).
Validation: NLL per target token (what picks the best model) and, for information, labelled
bracket F1 (EVALB, ``aiayn.metrics.evalb``) of greedy parses of the first ``VALID_PARSES`` validation trees.

Presets: ``tiny`` (CPU-sized for the synthetic treebank: d_model 128, 2 + 2 layers, 0.95M parameters;
4.7 times the target tokens per second of a 256-wide 3 + 3 model on one shared CPU thread, 5,900 vs
1,260, so 10 minutes reach a usable parser) and ``wsj``: the paper's 4 layers with
d_model 1024; the paper gives no d_ff, heads or dropout for it (tuned on section 22): d_ff 4096
and 16 heads as in "big", dropout 0.3, are our guesses.
"""

from __future__ import annotations

import argparse
import dataclasses
import functools
import logging
import math
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

import torch
from tqdm import tqdm

from ..data import DataError, batch_by_tokens, collate, filter_pairs
from ..data.synthetic_treebank import SEEDS, SIZES, synthetic_split
from ..data.treebank import BOS, EOS, PAD, Tree, Vocab, linearise, normalise, read_trees
from ..decoding.options import DecodeOptions
from ..errors import UsageError
from ..inference.parser import PAPER_DECODING, Parser
from ..io.atomic import atomic_path
from ..metrics.evalb import BracketScores, score_corpus
from ..model.config import TransformerConfig
from ..training import distributed as D
from ..training.loss import LossSums, label_smoothed_cross_entropy
from .declared import Command, filled, option
from .options import decode_options, input_lines
from .requests import EvaluateRequest
from .spec import Setup, Task

log = logging.getLogger("aiayn")

VALID_PARSES = 200  # validation trees parsed greedily for the F1 shown during training
PRESETS = {
    "tiny": dict(d_model=128, n_heads=4, d_ff=512, n_encoder_layers=2, n_decoder_layers=2, dropout=0.1,
                 max_positions=512),
    "wsj": dict(d_model=1024, n_heads=16, d_ff=4096, n_encoder_layers=4, n_decoder_layers=4, dropout=0.3,
                max_positions=1024),
}
PARSING_TRAIN = dict(max_tokens=2048, warmup=200, lr_scale=0.5, label_smoothing=0.1, max_steps=100_000, log_every=20,
                     valid_every=200, save_every=200, keep_last=5)
SYNTHETIC = (f"SYNTHETIC treebank (hand-written English-like grammar; seeds {SEEDS['train']}/{SEEDS['valid']}/"
             f"{SEEDS['test']}, {SIZES['train']}/{SIZES['valid']}/{SIZES['test']} sentences; "
             "docs/data/synthetic-treebank.md)")


def parsing_model_config(**fields) -> TransformerConfig:
    """The parser's encoder-decoder; the vocabulary sizes come from the data (``prepare``)."""
    fixed = {"share_embeddings": False, "pad_id": PAD, "bos_id": BOS, "eos_id": EOS}
    return TransformerConfig.from_dict({**fixed, **fields})


def load_split(data: dict, split: str) -> list[Tree]:
    """Normalised trees of ``split`` (train, valid; test of the synthetic treebank only): the user's
    file named in ``data[split]``, else the synthetic treebank's split."""
    path = data.get(split)
    if path is None:
        return synthetic_split(split)
    return [normalise(tree, str(path)) for tree in read_trees(path)]


def prepare(data: dict) -> tuple[dict, dict]:
    """Before a new run's model is built: the data settings completed with the vocabularies (recorded
    in config.json) and the model fields they fix. The user's files are read and checked here."""
    if (data.get("train") is None) != (data.get("valid") is None):
        raise DataError("parsing on your own trees needs both --train and --valid (e.g. WSJ sections 02-21 and 22)")
    train = load_split(data, "train")
    load_split(data, "valid")  # a malformed file fails now, before anything is written
    words = Vocab.build((t.words() for t in train), data["min_count"])
    symbols = Vocab.build(linearise(t) for t in train)
    data = {**data, "corpus": SYNTHETIC if data.get("train") is None else "Penn Treebank files (yours)",
            "words": str(words), "symbols": str(symbols)}
    return data, {"src_vocab_size": len(words), "tgt_vocab_size": len(symbols)}


class ParsingObjective:
    """Batches of (words, linearised tree) pairs; validation NLL per token and greedy bracket F1
    (an ``aiayn.training.objective.Objective``)."""

    train_batches: list[list[int]]
    prefetch = False  # trees are few and short: collated on the training thread
    fingerprint = None  # the vocabularies are recorded in config.json's data settings, checked there
    has_valid = True  # --valid trees, or the synthetic treebank's valid split
    summary = ""

    def __init__(self, data: dict, max_tokens: int, max_positions: int):
        self.words, self.symbols = Vocab.from_str(data["words"]), Vocab.from_str(data["symbols"])
        self.train, self.train_batches = self._encode(load_split(data, "train"), max_tokens, max_positions, "training")
        self.valid_trees = load_split(data, "valid")
        self.valid, self.valid_batches = self._encode(self.valid_trees, max_tokens, max_positions, "validation")

    def _encode(self, trees: list[Tree], max_tokens: int, max_positions: int, name: str):
        src = [self.words.encode(t.words()) for t in trees]
        tgt = [self.symbols.encode(linearise(t)) for t in trees]
        keep, _, n_long = filter_pairs(src, tgt, max_positions)
        if n_long:
            log.warning("%s trees: dropped %d whose linearisation is longer than %d tokens", name, n_long,
                        max_positions - 1)
        if not keep:
            raise DataError(f"no {name} tree fits in {max_positions - 1} tokens; raise model.max_positions")
        pairs = ([src[i] for i in keep], [tgt[i] for i in keep])
        return pairs, batch_by_tokens([len(s) for s in pairs[0]], [len(t) for t in pairs[1]], max_tokens)

    def _batch(self, pairs, indices: list[int]):
        return collate([pairs[0][i] for i in indices], [pairs[1][i] for i in indices], PAD, BOS, EOS)

    def batch(self, indices: list[int]):
        return self._batch(self.train, indices)

    def loss(self, model, batch, epsilon: float) -> LossSums:
        return label_smoothed_cross_entropy(model(batch.src, batch.tgt_in), batch.tgt_out, epsilon, PAD)

    @torch.no_grad()
    def validate(self, model, device, world: D.World | None = None) -> dict[str, float]:
        """NLL per target token over the validation trees, and the F1 of greedy parses of the first
        ``VALID_PARSES``; with ``world`` each process takes a share and all get the totals."""
        world = world or D.World(device=torch.device(device))
        sums = torch.zeros(2, dtype=torch.float64)
        for indices in self.valid_batches[world.rank::world.size]:
            out = self.loss(model, self._batch(self.valid, indices).to(device), 0.0)
            sums += torch.tensor([out.nll.item(), out.n_tokens.item()], dtype=torch.float64)
        golds = self.valid_trees[world.rank:VALID_PARSES:world.size]
        parses = Parser(model, self.words, self.symbols, device).parse(
            [g.words() for g in golds], DecodeOptions(beam_size=1, max_len_b=300), [g.tags() for g in golds])
        scores = score_corpus(golds, [p.tree for p in parses])
        nll, n, matched, gold, test, repaired = D.sum_across(
            [*sums.tolist(), scores.matched, scores.gold, scores.test, sum(p.repairs > 0 for p in parses)], world)
        f1 = BracketScores(int(matched), int(gold), int(test)).f1
        return {"valid_nll": nll / n, "valid_ppl": math.exp(min(nll / n, 50)), "valid_f1_greedy": f1,
                "valid_repaired": int(repaired)}

    @staticmethod
    def metric(figures: dict[str, float]) -> float:
        return -figures["valid_nll"]

    @staticmethod
    def describe(figures: dict[str, float]) -> str:
        return (f"valid NLL {figures['valid_nll']:.4f} nats/token, ppl {figures['valid_ppl']:.3f}, greedy F1 "
                f"{figures['valid_f1_greedy']:.2f} (first {VALID_PARSES} trees; {figures['valid_repaired']} repaired)")


# Using a trained model ----------------------------------------------------------------------
SYNTHETIC_TEST = "synthetic-treebank-test"  # the name of the built-in test split in file names and reports


def evaluate_parsing(model: str | Path, test: str | None = None, options: DecodeOptions = PAPER_DECODING,
                     device: str = "cpu", progress=None) -> dict:
    """Parses the test trees' words and scores the parses against them; returns the figures, the path
    of the parsed trees (``parsed.TEST.beamK.mrg`` beside the model) and the number repaired."""
    golds = [normalise(t, test) for t in read_trees(test)] if test else synthetic_split("test")
    name = Path(test).name.split(".")[0] if test else SYNTHETIC_TEST
    model = Path(model)
    folder, which = (model, "") if model.is_dir() else (model.parent, f"{model.stem}.")
    out = folder / f"parsed.{which}{name}.beam{options.beam_size}.mrg"
    parser = Parser.load(model, device)
    _check_writable(folder)
    parses = parser.parse([g.words() for g in golds], options, [g.tags() for g in golds], progress)
    with atomic_path(out) as tmp:
        tmp.write_text("".join(f"{p.tree}\n" for p in parses), encoding="utf-8")
    scores = score_corpus(golds, [p.tree for p in parses])
    return {"test": test or SYNTHETIC_TEST, "sentences": len(golds), "precision": scores.precision,
            "recall": scores.recall, "f1": scores.f1, "exact_match": scores.exact_match, "matched": scores.matched,
            "gold_brackets": scores.gold, "test_brackets": scores.test, "skipped": scores.skipped,
            "repaired": sum(p.repairs > 0 for p in parses), "out": out}


def parse_lines(model: str | Path, lines: list[str], options: DecodeOptions = PAPER_DECODING, device: str = "cpu",
                progress=None) -> tuple[list[str], int]:
    """One tree (a line of brackets, POS tags XX) per line of space-separated words, in order; an empty
    line gives an empty line. Also returns how many predictions were repaired."""
    parser = Parser.load(model, device)
    picked = [i for i, line in enumerate(lines) if line.split()]
    parses = parser.parse([lines[i].split() for i in picked], options, progress=progress)
    out = [""] * len(lines)
    for i, p in zip(picked, parses):
        out[i] = str(p.tree)
    return out, sum(p.repairs > 0 for p in parses)


def _check_writable(folder: Path) -> None:
    """Fails before any decoding if the parsed trees could not be written beside the model."""
    try:
        tempfile.TemporaryFile(dir=folder).close()
    except OSError as e:
        raise UsageError(f"cannot write the parsed trees into {folder}: {e.strerror or e}; "
                         "copy the model somewhere writable") from None


@dataclass
class ParsingParse:
    """`aiayn parse`'s options: the model and the sentences (its decoding options: ``PARSE.decoding``)."""

    model: str | None = option(None, "parsing run directory or .safetensors file", required=True)
    input: str | None = option(None, "file of sentences (default: stdin)")


PARSE = Command("parse", "parse sentences with a parsing model (one tree per line)",
                "Parse one sentence per line (words separated by spaces, punctuation split off, as in the treebank) "
                "into Penn Treebank brackets, one tree per line in input order; POS tags are XX (the model predicts "
                "none). An empty line gives an empty line. Decoding as paper §6.3: beam "
                f"{PAPER_DECODING.beam_size}, alpha {PAPER_DECODING.alpha}, max length input + "
                f"{PAPER_DECODING.max_len_b}.",
                "example:\n  echo 'the dog saw a cat with a telescope .' | aiayn parse --model runs/parsing",
                ParsingParse, PAPER_DECODING, "decoding (paper §6.3 defaults)")


def _run_parse(args: argparse.Namespace) -> str:
    """`aiayn parse`: the trees, one line each, for stdout."""
    from . import gate

    gate(args.model, "parse")
    lines = input_lines(args.input)
    trees, repaired = parse_lines(args.model, lines, decode_options(args), args.device,
                                  progress=functools.partial(tqdm, desc="parsing", disable=not sys.stderr.isatty()))
    if repaired:
        log.warning("%d of %d predictions were not well-formed trees and were repaired", repaired, len(lines))
    return "".join(tree + "\n" for tree in trees)


@dataclass
class ParsingTrain:
    """`aiayn train --task parsing`'s data: your Penn Treebank files (default: the SYNTHETIC treebank)."""

    train: str | None = option(None, "a Penn Treebank trees file (.mrg), e.g. WSJ sections 02-21", metavar="DATA")
    valid: str | None = option(None, "trees, e.g. WSJ section 22", metavar="DATA")


@dataclass
class ParsingTest:
    """`aiayn evaluate`'s test trees for a parsing model (default: the SYNTHETIC treebank's test split)."""

    test: str | None = option(None, "a Penn Treebank trees file", metavar="DATA")


class Parsing(Task):
    """Constituency parsing as translation (paper §6.3): words in, the linearised tree out."""

    name = "parsing"
    help = ("constituency parsing as translation (paper §6.3); a SYNTHETIC treebank unless --train/--valid give "
            "Penn Treebank files")
    presets, preset_help = PRESETS, "tiny (default) or wsj (paper §6.3: 4 layers, d_model 1024)"
    train, objective = PARSING_TRAIN, ParsingObjective
    data = {"train": None, "valid": None, "min_count": 2}
    decoding = PAPER_DECODING
    verbs = ("parse", "evaluate", "serve")
    options = {"train": ParsingTrain, "evaluate": ParsingTest}

    def subject(self, path, device: str = "cpu", dtype: str = "float32") -> Parser:
        return Parser.load(path, device)
    commands = {"parse": (PARSE.add, _run_parse)}

    def model_config(self, **fields) -> TransformerConfig:
        return parsing_model_config(**fields)

    def prepare(self, data: dict) -> tuple[dict, dict]:
        return prepare(data)

    def build(self, setup: Setup, model_config, train_config, data: dict) -> ParsingObjective:
        return ParsingObjective(data, train_config.max_tokens, model_config.max_positions)

    def evaluate(self, request: EvaluateRequest) -> str:
        options = request.options(self.decoding)
        test = filled(ParsingTest, request.task_options).test
        f = evaluate_parsing(request.model, test, options, request.device,
                             progress=request.progress and functools.partial(request.progress, desc="parsing"))
        return (f"{f['test']}, {f['sentences']} sentences, beam {options.beam_size}, α {options.alpha}, max length "
                f"input + {options.max_len_b}\nlabelled brackets (EVALB, COLLINS.prm): precision {f['precision']:.2f}  "
                f"recall {f['recall']:.2f}  F1 {f['f1']:.2f}  ({f['matched']} of {f['gold_brackets']} gold, "
                f"{f['test_brackets']} parsed)\nexact match {f['exact_match']:.2f} %; repaired predictions "
                f"{f['repaired']} of {f['sentences']}"
                + (f"; skipped (words differ) {f['skipped']}" if f['skipped'] else "") + f"\nparsed trees: {f['out']}")

    figures_text = ("labelled brackets (EVALB, COLLINS.prm) on the {split} split of the synthetic treebank, with the "
                    "paper's decoding (beam 21, α 0.3, exact stopping) and greedily")

    def figures(self, model: Path, split: str) -> dict[str, float]:
        """The experiment's figures of a run: labelled bracket precision, recall, F1, exact match and repaired
        parses on the synthetic treebank's test split, with the paper's decoding and greedy (``greedy_``)."""
        if split != "test":
            raise UsageError(f"a parsing experiment scores the synthetic treebank's test split, not {split!r}: "
                             "set evaluate.split to test")
        out = {}
        for prefix, options in (("", self.decoding), ("greedy_", dataclasses.replace(self.decoding, beam_size=1))):
            f = evaluate_parsing(model, None, options)
            out |= {f"test_{prefix}{k}": f[k] for k in ("precision", "recall", "f1", "exact_match", "repaired")}
        return out

    def report(self, run_dir: Path, config: dict, progress=None) -> str:
        return (f"\nModel: {run_dir}  (best: {run_dir / 'best.safetensors'})\n"
                f"Score it (bracket F1, beam {self.decoding.beam_size}): aiayn evaluate --model {run_dir}"
                + ("" if config["data"].get("train") is None else " --test TREES.mrg")
                + f"\nParse sentences: echo 'the dog saw a cat .' | aiayn parse --model {run_dir}")


TASK = Parsing()
