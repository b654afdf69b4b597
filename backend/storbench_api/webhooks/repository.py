"""Every query of the webhooks domain."""

from collections.abc import Mapping, Sequence
from datetime import datetime

from sqlalchemy import Select, case, func, literal, select, update
from sqlalchemy.orm import Session

from storbench_api.models.webhook import DeliveryStatus, Webhook, WebhookDelivery
from storbench_api.pagination import Page, fetch_page


def active_webhooks_of_team(db: Session, team_id: int) -> Sequence[Webhook]:
    """The team's active webhooks."""
    return db.scalars(
        select(Webhook).where(Webhook.team_id == team_id, Webhook.active.is_(True)).order_by(Webhook.id)
    ).all()


def webhooks_of_team(db: Session, team_id: int, page: Page) -> tuple[Sequence[Webhook], int]:
    """A page of the team's webhooks, oldest first, and how many it has."""
    return fetch_page(db, select(Webhook).where(Webhook.team_id == team_id).order_by(Webhook.id), page)


def webhook_of_team(db: Session, team_id: int, webhook_id: int) -> Webhook | None:
    """One webhook, only if it is the team's."""
    return db.scalar(select(Webhook).where(Webhook.id == webhook_id, Webhook.team_id == team_id))


def page_of_deliveries(db: Session, webhook_id: int, page: Page) -> tuple[Sequence[WebhookDelivery], int]:
    """A page of a webhook's deliveries, newest first, and how many it has."""
    query = select(WebhookDelivery).where(WebhookDelivery.webhook_id == webhook_id)
    return fetch_page(db, query.order_by(WebhookDelivery.id.desc()), page)


def deliveries_of_webhook(
    db: Session, webhook_id: int, limit: int, before_id: int | None = None
) -> Sequence[WebhookDelivery]:
    """A webhook's deliveries, newest first."""
    query = select(WebhookDelivery).where(WebhookDelivery.webhook_id == webhook_id)
    if before_id is not None:
        query = query.where(WebhookDelivery.id < before_id)
    return db.scalars(query.order_by(WebhookDelivery.id.desc()).limit(limit)).all()


def _due_ids_fairly(now: datetime, limit: int, share: int, room: Mapping[int, int]) -> Select[tuple[int]]:
    """Ids of due pending deliveries, oldest first, at most share of one team (room[team] if given).

    Ranked within each team, so a team with a thousand due deliveries leaves the rest of the limit
    to the other teams' instead of filling it with its own oldest.
    """
    rank = (
        func.row_number()
        .over(
            partition_by=WebhookDelivery.team_id,
            order_by=(WebhookDelivery.next_attempt_at, WebhookDelivery.id),
        )
        .label("rank")
    )
    ranked = (
        select(WebhookDelivery.id, WebhookDelivery.team_id, WebhookDelivery.next_attempt_at, rank)
        .where(WebhookDelivery.status == DeliveryStatus.pending, WebhookDelivery.next_attempt_at <= now)
        .subquery()
    )
    allowed = case(dict(room), value=ranked.c.team_id, else_=share) if room else literal(share)
    return (
        select(ranked.c.id)
        .where(ranked.c.rank <= allowed)
        .order_by(ranked.c.next_attempt_at, ranked.c.id)
        .limit(limit)
    )


def due_delivery_ids(
    db: Session, now: datetime, limit: int, share: int, room: Mapping[int, int]
) -> list[int]:
    """Ids of due pending deliveries, oldest first, each team's held to its share (see _due_ids_fairly)."""
    return list(db.scalars(_due_ids_fairly(now, limit, share, room)))


def lock_due_deliveries(
    db: Session, now: datetime, limit: int, share: int, room: Mapping[int, int]
) -> Sequence[WebhookDelivery]:
    """PostgreSQL: due deliveries (as due_delivery_ids) locked; those another sweeper holds are skipped."""
    return db.scalars(
        select(WebhookDelivery)
        .where(
            WebhookDelivery.id.in_(_due_ids_fairly(now, limit, share, room)),
            WebhookDelivery.status == DeliveryStatus.pending,
            WebhookDelivery.next_attempt_at <= now,
        )
        .order_by(WebhookDelivery.next_attempt_at, WebhookDelivery.id)
        .with_for_update(skip_locked=True)
    ).all()


def claim_delivery_if_due(db: Session, delivery_id: int, now: datetime, lease_until: datetime) -> bool:
    """SQLite (one writer at a time): claim one due delivery by an update-where; True if this caller won."""
    result = db.execute(
        update(WebhookDelivery)
        .where(
            WebhookDelivery.id == delivery_id,
            WebhookDelivery.status == DeliveryStatus.pending,
            WebhookDelivery.next_attempt_at <= now,
        )
        .values(next_attempt_at=lease_until)
        .execution_options(synchronize_session=False)
    )
    return bool(getattr(result, "rowcount", 0))
