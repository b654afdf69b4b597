"""The FastAPI application: API under /api/v1, docs at /docs, the SPA everywhere else."""

import asyncio
import contextlib
import gc
import logging
from collections.abc import AsyncIterator, Awaitable, Callable

from fastapi import APIRouter, Depends, FastAPI, Request, Response
from fastapi.routing import APIRoute

from storbench_api import __version__, health
from storbench_api.attention.router import router as attention_router
from storbench_api.audit.router import router as audit_router
from storbench_api.auth.router import router as auth_router
from storbench_api.compare.router import router as compare_router
from storbench_api.curves.router import router as curves_router
from storbench_api.errors import install_error_handlers
from storbench_api.figures.router import router as figures_router
from storbench_api.fio_tools.router import router as fio_router
from storbench_api.history.router import router as history_router
from storbench_api.hosts.dist_router import router as worker_dist_router
from storbench_api.hosts.enrollment_router import router as enrollment_router
from storbench_api.hosts.router import router as hosts_router
from storbench_api.hosts.worker_router import router as hosts_worker_router
from storbench_api.ids import match_ids_by_digits
from storbench_api.kit import attempts
from storbench_api.kit.logs import configure_logging
from storbench_api.kit.request_context import Answered, RequestContext, RouteTemplate, log_request
from storbench_api.openapi import answer_unrouted_methods, document_errors
from storbench_api.ops.metrics import count_refusal, observe_request
from storbench_api.ops.router import router as ops_router
from storbench_api.planner.router import router as planner_router
from storbench_api.plans.router import router as plans_router
from storbench_api.presets.router import router as presets_router
from storbench_api.query_params import reject_unknown_query_parameters
from storbench_api.request_limits import install_request_limits
from storbench_api.results.router import router as results_router
from storbench_api.retention.router import router as retention_router
from storbench_api.runs.router import router as runs_router
from storbench_api.runs.worker_router import router as runs_worker_router
from storbench_api.schedules.router import router as schedules_router
from storbench_api.settings import get_settings
from storbench_api.spa import mount_spa
from storbench_api.storage_classes.router import router as storage_classes_router
from storbench_api.sweeper import sweep_forever
from storbench_api.targets.router import router as targets_router
from storbench_api.teams.router import invitations_router
from storbench_api.teams.router import router as teams_router
from storbench_api.tokens.router import router as tokens_router
from storbench_api.verdict.router import router as verdict_router
from storbench_api.webhooks.router import router as webhooks_router

API_PREFIX = "/api/v1"

# Every router of the API, in the order they are mounted under API_PREFIX.
API_ROUTERS: tuple[APIRouter, ...] = (
    health.router,
    auth_router,
    hosts_router,
    enrollment_router,
    targets_router,
    plans_router,
    presets_router,
    storage_classes_router,
    planner_router,
    runs_router,
    results_router,
    figures_router,
    curves_router,
    history_router,
    attention_router,
    verdict_router,
    compare_router,
    fio_router,
    hosts_worker_router,
    worker_dist_router,
    runs_worker_router,
    retention_router,
    teams_router,
    invitations_router,
    tokens_router,
    audit_router,
    schedules_router,
    webhooks_router,
)

_SECURITY_HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "same-origin",
}
# The SPA runs no inline script; the docs page loads its own bundle from the same origin.
_SPA_CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'self'"
)


class _QuietWorkerPolls(logging.Filter):
    """Drop access-log lines of worker heartbeats and cancel polls (one per second per host)."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        return "/api/v1/worker/heartbeat" not in message and "/state HTTP" not in message


def _log_unless_worker_poll(answered: Answered) -> None:
    """The request line (json mode), except a worker's heartbeat or progress report that went well."""
    polled = answered.route.startswith("/api/v1/worker/") and answered.route.endswith(
        ("/heartbeat", "/progress")
    )
    if not (polled and answered.status < 400):
        log_request(answered)


def _api_route_templates() -> Callable[[object], str | None]:
    """The whole template ("/api/v1/runs/{run_id}") of a route of API_ROUTERS, by the route object."""
    templates = {
        id(route): API_PREFIX + route.path_format
        for r in API_ROUTERS
        for route in r.routes
        if isinstance(route, APIRoute)
    }

    def template_of(route: object) -> str | None:
        return templates.get(id(route))

    return template_of


@contextlib.asynccontextmanager
async def lifespan(app: FastAPI) -> AsyncIterator[None]:
    """Run the stuck-run sweeper for the life of the process."""
    sweeper = asyncio.create_task(sweep_forever()) if app.state.run_sweeper else None
    if app.state.settle_heap:
        settle_heap()
    try:
        yield
    finally:
        if sweeper is not None:
            sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await sweeper


def settle_heap() -> None:
    """Move what is alive now out of the garbage collector's way for the life of the process.

    Modules, the app, its routes and the SQLAlchemy tables live as long as the process: frozen, a
    full collection no longer walks them, and a request that allocates much (a team's grouped
    view reads thousands of rows) is not made to wait 60-90 ms while it does.
    """
    gc.collect()
    gc.freeze()


def create_served_app() -> FastAPI:
    """The application as `storbench-api serve` runs it: one long-lived process (heap settled)."""
    return create_app(settle_heap_at_start=True)


def create_app(run_sweeper: bool = True, settle_heap_at_start: bool = False) -> FastAPI:
    """A configured application; settle_heap_at_start: once started, freeze its heap (settle_heap)."""
    settings = get_settings()
    configure_logging(settings.effective_log_format)
    app = FastAPI(
        title="storbench",
        version=__version__,
        description="Storage benchmarking as a service: fio on your hosts, results in one history.",
        openapi_url=f"{API_PREFIX}/openapi.json",
        docs_url="/docs",
        redoc_url=None,
        lifespan=lifespan,
    )
    app.state.run_sweeper = run_sweeper
    app.state.settle_heap = settle_heap_at_start
    access_log = logging.getLogger("uvicorn.access")
    if not any(isinstance(f, _QuietWorkerPolls) for f in access_log.filters):
        access_log.addFilter(_QuietWorkerPolls())
    install_error_handlers(app)
    attempts.on_refusal(count_refusal)
    # Innermost: it notes the route that matched for RequestContext (added last, so it runs first).
    app.add_middleware(RouteTemplate, prefixed=_api_route_templates())

    # A query parameter no operation declares is a 422 (storbench_api.query_params), on every route.
    api = APIRouter(prefix=API_PREFIX, dependencies=[Depends(reject_unknown_query_parameters)])
    match_ids_by_digits(API_ROUTERS)
    for router in API_ROUTERS:
        api.include_router(router)
    app.include_router(api)
    document_errors(app)
    answer_unrouted_methods(app, API_PREFIX)

    @app.middleware("http")
    async def security_headers(
        request: Request, call_next: Callable[[Request], Awaitable[Response]]
    ) -> Response:
        response = await call_next(request)
        response.headers.update(_SECURITY_HEADERS)
        if not request.url.path.startswith(("/docs", API_PREFIX)):
            response.headers["Content-Security-Policy"] = _SPA_CSP
        return response

    app.include_router(ops_router)
    mount_spa(app, settings.spa_dir)
    install_request_limits(app, settings, API_ROUTERS, API_PREFIX)
    # Outermost: every answer, refusals at the edge included, carries a request id and is counted.
    app.add_middleware(RequestContext, observers=(observe_request, _log_unless_worker_poll))
    return app
