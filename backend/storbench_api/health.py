"""Liveness (/health) and readiness (/ready), without authentication."""

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from pathlib import Path
from typing import Literal
from urllib.parse import urlsplit

import redis
from fastapi import APIRouter
from fastapi.responses import JSONResponse
from pydantic import BaseModel
from sqlalchemy import text

from storbench_api import __version__
from storbench_api.db import get_engine
from storbench_api.deps import DB
from storbench_api.settings import get_settings

router = APIRouter(tags=["health"])

# Checks run here, so a database or broker that never answers costs the caller ready_timeout, not
# the TCP timeout; a check still hanging holds one of these threads until its socket gives up.
_checks = ThreadPoolExecutor(max_workers=4, thread_name_prefix="ready-check")


class Health(BaseModel):
    """Service status."""

    status: Literal["ok"]
    version: str
    mode: Literal["embedded", "production"]
    database: Literal["ok"]


class Readiness(BaseModel):
    """Whether this process can serve: each dependency "ok", or why not."""

    status: Literal["ready", "not ready"]
    message: str
    database: str
    broker: str


@router.get("/health", response_model=Health, summary="Service health (liveness)")
def health(db: DB) -> Health:
    """ok when the database answers."""
    db.execute(text("SELECT 1"))
    return Health(status="ok", version=__version__, mode=get_settings().mode, database="ok")


@router.get(
    "/ready",
    response_model=Readiness,
    summary="Readiness: the database and the broker answer",
    responses={503: {"model": Readiness, "description": "the dependencies named in message do not answer"}},
)
def ready() -> JSONResponse:
    """200 when the database and the broker both answer within ready_timeout; 503 naming those that do not.

    For a load balancer or an orchestrator: a process answering 503 should get no traffic for now,
    but needs no restart (/health says whether it is alive).
    """
    settings = get_settings()
    timeout_s = settings.ready_timeout.total_seconds()
    broker_url = settings.effective_broker_url
    database = _check(_database_answers, timeout_s)
    broker = _check(lambda: _broker_answers(broker_url, timeout_s, settings.broker_folder), timeout_s)
    failing = [
        f"{name} ({where}): {outcome}"
        for name, where, outcome in (
            ("database", _where(settings.effective_database_url), database),
            ("broker", _where(broker_url), broker),
        )
        if outcome != "ok"
    ]
    body = Readiness(
        status="not ready" if failing else "ready",
        message=("not reachable: " + "; ".join(failing)) if failing else "database and broker answer",
        database=database,
        broker=broker,
    )
    return JSONResponse(body.model_dump(), status_code=503 if failing else 200)


def _check(probe: Callable[[], None], timeout_s: float) -> str:
    """ "ok", or why the probe failed or did not answer in time."""
    future = _checks.submit(probe)
    try:
        future.result(timeout=timeout_s)
    except FutureTimeout:
        return f"no answer within {timeout_s:g} s"
    except Exception as exc:
        return f"{type(exc).__name__}: {str(exc).strip()[:300] or 'no detail'}"
    return "ok"


def _database_answers() -> None:
    with get_engine().connect() as connection:
        connection.execute(text("SELECT 1"))


def _broker_answers(url: str, timeout_s: float, folder: Path) -> None:
    if url.startswith(("redis://", "rediss://")):
        client = redis.Redis.from_url(url, socket_connect_timeout=timeout_s, socket_timeout=timeout_s)
        try:
            client.ping()
        finally:
            client.close()
    elif url.startswith("filesystem://"):
        # The embedded broker is a folder this process writes messages into.
        folder.mkdir(parents=True, exist_ok=True)
    else:
        raise ValueError(f"cannot check a broker of scheme {urlsplit(url).scheme!r}")


def _where(url: str) -> str:
    """Where a URL points, without its credentials (a SQLite file: its path)."""
    parts = urlsplit(url)
    if parts.scheme.startswith("sqlite"):
        return "SQLite"
    host = parts.hostname or "?"
    return (
        f"{parts.scheme.split('+')[0]} at {host}:{parts.port}" if parts.port else f"{parts.scheme} at {host}"
    )
