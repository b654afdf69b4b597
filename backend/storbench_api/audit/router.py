"""The team's audit log, for owners."""

from typing import Annotated

from fastapi import APIRouter, Query

from storbench_api.audit import service
from storbench_api.audit.schemas import AuditList
from storbench_api.deps import DB, OwnerAccess
from storbench_api.pagination import Page, page_params

router = APIRouter(prefix="/audit", tags=["audit"])


@router.get("", response_model=AuditList, summary="Who started, cancelled, created or deleted what")
def list_events(
    db: DB,
    principal: OwnerAccess,
    page: Annotated[Page, page_params(max_limit=1000)],
    action: Annotated[str | None, Query(max_length=64)] = None,
) -> AuditList:
    """Events of the caller's team, filterable by action (e.g. run.started)."""
    items, total = service.list_events(db, principal.team_id, page.limit, page.offset, action)
    return AuditList(items=items, total=total)
