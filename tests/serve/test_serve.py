"""`aiayn serve`'s JSON API: answers equal the library's, attention shapes, every refusal, and load.

The model is the micro model trained by conftest's `trained`; the queue and batching tests use a
fake translator whose first call blocks, so what waits in the queue is known exactly.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import logging
import re
import socket
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest
import uvicorn
from conftest import aiayn, corpus_slice
from fastapi.testclient import TestClient

from aiayn.decoding.options import DecodeOptions
from aiayn.inference.translator import Translator
from aiayn.serve import Limits
from aiayn.serve.app import STATIC, create_app
from aiayn.serve.http import protocol
from aiayn.serve.worker import ModelWorker, _Job, model_info

LIMITS = Limits(max_lines=4, max_chars=200, max_attention_chars=100, max_beam=4, max_body_bytes=4096, timeout=30)
DEFAULTS = DecodeOptions(max_len_b=12)  # short outputs: the micro model is barely trained
SENTENCES = [en for en, _ in corpus_slice("valid", 200) if len(en) < 90][:12]


@pytest.fixture(scope="module")
def translator(trained) -> Translator:
    return Translator.load(trained)


@pytest.fixture(scope="module")
def worker(translator):
    w = ModelWorker(translator, DEFAULTS, max_queue=LIMITS.max_queue, max_batch_lines=LIMITS.max_batch_lines)
    yield w
    w.close()


@pytest.fixture(scope="module")
def client(worker, translator, trained):
    with TestClient(create_app(worker, LIMITS, model_info(translator, trained))) as c:
        yield c


def expected(translator: Translator, lines: list[str], **options) -> list[list[tuple[str, float]]]:
    opts = DecodeOptions(**{**DEFAULTS.__dict__, **options})
    return translator.translate_nbest(lines, opts)


# Answers ---------------------------------------------------------------------------------------------
def test_translate_equals_the_library(client, translator):
    lines = [SENTENCES[0], "", SENTENCES[1]]
    r = client.post("/api/translate", json={"lines": lines, "beam": 3, "nbest": 2, "alpha": 0.8})
    assert r.status_code == 200, r.text
    body = r.json()
    assert (body["beam"], body["nbest"], body["alpha"]) == (3, 2, 0.8) and body["ms"] >= 0
    want = expected(translator, lines, beam_size=3, nbest=2, alpha=0.8)
    assert [t["source"] for t in body["translations"]] == lines
    for got, hyps in zip(body["translations"], want):
        assert got["text"] == (hyps[0][0] if hyps else "")
        assert [h["text"] for h in got["nbest"]] == [text for text, _ in hyps]
        assert [h["score"] for h in got["nbest"]] == pytest.approx([score for _, score in hyps], abs=1e-3)
    assert body["translations"][1] == {"source": "", "text": "", "nbest": []}
    assert len(body["translations"][0]["nbest"]) == 2


def test_translate_uses_the_server_defaults(client, translator):
    body = client.post("/api/translate", json={"lines": [SENTENCES[2]]}).json()
    assert (body["beam"], body["alpha"], body["nbest"]) == (4, 0.6, 1)
    assert body["translations"][0]["text"] == expected(translator, [SENTENCES[2]])[0][0][0]
    body = client.post("/api/translate", json={"lines": [SENTENCES[2]], "beam": 1}).json()  # greedy
    assert body["beam"] == 1 and len(body["translations"][0]["nbest"]) == 1


def test_attention_payload_shapes(client, translator):
    text = SENTENCES[3]
    r = client.post("/api/attention", json={"text": text, "beam": 2})
    assert r.status_code == 200, r.text
    body = r.json()
    cfg = translator.model.config
    assert body["source"] == text and body["beam"] == 2
    assert body["translation"] == expected(translator, [text], beam_size=2, max_len_b=50)[0][0][0]
    src, tgt = body["kinds"]["encoder"]["keys"], body["kinds"]["cross"]["queries"]
    assert src[-1] == tgt[-1] == "</s>" and body["kinds"]["cross"]["keys"] == src
    shapes = {"encoder": (cfg.n_encoder_layers, len(src), len(src)),
              "decoder_self": (cfg.n_decoder_layers, len(tgt), len(tgt)),
              "cross": (cfg.n_decoder_layers, len(tgt), len(src))}
    assert set(body["kinds"]) == set(shapes)
    for kind, (layers, queries, keys) in shapes.items():
        m = body["kinds"][kind]
        assert (m["layers"], m["heads"], len(m["queries"]), len(m["keys"])) == (layers, cfg.n_heads, queries, keys)
        w = m["weights"]
        assert (len(w), len(w[0]), len(w[0][0]), len(w[0][0][0])) == (layers, cfg.n_heads, queries, keys)
        for row in (row for layer in w for head in layer for row in head):
            assert sum(row) == pytest.approx(1.0, abs=1e-3) and min(row) >= 0
    causal = body["kinds"]["decoder_self"]["weights"]
    assert all(head[t][s] == 0 for layer in causal for head in layer
               for t in range(len(tgt)) for s in range(t + 1, len(tgt)))


def test_health_and_info(client, translator, trained):
    health = client.get("/api/health")
    assert health.status_code == 200 and health.json()["status"] == "ok"
    assert {"requests", "batches", "lines", "rejected"} <= set(health.json()["stats"])
    info = client.get("/api/info").json()
    assert info["architecture"] == "transformer" and info["model"] == str(trained)
    assert (info["src"], info["tgt"]) == ("en", "es")
    assert info["config"]["n_heads"] == translator.model.config.n_heads
    assert info["parameters"] == sum(p.numel() for p in translator.model.parameters())
    assert info["attention_kinds"] == ["cross", "encoder", "decoder_self"]
    assert info["defaults"] == {"beam": 4, "alpha": 0.6, "nbest": 1}
    assert info["limits"]["max_lines"] == LIMITS.max_lines and info["limits"]["timeout"] == LIMITS.timeout


def test_page_and_its_files_come_from_the_server_only(client):
    page = client.get("/")
    assert page.status_code == 200 and "text/html" in page.headers["content-type"]
    assert "default-src 'self'" in page.headers["content-security-policy"]
    for name in ("app.js", "studio.js", "studio-views.js", "style.css"):
        assert f"/static/{name}" in page.text
        r = client.get(f"/static/{name}")
        assert r.status_code == 200 and len(r.text) > 500
    for path in (p for p in STATIC.rglob("*") if p.is_file()):  # no CDN, no web font: everything ships in the package
        text = re.sub(r'xmlns="[^"]*"', "", path.read_text())  # an SVG namespace is a name, not a download
        text = re.sub(r'<a [^>]*href="https://arxiv\.org/[^"]*"', "", text)  # a link to the paper: the reader's click
        assert not re.search(r"(https?:)?//[a-z0-9.-]+\.[a-z]{2,}/", text), path


# Refusals ----------------------------------------------------------------------------------------------
TRANSLATE_ERRORS = [
    (b"{bad", 400, "not valid JSON"),
    (b"", 400, "body is empty"),
    (b"[\"a\"]", 400, "must be a JSON object"),
    (b"\xff\xfe", 400, "not UTF-8"),
    ({}, 422, "lines is missing"),
    ({"lines": []}, 422, "empty input"),
    ({"lines": ["", "   "]}, 422, "empty input"),
    ({"lines": "In the beginning"}, 422, "list of strings"),
    ({"lines": [1, 2]}, 422, "list of strings"),
    ({"lines": ["a"] * 5}, 413, "at most 4"),
    ({"lines": ["a" * 201]}, 413, "201 characters"),
    ({"lines": ["one\ntwo"]}, 422, "line break"),
    ({"lines": ["a"], "beam": 0}, 422, "beam must be"),
    ({"lines": ["a"], "beam": 5}, 422, "beam must be"),
    ({"lines": ["a"], "beam": True}, 422, "beam must be"),
    ({"lines": ["a"], "beam": "4"}, 422, "beam must be"),
    ({"lines": ["a"], "alpha": -1}, 422, "alpha must be"),
    ({"lines": ["a"], "beam": 2, "nbest": 3}, 422, "nbest (3) cannot exceed"),
    ({"lines": ["a"], "temperature": 0.7}, 422, "unknown field 'temperature'"),
    ({"lines": ["a" * 100] * 4, "pad": "x" * 4000}, 413, "bytes"),
    # Python's own limits are the client's fault (larger bodies: PYTHON_LIMITS below)
    (b'{"lines": ' + b"[" * 20 + b'"a"' + b"]" * 20 + b"}", 400, "nested more than 16 levels"),  # within the stack
    (b'{"lines": ["a"], "beam": -' + b"9" * 400 + b"}", 422, "a number of 400 digits"),
    (b'{"lines": ["a"], "beam": ' + b"9" * 30 + b"}", 422, "beam must be"),  # short enough to parse: out of range
    (b'{"lines": ["a"], "alpha": 1e999}', 422, "alpha must be"),  # inf
    (b'{"lines": ["a"], "alpha": -1e999999999}', 422, "alpha must be"),
    (b'{"lines": ["a"], "beam": 1e999}', 422, "beam must be"),
    (b'{"lines": ["a"], "alpha": NaN}', 422, "alpha must be"),
    ({"lines": ["a"], "beam": [4]}, 422, "not an array"),
    ({"lines": ["a"], "alpha": {"value": 0.6}}, 422, "not an object"),
    ({"lines": ["a"], "nbest": "x" * 3000}, 422, "not a string"),  # named, not echoed
    (b"null", 400, "must be a JSON object, not null"),
    (b"42", 400, "must be a JSON object, not a number"),
    (b'"lines"', 400, "must be a JSON object, not a string"),
    # The Content-Type: JSON, text and curl's default form type are read; anything else is refused
    ((b'{"lines": ["a"]}', "multipart/form-data; boundary=x"), 415, "send JSON"),
    ((b"<lines><line>a</line></lines>", "application/xml"), 415, "send JSON"),
    ((b'{"lines": ["a"]}', "application/json; charset=latin-1"), 415, "UTF-8"),
    ((b'{"lines": []}', "application/x-www-form-urlencoded"), 422, "empty input"),  # curl -d: read as JSON
    ((b'{"lines": []}', "text/plain; charset=utf-8"), 422, "empty input"),
]
ATTENTION_ERRORS = [
    ({"text": ""}, 422, "empty input"),
    ({"text": "a" * 101}, 413, "101 characters"),
    ({"text": 7}, 422, "text must be a string"),
    ({"lines": ["a"]}, 422, "unknown field 'lines'"),
    ({"text": "a", "beam": 99}, 422, "beam must be"),
]


def _post(client, path: str, body) -> httpx.Response:
    if isinstance(body, tuple):  # (bytes, Content-Type)
        return client.post(path, content=body[0], headers={"Content-Type": body[1]})
    if isinstance(body, bytes):
        return client.post(path, content=body, headers={"Content-Type": "application/json"})
    return client.post(path, json=body)


def assert_refused(r: httpx.Response, status: int, fragment: str) -> None:
    assert r.status_code == status, r.text
    body = r.json()
    assert list(body) == ["error"] and fragment in body["error"], body
    assert "Traceback" not in r.text and "File \"" not in r.text


@pytest.mark.parametrize("body,status,fragment", TRANSLATE_ERRORS)
def test_translate_refusals(client, body, status, fragment):
    assert_refused(_post(client, "/api/translate", body), status, fragment)


# Bodies past LIMITS' 4 kB that reach Python's limits: json.loads' recursion, int() of 4,300 digits
PYTHON_LIMITS = [
    (b"[" * 100_000, 400, "nested more than 16 levels"),
    (b'{"a":' * 100_000 + b"1" + b"}" * 100_000, 400, "nested more than 16 levels"),
    (b'{"lines": ["a"], "beam": ' + b"1" * 5001 + b"}", 422, "a number of 5001 digits"),
    (b'{"lines": ["a"], "alpha": ' + b"1" * 100_000 + b".5}", 422, "alpha must be"),  # a float: inf
]


@pytest.fixture(scope="module")
def roomy_client():
    """A client of a server with the default 1 MB body limit (over a fake model: nothing reaches it)."""
    w = ModelWorker(FakeTranslator(), DecodeOptions())
    with TestClient(create_app(w, Limits(), {})) as c:
        yield c
    w.close()


@pytest.mark.parametrize("body,status,fragment", PYTHON_LIMITS, ids=["array", "object", "int", "float"])
def test_python_limits_are_client_errors(roomy_client, body, status, fragment):
    assert_refused(_post(roomy_client, "/api/translate", body), status, fragment)


@pytest.mark.parametrize("body,status,fragment", ATTENTION_ERRORS)
def test_attention_refusals(client, body, status, fragment):
    assert_refused(_post(client, "/api/attention", body), status, fragment)


def test_unknown_page_and_wrong_method_are_json(client):
    assert_refused(client.get("/api/nothing"), 404, "no such page")
    assert_refused(client.get("/api/translate"), 405, "GET is not allowed")


# The queue, with a fake model whose first call waits ---------------------------------------------------
class FakeTranslator:
    """Records each translate_nbest call's lines; the first call blocks until ``release`` is set;
    raises on the line "boom"; checks that no two calls ever overlap."""

    def __init__(self):
        self.calls, self.release, self.started = [], threading.Event(), threading.Event()
        self._busy, self.overlaps, self.threads = threading.Lock(), 0, set()

    def translate_nbest(self, lines, options):
        if not self._busy.acquire(blocking=False):
            self.overlaps += 1
            self._busy.acquire()
        try:
            self.threads.add(threading.current_thread().name)
            self.calls.append(list(lines))
            self.started.set()
            self.release.wait(10)
            if "boom" in lines:
                raise RuntimeError("secret detail of the failure")
            return [[(f"{line}!{options.beam_size}", -1.0)] if line else [] for line in lines]
        finally:
            self._busy.release()


def test_worker_merges_waiting_requests_with_the_same_options():
    fake = FakeTranslator()
    w = ModelWorker(fake, DecodeOptions(), max_batch_lines=4)
    try:
        first = w.translate(["a"])
        assert fake.started.wait(5)  # the worker is inside the first call: everything below waits
        b, c = w.translate(["b"]), w.translate(["c1", "c2"])
        d = w.translate(["d"], DecodeOptions(beam_size=2))
        e, f = w.translate(["e"]), w.translate(["f1", "f2"])  # f does not fit 4 lines with b, c, e
        fake.release.set()
        results = [x.result(5) for x in (first, b, c, d, e, f)]
    finally:
        w.close()
    assert fake.calls == [["a"], ["b", "c1", "c2", "e"], ["d"], ["f1", "f2"]]
    assert results[2] == [[("c1!4", -1.0)], [("c2!4", -1.0)]] and results[3] == [[("d!2", -1.0)]]
    assert fake.overlaps == 0 and fake.threads == {"aiayn-model"}
    assert w.stats["batches"] == 4 and w.stats["lines"] == 8 and w.pending == 0


def test_requests_differing_in_early_stopping_alone_are_not_batched_together():
    fake = FakeTranslator()
    w = ModelWorker(fake, DecodeOptions(), max_batch_lines=4)
    try:
        first = w.translate(["a"])
        assert fake.started.wait(5)
        waiting = [w.translate(["b"]), w.translate(["c"], DecodeOptions(early_stopping=False)), w.translate(["d"])]
        fake.release.set()
        for job in (first, *waiting):
            job.result(5)
    finally:
        w.close()
    assert fake.calls == [["a"], ["b", "d"], ["c"]]


def _changed(value):
    """Another valid value of a DecodeOptions field (every default plus one keeps nbest <= beam)."""
    return (not value) if isinstance(value, bool) else value + 1


def test_the_batching_key_is_every_decoding_option_a_new_one_too():
    @dataclasses.dataclass(frozen=True)
    class WithNewOption(DecodeOptions):  # a field added later: the key takes it without an edit
        new_option: int = 0

    def key(options):
        return _Job("translate", ["x"], options).batch_key()

    base = WithNewOption()
    assert key(base) == key(WithNewOption())
    for f in dataclasses.fields(WithNewOption):
        other = dataclasses.replace(base, **{f.name: _changed(getattr(base, f.name))})
        assert key(other) != key(base), f.name
    assert _Job("attention", ["x"], base).batch_key() is None


def test_one_failing_request_does_not_fail_its_batch(caplog):
    fake = FakeTranslator()
    w = ModelWorker(fake, DecodeOptions())
    app = create_app(w, LIMITS, {})
    try:
        first = w.translate(["a"])
        assert fake.started.wait(5)
        with ThreadPoolExecutor(2) as pool, TestClient(app) as c:
            bad = pool.submit(c.post, "/api/translate", json={"lines": ["boom"]})
            good = pool.submit(c.post, "/api/translate", json={"lines": ["fine"]})
            while w.pending < 3:
                time.sleep(0.01)
            fake.release.set()
            first.result(5)
            assert_refused(bad.result(10), 500, "internal error")
            assert "secret" not in bad.result().text
            assert good.result(10).json()["translations"][0]["text"] == "fine!4"
    finally:
        fake.release.set()
        w.close()
    assert sorted(fake.calls[1]) == ["boom", "fine"] and ["fine"] in fake.calls[2:]  # the batch failed, then each alone
    assert "secret detail of the failure" in caplog.text  # the log has it; the client does not


def test_full_queue_gives_503_and_a_slow_answer_504():
    fake = FakeTranslator()
    w = ModelWorker(fake, DecodeOptions(), max_queue=2)
    app = create_app(w, Limits(timeout=0.3), {})
    try:
        blocking = w.translate(["a"])
        assert fake.started.wait(5)
        with TestClient(app) as c:
            assert_refused(c.post("/api/translate", json={"lines": ["late"]}), 504, "no answer within 0.3 s")
            w.translate(["b"])  # the queue is full now: "a" under way, "b" waiting
            r = c.post("/api/translate", json={"lines": ["c"]})
            assert_refused(r, 503, "try again")
            assert r.headers["retry-after"] == "1"
            fake.release.set()
            blocking.result(5)
            assert c.post("/api/translate", json={"lines": ["d"]}).json()["translations"][0]["text"] == "d!4"
    finally:
        fake.release.set()
        w.close()
    assert ["late"] not in fake.calls  # its client gave up before it started: never decoded
    assert w.stats["rejected"] == 1


# Slow and vanishing clients: a real server over raw sockets, its log captured -----------------------------
@contextlib.contextmanager
def running(app, header_timeout: float = 10.0):
    """``app`` under uvicorn on a free port, in a thread, with ``aiayn serve``'s protocol (a deadline on
    request headers); its loggers left to propagate (caplog sees them)."""
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=0, log_config=None, access_log=False,
                                           http=protocol(header_timeout)))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "the server did not start"
        time.sleep(0.02)
    try:
        yield server.servers[0].sockets[0].getsockname()[1]
    finally:
        server.should_exit = True
        thread.join(10)


@pytest.fixture
def fake_server():
    """A server with a 0.5 s body timeout over a fake model that answers at once: (port, worker)."""
    fake = FakeTranslator()
    fake.release.set()
    w = ModelWorker(fake, DecodeOptions())
    with running(create_app(w, Limits(body_timeout=0.5, timeout=5), {}), header_timeout=0.5) as port:
        yield port, w
    w.close()


def send_raw(port: int, data: bytes) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    sock.sendall(data)
    return sock


def read_answer(sock: socket.socket) -> tuple[int, dict, bool]:
    """The status and JSON body of the one answer on ``sock``, and whether the server then closed it."""
    data = b""
    while b"\r\n\r\n" not in data:
        data += sock.recv(65536) or b"".join([b"", pytest.fail(f"closed without an answer: {data!r}")])
    head, _, body = data.partition(b"\r\n\r\n")
    length = int(re.search(rb"content-length: (\d+)", head, re.I)[1])
    while len(body) < length:
        body += sock.recv(65536)
    sock.settimeout(2)
    try:
        closed = sock.recv(1) == b""
    except TimeoutError:
        closed = False
    return int(head.split()[1]), json.loads(body), closed


def post_head(length_header: str) -> bytes:
    return (f"POST /api/translate HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            f"{length_header}\r\n\r\n").encode()


SLOW_BODIES = {  # what arrives: never all of the body
    "content-length": post_head("Content-Length: 100") + b'{"lines": ["a"]',
    "chunked": post_head("Transfer-Encoding: chunked") + b'5\r\n{"lin\r\n',
    "no body": post_head("Content-Length: 20"),
}


@pytest.mark.parametrize("kind", SLOW_BODIES)
def test_a_body_that_never_arrives_gets_408(fake_server, caplog, kind):
    port, _ = fake_server
    start = time.monotonic()
    with send_raw(port, SLOW_BODIES[kind]) as sock:
        status, body, closed = read_answer(sock)
    assert status == 408 and "did not arrive within 0.5 s" in body["error"], body
    assert time.monotonic() - start < 3 and closed  # the rest of that body cannot start another request
    if kind == "content-length":
        assert "(15 bytes of the 100 its Content-Length promised came)" in body["error"]
    assert_clean_log(caplog)


@pytest.mark.parametrize("sent", [b"", b"POST /api/translate HTTP/1.1\r\nHost: x\r\n", b"GET /api/he"])
def test_headers_that_never_arrive_close_the_connection(fake_server, caplog, sent):
    """Before its headers are whole there is no request to answer: the connection is closed (uvicorn
    alone would wait for ever), on a new connection and on a kept-alive one."""
    port, _ = fake_server
    for keep_alive in (False, True):
        with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
            start = time.monotonic()  # the deadline runs from the connection, or from the last answer
            if keep_alive:
                sock.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n")
                answer = b""
                while not answer.endswith(b"}"):  # the JSON body's end
                    answer += sock.recv(65536)
                assert b" 200 " in answer
            sock.sendall(sent)
            assert sock.recv(65536) == b""  # closed
            assert 0.4 < time.monotonic() - start < 3
    assert_clean_log(caplog)


def test_slow_and_vanishing_clients_do_not_hold_the_server(fake_server, caplog):
    port, w = fake_server
    slow = [send_raw(port, SLOW_BODIES[kind]) for kind in SLOW_BODIES for _ in range(3)]
    with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=2) as http:
        for _ in range(3):  # while nine bodies are awaited
            start = time.monotonic()
            assert http.get("/api/health").json()["status"] == "ok"
            assert time.monotonic() - start < 0.5
        assert http.post("/api/translate", json={"lines": ["a"]}).json()["translations"][0]["text"] == "a!4"
        for sock in slow[::2]:  # some clients give up before the timeout: the server sees them vanish
            sock.close()
        time.sleep(1.0)  # and the others' bodies time out
        assert [read_answer(sock)[0] for sock in slow[1::2]] == [408] * len(slow[1::2])
        for sock in slow[1::2]:
            sock.close()
        assert http.get("/api/health").json()["pending"] == 0
        assert http.post("/api/translate", json={"lines": ["b"]}).status_code == 200
    time.sleep(0.2)
    assert_clean_log(caplog)


def assert_clean_log(caplog) -> None:
    """No traceback, and nothing at warning or above: every fault here was the client's."""
    assert not [r for r in caplog.records if r.exc_info or r.levelno >= logging.WARNING], caplog.text
    assert "Traceback" not in caplog.text and "ClientDisconnect" not in caplog.text


