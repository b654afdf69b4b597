"""Factories for plans, runs and results, as keyword-default functions (the team, caller, host and
target factories are in tests/conftest.py). Each stores its row and commits, which inside a test is
a savepoint of the test's transaction; what a test does not name is a plain, valid default."""

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from sqlalchemy.orm import Session

from storbench_api.db import utcnow
from storbench_api.models import Plan, Result, ResultDirection, Run, RunStatus, Target, Team

# One 4 KiB random-read job, as a plan stores it.
RANDREAD_JOB: dict[str, Any] = {"name": "randread-4k", "rw": "randread", "bs": 4096}


def make_plan(
    db: Session,
    *,
    team: Team,
    name: str = "nightly randread",
    jobs: list[dict[str, Any]] | None = None,
    **columns: Any,
) -> Plan:
    """A saved plan in the team (one 4 KiB random-read job unless jobs are given)."""
    plan = Plan(team_id=team.id, name=name, jobs=jobs if jobs is not None else [RANDREAD_JOB], **columns)
    db.add(plan)
    db.commit()
    return plan


def make_run(
    db: Session,
    *,
    target: Target,
    plan: Plan | None = None,
    jobs: list[dict[str, Any]] | None = None,
    status: RunStatus = RunStatus.queued,
    **columns: Any,
) -> Run:
    """A run on the target, of the plan's jobs when a plan is given (else of jobs, else one job)."""
    if jobs is None:
        jobs = list(plan.jobs) if plan is not None else [RANDREAD_JOB]
    run = Run(
        team_id=target.team_id,
        target_id=target.id,
        plan_id=plan.id if plan is not None else None,
        plan_name=plan.name if plan is not None else None,
        jobs=jobs,
        status=status,
        **columns,
    )
    db.add(run)
    db.commit()
    return run


def make_result(
    db: Session,
    *,
    team: Team,
    target: Target | None = None,
    run: Run | None = None,
    job_name: str = "randread-4k",
    host_name: str = "host-a",
    measured_at: datetime | None = None,
    iops: Mapping[str, float] | None = None,
    **columns: Any,
) -> Result:
    """A stored result without a raw output; iops gives each direction's IOPS of 4 KiB I/Os."""
    result = Result(
        team_id=team.id,
        target_id=target.id if target is not None else None,
        run_id=run.id if run is not None else None,
        job_name=job_name,
        host_name=host_name,
        measured_at=measured_at or utcnow(),
        options=columns.pop("options", {}),
        cpu=columns.pop("cpu", {}),
        detail=columns.pop("detail", {}),
        **columns,
    )
    db.add(result)
    db.flush()
    for direction, rate in (iops or {}).items():
        db.add(
            ResultDirection(
                result_id=result.id,
                direction=direction,
                iops=rate,
                bw_bytes=rate * 4096,
                io_bytes=0,
                runtime_ms=1,
            )
        )
    db.commit()
    return result
