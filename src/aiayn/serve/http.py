"""uvicorn's HTTP/1.1 protocol (h11) with a deadline on a request's headers.

The app bounds the time a body may take (``Limits.body_timeout``, a 408), but it sees a request only
once its headers are complete: a client that sends half a header line and then nothing would hold
its connection (a socket, a file descriptor) for ever, since uvicorn times out only idle keep-alive
connections. Here a connection waiting for headers, a new one or a kept-alive one, is closed when
they have not arrived within the same number of seconds. Imported with uvicorn only (``load_web``).
"""

from __future__ import annotations

import asyncio

from uvicorn.protocols.http.h11_impl import H11Protocol


class HeaderDeadlineProtocol(H11Protocol):
    """H11Protocol that closes a connection whose request headers take over ``header_timeout`` seconds."""

    header_timeout: float = 10.0

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._header_deadline: asyncio.TimerHandle | None = None
        self._watch_headers()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        self._watch_headers()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._watch_headers()

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_watching()
        super().connection_lost(exc)

    def _waiting_for_headers(self) -> bool:
        return self.cycle is None or self.cycle.response_complete

    def _watch_headers(self) -> None:
        """A deadline while the connection waits for a request's headers, none while one is served."""
        if not self._waiting_for_headers():
            self._stop_watching()
        elif self._header_deadline is None and not self.transport.is_closing():
            self._header_deadline = self.loop.call_later(self.header_timeout, self._too_slow)

    def _stop_watching(self) -> None:
        if self._header_deadline is not None:
            self._header_deadline.cancel()
            self._header_deadline = None

    def _too_slow(self) -> None:
        self._header_deadline = None
        if self._waiting_for_headers() and not self.transport.is_closing():
            self.transport.close()  # no request to answer yet: closing is the answer (as uvicorn's keep-alive)


def protocol(header_timeout: float) -> type[HeaderDeadlineProtocol]:
    """The protocol class for ``uvicorn.Config(http=...)`` with this deadline."""
    return type("HeaderDeadlineProtocol", (HeaderDeadlineProtocol,), {"header_timeout": header_timeout})
