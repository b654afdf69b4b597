"""Request body size limits, enforced before any route reads the body (413 with the JSON error shape).

Ours, not FastAPI's `max_body_size` (Starlette's RequestBodyLimitMiddleware): that one answers a
body over the limit with a text/plain "Content Too Large" whenever the route answers without reading
the body (outside the one JSON error shape, and never saying the limit), and it counts what the
route reads, after decompression, while a worker's upload is limited as sent (gzip). No framework or
library decompresses request bodies (Starlette's GZipMiddleware compresses responses), so
GzipRequestBody stays too: it expands only the upload path, and refuses a bomb past a cap.
"""

import json
import re
import zlib
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from storbench_api.errors import error_body
from storbench_api.settings import get_settings

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

MIB = 1024 * 1024
DEFAULT_LIMIT = 1 * MIB
# Paths that carry fio outputs: an import (32 MiB, plus the multipart envelope) and a worker's upload.
IMPORT_PATH = re.compile(r"^/api/v1/results/import$")
IMPORT_LIMIT = 33 * MIB
UPLOAD_PATH = re.compile(r"^/api/v1/worker/assignments/\d+/result$")


def limit_for(path: str) -> int:
    """The largest body this path accepts."""
    if IMPORT_PATH.match(path):
        return IMPORT_LIMIT
    if UPLOAD_PATH.match(path):
        return get_settings().max_upload_bytes
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
                "too_large", f"the request body is larger than this endpoint accepts ({limit / MIB:.3g} MiB)"
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


# Paths whose bodies may come gzip-compressed (a worker's upload of fio's output), and how large
# the decompressed body may grow: a compressed bomb is refused, not expanded.
GZIP_PATHS = re.compile(r"^/api/v1/worker/assignments/\d+/result$")
MAX_DECOMPRESSED = 160 * MIB


class GzipRequestBody:
    """Decompress `Content-Encoding: gzip` bodies on the paths that accept them (413 past the cap)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        headers = dict(scope.get("headers") or []) if scope["type"] == "http" else {}
        if headers.get(b"content-encoding", b"").lower() != b"gzip" or not GZIP_PATHS.match(scope["path"]):
            await self.app(scope, receive, send)
            return
        decoder = zlib.decompressobj(wbits=16 + zlib.MAX_WBITS)
        chunks: list[bytes] = []
        size = 0
        more = True
        while more:
            message = await receive()
            more = bool(message.get("more_body"))
            try:
                data = decoder.decompress(message.get("body", b""), MAX_DECOMPRESSED + 1 - size)
            except zlib.error:
                await _refuse_with(send, 400, "bad_encoding", "the gzip body could not be decompressed")
                return
            size += len(data)
            if size > MAX_DECOMPRESSED or decoder.unconsumed_tail:
                await _refuse_with(
                    send, 413, "too_large", f"the decompressed body is over {MAX_DECOMPRESSED // MIB} MiB"
                )
                return
            chunks.append(data)
        body = b"".join(chunks)
        scope = {
            **scope,
            "headers": [
                (k, v)
                for k, v in scope["headers"]
                if k.lower() not in (b"content-encoding", b"content-length")
            ]
            + [(b"content-length", str(len(body)).encode())],
        }
        delivered = False

        async def decoded_receive() -> Message:
            nonlocal delivered
            if delivered:
                return {"type": "http.request", "body": b"", "more_body": False}
            delivered = True
            return {"type": "http.request", "body": body, "more_body": False}

        await self.app(scope, decoded_receive, send)


async def _refuse_with(send: Send, status: int, code: str, message: str) -> None:
    body = json.dumps(error_body(code, message)).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())],
        }
    )
    await send({"type": "http.response.body", "body": body})
