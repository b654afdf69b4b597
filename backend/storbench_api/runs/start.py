"""Starting a run: its plan (refused with the plan's first problem), then one queued assignment per host."""

from sqlalchemy.orm import Session

from storbench_api.audit import service as audit
from storbench_api.auth.service import Principal
from storbench_api.db import utcnow
from storbench_api.hosts.mounts import mount_for
from storbench_api.models import Assignment, Run, RunStatus
from storbench_api.models.run import WorkerInfo
from storbench_api.runs.run_plan import plan_run
from storbench_api.runs.schemas import RunCreate


def start_run(db: Session, principal: Principal, body: RunCreate) -> Run:
    """A queued run and one assignment per host; the caller commits, then enqueues."""
    planned = plan_run(db, principal.team_id, body)
    planned.ensure_startable()
    target = planned.target
    run = Run(
        team_id=principal.team_id,
        target_id=target.id,
        plan_id=planned.plan.id if planned.plan is not None else None,
        plan_name=planned.source_name,
        plan_version=planned.plan.version if planned.plan is not None else None,
        label=body.label,
        note=body.note,
        created_by_id=principal.user_id,
        jobs=planned.jobs,
        confirmed_destructive=planned.confirmed_destructive,
        shared_files=planned.shared_files,
        status=RunStatus.queued,
        repetitions=planned.repetitions,
        sweep=planned.sweep,
        precondition=planned.precondition,
    )
    run.target = target
    run.assignments = []
    for host in planned.hosts:
        assignment = Assignment(
            host_id=host.id,
            status=RunStatus.queued,
            dispatched_at=utcnow(),
            # The mount as the host reported it now: the result keeps what it ran on.
            worker_info=WorkerInfo(mount=mount_for(host.facts, target.path)),
        )
        assignment.host = host
        run.assignments.append(assignment)
    db.add(run)
    db.flush()
    audit.record(
        db,
        team_id=principal.team_id,
        actor=principal.actor,
        action="run.started",
        resource_type="run",
        resource_id=run.id,
        hosts=[h.name for h in planned.hosts],
        target=target.name,
        plan=planned.source_name,
        confirmed_destructive=planned.confirmed_destructive,
    )
    return run
