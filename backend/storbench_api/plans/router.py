"""Plan endpoints."""

from fastapi import APIRouter, Query, status

from storbench_api.deps import DB, ReadAccess, WriteAccess
from storbench_api.ids import IdPath
from storbench_api.plans import repository, service
from storbench_api.plans.schemas import PlanCreate, PlanList, PlanOut

router = APIRouter(prefix="/plans", tags=["plans"])


@router.get("", response_model=PlanList, summary="List the team's plans")
def list_plans(
    db: DB,
    principal: ReadAccess,
    limit: int = Query(100, ge=1, le=500),
    offset: int = Query(0, ge=0),
) -> PlanList:
    """Saved plans, newest first."""
    plans, total = repository.list_plans(db, principal.team_id, limit, offset)
    return PlanList(items=[service.describe(p) for p in plans], total=total)


@router.post("", response_model=PlanOut, status_code=status.HTTP_201_CREATED, summary="Save a plan")
def create_plan(body: PlanCreate, db: DB, principal: WriteAccess) -> PlanOut:
    """Validate the jobs with fio's rules and save them under a name."""
    plan = service.create_plan(db, principal.team_id, body)
    db.commit()
    return service.describe(plan)


@router.get("/{plan_id}", response_model=PlanOut, summary="One plan")
def get_plan(plan_id: IdPath, db: DB, principal: ReadAccess) -> PlanOut:
    """A saved plan."""
    return service.describe(service.get_plan(db, principal.team_id, plan_id))
