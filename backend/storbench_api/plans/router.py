"""Plan endpoints."""

from typing import Annotated

from fastapi import APIRouter, Response, status

from storbench_api.deps import DB, ReadAccess, WriteAccess
from storbench_api.errors import Conflict
from storbench_api.fio_tools.schemas import FIO_JOB_RULES
from storbench_api.ids import IdPath
from storbench_api.openapi import errors, rules_beyond_schema
from storbench_api.pagination import Page, page_params
from storbench_api.plans import service
from storbench_api.plans.schemas import (
    PlanCreate,
    PlanDuplicate,
    PlanList,
    PlanOut,
    PlanUpdate,
    PlanVersionList,
)

router = APIRouter(prefix="/plans", tags=["plans"])


@router.get("", response_model=PlanList, summary="List the team's plans")
def list_plans(db: DB, principal: ReadAccess, page: Annotated[Page, page_params()]) -> PlanList:
    """Saved plans, newest first."""
    plans, total = service.list_plans(db, principal.team_id, page.limit, page.offset)
    return PlanList(items=[service.describe(p) for p in plans], total=total)


@router.post(
    "",
    response_model=PlanOut,
    status_code=status.HTTP_201_CREATED,
    summary="Save a plan",
    responses=errors(Conflict),
    openapi_extra=rules_beyond_schema(FIO_JOB_RULES),
)
def create_plan(body: PlanCreate, db: DB, principal: WriteAccess) -> PlanOut:
    """Validate the jobs with fio's rules and save them under a name."""
    plan = service.create_plan(db, principal, body)
    db.commit()
    return service.describe(plan)


@router.get("/{plan_id}", response_model=PlanOut, summary="One plan")
def get_plan(plan_id: IdPath, db: DB, principal: ReadAccess) -> PlanOut:
    """A saved plan (its current version)."""
    return service.describe(service.get_plan(db, principal.team_id, plan_id))


@router.patch(
    "/{plan_id}",
    response_model=PlanOut,
    summary="Edit a plan",
    responses=errors(Conflict),
    openapi_extra=rules_beyond_schema(FIO_JOB_RULES),
)
def update_plan(plan_id: IdPath, body: PlanUpdate, db: DB, principal: WriteAccess) -> PlanOut:
    """Rename or describe it; changed jobs or shared_files make a new version (runs keep theirs)."""
    plan = service.update_plan(db, principal, plan_id, body)
    db.commit()
    return service.describe(plan)


@router.delete("/{plan_id}", status_code=204, summary="Delete a plan", responses=errors(Conflict))
def delete_plan(plan_id: IdPath, db: DB, principal: WriteAccess) -> Response:
    """Remove the plan and its versions; its runs and their results stay, with the plan's name."""
    service.delete_plan(db, principal, plan_id)
    db.commit()
    return Response(status_code=204)


@router.post(
    "/{plan_id}/duplicate",
    response_model=PlanOut,
    status_code=status.HTTP_201_CREATED,
    summary="Duplicate a plan",
    responses=errors(Conflict),
)
def duplicate_plan(plan_id: IdPath, body: PlanDuplicate, db: DB, principal: WriteAccess) -> PlanOut:
    """A new plan with this one's current jobs, named '<name> (copy)' unless a name is given."""
    plan = service.duplicate_plan(db, principal, plan_id, body)
    db.commit()
    return service.describe(plan)


@router.get("/{plan_id}/versions", response_model=PlanVersionList, summary="Every version of a plan")
def plan_versions(plan_id: IdPath, db: DB, principal: ReadAccess) -> PlanVersionList:
    """Each version's jobs, newest first, with how many runs ran it."""
    return service.plan_versions(db, principal.team_id, plan_id)
