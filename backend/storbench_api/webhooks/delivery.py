"""One delivery attempt: claim the due ones, POST each within a deadline, record the outcome.

Where it runs: the API processes' background loop (storbench_api.sweeper) through the dispatcher
(webhooks.dispatcher), which keeps several attempts in flight, a few per team at most.
Several API processes may sweep at once; a delivery is claimed before it is sent so only one sends
it: on PostgreSQL by SELECT … FOR UPDATE SKIP LOCKED (sweepers never wait for each other), on
SQLite (one writer at a time) by an UPDATE … WHERE still-due whose row count says who won. The claim
pushes next_attempt_at ahead by a lease and counts the attempt, and is committed before the HTTP
request, so no transaction is held open across the network and a sender that dies mid-attempt
leaves the delivery to be retried after the lease. Not Celery: a delivery is one short HTTP request,
the loop already exists in every deployment (embedded included), and a due-time column gives the
backoff for free.
"""

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

import httpx
from sqlalchemy.orm import Session

from storbench_api.models.webhook import DeliveryStatus, Webhook, WebhookDelivery, WebhookFormat
from storbench_api.security import Unsealable, unseal
from storbench_api.settings import get_settings
from storbench_api.webhooks import messages, repository, signing
from storbench_api.webhooks.destination import DestinationRefused, resolve

log = logging.getLogger(__name__)

EXCERPT_BYTES = 500


@dataclass(frozen=True)
class ClaimedDelivery:
    """What sending one delivery needs, read while it was claimed."""

    id: int
    team_id: int
    delivery_uid: str
    event: str
    url: str
    # The signing secret, unsealed at claim time (never stored in the clear); None when no server
    # key opens it (STORBENCH_SECRET_KEY changed without the old one among the previous keys).
    secret: str | None
    body: bytes
    attempt: int


@dataclass(frozen=True)
class Outcome:
    """What one attempt gave."""

    delivered: bool
    status_code: int | None = None
    error: str | None = None
    excerpt: str | None = None


Sender = Callable[[ClaimedDelivery], Awaitable[Outcome]]


def envelope(delivery: WebhookDelivery, fmt: WebhookFormat = WebhookFormat.storbench) -> bytes:
    """The body of a delivery in the webhook's format: the same bytes on every attempt."""
    document: dict[str, Any] = {
        "id": delivery.delivery_uid,
        "event": delivery.event,
        "created_at": delivery.created_at.isoformat(),
        "team_id": delivery.team_id,
        "data": delivery.payload,
    }
    return messages.body(fmt, document)


def retry_delay(attempts: int) -> timedelta:
    """The wait after the attempts-th failed attempt: the base, doubling each time."""
    base: timedelta = get_settings().webhook_retry_base
    return base * (1 << max(attempts - 1, 0))


def _lease() -> timedelta:
    return get_settings().webhook_timeout * 2 + timedelta(seconds=30)


def claim_due(
    db: Session, now: datetime, limit: int, share: int, room: Mapping[int, int]
) -> list[ClaimedDelivery]:
    """Claim up to limit due deliveries, at most share of one team's (room[team] for a team given).

    The caller commits before sending.
    """
    lease_until = now + _lease()
    if db.get_bind().dialect.name == "postgresql":
        rows = list(repository.lock_due_deliveries(db, now, limit, share, room))
    else:
        won = [
            delivery_id
            for delivery_id in repository.due_delivery_ids(db, now, limit, share, room)
            if repository.claim_delivery_if_due(db, delivery_id, now, lease_until)
        ]
        rows = [db.get_one(WebhookDelivery, delivery_id, populate_existing=True) for delivery_id in won]
    claimed = []
    for row in rows:
        webhook = db.get_one(Webhook, row.webhook_id)
        row.next_attempt_at = lease_until
        row.attempts += 1
        row.last_attempt_at = now
        claimed.append(
            ClaimedDelivery(
                id=row.id,
                team_id=row.team_id,
                delivery_uid=row.delivery_uid,
                event=row.event,
                url=webhook.url,
                secret=_signing_secret(webhook),
                body=envelope(row, webhook.format),
                attempt=row.attempts,
            )
        )
    db.flush()
    return claimed


