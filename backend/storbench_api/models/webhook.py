"""Team webhooks and the log of every delivery made to them."""

import enum
from datetime import datetime
from typing import Any

from sqlalchemy import JSON, Enum, ForeignKey, Index, String, Text, true
from sqlalchemy.orm import Mapped, mapped_column

from storbench_api.db import Base, TimestampMixin, utcnow


class DeliveryStatus(enum.StrEnum):
    """Where a delivery stands: waiting for its (next) attempt, delivered, or given up."""

    pending = "pending"
    delivered = "delivered"
    failed = "failed"


class WebhookFormat(enum.StrEnum):
    """The shape of the message a webhook receives."""

    storbench = "storbench"  # the signed JSON envelope (id, event, created_at, team_id, data)
    slack = "slack"  # a Slack incoming-webhook message: {"text", "blocks"}
    teams = "teams"  # a Microsoft Teams incoming-webhook MessageCard


class Webhook(TimestampMixin, Base):
    """A URL a team's owners registered to receive signed event notifications."""

    __tablename__ = "webhooks"

    id: Mapped[int] = mapped_column(primary_key=True)
    team_id: Mapped[int] = mapped_column(ForeignKey("teams.id", ondelete="CASCADE"), index=True)
    url: Mapped[str] = mapped_column(String(2000))
    description: Mapped[str | None] = mapped_column(String(200))
    # The HMAC key, sealed (security.seal): the server must sign with it, so it is kept encrypted
    # rather than hashed; shown once at creation and at each rotation.
    secret: Mapped[str] = mapped_column(String(256))
    # Event names this webhook receives (e.g. "change_point.regression").
    events: Mapped[list[str]] = mapped_column(JSON, default=list)
    active: Mapped[bool] = mapped_column(default=True, server_default=true())
    format: Mapped[WebhookFormat] = mapped_column(
        Enum(WebhookFormat, native_enum=False, length=16),
        default=WebhookFormat.storbench,
        server_default=WebhookFormat.storbench.value,
    )
    created_by_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))


class WebhookDelivery(TimestampMixin, Base):
    """One event sent (or being sent) to one webhook, with its attempts."""

    __tablename__ = "webhook_deliveries"
    # The delivery sweep reads the due pending deliveries, oldest first.
    __table_args__ = (Index("ix_webhook_deliveries_status_next_attempt_at", "status", "next_attempt_at"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    webhook_id: Mapped[int] = mapped_column(ForeignKey("webhooks.id", ondelete="CASCADE"), index=True)
    team_id: Mapped[int] = mapped_column(ForeignKey("teams.id", ondelete="CASCADE"), index=True)
    # Sent as X-Storbench-Delivery: the receiver's key to drop a retried duplicate.
    delivery_uid: Mapped[str] = mapped_column(String(36), unique=True)
    event: Mapped[str] = mapped_column(String(64))
    payload: Mapped[dict[str, Any]] = mapped_column(JSON)
    status: Mapped[DeliveryStatus] = mapped_column(
        Enum(DeliveryStatus, native_enum=False, length=16), default=DeliveryStatus.pending
    )
    attempts: Mapped[int] = mapped_column(default=0, server_default="0")
    # When the next attempt is due; a claimed delivery has it pushed ahead by a lease, so a
    # sender that dies mid-attempt leaves it to be retried, never lost.
    next_attempt_at: Mapped[datetime | None] = mapped_column(default=utcnow)
    last_attempt_at: Mapped[datetime | None]
    last_status_code: Mapped[int | None]
    last_error: Mapped[str | None] = mapped_column(Text)
    # The first bytes of the receiver's answer, never more.
    response_excerpt: Mapped[str | None] = mapped_column(String(500))
    delivered_at: Mapped[datetime | None]
