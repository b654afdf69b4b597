"""Host endpoints."""

from fastapi import APIRouter, Query, status

from storbench_api.audit import service as audit
from storbench_api.deps import DB, ReadAccess, WriteAccess
from storbench_api.hosts import repository, service
from storbench_api.hosts.schemas import HostCreate, HostCreated, HostList, HostOut, HostUpdate
from storbench_api.ids import IdPath

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
