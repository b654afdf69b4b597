"""Test plans: save, edit (a new version), duplicate, delete; runs keep the version they ran."""

from collections.abc import Sequence
from typing import Any

from sqlalchemy.orm import Session

from storbench_api.audit import service as audit
from storbench_api.auth.service import Principal
from storbench_api.errors import Conflict, Invalid, NotFound
from storbench_api.fio_tools.schemas import jobs_in, jobs_out
from storbench_api.fio_tools.service import normalise_jobs
from storbench_api.models import Plan, PlanVersion
from storbench_api.plans import repository
from storbench_api.plans.schemas import (
    PlanCreate,
    PlanDuplicate,
    PlanOut,
    PlanSweep,
    PlanUpdate,
    PlanVersionList,
    PlanVersionOut,
)
from storbench_api.runs.sweep import point_jobs, sweep_points, sweep_problems


def create_plan(db: Session, principal: Principal, body: PlanCreate) -> Plan:
    """A new plan (version 1) whose jobs fio would accept."""
    name = _free_name(db, principal.team_id, body.name)
    plan_jobs = normalise_jobs(jobs_in(body.jobs))
    plan = Plan(
        team_id=principal.team_id,
        name=name,
        description=body.description,
        jobs=plan_jobs,
        preset_id=body.preset_id,
        shared_files=body.shared_files,
        sweep=_checked_sweep(body.sweep, plan_jobs),
        precondition=body.precondition,
        version=1,
    )
    db.add(plan)
    db.flush()
    _add_version(db, plan, principal.actor)
    audit.record(
        db,
        team_id=principal.team_id,
        actor=principal.actor,
        action="plan.created",
        resource_type="plan",
        resource_id=plan.id,
        name=plan.name,
        version=1,
    )
    return plan


def update_plan(db: Session, principal: Principal, plan_id: int, body: PlanUpdate) -> Plan:
    """Rename or describe a plan; new jobs or shared_files make a new version."""
    plan = repository.get_plan(db, principal.team_id, plan_id, for_update=True)
    if plan is None:
        raise NotFound(f"plan {plan_id} not found")
    given = body.model_fields_set
    if body.name is not None and body.name.strip() != plan.name:
        plan.name = _free_name(db, principal.team_id, body.name)
    if "description" in given:
        plan.description = body.description
    new_jobs = normalise_jobs(jobs_in(body.jobs)) if body.jobs is not None else plan.jobs
    new_shared = body.shared_files if body.shared_files is not None else plan.shared_files
    if "sweep" in given or (body.jobs is not None and plan.sweep):
        sweep = body.sweep if "sweep" in given else PlanSweep.model_validate(plan.sweep)
        plan.sweep = _checked_sweep(sweep, new_jobs)
    if body.precondition is not None:
        plan.precondition = body.precondition
    if new_jobs != plan.jobs or new_shared != plan.shared_files:
        plan.jobs = new_jobs
        plan.shared_files = new_shared
        plan.version += 1
        db.flush()
        _add_version(db, plan, principal.actor)
    db.flush()
    audit.record(
        db,
        team_id=principal.team_id,
        actor=principal.actor,
        action="plan.updated",
        resource_type="plan",
        resource_id=plan.id,
        name=plan.name,
        version=plan.version,
    )
    return plan


def duplicate_plan(db: Session, principal: Principal, plan_id: int, body: PlanDuplicate) -> Plan:
    """A new plan (version 1) with the current jobs of another."""
    source = get_plan(db, principal.team_id, plan_id)
    name = body.name.strip() if body.name else _copy_name(db, principal.team_id, source.name)
    plan = Plan(
        team_id=principal.team_id,
        name=_free_name(db, principal.team_id, name),
        description=source.description,
        jobs=list(source.jobs),
        preset_id=source.preset_id,
        shared_files=source.shared_files,
        sweep=source.sweep,
        precondition=source.precondition,
        version=1,
    )
    db.add(plan)
    db.flush()
    _add_version(db, plan, principal.actor)
    audit.record(
        db,
        team_id=principal.team_id,
        actor=principal.actor,
        action="plan.duplicated",
        resource_type="plan",
        resource_id=plan.id,
        name=plan.name,
        plan=source.name,
        version=source.version,
    )
    return plan


