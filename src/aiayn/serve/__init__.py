"""``aiayn serve``: a JSON API and a web page (the studio) over one or several models.

Three modules, layered so that only the last needs the web libraries:

* ``requests``: the request limits and the checks of a request body (plain Python): every
  mistake becomes a ``RequestError`` with an HTTP status and a one-line message;
* ``worker``: one thread owns the model; requests wait in a queue and are decoded in
  micro-batches (``ModelWorker``); attention maps and the model's description;
* ``catalog``: the models one server holds, each with its worker, and which one a request names;
* ``views``: the studio's views, one module each (beam search, walk-through, the run's tables and curves);
* ``app``: the FastAPI application (``create_app``) and the static page in ``static/``;
* ``http``: uvicorn's HTTP protocol with a deadline on request headers (a body has its own, in ``app``).

``serve()`` loads a model and runs the app under uvicorn until interrupted. FastAPI and uvicorn
are imported only here, on demand (``pip install 'aiayn[serve]'``), so ``import aiayn`` works
without them.
"""

from __future__ import annotations

import errno
import functools
import logging
import socket
from pathlib import Path

from ..decoding.options import DecodeOptions
from ..errors import UsageError
from .requests import Limits, RequestError

log = logging.getLogger("aiayn")

__all__ = ["Limits", "RequestError", "load_web", "serve"]


def load_web():
    """The ``app`` module and uvicorn; a UsageError saying what to install when either is missing."""
    try:
        import uvicorn

        from . import app
        from .http import protocol  # noqa: F401 (uvicorn's protocol: checked here, used by serve)
    except ModuleNotFoundError as e:
        if e.name and e.name.split(".")[0] in ("fastapi", "starlette", "uvicorn", "anyio"):
            raise UsageError(f"aiayn serve needs FastAPI and uvicorn ({e.name} is missing): "
                             "pip install 'aiayn[serve]'") from None
        raise
    return app, uvicorn


def serve(models: str | Path | list[str | Path], host: str = "127.0.0.1", port: int = 8000,
          options: DecodeOptions | None = None, limits: Limits | None = None, device: str = "cpu",
          dtype: str = "float32", decoder=None, engine: dict | None = None, runs_dir: str | Path | None = "runs",
          load=None) -> None:
    """Serves ``models`` (run directories, .safetensors files, or folders of runs) on http://host:port until
    SIGINT/SIGTERM. ``options``: the decoding defaults (a request may change beam, alpha and nbest); ``limits``:
    request sizes, queue and timeout; ``dtype``: float32 or bfloat16. ``decoder``: another engine that translates
    (e.g. CTranslate2, ``aiayn.runs.engines``; one model only) while the model shows the attention; ``engine``:
    what /api/info says of it. ``runs_dir``: where the page's Training panel writes its runs (None: no training
    from the page; it is refused anyway unless ``host`` is this machine).``load(path, device, dtype)``: the
    object a model is served as, which its task decides (the command line passes ``tasks.subject``); None:
    translation models only (``Translator.load``)."""
    from .catalog import Served, expand, names
    from .training import Trainer

    app_module, uvicorn = load_web()  # before the models load: a missing package is reported at once
    from .http import protocol as http_protocol

    limits, options = limits or Limits(), options or DecodeOptions()
    if options.beam_size > limits.max_beam:
        raise UsageError(f"the default beam {options.beam_size} is above the largest a request may ask for "
                         f"({limits.max_beam}): lower --beam or raise --max-beam")
    _check_free(host, port)  # before the models load: a port in use is reported at once
    models = models if isinstance(models, list) else [models]
    for model in models:
        _check_model(model)
    paths = expand(models)
    if not paths and runs_dir is None:
        raise UsageError("name a model to serve (aiayn serve runs/NAME), or allow training from the page")
    if decoder is not None and len(paths) > 1:
        raise UsageError("--engine ctranslate2 serves one model; serve the others with --engine aiayn")
    subject = functools.partial(load or _translator, device=device, dtype=dtype)
    served: list[Served] = []
    trainer = app = None
    try:
        for name, path in zip(names(paths), paths):
            served.append(_load(name, path, subject, options, limits, dtype, decoder, engine))
        loader = functools.partial(_load, make=subject, options=options, limits=limits, dtype=dtype, decoder=None,
                                 engine=None)
        trainer = Trainer(Path(runs_dir)) if runs_dir is not None else None
        app = app_module.create_app(served, limits, trainer=trainer, loader=loader, listening_on=host)
        log.info("serving %s on http://%s:%d (stop with Ctrl+C)", ", ".join(s.name for s in served) or
                 "no model yet (the page can train one)", _url_host(host), port)
        if host not in ("127.0.0.1", "localhost", "::1"):
            log.warning("listening on %s: anyone who can reach this address may use the model (no authentication)",
                        host)
        uvicorn.run(app, host=host, port=port, log_level="warning", access_log=False, timeout_graceful_shutdown=5,
                    http=http_protocol(limits.body_timeout))  # headers too must arrive within body_timeout
    finally:
        if trainer is not None:
            trainer.close()
        for s in app.state.catalog.served.values() if app is not None else served:
            s.worker.close()


