"""Webhook endpoints, for team owners."""

from typing import Annotated

from fastapi import APIRouter, Response, status

from storbench_api.deps import DB, OwnerAccess
from storbench_api.errors import Conflict
from storbench_api.ids import IdPath
from storbench_api.openapi import errors, rules_beyond_schema
from storbench_api.pagination import Page, page_params
from storbench_api.webhooks import service
from storbench_api.webhooks.events import EVENTS
from storbench_api.webhooks.schemas import (
    DeliveryList,
    DeliveryOut,
    WebhookCreate,
    WebhookCreated,
    WebhookList,
    WebhookOut,
    WebhookUpdate,
)

router = APIRouter(prefix="/webhooks", tags=["webhooks"])


@router.get("", response_model=WebhookList, summary="The team's webhooks")
def list_webhooks(db: DB, principal: OwnerAccess, page: Annotated[Page, page_params()]) -> WebhookList:
    """URLs, events and how the latest delivery went; secrets are never shown again."""
    rows, total = service.list_webhooks(db, principal.team_id, page)
    items = [service.describe_webhook(db, w) for w in rows]
    return WebhookList(items=items, total=total, events=list(EVENTS))


@router.post(
    "",
    response_model=WebhookCreated,
    status_code=status.HTTP_201_CREATED,
    summary="Register a webhook",
    responses=errors(Conflict),
    openapi_extra=rules_beyond_schema(
        "the URL's host must resolve, and to a public address: loopback, private and link-local "
        "destinations are refused unless the operator allows them (STORBENCH_WEBHOOK_ALLOWED_NETWORKS)"
    ),
)
def create_webhook(body: WebhookCreate, db: DB, principal: OwnerAccess) -> WebhookCreated:
    """The signing secret is in this response only. Loopback, private and link-local URLs are refused."""
    webhook, secret = service.create_webhook(db, principal, body)
    db.commit()
    return WebhookCreated(**service.describe_webhook(db, webhook).model_dump(), secret=secret)


@router.get("/{webhook_id}", response_model=WebhookOut, summary="One webhook")
def get_webhook(webhook_id: IdPath, db: DB, principal: OwnerAccess) -> WebhookOut:
    """URL, events, active flag and the latest delivery."""
    return service.describe_webhook(db, service.get_webhook(db, principal.team_id, webhook_id))


@router.patch(
    "/{webhook_id}",
    response_model=WebhookOut,
    summary="Change a webhook",
    openapi_extra=rules_beyond_schema(
        "the URL's host must resolve, and to a public address: loopback, private and link-local "
        "destinations are refused unless the operator allows them (STORBENCH_WEBHOOK_ALLOWED_NETWORKS)"
    ),
)
def update_webhook(webhook_id: IdPath, body: WebhookUpdate, db: DB, principal: OwnerAccess) -> WebhookOut:
    """An inactive webhook receives no new events (pending deliveries are still sent)."""
    webhook = service.update_webhook(db, principal, webhook_id, body)
    db.commit()
    return service.describe_webhook(db, webhook)


@router.post(
    "/{webhook_id}/rotate-secret", response_model=WebhookCreated, summary="Replace a webhook's secret"
)
def rotate_secret(webhook_id: IdPath, db: DB, principal: OwnerAccess) -> WebhookCreated:
    """The new signing secret is in this response only; deliveries sent from now on are signed with it."""
    webhook, secret = service.rotate_secret(db, principal, webhook_id)
    db.commit()
    return WebhookCreated(**service.describe_webhook(db, webhook).model_dump(), secret=secret)


@router.delete("/{webhook_id}", status_code=204, summary="Delete a webhook")
def delete_webhook(webhook_id: IdPath, db: DB, principal: OwnerAccess) -> Response:
    """The webhook and its delivery log are removed."""
    service.delete_webhook(db, principal, webhook_id)
    db.commit()
    return Response(status_code=204)


@router.get("/{webhook_id}/deliveries", response_model=DeliveryList, summary="A webhook's delivery log")
def list_deliveries(
    webhook_id: IdPath,
    db: DB,
    principal: OwnerAccess,
    page: Annotated[Page, page_params(default_limit=50, max_limit=200)],
) -> DeliveryList:
    """Status, attempts, last HTTP status and error, and an excerpt of the answer; newest first."""
    rows, total = service.deliveries(db, principal.team_id, webhook_id, page)
    return DeliveryList(items=[service.describe_delivery(d) for d in rows], total=total)


@router.post(
    "/{webhook_id}/test",
    response_model=DeliveryOut,
    status_code=status.HTTP_202_ACCEPTED,
    summary="Send a test event",
)
def send_test(webhook_id: IdPath, db: DB, principal: OwnerAccess) -> DeliveryOut:
    """Queue a signed "ping" delivery; it appears in the delivery log within seconds."""
    delivery = service.send_test(db, principal, webhook_id)
    db.commit()
    return service.describe_delivery(delivery)


@router.post(
    "/{webhook_id}/deliveries/{delivery_id}/retry",
    response_model=DeliveryOut,
    status_code=status.HTTP_202_ACCEPTED,
    summary="Send a failed delivery again",
    responses=errors(Conflict),
)
def retry_delivery(webhook_id: IdPath, delivery_id: IdPath, db: DB, principal: OwnerAccess) -> DeliveryOut:
    """The delivery starts over with its attempts."""
    delivery = service.retry_delivery(db, principal, webhook_id, delivery_id)
    db.commit()
    return service.describe_delivery(delivery)
