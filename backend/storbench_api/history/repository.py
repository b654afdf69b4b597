"""Queries of the history: a figure's series over time, and the changes found in it.

Series read only the columns they need (results joined to result_directions), never a result's
detail, options or raw output; they are ordered by (measured_at, id).
"""

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Integer, Row, func, literal, select, text, tuple_
from sqlalchemy.orm import Session

from storbench_api.models import ChangePoint, ChangePointPolicy, Result, ResultDirection, Run


@dataclass(frozen=True, slots=True)
class SeriesKey:
    """What makes one series: a figure of one direction of one job on one target (and fingerprint)."""

    team_id: int
    target_id: int
    job_name: str
    direction: str
    metric: str
    fingerprint: str | None = None
    # False: every fingerprint (the trend's default); True: exactly `fingerprint`, NULL included.
    exact_fingerprint: bool = False


@contextmanager
def _serial_plan(db: Session) -> Iterator[None]:
    """Meanwhile, PostgreSQL plans without parallel workers (then as before).

    A trend is a backward walk of ix_results_series_covering joined point by point to
    ix_result_directions_figures (both index-only, migration 0018): ~4 buffers a point, ~45 ms for
    5,000 points on the 10-million-result bench. The planner still estimates a parallel plan cheaper,
    but starting its workers and merging their rows made it 130 ms (2 cores, busy).
    """
    if db.get_bind().dialect.name != "postgresql":
        yield
        return
    before = db.execute(
        text(
            "SELECT current_setting('max_parallel_workers_per_gather'), "
            "set_config('max_parallel_workers_per_gather', '0', true)"
        )
    ).scalar_one()
    yield
    # Not after an error: the transaction is then aborted, and its rollback undoes the setting.
    db.execute(text("SELECT set_config('max_parallel_workers_per_gather', :v, true)"), {"v": before})


def trend_points(
    db: Session,
    key: SeriesKey,
    *,
    limit: int,
    since: tuple[datetime, int] | None = None,
    complete_only: bool = False,
) -> Sequence[Row[int, datetime, float, str | None, int | None, str, int]]:
    """The newest `limit` points of a series (result id, measured_at, value, …), newest first.

    `since` (measured_at, result id) keeps only points from there on; `complete_only` leaves out
    results fio did not finish (partial) or that report an error.
    """
    value = getattr(ResultDirection, key.metric)
    query = (
        select(
            Result.id,
            Result.measured_at,
            value,
            Result.fingerprint,
            Result.run_id,
            Result.host_name,
            Result.repetition,
        )
        .join(ResultDirection, ResultDirection.result_id == Result.id)
        .where(
            Result.team_id == key.team_id,
            Result.target_id == key.target_id,
            Result.job_name == key.job_name,
            ResultDirection.direction == key.direction,
            value.is_not(None),
        )
    )
    if key.exact_fingerprint or key.fingerprint is not None:
        query = query.where(
            Result.fingerprint.is_(None) if key.fingerprint is None else Result.fingerprint == key.fingerprint
        )
    if complete_only:
        query = query.where(Result.partial.is_(False), Result.error == 0)
    if since is not None:
        # A row comparison, so the index walk stops at `since` (an OR of both was a filter that read
        # the rest of the series when fewer than `limit` points came after it).
        position = tuple_(literal(since[0], Result.__table__.c.measured_at.type), literal(since[1], Integer))
        query = query.where(tuple_(Result.measured_at, Result.id) >= position)
    with _serial_plan(db):
        return db.execute(query.order_by(Result.measured_at.desc(), Result.id.desc()).limit(limit)).all()


def series_change_points(db: Session, key: SeriesKey, *, since: datetime | None = None) -> Sequence[Row[Any]]:
    """Changes found in a series (every fingerprint unless the key names one), oldest first.

    Rows with ChangePoint's columns, to read (trend marks, detection, check): a series holds dozens,
    and loading them as ORM objects doubled the time of this 1 ms query (bench/history_scale.py).
    """
    changes = ChangePoint.__table__.c
    query = select(*changes).where(
        changes.team_id == key.team_id,
        changes.target_id == key.target_id,
        changes.job_name == key.job_name,
        changes.direction == key.direction,
        changes.metric == key.metric,
    )
    if key.exact_fingerprint or key.fingerprint is not None:
        column = changes.fingerprint
        query = query.where(column.is_(None) if key.fingerprint is None else column == key.fingerprint)
    if since is not None:
        query = query.where(changes.measured_at >= since)
    return db.execute(query.order_by(changes.measured_at, changes.result_id)).all()


