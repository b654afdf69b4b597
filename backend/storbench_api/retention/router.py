"""The current team's retention settings: every member reads them, owners change them."""

from fastapi import APIRouter

from storbench_api.deps import DB, OwnerAccess, ReadAccess
from storbench_api.retention import service
from storbench_api.retention.schemas import RetentionIn, RetentionOut

router = APIRouter(prefix="/teams/current/retention", tags=["teams"])


@router.get("", response_model=RetentionOut, summary="How long the team keeps raw outputs and series")
def get_retention(db: DB, principal: ReadAccess) -> RetentionOut:
    """Days raw outputs and per-second series are kept (null: forever); summaries are kept forever."""
    return service.get_settings_of(db, principal.team_id)


@router.put(
    "", response_model=RetentionOut, summary="Set how long the team keeps raw outputs and series (owners)"
)
def set_retention(body: RetentionIn, db: DB, principal: OwnerAccess) -> RetentionOut:
    """Applied within STORBENCH_RETENTION_INTERVAL (an hour by default); recorded in the audit log.

    What is past a window then goes for good: raw outputs are emptied (their results stay, with every
    figure, in history and comparisons) and runs lose their per-second series (a multi-host run keeps
    its aggregate).
    """
    retention = service.set_settings(db, principal, body)
    db.commit()
    return retention
