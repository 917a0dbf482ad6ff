"""One thread owns the model; requests wait in a queue and are decoded in micro-batches.

A PyTorch model is not meant to be run from several threads at once (and two decodes at once would
only fight over the same cores), so no request handler ever calls it. A handler submits a job and
waits on its ``Future``; the worker thread takes the oldest job and, when it is a translation,
gathers every other waiting translation with the same decoding options (up to ``max_batch_lines``
lines) into ONE call of ``Translator.translate_nbest``, which sorts the lines by length and pads
them into batches. An idle server answers a lone request at once (no batching delay); under load,
requests pile up while a batch decodes and the next batch takes them all. Batched decoding gives
the same hypotheses as decoding one sentence at a time (``tests/decoding/test_decoding.py``).

A job whose client stopped waiting (its future was cancelled on timeout) is dropped unread.
"""

from __future__ import annotations

import dataclasses
import logging
import queue
import threading
from collections import deque
from concurrent.futures import Future
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import torch

from ..decoding.options import DecodeOptions
from ..errors import UsageError
from ..inference.attention_maps import all_attention_maps
from ..inference.translator import Translator
from ..io.registry import capabilities

log = logging.getLogger("aiayn")

Nbest = list[tuple[str, float]]  # (text, score) pairs, best first


class Busy(RuntimeError):
    """More requests are waiting than the server queues (``max_queue``)."""


@dataclass
class _Job:
    kind: str  # "translate", "attention" or "view"
    lines: list[str]  # attention and view: the one sentence
    options: DecodeOptions
    future: Future = field(default_factory=Future)
    compute: Any = None  # a view's: (translator, sentence) -> its JSON payload

    def batch_key(self) -> DecodeOptions | None:
        """Translations with equal keys may share a batch: the whole (frozen) decoding options."""
        return self.options if self.kind == "translate" else None


_STOP = object()


