"""Queries over the team's result history."""

from collections.abc import Sequence
from datetime import datetime

from sqlalchemy import ColumnElement, Integer, Row, Select, delete, func, literal, select, tuple_
from sqlalchemy.orm import Session, defer, selectinload

from storbench_api.models import RawOutput, Result
from storbench_api.results.filters import ResultFilters
from storbench_api.results.listing import Position

# Up to this many matching rows are counted exactly; beyond, PostgreSQL's planner estimates.
EXACT_COUNT_CAP = 10_000


def _conditions(team_id: int, filters: ResultFilters) -> list[ColumnElement[bool]]:
    return [Result.team_id == team_id, *filters.conditions()]


def list_results(
    db: Session, team_id: int, filters: ResultFilters, limit: int, after: Position | None
) -> Sequence[Result]:
    """Up to `limit` results newest first by (measured_at, id), after `after` when given.

    Each filter has an index (team_id, <filter>, measured_at, id) (migration 0013): the page is a
    backward walk of one index from the cursor that stops after `limit` rows, whatever the depth.
    """
    # comparability (JSON) is not part of a listed result: not read, and never lazily loaded.
    query = select(Result).options(defer(Result.comparability, raiseload=True))
    query = query.where(*_conditions(team_id, filters))
    if after is not None:
        position = tuple_(
            literal(after.measured_at, Result.__table__.c.measured_at.type), literal(after.id, Integer)
        )
        query = query.where(tuple_(Result.measured_at, Result.id) < position)
    query = query.order_by(Result.measured_at.desc(), Result.id.desc()).limit(limit)
    return db.scalars(query).all()


def count_results(db: Session, team_id: int, filters: ResultFilters) -> tuple[int, bool]:
    """How many results match: (count, is_estimate).

    Exact up to EXACT_COUNT_CAP (a count over a LIMIT-ed index scan, a few milliseconds); beyond,
    on PostgreSQL, the planner's estimate (no scan at all; at least the cap). Counting millions of
    rows exactly took a second per request on a team's history and told nobody anything.
    """
    matching = select(Result.id).where(*_conditions(team_id, filters))
    capped = db.scalar(select(func.count()).select_from(matching.limit(EXACT_COUNT_CAP + 1).subquery())) or 0
    if capped <= EXACT_COUNT_CAP:
        return capped, False
    if db.get_bind().dialect.name != "postgresql":
        # The embedded database holds one installation's results: an exact count stays cheap there.
        return db.scalar(select(func.count()).select_from(matching.subquery())) or 0, False
    return max(_planner_rows(db, matching), EXACT_COUNT_CAP + 1), True


def _planner_rows(db: Session, query: Select[int]) -> int:
    """The number of rows PostgreSQL's planner expects `query` to return (EXPLAIN, not run)."""
    compiled = query.compile(dialect=db.get_bind().dialect)
    plan = db.connection().exec_driver_sql(f"EXPLAIN (FORMAT JSON) {compiled}", compiled.params).scalar()
    if not isinstance(plan, list) or not plan:
        raise RuntimeError(f"EXPLAIN gave no plan: {plan!r}")
    return int(plan[0]["Plan"]["Plan Rows"])


def get_result(db: Session, team_id: int, result_id: int) -> Result | None:
    """One of the team's results, or None (another team's result is not there)."""
    return db.scalar(select(Result).where(Result.id == result_id, Result.team_id == team_id))


def get_results(db: Session, team_id: int, result_ids: Sequence[int]) -> Sequence[Result]:
    """The team's results among these ids, in id order."""
    query = select(Result).where(Result.team_id == team_id, Result.id.in_(result_ids))
    return db.scalars(query.order_by(Result.id)).all()


def get_raw_output(db: Session, team_id: int, raw_output_id: int) -> RawOutput | None:
    """A stored fio output of the team."""
    return db.scalar(select(RawOutput).where(RawOutput.id == raw_output_id, RawOutput.team_id == team_id))


def first_output_with_digest(db: Session, team_id: int, sha256: str) -> RawOutput | None:
    """The team's earliest stored output with this content that still has results."""
    has_results = select(Result.id).where(Result.raw_output_id == RawOutput.id).exists()
    query = select(RawOutput).where(RawOutput.team_id == team_id, RawOutput.sha256 == sha256, has_results)
    return db.scalar(query.order_by(RawOutput.id).limit(1))


def results_of_output(db: Session, raw_output_id: int) -> Sequence[Result]:
    """The results one stored output became, in fio's job order."""
    query = select(Result).where(Result.raw_output_id == raw_output_id)
    return db.scalars(query.order_by(Result.job_index, Result.id)).all()


def delete_result(db: Session, result: Result) -> bool:
    """Delete a result (its direction rows go with it), and its stored output once no result uses it.

    False when another request deleted it meanwhile (the row was gone when this one got to it).
    """
    raw_output_id = result.raw_output_id
    deleted = db.scalar(delete(Result).where(Result.id == result.id).returning(Result.id))
    db.expunge(result)
    if raw_output_id is not None:
        still_used = db.scalar(select(func.count()).where(Result.raw_output_id == raw_output_id))
        if not still_used:
            db.execute(delete(RawOutput).where(RawOutput.id == raw_output_id))
    return deleted is not None


def _unfiled(team_id: int) -> list[ColumnElement[bool]]:
    return [Result.team_id == team_id, Result.imported.is_(True), Result.target_id.is_(None)]


def unfiled_groups(
    db: Session, team_id: int, limit: int
) -> Sequence[Row[str, str, int, int, datetime, datetime, int]]:
    """(host name, job, results, fingerprints, first and last measured, newest id) of imports without
    a target, the most recently measured groups first (ix_results_team_imported_measured)."""
    query = (
        select(
            Result.host_name,
            Result.job_name,
            func.count().label("results"),
            func.count(func.distinct(func.coalesce(Result.fingerprint, ""))).label("fingerprints"),
            func.min(Result.measured_at).label("first_measured_at"),
            func.max(Result.measured_at).label("last_measured_at"),
            func.max(Result.id).label("newest_result_id"),
        )
        .where(*_unfiled(team_id))
        .group_by(Result.host_name, Result.job_name)
        .order_by(func.max(Result.measured_at).desc(), Result.host_name, Result.job_name)
        .limit(limit)
    )
    return db.execute(query).all()


def results_to_file(
    db: Session,
    team_id: int,
    *,
    result_ids: Sequence[int] | None,
    host_name: str | None,
    job_name: str | None,
    limit: int,
) -> Sequence[Result]:
    """The team's results to file, locked until the transaction ends, with their directions.

    By ids: every one of them that is the team's (the caller says which are not imports or already
    filed). By host name (and job): its imports without a target.
    """
    query = select(Result).options(selectinload(Result.directions)).where(Result.team_id == team_id)
    if result_ids is not None:
        query = query.where(Result.id.in_(list(result_ids)))
    else:
        query = query.where(*_unfiled(team_id), Result.host_name == host_name)
        if job_name is not None:
            query = query.where(Result.job_name == job_name)
    return db.scalars(query.order_by(Result.id).limit(limit).with_for_update(of=Result)).all()
