"""At most as many API requests at once as the database pool can serve; the rest wait their turn.

Each request holds one pooled connection, and its dependencies and endpoint each need a slot of
the thread pool in turn. With more requests in flight than connections, requests holding a thread
slot wait for a connection held by requests waiting for a thread slot: a burst of 40 stalled the API
for 30 s and ended in 500s. Requests past the limit wait here instead, in the event loop, holding
neither; one that waits too long gets a 503 with Retry-After, never a hang.

Requests whose caller BearerGate already checked (a host's worker) have slots of their own: a
flood of anonymous requests must not make a heartbeat wait, or a running benchmark fails as "lost
contact with the worker". Bodies are read before this (kit.body), so a slot is only ever held by
a request that can run.
"""

import asyncio
from collections.abc import Callable

from storbench_api.kit.asgi import TRUSTED, ASGIApp, Receive, Scope, Send, send_error


class InFlightLimit:
    """Let at most `limit` API requests (and `trusted_limit` trusted ones) run at once; queue the rest."""

    def __init__(
        self,
        app: ASGIApp,
        limit: int,
        trusted_limit: int,
        wait_s: float,
        counted: Callable[[str], bool],
    ) -> None:
        self.app = app
        self.limits = {False: limit, True: trusted_limit}
        self.wait_s = wait_s
        self.counted = counted
        self._slots: dict[bool, asyncio.Semaphore] = {}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not self.counted(scope["path"]):
            await self.app(scope, receive, send)
            return
        trusted = bool(scope.get(TRUSTED))
        slots = self._slots.get(trusted)
        if slots is None:
            slots = self._slots[trusted] = asyncio.Semaphore(self.limits[trusted])
        try:
            await asyncio.wait_for(slots.acquire(), timeout=self.wait_s)
        except TimeoutError:
            message = f"the service is busy (waited {self.wait_s:.0f} s for a free slot): retry shortly"
            await send_error(send, 503, "busy", message, headers={"Retry-After": "5"})
            return
        try:
            await self.app(scope, receive, send)
        finally:
            slots.release()
