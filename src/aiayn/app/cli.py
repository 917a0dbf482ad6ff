"""The ``aiayn`` command: a table from sub-commands to (add its options, run it) pairs. Each run parses
its arguments into a call of the library (``aiayn.runs``, ``aiayn.export``, ``aiayn.serve``) and prints
what comes back."""

from __future__ import annotations

import argparse
import dataclasses
import errno
import functools
import logging
import os
import sys

from tqdm import tqdm

from .. import checks, runs, tasks
from ..allocator import keep_freed_memory
from ..decoding.options import DECODE_RANGES
from ..errors import UsageError, UserError
from ..export import QUANTIZATIONS, TARGETS
from ..inference.attention_maps import KINDS
from ..model import compiled
from ..precision import PRECISIONS, decoding_dtype
from ..tasks.declared import add_options
from ..tasks.options import add_decoding, by_task, decode_options, decoding_given, device, input_lines
from ..training.config import RANGES as TRAIN_RANGES
from . import distill, experiment, info, preprocess
from .argtypes import duration, setting

log = logging.getLogger("aiayn")

EPILOG_TRAIN = """examples:
  aiayn train --max-time 10m                       # tiny model on the built-in English-Spanish Bible
  aiayn train --train data/train --valid data/dev --src de --tgt en --preset base --out runs/base
  aiayn train --config my.yaml --set model.dropout=0.3 --set train.warmup=8000
  aiayn train --out runs/base --resume            # continue exactly where it stopped
  torchrun --nproc_per_node 8 -m aiayn train --preset base --max-tokens 3125 ...   # 8 GPUs
  aiayn train --arch rnnsearch --max-time 30m --out runs/rnnsearch   # Bahdanau et al.'s RNNsearch, tiny
  aiayn train --task music --max-time 15m --out runs/music    # Music Transformer, Bach chorales
  aiayn train --task music --preset absolute --out runs/music-abs   # sinusoids instead of relative attention
  aiayn train --task parsing --max-time 10m --out runs/parsing   # parsing, on a SYNTHETIC treebank
  aiayn train --task parsing --preset wsj --train wsj-02-21.mrg --valid wsj-22.mrg --out runs/wsj   # your WSJ

DATA is a TSV file (.tsv or .tsv.gz) whose header names the languages (e.g. ref, en, es), or a
path prefix with one file per language (PREFIX.en, PREFIX.es, optionally .gz)."""


EPILOG_GENERATE = """examples:
  aiayn generate --model runs/music --samples 4 --length 512 --out samples/        # from scratch
  aiayn generate --model runs/digits --class 3 --class seven --temperature 0.9 --out digits.png
  aiayn generate --model runs/superres --samples 8 --out superres.png   # input | bicubic | model | truth
  aiayn generate --model runs/music --primer test:0 --primer-tokens 256 --temperature 0.9
  aiayn generate --model runs/music --primer my_chorale.mxl --top-p 0.95 --seed 7"""


EPILOG_SERVE = """examples:
  aiayn serve runs/tiny                          # then open http://127.0.0.1:8000 in a browser
  aiayn serve runs/                              # every run in runs/: the page picks among them
  aiayn serve                                    # no model yet: train the tiny one from the page
  aiayn serve --model runs/tiny --port 8080 --beam 5 --timeout 20
  aiayn serve --model runs/base --device cuda --max-lines 256 --max-batch-lines 256
  aiayn serve --model exports/tiny-ct2 --engine ctranslate2   # CTranslate2 translates, aiayn draws the attention

  curl -s localhost:8000/api/translate -d '{"lines": ["God is love."], "beam": 4, "nbest": 2}'
  curl -s localhost:8000/api/attention -d '{"text": "God is love."}'
  curl -s localhost:8000/api/info

the JSON API (errors are {"error": "one line"} with a 4xx or 5xx status):
  POST /api/translate  {"lines": [...], "beam": 4, "alpha": 0.6, "nbest": 1}; only "lines" is required
                       -> {"translations": [{"source", "text", "nbest": [{"text", "score"}]}], ...}
  POST /api/attention  {"text": "...", "beam": 4} -> the translation, and per kind (encoder, decoder_self,
                       cross) the query and key pieces and the weights as (layers, heads, queries, keys)
  GET  /api/info       the model, the decoding defaults, the limits
  GET  /api/health     {"status": "ok", "pending": ..., "stats": ...}

One thread owns the model: requests wait in a queue, and the translations waiting with the same
options are decoded together (micro-batches). More than --max-queue waiting: 503; no answer within
--timeout: 504. Too many lines or characters: 413. There is no authentication: keep the default
--host 127.0.0.1 unless something in front of the server controls who may reach it."""


