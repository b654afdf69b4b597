"""A request's id (X-Request-ID in and out), its route template, and what happens once it is answered.

RequestContext runs first: it takes the caller's X-Request-ID when it is a sane one (a proxy's, a
client's) or makes one, binds it for every log line (kit.logs), returns it on the answer, and when
the answer has started tells its observers the method, route template, status and time taken.
RouteTemplate runs last, just before the router: it notes which route matched (its template, as
"/api/v1/runs/{run_id}", never the raw path: one label per route, however many ids are asked for).
"""

import re
import time
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from storbench_api.kit.asgi import ASGIApp, Message, Receive, Scope, Send, header
from storbench_api.kit.logs import REQUEST_LOGGER, begin_request, end_request, get_logger

REQUEST_ID_HEADER = "X-Request-ID"
# What a caller's id may look like to be reused (a UUID, a proxy's hex id, "req-42"); anything else
# is replaced rather than written into logs as sent.
_SANE_ID = re.compile(r"^[A-Za-z0-9._:-]{1,128}$")
# Set in the scope: the request's fields, shared by every copy of the scope the middlewares make.
FIELDS = "storbench.request_fields"
UNROUTED = "unrouted"

_log = get_logger(REQUEST_LOGGER)


@dataclass(frozen=True)
class Answered:
    """A request whose answer has started: what observers are told."""

    method: str
    route: str
    status: int
    seconds: float
    fields: dict[str, Any]


def request_id_from(value: bytes | None) -> str:
    """The caller's request id when it is a sane one, else a fresh one."""
    sent = value.decode("latin-1") if value else ""
    return sent if _SANE_ID.match(sent) else uuid.uuid4().hex


class RequestContext:
    """Give each HTTP request an id, return it, and tell observers how it was answered."""

    def __init__(self, app: ASGIApp, observers: Sequence[Callable[[Answered], None]] = ()) -> None:
        self.app = app
        self.observers = observers

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        request_id = request_id_from(header(scope, b"x-request-id"))
        fields, token = begin_request(request_id)
        started = time.perf_counter()
        answered = False

        async def send_with_id(message: Message) -> None:
            nonlocal answered
            if message["type"] == "http.response.start" and not answered:
                answered = True
                message["headers"] = [
                    *message.get("headers", []),
                    (b"x-request-id", request_id.encode()),
                ]
                # Time to the answer's first byte: an event stream's life is not its latency.
                self._tell(scope, fields, int(message["status"]), time.perf_counter() - started)
            await send(message)

        try:
            await self.app({**scope, FIELDS: fields}, receive, send_with_id)
        except BaseException:
            if not answered:
                self._tell(scope, fields, 500, time.perf_counter() - started)
            raise
        finally:
            end_request(token)

    def _tell(self, scope: Scope, fields: dict[str, Any], status: int, seconds: float) -> None:
        answered = Answered(
            method=str(scope["method"]),
            route=str(fields.get("route", UNROUTED)),
            status=status,
            seconds=seconds,
            fields=fields,
        )
        for observer in self.observers:
            observer(answered)


class RouteTemplate:
    """Note the matched route's template in the request's fields (innermost middleware).

    A route of an included router knows its path below the prefixes it was included under:
    `prefixed` gives the whole template of such a route (None for the others, whose own is whole).
    """

    def __init__(self, app: ASGIApp, prefixed: Callable[[object], str | None] = lambda _route: None) -> None:
        self.app = app
        self.prefixed = prefixed

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        fields = scope.get(FIELDS)
        if fields is None:
            await self.app(scope, receive, send)
            return

        async def send_noting_route(message: Message) -> None:
            if message["type"] == "http.response.start":
                # The router set scope["route"] on this very dict when it matched.
                route = scope.get("route")
                fields["route"] = self.prefixed(route) or str(getattr(route, "path_format", None) or UNROUTED)
            await send(message)

        await self.app(scope, receive, send_noting_route)


def log_request(answered: Answered) -> None:
    """One line per request (json mode), with everything bound while it was served."""
    extra = {k: v for k, v in answered.fields.items() if k not in ("route", "request_id")}
    _log.info(
        "request",
        method=answered.method,
        route=answered.route,
        status=answered.status,
        ms=round(answered.seconds * 1000, 1),
        **extra,
    )
