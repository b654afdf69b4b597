"""Whole request bodies read in the event loop before anything else sees them, within limits.

A request still receiving its body must not hold anything meant for work: a few dozen connections
that sent headers and then stalled held all 24 in-flight slots (storbench_api.kit.inflight), and
every request, worker heartbeats included, got 503s until a running benchmark failed as "lost
contact with the worker". So the body is read first, here, holding nothing but its own bytes; it
must not be larger than its path allows (413), and it must keep arriving: within a grace period
and then at a minimum rate, or the request gets a 408 and its connection is closed.

Ours, not FastAPI's `max_body_size` (Starlette's RequestBodyLimitMiddleware): that one answers a
text/plain "Content Too Large" outside the one JSON error shape, never saying the limit, and counts
what the route reads after decompression, while a worker's upload is limited as sent (gzip).
"""

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass

from storbench_api.kit.asgi import ASGIApp, Receive, Scope, Send, header, replay, send_error

MIB = 1024 * 1024


@dataclass(frozen=True)
class BodyPace:
    """How soon a body must arrive: all of it within grace_s + received / min_bytes_per_s."""

    grace_s: float
    min_bytes_per_s: int

    def remaining_s(self, started: float, received: int) -> float:
        """Seconds the next piece may still take, given what has arrived since `started`."""
        return started + self.grace_s + received / self.min_bytes_per_s - time.monotonic()


class _TooLarge(Exception):
    pass


class _TooSlow(Exception):
    pass


class _Gone(Exception):
    pass


class BufferedBody:
    """Read each request's body whole (413 past the path's limit, 408 when too slow), then go on."""

    def __init__(self, app: ASGIApp, limit_for: Callable[[str], int], pace: BodyPace) -> None:
        self.app = app
        self.limit_for = limit_for
        self.pace = pace

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.limit_for(scope["path"])
        declared = header(scope, b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > limit:
            await _refuse_too_large(send, limit, close=True)
            return
        try:
            body = await self._read(receive, limit)
        except _TooLarge:
            await _refuse_too_large(send, limit, close=True)
            return
        except _TooSlow:
            await send_error(
                send, 408, "timeout", "the request body arrived too slowly: send it again", close=True
            )
            return
        except _Gone:
            return
        await self.app(scope, replay(body, receive), send)

    async def _read(self, receive: Receive, limit: int) -> bytes:
        started = time.monotonic()
        chunks: list[bytes] = []
        received = 0
        more = True
        while more:
            try:
                message = await asyncio.wait_for(
                    receive(), max(0.0, self.pace.remaining_s(started, received))
                )
            except TimeoutError:
                raise _TooSlow from None
            if message["type"] == "http.disconnect":
                raise _Gone
            chunk = message.get("body", b"")
            received += len(chunk)
            if received > limit:
                raise _TooLarge
            chunks.append(chunk)
            more = bool(message.get("more_body"))
        return b"".join(chunks)


async def _refuse_too_large(send: Send, limit: int, close: bool) -> None:
    await send_error(
        send,
        413,
        "too_large",
        f"the request body is larger than this endpoint accepts ({limit / MIB:.3g} MiB)",
        close=close,
    )
