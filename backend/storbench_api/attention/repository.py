"""Queries of what needs attention: each bounded, newest first, within one team."""

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import Row, and_, exists, select
from sqlalchemy.orm import Session, aliased

from storbench_api.models import (
    ChangePoint,
    FiringStatus,
    Host,
    Result,
    Run,
    RunStatus,
    Schedule,
    ScheduleFiring,
    Target,
)

# Results read for their spec verdicts: the newest of each series within the window is judged.
RECENT_RESULTS_READ = 500


def unacknowledged_regressions(db: Session, team_id: int, limit: int) -> Sequence[Row[ChangePoint, str]]:
    """(change point, target name) of each step nobody acknowledged, newest found first."""
    query = (
        select(ChangePoint, Target.name)
        .join(Target, Target.id == ChangePoint.target_id)
        .where(
            ChangePoint.team_id == team_id,
            ChangePoint.kind == "regression",
            ChangePoint.acknowledged_at.is_(None),
            ChangePoint.id == ChangePoint.step_id,
        )
        .order_by(ChangePoint.detected_at.desc(), ChangePoint.id.desc())
    )
    return db.execute(query.limit(limit)).all()


def unresolved_failed_runs(db: Session, team_id: int, since: datetime, limit: int) -> Sequence[Row[Run, str]]:
    """(run, target name) of runs that failed since then, unless a later run of the same plan on the
    same target completed (that run resolved it), newest first."""
    later = aliased(Run)
    resolved = exists().where(
        later.team_id == Run.team_id,
        later.target_id == Run.target_id,
        later.plan_name.is_not_distinct_from(Run.plan_name),
        later.id > Run.id,
        later.status == RunStatus.completed,
    )
    query = (
        select(Run, Target.name)
        .join(Target, Target.id == Run.target_id)
        .where(
            Run.team_id == team_id,
            Run.status == RunStatus.failed,
            Run.updated_at >= since,
            ~resolved,
        )
        .order_by(Run.updated_at.desc(), Run.id.desc())
    )
    return db.execute(query.limit(limit)).all()


def unresolved_failed_slots(
    db: Session, team_id: int, since: datetime, limit: int
) -> Sequence[Row[ScheduleFiring, str]]:
    """(slot, schedule name) of slots missed or refused since then, unless a later slot of the same
    schedule started a run, newest first. (A slot whose run failed shows as that failed run.)"""
    later = aliased(ScheduleFiring)
    resolved = exists().where(
        later.schedule_id == ScheduleFiring.schedule_id,
        later.slot_at > ScheduleFiring.slot_at,
        later.status == FiringStatus.started,
    )
    query = (
        select(ScheduleFiring, Schedule.name)
        .join(Schedule, Schedule.id == ScheduleFiring.schedule_id)
        .where(
            ScheduleFiring.team_id == team_id,
            ScheduleFiring.status.in_([FiringStatus.failed, FiringStatus.missed]),
            ScheduleFiring.created_at >= since,
            ~resolved,
        )
        .order_by(ScheduleFiring.slot_at.desc(), ScheduleFiring.id.desc())
    )
    return db.execute(query.limit(limit)).all()


def team_hosts(db: Session, team_id: int, limit: int) -> Sequence[Host]:
    """The team's hosts that were not removed, by name (the caller decides which are online)."""
    query = select(Host).where(Host.team_id == team_id, Host.removed_at.is_(None)).order_by(Host.name)
    return db.scalars(query.limit(limit)).all()


def recent_judged_results(db: Session, team_id: int, since: datetime) -> Sequence[Row[Any]]:
    """(id, target id, target name, job name, label, measured_at, spec checks) of the newest results
    measured since then on a target with a storage class spec, newest first (bounded)."""
    query = (
        select(
            Result.id,
            Result.target_id,
            Target.name,
            Result.job_name,
            Result.label,
            Result.measured_at,
            Result.spec_checks,
        )
        .join(Target, Target.id == Result.target_id)
        .where(
            and_(
                Result.team_id == team_id,
                Result.measured_at >= since,
                Result.storage_class_spec_id.is_not(None),
            )
        )
        .order_by(Result.measured_at.desc(), Result.id.desc())
    )
    return db.execute(query.limit(RECENT_RESULTS_READ)).all()
