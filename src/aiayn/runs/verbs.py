"""What is done with a trained model, as plain functions each taking a request or a few values:
evaluate, generate, translate, attention, average. The command line parses into these and prints
what they return; a library caller gets no progress bar unless it passes a ``progress`` factory."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from .. import tasks
from ..checks import Allowed
from ..decoding.options import DecodeOptions
from ..errors import UsageError
from ..export import is_ctranslate2_export
from ..inference.attention_maps import layers_of
from ..inference.translator import Translator
from ..io.atomic import atomic_path, check_writable
from ..io.checkpoint import average_checkpoints
from ..io.rundir import RunDir
from ..model.compiled import compile_decoding
from ..precision import DTYPES
from ..tasks import EvaluateRequest, GenerateRequest

AVERAGE_LAST = Allowed(int, 1)  # checkpoints to average


def evaluate(request: EvaluateRequest) -> str:
    """Scores ``request.model`` as its task does (BLEU, NLL, bracket F1); returns the report's text."""
    task = tasks.gate(request.model, "evaluate")
    tasks.check_options(task, "evaluate", request.task_options)
    return task.evaluate(request)


def generate(request: GenerateRequest) -> str:
    """Samples from ``request.model`` as its task does; returns what was written, one line each."""
    task = tasks.gate(request.model, "generate")
    tasks.check_options(task, "generate", request.task_options)
    return task.generate(request)


def translate_lines(model: str | Path, lines: list[str], options: DecodeOptions, device: str = "cpu",
                    progress=None, dtype: str = "float32", engine: str = "aiayn", compiled: bool = False,
                    ) -> list[list[tuple[str, float]]]:
    """The ``options.nbest`` best (text, score) of each line; ``engine`` ctranslate2 runs an export
    written by ``aiayn export --to ctranslate2``. ``progress``: a bar to update per line (None: none).
    ``compiled``: aiayn's decoding step compiled (``model.compiled.compile_decoding``)."""
    if engine == "ctranslate2" and compiled:
        raise UsageError("--compile compiles aiayn's own decoder; CTranslate2 brings its own kernels: leave out one")
    if engine == "ctranslate2":
        from ..export.ctranslate2 import translate_lines as ct2_lines  # ctranslate2: only this engine needs it

        return ct2_lines(model, lines, options, device, progress=progress, dtype=dtype)
    if is_ctranslate2_export(model):
        raise UsageError(f"{model} is a CTranslate2 export: add --engine ctranslate2")
    tasks.gate(model, "translate")
    translator = Translator.load(model, device, DTYPES[dtype])
    if compiled:
        compile_decoding(translator.model)
    return translator.translate_nbest(lines, options, progress=progress)


@dataclasses.dataclass
class AttentionRequest:
    """What ``aiayn attention`` is asked to do: plot one layer's attention of ``text``'s translation
    into the PNG ``out``. ``kind``: one of ``aiayn.inference.attention_maps.KINDS``; ``layer``:
    1-based, or negative from the last."""

    model: str | Path
    text: str
    out: str | Path = "attention.png"
    kind: str = "cross"
    layer: int = -1
    beam_size: int = 4
    device: str = "cpu"


def attention(r: AttentionRequest) -> str:
    """Plots the attention ``r`` asks for; returns the translation."""
    from ..plots.attention import plot_attention  # matplotlib: only this command needs it

    tasks.gate(r.model, "attention")
    if not r.text.strip():
        raise UsageError("--text is empty: give the sentence to translate, e.g. --text 'God is love.'")
    translator = Translator.load(r.model, r.device)
    n_layers = layers_of(translator.model, r.kind)
    if not (1 <= r.layer <= n_layers or -n_layers <= r.layer <= -1):
        raise UsageError(f"--layer {r.layer} is out of range: this model has {n_layers} {r.kind} attention layer(s); "
                         f"choose 1 to {n_layers}, or -1 for the last")
    check_writable(Path(r.out), "--out")
    with atomic_path(Path(r.out)) as tmp:  # a full disk leaves no half-written picture
        return plot_attention(translator, r.text, tmp, r.kind, r.layer - 1 if r.layer > 0 else r.layer, r.beam_size)


def average(model: str | Path, last: int) -> Path:
    """§6.1: averages the last ``last`` step checkpoints of a run into average-last-K.safetensors."""
    AVERAGE_LAST.check("--last", last)
    run = RunDir(model)
    if not run.path.is_dir():
        raise UsageError(f"no run at {model}: --model must be a run directory, e.g. runs/tiny")
    found = run.list_checkpoints()
    if len(found) < last:
        fix = (f"average at most --last {len(found)}, or train longer" if found else
               "train until a checkpoint is saved (train.save_every), then average")
        raise UsageError(f"{model} has {len(found)} step checkpoint{'s' if len(found) != 1 else ''}; cannot average "
                         f"the last {last}: {fix} (train.keep_last sets how many a run keeps)")
    out = run.path / f"average-last-{last}.safetensors"
    average_checkpoints(found[-last:], out)
    return out
