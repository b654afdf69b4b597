"""Capacity planner endpoints: size every class for a workload, save a candidate's verification plan."""

from fastapi import APIRouter, status

from storbench_api.deps import DB, ReadAccess, WriteAccess
from storbench_api.errors import Conflict, Invalid
from storbench_api.openapi import errors, rules_beyond_schema
from storbench_api.planner import service
from storbench_api.planner.schemas import PlannerAnswer, PlannerRequest, VerificationPlan, VerificationRequest

router = APIRouter(prefix="/planner", tags=["planner"])

PLANNER_RULES = (
    "each demand's bs must be a block size in fio's units between 512 bytes and 64 MiB, and every "
    "class named (include_classes, exclude_classes, storage_class_id) one of the catalogue or the team's own"
)


@router.post(
    "",
    response_model=PlannerAnswer,
    summary="Size every class for a workload",
    responses=errors(Invalid),
    openapi_extra=rules_beyond_schema(PLANNER_RULES),
)
def plan_capacity(body: PlannerRequest, db: DB, principal: ReadAccess) -> PlannerAnswer:
    """For each class: can it carry the workload, the smallest capacity, hosts, monthly cost, the
    team's measured-to-spec ratios, and why not; feasible first, by cost then headroom."""
    return service.plan_capacity(db, principal.team_id, body)


@router.post(
    "/verification-plans",
    response_model=VerificationPlan,
    status_code=status.HTTP_201_CREATED,
    summary="Save a candidate's verification plan",
    responses=errors(Invalid, Conflict),
    openapi_extra=rules_beyond_schema(PLANNER_RULES),
)
def create_verification_plan(body: VerificationRequest, db: DB, principal: WriteAccess) -> VerificationPlan:
    """The published recipes for the class and the demanded shapes, saved as a plan to run on a
    target of that class at the proposed capacity."""
    created = service.create_verification_plan(db, principal, body)
    db.commit()
    return created
