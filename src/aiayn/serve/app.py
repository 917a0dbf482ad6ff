"""The HTTP side of ``aiayn serve``: a FastAPI app over a ``ModelWorker``, and the page in ``static/``.

Routes::

    GET  /                 the page (static/index.html, app.js, style.css: no CDN, nothing from elsewhere)
    GET  /api/health       {"status": "ok", "pending": ..., "stats": {...}}
    GET  /api/models       the models served ({"models": [{"name", "architecture", "task", "views", ...}]})
    GET  /api/info         the model (architecture, sizes, languages), the decoding defaults, the limits
    POST /api/translate    {"lines": [...], "beam": 4, "alpha": 0.6, "nbest": 1}
                           -> {"translations": [{"source", "text", "nbest": [{"text", "score"}]}], ...}
    POST /api/attention    {"text": "...", "beam": 4}
                           -> {"translation", "kinds": {kind: {"queries", "keys", "weights" (L, H, T, S)}}}
    POST /api/walkthrough  the studio's views, one module each in ``views/`` (their docstrings give the
    POST /api/beam         requests and answers); ``GET /api/info`` lists those this model offers
    GET  /api/positions, /api/schedule, /api/smoothing, /api/curves: the model's tables and its run (views/run.py)
    POST /api/primers, /api/chorale, /api/note_attention, /api/skewing, /api/midi (a file), /api/digit,
         /api/superres, /api/pixel_attention, /api/alignment, /api/parse: the attention family (issue 45;
         views/music.py, images.py, family.py)

Several models may be served (``catalog``): a POST names one by its ``model`` field, a GET by ``?model=``;
none names the first.

Every error is JSON ``{"error": "<one line>"}`` with its status (``requests`` lists the 4xx);
503 when the queue is full, 504 when the answer took longer than the timeout, 500 for a bug
(logged here with its traceback; the client sees none). A client's fault (a bad body, a body that
never arrives, a client that hangs up) is never logged as a traceback.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import time
from dataclasses import asdict
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect

from ..errors import UserError
from .catalog import Catalog, Served, pop_model
from .requests import Limits, RequestError, check_content_type, parse_attention, parse_json, parse_translate
from .training import Trainer, guard
from .views import VIEWS, offered
from .views import run as run_views
from .worker import Busy, ModelWorker

log = logging.getLogger("aiayn")
STATIC = Path(__file__).parent / "static"
# The page loads only its own files: a stray CDN link would fail in the browser test.
SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; object-src 'none'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}


def create_app(models: ModelWorker | list[Served], limits: Limits | None = None,
               info: dict[str, Any] | None = None, trainer: Trainer | None = None, loader=None,
               listening_on: str = "127.0.0.1") -> FastAPI:
    """The app over ``models`` (or one worker described by ``info``). The caller owns the workers (and closes
    them after the server stops). ``trainer``: training from the page (``training``), whose runs ``loader(name,
    path) -> Served`` loads as they gain weights; ``listening_on``: the address served (training is refused
    beyond this machine)."""
    limits = limits or Limits()
    if isinstance(models, ModelWorker):
        path = (info or {}).get("model")
        models = [Served(Path(path).name if path else "model", models, info or {}, Path(path) if path else None)]
    catalog = Catalog(models)
    app = FastAPI(title="aiayn", docs_url=None, redoc_url=None, openapi_url=None)  # the docs pages load a CDN
    _add_error_handlers(app)
    _add_headers(app)

    @app.get("/", include_in_schema=False)
    async def index() -> FileResponse:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    @app.get("/api/health")
    async def health() -> dict[str, Any]:
        workers = [s.worker for s in catalog.served.values()]
        stats = {key: sum(w.stats[key] for w in workers) for key in ("requests", "batches", "lines", "rejected")}
        return {"status": "ok", "pending": sum(w.pending for w in workers), "stats": stats}

    @app.get("/api/models")
    async def models_served() -> dict[str, Any]:
        return {"models": catalog.listing()}

    @app.get("/api/info")
    async def model_info(model: str | None = None) -> dict[str, Any]:
        if not catalog.served and not model:  # nothing yet: the page offers training
            return {"name": None, "served": [], "views": [], "limits": asdict(limits), "training": trainer is not None}
        served = catalog.pick(model)
        d = served.worker.defaults
        return {**served.info, "name": served.name, "served": list(catalog.served),
                "defaults": {"beam": d.beam_size, "alpha": d.alpha, "nbest": d.nbest}, "limits": asdict(limits),
                "training": trainer is not None}

    @app.post("/api/translate")
    async def translate(request: Request) -> JSONResponse:
        start = time.perf_counter()
        data = parse_json(await _body(request, limits))
        worker = _translating(catalog.pick(pop_model(data)), "translate")
        lines, opts = parse_translate(data, worker.defaults, limits)
        rows = await _answer(worker.translate(lines, opts), limits.timeout)
        translations = [{"source": line, "text": hyps[0][0] if hyps else "",
                         "nbest": [{"text": text, "score": round(score, 4)} for text, score in hyps]}
                        for line, hyps in zip(lines, rows)]
        return JSONResponse({"translations": translations, "beam": opts.beam_size, "alpha": opts.alpha,
                             "nbest": opts.nbest, "ms": _ms(start)})

    @app.post("/api/attention")
    async def attention(request: Request) -> JSONResponse:
        start = time.perf_counter()
        data = parse_json(await _body(request, limits))
        worker = _translating(catalog.pick(pop_model(data)), "attention")
        text, beam = parse_attention(data, worker.defaults, limits)
        payload = await _answer(worker.attention(text, beam), limits.timeout)
        return JSONResponse({**payload, "ms": _ms(start)})

    for view in VIEWS.values():
        _add_view(app, view, catalog, limits)
    run_views.add(app, catalog)
    if trainer is not None:
        _add_training(app, trainer, catalog, loader, limits, listening_on)

    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    app.state.catalog = catalog  # the server closes every model's worker, those added while it ran too
    return app


def _add_view(app: FastAPI, view, catalog: Catalog, limits: Limits) -> None:
    """``POST /api/NAME`` of a studio view (``serve/views``): parsed and hardened like every request, refused
    (422) for a model the view does not take (not in its ``views``), computed on that model's thread. A view
    with a ``MEDIA_TYPE`` answers its bytes as a file of that type (``FILENAME``)."""

    @app.post(f"/api/{view.NAME}", name=view.NAME)
    async def answer(request: Request) -> Response:
        start = time.perf_counter()
        data = parse_json(await _body(request, limits))
        served = catalog.pick(pop_model(data))
        worker = served.worker
        if view.NAME not in served.info.get("views", offered(worker.translator)):
            raise RequestError(422, f"this model has no {view.NAME} view: it is offered for "
                                    f"{view.offered.__doc__.splitlines()[0]}")
        text, keywords = view.parse(data, worker.defaults, limits)
        if getattr(view, "TAKES_RUN", False):
            keywords["run"] = run_views.need_run(served)
        payload = await _answer(worker.view(functools.partial(view.compute, **keywords), text), limits.timeout)
        if getattr(view, "MEDIA_TYPE", None):
            return Response(payload, media_type=view.MEDIA_TYPE,
                            headers={"Content-Disposition": f'attachment; filename="{view.FILENAME}"'})
        return JSONResponse({**payload, "ms": _ms(start)})


def _add_training(app: FastAPI, trainer: Trainer, catalog: Catalog, loader, limits: Limits, listening_on: str):
    """The routes of ``training``: status (which also brings the run into the catalog once it has weights, and
    reloads it when it ends), start and stop (guarded: this machine's own page only)."""
    loaded: dict[str, str] = {}  # run name -> "live" (loaded while it trained) or "final"

    @app.get("/api/training")
    async def training_status() -> dict[str, Any]:
        status, run = trainer.status(), trainer.run
        if run is not None and loader is not None and (run.best.is_file() or run.list_checkpoints()):
            want, have = ("live" if status["state"] == "running" else "final"), loaded.get(run.path.name)
            if have is None or (have, want) == ("live", "final"):
                catalog.add(await asyncio.to_thread(loader, run.path.name, run.path))
                loaded[run.path.name] = want
        status["served"] = run is not None and run.path.name in catalog.served
        return status

    def guarded(request: Request) -> None:
        guard(request.headers.get("host"), request.headers.get("origin"), listening_on)

    @app.post("/api/training/start")
    async def training_start(request: Request) -> dict[str, Any]:
        guarded(request)
        return trainer.start(parse_json(await _body(request, limits)))

    @app.post("/api/training/stop")
    async def training_stop(request: Request) -> dict[str, Any]:
        guarded(request)
        return await asyncio.to_thread(trainer.stop)


def _translating(served: Served, what: str) -> ModelWorker:
    """The worker of a model that translates; a 422 naming the views a model of another task offers."""
    # what the task loaded (Task.subject) decides: a Translator or an exported engine, never a generator
    if not callable(getattr(served.worker.translator, "translate_nbest", None)):
        raise RequestError(422, f"{served.name} is a {served.info.get('task')} model: it has no {what}; its views are "
                                f"{', '.join(served.info.get('views', [])) or 'none'} (GET /api/info)")
    return served.worker


async def _body(request: Request, limits: Limits) -> bytes:
    """The raw body: refused (415) when announced as something other than JSON, (413) as soon as it
    passes ``max_body_bytes``, and (408) when it has not arrived whole within ``body_timeout``. Reading
    awaits the socket, so a client that sends slowly, or never, holds no thread and no model."""
    check_content_type(request.headers.get("content-type"))
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limits.max_body_bytes:
        raise RequestError(413, f"the body has {int(declared)} bytes; this server takes at most "
                                f"{limits.max_body_bytes}")
    chunks: list[bytes] = []

    async def read() -> None:
        size = 0
        async for chunk in request.stream():
            size += len(chunk)
            if size > limits.max_body_bytes:
                raise RequestError(413, f"the body is over {limits.max_body_bytes} bytes, the most this server takes")
            chunks.append(chunk)

    try:
        await asyncio.wait_for(read(), limits.body_timeout)
    except TimeoutError:
        got = sum(map(len, chunks))
        promised = f" of the {declared} its Content-Length promised" if declared.isdigit() else ""
        raise RequestError(408, f"the body did not arrive within {limits.body_timeout:g} s ({got} bytes{promised} "
                                "came): send the whole body at once, with a Content-Length that matches it") from None
    except ClientDisconnect:  # the client gave up: nobody reads the answer, and it is not the server's fault
        raise RequestError(400, "the client closed the connection before its body arrived") from None
    return b"".join(chunks)


async def _answer(future, timeout: float) -> Any:
    """The worker's result; a timeout cancels the job if it has not started (504)."""
    try:
        return await asyncio.wait_for(asyncio.wrap_future(future), timeout)
    except TimeoutError:
        raise RequestError(504, f"no answer within {timeout:g} s (the server is busy, or the input is long): "
                                "try again, or send fewer lines") from None
    except (UserError, RequestError):  # a refusal found on the model's thread (a view's own check)
        raise
    except Exception as e:  # a bug: its traceback goes to the log, never to the client
        log.error("decoding failed", exc_info=e)
        raise RequestError(500, "internal error: the server log has the details") from None


def _ms(start: float) -> float:
    return round(1000 * (time.perf_counter() - start), 1)


def _error(status: int, message: str, headers: dict[str, str] | None = None) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status, headers=headers)