class ModelWorker:
    """Owns ``translator``: ``translate(lines, options)`` and ``attention(text, beam)`` return futures.

    ``decoder``: another engine that translates instead (CTranslate2: ``translate_nbest`` and
    ``translate_ids``); ``translator``'s model then reads its translation to show the attention."""

    def __init__(self, translator: Translator, defaults: DecodeOptions | None = None, max_queue: int = 256,
                 max_batch_lines: int = 64, decoder: Any = None):
        self.translator, self.defaults, self.decoder = translator, defaults or DecodeOptions(), decoder
        self.max_queue, self.max_batch_lines = max_queue, max_batch_lines
        self.stats = {"requests": 0, "batches": 0, "lines": 0, "rejected": 0}
        self._queue: queue.SimpleQueue = queue.SimpleQueue()
        self._pending = 0  # submitted and not yet finished
        self._lock = threading.Lock()
        self._closed = False
        self._thread = threading.Thread(target=self._run, name="aiayn-model", daemon=True)
        self._thread.start()

    # Request side (any thread) -------------------------------------------------------------------
    def translate(self, lines: list[str], options: DecodeOptions | None = None) -> Future:
        """Future of the n-best list per line (``Translator.translate_nbest``)."""
        return self._submit(_Job("translate", list(lines), options or self.defaults))

    def attention(self, text: str, beam_size: int | None = None) -> Future:
        """Future of ``attention_payload`` for one sentence."""
        opts = self.defaults if beam_size is None else DecodeOptions(beam_size=beam_size)
        return self._submit(_Job("attention", [text], opts))

    def view(self, compute, text: str) -> Future:
        """Future of a studio view's payload, ``compute(translator, text)`` run on the model's thread."""
        return self._submit(_Job("view", [text], self.defaults, compute=compute))

    @property
    def pending(self) -> int:
        return self._pending

    def close(self, timeout: float = 30.0) -> None:
        """Stops after the job under way; jobs still waiting are cancelled."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
        self._queue.put(_STOP)
        self._thread.join(timeout)

    def _submit(self, job: _Job) -> Future:
        with self._lock:
            if self._closed:
                raise RuntimeError("the model worker is closed")
            if self._pending >= self.max_queue:
                self.stats["rejected"] += 1
                raise Busy(f"{self._pending} requests are waiting, the most this server queues; try again shortly")
            self._pending += 1
            self.stats["requests"] += 1
        job.future.add_done_callback(self._finished)  # answered, failed or given up: no longer pending
        self._queue.put(job)
        return job.future

    # Worker side (the model's thread) ---------------------------------------------------------------
    @torch.inference_mode()
    def _run(self) -> None:
        held: deque = deque()  # jobs taken off the queue that did not fit the last batch
        while True:
            job = held.popleft() if held else self._queue.get()
            if job is _STOP:
                break
            batch = self._gather(job, held) if job.kind == "translate" else [job]
            live = [j for j in batch if j.future.set_running_or_notify_cancel()]  # drops the given-up ones
            if live:
                self._serve(live)
        for job in [*held, *_drain(self._queue)]:
            if job is not _STOP:
                job.future.cancel()

    def _gather(self, first: _Job, held: deque) -> list[_Job]:
        """``first`` and the waiting translations with its options, up to ``max_batch_lines`` lines;
        other jobs go to ``held`` in their order."""
        batch, n_lines, key = [first], len(first.lines), first.batch_key()
        waiting = [*held, *_drain(self._queue)]
        held.clear()
        for job in waiting:
            fits = job is not _STOP and job.batch_key() == key and n_lines + len(job.lines) <= self.max_batch_lines
            if fits:  # it may overtake a held job of other options by one batch: that one runs next
                batch.append(job)
                n_lines += len(job.lines)
            else:
                held.append(job)
        return batch

    def _serve(self, jobs: list[_Job]) -> None:
        """Runs ``jobs`` (one attention, or translations sharing options) and settles their futures."""
        try:
            results = self._compute(jobs)
        except Exception as e:  # noqa: BLE001 -- every failure goes back to the requests
            if len(jobs) > 1:  # one bad request must not fail the others of its batch
                for job in jobs:
                    self._serve_alone(job)
                return
            jobs[0].future.set_exception(e)
            return
        for job, result in zip(jobs, results):
            job.future.set_result(result)

    def _serve_alone(self, job: _Job) -> None:
        try:
            job.future.set_result(self._compute([job])[0])
        except Exception as e:  # noqa: BLE001
            job.future.set_exception(e)

    def _compute(self, jobs: list[_Job]) -> list[Any]:
        if jobs[0].kind == "view":
            return [jobs[0].compute(self.translator, jobs[0].lines[0])]
        if jobs[0].kind == "attention":
            text, options = jobs[0].lines[0], jobs[0].options
            target = None
            if self.decoder is not None:  # the engine's own translation, whose attention aiayn's model computes
                best = self.decoder.translate_ids([text], dataclasses.replace(options, nbest=1))[0]
                target = best[0][0] if best else []
            return [attention_payload(self.translator, text, options.beam_size, target=target)]
        lines = [line for job in jobs for line in job.lines]
        rows = (self.decoder or self.translator).translate_nbest(lines, jobs[0].options)
        with self._lock:
            self.stats["batches"] += 1
            self.stats["lines"] += len(lines)
        out, start = [], 0
        for job in jobs:
            out.append(rows[start:start + len(job.lines)])
            start += len(job.lines)
        return out

    def _finished(self, future: Future) -> None:
        with self._lock:
            self._pending -= 1


def _drain(q: queue.SimpleQueue) -> list:
    items = []
    while True:
        try:
            items.append(q.get_nowait())
        except queue.Empty:
            return items


# What the model shows --------------------------------------------------------------------------------
def attention_kinds(translator: Translator) -> list[str]:
    """The attention a model has: the Transformer all three kinds, RNNsearch only cross, RNNencdec none."""
    return list(capabilities(translator.model.config).attention)


def attention_payload(translator: Translator, text: str, beam_size: int, digits: int = 4,
                      target: list[int] | None = None) -> dict[str, Any]:
    """Every attention kind of ``text``'s translation: per kind the query and key pieces and the
    weights as nested lists (layers, heads, queries, keys), rounded to ``digits`` decimals.
    ``target``: the translation's ids when another engine made it (see ``all_attention_maps``)."""
    if not attention_kinds(translator):
        raise UsageError(f"this {translator.model.architecture} model has no attention to show (RNNencdec)")
    translation, maps = all_attention_maps(translator, text, beam_size, target)  # one translation for every kind
    out, scale = {}, 10.0 ** digits
    for kind, (layers, queries, keys) in maps.items():
        weights = torch.stack(layers).double()  # (L, H, T, S)
        out[kind] = {"queries": queries, "keys": keys, "layers": len(layers), "heads": weights.shape[1],
                     "weights": (weights * scale).round().div(scale).tolist()}
    return {"source": text, "translation": translation, "beam": beam_size, "kinds": out}


def model_info(translator: Translator, model: str | Path) -> dict[str, Any]:
    """What the page and ``GET /api/info`` show about the model: architecture, sizes, languages."""
    from ..io.checkpoint import CheckpointError
    from ..io.loader import data_settings
    from ..io.rundir import model_file_of
    from .views import offered

    m, cfg = translator.model, translator.model.config
    fields = ("d_model", "n_heads", "d_ff", "n_encoder_layers", "n_decoder_layers", "embed_dim", "hidden",
              "src_vocab_size", "tgt_vocab_size", "max_positions", "positional", "attention")
    info: dict[str, Any] = {
        "model": str(model), "weights": model_file_of(model).name, "task": "translation",
        "architecture": m.architecture,
        "parameters": sum(p.numel() for p in m.parameters()),
        "config": {name: getattr(cfg, name) for name in fields if hasattr(cfg, name)},
        "device": str(translator.device), "dtype": str(next(m.parameters()).dtype).replace("torch.", ""),
        "attention_kinds": attention_kinds(translator), "src": None, "tgt": None,
        "views": offered(translator),
    }
    try:
        data = data_settings(model_file_of(model))  # a lone weights file: {}, languages unknown
    except CheckpointError:
        data = {}  # a damaged config.json: languages unknown
    info["src"], info["tgt"] = data.get("src"), data.get("tgt")
    return info
