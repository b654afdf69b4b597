"""Endpoints a host's worker calls about itself: enrolling, who it is, and its heartbeat.

Bodies are the shared worker protocol's models (storbench_protocol). The endpoints about its
assignments are in runs/worker_router.py.
"""

from fastapi import APIRouter, Request, status
from sqlalchemy.orm import Session

from storbench_api.broker import host_queue
from storbench_api.db import utcnow
from storbench_api.deps import DB, CurrentHost
from storbench_api.errors import Conflict, Unauthorized
from storbench_api.hosts import broker_access
from storbench_api.hosts import repository as hosts_repository
from storbench_api.hosts.enrollment import enroll_host
from storbench_api.hosts.service import ensure_current_broker_user, record_facts
from storbench_api.kit.attempts import account_attempt, limit_sign_in, secret_account
from storbench_api.models import Host
from storbench_api.openapi import errors
from storbench_api.settings import get_settings
from storbench_protocol.facts import Heartbeat
from storbench_protocol.identity import Enrolled, EnrollRequest, ServerClock, WorkerIdentity

router = APIRouter(prefix="/worker", tags=["worker"])


@router.post(
    "/enroll",
    response_model=Enrolled,
    status_code=status.HTTP_201_CREATED,
    summary="Register with an enrollment token",
    responses=errors(Conflict),
)
def enroll(request: Request, body: EnrollRequest, db: DB) -> Enrolled:
    """Exchange an enrollment token for this host's own worker credential."""
    limit_sign_in(request, f"enroll:{body.name}")
    # One token's failures are counted wherever they come from, with backoff.
    with account_attempt(request, secret_account("enroll", body.token), wrong=(Unauthorized,)):
        host, credential = enroll_host(db, body.token, body.name)
    # A replaced host's old broker password stops with its old token, not at the new worker's start.
    host = ensure_current_broker_user(db, host)
    db.commit()
    return Enrolled(host_id=host.id, name=host.name, worker_token=credential)


def _identity(db: Session, host: Host) -> WorkerIdentity:
    """The host's identity, as its worker needs it, and the target directories it is to check."""
    return WorkerIdentity(
        host_id=host.id,
        name=host.name,
        queue=host_queue(host.id),
        broker_url=broker_access.worker_broker_url(host),
        heartbeat_interval_s=get_settings().heartbeat_interval.total_seconds(),
        server_time=utcnow(),
        target_paths=hosts_repository.target_directories(db, host.id),
    )


@router.get("/me", response_model=WorkerIdentity, summary="The calling worker's host and queue")
def whoami(host: CurrentHost, db: DB) -> WorkerIdentity:
    """The host this credential belongs to, its queue, and the broker URL with its own user.

    The host's broker user is (re)created here and at every heartbeat, so a broker restarted
    without persistence lets the host back in within one heartbeat; a credential revoked, removed
    or rotated meanwhile gets 401 instead of its broker login back.
    """
    host = ensure_current_broker_user(db, host)
    db.commit()
    return _identity(db, host)


@router.post("/heartbeat", response_model=WorkerIdentity, summary="Report liveness and host facts")
def heartbeat(body: Heartbeat, host: CurrentHost, db: DB) -> WorkerIdentity:
    """Keep the host's facts (they feed comparisons); like every worker request, it marks the host online.

    The answer names the host's target directories: the next heartbeat says whether each exists."""
    host = ensure_current_broker_user(db, host)
    facts = body.facts.model_dump(mode="json", exclude_unset=True) if body.facts is not None else None
    record_facts(host, facts, body.fio_version)
    db.commit()
    return _identity(db, host)


@router.get("/clock", response_model=ServerClock, summary="The server's clock, for clock offsets")
async def clock() -> ServerClock:
    """The server's time now, answered on the event loop (no database, no thread): a worker takes the
    shortest of several round trips to it as its clock offset's estimate (NTP-style)."""
    return ServerClock(server_time=utcnow())
