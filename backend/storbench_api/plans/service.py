"""Test plans."""

from collections.abc import Sequence

from sqlalchemy.orm import Session

from storbench_api.errors import Conflict, NotFound
from storbench_api.fio_tools.schemas import jobs_in, jobs_out
from storbench_api.fio_tools.service import normalise_jobs
from storbench_api.models import Plan
from storbench_api.plans import repository
from storbench_api.plans.schemas import PlanCreate, PlanOut


def create_plan(db: Session, team_id: int, body: PlanCreate) -> Plan:
    """A new plan whose jobs fio would accept."""
    name = body.name.strip()
    if repository.plan_by_name(db, team_id, name) is not None:
        raise Conflict(f"a plan named '{name}' already exists in this team")
    plan = Plan(
        team_id=team_id,
        name=name,
        description=body.description,
        jobs=normalise_jobs(jobs_in(body.jobs)),
        preset_id=body.preset_id,
        shared_files=body.shared_files,
    )
    db.add(plan)
    db.flush()
    return plan


def list_plans(db: Session, team_id: int, limit: int, offset: int) -> tuple[Sequence[Plan], int]:
    """A page of the team's plans, newest first, and the total count."""
    return repository.list_plans(db, team_id, limit, offset)


def get_plan(db: Session, team_id: int, plan_id: int) -> Plan:
    """The team's plan, or 404."""
    plan = repository.get_plan(db, team_id, plan_id)
    if plan is None:
        raise NotFound(f"plan {plan_id} not found")
    return plan


def describe(plan: Plan) -> PlanOut:
    """A plan as the API shows it."""
    return PlanOut(
        id=plan.id,
        name=plan.name,
        description=plan.description,
        jobs=jobs_out(plan.jobs),
        preset_id=plan.preset_id,
        shared_files=plan.shared_files,
        created_at=plan.created_at,
    )
