"""Host endpoints."""

from fastapi import APIRouter, Query, status

from storbench_api.audit import service as audit
from storbench_api.deps import DB, OwnerAccess, ReadAccess, WriteAccess
from storbench_api.errors import BrokerUnavailable
from storbench_api.hosts import broker_access, repository, service
from storbench_api.hosts.schemas import (
    HostCreate,
    HostCreated,
    HostCredential,
    HostList,
    HostOut,
    HostUpdate,
)
from storbench_api.ids import IdPath
from storbench_api.runs import service as runs_service

router = APIRouter(prefix="/hosts", tags=["hosts"])


@router.get("", response_model=HostList, summary="List the team's hosts")
def list_hosts(
    db: DB,
    principal: ReadAccess,
    limit: int = Query(100, ge=1, le=500),
    offset: int = Query(0, ge=0),
) -> HostList:
    """Hosts with live status (online, busy, offline)."""
    hosts, total = repository.list_hosts(db, principal.team_id, limit, offset)
    return HostList(items=service.describe_hosts(db, hosts), total=total)


@router.post("", response_model=HostCreated, status_code=status.HTTP_201_CREATED, summary="Register a host")
def create_host(body: HostCreate, db: DB, principal: WriteAccess) -> HostCreated:
    """Register a host; the response carries its worker token, shown only once."""
    host, token = service.register_host(db, principal.team_id, body.name)
    audit.record(
        db,
        team_id=principal.team_id,
        actor=principal.actor,
        action="host.registered",
        resource_type="host",
        resource_id=host.id,
        hosts=[host.name],
    )
    db.commit()
    described = service.describe_hosts(db, [host])[0]
    return HostCreated(**described.model_dump(), worker_token=token)


@router.get("/{host_id}", response_model=HostOut, summary="One host")
def get_host(host_id: IdPath, db: DB, principal: ReadAccess) -> HostOut:
    """A host with its facts and status."""
    host = service.get_host(db, principal.team_id, host_id)
    return service.describe_hosts(db, [host])[0]


@router.patch("/{host_id}", response_model=HostOut, summary="Change a host's labels")
def update_host(host_id: IdPath, body: HostUpdate, db: DB, principal: WriteAccess) -> HostOut:
    """Labels let a run name a group of hosts (host_label) instead of each one."""
    host = service.get_host(db, principal.team_id, host_id)
    host.labels = sorted(set(body.labels))
    db.commit()
    return service.describe_hosts(db, [host])[0]


@router.post("/{host_id}/revoke", response_model=HostOut, summary="Revoke a host (owners)")
def revoke_host(host_id: IdPath, db: DB, principal: OwnerAccess) -> HostOut:
    """Its credential and broker user stop working at once; its queued and running work fails.

    The host and its results stay. To bring the machine back, an owner creates an enrollment
    token that replaces it.
    """
    host = service.get_host(db, principal.team_id, host_id)
    service.revoke_host(db, principal, host)
    runs_service.fail_host_assignments(db, host.id, f"host '{host.name}' was revoked")
    db.commit()
    try:
        broker_access.remove_broker_user(host.id)
    except Exception as exc:
        raise BrokerUnavailable(
            f"host '{host.name}' is revoked, but its broker user could not be removed ({exc}): retry"
        ) from exc
    return service.describe_hosts(db, [host])[0]


@router.post(
    "/{host_id}/rotate-credential", response_model=HostCredential, summary="Give a host a new token (owners)"
)
def rotate_credential(host_id: IdPath, db: DB, principal: OwnerAccess) -> HostCredential:
    """A new worker token, shown once; the old token stops working at once (401), and so does the
    old broker password for any new connection. A run in progress goes on; its result waits on the
    host until the worker is restarted with the new token (put it in the worker's token file).
    """
    host = service.get_host(db, principal.team_id, host_id)
    token = service.rotate_host_credential(db, principal, host)
    db.commit()
    try:
        broker_access.ensure_broker_user(host)
    except Exception as exc:
        raise BrokerUnavailable(
            f"host '{host.name}' has a new token, but its broker login could not be updated ({exc}): "
            "retry to rotate again"
        ) from exc
    return HostCredential(host_id=host.id, worker_token=token)
