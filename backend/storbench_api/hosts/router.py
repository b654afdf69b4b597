"""Host endpoints."""

from collections.abc import Callable
from typing import Annotated

from fastapi import APIRouter, Response, status
from sqlalchemy.orm import Session

from storbench_api.deps import DB, OwnerAccess, ReadAccess, WriteAccess
from storbench_api.errors import BrokerUnavailable, Conflict
from storbench_api.hosts import service
from storbench_api.hosts.schemas import (
    HostCreate,
    HostCreated,
    HostCredential,
    HostList,
    HostOut,
    HostUpdate,
)
from storbench_api.ids import IdPath
from storbench_api.models import Host
from storbench_api.openapi import errors
from storbench_api.pagination import Page, page_params
from storbench_api.runs import lifecycle as runs_lifecycle

router = APIRouter(prefix="/hosts", tags=["hosts"])


def _commit_after(db: Session, change_broker_user: Callable[[Host], None], host: Host) -> None:
    """Change the host's broker user while its row is still locked, then commit.

    Committing releases the lock a heartbeat waits on; by then the broker has the new state, so the
    heartbeat finds the old credential gone (401) instead of putting its broker login back. The
    credential change is committed even when the broker is down (the API refuses the old token at
    once); the 503 then says what to retry.
    """
    try:
        change_broker_user(host)
    finally:
        db.commit()


@router.get("", response_model=HostList, summary="List the team's hosts")
def list_hosts(db: DB, principal: ReadAccess, page: Annotated[Page, page_params()]) -> HostList:
    """Hosts with live status (online, busy, offline)."""
    hosts, total = service.list_hosts(db, principal.team_id, page.limit, page.offset)
    return HostList(items=service.describe_hosts(db, hosts), total=total)


@router.post(
    "",
    response_model=HostCreated,
    status_code=status.HTTP_201_CREATED,
    summary="Register a host",
    responses=errors(Conflict),
)
def create_host(body: HostCreate, db: DB, principal: WriteAccess) -> HostCreated:
    """Register a host; the response carries its worker token, shown only once."""
    host, token = service.create_host(db, principal, body.name)
    db.commit()
    described = service.describe_hosts(db, [host])[0]
    return HostCreated(**described.model_dump(), worker_token=token)


@router.get("/{host_id}", response_model=HostOut, summary="One host")
def get_host(host_id: IdPath, db: DB, principal: ReadAccess) -> HostOut:
    """A host with its facts and status."""
    host = service.get_host(db, principal.team_id, host_id)
    return service.describe_hosts(db, [host])[0]


@router.patch(
    "/{host_id}",
    response_model=HostOut,
    summary="Rename a host or change its labels",
    responses=errors(Conflict),
)
def update_host(host_id: IdPath, body: HostUpdate, db: DB, principal: WriteAccess) -> HostOut:
    """A new name (409 if another host of the team has it; restart its worker with the new --name)
    and labels, which let a run name a group of hosts (host_label) instead of each one."""
    host = service.update_host(db, principal, host_id, body.name, body.labels)
    db.commit()
    return service.describe_hosts(db, [host])[0]


@router.post(
    "/{host_id}/remove",
    status_code=status.HTTP_204_NO_CONTENT,
    summary="Remove a host, keeping its history (owners)",
    responses=errors(BrokerUnavailable),
)
def remove_host(host_id: IdPath, db: DB, principal: OwnerAccess) -> Response:
    """The host leaves every list and picker; its credential and broker user stop at once and its
    queued and running work fails. Its runs and results stay; its name is free for a new host."""
    host = service.remove_host(db, principal, host_id)
    runs_lifecycle.fail_host_assignments(db, host.id, f"host '{host.name}' was removed")
    _commit_after(db, service.remove_broker_user, host)
    return Response(status_code=status.HTTP_204_NO_CONTENT)


@router.delete(
    "/{host_id}",
    status_code=status.HTTP_204_NO_CONTENT,
    summary="Delete a host that never connected (owners)",
    responses=errors(Conflict),
)
def delete_host(host_id: IdPath, db: DB, principal: OwnerAccess) -> Response:
    """Only for a host whose worker never connected and that has no runs or results (a typo, a
    machine that never came): it goes with its targets. Any other host is removed instead (409)."""
    host = service.delete_host(db, principal, host_id)
    _commit_after(db, service.forget_broker_user, host)
    return Response(status_code=status.HTTP_204_NO_CONTENT)


@router.post(
    "/{host_id}/revoke",
    response_model=HostOut,
    summary="Revoke a host (owners)",
    responses=errors(BrokerUnavailable),
)
def revoke_host(host_id: IdPath, db: DB, principal: OwnerAccess) -> HostOut:
    """Its credential and broker user stop working at once; its queued and running work fails.

    The host and its results stay. To bring the machine back, an owner creates an enrollment
    token that replaces it.
    """
    host = service.revoke_host(db, principal, host_id)
    runs_lifecycle.fail_host_assignments(db, host.id, f"host '{host.name}' was revoked")
    _commit_after(db, service.remove_broker_user, host)
    return service.describe_hosts(db, [host])[0]


@router.post(
    "/{host_id}/rotate-credential",
    response_model=HostCredential,
    summary="Give a host a new token (owners)",
    responses=errors(Conflict, BrokerUnavailable),
)
def rotate_credential(host_id: IdPath, db: DB, principal: OwnerAccess) -> HostCredential:
    """A new worker token, shown once; the old token stops working at once (401), and so does the
    old broker password for any new connection. A run in progress goes on; its result waits on the
    host until the worker is restarted with the new token (put it in the worker's token file).
    """
    host, token = service.rotate_host_credential(db, principal, host_id)
    _commit_after(db, service.refresh_broker_user, host)
    return HostCredential(host_id=host.id, worker_token=token)
