"""Gzip request bodies inflated in a thread, bounded in size, in ratio and in memory all together.

Inflating in the event loop before anything checked the caller let a handful of 158 KiB bombs on
the worker upload path take the API from 252 MiB to 2.95 GiB and stall /health for 4-20 s. Here
the body (already read whole by BufferedBody, and the caller already known by BearerGate) is
inflated piece by piece in a thread; it is refused (413) as soon as it grows past `max_bytes` or
past `max_ratio` times the compressed bytes it came from, so a bomb stops after about a mebibyte.
Before starting, a request reserves the most it may grow to from one process-wide byte budget,
held until its answer is sent: concurrent inflations together never hold more than the budget;
a request that cannot get its share within `wait_s` is answered 503 (Retry-After).
"""

import asyncio
import re
import zlib
from collections.abc import Sequence
from dataclasses import dataclass

import anyio.to_thread

from storbench_api.kit.asgi import ASGIApp, Receive, Scope, Send, header, replay, send_error

MIB = 1024 * 1024
# Output of one decompress call: small pieces let the ratio check stop a bomb early.
_PIECE = 256 * 1024
# Read at a time from the compressed body: the ratio is judged on what was consumed so far.
_FEED = 16 * 1024
# Inflated bytes allowed beyond the ratio (a small body's header and first block).
_SLACK = 1 * MIB


@dataclass(frozen=True)
class InflateLimits:
    """How far one body may inflate, and how much all inflations may hold at once."""

    max_bytes: int
    max_ratio: int
    budget_bytes: int
    wait_s: float

    def reservation(self, compressed: int) -> int:
        """The most a body of `compressed` bytes may inflate to under these limits."""
        return min(self.max_bytes, compressed * self.max_ratio + _SLACK, self.budget_bytes)


class ByteBudget:
    """A pool of bytes that requests reserve and give back (an asyncio semaphore counted in bytes)."""

    def __init__(self, total: int) -> None:
        self.total = total
        self.available = total
        self._changed: asyncio.Condition | None = None

    async def reserve(self, amount: int, wait_s: float) -> bool:
        """Take `amount` bytes, waiting up to wait_s for them; False when they did not free up."""
        if self._changed is None:
            self._changed = asyncio.Condition()
        async with self._changed:
            try:
                await asyncio.wait_for(self._changed.wait_for(lambda: self.available >= amount), wait_s)
            except TimeoutError:
                return False
            self.available -= amount
            return True

    async def give_back(self, amount: int) -> None:
        """Return bytes taken by reserve."""
        assert self._changed is not None
        async with self._changed:
            self.available += amount
            self._changed.notify_all()


class _Refused(Exception):
    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


def inflate(compressed: bytes, limits: InflateLimits, reserved: int) -> bytes:
    """The gzip body inflated, refused past `reserved` bytes or past the ratio (run in a thread)."""
    decoder = zlib.decompressobj(wbits=16 + zlib.MAX_WBITS)
    pieces: list[bytes] = []
    size = consumed = 0
    pending = b""
    while consumed < len(compressed) or pending:
        if not pending:
            pending = compressed[consumed : consumed + _FEED]
            consumed += len(pending)
        try:
            piece = decoder.decompress(pending, _PIECE)
        except zlib.error:
            raise _Refused(400, "bad_encoding", "the gzip body could not be decompressed") from None
        pending = decoder.unconsumed_tail
        size += len(piece)
        _check(size, consumed - len(pending), limits, reserved)
        pieces.append(piece)
        if decoder.eof:
            break
    return b"".join(pieces)


def _check(size: int, consumed: int, limits: InflateLimits, reserved: int) -> None:
    if size > reserved:
        raise _Refused(413, "too_large", f"the decompressed body is over {reserved / MIB:.3g} MiB")
    if size > consumed * limits.max_ratio + _SLACK:
        raise _Refused(
            413, "too_large", f"the body inflates more than {limits.max_ratio} times: refused as a bomb"
        )


class GzipRequestBody:
    """Inflate `Content-Encoding: gzip` bodies on the paths that accept them, within InflateLimits."""

    def __init__(self, app: ASGIApp, paths: Sequence[re.Pattern[str]], limits: InflateLimits) -> None:
        self.app = app
        self.paths = paths
        self.limits = limits
        self.budget = ByteBudget(limits.budget_bytes)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (
            scope["type"] != "http"
            or (header(scope, b"content-encoding") or b"").lower() != b"gzip"
            or not any(p.match(scope["path"]) for p in self.paths)
        ):
            await self.app(scope, receive, send)
            return
        compressed = await _whole_body(receive)
        reserved = self.limits.reservation(len(compressed))
        if not await self.budget.reserve(reserved, self.limits.wait_s):
            message = "the service is busy unpacking other uploads: retry shortly"
            await send_error(send, 503, "busy", message, headers={"Retry-After": "5"})
            return
        try:
            await self._inflated(scope, compressed, reserved, receive, send)
        finally:
            await self.budget.give_back(reserved)

    async def _inflated(
        self, scope: Scope, compressed: bytes, reserved: int, receive: Receive, send: Send
    ) -> None:
        try:
            body = await anyio.to_thread.run_sync(inflate, compressed, self.limits, reserved)
        except _Refused as refused:
            await send_error(send, refused.status, refused.code, refused.message)
            return
        del compressed
        headers = [
            (k, v) for k, v in scope["headers"] if k.lower() not in (b"content-encoding", b"content-length")
        ]
        scope = {**scope, "headers": [*headers, (b"content-length", str(len(body)).encode())]}
        await self.app(scope, replay(body, receive), send)


async def _whole_body(receive: Receive) -> bytes:
    chunks = []
    more = True
    while more:
        message = await receive()
        chunks.append(message.get("body", b""))
        more = bool(message.get("more_body"))
    return b"".join(chunks)