def _signing_secret(webhook: Webhook) -> str | None:
    try:
        return unseal(webhook.secret)
    except Unsealable:
        log.warning("webhook %s: its secret cannot be unsealed with the server's keys", webhook.id)
        return None


def record_outcome(db: Session, delivery_id: int, outcome: Outcome, now: datetime) -> None:
    """Delivered, retried later with backoff, or failed for good after the last attempt."""
    row = db.get(WebhookDelivery, delivery_id)
    if row is None:  # its webhook was deleted meanwhile
        return
    row.last_status_code = outcome.status_code
    row.response_excerpt = outcome.excerpt
    if outcome.delivered:
        row.status = DeliveryStatus.delivered
        row.delivered_at = now
        row.last_error = None
        row.next_attempt_at = None
    elif row.attempts >= get_settings().webhook_max_attempts:
        row.status = DeliveryStatus.failed
        row.last_error = outcome.error
        row.next_attempt_at = None
    else:
        row.last_error = outcome.error
        row.next_attempt_at = now + retry_delay(row.attempts)
    db.flush()


async def _excerpt(response: httpx.Response) -> str:
    """The first bytes of the answer, as text fit for the log (never the whole body)."""
    taken = b""
    async for chunk in response.aiter_bytes():
        taken += chunk
        if len(taken) >= EXCERPT_BYTES:
            break
    return taken[:EXCERPT_BYTES].decode("utf-8", "replace").replace("\x00", "")


def _over_deadline(deadline: float) -> Outcome:
    return Outcome(
        delivered=False,
        error=f"exceeded the {deadline:g} s deadline: no complete answer (connect, send, answer) in time",
    )


async def post(delivery: ClaimedDelivery) -> Outcome:
    """POST the delivery to the checked address of its URL, all of it within webhook_timeout."""
    secret = delivery.secret
    if secret is None:
        return Outcome(
            delivered=False,
            error="not sent: the webhook's secret was sealed under a server key that is no longer "
            "configured (put the old STORBENCH_SECRET_KEY in STORBENCH_PREVIOUS_SECRET_KEYS, or "
            "rotate the webhook's secret)",
        )
    deadline = get_settings().webhook_timeout.total_seconds()
    try:
        async with asyncio.timeout(deadline):
            return await _attempt(delivery, secret, deadline)
    except TimeoutError:
        return _over_deadline(deadline)


async def _attempt(delivery: ClaimedDelivery, secret: str, deadline: float) -> Outcome:
    """One POST to the checked address, no redirects; the caller bounds its duration."""
    try:
        # getaddrinfo blocks: in a thread, so a slow resolver holds this delivery, not the others.
        destination = await asyncio.to_thread(resolve, delivery.url)
    except DestinationRefused as exc:
        return Outcome(delivered=False, error=f"refused: {exc}")
    parts = destination.url
    address = destination.address
    literal = f"[{address}]" if address.version == 6 else str(address)
    pinned = parts._replace(netloc=f"{literal}:{destination.port}").geturl()
    headers = signing.delivery_headers(
        secret=secret,
        event=delivery.event,
        delivery_uid=delivery.delivery_uid,
        timestamp=int(time.time()),
        body=delivery.body,
    )
    headers["Host"] = parts.netloc
    extensions = {"sni_hostname": destination.host} if parts.scheme == "https" else {}
    try:
        async with (
            httpx.AsyncClient(timeout=deadline, follow_redirects=False, trust_env=False) as client,
            client.stream(
                "POST", pinned, content=delivery.body, headers=headers, extensions=extensions
            ) as response,
        ):
            excerpt = await _excerpt(response)
            code = response.status_code
    except httpx.TimeoutException:
        return _over_deadline(deadline)
    except httpx.HTTPError as exc:
        return Outcome(delivered=False, error=f"could not connect: {type(exc).__name__}: {exc}"[:500])
    if 200 <= code < 300:
        return Outcome(delivered=True, status_code=code, excerpt=excerpt)
    if 300 <= code < 400:
        error = f"answered {code}: redirects are not followed, register the final URL"
    else:
        error = f"answered {code}"
    return Outcome(delivered=False, status_code=code, error=error, excerpt=excerpt)
