"""Queries over the team's result history."""

from collections.abc import Sequence

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from storbench_api.models import Result


def list_results(
    db: Session,
    team_id: int,
    limit: int,
    offset: int,
    *,
    target_id: int | None = None,
    storage_class: str | None = None,
    imported: bool | None = None,
    job_name: str | None = None,
) -> tuple[Sequence[Result], int]:
    """A filtered page of results, newest first, and the total count."""
    query = select(Result).where(Result.team_id == team_id)
    if target_id is not None:
        query = query.where(Result.target_id == target_id)
    if storage_class is not None:
        query = query.where(Result.storage_class == storage_class)
    if imported is not None:
        query = query.where(Result.imported == imported)
    if job_name is not None:
        query = query.where(Result.job_name == job_name)
    total = db.scalar(select(func.count()).select_from(query.subquery())) or 0
    rows = db.scalars(query.order_by(Result.id.desc()).limit(limit).offset(offset)).all()
    return rows, total
