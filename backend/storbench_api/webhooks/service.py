"""Webhooks: registration, the delivery log, and recording events to deliver."""

import uuid
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from fastapi.encoders import jsonable_encoder
from sqlalchemy.orm import Session

from storbench_api.audit import service as audit
from storbench_api.auth.service import Principal
from storbench_api.db import utcnow
from storbench_api.errors import Conflict, NotFound
from storbench_api.models.webhook import DeliveryStatus, Webhook, WebhookDelivery
from storbench_api.pagination import Page
from storbench_api.security import seal
from storbench_api.settings import get_settings
from storbench_api.teams import quotas
from storbench_api.webhooks import events, repository, signing
from storbench_api.webhooks.destination import ensure_acceptable
from storbench_api.webhooks.schemas import (
    DeliveryOut,
    DeliverySummary,
    WebhookCreate,
    WebhookOut,
    WebhookUpdate,
)


def enqueue_event(db: Session, team_id: int, event: str, payload: dict[str, Any]) -> None:
    """Record one delivery of event per active webhook of the team subscribed to it.

    Runs in the caller's transaction (only flushes): the deliveries exist only if the caller
    commits, and the delivery sweep sends them afterwards, out of the request path. A team
    without webhooks records nothing. payload: anything JSON-encodable (datetimes included).

    Once the team has its quota of pending deliveries (a receiver long down), new events are
    recorded as failed deliveries saying why, rather than queued: the backlog keeps its order and
    its retries, the owner sees in the delivery log what was dropped, and the table stops growing
    in pending work the sweep must look through.
    """
    now = utcnow()
    body = jsonable_encoder(payload)
    subscribed = [w for w in repository.active_webhooks_of_team(db, team_id) if event in (w.events or [])]
    if not subscribed:
        return
    full = quotas.is_full(
        db,
        team_id,
        quotas.PENDING_DELIVERIES,
        WebhookDelivery.team_id,
        WebhookDelivery.status == DeliveryStatus.pending,
    )
    for webhook in subscribed:
        delivery = _new_delivery(webhook, event, body, now=now)
        if full:
            delivery.status = DeliveryStatus.failed
            delivery.last_error = _dropped_reason()
        db.add(delivery)
    db.flush()


def _dropped_reason() -> str:
    quota = quotas.PENDING_DELIVERIES
    return (
        f"not sent: the team had {quota.limit()} {quota.what}, its quota (the operator raises "
        f"{quota.variable})"
    )


def _new_delivery(webhook: Webhook, event: str, payload: dict[str, Any], *, now: datetime) -> WebhookDelivery:
    return WebhookDelivery(
        webhook_id=webhook.id,
        team_id=webhook.team_id,
        delivery_uid=str(uuid.uuid4()),
        event=event,
        payload=payload,
        status=DeliveryStatus.pending,
        attempts=0,
        next_attempt_at=now,
        created_at=now,
        updated_at=now,
    )


def get_webhook(db: Session, team_id: int, webhook_id: int) -> Webhook:
    """The team's webhook, or 404 (another team's too)."""
    webhook = repository.webhook_of_team(db, team_id, webhook_id)
    if webhook is None:
        raise NotFound(f"webhook {webhook_id} not found")
    return webhook


def list_webhooks(db: Session, team_id: int, page: Page) -> tuple[Sequence[Webhook], int]:
    """A page of the team's webhooks, oldest first, and how many it has."""
    return repository.webhooks_of_team(db, team_id, page)


def create_webhook(db: Session, principal: Principal, body: WebhookCreate) -> tuple[Webhook, str]:
    """A new webhook and its secret (the caller shows it once)."""
    url = body.url.strip()
    ensure_acceptable(url)
    quotas.ensure_room(db, principal.team_id, quotas.WEBHOOKS, Webhook.team_id)
    secret = signing.new_secret()
    webhook = Webhook(
        team_id=principal.team_id,
        url=url,
        description=body.description,
        secret=seal(secret),
        events=sorted(set(body.events)),
        active=body.active,
        format=body.format,
        created_by_id=principal.user_id,
    )
    db.add(webhook)
    db.flush()
    audit.record(
        db,
        team_id=principal.team_id,
        actor=principal.actor,
        action="webhook.created",
        resource_type="webhook",
        resource_id=webhook.id,
        url=url,
        events=webhook.events,
    )
    return webhook, secret


