"""The counts a scrape reads from the database: each one query over an index, whatever the history."""

from collections.abc import Sequence
from datetime import datetime
from typing import NamedTuple

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from storbench_api.models import DeliveryStatus, Host, Run, RunStatus, Team, WebhookDelivery


class LiveHost(NamedTuple):
    """A host that has not been removed: what its gauges are labelled with."""

    id: int
    name: str
    team: str
    last_seen_at: datetime | None


def runs_by_status(db: Session) -> dict[RunStatus, int]:
    """How many runs are in each state (every state, zero included)."""
    counted = dict(db.execute(select(Run.status, func.count()).group_by(Run.status)).all())
    return {status: int(counted.get(status, 0)) for status in RunStatus}


def live_hosts(db: Session) -> Sequence[LiveHost]:
    """Every host not removed, with its team's name, by id."""
    query = (
        select(Host.id, Host.name, Team.name, Host.last_seen_at)
        .join(Team, Team.id == Host.team_id)
        .where(Host.removed_at.is_(None))
        .order_by(Host.id)
    )
    return [LiveHost(*row) for row in db.execute(query)]


def pending_deliveries(db: Session) -> int:
    """Webhook deliveries waiting to go out, every team's."""
    query = select(func.count()).where(WebhookDelivery.status == DeliveryStatus.pending)
    return int(db.scalar(query) or 0)
