"""Request body size limits, enforced before any route reads the body (413 with the JSON error shape)."""

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

MIB = 1024 * 1024
DEFAULT_LIMIT = 1 * MIB
# Paths that carry fio outputs: an import (32 MiB, plus the multipart envelope) and a worker's upload.
LARGE_LIMITS = (
    (re.compile(r"^/api/v1/results/import$"), 33 * MIB),
    (re.compile(r"^/api/v1/worker/assignments/\d+/result$"), 65 * MIB),
)


def limit_for(path: str) -> int:
    """The largest body this path accepts."""
    for pattern, limit in LARGE_LIMITS:
        if pattern.match(path):
            return limit
    return DEFAULT_LIMIT


class BodySizeLimit:
    """Refuse bodies over the path's limit, by Content-Length or while streaming."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = limit_for(scope["path"])
        declared = dict(scope.get("headers") or []).get(b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > limit:
            await self._refuse(send, limit)
            return
        received = 0
        too_large = False

        async def counting_receive() -> Message:
            nonlocal received, too_large
            if too_large:
                return {"type": "http.request", "body": b"", "more_body": False}
            message = await receive()
            received += len(message.get("body", b""))
            if received > limit:
                # Cut the body short; whatever the route answers to that is replaced by a 413.
                too_large = True
                return {"type": "http.request", "body": b"", "more_body": False}
            return message

        async def replacing_send(message: Message) -> None:
            if not too_large:
                await send(message)
            elif message["type"] == "http.response.start":
                await self._refuse(send, limit)

        await self.app(scope, counting_receive, replacing_send)

    @staticmethod
    async def _refuse(send: Send, limit: int) -> None:
        body = json.dumps(
            error_body(
                "too_large", f"the request body is larger than this endpoint accepts ({limit // MIB} MiB)"
            )
        ).encode()
        await send(
            {
                "type": "http.response.start",
                "status": 413,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})
