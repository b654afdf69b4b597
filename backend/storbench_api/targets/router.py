"""Storage target endpoints."""

from fastapi import APIRouter, Query, status

from storbench_api.audit import service as audit
from storbench_api.deps import DB, ReadAccess, WriteAccess
from storbench_api.ids import IdPath, OptionalIdQuery
from storbench_api.targets import repository, service
from storbench_api.targets.schemas import TargetCreate, TargetList, TargetOut, TargetUpdate

router = APIRouter(prefix="/targets", tags=["targets"])


@router.get("", response_model=TargetList, summary="List the team's storage targets")
def list_targets(
    db: DB,
    principal: ReadAccess,
    host_id: OptionalIdQuery = None,
    limit: int = Query(100, ge=1, le=500),
    offset: int = Query(0, ge=0),
) -> TargetList:
    """Targets with their host names."""
    targets, total = repository.list_targets(db, principal.team_id, limit, offset, host_id)
    return TargetList(items=[service.describe(t) for t in targets], total=total)


@router.post("", response_model=TargetOut, status_code=status.HTTP_201_CREATED, summary="Create a target")
def create_target(body: TargetCreate, db: DB, principal: WriteAccess) -> TargetOut:
    """A directory or block device on one of the team's hosts."""
    target = service.create_target(db, principal.team_id, body)
    audit.record(
        db,
        team_id=principal.team_id,
        actor=principal.actor,
        action="target.created",
        resource_type="target",
        resource_id=target.id,
        hosts=[target.host.name],
        path=target.path,
        kind=target.kind.value,
    )
    db.commit()
    return service.describe(target)


@router.get("/{target_id}", response_model=TargetOut, summary="One target")
def get_target(target_id: IdPath, db: DB, principal: ReadAccess) -> TargetOut:
    """A target with its host."""
    return service.describe(service.get_target(db, principal.team_id, target_id))


@router.patch("/{target_id}", response_model=TargetOut, summary="Change a target")
def update_target(target_id: IdPath, body: TargetUpdate, db: DB, principal: WriteAccess) -> TargetOut:
    """Labels for comparison; `destructive` (owners only) allows writes to a block device."""
    target = service.update_target(db, principal, target_id, body)
    audit.record(
        db,
        team_id=principal.team_id,
        actor=principal.actor,
        action="target.changed",
        resource_type="target",
        resource_id=target.id,
        hosts=[target.host.name],
        **body.model_dump(exclude_unset=True),
    )
    db.commit()
    return service.describe(target)
