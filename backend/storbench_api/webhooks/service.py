"""Webhooks: registration, the delivery log, and recording events to deliver."""

import uuid
from typing import Any

from fastapi.encoders import jsonable_encoder
from sqlalchemy.orm import Session

from storbench_api.db import utcnow
from storbench_api.models.webhook import DeliveryStatus, Webhook, WebhookDelivery
from storbench_api.webhooks import repository


def enqueue_event(db: Session, team_id: int, event: str, payload: dict[str, Any]) -> None:
    """Record one delivery of event per active webhook of the team subscribed to it.

    Runs in the caller's transaction (only flushes): the deliveries exist only if the caller
    commits, and the delivery sweep sends them afterwards, out of the request path. A team
    without webhooks records nothing.
    """
    now = utcnow()
    body = jsonable_encoder(payload)  # datetimes and the like as JSON, once
    for webhook in repository.active_webhooks_of_team(db, team_id):
        if event in (webhook.events or []):
            db.add(_new_delivery(webhook, event, body, now=now))
    db.flush()


def _new_delivery(webhook: Webhook, event: str, payload: dict[str, Any], *, now: Any) -> WebhookDelivery:
    return WebhookDelivery(
        webhook_id=webhook.id,
        team_id=webhook.team_id,
        delivery_uid=str(uuid.uuid4()),
        event=event,
        payload=payload,
        status=DeliveryStatus.pending,
        attempts=0,
        next_attempt_at=now,
    )
