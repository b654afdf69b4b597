"""Log lines as JSON objects (production) or readable text (`make up`), with what they are about.

One handler on the root logger renders every line, ours (structlog) and the standard library's
(uvicorn, SQLAlchemy, Celery) alike. What a request is about (its id, the run and the host a worker
route works on) is bound once in context variables (`bind`) and lands in every line written while
it is served, including the request line kit.request_context writes when it ends.
"""

import logging
import sys
from contextvars import ContextVar
from typing import Any, Literal, TextIO

import structlog

LogFormat = Literal["console", "json"]
# Our request lines ("method route status ms"), written in json mode only: in console mode
# uvicorn's access lines already say it.
REQUEST_LOGGER = "storbench_api.requests"

# The request being served: the fields bound for it so far. One dict per request, shared with the
# threads sync routes run in (they get a copy of the context, not of the dict), so what a route
# binds is still there when the request line is written.
_request_fields: ContextVar[dict[str, Any] | None] = ContextVar("storbench_request_fields", default=None)

_SHARED: list[structlog.types.Processor] = [
    structlog.contextvars.merge_contextvars,
    structlog.stdlib.add_log_level,
    structlog.stdlib.add_logger_name,
    structlog.stdlib.ExtraAdder(),
    structlog.processors.TimeStamper(fmt="iso", utc=True),
]


def configure_logging(log_format: LogFormat, stream: TextIO | None = None) -> None:
    """Render every log line in log_format on stream (standard error), replacing our earlier handler."""
    renderer: structlog.types.Processor = (
        structlog.processors.JSONRenderer()
        if log_format == "json"
        else structlog.dev.ConsoleRenderer(colors=False, exception_formatter=structlog.dev.plain_traceback)
    )
    formatter = structlog.stdlib.ProcessorFormatter(
        foreign_pre_chain=_SHARED,
        processors=[
            structlog.stdlib.ProcessorFormatter.remove_processors_meta,
            structlog.processors.format_exc_info if log_format == "json" else _keep,
            renderer,
        ],
    )
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(formatter)
    handler.set_name("storbench")
    root = logging.getLogger()
    # Handlers others put there (a test runner's capture) stay.
    for old in [h for h in root.handlers if h.get_name() == "storbench"]:
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(logging.INFO)
    logging.getLogger(REQUEST_LOGGER).setLevel(logging.INFO if log_format == "json" else logging.WARNING)
    structlog.configure(
        processors=[*_SHARED, structlog.stdlib.ProcessorFormatter.wrap_for_formatter],
        logger_factory=structlog.stdlib.LoggerFactory(),
        wrapper_class=structlog.stdlib.BoundLogger,
        cache_logger_on_first_use=True,
    )


def _keep(logger: object, name: str, event: structlog.types.EventDict) -> structlog.types.EventDict:
    return event


def get_logger(name: str) -> structlog.stdlib.BoundLogger:
    """A structlog logger writing through the standard library's logger `name`."""
    return structlog.stdlib.get_logger(name)


def begin_request(request_id: str) -> tuple[dict[str, Any], object]:
    """Start binding for a new request: its fields (request_id so far) and a token for end_request."""
    fields: dict[str, Any] = {"request_id": request_id}
    token = _request_fields.set(fields)
    structlog.contextvars.clear_contextvars()
    structlog.contextvars.bind_contextvars(request_id=request_id)
    return fields, token


def end_request(token: object) -> None:
    """Forget what was bound for the request begin_request started."""
    structlog.contextvars.clear_contextvars()
    _request_fields.reset(token)  # type: ignore[arg-type]


def bind(**fields: Any) -> None:
    """Name what the current work is about (run_id=…, host=…) in every line it logs from now on."""
    structlog.contextvars.bind_contextvars(**fields)
    request = _request_fields.get()
    if request is not None:
        request.update(fields)