class _Parser(argparse.ArgumentParser):
    """argparse whose errors are one line, like every other error of the command line."""

    def error(self, message: str):
        self.exit(2, f"error: {message} (see {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="aiayn", description="The Transformer of 'Attention Is All You Need' and its family: "
                     "train, translate, evaluate, generate, parse, look inside, export, serve.")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name, (add, _) in command_table().items():
        add_options(add(sub), tasks.readers(name))  # the options the tasks declare for it (Task.options)
    return parser


def command_table() -> dict:
    """COMMANDS with the sub-commands the tasks bring (``Task.commands``, each printing what it returns)
    listed after generate, among the other uses of a trained model."""
    brought = {name: (add, functools.partial(_print, run)) for task in tasks.registry().values()
               for name, (add, run) in task.commands.items()}
    table = {}
    for name, spec in COMMANDS.items():
        table[name] = spec
        if name == "generate":
            table.update(brought)
    return table


def _print(run, args: argparse.Namespace) -> None:
    sys.stdout.write(run(args))
    sys.stdout.flush()


def _add_train(sub) -> argparse.ArgumentParser:
    t = sub.add_parser("train", help="train a model: translation (default), music, digits, superres, parsing",
                       epilog=EPILOG_TRAIN,
                       formatter_class=argparse.RawDescriptionHelpFormatter,
                       description="Train an encoder-decoder Transformer (paper §5): joint BPE vocabulary, "
                       "token-bucketed batches, Adam with warm-up, label smoothing, checkpoints, validation BLEU. "
                       "With --task music: a decoder-only Music Transformer on the Bach chorales bundled with "
                       "music21 (validation NLL per token picks the best model).")
    known = tasks.registry()
    t.add_argument("--task", choices=list(known), help="; ".join(f"{name}: {task.help}" for name, task in known.items())
                   + "; --resume keeps the run's task")
    t.add_argument("--arch", choices=sorted({arch for task in known.values() for arch in task.archs}),
                   help="; ".join(f"{name}: {task.arch_help}" for name, task in known.items() if task.archs))
    t.add_argument("--preset", choices=sorted({name for task in known.values() for name in task.presets}),
                   help="; ".join(f"{name}: {task.preset_help}" for name, task in known.items()))
    t.add_argument("--config", metavar="FILE", help="YAML or TOML file with preset / model / train sections")
    settings = [f"{o.dest} ({name})" for name, options in tasks.readers("train") for o in options if o.flag is None]
    t.add_argument("--set", type=setting, action="append", default=[], metavar="KEY=VALUE",
                   help="override one field, e.g. model.dropout=0.3 or train.warmup=8000, or a data setting "
                   "of a built-in task, e.g. data.window=256 for music (repeatable); the tasks' own settings: "
                   + ", ".join(settings))
    t.add_argument("--out", help=f"run directory (default {known[tasks.DEFAULT].default_out}; runs/TASK for other "
                   "tasks)")
    t.add_argument("--resume", action="store_true", help="continue the run in --out exactly where it stopped")
    t.add_argument("--init", metavar="MODEL", help="fine-tune: start a new run from the weights of a trained model "
                   "(a run directory or .safetensors file) of the same task, preset and model shape; the optimizer "
                   "and learning-rate schedule start afresh. Dropout may differ")
    t.add_argument("--device", type=device, help="cpu or cuda[:N] (default: cuda when available)")
    own = {name: task.train_config(None, {}) for name, task in known.items()}  # each task's default preset
    for flag, field, text in [
        ("--max-steps", "max_steps", "stop after this many updates"),
        ("--max-time", "max_time", "stop after this much training time: 90s, 10m, 2h"),
        ("--max-tokens", "max_tokens", "padded tokens per side per batch (paper: ~25000 per update)"),
        ("--update-freq", "update_freq", "batches accumulated into one update"),
        ("--warmup", "warmup", "warm-up steps of the learning-rate schedule (paper: 4000)"),
        ("--lr-scale", "lr_scale", "multiplies the schedule's learning rate"),
        ("--seed", "seed", "random seed"),
    ]:
        kind = duration if field == "max_time" else TRAIN_RANGES[field].parse
        values = {name: getattr(config, field) for name, config in own.items()}
        if any(v is not None for v in values.values()):  # the task's, with its default preset
            text += f"; {by_task(values)}"
        t.add_argument(flag, dest=f"train.{field}", type=kind, help=text)
    t.add_argument("--precision", dest="train.precision", choices=PRECISIONS,
                   help="fp32 (default): exact, the reference; bf16: a bfloat16 working copy of the model runs the "
                   "forward and backward passes while Adam updates float32 master weights (checkpoints stay "
                   "float32): about twice as fast on CPUs with AVX-512 BF16 or AMX and on recent GPUs, slower "
                   "elsewhere; auto: bf16 where the hardware has it, fp32 elsewhere (the run records its choice)")
    t.add_argument("--bf16", dest="train.precision", action="store_const", const="bf16", help="--precision bf16")
    t.add_argument("--deterministic", dest="train.deterministic", action="store_const", const=True,
                   help="GPU: deterministic kernels, so a run and its resumes are bit-identical (slower)")
    return t