def list_change_points(
    db: Session,
    team_id: int,
    *,
    limit: int,
    offset: int,
    acknowledged: bool | None = None,
    kind: str | None = None,
    target_id: int | None = None,
) -> tuple[Sequence[ChangePoint], int]:
    """A page of the team's steps (the first change of each), newest detected first, and how many match."""
    query = select(ChangePoint).where(ChangePoint.team_id == team_id, ChangePoint.id == ChangePoint.step_id)
    if acknowledged is not None:
        query = query.where(
            ChangePoint.acknowledged_at.is_not(None)
            if acknowledged
            else ChangePoint.acknowledged_at.is_(None)
        )
    if kind is not None:
        query = query.where(ChangePoint.kind == kind)
    if target_id is not None:
        query = query.where(ChangePoint.target_id == target_id)
    total = db.scalar(select(func.count()).select_from(query.subquery())) or 0
    rows = db.scalars(
        query.order_by(ChangePoint.detected_at.desc(), ChangePoint.id.desc()).limit(limit).offset(offset)
    ).all()
    return rows, total


def count_unacknowledged(db: Session, team_id: int) -> int:
    """How many of the team's regressions nobody has acknowledged yet."""
    query = select(func.count(ChangePoint.id)).where(
        ChangePoint.team_id == team_id,
        ChangePoint.kind == "regression",
        ChangePoint.acknowledged_at.is_(None),
        ChangePoint.id == ChangePoint.step_id,
    )
    return db.scalar(query) or 0


def step_lead(db: Session, point: ChangePoint) -> ChangePoint | None:
    """The first change found at the same result (same target, job and kind), other than point."""
    query = select(ChangePoint).where(
        ChangePoint.team_id == point.team_id,
        ChangePoint.target_id == point.target_id,
        ChangePoint.job_name == point.job_name,
        ChangePoint.result_id == point.result_id,
        ChangePoint.kind == point.kind,
        ChangePoint.id != point.id,
    )
    return db.scalar(query.order_by(ChangePoint.id).limit(1))


def steps_members(db: Session, step_ids: Sequence[int]) -> Sequence[ChangePoint]:
    """Every change of these steps, by step then id."""
    if not step_ids:
        return []
    query = select(ChangePoint).where(ChangePoint.step_id.in_(list(step_ids)))
    return db.scalars(query.order_by(ChangePoint.step_id, ChangePoint.id)).all()


def get_change_point(db: Session, team_id: int, change_point_id: int) -> ChangePoint | None:
    """One of the team's changes."""
    return db.scalar(
        select(ChangePoint).where(ChangePoint.team_id == team_id, ChangePoint.id == change_point_id)
    )


def get_policy(db: Session, team_id: int) -> ChangePointPolicy | None:
    """The team's detection policy, if it set one."""
    return db.get(ChangePointPolicy, team_id)


def newest_run_results(
    db: Session, team_id: int, plan_id: int, target_id: int
) -> Sequence[Row[int, str, str | None, datetime, int | None]]:
    """(id, job_name, fingerprint, measured_at, run_id) of each result of a plan's newest run on a target."""
    newest_run = (
        select(Result.run_id)
        .join(Run, Run.id == Result.run_id)
        .where(Result.team_id == team_id, Result.target_id == target_id, Run.plan_id == plan_id)
        .order_by(Result.measured_at.desc(), Result.id.desc())
        .limit(1)
        .scalar_subquery()
    )
    query = select(Result.id, Result.job_name, Result.fingerprint, Result.measured_at, Result.run_id).where(
        Result.team_id == team_id, Result.run_id == newest_run
    )
    return db.execute(query.order_by(Result.id)).all()


def spec_checks_of(db: Session, result_id: int) -> list[dict[str, Any]]:
    """How a result was judged against its class's spec (its spec checks), [] for none."""
    return db.scalar(select(Result.spec_checks).where(Result.id == result_id)) or []


def result_directions(db: Session, result_ids: Sequence[int]) -> Sequence[ResultDirection]:
    """The direction rows of some results."""
    if not result_ids:
        return []
    return db.scalars(select(ResultDirection).where(ResultDirection.result_id.in_(result_ids))).all()


def comparability_around(db: Session, point: ChangePoint) -> tuple[dict[str, Any] | None, dict[str, Any]]:
    """How the result just before a change point (same series), and its first result, were measured."""
    first = db.scalar(select(Result.comparability).where(Result.id == point.result_id)) or {}
    digest = point.fingerprint
    same = Result.fingerprint.is_(None) if digest is None else Result.fingerprint == digest
    query = select(Result.comparability).where(
        Result.team_id == point.team_id,
        Result.target_id == point.target_id,
        Result.job_name == point.job_name,
        Result.partial.is_(False),
        Result.error == 0,
        tuple_(Result.measured_at, Result.id)
        < tuple_(
            literal(point.measured_at, Result.__table__.c.measured_at.type), literal(point.result_id, Integer)
        ),
        same,
    )
    before = db.scalar(query.order_by(Result.measured_at.desc(), Result.id.desc()).limit(1))
    return before, first


def run_of_result(db: Session, result_id: int) -> int | None:
    """The run a result was measured by (None: imported)."""
    return db.scalar(select(Result.run_id).where(Result.id == result_id))
