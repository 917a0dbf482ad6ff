"""What the browser tests share (test_browser.py, test_browser_family.py): `aiayn serve` run as a
subprocess on a free port, headless Chromium (Playwright), and a page that records its problems.

The browser is Debian's chromium (`apt-get install chromium`; .ci/run installs it), or AIAYN_CHROMIUM.
A missing browser or Playwright is a FAILURE, not a skip: these are the only tests of the page.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest

CHROMIUM = os.environ.get("AIAYN_CHROMIUM", "/usr/bin/chromium")


@contextmanager
def serving(args: list[str], env: dict[str, str] | None = None) -> Iterator[str]:
    """`aiayn serve ARGS --port PORT` (one thread unless OMP_NUM_THREADS says otherwise, and ``env`` over
    os.environ) until /api/health answers: its URL; stopped on leaving. Not answering within 120 s, or
    exiting, fails the test with what it printed."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {**os.environ, "OMP_NUM_THREADS": os.environ.get("OMP_NUM_THREADS", "1"), **(env or {})}
    proc = subprocess.Popen([sys.executable, "-m", "aiayn", "serve", *args, "--port", str(port)],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 120
    while True:
        if proc.poll() is not None:
            pytest.fail(f"aiayn serve exited with {proc.returncode}:\n{proc.stdout.read()}")
        try:
            if httpx.get(f"{url}/api/health", timeout=2).status_code == 200:
                break
        except httpx.TransportError:
            pass
        if time.monotonic() > deadline:
            proc.kill()
            pytest.fail(f"aiayn serve did not answer within 120 s:\n{proc.stdout.read()}")
        time.sleep(0.2)
    try:
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


@contextmanager
def launched(*args: str) -> Iterator:
    """Headless Chromium started with the command-line switches ``args``."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.fail("Playwright is missing: pip install -e '.[test]'")
    if not (Path(CHROMIUM).is_file() or shutil.which(CHROMIUM)):
        pytest.fail(f"no Chromium at {CHROMIUM}: apt-get install -y chromium, or point AIAYN_CHROMIUM at one")
    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=list(args))
        yield chromium
        chromium.close()


@contextmanager
def opened(browser, server: str, also: tuple[str, ...] = (), **context) -> Iterator:
    """The page at ``server`` in a new context (1180 x 900, ``context``: more of its options), with
    ``page.problems``: page errors, console errors, and any request that leaves the server (or ``also``)."""
    context = browser.new_context(viewport={"width": 1180, "height": 900}, device_scale_factor=1, **context)
    page = context.new_page()
    page.problems = []
    page.on("pageerror", lambda e: page.problems.append(f"page error: {e}"))
    page.on("console", lambda m: m.type == "error" and page.problems.append(f"console: {m.text}"))
    page.on("request", lambda r: r.url.startswith((server, *also)) or
            page.problems.append(f"outside request: {r.url}"))
    page.goto(server)
    yield page
    context.close()
