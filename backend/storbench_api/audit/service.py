"""Recording who did what, for owners to review."""

from collections.abc import Sequence
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from storbench_api.models import AuditEvent


def record(
    db: Session,
    *,
    team_id: int,
    actor: str,
    action: str,
    resource_type: str,
    resource_id: int | None,
    hosts: Sequence[str] = (),
    **details: Any,
) -> None:
    """Add an event in the caller's transaction, so it lands exactly when the change does."""
    db.add(
        AuditEvent(
            team_id=team_id,
            actor=actor,
            action=action,
            resource_type=resource_type,
            resource_id=resource_id,
            hosts=list(hosts),
            details=details,
        )
    )


def list_events(
    db: Session, team_id: int, limit: int, offset: int, action: str | None = None
) -> tuple[Sequence[AuditEvent], int]:
    """A page of the team's events, newest first."""
    query = select(AuditEvent).where(AuditEvent.team_id == team_id)
    if action is not None:
        query = query.where(AuditEvent.action == action)
    total = db.scalar(select(func.count()).select_from(query.subquery())) or 0
    rows = db.scalars(query.order_by(AuditEvent.id.desc()).limit(limit).offset(offset)).all()
    return rows, total
