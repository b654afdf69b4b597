"""Every query of the webhooks domain."""

from collections.abc import Sequence
from datetime import datetime

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from storbench_api.models.webhook import DeliveryStatus, Webhook, WebhookDelivery


def active_webhooks_of_team(db: Session, team_id: int) -> Sequence[Webhook]:
    """The team's active webhooks."""
    return db.scalars(
        select(Webhook).where(Webhook.team_id == team_id, Webhook.active.is_(True)).order_by(Webhook.id)
    ).all()


def webhooks_of_team(db: Session, team_id: int) -> Sequence[Webhook]:
    """Every webhook of the team, oldest first."""
    return db.scalars(select(Webhook).where(Webhook.team_id == team_id).order_by(Webhook.id)).all()


def webhook_of_team(db: Session, team_id: int, webhook_id: int) -> Webhook | None:
    """One webhook, only if it is the team's."""
    return db.scalar(select(Webhook).where(Webhook.id == webhook_id, Webhook.team_id == team_id))


def deliveries_of_webhook(
    db: Session, webhook_id: int, limit: int, before_id: int | None = None
) -> Sequence[WebhookDelivery]:
    """A webhook's deliveries, newest first."""
    query = select(WebhookDelivery).where(WebhookDelivery.webhook_id == webhook_id)
    if before_id is not None:
        query = query.where(WebhookDelivery.id < before_id)
    return db.scalars(query.order_by(WebhookDelivery.id.desc()).limit(limit)).all()


def due_delivery_ids(db: Session, now: datetime, limit: int) -> list[int]:
    """Ids of pending deliveries whose attempt is due, oldest first."""
    return list(
        db.scalars(
            select(WebhookDelivery.id)
            .where(
                WebhookDelivery.status == DeliveryStatus.pending,
                WebhookDelivery.next_attempt_at <= now,
            )
            .order_by(WebhookDelivery.next_attempt_at, WebhookDelivery.id)
            .limit(limit)
        )
    )


def lock_due_deliveries(db: Session, now: datetime, limit: int) -> Sequence[WebhookDelivery]:
    """PostgreSQL: due deliveries locked for this transaction; those another sweeper holds are skipped."""
    return db.scalars(
        select(WebhookDelivery)
        .where(
            WebhookDelivery.status == DeliveryStatus.pending,
            WebhookDelivery.next_attempt_at <= now,
        )
        .order_by(WebhookDelivery.next_attempt_at, WebhookDelivery.id)
        .limit(limit)
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