def add_compile(p: argparse.ArgumentParser) -> None:
    p.add_argument("--compile", action="store_true", help=compiled.HELP)


def _add_translate(sub) -> argparse.ArgumentParser:
    tr = sub.add_parser("translate", help="translate lines from a file or stdin",
                        description="Translate one sentence per line to stdout, in input order. An empty line "
                        "gives an empty line; a line longer than the model's positions is cut, with a warning.",
                        epilog="example:\n  echo 'In the beginning God created the heavens.' | aiayn translate "
                        "--model runs/tiny", formatter_class=argparse.RawDescriptionHelpFormatter)
    tr.add_argument("--model", required=True, help="run directory (uses its best model) or a .safetensors file")
    tr.add_argument("--input", help="file to translate (default: stdin)")
    tr.add_argument("--nbest", type=DECODE_RANGES["nbest"].parse, default=1,
                    help="print the K best as 'line<TAB>score<TAB>text' (at most --beam)")
    tr.add_argument("--engine", choices=["aiayn", "ctranslate2"], default="aiayn",
                    help="ctranslate2: run a folder written by `aiayn export --to ctranslate2` (greedy outputs are "
                    "aiayn's; beam scores divide by |Y|^alpha instead of GNMT's; --dtype float32 keeps the "
                    "export's own type, float32 or int8; int8 or bfloat16 convert it when loading) (default aiayn)")
    add_decoding(tr)
    add_compile(tr)
    return tr


def _add_evaluate(sub) -> argparse.ArgumentParser:
    ev = sub.add_parser("evaluate", help="score a model: translation BLEU/chrF (sacreBLEU), music test NLL, or "
                        "parsing bracket F1 (EVALB)",
                        description="A translation model translates a test set, scored with sacreBLEU (BLEU, "
                        "chrF). A music model is scored by its NLL per token on the chorales' test split. A parsing "
                        "model parses the words of test trees (default: the SYNTHETIC treebank's test split) and is "
                        "scored by labelled bracket precision, recall and F1 (EVALB, COLLINS.prm). Each task decodes "
                        "with its paper's settings (below) unless the decoding options say otherwise.",
                        epilog="examples:\n  aiayn evaluate --model runs/tiny          # the built-in test split\n"
                        "  aiayn evaluate --model runs/music         # NLL per token, perplexity\n"
                        "  aiayn evaluate --model runs/parsing       # bracket F1 on the synthetic test split\n"
                        "  aiayn evaluate --model runs/wsj --test wsj-23.mrg",
                        formatter_class=argparse.RawDescriptionHelpFormatter)
    ev.add_argument("--model", required=True, help="run directory or .safetensors file")
    searched = {name: task.decoding for name, task in tasks.registry().items() if task.decoding}
    add_decoding(ev, None, title="decoding (defaults: the model's task's)", tasks=searched)  # unset: Task.decoding
    return ev


