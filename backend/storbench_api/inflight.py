"""At most as many API requests at once as the database pool can serve; the rest wait their turn.

Each request holds one pooled connection, and its dependencies and endpoint each need a slot of
the thread pool in turn. With more requests in flight than connections, requests holding a thread
slot wait for a connection held by requests waiting for a thread slot: a burst of 40 stalled the API
for 30 s and ended in 500s. Requests past the limit wait here instead, in the event loop, holding
neither; one that waits too long gets a 503 with Retry-After, never a hang.
"""

import asyncio
import json
import re
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from storbench_api.errors import error_body

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

# Event streams give their connection back before streaming (runs/events.py): they do not count.
_STREAMS = re.compile(r"^/api/v1/runs/\d+/events$")


class InFlightLimit:
    """Let at most `limit` API requests run at once; queue the others up to `wait_s`."""

    def __init__(self, app: ASGIApp, limit: int, wait_s: float) -> None:
        self.app = app
        self.limit = limit
        self.wait_s = wait_s
        self._slots: asyncio.Semaphore | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = scope.get("path", "")
        if scope["type"] != "http" or not path.startswith("/api/") or _STREAMS.match(path):
            await self.app(scope, receive, send)
            return
        if self._slots is None:
            self._slots = asyncio.Semaphore(self.limit)
        try:
            await asyncio.wait_for(self._slots.acquire(), timeout=self.wait_s)
        except TimeoutError:
            await _busy(send, self.wait_s)
            return
        try:
            await self.app(scope, receive, send)
        finally:
            self._slots.release()


async def _busy(send: Send, waited_s: float) -> None:
    body = json.dumps(
        error_body("busy", f"the service is busy (waited {waited_s:.0f} s for a free slot): retry shortly")
    ).encode()
    await send(
        {
            "type": "http.response.start",
            "status": 503,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"retry-after", b"5"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})
