"""Storage classes: the catalogue, teams' own classes, spec versions and expected figures."""

from collections.abc import Sequence

from sqlalchemy.orm import Session

from storbench_api.audit import service as audit
from storbench_api.errors import Conflict, Forbidden, NotFound
from storbench_api.models.storage_class import StorageClass, StorageClassSpec
from storbench_api.pagination import Page
from storbench_api.storage_classes import repository
from storbench_api.storage_classes.expected import Provisioned, expected_figures, figure_for
from storbench_api.storage_classes.schemas import (
    ExpectedSpec,
    Metric,
    SpecIn,
    SpecOut,
    StorageClassCreate,
    StorageClassOut,
    StorageClassUpdate,
    Workload,
)
from storbench_api.teams import quotas


def list_classes(db: Session, team_id: int, page: Page) -> tuple[Sequence[StorageClass], int]:
    """A page of the published catalogue and the team's own classes, and how many there are."""
    return repository.page_of_classes(db, team_id, page)


def get_class(db: Session, team_id: int, class_id: int) -> StorageClass:
    """A class the team can see; NotFound otherwise."""
    found = repository.get_class(db, team_id, class_id)
    if found is None:
        raise NotFound(f"storage class {class_id} not found")
    return found


def current_spec(storage_class: StorageClass) -> StorageClassSpec:
    """The class's newest spec version."""
    return storage_class.specs[-1]


def _new_spec(storage_class: StorageClass, version: int, spec: SpecIn, actor: str) -> StorageClassSpec:
    return StorageClassSpec(
        storage_class=storage_class,
        version=version,
        expectations=[line.model_dump(mode="json", exclude_none=True) for line in spec.expectations],
        min_capacity_gib=spec.min_capacity_gib,
        max_capacity_gib=spec.max_capacity_gib,
        min_hosts=spec.min_hosts,
        price_per_gib_month=spec.price_per_gib_month,
        notes=spec.notes,
        created_by=actor,
    )


def create_class(db: Session, team_id: int, actor: str, body: StorageClassCreate) -> StorageClass:
    """A team's own class with version 1 of its spec."""
    if repository.class_by_name(db, team_id, body.name) is not None:
        raise Conflict(f"the team already has a storage class named '{body.name}'")
    quotas.ensure_room(db, team_id, quotas.STORAGE_CLASSES, StorageClass.team_id)
    storage_class = StorageClass(
        team_id=team_id,
        name=body.name,
        vendor=body.vendor,
        product=body.product,
        tier=body.tier,
        protocol=body.protocol,
        medium=body.medium,
        source=body.source,
        current_version=1,
    )
    db.add(storage_class)
    db.add(_new_spec(storage_class, 1, body.spec, actor))
    db.flush()
    audit.record(
        db,
        team_id=team_id,
        actor=actor,
        action="storage_class.created",
        resource_type="storage_class",
        resource_id=storage_class.id,
        name=storage_class.name,
        version=1,
    )
    return storage_class


def _editable(db: Session, team_id: int, class_id: int) -> StorageClass:
    storage_class = get_class(db, team_id, class_id)
    if storage_class.team_id is None:
        raise Forbidden("published classes cannot be changed: create the team's own class instead")
    return storage_class


def update_class(
    db: Session, team_id: int, actor: str, class_id: int, body: StorageClassUpdate
) -> StorageClass:
    """Rename or re-describe a team's class; a spec makes a new version, earlier ones stay."""
    storage_class = _editable(db, team_id, class_id)
    if body.name is not None and body.name != storage_class.name:
        if repository.class_by_name(db, team_id, body.name) is not None:
            raise Conflict(f"the team already has a storage class named '{body.name}'")
        storage_class.name = body.name
    for field in ("vendor", "product", "tier", "medium", "source"):
        value = getattr(body, field)
        if value is not None:
            setattr(storage_class, field, value)
    if body.spec is not None:
        storage_class.current_version += 1
        db.add(_new_spec(storage_class, storage_class.current_version, body.spec, actor))
    db.flush()
    audit.record(
        db,
        team_id=team_id,
        actor=actor,
        action="storage_class.updated",
        resource_type="storage_class",
        resource_id=storage_class.id,
        name=storage_class.name,
        version=storage_class.current_version,
    )
    db.refresh(storage_class, attribute_names=["specs"])
    return storage_class


def spec_out(spec: StorageClassSpec) -> SpecOut:
    """A spec version as the API returns it."""
    return SpecOut.model_validate(spec, from_attributes=True)


def describe(storage_class: StorageClass) -> StorageClassOut:
    """A class with its current spec."""
    return StorageClassOut(
        id=storage_class.id,
        name=storage_class.name,
        vendor=storage_class.vendor,
        product=storage_class.product,
        tier=storage_class.tier,
        protocol=storage_class.protocol,
        medium=storage_class.medium,
        source=storage_class.source,
        published=storage_class.team_id is None,
        version=storage_class.current_version,
        spec=spec_out(current_spec(storage_class)),
    )


def expected(spec: StorageClassSpec, provisioned: Provisioned) -> ExpectedSpec:
    """What a spec version promises at these provisioned figures."""
    figures, warnings = expected_figures(spec_out(spec), provisioned)
    return ExpectedSpec(
        storage_class_id=spec.storage_class_id,
        spec_id=spec.id,
        version=spec.version,
        capacity_gib=provisioned.capacity_gib,
        provisioned_iops=provisioned.iops,
        provisioned_mbps=provisioned.mbps,
        iops=figure_for(figures, Metric.iops, Workload.any),
        throughput=figure_for(figures, Metric.throughput, Workload.any),
        latency=figure_for(figures, Metric.latency, Workload.any),
        figures=figures,
        min_hosts=spec.min_hosts,
        warnings=warnings,
    )


def find_spec(storage_class: StorageClass, version: int | None) -> StorageClassSpec:
    """The class's spec at version (the current one when None)."""
    if version is None:
        return current_spec(storage_class)
    for spec in storage_class.specs:
        if spec.version == version:
            return spec
    raise NotFound(f"storage class {storage_class.id} has no spec version {version}")