def _add_average(sub) -> argparse.ArgumentParser:
    av = sub.add_parser("average", help="average the last K checkpoints (paper: base 5, big 20)",
                        epilog="example:\n  aiayn average --model runs/tiny --last 5",
                        formatter_class=argparse.RawDescriptionHelpFormatter)
    av.add_argument("--model", required=True, help="run directory")
    av.add_argument("--last", type=runs.AVERAGE_LAST.parse, default=5,
                    help="how many of the newest checkpoints (default 5)")
    return av


def _add_attention(sub) -> argparse.ArgumentParser:
    at = sub.add_parser("attention", help="plot the attention of a translation as heat maps (PNG)",
                        description="Translate one sentence and draw, for one layer, each head's attention and "
                        "their mean: which source pieces each target piece looked at.",
                        epilog="example:\n  aiayn attention --model runs/tiny --text 'God is love.' --out love.png",
                        formatter_class=argparse.RawDescriptionHelpFormatter)
    at.add_argument("--model", required=True, help="run directory or .safetensors file")
    at.add_argument("--text", required=True, help="the source sentence")
    at.add_argument("--out", default="attention.png", help="PNG file to write (default attention.png)")
    at.add_argument("--kind", choices=KINDS, default="cross",
                    help="encoder-decoder (cross), encoder self- or decoder self-attention (default cross)")
    at.add_argument("--layer", type=int, default=-1, help="layer, 1-based; -1 for the last (default)")
    at.add_argument("--beam", type=DECODE_RANGES["beam_size"].parse, default=4,
                    help="beam size for the translation (default 4)")
    at.add_argument("--device", type=device, default="cpu")
    return at


def _add_generate(sub) -> argparse.ArgumentParser:
    g = sub.add_parser("generate", help="sample music (MIDI + piano roll) or digits (PNG grid) from a model",
                       description="Sample chorales from a music model (Music Transformer, Huang et al. 2018): from "
                       "scratch, or continuing primers; each sample is written as MIDI and as a piano roll. Sample "
                       "digits from a digits model (Image Transformer, Parmar et al. 2018), a row per class when "
                       "class-conditional, or super-resolve test digits: one PNG grid.",
                       epilog=EPILOG_GENERATE, formatter_class=argparse.RawDescriptionHelpFormatter)
    r = tasks.GENERATE_RANGES
    g.add_argument("--model", required=True, help="music, digits or superres run directory, or .safetensors file")
    g.add_argument("--out", default="samples", help="music: folder for the .mid and .png files; images: a .png file "
                   "or a folder for TASK.png (default samples)")
    given = functools.partial(tasks.defaults, "generate")  # each task's (Task.defaults), by task
    g.add_argument("--samples", type=r["samples"].parse, help="samples per primer (music), per class (digits) or "
                   f"test digits (superres) ({given('samples')})")
    g.add_argument("--temperature", type=r["temperature"].parse,
                   help=f"below 1: safer; above 1: wilder ({given('temperature')}; music's: docs/music.md)")
    g.add_argument("--top-k", type=r["top_k"].parse,
                   help=f"sample among the k most probable tokens (0: all; {given('top_k')})")
    g.add_argument("--top-p", type=r["top_p"].parse,
                   help=f"sample within probability p, nucleus (1.0: all; {given('top_p')})")
    g.add_argument("--seed", type=r["seed"].parse, default=1, help="the same seed gives the same samples (default 1)")
    g.add_argument("--device", type=device, default="cpu")
    return g