def test_a_server_bug_still_logs_its_traceback(fake_server, caplog, monkeypatch):
    port, w = fake_server

    def broken_worker(lines, options=None):
        raise RuntimeError("a bug in the worker")

    def broken_parser(data, defaults, limits):
        raise KeyError("a bug in the request checks")

    with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=5) as http:
        monkeypatch.setattr(w, "translate", broken_worker)
        assert_refused(http.post("/api/translate", json={"lines": ["a"]}), 500, "internal error")
        monkeypatch.setattr("aiayn.serve.app.parse_translate", broken_parser)
        r = http.post("/api/translate", json={"lines": ["a"]})
        assert_refused(r, 500, "internal error")
        assert "a bug" not in r.text
    for message in ("a bug in the worker", "a bug in the request checks"):
        logged = [r for r in caplog.records if r.exc_info and message in str(r.exc_info[1])]
        assert logged and logged[0].levelno == logging.ERROR, caplog.text
    assert "Traceback" in caplog.text


# Load: a real server, many clients at once --------------------------------------------------------------
@pytest.fixture(scope="module")
def live_server(translator, trained):
    w = ModelWorker(translator, DEFAULTS, max_queue=LIMITS.max_queue, max_batch_lines=LIMITS.max_batch_lines)
    app = create_app(w, LIMITS, model_info(translator, trained))
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning", access_log=False))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "the server did not start"
        time.sleep(0.05)
    port = server.servers[0].sockets[0].getsockname()[1]
    yield f"http://127.0.0.1:{port}", w
    server.should_exit = True
    thread.join(10)
    w.close()