def delete_plan(db: Session, principal: Principal, plan_id: int) -> None:
    """Remove a plan and its versions; its runs and results stay (they keep its name and jobs).

    A plan that schedules run is not deleted under them: the schedules would go with it.
    """
    plan = get_plan(db, principal.team_id, plan_id)
    schedules = repository.schedules_running(db, plan.id)
    if schedules:
        names = ", ".join(f"'{s.name}' (id {s.id})" for s in schedules)
        raise Conflict(
            f"plan '{plan.name}' is run by {len(schedules)} schedule(s): {names}; "
            "delete those schedules or point them at another plan first",
            [
                {"field": "schedule_id", "value": str(s.id), "reason": f"runs this plan ({s.name})"}
                for s in schedules
            ],
        )
    audit.record(
        db,
        team_id=principal.team_id,
        actor=principal.actor,
        action="plan.deleted",
        resource_type="plan",
        resource_id=plan.id,
        name=plan.name,
        version=plan.version,
    )
    db.delete(plan)
    db.flush()


def list_plans(db: Session, team_id: int, limit: int, offset: int) -> tuple[Sequence[Plan], int]:
    """A page of the team's plans, newest first, and the total count."""
    return repository.list_plans(db, team_id, limit, offset)


def get_plan(db: Session, team_id: int, plan_id: int) -> Plan:
    """The team's plan, or 404."""
    plan = repository.get_plan(db, team_id, plan_id)
    if plan is None:
        raise NotFound(f"plan {plan_id} not found")
    return plan


def plan_versions(db: Session, team_id: int, plan_id: int) -> PlanVersionList:
    """Every version of the team's plan, newest first, with how many runs each has."""
    plan = get_plan(db, team_id, plan_id)
    runs = repository.runs_per_version(db, plan.id)
    items = [
        PlanVersionOut(
            version=v.version,
            jobs=jobs_out(v.jobs),
            shared_files=v.shared_files,
            description=v.description,
            created_by=v.created_by,
            created_at=v.created_at,
            runs=runs.get(v.version, 0),
        )
        for v in repository.plan_versions(db, plan.id)
    ]
    return PlanVersionList(items=items, total=len(items))


def describe(plan: Plan) -> PlanOut:
    """A plan as the API shows it."""
    return PlanOut(
        id=plan.id,
        name=plan.name,
        description=plan.description,
        jobs=jobs_out(plan.jobs),
        preset_id=plan.preset_id,
        shared_files=plan.shared_files,
        sweep=PlanSweep.model_validate(plan.sweep) if plan.sweep else None,
        precondition=plan.precondition,
        version=plan.version,
        created_at=plan.created_at,
        updated_at=plan.updated_at,
    )


def _add_version(db: Session, plan: Plan, actor: str) -> None:
    db.add(
        PlanVersion(
            plan_id=plan.id,
            version=plan.version,
            jobs=plan.jobs,
            shared_files=plan.shared_files,
            description=plan.description,
            created_by=actor,
        )
    )


def _free_name(db: Session, team_id: int, name: str) -> str:
    """The name, stripped, if no other plan of the team has it; else 409."""
    name = name.strip()
    if repository.plan_by_name(db, team_id, name) is not None:
        raise Conflict(f"a plan named '{name}' already exists in this team")
    return name


def _copy_name(db: Session, team_id: int, name: str) -> str:
    """'<name> (copy)', or '<name> (copy 2)' … when taken, within the 120 characters a name may have."""
    base = f"{name[:110]} (copy"
    taken = repository.names_like(db, team_id, base)
    candidate, n = f"{base})", 1
    while candidate in taken:
        n += 1
        candidate = f"{base} {n})"
    return candidate


def _checked_sweep(sweep: PlanSweep | None, jobs: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The sweep as the plan keeps it, refused (naming the field) when its runs could not sweep it."""
    if sweep is None:
        return None
    try:
        for problem in sweep_problems(sweep.axes):
            raise problem
        for point in sweep_points(sweep.axes):
            point_jobs(jobs, point)
    except Invalid as exc:
        # A run names its sweep's fields sweep.N…; a plan keeps them under sweep.axes.N…
        raise Invalid(
            exc.message,
            [
                {**error, "field": str(error.get("field", "sweep")).replace("sweep", "sweep.axes", 1)}
                for error in exc.errors
            ],
        ) from exc
    return sweep.model_dump(mode="json", by_alias=True, exclude_none=True)
