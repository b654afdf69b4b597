"""Runs as users ask for them: find, list, cancel, and their progress (starting is in start.py)."""

from sqlalchemy.orm import Session

from storbench_api.audit import service as audit
from storbench_api.auth.service import Principal
from storbench_api.errors import NotFound
from storbench_api.models import Run, RunStatus
from storbench_api.runs import lifecycle, presenters, repository
from storbench_api.runs.schemas import RunList, RunProgress, RunUpdate


def get_run(db: Session, team_id: int, run_id: int) -> Run:
    """The team's run, or 404."""
    run = repository.get_run(db, team_id, run_id)
    if run is None:
        raise NotFound(f"run {run_id} not found")
    return run


def list_runs(
    db: Session,
    team_id: int,
    limit: int,
    offset: int,
    status: RunStatus | None = None,
    target_id: int | None = None,
    label: str | None = None,
    plan_id: int | None = None,
) -> RunList:
    """A page of the team's runs, newest first, without their results (with their headline)."""
    runs, total = repository.list_runs(db, team_id, limit, offset, status, target_id, label, plan_id)
    return RunList(items=presenters.describe_runs(db, runs, with_results=False), total=total)


def cancel_run(db: Session, principal: Principal, run_id: int) -> Run:
    """Cancel a queued or running run; its workers stop fio when they next check."""
    run = repository.get_run(db, principal.team_id, run_id, for_update=True)
    if run is None:
        raise NotFound(f"run {run_id} not found")
    lifecycle.cancel(run, by=principal.email)
    audit.record(
        db,
        team_id=principal.team_id,
        actor=principal.actor,
        action="run.cancelled",
        resource_type="run",
        resource_id=run.id,
        hosts=[a.host.name for a in run.assignments],
    )
    db.flush()
    return run


def update_run(db: Session, principal: Principal, run_id: int, body: RunUpdate) -> Run:
    """Change a run's label or note, at any time."""
    run = get_run(db, principal.team_id, run_id)
    given = body.model_fields_set
    if "label" in given:
        run.label = body.label.strip() or None if body.label is not None else None
    if "note" in given:
        run.note = body.note
    audit.record(
        db,
        team_id=principal.team_id,
        actor=principal.actor,
        action="run.updated",
        resource_type="run",
        resource_id=run.id,
        label=run.label,
    )
    db.flush()
    return run


def run_progress(db: Session, team_id: int, run_id: int) -> RunProgress:
    """The team's run's stored per-second series, every host's."""
    return presenters.run_progress(db, get_run(db, team_id, run_id))


def fail_host_assignments(db: Session, host_id: int, reason: str) -> int:
    """Fail every unfinished assignment of a host (it was revoked): their runs fail saying why."""
    return lifecycle.fail_host_assignments(db, host_id, reason)