def _add_serve(sub) -> argparse.ArgumentParser:
    from ..serve.requests import LIMIT_RANGES as r  # plain Python: FastAPI is imported only when serving

    s = sub.add_parser("serve", help="serve models: the translation page, the studio and their JSON API",
                       description="Serve one or several models over HTTP: a web page where you type or paste text and "
                       "see the translation, its n-best list and the attention heat maps, and the studio below it "
                       "(every head at once, the forward pass and beam search step by step, attention at every "
                       "checkpoint, the positional table, the schedule and the curves; for music, digits, superres "
                       "and parsing models their own views: hear a chorale, watch a digit drawn, see a parse tree), "
                       "in English and Korean, and the JSON API behind it (docs/studio.md). With no model, the page "
                       "trains the tiny one. Needs FastAPI and uvicorn: pip install 'aiayn[serve]'.",
                       epilog=EPILOG_SERVE, formatter_class=argparse.RawDescriptionHelpFormatter)
    s.add_argument("runs", nargs="*", metavar="RUN", help="models to serve: run directories (each its best model), "
                   ".safetensors files, or a folder of runs (every run in it); the page picks among them")
    s.add_argument("--model", action="append", default=[], help="a model to serve, as RUN (may be repeated)")
    s.add_argument("--runs-dir", default="runs", help="where the page's Training panel writes the runs it starts "
                   "(default runs/; training from the page is offered only with --host 127.0.0.1)")
    s.add_argument("--no-training", action="store_true", help="offer no training from the page")
    s.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1: this machine "
                   "only; 0.0.0.0: every network, without any authentication)")
    s.add_argument("--port", type=checks.Allowed(int, 1, 65535).parse, default=8000, help="TCP port (default 8000)")
    g = s.add_argument_group("limits (each request)")
    g.add_argument("--max-lines", type=r["max_lines"].parse, default=64, help="lines per request (default 64)")
    g.add_argument("--max-chars", type=r["max_chars"].parse, default=1000, help="characters per line (default 1000)")
    g.add_argument("--max-beam", type=r["max_beam"].parse, default=16, help="largest beam (and n-best) a request "
                   "may ask for (default 16)")
    g.add_argument("--timeout", type=r["timeout"].parse, default=60.0, help="seconds a request waits for its answer, "
                   "queue included, before a 504 (default 60)")
    g.add_argument("--body-timeout", type=r["body_timeout"].parse, default=10.0, help="seconds a request's headers "
                   "and body may take to arrive; slower clients get a 408 and the connection closes (default 10)")
    g.add_argument("--max-queue", type=r["max_queue"].parse, default=256, help="requests waiting at once; more get "
                   "a 503 (default 256)")
    g.add_argument("--max-batch-lines", type=r["max_batch_lines"].parse, default=64, help="lines of waiting "
                   "requests decoded together (default 64)")
    s.add_argument("--engine", choices=["aiayn", "ctranslate2"], default="aiayn",
                   help="ctranslate2: translate with CTranslate2, on a folder of `aiayn export --to ctranslate2` or on "
                   "--model exported when the server starts (--dtype int8: int8 weights); aiayn's model still draws "
                   "the attention, reading CTranslate2's translation; beams rank by |Y|^alpha (default aiayn)")
    add_decoding(s)  # the defaults of every request; a request may change beam, alpha and nbest
    add_compile(s)
    return s


def _run_serve(args: argparse.Namespace) -> None:
    from ..runs import engines
    from ..serve import Limits, serve

    limits = Limits(max_lines=args.max_lines, max_chars=args.max_chars, max_beam=args.max_beam, timeout=args.timeout,
                    max_queue=args.max_queue, max_batch_lines=args.max_batch_lines, body_timeout=args.body_timeout)
    models = [*args.runs, *args.model]
    if not models and args.no_training:
        raise UsageError("name a model to serve: aiayn serve runs/tiny (a run directory, a .safetensors file or a "
                         "folder of runs), or leave out --no-training to train one from the page")
    if args.engine == "aiayn":
        from ..serve.catalog import expand

        for model in models:
            engines.check_engine(model, "aiayn")
            if os.path.exists(model):  # a missing one: serve's own message says how to get one
                for path in expand([model]):
                    tasks.gate(path, "serve")
        serve(models, args.host, args.port, decode_options(args), limits, args.device, args.dtype,
              runs_dir=None if args.no_training else args.runs_dir,
              load=functools.partial(tasks.subject, compiled=args.compile))
        return
    if args.compile:
        raise UsageError("--compile compiles aiayn's own decoder; CTranslate2 brings its own kernels: leave out one")
    if len(models) > 1:
        raise UsageError("--engine ctranslate2 serves one model; serve several with --engine aiayn")
    engines.check_engine(models[0], args.engine)
    with engines.ctranslate2(models[0], args.device, args.dtype) as engine:  # aiayn's weights show the attention
        serve(engine.weights, args.host, args.port, decode_options(args), limits, args.device, "float32",
              decoder=engine.decoder, engine=engine.info)


