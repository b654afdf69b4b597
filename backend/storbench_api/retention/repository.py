"""Queries retention runs: teams with a setting, and what is older than their windows."""

from collections.abc import Sequence
from datetime import datetime

from sqlalchemy import delete, or_, select, update
from sqlalchemy.orm import Session, selectinload

from storbench_api.models import ProgressSample, RawOutput, Run, Team


def teams_with_retention(db: Session) -> Sequence[Team]:
    """Teams that keep raw outputs or series for a limited time."""
    query = select(Team).where(
        or_(Team.raw_output_retention_days.is_not(None), Team.series_retention_days.is_not(None))
    )
    return db.scalars(query.order_by(Team.id)).all()


def prune_raw_outputs(db: Session, team_id: int, stored_before: datetime, now: datetime, limit: int) -> int:
    """Empty up to `limit` of the team's raw outputs stored before the cutoff; how many were."""
    due = (
        select(RawOutput.id)
        .where(
            RawOutput.team_id == team_id,
            RawOutput.pruned_at.is_(None),
            RawOutput.created_at < stored_before,
        )
        .order_by(RawOutput.id)
        .limit(limit)
    )
    ids = list(db.scalars(due))
    if ids:
        db.execute(
            update(RawOutput)
            .where(RawOutput.id.in_(ids))
            .values(content_gz=b"", pruned_at=now)
            .execution_options(synchronize_session=False)
        )
    return len(ids)


def runs_with_series_due(db: Session, team_id: int, ended_before: datetime, limit: int) -> Sequence[Run]:
    """Up to `limit` of the team's runs that ended before the cutoff and still have their series."""
    query = (
        select(Run)
        .options(selectinload(Run.assignments))
        .where(Run.team_id == team_id, Run.series_pruned_at.is_(None), Run.finished_at < ended_before)
        .order_by(Run.id)
        .limit(limit)
    )
    return db.scalars(query).all()


def delete_series(db: Session, assignment_ids: Sequence[int]) -> None:
    """Delete every per-second sample of these assignments."""
    if assignment_ids:
        db.execute(delete(ProgressSample).where(ProgressSample.assignment_id.in_(assignment_ids)))