def _add_error_handlers(app: FastAPI) -> None:
    @app.exception_handler(RequestError)
    async def refused(request: Request, exc: RequestError) -> JSONResponse:
        # After a 408 the rest of the body may still come: the connection cannot carry another request.
        return _error(exc.status, str(exc), {"Connection": "close"} if exc.status == 408 else None)

    @app.exception_handler(ClientDisconnect)
    async def gone(request: Request, exc: ClientDisconnect) -> JSONResponse:  # no one reads this: no log either
        return _error(400, "the client closed the connection before its request was read")

    @app.exception_handler(Busy)
    async def busy(request: Request, exc: Busy) -> JSONResponse:
        return _error(503, str(exc), {"Retry-After": "1"})

    @app.exception_handler(UserError)
    async def cannot(request: Request, exc: UserError) -> JSONResponse:  # e.g. a model without attention
        return _error(422, str(exc))

    @app.exception_handler(HTTPException)
    async def http(request: Request, exc: HTTPException) -> JSONResponse:
        messages = {404: f"no such page: {request.url.path} (the API is under /api/)",
                    405: f"{request.method} is not allowed on {request.url.path}"}
        return _error(exc.status_code, messages.get(exc.status_code, str(exc.detail)), getattr(exc, "headers", None))

    @app.exception_handler(RequestValidationError)
    async def bad_query(request: Request, exc: RequestValidationError) -> JSONResponse:  # e.g. ?n=abc
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first.get("loc", ())[1:]) or "the request"
        return _error(422, f"{where}: {first.get('msg', 'not valid')}"[:200])

    @app.exception_handler(Exception)
    async def bug(request: Request, exc: Exception) -> JSONResponse:
        log.error("%s %s failed", request.method, request.url.path, exc_info=exc)
        return _error(500, "internal error: the server log has the details")


def _add_headers(app: FastAPI) -> None:
    @app.middleware("http")
    async def headers(request: Request, call_next):
        try:
            response = await call_next(request)
        except Exception as exc:  # noqa: BLE001 (a bug)
            # Answered here rather than by the Exception handler: Starlette re-raises after that one, so
            # uvicorn would log the traceback a second time and drop the client's keep-alive connection.
            log.error("%s %s failed", request.method, request.url.path, exc_info=exc)
            response = _error(500, "internal error: the server log has the details")
        for name, value in SECURITY_HEADERS.items():
            response.headers.setdefault(name, value)
        if request.url.path.startswith("/api/"):
            response.headers.setdefault("Cache-Control", "no-store")
        return response