def update_webhook(db: Session, principal: Principal, webhook_id: int, body: WebhookUpdate) -> Webhook:
    """Change the URL, events, description or active flag."""
    webhook = get_webhook(db, principal.team_id, webhook_id)
    given = body.model_fields_set
    if "url" in given and body.url is not None:
        ensure_acceptable(body.url.strip())
        webhook.url = body.url.strip()
    if "events" in given and body.events is not None:
        webhook.events = sorted(set(body.events))
    if "description" in given:
        webhook.description = body.description
    if "active" in given and body.active is not None:
        webhook.active = body.active
    if "format" in given and body.format is not None:
        webhook.format = body.format
    db.flush()
    audit.record(
        db,
        team_id=principal.team_id,
        actor=principal.actor,
        action="webhook.updated",
        resource_type="webhook",
        resource_id=webhook.id,
        changed=sorted(given),
    )
    return webhook


def rotate_secret(db: Session, principal: Principal, webhook_id: int) -> tuple[Webhook, str]:
    """A new signing secret for the webhook (the caller shows it once); the old one stops at once.

    Deliveries read the secret when they are sent, so pending ones are signed with the new one too.
    """
    webhook = get_webhook(db, principal.team_id, webhook_id)
    secret = signing.new_secret()
    webhook.secret = seal(secret)
    db.flush()
    audit.record(
        db,
        team_id=principal.team_id,
        actor=principal.actor,
        action="webhook.secret_rotated",
        resource_type="webhook",
        resource_id=webhook.id,
    )
    return webhook, secret


def delete_webhook(db: Session, principal: Principal, webhook_id: int) -> None:
    """Remove a webhook and its delivery log."""
    webhook = get_webhook(db, principal.team_id, webhook_id)
    audit.record(
        db,
        team_id=principal.team_id,
        actor=principal.actor,
        action="webhook.deleted",
        resource_type="webhook",
        resource_id=webhook.id,
        url=webhook.url,
    )
    db.delete(webhook)
    db.flush()


def send_test(db: Session, principal: Principal, webhook_id: int) -> WebhookDelivery:
    """Queue a "ping" delivery to this webhook, whatever it subscribed to."""
    webhook = get_webhook(db, principal.team_id, webhook_id)
    delivery = _new_delivery(
        webhook,
        events.PING,
        {"message": "test event sent from storbench", "webhook_id": webhook.id, "by": principal.email},
        now=utcnow(),
    )
    db.add(delivery)
    db.flush()
    return delivery


def retry_delivery(db: Session, principal: Principal, webhook_id: int, delivery_id: int) -> WebhookDelivery:
    """Send a failed delivery again from its first attempt."""
    webhook = get_webhook(db, principal.team_id, webhook_id)
    delivery = db.get(WebhookDelivery, delivery_id)
    if delivery is None or delivery.webhook_id != webhook.id:
        raise NotFound(f"delivery {delivery_id} not found for webhook {webhook_id}")
    if delivery.status != DeliveryStatus.failed:
        raise Conflict(f"delivery {delivery_id} is {delivery.status}: only a failed delivery is sent again")
    delivery.status = DeliveryStatus.pending
    delivery.attempts = 0
    delivery.next_attempt_at = utcnow()
    db.flush()
    return delivery


def deliveries(
    db: Session, team_id: int, webhook_id: int, page: Page
) -> tuple[Sequence[WebhookDelivery], int]:
    """A page of the webhook's delivery log, newest first, and how many deliveries it has."""
    webhook = get_webhook(db, team_id, webhook_id)
    return repository.page_of_deliveries(db, webhook.id, page)


def describe_delivery(delivery: WebhookDelivery) -> DeliveryOut:
    """A delivery as the API shows it."""
    return DeliveryOut(
        id=delivery.id,
        delivery_uid=delivery.delivery_uid,
        event=delivery.event,
        status=delivery.status,
        attempts=delivery.attempts,
        max_attempts=get_settings().webhook_max_attempts,
        next_attempt_at=delivery.next_attempt_at if delivery.status == DeliveryStatus.pending else None,
        last_attempt_at=delivery.last_attempt_at,
        last_status_code=delivery.last_status_code,
        last_error=delivery.last_error,
        response_excerpt=delivery.response_excerpt,
        delivered_at=delivery.delivered_at,
        created_at=delivery.created_at,
        payload=delivery.payload,
    )


def describe_webhook(db: Session, webhook: Webhook) -> WebhookOut:
    """A webhook as the API shows it, with how its latest delivery went."""
    latest = next(iter(repository.deliveries_of_webhook(db, webhook.id, 1)), None)
    return WebhookOut(
        id=webhook.id,
        url=webhook.url,
        description=webhook.description,
        events=list(webhook.events or []),
        active=webhook.active,
        format=webhook.format,
        created_at=webhook.created_at,
        updated_at=webhook.updated_at,
        latest_delivery=DeliverySummary(
            status=latest.status,
            event=latest.event,
            created_at=latest.created_at,
            last_status_code=latest.last_status_code,
            last_error=latest.last_error,
        )
        if latest is not None
        else None,
    )
