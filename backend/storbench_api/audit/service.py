"""Recording who did what, for owners to review. Services record; routers never do."""

from collections.abc import Sequence
from typing import Any

from sqlalchemy.orm import Session

from storbench_api.audit import repository
from storbench_api.audit.schemas import AuditDetails, AuditEventOut
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
    """Add an event in the caller's transaction, so it lands exactly when the change does.

    The details must be fields of AuditDetails (a typo fails here, not in a reader's table).
    """
    checked = AuditDetails.model_validate(details)
    db.add(
        AuditEvent(
            team_id=team_id,
            actor=actor,
            action=action,
            resource_type=resource_type,
            resource_id=resource_id,
            hosts=list(hosts),
            details=checked.model_dump(mode="json"),
        )
    )


def list_events(
    db: Session, team_id: int, limit: int, offset: int, action: str | None = None
) -> tuple[list[AuditEventOut], int]:
    """A page of the team's events, newest first, and the total count."""
    rows, total = repository.list_events(db, team_id, limit, offset, action)
    return [describe(row) for row in rows], total


def describe(event: AuditEvent) -> AuditEventOut:
    """An event as the API shows it (details of fields no longer recorded are left out)."""
    known = {key: value for key, value in (event.details or {}).items() if key in AuditDetails.model_fields}
    return AuditEventOut(
        id=event.id,
        created_at=event.created_at,
        actor=event.actor,
        action=event.action,
        resource_type=event.resource_type,
        resource_id=event.resource_id,
        hosts=list(event.hosts or []),
        details=AuditDetails.model_validate(known),
    )
