"""The HTTP protocol the API is served with: uvicorn's, plus a deadline for request headers.

uvicorn waits for a request's headers without end (its keep-alive timeout is cancelled by the
first byte of the next request), so connections that send a partial request line and nothing more
pile up for as long as their sender likes. Here each connection must complete a request's headers
within `header_timeout_s` of connecting or of its previous answer, or it is closed. Bodies have a
deadline of their own (kit.body).
"""

import asyncio

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol


class HeaderDeadlineProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol that closes connections slow to send their request headers."""

    header_timeout_s = 10.0
    _header_deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()

    def on_headers_complete(self) -> None:
        self._disarm()
        super().on_headers_complete()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing():
            self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def _arm(self) -> None:
        self._disarm()
        self._header_deadline = self.loop.call_later(self.header_timeout_s, self._headers_overdue)

    def _disarm(self) -> None:
        if self._header_deadline is not None:
            self._header_deadline.cancel()
            self._header_deadline = None

    def _headers_overdue(self) -> None:
        self._header_deadline = None
        # A request already running (one sent pipelined) is not waiting for headers.
        if self.cycle is None or self.cycle.response_complete:
            self.transport.close()


def with_header_timeout(seconds: float) -> type[HeaderDeadlineProtocol]:
    """The protocol class with its header deadline set (uvicorn builds one per connection)."""
    return type("ServedProtocol", (HeaderDeadlineProtocol,), {"header_timeout_s": seconds})