EPILOG_EXPORT = """examples:
  aiayn export --model runs/tiny --to hf --out exports/tiny-hf
  aiayn export --model runs/tiny/average-last-5.safetensors --to ctranslate2 --out exports/tiny-ct2
  aiayn export --model runs/tiny --to ctranslate2 --quantization int8 --out exports/tiny-ct2-int8
  echo 'God is love.' | aiayn translate --engine ctranslate2 --model exports/tiny-ct2

  python -c "from transformers import MarianMTModel, MarianTokenizer as T; d = 'exports/tiny-hf'
  tok, m = T.from_pretrained(d), MarianMTModel.from_pretrained(d)
  print(tok.batch_decode(m.generate(**tok(['God is love.'], return_tensors='pt')), skip_special_tokens=True))"

What a target cannot compute exactly is refused with the field's name (Marian: pre-norm, learned
positions, untied output, separate embeddings; both: relative or local attention, d_k != d_model/h).
Marian's LayerNorm epsilon is fixed at 1e-5 (aiayn: 1e-6): logits move by less than 1e-4."""


def _add_export(sub) -> argparse.ArgumentParser:
    e = sub.add_parser("export", help="export a translation model to Hugging Face (Marian) or CTranslate2",
                       description="Write a trained Transformer as a Hugging Face MarianMTModel folder (weights, "
                       "config and MarianTokenizer files: from_pretrained + generate, no aiayn needed) or as a "
                       "CTranslate2 model (float32, or int8 with --quantization int8). The exported model computes "
                       "the same function: the same greedy translations. Needs pip install 'aiayn[export]'.",
                       epilog=EPILOG_EXPORT, formatter_class=argparse.RawDescriptionHelpFormatter)
    e.add_argument("--model", required=True, help="run directory (uses its best model) or a .safetensors file")
    e.add_argument("--to", required=True, choices=list(TARGETS), help="hf: a MarianMTModel folder; ctranslate2: a "
                   "CTranslate2 model folder")
    e.add_argument("--out", required=True, help="folder to create (must not exist, or be empty)")
    e.add_argument("--quantization", choices=list(QUANTIZATIONS), help="CTranslate2 weight type (default float32; "
                   "int8: about 4x smaller and faster on CPU, a few translations change)")
    return e


def _run_export(args: argparse.Namespace) -> None:
    from ..export import export

    out = export(args.model, args.to, args.out, args.quantization)
    if args.to == "hf":
        print(f"wrote {out}\nload with: MarianMTModel.from_pretrained('{out}') and "
              f"MarianTokenizer.from_pretrained('{out}')")
    else:
        print(f"wrote {out}\ntranslate with: aiayn translate --engine ctranslate2 --model {out}")


def _run_attention(args: argparse.Namespace) -> None:
    translation = runs.attention(runs.AttentionRequest(
        model=args.model, text=args.text, out=args.out, kind=args.kind, layer=args.layer, beam_size=args.beam,
        device=args.device))
    print(f"{translation}\nwrote {args.out}")


def _run_train(args: argparse.Namespace) -> None:
    overrides = {k: v for k, v in args.set if not k.startswith("data.")}
    data = {k[len("data."):]: v for k, v in args.set if k.startswith("data.")}
    overrides.update({k: v for k, v in vars(args).items() if k.startswith("train.") and v is not None})
    out = args.out or tasks.get(args.task or tasks.DEFAULT).default_out
    run = runs.train(runs.TrainRequest(
        out=out, preset=args.preset, config_file=args.config, overrides=overrides, resume=args.resume,
        device=args.device, task=args.task, progress=tqdm, arch=args.arch, data=data or None, init=args.init,
        options=tasks.given_options("train", vars(args))))
    if int(os.environ.get("RANK", "0")) == 0:  # only the main process reports
        print(runs.report(run, progress=tqdm))


