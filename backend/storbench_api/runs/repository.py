"""Queries for runs and assignments."""

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import Row, func, select
from sqlalchemy.orm import Session, joinedload, selectinload

from storbench_api.models import (
    Assignment,
    ProgressSample,
    Result,
    ResultDirection,
    Run,
    RunStatus,
    Schedule,
    ScheduleFiring,
    Target,
)

_RUN_LOADS = (
    joinedload(Run.target).joinedload(Target.host),
    selectinload(Run.assignments).joinedload(Assignment.host),
)


def list_runs(
    db: Session,
    team_id: int,
    limit: int,
    offset: int,
    status: RunStatus | None = None,
    target_id: int | None = None,
    label: str | None = None,
    plan_id: int | None = None,
) -> tuple[Sequence[Run], int]:
    """A page of the team's runs, newest first, and the total count."""
    query = select(Run).where(Run.team_id == team_id)
    if status is not None:
        query = query.where(Run.status == status)
    if target_id is not None:
        query = query.where(Run.target_id == target_id)
    if label:
        # Label or note contains the text, whatever its case.
        escaped = label.lower().replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
        pattern = f"%{escaped}%"
        query = query.where(
            func.lower(Run.label).like(pattern, escape="\\") | func.lower(Run.note).like(pattern, escape="\\")
        )
    if plan_id is not None:
        query = query.where(Run.plan_id == plan_id)
    total = db.scalar(select(func.count()).select_from(query.subquery())) or 0
    rows = db.scalars(query.options(*_RUN_LOADS).order_by(Run.id.desc()).limit(limit).offset(offset))
    return rows.unique().all(), total


def get_run(db: Session, team_id: int, run_id: int, for_update: bool = False) -> Run | None:
    """The team's run with its target, host and assignments."""
    query = select(Run).options(*_RUN_LOADS).where(Run.team_id == team_id, Run.id == run_id)
    if for_update:
        query = query.with_for_update(of=Run)
    return db.scalars(query).unique().one_or_none()


def get_assignment_for_host(db: Session, host_id: int, assignment_id: int) -> Assignment | None:
    """An assignment, only if it belongs to this host, with its run locked and loaded.

    Hosts of one run report concurrently; locking the run serialises them, so the last one to
    finish sees every other host's final state and the run's status is derived correctly.
    """
    run_id = db.scalar(
        select(Assignment.run_id).where(Assignment.id == assignment_id, Assignment.host_id == host_id)
    )
    if run_id is None:
        return None
    db.execute(select(Run.id).where(Run.id == run_id).with_for_update())
    return db.scalar(
        select(Assignment)
        .options(
            joinedload(Assignment.run).joinedload(Run.target).joinedload(Target.host),
            joinedload(Assignment.run).selectinload(Run.assignments).joinedload(Assignment.host),
            joinedload(Assignment.host),
        )
        .where(Assignment.id == assignment_id)
    )


def barrier_of(db: Session, host_id: int, assignment_id: int) -> tuple[RunStatus, datetime | None] | None:
    """(status, run's start_at) of this host's assignment, read without locking anything."""
    row = db.execute(
        select(Assignment.status, Run.start_at)
        .join(Run, Run.id == Assignment.run_id)
        .where(Assignment.id == assignment_id, Assignment.host_id == host_id)
    ).one_or_none()
    return None if row is None else (row[0], row[1])


def results_of_runs(db: Session, run_ids: Sequence[int]) -> Sequence[Result]:
    """Every result of these runs, in fio's output order."""
    if not run_ids:
        return []
    return db.scalars(
        select(Result)
        .where(Result.run_id.in_(run_ids))
        .order_by(Result.run_id, Result.assignment_id, Result.job_index)
    ).all()


def headline_rows(db: Session, run_ids: Sequence[int]) -> Sequence[Row[Any]]:
    """Per result direction of these runs: the figures a headline is made of (one query)."""
    if not run_ids:
        return []
    rows: Sequence[Row[Any]] = db.execute(
        select(
            Result.id,
            Result.run_id,
            Result.job_index,
            Result.job_name,
            Result.repetition,
            Result.partial,
            ResultDirection.iops,
            ResultDirection.bw_bytes,
            ResultDirection.clat_p99_ns,
        )
        .join(ResultDirection, ResultDirection.result_id == Result.id)
        .where(Result.run_id.in_(run_ids))
    ).all()  # type: ignore[assignment]
    return rows


def unfinished_assignments(db: Session, host_id: int | None = None) -> Sequence[Assignment]:
    """Queued or running assignments (of one host, when given) with their hosts and runs."""
    query = (
        select(Assignment)
        .options(
            joinedload(Assignment.host),
            joinedload(Assignment.run).selectinload(Run.assignments).joinedload(Assignment.host),
        )
        .where(Assignment.status.in_([RunStatus.queued, RunStatus.running]))
        .order_by(Assignment.id)
    )
    if host_id is not None:
        query = query.where(Assignment.host_id == host_id)
    return db.scalars(query).all()


def other_assignments_of_run(db: Session, run_id: int, assignment_id: int) -> Sequence[Assignment]:
    """The run's other assignments as the database holds them now (other hosts may have changed them)."""
    return db.scalars(
        select(Assignment)
        .where(Assignment.run_id == run_id, Assignment.id != assignment_id)
        .execution_options(populate_existing=True)
    ).all()


def progress_samples(
    db: Session, assignment_ids: Sequence[int], after_id: int = 0
) -> Sequence[ProgressSample]:
    """Samples of these assignments newer than after_id, oldest first."""
    if not assignment_ids:
        return []
    return db.scalars(
        select(ProgressSample)
        .where(ProgressSample.assignment_id.in_(assignment_ids), ProgressSample.id > after_id)
        .order_by(ProgressSample.id)
    ).all()


def firing_of_run(db: Session, run_id: int) -> tuple[ScheduleFiring, Schedule] | None:
    """The schedule slot that started this run, and its schedule (None: started by hand)."""
    query = (
        select(ScheduleFiring, Schedule)
        .join(Schedule, Schedule.id == ScheduleFiring.schedule_id)
        .where(ScheduleFiring.run_id == run_id)
    )
    row = db.execute(query).first()
    return (row[0], row[1]) if row is not None else None


def latest_samples(db: Session, assignment_id: int, count: int) -> Sequence[ProgressSample]:
    """The assignment's `count` newest samples, newest first."""
    return db.scalars(
        select(ProgressSample)
        .where(ProgressSample.assignment_id == assignment_id)
        .order_by(ProgressSample.id.desc())
        .limit(count)
    ).all()
