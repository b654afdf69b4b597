"""Plan endpoints."""

from typing import Annotated

from fastapi import APIRouter, status

from storbench_api.deps import DB, ReadAccess, WriteAccess
from storbench_api.errors import Conflict
from storbench_api.fio_tools.schemas import FIO_JOB_RULES
from storbench_api.ids import IdPath
from storbench_api.openapi import errors, rules_beyond_schema
from storbench_api.pagination import Page, page_params
from storbench_api.plans import service
from storbench_api.plans.schemas import PlanCreate, PlanList, PlanOut

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
    plan = service.create_plan(db, principal.team_id, body)
    db.commit()
    return service.describe(plan)


@router.get("/{plan_id}", response_model=PlanOut, summary="One plan")
def get_plan(plan_id: IdPath, db: DB, principal: ReadAccess) -> PlanOut:
    """A saved plan."""
    return service.describe(service.get_plan(db, principal.team_id, plan_id))
