"""Queries for storage targets."""

from collections.abc import Sequence

from sqlalchemy import func, select
from sqlalchemy.orm import Session, joinedload

from storbench_api.models import Host, Target


def list_targets(
    db: Session, team_id: int, limit: int, offset: int, host_id: int | None = None
) -> tuple[Sequence[Target], int]:
    """A page of the team's targets with their hosts, and the total count."""
    # A removed host's targets leave the list (and the run form's picker) with it; runs keep them.
    query = select(Target).where(Target.team_id == team_id, Target.host.has(Host.removed_at.is_(None)))
    if host_id is not None:
        query = query.where(Target.host_id == host_id)
    total = db.scalar(select(func.count()).select_from(query.subquery())) or 0
    rows = db.scalars(
        query.options(joinedload(Target.host)).order_by(Target.name).limit(limit).offset(offset)
    ).all()
    return rows, total


def get_target(db: Session, team_id: int, target_id: int) -> Target | None:
    """The team's target with its host."""
    return db.scalar(
        select(Target)
        .options(joinedload(Target.host))
        .where(Target.team_id == team_id, Target.id == target_id)
    )


def target_by_name(db: Session, team_id: int, name: str) -> Target | None:
    """The team's target with this name."""
    return db.scalar(select(Target).where(Target.team_id == team_id, Target.name == name))
