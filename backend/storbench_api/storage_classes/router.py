"""Storage class endpoints: the catalogue, teams' own classes and what a spec promises."""

from typing import Annotated

from fastapi import APIRouter, Query, status

from storbench_api.deps import DB, ReadAccess, WriteAccess
from storbench_api.errors import Conflict
from storbench_api.ids import IdPath
from storbench_api.openapi import errors, rules_beyond_schema
from storbench_api.pagination import Page, page_params
from storbench_api.storage_classes import service
from storbench_api.storage_classes.expected import Provisioned
from storbench_api.storage_classes.schemas import (
    ExpectedSpec,
    SpecVersionList,
    StorageClassCreate,
    StorageClassList,
    StorageClassOut,
    StorageClassUpdate,
)

router = APIRouter(prefix="/storage-classes", tags=["storage classes"])

Figure = Annotated[float | None, Query(ge=0, le=1e9)]
# What a spec must satisfy beyond its schema (its 422s name the field).
SPEC_RULES = (
    "each formula must be one the spec's grammar reads (storage_classes/formula.py), min_capacity_gib "
    "at most max_capacity_gib, and one expectation per metric and workload"
)


@router.get("", response_model=StorageClassList, summary="The storage class catalogue")
def list_classes(db: DB, principal: ReadAccess, page: Annotated[Page, page_params()]) -> StorageClassList:
    """Published classes (cloud disks, NAS types, file-system tiers, drives) and the team's own."""
    rows, total = service.list_classes(db, principal.team_id, page)
    return StorageClassList(items=[service.describe(c) for c in rows], total=total)


@router.post(
    "",
    response_model=StorageClassOut,
    status_code=status.HTTP_201_CREATED,
    summary="Add a class",
    responses=errors(Conflict),
    openapi_extra=rules_beyond_schema(SPEC_RULES),
)
def create_class(body: StorageClassCreate, db: DB, principal: WriteAccess) -> StorageClassOut:
    """A team's own class with its spec (version 1)."""
    storage_class = service.create_class(db, principal.team_id, principal.actor, body)
    db.commit()
    return service.describe(service.get_class(db, principal.team_id, storage_class.id))


@router.get("/{class_id}", response_model=StorageClassOut, summary="One storage class")
def get_class(class_id: IdPath, db: DB, principal: ReadAccess) -> StorageClassOut:
    """A class with its current spec."""
    return service.describe(service.get_class(db, principal.team_id, class_id))


@router.patch(
    "/{class_id}",
    response_model=StorageClassOut,
    summary="Change a team's class",
    responses=errors(Conflict),
    openapi_extra=rules_beyond_schema(SPEC_RULES),
)
def update_class(
    class_id: IdPath, body: StorageClassUpdate, db: DB, principal: WriteAccess
) -> StorageClassOut:
    """Rename or re-describe it; a new spec becomes the next version, results keep theirs."""
    storage_class = service.update_class(db, principal.team_id, principal.actor, class_id, body)
    db.commit()
    return service.describe(storage_class)


@router.get("/{class_id}/versions", response_model=SpecVersionList, summary="Every version of a spec")
def list_versions(class_id: IdPath, db: DB, principal: ReadAccess) -> SpecVersionList:
    """The class's spec versions, oldest first."""
    specs = service.get_class(db, principal.team_id, class_id).specs
    return SpecVersionList(items=[service.spec_out(s) for s in specs], total=len(specs))


@router.get("/{class_id}/spec", response_model=ExpectedSpec, summary="What the spec promises")
def expected_spec(
    class_id: IdPath,
    db: DB,
    principal: ReadAccess,
    capacity_gib: Figure = None,
    provisioned_iops: Figure = None,
    provisioned_mbps: Figure = None,
    version: Annotated[int | None, Query(ge=1, le=2**31 - 1)] = None,
) -> ExpectedSpec:
    """Expected IOPS, throughput (MB/s as vendors publish it) and latency at a capacity, formulas shown."""
    storage_class = service.get_class(db, principal.team_id, class_id)
    provisioned = Provisioned(capacity_gib=capacity_gib, iops=provisioned_iops, mbps=provisioned_mbps)
    return service.expected(service.find_spec(storage_class, version), provisioned)