def _run_translate(args: argparse.Namespace) -> None:
    lines = input_lines(args.input)
    with tqdm(total=len(lines), unit="sent", disable=not sys.stderr.isatty(), leave=False) as bar:
        results = runs.translate_lines(args.model, lines, decode_options(args, args.nbest), args.device,
                                       progress=bar, dtype=args.dtype, engine=args.engine, compiled=args.compile)
    out = sys.stdout
    for n, hyps in enumerate(results):
        if args.nbest == 1:
            out.write((hyps[0][0] if hyps else "") + "\n")
        else:
            for text, score in hyps or [("", 0.0)]:
                out.write(f"{n}\t{score:.4f}\t{text}\n")
    out.flush()


def _run_evaluate(args: argparse.Namespace) -> None:
    request = runs.EvaluateRequest(args.model, decoding_given(args), args.device, args.dtype,
                                   progress=functools.partial(tqdm, disable=not sys.stderr.isatty()),
                                   task_options=tasks.given_options("evaluate", vars(args)))
    print(runs.evaluate(request))


def _run_average(args: argparse.Namespace) -> None:
    out = runs.average(args.model, args.last)
    print(f"averaged the last {args.last} checkpoints into {out}\ntranslate with: aiayn translate --model {out}")


def _run_generate(args: argparse.Namespace) -> None:
    given = {f.name: getattr(args, f.name) for f in dataclasses.fields(runs.GenerateRequest) if hasattr(args, f.name)}
    request = runs.GenerateRequest(**given, task_options=tasks.given_options("generate", vars(args)))
    print(runs.generate(request))


COMMANDS = {  # name -> (adds its parser and returns it, runs it); `aiayn --help` lists them in this order
    "train": (_add_train, _run_train), "translate": (_add_translate, _run_translate),
    "preprocess": (preprocess.add_parser, preprocess.run),
    "evaluate": (_add_evaluate, _run_evaluate), "generate": (_add_generate, _run_generate),
    "average": (_add_average, _run_average),
    "attention": (_add_attention, _run_attention), "export": (_add_export, _run_export),
    "serve": (_add_serve, _run_serve), "experiment": (experiment.add_parser, experiment.run),
    "distill": (distill.add_parser, distill.run), "info": (info.add_parser, info.run),
}


# Errors of the machine rather than of aiayn: a full disk, no permission, a missing or read-only folder.
_ENVIRONMENT = {errno.ENOSPC, errno.EDQUOT, errno.EACCES, errno.EPERM, errno.EROFS, errno.ENOENT, errno.ENOTDIR,
                errno.EISDIR, errno.EEXIST, errno.EFBIG}


def main(argv: list[str] | None = None) -> int:
    try:
        args = build_parser().parse_args(argv)
    except SystemExit as e:  # --help, or a bad option (already reported on one line)
        return e.code
    if getattr(args, "dtype", None) == "auto":  # decided once, here, for every decoding command
        args.dtype = decoding_dtype("auto", getattr(args, "device", None) or "cpu")
    logging.basicConfig(level=logging.INFO, format="%(levelname)s: %(message)s", stream=sys.stderr)
    logging.addLevelName(logging.INFO, "info")
    logging.addLevelName(logging.WARNING, "warning")
    keep_freed_memory()  # every step reuses the last one's memory instead of faulting it in (aiayn.allocator)
    try:
        command_table()[args.command][1](args)
    except UserError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    except OSError as e:
        if isinstance(e, BrokenPipeError):  # e.g. `aiayn translate ... | head`: the reader is gone
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            return 141
        if e.errno not in _ENVIRONMENT or not e.filename:
            raise
        print(f"error: {e.filename}: {e.strerror}", file=sys.stderr)
        return 1
    except runs.Interrupted as e:
        print(f"interrupted: {e}", file=sys.stderr)
        return 128 + e.signum
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    return 0
