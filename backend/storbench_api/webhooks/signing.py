"""The headers of a delivery, and the signature receivers verify.

X-Storbench-Signature is "sha256=" + hex(HMAC-SHA256(secret, timestamp + "." + body)), with the
timestamp sent as X-Storbench-Timestamp (Unix seconds): a receiver recomputes it over the raw body,
compares in constant time, and refuses old timestamps to stop replays.
"""

import hashlib
import hmac
import secrets

SECRET_PREFIX = "whsec_"


def new_secret() -> str:
    """A fresh signing secret (shown once to the owner who registers the webhook)."""
    return SECRET_PREFIX + secrets.token_urlsafe(32)


def signature(secret: str, timestamp: int, body: bytes) -> str:
    """The X-Storbench-Signature value for this body sent at this timestamp."""
    mac = hmac.new(secret.encode(), f"{timestamp}.".encode() + body, hashlib.sha256)
    return "sha256=" + mac.hexdigest()


def delivery_headers(
    *, secret: str, event: str, delivery_uid: str, timestamp: int, body: bytes
) -> dict[str, str]:
    """Every header a delivery carries."""
    return {
        "Content-Type": "application/json",
        "User-Agent": "storbench-webhooks/1",
        "X-Storbench-Event": event,
        "X-Storbench-Delivery": delivery_uid,
        "X-Storbench-Timestamp": str(timestamp),
        "X-Storbench-Signature": signature(secret, timestamp, body),
    }
