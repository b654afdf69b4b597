"""Check a bearer credential before anything reads the body of a request that requires one.

A worker's upload may be 65 MiB, inflated up to 160 MiB: nobody but a known host gets that far.
The check itself is the route's (passed in as `check`, raising the route's 401), run in a thread
of its own pool so a crowd of anonymous requests cannot delay it; a request that passes is marked
TRUSTED and gets its in-flight slot from the trusted pool (kit.inflight).
"""

from collections.abc import Callable

import anyio
import anyio.to_thread

from storbench_api.errors import DomainError
from storbench_api.kit.asgi import TRUSTED, ASGIApp, Receive, Scope, Send, header, send_error


class BearerGate:
    """On paths that `guarded` names, answer 401 before the body unless `check(token)` accepts it."""

    def __init__(
        self, app: ASGIApp, guarded: Callable[[str], bool], check: Callable[[str], None], threads: int
    ) -> None:
        self.app = app
        self.guarded = guarded
        self.check = check
        self.threads = threads
        self._limiter: anyio.CapacityLimiter | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not self.guarded(scope["path"]):
            await self.app(scope, receive, send)
            return
        if self._limiter is None:
            self._limiter = anyio.CapacityLimiter(self.threads)
        token = _bearer(header(scope, b"authorization") or b"")
        try:
            await anyio.to_thread.run_sync(self.check, token, limiter=self._limiter)
        except DomainError as refused:
            # The body stays unread: the connection closes after the answer.
            headers = {"WWW-Authenticate": "Bearer"} if refused.status_code == 401 else {}
            await send_error(send, refused.status_code, refused.code, refused.message, headers, close=True)
            return
        await self.app({**scope, TRUSTED: True}, receive, send)


def _bearer(value: bytes) -> str:
    scheme, _, token = value.decode("latin-1").partition(" ")
    return token.strip() if scheme.lower() == "bearer" else ""
