"""Webhook request and response bodies."""

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, Field

from storbench_api.models.webhook import DeliveryStatus, WebhookFormat
from storbench_api.wire import NO_NUL, RequestBody

EventName = Literal[
    "change_point.regression", "change_point.improvement", "schedule.firing_failed", "schedule.run_failed"
]
FORMAT_DESCRIPTION = (
    "storbench: the signed JSON envelope; slack: a Slack incoming-webhook message ({text, blocks}); "
    "teams: a Microsoft Teams MessageCard. Chat messages say the verdict in words and link to the run "
    "(on STORBENCH_PUBLIC_URL)"
)


class WebhookCreate(RequestBody):
    """A URL to notify of the chosen events (public addresses only)."""

    url: str = Field(
        min_length=8, max_length=2000, pattern=NO_NUL, examples=["https://hooks.example.com/storbench"]
    )
    events: list[EventName] = Field(min_length=1, max_length=20)
    description: str | None = Field(default=None, max_length=200, pattern=NO_NUL)
    active: bool = True
    format: WebhookFormat = Field(
        default=WebhookFormat.storbench, strict=False, description=FORMAT_DESCRIPTION
    )


class WebhookUpdate(RequestBody):
    """Change a webhook; fields left out stay as they are."""

    url: str | None = Field(default=None, min_length=8, max_length=2000, pattern=NO_NUL)
    events: list[EventName] | None = Field(default=None, min_length=1, max_length=20)
    description: str | None = Field(default=None, max_length=200, pattern=NO_NUL)
    active: bool | None = None
    format: WebhookFormat | None = Field(default=None, strict=False, description=FORMAT_DESCRIPTION)


class DeliverySummary(BaseModel):
    """How the latest delivery of a webhook went."""

    status: DeliveryStatus
    event: str
    created_at: datetime
    last_status_code: int | None
    last_error: str | None


class WebhookOut(BaseModel):
    """A registered webhook; its secret is never shown again after creation."""

    id: int
    url: str
    description: str | None
    events: list[str]
    active: bool
    format: WebhookFormat
    created_at: datetime
    updated_at: datetime
    latest_delivery: DeliverySummary | None = None


class WebhookCreated(WebhookOut):
    """A new webhook with its signing secret, shown only this once."""

    secret: str


class WebhookList(BaseModel):
    """The team's webhooks and the events one may subscribe to."""

    items: list[WebhookOut]
    total: int
    events: list[str]


class DeliveryOut(BaseModel):
    """One event sent to one webhook, with its attempts."""

    id: int
    delivery_uid: str
    event: str
    status: DeliveryStatus
    attempts: int
    max_attempts: int
    next_attempt_at: datetime | None
    last_attempt_at: datetime | None
    last_status_code: int | None
    last_error: str | None
    response_excerpt: str | None
    delivered_at: datetime | None
    created_at: datetime
    payload: dict[str, Any]


class DeliveryList(BaseModel):
    """A page of a webhook's deliveries, newest first, and how many it has."""

    items: list[DeliveryOut]
    total: int