def _translator(path: Path, device: str, dtype: str):
    from ..inference.translator import Translator
    from ..precision import DTYPES

    return Translator.load(path, device, DTYPES[dtype])


def _load(name: str, path: Path, make, options: DecodeOptions, limits: Limits, dtype: str, decoder, engine):
    """One model, as ``make(path)`` makes it (its task's object), with its worker thread and its description."""
    from ..inference.translator import Translator
    from .catalog import Served
    from .subjects import describe
    from .worker import ModelWorker, model_info

    subject = make(path)
    if isinstance(subject, Translator):
        _warm_up(subject, options)
    worker = ModelWorker(subject, options, max_queue=limits.max_queue,
                         max_batch_lines=limits.max_batch_lines, decoder=decoder)
    about = model_info(subject, path) if isinstance(subject, Translator) else describe(subject, path)
    return Served(name, worker, {**about, "engine": engine or {"name": "aiayn", "dtype": dtype}}, path)


def _warm_up(translator, options: DecodeOptions) -> None:
    """A compiled decoding step (``--compile``) compiles its families of shapes now, on made-up sentences, not
    under the first clients' load: one sentence (its own family) and a few (one for every batch). Then it is
    settled: a request that needs another family (another beam size) runs the model's own step, as a server
    without ``--compile`` would, never compiling while clients wait."""
    from ..model.compiled import is_compiled

    if not is_compiled(translator.model):
        return
    log.info("compiling the decoding step for beam %d (about a minute; --compile) ...", options.beam_size)
    words = "and the light shines in the darkness".split()
    for lines, length in ((1, 6), (3, 12)):
        translator.translate([" ".join(words[i % len(words)] for i in range(length))] * lines, options)
    translator.model.decode_step.settled = True


def _check_model(model: str | Path) -> None:
    """A UsageError saying what a model is and how to get one, when ``model`` names nothing."""
    if not Path(model).exists():
        raise UsageError(f"no model at {model}: --model takes a run directory that `aiayn train` wrote (it holds "
                         "best.safetensors) or a .safetensors weights file; train one with "
                         "`aiayn train --out runs/tiny`, or pass a run directory or .safetensors file")


def _check_free(host: str, port: int) -> None:
    """A UsageError when ``host:port`` cannot be listened on (in use, or not this machine's address)."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as e:
        raise UsageError(f"--host {host}: {e.strerror}; use an address of this machine, e.g. 127.0.0.1") from None
    family, kind, proto, _, address = infos[0]
    with socket.socket(family, kind, proto) as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn does
        try:
            sock.bind(address)
        except OSError as e:
            hint = "choose another with --port" if e.errno == errno.EADDRINUSE else "check --host and --port"
            raise UsageError(f"cannot listen on {host}:{port}: {e.strerror}; {hint}") from None


def _url_host(host: str) -> str:
    return f"[{host}]" if ":" in host else host
