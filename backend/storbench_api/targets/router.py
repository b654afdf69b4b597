"""Storage target endpoints."""

from typing import Annotated

from fastapi import APIRouter, status

from storbench_api.deps import DB, ReadAccess, WriteAccess
from storbench_api.errors import Conflict
from storbench_api.ids import IdPath, OptionalIdQuery
from storbench_api.openapi import errors, rules_beyond_schema
from storbench_api.pagination import Page, page_params
from storbench_api.targets import service
from storbench_api.targets.schemas import TargetCreate, TargetList, TargetOut, TargetUpdate

router = APIRouter(prefix="/targets", tags=["targets"])


@router.get("", response_model=TargetList, summary="List the team's storage targets")
def list_targets(
    db: DB, principal: ReadAccess, page: Annotated[Page, page_params()], host_id: OptionalIdQuery = None
) -> TargetList:
    """Targets with their host names."""
    targets, total = service.list_targets(db, principal.team_id, page.limit, page.offset, host_id)
    return TargetList(items=[service.describe(t) for t in targets], total=total)


@router.post(
    "",
    response_model=TargetOut,
    status_code=status.HTTP_201_CREATED,
    summary="Create a target",
    responses=errors(Conflict),
    openapi_extra=rules_beyond_schema(
        "host_id must be a host of your team; the path must be inside what that host's worker allows "
        "(--allow) and outside system directories, and a block device must be one the host lists as free"
    ),
)
def create_target(body: TargetCreate, db: DB, principal: WriteAccess) -> TargetOut:
    """A directory or block device on one of the team's hosts."""
    target = service.create_target(db, principal, body)
    db.commit()
    return service.describe(target)


@router.get("/{target_id}", response_model=TargetOut, summary="One target")
def get_target(target_id: IdPath, db: DB, principal: ReadAccess) -> TargetOut:
    """A target with its host."""
    return service.describe(service.get_target(db, principal.team_id, target_id))


@router.patch(
    "/{target_id}",
    response_model=TargetOut,
    summary="Change a target",
    openapi_extra=rules_beyond_schema("only a block device target can be marked destructive"),
)
def update_target(target_id: IdPath, body: TargetUpdate, db: DB, principal: WriteAccess) -> TargetOut:
    """Labels for comparison; `destructive` (owners only) allows writes to a block device."""
    target = service.update_target(db, principal, target_id, body)
    db.commit()
    return service.describe(target)
