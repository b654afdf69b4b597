"""ASGI types and the one way the edge middlewares answer (the JSON error shape)."""

import json
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from storbench_api.errors import error_body

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

# Set in the scope by BearerGate once the caller's credential checked out: InFlightLimit gives such
# requests slots of their own, so they never queue behind anonymous traffic.
TRUSTED = "storbench.trusted"


async def send_error(
    send: Send,
    status: int,
    code: str,
    message: str,
    headers: dict[str, str] | None = None,
    close: bool = False,
) -> None:
    """Answer with the JSON error shape; close: end the connection after it (unread body left)."""
    body = json.dumps(error_body(code, message)).encode()
    raw = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    raw += [(k.lower().encode(), v.encode()) for k, v in (headers or {}).items()]
    if close:
        raw.append((b"connection", b"close"))
    await send({"type": "http.response.start", "status": status, "headers": raw})
    await send({"type": "http.response.body", "body": body})


def replay(body: bytes, receive: Receive) -> Receive:
    """A receive that hands over an already-read body, then listens to the connection as before."""
    delivered = False

    async def replaying() -> Message:
        nonlocal delivered
        if delivered:
            return await receive()
        delivered = True
        return {"type": "http.request", "body": body, "more_body": False}

    return replaying


def header(scope: Scope, name: bytes) -> bytes | None:
    """The first value of a request header (names are lower-case in ASGI)."""
    for key, value in scope.get("headers") or []:
        if key == name:
            return bytes(value)
    return None
