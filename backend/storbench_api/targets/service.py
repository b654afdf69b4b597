"""Storage targets on the team's hosts."""

from sqlalchemy.orm import Session

from storbench_api.auth.service import Principal
from storbench_api.errors import Conflict, Invalid, NotFound
from storbench_api.hosts import repository as hosts_repository
from storbench_api.models import Target, TargetKind
from storbench_api.targets import repository
from storbench_api.targets.schemas import TargetCreate, TargetOut, TargetUpdate


def create_target(db: Session, team_id: int, body: TargetCreate) -> Target:
    """A new target on one of the team's hosts."""
    host = hosts_repository.get_host(db, team_id, body.host_id)
    if host is None:
        raise Invalid(
            f"host {body.host_id} does not exist in this team",
            [{"field": "host_id", "value": str(body.host_id), "reason": "unknown host"}],
        )
    if repository.target_by_name(db, team_id, body.name) is not None:
        raise Conflict(f"a target named '{body.name}' already exists in this team")
    if body.kind == TargetKind.block_device and not body.path.startswith("/dev/"):
        raise Invalid(
            "a block device target's path must be a device under /dev",
            [{"field": "path", "value": body.path, "reason": "expected a path under /dev/"}],
        )
    target = Target(
        team_id=team_id,
        host_id=host.id,
        name=body.name,
        path=body.path,
        kind=body.kind,
        storage_class=body.storage_class,
        description=body.description,
        destructive=False,
    )
    target.host = host
    db.add(target)
    db.flush()
    return target


def update_target(db: Session, principal: Principal, target_id: int, body: TargetUpdate) -> Target:
    """Apply the fields given; destructive only by an owner and only on block devices."""
    target = get_target(db, principal.team_id, target_id)
    given = body.model_dump(exclude_unset=True)
    if "destructive" in given:
        principal.require_owner()
        if body.destructive and target.kind != TargetKind.block_device:
            raise Invalid(
                "only block device targets can be marked destructive",
                [{"field": "destructive", "reason": f"target '{target.name}' is a directory"}],
            )
        target.destructive = bool(body.destructive)
    if "storage_class" in given:
        target.storage_class = body.storage_class
    if "description" in given:
        target.description = body.description
    db.flush()
    return target


def get_target(db: Session, team_id: int, target_id: int) -> Target:
    """The team's target, or 404."""
    target = repository.get_target(db, team_id, target_id)
    if target is None:
        raise NotFound(f"target {target_id} not found")
    return target


def describe(target: Target) -> TargetOut:
    """A target as the API shows it."""
    return TargetOut(
        id=target.id,
        name=target.name,
        host_id=target.host_id,
        host_name=target.host.name,
        path=target.path,
        kind=target.kind,
        storage_class=target.storage_class,
        description=target.description,
        destructive=target.destructive,
        created_at=target.created_at,
    )
