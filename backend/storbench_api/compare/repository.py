"""Queries behind comparisons, grouped views and saved views."""

from collections.abc import Sequence
from typing import Any

from sqlalchemy import Row, Select, literal, select, tuple_
from sqlalchemy.orm import Session, selectinload

from storbench_api.models import Result, ResultDirection, Run, RunStatus, SavedView, Target
from storbench_api.pagination import Page, fetch_page
from storbench_api.results.filters import ResultFilters

_MEASURED_AT = Result.__table__.c.measured_at.type
# A grouped view reads at most this many rows (the newest); the answer says when it stopped there.
MAX_GROUP_ROWS = 100_000


def results_with_runs(db: Session, team_id: int, ids: Sequence[int]) -> list[tuple[Result, Run | None]]:
    """The team's results among ids with their directions, each with its run (ids of others are absent)."""
    query = (
        select(Result, Run)
        .outerjoin(Run, Run.id == Result.run_id)
        .where(Result.team_id == team_id, Result.id.in_(list(ids)))
        .options(selectinload(Result.directions))
    )
    return [(row[0], row[1]) for row in db.execute(query).all()]


def get_run(db: Session, team_id: int, run_id: int) -> Run | None:
    """One of the team's runs."""
    return db.scalar(select(Run).where(Run.id == run_id, Run.team_id == team_id))


def previous_run(db: Session, run: Run) -> Run | None:
    """The latest earlier run of the same plan (or preset, or job list) on the same target with results."""
    query = select(Run).where(
        Run.team_id == run.team_id,
        Run.target_id == run.target_id,
        Run.id < run.id,
        Run.status.in_([RunStatus.completed, RunStatus.cancelled, RunStatus.failed]),
        select(Result.id).where(Result.run_id == Run.id).exists(),
    )
    # Each way has its index (team_id, target_id, plan_id | plan_name, id) (migration 0018): a backward
    # walk from the run that stops at the first earlier run with results.
    if run.plan_id is not None:
        return db.scalar(query.where(Run.plan_id == run.plan_id).order_by(Run.id.desc()).limit(1))
    if run.plan_name is not None:
        return db.scalar(query.where(Run.plan_name == run.plan_name).order_by(Run.id.desc()).limit(1))
    # Inline jobs: the previous run (among the 50 latest) that ran the very same jobs.
    candidates = db.scalars(query.order_by(Run.id.desc()).limit(50)).all()
    return next((c for c in candidates if c.jobs == run.jobs), None)


def get_result(db: Session, team_id: int, result_id: int) -> Result | None:
    """One of the team's results."""
    return db.scalar(select(Result).where(Result.id == result_id, Result.team_id == team_id))


def previous_import(db: Session, result: Result) -> Result | None:
    """The latest import measured before this one of the same host name and job, with its fingerprint.

    An import has no run to follow: the import before it from the same host and job, measured the
    same way (same fingerprint), is its previous one. One step back on
    ix_results_team_fingerprint_measured.
    """
    if not result.imported or result.fingerprint is None:
        return None
    query = select(Result).where(
        Result.team_id == result.team_id,
        Result.fingerprint == result.fingerprint,
        Result.imported.is_(True),
        Result.host_name == result.host_name,
        Result.job_name == result.job_name,
        tuple_(Result.measured_at, Result.id)
        < tuple_(literal(result.measured_at, _MEASURED_AT), literal(result.id)),
    )
    return db.scalar(query.order_by(Result.measured_at.desc(), Result.id.desc()).limit(1))


def result_ids_of_run(db: Session, run_id: int) -> list[int]:
    """A run's results, in the order fio reported them (host, then job)."""
    query = select(Result.id).where(Result.run_id == run_id).order_by(Result.id)
    return list(db.scalars(query).all())


def _group_query(team_id: int, filters: ResultFilters) -> Select[Any]:
    return (
        select(
            Result.id,
            Result.target_id,
            Result.options,
            Result.comparability,
            Result.storage_class,
            Result.storage_class_spec_id,
            Result.label,
            Result.host_name,
            Result.cpu,
            Target.capacity_gib,
            Target.storage_class_id,
        )
        .outerjoin(Target, Target.id == Result.target_id)
        .where(Result.team_id == team_id, *filters.conditions())
    )


def group_rows(
    db: Session, team_id: int, filters: ResultFilters, direction: str, column: str | None
) -> Sequence[Row[Any]]:
    """Newest first, each result's grouping facts and its figure (column of the direction, or CPU)."""
    query = _group_query(team_id, filters)
    if column is not None:
        query = query.add_columns(getattr(ResultDirection, column).label("figure")).join(
            ResultDirection,
            (ResultDirection.result_id == Result.id) & (ResultDirection.direction == direction),
        )
    return db.execute(query.order_by(Result.id.desc()).limit(MAX_GROUP_ROWS + 1)).all()


def existing_result_ids(db: Session, team_id: int, ids: Sequence[int]) -> set[int]:
    """Which of ids are the team's results."""
    query = select(Result.id).where(Result.team_id == team_id, Result.id.in_(list(ids)))
    return set(db.scalars(query).all())


def list_views(db: Session, team_id: int, page: Page) -> tuple[Sequence[SavedView], int]:
    """A page of the team's saved views, newest first, and how many it has."""
    query = select(SavedView).where(SavedView.team_id == team_id).order_by(SavedView.id.desc())
    return fetch_page(db, query, page)


def get_view(db: Session, team_id: int, view_id: int) -> SavedView | None:
    """One of the team's saved views."""
    return db.scalar(select(SavedView).where(SavedView.id == view_id, SavedView.team_id == team_id))


def view_named(db: Session, team_id: int, name: str) -> SavedView | None:
    """The team's saved view with this name."""
    return db.scalar(select(SavedView).where(SavedView.team_id == team_id, SavedView.name == name))