def test_concurrent_requests_answer_as_sequential_ones(live_server):
    url, w = live_server
    requests = [{"lines": [SENTENCES[i % 12]], "beam": 2 + i % 2, "nbest": 2} for i in range(24)]
    requests += [{"lines": SENTENCES[i:i + 3], "beam": 3} for i in range(0, 9, 3)]
    with httpx.Client(base_url=url, timeout=60) as http:
        sequential = [http.post("/api/translate", json=body).json() for body in requests]
    before = dict(w.stats)
    gate = threading.Barrier(len(requests))

    def send(body):
        with httpx.Client(base_url=url, timeout=60) as http:
            gate.wait(10)
            return http.post("/api/translate", json=body)

    with ThreadPoolExecutor(len(requests)) as pool:
        answers = list(pool.map(send, requests))
    assert [r.status_code for r in answers] == [200] * len(requests)
    for got, want in zip(answers, sequential):
        got = got.json()["translations"]
        assert [t["text"] for t in got] == [t["text"] for t in want["translations"]]
        for g, s in zip(got, want["translations"]):
            assert [h["text"] for h in g["nbest"]] == [h["text"] for h in s["nbest"]]
            assert [h["score"] for h in g["nbest"]] == pytest.approx([h["score"] for h in s["nbest"]], abs=2e-3)
    batches = w.stats["batches"] - before["batches"]
    assert w.stats["requests"] - before["requests"] == len(requests)
    assert batches < len(requests), "waiting requests were never merged into one batch"
    assert w.pending == 0


