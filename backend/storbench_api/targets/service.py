"""Storage targets on the team's hosts."""

from collections.abc import Sequence
from typing import Literal

from sqlalchemy.orm import Session

from storbench_api.audit import service as audit
from storbench_api.auth.service import Principal
from storbench_api.errors import Conflict, Invalid, NotFound
from storbench_api.hosts import repository as hosts_repository
from storbench_api.models import Host, Target, TargetKind
from storbench_api.storage_classes import repository as storage_classes_repository
from storbench_api.targets import repository
from storbench_api.targets.directory import REFUSED, directory_check
from storbench_api.targets.schemas import TargetCreate, TargetOut, TargetUpdate
from storbench_fio.confine import target_path_problem


def list_targets(
    db: Session, team_id: int, limit: int, offset: int, host_id: int | None = None
) -> tuple[Sequence[Target], int]:
    """A page of the team's targets by name (on one host, if given), and the total count."""
    return repository.list_targets(db, team_id, limit, offset, host_id)


def create_target(db: Session, principal: Principal, body: TargetCreate) -> Target:
    """A new target on one of the team's hosts."""
    team_id = principal.team_id
    host = hosts_repository.get_host(db, team_id, body.host_id)
    if host is None:
        raise Invalid(
            f"host {body.host_id} does not exist in this team",
            [{"field": "host_id", "value": str(body.host_id), "reason": "unknown host"}],
        )
    if repository.target_by_name(db, team_id, body.name) is not None:
        raise Conflict(f"a target named '{body.name}' already exists in this team")
    ensure_placeable(host, body.kind, body.path, roots_must_be_known=False)
    class_name = _class_name(db, team_id, body.storage_class_id)
    target = Target(
        team_id=team_id,
        host_id=host.id,
        name=body.name,
        path=body.path,
        kind=body.kind,
        storage_class=body.storage_class or class_name,
        storage_class_id=body.storage_class_id,
        capacity_gib=body.capacity_gib,
        provisioned_iops=body.provisioned_iops,
        provisioned_mbps=body.provisioned_mbps,
        description=body.description,
        destructive=False,
    )
    target.host = host
    db.add(target)
    db.flush()
    audit.record(
        db,
        team_id=team_id,
        actor=principal.actor,
        action="target.created",
        resource_type="target",
        resource_id=target.id,
        hosts=[host.name],
        path=target.path,
        kind=target.kind.value,
    )
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
    if "storage_class_id" in given:
        class_name = _class_name(db, principal.team_id, body.storage_class_id)
        target.storage_class_id = body.storage_class_id
        if "storage_class" not in given:
            target.storage_class = class_name
    for field in ("capacity_gib", "provisioned_iops", "provisioned_mbps"):
        if field in given:
            setattr(target, field, given[field])
    if "description" in given:
        target.description = body.description
    audit.record(
        db,
        team_id=principal.team_id,
        actor=principal.actor,
        action="target.changed",
        resource_type="target",
        resource_id=target.id,
        hosts=[target.host.name],
        **given,
    )
    db.flush()
    return target


def _class_name(db: Session, team_id: int, class_id: int | None) -> str | None:
    """The name of a storage class the team can see; Invalid naming the field otherwise."""
    if class_id is None:
        return None
    found = storage_classes_repository.get_class(db, team_id, class_id)
    if found is None:
        raise Invalid(
            f"storage class {class_id} does not exist (GET /api/v1/storage-classes lists them)",
            [{"field": "storage_class_id", "value": str(class_id), "reason": "unknown storage class"}],
        )
    return found.name


def ensure_placeable(host: Host, kind: TargetKind, path: str, *, roots_must_be_known: bool) -> None:
    """Invalid unless the host's worker allows this path (and, for a device, lists it as free).

    The roots are what the host's worker reported; before it first connects they are unknown and
    the target is checked again when a run starts (and by the worker itself). A directory its worker
    reported missing, not a directory or not writable is refused, saying what to do.
    """
    facts = host.facts or {}
    roots = facts.get("allowed_roots")
    if roots is None and roots_must_be_known:
        raise Invalid(
            f"host '{host.name}' has not reported the paths its worker allows: upgrade its worker "
            "(storbench-worker --allow ...)",
            [{"field": "target_id", "value": path, "reason": "allowed paths unknown"}],
        )
    kind_name: Literal["directory", "block_device"] = (
        "block_device" if kind == TargetKind.block_device else "directory"
    )
    problem = target_path_problem(path, kind_name, roots if isinstance(roots, list) else None)
    if problem is None and kind == TargetKind.block_device and isinstance(facts.get("block_devices"), list):
        listed = {d.get("path"): d for d in facts["block_devices"] if isinstance(d, dict)}
        device = listed.get(path)
        if device is None:
            known = ", ".join(sorted(str(p) for p in listed)) or "none"
            problem = f"host '{host.name}' has no block device {path} (it lists: {known})"
        elif device.get("in_use"):
            problem = f"{path} is not free to benchmark: {device['in_use']}"
    if problem is None and kind == TargetKind.directory:
        checked = directory_check(host, path)
        if checked.state in REFUSED:
            raise Invalid(checked.message, [{"field": "path", "value": path, "reason": checked.state.value}])
    if problem is not None:
        raise Invalid(
            f"target path {path} on host '{host.name}': {problem}",
            [{"field": "path", "value": path, "reason": problem}],
        )


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
        storage_class_id=target.storage_class_id,
        capacity_gib=target.capacity_gib,
        provisioned_iops=target.provisioned_iops,
        provisioned_mbps=target.provisioned_mbps,
        description=target.description,
        destructive=target.destructive,
        created_at=target.created_at,
        directory=directory_check(target.host, target.path) if target.kind == TargetKind.directory else None,
    )
