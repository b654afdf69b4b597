"""Which limits the HTTP edge applies to which paths, wired in the order requests meet them.

A request meets, in turn: the worker credential check on worker paths (401 before any body is
read), the whole body read within its size limit and pace (413, 408), a gzip upload inflated
within its bounds (413, 503), and a free in-flight slot (503 after the queue timeout); the
mechanisms are domain-free, in storbench_api.kit.
"""

import re
from collections.abc import Callable, Iterable

from fastapi import APIRouter, FastAPI
from fastapi.dependencies.models import Dependant
from fastapi.routing import APIRoute
from starlette.routing import compile_path

from storbench_api.deps import current_host, host_credential_check
from storbench_api.kit.bearer_gate import BearerGate
from storbench_api.kit.body import MIB, BodyPace, BufferedBody
from storbench_api.kit.inflate import GzipRequestBody, InflateLimits
from storbench_api.kit.inflight import InFlightLimit
from storbench_api.settings import Settings, get_settings

DEFAULT_LIMIT = 1 * MIB
# Paths that carry fio outputs: an import (32 MiB, plus the multipart envelope) and a worker's upload.
IMPORT_PATH = re.compile(r"^/api/v1/results/import$")
IMPORT_LIMIT = 33 * MIB
UPLOAD_PATH = re.compile(r"^/api/v1/worker/assignments/\d+/result$")
# Event streams give their connection back before streaming (runs/events.py), a host waiting at a
# run's barrier holds none while it waits (runs/barrier.py), and the worker's clock needs none
# (waiting for a slot would only lengthen its round trip): they take no slot.
_NO_SLOT = re.compile(r"^/api/v1/(runs/\d+/events|worker/assignments/\d+/ready|worker/clock)$")


def limit_for(path: str) -> int:
    """The largest body this path accepts."""
    if IMPORT_PATH.match(path):
        return IMPORT_LIMIT
    if UPLOAD_PATH.match(path):
        return get_settings().max_upload_bytes
    return DEFAULT_LIMIT


def host_only_paths(routers: Iterable[APIRouter], prefix: str) -> list[re.Pattern[str]]:
    """Paths of the routes only a host's worker may call (CurrentHost): checked before the body."""
    return [
        compile_path(prefix + route.path)[0]
        for router in routers
        for route in router.routes
        if isinstance(route, APIRoute) and _depends_on(route.dependant, current_host)
    ]


def _depends_on(dependant: Dependant, call: Callable[..., object]) -> bool:
    return any(d.call is call or _depends_on(d, call) for d in dependant.dependencies)


def takes_a_slot(path: str) -> bool:
    """Whether a request on this path waits for an in-flight slot."""
    return path.startswith("/api/") and not _NO_SLOT.match(path)


def install_request_limits(
    app: FastAPI, settings: Settings, routers: Iterable[APIRouter], prefix: str
) -> None:
    """Add the edge middlewares (the last added runs first); routers: the API's, under prefix."""
    app.add_middleware(
        InFlightLimit,
        limit=settings.max_requests_in_flight,
        trusted_limit=settings.max_worker_requests_in_flight,
        wait_s=settings.request_queue_timeout.total_seconds(),
        counted=takes_a_slot,
    )
    app.add_middleware(GzipRequestBody, paths=[UPLOAD_PATH], limits=_inflate_limits(settings))
    pace = BodyPace(settings.request_body_timeout.total_seconds(), settings.request_body_min_rate)
    app.add_middleware(BufferedBody, limit_for=limit_for, pace=pace)
    host_only = host_only_paths(routers, prefix)
    app.add_middleware(
        BearerGate,
        guarded=lambda path: any(p.match(path) for p in host_only),
        check=host_credential_check(app),
        threads=2,
    )


def _inflate_limits(settings: Settings) -> InflateLimits:
    return InflateLimits(
        max_bytes=settings.max_inflated_upload_bytes,
        max_ratio=settings.max_upload_ratio,
        budget_bytes=settings.inflate_budget_bytes,
        wait_s=settings.request_queue_timeout.total_seconds(),
    )