def test_limits_are_checked():
    from aiayn.errors import ConfigError

    with pytest.raises(ConfigError, match="timeout"):
        Limits(timeout=0)
    with pytest.raises(ConfigError, match="max_lines"):
        Limits(max_lines=0)


def test_info_of_a_weights_file(translator, trained):
    info = model_info(translator, Path(trained) / "best.safetensors")
    assert info["weights"] == "best.safetensors" and info["src"] == "en"
    json.dumps(info)  # plain JSON


# The command ---------------------------------------------------------------------------------------------
def test_without_fastapi_the_command_says_what_to_install(monkeypatch):
    import aiayn.serve
    from aiayn.errors import UsageError

    monkeypatch.setitem(sys.modules, "fastapi", None)  # as if not installed
    monkeypatch.delitem(sys.modules, "aiayn.serve.app")
    monkeypatch.delattr(aiayn.serve, "app")
    with pytest.raises(UsageError, match=r"pip install 'aiayn\[serve\]'"):
        aiayn.serve.load_web()


def test_command_refusals_are_one_line(trained, capsys):
    from aiayn.app.cli import main

    with socket.socket() as taken:  # through the real command: a port in use
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = str(taken.getsockname()[1])
        proc = aiayn("serve", "--model", str(trained), "--port", port, check=False, timeout=120)
    err = proc.stderr.decode()
    assert proc.returncode == 1 and err == f"error: cannot listen on 127.0.0.1:{port}: Address already in use; " \
        "choose another with --port\n", err
    for args, message in [(["--model", str(trained), "--beam", "20"], "lower --beam or raise --max-beam"),
                          (["--model", "no/such/run", "--port", port],  # port: free now
                           "no model at no/such/run: --model takes a run directory that `aiayn train` wrote"),
                          (["--model", "/nonexistent", "--port", port],
                           "train one with `aiayn train --out runs/tiny`, or pass a run directory or .safetensors"),
                          (["--model", str(trained), "--timeout", "0"], "--timeout: must be a number > 0")]:
        assert main(["serve", *args]) in (1, 2)
        err = capsys.readouterr().err
        assert message in err and len(err.strip().splitlines()) == 1, err
