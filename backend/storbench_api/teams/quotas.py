"""What one team may keep: the one check every domain asks before it adds a row of a kind.

Each quota is a setting (STORBENCH_QUOTA_*); reaching one is a 409 naming the quota and the
setting that raises it. The team's row is locked while counting, so two requests adding at once
cannot both take the last place (PostgreSQL; SQLite runs one writer at a time anyway).
"""

from dataclasses import dataclass
from typing import Any

from sqlalchemy import ColumnElement, func, select
from sqlalchemy.orm import InstrumentedAttribute, Session

from storbench_api.errors import Conflict
from storbench_api.models import Team
from storbench_api.settings import Settings, get_settings


class QuotaReached(Conflict):
    """The team keeps as many of a kind as its quota allows."""

    code = "quota_reached"


@dataclass(frozen=True)
class Quota:
    """A kind of row a team keeps a bounded number of."""

    what: str  # "saved views", as the message names them
    setting: str  # the Settings field holding the bound

    @property
    def variable(self) -> str:
        """The environment variable that raises it."""
        return f"STORBENCH_{self.setting.upper()}"

    def limit(self, settings: Settings | None = None) -> int:
        """The bound in force."""
        value: int = getattr(settings or get_settings(), self.setting)
        return value


SAVED_VIEWS = Quota("saved views", "quota_saved_views")
SCHEDULES = Quota("schedules", "quota_schedules")
STORAGE_CLASSES = Quota("storage classes", "quota_storage_classes")
WEBHOOKS = Quota("webhooks", "quota_webhooks")
PENDING_DELIVERIES = Quota("pending webhook deliveries", "quota_pending_deliveries")


def count_of_team(
    db: Session, team_id: int, team_column: InstrumentedAttribute[Any], *where: ColumnElement[bool]
) -> int:
    """How many rows of team_column's table the team has (matching where)."""
    query = select(func.count()).select_from(team_column.class_).where(team_column == team_id, *where)
    return db.scalar(query) or 0


def is_full(
    db: Session,
    team_id: int,
    quota: Quota,
    team_column: InstrumentedAttribute[Any],
    *where: ColumnElement[bool],
) -> bool:
    """Whether the team already keeps as many as the quota allows (without locking)."""
    return count_of_team(db, team_id, team_column, *where) >= quota.limit()


def ensure_room(
    db: Session,
    team_id: int,
    quota: Quota,
    team_column: InstrumentedAttribute[Any],
    *where: ColumnElement[bool],
) -> None:
    """Raise QuotaReached unless the team may add one more; call it before adding the row."""
    db.execute(select(Team.id).where(Team.id == team_id).with_for_update())
    limit = quota.limit()
    if count_of_team(db, team_id, team_column, *where) >= limit:
        raise QuotaReached(
            f"your team keeps {limit} {quota.what}, its quota: delete some first, or ask the operator "
            f"to raise {quota.variable}",
            [
                {
                    "field": quota.setting,
                    "value": str(limit),
                    "reason": f"quota of {quota.what} per team reached",
                }
            ],
        )
