"""Queries for the audit log."""

from collections.abc import Sequence

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from storbench_api.models import AuditEvent


def list_events(
    db: Session, team_id: int, limit: int, offset: int, action: str | None = None
) -> tuple[Sequence[AuditEvent], int]:
    """A page of the team's events, newest first, and the total count."""
    query = select(AuditEvent).where(AuditEvent.team_id == team_id)
    if action is not None:
        query = query.where(AuditEvent.action == action)
    total = db.scalar(select(func.count()).select_from(query.subquery())) or 0
    rows = db.scalars(query.order_by(AuditEvent.id.desc()).limit(limit).offset(offset)).all()
    return rows, total
