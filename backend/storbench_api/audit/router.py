"""The team's audit log, for owners."""

from datetime import datetime
from typing import Any

from fastapi import APIRouter, Query
from pydantic import BaseModel

from storbench_api.audit import service
from storbench_api.deps import DB, OwnerAccess

router = APIRouter(prefix="/audit", tags=["audit"])


class AuditEventOut(BaseModel):
    """One recorded action."""

    id: int
    created_at: datetime
    actor: str
    action: str
    resource_type: str
    resource_id: int | None
    hosts: list[str]
    details: dict[str, Any]


class AuditList(BaseModel):
    """A page of events, newest first."""

    items: list[AuditEventOut]
    total: int


@router.get("", response_model=AuditList, summary="Who started, cancelled, created or deleted what")
def list_events(
    db: DB,
    principal: OwnerAccess,
    action: str | None = Query(None, max_length=64),
    limit: int = Query(100, ge=1, le=1000),
    offset: int = Query(0, ge=0),
) -> AuditList:
    """Events of the caller's team, filterable by action (e.g. run.started)."""
    rows, total = service.list_events(db, principal.team_id, limit, offset, action)
    return AuditList(items=[AuditEventOut.model_validate(r, from_attributes=True) for r in rows], total=total)
