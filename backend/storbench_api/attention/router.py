"""What needs attention: the dashboard's panel and `storbench attention`."""

from typing import Annotated

from fastapi import APIRouter, Query

from storbench_api.attention import service
from storbench_api.attention.schemas import AttentionOut
from storbench_api.deps import DB, ReadAccess

router = APIRouter(tags=["attention"])


@router.get("/attention", response_model=AttentionOut, summary="What needs attention")
def needs_attention(
    db: DB,
    principal: ReadAccess,
    days: Annotated[int, Query(ge=1, le=90, description="failures and results of this many days")] = 7,
    limit: Annotated[int, Query(ge=1, le=50, description="at most this many items of each kind")] = 10,
) -> AttentionOut:
    """Regressions nobody acknowledged, runs and schedule slots that failed (unless a later one
    succeeded), hosts revoked or not online, and series whose newest result is below its spec;
    each with a sentence and the page that resolves it. An empty list: all is well."""
    return service.needs_attention(db, principal.team_id, days=days, limit=limit)
